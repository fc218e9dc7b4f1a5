/* The declarations libsecp256k1 includes from <stdlib.h>: no C library is linked (binding.c). */
#pragma once
#include <stddef.h>
void *malloc(size_t size);
void free(void *pointer);
void abort(void) __attribute__((noreturn));
