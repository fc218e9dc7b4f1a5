/**
 * Key ids: the pool KRN of the key's account followed by `:0x` and the key's hex identifier.
 *
 * @since 0.1.0
 */
import { Either, Equal, type FastCheck, type Inspectable, ParseResult, Schema } from "effect"
import { has0x, isHexRange } from "./internal/hexEngine.js"
import { arbitraryHexBytes } from "./internal/hexBytes.js"
import * as Internal from "./internal/keyId.js"
import * as Krn from "./Krn.js"

const KEY_HEX = /^0x[0-9a-fA-F]+$/

// A key identifier as the service makes them: `0x` and 64 hex digits.
const arbitraryKeyHex = (fc: typeof FastCheck): FastCheck.Arbitrary<string> => arbitraryHexBytes(fc, 32, 32)

/**
 * Whether a string is a key identifier: `0x` followed by hex digits.
 *
 * @since 0.1.0
 * @category guards
 */
export const isKeyHex = (s: string): boolean => has0x(s) && isHexRange(s, 2, s.length)

/**
 * The key identifier part of a key id: `0x` followed by hex digits (64 in the real service's
 * responses; any non-zero number is accepted, case preserved).
 *
 * @since 0.1.0
 * @category schemas
 */
export const KeyHex = Schema.String.pipe(
  Schema.pattern(KEY_HEX, { message: () => "key identifier must be 0x followed by hex digits" })
).annotations({
  identifier: "KeyHex",
  arbitrary: () => arbitraryKeyHex
})

/**
 * A decoded key id: its pool KRN and its hex key identifier.
 *
 * @since 0.1.0
 * @category models
 */
export interface KeyId extends Equal.Equal, Inspectable.Inspectable {
  /** The KRN of the pool holding the key (an account's `krn`). */
  readonly poolKrn: Krn.PoolKrn
  /** The key identifier, `0x` followed by hex digits. */
  readonly keyHex: string
  /** The wire form, `<pool-krn>:0x<hex>`. */
  toString(): string
  /** The wire form, so that records holding a key id serialize as the service expects. */
  toJSON(): string
}

/**
 * Whether a value is a `KeyId`.
 *
 * @since 0.1.0
 * @category guards
 */
export const isKeyId: (u: unknown) => u is KeyId = Internal.isKeyId

/**
 * A key id in a pool of one of `resourceTypes`, for the `arbitrary` annotations of the schemas
 * holding one (fast-check as annotations receive it).
 *
 * @since 0.9.0
 * @internal
 */
export const arbitraryKeyId = (fc: typeof FastCheck, resourceTypes: ReadonlyArray<string>): FastCheck.Arbitrary<KeyId> =>
  fc.tuple(Krn.arbitraryPoolKrn<Krn.PoolKrn>(fc, resourceTypes), arbitraryKeyHex(fc)).map(([pool, hex]) => Internal.make(pool, hex))

/**
 * Schema of `KeyId` values themselves.
 *
 * @since 0.1.0
 * @category schemas
 */
export const KeyIdFromSelf: Schema.Schema<KeyId> = Schema.declare(isKeyId, {
  identifier: "KeyIdFromSelf",
  description: "a KeyId value",
  pretty: () => (keyId) => `KeyId(${keyId.toString()})`,
  equivalence: () => Equal.equals,
  arbitrary: () => (fc) => arbitraryKeyId(fc, [Krn.AccountPoolType, Krn.FeePayerPoolType, Krn.KeyPoolType])
})

const decodePoolKrn = ParseResult.decodeUnknownEither(Krn.PoolKrn)
const FORM = "<pool-krn>:0x<hex>"

/**
 * Decodes key id strings, `<pool-krn>:0x<hex>`, and encodes them back unchanged. The pool KRN must
 * be a wallet pool (account pool, fee-payer pool or key pool: the key service's keys).
 *
 * @since 0.1.0
 * @category schemas
 */
export const KeyId: Schema.Schema<KeyId, string> = Schema.transformOrFail(
  Schema.String,
  KeyIdFromSelf,
  {
    strict: true,
    decode: (s, _, ast) => {
      const at = s.lastIndexOf(":")
      const keyHex = at < 0 ? "" : s.slice(at + 1)
      if (!isKeyHex(keyHex)) {
        return ParseResult.fail(
          new ParseResult.Type(ast, s, `key id must have the form ${FORM}: the part after the last ':' must be 0x followed by hex digits`)
        )
      }
      const poolKrn = decodePoolKrn(s.slice(0, at))
      if (poolKrn._tag === "Left") {
        return ParseResult.fail(new ParseResult.Pointer("poolKrn", s, poolKrn.left))
      }
      return ParseResult.succeed(Internal.make(poolKrn.right, keyHex))
    },
    encode: (keyId) => ParseResult.succeed(keyId.toString())
  }
).annotations({
  identifier: "KeyId",
  description: `a key id, ${FORM}`
})

/**
 * Builds a key id from a pool KRN and a hex key identifier, validating the identifier.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (poolKrn: Krn.PoolKrn, keyHex: string): Either.Either<KeyId, ParseResult.ParseError> =>
  Either.map(Schema.decodeUnknownEither(KeyHex)(keyHex), (hex) => Internal.make(poolKrn, hex))
