/**
 * `kas-wallet accounts` run in process against an emulator (and, for failures the emulator does
 * not make, a small scripted server): output, one-line messages in the user's terms, exit codes,
 * the key from the environment or a file, progress, resuming, `--verbose`, and secrets.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { parseTime } from "../src/commands/shared/Client.js"
import { withClockMoving } from "../../../test/support/clock.js"
import { cli, cliEmulator } from "./_run.js"

const emulator = cliEmulator()

/** A server answering each request with `answer`, on 127.0.0.1 and a free port, closed with the scope. */
const scripted = (answer: (request: http.IncomingMessage) => { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> }) =>
  Effect.acquireRelease(
    Effect.async<http.Server>((resume) => {
      const server = http.createServer((request, response) => {
        const { body, headers, status } = answer(request)
        response.writeHead(status, { "content-type": "application/json", ...headers })
        response.end(JSON.stringify(body))
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  ).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as { port: number }).port}`))

const oneLine = (err: string) => {
  expect(err.split("\n")).toHaveLength(1)
  expect(err).toMatch(/^kas-wallet: /)
}

describe("kas-wallet accounts", () => {
  it.live("create, get and list print JSON or tables; failures are one line in the user's terms, with their exit codes", () =>
    Effect.gen(function*() {
      const { emulator: e, env, secret } = yield* emulator
      // A port nothing listens on any more.
      const closed = yield* Effect.scoped(scripted(() => ({ status: 200, body: {} })))
      const created = yield* cli(["accounts", "create", "--json"], env)
      expect(created.code, created.err).toBe(0)
      const account = JSON.parse(created.out) as { address: string }
      const got = yield* cli(["accounts", "get", account.address.toLowerCase(), "--json"], env)
      expect(JSON.parse(got.out).address).toBe(account.address)
      const table = yield* cli(["accounts", "list"], env)
      expect(table.out.split("\n")[0]).toMatch(/^ADDRESS +CREATED \(UTC\) +CHAIN +POOL +KEY$/)
      // At 80 columns: the address shortened as the tour prints it; --wide prints it whole.
      expect(table.out).toContain(`${account.address.slice(0, 6)}…${account.address.slice(-4)}  `)
      expect(table.out).not.toContain(account.address)
      for (const line of table.out.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80)
      expect(table.out).toMatch(/\(last page\)$/)
      const wide = yield* cli(["accounts", "list", "--wide"], env)
      expect(wide.out.split("\n")[0]).toMatch(/^ADDRESS +CREATED \(UTC\) +CHAIN +POOL +KEY$/)
      expect(wide.out).toContain(account.address)

      const failures: Array<[ReadonlyArray<string>, Record<string, string>, number, string | RegExp]> = [
        [["accounts", "list", "--page-size", "0"], env, 2, "kas-wallet: --page-size must be an integer from 1 to 1000 (got 0)"],
        [["accounts", "list", "--page-size", "abc"], env, 2, "kas-wallet: --page-size must be an integer from 1 to 1000 (got abc)"],
        [["accounts", "list", "--from", "-5"], env, 2, /^kas-wallet: --from must be Unix seconds or an ISO-8601 date .*\(got -5\)$/],
        [["accounts", "list", "--from", "1.5"], env, 2, /^kas-wallet: --from must be Unix seconds or an ISO-8601 date .*\(got 1\.5\)$/],
        [["accounts", "list", "--to", "2024-02-30"], env, 2, "kas-wallet: --to must be a date and time that exist (got 2024-02-30)"],
        [["accounts", "list", "--from", "2024-05-02", "--to", "2024-05-01"], env, 2, /^kas-wallet: --from \(1714608000\) is after --to \(1714521600\)/],
        [["accounts", "list"], { ...env, KAS_CHAIN_ID: "5" }, 2, "kas-wallet: KAS_CHAIN_ID is invalid: chain id must be \"8217\" (mainnet) or \"1001\" (testnet), got \"5\": set it to 8217 (mainnet) or 1001 (testnet)"],
        [["accounts", "list", "--chain", "5"], env, 2, /^kas-wallet: --chain is invalid: chain id must be "8217" \(mainnet\) or "1001" \(testnet\), got "5"/],
        [["accounts", "list", "--url", "ftp://x"], env, 2, "kas-wallet: --url must be http(s): give an http(s) URL such as http://127.0.0.1:8787, without a user or password"],
        [["accounts", "list", "--url", "not a url"], env, 2, /^kas-wallet: --url is invalid: expected a URL such as https:\/\/wallet-api\.klaytnapi\.com: set it to the service's base URL/],
        [["accounts", "list", "--pool", "payroll"], env, 2, /^kas-wallet: --pool is invalid: KRN must have the form .*: set it to an account pool KRN/],
        [["accounts", "list", "--access-key-id", ""], env, 2, "kas-wallet: --access-key-id is not set (or empty): set it to the AccessKey ID of your KAS key"],
        [["accounts", "list", "--access-key-id", "KASK:1"], env, 2, "kas-wallet: --access-key-id must not contain ':' (HTTP Basic splits the key at the first colon): give the AccessKey ID of your KAS key"],
        [["accounts", "list"], { ...env, KAS_ACCESS_KEY_ID: "" }, 2, /^kas-wallet: no API key: set KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY/],
        [["accounts", "list", "--chain", "8217", "--pool", `krn:1001:wallet:${e.member.accountId}:account-pool:default`], env, 2, /^kas-wallet: --pool: pool krn:1001:\S+ is on chain 1001, the client on chain 8217: give an account pool KRN of the chain \(--chain \/ KAS_CHAIN_ID\)$/],
        [["accounts", "list", "--pool", `krn:1001:wallet:${e.member.accountId}:account-pool:default`], { ...env, KAS_CHAIN_ID: "8217" }, 2, /^kas-wallet: --pool: pool krn:1001:\S+ is on chain 1001, the client on chain 8217/],
        [["accounts", "get", "0x1234"], env, 2, "kas-wallet: <address> must be 0x followed by 40 hex digits (got 0x1234)"],
        [["accounts", "get", account.address.toLowerCase().replace(/[a-f]/, (c) => c.toUpperCase()).replace(/^0X/, "0x")], env, 2, /has a wrong EIP-55 checksum/],
        [["accounts", "get", `0x${"12".repeat(20)}`], env, 4, /^kas-wallet: no account 0x(12){20} in the default pool on chain 1001 \(HTTP 400, code 1061010/],
        [["accounts", "list", "--pool", `krn:1001:wallet:${e.member.accountId}:account-pool:nope`], env, 4, new RegExp(`^kas-wallet: no such pool krn:1001:wallet:${e.member.accountId}:account-pool:nope on chain 1001`)],
        [["accounts", "create", "--pool", `krn:1001:wallet:${e.member.accountId}:account-pool:nope`], env, 4, /^kas-wallet: no such pool /],
        [["accounts", "list"], { ...env, KAS_SECRET_ACCESS_KEY: "wrong-secret-value" }, 3, new RegExp(`^kas-wallet: ${e.url} refused the key \\(HTTP 401`)],
        [["accounts", "list"], { ...env, KAS_WALLET_URL: closed }, 7, new RegExp(`^kas-wallet: cannot connect to ${closed} \\(.*\\); is it running\\? check --url / KAS_WALLET_URL$`)],
        [["accounts", "list"], { KAS_WALLET_URL: e.url }, 2, /^kas-wallet: no API key: set KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY .*kas-wallet emulator/],
        [["accounts", "list", "--size", "5"], env, 2, /^kas-wallet: unknown option --size for kas-wallet accounts list \(did you mean --page-size\?\)/],
        [["acounts", "list"], env, 2, /^kas-wallet: unknown command "acounts" for kas-wallet \(did you mean accounts\? commands: /],
        // A base URL with the API's path in it: the 404 points at the URL.
        [["accounts", "list"], { ...env, KAS_WALLET_URL: `${e.url}/v2` }, 2, new RegExp(
          `^kas-wallet: the service rejected the request \\(HTTP 404, code 1010007: .*\\); the base URL ${e.url}/v2 has a path \\(/v2\\): requests go to /v2/v2/…, give the service's root instead \\(--url / KAS_WALLET_URL\\)$`
        )],
        [["accounts", "get", `0x${"12".repeat(20)}`, "--url", `${e.url}/`], env, 4, /^kas-wallet: no account /]
      ]
      for (const [args, environment, code, message] of failures) {
        const ran = yield* cli(args, environment)
        expect(ran.code, `${args.join(" ")}: ${ran.err}`).toBe(code)
        oneLine(ran.err)
        if (typeof message === "string") expect(ran.err).toBe(message)
        else expect(ran.err).toMatch(message)
        expect(ran.out + ran.err).not.toContain(secret)
        expect(ran.out + ran.err).not.toContain("wrong-secret-value")
      }
    }).pipe(Effect.scoped), 60_000)

  it.live("the secret comes from its flag, its file's flag, KAS_SECRET_ACCESS_KEY or KAS_SECRET_ACCESS_KEY_FILE, in that order", () =>
    Effect.gen(function*() {
      const { env, secret } = yield* emulator
      const dir = yield* Effect.acquireRelease(
        Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-cli-secret-"))),
        (d) => Effect.promise(() => fs.rm(d, { recursive: true, force: true }))
      )
      const file = path.join(dir, "secret")
      yield* Effect.promise(() => fs.writeFile(file, `${secret}\n`, { mode: 0o600 }))
      const { KAS_SECRET_ACCESS_KEY: _, ...noSecret } = env
      const wrong = { ...noSecret, KAS_SECRET_ACCESS_KEY: "wrong-secret-value" }
      const ok: Array<[ReadonlyArray<string>, Record<string, string>]> = [
        [["--secret-access-key-file", file], wrong],
        [["--secret-access-key", secret], { ...wrong, KAS_SECRET_ACCESS_KEY_FILE: "/nonexistent" }],
        [[], { ...noSecret, KAS_SECRET_ACCESS_KEY_FILE: file }],
        [[], { ...env, KAS_SECRET_ACCESS_KEY_FILE: "/nonexistent" }]
      ]
      for (const [flags, environment] of ok) {
        const ran = yield* cli(["accounts", "list", ...flags], environment)
        expect(ran.code, `${flags.join(" ")} ${JSON.stringify(Object.keys(environment))}: ${ran.err}`).toBe(0)
        expect(ran.out + ran.err).not.toContain(secret)
      }
      const both = yield* cli(["accounts", "list", "--secret-access-key", secret, "--secret-access-key-file", file], noSecret)
      expect(both.err).toBe("kas-wallet: give --secret-access-key or --secret-access-key-file, not both")
      const missing = yield* cli(["accounts", "list"], { ...noSecret, KAS_SECRET_ACCESS_KEY_FILE: path.join(dir, "nope") })
      expect(missing.code).toBe(2)
      expect(missing.err).toBe(`kas-wallet: KAS_SECRET_ACCESS_KEY_FILE: cannot read ${path.join(dir, "nope")} (no such file)`)
      yield* Effect.promise(() => fs.writeFile(path.join(dir, "empty"), "\n"))
      const empty = yield* cli(["accounts", "list", "--secret-access-key-file", path.join(dir, "empty")], noSecret)
      expect(empty.err).toBe(`kas-wallet: --secret-access-key-file: ${path.join(dir, "empty")} is empty`)
    }).pipe(Effect.scoped), 60_000)

  it.live("list --all streams every page; the progress line shows only when stderr is a terminal and stdout is not", () =>
    Effect.gen(function*() {
      const { env } = yield* emulator
      for (let i = 0; i < 3; i++) expect((yield* cli(["accounts", "create"], env)).code).toBe(0)
      const progress: Array<string> = []
      const piped = yield* cli(["accounts", "list", "--all", "--page-size", "1", "--json"], env, {
        stderrIsTerminal: true,
        stdoutIsTerminal: false,
        progress
      })
      expect(piped.out.split("\n").map((l) => JSON.parse(l).address)).toHaveLength(3)
      expect(progress).toEqual(["\r1 account, 1 page…", "\r2 accounts, 2 pages…", "\r3 accounts, 3 pages…", "\r3 accounts, 3 pages.\n"])

      const onTerminal: Array<string> = []
      const rows = yield* cli(["accounts", "list", "--all", "--page-size", "2"], env, {
        stderrIsTerminal: true,
        stdoutIsTerminal: true,
        progress: onTerminal
      })
      expect(onTerminal).toEqual([])
      const lines = rows.out.split("\n")
      expect(lines).toHaveLength(4)
      expect(lines.filter((l) => l.startsWith("ADDRESS"))).toHaveLength(1)
    }).pipe(Effect.scoped), 60_000)

  // The retries wait on the TestClock, moved on as the requests (real I/O) are answered: the waits
  // are the client's choice, printed as such, never a length of time this test spends.
  it.effect("a failed listing says how to resume; --verbose shows each request with its query string, each retry with its wait", () =>
    Effect.gen(function*() {
      const { emulator: e, env } = yield* emulator
      yield* cli(["accounts", "create"], env)
      const page = JSON.parse((yield* cli(["accounts", "list", "--json"], env)).out)
      const url = yield* scripted((request) =>
        request.url?.includes("cursor=") === true
          ? { status: 503, body: { code: 1065000, message: "busy" } }
          : { status: 200, body: { items: page.items, cursor: "page-2" } }
      )
      const ran = yield* withClockMoving(cli(["accounts", "list", "--all", "--page-size", "1", "--json", "--verbose"], { ...env, KAS_WALLET_URL: url }))
      expect(ran.code).toBe(6)
      expect(ran.out).toBe(JSON.stringify(page.items[0]))
      const err = ran.err.split("\n")
      expect(err[0]).toBe(`> GET ${url}/v2/account?size=1 (x-chain-id: 1001, authorization: Basic <redacted>)`)
      expect(err[1]).toMatch(/^< 200 \(\d+ ms\)$/)
      expect(err[2]).toBe(`> GET ${url}/v2/account?size=1&cursor=page-2 (x-chain-id: 1001, authorization: Basic <redacted>)`)
      expect(err[3]).toMatch(/^< 503 \(\d+ ms\)$/)
      expect(err[4]).toMatch(/^retry: attempt 2 after ServerError, waited \d+ ms$/)
      expect(err[5]).toBe(err[2])
      expect(err.filter((l) => l.startsWith("retry: attempt 3 after ServerError, waited "))).toHaveLength(1)
      expect(err[err.length - 1]).toBe(
        "kas-wallet: the service failed (HTTP 503, code 1065000: busy); try again later; to resume, run the same command with --cursor page-2"
      )
      expect(e.url).not.toBe(url)

      // A retry that succeeds is logged once, before its own request, and never again.
      let failures = 1
      const flaky = yield* scripted((request) =>
        request.url?.includes("cursor=page-2") === true && failures-- > 0
          ? { status: 503, body: { code: 1065000, message: "busy" } }
          : { status: 200, body: { items: page.items, cursor: request.url?.includes("cursor=page-2") === true ? "page-3" : request.url?.includes("cursor=") === true ? "" : "page-2" } }
      )
      const recovered = yield* withClockMoving(cli(["accounts", "list", "--all", "--page-size", "1", "--json", "--verbose"], { ...env, KAS_WALLET_URL: flaky }))
      expect(recovered.code, recovered.err).toBe(0)
      const log = recovered.err.split("\n")
      expect(log.filter((l) => l.startsWith("retry: "))).toHaveLength(1)
      expect(log.filter((l) => l.startsWith("> GET "))).toHaveLength(4)
      expect(log[log.findIndex((l) => l.startsWith("retry: ")) + 1]).toContain("cursor=page-2")
    }).pipe(Effect.scoped), 60_000)

  it.effect("--verbose prints the delay the client chose before a retry (a Retry-After of 1 s: 1000 ms), not a measured time", () =>
    Effect.gen(function*() {
      const { env } = yield* emulator
      const page = JSON.parse((yield* cli(["accounts", "list", "--json"], env)).out)
      let first = true
      const url = yield* scripted(() => {
        if (!first) return { status: 200, body: page }
        first = false
        return { status: 429, body: { code: 1, message: "slow down" }, headers: { "retry-after": "1" } }
      })
      // The second second on the TestClock, moved on as the first answer comes: no second is waited.
      const ran = yield* withClockMoving(cli(["accounts", "list", "--verbose"], { ...env, KAS_WALLET_URL: url }))
      expect(ran.code, ran.err).toBe(0)
      expect(ran.err.split("\n").filter((l) => l.startsWith("retry: "))).toEqual(["retry: attempt 2 after RateLimited, waited 1000 ms"])
    }).pipe(Effect.scoped), 60_000)

  it.live("what a hostile server echoes of the key (body, message, header, cursor) never reaches the output", () =>
    Effect.gen(function*() {
      const { env, secret } = yield* emulator
      const page = JSON.parse((yield* cli(["accounts", "list", "--json"], env)).out)
      const authorization = Buffer.from(`${env.KAS_ACCESS_KEY_ID}:${secret}`).toString("base64")
      const url = yield* scripted((request) =>
        request.url?.includes("cursor=") === true
          ? {
            status: 500,
            body: { code: 1, message: `you sent ${request.headers.authorization} with ${secret}` },
            headers: { "x-request-id": `${secret}` }
          }
          : { status: 200, body: { items: page.items, cursor: `c-${secret}` } }
      )
      const ran = yield* cli(["accounts", "list", "--all", "--verbose"], { ...env, KAS_WALLET_URL: url })
      expect(ran.code).toBe(6)
      expect(ran.out + ran.err).not.toContain(secret)
      expect(ran.out + ran.err).not.toContain(authorization)
      expect(ran.err).toContain("<redacted>")
      // A page whose cursor echoes the key is refused whole by the client: nothing of it is shown.
      const one = yield* cli(["accounts", "list"], { ...env, KAS_WALLET_URL: url })
      expect(one.code).toBe(6)
      expect(one.out).toBe("")
      expect(one.err).toContain("credentials")
      expect(one.out + one.err).not.toContain(secret)
    }).pipe(Effect.scoped), 60_000)
})

describe("parseTime", () => {
  it("reads Unix seconds and ISO-8601 dates, and nothing else", () => {
    const ok = (raw: string) => {
      const r = parseTime(raw)
      return r._tag === "Right" ? r.right : `refused: ${r.left}`
    }
    expect(ok("0")).toBe(0)
    expect(ok("1714521600")).toBe(1714521600)
    expect(ok("2024-05-01")).toBe(1714521600)
    expect(ok("2024-05-01T00:00:00Z")).toBe(1714521600)
    expect(ok("2024-05-01T09:00+09:00")).toBe(1714521600)
    expect(ok("2024-05-01T00:00:00.999Z")).toBe(1714521600)
    expect(ok("2024-04-30T19:00:00-0500")).toBe(1714521600)
    for (const bad of ["-5", "1.5", "1e9", "+5", " 5", "yesterday", "2024-02-30", "2024-13-01", "2024-05-01T24:00:00Z", "2024-05-01T00:00:00+25:00", "1969-12-31", "2024/05/01", "May 1, 2024", ""]) {
      expect(ok(bad), bad).toMatch(/^refused: must /)
    }
    expect(ok("1714521600000")).toBe("refused: must be in seconds, not milliseconds (got 1714521600000)")
  })
})
