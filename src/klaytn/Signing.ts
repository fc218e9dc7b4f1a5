/**
 * Signing a transaction as its parties (the sender with its own key or with the keys of its
 * account key, the fee payer), and checking who signed one: against the addresses it names, or
 * against the account keys on the chain.
 *
 * Part of `effect-kas-wallet/Klaytn` (src/Klaytn.ts), which re-exports its public names.
 *
 * @since 0.9.0
 */
import type { Either } from "effect"
import type * as Address from "../Address.js"
import { isFeeDelegatedType } from "../TxType.js"
import { type AccountKey, Role, roleKey, validateUnsafe } from "./AccountKeys.js"
import { guard, invalid, type KlaytnError } from "./KlaytnError.js"
import { concat, encodeRlp, uint } from "./Rlp.js"
import { encodeRaw, sealed, senderPart, type SignedParts, type SignedTx } from "./RawTransactions.js"
import { addressOfKeyUnsafe, checkSignerUnsafe, signUnsafe } from "./Signatures.js"
import { feePayerSigningHash, isLegacy, kindOf, senderSigningHash, type Tx } from "./TxFields.js"

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
    const delegated = isFeeDelegatedType(tx.type)
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
  if (!isFeeDelegatedType(tx.type)) return encodeRaw(parts)
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
