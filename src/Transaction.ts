/**
 * Value transfers: amounts in peb, fee ratios, transaction hashes, the results and receipts the
 * service returns, and the request body of the transfer endpoints.
 *
 * Facts this module relies on (checked against the real example bodies in the tests):
 *
 * - Amounts travel as `0x` hex strings of peb (`1 KLAY = 10^18 peb`); the service drops leading
 *   zeros (`"0x0"` is zero).
 * - Addresses in results and receipts are all lower case. They decode to the checksummed
 *   `Address.Address` and encode back to lower case, so a re-encoded body matches the service's.
 * - Signature `R` and `S` are big-endian integers with leading zeros dropped: 1 to 64 hex digits
 *   (a 63-digit `S` appears in the examples).
 * - `memo` is free text: the service puts its UTF-8 bytes in the transaction's `input` (the
 *   examples' `input` `0x3078313233` is the memo `"0x123"`, `0x6d656d6f` is `"memo"`).
 * - A result's `gasPrice` may disagree with the price inside its `rlp` (the public examples show
 *   750 ston in JSON and 25 ston in the RLP); the RLP is what was signed.
 *
 * Browser-safe: no Node built-in, no elliptic-curve code (signing lives in the emulator).
 *
 * @since 0.1.0
 */
import { Arbitrary, Data, Either, type FastCheck, ParseResult, Schema } from "effect"
import * as Address from "./Address.js"
import * as FeeDelegation from "./FeeDelegation.js"
import { show } from "./internal/show.js"

// ---------------------------------------------------------------------------------------------
// Hex helpers (no Buffer: this module runs in browsers)
// ---------------------------------------------------------------------------------------------

const hexOfBytes = (bytes: Uint8Array): string => {
  let out = "0x"
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

const arbitraryHex = (fc: typeof FastCheck, minBytes: number, maxBytes: number): FastCheck.Arbitrary<string> =>
  fc.uint8Array({ minLength: minBytes, maxLength: maxBytes }).map(hexOfBytes)

// ---------------------------------------------------------------------------------------------
// Amounts
// ---------------------------------------------------------------------------------------------

/**
 * Peb in one KLAY: 10^18.
 *
 * @since 0.1.0
 * @category constants
 */
export const PebPerKlay = 10n ** 18n

/**
 * Peb in one ston (the unit gas prices are quoted in): 10^9.
 *
 * @since 0.1.0
 * @category constants
 */
export const PebPerSton = 10n ** 9n

/**
 * The largest amount: 2^256 - 1 peb (Klaytn amounts are 256-bit).
 *
 * @since 0.1.0
 * @category constants
 */
export const MaxPeb = (1n << 256n) - 1n

const isPebValue = (n: bigint): boolean => n >= 0n && n <= MaxPeb

/**
 * An amount in peb: a `bigint` from 0 to `MaxPeb`, branded.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PebFromSelf = Schema.BigIntFromSelf.pipe(
  Schema.filter(isPebValue, {
    message: (issue) => `amount must be a whole number of peb from 0 to 2^256 - 1, got ${show(issue.actual)}`,
    arbitrary: () => (fc) =>
      fc.oneof(
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.bigInt({ min: 0n, max: MaxPeb }),
        fc.constantFrom(0n, 1n, PebPerKlay, MaxPeb)
      )
  }),
  Schema.brand("Peb")
).annotations({ identifier: "Peb" })

/**
 * @since 0.1.0
 * @category models
 */
export type Peb = typeof PebFromSelf.Type

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/

/**
 * The minimal lower-case `0x` hex form of an amount, as the service writes it (`0x0` for zero).
 *
 * @since 0.1.0
 * @category formatting
 */
export const toHex = (amount: Peb): string => `0x${amount.toString(16)}`

/**
 * Decodes a `0x` hex string of peb (any case, leading zeros allowed, at most 64 digits after
 * them) to `Peb`; encodes to the minimal lower-case form.
 *
 * Failures: `expected 0x followed by hex digits` for anything else (`"0x"` included), `amount
 * exceeds 2^256 - 1 peb` for too large a value.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PebFromHex: Schema.Schema<Peb, string> = Schema.transformOrFail(Schema.String, PebFromSelf, {
  strict: true,
  decode: (s, _, ast) => {
    if (!HEX_QUANTITY.test(s)) {
      return ParseResult.fail(new ParseResult.Type(ast, s, `expected 0x followed by hex digits, got ${show(s)}`))
    }
    const n = BigInt(s)
    return n <= MaxPeb
      ? ParseResult.succeed(n as Peb)
      : ParseResult.fail(new ParseResult.Type(ast, s, "amount exceeds 2^256 - 1 peb"))
  },
  encode: (n) => ParseResult.succeed(`0x${n.toString(16)}`)
}).annotations({ identifier: "PebFromHex", description: "an amount of peb, 0x followed by hex digits" })

/**
 * Why an amount could not be read: `input` is what was given, `reason` the broken rule.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidAmount extends Data.TaggedError("InvalidAmount")<{
  readonly input: string
  readonly reason: string
}> {
  /** @since 0.1.0 */
  override get message(): string {
    return `invalid amount ${show(this.input)}: ${this.reason}`
  }
}

const DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/

// Exact decimal to integer in units of 10^-decimals: digits only, never a float.
const parseDecimal = (input: string, text: string, decimals: number, unit: string): Either.Either<Peb, InvalidAmount> => {
  const match = DECIMAL.exec(text)
  if (match === null) {
    return Either.left(new InvalidAmount({ input, reason: `expected a decimal number of ${unit} such as 1.5` }))
  }
  const whole = match[1]!
  const fraction = match[2] ?? ""
  // Zeros past the last representable place change nothing, so they are allowed.
  if (fraction.length > decimals && !/^0*$/.test(fraction.slice(decimals))) {
    return Either.left(
      new InvalidAmount({ input, reason: `${unit} has at most ${decimals} decimal places (the smallest unit is 1 peb)` })
    )
  }
  const digits = whole + fraction.slice(0, decimals).padEnd(decimals, "0")
  const n = BigInt(digits)
  return n <= MaxPeb ? Either.right(n as Peb) : Either.left(new InvalidAmount({ input, reason: "amount exceeds 2^256 - 1 peb" }))
}

/**
 * Reads a decimal number of KLAY (`"1.5"`, `"0.000000000000000001"`, `"20"`) exactly as peb.
 * At most 18 significant decimal places; no sign, exponent, spaces or thousands separators.
 *
 * @example
 * ```ts
 * import { Transaction } from "effect-kas-wallet"
 *
 * Transaction.fromKlay("1.5") // Either.right(1500000000000000000n)
 * Transaction.fromKlay("1e18") // Either.left(InvalidAmount)
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const fromKlay = (klay: string): Either.Either<Peb, InvalidAmount> => parseDecimal(klay, klay, 18, "KLAY")

/**
 * An amount as a decimal number of KLAY, without trailing zeros (`"1.5"`, `"0"`, `"20"`): the
 * exact inverse of `fromKlay`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatKlay = (amount: Peb): string => {
  const whole = amount / PebPerKlay
  const fraction = (amount % PebPerKlay).toString().padStart(18, "0").replace(/0+$/, "")
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`
}

const AMOUNT = /^(.*?)\s*(klay|ston|peb)?$/i

/**
 * Reads an amount as a person writes it: `1.5KLAY` / `1.5 klay`, `25ston`, `1000peb`, a bare
 * integer (peb) or `0x` hex (peb). Decimals are exact; fractions of a peb are refused.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseAmount = (input: string): Either.Either<Peb, InvalidAmount> => {
  const match = AMOUNT.exec(input)
  const number = match?.[1] ?? ""
  const unit = (match?.[2] ?? "peb").toLowerCase()
  if (unit === "peb" && HEX_QUANTITY.test(number)) {
    const n = BigInt(number)
    return n <= MaxPeb ? Either.right(n as Peb) : Either.left(new InvalidAmount({ input, reason: "amount exceeds 2^256 - 1 peb" }))
  }
  if (number === "") {
    return Either.left(new InvalidAmount({ input, reason: "expected an amount such as 1.5KLAY, 25ston, 1000peb or 0x3e8" }))
  }
  return parseDecimal(input, number, unit === "klay" ? 18 : unit === "ston" ? 9 : 0, unit === "klay" ? "KLAY" : unit)
}

/**
 * Decodes a decimal number of KLAY (see `fromKlay`) to `Peb`; encodes with `formatKlay`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Klay: Schema.Schema<Peb, string> = Schema.transformOrFail(Schema.String, PebFromSelf, {
  strict: true,
  decode: (s, _, ast) =>
    Either.match(fromKlay(s), {
      onLeft: (e) => ParseResult.fail(new ParseResult.Type(ast, s, e.reason)),
      onRight: ParseResult.succeed
    }),
  encode: (n) => ParseResult.succeed(formatKlay(n as Peb))
}).annotations({ identifier: "Klay", description: "a decimal number of KLAY" })

// ---------------------------------------------------------------------------------------------
// Fee ratio, hashes, hex data, signatures
// ---------------------------------------------------------------------------------------------

/**
 * The fee payer's share of the fee in partial delegation, in percent: an integer 1..99 (the
 * same schema as `FeeDelegation.FeeRatio`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const FeeRatio = FeeDelegation.FeeRatio

/**
 * @since 0.1.0
 * @category models
 */
