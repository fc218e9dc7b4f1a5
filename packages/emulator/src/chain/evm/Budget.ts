/**
 * Time budgets of the EVM: how long runs may take, for one run and for what a caller asks
 * together (an `estimateGas` and its many runs, a JSON-RPC batch and its calls). A run is given
 * the least time any budget around it has left, and what it takes is charged to all of them.
 *
 * Budgets count the time runs take in a worker, not the time they wait for one, and they run on
 * the process's clock, never Effect's `Clock`: they bound real work (under a `TestClock` a run
 * still ends).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.11.0
 * @internal
 */
import { Data, Effect, FiberRef } from "effect"

/**
 * A budget of run time: its size, the words a run stopped by it ends with, and the budget around
 * it (a run's inside its caller's, a call's inside its batch's).
 *
 * @since 0.11.0
 * @category models
 */
export class Budget {
  private spentMs = 0
  constructor(readonly timeoutMs: number, readonly reason: string, readonly parent: Budget | undefined) {}

  /** What is left of this budget alone. */
  get leftMs(): number {
    return this.timeoutMs - this.spentMs
  }

  /** The budget that bounds a run now: the one with the least left, this one on a tie. */
  binding(): Budget {
    let least: Budget = this
    for (let b = this.parent; b !== undefined; b = b.parent) if (b.leftMs < least.leftMs) least = b
    return least
  }

  /** Charges the time a run took to this budget and every budget around it. */
  charge(ms: number): void {
    for (let b: Budget | undefined = this; b !== undefined; b = b.parent) b.spentMs += ms
  }
}

/**
 * The budget the runs of the current fiber fall within (a batch's, an estimate's); none outside.
 *
 * @since 0.11.0
 * @category references
 */
export const current: FiberRef.FiberRef<Budget | undefined> = FiberRef.unsafeMake<Budget | undefined>(undefined)

/**
 * A budget inside the current one.
 *
 * @since 0.11.0
 * @category constructors
 */
export const make = (timeoutMs: number, reason: string): Effect.Effect<Budget> =>
  Effect.map(FiberRef.get(current), (parent) => new Budget(timeoutMs, reason, parent))

/**
 * Runs `self` with `budget` as the one its runs fall within.
 *
 * @since 0.11.0
 * @category combinators
 */
export const within = (budget: Budget) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.locally(self, current, budget)

/**
 * A run stopped because a budget ran out (`budget`: the one that bounded it). Its message is the
 * budget's words: a node's `execution aborted (timeout = 5s)` for a call's own.
 *
 * @since 0.11.0
 * @category errors
 */
export class EvmTimeout extends Data.TaggedError("EvmTimeout")<{ readonly budget: Budget }> {
  override get message(): string {
    return this.budget.reason
  }
}

const decimals = (n: number) => String(Number(n.toFixed(3)))

/**
 * A duration in milliseconds as Go prints a `time.Duration` (`200ms`, `5s`, `1.5s`, `2m0s`): the
 * form of a node's messages.
 *
 * @since 0.11.0
 * @category formatting
 */
export const goDuration = (ms: number): string => {
  if (ms === 0) return "0s"
  if (ms < 1000) return `${decimals(ms)}ms`
  const hours = Math.floor(ms / 3_600_000)
  const minutes = Math.floor((ms % 3_600_000) / 60_000)
  const seconds = (ms % 60_000) / 1000
  return `${hours > 0 ? `${hours}h` : ""}${hours > 0 || minutes > 0 ? `${minutes}m` : ""}${decimals(seconds)}s`
}

/**
 * go-ethereum's words for a call stopped by its time budget (`--rpc.evmtimeout`):
 * `execution aborted (timeout = 5s)`.
 *
 * @since 0.11.0
 * @category formatting
 */
export const aborted = (timeoutMs: number): string => `execution aborted (timeout = ${goDuration(timeoutMs)})`
