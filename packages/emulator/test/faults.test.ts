/**
 * Fault injection: off by default, reproducible from a seed, each kind as specified.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Clock, Deferred, Duration, Effect, Either, FastCheck as fc, Fiber, Layer, Option, Redacted, TestClock } from "effect"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Emulator from "../src/Emulator.js"
import type * as EmulatorConfig from "../src/EmulatorConfig.js"
import * as Faults from "../src/http/Faults.js"
import { clientLayer, expectKasErrorBody, sendEither } from "./_support.js"

const resolved = (options: Faults.Options) => Either.getOrThrow(Faults.resolve(options))

/** Outcome of one create: the status, or "drop" when the connection was closed without a response. */
const outcomes = (n: number) =>
  Effect.gen(function*() {
    const e = yield* Emulator.Emulator
    const headers = { authorization: Redacted.value(e.member.authorization), "x-chain-id": "1001" }
    const out: Array<number | "drop"> = []
    for (let i = 0; i < n; i++) {
      const reply = yield* Effect.either(sendEither("POST", `${e.url}/v2/account`, headers))
      out.push(Either.isLeft(reply) ? "drop" : reply.right.status)
    }
    return out
  })

const withEmulator = (options: EmulatorConfig.Options) =>
<A, E>(effect: Effect.Effect<A, E, Emulator.Emulator | HttpClient.HttpClient>) =>
  Effect.provide(effect, Layer.merge(Emulator.layer(options), clientLayer))

describe("Faults.decide", () => {
  // The fault of request n must not depend on the requests decided before it (concurrent requests
  // take their numbers in any order) nor on the options object: a stateful generator, advanced by
  // each call, would give other faults when asked in another order.
  it.prop(
    "is a pure function of the options and the request number: the same faults asked in any order",
    // Rates strictly between 0 and 1, where a decision depends on the draw (0 and 1 are exact, below).
    [fc.integer(), fc.integer({ min: 1, max: 99 }).map((p) => p / 100), fc.array(fc.nat(), { minLength: 2, maxLength: 40 })],
    ([seed, rate, numbers]) => {
      const options = { seed, rate, kinds: ["latency", "429", "500", "503", "drop"] as const }
      const inOrder = new Map([...numbers].sort((a, b) => a - b).map((n) => [n, Faults.decide(resolved(options), n)]))
      const again = resolved(options)
      for (const n of [...numbers].reverse()) expect(Faults.decide(again, n), `request ${n}`).toEqual(inOrder.get(n))
    }
  )

  it("faults about the chosen fraction of requests, spread over the chosen kinds", () => {
    for (const [rate, seed] of [[0.1, 1], [0.5, 2], [0.9, 3]] as const) {
      const options = resolved({ rate, seed, kinds: ["429", "503", "drop"] })
      const counts: Record<string, number> = {}
      const N = 20_000
      for (let n = 0; n < N; n++) {
        const f = Faults.decide(options, n)
        const key = Option.isNone(f) ? "none" : f.value._tag === "Status" ? String(f.value.status) : f.value._tag
        counts[key] = (counts[key] ?? 0) + 1
      }
      expect(Math.abs(1 - (counts.none ?? 0) / N - rate)).toBeLessThan(0.02)
      for (const k of ["429", "503", "Drop"]) expect(Math.abs((counts[k] ?? 0) / N - rate / 3)).toBeLessThan(0.02)
      expect(counts["500"]).toBeUndefined()
      expect(counts["Latency"]).toBeUndefined()
    }
  })

  it("different seeds give different sequences; rate 0 and rate 1 are exact", () => {
    const seq = (seed: number) => Array.from({ length: 64 }, (_, n) => Option.isSome(Faults.decide(resolved({ rate: 0.5, seed }), n)))
    expect(seq(1)).not.toEqual(seq(2))
    for (let n = 0; n < 1000; n++) {
      expect(Faults.decide(resolved({ rate: 0, seed: 9 }), n)).toEqual(Option.none())
      expect(Option.isSome(Faults.decide(resolved({ rate: 1, seed: 9 }), n))).toBe(true)
    }
  })
})

