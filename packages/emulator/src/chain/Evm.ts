/**
 * The emulator's EVM: runs a contract deployment, a contract execution or a read-only call over the
 * ledger's state and reports what the run read and what it changes, for the ledger to apply in its
 * one atomic write (LedgerStore.ts) together with the fees and the receipt.
 *
 * The engine is @ethereumjs/evm 10 (MPL-2.0, used unmodified; pure JavaScript on @noble), at
 * hardfork **Shanghai**: PUSH0 and the init-code limit of EIP-3860 are there; Cancun's MCOPY,
 * TLOAD/TSTORE and BLOBHASH are not, and SELFDESTRUCT still removes a contract (its code, storage,
 * balance and nonce) at the end of the transaction. Compile for it with `evmVersion: "shanghai"`
 * (solc 0.8.25 and later default to Cancun).
 *
 * It runs in worker threads (`evm/Workers`, `evm/EvmWorker`; the engine itself is `evm/Engine`),
 * never on the event loop that answers requests: a run's reads of the ledger are messages to this
 * thread, answered by the reader. A worker starts on the first contract run (loading the engine,
 * ~0.4 s in its own thread), so an emulator that never sees a contract never pays for it;
 * `preload` starts one ahead.
 *
 * Every run is bounded: by its gas (the caller caps it, `Limits.gasCap`) and by time
 * (`Limits.timeoutMs`, within the budgets around it: `evm/Budget`). A run past its time is stopped
 * (its worker terminated and replaced) and fails with `EvmTimeout`, whose message is go-ethereum's
 * `execution aborted (timeout = 5s)`.
 *
 * How a run maps onto Klaytn:
 *
 * - The sender's nonce and the fees are the ledger's: the run sees the sender's state as the
 *   reader gives it (before the transaction, its nonce the transaction's) and reports value moved
 *   and contracts' own nonces, never the sender's nonce bump or a fee.
 * - A deployment creates the contract at keccak256(rlp([sender, nonce]))[12:], as Klaytn (and
 *   Ethereum) do.
 * - An execution whose `to` has no code is refused (`EvmError` "NotAProgramAccount"): Klaytn
 *   rejects it before running ("not a program account"), with no receipt and no fee.
 * - A value the sender does not hold is refused (`EvmError` "InsufficientFunds"), as Klaytn's
 *   transaction pool refuses it; the ledger checks value plus fee first anyway.
 * - `gasLimit` is the gas left after Klaytn's intrinsic gas; `gasUsed` is the EVM's on top of it
 *   (all of it on an exceptional halt), and `totalGas` adds the two and the refund (EIP-3529).
 * - Block context: the number and time given, coinbase and PREVRANDAO zero, BASEFEE the gas
 *   price, GASLIMIT a fixed large value (Klaytn blocks have no gas limit), BLOCKHASH zero.
 * - Not emulated: Klaytn's own precompiles (0x3fd vmLog, 0x3fe feePayer, 0x3ff validateSender)
 *   and its limit on opcode computation cost.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.4.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { type Cause, Data, Effect, Exit, FiberRef, Option, Runtime } from "effect"
import * as os from "node:os"
import type * as LedgerStore from "../store/LedgerStore.js"
import * as ChainState from "../store/ChainState.js"
import * as Budget from "./evm/Budget.js"
import type * as Engine from "./evm/Engine.js"
import { fromHex, type Message, type Outcome, type RefusalReason, toHex } from "./evm/Messages.js"
import type * as Protocol from "./evm/Protocol.js"
import * as Workers from "./evm/Workers.js"

export type { Log, Message, MessageFields, Outcome, Status } from "./evm/Messages.js"
export { revertReason, txError } from "./evm/Messages.js"
export { EvmTimeout } from "./evm/Budget.js"

/**
 * The ledger's state as a run reads it, supplied by the caller (usually the store, read inside
 * the ledger's attempt: `storeReader`). Addresses are lower-case `0x` hex; what it answers must be
 * the state before the transaction.
 *
 * @since 0.4.0
 * @category models
 */
export interface StateReader<E> {
  /** Balance, nonce and code (`None` without); `ChainState.Empty` without code for an address never seen. */
  readonly account: (address: string) => Effect.Effect<ChainState.AccountState, E>
  /** A storage slot (`0x` + 64 hex digits); `ChainState.ZeroWord` when unset. */
  readonly storage: (address: string, slot: string) => Effect.Effect<string, E>
}

