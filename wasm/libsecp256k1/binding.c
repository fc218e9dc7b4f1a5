/*
 * What the client calls in libsecp256k1: public-key recovery of one ECDSA signature, nothing else
 * (the linker drops the rest of the library). The caller writes the hash and the signature into
 * the module's fixed buffers, calls `recover`, and reads the key back: no allocation, no pointer
 * crosses the boundary. The context is the library's static one (no tables to build: the
 * verification tables are compiled in).
 *
 * Built by build.sh beside this file; the client's side is src/internal/secp256k1Wasm.ts.
 */
#include "secp256k1.h"
#include "secp256k1_recovery.h"

/* The 32-byte hash that was signed, the 64-byte compact signature (r ‖ s, big-endian), and the
 * recovered key, 65 bytes uncompressed (0x04 ‖ x ‖ y). */
unsigned char io_hash[32];
unsigned char io_signature[64];
unsigned char io_key[65];

static secp256k1_ecdsa_recoverable_signature signature;
static secp256k1_pubkey key;

/* 1 when the signature (r and s below the order, recovery id 0 to 3) recovers a key, in io_key;
 * 0 when it does not. */
int recover(int recovery_id) {
  size_t length = sizeof io_key;
  if (!secp256k1_ecdsa_recoverable_signature_parse_compact(secp256k1_context_static, &signature, io_signature, recovery_id)) return 0;
  if (!secp256k1_ecdsa_recover(secp256k1_context_static, &key, &signature, io_hash)) return 0;
  return secp256k1_ec_pubkey_serialize(secp256k1_context_static, io_key, &length, &key, SECP256K1_EC_UNCOMPRESSED);
}

/* Neither callback can fire from `recover` with the buffers above (they report NULL arguments and
 * failed allocations); if one ever did, the call traps and the client recovers in JavaScript. */
void secp256k1_default_illegal_callback_fn(const char *message, void *data) {
  (void)message;
  (void)data;
  __builtin_trap();
}

void secp256k1_default_error_callback_fn(const char *message, void *data) {
  (void)message;
  (void)data;
  __builtin_trap();
}

/* The C library's few calls the compiled code may keep (no C library is linked). */
void abort(void) { __builtin_trap(); }

int memcmp(const void *a, const void *b, unsigned long n) {
  const unsigned char *x = a, *y = b;
  for (unsigned long i = 0; i < n; i++) {
    if (x[i] != y[i]) return x[i] - y[i];
  }
  return 0;
}
