/**
 * The execution of an accepted transaction: its kind run on the ledger (a transfer moves value, a
 * contract transaction runs in the EVM), its fee charged and split between the sender and its fee
 * payer, and everything it changes written in one atomic write.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Effect, Either, Option } from "effect"
import { Amount } from "effect-kas-wallet"
import * as Klaytn from "./Klaytn.js"
import * as Refusal from "../Refusal.js"
import * as LedgerStore from "../store/LedgerStore.js"
import * as ChainState from "../store/ChainState.js"
import * as AccountKeys from "./AccountKeys.js"
import * as Evm from "./Evm.js"
import * as Reasons from "./Reasons.js"

/**
 * The fee payer's part of a fee: ⌊fee × ratio / 100⌋ with a ratio 1..99, all of it with 0 (the
 * whole fee delegated). The sender pays `fee - part`, so the parts always sum to the fee.
 *
 * @since 0.2.0
 * @category fees
 */
export const feePayerPart = (fee: bigint, feeRatio: number): bigint => (feeRatio === 0 ? fee : (fee * BigInt(feeRatio)) / 100n)

/**
 * The fee payer's part of a fee by who pays: nothing when the sender pays.
 *
 * @since 0.10.0
 * @category fees
 */
export const share = (fee: bigint, payerKind: ChainState.PayerKind, feeRatio: number | undefined): bigint =>
  payerKind === "sender" ? 0n : feePayerPart(fee, feeRatio ?? 0)

/**
 * The `txError` of a transaction accepted into the pool whose run is refused when it is mined (its
 * recipient gained or lost code meanwhile): Klaytn's default error code. The nonce moves on and the
 * intrinsic gas is charged, so that the sender's later pending transactions stay in order.
 *
 * @since 0.5.0
 * @category constants
 */
export const RefusedAtMining = 0x02

const internalFailure = (what: string) => Effect.die(new Error(`ledger: ${what}`))

/**
 * What a transaction did once the node accepted it: the gas it used, Klaytn's error code when its
 * contract failed, its logs, the balances and nonces it moves (fees and the sender's nonce aside),
 * what the run read and the code and storage it writes.
 */
interface Effects {
  readonly gasUsed: number
  readonly txError: number | undefined
  /** The `Error(string)` message of a revert: kept with the transaction, not shown (Klaytn's receipts have none). */
  readonly revertReason: string | undefined
  /** `undefined` for a transfer, which has no logs to keep. */
  readonly logs: ReadonlyArray<Evm.Log> | undefined
  readonly changes: Pick<Evm.Outcome, "balanceChanges" | "nonces">
  readonly reads: LedgerStore.Reads
  readonly contracts: LedgerStore.Contracts | undefined
}

// What a transaction did when nothing ran: its intrinsic gas used, its nonce moving on (and, for
// an update, its key), Klaytn's error code when it was refused at mining.
const nothingRun = (intrinsic: number, txError: number | undefined): Effects => ({
  gasUsed: intrinsic,
  txError,
  revertReason: undefined,
  logs: undefined,
  changes: { balanceChanges: new Map(), nonces: new Map() },
  reads: { accounts: [], code: [], storage: [] },
  contracts: undefined
})

const NoContracts: LedgerStore.Contracts = { code: [], storage: [], destroyed: [] }

/**
 * A transaction accepted (checked and signed): what its run and write need, at once in instant
 * mode, at mining from the pool's row in interval and manual mode.
 *
 * @since 0.10.0
 * @category models
 */
export interface Accepted {
  readonly chainId: number
  readonly memberId: number
  readonly signed: Klaytn.SignedTx
  readonly payerKind: ChainState.PayerKind
  /** The member's fee-payer account paying (lower case), for `payerKind` `user`. */
  readonly userPayer: string | undefined
  readonly acceptedMs: number
}

/**
 * Where a transaction goes: its block, index, and the block-wide index of its first log.
 *
 * @since 0.10.0
 * @category models
 */
export interface Place {
  readonly blockNumber: number
  readonly blockTimeMs: number
  readonly transactionIndex: number
  readonly logIndex: number
}

/**
 * Runs an accepted transaction and writes what it did: at once in instant mode, at mining from
 * the pool in interval and manual mode.
 *
 * @since 0.10.0
 * @category models
 */
export type Execute = (
  accepted: Accepted,
  read: Map<string, ChainState.Balance>,
  gasPrice: bigint,
  place: Place,
  extra: Pick<LedgerStore.Write, "genesisMs" | "pool" | "minedBlock">,
  mining: boolean,
  codeHashes?: ReadonlyMap<string, string | undefined>
) => Effect.Effect<boolean, Refusal.Refusal | SqlError.SqlError>

