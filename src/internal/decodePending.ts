/**
 * Fast decoding of a multisig account's pending transactions. `Multisig.PendingTransaction` is the
 * contract; decoding a 1000-transaction page with its schema costs about 20x `JSON.parse` (each
 * item is three structs deep, with six addresses), enough to take most of what read-ahead gains
 * (docs/benchmarks.md). This decoder applies the very same rules, through the predicates the
 * schemas' own filters and transformations use, straight over the parsed JSON, and falls back to
 * the schema whenever anything is off, so failures always carry the schema's path-named
 * ParseError. Property tests (test/Multisig.test.ts) prove both paths agree on valid and
 * broken input.
 *
 * @internal
 */
import { type Either, type ParseResult, Schema } from "effect"
import * as Amount from "../Amount.js"
import * as ChainId from "../ChainId.js"
import * as Multisig from "../Multisig.js"
import * as Timestamp from "../Timestamp.js"
import * as Transaction from "../Transaction.js"
import { isTxType } from "../TxType.js"
import { type AddressMemo, addressMemo, checksummed, has, isInt, pageDecoder } from "./fastPage.js"
import { isHexBytes } from "./hexBytes.js"

type Mutable<A> = { -readonly [K in keyof A]: A[K] }

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

// The optional fields' decoders (`undefined`: refused). An optional field that is present is
// decoded whatever its value (`exact`).
const peb = (u: unknown): Amount.Peb | undefined => (typeof u === "string" ? Amount.pebOfHex(u) : undefined)
const hexBytes = (u: unknown): string | undefined => (typeof u === "string" && isHexBytes(u) ? u : undefined)
// `Schema.Int.pipe(Schema.between(0, 99))`.
const feeRatio = (u: unknown): number | undefined => (isInt(u) && u >= 0 && u <= 99 ? u : undefined)

/**
 * Copies an optional field of `u` into `result` when present, decoded; `false` when present and
 * refused. Addresses take the page's checksum memo.
 */
const optional = <K extends "to" | "value" | "input" | "accountKey" | "feePayer" | "feeRatio">(
  u: Record<string, unknown>,
  key: K,
  decode: (u: unknown, memo: AddressMemo) => Transaction.PendingTxData[K] | undefined,
  memo: AddressMemo,
  result: Mutable<Transaction.PendingTxData>
): boolean => {
  if (!has(u, key)) return true
  const value = decode(u[key], memo)
  if (value === undefined) return false
  result[key] = value
  return true
}

/** `Transaction.PendingTxData`'s result, or `undefined`. */
const fastTxData = (u: unknown, memo: AddressMemo): Transaction.PendingTxData | undefined => {
  if (!isObject(u)) return undefined
  const { gas, nonce, typeInt } = u
  // `Schema.Literal` of every type.
  if (typeof typeInt !== "number" || !isTxType(typeInt)) return undefined
  const from = checksummed(u.from, memo)
  if (from === undefined) return undefined
  // `Schema.NonNegativeInt`.
  if (!isInt(gas) || gas < 0 || !isInt(nonce) || nonce < 0) return undefined
  const gasPrice = peb(u.gasPrice)
  if (gasPrice === undefined) return undefined
  // The schema's fields in its order, the optional ones only when present.
  const result = { typeInt, from } as Mutable<Transaction.PendingTxData>
  if (!optional(u, "to", checksummed, memo, result) || !optional(u, "value", peb, memo, result)) return undefined
  result.gas = gas
  result.gasPrice = gasPrice
  result.nonce = nonce
  if (
    !optional(u, "input", hexBytes, memo, result) || !optional(u, "accountKey", hexBytes, memo, result) ||
    !optional(u, "feePayer", checksummed, memo, result) || !optional(u, "feeRatio", feeRatio, memo, result)
  ) return undefined
  return Transaction.isPendingShape(result) ? result : undefined
}

/** `Multisig.Signer` for each signer, or `undefined`. */
const fastSigners = (u: unknown, memo: AddressMemo): ReadonlyArray<Multisig.Signer> | undefined => {
  if (!Array.isArray(u)) return undefined
  const source: ReadonlyArray<unknown> = u
  const out = new Array<Multisig.Signer>(source.length)
  for (let i = 0; i < source.length; i++) {
    const signer = source[i]
    if (!isObject(signer)) return undefined
    const address = checksummed(signer.address, memo)
    if (address === undefined) return undefined
    const weight = signer.weight
    // `Schema.Int.pipe(Schema.positive())`.
    if (!isInt(weight) || weight <= 0) return undefined
    out[i] = { address, weight }
  }
  return out
}

/** The decoded pending transaction, or `undefined` when any rule fails (the schema then says which). */
const fastPending = (u: unknown, memo: AddressMemo): Multisig.PendingTransaction | undefined => {
  if (!isObject(u)) return undefined
  const { chainId, createdAt, status, threshold, transactionId, updatedAt } = u
  const address = checksummed(u.address, memo)
  if (address === undefined) return undefined
  if (!ChainId.isChainId(chainId)) return undefined
  if (typeof createdAt !== "number" || !Timestamp.isTimestamp(createdAt)) return undefined
  const multiSigKeys = fastSigners(u.multiSigKeys, memo)
  if (multiSigKeys === undefined) return undefined
  if (!isInt(status) || status < 0) return undefined
  if (!isInt(threshold) || threshold <= 0) return undefined
  if (typeof transactionId !== "string" || !Transaction.isAnyCaseHash(transactionId)) return undefined
  const txData = fastTxData(u.txData, memo)
  if (txData === undefined) return undefined
  const hasType = has(u, "type")
  const type = u.type
  if (hasType && typeof type !== "string") return undefined
  if (typeof updatedAt !== "number" || !Timestamp.isTimestamp(updatedAt)) return undefined
  const result = {
    address,
    chainId,
    createdAt: createdAt as Timestamp.Timestamp,
    multiSigKeys,
    status,
    threshold,
    transactionId: transactionId.toLowerCase() as Transaction.TransactionId,
    txData
  } as Mutable<Multisig.PendingTransaction>
  if (hasType) result.type = type as string
  result.updatedAt = updatedAt as Timestamp.Timestamp
  return result
}

/**
 * Decodes a page of pending transactions from parsed JSON: the `Multisig.PendingTransactionPage`
 * schema's result, computed faster (every rule still applies, EIP-55 checksums included).
 *
 * @internal
 */
export const decodePage: (u: unknown) => Either.Either<Multisig.PendingTransactionPage, ParseResult.ParseError> = pageDecoder({
  item: fastPending,
  memo: addressMemo,
  schema: Schema.decodeUnknownEither(Multisig.PendingTransactionPage)
})
