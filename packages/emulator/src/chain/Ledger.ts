/**
 * The chain behind the transaction routes: transactions of every kind (value transfers, contract
 * deployments, contract executions) from the accounts of a pool, signed as real Klaytn
 * transactions, applied to a ledger of balances, nonces, contract code and storage per chain,
 * committed by a block clock, with their fee paid by the sender, the member's fee-payer account or
 * the global fee payer; and read-only contract calls.
 *
 * Rules (docs/emulator.md, "Ledger and transfers" and "Contracts"):
 *
 * - **Type**: the kind's base type; a memo makes a memo transfer, a fee payer a fee-delegated
 *   type, a fee ratio 1..99 a with-ratio one (`Wire.typeOf`). Signed with the sender's sealed key,
 *   and the fee payer's: the member's fee-payer account (`fd-user`) or the chain's global fee
 *   payer (`fd`).
 * - **Gas**: `gas` absent or 0 is the kind's default (`DefaultGas`); it must cover Klaytn's
 *   intrinsic gas of the type (`Klaytn.intrinsicGas`). A transfer uses its intrinsic gas; a
 *   contract transaction that plus what its code uses in the EVM, which runs with the rest of the
 *   gas limit (`Evm.totalGas`). The gas price is the chain's (25 ston).
 * - **Fee** = gas used × gas price. The fee payer's part is ⌊fee × ratio / 100⌋ (all of it without
 *   a ratio, nothing when the sender pays), the sender's the rest: the parts always sum to the fee,
 *   as in Klaytn. Fees leave circulation (there is no block producer to receive them): the sum of
 *   the balances drops by exactly the fees the ledger's accounts paid. The global fee payer holds
 *   no balance: what it pays goes on the member's bill.
 * - **Nonce**: absent or 0 is the sender's next; another one must be the next (400 1065001, "nonce
 *   too low" / "nonce too high").
 * - **Funds**, checked as Klaytn's transaction pool does, against the most the transaction may
 *   cost (its gas limit × price, split the same way): the sender needs value + its part, a user
 *   fee payer its part; otherwise 400 1065001 and nothing changes. Then the gas limit must cover
 *   the intrinsic gas (400 1065001, "intrinsic gas too low"). Then the recipient, as Klaytn
 *   validates it: a value transfer cannot go to a contract ("this type transaction cannot be sent
 *   to contract addresses"), an execution must ("not a program account ..."); 400 1065001,
 *   nothing changes.
 * - **Contracts**: a deployment creates its contract at keccak256(rlp([sender, nonce]))[12:]; an
 *   execution runs the calldata with the sender as `msg.sender` and `value` sent along. A run that
 *   reverts or halts (out of gas, ...) is still a committed transaction: its receipt says
 *   `CommitError` with Klaytn's `txError` (0x09 reverted, 0x07 out of gas, ...), the sender's nonce
 *   moves on and the fee is charged for the gas used (all of it on a halt), but no value moves and
 *   no contract state changes. A successful run's balances, code and storage are written with the
 *   transaction and its receipt in one atomic write.
 * - **Blocks, interval mining** (the default): block n is made at genesis + n × interval, genesis
 *   being the chain's first transaction. A transaction waits in the pending pool (as in manual
 *   mining) until its block's time; `settle`, run before every reading of the chain, makes the
 *   blocks whose time has come (`Miner.settle`). Its receipt is `Pending` until then, `Committed`
 *   (or `CommitError`) after; a cancel or replacement of a pending nonce takes its place.
 * - **Blocks, instant mining**: a block per transaction, made in `send` before it answers (block
 *   n + 1 of the chain's count, at the chain's time); the pool stays empty.
 * - **Blocks, manual mining** (docs/emulator.md, "Blocks and the pending pool"): `send` checks and
 *   signs, then puts the transaction in the chain's pending pool (stored: `pending_transactions`);
 *   nothing else changes and its receipt is `Pending`. `mine` makes a block of every pending
 *   transaction in acceptance order, each run and applied then, leaving the pool in the atomic
 *   write of its state and receipt. Acceptance checks the state plus the pool: the next nonce
 *   follows the sender's pending ones, and the funds check adds what the pending transactions of
 *   the sender (and of a user fee payer) reserve, so that what is accepted is affordable when
 *   mined. `replace` takes the place of the sender's pending transaction of that nonce (a cancel).
 * - **Resubmission**: signing is deterministic, so the same request signs the same bytes; sent
 *   again it is refused, changing nothing: "already known" while pending, "nonce too low" once
 *   committed.
 * - **One pipeline** for every kind: acceptance (parties and keys, nonce, signing, the node's
 *   checks) in `send`, then the run and write in `execute` (at once in instant mode, from the pool
 *   at mining otherwise), which decodes everything it runs from the signed bytes. A new kind
 *   is one entry in each.
 * - `submit: false` signs and answers (status `Pending`) without the node's checks (nonce, gas,
 *   funds, recipient), runs nothing and changes nothing.
 * - **Signed whole elsewhere** (payer `Signed`: the node route's `sendRawTransaction`): any sender,
 *   no pool account; its signatures, and for a fee-delegated type its fee payer's, are checked
 *   against their account keys on the chain, and the fee payer pays from its own balance, as a
 *   member's fee-payer account does.
 * - **Calls** (`contract/call`) run the method on the latest state, read only, and answer the
 *   calldata and the return data; a revert or a halt is the node's refusal, in its words.
 *
 * This module wires the chain's parts: `Gas` (the gas rules), `Reasons` (the node's words),
 * `CallData` (ABI call data), `Signer` (key opening and signing, the global fee payers),
 * `Acceptance` (`send`), `Executor` (runs and fees), `MultisigPending`, `Miner` (`mine`),
 * `Blocks` (the block clock) and `Retry` (compare-and-set retries).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.2.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Context, Duration, Effect, Either, Layer, Option } from "effect"
import type { Address, Transaction } from "effect-kas-wallet"
import * as Klaytn from "./Klaytn.js"
import * as Wire from "effect-kas-wallet/Wire"
import { EmulatorError } from "../EmulatorError.js"
import * as Refusal from "../Refusal.js"
import * as KeyVault from "../store/KeyVault.js"
import * as LedgerStore from "../store/LedgerStore.js"
import * as FeeRecords from "../store/FeeRecords.js"
import * as MultisigStore from "../store/MultisigStore.js"
import * as Acceptance from "./Acceptance.js"
import * as Blocks from "./Blocks.js"
import * as CallData from "./CallData.js"
import * as ChainClock from "./ChainClock.js"
import * as Budget from "./evm/Budget.js"
import * as Evm from "./Evm.js"
import * as Executor from "./Executor.js"
import * as Gas from "./Gas.js"
import * as Miner from "./Miner.js"
import * as MultisigPending from "./MultisigPending.js"
import type * as Requests from "./Requests.js"
import * as Signer from "./Signer.js"

/**
 * The ledger's operations on the wire.
 *
 * @since 0.2.0
 * @category models
 */
