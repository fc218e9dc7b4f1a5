import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Layer, Logger, Redacted, Stream, Tracer } from "effect"
import { createServer } from "node:net"
import * as util from "node:util"
import { WalletClient, type WalletError } from "../src/index.js"
import { base64Credentials, basic, options, secret, testClient, withClient } from "./support/client.js"
import { accountJson } from "./support/fakeWallet.js"
import { type Answer, json } from "./support/recordingClient.js"

const forbidden = [secret, base64Credentials, basic, Buffer.from(secret).toString("base64")]

const assertClean = (label: string, text: string) => {
  for (const s of forbidden) {
    if (text.includes(s)) throw new Error(`${label} leaks a secret: ${text.slice(0, 300)}`)
  }
}

/** Every rendering of a value a user might print. */
const renderings = (value: unknown): Array<[string, string]> => [
  ["String", String(value)],
  ["util.inspect", util.inspect(value, { depth: 10, showHidden: true })],
  ["JSON.stringify", JSON.stringify(value) ?? ""],
  ["Cause.pretty", Cause.pretty(Cause.fail(value))]
]

const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })

const answers: Array<[string, () => Answer]> = [
  ["Unauthorized", () => json(401, { code: 1010009, message: "credential does not match" })],
  ["AccountNotFound", () => json(400, { code: 1061010, message: "data don't exist" })],
  ["InvalidRequest", () => json(400, { code: 1061615, message: "its value is out of range; size" })],
  ["RateLimited", () => json(429, { code: 1, message: "slow" }, { "retry-after": "1" })],
  ["ServerError", () => new Response("<html>proxy error</html>", { status: 502 })],
  ["TransportError", () => ({ fail: "ECONNREFUSED" })],
  ["ResponseDecodeError", () => json(200, { address: "nope" })]
]

