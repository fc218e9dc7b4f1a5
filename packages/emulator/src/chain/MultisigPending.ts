/**
 * Multisig pending: a transaction of a multisig sender (a weighted multisig key on the chain) does
 * not sign alone; it is made, unsigned, and stored to wait for its signers.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import { Clock, Effect, Either, Schema } from "effect"
import { Address, type Transaction } from "effect-kas-wallet"
import * as Klaytn from "./Klaytn.js"
import { randomBytes } from "node:crypto"
import * as Refusal from "../Refusal.js"
import * as ChainState from "../store/ChainState.js"
import type * as MultisigStore from "../store/MultisigStore.js"
import type * as Store from "../store/Store.js"
import * as AccountKeys from "./AccountKeys.js"

const internalFailure = (what: string) => Effect.die(new Error(`ledger: ${what}`))

/**
 * What a multisig sender's transaction waits with: the transaction, the sender's weighted key,
 * its pool and who pays.
 *
 * @since 0.10.0
 * @category models
 */
export interface Pending {
  readonly tx: Klaytn.Tx
  readonly key: Extract<Klaytn.AccountKey, { readonly _tag: "WeightedMultiSig" }>
  readonly pool: Store.SelectedPool
  readonly payerKind: ChainState.PayerKind
  readonly feePayer: string | undefined
  readonly feePayerPool: Store.SelectedPool | undefined
}

/**
 * Makes pending transactions over the multisig store.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (multisigs: MultisigStore.Service) => {
  // A multisig sender's transaction, made but unsigned, stored to wait for its signers: the
  // weighted keys of the account now (each named by the member's account holding it, else by
  // its own address), the fee payer to sign once they have. Its id is random: the same request
  // twice is two transactions, as two requests of any other sender are.
  const pend = (p: Pending) =>
    Effect.gen(function*() {
      const { chainId, memberId } = p.pool
      const intrinsic = yield* Either.match(Klaytn.intrinsicGasOf(p.tx), { onLeft: (e) => internalFailure(e.reason), onRight: Effect.succeed })
      if (p.tx.gas < intrinsic) return yield* new Refusal.NodeRefused({ reason: "intrinsic gas too low", during: "send" })
      const sigRlp = yield* Either.match(Klaytn.encodeSigRlp(p.tx, chainId), { onLeft: (e) => internalFailure(e.reason), onRight: Effect.succeed })
      const keys = p.key.keys.map((k) => ({ compressed: Buffer.from(k.publicKey).toString("hex"), uncompressed: AccountKeys.uncompressedHex(k.publicKey), weight: k.weight }))
      const holders = yield* multisigs.accountsOfKeys(memberId, chainId, keys.map((k) => k.uncompressed))
      const signers = keys.map((k): MultisigStore.Signer => ({
        publicKey: k.compressed,
        address: holders.get(k.uncompressed) ?? AccountKeys.addressOf(AccountKeys.publicKeyBytes(k.uncompressed)).toLowerCase(),
        weight: k.weight
      }))
      const id = `0x${randomBytes(32).toString("hex")}`
      // A list time, as the signatures' and every other listed item's: Effect's clock, not the
      // chain's (which `setNextBlockTime` moves for blocks, receipts and the EVM only).
      const seconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      yield* multisigs.insert({
        id,
        memberId,
        chainId,
        poolKrn: p.pool.krn.toString(),
        sender: p.tx.from.toLowerCase(),
        nonce: p.tx.nonce,
        tx: sigRlp,
        payerKind: p.payerKind,
        feePayer: p.payerKind === "user" ? p.feePayer : undefined,
        feePayerPoolKrn: p.feePayerPool?.krn.toString(),
        signers,
        threshold: p.key.threshold,
        createdAt: seconds,
        updatedAt: seconds
      })
      const feePayer = p.feePayer === undefined ? undefined : yield* Either.match(Address.Address.pipe(Schema.decodeUnknownEither)(p.feePayer), {
        onLeft: () => internalFailure(`fee payer ${p.feePayer}`),
        onRight: Effect.succeed
      })
      return { ...Klaytn.toPendingTxData(p.tx, feePayer), status: "Pending" as const, transactionId: id as Transaction.TransactionId }
    })
  return pend
}
