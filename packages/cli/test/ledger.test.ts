/**
 * `kas-wallet emulator fund | balance | bill | mine` against both targets: a running emulator (`--url`,
 * or `KAS_WALLET_URL` from its settings) and a database (`--db`, `--data-dir`, the default data
 * directory). They never write elsewhere and claim success: funding through the settings of an
 * in-memory (`--ephemeral`) emulator reaches that emulator; a database that does not exist, or does
 * not know the address, is refused with a message pointing at `--url`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { cli, cliEmulator } from "./_run.js"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "kas-cli-ledger-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

describe("kas-wallet emulator fund | balance | bill", () => {
  it.live("through a running in-memory emulator: its settings (KAS_WALLET_URL) or --url reach it, --json alike", () =>
    Effect.gen(function*() {
      const { emulator: e, env, secret } = yield* cliEmulator()
      const address = JSON.parse((yield* cli(["accounts", "create", "--json"], env)).out).address as string
      const funded = yield* cli(["emulator", "fund", address, "10KLAY"], env)
      expect(funded.code, funded.err).toBe(0)
      // At 80 columns: the address shortened as the tour prints it; --wide has it whole.
      const shortened = `${address.slice(0, 6)}…${address.slice(-4)}`
      expect(funded.out).toBe(`funded ${shortened} on chain 1001 with 10 KLAY (10000000000000000000 peb)\nit holds 10 KLAY (10000000000000000000 peb)`)
      // The emulator that runs holds it: the command did not write to some other database.
      expect((yield* e.balance(1001, address)).balance).toBe(10n ** 19n)

      const { KAS_WALLET_URL: url, ...key } = env
      const json = yield* cli(["emulator", "fund", address, "1KLAY", "--url", url, "--chain", "8217", "--json"], key)
      expect(JSON.parse(json.out)).toEqual({ chainId: 8217, address, balance: "1000000000000000000", nonce: 0 })
      const balance = yield* cli(["emulator", "balance", address.toLowerCase(), "--json"], env)
      expect(JSON.parse(balance.out)).toEqual({ chainId: 1001, address, balance: "10000000000000000000", nonce: 0 })
      expect((yield* cli(["emulator", "balance", address], env)).out).toBe(
        `${shortened} on chain 1001: 10 KLAY (10000000000000000000 peb), next nonce 0`
      )
      expect((yield* cli(["emulator", "balance", address, "--wide"], env)).out).toBe(
        `${address} on chain 1001: 10 KLAY (10000000000000000000 peb), next nonce 0`
      )
      expect((yield* cli(["emulator", "fund", address, "1peb", "--wide"], env)).out).toBe(
        `funded ${address} on chain 1001 with 0.000000000000000001 KLAY (1 peb)\nit holds 10.000000000000000001 KLAY (10000000000000000001 peb)`
      )
      expect(JSON.parse((yield* cli(["emulator", "bill", "--json"], env)).out)).toEqual([])
      expect((yield* cli(["emulator", "bill"], env)).out).toBe("no bills: the global fee payer has paid no fee")

      const wrongKey = yield* cli(["emulator", "fund", address, "1KLAY"], { ...env, KAS_SECRET_ACCESS_KEY: "wrong-secret-value" })
      expect(wrongKey.code).toBe(3)
      expect(wrongKey.err).toMatch(new RegExp(`^kas-wallet: ${url} refused the key \\(HTTP 401`))
      const both = yield* cli(["emulator", "fund", address, "1KLAY", "--url", url, "--db", "x.db"], key)
      expect(both).toMatchObject({ code: 2, err: "kas-wallet: give --url (a running emulator) or --db (a database), not both" })
      for (const ran of [funded, json, balance, wrongKey]) expect(ran.out + ran.err).not.toContain(secret)
    }).pipe(Effect.scoped), 60_000)

  it.live("against a database: refused when it does not exist, or when it does not know the address (another emulator's), pointing at --url", () =>
    Effect.gen(function*() {
      const { env } = yield* cliEmulator()
      const address = JSON.parse((yield* cli(["accounts", "create", "--json"], env)).out).address as string
      const home = yield* tempDir
      // No KAS_WALLET_URL: the default data directory, where no emulator ever ran.
      const defaults = { HOME: home, XDG_DATA_HOME: home }
      const missing = yield* cli(["emulator", "fund", address, "10KLAY"], defaults)
      const database = path.join(home, "kas-wallet", "emulator", "emulator.db")
      expect(missing).toMatchObject({
        code: 2,
        out: "",
        err: `kas-wallet: no emulator database at ${database}: start one with \`kas-wallet emulator\`, or give a running emulator's --url`
      })
      expect(fs.existsSync(database)).toBe(false)
      for (const command of [["balance", address], ["bill"]]) {
        expect((yield* cli(["emulator", ...command], defaults)).code).toBe(2)
      }
      expect(fs.existsSync(database)).toBe(false)

      // A database of another emulator: it does not know the address, and is left as it was.
      const other = path.join(home, "other.db")
      expect((yield* cli(["emulator", "member", "create", "--db", other])).code).toBe(0)
      const unknown = yield* cli(["emulator", "fund", address, "10KLAY", "--db", other])
      expect(unknown.code).toBe(2)
      expect(unknown.err).toBe(
        `kas-wallet: ${address} is neither an account nor a fee-payer account of the database ${other}; ` +
          "if a running emulator (an --ephemeral one, say) holds it, give that emulator's --url (or eval its settings: KAS_WALLET_URL)"
      )
      expect(JSON.parse((yield* cli(["emulator", "balance", address, "--db", other, "--json"])).out).balance).toBe("0")
    }).pipe(Effect.scoped), 60_000)

  it.live("amounts need their unit: a bare number is refused with the hint", () =>
    Effect.gen(function*() {
      const { env } = yield* cliEmulator()
      const address = JSON.parse((yield* cli(["accounts", "create", "--json"], env)).out).address as string
      for (const amount of ["10", "1.5", "0x10"]) {
        const ran = yield* cli(["emulator", "fund", address, amount], env)
        expect(ran.code).toBe(2)
        expect(ran.err).toBe(`kas-wallet: <amount> has no unit: write it with its unit, such as 1.5KLAY, 25ston or 1000peb (got ${amount})`)
      }
    }).pipe(Effect.scoped), 60_000)

  it.live("mine: blocks of a running emulator in manual mining (--url or its settings); refused by an interval one and on a database", () =>
    Effect.gen(function*() {
      const { emulator: e, env } = yield* cliEmulator({ mining: "manual" })
      const from = JSON.parse((yield* cli(["accounts", "create", "--json"], env)).out).address as string
      yield* e.fund(1001, from, 10n ** 18n)
      const sent = yield* cli(["tx", "send", "--from", from, "--to", from, "--value", "1peb", "--json"], env)
      const hash = JSON.parse(sent.out).transactionHash as string
      const mined = yield* cli(["emulator", "mine", "--chain", "1001"], env)
      expect(mined.code, mined.err).toBe(0)
      // The block's line would pass 80 columns: its hash shortened; the transaction's fits.
      expect(mined.out).toMatch(new RegExp(`^chain 1001 block 1 0x[0-9a-f]{8}…[0-9a-f]{6}: 1 transaction\n  ${hash}$`))
      const json = JSON.parse((yield* cli(["emulator", "mine", "--blocks", "2", "--json"], env)).out)
      expect((yield* cli(["emulator", "mine", "--chain", "1001", "--wide"], env)).out).toMatch(/^chain 1001 block 4 0x[0-9a-f]{64}: 0 transactions$/)
      expect(json.map((b: { chainId: number; blockNumber: number }) => [b.chainId, b.blockNumber])).toEqual([[8217, 1], [8217, 2], [1001, 2], [1001, 3]])

      const { env: intervalEnv } = yield* cliEmulator()
      const refused = yield* cli(["emulator", "mine"], intervalEnv)
      expect(refused.code).toBe(2)
      expect(refused.err).toContain("interval mining")
      const home = yield* tempDir
      expect(yield* cli(["emulator", "mine"], { HOME: home, XDG_DATA_HOME: home })).toMatchObject({
        code: 2,
        err: "kas-wallet: mine works on a running emulator started with --mining manual: give its --url (or eval its settings: KAS_WALLET_URL)"
      })
    }).pipe(Effect.scoped), 60_000)

  it.live("snapshot prints an id, revert <id> brings the balances back once, time sets the next block's time; instant mining answers Committed and refuses mine", () =>
    Effect.gen(function*() {
      const { emulator: e, env } = yield* cliEmulator({ mining: "instant" })
      const from = JSON.parse((yield* cli(["accounts", "create", "--json"], env)).out).address as string
      yield* e.fund(1001, from, 10n ** 18n)
      const taken = yield* cli(["emulator", "snapshot"], env)
      expect(taken.code, taken.err).toBe(0)
      expect(taken.out).toMatch(/^0x[0-9a-f]+$/)

      // Instant mining: the receipt is Committed when the send answers.
      const sent = yield* cli(["tx", "send", "--from", from, "--to", from, "--value", "1peb", "--json"], env)
      const hash = JSON.parse(sent.out).transactionHash as string
      expect(JSON.parse((yield* cli(["tx", "receipt", hash, "--json"], env)).out).status).toBe("Committed")
      const refused = yield* cli(["emulator", "mine"], env)
      expect(refused.code).toBe(2)
      expect(refused.err).toContain("instant mining")

      const reverted = yield* cli(["emulator", "revert", taken.out], env)
      expect(reverted.code, reverted.err).toBe(0)
      expect(reverted.out).toBe(`reverted to ${taken.out}`)
      expect(yield* e.balance(1001, from)).toMatchObject({ balance: 10n ** 18n, nonce: 0 })
      const again = yield* cli(["emulator", "revert", taken.out], env)
      expect(again.code).toBe(2)
      expect(again.err).toContain(`no snapshot "${taken.out}"`)
      expect(yield* cli(["emulator", "revert", "one"], env)).toMatchObject({ code: 2 })

      const time = yield* cli(["emulator", "time", "2030-01-01T00:00:00Z", "--json"], env)
      expect(time.code, time.err).toBe(0)
      expect(JSON.parse(time.out)).toEqual({ timestamp: 1893456000 })
      const next = yield* cli(["tx", "send", "--from", from, "--to", from, "--value", "1peb", "--json"], env)
      const receipt = JSON.parse((yield* cli(["tx", "receipt", JSON.parse(next.out).transactionHash, "--json"], env)).out)
      expect(receipt.status).toBe("Committed")
      const back = yield* cli(["emulator", "time", "1893455999"], env)
      expect(back.code).toBe(2)
      expect(back.err).toContain("before the latest block's")
    }).pipe(Effect.scoped), 60_000)
})
