import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option, Random, TestClock } from "effect"
import { WalletClient, type WalletConfig, type WalletError } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { accountJson } from "./support/fakeWallet.js"
import { type Answer, json } from "./support/recordingClient.js"

const address = accountJson(0).address
const ok = () => json(200, accountJson(0))

/** Answers in sequence, repeating the last answer. */
const sequence = (...answers: Array<() => Answer | Effect.Effect<Answer>>) => {
  let i = 0
  return () => answers[Math.min(i++, answers.length - 1)]!()
}

describe("WalletClient retries and timeouts", () => {
  it.effect("GETs are retried on 5xx: 3 attempts in all, then the error", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(503, { code: 1, message: "unavailable" }))
      const fiber = yield* Effect.fork(Effect.flip(withClient(test, WalletClient.getAccount(address))))
      yield* TestClock.adjust("1 minute")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("ServerError")
      expect(test.requests).toHaveLength(3)
    }))

  it.effect("GETs are retried on 408, 429, 500 and transport errors until one succeeds", () =>
    Effect.gen(function*() {
      for (const failure of [
        () => json(408, { code: 1, message: "timeout" }),
        () => json(429, { code: 1, message: "slow" }),
        () => json(500, { code: 1, message: "oops" }),
        (): Answer => ({ fail: "ECONNRESET" })
      ]) {
        const test = testClient(sequence(failure, failure, ok))
        const fiber = yield* Effect.fork(withClient(test, WalletClient.getAccount(address)))
        yield* TestClock.adjust("1 minute")
        const account = yield* Fiber.join(fiber)
        expect(account.address).toBe(address)
        expect(test.requests).toHaveLength(3)
      }
    }))

  it.effect("other 4xx are not retried", () =>
    Effect.gen(function*() {
      for (const status of [400, 401, 403, 404]) {
        const test = testClient(() => json(status, { code: 1061010, message: "x" }))
        yield* Effect.flip(withClient(test, WalletClient.getAccount(address)))
        expect(test.requests).toHaveLength(1)
      }
    }))

  it.effect("Retry-After is honoured, and clamped to maxRetryAfter", () =>
    Effect.gen(function*() {
      const test = testClient(sequence(() => json(429, { code: 1, message: "slow" }, { "retry-after": "10" }), ok))
      const fiber = yield* Effect.fork(withClient(test, WalletClient.getAccount(address)))
      yield* TestClock.adjust("9999 millis")
      expect(test.requests).toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      expect(test.requests).toHaveLength(2)

      const clamped = testClient(sequence(() => json(429, { code: 1, message: "slow" }, { "retry-after": "3600" }), ok), {
        retry: { maxRetryAfter: "5 seconds" }
      })
      const second = yield* Effect.fork(withClient(clamped, WalletClient.getAccount(address)))
      yield* TestClock.adjust("4 seconds")
      expect(clamped.requests).toHaveLength(1)
      yield* TestClock.adjust("1 seconds")
      yield* Fiber.join(second)
      expect(clamped.requests).toHaveLength(2)
    }))

  it.effect("a Retry-After date in the past means now: the error carries 0 ms, and the retry does not wait", () =>
    Effect.gen(function*() {
      // The TestClock starts at 1970: a date of 1960 is 10 years in its past.
      const past = new Date(Date.UTC(1960, 0, 1)).toUTCString()
      const limited = testClient(() => json(429, { code: 1, message: "slow" }, { "retry-after": past }), { retry: false })
      const error = yield* Effect.flip(withClient(limited, WalletClient.getAccount(address)))
      expect(error._tag === "RateLimited" && error.retryAfterMillis).toBe(0)

      const retried = testClient(sequence(() => json(429, { code: 1, message: "slow" }, { "retry-after": past }), ok))
      yield* withClient(retried, WalletClient.getAccount(address))
      expect(retried.requests).toHaveLength(2)
    }))

  it.effect("backoff waits r·min(maxDelay, baseDelay·2ⁿ⁻¹) for a uniform r (full jitter)", () =>
    Effect.gen(function*() {
      const fail = () => json(500, { code: 1, message: "x" })
      // A fixed Random makes the jittered waits exact: 0.75 of each cap.
      const waits = (retry: Partial<WalletConfig.RetryPolicy>, first: number, second: number) =>
        Effect.gen(function*() {
          const test = testClient(sequence(fail, fail, ok), { retry })
          const fiber = yield* Effect.fork(
            withClient(test, WalletClient.getAccount(address)).pipe(Effect.withRandom(Random.fixed([0.75])))
          )
          yield* TestClock.adjust(first - 1)
          expect(test.requests).toHaveLength(1)
          yield* TestClock.adjust(1)
          expect(test.requests).toHaveLength(2)
          yield* TestClock.adjust(second - 1)
          expect(test.requests).toHaveLength(2)
          yield* TestClock.adjust(1)
          expect(test.requests).toHaveLength(3)
          yield* Fiber.join(fiber)
        })
      yield* waits({ baseDelay: "1 second", maxDelay: "1 minute" }, 750, 1500)
      // maxDelay caps the second step: min(1200, 2000) · 0.75
      yield* waits({ baseDelay: "1 second", maxDelay: "1200 millis" }, 750, 900)
    }))

  it.effect("createAccount (POST) is not retried once the request may have reached the service", () =>
    Effect.gen(function*() {
      for (const failure of [
        () => json(500, { code: 1, message: "x" }),
        () => json(503, { code: 1, message: "x" }),
        () => json(429, { code: 1, message: "x" }, { "retry-after": "1" }),
        (): Answer => ({ fail: "ECONNRESET" })
      ]) {
        const test = testClient(failure)
        const fiber = yield* Effect.fork(Effect.flip(withClient(test, WalletClient.createAccount())))
        yield* TestClock.adjust("1 minute")
        yield* Fiber.join(fiber)
        expect(test.requests).toHaveLength(1)
      }
    }))

  it.effect("createAccount is retried when the connection could not be made at all", () =>
    Effect.gen(function*() {
      const test = testClient(sequence((): Answer => ({ fail: "ECONNREFUSED" }), ok))
      const fiber = yield* Effect.fork(withClient(test, WalletClient.createAccount()))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      expect(test.requests).toHaveLength(2)
    }))

  it.effect("a request without a response within the timeout fails with TransportError Timeout (GET retried, POST not)", () =>
    Effect.gen(function*() {
      const get = testClient(() => Effect.never, { timeout: "2 seconds" })
      const fiber = yield* Effect.fork(Effect.flip(withClient(get, WalletClient.getAccount(address))))
      yield* TestClock.adjust("1 minute")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("TransportError")
      expect((error as WalletError.TransportError).reason).toBe("Timeout")
      expect(get.requests).toHaveLength(3)
      const post = testClient(() => Effect.never, { timeout: "2 seconds" })
      const postFiber = yield* Effect.fork(Effect.flip(withClient(post, WalletClient.createAccount())))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(postFiber)
      expect(post.requests).toHaveLength(1)
    }))

  it.effect("retry: false and maxAttempts change the policy", () =>
    Effect.gen(function*() {
      const none = testClient(() => json(500, { code: 1, message: "x" }), { retry: false })
      yield* Effect.flip(withClient(none, WalletClient.getAccount(address)))
      expect(none.requests).toHaveLength(1)
      const five = testClient(() => json(500, { code: 1, message: "x" }), { retry: { maxAttempts: 5 } })
      const fiber = yield* Effect.fork(Effect.flip(withClient(five, WalletClient.getAccount(address))))
      yield* TestClock.adjust("5 minutes")
      yield* Fiber.join(fiber)
      expect(five.requests).toHaveLength(5)
    }))
})

