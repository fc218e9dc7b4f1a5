/**
 * Fast decoding of the fee-delegation history. `FeeHistory.FeeDelegationRecord` is the contract;
 * decoding a 1000-record page with its schema costs about 15x `JSON.parse`, enough to take most of
 * what read-ahead gains (docs/benchmarks.md). This decoder applies the very same rules, through
 * the predicates the schema's own filters and transformations use, straight over the parsed JSON,
 * and falls back to the schema whenever anything is off, so failures always carry the schema's
 * path-named ParseError. Property tests (test/FeeHistory.test.ts) prove both paths agree on
 * valid and broken input.
 *
 * @internal
 */
import { Either, type ParseResult, Schema } from "effect"
import * as Amount from "../Amount.js"
import * as ChainId from "../ChainId.js"
import * as FeeHistory from "../FeeHistory.js"
import * as Timestamp from "../Timestamp.js"
import * as Transaction from "../Transaction.js"
import { HEX_QUANTITY } from "./hex.js"
import { type AddressMemo, addressMemo, checksummed, has, oneDecoder, pageDecoder } from "./fastPage.js"

type Mutable<A> = { -readonly [K in keyof A]: A[K] }

/** The decoded record, or `undefined` when any rule fails (the schema then says which). */
const fastRecord = (u: unknown, memo: AddressMemo): FeeHistory.FeeDelegationRecord | undefined => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined
  const o = u as Record<string, unknown>
  const {
    chainId,
    chargedByKlay,
    chargedByKrw,
    chargedByPeb,
    chargedByUsd,
    gasPrice,
    gasUsed,
    krw,
    status,
    timestamp,
    transactionHash,
    typeInt,
    usd
  } = o
  if (!ChainId.isChainId(chainId)) return undefined
  if (typeof chargedByKlay !== "string") return undefined
  const klay = Amount.fromKlay(chargedByKlay)
  if (Either.isLeft(klay)) return undefined
  if (typeof chargedByKrw !== "string" || !FeeHistory.isDecimal(chargedByKrw)) return undefined
  if (typeof chargedByPeb !== "string") return undefined
  const peb = FeeHistory.pebOfDecimal(chargedByPeb)
  if (peb === undefined) return undefined
  if (typeof chargedByUsd !== "string" || !FeeHistory.isDecimal(chargedByUsd)) return undefined
  const feePayer = checksummed(o.feePayer, memo)
  if (feePayer === undefined) return undefined
  const from = checksummed(o.from, memo)
  if (from === undefined) return undefined
  if (typeof gasPrice !== "string") return undefined
  const price = Amount.pebOfHex(gasPrice)
  if (price === undefined) return undefined
  if (typeof gasUsed !== "string") return undefined
  const used = Transaction.numberOfHex(gasUsed)
  if (used === undefined) return undefined
  if (typeof krw !== "number" || !FeeHistory.isRate(krw)) return undefined
  if (typeof usd !== "number" || !FeeHistory.isRate(usd)) return undefined
  if (typeof status !== "string" || !HEX_QUANTITY.test(status)) return undefined
  if (typeof timestamp !== "number" || !Timestamp.isTimestamp(timestamp)) return undefined
  if (typeof transactionHash !== "string" || !Transaction.isAnyCaseHash(transactionHash)) return undefined
  if (typeof typeInt !== "number" || !FeeHistory.isFeeDelegatedTypeInt(typeInt)) return undefined
  const hasTo = has(o, "to")
  const to = hasTo ? checksummed(o.to, memo) : undefined
  if (hasTo && to === undefined) return undefined
  const hasRatio = has(o, "feeRatio")
  const feeRatio = o.feeRatio
  if (hasRatio && (typeof feeRatio !== "string" || !FeeHistory.isFeeRatioText(feeRatio))) return undefined
  // The schema's fields in its order, the optional ones only when present.
  const result: Mutable<FeeHistory.FeeDelegationRecord> = {
    chainId,
    chargedByKlay: klay.right,
    chargedByKrw,
    chargedByPeb: peb,
    chargedByUsd,
    feePayer,
    from
  } as Mutable<FeeHistory.FeeDelegationRecord>
  if (hasTo) result.to = to!
  result.gasPrice = price
  result.gasUsed = used
  result.krw = krw
  result.usd = usd
  result.status = status
  result.timestamp = timestamp as Timestamp.Timestamp
  result.transactionHash = transactionHash.toLowerCase() as Transaction.TxHash
  result.typeInt = typeInt
  if (hasRatio) result.feeRatio = feeRatio as string
  return result
}

/**
 * Decodes one record from parsed JSON: the `FeeHistory.FeeDelegationRecord` schema's result,
 * computed faster.
 *
 * @internal
 */
export const decodeRecord: (u: unknown) => Either.Either<FeeHistory.FeeDelegationRecord, ParseResult.ParseError> = oneDecoder({
  item: fastRecord,
  memo: addressMemo,
  schema: Schema.decodeUnknownEither(FeeHistory.FeeDelegationRecord)
})

/**
 * Decodes a history page from parsed JSON: the `FeeHistory.FeeDelegationHistoryPage` schema's
 * result, computed faster (every rule still applies, EIP-55 checksums included).
 *
 * @internal
 */
export const decodePage: (u: unknown) => Either.Either<FeeHistory.FeeDelegationHistoryPage, ParseResult.ParseError> = pageDecoder({
  item: fastRecord,
  memo: addressMemo,
  schema: Schema.decodeUnknownEither(FeeHistory.FeeDelegationHistoryPage)
})