/**
 * The executor over the ledger's store, its runs bounded by `limits` (a run past its time is the
 * node's refusal, in go-ethereum's words: `execution aborted (timeout = 5s)`).
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (store: LedgerStore.Service, limits: Evm.Limits): Execute => {
  // What a value transfer does: `value` from the sender to the recipient, which must hold no
  // code (Klaytn refuses a transfer to a contract; the write checks it still holds none).
  // `codeHashes`: what acceptance read of the parties' code, when it did.
  const transferEffects = (
    chainId: number,
    from: string,
    to: string,
    value: bigint,
    gasUsed: number,
    codeHashes: ReadonlyMap<string, string | undefined> | undefined
  ) =>
    Effect.gen(function*() {
      const hasCode = codeHashes?.has(to) ? codeHashes.get(to) !== undefined : Option.isSome(yield* store.code(chainId, to))
      if (hasCode) return yield* new Refusal.NodeRefused({ reason: Reasons.NotForProgramAccount, during: "send" })
      const balanceChanges = new Map<string, bigint>([[from, -value]])
      balanceChanges.set(to, (balanceChanges.get(to) ?? 0n) + value)
      return {
        gasUsed,
        txError: undefined,
        revertReason: undefined,
        logs: undefined,
        changes: { balanceChanges, nonces: new Map() },
        reads: { accounts: [], code: [{ address: to, codeHash: undefined }], storage: [] },
        contracts: undefined
      } satisfies Effects
    })

  // What a contract transaction does: the EVM's run with the gas the intrinsic gas leaves. Klaytn
  // refusing it before it runs (an execution of an address without code), and a run past its time
  // budget, are the node's 1065001.
  const contractEffects = (message: Evm.Message, intrinsic: number, gas: number, contractAt: string | undefined) =>
    Effect.gen(function*() {
      const outcome = yield* Evm.run(message, Evm.storeReader(store, message.chainId), limits).pipe(
        Effect.catchTags({
          EvmError: (e) => new Refusal.NodeRefused({ reason: e.reason === "InsufficientFunds" ? Reasons.SenderFunds : e.message, during: "send" }),
          EvmTimeout: (e) => new Refusal.NodeRefused({ reason: e.message, during: "send" })
        })
      )
      const ok = outcome.status === "success"
      const gasUsed = Number(Evm.totalGas(BigInt(intrinsic), outcome))
      if (gasUsed > gas) return yield* internalFailure(`the run used ${gasUsed} gas of ${gas}`)
      // Klaytn's address of the contract (the receipt's, rebuilt from the transaction) is the EVM's.
      if (message.kind === "deploy" && ok && outcome.createdAddress !== contractAt) {
        return yield* internalFailure(`the EVM created ${outcome.createdAddress}, not ${contractAt}`)
      }
      return {
        gasUsed,
        txError: ok ? undefined : outcome.txError,
        revertReason: outcome.revertReason,
        logs: outcome.logs,
        changes: ok ? outcome : { balanceChanges: new Map(), nonces: new Map() },
        // Whatever the status, the outcome depends on what the run read.
        reads: outcome.reads,
        contracts: ok ? outcome.contracts : NoContracts
      } satisfies Effects
    })

  // The execution of an accepted transaction: runs its kind on the ledger, charges the fee and
  // writes everything (state, receipt, bill, and what `extra` adds: the start of the block clock,
  // the pool change and block of mining) in one atomic write. `false`: another writer changed
  // what was read. `mining`: the transaction was accepted earlier, so a refusal of its run (its
  // recipient became a contract, say) is no longer an answer to give: it is committed failed.
  // `codeHashes`: the code of the parties, read with their balances at acceptance.
  const execute: Execute = (accepted, read, gasPrice, place, extra, mining, codeHashes) =>
    Effect.gen(function*() {
      const { chainId, signed } = accepted
      const tx = signed.tx
      const kind = Klaytn.kindOf(tx.type)
      const from = tx.from.toLowerCase()
      const to = tx.to?.toLowerCase()
      const input = tx.input
      // Its key was decoded when it was accepted: one that does not decode now is a broken row.
      const intrinsic = yield* Either.match(Klaytn.intrinsicGasOf(tx), { onLeft: (e) => internalFailure(e.reason), onRight: Effect.succeed })
      const deploys = kind === "contract/deploy" || (kind === "legacy" && to === undefined)
      // Where Klaytn puts a deployment's contract: the receipt's, and where the EVM must create it.
      const created = deploys ? Klaytn.contractAddress(tx.from, tx.nonce).toLowerCase() : undefined
      const inEvm = (target: "deploy" | "execute") =>
        contractEffects(
          {
            ...(target === "deploy" ? { kind: "deploy" as const } : { kind: "execute" as const, to: to! }),
            from,
            value: tx.value,
            input: input ?? new Uint8Array(0),
            gasLimit: BigInt(tx.gas - intrinsic),
            blockNumber: place.blockNumber,
            timestamp: Math.floor(place.blockTimeMs / 1000),
            chainId,
            gasPrice
          },
          intrinsic,
          tx.gas,
          created
        )
      const run: Effect.Effect<Effects, Refusal.Refusal | SqlError.SqlError> = (() => {
        switch (kind) {
          case "value":
            return transferEffects(chainId, from, to!, tx.value, intrinsic, codeHashes)
          case "contract/deploy":
            return inEvm("deploy")
          case "contract/execute":
            return inEvm("execute")
          case "legacy":
            // Ethereum's one type: a deployment without a recipient, a call of a contract, a
            // transfer to anything else.
            return to === undefined
              ? inEvm("deploy")
              : Effect.flatMap(store.code(chainId, to), (code): Effect.Effect<Effects, Refusal.Refusal | SqlError.SqlError> =>
                Option.isSome(code) ? inEvm("execute") : transferEffects(chainId, from, to, tx.value, intrinsic, codeHashes))
          case "cancel":
          case "anchor":
          case "account":
            // Nothing runs: the fee and the nonce are all they change (and an update, the key).
            return Effect.succeed(nothingRun(intrinsic, undefined))
        }
      })()
      // Refused when its turn came: committed failed, its nonce moving on and its intrinsic gas
      // charged, nothing else changing. Nothing to check: in this process ledger work is
      // serialized, and between processes the pool's compare-and-set orders this mining.
      const refused = nothingRun(intrinsic, RefusedAtMining)
      let effects: Effects = mining ? yield* Effect.catchTag(run, "NodeRefused", () => Effect.succeed(refused)) : yield* run

      // The balances after the transaction: what it moves, then the fees.
      const settle = (effects: Effects) =>
        Effect.gen(function*() {
          const fee = BigInt(effects.gasUsed) * gasPrice
          const payerFee = share(fee, accepted.payerKind, tx.feeRatio)
          // Every address the transaction moves, read with the others (the run may reach any).
          const unread = Evm.changedAccounts(effects.changes).filter((address) => !read.has(address))
          if (unread.length > 0) for (const [address, state] of yield* store.balances(chainId, unread)) read.set(address, state)
          const after = Evm.applyChanges(read, effects.changes)
          const charge = (address: string, fee: bigint, nonceStep: number) => {
            const b = after.get(address)!
            after.set(address, { balance: b.balance - fee, nonce: b.nonce + nonceStep })
          }
          charge(from, fee - payerFee, 1)
          if (accepted.userPayer !== undefined) charge(accepted.userPayer, payerFee, 0)
          return { after, payerFee, senderFee: fee - payerFee }
        })
      let settled = yield* settle(effects)
      // A balance past 2^256 - 1 (value sent to an address that holds nearly that much): refused
      // at acceptance; at mining, the transaction is committed failed rather than holding up the block.
      if ([...settled.after.values()].some((b) => b.balance > Amount.MaxPeb)) {
        if (!mining) return yield* new Refusal.OutOfRange({ field: "value" })
        effects = refused
        settled = yield* settle(effects)
      }
      const { after, payerFee, senderFee } = settled
      for (const [address, b] of after) {
        // The funds check bounds value plus fees, and the EVM moves only what an account holds.
        if (b.balance < 0n) return yield* internalFailure(`${address} would hold ${b.balance} peb`)
      }

      const bill = accepted.payerKind === "global" ? yield* store.bill(accepted.memberId, chainId) : undefined
      // An account update's key takes effect with it (a refused one changes nothing but the fee).
      const newKey = kind === "account" && effects.txError === undefined && tx.key !== undefined
        ? Either.getOrUndefined(Klaytn.decodeAccountKey(tx.key))
        : undefined
      // The key KAS holds for the account at that address, when it holds one (registered accounts').
      const held = newKey !== undefined ? Option.getOrUndefined(yield* store.heldPublicKey(from)) : undefined
      return yield* store.write({
        chainId,
        ...extra,
        accountKey: newKey !== undefined
          ? {
            address: from,
            key: tx.key!,
            status: AccountKeys.statusAfterUpdate(from, newKey, held),
            multisig: AccountKeys.multisigJson(newKey),
            updatedAt: Math.floor(accepted.acceptedMs / 1000)
          }
          : undefined,
        balances: [...after].map(([address, write]) => ({ address, read: read.get(address) ?? ChainState.Empty, write })),
        bill: bill !== undefined
          ? {
            memberId: accepted.memberId,
            read: bill,
            write: { fees: bill.fees + payerFee, transactions: bill.transactions + 1 }
          }
          : undefined,
        reads: effects.reads,
        contracts: effects.contracts,
        transaction: {
          chainId,
          hash: signed.transactionHash,
          sender: from,
          nonce: tx.nonce,
          memberId: accepted.memberId,
          raw: signed.raw,
          blockNumber: place.blockNumber,
          blockTimeMs: place.blockTimeMs,
          transactionIndex: place.transactionIndex,
          gasUsed: effects.gasUsed,
          feePayer: signed.feePayer?.address.toLowerCase(),
          payerKind: accepted.payerKind,
          senderFee,
          feePayerFee: payerFee,
          acceptedMs: accepted.acceptedMs,
          txError: effects.txError,
          revertReason: effects.revertReason,
          contractAddress: created,
          logs: effects.logs,
          // Log indexes count across the block: this transaction's follow the block's earlier logs.
          logIndex: effects.logs === undefined ? undefined : place.logIndex
        }
      })
    })
  return execute
}
