/**
 * Known signers: once a signature has recovered an address, later signatures of that signer are
 * checked against its point directly instead of being recovered. Recovery rebuilds the point R
 * from `r` (a square root modulo p) and multiplies an unknown point; checking against a known point
 * skips the root. A transfer's result carries one or two signatures of the same few signers (the
 * sender, the global fee payer), so the client's check of every result costs a fraction of a
 * recovery (docs/benchmarks.md).
 *
 * The check is the recovery's own equation: `recover(hash, (r, s, v)) = P` exactly when
 * `s⁻¹·(h·G + r·P)` is the point whose x is `r` and whose y has the parity of the recovery id.
 * A signature that fails it is recovered as before, so errors name who signed.
 *
 * The first few signers to sign often get a table of multiples in the WebAssembly engine
 * (`secp256k1Wasm`), which makes their checks about 17 times cheaper than @noble/curves'
 * (docs/benchmarks.md); where WebAssembly cannot run, every check uses @noble/curves.
 *
 * @internal
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { hexOfBytes } from "./hex.js"
import { type Engine, load } from "./secp256k1Wasm.js"

type Point = ReturnType<typeof secp256k1.Point.fromBytes>

interface Entry {
  readonly point: Point
  uses: number
  /** Where the engine keeps this signer's table, once it has one. */
  place: number | undefined
}

// Bounds: points are small; a table is 264 KB of the engine's memory, so only the first few
// signers to sign often enough to repay its ~20 ms get one, kept until they are forgotten.
const MAX_SIGNERS = 256
const MAX_TABLED = 4
const TABLE_AFTER = 8

const signers = new Map<string, Entry>()
// Places 1..MAX_TABLED (the engine keeps G's at 0): free or whose.
const places: Array<string | undefined> = Array.from({ length: MAX_TABLED + 1 })
// Loaded on the first table: `undefined` after that where WebAssembly cannot run.
let engine: Engine | undefined
let engineLoaded = false

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
    if (entry.place !== undefined) places[entry.place] = undefined
    signers.delete(oldest)
  }
  signers.set(id, { point, uses: 0, place: undefined })
}

// A table for the signer, when it has signed often enough, a place is free and the engine runs.
const tabulate = (id: string, entry: Entry) => {
  const place = places.indexOf(undefined, 1)
  if (place === -1) return
  if (!engineLoaded) {
    engine = load()
    engineLoaded = true
  }
  if (engine === undefined) return
  engine.tabulate(place, entry.point)
  places[place] = id
  entry.place = place
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
  if (entry.place === undefined && ++entry.uses >= TABLE_AFTER) tabulate(id, entry)
  const h = Fn.create(BigInt(hexOfBytes(hash)))
  const is = Fn.inv(s)
  const u1 = Fn.create(h * is)
  const u2 = Fn.create(r * is)
  let R: { readonly x: bigint; readonly y: bigint } | undefined
  if (entry.place !== undefined) R = engine!.mulAdd(u1, entry.place, u2)
  else {
    const point = P.BASE.mulAddUnsafe(u1, entry.point, u2)
    R = point.is0() ? undefined : point.toAffine()
  }
  return R !== undefined && R.x === r && Number(R.y & 1n) === recovery
}
