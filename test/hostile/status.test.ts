/**
 * Statuses the KAS API never answers with, on every transport: redirects are never followed (to
 * another origin or the same one, GET or POST), 1xx/304/600+ get an honest tag, never
 * `InvalidRequest`, and a 2xx without a body is a decode error.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { WalletClient, type WalletError } from "../../src/index.js"
import { accountJson } from "../support/fakeWallet.js"
import { testClient, withClient } from "../support/client.js"
import { withClockMoving } from "../support/clock.js"
import * as S from "./server.js"

const address = accountJson(0).address
const accountText = JSON.stringify(accountJson(0))

let server: S.Server
let elsewhere: S.Server
beforeAll(async () => {
  server = await S.start()
  elsewhere = await S.start()
  // What a followed redirect would reach: a perfectly good answer from another origin.
  elsewhere.handle((req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(
      req.method === "GET" ? accountText : JSON.stringify(accountJson(1))
    )
  )
})
afterAll(async () => {
  await server.close()
  await elsewhere.close()
})

const layerOf = (transport: S.Transport) =>
  // The default retry policy: an unexpected status must not be retried either.
  WalletClient.layer(S.options(server.url, { retry: {} })).pipe(Layer.provide(transport), Layer.orDie)

const ops = {
  "GET getAccount": WalletClient.getAccount(address),
  "POST createAccount": WalletClient.createAccount()
} as const

describe.each(S.transports)("unexpected statuses over %s", (name, transport) => {
  it.live("301/302/303/307/308 to another origin, GET and POST: UnexpectedStatus naming the Location; nothing followed", () =>
    Effect.gen(function*() {
      for (const status of [301, 302, 303, 307, 308]) {
        for (const [label, op] of Object.entries(ops)) {
          const location = `${elsewhere.url}/v2/account${label.startsWith("GET") ? `/${address}` : ""}`
          server.handle((_req, res) => res.writeHead(status, { location, "content-type": "text/html" }).end("<a>moved</a>"))
          elsewhere.seen.length = 0
          const error = yield* Effect.flip(Effect.provide(op, layerOf(transport)))
          const what = `${status} ${label}`
          expect(error._tag, what).toBe("UnexpectedStatus")
          const unexpected = error as WalletError.UnexpectedStatus
          expect(unexpected.status, what).toBe(status)
          expect(unexpected.location, what).toBe(location)
          expect(error.message, what).toContain(`redirect to ${location}, not followed`)
          expect(elsewhere.seen, `${what}: the other origin was reached`).toHaveLength(0)
          expect(server.seen, `${what}: retried or followed`).toHaveLength(1)
        }
      }
    }))

  it.live("a redirect to the same origin (a relative Location) is not followed either", () =>
    Effect.gen(function*() {
      server.handle((req, res) =>
        req.url === "/v2/account/moved"
          ? res.writeHead(200, { "content-type": "application/json" }).end(accountText)
          : res.writeHead(307, { location: "/v2/account/moved" }).end()
      )
      const error = yield* Effect.flip(Effect.provide(WalletClient.getAccount(address), layerOf(transport)))
      expect(error._tag).toBe("UnexpectedStatus")
      expect((error as WalletError.UnexpectedStatus).location).toBe("/v2/account/moved")
      expect(server.seen.map((s) => s.url)).toEqual([`/v2/account/${address}`])
    }))

  it.live("an informational 103 Early Hints before the final response is fine", () =>
    Effect.gen(function*() {
      server.handle((_req, res) =>
        void S.raw(
          res,
          "HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\n" +
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${accountText.length}\r\n\r\n${accountText}`
        )
      )
      const account = yield* Effect.provide(WalletClient.getAccount(address), layerOf(transport))
      expect(account.address).toBe(address)
    }))

  // Undici's refusal is a network error, which the default policy retries after its backoff: on
  // the TestClock, moved on as the requests (real I/O) are answered, rather than waited for.
  it.effect("an unsolicited 100 Continue: node:http skips it, undici (fetch's engine too) refuses the response", () =>
    Effect.gen(function*() {
      server.handle((_req, res) =>
        void S.raw(
          res,
          "HTTP/1.1 100 Continue\r\n\r\n" +
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${accountText.length}\r\n\r\n${accountText}`
        )
      )
      const exit = yield* withClockMoving(Effect.either(Effect.provide(WalletClient.getAccount(address), layerOf(transport))))
      if (name === "node") {
        expect(exit._tag).toBe("Right")
      } else {
        expect(exit._tag === "Left" && exit.left._tag === "TransportError" && exit.left.reason === "Network").toBe(true)
      }
    }))

  // As above: undici's refusal is retried, on the TestClock. A hang would end in the client's
  // timeout on that clock (a TransportError Timeout), not pass.
  it.effect("a final 101 (no upgrade was asked): an honest tag, never InvalidRequest, no hang", () =>
    Effect.gen(function*() {
      server.handle((_req, res) => void S.raw(res, "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n", false))
      const error = yield* withClockMoving(Effect.flip(Effect.provide(WalletClient.getAccount(address), layerOf(transport))))
      // node:http hands the 101 over as a response; undici (fetch's engine too) refuses the upgrade.
      if (name === "node") {
        expect(error._tag).toBe("UnexpectedStatus")
        expect((error as WalletError.UnexpectedStatus).status).toBe(101)
        expect(error.message).toContain("a status the KAS API never answers with")
      } else {
        expect(error._tag).toBe("TransportError")
        expect((error as WalletError.TransportError).reason).toBe("Network")
      }
    }))

  it.live("304, 600 and 999 (raw status lines): UnexpectedStatus, not retried", () =>
    Effect.gen(function*() {
      for (const [status, message] of [[304, "not modified"], [600, "never answers with"], [999, "never answers with"]] as const) {
        server.handle((_req, res) =>
          // A 304 has no body (bytes after it would be a protocol error); node:http refuses to send
          // a status above 599.
          status === 304
            ? res.writeHead(304, { etag: "\"x\"" }).end()
            : void S.raw(res, `HTTP/1.1 ${status} Whatever\r\ncontent-length: 2\r\n\r\n{}`)
        )
        const error = yield* Effect.flip(Effect.provide(WalletClient.getAccount(address), layerOf(transport)))
        expect(error._tag, String(status)).toBe("UnexpectedStatus")
        expect((error as WalletError.UnexpectedStatus).status).toBe(status)
        expect(error.message).toContain(message)
        expect(server.seen).toHaveLength(1)
      }
    }))

  it.live("204 and 205 to a GET or a POST: ResponseDecodeError (an account was expected)", () =>
    Effect.gen(function*() {
      for (const status of [204, 205]) {
        for (const [label, op] of Object.entries(ops)) {
          server.handle((_req, res) => res.writeHead(status).end())
          const error = yield* Effect.flip(Effect.provide(op, layerOf(transport)))
          expect(error._tag, `${status} ${label}`).toBe("ResponseDecodeError")
          expect((error as WalletError.ResponseDecodeError).status).toBe(status)
          expect(error.message).toContain("(empty body)")
        }
      }
    }))
})

describe("a browser's opaque redirect", () => {
  it.effect("status 0 (fetch with redirect: \"manual\" in a browser) is an UnexpectedStatus saying so", () =>
    Effect.gen(function*() {
      const test = testClient(() => Response.error(), { retry: false })
      const error = yield* Effect.flip(withClient(test, WalletClient.getAccount(address)))
      expect(error._tag).toBe("UnexpectedStatus")
      expect((error as WalletError.UnexpectedStatus).status).toBe(0)
      expect(error.message).toContain("an opaque redirect (the runtime hides its target), not followed")
    }))
})
