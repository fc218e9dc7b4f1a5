/**
 * The one timeout of an attempt. `Effect.timeoutFail` races two forked fibers (the work and a
 * sleep) and merges the winner's fiber refs back: on loopback that is most of what the client
 * adds to a request (docs/benchmarks.md). Against the live clock the work runs in one forked
 * fiber and the deadline is a plain timer of the runtime; under any other clock (a `TestClock`,
 * a user's) it is `Effect.timeoutFail`, so tests drive the deadline as they drive every sleep.
 *
 * @internal
 */
import { Clock, Duration, Effect, type Exit, type Fiber } from "effect"

// The live clock's class (`Clock.make()` is an instance of it): a clock of another class (a
// TestClock, a user's) keeps its own notion of time. Compared by class, not by instance, and not
// through `DefaultServices`, which would add its other services to a browser bundle.
const LiveClock = Clock.make().constructor

// The longest delay of a runtime's timer: a longer one (Infinity included) fires at once.
const MAX_TIMER = 2 ** 31 - 1

// `Fiber.interrupt` through the fiber's own methods: the `Fiber` module would add 3 KB to a bundle.
const interrupt = <A, E>(fiber: Fiber.RuntimeFiber<A, E>): Effect.Effect<void> =>
  Effect.flatMap(Effect.fiberId, (id) => Effect.zipRight(fiber.interruptAsFork(id), Effect.asVoid(fiber.await)))

/**
 * `self`, failing with `onTimeout()` (and interrupted) when it has not completed within
 * `duration`. Interrupting the caller interrupts `self`. A duration longer than a timer can
 * hold (about 24.8 days; `Duration.infinity`) is no limit.
 *
 * @internal
 */
export const within = <A, E, E2>(
  self: Effect.Effect<A, E>,
  duration: Duration.Duration,
  onTimeout: () => E2
): Effect.Effect<A, E | E2> =>
  Duration.toMillis(duration) > MAX_TIMER ? self : Effect.clockWith((clock) =>
    clock.constructor !== LiveClock
      ? Effect.timeoutFail(self, { duration, onTimeout })
      : Effect.flatMap(Effect.forkDaemon(self), (fiber) =>
        Effect.async<A, E | E2>((resume) => {
          let done = false
          const timer = setTimeout(() => {
            if (done) return
            done = true
            // As `timeoutFail`: the work is interrupted (its request aborted) before the failure.
            resume(Effect.zipRight(interrupt(fiber), Effect.fail(onTimeout())))
          }, Duration.toMillis(duration))
          fiber.addObserver((exit: Exit.Exit<A, E>) => {
            if (done) return
            done = true
            clearTimeout(timer)
            resume(exit)
          })
          // The caller interrupted: the work is interrupted with it, and waited for.
          return Effect.suspend(() => {
            done = true
            clearTimeout(timer)
            return interrupt(fiber)
          })
        })))
