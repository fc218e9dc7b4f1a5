/**
 * The other misbehaviours of a broken or hostile server, one compact case each on every transport,
 * so that they stay handled: Retry-After asking for years (clamped, and the retry waits at most
 * the policy's maxRetryAfter, on the TestClock), decode errors, corrupt compression, resets
 * mid-body, a body dripping slower than the timeout, 503 storms, repeated cursors.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Chunk, Deferred, Effect, Fiber, Layer, Option, Stream, TestClock } from "effect"
import { WalletClient, type WalletConfig, WalletError } from "../../src/index.js"
import { accountJson } from "../support/fakeWallet.js"
import * as S from "./server.js"

const address = accountJson(0).address
const accountText = JSON.stringify(accountJson(0))

let server: S.Server
beforeAll(async () => {
  server = await S.start()
})
afterAll(() => server.close())

const layerOf = (transport: S.Transport, extra: Partial<WalletConfig.Options> = {}) =>
  WalletClient.layer(S.options(server.url, extra)).pipe(Layer.provide(transport), Layer.orDie)

const HOUR = 3_600_000

/** Lets the event loop run (sockets, the server) once: a readiness poll, not a wait for time. */
const tick = Effect.promise(() => new Promise<void>((r) => setImmediate(r)))

/**
 * Waits for `condition`, checking it between event-loop turns (the event itself, not a time: a
 * loaded machine takes more turns, never a false failure). Gives up, with a message rather than a
 * hang, after a million turns, far more than any socket round trip takes.
 */
const eventually = <A>(condition: Effect.Effect<Option.Option<A>>, what: string): Effect.Effect<A> =>
  Effect.gen(function*() {
    for (let turn = 0; turn < 1_000_000; turn++) {
      const found = yield* condition
      if (Option.isSome(found)) return found.value
      yield* tick
    }
    return yield* Effect.die(new Error(`never happened: ${what}`))
  })

