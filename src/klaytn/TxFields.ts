/**
 * A Klaytn transaction and its signed fields: the layout of each type family (value transfers,
 * contract deployments and executions, account updates, cancels, anchoring, legacy), one
 * description that building, encoding, signing and decoding all follow; and the hashes its sender
 * and its fee payer sign.
 *
 * Part of `effect-kas-wallet/Klaytn` (src/Klaytn.ts), which re-exports its public names.
 *
 * @since 0.9.0
 */
import { keccak_256 as keccak256 } from "@noble/hashes/sha3.js"
import type { Either } from "effect"
import type * as Address from "../Address.js"
import * as Amount from "../Amount.js"
import { type Kind, TxType, type TypedKind, baseType, hasFeeRatio, hasMemo, kindTypes, typeOf } from "../TxType.js"
import { decodeAccountKeyUnsafe } from "./AccountKeys.js"
import { addressBytes } from "./AddressBytes.js"
import { guard, invalid, type KlaytnError } from "./KlaytnError.js"
import { encodeRlp, type RlpItem, uint } from "./Rlp.js"
import { asAddress, asBytes, asSafeInt, asUint256 } from "./RlpReader.js"

/**
 * An unsigned transaction of any kind of the catalog. Which fields exist follows from the type
 * (`makeTransaction` and `decodeRaw` guarantee it): `to` for every kind but a deployment, `input`
 * for the memo and contract types, `feeRatio` (1..99) for the with-ratio types.
 *
 * @since 0.4.0
 * @category models
 */
export interface Tx {
  readonly type: TxType
  readonly nonce: number
  readonly gasPrice: bigint
  readonly gas: number
  /** Absent for a deployment (its RLP holds the empty string). */
  readonly to?: Address.Address
  readonly value: bigint
  readonly from: Address.Address
  /** A memo's bytes, a deployment's creation code, an execution's calldata, or anchored data. */
  readonly input?: Uint8Array
  readonly feeRatio?: number
  /** An account update's new key, RLP-encoded (`encodeAccountKey`). */
  readonly key?: Uint8Array
}

/**
 * What a transaction is made of. The type follows from the kind: a value transfer with an
 * `input` (even an empty one) is a memo transfer; `feeDelegated` makes a fee-delegated type, and a
 * `feeRatio` of 1..99 (not 0, not absent: those delegate the whole fee) a with-ratio one.
 *
 * @since 0.4.0
 * @category models
 */
export interface TxParams {
  readonly kind: Layout
  readonly from: Address.Address
  /** Required, except for a deployment, which takes none. */
  readonly to?: Address.Address | undefined
  readonly value: bigint
  readonly nonce: number
  readonly gas: number
  readonly gasPrice: bigint
  /**
   * A transfer's memo bytes (optional), a deployment's creation code, an execution's calldata or
   * anchored data (required), a legacy transaction's data (optional).
   */
  readonly input?: Uint8Array | undefined
  /** An account update's new key (`encodeAccountKey`); required for an account update only. */
  readonly key?: Uint8Array | undefined
  readonly feeDelegated?: boolean | undefined
  readonly feeRatio?: number | undefined
}

/**
 * The layout of a transaction, by the kind of its type: which fields it signs. A kind of `Wire`
 * whose type is its own (every kind but a raw transaction, whose type is its RLP's).
 *
 * @since 0.5.0
 * @category models
 */
export type Layout = TypedKind

// The kind of each base type, from the catalog's one table of the kinds' types.
const LAYOUTS: ReadonlyMap<number, Layout> = new Map(
  (Object.entries(kindTypes) as Array<[Kind, ReadonlyArray<number>]>).flatMap(([kind, types]) =>
    kind === "rlp" ? [] : types.map((type) => [type, kind] as const)
  )
)

/**
 * The layout of a type of the catalog, by its base type.
 *
 * @since 0.4.0
 * @category models
 */
export const kindOf = (type: TxType): Layout => LAYOUTS.get(baseType(type))!

/**
 * The name of a signed field of a transaction (`fieldsOf` lists a type's, in their RLP order).
 *
 * @since 0.5.0
 * @category encoding
 */
export type Field = "nonce" | "gasPrice" | "gas" | "to" | "value" | "from" | "input" | "humanReadable" | "feeRatio" | "codeFormat" | "key"

const COMMON: ReadonlyArray<Field> = ["nonce", "gasPrice", "gas", "to", "value", "from"]
// The kinds that move no value and have no recipient start with these.
const SENDER_ONLY: ReadonlyArray<Field> = ["nonce", "gasPrice", "gas", "from"]