describe("one deadline per call, a shorter first attempt for reads", () => {
  /** Whether `fiber` has ended. */
  const ended = <A, E>(fiber: Fiber.RuntimeFiber<A, E>) => Effect.map(Fiber.poll(fiber), Option.isSome)
  const descriptionOf = (error: WalletError.WalletError) => {
    expect(error._tag).toBe("TransportError")
    expect((error as WalletError.TransportError).reason).toBe("Timeout")
    return (error as WalletError.TransportError).description
  }
  // A fixed Random makes each backoff exact: half its cap (100 ms before the second attempt).
  const halfJitter = Random.fixed([0.5])

  it.effect("defaults, against a silent server: a read's first attempt ends at 10 s, the second at the 30 s deadline", () =>
    Effect.gen(function*() {
      const test = testClient(() => Effect.never)
      const fiber = yield* Effect.fork(Effect.flip(withClient(test, WalletClient.getAccount(address))).pipe(Effect.withRandom(halfJitter)))
      yield* TestClock.adjust(9_999)
      expect(test.requests).toHaveLength(1)
      // 10 s: the first attempt's timeout; 100 ms of backoff; the second attempt has the 19.9 s left.
      yield* TestClock.adjust(101)
      expect(test.requests).toHaveLength(2)
      yield* TestClock.adjust(19_899)
      expect(yield* ended(fiber)).toBe(false)
      yield* TestClock.adjust(1)
      const description = descriptionOf(yield* Fiber.join(fiber))
      expect(description).toBe(
        "getAccount: no complete response within 30s, the deadline of the whole call (attempts and the waits between them); attempt 2 of 3 was stopped after 19s 900ms"
      )
      expect(test.requests).toHaveLength(2)
    }))

  it.effect("the first attempt's timeout is named when it is what stopped the last attempt", () =>
    Effect.gen(function*() {
      const test = testClient(() => Effect.never, { retry: false })
      const fiber = yield* Effect.fork(Effect.flip(withClient(test, WalletClient.getAccount(address))))
      yield* TestClock.adjust("10 seconds")
      expect(descriptionOf(yield* Fiber.join(fiber))).toBe(
        "getAccount: no complete response within 10s, the timeout of a read's first attempt (attempt 1 of 1)"
      )
    }))

  it.effect("a slow service still answers a read: the attempts after the first have the whole timeout, within the deadline", () =>
    Effect.gen(function*() {
      const slow = () => Effect.as(Effect.sleep("15 seconds"), ok())
      const test = testClient(sequence(() => Effect.never, slow))
      const fiber = yield* Effect.fork(withClient(test, WalletClient.getAccount(address)).pipe(Effect.withRandom(halfJitter)))
      yield* TestClock.adjust(10_100 + 14_999)
      expect(yield* ended(fiber)).toBe(false)
      yield* TestClock.adjust(1)
      expect((yield* Fiber.join(fiber)).address).toBe(address)
      expect(test.requests).toHaveLength(2)
    }))

  it.effect("a write's attempt keeps the whole timeout (30 s), and is not tried again", () =>
    Effect.gen(function*() {
      const test = testClient(() => Effect.never)
      const fiber = yield* Effect.fork(Effect.flip(withClient(test, WalletClient.createAccount())))
      yield* TestClock.adjust(29_999)
      expect(yield* ended(fiber)).toBe(false)
      yield* TestClock.adjust(1)
      expect(descriptionOf(yield* Fiber.join(fiber))).toBe("createAccount: no complete response within 30s, the timeout of one attempt (attempt 1)")
      expect(test.requests).toHaveLength(1)
    }))

  it.effect("deadline, timeout and firstAttemptTimeout are the layer's options", () =>
    Effect.gen(function*() {
      const short = testClient(() => Effect.never, { deadline: "5 seconds" })
      const read = yield* Effect.fork(Effect.flip(withClient(short, WalletClient.getAccount(address))))
      yield* TestClock.adjust(4_999)
      expect(yield* ended(read)).toBe(false)
      yield* TestClock.adjust(1)
      expect(descriptionOf(yield* Fiber.join(read))).toBe(
        "getAccount: no complete response within 5s, the deadline of the whole call (attempts and the waits between them); attempt 1 of 3 was stopped after 5s"
      )
      expect(short.requests).toHaveLength(1)
      // A write's attempt is cut at the deadline too.
      const write = yield* Effect.fork(Effect.flip(withClient(short, WalletClient.createAccount())))
      yield* TestClock.adjust("5 seconds")
      expect(descriptionOf(yield* Fiber.join(write))).toMatch(/^createAccount: no complete response within 5s, the deadline .*attempt 1 was stopped after 5s$/)

      // Three attempts of 1 s, 2 s and 2 s, with 100 and 200 ms of backoff: 5.3 s in all.
      const chosen = testClient(() => Effect.never, { firstAttemptTimeout: "1 second", timeout: "2 seconds", deadline: "1 minute" })
      const tried = yield* Effect.fork(Effect.flip(withClient(chosen, WalletClient.getAccount(address))).pipe(Effect.withRandom(halfJitter)))
      yield* TestClock.adjust(1_100)
      expect(chosen.requests).toHaveLength(2)
      yield* TestClock.adjust(2_200)
      expect(chosen.requests).toHaveLength(3)
      yield* TestClock.adjust(1_999)
      expect(yield* ended(tried)).toBe(false)
      yield* TestClock.adjust(1)
      expect(descriptionOf(yield* Fiber.join(tried))).toBe("getAccount: no complete response within 2s, the timeout of one attempt (attempt 3 of 3)")
    }))

  it.effect("a wait that would end past the deadline is not begun: the last error is the call's, at once", () =>
    Effect.gen(function*() {
      const limited = testClient(() => json(429, { code: 1, message: "slow" }, { "retry-after": "10" }), { deadline: "5 seconds" })
      const error = yield* Effect.flip(withClient(limited, WalletClient.getAccount(address)))
      expect(error._tag === "RateLimited" && error.retryAfterMillis).toBe(10_000)
      expect(limited.requests).toHaveLength(1)
      // Within the deadline, the same wait is made.
      const waited = testClient(sequence(() => json(429, { code: 1, message: "slow" }, { "retry-after": "10" }), ok), { deadline: "11 seconds" })
      const fiber = yield* Effect.fork(withClient(waited, WalletClient.getAccount(address)))
      yield* TestClock.adjust("10 seconds")
      expect((yield* Fiber.join(fiber)).address).toBe(address)
      expect(waited.requests).toHaveLength(2)
    }))
})

