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
import { type FastCheck, Schema } from "effect"
import * as Address from "./Address.js"
import * as Amount from "./Amount.js"
import * as FeeDelegation from "./FeeDelegation.js"
import { TxType, baseType, hasFeeRatio, isFeeDelegatedType } from "./TxType.js"
import { fromString } from "./internal/fromString.js"
import * as Hex from "./internal/hexBytes.js"
import { has0x, isHexRange } from "./internal/hexEngine.js"
import { arbitraryHexQuantity, HEX_QUANTITY, NonNegativeInt } from "./internal/hex.js"
import { show } from "./internal/show.js"

// ---------------------------------------------------------------------------------------------
// Hashes, hex data, signatures
// ---------------------------------------------------------------------------------------------

const LOWER_CASE_HASH = /^0x[0-9a-f]{64}$/
const ANY_CASE_HASH = /^0x[0-9a-fA-F]{64}$/

// 32 bytes in lower-case hex, branded: how the service names a transaction (its hash) and a
// pending one (its id).
const lowerCaseHashOf = <B extends string>(brand: B, what: string) =>
  Schema.String.pipe(
    Schema.filter((s) => LOWER_CASE_HASH.test(s), {
      message: (issue) => `expected a lower-case ${what} (0x + 64 hex digits), got ${show(issue.actual)}`,
      arbitrary: () => (fc) => Hex.arbitraryHexBytes(fc, 32, 32)
    }),
    Schema.brand(brand)
  ).annotations({ identifier: brand })

/**
 * A transaction hash in lower case: `0x` + 64 hex digits, branded.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TxHashFromSelf = lowerCaseHashOf("TxHash", "transaction hash")

/**
 * @since 0.1.0
 * @category models
 */
export type TxHash = typeof TxHashFromSelf.Type

/**
 * Whether a string is `0x` + 64 hex digits in any case: what `TxHash` and `TransactionId` decode
 * (the rule shared with the client's fast page decoders).
 *
 * @since 0.8.0
 * @internal
 */
export const isAnyCaseHash = (s: string): boolean => s.length === 66 && has0x(s) && isHexRange(s, 2, 66)

const lowerCaseHash = (s: string): string | undefined => (isAnyCaseHash(s) ? s.toLowerCase() : undefined)

/**
 * Decodes `0x` + 64 hex digits in any case to a lower-case `TxHash`; encodes it unchanged.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TxHash: Schema.Schema<TxHash, string> = fromString(
  TxHashFromSelf,
  lowerCaseHash,
  (s) => `expected 0x followed by 64 hex digits, got ${show(s)}`,
  (s) => s
).annotations({ identifier: "TxHash", description: "a transaction hash, 0x followed by 64 hex digits" })

/**
 * A 32-byte hash other than a transaction's (a block hash): `0x` + 64 hex digits, as received.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Hash32 = Schema.String.pipe(
  Schema.pattern(ANY_CASE_HASH, { message: (issue) => `expected 0x followed by 64 hex digits, got ${show(issue.actual)}` })
).annotations({ identifier: "Hash32" })

/**
 * Bytes as `0x` + an even number of hex digits (`"0x"` is empty), as received.
 *
 * @since 0.1.0
 * @category schemas
 */
export const HexBytes = Hex.HexBytes

const hexInteger = (name: string, maxDigits: number) => {
  const pattern = new RegExp(`^0x[0-9a-fA-F]{1,${maxDigits}}$`)
  return Schema.String.pipe(
    Schema.filter((s) => pattern.test(s), {
      message: (issue) => `${name} must be 0x followed by 1 to ${maxDigits} hex digits, got ${show(issue.actual)}`,
      arbitrary: () => (fc) => arbitraryHexQuantity(fc, maxDigits)
    })
  )
}

// A signature as the service writes it, for the results' generators.
const arbitrarySignature = (fc: typeof FastCheck) =>
  fc.record({ V: arbitraryHexQuantity(fc, 16), R: arbitraryHexQuantity(fc, 64), S: arbitraryHexQuantity(fc, 64) })

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

const LowerCaseAddress = Address.LowerCase

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * The number a `0x` hex quantity stands for, or `undefined` when it is not one or exceeds the
 * largest safe integer (`NumberFromHex`'s rule, shared with the client's fast page decoders).
 *
 * @since 0.8.0
 * @internal
 */