export interface Service {
  /** Signs (and unless `submit` is false, applies) a transaction of any kind; answers its result. */
  readonly send: (request: Requests.SendRequest) => Effect.Effect<Transaction.TransactionResult, Refusal.Refusal | SqlError.SqlError>
  /** Runs a contract method read-only on the latest state; answers the calldata and what it returned. */
  readonly call: (request: Requests.CallRequest) => Effect.Effect<Transaction.ContractCallResult, Refusal.Refusal | SqlError.SqlError>
  /**
   * Runs calldata (or, without `to`, creation code) read-only on the latest state, in the latest
   * block's context, changing nothing: what a contract call and a node's `eth_call` and gas
   * estimate run. Fails with `EvmError` where Klaytn refuses before running (value the sender
   * does not hold), and with `EvmTimeout` past its time budget (`limits.timeoutMs`, or what the
   * budget around it leaves).
   *
   * It runs without holding the ledger's lock (a long call does not hold up transactions): its
   * outcome is kept when no write of this process came between its reads, or when everything it
   * read is still so; otherwise it runs again, the third time under the lock.
   *
   * @since 0.5.0
   */
  readonly simulate: (request: Requests.SimulateRequest) => Effect.Effect<Evm.Outcome, Evm.EvmError | Evm.EvmTimeout | SqlError.SqlError>
  /**
   * What bounds the EVM's runs: the gas cap of calls, the time budget of a run, the worker threads.
   *
   * @since 0.11.0
   */
  readonly limits: Evm.Limits
  /**
   * The receipt of a transaction by lower-case hash, `Pending` while in the pool;
   * `TransactionNotFound` when the chain has none.
   */
  readonly receipt: (chainId: number, hash: string) => Effect.Effect<Transaction.TransactionReceipt, Refusal.Refusal | SqlError.SqlError>
  /**
   * A transaction by hash (any case), pending or committed.
   *
   * @since 0.5.0
   */
  readonly lookup: (chainId: number, hash: string) => Effect.Effect<Option.Option<Requests.Known>, SqlError.SqlError>
  /**
   * The pending transactions of a sender (any case), by nonce.
   *
   * @since 0.5.0
   */
  readonly pendingBySender: (chainId: number, sender: string) => Effect.Effect<ReadonlyArray<Requests.Known>, SqlError.SqlError>
  /**
   * Makes `blocks` blocks (1 to `MaxBlocksPerMine`) on a chain, the first holding every pending
   * transaction in acceptance order; manual mining only (`IntervalMining`, `InstantMining`
   * otherwise).
   *
   * @since 0.5.0
   */
  readonly mine: (chainId: number, blocks: number) => Effect.Effect<ReadonlyArray<Blocks.MinedBlock>, Refusal.Refusal | SqlError.SqlError>
  /**
   * How blocks are made.
   *
   * @since 0.5.0
   */
  readonly mining: Blocks.Mining
  /**
   * The member's transactions on a chain whose fee the global fee payer paid, newest first: those
   * in a block whose time has come (interval mining; every mined one with manual mining), as the
   * receipts show them committed.
   *
   * @since 0.5.0
   */
  readonly feeRecords: (
    query: Omit<FeeRecords.FeeHistoryQuery, "visibleAtMs">
  ) => Effect.Effect<ReadonlyArray<FeeRecords.FeeRecordRow>, SqlError.SqlError>
  /**
   * The account key of an address on a chain (any case): the one its last account update set,
   * else the legacy key (its own).
   *
   * @since 0.8.0
   */
  readonly accountKey: (chainId: number, address: string) => Effect.Effect<Klaytn.AccountKey, SqlError.SqlError>
  /**
   * Signs a 32-byte hash with the key KAS holds for an account of a pool: its signature on the
   * pool's chain and its public key (compressed); `None` when the pool holds no such account. A
   * corrupted account (its key updated away) is 1065100, a disabled one 1061512.
   *
   * @since 0.8.0
   */
  readonly signAs: Signer.Signer["signAs"]
  /** The global fee payer of a chain (made when the ledger starts). */
  readonly globalFeePayer: (chainId: number) => Address.Address
  /** The time between two blocks. */
  readonly blockInterval: Duration.Duration
  /**
   * Interval mining: makes the blocks whose time has come, with the pending transactions they
   * hold. Every reader of the chain's state runs it first (the HTTP app before each request, the
   * ledger's own operations); nothing to do in the other modes, nor when no block is due.
   *
   * @since 0.12.0
   */
  readonly settle: Effect.Effect<void, SqlError.SqlError>
  /**
   * The chain's time now (Unix milliseconds): Effect's clock moved by `setNextBlockTime`.
   *
   * @since 0.12.0
   */
  readonly now: Effect.Effect<number>
  /**
   * The time (Unix milliseconds) of the next block: from then on the chain's time runs from it.
   * Refused (`OutOfRange` of `timestamp`) before the latest block of either chain.
   *
   * @since 0.12.0
   */
  readonly setNextBlockTime: (ms: number) => Effect.Effect<void, Refusal.Refusal | SqlError.SqlError>
  /**
   * The chain's clock, for snapshots: what it holds, and putting it back (which also forgets when
   * the next interval block was due).
   *
   * @since 0.12.0
   */
  readonly clock: { readonly state: () => ChainClock.State; readonly restore: (state: ChainClock.State) => void }
}