export type FeeRatio = FeeDelegation.FeeRatio

const TX_HASH = /^0x[0-9a-f]{64}$/
const ANY_CASE_HASH = /^0x[0-9a-fA-F]{64}$/

/**
 * A transaction hash in lower case: `0x` + 64 hex digits, branded.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TxHashFromSelf = Schema.String.pipe(
  Schema.filter((s) => TX_HASH.test(s), {
    message: (issue) => `expected a lower-case transaction hash (0x + 64 hex digits), got ${show(issue.actual)}`,
    arbitrary: () => (fc) => arbitraryHex(fc, 32, 32)
  }),
  Schema.brand("TxHash")
).annotations({ identifier: "TxHash" })

/**
 * @since 0.1.0
 * @category models
 */
export type TxHash = typeof TxHashFromSelf.Type

/**
 * Decodes `0x` + 64 hex digits in any case to a lower-case `TxHash`; encodes it unchanged.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TxHash: Schema.Schema<TxHash, string> = Schema.transformOrFail(Schema.String, TxHashFromSelf, {
  strict: true,
  decode: (s, _, ast) =>
    ANY_CASE_HASH.test(s)
      ? ParseResult.succeed(s.toLowerCase())
      : ParseResult.fail(new ParseResult.Type(ast, s, `expected 0x followed by 64 hex digits, got ${show(s)}`)),
  encode: ParseResult.succeed
}).annotations({ identifier: "TxHash", description: "a transaction hash, 0x followed by 64 hex digits" })

/**
 * A 32-byte hash other than a transaction's (a block hash): `0x` + 64 hex digits, as received.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Hash32 = Schema.String.pipe(
  Schema.pattern(ANY_CASE_HASH, { message: (issue) => `expected 0x followed by 64 hex digits, got ${show(issue.actual)}` })
).annotations({ identifier: "Hash32" })

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/

/**
 * Bytes as `0x` + an even number of hex digits (`"0x"` is empty), as received.
 *
 * @since 0.1.0
 * @category schemas
 */
export const HexBytes = Schema.String.pipe(
  Schema.filter((s) => HEX_BYTES.test(s), {
    message: (issue) => `expected 0x followed by an even number of hex digits, got ${show(issue.actual)}`,
    arbitrary: () => (fc) => arbitraryHex(fc, 0, 40)
  })
).annotations({ identifier: "HexBytes" })

/**
 * The `input` of a memo transfer: the UTF-8 bytes of the memo, as the service encodes it.
 *
 * @example
 * ```ts
 * import { Transaction } from "effect-kas-wallet"
 *
 * Transaction.memoInput("memo") // "0x6d656d6f"
 * ```
 *
 * @since 0.1.0
 * @category formatting
 */
export const memoInput = (memo: string): string => hexOfBytes(new TextEncoder().encode(memo))

const hexInteger = (name: string, maxDigits: number) => {
  const pattern = new RegExp(`^0x[0-9a-fA-F]{1,${maxDigits}}$`)
  return Schema.String.pipe(
    Schema.filter((s) => pattern.test(s), {
      message: (issue) => `${name} must be 0x followed by 1 to ${maxDigits} hex digits, got ${show(issue.actual)}`,
      arbitrary: () => (fc) => fc.bigInt({ min: 1n, max: (1n << BigInt(4 * maxDigits)) - 1n }).map((n) => `0x${n.toString(16)}`)
    })
  )
}

/**
 * One ECDSA signature as the service writes it: `V` (`2·chainId + 35` or `+ 36`), `R` and `S`
 * as `0x` hex integers with leading zeros dropped. Kept as received.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Signature = Schema.Struct({
  V: hexInteger("V", 16),
  R: hexInteger("R", 64),
  S: hexInteger("S", 64)
}).annotations({ identifier: "Signature" })

/**
 * @since 0.1.0
 * @category models
 */
