/**
 * Reflected credentials: a server echoes what it received in the Authorization header (the Basic
 * value, base64(id:secret), the secret, in URL, form or JSON spellings) into every place of a
 * response the client reads. Whatever the transport, nothing of it reaches an error (String,
 * message, JSON, util.inspect, Cause.pretty), a returned value, a span attribute or event, a log
 * line, or a request the client sends next. (Through the CLI: packages/cli/test/secrets.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, FastCheck as fc, Layer, ManagedRuntime, Stream } from "effect"
import type * as http from "node:http"
import { WalletClient } from "../../src/index.js"
import { accountJson } from "../support/fakeWallet.js"
import { assertNoSecret, findSecret, observe } from "./observe.js"
import * as S from "./server.js"

const address = accountJson(0).address

/** The forms of the credentials a server can derive from the Authorization header it received. */
const forms = {
  basic: (h: string) => h,
  base64: (h: string) => h.slice("Basic ".length),
  secret: (h: string) => secretOf(h),
  "secret, URL-encoded": (h: string) => encodeURIComponent(secretOf(h)),
  "secret, URL-encoded lower-case": (h: string) => encodeURIComponent(secretOf(h)).replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase()),
  "secret, form-encoded": (h: string) => new URLSearchParams({ s: secretOf(h) }).toString().slice(2),
  "base64, URL-encoded": (h: string) => encodeURIComponent(h.slice("Basic ".length)),
  "secret, JSON \\u-escaped": (h: string) => [...secretOf(h)].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")
} as const
type Form = keyof typeof forms

const secretOf = (header: string): string => {
  const decoded = Buffer.from(header.slice("Basic ".length), "base64").toString()
  return decoded.slice(decoded.indexOf(":") + 1)
}

type Op = "get" | "create" | "list"

/** The body a well-behaved server would send to this request. */
const goodBody = (req: http.IncomingMessage): object =>
  req.method === "GET" && (req.url === "/v2/account" || req.url?.startsWith("/v2/account?") === true)
    ? { items: [accountJson(0)], cursor: "" }
    : accountJson(0)

/** Sends JSON text as is (an echoed form may carry its own escapes). */
const sendJson = (res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(text)

/** `v` as the inside of a JSON string: escaped forms stay as they are, others are JSON-encoded. */
const jsonString = (v: string) => (v.includes("\\u") ? `"${v}"` : JSON.stringify(v))

/** Where the server puts the echoed value `v` (`pad` precedes it, to move it across excerpt cuts). */
const placements: Record<string, (v: string, pad: string, req: http.IncomingMessage, res: http.ServerResponse) => void> = {
  "2xx body, unknown field": (v, pad, req, res) => sendJson(res, 200, JSON.stringify(goodBody(req)).replace(/}$/, `,"note":${jsonString(pad + v)}}`)),
  "2xx body, JSON \\u-escaped": (v, pad, req, res) => {
    const escaped = [...(pad + v)].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")
    sendJson(res, 200, JSON.stringify(goodBody(req)).replace(/}$/, `,"note":"${escaped}"}`))
  },
  "2xx body, decode error's value": (v, pad, req, res) => {
    const body = goodBody(req)
    const text = "items" in body
      ? JSON.stringify({ items: [{ ...accountJson(0), address: "__X__" }], cursor: "" })
      : JSON.stringify({ ...accountJson(0), address: "__X__" })
    sendJson(res, 200, text.replace("\"__X__\"", jsonString(`0x${pad}${v}`)))
  },
  // Over 64 KB, a body is parsed from its bytes in pieces (internal/jsonBytes): the echo in one of them.
  "2xx large body, in an array": (v, pad, req, res) => {
    const filler = Array.from({ length: 12_000 }, (_, i) => `"f${i}"`)
    filler.splice(7_000, 0, jsonString(pad + v))
    sendJson(res, 200, JSON.stringify(goodBody(req)).replace(/}$/, `,"filler":[${filler.join(",")}]}`))
  },
  "2xx body, not JSON": (v, pad, _req, res) => res.writeHead(200).end(`${pad}${v} {`),
  "2xx, x-request-id of a decode error": (v, _pad, _req, res) => sendJson(res, 200, "{\"wrong\":1}", { "x-request-id": v }),
  "400 KAS message and requestId": (v, pad, _req, res) => sendJson(res, 400, `{"code":1061615,"message":${jsonString(pad + v)},"requestId":${jsonString(v)}}`),
  "401 KAS message": (v, pad, _req, res) =>
    sendJson(res, 401, `{"code":1010009,"message":${jsonString(pad + v)}}`, { "www-authenticate": `Basic realm="${v}"` }),
  "429 message and Retry-After": (v, pad, _req, res) => sendJson(res, 429, `{"code":1,"message":${jsonString(pad + v)}}`, { "retry-after": v }),
  "502 HTML page": (v, pad, _req, res) => res.writeHead(502, { "content-type": "text/html" }).end(`<html><body>${pad}${v}</body></html>`),
  "400 non-KAS JSON": (v, pad, _req, res) => sendJson(res, 400, `{"error":${jsonString(pad + v)}}`),
  "400, x-request-id": (v, _pad, _req, res) => sendJson(res, 400, "{\"code\":1061615,\"message\":\"bad\"}", { "x-request-id": v }),
  "302 Location": (v, _pad, _req, res) => res.writeHead(302, { location: `http://127.0.0.1:9/v2/account?token=${v}` }).end(),
  "reason phrase": (v, _pad, _req, res) => void S.raw(res, `HTTP/1.1 400 ${v}\r\ncontent-length: 2\r\n\r\n{}`),
  "returned cursor": (v, _pad, req, res) =>
    // The first page returns the echo as its cursor; a client that follows it sends it back.
    sendJson(res, 200, req.url?.includes("cursor=") ? "{\"items\":[],\"cursor\":\"\"}" : `{"items":[],"cursor":${jsonString(v)}}`)
}
type Placement = keyof typeof placements