export const numberOfHex = (s: string): number | undefined => {
  if (!HEX_QUANTITY.test(s)) return undefined
  // Up to 13 digits (52 bits) a double holds the value exactly, and `Number` reads `0x` hex.
  if (s.length <= 15) return Number(s)
  const n = BigInt(s)
  return n <= MAX_SAFE ? Number(n) : undefined
}

/**
 * A `0x` hex quantity as a `number` (block numbers, gas, nonces in receipts): at most the largest
 * safe integer; encodes to minimal lower-case hex.
 *
 * @since 0.1.0
 * @category schemas
 */
export const NumberFromHex: Schema.Schema<number, string> = fromString(
  NonNegativeInt,
  numberOfHex,
  (s) => HEX_QUANTITY.test(s) ? `quantity ${s} exceeds 2^53 - 1` : `expected 0x followed by hex digits, got ${show(s)}`,
  (n) => `0x${n.toString(16)}`
).annotations({ identifier: "NumberFromHex" })

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/**
 * Whether a result of a type has a field: always, maybe (the service may show it or not), never.
 *
 * @since 0.5.0
 * @category models
 */
export type Presence = "required" | "optional" | "absent"

/**
 * Which fields a result of a type has, by base type: a recipient for transfers and executions
 * (optional for a legacy transaction: none is a deployment; none for a deployment, a cancellation,
 * an anchoring or an account update), a value for the kinds that move one, an input for the kinds
 * that carry data (the service may show `"0x"` or nothing for a plain transfer), an `accountKey` (the
 * RLP-encoded new key) for an account update only.
 *
 * @since 0.5.0
 * @category models
 */
export interface ResultShape {
  readonly to: Presence
  readonly value: Presence
  readonly input: Presence
  readonly accountKey: Presence
}

const SHAPES: ReadonlyMap<number, ResultShape> = new Map<number, ResultShape>([
  [TxType.LegacyTransaction, { to: "optional", value: "required", input: "optional", accountKey: "absent" }],
  [TxType.ValueTransfer, { to: "required", value: "required", input: "optional", accountKey: "absent" }],
  [TxType.ValueTransferMemo, { to: "required", value: "required", input: "optional", accountKey: "absent" }],
  [TxType.AccountUpdate, { to: "absent", value: "absent", input: "absent", accountKey: "required" }],
  [TxType.SmartContractDeploy, { to: "absent", value: "required", input: "optional", accountKey: "absent" }],
  [TxType.SmartContractExecution, { to: "required", value: "required", input: "optional", accountKey: "absent" }],
  [TxType.Cancel, { to: "absent", value: "absent", input: "absent", accountKey: "absent" }],
  [TxType.ChainDataAnchoring, { to: "absent", value: "absent", input: "required", accountKey: "absent" }]
])

/**
 * The fields a result of a type has (see `ResultShape`).
 *
 * @since 0.5.0
 * @category models
 */
export const shapeOf = (typeInt: TxType): ResultShape => SHAPES.get(baseType(typeInt))!

// A result whose fields are not its type's is not what was sent. `strictValue`: a signed result's
// value is required where the type has one (a multisig pending result may leave it out).
const fieldsMatchType = (strictValue: boolean) =>
(r: {
  readonly typeInt: TxType
  readonly to?: unknown
  readonly value?: unknown
  readonly input?: unknown
  readonly accountKey?: unknown
}) => {
  const shape = shapeOf(r.typeInt)
  for (const field of ["to", "value", "input", "accountKey"] as const) {
    const presence = field === "value" && !strictValue && shape.value === "required" ? "optional" : shape[field]
    if (presence === "required" && r[field] === undefined) return { path: [field], message: `type ${r.typeInt} has ${field}: it is required` }
    if (presence === "absent" && r[field] !== undefined) return { path: [field], message: `type ${r.typeInt} has no ${field}` }
  }
  return true
}

const BASIC_TYPES = Object.values(TxType).filter((t) => !isFeeDelegatedType(t)) as [TxType, ...Array<TxType>]
const FEE_DELEGATED_TYPES = Object.values(TxType).filter(isFeeDelegatedType) as [TxType, ...Array<TxType>]

