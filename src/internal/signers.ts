/**
 * Known signers: once a signature has recovered an address, later signatures of that signer
 * are checked against its point directly instead of being recovered. Recovery rebuilds the point R from `r` (a square root modulo p) and multiplies an
 * unknown point; checking against a known point skips the root, and a signer seen often gets
 * precomputed multiples, which makes its multiplication about three times cheaper. A transfer's
 * result carries one or two signatures of the same few signers (the sender, the global fee
 * payer), so the client's check of every result costs a fraction of a recovery (docs/benchmarks.md).
 *
 * The check is the recovery's own equation: `recover(hash, (r, s, v)) = P` exactly when
 * `s⁻¹·(h·G + r·P)` is the point whose x is `r` and whose y has the parity of the recovery id.
 * A signature that fails it is recovered as before, so errors name who signed.
 *
 * @internal
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { hexOfBytes } from "./hex.js"

type Point = ReturnType<typeof secp256k1.Point.fromBytes>

interface Entry {
  readonly point: Point
  uses: number
  precomputed: boolean
}

// Bounds: points are small; a precomputed table (window 6) is about 0.4 MB, so only the most
// used few get one, once they have signed often enough to repay its ~20 ms.
const MAX_SIGNERS = 256
const MAX_PRECOMPUTED = 4
const PRECOMPUTE_AFTER = 8

const signers = new Map<string, Entry>()
let precomputed = 0

const { Point: P, Point: { Fn } } = secp256k1

/**
 * Remembers the point of a signer under `id` (its address).
 *
 * @internal
 */
export const remember = (id: string, point: Point): void => {
  if (signers.has(id)) return
  if (signers.size >= MAX_SIGNERS) {
    const [oldest, entry] = signers.entries().next().value as [string, Entry]
    if (entry.precomputed) precomputed--
    signers.delete(oldest)
  }
  signers.set(id, { point, uses: 0, precomputed: false })
}

/**
 * Whether the signer remembered under `id` made the signature (r, s, recovery id) of `hash`;
 * `undefined` when no signer is remembered under `id`. `r` and `s` must already be in range.
 *
 * @internal
 */
export const signedBy = (id: string, hash: Uint8Array, r: bigint, s: bigint, recovery: number): boolean | undefined => {
  const entry = signers.get(id)
  if (entry === undefined) return undefined
  // Most recently used last: the oldest is evicted first.
  signers.delete(id)
  signers.set(id, entry)
  if (!entry.precomputed && ++entry.uses >= PRECOMPUTE_AFTER && precomputed < MAX_PRECOMPUTED) {
    entry.point.precompute(6, false)
    entry.precomputed = true
    precomputed++
  }
  const h = Fn.create(BigInt(hexOfBytes(hash)))
  const is = Fn.inv(s)
  const u1 = Fn.create(h * is)
  const u2 = Fn.create(r * is)
  const R = entry.precomputed
    ? P.BASE.multiplyUnsafe(u1).add(entry.point.multiplyUnsafe(u2))
    : P.BASE.mulAddUnsafe(u1, entry.point, u2)
  if (R.is0()) return false
  const { x, y } = R.toAffine()
  return x === r && Number(y & 1n) === recovery
}
