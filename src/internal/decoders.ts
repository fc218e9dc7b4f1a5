/**
 * The decoder of each result schema of the table: the schema's own, or, for the listings and
 * records a stream reads by the thousand, the fast decoders that apply the same rules straight over
 * the parsed JSON and fall back to the schema for the error (decodeAccounts, decodeHistory,
 * decodePending; their property tests prove both paths agree). Streaming accounts through the
 * schemas alone costs about 30x `JSON.parse` a page (docs/benchmarks.md).
 *
 * @internal
 */
import { type Either, type ParseResult, Schema } from "effect"
import * as Account from "../Account.js"
import * as FeeHistory from "../FeeHistory.js"
import * as Multisig from "../Multisig.js"
import * as DecodeAccounts from "./decodeAccounts.js"
import * as DecodeHistory from "./decodeHistory.js"
import * as DecodePending from "./decodePending.js"

type Decode = (body: unknown) => Either.Either<unknown, ParseResult.ParseError>

const decoders = new Map<Schema.Schema.Any, Decode>([
  [Account.Account, DecodeAccounts.decodeAccount],
  [Account.AccountPage, DecodeAccounts.decodePage],
  [Account.FeePayerAccount, DecodeAccounts.decodeFeePayer],
  [Account.FeePayerAccountPage, DecodeAccounts.decodeFeePayerPage],
  [FeeHistory.FeeDelegationRecord, DecodeHistory.decodeRecord],
  [FeeHistory.FeeDelegationHistoryPage, DecodeHistory.decodePage],
  [Multisig.PendingTransactionPage, DecodePending.decodePage]
])

/**
 * The decoder of a result schema (made once per schema).
 *
 * @internal
 */
export const decoderOf = <A>(schema: Schema.Schema<A, any>): (body: unknown) => Either.Either<A, ParseResult.ParseError> => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    decode = Schema.decodeUnknownEither(schema)
    decoders.set(schema, decode)
  }
  return decode as (body: unknown) => Either.Either<A, ParseResult.ParseError>
}