/**
 * The ledger of an emulator.
 *
 * @since 0.2.0
 * @category tags
 */
export class Ledger extends Context.Tag("effect-kas-wallet-emulator/Ledger")<Ledger, Service>() {}

/**
 * The ledger's options: its block clock and how blocks are made (`instant`, `interval`, `manual`), and the bounds of the EVM's runs
 * (absent: `Evm.DefaultLimits`).
 *
 * @since 0.11.0
 * @category models
 */
export interface Options {
  readonly blockInterval?: Duration.DurationInput | undefined
  readonly mining?: Blocks.Mining | undefined
  readonly evm?: {
    readonly gasCap?: number | undefined
    readonly timeout?: Duration.DurationInput | undefined
    readonly workers?: number | undefined
  } | undefined
}

// The longest a timer waits (2^31 - 1 ms, about 24.8 days): a longer one would fire at once.
const MaxTimeoutMs = 2 ** 31 - 1

// The bounds of the EVM's runs from the options, or what is wrong with them.
const limitsOf = (evm: Options["evm"]): Either.Either<Evm.Limits, string> => {
  const gasCap = evm?.gasCap ?? Evm.DefaultLimits.gasCap
  const timeout = evm?.timeout !== undefined ? Duration.decode(evm.timeout) : Duration.millis(Evm.DefaultLimits.timeoutMs)
  const timeoutMs = Duration.toMillis(timeout)
  const workers = evm?.workers ?? Evm.DefaultLimits.workers
  if (!Number.isSafeInteger(gasCap) || gasCap < Klaytn.TxGas) return Either.left(`the EVM's gas cap must be an integer of at least ${Klaytn.TxGas}, got ${gasCap}`)
  if (!(timeoutMs >= 1 && timeoutMs <= MaxTimeoutMs)) {
    return Either.left(`the EVM's timeout must be from 1 millisecond to 24 days, got ${Duration.format(timeout)}`)
  }
  if (!Number.isSafeInteger(workers) || workers < 1 || workers > 64) return Either.left(`the EVM's workers must be an integer from 1 to 64, got ${workers}`)
  return Either.right({ gasCap, timeoutMs, workers })
}

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"

