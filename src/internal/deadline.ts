/**
 * A per-attempt timeout that costs one fiber instead of `Effect.timeoutFail`'s two.
 *
 * `Effect.timeoutFail` races the effect against a sleep on two forked fibers and then waits for
 * the loser's interruption: measured at ~45 µs of CPU per request (docs/benchmarks.md), more than
 * the rest of the client's own pipeline. Here the effect runs on one forked child while the caller
 * waits on it and on a native timer. That shortcut is taken only under the default (live) Clock;
 * any other Clock (TestClock, a user's) goes through `Effect.timeoutFail`, which sleeps on it.
 *
 * @internal
 */
import { Clock, Context, DefaultServices, Duration, Effect, Exit, Fiber } from "effect"

const liveClock = Context.get(DefaultServices.liveServices, Clock.Clock)

// Longer delays overflow the host's timers, which would then fire at once; the live Clock treats
// them as infinite, and so does this.
const MAX_TIMER_MILLIS = 2 ** 31 - 1

/**
 * Fails with `onTimeout()` when `self` has not completed within `duration`; `self` is then
 * interrupted, and its interruption awaited, before the failure is returned. Interrupting the
 * caller interrupts `self`.
 *
 * @internal
 */
export const timeoutFail = <A, E, R, E1>(
  self: Effect.Effect<A, E, R>,
  duration: Duration.Duration,
  onTimeout: () => E1
): Effect.Effect<A, E | E1, R> =>
  Effect.clockWith((clock) => {
    if (clock !== liveClock) return Effect.timeoutFail(self, { duration, onTimeout })
    const millis = Duration.toMillis(duration)
    if (millis > MAX_TIMER_MILLIS) return self
    return Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(Effect.fork(restore(self)), (child) =>
        restore(Effect.async<A, E | E1>((resume) => {
          let settled = false
          const timer = setTimeout(() => {
            if (settled) return
            settled = true
            resume(Effect.zipRight(Fiber.interrupt(child), Effect.fail(onTimeout())))
          }, millis)
          child.addObserver((exit) => {
            if (settled) return
            settled = true
            clearTimeout(timer)
            // Like Effect.timeout: the winner's FiberRef changes (a user's transformClient may
            // make some) carry over to the caller.
            resume(Effect.zipRight(Fiber.inheritAll(child), exit as Exit.Exit<A, E>))
          })
          return Effect.suspend(() => {
            settled = true
            clearTimeout(timer)
            return Fiber.interrupt(child)
          })
        }))
      )
    )
  })