describe("fault injection over HTTP", () => {
  it.live("is off by default", () =>
    withEmulator({})(Effect.gen(function*() {
      expect((yield* outcomes(30)).every((s) => s === 200)).toBe(true)
    })))

  it.live("the same seed gives the same sequence of outcomes, matching Faults.decide", () =>
    Effect.gen(function*() {
      const faults: Faults.Options = { rate: 0.6, seed: 42, kinds: ["429", "500", "503", "drop"] }
      const first = yield* withEmulator({ faults })(outcomes(40))
      const second = yield* withEmulator({ faults })(outcomes(40))
      expect(second).toEqual(first)
      const expected = Array.from({ length: 40 }, (_, n) => {
        const f = Faults.decide(resolved(faults), n)
        return Option.isNone(f) ? 200 : f.value._tag === "Status" ? f.value.status : "drop"
      })
      expect(first).toEqual(expected)
      for (const kind of [200, 429, 500, 503, "drop"]) expect(first).toContain(kind)
      const other = yield* withEmulator({ faults: { ...faults, seed: 43 } })(outcomes(40))
      expect(other).not.toEqual(first)
    }))

  it.live("injected statuses carry a KAS body; 429 carries Retry-After; /health is never faulted", () =>
    withEmulator({ faults: { rate: 1, seed: 5, kinds: ["429"], retryAfter: 7 } })(Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const reply = yield* Effect.orDie(sendEither("GET", `${e.url}/v2/account`, { "x-chain-id": "1001" }))
      expect(reply.status).toBe(429)
      expect(reply.headers["retry-after"]).toBe("7")
      expectKasErrorBody(reply)
      expect(reply.body.code).toBe(1099429)
      const health = yield* Effect.orDie(sendEither("GET", `${e.url}/health`))
      expect(health.status).toBe(200)
      const doc = yield* Effect.orDie(sendEither("GET", `${e.url}/openapi.json`))
      expect(doc.status).toBe(200)
    })))

  it.live("500 and 503 faults carry a KAS body, on the wallet routes and the node route alike", () =>
    withEmulator({ faults: { rate: 1, seed: 5, kinds: ["500", "503"] } })(Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const headers = { authorization: Redacted.value(e.member.authorization), "x-chain-id": "1001" }
      const rpc = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "klay_blockNumber", params: [] })
      const replies = yield* Effect.forEach(Array.from({ length: 10 }), (_, i) =>
        Effect.orDie(i % 2 === 0 ? sendEither("POST", `${e.url}/v2/account`, headers) : sendEither("POST", `${e.url}/v1/klaytn`, headers, rpc)))
      for (const r of replies) {
        expect([500, 503]).toContain(r.status)
        expectKasErrorBody(r)
        expect([1099500, 1099503]).toContain(r.body.code)
      }
    })))

  it.live("a dropped connection gets no response", () =>
    withEmulator({ faults: { rate: 1, kinds: ["drop"] } })(Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const reply = yield* Effect.either(sendEither("GET", `${e.url}/v2/account`))
      expect(Either.isLeft(reply)).toBe(true)
    })))

  it.scoped("latency faults sleep the configured latency on Effect's Clock before an otherwise normal answer", () =>
    Effect.gen(function*() {
      // The emulator sleeps on the TestClock, through this clock, which tells the test that (and
      // how long) a request sleeps: the test then moves time instead of waiting for it.
      const testClock = yield* TestClock.testClock()
      const slept = yield* Deferred.make<Duration.Duration>()
      const observed: Clock.Clock = {
        [Clock.ClockTypeId]: Clock.ClockTypeId,
        unsafeCurrentTimeMillis: () => testClock.unsafeCurrentTimeMillis(),
        currentTimeMillis: testClock.currentTimeMillis,
        unsafeCurrentTimeNanos: () => testClock.unsafeCurrentTimeNanos(),
        currentTimeNanos: testClock.currentTimeNanos,
        sleep: (duration) => Effect.zipRight(Deferred.succeed(slept, duration), testClock.sleep(duration))
      }
      const e = yield* Emulator.make({ port: 0, faults: { rate: 1, kinds: ["latency"], latency: "300 millis" } }).pipe(
        Effect.withClock(observed),
        Effect.orDie
      )
      // Should an expectation fail while a request sleeps, the emulator's shutdown would wait for
      // it forever: wake every sleeper first.
      yield* Effect.addFinalizer(() => TestClock.adjust("1 hour"))
      const headers = { authorization: Redacted.value(e.member.authorization), "x-chain-id": "1001" }
      const request = yield* Effect.fork(Effect.orDie(sendEither("POST", `${e.url}/v2/account`, headers)))
      // The request sleeps before it is answered; an answer first means no latency was injected.
      const asleep = yield* Effect.raceFirst(
        Effect.map(Deferred.await(slept), Either.right),
        Effect.map(Fiber.await(request), () => Either.left("answered without a sleep"))
      )
      expect(Either.map(asleep, Duration.toMillis)).toEqual(Either.right(300))
      yield* TestClock.adjust("299 millis")
      // Still asleep, and so still unanswered, a millisecond short of the latency.
      expect(Chunk.toReadonlyArray(yield* TestClock.sleeps())).toHaveLength(1)
      expect(Option.isNone(yield* Fiber.poll(request))).toBe(true)
      yield* TestClock.adjust("1 millis")
      const reply = yield* Fiber.join(request)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    }).pipe(Effect.provide(clientLayer)))
})