const internalFailure = (what: string) => Effect.die(new Error(`ledger: ${what}`))

const hexOf = (bytes: Uint8Array): string => `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`

/**
 * Builds the ledger: makes each chain's global fee payer on first start (a fresh key, sealed in the
 * database; the first emulator to start on a database makes it, the others use it).
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<Service, EmulatorError, LedgerStore.LedgerStore | MultisigStore.MultisigStore | KeyVault.KeyVault> =>
  Effect.gen(function*() {
    const store = yield* LedgerStore.LedgerStore
    const multisigs = yield* MultisigStore.MultisigStore
    const vault = yield* KeyVault.KeyVault
    const interval = Duration.decode(options.blockInterval ?? Blocks.DefaultBlockInterval)
    const intervalMs = Duration.toMillis(interval)
    if (!Number.isFinite(intervalMs) || intervalMs < 1) {
      return yield* new EmulatorError({ reason: "Config", message: `blockInterval must be at least 1 millisecond, got ${Duration.format(interval)}` })
    }
    const mining = options.mining ?? "interval"
    if (mining !== "interval" && mining !== "manual" && mining !== "instant") {
      return yield* new EmulatorError({ reason: "Config", message: `mining must be instant, interval or manual, got ${String(mining)}` })
    }
    const counted = Blocks.counted(mining)
    const limits = yield* Either.match(limitsOf(options.evm), {
      onLeft: (message) => new EmulatorError({ reason: "Config", message }),
      onRight: Effect.succeed
    })

    const signer = yield* Signer.make(store, vault)

    // A chain's row moves with each block and each pool change (its block count, its pool's
    // version): read every time.
    const chainRow = store.chain
    const clock = ChainClock.make()

    const execute = Executor.make(store, limits)
    // Interval mining: when the next block holding a pending transaction of this process is due
    // (`undefined`: none known), and when the pool was last looked at (another process's
    // transactions are found there within a block interval).
    let dueMs: number | undefined
    let lookedMs = -Infinity
    const send = Acceptance.make({
      store,
      multisigs,
      signer,
      execute,
      pend: MultisigPending.make(multisigs),
      mining,
      clock,
      // Interval mining: the block of a transaction put in the pool is due at the latest then
      // (a later one when blocks were made since; looking early costs a look).
      pooled: (_chainId, genesisMs, acceptedMs) => {
        if (mining === "interval") dueMs = Math.min(dueMs ?? Infinity, genesisMs + Miner.intervalBlock(acceptedMs, genesisMs, intervalMs) * intervalMs)
      },
      chainRow,
      gasLimit: Math.min(Gas.MaxGas, limits.gasCap),
      // Defined below, with the runs it makes.
      runBeforePool: mining === "instant" ? undefined : (run) => runBeforePool(run)
    })
    const miner = Miner.make({ store, execute, keyOf: signer.keyOf, mining, interval, clock })

    const settle: Effect.Effect<void, SqlError.SqlError> = mining !== "interval" ? Effect.void : Effect.flatMap(clock.now, (now) => {
      if (!((dueMs !== undefined && now >= dueMs) || now - lookedMs >= intervalMs || now < lookedMs)) return Effect.void
      lookedMs = now
      dueMs = undefined
      return Effect.forEach(Blocks.Chains, miner.settle).pipe(
        Effect.map((next) => {
          for (const ms of next) if (ms !== undefined) dueMs = Math.min(dueMs ?? Infinity, ms)
        })
      )
    })
    const settled = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.zipRight(settle, self)

    // One run of a simulation, kept when its reads are the state of one instant: no write of this
    // process came between them, or they all still hold (`checked`: under the lock, no write of
    // this process can come between them).
    const simulateOnce = (request: Requests.SimulateRequest, checked: boolean) =>
      Effect.gen(function*() {
        const now = yield* clock.now
        const chain = yield* chainRow(request.chainId)
        const latest = Blocks.head(chain, now, mining, intervalMs)
        const fields = {
          from: request.from,
          value: request.value,
          input: request.input,
          gasLimit: request.gasLimit,
          blockNumber: latest.blockNumber,
          timestamp: Math.floor(latest.blockTimeMs / 1000),
          chainId: request.chainId,
          gasPrice: chain.gasPrice
        }
        const mark = store.writeMark()
        const outcome = yield* Evm.run(
          request.to === undefined ? { kind: "deploy", ...fields } : { kind: "call", to: request.to, ...fields },
          Evm.storeReader(store, request.chainId),
          limits
        )
        const calm = !checked || (mark !== undefined && store.writeMark() === mark)
        return calm || (yield* store.holds(request.chainId, outcome.reads)) ? Option.some(outcome) : Option.none()
      })

    // Without the lock twice, then under it (where only another process can come between the
    // reads, as before calls ran off the lock); all within one time budget.
    const simulate: Service["simulate"] = (request) =>
      Effect.flatMap(Budget.make(limits.timeoutMs, Budget.aborted(limits.timeoutMs)), (budget) =>
        Effect.gen(function*() {
          for (let attempt = 0; attempt < 2; attempt++) {
            const kept = yield* simulateOnce(request, true)
            if (Option.isSome(kept)) return kept.value
          }
          const locked = yield* store.serialize(simulateOnce(request, false))
          return yield* Option.match(locked, { onNone: () => internalFailure("a run under the lock was not kept"), onSome: Effect.succeed })
        }).pipe(Budget.within(budget)))

    // Interval and manual mining run a transaction when its block is made, with the ledger's lock
    // held: a contract run past the EVM's time budget there would hold every other sender's
    // transaction for that long. So acceptance, once every other check has passed, runs it first,
    // off the lock, on the latest state, and a transaction past its budget is refused before it
    // enters the pool, as instant mining refuses it (a node's `execution aborted`). Any other
    // outcome (a revert, out of gas) is the block's to find: the state may differ by then. The
    // blocks that came due during the run are made before acceptance looks again.
    const runBeforePool = (run: Requests.SimulateRequest): Effect.Effect<void, Refusal.Refusal | SqlError.SqlError> =>
      simulate(run).pipe(
        Effect.asVoid,
        Effect.catchTags({
          EvmTimeout: (e) => new Refusal.NodeRefused({ reason: e.message, during: "send" }),
          EvmError: () => Effect.void
        }),
        Effect.zipRight(settle)
      )

    const call: Service["call"] = (request) =>
      Effect.gen(function*() {
        const data = yield* CallData.callData(request.methodName, request.arguments)
        if (data === undefined) return yield* new Refusal.OutOfRange({ field: "data.arguments" })
        const input = Buffer.from(data.slice(2), "hex")
        const gas = Math.min(request.gas === undefined || request.gas === 0 ? Gas.DefaultCallGas : request.gas, limits.gasCap)
        // As Klaytn's call: the gas must cover the intrinsic gas of an execution with this calldata.
        const intrinsic = Klaytn.intrinsicGas(Wire.TxType.SmartContractExecution, input.length)
        if (gas < intrinsic) return yield* new Refusal.NodeRefused({ reason: "intrinsic gas too low", during: "call" })
        const outcome = yield* simulate({
          chainId: request.chainId,
          from: (request.from ?? ZERO_ADDRESS).toLowerCase(),
          to: request.to.toLowerCase(),
          value: request.value ?? 0n,
          input: new Uint8Array(input),
          gasLimit: BigInt(gas - intrinsic)
        }).pipe(Effect.catchTags({
          EvmError: () => new Refusal.NodeRefused({ reason: "insufficient balance for transfer", during: "call" }),
          EvmTimeout: (e) => new Refusal.NodeRefused({ reason: e.message, during: "call" })
        }))
        switch (outcome.status) {
          case "success":
            return { data, result: hexOf(outcome.returnData) } as Transaction.ContractCallResult
          case "reverted":
            return yield* new Refusal.NodeRefused({ reason: outcome.revertReason !== undefined ? `execution reverted: ${outcome.revertReason}` : "execution reverted", during: "call" })
          case "failed":
            return yield* new Refusal.NodeRefused({ reason: outcome.error ?? "VM error occurs while running smart contract", during: "call" })
        }
      })

    // The receipt of a transaction not yet in a block: the transaction as the pool holds it, with
    // no block fields nor outcome.
    const pendingReceipt = (signed: Klaytn.SignedTx) => {
      const {
        blockHash: _hash,
        blockNumber: _number,
        contractAddress: _contract,
        gasUsed: _gas,
        logs: _logs,
        logsBloom: _bloom,
        transactionIndex: _index,
        txError: _error,
        ...pending
      } = Klaytn.toReceipt(signed, { blockHash: "0x", blockNumber: 0, transactionIndex: 0, gasUsed: 0, status: "Committed" })
      return { ...pending, status: "Pending" } satisfies Transaction.TransactionReceipt
    }

    const decode = (raw: Uint8Array, chainId: number, hash: string) =>
      Either.match(Klaytn.fromRaw(raw, chainId), {
        onLeft: (e) => internalFailure(`stored transaction ${hash}: ${e.reason}`),
        onRight: Effect.succeed
      })

    const receipt: Service["receipt"] = (chainId, hash) =>
      Effect.gen(function*() {
        const row = yield* store.transaction(chainId, hash)
        if (Option.isNone(row)) {
          const pending = yield* store.pendingTransaction(chainId, hash)
          if (Option.isNone(pending)) return yield* new Refusal.TransactionNotFound()
          return pendingReceipt(yield* decode(pending.value.raw, chainId, hash))
        }
        const t = row.value
        const signed = yield* decode(t.raw, chainId, hash)
        if (!Blocks.inBlock(mining, t.blockTimeMs, yield* clock.now)) return pendingReceipt(signed)
        return Klaytn.toReceipt(signed, {
          blockHash: Blocks.blockHash(chainId, t.blockNumber, t.blockTimeMs),
          blockNumber: t.blockNumber,
          transactionIndex: t.transactionIndex,
          gasUsed: t.gasUsed,
          status: t.txError === undefined ? "Committed" : "CommitError",
          txError: t.txError,
          logs: t.logs,
          logIndex: t.logIndex,
          logsBloom: Evm.logsBloom(t.logs ?? [])
        })
      })

    const lookup: Service["lookup"] = (chainId, hash) =>
      Effect.gen(function*() {
        const key = hash.toLowerCase()
        const row = yield* store.transaction(chainId, key)
        if (Option.isSome(row)) {
          const t = row.value
          return Option.some<Requests.Known>({ status: "committed", hash: key, sender: t.sender, nonce: t.nonce, memberId: t.memberId, raw: t.raw })
        }
        return Option.map(yield* store.pendingTransaction(chainId, key), (p): Requests.Known => ({
          status: "pending",
          hash: key,
          sender: p.sender,
          nonce: p.nonce,
          memberId: p.memberId,
          raw: p.raw
        }))
      })

    const pendingBySender: Service["pendingBySender"] = (chainId, sender) =>
      Effect.map(store.pending(chainId, sender.toLowerCase()), (rows) =>
        rows.map((p): Requests.Known => ({ status: "pending", hash: p.hash, sender: p.sender, nonce: p.nonce, memberId: p.memberId, raw: p.raw })))

    const setNextBlockTime: Service["setNextBlockTime"] = (ms) =>
      // The blocks due are made first: the latest block is then the one the clock says.
      Effect.zipRight(settle, store.serialize(Effect.gen(function*() {
        if (!Number.isSafeInteger(ms) || ms < 0) return yield* new Refusal.OutOfRange({ field: "timestamp" })
        const now = yield* clock.now
        for (const chainId of Blocks.Chains) {
          const chain = yield* store.chain(chainId)
          const latestMs = counted
            ? Option.getOrElse(yield* store.blockTime(chainId, chain.minedBlock), () => 0)
            : chain.genesisMs === undefined ? 0 : Blocks.latestBlock(now, chain.genesisMs, intervalMs).blockTimeMs
          if (ms < latestMs) return yield* new Refusal.TimeBeforeBlock({ timeMs: ms, blockMs: latestMs })
        }
        yield* clock.setNext(ms)
        // The chain's time moved: the blocks due are found at the next look.
        lookedMs = -Infinity
      })))

    return {
      send: (request) => Effect.zipRight(settle, send(request)),
      call: (request) => settled(call(request)),
      simulate: (request) => settled(simulate(request)),
      receipt: (chainId, hash) => settled(receipt(chainId, hash)),
      lookup: (chainId, hash) => settled(lookup(chainId, hash)),
      pendingBySender: (chainId, sender) => settled(pendingBySender(chainId, sender)),
      mine: miner.mine,
      settle,
      now: clock.now,
      setNextBlockTime,
      clock: {
        state: clock.state,
        restore: (state) => {
          clock.restore(state)
          dueMs = undefined
          lookedMs = -Infinity
        }
      },
      feeRecords: (query) =>
        Effect.flatMap(
          counted ? Effect.succeed(undefined) : Effect.zipRight(settle, clock.now),
          (visibleAtMs) => store.feeHistory({ ...query, visibleAtMs })
        ),
      accountKey: signer.keyOf,
      signAs: signer.signAs,
      globalFeePayer: (chainId) => signer.globalPayer(chainId).address,
      blockInterval: interval,
      mining,
      limits
    }
  })


/**
 * The ledger over the store and key vault of the context.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<Ledger, EmulatorError, LedgerStore.LedgerStore | MultisigStore.MultisigStore | KeyVault.KeyVault> => Layer.effect(Ledger, make(options))