export interface Signature extends Schema.Schema.Type<typeof Signature> {}

/**
 * An address written in lower case, as transaction results show them: decodes any accepted case
 * (see `Address.Address`) to the checksummed `Address`, encodes to lower case.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LowerCaseAddress: Schema.Schema<Address.Address, string> = Address.encodedAs((a) => a.toLowerCase())
  .annotations({ identifier: "LowerCaseAddress", description: "an address, 0x followed by 40 hex digits" })

const NonNegativeInt = Schema.NonNegativeInt.annotations({
  message: (issue) => `expected a non-negative integer, got ${show(issue.actual)}`
})

/**
 * A `0x` hex quantity as a `number` (block numbers, gas, nonces in receipts): at most the largest
 * safe integer; encodes to minimal lower-case hex.
 *
 * @since 0.1.0
 * @category schemas
 */
export const NumberFromHex: Schema.Schema<number, string> = Schema.transformOrFail(Schema.String, NonNegativeInt, {
  strict: true,
  decode: (s, _, ast) => {
    if (!HEX_QUANTITY.test(s)) {
      return ParseResult.fail(new ParseResult.Type(ast, s, `expected 0x followed by hex digits, got ${show(s)}`))
    }
    const n = BigInt(s)
    return n <= BigInt(Number.MAX_SAFE_INTEGER)
      ? ParseResult.succeed(Number(n))
      : ParseResult.fail(new ParseResult.Type(ast, s, `quantity ${s} exceeds 2^53 - 1`))
  },
  encode: (n) => ParseResult.succeed(`0x${n.toString(16)}`)
}).annotations({ identifier: "NumberFromHex" })

// ---------------------------------------------------------------------------------------------
// Transaction types
// ---------------------------------------------------------------------------------------------

/**
 * The Klaytn transaction types of value transfers, by name.
 *
 * @since 0.1.0
 * @category constants
 */
export const TxType = {
  ValueTransfer: 0x08,
  FeeDelegatedValueTransfer: 0x09,
  FeeDelegatedValueTransferWithRatio: 0x0a,
  ValueTransferMemo: 0x10,
  FeeDelegatedValueTransferMemo: 0x11,
  FeeDelegatedValueTransferMemoWithRatio: 0x12
} as const

/**
 * One of the six value-transfer types (the `typeInt` of results).
 *
 * @since 0.1.0
 * @category models
 */
export type TxType = typeof TxType[keyof typeof TxType]

/**
 * The `type` string Klaytn reports for a value-transfer type, e.g. `"TxTypeValueTransferMemo"`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const typeName = (type: TxType): string => {
  for (const [name, value] of Object.entries(TxType)) if (value === type) return `TxType${name}`
  return "TxTypeUnknown"
}

/**
 * Whether a type is fee-delegated (has a fee payer).
 *
 * @since 0.1.0
 * @category guards
 */
export const isFeeDelegatedType = (type: TxType): boolean => type !== TxType.ValueTransfer && type !== TxType.ValueTransferMemo

/**
 * Whether a type carries a fee ratio (partial delegation).
 *
 * @since 0.1.0
 * @category guards
 */
export const hasFeeRatio = (type: TxType): boolean =>
  type === TxType.FeeDelegatedValueTransferWithRatio || type === TxType.FeeDelegatedValueTransferMemoWithRatio

/**
 * Whether a type carries a memo (`input`).
 *
 * @since 0.1.0
 * @category guards
 */
export const hasMemo = (type: TxType): boolean => type >= TxType.ValueTransferMemo

/**
 * The type the service uses for a transfer: with a memo or not, fee-delegated or not, with a
 * fee ratio (1..99) or the whole fee delegated (no ratio, or 0).
 *
 * @since 0.1.0
 * @category constructors
 */
export const transferType = (options: {
  readonly memo: boolean
  readonly feeDelegated: boolean
  readonly feeRatio?: number | undefined
}): TxType => {
  const ratio = options.feeDelegated && options.feeRatio !== undefined && options.feeRatio !== 0
  const base = !options.feeDelegated ? TxType.ValueTransfer : ratio ? TxType.FeeDelegatedValueTransferWithRatio : TxType.FeeDelegatedValueTransfer
  return (options.memo ? base + 8 : base) as TxType
}

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

