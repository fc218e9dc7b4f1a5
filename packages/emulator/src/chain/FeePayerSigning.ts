/**
 * The fee payer's signature on a transaction its sender signed elsewhere: what the emulator's
 * fee payers do to a relayed RLP (`/v2/tx/fd/rlp`, `/v2/tx/fd-user/rlp`). The client never signs as
 * a fee payer (the service does), so this lives with the chain.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.9.0
 * @internal
 */
import { Either } from "effect"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Wire from "effect-kas-wallet/Wire"

const refuse = (reason: string) => Either.left(new Klaytn.KlaytnError({ reason }))

/**
 * Completes a transaction its sender signed elsewhere: the sender's signatures as they came, and
 * for a fee-delegated type the fee payer's signature made here (its address is its key's). The
 * sender's signatures are not checked here: `Klaytn.validateSignatures` checks them against the
 * sender's account key.
 *
 * @since 0.5.0
 * @category signing
 */
export const signAsFeePayer = (
  tx: Klaytn.Tx,
  signatures: ReadonlyArray<Klaytn.SignatureValues>,
  keys: { readonly chainId: number; readonly feePayer?: Uint8Array | undefined }
): Either.Either<Klaytn.SignedTx, Klaytn.KlaytnError> =>
  Either.gen(function*() {
    const delegated = Wire.isFeeDelegatedType(tx.type)
    if (delegated !== (keys.feePayer !== undefined)) {
      return yield* refuse(delegated ? "a fee-delegated transaction needs the fee payer's key" : "a transaction the sender pays takes no fee payer")
    }
    if (signatures.length === 0) return yield* refuse("no sender signature")
    let parts: Klaytn.SignedParts = { tx, signatures }
    if (keys.feePayer !== undefined) {
      const address = yield* Klaytn.addressOfKey(keys.feePayer)
      const signature = yield* Klaytn.sign(Klaytn.feePayerSigningHash(tx, address, keys.chainId), keys.feePayer, keys.chainId)
      parts = { tx, signatures, feePayer: { address, signatures: [signature] } }
    }
    const raw = Klaytn.encodeRaw(parts)
    return { ...parts, chainId: keys.chainId, raw, transactionHash: Klaytn.transactionHash(raw), senderTxHash: Klaytn.senderTxHash(parts) }
  })
