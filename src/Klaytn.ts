/**
 * Real Klaytn transactions, as the emulator builds and signs them and the client checks them: value
 * transfers (with or without a memo), contract deployments and executions, account updates, cancels
 * and chain-data anchoring, each paid by its sender, by a fee payer, or by a fee payer with a ratio;
 * and Ethereum-style legacy transactions; with Klaytn's account keys (legacy, public, fail,
 * weighted multisig, role-based) and signatures checked against them.
 *
 * Encoding facts, each checked against the `rlp` of the service's example bodies
 * (test/klaytn.test.ts):
 *
 * - Raw transaction: `type ‖ rlp([…fields, signatures, feePayer?, feePayerSignatures?])`, each
 *   signature `[V, R, S]`; the fee payer's part exists in the fee-delegated types (type & 7 ≠ 0)
 *   only. The fields of each kind (`fieldsOf`), `feeRatio` in the with-ratio types (type & 7 = 2)
 *   only:
 *   - value transfer (0x08-0x0a; memo 0x10-0x12): `nonce, gasPrice, gas, to, value, from, input?
 *     (memo types), feeRatio?`
 *   - contract deployment (0x28-0x2a): `nonce, gasPrice, gas, to (empty), value, from, input,
 *     humanReadable (false: 0x80), feeRatio?, codeFormat (0: EVM)`
 *   - contract execution (0x30-0x32): `nonce, gasPrice, gas, to, value, from, input, feeRatio?`
 *   - account update (0x20-0x22): `nonce, gasPrice, gas, from, key (the RLP-encoded account key),
 *     feeRatio?`
 *   - cancel (0x38-0x3a): `nonce, gasPrice, gas, from, feeRatio?`
 *   - chain-data anchoring (0x48-0x4a): `nonce, gasPrice, gas, from, input (the anchored data),
 *     feeRatio?`
 * - Legacy (type 0): Ethereum's `rlp([nonce, gasPrice, gas, to, value, input, V, R, S])` with no
 *   type byte, signed over keccak256(`rlp([nonce, gasPrice, gas, to, value, input, chainId, 0, 0])`)
 *   (EIP-155); it names no sender: `from` is the signature's signer. Its hashes are both keccak256 of
 *   the bytes.
 * - Account keys (`encodeAccountKey`): legacy `0x01c0`, public `0x02 ‖ rlp(compressed key)`, fail
 *   `0x03c0`, weighted multisig `0x04 ‖ rlp([threshold, [[weight, compressed key], …]])`, role-based
 *   `0x05 ‖ rlp([encoded role key, …])` (transaction, account update, fee payer).
 * - The sender signs keccak256(`rlp([rlp([type, …fields]), chainId, 0, 0])`); the fee payer signs
 *   keccak256(`rlp([rlp([type, …fields]), feePayer, chainId, 0, 0])`). V = 2·chainId + 35 +
 *   recovery id.
 * - transactionHash = keccak256(raw); senderTxHash = keccak256(`type ‖ rlp([…, signatures])`),
 *   the raw transaction without the fee payer's part (equal to transactionHash otherwise).
 *
 * Nothing here throws: failures are `KlaytnError` values. Private keys are taken as arguments
 * only; they never appear in an error or a result.
 *
 * `effect-kas-wallet/Klaytn`: not exported from the package's main entry (applications use
 * `WalletClient`, which verifies every result with it); for emulators and tools.
 *
 * @since 0.1.0
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 as keccak256 } from "@noble/hashes/sha3.js"
import { Data, Either, Option } from "effect"
import * as Address from "./Address.js"
import * as Amount from "./Amount.js"
import type * as Transaction from "./Transaction.js"
import { bytesOfHex, hexOfBytes } from "./internal/hex.js"
import * as Signers from "./internal/signers.js"
import * as Wire from "./Wire.js"

/**
 * Why a transaction, an RLP value or a signature was refused.
 *
 * @since 0.1.0
 * @category errors
 */
export class KlaytnError extends Data.TaggedError("KlaytnError")<{ readonly reason: string }> {
  /** @since 0.1.0 */
  override get message(): string {
    return this.reason
  }
}

// Internal helpers below throw `Invalid`; every exported function catches it at its boundary.
class Invalid extends Error {}
const invalid = (reason: string): never => {
  throw new Invalid(reason)
}
const guard = <A>(f: () => A): Either.Either<A, KlaytnError> => {
  try {
    return Either.right(f())
  } catch (e) {
    if (e instanceof Invalid) return Either.left(new KlaytnError({ reason: e.message }))
    throw e
  }
}

// ---------------------------------------------------------------------------------------------
// RLP
// ---------------------------------------------------------------------------------------------

/**
 * An RLP value: a byte string or a list of RLP values.
 *
 * @since 0.1.0
 * @category rlp
 */
export type RlpItem = Uint8Array | ReadonlyArray<RlpItem>

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  let length = 0
  for (const p of parts) length += p.length
  const out = new Uint8Array(length)
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}

const lengthBytes = (n: number): Uint8Array => {
  const bytes: Array<number> = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256)
  return Uint8Array.from(bytes)
}

const withPrefix = (short: number, payload: Uint8Array): Uint8Array => {
  if (payload.length <= 55) return concat([Uint8Array.of(short + payload.length), payload])
  const length = lengthBytes(payload.length)
  return concat([Uint8Array.of(short + 55 + length.length), length, payload])
}

/**
 * The RLP encoding of a value.
 *
 * @since 0.1.0
 * @category rlp
 */
export const encodeRlp = (item: RlpItem): Uint8Array =>
  item instanceof Uint8Array
    ? item.length === 1 && item[0]! < 0x80 ? item.slice() : withPrefix(0x80, item)
    : withPrefix(0xc0, concat(item.map(encodeRlp)))

// Lists nest only two levels in a transaction; the limit keeps hostile input off the stack.
const MAX_DEPTH = 16

