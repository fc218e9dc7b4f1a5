/**
 * `kas-wallet emulator member|key|pool` run in process: their output and failures.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { cli as run } from "./_run.js"

/** Runs `kas-wallet <args>`: its exit code and output, with an `exit` that says whether it succeeded. */
const cli = (...args: Array<string>) =>
  Effect.map(run(args), (r) => ({ ...r, exit: { ok: r.code === 0 } }))

const isSuccess = (exit: { readonly ok: boolean }) => exit.ok

describe("kas-wallet emulator member|key|pool", () => {
  it.live("manage members, keys and pools of a database", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-emu-cli-")))
      const db = path.join(dir, "e.db")
      const member = yield* cli("emulator", "member", "create", "--db", db, "--with-key")
      expect(isSuccess(member.exit)).toBe(true)
      expect(member.code).toBe(0)
      const accountId = /^account id: (\S+)$/m.exec(member.out)?.[1]
      expect(accountId).toMatch(/^[0-9a-f-]{36}$/)
      expect(member.out).toMatch(/^access key id: KASK[A-Z0-9]{20}$/m)
      expect(member.out).toMatch(/^secret access key: [A-Za-z0-9]{40}$/m)
      expect(member.out).toMatch(/^authorization: Basic [A-Za-z0-9+/=]+$/m)

      const second = yield* cli("emulator", "key", "create", "--db", db, "--account-id", accountId!)
      expect(isSuccess(second.exit)).toBe(true)
      const third = yield* cli("emulator", "key", "create", "--db", db, "--account-id", accountId!)
      expect(third.code).toBe(2)
      expect(third.err).toContain("already has 2 API keys, the most it can hold; delete one first")

      const keys = yield* cli("emulator", "key", "list", "--db", db, "--account-id", accountId!)
      const ids = keys.out.split("\n").map((l) => l.split(" ")[0]!)
      expect(ids).toHaveLength(2)
      expect(keys.out).not.toMatch(/secret/i)
      expect(isSuccess((yield* cli("emulator", "key", "delete", "--db", db, "--account-id", accountId!, "--access-key-id", ids[0]!)).exit)).toBe(true)
      expect((yield* cli("emulator", "key", "list", "--db", db, "--account-id", accountId!)).out.split("\n")).toHaveLength(1)
      const deleteAgain = yield* cli("emulator", "key", "delete", "--db", db, "--account-id", accountId!, "--access-key-id", ids[0]!)
      expect(deleteAgain.err).toContain(`has no key ${ids[0]}`)

      const pool = yield* cli("emulator", "pool", "create", "--db", db, "--account-id", accountId!, "--chain", "8217", "--name", "payroll")
      expect(pool.out).toBe(`krn:8217:wallet:${accountId}:account-pool:payroll`)
      const dup = yield* cli("emulator", "pool", "create", "--db", db, "--account-id", accountId!, "--chain-id", "8217", "--name", "payroll")
      expect(dup.err).toContain("exists already")
      expect(dup.code).toBe(2)
      const pools = yield* cli("emulator", "pool", "list", "--db", db, "--account-id", accountId!, "--wide")
      expect(pools.out.split("\n")).toEqual([
        `krn:1001:wallet:${accountId}:account-pool:default  (default)`,
        `krn:8217:wallet:${accountId}:account-pool:default  (default)`,
        `krn:8217:wallet:${accountId}:account-pool:payroll`
      ])
      const mainnetOnly = yield* cli("emulator", "pool", "list", "--db", db, "--account-id", accountId!, "--chain", "8217")
      expect(mainnetOnly.out.split("\n")).toHaveLength(2)
      expect((yield* cli("emulator", "pool", "list", "--db", db, "--account-id", accountId!, "--chain-id", "8217")).out).toBe(mainnetOnly.out)
      const bothSpellings = yield* cli("emulator", "pool", "list", "--db", db, "--account-id", accountId!, "--chain", "8217", "--chain-id", "1001")
      expect(bothSpellings).toMatchObject({ code: 2, err: "kas-wallet: give --chain or --chain-id, not both" })
      // Fee-payer pools, apart from the account pools (the same name is another pool).
      const feePayerPool = yield* cli("emulator", "pool", "create", "--fee-payer", "--db", db, "--account-id", accountId!, "--chain-id", "8217", "--name", "payroll")
      expect(feePayerPool.out).toBe(`krn:8217:wallet:${accountId}:feepayer-pool:payroll`)
      const feePayerDup = yield* cli("emulator", "pool", "create", "--fee-payer", "--db", db, "--account-id", accountId!, "--chain-id", "8217", "--name", "payroll")
      expect(feePayerDup.code).toBe(2)
      expect(feePayerDup.err).toBe(`kas-wallet: the pool krn:8217:wallet:${accountId}:feepayer-pool:payroll exists already`)
      const feePayerPools = yield* cli("emulator", "pool", "list", "--fee-payer", "--db", db, "--account-id", accountId!, "--wide")
      expect(feePayerPools.out.split("\n")).toEqual([
        `krn:1001:wallet:${accountId}:feepayer-pool:default  (default)`,
        `krn:8217:wallet:${accountId}:feepayer-pool:default  (default)`,
        `krn:8217:wallet:${accountId}:feepayer-pool:payroll`
      ])
      expect((yield* cli("emulator", "pool", "list", "--db", db, "--account-id", accountId!)).out.split("\n")).toHaveLength(3)
      const members = yield* cli("emulator", "member", "list", "--db", db)
      expect(members.out).toContain(accountId!)
      // At 80 columns a KRN's member id is shortened, as the tour prints it, in every line alike.
      const member4 = `${accountId!.slice(0, 4)}…${accountId!.slice(-4)}`
      expect((yield* cli("emulator", "pool", "list", "--db", db, "--account-id", accountId!)).out.split("\n")).toEqual([
        `krn:1001:wallet:${member4}:account-pool:default  (default)`,
        `krn:8217:wallet:${member4}:account-pool:default  (default)`,
        `krn:8217:wallet:${member4}:account-pool:payroll`
      ])
      const unknown = yield* cli("emulator", "key", "create", "--db", db, "--account-id", "nobody")
      expect(unknown.err).toContain(`no member has the account id nobody in the database ${db}: `)
      yield* Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
    }))

  it.live("take the member and the chain from KAS_ACCOUNT_ID and KAS_CHAIN_ID (emulator env's), and print --json", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-emu-cli-")))
      const db = path.join(dir, "e.db")
      const accountId = /^account id: (\S+)$/m.exec((yield* cli("emulator", "member", "create", "--db", db)).out)![1]!
      const env = { KAS_ACCOUNT_ID: accountId, KAS_CHAIN_ID: "8217" }
      // As the issue's user typed it: no --account-id, no --chain.
      const created = yield* run(["emulator", "pool", "create", "--name", "payroll", "--db", db], env)
      expect(created).toMatchObject({ code: 0, out: `krn:8217:wallet:${accountId}:account-pool:payroll` })
      // A flag wins over its variable.
      const testnet = yield* run(["emulator", "pool", "create", "--name", "payroll", "--chain", "1001", "--db", db, "--json"], env)
      expect(JSON.parse(testnet.out)).toEqual({ krn: `krn:1001:wallet:${accountId}:account-pool:payroll` })
      const pools = yield* run(["emulator", "pool", "list", "--db", db, "--json"], env)
      expect(JSON.parse(pools.out)).toEqual([
        { krn: `krn:1001:wallet:${accountId}:account-pool:default`, isDefault: true },
        { krn: `krn:1001:wallet:${accountId}:account-pool:payroll`, isDefault: false },
        { krn: `krn:8217:wallet:${accountId}:account-pool:default`, isDefault: true },
        { krn: `krn:8217:wallet:${accountId}:account-pool:payroll`, isDefault: false }
      ])
      const keys = yield* run(["emulator", "key", "create", "--db", db], env)
      expect(keys.code, keys.err).toBe(0)
      const listed = JSON.parse((yield* run(["emulator", "key", "list", "--db", db, "--json"], env)).out)
      expect(listed).toEqual([{ accessKeyId: expect.stringMatching(/^KASK/), createdAt: expect.any(Number) }])
      const members = JSON.parse((yield* cli("emulator", "member", "list", "--db", db, "--json")).out)
      expect(members).toEqual([{ accountId, createdAt: expect.any(Number) }])
      // --json wherever there is output: a new member (and its key), a new key, a deleted key.
      const withKey = JSON.parse((yield* cli("emulator", "member", "create", "--db", db, "--account-id", "team-b", "--with-key", "--json")).out)
      expect(withKey).toEqual({
        accountId: "team-b",
        accessKeyId: expect.stringMatching(/^KASK[A-Z0-9]{20}$/),
        secretAccessKey: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
        authorization: `Basic ${Buffer.from(`${withKey.accessKeyId}:${withKey.secretAccessKey}`).toString("base64")}`
      })
      expect(JSON.parse((yield* cli("emulator", "member", "create", "--db", db, "--json")).out)).toEqual({ accountId: expect.stringMatching(/^[0-9a-f-]{36}$/) })
      const key = JSON.parse((yield* cli("emulator", "key", "create", "--db", db, "--account-id", "team-b", "--json")).out)
      expect(Object.keys(key)).toEqual(["accountId", "accessKeyId", "secretAccessKey", "authorization"])
      expect(key.accountId).toBe("team-b")
      const deleted = yield* cli("emulator", "key", "delete", "--db", db, "--account-id", "team-b", "--access-key-id", key.accessKeyId, "--json")
      expect(JSON.parse(deleted.out)).toEqual({ status: "deleted", accessKeyId: key.accessKeyId })
      // Neither given: what to give, and where from.
      const none = yield* run(["emulator", "pool", "create", "--name", "x", "--db", db], {})
      expect(none).toMatchObject({ code: 2, err: "kas-wallet: --account-id (or KAS_ACCOUNT_ID) is required, e.g. --account-id 6c5f6a1e-0d3b-4f5e-9a0c-2f1e4d3c2b1a" })
      yield* Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
    }))

  it.live("serve refuses an access key id without its secret, and a bad database location", () =>
    Effect.gen(function*() {
      const half = yield* cli("emulator", "--port", "0", "--db", ":memory:", "--access-key-id", "KASKHALF")
      expect(half.code).toBe(2)
      expect(half.err).toBe("kas-wallet: KAS_ACCESS_KEY_ID (--access-key-id) and KAS_SECRET_ACCESS_KEY (--secret-access-key) must be given together")
      const kinds = yield* cli("emulator", "--port", "0", "--db", ":memory:", "--fault-kinds", "latency,teapot")
      expect(kinds.err).toContain("unknown kinds teapot")
      expect(kinds.code).toBe(2)
      const badDb = yield* cli("emulator", "--port", "0", "--db", "ftp://example.com/x")
      expect(badDb.err).toContain("unsupported database URL scheme")
      expect(badDb.out).not.toContain("listening on")
      expect(badDb.code).toBe(2)
    }))
})
