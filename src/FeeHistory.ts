/**
 * The fee-delegation history (`GET /v2/history/fd/tx`, `GET /v2/history/fd/tx/{transaction-hash}`):
 * what the member's global fee payer spent on each fee-delegated transaction, in peb, KLAY, KRW
 * and USD, as the public specification (2021-09-29) writes it (`FDTransactionWithCurrencyResult`,
 * `FDTransactionWithCurrencyResultList`).
 *
 * Facts this module relies on (the specification's examples, in the tests):
 *
 * - `chargedByPeb` is a decimal string of peb, `chargedByKlay` a decimal string of KLAY; both
 *   decode to `Amount.Peb`. `gasPrice` is `0x` hex peb (`Amount.Peb`), `gasUsed` a `0x` hex
 *   quantity (`number`).
 * - `chargedByKrw` / `chargedByUsd` are decimal strings and `krw` / `usd` (the KLAY rates at the
 *   time of the transaction) numbers: kept as the specification types them.
 * - `status` is the receipt's status as hex (`"0x1"` succeeded, `"0x0"` failed); `timestamp` is in
 *   Unix seconds; addresses are lower case (decoded to checksummed `Address`, encoded back to lower
 *   case).
 * - The example's `chargedByPeb` is not `gasPrice * gasUsed` (3877775000000000 against
 *   116333250000000): the fee is taken as the service reports it, with no cross-check.
 *
 * @since 0.7.0
 */
import { Schema } from "effect"
import * as Address from "./Address.js"
import * as Amount from "./Amount.js"
import * as ChainId from "./ChainId.js"
import { fromString } from "./internal/fromString.js"
import { arbitraryHexQuantity, HEX_QUANTITY } from "./internal/hex.js"
import * as Shapes from "./internal/shapes.js"
import { show } from "./internal/show.js"
import * as Timestamp from "./Timestamp.js"
import * as Transaction from "./Transaction.js"
import { TxType, isFeeDelegatedType, isTxType } from "./TxType.js"

const DECIMAL_INTEGER = /^[0-9]+$/
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/
const FEE_RATIO = /^([0-9]|[1-9][0-9])?$/

/**
 * The amount a decimal string of peb stands for, or `undefined` when it is not one
 * (`PebFromDecimal`'s rule, shared with the client's fast page decoders).
 *
 * @since 0.8.0
 * @internal
 */
export const pebOfDecimal = (s: string): Amount.Peb | undefined => {
  if (!DECIMAL_INTEGER.test(s)) return undefined
  const n = BigInt(s)
  return n <= Amount.MaxPeb ? n as Amount.Peb : undefined
}

/**
 * Whether a string is a non-negative decimal number (`DecimalString`'s rule).
 *
 * @since 0.8.0
 * @internal
 */
export const isDecimal = (s: string): boolean => DECIMAL.test(s)

/**
 * Whether a number is an exchange rate: finite and not negative (the rule of `krw` and `usd`).
 *
 * @since 0.8.0
 * @internal
 */
export const isRate = (n: number): boolean => Number.isFinite(n) && n >= 0

/**
 * Whether a string is a fee ratio as the history writes it: 0 to 99 in decimal, or blank.
 *
 * @since 0.8.0
 * @internal
 */
export const isFeeRatioText = (s: string): boolean => FEE_RATIO.test(s)

/**
 * Whether a number is the type of a fee-delegated transaction (`FeeDelegatedType`'s rule).
 *
 * @since 0.8.0
 * @internal
 */
export const isFeeDelegatedTypeInt = (n: number): n is TxType =>
  Number.isInteger(n) && isTxType(n) && isFeeDelegatedType(n as TxType)

/**
 * Decodes a decimal string of peb (`"3877775000000000"`) to `Peb`; encodes to the decimal form.
 *
 * @since 0.7.0
 * @category schemas
 */
export const PebFromDecimal: Schema.Schema<Amount.Peb, string> = fromString(
  Amount.PebFromSelf,
  pebOfDecimal,
  (s) => DECIMAL_INTEGER.test(s) ? "amount exceeds 2^256 - 1 peb" : `expected a decimal number of peb, got ${show(s)}`,
  (n) => n.toString()
).annotations({ identifier: "PebFromDecimal", description: "an amount of peb, in decimal digits" })

/**
 * A non-negative decimal number as text (`"4.3"`, `"0.00374"`): the KRW and USD amounts, kept as
 * the service writes them.
 *
 * @since 0.7.0
 * @category schemas
 */