/**
 * A run Klaytn refuses before running it: nothing happens, no receipt, no fee.
 *
 * - `NotAProgramAccount`: an execution whose `to` has no code.
 * - `InsufficientFunds`: the sender does not hold `value`.
 *
 * @since 0.4.0
 * @category errors
 */
export class EvmError extends Data.TaggedError("EvmError")<{
  readonly reason: RefusalReason
  readonly message: string
}> {}

/**
 * What bounds the EVM's runs: `gasCap`, the most gas a call may give it (callers cap a call's gas
 * to it; transactions stay under it too); `timeoutMs`, the time one run may take (and a call's or
 * batch's runs together); `workers`, how many runs may go at once, each in its worker thread.
 *
 * @since 0.11.0
 * @category models
 */
export interface Limits {
  readonly gasCap: number
  readonly timeoutMs: number
  readonly workers: number
}

/**
 * The default number of workers: one core is left to the event loop, up to two workers. Two
 * workers looping on a 2-core machine leave the event loop a share of a core: under 5 batches of
 * gas bombs `/health` answered with a p99 of 123 ms against 5.5 ms with one worker (3.2–5.0 ms
 * idle; docs/benchmarks.md).
 *
 * @since 0.12.0
 * @category constants
 */
export const DefaultWorkers: number = Math.max(1, Math.min(2, os.availableParallelism() - 1))

/**
 * go-ethereum's defaults (`--rpc.gascap` 50,000,000, `--rpc.evmtimeout` 5 s) and `DefaultWorkers`.
 *
 * @since 0.11.0
 * @category constants
 */
export const DefaultLimits: Limits = { gasCap: 50_000_000, timeoutMs: 5_000, workers: DefaultWorkers }

// ---------------------------------------------------------------------------------------------
// Pure helpers
// ---------------------------------------------------------------------------------------------

const AddressPattern = /^0x[0-9a-f]{40}$/

/**
 * Ethereum's logs bloom of a receipt: 2048 bits where each log's address and each of its topics
 * set three bits, taken from the first three pairs of bytes of their keccak256 (11 bits each).
 * Answers `0x` + 512 hex digits.
 *
 * @since 0.4.0
 * @category receipts
 */
export const logsBloom = (logs: ReadonlyArray<{ readonly address: string; readonly topics: ReadonlyArray<string> }>): string => {
  const bloom = new Uint8Array(256)
  const add = (hex: string) => {
    const h = keccak_256(fromHex(hex))
    for (let i = 0; i < 6; i += 2) {
      const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
      // Bit 0 is the lowest bit of the last byte: the bloom is a big-endian 2048-bit number.
      bloom[255 - (bit >> 3)]! |= 1 << (bit & 7)
    }
  }
  for (const log of logs) {
    add(log.address)
    for (const topic of log.topics) add(topic)
  }
  return toHex(bloom)
}

/**
 * The gas a contract transaction uses, as its receipt says: Klaytn's intrinsic gas plus the EVM's,
 * less the refund, which is at most a fifth of that sum (EIP-3529's cap, as in Ethereum since
 * London).
 *
 * @since 0.4.0
 * @category gas
 */
export const totalGas = (intrinsic: bigint, outcome: Pick<Outcome, "gasUsed" | "gasRefund">): bigint => {
  const used = intrinsic + outcome.gasUsed
  const refund = outcome.gasRefund < used / 5n ? outcome.gasRefund : used / 5n
  return used - refund
}

/**
 * Starts an EVM worker now rather than on the first contract run, and waits until its engine is
 * loaded (benchmarks, a warm start).
 *
 * @since 0.4.0
 * @category constructors
 */
export const preload = (workers: number = DefaultLimits.workers): Effect.Effect<void> => Workers.warm(Workers.pool(workers))

const plain = (state: ChainState.AccountState): Engine.Account => ({
  balance: state.balance,
  nonce: state.nonce,
  code: Option.getOrUndefined(state.code)
})

/**
 * Runs a message in an EVM worker over the state the reader gives and reports the outcome; changes
 * nothing itself. The ledger applies an outcome in one `LedgerStore.write`, inside its serialized
 * attempt:
 *
 * 1. `read` = `store.balances` of the sender, the fee payer and `changedAccounts(outcome)`;
 * 2. `after` = `applyChanges(read, outcome)`, then the sender's nonce + 1 and the fees;
 * 3. `write({ balances: after against read, reads: outcome.reads, contracts: outcome.contracts,
 *    transaction, bill, ... })`; `false` means another writer changed something the run or the
 *    ledger read: run again.
 *
 * The reader is asked on this thread (the sender's and the callee's accounts before the run, the
 * rest as the run goes). The run may take `limits.timeoutMs`, or less when a budget around it
 * (`Budget.current`: a batch's, an estimate's) has less left; past that it is stopped and fails
 * with `EvmTimeout`, naming the budget that ran out.
 *
 * Fails with the reader's error when the reader fails, and with `EvmError` when Klaytn would refuse
 * the transaction before running it (no receipt, no fee). A malformed address is a defect (the
 * caller validates).
 *
 * @since 0.4.0
 * @category running
 */
