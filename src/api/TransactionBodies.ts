/**
 * The request bodies of the transaction operations, by kind and payer route, and of the read-only
 * contract call: one schema each, which the client encodes its requests with and the emulator
 * decodes them with, each field annotated with how the service refuses it (`Refusal`). The payer
 * routes of each kind and the method of its routes are here too: which body goes where.
 *
 * Re-exported by `effect-kas-wallet/Wire`.
 *
 * @since 0.10.0
 */
import { Schema } from "effect"
import * as AccountKey from "../AccountKey.js"
import * as Address from "../Address.js"
import * as Amount from "../Amount.js"
import * as ErrorBody from "../ErrorBody.js"
import * as FeeDelegation from "../FeeDelegation.js"
import * as AbiValue from "../internal/abiValue.js"
import { hexOfBytes, NonNegativeInt } from "../internal/hex.js"
import { HexBytes } from "../internal/hexBytes.js"
import { show } from "../internal/show.js"
import type { Kind } from "../TxType.js"
import * as Refusal from "./Refusal.js"

/**
 * The HTTP method of each kind's routes: an account update is a `PUT`, a cancellation a
 * `DELETE`, every other kind a `POST`.
 *
 * @since 0.5.0
 * @category routes
 */
export const methodOf = (kind: Kind): "POST" | "PUT" | "DELETE" =>
  kind === "account" ? "PUT" : kind === "cancel" ? "DELETE" : "POST"

/**
 * Who pays the fee, as the route says it: `tx` (the sender), `fd` (the global fee payer),
 * `fd-user` (the member's fee-payer account named in the body).
 *
 * @since 0.4.0
 * @category models
 */
export type PayerRoute = "tx" | "fd" | "fd-user"

/**
 * The route of a fee-delegation choice (`undefined`: the sender pays).
 *
 * @since 0.4.0
 * @category routes
 */
export const payerRoute = (payer: FeeDelegation.FeePayer | undefined): PayerRoute =>
  payer === undefined ? "tx" : payer._tag === "GlobalFeePayer" ? "fd" : "fd-user"

/**
 * The fee-delegation routes of each kind: every kind has the three, except a legacy
 * transaction, which its sender always pays.
 *
 * @since 0.5.0
 * @category routes
 */
export const payerRoutes: { readonly [K in Kind]: ReadonlyArray<PayerRoute> } = {
  value: ["tx", "fd", "fd-user"],
  "contract/deploy": ["tx", "fd", "fd-user"],
  "contract/execute": ["tx", "fd", "fd-user"],
  rlp: ["tx", "fd", "fd-user"],
  cancel: ["tx", "fd", "fd-user"],
  anchor: ["tx", "fd", "fd-user"],
  account: ["tx", "fd", "fd-user"],
  legacy: ["tx"]
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
  Schema.filter((a) => a !== ZERO_ADDRESS, { message: () => "cannot be the zero address" }),
  Refusal.annotate(Refusal.recipient)
).annotations({ identifier: "Recipient" })

// An address of the body: `from`, `feePayer`.
const Sender = Address.Address.pipe(Refusal.annotate(Refusal.address))
// An amount of the body: `value`.
const Quantity = Amount.PebFromHex.pipe(Refusal.annotate(Refusal.quantity))
// Bytes of the body: `input`, `rlp`.
const Bytes = HexBytes.pipe(Refusal.annotate(Refusal.bytes))

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
  [Refusal.RefusalId]: Refusal.always(ErrorBody.Code.FeeRatioOutOfRange),
  message: (issue) => ({ message: `${FeeDelegation.FeeRatioRule} (or 0: the whole fee), got ${show(issue.actual)}`, override: true })
})

const CommonFields = {
  from: Sender,
  /** 0 or absent: the sender's next nonce. */
  nonce: Schema.optionalWith(NonNegativeInt, { exact: true }),
  /** 0 or absent: the default gas limit. */
  gas: Schema.optionalWith(NonNegativeInt, { exact: true }),
  /** Whether to send the signed transaction to the chain. */
  submit: Schema.optionalWith(Schema.Boolean, { exact: true })
}

/**
 * The bytecode of a deployment: `0x` + an even, non-zero number of hex digits.
 *
 * @since 0.4.0
 * @category schemas
 */
export const Bytecode = Bytes.pipe(
  Schema.filter((s) => s.length > 2, { message: () => "the bytecode cannot be empty" })
).annotations({ identifier: "Bytecode" })

