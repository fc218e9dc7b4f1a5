/**
 * The values routes take from their paths (an address, a public key, a transaction hash): how each
 * is read from its raw, percent-encoded segment, and how the document describes it.
 *
 * Each reader decodes the segment itself and answers a malformed one with a 400: the router hands
 * segments over undecoded (see `PathPattern`), so no path can reach a decoder that fails with a
 * 500.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Either, Option } from "effect"
import { Address, PublicKey, Transaction } from "effect-kas-wallet"
import * as ApiError from "./ApiError.js"
import * as Description from "./Description.js"

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HEX = /^0x[0-9a-fA-F]*$/

// `decodeURIComponent` throws on a malformed escape (`%zz`); a route answers that as bad input.
const decode = (raw: string): Option.Option<string> => {
  try {
    return Option.some(decodeURIComponent(raw))
  } catch {
    return Option.none()
  }
}

/**
 * Reads an address path segment (percent-decoded): `0x` + 40 hex digits in any case, else 400
 * `1061609`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseAddress = (raw: string): Either.Either<string, ApiError.ApiError> =>
  Option.match(Option.filter(decode(raw), (a) => ADDRESS.test(a)), {
    onNone: () => Either.left(ApiError.notAddress("address")),
    onSome: Either.right
  })

/**
 * Reads a public key path segment (percent-decoded) in any of the forms the client accepts —
 * uncompressed (`0x04` + 128 hex digits), compressed (`0x02`/`0x03` + 64) or raw coordinates
 * (`0x` + 128) — as the uncompressed lower-case form the accounts store. `None` for a compressed
 * key that is no point of the curve: no account can have it. Not `0x` and hex: 400 `1061607`; hex
 * of another length or prefix: 400 `1061615`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parsePublicKey = (raw: string): Either.Either<Option.Option<string>, ApiError.ApiError> => {
  const key = decode(raw)
  if (Option.isNone(key) || !HEX.test(key.value)) return Either.left(ApiError.notHex("public-key"))
  const digits = key.value.slice(2).toLowerCase()
  if (digits.length === 130 && digits.startsWith("04")) return Either.right(Option.some(`0x${digits}`))
  if (digits.length === 128) return Either.right(Option.some(`0x04${digits}`))
  if (digits.length === 66 && (digits.startsWith("02") || digits.startsWith("03"))) {
    try {
      return Either.right(Option.some(`0x${secp256k1.Point.fromHex(digits).toHex(false)}`))
    } catch {
      return Either.right(Option.none())
    }
  }
  return Either.left(ApiError.outOfRange("public-key"))
}

/**
 * Reads a transaction hash path segment (percent-decoded) as lower case. Not `0x` and hex: 400
 * `1061607`; hex of another length than 64 digits: 400 `1065000`, as no transaction has that hash.
 *
 * @since 0.3.0
 * @category parsing
 */
export const parseTransactionHash = (raw: string): Either.Either<string, ApiError.ApiError> => {
  const hash = decode(raw)
  if (Option.isNone(hash) || !HEX.test(hash.value)) return Either.left(ApiError.notHex("transaction-hash"))
  if (hash.value.length !== 66) return Either.left(ApiError.transactionNotFound())
  return Either.right(hash.value.toLowerCase())
}

/**
 * The `{address}` parameter, as the document describes it.
 *
 * @since 0.3.0
 * @category documentation
 */
export const address: Description.Parameter = {
  description: `The address, in any case. Malformed: 400 ${ApiError.Code.NotKlaytnAddress}.`,
  schema: Description.domain("Address", Address.Address)
}

/**
 * The `{public-key}` parameter, as the document describes it.
 *
 * @since 0.3.0
 * @category documentation
 */
export const publicKey: Description.Parameter = {
  description:
    `Uncompressed (0x04 + 128 hex digits), compressed (0x02/0x03 + 64) or raw (0x + 128), any case. Not 0x and hex: 400 ${ApiError.Code.NotHex}; another length: 400 ${ApiError.Code.OutOfRange}.`,
  schema: Description.domain("PublicKey", PublicKey.PublicKey)
}

/**
 * The `{transaction-hash}` parameter, as the document describes it.
 *
 * @since 0.3.0
 * @category documentation
 */
export const transactionHash: Description.Parameter = {
  description: `0x and 64 hex digits, any case. Not hex: 400 ${ApiError.Code.NotHex}.`,
  schema: Description.json({ type: "string" })
}

/**
 * Reads a multisig transaction id path segment (percent-decoded) as lower case. Not `0x` and hex:
 * 400 `1061607` naming `transaction-id`, as the service; hex of another length than 64 digits: 400
 * `1061010`, as no transaction has that id.
 *
 * @since 0.8.0
 * @category parsing
 */
export const parseTransactionId = (raw: string): Either.Either<string, ApiError.ApiError> => {
  const id = decode(raw)
  if (Option.isNone(id) || !HEX.test(id.value)) return Either.left(ApiError.notHex("transaction-id"))
  if (id.value.length !== 66) return Either.left(ApiError.dataNotExist())
  return Either.right(id.value.toLowerCase())
}

/**
 * The `{transaction-id}` parameter, as the document describes it.
 *
 * @since 0.8.0
 * @category documentation
 */
export const transactionId: Description.Parameter = {
  description: `A pending transaction's id: 0x and 64 hex digits, any case. Not hex: 400 ${ApiError.Code.NotHex}.`,
  schema: Description.domain("TransactionId", Transaction.TransactionId)
}