// What a transaction says, sent or waiting for its signers.
const DataFields = {
  from: LowerCaseAddress,
  // Which of these a transaction has follows from its type (`shapeOf`).
  to: Schema.optionalWith(LowerCaseAddress, { exact: true }),
  value: Schema.optionalWith(Amount.PebFromHex, { exact: true }),
  gas: NonNegativeInt,
  gasPrice: Amount.PebFromHex,
  nonce: NonNegativeInt,
  // Types 0x08-0x0a have no input field on the chain; the service may show "0x" or nothing.
  input: Schema.optionalWith(HexBytes, { exact: true }),
  /** An account update's new key, RLP-encoded (`0x01c0`: legacy). */
  accountKey: Schema.optionalWith(HexBytes, { exact: true })
}

const ResultFields = {
  ...DataFields,
  rlp: HexBytes,
  signatures: Schema.Array(Signature),
  transactionHash: TxHash,
  status: Schema.Literal("Submitted", "Pending")
}

/**
 * The result of a transaction the sender pays (`POST /v2/tx/value`, `/v2/tx/contract/deploy`,
 * `/v2/tx/contract/execute`, ...): `typeInt` 8 or 16 (value transfer, without or with a memo), 40
 * (deployment: no `to`), 48 (execution), 56 (cancel: no `to`, `value` or `input`), 72 (anchoring:
 * `input`, no `to` or `value`), 32 (account update: `accountKey`, no `to` or `value`) or 0
 * (legacy; no `to`: a deployment). `shapeOf` says which fields each type has. `status` is `"Submitted"` (sent to the chain) or
 * `"Pending"` (signed only, `submit: false`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const BasicTransactionResult = Schema.Struct({
  typeInt: Schema.Literal(...BASIC_TYPES),
  ...ResultFields
}).pipe(Schema.filter(fieldsMatchType(true))).annotations({ identifier: "BasicTransactionResult" })

/**
 * @since 0.1.0
 * @category models
 */
export interface BasicTransactionResult extends Schema.Schema.Type<typeof BasicTransactionResult> {}

