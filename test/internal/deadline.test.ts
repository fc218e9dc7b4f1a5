import { describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Exit, Fiber, FiberRef } from "effect"
import { timeoutFail } from "../../src/internal/deadline.js"

// The native-timer path runs only under the live Clock: these tests use it.live.
describe("deadline.timeoutFail under the live Clock", () => {
  it.live("a result within the deadline is returned, FiberRef changes included", () =>
    Effect.gen(function*() {
      const ref = FiberRef.unsafeMake(0)
      const value = yield* timeoutFail(Effect.as(Effect.zipRight(Effect.sleep("5 millis"), FiberRef.set(ref, 7)), "ok"), Duration.seconds(5), () => "late")
      expect(value).toBe("ok")
      expect(yield* FiberRef.get(ref)).toBe(7)
      const failure = yield* Effect.flip(timeoutFail(Effect.fail("boom"), Duration.seconds(5), () => "late"))
      expect(failure).toBe("boom")
    }))

  it.live("past the deadline: the effect is interrupted (its finalizer has run) and onTimeout is the failure", () =>
    Effect.gen(function*() {
      const finalized = yield* Deferred.make<void>()
      const slow = Effect.onInterrupt(Effect.never, () => Deferred.succeed(finalized, undefined))
      const exit = yield* Effect.exit(timeoutFail(slow, Duration.millis(20), () => "late"))
      expect(exit).toStrictEqual(Exit.fail("late"))
      expect(yield* Deferred.isDone(finalized)).toBe(true)
    }))

  it.live("interrupting the caller interrupts the effect", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const finalized = yield* Deferred.make<void>()
      const slow = Effect.zipRight(
        Deferred.succeed(started, undefined),
        Effect.onInterrupt(Effect.never, () => Deferred.succeed(finalized, undefined))
      )
      const fiber = yield* Effect.fork(timeoutFail(slow, Duration.seconds(30), () => "late"))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      expect(yield* Deferred.isDone(finalized)).toBe(true)
    }))

  it.live("a deadline beyond the host timers' range never fires", () =>
    Effect.gen(function*() {
      const value = yield* timeoutFail(Effect.succeed(1), Duration.days(365), () => "late")
      expect(value).toBe(1)
    }))
})