describe("the timeout on the live clock (a plain timer, one forked fiber)", () => {
  // An attempt's timeout, long and unusual: its timer is the only one of this length.
  const timeout = 12_345

  /** A timer held by `withHeldTimers`: it runs only when the test fires it. */
  interface Held {
    readonly callback: () => void
    cleared: boolean
  }

  /**
   * Runs `f` with the runtime's timers of `millis` held rather than started: the test fires each
   * when it chooses and sees whether it was cleared, so no real time decides the outcome. Other
   * timers run as usual.
   */
  const withHeldTimers = <A, E, R>(millis: number, f: (held: ReadonlyArray<Held>) => Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => {
        const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout }
        const held: Array<Held> = []
        const handles = new Map<object, Held>()
        globalThis.setTimeout = ((callback: () => void, ms?: number, ...args: Array<unknown>) => {
          if (ms !== millis) return real.setTimeout(callback, ms, ...args)
          const timer: Held = { callback, cleared: false }
          const handle = {}
          held.push(timer)
          handles.set(handle, timer)
          return handle
        }) as typeof setTimeout
        globalThis.clearTimeout = ((handle: unknown) => {
          const timer = typeof handle === "object" && handle !== null ? handles.get(handle) : undefined
          if (timer !== undefined) timer.cleared = true
          else real.clearTimeout(handle as Parameters<typeof clearTimeout>[0])
        }) as typeof clearTimeout
        return { real, held }
      }),
      ({ held }) => f(held),
      ({ real }) =>
        Effect.sync(() => {
          globalThis.setTimeout = real.setTimeout
          globalThis.clearTimeout = real.clearTimeout
        })
    )

  /** A request that never gets an answer: it signals its arrival and counts its interruption. */
  const hanging = (arrived: Deferred.Deferred<void>, interrupted: { count: number }) => () =>
    Effect.onInterrupt(Effect.zipRight(Deferred.succeed(arrived, undefined), Effect.never), () => Effect.sync(() => interrupted.count++))

  it.live("an attempt without an answer fails with TransportError Timeout, its request interrupted first", () =>
    withHeldTimers(timeout, (held) =>
      Effect.gen(function*() {
        const arrived = yield* Deferred.make<void>()
        const interrupted = { count: 0 }
        const test = testClient(hanging(arrived, interrupted), { timeout: `${timeout} millis`, retry: false })
        const fiber = yield* Effect.fork(Effect.flip(withClient(test, WalletClient.getAccount(address))))
        yield* Deferred.await(arrived)
        // The attempt's deadline is one plain timer, set when the attempt began, still pending.
        expect(held.map((timer) => timer.cleared)).toEqual([false])
        held[0]!.callback()
        const error = yield* Fiber.join(fiber)
        expect(error._tag).toBe("TransportError")
        expect((error as WalletError.TransportError).reason).toBe("Timeout")
        expect(interrupted.count).toBe(1)
      })))

  it.live("an attempt cut short by the call's deadline: its timer is the time left, and the call ends with it, not tried again", () =>
    withHeldTimers(timeout, (held) =>
      Effect.gen(function*() {
        const arrived = yield* Deferred.make<void>()
        const interrupted = { count: 0 }
        const test = testClient(hanging(arrived, interrupted), { timeout: "1 minute", deadline: `${timeout} millis` })
        const fiber = yield* Effect.fork(Effect.flip(withClient(test, WalletClient.getAccount(address))))
        yield* Deferred.await(arrived)
        expect(held.map((timer) => timer.cleared)).toEqual([false])
        // Fired at once: the live clock has not moved, yet the deadline is spent.
        held[0]!.callback()
        const error = yield* Fiber.join(fiber)
        expect(error._tag === "TransportError" && error.description).toMatch(/^getAccount: no complete response within 12s 345ms, the deadline of the whole call/)
        expect(interrupted.count).toBe(1)
        expect(test.requests).toHaveLength(1)
      })))

  it.live("an answer within the timeout is the result; interrupting the caller interrupts the request", () =>
    withHeldTimers(timeout, (held) =>
      Effect.gen(function*() {
        const fast = testClient(ok, { timeout: `${timeout} millis` })
        expect((yield* withClient(fast, WalletClient.getAccount(address))).address).toBe(address)
        // The answer came first: its deadline was cleared, never to fire.
        expect(held.map((timer) => timer.cleared)).toEqual([true])
        const arrived = yield* Deferred.make<void>()
        const interrupted = { count: 0 }
        const test = testClient(hanging(arrived, interrupted), { timeout: `${timeout} millis` })
        const fiber = yield* Effect.fork(withClient(test, WalletClient.getAccount(address)))
        yield* Deferred.await(arrived)
        yield* Fiber.interrupt(fiber)
        expect(interrupted.count).toBe(1)
        expect(held.map((timer) => timer.cleared)).toEqual([true, true])
      })))
})