/**
 * Bytes that cannot be empty: `0x` + an even, non-zero number of hex digits.
 *
 * @since 0.5.0
 * @category schemas
 */
export const NonEmptyHexBytes = Bytes.pipe(
  Schema.filter((s) => s.length > 2, { message: () => "cannot be empty" })
).annotations({ identifier: "NonEmptyHexBytes" })

/**
 * A transaction hash in a request: `0x` + 64 hex digits.
 *
 * @since 0.5.0
 * @category schemas
 */
export const TransactionHash = Schema.String.pipe(
  Schema.pattern(/^0x[0-9a-fA-F]{64}$/, { message: (issue) => `expected 0x followed by 64 hex digits, got ${show(issue.actual)}` }),
  Refusal.annotate(Refusal.hex({ evenDigits: true }))
).annotations({ identifier: "TransactionHash" })

// \`{ keyType: 5, key: [..., { keyType: 1 }, ...] }\`: a legacy key in a role-based key, which the
// service refuses with a code of its own.
const legacyInRoles = (raw: unknown): boolean => {
  const key = raw as { readonly keyType?: unknown; readonly key?: unknown } | null
  return typeof key === "object" && key !== null && key.keyType === 5 && Array.isArray(key.key) &&
    key.key.some((role: unknown) => typeof role === "object" && role !== null && (role as { readonly keyType?: unknown }).keyType === 1)
}

/**
 * The new key of an account update: `AccountKey.Json`; a key the rules refuse is 1061903, a legacy
 * key in a role-based key 1061917.
 *
 * @since 0.10.0
 * @category schemas
 */
export const NewAccountKey = AccountKey.Json.pipe(
  Refusal.annotate({
    invalid: (raw) => (legacyInRoles(raw) ? ErrorBody.Code.LegacyKeyInRoleBased : ErrorBody.Code.InvalidAccountKey)
  })
)

/**
 * The fields each kind adds to the common ones (`from`, `nonce`, `gas`, `submit`) and to the
 * fee payer's (`feePayer`, `feeRatio`): the one description of each kind's body.
 *
 * @since 0.4.0
 * @category schemas
 */
export const KindFields = {
  value: {
    to: Recipient,
    value: Quantity,
    /** Free text; its UTF-8 bytes become the transaction's input (see `memoInput`). */
    memo: Schema.optionalWith(Schema.String, { exact: true })
  },
  "contract/deploy": {
    /** The creation bytecode with its encoded constructor arguments. */
    input: Bytecode,
    /** Peb sent to the constructor (it must be payable); absent: none. */
    value: Schema.optionalWith(Quantity, { exact: true })
  },
  "contract/execute": {
    /** The contract. */
    to: Recipient,
    /** The calldata (`"0x"`: none, the contract's receive or fallback function). */
    input: Bytes,
    /** Peb sent with the call (the function must be payable); absent: none. */
    value: Schema.optionalWith(Quantity, { exact: true })
  },
  rlp: {
    /** The RLP-encoded transaction (a raw route takes no `from`, `nonce` or `gas`: they are its own). */
    rlp: NonEmptyHexBytes
  },
  cancel: {
    /** The pending transaction to cancel, by hash (or by `nonce`: exactly one of them). */
    transactionHash: Schema.optionalWith(TransactionHash, { exact: true })
  },
  anchor: {
    /** The data anchored. */
    input: NonEmptyHexBytes
  },
  account: {
    /** The new key of the sender's account. */
    accountKey: NewAccountKey
  },
  legacy: {
    /** The recipient; absent: a deployment of `input`. */
    to: Schema.optionalWith(Recipient, { exact: true }),
    value: Schema.optionalWith(Quantity, { exact: true }),
    input: Schema.optionalWith(Bytes, { exact: true })
  }
} as const

// Request bodies are decoded strictly: a misspelt field (`fee_ratio`) fails under its own name
// instead of silently changing what the transaction does.
const strict = { parseOptions: { onExcessProperty: "error" } } as const

const FeeRatioField = { feeRatio: Schema.optionalWith(RequestFeeRatio, { exact: true }) }

const ROUTE_PREFIX = { tx: "", fd: "FeeDelegated", "fd-user": "UserFeeDelegated", any: "Any" } as const

