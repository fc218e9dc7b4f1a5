/*
 * What the client calls in libsecp256k1: public-key recovery of one ECDSA signature, recoverable
 * signing (RFC 6979 nonces, low s: the library's defaults) and public-key derivation, nothing
 * else (the linker drops the rest of the library). The caller writes its inputs into the module's
 * fixed buffers, calls a function, and reads the answer back: no allocation, no pointer crosses
 * the boundary. Recovery uses the library's static context (no tables to build: the verification
 * tables are compiled in); signing and derivation use one context made in a static buffer and
 * randomized once with the caller's seed (the library's side-channel blinding), whose
 * multiplication table of G is compiled in too.
 *
 * Built by build.sh beside this file; the client's side is src/internal/secp256k1Wasm.ts.
 */
#include "secp256k1.h"
#include "secp256k1_preallocated.h"
#include "secp256k1_recovery.h"

/* The 32-byte hash signed or to sign, the 64-byte compact signature (r ‖ s, big-endian), a public
 * key (65 bytes uncompressed, 0x04 ‖ x ‖ y, or 33 compressed), a private key (cleared by every call
 * that reads it), and the 32 random bytes `init` blinds the signing context with (cleared by it). */
unsigned char io_hash[32];
unsigned char io_signature[64];
unsigned char io_key[65];
unsigned char io_secret[32];
unsigned char io_seed[32];

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

/* The signing context's memory: the context is a few hundred bytes (its tables are static). */
static _Alignas(16) unsigned char signing_memory[1024];
static secp256k1_context *signing = 0;

/* Stores zeros that the compiler may not drop (the secrets are read nowhere after). */
static void clear(unsigned char *p, unsigned long n) {
  volatile unsigned char *v = p;
  for (unsigned long i = 0; i < n; i++) v[i] = 0;
}

/* Makes the signing context and randomizes it with io_seed; 1 when done (once: later calls
 * answer 1 and leave it). */
int init(void) {
  int ok;
  if (signing != 0) return 1;
  if (secp256k1_context_preallocated_size(SECP256K1_CONTEXT_NONE) > sizeof signing_memory) return 0;
  signing = secp256k1_context_preallocated_create(signing_memory, SECP256K1_CONTEXT_NONE);
  ok = secp256k1_context_randomize(signing, io_seed);
  clear(io_seed, sizeof io_seed);
  return ok;
}

/* Signs io_hash with io_secret (after `init`): 1 + the recovery id, with r ‖ s in io_signature;
 * 0 when io_secret is not a key (0, or not below the order). */
int sign(void) {
  secp256k1_ecdsa_recoverable_signature made;
  int recovery_id;
  int ok = secp256k1_ecdsa_sign_recoverable(signing, &made, io_hash, io_secret, 0, 0);
  clear(io_secret, sizeof io_secret);
  if (!ok) return 0;
  secp256k1_ecdsa_recoverable_signature_serialize_compact(signing, io_signature, &recovery_id, &made);
  return 1 + recovery_id;
}

/* The public key of io_secret (after `init`) into io_key, 33 bytes when `compressed`, else 65;
 * 0 when io_secret is not a key. */
int public_key(int compressed) {
  size_t length = compressed ? 33 : 65;
  int ok = secp256k1_ec_pubkey_create(signing, &key, io_secret);
  clear(io_secret, sizeof io_secret);
  return ok && secp256k1_ec_pubkey_serialize(signing, io_key, &length, &key, compressed ? SECP256K1_EC_COMPRESSED : SECP256K1_EC_UNCOMPRESSED);
}

/* Neither callback can fire with the buffers above (they report NULL arguments, a context that
 * cannot sign, and failed allocations); if one ever did, the call traps and the client signs or
 * recovers in JavaScript. */
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
