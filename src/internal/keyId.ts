/**
 * The value behind `KeyId`: a plain class, built without validation by the decoders that have
 * already checked its parts.
 *
 * @internal
 */
import { Equal, Hash, Inspectable } from "effect"
import type { KeyId } from "../KeyId.js"
import * as Krn from "../Krn.js"

// A plain class rather than Schema.Class: a page decode builds one per account, and Schema.Class
// construction cost 10x more (docs/benchmarks.md). Equality and hashing are still structural.
class KeyIdImpl implements KeyId {
  constructor(readonly poolKrn: Krn.PoolKrn, readonly keyHex: string) {}
  [Equal.symbol](that: Equal.Equal): boolean {
    return that instanceof KeyIdImpl && this.keyHex === that.keyHex && Krn.equals(this.poolKrn, that.poolKrn)
  }
  [Hash.symbol](): number {
    return Hash.cached(this, Hash.string(this.toString()))
  }
  toString(): string {
    return `${this.poolKrn.toString()}:${this.keyHex}`
  }
  toJSON(): string {
    return this.toString()
  }
  [Inspectable.NodeInspectSymbol](): string {
    return `KeyId(${this.toString()})`
  }
}

/**
 * A key id from parts already known to be valid.
 *
 * @internal
 */
export const make = (poolKrn: Krn.PoolKrn, keyHex: string): KeyId => new KeyIdImpl(poolKrn, keyHex)

/**
 * Whether a value is a key id.
 *
 * @internal
 */
export const isKeyId = (u: unknown): u is KeyId => u instanceof KeyIdImpl
