/**
 * `kas-wallet tx send | receipt` and `kas-wallet emulator fund | balance | bill`, run in process
 * against an emulator on a file database: output, one-line failures with their exit codes, and
 * `--wait` driven by the TestClock.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, TestClock } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { withClockMoving } from "../../../test/support/clock.js"
import { cli, cliEmulator } from "./_run.js"

const setup = Effect.gen(function*() {
  const dir = yield* Effect.acquireRelease(
    Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-cli-tx-"))),
    (d) => Effect.promise(() => fs.rm(d, { recursive: true, force: true }))
  )
  const db = path.join(dir, "emulator.db")
  const { emulator: e, env, secret } = yield* Effect.orDie(cliEmulator({ database: db }))
  const run = (args: ReadonlyArray<string>) =>
    Effect.map(cli(args, env), (ran) => {
      // Nothing printed ever holds the secret.
      expect(`${ran.out}\n${ran.err}`).not.toContain(secret)
      return ran
    })
  const account = Effect.map(run(["accounts", "create", "--json"]), (r) => JSON.parse(r.out).address as string)
  return { e, db, run, account }
})

describe("kas-wallet tx and the emulator's ledger commands", () => {
  it.scoped("fund, send with each fee payer, receipts (also waited for), balance and bill", () =>
    Effect.gen(function*() {
      const { account, db, e, run } = yield* setup
      const from = yield* account
      const to = yield* account
      const fund = yield* run(["emulator", "fund", from, "10KLAY", "--db", db])
      expect(fund.code, fund.err).toBe(0)
      expect(fund.out).toBe(`funded ${from.slice(0, 6)}…${from.slice(-4)} on chain 1001 with 10 KLAY (10000000000000000000 peb)\nit holds 10 KLAY (10000000000000000000 peb)`)
      const balance = yield* run(["emulator", "balance", from.toLowerCase(), "--db", db, "--json"])
      expect(JSON.parse(balance.out)).toEqual({ chainId: 1001, address: from, balance: "10000000000000000000", nonce: 0 })

      const sent = yield* run(["tx", "send", "--from", from, "--to", to, "--value", "1.5KLAY", "--fee-payer", "global", "--fee-ratio", "30", "--memo", "hi", "--json"])
      expect(sent.code, sent.err).toBe(0)
      const result = JSON.parse(sent.out)
      // --json's one form: amounts in peb as decimal strings, counts as numbers.
      expect(result).toMatchObject({ typeInt: 18, value: "1500000000000000000", gasPrice: "25000000000", feeRatio: 30, input: "0x6869", status: "Submitted" })
      // Addresses in their checksummed form, as accounts, fund and balance print them (the
      // service's transaction results have them in lower case); hashes and other hex as they are.
      expect(result).toMatchObject({ from, to, feePayer: e.globalFeePayer(1001) })
      expect(result.transactionHash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(result.rlp).toMatch(/^0x[0-9a-f]+$/)
      const pending = yield* run(["tx", "receipt", result.transactionHash, "--json"])
      expect(JSON.parse(pending.out).status).toBe("Pending")
      const human = yield* run(["tx", "receipt", result.transactionHash])
      expect(human.out).toMatch(/^status +Pending$/m)
      expect(human.out).toMatch(/^block +none yet: committed in the next block$/m)

      // --wait polls on the clock: the block comes when the TestClock says so.
      const committed = yield* withClockMoving(run(["tx", "receipt", result.transactionHash, "--wait", "--json"]))
      expect(committed.code, committed.err).toBe(0)
      expect(JSON.parse(committed.out)).toMatchObject({
        status: "Committed",
        blockNumber: 1,
        gasUsed: 36200,
        nonce: 0,
        transactionIndex: 0,
        value: "1500000000000000000",
        gasPrice: "25000000000",
        from,
        to,
        feePayer: e.globalFeePayer(1001)
      })

      // The human form of a send, waited for: who paid what.
      const done = yield* withClockMoving(run(["tx", "send", "--from", from, "--to", to, "--value", "1000peb", "--wait"]))
      expect(done.code, done.err).toBe(0)
      expect(done.out).toMatch(/^type +TxTypeValueTransfer \(8\)$/m)
      expect(done.out).toMatch(/^value +0\.000000000000001 KLAY \(1000 peb\)$/m)
      expect(done.out).toMatch(/^status +Committed$/m)
      expect(done.out).toMatch(/^fee +0\.000525 KLAY \(525000000000000 peb\)$/m)
      expect(done.out).toMatch(/^paid by +the sender$/m)

      // The member's own fee payer, for the whole fee.
      const created = yield* Effect.promise(() =>
        fetch(`${e.url}/v2/feepayer`, { method: "POST", headers: { authorization: Redacted.value(e.member.authorization), "x-chain-id": "1001" } })
          .then((r) => r.json() as Promise<{ address: string }>)
      )
      yield* run(["emulator", "fund", created.address, "1KLAY", "--db", db])
      const user = yield* run(["tx", "send", "--from", from, "--to", to, "--value", "0x10peb", "--fee-payer", created.address])
      expect(user.code, user.err).toBe(0)
      expect(user.out).toMatch(new RegExp(`^fee payer +${created.address} \\(all of the fee\\)$`, "m"))
      // Interval mining: applied when its block is made, which the running emulator does as it
      // next reads the chain (the console command reads the database file).
      yield* TestClock.adjust("1 second")
      yield* e.balance(1001, created.address)
      expect(JSON.parse((yield* run(["emulator", "balance", created.address, "--db", db, "--json"])).out).balance).toBe(
        String(10n ** 18n - 31_000n * 25_000_000_000n)
      )

      const bill = yield* run(["emulator", "bill", "--db", db])
      const fee = 36_200n * 25_000_000_000n
      const part = (fee * 30n) / 100n
      const short = (id: string, head: number) => `${id.slice(0, head)}…${id.slice(-4)}`
      const fees = `${Number(part) / 1e18} KLAY (${part} peb)`
      // A table: at 80 columns the member id and the fee payer shortened, whole with --wide.
      expect(bill.out.split("\n")).toEqual([
        `MEMBER     CHAIN  TXS  ${"FEES".padEnd(fees.length)}  PAID BY`,
        `${short(e.member.accountId, 4)}  1001   1    ${fees}  ${short(e.globalFeePayer(1001), 6)}`
      ])
      expect((yield* run(["emulator", "bill", "--db", db, "--wide"])).out.split("\n")[1]).toBe(
        `${e.member.accountId}  1001   1    ${fees}  ${e.globalFeePayer(1001)}`
      )
      expect(JSON.parse((yield* run(["emulator", "bill", "--db", db, "--json", "--chain", "8217"])).out)).toEqual([])
      const after = JSON.parse((yield* run(["emulator", "balance", from, "--db", db, "--json"])).out)
      expect(BigInt(after.balance)).toBe(10n ** 19n - 15n * 10n ** 17n - 1000n - 16n - (fee - part) - 21_000n * 25_000_000_000n)
      expect(after.nonce).toBe(3)
    }))

  it.scoped("failures: one line each, in the flags' terms, with their exit codes", () =>
    Effect.gen(function*() {
      const { account, db, run } = yield* setup
      const from = yield* account
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, number, string | RegExp]> = [
        [["tx", "send", "--to", from, "--value", "1peb"], 2, /^kas-wallet: --from is required, e\.g\. --from 0x/],
        [["tx", "send", "--from", from, "--to", "0x12", "--value", "1peb"], 2, "kas-wallet: --to must be 0x followed by 40 hex digits (got 0x12)"],
        [["tx", "send", "--from", from, "--to", from, "--value", "1.5"], 2, "kas-wallet: --value has no unit: write it with its unit, such as 1.5KLAY, 25ston or 1000peb (got 1.5)"],
        [["tx", "send", "--from", from, "--to", from, "--value", "1000"], 2, "kas-wallet: --value has no unit: write it with its unit, such as 1.5KLAY, 25ston or 1000peb (got 1000)"],
        [["tx", "send", "--from", from, "--to", from, "--value", "0x10"], 2, /^kas-wallet: --value has no unit: write it with its unit/],
        [["tx", "send", "--from", from, "--to", from, "--value", "1peb", "--fee-ratio", "30"], 2, /^kas-wallet: --fee-ratio needs --fee-payer/],
        [["tx", "send", "--from", from, "--to", from, "--value", "1peb", "--fee-payer", "global", "--fee-ratio", "100"], 2, "kas-wallet: --fee-ratio must be an integer from 1 to 99 (got 100)"],
        [["tx", "send", "--from", from, "--to", from, "--value", "1peb", "--fee-payer", "someone"], 2, /^kas-wallet: --fee-payer must be global or a fee-payer account's address/],
        [["tx", "send", "--from", from, "--to", from, "--value", "1peb", "--no-submit", "--wait"], 2, /^kas-wallet: --wait waits for a sent transaction/],
        [["tx", "send", "--from", from, "--to", from, "--value", "1peb", "--fee-payer", "global", "--fee-payer-pool", `krn:1001:wallet:x:feepayer-pool:ops`], 2, "kas-wallet: --fee-payer-pool selects the pool of --fee-payer ADDRESS, and there is none"],
        [["tx", "send", "--from", from, "--to", from, "--value", "1peb"], 8, new RegExp(`^kas-wallet: the chain refused the transfer: insufficient funds of the sender \\(HTTP 400, code 1065001: failed to send a raw transaction to klaytn node; -32000::insufficient funds of the sender for value \\[request .*\\]\\); fund ${from} or send less$`)],
        [["tx", "send", "--from", `0x${"12".repeat(20)}`, "--to", from, "--value", "1peb"], 4, /^kas-wallet: no account 0x1212121212121212121212121212121212121212 in the default pool on chain 1001 \(HTTP 400, code 1061010/],
        [["tx", "send", "--from", from, "--to", from, "--value", "1peb", "--fee-payer", from], 4, new RegExp(`^kas-wallet: ${from} is not one of the member's fee-payer accounts in the selected fee-payer pool on chain 1001 \\(HTTP 400, code 1061905: failed to get feepayer .*check --fee-payer, --fee-payer-pool and --chain$`)],
        [["tx", "receipt", "0x12"], 2, "kas-wallet: <hash> must be 0x followed by 64 hex digits (got 0x12)"],
        [["tx", "receipt", `0x${"ab".repeat(32)}`], 4, /^kas-wallet: no transaction 0x(ab){32} on chain 1001 \(HTTP 400, code 1065000/],
        [["emulator", "fund", "0x12", "1", "--db", db], 2, "kas-wallet: <address> must be 0x followed by 40 hex digits (got 0x12)"],
        [["emulator", "fund", from, "ten", "--db", db], 2, /^kas-wallet: <amount> not an amount: write it with its unit, such as 1.5KLAY, 25ston or 1000peb \(got ten\)$/],
        [["emulator", "balance", from, "--chain", "5", "--db", db], 2, "kas-wallet: --chain must be 8217 (mainnet) or 1001 (testnet) (got 5)"],
        [["emulator", "bill", "--account-id", "nobody", "--db", db], 2, new RegExp(`^kas-wallet: no member has the account id nobody in the database ${db}: `)]
      ]
      for (const [args, code, message] of cases) {
        const ran = yield* run(args)
        expect({ args, code: ran.code }).toEqual({ args, code })
        expect(ran.err.split("\n")).toHaveLength(1)
        if (typeof message === "string") expect(ran.err).toBe(message)
        else expect(ran.err).toMatch(message)
      }
      // Signed only: Pending, nothing sent.
      const signed = yield* run(["tx", "send", "--from", from, "--to", from, "--value", "1peb", "--no-submit", "--json"])
      expect(JSON.parse(signed.out)).toMatchObject({ status: "Pending", nonce: 0 })
      expect(JSON.parse((yield* run(["emulator", "balance", from, "--db", db, "--json"])).out).nonce).toBe(0)
    }))
})
