import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Stream } from "effect"
import { readFileSync } from "node:fs"
import { WalletClient, WalletError } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { accountJson } from "./support/fakeWallet.js"
import { json } from "./support/recordingClient.js"

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"))
const address = accountJson(0).address

const failWith = (response: () => Response) =>
  Effect.gen(function*() {
    const test = testClient(response, { retry: false })
    return yield* Effect.flip(withClient(test, WalletClient.getAccount(address)))
  })

describe("WalletClient errors", () => {
  it.effect("401 → Unauthorized with code, message and requestId", () =>
    Effect.gen(function*() {
      const error = yield* failWith(() => json(401, { code: 1010009, message: "credential does not match", requestId: "req-1" }))
      expect(error._tag).toBe("Unauthorized")
      const e = error as WalletError.Unauthorized
      expect([e.status, e.code, e.serviceMessage, e.requestId]).toEqual([401, 1010009, "credential does not match", "req-1"])
      expect(e.message).toContain("1010009")
      const missing = yield* failWith(() => json(401, { code: 1010008, message: "authorization header invalid" }))
      expect(missing._tag).toBe("Unauthorized")
    }))

  it.effect("400 with 1061010 → AccountNotFound (the real fixture)", () =>
    Effect.gen(function*() {
      const error = yield* failWith(() => json(400, fixture("error-account-get-400-not-your-own-account.json")))
      expect(error._tag).toBe("AccountNotFound")
      expect((error as WalletError.AccountNotFound).code).toBe(1061010)
    }))

  it.effect("other 4xx → InvalidRequest (the real out-of-range fixture, 404 unknown path)", () =>
    Effect.gen(function*() {
      const error = yield* failWith(() => json(400, fixture("error-accounts-list-400-out-of-range.json")))
      expect(error._tag).toBe("InvalidRequest")
      expect((error as WalletError.InvalidRequest).code).toBe(1061615)
      const notFound = yield* failWith(() => json(404, { code: 1010007, message: "invalid path" }))
      expect(notFound._tag).toBe("InvalidRequest")
    }))

  it.effect("429 → RateLimited with Retry-After in seconds or as an HTTP date", () =>
    Effect.gen(function*() {
      const seconds = yield* failWith(() => json(429, { code: 1, message: "slow down" }, { "retry-after": "7" }))
      expect(seconds._tag).toBe("RateLimited")
      expect((seconds as WalletError.RateLimited).retryAfterMillis).toBe(7000)
      // TestClock starts at 0: an HTTP date 12 s after the epoch is 12 s away
      const date = yield* failWith(() => json(429, { code: 1, message: "x" }, { "retry-after": new Date(12_000).toUTCString() }))
      expect((date as WalletError.RateLimited).retryAfterMillis).toBe(12_000)
      const none = yield* failWith(() => json(429, { code: 1, message: "x" }))
      expect((none as WalletError.RateLimited).retryAfterMillis).toBeUndefined()
    }))

  it.effect("5xx → ServerError; bodies that are not the KAS shape give an excerpt", () =>
    Effect.gen(function*() {
      const html = yield* failWith(() => new Response("<html><body><h1>502 Bad Gateway</h1>\n<p>nginx</p></body></html>", { status: 502 }))
      expect(html._tag).toBe("ServerError")
      const e = html as WalletError.ServerError
      expect(e.code).toBeUndefined()
      expect(e.serviceMessage).toBe("<html><body><h1>502 Bad Gateway</h1> <p>nginx</p></body></html>")
      const empty = yield* failWith(() => new Response(null, { status: 503 }))
      expect((empty as WalletError.ServerError).serviceMessage).toBe("(empty body)")
      const long = yield* failWith(() => new Response("x".repeat(5000), { status: 400 }))
      expect(long._tag).toBe("InvalidRequest")
      expect((long as WalletError.InvalidRequest).serviceMessage.length).toBeLessThanOrEqual(201)
    }))

  it.effect("a 2xx body that breaks the schema → ResponseDecodeError naming the field and the rule", () =>
    Effect.gen(function*() {
      const account = { ...accountJson(0), address: accountJson(0).address.replace(/[a-f]/, (c) => c.toUpperCase()) }
      const badChecksum = yield* failWith(() => json(200, account))
      expect(badChecksum._tag).toBe("ResponseDecodeError")
      expect((badChecksum as WalletError.ResponseDecodeError).issue).toBe("address: invalid EIP-55 checksum")
      const notJson = yield* failWith(() => new Response("{oops", { status: 200 }))
      expect((notJson as WalletError.ResponseDecodeError).issue).toMatch(/^body is not JSON/)
      const test = testClient(() => json(200, { cursor: "", items: [accountJson(0), { ...accountJson(1), chainId: 5 }] }))
      const page = yield* Effect.flip(withClient(test, WalletClient.listAccounts()))
      expect((page as WalletError.ResponseDecodeError).issue).toMatch(/^items\.1\.chainId: /)
    }))

  it.effect("transport failures → TransportError (Connect when the connection was never made)", () =>
    Effect.gen(function*() {
      const test = testClient(() => ({ fail: "ECONNREFUSED" }), { retry: false })
      const error = yield* Effect.flip(withClient(test, WalletClient.getAccount(address)))
      expect(error._tag).toBe("TransportError")
      expect((error as WalletError.TransportError).reason).toBe("Connect")
      const reset = testClient(() => ({ fail: "ECONNRESET" }), { retry: false })
      const network = yield* Effect.flip(withClient(reset, WalletClient.getAccount(address)))
      expect((network as WalletError.TransportError).reason).toBe("Network")
    }))

  it.effect("Effect.catchTag works on every tag", () =>
    Effect.gen(function*() {
      const cases: Array<[() => Response | { fail: string }, WalletError.WalletError["_tag"]]> = [
        [() => json(401, { code: 1010009, message: "x" }), "Unauthorized"],
        [() => json(400, { code: 1061010, message: "x" }), "AccountNotFound"],
        [() => json(400, { code: 1061615, message: "x" }), "InvalidRequest"],
        [() => json(429, { code: 1, message: "x" }), "RateLimited"],
        [() => json(500, { code: 1, message: "x" }), "ServerError"],
        [() => ({ fail: "ECONNREFUSED" }), "TransportError"],
        [() => json(200, { nope: true }), "ResponseDecodeError"]
      ]
      for (const [answer, tag] of cases) {
        const test = testClient(answer, { retry: false })
        const caught = yield* withClient(test, WalletClient.getAccount(address)).pipe(
          Effect.as("none"),
          Effect.catchTags({
            Unauthorized: (e) => Effect.succeed(e._tag),
            AccountNotFound: (e) => Effect.succeed(e._tag),
            InvalidRequest: (e) => Effect.succeed(e._tag),
            RateLimited: (e) => Effect.succeed(e._tag),
            ServerError: (e) => Effect.succeed(e._tag),
            TransportError: (e) => Effect.succeed(e._tag),
            ResponseDecodeError: (e) => Effect.succeed(e._tag),
            InvalidArgument: (e) => Effect.succeed(e._tag),
            RepeatedCursor: (e) => Effect.succeed(e._tag)
          })
        )
        expect(caught).toBe(tag)
      }
      const invalid = yield* withClient(testClient(() => json(200, {})), WalletClient.getAccount("nope")).pipe(
        Effect.catchTag("InvalidArgument", (e) => Effect.succeed(e.argument))
      )
      expect(invalid).toBe("address")
    }))

  it.effect("errors are WalletErrors and encode with the WalletError schema", () =>
    Effect.gen(function*() {
      const error = yield* failWith(() => json(400, { code: 1061010, message: "data don't exist" }))
      expect(WalletError.isWalletError(error)).toBe(true)
      expect(WalletError.isServiceError(error)).toBe(true)
      expect(WalletError.isWalletError(new Error("x"))).toBe(false)
      const stream = yield* withClient(
        testClient(() => json(400, { code: 1061010, message: "x" }), { retry: false }),
        WalletClient.accounts({ cursor: "abc" }).pipe(Stream.runDrain, Effect.either)
      )
      expect(Either.isLeft(stream) && (stream.left as WalletError.AccountNotFound).cursor).toBe("abc")
    }))
})
