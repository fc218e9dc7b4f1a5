/**
 * The miner of manual mining: `mine` makes blocks on demand, the first holding every pending
 * transaction of the chain in acceptance order, each run and applied then and leaving the pool in
 * the atomic write of its state and receipt.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import type { SqlError } from "@effect/sql"
import { Clock, Duration, Effect, Either, Option } from "effect"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Refusal from "../Refusal.js"
import type * as LedgerStore from "../store/LedgerStore.js"
import * as Blocks from "./Blocks.js"
import type * as Executor from "./Executor.js"
import * as Retry from "./Retry.js"
import type * as Signer from "./Signer.js"

const internalFailure = (what: string) => Effect.die(new Error(`ledger: ${what}`))

/**
 * What the miner works with: the ledger's store, the executor, the account keys on the chain, and
 * the mining mode and its interval (to say why `mine` is refused by interval).
 *
 * @since 0.10.0
 * @category models
 */
export interface Dependencies {
  readonly store: LedgerStore.Service
  readonly execute: Executor.Execute
  readonly keyOf: Signer.Signer["keyOf"]
  readonly manual: boolean
  readonly interval: Duration.Duration
}

/**
 * Builds `mine`: `blocks` blocks (1 to `Blocks.MaxBlocksPerMine`) on a chain; manual mining only
 * (`IntervalMining` otherwise).
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = ({ execute, interval, keyOf, manual, store }: Dependencies) => {
  // One block of manual mining: every pending transaction in acceptance order, each run and
  // applied, leaving the pool in the batch that writes it (a SIGKILL between two leaves the
  // block with those before it and the rest pending: they go into the next block).
  const mineBlock = (chainId: number): Effect.Effect<Blocks.MinedBlock, SqlError.SqlError | Refusal.Refusal> =>
    Effect.gen(function*() {
      const start = yield* store.chain(chainId)
      const blockNumber = start.minedBlock + 1
      // A block's time never goes before the previous block's, also when the clock goes back.
      const last = Option.getOrUndefined(yield* store.tip(chainId))
      const blockTimeMs = Math.max(yield* Clock.currentTimeMillis, last?.blockTimeMs ?? 0)
      const included: Array<string> = []
      for (const pending of yield* store.pending(chainId)) {
        const decoded = Klaytn.fromRaw(pending.raw, chainId)
        if (Either.isLeft(decoded)) return yield* internalFailure(`pending transaction ${pending.hash}: ${decoded.left.reason}`)
        const tx = decoded.right.tx
        const accepted: Executor.Accepted = {
          chainId,
          memberId: pending.memberId,
          signed: decoded.right,
          payerKind: pending.payerKind,
          userPayer: pending.payerKind === "user" ? pending.feePayer : undefined,
          acceptedMs: pending.acceptedMs
        }
        const mined = yield* Retry.retrying(Effect.gen(function*() {
          const chain = yield* store.chain(chainId)
          // Another process made this block (or a later one), or took this transaction.
          if (chain.minedBlock !== blockNumber - 1 && chain.minedBlock !== blockNumber) return Option.some(false)
          if (Option.isNone(yield* store.pendingTransaction(chainId, pending.hash))) return Option.some(false)
          const from = tx.from.toLowerCase()
          const parties = [from, ...(tx.to !== undefined ? [tx.to.toLowerCase()] : []), ...(accepted.userPayer !== undefined ? [accepted.userPayer] : [])]
          const read = new Map(yield* store.balances(chainId, parties))
          const pool = { version: chain.poolVersion, remove: [pending.hash] }
          const minedBlock = { read: chain.minedBlock, write: blockNumber }
          // Accepted against the pool, a transaction is affordable and next in nonce when its
          // turn comes. Only an emulator in interval mode on the same database breaks that (it
          // ignores the pool): such a transaction is dropped, as a node drops what turned invalid.
          const state = read.get(from)!
          const payerState = accepted.userPayer !== undefined ? read.get(accepted.userPayer)! : undefined
          // Signed with a key the account no longer has (an account update mined before it in
          // this block, or since it was accepted): a node refuses it, and so does the block.
          const key = yield* keyOf(chainId, from)
          const stillSigned = Either.isRight(Klaytn.validateSignatures({ tx, signatures: decoded.right.signatures }, chainId, { sender: key }))
          if (!stillSigned || state.nonce !== tx.nonce || state.balance < pending.senderReserve || (payerState !== undefined && payerState.balance < pending.feePayerReserve)) {
            return (yield* store.write({ chainId, balances: [], pool, minedBlock })) ? Option.some(false) : Option.none()
          }
          const tip = Option.getOrUndefined(yield* store.tip(chainId))
          const inBlock = tip !== undefined && tip.blockNumber === blockNumber
          const applied = yield* execute(
            accepted,
            read,
            chain.gasPrice,
            { blockNumber, blockTimeMs, transactionIndex: inBlock ? tip.count : 0, logIndex: inBlock ? tip.logs : 0 },
            { pool, minedBlock },
            true
          )
          return applied ? Option.some(true) : Option.none()
        }))
        if (mined) included.push(pending.hash)
      }
      if (included.length === 0) {
        // An empty block: only the block count moves.
        yield* Retry.retrying(Effect.gen(function*() {
          const chain = yield* store.chain(chainId)
          if (chain.minedBlock >= blockNumber) return Option.some(true)
          return (yield* store.write({ chainId, balances: [], minedBlock: { read: chain.minedBlock, write: blockNumber } }))
            ? Option.some(true)
            : Option.none()
        }))
      }
      return { chainId, blockNumber, blockHash: Blocks.blockHash(chainId, blockNumber, blockTimeMs), blockTimeMs, transactions: included }
    })

  const mine = (chainId: number, blocks: number): Effect.Effect<ReadonlyArray<Blocks.MinedBlock>, Refusal.Refusal | SqlError.SqlError> =>
    Effect.gen(function*() {
      if (!manual) {
        return yield* new Refusal.IntervalMining({ interval: Duration.format(interval) })
      }
      if (!Number.isSafeInteger(blocks) || blocks < 1 || blocks > Blocks.MaxBlocksPerMine) return yield* new Refusal.OutOfRange({ field: "blocks" })
      const made: Array<Blocks.MinedBlock> = []
      for (let i = 0; i < blocks; i++) made.push(yield* store.serialize(mineBlock(chainId)))
      return made
    })
  return mine
}