describe.each(S.transports)("a misbehaving server over %s", (_name, transport) => {
  it.effect("Retry-After of 99999999999 s or a date decades ahead: clamped to maxRetryAfter; the retry waits exactly that", () =>
    Effect.gen(function*() {
      const farDate = new Date(Date.UTC(2100, 0, 1)).toUTCString()
      for (const retryAfter of ["99999999999", farDate]) {
        server.handle((_req, res, n) =>
          n === 0
            ? res.writeHead(429, { "content-type": "application/json", "retry-after": retryAfter }).end("{\"code\":1,\"message\":\"slow down\"}")
            : res.writeHead(200, { "content-type": "application/json" }).end(accountText)
        )
        // Without retries the error carries the clamped value: the default 30 s.
        const error = yield* Effect.flip(Effect.provide(WalletClient.getAccount(address), layerOf(transport, { timeout: HOUR })))
        expect(error._tag).toBe("RateLimited")
        expect((error as WalletError.RateLimited).retryAfterMillis).toBe(30_000)
        expect(error.message).toContain("(retry after 30000 ms)")

        // With a policy, the error and the wait are clamped to its maxRetryAfter.
        server.handle((_req, res, n) =>
          n === 0
            ? res.writeHead(429, { "retry-after": retryAfter }).end()
            : res.writeHead(200, { "content-type": "application/json" }).end(accountText)
        )
        const t0 = yield* TestClock.currentTimeMillis
        // Sleeps of earlier attempts stay listed (interrupted timeouts): only a new one counts.
        const before = new Set(yield* TestClock.sleeps())
        const fiber = yield* Effect.fork(Effect.provide(
          WalletClient.getAccount(address),
          layerOf(transport, { timeout: HOUR, retry: { maxRetryAfter: "7 seconds" } })
        ))
        // The attempt's timeout sleeps until t0 + 1 h; the retry's sleep is the other one.
        const wake = yield* eventually(
          Effect.map(TestClock.sleeps(), (sleeps) => Chunk.findFirst(sleeps, (at) => !before.has(at) && at !== t0 + HOUR)),
          "the retry's sleep"
        )
        expect(wake - t0).toBe(7_000)
        yield* TestClock.adjust(6_999)
        expect(yield* Fiber.poll(fiber)).toEqual(Option.none())
        expect(server.seen).toHaveLength(1)
        yield* TestClock.adjust(1)
        const account = yield* Fiber.join(fiber)
        expect(account.address).toBe(address)
        expect(server.seen).toHaveLength(2)
      }
    }))

  it.effect("a body dripping slower than the timeout: TransportError Timeout once the timeout elapses", () =>
    Effect.gen(function*() {
      server.handle((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(accountText.length) })
        // One byte, then nothing more: the drip's next byte never comes within the timeout.
        res.write(accountText.slice(0, 1))
      })
      const headers = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(Effect.provide(
        WalletClient.getAccount(address),
        layerOf(transport, {
          timeout: "2 seconds",
          // The response's headers have arrived: from here the timeout covers the body.
          transformClient: HttpClient.tap(() => Deferred.succeed(headers, undefined))
        })
      ))
      yield* Deferred.await(headers)
      yield* TestClock.adjust(1_999)
      expect(yield* Fiber.poll(fiber)).toEqual(Option.none())
      yield* TestClock.adjust(1)
      const exit = yield* eventually(Fiber.poll(fiber), "the timeout")
      const error = yield* Effect.flip(exit)
      expect(error._tag).toBe("TransportError")
      expect((error as WalletError.TransportError).reason).toBe("Timeout")
      expect(error.message).toContain("no complete response within 2s")
    }))

  it.live("a 2xx breaking the schema: ResponseDecodeError naming the field", () =>
    Effect.gen(function*() {
      const wrong = { ...accountJson(0), address: `${address}00` }
      server.handle((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(wrong)))
      const error = yield* Effect.flip(Effect.provide(WalletClient.getAccount(address), layerOf(transport, { retry: {} })))
      expect(error._tag).toBe("ResponseDecodeError")
      expect((error as WalletError.ResponseDecodeError).issue).toMatch(/^address/)
      expect(server.seen).toHaveLength(1)
    }))

  it.live("a body that is not the gzip its Content-Encoding says: ResponseDecodeError, not retried", () =>
    Effect.gen(function*() {
      server.handle((_req, res) => res.writeHead(200, { "content-encoding": "gzip" }).end("this is not gzip"))
      const error = yield* Effect.flip(Effect.provide(WalletClient.getAccount(address), layerOf(transport, { retry: {} })))
      expect(error._tag).toBe("ResponseDecodeError")
      // fetch fails to inflate it; the Node transports never inflate, and the bytes are not JSON.
      expect((error as WalletError.ResponseDecodeError).issue).toMatch(/^(the body is not valid gzip|body is not JSON)/)
      expect(server.seen).toHaveLength(1)
    }))

  it.live("a reset mid-body: TransportError Network; a GET is retried, a POST is not", () =>
    Effect.gen(function*() {
      server.handle((_req, res) => {
        const socket = S.raw(res, `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n${accountText.slice(0, 20)}`, false)
        socket.destroy()
      })
      const layer = layerOf(transport, { retry: { baseDelay: 0 } })
      const get = yield* Effect.flip(Effect.provide(WalletClient.getAccount(address), layer))
      expect(get._tag).toBe("TransportError")
      expect((get as WalletError.TransportError).reason).toBe("Network")
      expect(server.seen).toHaveLength(3)
      server.seen.length = 0
      const post = yield* Effect.flip(Effect.provide(WalletClient.createAccount(), layer))
      expect(post._tag).toBe("TransportError")
      expect(server.seen).toHaveLength(1)
    }))

  it.live("a 503 storm: ServerError after maxAttempts requests", () =>
    Effect.gen(function*() {
      server.handle((_req, res) => res.writeHead(503, { "content-type": "text/html" }).end("<h1>Service Unavailable</h1>"))
      const error = yield* Effect.flip(Effect.provide(WalletClient.getAccount(address), layerOf(transport, { retry: { baseDelay: 0, maxAttempts: 4 } })))
      expect(error._tag).toBe("ServerError")
      expect((error as WalletError.ServerError).serviceMessage).toBe("<h1>Service Unavailable</h1>")
      expect(server.seen).toHaveLength(4)
    }))

  it.live("a cursor returned again: RepeatedCursor after the page that repeats it, no endless listing", () =>
    Effect.gen(function*() {
      server.handle((_req, res) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ items: [accountJson(0)], cursor: "again" }))
      )
      const error = yield* Effect.flip(Effect.provide(Stream.runDrain(WalletClient.accounts()), layerOf(transport)))
      expect(error._tag).toBe("RepeatedCursor")
      expect(error).toBeInstanceOf(WalletError.RepeatedCursor)
      expect((error as WalletError.RepeatedCursor).cursor).toBe("again")
      expect(server.seen.map((s) => s.url)).toEqual(["/v2/account", "/v2/account?cursor=again"])
    }))
})