const ResultFields = {
  from: LowerCaseAddress,
  to: LowerCaseAddress,
  value: PebFromHex,
  gas: NonNegativeInt,
  gasPrice: PebFromHex,
  nonce: NonNegativeInt,
  // Types 0x08-0x0a have no input field on the chain; the service may show "0x" or nothing.
  input: Schema.optionalWith(HexBytes, { exact: true }),
  rlp: HexBytes,
  signatures: Schema.Array(Signature),
  transactionHash: TxHash,
  status: Schema.Literal("Submitted", "Pending")
}

/**
 * The result of `POST /v2/tx/value`: the sender pays. `typeInt` 8 (ValueTransfer) or 16
 * (ValueTransferMemo). `status` is `"Submitted"` (sent to the chain) or `"Pending"`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BasicTransactionResult = Schema.Struct({
  typeInt: Schema.Literal(TxType.ValueTransfer, TxType.ValueTransferMemo),
  ...ResultFields
}).annotations({ identifier: "BasicTransactionResult" })

/**
 * @since 0.1.0
 * @category models
 */
export interface BasicTransactionResult extends Schema.Schema.Type<typeof BasicTransactionResult> {}

const FeeDelegatedFields = Schema.Struct({
  typeInt: Schema.Literal(
    TxType.FeeDelegatedValueTransfer,
    TxType.FeeDelegatedValueTransferWithRatio,
    TxType.FeeDelegatedValueTransferMemo,
    TxType.FeeDelegatedValueTransferMemoWithRatio
  ),
  ...ResultFields,
  feePayer: LowerCaseAddress,
  feeRatio: Schema.optionalWith(
    Schema.Int.pipe(Schema.between(0, 99, { message: () => "fee ratio must be an integer from 0 to 99" })),
    { exact: true }
  )
})

type FeeDelegatedFields = typeof FeeDelegatedFields.Type

// With-ratio types carry a ratio 1..99 on the chain; the others delegate the whole fee.
const ratioMatchesType = (r: FeeDelegatedFields) =>
  hasFeeRatio(r.typeInt)
    ? r.feeRatio !== undefined && r.feeRatio >= 1 ? true : { path: ["feeRatio"], message: `type ${r.typeInt} needs a fee ratio from 1 to 99` }
    : r.feeRatio === undefined || r.feeRatio === 0 ? true : { path: ["feeRatio"], message: `type ${r.typeInt} delegates the whole fee: fee ratio must be absent or 0` }

/**
 * The result of `POST /v2/tx/fd/value` and `/v2/tx/fd-user/value`: the basic fields plus
 * `feePayer` and, for the with-ratio types (10, 18), `feeRatio` 1..99. The other types (9, 17)
 * delegate the whole fee; their `feeRatio` is absent or 0.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FeeDelegatedTransactionResult = FeeDelegatedFields.pipe(
  Schema.filter(ratioMatchesType, {
    arbitrary: () => (fc) =>
      fc.tuple(Arbitrary.make(Schema.typeSchema(FeeDelegatedFields)), fc.integer({ min: 1, max: 99 }), fc.boolean()).map(
        ([r, ratio, zero]) => {
          const { feeRatio: _, ...rest } = r
          return hasFeeRatio(r.typeInt) ? { ...rest, feeRatio: ratio } : zero ? { ...rest, feeRatio: 0 } : rest
        }
      )
  })
).annotations({ identifier: "FeeDelegatedTransactionResult" })

/**
 * @since 0.1.0
 * @category models
 */
export interface FeeDelegatedTransactionResult extends Schema.Schema.Type<typeof FeeDelegatedTransactionResult> {}

/**
 * What a value-transfer request returns: a basic or a fee-delegated result, told apart by
 * `typeInt`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionResult = Schema.Union(BasicTransactionResult, FeeDelegatedTransactionResult).annotations({
  identifier: "TransactionResult"
})

/**
 * @since 0.1.0
 * @category models
 */
export type TransactionResult = typeof TransactionResult.Type

/**
 * The JSON form of a result, as the service sends it.
 *
 * @since 0.1.0
 * @category models
 */
export type TransactionResultJson = typeof TransactionResult.Encoded

/**
 * Whether a result is fee-delegated.
 *
 * @since 0.1.0
 * @category guards
 */
