/**
 * How the service refuses a value of a request it cannot take, declared on the value's schema in
 * the operation table: the KAS code of a value that is missing, and of one that is present but
 * wrong. The emulator answers every malformed body, query and path parameter through one mapper
 * that reads these annotations (a field without one: 1061608 when missing, 1061615 otherwise), and
 * its OpenAPI document lists them; the client itself never sends a value its checks refuse.
 *
 * @since 0.10.0
 */
import { Option, type Schema, SchemaAST } from "effect"
import * as ErrorBody from "../ErrorBody.js"
import { HEX_QUANTITY } from "../internal/hex.js"
import { HEX_BYTES } from "../internal/hexBytes.js"

/**
 * The annotation's key.
 *
 * @since 0.10.0
 * @category annotations
 */
export const RefusalId: unique symbol = Symbol.for("effect-kas-wallet/api/Refusal")

/**
 * How a value is refused.
 *
 * @since 0.10.0
 * @category models
 */
export interface Refusal {
  /**
   * What counts as missing besides absent, `null` and `""`: `"0x"` for bytes that cannot be empty,
   * the zero address for a recipient, 0 for a count.
   */
  readonly empty?: ((raw: unknown) => boolean) | undefined
  /** The code of a missing value; default 1061608 (`EmptyOrZero`). */
  readonly missing?: number | undefined
  /** The code of a value present but refused, or how to tell it from the value; default 1061615 (`OutOfRange`). */
  readonly invalid?: number | ((raw: unknown) => number) | undefined
}

/**
 * Annotates a schema with its refusal.
 *
 * @since 0.10.0
 * @category annotations
 */
export const annotate = (refusal: Refusal) => <S extends Schema.Annotable.All>(schema: S): S =>
  schema.annotations({ [RefusalId]: refusal }) as S

/**
 * The refusal a schema node declares, if any.
 *
 * @since 0.10.0
 * @category annotations
 */
export const get = (ast: SchemaAST.AST): Refusal | undefined =>
  Option.getOrUndefined(SchemaAST.getAnnotation<Refusal>(RefusalId)(ast))

/**
 * The code a refused value gets: missing (absent, `null`, `""`, or `empty`) or invalid.
 *
 * @since 0.10.0
 * @category refusing
 */
export const codeOf = (refusal: Refusal | undefined, raw: unknown, absentKey: boolean): number => {
  const missing = absentKey || raw === null || raw === "" || (raw !== undefined && refusal?.empty?.(raw) === true)
  if (missing) return refusal?.missing ?? ErrorBody.Code.EmptyOrZero
  const invalid = refusal?.invalid ?? ErrorBody.Code.OutOfRange
  return typeof invalid === "number" ? invalid : invalid(raw)
}

const isString = (u: unknown): u is string => typeof u === "string"
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const ANY_HEX = /^0x[0-9a-fA-F]*$/
const ZERO_ADDRESS = /^0x0{40}$/

/**
 * An address: one the schema refuses (not `0x` and 40 hex digits, a wrong checksum) is 1061609
 * (`NotKlaytnAddress`).
 *
 * @since 0.10.0
 * @category presets
 */
export const address: Refusal = { invalid: ErrorBody.Code.NotKlaytnAddress }

/**
 * An address that must also be unique in its list (a registration's): one of the right shape
 * refused (given twice) is 1061615, any other 1061609.
 *
 * @since 0.10.0
 * @category presets
 */
export const listedAddress: Refusal = {
  invalid: (raw) => (isString(raw) && ADDRESS.test(raw) ? ErrorBody.Code.OutOfRange : ErrorBody.Code.NotKlaytnAddress)
}

/**
 * A recipient: an address, the zero address counting as missing.
 *
 * @since 0.10.0
 * @category presets
 */
export const recipient: Refusal = { ...address, empty: (raw) => isString(raw) && ZERO_ADDRESS.test(raw) }

/**
 * A quantity in hex (`value`): not `0x` hex is 1061607 (`NotHex`); hex the rules refuse (too large)
 * 1061615.
 *
 * @since 0.10.0
 * @category presets
 */
export const quantity: Refusal = {
  invalid: (raw) => (isString(raw) && HEX_QUANTITY.test(raw) ? ErrorBody.Code.OutOfRange : ErrorBody.Code.NotHex)
}

/**
 * Bytes that cannot be empty (`input` of a deployment, `rlp`): `"0x"` counts as missing; not `0x`
 * and an even number of hex digits is 1061607.
 *
 * @since 0.10.0
 * @category presets
 */
export const bytes: Refusal = {
  empty: (raw) => raw === "0x",
  invalid: (raw) => (isString(raw) && HEX_BYTES.test(raw) ? ErrorBody.Code.OutOfRange : ErrorBody.Code.NotHex)
}

/**
 * Fixed-length hex (a hash): text that is not `0x` hex (with `evenDigits`, an even number of hex
 * digits) is 1061607, anything else refused 1061615.
 *
 * @since 0.10.0
 * @category presets
 */
export const hex = (options?: { readonly evenDigits?: boolean }): Refusal => {
  const pattern = options?.evenDigits === true ? HEX_BYTES : ANY_HEX
  return { invalid: (raw) => (isString(raw) && !pattern.test(raw) ? ErrorBody.Code.NotHex : ErrorBody.Code.OutOfRange) }
}

/**
 * A hex path segment of fixed length whose every wrong length means "no such thing" (`notFound`).
 *
 * @since 0.10.0
 * @category presets
 */
export const hexId = (notFound: number): Refusal => ({
  invalid: (raw) => (isString(raw) && ANY_HEX.test(raw) ? notFound : ErrorBody.Code.NotHex)
})

/**
 * Always one code, missing or not.
 *
 * @since 0.10.0
 * @category presets
 */
export const always = (code: number): Refusal => ({ missing: code, invalid: code })