const FeeDelegatedFields = Schema.Struct({
  typeInt: Schema.Literal(...FEE_DELEGATED_TYPES),
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
 * The result of a fee-delegated transaction (`/v2/tx/fd/...`, `/v2/tx/fd-user/...`): the basic
 * fields plus `feePayer` and, for the with-ratio types (10, 18, 42, 50), `feeRatio` 1..99. The
 * other types (9, 17, 41, 49) delegate the whole fee; their `feeRatio` is absent or 0.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FeeDelegatedTransactionResult = FeeDelegatedFields.pipe(
  Schema.filter((r) => {
    const ratio = ratioMatchesType(r)
    return ratio === true ? fieldsMatchType(true)(r) : ratio
  }, {
    // Built from the vocabulary's generators (no Arbitrary.make at run time: see internal/hexBytes).
    arbitrary: () => (fc) =>
      fc.record({
        typeInt: fc.constantFrom(...FEE_DELEGATED_TYPES),
        from: Address.arbitraryAddress(fc),
        to: Address.arbitraryAddress(fc),
        value: Amount.arbitraryPeb(fc),
        gas: fc.nat(),
        gasPrice: Amount.arbitraryPeb(fc),
        nonce: fc.nat(),
        input: fc.option(Hex.arbitraryHexBytes(fc, 0, 40), { nil: undefined }),
        rlp: Hex.arbitraryHexBytes(fc, 0, 40),
        signatures: fc.array(arbitrarySignature(fc), { maxLength: 2 }),
        transactionHash: Hex.arbitraryHexBytes(fc, 32, 32),
        status: fc.constantFrom("Submitted" as const, "Pending" as const),
        feePayer: Address.arbitraryAddress(fc),
        ratio: fc.integer({ min: FeeDelegation.MinFeeRatio, max: FeeDelegation.MaxFeeRatio }),
        zero: fc.boolean(),
        accountKey: Hex.arbitraryHexBytes(fc, 2, 40)
      }).map(({ accountKey, input, ratio, to, value, zero, ...r }) => {
        // Only the fields of the type (`shapeOf`).
        const shape = shapeOf(r.typeInt)
        return {
          ...r,
          ...(shape.to !== "absent" ? { to } : {}),
          ...(shape.value !== "absent" ? { value } : {}),
          ...(shape.input === "required" ? { input: input ?? "0x" } : shape.input === "optional" && input !== undefined ? { input } : {}),
          ...(shape.accountKey === "required" ? { accountKey } : {}),
          ...(hasFeeRatio(r.typeInt) ? { feeRatio: ratio } : zero ? { feeRatio: 0 } : {})
        } as any
      })
  })
).annotations({ identifier: "FeeDelegatedTransactionResult" })

/**
 * @since 0.1.0
 * @category models
 */
export interface FeeDelegatedTransactionResult extends Schema.Schema.Type<typeof FeeDelegatedTransactionResult> {}


/**
 * The id of a multisig sender's transaction waiting for its signers (`transactionId`): `0x` + 64
 * hex digits, in lower case, branded. A pending transaction has no hash until it is signed enough
 * to be sent, so the multisig operations name it by this id.
 *
 * @since 0.8.0
 * @category schemas
 */
export const TransactionIdFromSelf = lowerCaseHashOf("TransactionId", "transaction id")

/**
 * @since 0.8.0
 * @category models
 */
export type TransactionId = typeof TransactionIdFromSelf.Type

/**
 * Decodes `0x` + 64 hex digits in any case to a lower-case `TransactionId`; encodes it unchanged.
 *
 * @since 0.8.0
 * @category schemas
 */
export const TransactionId: Schema.Schema<TransactionId, string> = fromString(
  TransactionIdFromSelf,
  lowerCaseHash,
  (s) => `expected a transaction id (0x + 64 hex digits), got ${show(s)}`,
  (s) => s
).annotations({ identifier: "TransactionId", description: "a multisig transaction id, 0x followed by 64 hex digits" })

const PendingFields = {
  typeInt: Schema.Literal(...BASIC_TYPES, ...FEE_DELEGATED_TYPES),
  ...DataFields,
  feePayer: Schema.optionalWith(LowerCaseAddress, { exact: true }),
  feeRatio: Schema.optionalWith(Schema.Int.pipe(Schema.between(0, 99)), { exact: true })
}

const pendingFieldsMatchType = fieldsMatchType(false)

/**
 * Whether a pending transaction's `to`, `value`, `input` and `accountKey` are those of its type
 * (`PendingTxData`'s rule, shared with the client's fast page decoders).
 *
 * @since 0.8.0
 * @internal
 */
export const isPendingShape = (r: Parameters<typeof pendingFieldsMatchType>[0]): boolean => pendingFieldsMatchType(r) === true

/**
 * What a multisig sender's transaction holds while it waits for its signers (the spec's `TxData`,
 * a listing's `txData`): its type and fields, no signature, no hash. Which of `to`, `value`,
 * `input` and `accountKey` it has follows its type (`shapeOf`); `feePayer` and `feeRatio` appear
 * for the fee-delegated types.
 *
 * @since 0.8.0
 * @category schemas
 */
export const PendingTxData = Schema.Struct(PendingFields).pipe(Schema.filter(pendingFieldsMatchType)).annotations({
  identifier: "PendingTxData"
})

/**
 * @since 0.8.0
 * @category models
 */
export interface PendingTxData extends Schema.Schema.Type<typeof PendingTxData> {}

/**
 * The result of a transaction whose sender is a multisig account: `status` `"Pending"` until
 * enough signers sign it (see the multisig operations), a `transactionId` to follow it by, and
 * neither `rlp`, signatures nor a hash yet.
 *
 * @since 0.4.0
 * @category schemas
 */
export const MultisigPendingResult = Schema.Struct({
  ...PendingFields,
  status: Schema.Literal("Pending"),
  transactionId: TransactionId
}).pipe(Schema.filter(pendingFieldsMatchType)).annotations({ identifier: "MultisigPendingResult" })

/**
 * @since 0.4.0
 * @category models
 */
export interface MultisigPendingResult extends Schema.Schema.Type<typeof MultisigPendingResult> {}

/**
 * A signed transaction: a basic or a fee-delegated result, told apart by `typeInt`.
 *
 * @since 0.4.0
 * @category schemas
 */
export const SignedResult = Schema.Union(BasicTransactionResult, FeeDelegatedTransactionResult).annotations({
  identifier: "SignedResult"
})

/**
 * @since 0.4.0
 * @category models
 */
export type SignedResult = typeof SignedResult.Type

/**
 * What a transaction request returns: a signed result (basic or fee-delegated, told apart by
 * `typeInt`), or, for a multisig sender, a pending one with a `transactionId`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionResult = Schema.Union(BasicTransactionResult, FeeDelegatedTransactionResult, MultisigPendingResult).annotations({
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
 * Whether a result waits for the signers of a multisig sender (it has no hash yet).
 *
 * @since 0.4.0
 * @category guards
 */
export const isMultisigPending = (r: TransactionResult): r is MultisigPendingResult => "transactionId" in r

/**
 * Whether a result is signed (it has a `transactionHash` and an `rlp`).
 *
 * @since 0.4.0
 * @category guards
 */
export const isSigned = (r: TransactionResult): r is SignedResult => !isMultisigPending(r)

/**
 * Whether a result is fee-delegated.
 *
 * @since 0.1.0
 * @category guards
 */
export const isFeeDelegatedResult = (r: TransactionResult): r is FeeDelegatedTransactionResult => "feePayer" in r && "rlp" in r

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
  value: Schema.optionalWith(Amount.PebFromHex, { exact: true }),
  gas: NumberFromHex,
  gasPrice: Amount.PebFromHex,
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

const LOGS_BLOOM = /^0x[0-9a-fA-F]{512}$/

/**
 * The bloom filter of a receipt's logs: 256 bytes, `0x` + 512 hex digits.
 *
 * @since 0.4.0
 * @category schemas
 */
export const LogsBloom = Schema.String.pipe(
  Schema.filter((s) => LOGS_BLOOM.test(s), {
    message: (issue) => `expected a logs bloom (0x + 512 hex digits), got ${show(issue.actual)}`,
    arbitrary: () => (fc) => Hex.arbitraryHexBytes(fc, 256, 256)
  })
).annotations({ identifier: "LogsBloom" })

/**
 * One log a contract emitted, in a receipt: the contract's `address`, up to four `topics` (32-byte
 * hashes; the first is the event's signature hash unless the event is anonymous) and `data` (the
 * non-indexed arguments, ABI-encoded). The block and transaction fields are as the service sends
 * them.
 *
 * @since 0.4.0
 * @category schemas
 */
export const Log = Schema.Struct({
  address: LowerCaseAddress,
  topics: Schema.Array(Hash32).pipe(Schema.maxItems(4)),
  data: HexBytes,
  blockHash: Schema.optionalWith(Schema.NullOr(Hash32), { exact: true }),
  blockNumber: Schema.optionalWith(Schema.NullOr(NumberFromHex), { exact: true }),
  logIndex: Schema.optionalWith(Schema.NullOr(NumberFromHex), { exact: true }),
  removed: Schema.optionalWith(Schema.Boolean, { exact: true }),
  transactionHash: Schema.optionalWith(Schema.NullOr(TxHash), { exact: true }),
  transactionIndex: Schema.optionalWith(Schema.NullOr(NumberFromHex), { exact: true })
}).annotations({ identifier: "Log" })

/**
 * @since 0.4.0
 * @category models
 */
export interface Log extends Schema.Schema.Type<typeof Log> {}

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
  logs: Schema.optionalWith(Schema.Array(Log), { exact: true }),
  logsBloom: Schema.optionalWith(LogsBloom, { exact: true }),
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
// Contract calls
// ---------------------------------------------------------------------------------------------

/**
 * What `POST /v2/tx/contract/call` returns: `data`, the calldata the service encoded from the
 * method and arguments, and `result`, the contract's raw return data (`Abi` decodes it).
 *
 * @since 0.4.0
 * @category schemas
 */
export const ContractCallResult = Schema.Struct({
  data: HexBytes,
  result: HexBytes
}).annotations({ identifier: "ContractCallResult" })

/**
 * @since 0.4.0
 * @category models
 */
export interface ContractCallResult extends Schema.Schema.Type<typeof ContractCallResult> {}
