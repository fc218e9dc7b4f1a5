/**
 * The value behind `KeyId`: a plain class, built without validation by the decoders that have
 * already checked its parts.
 *
 * @internal
 */
import { Equal, Hash, Inspectable } from "effect"
import * as Krn from "../Krn.js"

/**
 * A key id's value, which `KeyId.KeyId` describes (this module does not import KeyId, which
 * imports it: the class is checked against the interface where KeyId hands it out).
 *
 * A plain class rather than Schema.Class: a page decode builds one per account, and Schema.Class
 * construction cost 10x more (docs/benchmarks.md). Equality and hashing are still structural.
 *
 * @internal
 */
export class KeyIdImpl implements Equal.Equal, Inspectable.Inspectable {
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
export const make = (poolKrn: Krn.PoolKrn, keyHex: string): KeyIdImpl => new KeyIdImpl(poolKrn, keyHex)

/**
 * Whether a value is a key id.
 *
 * @internal
 */
export const isKeyId = (u: unknown): u is KeyIdImpl => u instanceof KeyIdImpl
