/**
 * Raw transactions: a transaction with its signatures as bytes (`type ‖ rlp([…])`, or a legacy
 * transaction's `rlp([…, V, R, S])`), decoded back with every check Klaytn makes; their hashes;
 * and the SigRLP a sender signs.
 *
 * Part of `effect-kas-wallet/Klaytn` (src/Klaytn.ts), which re-exports its public names.
 *
 * @since 0.9.0
 */
import { keccak_256 as keccak256 } from "@noble/hashes/sha3.js"
import { Either } from "effect"
import type * as Address from "../Address.js"
import { hexOfBytes } from "../internal/hex.js"
import type * as Transaction from "../Transaction.js"
import { TxType, isFeeDelegatedType, isTxType } from "../TxType.js"
import { addressBytes, addressOfBytes } from "./AddressBytes.js"
import { guard, invalid, type KlaytnError } from "./KlaytnError.js"
import { concat, decodeWhole, encodeRlp, type RlpItem, uint } from "./Rlp.js"
import { asAddress, asBytes, asList, asSafeInt, asUint256 } from "./RlpReader.js"
import { recoverUnsafe, type SignatureValues } from "./Signatures.js"
import { decodeFields, fieldsOf, isLegacy, senderSigningHash, signedFields, signingPayload, type Tx } from "./TxFields.js"

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

/**
 * The sender's part of a raw transaction: its signed fields and its signatures.
 *
 * @internal
 */
export const senderPart = (p: SignedParts): Array<RlpItem> => [...signedFields(p.tx), signatureList(p.signatures)]

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

// A legacy transaction: nine items, its sender the signer of its EIP-155 signature.
const decodeLegacy = (raw: Uint8Array): SignedParts => {
  const items = asList(decodeWhole(raw), "transaction")
  if (items.length !== 9) invalid(`a legacy transaction has 9 fields, got ${items.length}`)
  const tx = decodeFields(TxType.LegacyTransaction, items)
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
  if (!isTxType(type)) invalid(`type 0x${type.toString(16).padStart(2, "0")} is not a transaction type of the catalog`)
  const txType = type as TxType
  const fields = asList(decodeWhole(raw.subarray(1)), "transaction")
  const layout = fieldsOf(txType)
  const delegated = isFeeDelegatedType(txType)
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
    if (typeByte === TxType.LegacyTransaction || !isTxType(typeByte)) invalid(`type 0x${typeByte.toString(16)} has no SigRLP here`)
    const type = typeByte as TxType
    const layout = fieldsOf(type)
    if (inner.length !== layout.length + 1) invalid(`type 0x${type.toString(16)} has ${layout.length} fields, got ${inner.length - 1}`)
    if (asSafeInt(outer[2], "SigRLP") !== 0 || asSafeInt(outer[3], "SigRLP") !== 0) invalid("a SigRLP ends with 0, 0")
    return { tx: decodeFields(type, inner.slice(1)), chainId: asSafeInt(outer[1], "chainId") }
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

/**
 * A signed transaction with its raw bytes and hashes.
 *
 * @internal
 */
export const sealed = (parts: SignedParts, chainId: number, raw: Uint8Array): SignedTx => ({
  ...parts,
  chainId,
  raw,
  transactionHash: transactionHash(raw),
  senderTxHash: senderTxHash(parts)
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