// Each kind's four schemas from its fields: one per route, and `any` (the client's, whoever pays).
// `rule` is a check across fields, the same on every route.
const bodiesOf = <F extends Schema.Struct.Fields>(
  fields: F,
  noun: string,
  rule: (body: Schema.Struct.Type<F> & { readonly nonce?: number | undefined }) => true | { readonly path: ReadonlyArray<string>; readonly message: string } = () =>
    true
) => {
  const named = (route: keyof typeof ROUTE_PREFIX) => ({ identifier: `${ROUTE_PREFIX[route]}${noun}Body`, ...strict })
  const ruled = <S extends Schema.Schema.Any>(schema: S) => schema.pipe(Schema.filter((b) => rule(b as any)))
  return {
    tx: ruled(Schema.Struct({ ...CommonFields, ...fields })).annotations(named("tx")),
    fd: ruled(Schema.Struct({ ...CommonFields, ...fields, ...FeeRatioField })).annotations(named("fd")),
    "fd-user": ruled(Schema.Struct({ ...CommonFields, ...fields, feePayer: Sender, ...FeeRatioField })).annotations(named("fd-user")),
    any: ruled(Schema.Struct({
      ...CommonFields,
      ...fields,
      feePayer: Schema.optionalWith(Sender, { exact: true }),
      ...FeeRatioField
    })).annotations(named("any"))
  }
}

const SubmitField = { submit: CommonFields.submit }

// A raw transaction's body has no `from`, `nonce` or `gas`: they are the RLP's own. The spec lists
// an optional `from` on the sender's route; the client never sends it (it checks a `from` it is
// given against the RLP instead), the emulator takes it.
const rlpBodies = {
  tx: Schema.Struct({ ...KindFields.rlp, ...SubmitField, from: Schema.optionalWith(Sender, { exact: true }) }).annotations({
    identifier: "ProcessRlpBody",
    ...strict
  }),
  fd: Schema.Struct({ ...KindFields.rlp, ...SubmitField, ...FeeRatioField }).annotations({ identifier: "FeeDelegatedProcessRlpBody", ...strict }),
  "fd-user": Schema.Struct({ ...KindFields.rlp, ...SubmitField, feePayer: Sender, ...FeeRatioField }).annotations({
    identifier: "UserFeeDelegatedProcessRlpBody",
    ...strict
  }),
  any: Schema.Struct({
    ...KindFields.rlp,
    ...SubmitField,
    feePayer: Schema.optionalWith(Sender, { exact: true }),
    ...FeeRatioField
  }).annotations({ identifier: "AnyProcessRlpBody", ...strict })
}

// A cancellation names the transaction it replaces by exactly one of nonce and hash.
const oneTarget = (b: { readonly nonce?: number | undefined; readonly transactionHash?: string | undefined }) =>
  (b.nonce !== undefined) !== (b.transactionHash !== undefined) ||
  {
    path: [b.nonce !== undefined ? "transactionHash" : "nonce"],
    message: "a cancellation names the pending transaction by nonce or by transactionHash, exactly one of them"
  }

// Without a recipient a legacy transaction deploys its input, which must then be code.
const legacyDeploysCode = (b: { readonly to?: string | undefined; readonly input?: string | undefined }) =>
  b.to !== undefined || (b.input !== undefined && b.input.length > 2) ||
  { path: ["input"], message: "a legacy transaction without a recipient deploys its input: it cannot be empty" }

const legacyBodies = bodiesOf(KindFields.legacy, "LegacyTransaction", legacyDeploysCode)

// No route takes a legacy transaction with a fee payer: these bodies refuse everything, so that the
// table stays total (every kind, every route) and a decoder built from it says why.
const noLegacyFeePayer = (route: "fd" | "fd-user") =>
  Schema.Never.annotations({
    identifier: `${ROUTE_PREFIX[route]}LegacyTransactionBody`,
    message: () => "a legacy transaction has no fee-delegated form: its sender pays"
  })

/**
 * The body of each endpoint, by kind and route: e.g. `Bodies["contract/deploy"].fd` is the body of
 * `POST /v2/tx/fd/contract/deploy`. Unknown fields are refused; `feePayer` is required on
 * `fd-user`, `feeRatio` taken on `fd` and `fd-user` only. `any` is any body of the kind, whoever
 * pays (what the client encodes). A raw transaction's (`rlp`) takes no `from`, `nonce` or `gas`; a
 * cancellation's names its target by exactly one of `nonce` and `transactionHash`; a legacy
 * transaction has the sender's route only (its `fd` and `fd-user` bodies refuse everything).
 *
 * @since 0.4.0
 * @category schemas
 */
