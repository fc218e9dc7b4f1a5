/**
 * `kas-wallet accounts delete|disable|enable|count|by-public-key`, `accounts list --status` and
 * `kas-wallet fee-payers create|get|list|delete`, run in process against an emulator: output (human
 * and JSON), one-line messages in the user's terms, exit codes, pools from flags and the
 * environment, and secrets.
 */
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as http from "node:http"
import { cli, cliEmulator } from "./_run.js"

const emulator = Effect.map(cliEmulator(), (c) => ({ ...c, member: c.emulator.member.accountId }))

const ok = (ran: { code: number; out: string; err: string }, secret: string) => {
  expect(ran.code, ran.err).toBe(0)
  expect(ran.err).toBe("")
  expect(ran.out).not.toContain(secret)
  return ran.out
}

const failsWith = (ran: { code: number; out: string; err: string }, code: number, message: string | RegExp, secret: string) => {
  expect(ran.code, ran.err).toBe(code)
  expect(ran.err.split("\n")).toHaveLength(1)
  if (typeof message === "string") expect(ran.err).toBe(message)
  else expect(ran.err).toMatch(message)
  expect(ran.out + ran.err).not.toContain(secret)
}

describe("kas-wallet accounts: lifecycle, counts, lookups", () => {
  it.live("disable, enable and delete print the answer (table or JSON); list --status filters; failures are one line with their exit code", () =>
    Effect.gen(function*() {
      const { env, member, secret } = yield* emulator
      const created = yield* Effect.forEach([1, 2, 3], () => Effect.map(cli(["accounts", "create", "--json"], env), (r) => JSON.parse(ok(r, secret))))
      const [a, b, c] = created
      const disabled = ok(yield* cli(["accounts", "disable", b.address.toLowerCase()], env), secret).split("\n")
      expect(disabled[0]).toMatch(/^FIELD +VALUE$/)
      expect(disabled[1]).toMatch(new RegExp(`^address +${b.address}$`))
      expect(disabled[2]).toMatch(/^state +disabled$/)
      // The KRN's line alone passes 80 columns: its member id is shortened (the address fits, whole).
      expect(disabled[3]).toMatch(new RegExp(`^krn +krn:1001:wallet:${member.slice(0, 4)}…${member.slice(-4)}:account-pool:default$`))
      expect(disabled[4]).toMatch(/^updatedAt +\d+ \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/)

      const listed = (status?: string) =>
        Effect.map(cli(["accounts", "list", "--json", ...(status !== undefined ? ["--status", status] : [])], env), (r) =>
          JSON.parse(ok(r, secret)).items.map((x: any) => x.address))
      expect(yield* listed("disabled")).toEqual([b.address])
      expect(yield* listed()).toEqual([c.address, a.address])
      expect(yield* listed("all")).toEqual([c.address, b.address, a.address])
      expect(yield* listed("corrupted")).toEqual([])
      const table = ok(yield* cli(["accounts", "list", "--status", "disabled", "--wide"], env), secret)
      expect(table).toContain(b.address)
      expect(table).not.toContain(a.address)

      failsWith(yield* cli(["accounts", "disable", b.address], env), 2, new RegExp(`^kas-wallet: account ${b.address} is already disabled, or deleted, or not in the default pool on chain 1001 \\(HTTP 400, code 1061510: `), secret)
      failsWith(yield* cli(["accounts", "enable", a.address], env), 2, new RegExp(`^kas-wallet: account ${a.address} is already enabled, or deleted, or not in the default pool on chain 1001 \\(HTTP 400, code 1061511: `), secret)
      // An address the pool never held: the service's same two codes (its live tests expect them).
      const stranger = "0x1212121212121212121212121212121212121212"
      failsWith(yield* cli(["accounts", "disable", stranger], env), 2, /code 1061510: account has been already deleted or disabled/, secret)
      failsWith(yield* cli(["accounts", "enable", stranger], env), 2, /code 1061511: account has been already deleted or enabled/, secret)
      const enabled = JSON.parse(ok(yield* cli(["accounts", "enable", b.address, "--json"], env), secret))
      expect(Object.keys(enabled)).toEqual(["address", "krn", "updatedAt"])
      expect(enabled.address).toBe(b.address)

      expect(ok(yield* cli(["accounts", "delete", c.address], env), secret)).toBe(`deleted ${c.address}`)
      expect(ok(yield* cli(["accounts", "delete", a.address, "--json"], env), secret)).toBe("{\"status\":\"deleted\"}")
      failsWith(
        yield* cli(["accounts", "delete", c.address], env),
        4,
        new RegExp(`^kas-wallet: no account ${c.address} in the default pool on chain 1001 \\(HTTP 400, code 1061010`),
        secret
      )
      failsWith(
        yield* cli(["accounts", "get", a.address], env),
        4,
        new RegExp(`^kas-wallet: no account ${a.address} in the default pool on chain 1001`),
        secret
      )
      failsWith(
        yield* cli(["accounts", "disable", b.address, "--pool", `krn:1001:wallet:${member}:account-pool:nope`], env),
        4,
        // The service's "data don't exist" about x-krn: the pool, not the account (PoolNotFound).
        new RegExp(`^kas-wallet: no such pool krn:1001:wallet:${member}:account-pool:nope on chain 1001 \\(HTTP 400, code 1061010: data don't exist; x-krn.*\\); check --pool and --chain$`),
        secret
      )
      failsWith(yield* cli(["accounts", "delete", "0x1234"], env), 2, "kas-wallet: <address> must be 0x followed by 40 hex digits (got 0x1234)", secret)
      failsWith(
        yield* cli(["accounts", "list", "--status", "deleted"], env),
        2,
        "kas-wallet: --status must be enabled, disabled, corrupted or all (got deleted)",
        secret
      )
      expect(yield* listed("all")).toEqual([b.address])
    }).pipe(Effect.scoped), 60_000)

  it.live("count: the member's total, or with --pool / KAS_ACCOUNT_POOL one pool's; --all-pools overrides the variable", () =>
    Effect.gen(function*() {
      const { emulator: e, env, member, secret } = yield* emulator
      const pool = yield* e.createPool({ accountId: member, chainId: 1001 as any, name: "pay" })
      const poolKrn = pool.krn.toString()
      for (const args of [[], ["--pool", poolKrn], ["--pool", poolKrn], ["--chain", "8217"]]) {
        ok(yield* cli(["accounts", "create", ...args], env), secret)
      }
      const disabled = JSON.parse(ok(yield* cli(["accounts", "create", "--json"], env), secret))
      ok(yield* cli(["accounts", "disable", disabled.address], env), secret)

      // At 80 columns the member id is shortened, as the tour prints it; whole with --wide.
      const member4 = `${member.slice(0, 4)}…${member.slice(-4)}`
      expect(ok(yield* cli(["accounts", "count"], env), secret)).toBe(`4 accounts of member ${member4} on chain 1001, in every pool`)
      expect(ok(yield* cli(["accounts", "count", "--wide"], env), secret)).toBe(`4 accounts of member ${member} on chain 1001, in every pool`)
      expect(JSON.parse(ok(yield* cli(["accounts", "count", "--json"], env), secret))).toEqual({ accountId: member, count: 4 })
      expect(ok(yield* cli(["accounts", "count", "--chain", "8217"], env), secret)).toBe(`1 account of member ${member4} on chain 8217, in every pool`)
      expect(ok(yield* cli(["accounts", "count", "--pool", poolKrn], env), secret)).toBe(`2 accounts in pool ${poolKrn.replace(member, member4)}`)
      expect(JSON.parse(ok(yield* cli(["accounts", "count", "--json"], { ...env, KAS_ACCOUNT_POOL: poolKrn }), secret))).toEqual({
        accountId: member,
        count: 2,
        krn: poolKrn
      })
      expect(ok(yield* cli(["accounts", "count", "--all-pools"], { ...env, KAS_ACCOUNT_POOL: poolKrn }), secret)).toBe(
        `4 accounts of member ${member4} on chain 1001, in every pool`
      )
      // --all-pools does not even read a variable it overrides.
      expect((yield* cli(["accounts", "count", "--all-pools"], { ...env, KAS_ACCOUNT_POOL: "nonsense" })).code).toBe(0)
      failsWith(yield* cli(["accounts", "count", "--all-pools", "--pool", poolKrn], env), 2, "kas-wallet: give --pool or --all-pools, not both", secret)
      failsWith(
        yield* cli(["accounts", "count", "--pool", `krn:1001:wallet:${member}:account-pool:nope`], env),
        4,
        new RegExp(`^kas-wallet: no such pool krn:1001:wallet:${member}:account-pool:nope on chain 1001`),
        secret
      )
    }).pipe(Effect.scoped), 60_000)

  it.live("by-public-key lists the member's accounts of a key (any accepted form), as a table or JSON", () =>
    Effect.gen(function*() {
      const { env, secret } = yield* emulator
      const account = JSON.parse(ok(yield* cli(["accounts", "create", "--json"], env), secret))
      const compressed = `0x${secp256k1.Point.fromHex(account.publicKey.slice(2)).toHex(true)}`
      const table = ok(yield* cli(["accounts", "by-public-key", compressed], env), secret).split("\n")
      expect(table[0]).toMatch(/^ADDRESS +CHAIN$/)
      expect(table[1]).toMatch(new RegExp(`^${account.address} +1001$`))
      expect(JSON.parse(ok(yield* cli(["accounts", "by-public-key", account.publicKey, "--json"], env), secret))).toEqual({
        items: [{ address: account.address, chainId: 1001 }]
      })
      expect(ok(yield* cli(["accounts", "by-public-key", account.publicKey, "--chain", "8217"], env), secret)).toBe("(no accounts)")
      failsWith(
        yield* cli(["accounts", "by-public-key", "0x1234"], env),
        2,
        "kas-wallet: <public-key> must be 0x04 + 128 hex digits, 0x02/0x03 + 64, or 0x + 128 (got 0x1234)",
        secret
      )
    }).pipe(Effect.scoped), 60_000)
})

