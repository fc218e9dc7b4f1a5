/**
 * The chain's clock: Effect's `Clock` moved by the time set with `setNextBlockTime`, as anvil's
 * `evm_setNextBlockTimestamp` moves its chain's time. Blocks, receipts and the node read the time
 * here; the rest of the emulator (list times, cursors) keeps Effect's clock.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.12.0
 * @internal
 */
import { Clock, Effect } from "effect"

/**
 * What the clock holds, saved by a snapshot and put back by a revert.
 *
 * @since 0.12.0
 * @category models
 */
export interface State {
  /** Added to Effect's clock (milliseconds). */
  readonly offsetMs: number
  /** The time the next counted block gets exactly, when one was set and no block was made since. */
  readonly nextBlockMs: number | undefined
}

/**
 * The clock of a ledger.
 *
 * @since 0.12.0
 * @category models
 */
export interface ChainClock {
  /** The chain's time now (Unix milliseconds). */
  readonly now: Effect.Effect<number>
  /**
   * The time of a block made now (instant and manual mining), after a block of time `lastMs`: the
   * one set by `setNext` until a block is made (`blockMade`), else the chain's time, never before
   * `lastMs`.
   */
  readonly blockTime: (lastMs: number) => Effect.Effect<number>
  /** A block was made: the time set by `setNext` was used. */
  readonly blockMade: () => void
  /** From now on the chain's time runs from `ms`, and the next block made gets exactly `ms`. */
  readonly setNext: (ms: number) => Effect.Effect<void>
  readonly state: () => State
  readonly restore: (state: State) => void
}

/**
 * A clock at Effect's time, nothing set.
 *
 * @since 0.12.0
 * @category constructors
 */
export const make = (): ChainClock => {
  let state: State = { offsetMs: 0, nextBlockMs: undefined }
  const now = Effect.map(Clock.currentTimeMillis, (ms) => ms + state.offsetMs)
  return {
    now,
    blockTime: (lastMs) =>
      Effect.map(now, (ms) => Math.max(state.nextBlockMs ?? ms, lastMs)),
    blockMade: () => {
      if (state.nextBlockMs !== undefined) state = { ...state, nextBlockMs: undefined }
    },
    setNext: (ms) =>
      Effect.map(Clock.currentTimeMillis, (clock) => {
        state = { offsetMs: ms - clock, nextBlockMs: ms }
      }),
    state: () => state,
    restore: (saved) => {
      state = saved
    }
  }
}
