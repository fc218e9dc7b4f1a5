/* The declarations libsecp256k1 includes from <string.h>: copies and fills are the compiler's
 * (bulk-memory instructions), comparisons binding.c's. */
#pragma once
#include <stddef.h>
int memcmp(const void *a, const void *b, size_t n);
#define memcpy(to, from, n) __builtin_memcpy(to, from, n)
#define memmove(to, from, n) __builtin_memmove(to, from, n)
#define memset(to, value, n) __builtin_memset(to, value, n)