const readLength = (bytes: Uint8Array, start: number, size: number): number => {
  if (start + size > bytes.length) invalid("RLP: length runs past the end of the input")
  if (bytes[start] === 0) invalid("RLP: length with a leading zero byte")
  let n = 0
  for (let i = 0; i < size; i++) n = n * 256 + bytes[start + i]!
  if (n <= 55) invalid("RLP: long form used for a length below 56")
  return n
}

// Decodes the item at `offset`; returns it and the offset after it. Canonical encodings only.
const decodeAt = (bytes: Uint8Array, offset: number, depth: number): [RlpItem, number] => {
  if (offset >= bytes.length) invalid("RLP: unexpected end of input")
  const b = bytes[offset]!
  if (b < 0x80) return [bytes.slice(offset, offset + 1), offset + 1]
  let start: number
  let length: number
  const isList = b >= 0xc0
  const short = b - (isList ? 0xc0 : 0x80)
  if (short <= 55) {
    start = offset + 1
    length = short
  } else {
    const size = short - 55
    length = readLength(bytes, offset + 1, size)
    start = offset + 1 + size
  }
  const end = start + length
  if (end > bytes.length) invalid("RLP: item runs past the end of the input")
  if (!isList) {
    if (length === 1 && bytes[start]! < 0x80) invalid("RLP: single byte below 0x80 must encode itself")
    return [bytes.slice(start, end), end]
  }
  if (depth >= MAX_DEPTH) invalid("RLP: lists nested too deeply")
  const items: Array<RlpItem> = []
  let at = start
  while (at < end) {
    const [item, next] = decodeAt(bytes, at, depth + 1)
    if (next > end) invalid("RLP: list item runs past the end of its list")
    items.push(item)
    at = next
  }
  return [items, end]
}

const decodeWhole = (bytes: Uint8Array): RlpItem => {
  const [item, end] = decodeAt(bytes, 0, 0)
  if (end !== bytes.length) invalid(`RLP: ${bytes.length - end} bytes after the value`)
  return item
}

/**
 * Decodes exactly one RLP value spanning the whole input. Non-canonical encodings (a long form
 * where the short one fits, a length with leading zeros, a single byte below 0x80 wrapped in a
 * prefix) are refused, as Klaytn refuses them.
 *
 * @since 0.1.0
 * @category rlp
 */
export const decodeRlp = (bytes: Uint8Array): Either.Either<RlpItem, KlaytnError> => guard(() => decodeWhole(bytes))

/** Minimal big-endian bytes of a non-negative integer (zero is the empty string). */
const uint = (n: bigint | number): Uint8Array => {
  let v = BigInt(n)
  if (v < 0n) invalid("negative integer")
  const bytes: Array<number> = []
  for (; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn))
  return Uint8Array.from(bytes)
}

const toBigInt = (bytes: Uint8Array, field: string): bigint => {
  if (bytes.length > 0 && bytes[0] === 0) invalid(`${field}: integer with a leading zero byte`)
  let v = 0n
  for (const b of bytes) v = (v << 8n) | BigInt(b)
  return v
}


const addressBytes = (address: Address.Address): Uint8Array => bytesOfHex(address)

// 20 bytes always make an address: the checksum cannot fail.
const addressOfBytes = (bytes: Uint8Array): Address.Address => Option.getOrThrow(Address.checksum(hexOfBytes(bytes)))

// ---------------------------------------------------------------------------------------------
// Transactions
// ---------------------------------------------------------------------------------------------

/**
 * An unsigned transaction of any kind of the catalog. Which fields exist follows from the type
 * (`makeTransaction` and `decodeRaw` guarantee it): `to` for every kind but a deployment, `input`
 * for the memo and contract types, `feeRatio` (1..99) for the with-ratio types.
 *
 * @since 0.4.0
 * @category models
 */