export const run = <E>(
  message: Message,
  reader: StateReader<E>,
  limits: Pick<Limits, "timeoutMs" | "workers"> = DefaultLimits
): Effect.Effect<Outcome, E | EvmError | Budget.EvmTimeout> =>
  Effect.gen(function*() {
    const addresses = [message.from, ...(message.kind === "deploy" ? [] : [message.to])]
    const malformed = addresses.find((a) => !AddressPattern.test(a))
    if (malformed !== undefined) return yield* Effect.die(new Error(`Evm: not a lower-case address: ${malformed}`))
    const budget = new Budget.Budget(limits.timeoutMs, Budget.aborted(limits.timeoutMs), yield* FiberRef.get(Budget.current))
    // Every run reads its sender and its callee first: they go with the message.
    const known = yield* Effect.forEach(addresses, (address) => Effect.map(reader.account(address), (state) => [address, plain(state)] as const))
    const runtime = yield* Effect.runtime<never>()
    let failure: Cause.Cause<E> | undefined
    const answer = <A>(read: Protocol.Read, effect: Effect.Effect<A, E>, reply: (a: A) => Protocol.ToWorker): Promise<Protocol.ToWorker> =>
      Runtime.runPromiseExit(runtime)(effect).then((exit) => {
        if (Exit.isSuccess(exit)) return reply(exit.value)
        failure ??= exit.cause
        return { type: "unread", id: read.id }
      })
    const settled = yield* Workers.run(Workers.pool(limits.workers), message, known, (read) =>
      read.type === "account"
        ? answer(read, reader.account(read.address), (state) => ({ type: "account", id: read.id, account: plain(state) }))
        : answer(read, reader.storage(read.address, read.slot), (value) => ({ type: "storage", id: read.id, value })), budget)
    switch (settled._tag) {
      case "ReadFailed":
        return yield* (failure !== undefined ? Effect.failCause(failure) : Effect.die(new Error("Evm: a read failed without a cause")))
      case "TimedOut":
        return yield* new Budget.EvmTimeout({ budget: settled.budget })
      case "Done":
        if (settled.ran._tag === "Refused") return yield* new EvmError({ reason: settled.ran.reason, message: settled.ran.message })
        return settled.ran.outcome
    }
  })

/**
 * The addresses whose balance or nonce an outcome changes: the ledger reads them, with the sender
 * and the fee payer, for its balance write.
 *
 * @since 0.4.0
 * @category applying
 */
export const changedAccounts = (outcome: Pick<Outcome, "balanceChanges" | "nonces">): ReadonlyArray<string> => [
  ...new Set([...outcome.balanceChanges.keys(), ...outcome.nonces.keys()])
]

/**
 * Balances and nonces after a run: `read` (by lower-case address) with the outcome's
 * `balanceChanges` added and its `nonces` set; an address missing from `read` counts as
 * `ChainState.Empty`. The sender's nonce bump and the fees are not in it: the ledger applies them
 * to the result, whatever the status.
 *
 * @since 0.4.0
 * @category applying
 */
export const applyChanges = (
  read: ReadonlyMap<string, ChainState.Balance>,
  outcome: Pick<Outcome, "balanceChanges" | "nonces">
): Map<string, ChainState.Balance> => {
  const after = new Map(read)
  const get = (address: string) => after.get(address) ?? ChainState.Empty
  for (const [address, delta] of outcome.balanceChanges) after.set(address, { ...get(address), balance: get(address).balance + delta })
  for (const [address, nonce] of outcome.nonces) after.set(address, { ...get(address), nonce })
  return after
}

/**
 * A reader over the ledger's store for one chain: every read is a query, made inside the caller's
 * attempt (the ledger's `serialize`d read-compute-write).
 *
 * @since 0.4.0
 * @category constructors
 */
export const storeReader = (store: LedgerStore.Service, chainId: number): StateReader<SqlError.SqlError> => ({
  account: (address) => store.state(chainId, address),
  storage: (address, slot) => store.storage(chainId, address, slot)
})
