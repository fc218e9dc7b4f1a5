/**
 * Compare-and-set retries: ledger work reads, then writes only if what it read is unchanged; when
 * another process wrote in between, it is read, run and written again.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import { Effect, Option } from "effect"

// How many times a transaction is read, run and written again when another process changed what
// it read in between. Each conflict means another writer made progress.
const MaxAttempts = 50

/**
 * Runs an attempt again (up to `MaxAttempts`) while it answers `None`: another process changed
 * what it read in between. Each conflict means another writer made progress; one that never
 * ends is a defect.
 *
 * @since 0.10.0
 * @category retrying
 */
export const retrying = <A, E>(attempt: Effect.Effect<Option.Option<A>, E>): Effect.Effect<A, E> => {
  const loop = (n: number): Effect.Effect<A, E> =>
    Effect.flatMap(attempt, Option.match({
      onSome: Effect.succeed,
      onNone: () => (n + 1 < MaxAttempts ? loop(n + 1) : Effect.die(new Error("ledger: other writers keep changing the ledger")))
    }))
  return loop(0)
}
