/**
 * Waiting on the TestClock while real I/O runs (loopback HTTP, a database): time moves only as
 * the test moves it, so a wait on the clock (a block, a poll) never depends on the machine's speed.
 */
import { Chunk, Clock, Duration, Effect, Fiber, Option, TestClock } from "effect"

/**
 * Runs an effect that waits on the clock to its end, moving the TestClock on by 100 ms steps and
 * letting the event loop turn between them (the requests are real I/O).
 */
export const withClockMoving = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(effect)
    while (Option.isNone(yield* Fiber.poll(fiber))) {
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
      yield* TestClock.adjust("100 millis")
    }
    return yield* Fiber.join(fiber)
  })

/**
 * Turns the event loop until a fiber waits on the TestClock for at most `within` (a schedule's
 * sleep, as opposed to a request's timeout, which is further away), or `done` holds: the moment to
 * move the clock by exactly that much, when no request is in flight to be overtaken by it.
 */
export const untilSleeping = (within: Duration.DurationInput, done: Effect.Effect<boolean> = Effect.succeed(false)) =>
  Effect.gen(function*() {
    const limit = Duration.toMillis(within)
    while (!(yield* done)) {
      const now = yield* Clock.currentTimeMillis
      const sleeps = yield* TestClock.sleeps()
      if (Chunk.some(sleeps, (deadline) => deadline > now && deadline - now <= limit)) return
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
    }
  })