export const isFeeDelegatedResult = (r: TransactionResult): r is FeeDelegatedTransactionResult => "feePayer" in r

// ---------------------------------------------------------------------------------------------
// Receipts
// ---------------------------------------------------------------------------------------------

const FeeRatioQuantity = Schema.Union(NumberFromHex, Schema.Int).pipe(
  Schema.filter((n) => n >= 0 && n <= 99, { message: () => "fee ratio must be an integer from 0 to 99" })
)

const ReceiptFields = {
  from: LowerCaseAddress,
  // A receipt can be asked for any transaction, so fields a value transfer always has are
  // optional here (`to` is null for a contract deployment).
  to: Schema.optionalWith(Schema.NullOr(LowerCaseAddress), { exact: true }),
  value: Schema.optionalWith(PebFromHex, { exact: true }),
  gas: NumberFromHex,
  gasPrice: PebFromHex,
  nonce: NumberFromHex,
  input: Schema.optionalWith(HexBytes, { exact: true }),
  typeInt: NonNegativeInt,
  type: Schema.optionalWith(Schema.String, { exact: true }),
  signatures: Schema.Array(Signature),
  feePayer: Schema.optionalWith(LowerCaseAddress, { exact: true }),
  feePayerSignatures: Schema.optionalWith(Schema.Array(Signature), { exact: true }),
  // Klaytn writes it as hex ("0x1e"); a plain number is accepted too.
  feeRatio: Schema.optionalWith(FeeRatioQuantity, { exact: true }),
  hash: Schema.optionalWith(TxHash, { exact: true }),
  transactionHash: TxHash,
  // The hash without the fee payer's part; equal to transactionHash when there is no fee payer.
  senderTxHash: Schema.optionalWith(TxHash, { exact: true }),
  codeFormat: Schema.optionalWith(Schema.String, { exact: true }),
  humanReadable: Schema.optionalWith(Schema.Boolean, { exact: true })
}

/**
 * The receipt of a transaction in a block: `status` `"Committed"` (it succeeded) or
 * `"CommitError"` (it failed; `txError` is Klaytn's error code). Quantities (`blockNumber`, `gas`,
 * `gasUsed`, `nonce`, `transactionIndex`) decode from hex to `number`; amounts (`value`,
 * `gasPrice`) to `Peb`. `contractAddress` is `""` or `null` unless a contract was deployed.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CommittedReceipt = Schema.Struct({
  status: Schema.Literal("Committed", "CommitError"),
  ...ReceiptFields,
  blockHash: Hash32,
  blockNumber: NumberFromHex,
  transactionIndex: NumberFromHex,
  gasUsed: NumberFromHex,
  contractAddress: Schema.optionalWith(Schema.NullOr(Schema.Union(Schema.Literal(""), LowerCaseAddress)), { exact: true }),
  // Value transfers emit no logs; their shape is not modelled.
  logs: Schema.optionalWith(Schema.Array(Schema.Unknown), { exact: true }),
  logsBloom: Schema.optionalWith(HexBytes, { exact: true }),
  txError: Schema.optionalWith(NumberFromHex, { exact: true })
}).annotations({ identifier: "CommittedReceipt" })

/**
 * @since 0.1.0
 * @category models
 */
export interface CommittedReceipt extends Schema.Schema.Type<typeof CommittedReceipt> {}

/**
 * A transaction still in the transaction pool: `status` `"Pending"`, no block yet.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PendingReceipt = Schema.Struct({
  status: Schema.Literal("Pending"),
  ...ReceiptFields,
  blockHash: Schema.optionalWith(Schema.NullOr(Hash32), { exact: true }),
  blockNumber: Schema.optionalWith(Schema.NullOr(NumberFromHex), { exact: true }),
  transactionIndex: Schema.optionalWith(Schema.NullOr(NumberFromHex), { exact: true })
}).annotations({ identifier: "PendingReceipt" })

/**
 * @since 0.1.0
 * @category models
 */
export interface PendingReceipt extends Schema.Schema.Type<typeof PendingReceipt> {}

/**
 * What `GET /v2/tx/{transaction-hash}` returns: a committed (or failed) or a pending receipt,
 * told apart by `status`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionReceipt = Schema.Union(CommittedReceipt, PendingReceipt).annotations({
  identifier: "TransactionReceipt"
})

/**
 * @since 0.1.0
 * @category models
 */
export type TransactionReceipt = typeof TransactionReceipt.Type