/**
 * The signed fields of a type, in their RLP order: the one description of each kind's layout,
 * which encoding, signing and decoding all follow.
 *
 * @since 0.4.0
 * @category encoding
 */
export const fieldsOf = (type: TxType): ReadonlyArray<Field> => {
  const ratio: ReadonlyArray<Field> = hasFeeRatio(type) ? ["feeRatio"] : []
  switch (kindOf(type)) {
    case "value":
      return [...COMMON, ...(hasMemo(type) ? ["input" as const] : []), ...ratio]
    case "contract/deploy":
      // Klaytn puts the ratio between humanReadable and codeFormat.
      return [...COMMON, "input", "humanReadable", ...ratio, "codeFormat"]
    case "contract/execute":
      return [...COMMON, "input", ...ratio]
    case "account":
      return [...SENDER_ONLY, "key", ...ratio]
    case "cancel":
      return [...SENDER_ONLY, ...ratio]
    case "anchor":
      return [...SENDER_ONLY, "input", ...ratio]
    case "legacy":
      // No sender field: the signature names it.
      return ["nonce", "gasPrice", "gas", "to", "value", "input"]
  }
}

/**
 * Whether a type has a field (e.g. `value` and `to` only where the kind moves value).
 *
 * @since 0.5.0
 * @category encoding
 */
export const hasField = (type: TxType, field: Field): boolean => fieldsOf(type).includes(field)

const checkUint64 = (n: number, field: string) => {
  if (!Number.isSafeInteger(n) || n < 0) invalid(`${field} must be a non-negative safe integer, got ${n}`)
}
const checkUint256 = (n: bigint, field: string) => {
  if (n < 0n || n > Amount.MaxPeb) invalid(`${field} must be from 0 to 2^256 - 1`)
}

/**
 * Builds a transaction, choosing its type (see `TxParams`) and checking every field's range and
 * that the kind has the fields it needs: a recipient except for a deployment (which has none), an
 * input for the contract kinds.
 *
 * @since 0.4.0
 * @category constructors
 */
export const makeTransaction = (params: TxParams): Either.Either<Tx, KlaytnError> =>
  guard(() => {
    checkUint64(params.nonce, "nonce")
    checkUint64(params.gas, "gas")
    checkUint256(params.value, "value")
    checkUint256(params.gasPrice, "gasPrice")
    const feeDelegated = params.feeDelegated === true
    const ratio = params.feeRatio
    if (ratio !== undefined) {
      if (!Number.isInteger(ratio) || ratio < 0 || ratio > 99) invalid(`feeRatio must be an integer from 0 to 99, got ${ratio}`)
      if (!feeDelegated && ratio !== 0) invalid("feeRatio needs a fee-delegated transaction")
    }
    const kind = params.kind
    if (kind === "legacy" && feeDelegated) invalid("a legacy transaction cannot be fee-delegated")
    const recipient = kind === "value" || kind === "contract/execute" ? "required" : kind === "legacy" ? "optional" : "none"
    if (recipient === "none" && params.to !== undefined) invalid(`a ${kind} transaction has no recipient`)
    if (recipient === "required" && params.to === undefined) invalid(`a ${kind} transaction needs a recipient`)
    const carriesValue = kind === "value" || kind === "contract/deploy" || kind === "contract/execute" || kind === "legacy"
    if (!carriesValue && params.value !== 0n) invalid(`a ${kind} transaction moves no value`)
    if ((kind === "contract/deploy" || kind === "contract/execute" || kind === "anchor") && params.input === undefined) {
      invalid(`a ${kind} transaction needs an input`)
    }
    if ((kind === "account" || kind === "cancel") && params.input !== undefined) invalid(`a ${kind} transaction has no input`)
    if (kind === "account" ? params.key === undefined : params.key !== undefined) {
      invalid(kind === "account" ? "an account update needs a key" : "only an account update has a key")
    }
    if (params.key !== undefined) decodeAccountKeyUnsafe(params.key)
    const type = typeOf(kind, { memo: kind === "value" && params.input !== undefined, feeDelegated, feeRatio: ratio })
    return {
      type,
      nonce: params.nonce,
      gasPrice: params.gasPrice,
      gas: params.gas,
      ...(params.to !== undefined ? { to: params.to } : {}),
      value: params.value,
      from: params.from,
      ...(params.input !== undefined ? { input: params.input.slice() } : {}),
      ...(hasFeeRatio(type) ? { feeRatio: ratio! } : {}),
      ...(params.key !== undefined ? { key: params.key.slice() } : {})
    }
  })