export const Bodies = {
  value: bodiesOf(KindFields.value, "ValueTransfer"),
  "contract/deploy": bodiesOf(KindFields["contract/deploy"], "ContractDeploy"),
  "contract/execute": bodiesOf(KindFields["contract/execute"], "ContractExecution"),
  rlp: rlpBodies,
  cancel: bodiesOf(KindFields.cancel, "CancelTransaction", oneTarget),
  anchor: bodiesOf(KindFields.anchor, "AnchorTransaction"),
  account: bodiesOf(KindFields.account, "AccountUpdateTransaction"),
  legacy: { tx: legacyBodies.tx, fd: noLegacyFeePayer("fd"), "fd-user": noLegacyFeePayer("fd-user"), any: legacyBodies.tx }
}

/**
 * The body of `POST /v2/tx/value` (the sender pays). Unknown fields are refused.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ValueTransferBody = Bodies.value.tx

/**
 * The body of `POST /v2/tx/fd/value` (global fee payer): the basic fields plus `feeRatio`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FeeDelegatedTransferBody = Bodies.value.fd

/**
 * The body of `POST /v2/tx/fd-user/value` (user fee payer): the basic fields plus the required
 * `feePayer` and an optional `feeRatio`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UserFeeDelegatedTransferBody = Bodies.value["fd-user"]

/**
 * Any transfer body: `{ from, to, value, memo?, nonce?, gas?, submit?, feePayer?, feeRatio? }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransferBody = Bodies.value.any

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
 * The decoded body of any kind, whoever pays.
 *
 * @since 0.4.0
 * @category models
 */
export type Body<K extends Kind = Kind> = K extends Kind ? Schema.Schema.Type<typeof Bodies[K]["any"]> : never

/**
 * The JSON form of a body of any kind.
 *
 * @since 0.4.0
 * @category models
 */
export type BodyJson<K extends Kind = Kind> = K extends Kind ? Schema.Schema.Encoded<typeof Bodies[K]["any"]> : never

// ---------------------------------------------------------------------------------------------
// Contract calls
// ---------------------------------------------------------------------------------------------

const METHOD_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/**
 * A method name: a Solidity identifier.
 *
 * @since 0.4.0
 * @category schemas
 */
export const MethodName = Schema.String.pipe(
  Schema.filter((s) => METHOD_NAME.test(s), {
    message: (issue) => `expected a method name (letters, digits, _ or $, not starting with a digit), got ${show(issue.actual)}`
  })
).annotations({ identifier: "MethodName" })

/**
 * One argument of a call, as the service takes it: an ABI type (`uint256`, `address`, `bool`,
 * `string`, `bytes32`, `uint64[2]`, `address[]`, ...) and a JSON value of that type (numbers as
 * JSON numbers or decimal or `0x` strings, addresses and bytes as `0x` strings, arrays as arrays).
 *
 * @since 0.4.0
 * @category schemas
 */
export const CallArgument = Schema.Struct({
  type: AbiValue.AbiType,
  value: Schema.Unknown
}).pipe(
  Schema.filter((a) => {
    const problem = AbiValue.check(a.type, a.value)
    return problem === undefined ? true : { path: ["value"], message: problem }
  })
).annotations({ identifier: "CallArgument", ...strict })

/**
 * @since 0.4.0
 * @category models
 */
export interface CallArgument extends Schema.Schema.Type<typeof CallArgument> {}

/**
 * The body of `POST /v2/tx/contract/call`: nothing is signed or sent; the contract runs read-only
 * against the latest state. `data` names the method and its arguments; the service encodes them.
 *
 * @since 0.4.0
 * @category schemas
 */
export const ContractCallBody = Schema.Struct({
  from: Schema.optionalWith(Sender, { exact: true }),
  to: Recipient,
  value: Schema.optionalWith(Quantity, { exact: true }),
  gas: Schema.optionalWith(NonNegativeInt, { exact: true }),
  data: Schema.Struct({
    methodName: MethodName,
    arguments: Schema.optionalWith(Schema.Array(CallArgument), { exact: true })
  }).annotations({ identifier: "ContractCallData", ...strict })
}).annotations({ identifier: "ContractCallBody", ...strict })

/**
 * @since 0.4.0
 * @category models
 */
export interface ContractCallBody extends Schema.Schema.Type<typeof ContractCallBody> {}

/**
 * The JSON form of a call body.
 *
 * @since 0.4.0
 * @category models
 */
export interface ContractCallBodyJson extends Schema.Schema.Encoded<typeof ContractCallBody> {}

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