export interface Tx {
  readonly type: Wire.TxType
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
export type Layout = Wire.TypedKind

// The kind of each base type, from Wire's one table of the kinds' types.
const LAYOUTS: ReadonlyMap<number, Layout> = new Map(
  (Object.entries(Wire.kindTypes) as Array<[Wire.Kind, ReadonlyArray<number>]>).flatMap(([kind, types]) =>
    kind === "rlp" ? [] : types.map((type) => [type, kind] as const)
  )
)

/**
 * The layout of a type of the catalog, by its base type.
 *
 * @since 0.4.0
 * @category models
 */
export const kindOf = (type: Wire.TxType): Layout => LAYOUTS.get(Wire.baseType(type))!

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
export const fieldsOf = (type: Wire.TxType): ReadonlyArray<Field> => {
  const ratio: ReadonlyArray<Field> = Wire.hasFeeRatio(type) ? ["feeRatio"] : []
  switch (kindOf(type)) {
    case "value":
      return [...COMMON, ...(Wire.hasMemo(type) ? ["input" as const] : []), ...ratio]
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
export const hasField = (type: Wire.TxType, field: Field): boolean => fieldsOf(type).includes(field)

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
    const type = Wire.typeOf(kind, { memo: kind === "value" && params.input !== undefined, feeDelegated, feeRatio: ratio })
    return {
      type,
      nonce: params.nonce,
      gasPrice: params.gasPrice,
      gas: params.gas,
      ...(params.to !== undefined ? { to: params.to } : {}),
      value: params.value,
      from: params.from,
      ...(params.input !== undefined ? { input: params.input.slice() } : {}),
      ...(Wire.hasFeeRatio(type) ? { feeRatio: ratio! } : {}),
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

// The fields both parties sign, in order.
const signedFields = (t: Tx): Array<RlpItem> => fieldsOf(t.type).map((field) => encodeField(t, field))

const signingPayload = (t: Tx): Uint8Array => encodeRlp([uint(t.type), ...signedFields(t)])

const isLegacy = (type: number) => type === Wire.TxType.LegacyTransaction

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

// ---------------------------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------------------------

/**
 * One signature: `v` = 2·chainId + 35 + recovery id, `r` and `s` as integers.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignatureValues {
  readonly v: number
  readonly r: bigint
  readonly s: bigint
}

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

const checkHash = (hash: Uint8Array) => {
  if (hash.length !== 32) invalid(`a signing hash has 32 bytes, got ${hash.length}`)
}

const checkKey = (privateKey: Uint8Array) => {
  // The message never shows the key.
  if (privateKey.length !== 32 || !secp256k1.utils.isValidSecretKey(privateKey)) invalid("invalid secp256k1 private key")
}

const addressOfKeyUnsafe = (privateKey: Uint8Array): Address.Address => {
  checkKey(privateKey)
  return addressOfUncompressed(secp256k1.getPublicKey(privateKey, false))
}

const addressOfUncompressed = (uncompressed: Uint8Array): Address.Address =>
  addressOfBytes(keccak256(uncompressed.subarray(1)).subarray(12))

/**
 * A fresh random secp256k1 private key (32 bytes, from the platform's secure random source): a
 * wallet's own key, for tools and tests that sign outside KAS. Keep it secret: nothing here prints
 * it.
 *
 * @since 0.5.0
 * @category signing
 */
export const randomPrivateKey = (): Uint8Array => secp256k1.utils.randomSecretKey()

/**
 * The address of a secp256k1 public key (33 bytes compressed or 65 uncompressed): the last 20
 * bytes of keccak256 of its coordinates.
 *
 * @since 0.5.0
 * @category signing
 */
export const addressOfPublicKey = (publicKey: Uint8Array): Either.Either<Address.Address, KlaytnError> =>
  guard(() => {
    try {
      return addressOfUncompressed(secp256k1.Point.fromBytes(publicKey).toBytes(false))
    } catch {
      return invalid("not a public key of secp256k1")
    }
  })

/**
 * The address of a 32-byte secp256k1 private key.
 *
 * @since 0.1.0
 * @category signing
 */
export const addressOfKey = (privateKey: Uint8Array): Either.Either<Address.Address, KlaytnError> =>
  guard(() => addressOfKeyUnsafe(privateKey))

const signUnsafe = (hash: Uint8Array, privateKey: Uint8Array, chainId: number): SignatureValues => {
  checkHash(hash)
  checkKey(privateKey)
  // RFC 6979 deterministic nonces; low-S, as Klaytn requires.
  const sig = secp256k1.Signature.fromBytes(secp256k1.sign(hash, privateKey, { prehash: false, format: "recovered" }), "recovered")
  return { v: 2 * chainId + 35 + sig.recovery!, r: sig.r, s: sig.s }
}

/**
 * Signs a 32-byte hash with a 32-byte private key for a chain: `v` = 2·chainId + 35 + recovery
 * id, low `s`.
 *
 * @since 0.1.0
 * @category signing
 */
export const sign = (hash: Uint8Array, privateKey: Uint8Array, chainId: number): Either.Either<SignatureValues, KlaytnError> =>
  guard(() => signUnsafe(hash, privateKey, chainId))

// The recovery id of a signature, checking V against the chain, R and S in range and S low.
const recoveryIdUnsafe = (hash: Uint8Array, signature: SignatureValues, chainId: number): number => {
  checkHash(hash)
  const recovery = signature.v - (2 * chainId + 35)
  if (recovery !== 0 && recovery !== 1) {
    invalid(`V must be ${2 * chainId + 35} or ${2 * chainId + 36} on chain ${chainId}, got ${signature.v}`)
  }
  const { r, s } = signature
  if (r < 1n || r >= N || s < 1n || s >= N) invalid("R and S must be from 1 to the curve order - 1")
  if (s > N >> 1n) invalid("S must be in the lower half of the curve order")
  return recovery
}

// The public key that signed `hash`, its signature already checked (`recoveryIdUnsafe`).
const recoverCheckedUnsafe = (hash: Uint8Array, signature: SignatureValues, recovery: number) => {
  try {
    return new secp256k1.Signature(signature.r, signature.s, recovery).recoverPublicKey(hash)
  } catch {
    return invalid("the signature does not recover a public key")
  }
}

// The public key that signed `hash` (the checks of `recoveryIdUnsafe` first).
const recoverPointUnsafe = (hash: Uint8Array, signature: SignatureValues, chainId: number) =>
  recoverCheckedUnsafe(hash, signature, recoveryIdUnsafe(hash, signature, chainId))

// That `address` signed `hash`: checked against its point when a signature of it was recovered
// before (internal/signers), else recovered; `mismatch` words the error with who did sign.
const checkSignerUnsafe = (
  hash: Uint8Array,
  signature: SignatureValues,
  chainId: number,
  address: Address.Address,
  mismatch: (signer: Address.Address) => string
): void => {
  const recovery = recoveryIdUnsafe(hash, signature, chainId)
  if (Signers.signedBy(address, hash, signature.r, signature.s, recovery) === true) return
  const point = recoverCheckedUnsafe(hash, signature, recovery)
  const signer = addressOfUncompressed(point.toBytes(false))
  if (signer !== address) invalid(mismatch(signer))
  Signers.remember(address, point)
}

// The compressed public key (33 bytes) that signed `hash`: what account keys hold.
const recoverKeyUnsafe = (hash: Uint8Array, signature: SignatureValues, chainId: number): Uint8Array =>
  recoverPointUnsafe(hash, signature, chainId).toBytes(true)

const recoverUnsafe = (hash: Uint8Array, signature: SignatureValues, chainId: number): Address.Address =>
  addressOfUncompressed(recoverPointUnsafe(hash, signature, chainId).toBytes(false))

/**
 * The address that signed `hash`, checking `v` against the chain and `s` for low-S.
 *
 * @since 0.1.0
 * @category signing
 */
export const recover = (hash: Uint8Array, signature: SignatureValues, chainId: number): Either.Either<Address.Address, KlaytnError> =>
  guard(() => recoverUnsafe(hash, signature, chainId))

/**
 * The public key (compressed, 33 bytes: what account keys hold) that signed `hash`, checking `v`
 * against the chain and `s` for low-S.
 *
 * @since 0.8.0
 * @category signing
 */
export const recoverPublicKey = (hash: Uint8Array, signature: SignatureValues, chainId: number): Either.Either<Uint8Array, KlaytnError> =>
  guard(() => recoverKeyUnsafe(hash, signature, chainId))

/**
 * A signature of the service's `{ V, R, S }` form as values (the inverse of `toWireSignature`).
 *
 * @since 0.8.0
 * @category formatting
 */
export const fromWireSignature = (sig: Transaction.Signature): SignatureValues => ({
  v: Number(BigInt(sig.V)),
  r: BigInt(sig.R),
  s: BigInt(sig.S)
})

/**
 * A signature as the service writes it: `{ V, R, S }`, minimal lower-case hex.
 *
 * @since 0.1.0
 * @category formatting
 */
export const toWireSignature = (sig: SignatureValues): Transaction.Signature => ({
  V: `0x${sig.v.toString(16)}`,
  R: `0x${sig.r.toString(16)}`,
  S: `0x${sig.s.toString(16)}`
})

// ---------------------------------------------------------------------------------------------
// Account keys
// ---------------------------------------------------------------------------------------------

/**
 * A Klaytn account key, as the chain holds it: `Legacy` (the address's own key signs), `Public`
 * (one public key, 33-byte compressed), `Fail` (nothing can sign), `WeightedMultiSig` (signatures
 * whose keys' weights reach the threshold) or `RoleBased` (one key per role: transactions, account
 * updates, fee payment; a missing role falls back to the transaction role).
 *
 * @since 0.5.0
 * @category account keys
 */
export type AccountKey =
  | { readonly _tag: "Legacy" }
  | { readonly _tag: "Public"; readonly publicKey: Uint8Array }
  | { readonly _tag: "Fail" }
  | {
    readonly _tag: "WeightedMultiSig"
    readonly threshold: number
    readonly keys: ReadonlyArray<{ readonly weight: number; readonly publicKey: Uint8Array }>
  }
  | { readonly _tag: "RoleBased"; readonly roles: ReadonlyArray<AccountKey> }

/**
 * The roles of a role-based key, by index.
 *
 * @since 0.5.0
 * @category account keys
 */
export const Role = { Transaction: 0, AccountUpdate: 1, FeePayer: 2 } as const

/**
 * The most keys a weighted multisig key holds (Klaytn's MaxNumKeysForMultiSig).
 *
 * @since 0.5.0
 * @category account keys
 */
export const MaxMultiSigKeys = 10

const KEY_TYPE = { Legacy: 1, Public: 2, Fail: 3, WeightedMultiSig: 4, RoleBased: 5 } as const

const checkPublicKey = (bytes: Uint8Array, field: string): Uint8Array => {
  if (bytes.length !== 33 || (bytes[0] !== 2 && bytes[0] !== 3)) invalid(`${field}: a public key is 33 bytes, compressed`)
  try {
    secp256k1.Point.fromBytes(bytes)
  } catch {
    invalid(`${field}: not a point of secp256k1`)
  }
  return bytes
}

const checkMultiSig = (threshold: number, keys: ReadonlyArray<{ readonly weight: number; readonly publicKey: Uint8Array }>) => {
  if (keys.length === 0 || keys.length > MaxMultiSigKeys) invalid(`a multisig key holds 1 to ${MaxMultiSigKeys} keys, got ${keys.length}`)
  if (!Number.isSafeInteger(threshold) || threshold < 1) invalid("a multisig threshold is at least 1")
  let total = 0
  const seen = new Set<string>()
  for (const k of keys) {
    if (!Number.isSafeInteger(k.weight) || k.weight < 1) invalid("a multisig weight is at least 1")
    total += k.weight
    const id = hexOfBytes(k.publicKey)
    if (seen.has(id)) invalid("a multisig key holds each public key once")
    seen.add(id)
  }
  if (total < threshold) invalid(`the weights (${total}) cannot reach the threshold (${threshold})`)
}

const encodeKeyUnsafe = (key: AccountKey, nested: boolean): Uint8Array => {
  switch (key._tag) {
    case "Legacy":
    case "Fail":
      return concat([Uint8Array.of(KEY_TYPE[key._tag]), encodeRlp([])])
    case "Public":
      return concat([Uint8Array.of(KEY_TYPE.Public), encodeRlp(checkPublicKey(key.publicKey, "publicKey"))])
    case "WeightedMultiSig":
      checkMultiSig(key.threshold, key.keys)
      return concat([
        Uint8Array.of(KEY_TYPE.WeightedMultiSig),
        encodeRlp([uint(key.threshold), key.keys.map((k) => [uint(k.weight), checkPublicKey(k.publicKey, "publicKey")])])
      ])
    case "RoleBased":
      if (nested) invalid("a role-based key cannot hold a role-based key")
      if (key.roles.length === 0 || key.roles.length > 3) invalid("a role-based key has 1 to 3 roles")
      return concat([Uint8Array.of(KEY_TYPE.RoleBased), encodeRlp(key.roles.map((r) => encodeKeyUnsafe(r, true)))])
  }
}

/**
 * The RLP form of an account key (what an account update carries), checking it: compressed points
 * of the curve, 1 to 10 distinct multisig keys whose positive weights reach the threshold, 1 to 3
 * roles none of which is role-based.
 *
 * @since 0.5.0
 * @category account keys
 */
export const encodeAccountKey = (key: AccountKey): Either.Either<Uint8Array, KlaytnError> => guard(() => encodeKeyUnsafe(key, false))

const decodeKeyAt = (bytes: Uint8Array, nested: boolean): AccountKey => {
  if (bytes.length === 0) invalid("account key: empty")
  const body = decodeWhole(bytes.subarray(1))
  switch (bytes[0]) {
    case KEY_TYPE.Legacy:
    case KEY_TYPE.Fail:
      if (asList(body, "account key").length !== 0) invalid("account key: a legacy or fail key has no content")
      return { _tag: bytes[0] === KEY_TYPE.Legacy ? "Legacy" : "Fail" }
    case KEY_TYPE.Public:
      return { _tag: "Public", publicKey: checkPublicKey(asBytes(body, "account key"), "account key") }
    case KEY_TYPE.WeightedMultiSig: {
      const [threshold, keys, ...rest] = asList(body, "account key")
      if (rest.length > 0) invalid("account key: a multisig key is [threshold, keys]")
      const weighted = asList(keys, "account key keys").map((entry, i) => {
        const pair = asList(entry, `account key keys[${i}]`)
        if (pair.length !== 2) invalid(`account key keys[${i}]: [weight, public key]`)
        return { weight: asSafeInt(pair[0], "weight"), publicKey: checkPublicKey(asBytes(pair[1], "publicKey"), `keys[${i}]`) }
      })
      const t = asSafeInt(threshold, "threshold")
      checkMultiSig(t, weighted)
      return { _tag: "WeightedMultiSig", threshold: t, keys: weighted }
    }
    case KEY_TYPE.RoleBased: {
      if (nested) invalid("account key: a role-based key cannot hold a role-based key")
      const roles = asList(body, "account key roles")
      if (roles.length === 0 || roles.length > 3) invalid("account key: a role-based key has 1 to 3 roles")
      return { _tag: "RoleBased", roles: roles.map((r, i) => decodeKeyAt(asBytes(r, `roles[${i}]`), true)) }
    }
    default:
      return invalid(`account key: unknown key type ${bytes[0]}`)
  }
}

const decodeAccountKeyUnsafe = (bytes: Uint8Array): AccountKey => decodeKeyAt(bytes, false)

/**
 * Decodes and checks an account key from its RLP form (the rules of `encodeAccountKey`).
 *
 * @since 0.5.0
 * @category account keys
 */
export const decodeAccountKey = (bytes: Uint8Array): Either.Either<AccountKey, KlaytnError> => guard(() => decodeAccountKeyUnsafe(bytes))

// The key of a role: a missing role is the transaction role's, as Klaytn's.
const roleKey = (key: AccountKey, role: number): AccountKey =>
  key._tag !== "RoleBased" ? key : key.roles[role] ?? key.roles[Role.Transaction]!

const validateUnsafe = (address: Address.Address, key: AccountKey, hash: Uint8Array, sigs: ReadonlyArray<SignatureValues>, chainId: number, who: string) => {
  // No signature proves nothing, whatever the key (a legacy or public key would check none).
  if (sigs.length === 0) invalid(`no ${who} signature`)
  switch (key._tag) {
    case "Legacy":
      for (const sig of sigs) checkSignerUnsafe(hash, sig, chainId, address, (signer) => `a ${who} signature recovers ${signer}, not ${address}`)
      return
    case "Fail":
      return invalid(`${address}'s key is a fail key: nothing can sign for it`)
    case "Public": {
      const expected = hexOfBytes(key.publicKey)
      for (const sig of sigs) {
        if (hexOfBytes(recoverKeyUnsafe(hash, sig, chainId)) !== expected) invalid(`a ${who} signature is not from ${address}'s public key`)
      }
      return
    }
    case "WeightedMultiSig": {
      const weights = new Map(key.keys.map((k) => [hexOfBytes(k.publicKey), k.weight]))
      const signed = new Set<string>()
      let total = 0
      for (const sig of sigs) {
        const signer = hexOfBytes(recoverKeyUnsafe(hash, sig, chainId))
        const weight = weights.get(signer)
        if (weight === undefined) invalid(`a ${who} signature is from no key of ${address}'s multisig key`)
        if (signed.has(signer)) invalid(`two ${who} signatures from one key of ${address}'s multisig key`)
        signed.add(signer)
        total += weight!
      }
      if (total < key.threshold) invalid(`the ${who} signatures weigh ${total}, below ${address}'s threshold ${key.threshold}`)
      return
    }
    case "RoleBased":
      return invalid("a role-based key has no key of its own: validate its role's")
  }
}

/**
 * Checks a signed transaction against the account keys of its parties, as a Klaytn node does: the
 * sender's signatures against the sender's key (its account-update role for an account update, its
 * transaction role otherwise), the fee payer's against the fee payer's (its fee-payer role). A
 * legacy key is the address's own; a legacy transaction needs one.
 *
 * @since 0.5.0
 * @category signing
 */
export const validateSignatures = (
  p: SignedParts,
  chainId: number,
  keys: { readonly sender: AccountKey; readonly feePayer?: AccountKey | undefined }
): Either.Either<void, KlaytnError> =>
  guard(() => {
    const role = kindOf(p.tx.type) === "account" ? Role.AccountUpdate : Role.Transaction
    const senderKey = roleKey(keys.sender, role)
    if (isLegacy(p.tx.type) && senderKey._tag !== "Legacy") invalid(`a legacy transaction needs a legacy key; ${p.tx.from}'s is not`)
    validateUnsafe(p.tx.from, senderKey, senderSigningHash(p.tx, chainId), p.signatures, chainId, "sender")
    if (p.feePayer !== undefined) {
      const payerKey = roleKey(keys.feePayer ?? { _tag: "Legacy" }, Role.FeePayer)
      validateUnsafe(p.feePayer.address, payerKey, feePayerSigningHash(p.tx, p.feePayer.address, chainId), p.feePayer.signatures, chainId, "fee-payer")
    }
  })

// ---------------------------------------------------------------------------------------------
// Raw transactions
// ---------------------------------------------------------------------------------------------

/**
 * A transaction with its signatures: what a raw transaction holds. `feePayer` is present exactly
 * for the fee-delegated types when built by `signTransaction` or `decodeRaw`.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignedParts {
  readonly tx: Tx
  readonly signatures: ReadonlyArray<SignatureValues>
  readonly feePayer?: {
    readonly address: Address.Address
    readonly signatures: ReadonlyArray<SignatureValues>
  }
}

const signatureList = (sigs: ReadonlyArray<SignatureValues>): RlpItem => sigs.map((s) => [uint(s.v), uint(s.r), uint(s.s)])

const senderPart = (p: SignedParts): Array<RlpItem> => [...signedFields(p.tx), signatureList(p.signatures)]

// A legacy transaction has one signature, its V, R and S inline; unsigned, they are empty (the
// form wallets hand over). Only the first of several is encoded: the format has room for one.
const legacySignature = (sigs: ReadonlyArray<SignatureValues>): Array<Uint8Array> => {
  const sig = sigs[0]
  return sig === undefined ? [uint(0), uint(0), uint(0)] : [uint(sig.v), uint(sig.r), uint(sig.s)]
}

/**
 * The raw transaction: `type ‖ rlp([…fields, signatures, feePayer?, feePayerSignatures?])`; a
 * legacy one `rlp([…fields, V, R, S])` (its one signature; empty when unsigned).
 *
 * @since 0.1.0
 * @category encoding
 */
export const encodeRaw = (p: SignedParts): Uint8Array =>
  isLegacy(p.tx.type) ? encodeRlp([...signedFields(p.tx), ...legacySignature(p.signatures)]) : concat([
    Uint8Array.of(p.tx.type),
    encodeRlp(p.feePayer === undefined ? senderPart(p) : [...senderPart(p), addressBytes(p.feePayer.address), signatureList(p.feePayer.signatures)])
  ])

const hashHex = (bytes: Uint8Array): Transaction.TxHash => hexOfBytes(keccak256(bytes)) as Transaction.TxHash

/**
 * The transaction hash: keccak256 of the raw transaction.
 *
 * @since 0.1.0
 * @category encoding
 */
export const transactionHash = (raw: Uint8Array): Transaction.TxHash => hashHex(raw)

/**
 * The sender's transaction hash: keccak256(`type ‖ rlp([…fields, signatures])`), leaving out the
 * fee payer's part.
 *
 * @since 0.1.0
 * @category encoding
 */
export const senderTxHash = (p: SignedParts): Transaction.TxHash =>
  isLegacy(p.tx.type) ? hashHex(encodeRaw(p)) : hashHex(concat([Uint8Array.of(p.tx.type), encodeRlp(senderPart(p))]))

const asBytes = (item: RlpItem | undefined, field: string): Uint8Array =>
  item instanceof Uint8Array ? item : invalid(`${field}: expected a byte string`)

const asList = (item: RlpItem | undefined, field: string): ReadonlyArray<RlpItem> =>
  item !== undefined && !(item instanceof Uint8Array) ? item : invalid(`${field}: expected a list`)

const asSafeInt = (item: RlpItem | undefined, field: string): number => {
  const v = toBigInt(asBytes(item, field), field)
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) invalid(`${field}: ${v} is too large`)
  return Number(v)
}

const asUint256 = (item: RlpItem | undefined, field: string): bigint => {
  const bytes = asBytes(item, field)
  if (bytes.length > 32) invalid(`${field}: more than 256 bits`)
  return toBigInt(bytes, field)
}

const asAddress = (item: RlpItem | undefined, field: string): Address.Address => {
  const bytes = asBytes(item, field)
  if (bytes.length !== 20) invalid(`${field}: an address has 20 bytes, got ${bytes.length}`)
  return addressOfBytes(bytes)
}

const asSignatures = (item: RlpItem | undefined, field: string): ReadonlyArray<SignatureValues> => {
  const list = asList(item, field)
  if (list.length === 0) invalid(`${field}: no signature`)
  return list.map((entry, i) => {
    const sig = asList(entry, `${field}[${i}]`)
    if (sig.length !== 3) invalid(`${field}[${i}]: a signature is [V, R, S]`)
    return {
      v: asSafeInt(sig[0], `${field}[${i}].V`),
      r: asUint256(sig[1], `${field}[${i}].R`),
      s: asUint256(sig[2], `${field}[${i}].S`)
    }
  })
}

type Mutable<A> = { -readonly [K in keyof A]: A[K] }

// Reads one signed field into the transaction being decoded, refusing what Klaytn refuses.
const decodeField = (t: Mutable<Tx>, field: Field, item: RlpItem | undefined): void => {
  switch (field) {
    case "nonce":
      t.nonce = asSafeInt(item, field)
      return
    case "gasPrice":
      t.gasPrice = asUint256(item, field)
      return
    case "gas":
      t.gas = asSafeInt(item, field)
      return
    case "to":
      if (kindOf(t.type) === "contract/deploy") {
        if (asBytes(item, field).length !== 0) invalid("to: a deployment has no recipient")
      } else if (kindOf(t.type) !== "legacy" || asBytes(item, field).length !== 0) {
        // A legacy transaction without a recipient creates a contract.
        t.to = asAddress(item, field)
      }
      return
    case "value":
      t.value = asUint256(item, field)
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

// The signed fields of a type from their RLP items; the kinds that move no value hold 0.
const decodeFields = (type: Wire.TxType, items: ReadonlyArray<RlpItem>): Mutable<Tx> => {
  const tx = { type, value: 0n } as Mutable<Tx>
  fieldsOf(type).forEach((field, i) => decodeField(tx, field, items[i]))
  return tx
}

// A legacy transaction: nine items, its sender the signer of its EIP-155 signature.
const decodeLegacy = (raw: Uint8Array): SignedParts => {
  const items = asList(decodeWhole(raw), "transaction")
  if (items.length !== 9) invalid(`a legacy transaction has 9 fields, got ${items.length}`)
  const tx = decodeFields(Wire.TxType.LegacyTransaction, items)
  const sig = { v: asSafeInt(items[6], "V"), r: asUint256(items[7], "R"), s: asUint256(items[8], "S") }
  // Unsigned (R and S empty, as wallets send a transaction to be signed elsewhere): no sender yet.
  if (sig.r === 0n && sig.s === 0n) return { tx: { ...tx, from: ZERO }, signatures: [] }
  if (sig.v < 37) invalid("a legacy transaction must be signed for a chain (EIP-155)")
  tx.from = recoverUnsafe(senderSigningHash({ ...tx, from: ZERO } as Tx, (sig.v - 35) >> 1), sig, (sig.v - 35) >> 1)
  return { tx, signatures: [sig] }
}

const ZERO = addressOfBytes(new Uint8Array(20))

const decodeRawUnsafe = (raw: Uint8Array): SignedParts => {
  if (raw.length === 0) invalid("empty raw transaction")
  if (raw[0]! >= 0xc0) return decodeLegacy(raw)
  const type = raw[0]!
  if (!Wire.isTxType(type)) invalid(`type 0x${type.toString(16).padStart(2, "0")} is not a transaction type of the catalog`)
  const txType = type as Wire.TxType
  const fields = asList(decodeWhole(raw.subarray(1)), "transaction")
  const layout = fieldsOf(txType)
  const delegated = Wire.isFeeDelegatedType(txType)
  const expected = layout.length + 1 + (delegated ? 2 : 0)
  if (fields.length !== expected) invalid(`type 0x${type.toString(16)} has ${expected} fields, got ${fields.length}`)
  const tx = decodeFields(txType, fields)
  const signatures = asSignatures(fields[layout.length], "signatures")
  if (!delegated) return { tx, signatures }
  // A wallet sends a transaction to be relayed with an empty (or zero) fee payer and a placeholder
  // signature.
  const payerBytes = asBytes(fields[layout.length + 1], "feePayer")
  if (payerBytes.length === 0 || (payerBytes.length === 20 && payerBytes.every((b) => b === 0))) return { tx, signatures }
  const address = asAddress(fields[layout.length + 1], "feePayer")
  return { tx, signatures, feePayer: { address, signatures: asSignatures(fields[layout.length + 2], "feePayerSignatures") } }
}

/**
 * Decodes a raw transaction of any type of the catalog, checking its type, field count and field
 * sizes. A legacy transaction (an RLP list, no type byte) names its sender by its signature only:
 * `from` is the signer (the zero address, and no signature, when R and S are empty: unsigned). A
 * fee-delegated transaction whose fee payer has not signed yet (an empty or zero `feePayer`, as
 * wallets hand it over to be relayed) decodes without `feePayer`.
 *
 * @since 0.1.0
 * @category encoding
 */
export const decodeRaw = (raw: Uint8Array): Either.Either<SignedParts, KlaytnError> => guard(() => decodeRawUnsafe(raw))

/**
 * Whether signatures are only the placeholder a wallet puts where a signature will go (`[1, 0, 0]`,
 * or none): the transaction is not signed by that party yet.
 *
 * @since 0.5.0
 * @category signing
 */
export const isUnsigned = (signatures: ReadonlyArray<SignatureValues>): boolean => signatures.every((sig) => sig.r === 0n && sig.s === 0n)

/**
 * Decodes a SigRLP: what a sender signs, `rlp([rlp([type, …fields]), chainId, 0, 0])`, unsigned.
 * Legacy transactions have none here (their SigRLP names no sender).
 *
 * @since 0.5.0
 * @category encoding
 */
export const decodeSigRlp = (bytes: Uint8Array): Either.Either<{ readonly tx: Tx; readonly chainId: number }, KlaytnError> =>
  guard(() => {
    const outer = asList(decodeWhole(bytes), "SigRLP")
    if (outer.length !== 4) invalid(`a SigRLP is [transaction, chainId, 0, 0], got ${outer.length} items`)
    const inner = asList(decodeWhole(asBytes(outer[0], "SigRLP transaction")), "SigRLP transaction")
    const typeByte = asSafeInt(inner[0], "type")
    if (typeByte === Wire.TxType.LegacyTransaction || !Wire.isTxType(typeByte)) invalid(`type 0x${typeByte.toString(16)} has no SigRLP here`)
    const type = typeByte as Wire.TxType
    const layout = fieldsOf(type)
    if (inner.length !== layout.length + 1) invalid(`type 0x${type.toString(16)} has ${layout.length} fields, got ${inner.length - 1}`)
    if (asSafeInt(outer[2], "SigRLP") !== 0 || asSafeInt(outer[3], "SigRLP") !== 0) invalid("a SigRLP ends with 0, 0")
    return { tx: decodeFields(type, inner.slice(1)), chainId: asSafeInt(outer[1], "chainId") }
  })

/**
 * Recovers who signed a transaction on a chain and checks it: every sender signature must recover
 * `from`, every fee-payer signature the fee payer.
 *
 * @since 0.1.0
 * @category signing
 */
export const verifySigners = (
  p: SignedParts,
  chainId: number
): Either.Either<{ readonly sender: Address.Address; readonly feePayer?: Address.Address }, KlaytnError> =>
  guard(() => {
    const senderHash = senderSigningHash(p.tx, chainId)
    for (const sig of p.signatures) {
      checkSignerUnsafe(senderHash, sig, chainId, p.tx.from, (who) => `a sender signature recovers ${who}, not ${p.tx.from}`)
    }
    if (p.feePayer === undefined) return { sender: p.tx.from }
    const payerHash = feePayerSigningHash(p.tx, p.feePayer.address, chainId)
    const payer = p.feePayer.address
    for (const sig of p.feePayer.signatures) {
      checkSignerUnsafe(payerHash, sig, chainId, payer, (who) => `a fee-payer signature recovers ${who}, not ${payer}`)
    }
    return { sender: p.tx.from, feePayer: p.feePayer.address }
  })

/**
 * A signed transaction with its raw form and hashes.
 *
 * @since 0.4.0
 * @category models
 */
export interface SignedTx extends SignedParts {
  readonly chainId: number
  readonly raw: Uint8Array
  readonly transactionHash: Transaction.TxHash
  readonly senderTxHash: Transaction.TxHash
}

const sealed = (parts: SignedParts, chainId: number, raw: Uint8Array): SignedTx => ({
  ...parts,
  chainId,
  raw,
  transactionHash: transactionHash(raw),
  senderTxHash: senderTxHash(parts)
})

/**
 * Signs a transaction as its sender and, for the fee-delegated types, as the fee payer. Each key
 * must belong to its party: the sender's to `from`; the fee payer's address is its key's.
 *
 * @since 0.4.0
 * @category signing
 */
export const signTransaction = (
  tx: Tx,
  keys: { readonly chainId: number; readonly sender: Uint8Array; readonly feePayer?: Uint8Array | undefined }
): Either.Either<SignedTx, KlaytnError> =>
  guard(() => {
    const { chainId } = keys
    if (!Number.isSafeInteger(chainId) || chainId < 1) invalid(`invalid chain id ${chainId}`)
    if (addressOfKeyUnsafe(keys.sender) !== tx.from) invalid("the sender's key does not belong to `from`")
    const signatures = [signUnsafe(senderSigningHash(tx, chainId), keys.sender, chainId)]
    const delegated = Wire.isFeeDelegatedType(tx.type)
    if (delegated !== (keys.feePayer !== undefined)) {
      invalid(delegated ? "a fee-delegated transaction needs the fee payer's key" : "a transaction the sender pays takes no fee payer")
    }
    let parts: SignedParts = { tx, signatures }
    if (keys.feePayer !== undefined) {
      const address = addressOfKeyUnsafe(keys.feePayer)
      const feePayerSignatures = [signUnsafe(feePayerSigningHash(tx, address, chainId), keys.feePayer, chainId)]
      parts = { tx, signatures, feePayer: { address, signatures: feePayerSignatures } }
    }
    return sealed(parts, chainId, encodeRaw(parts))
  })

/**
 * Signs a transaction as its sender only, for a fee payer to sign later (`POST /v2/tx/fd/rlp`,
 * `/v2/tx/fd-user/rlp`): a fee-delegated type gets an empty `feePayer` and the placeholder fee-payer
 * signature `[1, 0, 0]`, as Klaytn wallets hand it over; another type is signed whole. Returns the
 * raw bytes.
 *
 * @since 0.5.0
 * @category signing
 */
export const signAsSender = (
  tx: Tx,
  keys: { readonly chainId: number; readonly sender: Uint8Array }
): Either.Either<Uint8Array, KlaytnError> =>
  guard(() => {
    if (addressOfKeyUnsafe(keys.sender) !== tx.from) invalid("the sender's key does not belong to `from`")
    return signAsSenderUnsafe(tx, keys.chainId, [keys.sender])
  })

const signAsSenderUnsafe = (tx: Tx, chainId: number, senders: ReadonlyArray<Uint8Array>): Uint8Array => {
  const hash = senderSigningHash(tx, chainId)
  const parts: SignedParts = { tx, signatures: senders.map((key) => signUnsafe(hash, key, chainId)) }
  if (!Wire.isFeeDelegatedType(tx.type)) return encodeRaw(parts)
  return concat([Uint8Array.of(tx.type), encodeRlp([...senderPart(parts), new Uint8Array(0), [[uint(1), uint(0), uint(0)]]])])
}

/**
 * Signs a transaction as its sender with keys that need not be its address's own, as `signAsSender`
 * hands it over: the keys of the sender's account key on the chain — one key of an account whose
 * key is a public key of another address, the keys of a multisig key reaching its threshold, a
 * role-based key's keys of the role that signs (an account update's: the account-update role).
 * One signature per key, in order; whether they satisfy the account's key is for
 * `validateSignatures` (and the chain) to say. Returns the raw bytes.
 *
 * @since 0.8.0
 * @category signing
 */
export const signAsSenderWith = (
  tx: Tx,
  keys: { readonly chainId: number; readonly senders: ReadonlyArray<Uint8Array> }
): Either.Either<Uint8Array, KlaytnError> =>
  guard(() => {
    if (keys.senders.length === 0) invalid("no sender key")
    return signAsSenderUnsafe(tx, keys.chainId, keys.senders)
  })

/**
 * The SigRLP of a transaction: what its sender signs, `rlp([rlp([type, …fields]), chainId, 0, 0])`
 * (for `POST /v2/tx/rlp`, where a pool account signs it). None for a legacy transaction.
 *
 * @since 0.5.0
 * @category encoding
 */
export const encodeSigRlp = (tx: Tx, chainId: number): Either.Either<Uint8Array, KlaytnError> =>
  guard(() => {
    if (isLegacy(tx.type)) invalid("a legacy transaction has no SigRLP here: it names no sender")
    return encodeRlp([signingPayload(tx), uint(chainId), uint(0), uint(0)])
  })

/**
 * A stored raw transaction of a chain, decoded, with its hashes: what a receipt is rebuilt from.
 *
 * @since 0.4.0
 * @category encoding
 */
export const fromRaw = (raw: Uint8Array, chainId: number): Either.Either<SignedTx, KlaytnError> =>
  Either.map(decodeRaw(raw), (parts) => sealed(parts, chainId, raw))
