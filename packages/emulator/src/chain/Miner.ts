/**
 * The miner: `mine` makes blocks on demand (manual mining), the first holding every pending
 * transaction of the chain in acceptance order, each run and applied then and leaving the pool in
 * the atomic write of its state and receipt; `settle` makes the blocks of interval mining whose
 * time has come, each holding the pending transactions accepted before it.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Duration, Effect, Either, Option } from "effect"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Refusal from "../Refusal.js"
import type * as LedgerStore from "../store/LedgerStore.js"
import * as Blocks from "./Blocks.js"
import type * as ChainClock from "./ChainClock.js"
import type * as Executor from "./Executor.js"
import * as Retry from "./Retry.js"
import type * as Signer from "./Signer.js"

const internalFailure = (what: string) => Effect.die(new Error(`ledger: ${what}`))

/**
 * What the miner works with: the ledger's store, the executor, the account keys on the chain, the
 * chain's clock, and the mining mode and its interval.
 *
 * @since 0.10.0
 * @category models
 */
export interface Dependencies {
  readonly store: LedgerStore.Service
  readonly execute: Executor.Execute
  readonly keyOf: Signer.Signer["keyOf"]
  readonly mining: Blocks.Mining
  readonly interval: Duration.Duration
  readonly clock: ChainClock.ChainClock
}

/**
 * The miner's operations.
 *
 * @since 0.12.0
 * @category models
 */
export interface Miner {
  /** `blocks` blocks (1 to `Blocks.MaxBlocksPerMine`) on a chain; manual mining only. */
  readonly mine: (chainId: number, blocks: number) => Effect.Effect<ReadonlyArray<Blocks.MinedBlock>, Refusal.Refusal | SqlError.SqlError>
  /**
   * Interval mining: makes the blocks of a chain whose time has come and that hold pending
   * transactions (a block without any is made by the clock alone: nothing to write). Answers when
   * the next block holding a pending transaction is due (`undefined`: the pool is empty).
   */
  readonly settle: (chainId: number) => Effect.Effect<number | undefined, SqlError.SqlError>
}

// Where a block goes: its number and time, and which pending transactions it takes.
interface Plan {
  readonly blockNumber: number
  readonly blockTimeMs: number
  readonly takes: (pending: { readonly acceptedMs: number; readonly hash: string }) => boolean
}

/**
 * The block of interval mining a transaction accepted at `acceptedMs` goes in: the first made
 * after it.
 *
 * @since 0.12.0
 * @category blocks
 */
export const intervalBlock = (acceptedMs: number, genesisMs: number, intervalMs: number): number =>
  Math.max(1, Math.floor((acceptedMs - genesisMs) / intervalMs) + 1)

/**
 * Builds the miner: `mine` (`IntervalMining` or `InstantMining` in those modes) and `settle`.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = ({ clock, execute, interval, keyOf, mining, store }: Dependencies): Miner => {
  const counted = Blocks.counted(mining)
  // One block: the pending transactions it takes in acceptance order, each run and applied,
  // leaving the pool in the batch that writes it (a SIGKILL between two leaves the block with
  // those before it and the rest pending: they go into the next block). Manual mining: the next
  // block by count, at the chain's time, taking every pending transaction.
  const mineBlock = (chainId: number, plan?: Plan): Effect.Effect<Blocks.MinedBlock, SqlError.SqlError | Refusal.Refusal> =>
    Effect.gen(function*() {
      const start = yield* store.chain(chainId)
      const blockNumber = plan?.blockNumber ?? start.minedBlock + 1
      // A block's time never goes before the previous block's, also when the clock goes back.
      const last = Option.getOrUndefined(yield* store.tip(chainId))
      const blockTimeMs = plan?.blockTimeMs ?? (yield* clock.blockTime(last?.blockTimeMs ?? 0))
      // Counted blocks follow one another; interval blocks may skip numbers (those the clock made
      // without transactions), never go back.
      const gone = (minedBlock: number) => counted ? minedBlock !== blockNumber - 1 && minedBlock !== blockNumber : minedBlock > blockNumber
      const included: Array<string> = []
      for (const pending of yield* store.pending(chainId)) {
        if (plan !== undefined && !plan.takes(pending)) continue
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
          if (gone(chain.minedBlock)) return Option.some(false)
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
      if (included.length === 0 && counted) {
        // An empty block: only the block count moves.
        yield* Retry.retrying(Effect.gen(function*() {
          const chain = yield* store.chain(chainId)
          if (chain.minedBlock >= blockNumber) return Option.some(true)
          return (yield* store.write({ chainId, balances: [], minedBlock: { read: chain.minedBlock, write: blockNumber } }))
            ? Option.some(true)
            : Option.none()
        }))
      }
      if (counted) clock.blockMade()
      return { chainId, blockNumber, blockHash: Blocks.blockHash(chainId, blockNumber, blockTimeMs), blockTimeMs, transactions: included }
    })

  const settle = (chainId: number): Effect.Effect<number | undefined, SqlError.SqlError> =>
    Effect.gen(function*() {
      const chain = yield* store.chain(chainId)
      const pending = yield* store.pending(chainId)
      if (pending.length === 0) return undefined
      // A pool without a block clock (written by a process in another mode): it starts now.
      const genesisMs = chain.genesisMs ?? Math.min(...pending.map((p) => p.acceptedMs))
      const intervalMs = Duration.toMillis(interval)
      const latest = Blocks.latestBlock(yield* clock.now, genesisMs, intervalMs).blockNumber
      // A transaction goes in the first block after its acceptance that is not made yet (the
      // clock may have gone back since a block was made).
      const tip = Option.getOrUndefined(yield* store.tip(chainId))
      const floor = Math.max(chain.minedBlock, tip?.blockNumber ?? 0) + 1
      const blockOf = (p: { readonly acceptedMs: number }) => Math.max(intervalBlock(p.acceptedMs, genesisMs, intervalMs), floor)
      const blocks = new Set<number>()
      let nextDue: number | undefined
      for (const p of pending) {
        const n = blockOf(p)
        if (n <= latest) blocks.add(n)
        else nextDue = Math.min(nextDue ?? Infinity, genesisMs + n * intervalMs)
      }
      for (const n of [...blocks].sort((a, b) => a - b)) {
        yield* mineBlock(chainId, {
          blockNumber: n,
          blockTimeMs: genesisMs + n * intervalMs,
          takes: (p) => blockOf(p) <= n
        }).pipe(
          // A run refused at mining is committed failed: a refusal here is a defect.
          Effect.catchIf(Refusal.isRefusal, (e) => internalFailure(`mining refused: ${e.message}`))
        )
      }
      return nextDue
    })

  const mine: Miner["mine"] = (chainId, blocks) =>
    Effect.gen(function*() {
      if (mining === "instant") return yield* new Refusal.InstantMining()
      if (mining === "interval") return yield* new Refusal.IntervalMining({ interval: Duration.format(interval) })
      if (!Number.isSafeInteger(blocks) || blocks < 1 || blocks > Blocks.MaxBlocksPerMine) return yield* new Refusal.OutOfRange({ field: "blocks" })
      const made: Array<Blocks.MinedBlock> = []
      for (let i = 0; i < blocks; i++) made.push(yield* store.serialize(mineBlock(chainId)))
      return made
    })
  return { mine, settle: (chainId) => store.serialize(settle(chainId)) }
}
