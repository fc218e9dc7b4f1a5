/**
 * Signing and public keys for the emulator's own keys, in variable time: the same bytes as the
 * client's `Klaytn.sign` (RFC 6979 deterministic nonces, low S) and as `secp256k1.getPublicKey`,
 * at about 0.6 of their cost.
 *
 * @noble/curves multiplies a secret scalar by the base point in constant time with a 128-bit
 * blinding: a 384-bit multiplication over a table of its own, built on first use (some 40 ms of
 * CPU, in every emulator process's start). That protects keys from someone timing the process; the
 * emulator's keys are test keys in a local database, where the profile of a transfer found the
 * signature the largest single cost. Here the base point is multiplied over the unblinded 256-bit
 * table (`multiplyUnsafe`) and the nonce drawn with Node's HMAC-SHA256. The client keeps the
 * constant-time path for real keys (docs/emulator.md, "Throughput of the emulator process").
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.12.0
 * @internal
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Either } from "effect"
import { createHmac } from "node:crypto"
import * as Klaytn from "effect-kas-wallet/Klaytn"

const N = secp256k1.Point.CURVE().n
const HalfN = N >> 1n
const Base = secp256k1.Point.BASE

const bigintOf = (bytes: Uint8Array): bigint => (bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString("hex")}`))

const bytes32 = (n: bigint): Buffer => Buffer.from(n.toString(16).padStart(64, "0"), "hex")

const mod = (a: bigint): bigint => {
  const r = a % N
  return r >= 0n ? r : r + N
}

// The inverse modulo the (prime) curve order, by the extended Euclidean algorithm.
const invert = (a: bigint): bigint => {
  let [x, y, u, v] = [0n, 1n, N, mod(a)]
  while (v !== 0n) {
    const q = u / v
    ;[x, y] = [y, x - q * y]
    ;[u, v] = [v, u - q * v]
  }
  return mod(x)
}

const hmac = (key: Uint8Array, ...data: ReadonlyArray<Uint8Array>): Buffer => {
  const h = createHmac("sha256", key)
  for (const d of data) h.update(d)
  return h.digest()
}

const Zero = Uint8Array.of(0)
const One = Uint8Array.of(1)

const validKey = (privateKey: Uint8Array): bigint | undefined => {
  if (privateKey.length !== 32) return undefined
  const d = bigintOf(privateKey)
  return d >= 1n && d < N ? d : undefined
}

/**
 * Signs a 32-byte hash for a chain, as `Klaytn.sign` does (same bytes, same refusals).
 *
 * @since 0.12.0
 * @category signing
 */
export const sign = (hash: Uint8Array, privateKey: Uint8Array, chainId: number): Either.Either<Klaytn.SignatureValues, Klaytn.KlaytnError> => {
  const d = validKey(privateKey)
  // A bad hash or key: the client's refusal, word for word.
  if (hash.length !== 32 || d === undefined) return Klaytn.sign(hash, privateKey, chainId)
  const m = mod(bigintOf(hash))
  // RFC 6979, section 3.2, with HMAC-SHA256 (qlen = hlen = 256: one block per candidate).
  const seed = Buffer.concat([bytes32(d), bytes32(m)])
  let v: Uint8Array = Buffer.alloc(32, 1)
  let k: Uint8Array = Buffer.alloc(32, 0)
  k = hmac(k, v, Zero, seed)
  v = hmac(k, v)
  k = hmac(k, v, One, seed)
  v = hmac(k, v)
  for (;;) {
    v = hmac(k, v)
    const nonce = bigintOf(v)
    if (nonce >= 1n && nonce < N) {
      const q = Base.multiplyUnsafe(nonce).toAffine()
      const r = mod(q.x)
      if (r !== 0n) {
        const s = mod(invert(nonce) * mod(m + r * d))
        if (s !== 0n) {
          // The recovery id as @noble/curves gives it: R's y parity, 2 more when R's x is not
          // below N (a negligible share of nonces); flipped with S when S is made low.
          const recovery = ((q.x === r ? 0 : 2) | Number(q.y & 1n)) ^ (s > HalfN ? 1 : 0)
          return Either.right({ v: 2 * chainId + 35 + recovery, r, s: s > HalfN ? N - s : s })
        }
      }
    }
    k = hmac(k, v, Zero)
    v = hmac(k, v)
  }
}

/**
 * The public key of a private key (uncompressed: 65 bytes, compressed: 33), as
 * `secp256k1.getPublicKey` gives it (and throws for a bad key).
 *
 * @since 0.12.0
 * @category keys
 */
export const publicKey = (privateKey: Uint8Array, compressed: boolean): Uint8Array => {
  const d = validKey(privateKey)
  return d === undefined ? secp256k1.getPublicKey(privateKey, compressed) : Base.multiplyUnsafe(d).toBytes(compressed)
}