/**
 * The JSON form of a receipt, as the service sends it.
 *
 * @since 0.1.0
 * @category models
 */
export type TransactionReceiptJson = typeof TransactionReceipt.Encoded

/**
 * Whether a receipt is final (in a block, committed or failed).
 *
 * @since 0.1.0
 * @category guards
 */
export const isFinal = (r: TransactionReceipt): r is CommittedReceipt => r.status !== "Pending"

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"

/**
 * A recipient: an address other than the zero address (the service refuses it with "cannot be
 * empty or zero value").
 *
 * @since 0.1.0
 * @category schemas
 */
export const Recipient = Address.Address.pipe(
  Schema.filter((a) => a !== ZERO_ADDRESS, { message: () => "cannot be the zero address" })
).annotations({ identifier: "Recipient" })

/**
 * The fee ratio of a request: 1..99 for partial delegation, or 0 for the whole fee (as if absent).
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequestFeeRatio: Schema.Schema<FeeRatio | 0, number> = Schema.transformOrFail(
  Schema.Number,
  Schema.Union(Schema.Literal(0), Schema.typeSchema(FeeRatio)),
  {
    strict: true,
    decode: (n, _, ast) =>
      Number.isInteger(n) && n >= 0 && n <= 99
        ? ParseResult.succeed(n as FeeRatio | 0)
        : ParseResult.fail(new ParseResult.Type(ast, n, `fee ratio must be an integer from 1 to 99 (or 0: the whole fee), got ${show(n)}`)),
    encode: ParseResult.succeed
  }
).annotations({ identifier: "RequestFeeRatio" })

const BodyFields = {
  from: Address.Address,
  to: Recipient,
  value: PebFromHex,
  /** Free text; its UTF-8 bytes become the transaction's input (see `memoInput`). */
  memo: Schema.optionalWith(Schema.String, { exact: true }),
  /** 0 or absent: the sender's next nonce. */
  nonce: Schema.optionalWith(NonNegativeInt, { exact: true }),
  /** 0 or absent: the default gas limit. */
  gas: Schema.optionalWith(NonNegativeInt, { exact: true }),
  /** Whether to send the signed transaction to the chain. */
  submit: Schema.optionalWith(Schema.Boolean, { exact: true })
}

// Request bodies are decoded strictly: a misspelt field (`fee_ratio`) fails under its own name
// instead of silently changing what the transfer does.
const strict = { parseOptions: { onExcessProperty: "error" } } as const

/**
 * The body of `POST /v2/tx/value` (the sender pays). Unknown fields are refused.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ValueTransferBody = Schema.Struct(BodyFields).annotations({ identifier: "ValueTransferBody", ...strict })

/**
 * The body of `POST /v2/tx/fd/value` (global fee payer): the basic fields plus `feeRatio`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FeeDelegatedTransferBody = Schema.Struct({
  ...BodyFields,
  feeRatio: Schema.optionalWith(RequestFeeRatio, { exact: true })
}).annotations({ identifier: "FeeDelegatedTransferBody", ...strict })

/**
 * The body of `POST /v2/tx/fd-user/value` (user fee payer): the basic fields plus the required
 * `feePayer` and an optional `feeRatio`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UserFeeDelegatedTransferBody = Schema.Struct({
  ...BodyFields,
  feePayer: Address.Address,
  feeRatio: Schema.optionalWith(RequestFeeRatio, { exact: true })
}).annotations({ identifier: "UserFeeDelegatedTransferBody", ...strict })

/**
 * Any transfer body: `{ from, to, value, memo?, nonce?, gas?, submit?, feePayer?, feeRatio? }`.
 * Unknown fields are refused. Which of `feePayer` / `feeRatio` an endpoint takes is checked by
 * the per-endpoint schemas above.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransferBody = Schema.Struct({
  ...BodyFields,
  feePayer: Schema.optionalWith(Address.Address, { exact: true }),
  feeRatio: Schema.optionalWith(RequestFeeRatio, { exact: true })
}).annotations({ identifier: "TransferBody", ...strict })

/**
 * @since 0.1.0
 * @category models
 */
export interface TransferBody extends Schema.Schema.Type<typeof TransferBody> {}

/**
 * The JSON form of a transfer body.
 *
 * @since 0.1.0
 * @category models
 */
export interface TransferBodyJson extends Schema.Schema.Encoded<typeof TransferBody> {}