describe("secrets never leak", () => {
  it.effect("no error kind shows the secret in String, util.inspect, JSON.stringify, Cause.pretty or Effect.log", () =>
    Effect.gen(function*() {
      const errors: Array<WalletError.WalletError> = []
      for (const [tag, answer] of answers) {
        const test = testClient(answer, { retry: false })
        const error = yield* Effect.flip(withClient(test, WalletClient.getAccount(accountJson(0).address)))
        expect(error._tag).toBe(tag)
        errors.push(error)
        // the request did carry the credentials: the check below is meaningful
        expect(test.requests[0]!.headers["authorization"]).toBe(basic)
      }
      const invalid = yield* Effect.flip(withClient(testClient(() => json(200, {})), WalletClient.getAccount("0x1")))
      errors.push(invalid)
      const repeated = yield* Effect.flip(withClient(
        testClient(() => json(200, { items: [], cursor: "same" })),
        WalletClient.accounts({ cursor: "same" }).pipe(Stream.runDrain)
      ))
      expect(repeated._tag).toBe("RepeatedCursor")
      errors.push(repeated)
      expect(new Set(errors.map((e) => e._tag)).size).toBe(9)

      const logs: Array<string> = []
      const logger = Logger.make(({ message }) => logs.push(util.inspect(message, { depth: 10 })))
      for (const error of errors) {
        for (const [how, text] of renderings(error)) assertClean(`${error._tag} via ${how}`, text)
        yield* Effect.logError("failed", error).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
        yield* Effect.logError(Cause.fail(error)).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
      }
      expect(logs.length).toBe(errors.length * 2)
      for (const line of logs) assertClean("Effect.log", line)
      // and the default logger format
      const formatted: Array<string> = []
      const stringLogger = Logger.map(Logger.logfmtLogger, (line) => formatted.push(line))
      for (const error of errors) {
        yield* Effect.logError("failed", error).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, stringLogger)))
      }
      for (const line of formatted) assertClean("logfmt", line)
    }))

  it.live("a real connection failure (fetch over loopback) maps to a TransportError without the request", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(closedPort)
      const layer = WalletClient.layer(options({ baseUrl: `http://127.0.0.1:${port}`, retry: false })).pipe(
        Layer.provide(FetchHttpClient.layer),
        Layer.orDie
      )
      const error = yield* Effect.flip(Effect.provide(WalletClient.getAccount(accountJson(0).address), layer))
      expect(error._tag).toBe("TransportError")
      expect((error as WalletError.TransportError).reason).toBe("Connect")
      for (const [how, text] of renderings(error)) assertClean(`real TransportError via ${how}`, text)
    }))

  it.effect("spans carry chain, pool and page size, never a secret", () => {
    const spans: Array<{ readonly name: string; readonly attributes: Map<string, unknown> }> = []
    const tracer = Tracer.make({
      span: (name, parent, context, links, startTime, kind) => {
        const attributes = new Map<string, unknown>()
        spans.push({ name, attributes })
        const span: Tracer.Span = {
          _tag: "Span",
          name,
          spanId: `span-${spans.length}`,
          traceId: "trace",
          parent,
          context,
          status: { _tag: "Started", startTime },
          attributes,
          links,
          sampled: true,
          kind,
          end: () => {},
          attribute: (key, value) => {
            attributes.set(key, value)
          },
          event: () => {},
          addLinks: () => {}
        }
        return span
      },
      context: (f) => f()
    })
    return Effect.gen(function*() {
      const test = testClient((r) =>
        r.method === "POST" ? json(200, accountJson(0)) :
          r.url.pathname === "/v2/account" ? json(200, { items: [accountJson(0)], cursor: "" }) :
          json(401, { code: 1010009, message: "x" }), { httpSpans: true })
      yield* withClient(test, WalletClient.createAccount())
      yield* withClient(test, WalletClient.listAccounts({ pageSize: 7 }))
      yield* Effect.exit(withClient(test, WalletClient.getAccount(accountJson(0).address)))
      yield* withClient(test, WalletClient.accounts({ pageSize: 7 }).pipe(Stream.runDrain))
      const names = spans.map((s) => s.name)
      expect(names).toContain("WalletClient.createAccount")
      expect(names).toContain("WalletClient.listAccounts")
      expect(names).toContain("WalletClient.getAccount")
      const list = spans.find((s) => s.name === "WalletClient.listAccounts")!
      expect(list.attributes.get("kas.chain_id")).toBe(1001)
      expect(list.attributes.get("kas.pool")).toBe("default")
      expect(list.attributes.get("kas.page_size")).toBe(7)
      expect(list.attributes.get("http.request.method")).toBe("GET")
      expect(list.attributes.get("url.path")).toBe("/v2/account?size=7")
      expect(list.attributes.get("http.response.status_code")).toBe(200)
      // the platform's HTTP spans are there too, with the (redacted) request headers
      const http = spans.filter((s) => s.name.startsWith("http.client"))
      expect(http.length).toBeGreaterThan(0)
      expect(http.some((s) => s.attributes.has("http.request.header.authorization"))).toBe(true)
      for (const span of spans) {
        for (const [key, value] of span.attributes) assertClean(`span ${span.name} attribute ${key}`, String(value))
      }
      // without httpSpans, only the operation spans
      spans.length = 0
      yield* withClient(testClient(() => json(200, accountJson(0))), WalletClient.createAccount())
      expect(spans.map((s) => s.name)).toEqual(["WalletClient.createAccount"])
    }).pipe(Effect.withTracer(tracer))
  })

  it.effect("options and the service print without the secret", () =>
    Effect.gen(function*() {
      const opts = options({ credentials: { authorization: Redacted.make(basic) } })
      for (const [how, text] of renderings(opts)) assertClean(`options via ${how}`, text)
      for (const [how, text] of renderings(options())) assertClean(`options via ${how}`, text)
      const service = yield* Effect.provide(WalletClient.WalletClient, testClient(() => json(200, {})).client)
      for (const [how, text] of renderings(service)) assertClean(`service via ${how}`, text)
    }))
})