export const DecimalString = Schema.String.pipe(
  Schema.filter(isDecimal, {
    message: (issue) => `expected a decimal number, got ${show(issue.actual)}`,
    arbitrary: () => (fc) =>
      fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined }))
        .map(([whole, fraction]) => (fraction === undefined ? `${whole}` : `${whole}.${fraction}`))
  })
).annotations({ identifier: "DecimalString" })

const Rate = Schema.Number.pipe(
  Schema.filter(isRate, {
    message: (issue) => `expected a non-negative exchange rate, got ${show(issue.actual)}`,
    arbitrary: () => (fc) => fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e7, noNaN: true }))
  })
)

/**
 * A receipt status as the history writes it: `0x` hex (`"0x1"` succeeded, `"0x0"` failed).
 *
 * @since 0.7.0
 * @category schemas
 */
export const HexStatus = Schema.String.pipe(
  Schema.filter((s) => HEX_QUANTITY.test(s), {
    message: (issue) => `expected a hex status (0x1, 0x0), got ${show(issue.actual)}`,
    arbitrary: () => (fc) => fc.oneof(fc.constantFrom("0x1", "0x0"), arbitraryHexQuantity(fc, 2))
  })
).annotations({ identifier: "HexStatus" })

/**
 * The type of a fee-delegated transaction (`typeInt`): a Klaytn type that delegates its fee
 * (9, 10, 17, 18, 33, 34, 41, 42, 49, 50, 57, 58, 73, 74).
 *
 * @since 0.7.0
 * @category schemas
 */
export const FeeDelegatedType = Schema.Number.pipe(
  Schema.filter(isFeeDelegatedTypeInt, {
    message: (issue) => `expected the type of a fee-delegated transaction, got ${show(issue.actual)}`,
    arbitrary: () => (fc) => fc.constantFrom(...Object.values(TxType).filter(isFeeDelegatedTypeInt))
  })
).annotations({ identifier: "FeeDelegatedType" })

/**
 * One fee-delegated transaction of the history (`FDTransactionWithCurrencyResult`): its hash,
 * type, sender (`from`), recipient (`to`, when it has one), fee payer and `status`; the fee the
 * fee payer was charged (`chargedByPeb`, `chargedByKlay`: `Amount.Peb`; `chargedByKrw`,
 * `chargedByUsd`: decimal text) at the rates `krw` / `usd` of that time; `gasPrice` (peb),
 * `gasUsed`, `timestamp` (Unix seconds), `chainId`, and `feeRatio` (text, `""` or absent when the
 * fee payer paid it all).
 *
 * @since 0.7.0
 * @category schemas
 */
export const FeeDelegationRecord = Schema.Struct({
  chainId: ChainId.ChainId,
  chargedByKlay: Amount.Klay,
  chargedByKrw: DecimalString,
  chargedByPeb: PebFromDecimal,
  chargedByUsd: DecimalString,
  feePayer: Address.LowerCase,
  from: Address.LowerCase,
  to: Schema.optionalWith(Address.LowerCase, { exact: true }),
  gasPrice: Amount.PebFromHex,
  gasUsed: Transaction.NumberFromHex,
  krw: Rate,
  usd: Rate,
  status: HexStatus,
  timestamp: Timestamp.Timestamp,
  transactionHash: Transaction.TxHash,
  typeInt: FeeDelegatedType,
  feeRatio: Schema.optionalWith(
    Schema.String.pipe(Schema.filter(isFeeRatioText, {
      message: (issue) => `expected a fee ratio from 0 to 99 (or blank), got ${show(issue.actual)}`,
      arbitrary: () => (fc) => fc.oneof(fc.constant(""), fc.integer({ min: 0, max: 99 }).map(String))
    })),
    { exact: true }
  )
}).annotations({ identifier: "FeeDelegationRecord" })

/**
 * @since 0.7.0
 * @category models
 */
export interface FeeDelegationRecord extends Schema.Schema.Type<typeof FeeDelegationRecord> {}

/**
 * The wire form of a record (`FDTransactionWithCurrencyResult`).
 *
 * @since 0.7.0
 * @category models
 */
export type FeeDelegationRecordJson = typeof FeeDelegationRecord.Encoded

/**
 * One page of the history: its records and the cursor of the next page (`""` on the last).
 *
 * @since 0.7.0
 * @category schemas
 */
export const FeeDelegationHistoryPage = Shapes.page(FeeDelegationRecord, "FeeDelegationHistoryPage")

/**
 * @since 0.7.0
 * @category models
 */
export interface FeeDelegationHistoryPage extends Schema.Schema.Type<typeof FeeDelegationHistoryPage> {}

/**
 * Whether the recorded transaction succeeded (`status` `0x1`).
 *
 * @since 0.7.0
 * @category utils
 */
export const succeeded = (record: FeeDelegationRecord): boolean => BigInt(record.status) === 1n
