/**
 * The wire contract of the transaction routes, shared by the client (which encodes requests) and
 * the emulator (which decodes them): the Klaytn transaction types of value transfers, the request
 * bodies of the transfer routes, and the route of each fee-delegation choice.
 *
 * Not exported from the package's main entry: applications use `WalletClient`; this module is
 * `effect-kas-wallet/Wire`, for emulators and tools that speak the wire themselves.
 *
 * @since 0.2.0
 */
import { Schema } from "effect"
import * as Address from "./Address.js"
import * as Amount from "./Amount.js"
import * as FeeDelegation from "./FeeDelegation.js"
import { hexOfBytes, NonNegativeInt } from "./internal/hex.js"
import { show } from "./internal/show.js"

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
 * The fee ratio of a request: `FeeDelegation.FeeRatio` (partial delegation), or 0 for the whole
 * fee (as if absent).
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequestFeeRatio: Schema.Schema<FeeDelegation.FeeRatio | 0, number> = Schema.Union(
  Schema.Literal(0),
  FeeDelegation.FeeRatio
).annotations({
  identifier: "RequestFeeRatio",
  message: (issue) => ({ message: `${FeeDelegation.FeeRatioRule} (or 0: the whole fee), got ${show(issue.actual)}`, override: true })
})

const BodyFields = {
  from: Address.Address,
  to: Recipient,
  value: Amount.PebFromHex,
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

/**
 * The value-transfer path of the service for a fee-delegation choice (`undefined`: the sender pays).
 *
 * @since 0.1.0
 * @category routes
 */
export const valueTransferPath = (payer: FeeDelegation.FeePayer | undefined): string =>
  payer === undefined ? "/v2/tx/value" : payer._tag === "GlobalFeePayer" ? "/v2/tx/fd/value" : "/v2/tx/fd-user/value"

/**
 * The `input` of a memo transfer: the UTF-8 bytes of the memo, as the service encodes it.
 *
 * @example
 * ```ts
 * import * as Wire from "effect-kas-wallet/Wire"
 *
 * Wire.memoInput("memo") // "0x6d656d6f"
 * ```
 *
 * @since 0.1.0
 * @category formatting
 */
export const memoInput = (memo: string): string => hexOfBytes(new TextEncoder().encode(memo))