// The RLP of one signed field. A deployment's recipient is the empty string; humanReadable false
// and codeFormat 0 (EVM) are the only values Klaytn accepts today.
const encodeField = (t: Tx, field: Field): Uint8Array => {
  switch (field) {
    case "nonce":
      return uint(t.nonce)
    case "gasPrice":
      return uint(t.gasPrice)
    case "gas":
      return uint(t.gas)
    case "to":
      return t.to === undefined ? new Uint8Array(0) : addressBytes(t.to)
    case "value":
      return uint(t.value)
    case "from":
      return addressBytes(t.from)
    case "input":
      return t.input ?? new Uint8Array(0)
    case "feeRatio":
      return uint(t.feeRatio ?? 0)
    case "humanReadable":
    case "codeFormat":
      return uint(0)
    case "key":
      return t.key ?? new Uint8Array(0)
  }
}

/**
 * The fields both parties sign, in order.
 *
 * @internal
 */
export const signedFields = (t: Tx): Array<RlpItem> => fieldsOf(t.type).map((field) => encodeField(t, field))

/**
 * What both parties' signatures cover first: `rlp([type, …fields])`.
 *
 * @internal
 */
export const signingPayload = (t: Tx): Uint8Array => encodeRlp([uint(t.type), ...signedFields(t)])

/**
 * Whether a type is the legacy (Ethereum-style) one, which has no type byte and no fee payer.
 *
 * @internal
 */
export const isLegacy = (type: number) => type === TxType.LegacyTransaction

/**
 * The hash the sender signs: keccak256(`rlp([rlp([type, …fields]), chainId, 0, 0])`); for a legacy
 * transaction EIP-155's keccak256(`rlp([…fields, chainId, 0, 0])`).
 *
 * @since 0.1.0
 * @category signing
 */
export const senderSigningHash = (t: Tx, chainId: number): Uint8Array =>
  isLegacy(t.type)
    ? keccak256(encodeRlp([...signedFields(t), uint(chainId), uint(0), uint(0)]))
    : keccak256(encodeRlp([signingPayload(t), uint(chainId), uint(0), uint(0)]))

/**
 * The hash the fee payer signs: keccak256(`rlp([rlp([type, …fields]), feePayer, chainId, 0, 0])`).
 *
 * @since 0.1.0
 * @category signing
 */
export const feePayerSigningHash = (t: Tx, feePayer: Address.Address, chainId: number): Uint8Array =>
  keccak256(encodeRlp([signingPayload(t), addressBytes(feePayer), uint(chainId), uint(0), uint(0)]))

/**
 * A transaction being decoded, its fields set one by one.
 *
 * @internal
 */
export type Mutable<A> = { -readonly [K in keyof A]: A[K] }

// Reads one signed field into the transaction being decoded, refusing what Klaytn refuses.
const decodeField = (t: Mutable<Tx>, field: Field, item: RlpItem | undefined): void => {
  switch (field) {
    case "nonce":
    case "gas":
      t[field] = asSafeInt(item, field)
      return
    case "gasPrice":
    case "value":
      t[field] = asUint256(item, field)
      return
    case "to":
      if (kindOf(t.type) === "contract/deploy") {
        if (asBytes(item, field).length !== 0) invalid("to: a deployment has no recipient")
      } else if (kindOf(t.type) !== "legacy" || asBytes(item, field).length !== 0) {
        // A legacy transaction without a recipient creates a contract.
        t.to = asAddress(item, field)
      }
      return
    case "from":
      t.from = asAddress(item, field)
      return
    case "input":
      t.input = asBytes(item, field)
      return
    case "feeRatio": {
      const ratio = asSafeInt(item, field)
      if (ratio < 1 || ratio > 99) invalid(`feeRatio must be from 1 to 99, got ${ratio}`)
      t.feeRatio = ratio
      return
    }
    case "humanReadable":
      // An RLP boolean: 0x80 false, 0x01 true. Klaytn does not support human-readable addresses.
      if (asSafeInt(item, field) !== 0) invalid("humanReadable: human-readable addresses are not supported")
      return
    case "codeFormat":
      if (asSafeInt(item, field) !== 0) invalid("codeFormat: only 0 (EVM) is supported")
      return
    case "key":
      t.key = asBytes(item, field)
      decodeAccountKeyUnsafe(t.key)
      return
  }
}

/**
 * The signed fields of a type from their RLP items; the kinds that move no value hold 0.
 *
 * @internal
 */
export const decodeFields = (type: TxType, items: ReadonlyArray<RlpItem>): Mutable<Tx> => {
  const tx = { type, value: 0n } as Mutable<Tx>
  fieldsOf(type).forEach((field, i) => decodeField(tx, field, items[i]))
  return tx
}