const opFor = (placement: Placement, op: Op): Op => (placement === "returned cursor" ? "list" : op)

const operation = (op: Op): Effect.Effect<unknown, unknown, WalletClient.WalletClient> =>
  op === "get"
    ? WalletClient.getAccount(address)
    : op === "create"
    ? WalletClient.createAccount()
    : Stream.runCollect(WalletClient.accounts({ pageSize: 10 }))

let server: S.Server
// One client per transport and span setting, for the whole file: a property run costs a request.
let runtimes: Array<Array<ManagedRuntime.ManagedRuntime<WalletClient.WalletClient, never>>> = []
beforeAll(async () => {
  server = await S.start()
  runtimes = S.transports.map(([, transport]) =>
    [false, true].map((httpSpans) =>
      ManagedRuntime.make(
        WalletClient.layer(S.options(server.url, { httpSpans })).pipe(Layer.provide(transport), Layer.orDie)
      )
    )
  )
})
afterAll(async () => {
  await Promise.all(runtimes.flat().map((r) => r.dispose()))
  await server.close()
})

interface Case {
  readonly placement: Placement
  readonly form: Form
  readonly transport: number
  readonly op: Op
  readonly pad: string
  readonly httpSpans: boolean
}

const runCase = (c: Case) =>
  Effect.gen(function*() {
    let echoed = ""
    server.handle((req, res) => {
      const header = req.headers.authorization ?? ""
      // The echo is what the server received: the request did carry the credentials.
      if (!header.startsWith("Basic ")) return void res.writeHead(500).end("no credentials received")
      echoed = forms[c.form](header)
      placements[c.placement]!(echoed, c.pad, req, res)
    })
    const [name] = S.transports[c.transport]!
    const runtime = runtimes[c.transport]![c.httpSpans ? 1 : 0]!
    const observed = yield* Effect.promise(() => runtime.runPromise(observe(operation(opFor(c.placement, c.op)))))
    const label = `${c.placement} × ${c.form} × ${name} (${c.op}, pad ${c.pad.length}, httpSpans ${c.httpSpans})`
    expect(echoed, label).not.toBe("")
    // The echo never comes back as success: a 2xx carrying it is refused.
    expect(Exit.isFailure(observed.exit), label).toBe(true)
    assertNoSecret(observed.outputs, label)
    // Nothing of it is sent back (a cursor followed, a redirect followed).
    for (const seen of server.seen) expect(findSecret(seen.url), `${label}: request ${seen.url}`).toBeUndefined()
    // The checks saw the spans they are meant to check.
    expect(observed.spanNames.some((n) => n.startsWith("WalletClient.")), label).toBe(true)
    if (c.httpSpans) expect(observed.spanNames.some((n) => n.startsWith("http.client")), label).toBe(true)
  })

const placementNames = Object.keys(placements) as Array<Placement>
const formNames = Object.keys(forms) as Array<Form>

describe("reflected credentials", () => {
  it.live("no form of the credentials echoed anywhere gets out, on any transport", () => {
    // Every placement × form once, the transport, operation and span setting rotating so that each
    // placement and each form meets every transport; then random cases with paddings.
    const examples: Array<[Case]> = placementNames.flatMap((placement, p) =>
      formNames.map((form, f): [Case] => [{
        placement,
        form,
        transport: (p + f) % S.transports.length,
        op: (["get", "create", "list"] as const)[(p + 2 * f) % 3]!,
        pad: "",
        httpSpans: (p + f) % 2 === 0
      }])
    )
    const arbitrary = fc.record({
      placement: fc.constantFrom(...placementNames),
      form: fc.constantFrom(...formNames),
      transport: fc.integer({ min: 0, max: S.transports.length - 1 }),
      op: fc.constantFrom<Op>("get", "create", "list"),
      // Long enough to push the echo across a 200-character excerpt cut.
      pad: fc.string({ unit: fc.constantFrom("a", "b", " ", "-", "."), maxLength: 260 }),
      httpSpans: fc.boolean()
    })
    return Effect.promise(() =>
      fc.assert(fc.asyncProperty(arbitrary, (c) => Effect.runPromise(runCase(c))), { examples, numRuns: examples.length + 40 })
    )
  })

  it.live("a 2xx echoing the credentials is refused as a decode error naming why", () =>
    Effect.gen(function*() {
      for (const [name, transport] of S.transports) for (const placement of ["2xx body, unknown field", "2xx large body, in an array"]) {
        server.handle((req, res) => placements[placement]!(req.headers.authorization ?? "", "", req, res))
        const layer = WalletClient.layer(S.options(server.url)).pipe(Layer.provide(transport), Layer.orDie)
        const error = yield* Effect.flip(Effect.provide(WalletClient.getAccount(address), layer))
        expect(error._tag, `${name}, ${placement}`).toBe("ResponseDecodeError")
        expect(error.message, `${name}, ${placement}`).toContain("the body contains the client's credentials; refused")
      }
    }))
})