describe("kas-wallet fee-payers", () => {
  it.live("create, get, list (one page, all pages as NDJSON) and delete, in the default pool or the one of --fee-payer-pool / KAS_FEEPAYER_POOL", () =>
    Effect.gen(function*() {
      const { emulator: e, env, member, secret } = yield* emulator
      const created = JSON.parse(ok(yield* cli(["fee-payers", "create", "--json"], env), secret))
      expect(created.krn).toBe(`krn:1001:wallet:${member}:feepayer-pool:default`)
      const details = ok(yield* cli(["fee-payers", "create", "--without-account-update"], env), secret).split("\n")
      expect(details[0]).toMatch(/^FIELD +VALUE$/)
      expect(details.find((l) => l.startsWith("krn"))).toMatch(new RegExp(`feepayer-pool:default$`))
      const second = details.find((l) => l.startsWith("address"))!.split(/ +/)[1]!

      expect(JSON.parse(ok(yield* cli(["fee-payers", "get", created.address.toLowerCase(), "--json"], env), secret))).toEqual(created)
      const page = JSON.parse(ok(yield* cli(["fee-payers", "list", "--json", "--page-size", "1"], env), secret))
      expect(page.items.map((x: any) => x.address)).toEqual([second])
      expect(page.cursor).not.toBe("")
      const rows = ok(yield* cli(["fee-payers", "list"], env), secret).split("\n")
      expect(rows[0]).toMatch(/^ADDRESS +CREATED \(UTC\) +CHAIN +POOL +KEY$/)
      expect(rows).toHaveLength(4)
      expect(rows[3]).toBe("(last page)")
      const ndjson = ok(yield* cli(["fee-payers", "list", "--all", "--json", "--page-size", "1"], env), secret).split("\n")
      expect(ndjson.map((l) => JSON.parse(l).address)).toEqual([second, created.address])

      const ops = (yield* e.createFeePayerPool({ accountId: member, chainId: 1001 as any, name: "ops" })).krn.toString()
      const inOps = JSON.parse(ok(yield* cli(["fee-payers", "create", "--json", "--fee-payer-pool", ops], env), secret))
      expect(inOps.krn).toBe(ops)
      const viaEnv = JSON.parse(ok(yield* cli(["fee-payers", "list", "--json"], { ...env, KAS_FEEPAYER_POOL: ops }), secret))
      expect(viaEnv.items.map((x: any) => x.address)).toEqual([inOps.address])
      failsWith(
        yield* cli(["fee-payers", "get", inOps.address], env),
        4,
        new RegExp(`^kas-wallet: no fee-payer account ${inOps.address} in the default fee-payer pool on chain 1001 \\(HTTP 400, code 1061010`),
        secret
      )

      expect(ok(yield* cli(["fee-payers", "delete", created.address], env), secret)).toBe(`deleted ${created.address}`)
      expect(ok(yield* cli(["fee-payers", "delete", inOps.address, "--json"], { ...env, KAS_FEEPAYER_POOL: ops }), secret)).toBe(
        "{\"status\":\"deleted\"}"
      )
      expect(ok(yield* cli(["fee-payers", "list", "--fee-payer-pool", ops], env), secret)).toBe("(no fee-payer accounts)\n(last page)")
      failsWith(
        yield* cli(["fee-payers", "delete", created.address], env),
        4,
        new RegExp(`^kas-wallet: no fee-payer account ${created.address} in the default fee-payer pool on chain 1001`),
        secret
      )
    }).pipe(Effect.scoped), 60_000)

  it.live("--without-account-update is sent as the body's withoutAccountUpdate", () =>
    Effect.gen(function*() {
      const { env, secret } = yield* emulator
      const bodies: Array<string> = []
      const example = fs.readFileSync(new URL("../../../test/fixtures/lifecycle/feepayer-create-200-success.json", import.meta.url), "utf8")
      const url = yield* Effect.acquireRelease(
        Effect.async<http.Server>((resume) => {
          const server = http.createServer((request, response) => {
            let body = ""
            request.on("data", (chunk) => (body += chunk))
            request.on("end", () => {
              bodies.push(body)
              response.writeHead(200, { "content-type": "application/json" })
              response.end(example)
            })
          })
          server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
        }),
        (server) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
      ).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as { port: number }).port}`))
      ok(yield* cli(["fee-payers", "create", "--without-account-update"], { ...env, KAS_WALLET_URL: url }), secret)
      ok(yield* cli(["fee-payers", "create"], { ...env, KAS_WALLET_URL: url }), secret)
      expect(bodies.map((b) => JSON.parse(b))).toEqual([{ withoutAccountUpdate: true }, { withoutAccountUpdate: false }])
    }).pipe(Effect.scoped), 60_000)

  it.live("fee-payer pools are checked before any request, and an unknown one is named", () =>
    Effect.gen(function*() {
      const { env, member, secret } = yield* emulator
      const failures: Array<[ReadonlyArray<string>, Record<string, string>, number, string | RegExp]> = [
        [["fee-payers", "list", "--fee-payer-pool", `krn:1001:wallet:${member}:account-pool:default`], env, 2, /^kas-wallet: --fee-payer-pool is invalid: .*: set it to a fee-payer pool KRN, krn:<chain-id>:wallet:<account-id>:feepayer-pool:<pool-name>/],
        [["fee-payers", "create"], { ...env, KAS_FEEPAYER_POOL: "ops" }, 2, /^kas-wallet: KAS_FEEPAYER_POOL is invalid: KRN must have the form .*: set it to a fee-payer pool KRN/],
        [["fee-payers", "list", "--chain", "8217", "--fee-payer-pool", `krn:1001:wallet:${member}:feepayer-pool:ops`], env, 2, /^kas-wallet: --fee-payer-pool: fee-payer pool krn:1001:.* is on chain 1001, the client on chain 8217/],
        [["fee-payers", "create", "--fee-payer-pool", `krn:1001:wallet:${member}:feepayer-pool:nope`], env, 4, new RegExp(`^kas-wallet: no such fee-payer pool krn:1001:wallet:${member}:feepayer-pool:nope on chain 1001 \\(HTTP 400, code 1061010.*check --fee-payer-pool and --chain$`)],
        [["fee-payers", "list", "--from", "2024-02-30"], env, 2, "kas-wallet: --from must be a date and time that exist (got 2024-02-30)"],
        [["fee-payers", "get", "nope"], env, 2, "kas-wallet: <address> must be 0x followed by 40 hex digits (got nope)"],
        [["fee-payers", "list"], { ...env, KAS_SECRET_ACCESS_KEY: "wrong-secret-value" }, 3, /refused the key \(HTTP 401/]
      ]
      for (const [args, environment, code, message] of failures) {
        const ran = yield* cli(args, environment)
        failsWith(ran, code, message, secret)
        expect(ran.out + ran.err).not.toContain("wrong-secret-value")
      }
      // The account pool variable means nothing to fee-payer commands.
      ok(yield* cli(["fee-payers", "list"], { ...env, KAS_ACCOUNT_POOL: "nonsense" }), secret)
    }).pipe(Effect.scoped), 60_000)
})
