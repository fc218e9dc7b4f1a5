/**
 * Control of the emulator's state and time for tests, as anvil's `evm_snapshot`, `evm_revert`
 * and `evm_setNextBlockTimestamp`: a snapshot of the whole emulator, a revert to one, and the time
 * of the next block. `Emulator` offers them in-process, the console routes over HTTP.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.12.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Context, Effect, Layer } from "effect"
import type * as ChainClock from "../chain/ChainClock.js"
import * as Ledger from "../chain/Ledger.js"
import * as Refusal from "../Refusal.js"
import * as LedgerStore from "../store/LedgerStore.js"
import * as Snapshots from "../store/Snapshots.js"
import { ConsoleError } from "./EmulatorConsole.js"

/**
 * Snapshots, reverts and the chain's time.
 *
 * @since 0.12.0
 * @category models
 */
export interface Service {
  /** Takes a snapshot of everything the emulator holds; answers its id (`0x1`, `0x2`, ...). */
  readonly snapshot: Effect.Effect<string, SqlError.SqlError>
  /**
   * Brings everything back to a snapshot and drops it and the later ones; `InvalidInput`, nothing
   * changed, for an id unknown or reverted to already.
   */
  readonly revert: (id: string) => Effect.Effect<void, ConsoleError | SqlError.SqlError>
  /**
   * The time of the next block, Unix seconds; `InvalidInput`, nothing changed, before the latest
   * block or not a whole number of seconds from 0.
   */
  readonly setNextBlockTime: (unixSeconds: number) => Effect.Effect<void, ConsoleError | SqlError.SqlError>
}

/**
 * The control of the emulator.
 *
 * @since 0.12.0
 * @category tags
 */
export class ChainControl extends Context.Tag("effect-kas-wallet-emulator/ChainControl")<ChainControl, Service>() {}

const invalid = (message: string) => new ConsoleError({ reason: "InvalidInput", message })

/**
 * The control over the ledger, its store and the snapshots of the context.
 *
 * @since 0.12.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, Ledger.Ledger | LedgerStore.LedgerStore | Snapshots.Snapshots> = Effect.gen(function*() {
  const ledger = yield* Ledger.Ledger
  const store = yield* LedgerStore.LedgerStore
  const snapshots = yield* Snapshots.Snapshots
  // The chain's clock at each snapshot, put back with it.
  const clockAt = new Map<number, ChainClock.State>()
  const numberOf = (id: string) => (/^0x[0-9a-f]{1,12}$/i.test(id) ? Number.parseInt(id.slice(2), 16) : undefined)
  const unknown = (id: string) =>
    invalid(`no snapshot ${JSON.stringify(id)}: unknown, or reverted to already (a revert drops its snapshot and those taken after it)`)

  return {
    // The blocks due are made first (interval mining), so that a snapshot holds them made; the
    // ledger's lock keeps every transaction out of the copy.
    snapshot: Effect.zipRight(
      ledger.settle,
      store.serialize(Effect.map(snapshots.take, (n) => {
        clockAt.set(n, ledger.clock.state())
        return `0x${n.toString(16)}`
      }))
    ),
    revert: (id) =>
      Effect.gen(function*() {
        const n = numberOf(id)
        if (n === undefined || !snapshots.has(n)) return yield* unknown(id)
        if (!(yield* store.serialize(snapshots.restore(n)))) return yield* unknown(id)
        ledger.clock.restore(clockAt.get(n)!)
        for (const m of clockAt.keys()) if (m >= n) clockAt.delete(m)
      }),
    setNextBlockTime: (unixSeconds) =>
      Number.isSafeInteger(unixSeconds) && unixSeconds >= 0
        ? Effect.catchIf(
          ledger.setNextBlockTime(unixSeconds * 1000),
          (e): e is Refusal.Refusal => Refusal.isRefusal(e),
          (e) => Effect.fail(invalid(e.message))
        )
        : Effect.fail(invalid(`the time must be a whole number of seconds from 0, got ${unixSeconds}`))
  }
})

/**
 * The control over the ledger, its store and the snapshots of the context.
 *
 * @since 0.12.0
 * @category layers
 */
export const layer: Layer.Layer<ChainControl, never, Ledger.Ledger | LedgerStore.LedgerStore | Snapshots.Snapshots> = Layer.effect(ChainControl, make)
