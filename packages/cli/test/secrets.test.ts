/**
 * Reflected credentials through the CLI: a hostile server echoes what it received in the
 * Authorization header (the Basic value, the secret, in URL or JSON spellings) into a response,
 * and nothing of it reaches stdout or stderr, `--verbose` included. Every line the CLI prints goes
 * through the client's one scrubber (`Credentials.scrubber`). The server and the check of every
 * spelling are the client's hostile tests' (test/hostile/).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as http from "node:http"
import { assertNoSecret } from "../../../test/hostile/observe.js"
import * as S from "../../../test/hostile/server.js"
import { accountJson } from "../../../test/support/fakeWallet.js"
import { cli } from "./_run.js"

const address = accountJson(0).address

const secretOf = (header: string): string => {
  const decoded = Buffer.from(header.slice("Basic ".length), "base64").toString()
  return decoded.slice(decoded.indexOf(":") + 1)
}

/** Spellings of what the server received. */
const forms = {
  basic: (h: string) => h,
  secret: (h: string) => secretOf(h),
  "secret, URL-encoded": (h: string) => encodeURIComponent(secretOf(h)),
  "secret, JSON \\u-escaped": (h: string) => [...secretOf(h)].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")
} as const

const jsonString = (v: string) => (v.includes("\\u") ? `"${v}"` : JSON.stringify(v))

const sendJson = (res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(text)

/** Where the server puts the echo. */
const placements: Record<string, (v: string, req: http.IncomingMessage, res: http.ServerResponse) => void> = {
  "400 KAS message and requestId": (v, _req, res) => sendJson(res, 400, `{"code":1061615,"message":${jsonString(v)},"requestId":${jsonString(v)}}`),
  "2xx body, unknown field": (v, req, res) => {
    const body = req.method === "GET" && req.url?.startsWith("/v2/account?") === true ? { items: [accountJson(0)], cursor: "" } : accountJson(0)
    sendJson(res, 200, JSON.stringify(body).replace(/}$/, `,"note":${jsonString(v)}}`))
  },
  "returned cursor": (v, req, res) =>
    sendJson(res, 200, req.url?.includes("cursor=") ? "{\"items\":[],\"cursor\":\"\"}" : `{"items":[],"cursor":${jsonString(v)}}`),
  "302 Location": (v, _req, res) => res.writeHead(302, { location: `http://127.0.0.1:9/v2/account?token=${v}` }).end()
}

let server: S.Server
beforeAll(async () => {
  server = await S.start()
})
afterAll(() => server.close())

describe("reflected credentials through the CLI", () => {
  it.live("stdout and stderr carry no echoed credential (--verbose included)", () =>
    Effect.gen(function*() {
      const credentials = ["--url", server.url, "--access-key-id", S.accessKeyId, "--secret-access-key", S.secret]
      const cases: Array<[string, keyof typeof forms, Array<string>]> = [
        ["400 KAS message and requestId", "secret", ["accounts", "get", address, "--verbose"]],
        ["2xx body, unknown field", "basic", ["accounts", "get", address]],
        ["returned cursor", "secret, JSON \\u-escaped", ["accounts", "list", "--all", "--json", "--verbose"]],
        ["302 Location", "secret, URL-encoded", ["accounts", "create", "--verbose"]],
        ["400 KAS message and requestId", "basic", ["keys", "sign", `krn:1001:wallet:m:key-pool:default:0x${"ab".repeat(32)}`, `0x${"cd".repeat(32)}`, "--verbose"]],
        ["returned cursor", "secret", ["history", "list", "--all", "--json", "--verbose"]]
      ]
      for (const [placement, form, args] of cases) {
        server.handle((req, res) => placements[placement]!(forms[form](req.headers.authorization ?? ""), req, res))
        const result = yield* cli([...args, ...credentials])
        const label = `kas-wallet ${args.join(" ")} against ${placement} × ${form}`
        expect(server.seen.length, label).toBeGreaterThan(0)
        expect(result.code, label).not.toBe(0)
        expect(result.err, label).toMatch(/^kas-wallet: /m)
        assertNoSecret([{ where: "stdout", text: result.out }, { where: "stderr", text: result.err }], label)
      }
    }))
})
