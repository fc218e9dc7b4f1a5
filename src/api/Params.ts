/**
 * The values of path segments and query parameters as the service takes them (text on the wire,
 * often more lenient than what the client sends): any-case addresses, page sizes the service clamps,
 * Unix-second bounds where 0 means none. The client's own checks of its arguments are stricter and
 * happen before a request is built; these schemas describe the wire for both sides.
 *
 * @since 0.10.0
 */
import { Schema } from "effect"
import * as Account from "../Account.js"
import * as ErrorBody from "../ErrorBody.js"
import * as Krn from "../Krn.js"
import * as PublicKey from "../PublicKey.js"
import * as Transaction from "../Transaction.js"
import * as Refusal from "./Refusal.js"

/**
 * An address in any case (no checksum rule), as the service reads a path segment or the history's
 * `from`: `0x` and 40 hex digits, else 1061609.
 *
 * @since 0.10.0
 * @category schemas
 */
export const AnyCaseAddress = Schema.String.pipe(
  Schema.pattern(/^0x[0-9a-fA-F]{40}$/, { message: () => "expected 0x followed by 40 hex digits" }),
  Refusal.annotate(Refusal.address)
).annotations({ identifier: "AnyCaseAddress" })

// Decimal digits; a zero may carry a sign, as the service's integer parsing takes it.
const Digits = Schema.String.pipe(Schema.pattern(/^(?:[0-9]*|-0+)$/, { message: () => "expected a non-negative integer" }))

/**
 * A count or bound in decimal digits; `""` is 0. A sign or anything else is 1061615.
 *
 * @since 0.10.0
 * @category schemas
 */
export const NonNegativeIntFromString: Schema.Schema<number, string> = Schema.transform(Digits, Schema.NonNegative, {
  strict: true,
  // Digits beyond the safe integers are past every bound anyway.
  decode: (s) => Math.min(s === "" || s.startsWith("-") ? 0 : Number(s), Number.MAX_SAFE_INTEGER),
  encode: (n) => String(n)
}).annotations({ identifier: "NonNegativeIntFromString" })

/**
 * `size`: items per page; 0 (or `""`) is the service's default (100), above 1000 is 1000.
 *
 * @since 0.10.0
 * @category schemas
 */
export const Size = NonNegativeIntFromString.annotations({ description: "items per page: 0 means 100, above 1000 means 1000" })

/**
 * `cursor`: the previous page's cursor; `""` or absent for the first page.
 *
 * @since 0.10.0
 * @category schemas
 */
export const Cursor = Schema.String.annotations({ description: "the cursor of the previous page; empty for the first" })

/**
 * `from-timestamp` / `to-timestamp`: Unix seconds, inclusive; 0 (or `""`) means unbounded.
 *
 * @since 0.10.0
 * @category schemas
 */
export const Timestamp = NonNegativeIntFromString.annotations({ description: "Unix seconds, inclusive; 0 means unbounded" })

/**
 * `status`: which accounts, by state, in any case; `""` is `enabled`, the service's default.
 *
 * @since 0.10.0
 * @category schemas
 */
export const Status: Schema.Schema<Account.StatusFilter, string> = Schema.Union(
  // First: the client sends a state as its name.
  Account.StatusFilterFromString,
  Schema.transform(Schema.Literal(""), Schema.Literal("enabled"), { strict: true, decode: () => "enabled" as const, encode: () => "" as const })
).annotations({ identifier: "StatusParam" })

/**
 * The paging of every listing, in the order the client sends it.
 *
 * @since 0.10.0
 * @category schemas
 */
export const Paging = {
  size: Schema.optionalWith(Size, { exact: true }),
  cursor: Schema.optionalWith(Cursor, { exact: true })
}

/**
 * The time range of the account listings.
 *
 * @since 0.10.0
 * @category schemas
 */
export const TimeRange = {
  "from-timestamp": Schema.optionalWith(Timestamp, { exact: true }),
  "to-timestamp": Schema.optionalWith(Timestamp, { exact: true })
}

/**
 * `{address}`: an account's address in any case.
 *
 * @since 0.10.0
 * @category schemas
 */
export const Address = AnyCaseAddress

/**
 * `{public-key}`: a public key in any of its forms; not `0x` hex is 1061607, hex of another form
 * 1061615.
 *
 * @since 0.10.0
 * @category schemas
 */
export const PublicKeySegment = PublicKey.PublicKey.pipe(Refusal.annotate(Refusal.hex()))

/**
 * `{transaction-hash}` of a receipt: hex of another length than 64 digits names no transaction
 * (1065000).
 *
 * @since 0.10.0
 * @category schemas
 */
export const ReceiptHash = Transaction.TxHash.pipe(Refusal.annotate(Refusal.hexId(ErrorBody.Code.TransactionNotFound)))

/**
 * `{transaction-hash}` of a fee-delegation record: hex of another length names no record (1061010).
 *
 * @since 0.10.0
 * @category schemas
 */
export const RecordHash = Transaction.TxHash.pipe(Refusal.annotate(Refusal.hexId(ErrorBody.Code.DataNotExist)))

/**
 * `{transaction-id}`: a pending transaction's id; hex of another length names none (1061010).
 *
 * @since 0.10.0
 * @category schemas
 */
export const TransactionId = Transaction.TransactionId.pipe(Refusal.annotate(Refusal.hexId(ErrorBody.Code.DataNotExist)))

/**
 * `{key-id}`: a key id as text (the key service reads it: a malformed one is 1061615, another
 * member's 1061010).
 *
 * @since 0.10.0
 * @category schemas
 */
export const KeyIdSegment = Schema.String.annotations({
  identifier: "KeyIdSegment",
  description: "a key id, krn:<chain-id>:wallet:<account-id>:key-pool:<name>:0x<64 hex> (percent-encoded or not)"
})

/**
 * `krn` of the key listing: the pool to list; one that is not a pool of the member is 1061010.
 *
 * @since 0.10.0
 * @category schemas
 */
export const ListedPool = Krn.PoolKrn.pipe(Refusal.annotate({ invalid: ErrorBody.Code.DataNotExist }))
