/**
 * `kas-wallet accounts multisig update | pending | sign | append` and `kas-wallet tx sign`, run in
 * process against an emulator: an account made multisig with signers named by address or public
 * key, a transfer from it pending, listed, signed by one signer, a signature made by id appended,
 * the receipt awaited (`--wait`); bad input is one line and exit code 2 with nothing sent.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { withClockMoving } from "../../../test/support/clock.js"
import { cli, cliEmulator } from "./_run.js"
import { stillToSign } from "../src/commands/accounts/multisig/Handlers.js"
import * as Output from "../src/output/Output.js"

type Ran = { readonly code: number; readonly out: string; readonly err: string }

const ok = (ran: Ran, secret: string) => {
  expect(ran.code, ran.err).toBe(0)
  expect(ran.out + ran.err).not.toContain(secret)
  return ran.out
}

describe("kas-wallet accounts multisig", () => {
  // The emulator's blocks and `--wait`'s polls are on the TestClock, moved on only while the
  // command waits: the block comes without a second of waiting for it.
  it.effect("update (signers by address and by public key), send Pending, pending, tx sign, sign, append --wait", () =>
    Effect.scoped(Effect.gen(function*() {
      const { emulator: e, env, secret } = yield* cliEmulator()
      const account = async () => JSON.parse(ok(await Effect.runPromise(cli(["accounts", "create", "--json"], env)), secret))
      const [treasury, a, b, c, to] = yield* Effect.promise(() => Promise.all([account(), account(), account(), account(), account()]))
      yield* e.fund(1001, treasury.address, 10n ** 18n)

      const updated = JSON.parse(ok(yield* cli(
        ["accounts", "multisig", "update", treasury.address, "--threshold", "3", "--keys", `${a.address}:2`, b.publicKey, c.address, "--json"],
        env
      ), secret))
      expect(updated.multiSigKeys).toEqual([{ publicKey: a.publicKey, weight: 2 }, { publicKey: b.publicKey, weight: 1 }, { publicKey: c.publicKey, weight: 1 }])
      // Interval mining: the account's multisig key holds once the update's block is made.
      yield* TestClock.adjust("1 second")

      const sent = JSON.parse(ok(yield* cli(["tx", "send", "--from", treasury.address, "--to", to.address, "--value", "1000peb", "--json"], env), secret))
      expect(sent.status).toBe("Pending")
      const id = sent.transactionId as string
      const table = ok(yield* cli(["accounts", "multisig", "pending", b.address, "--wide"], env), secret)
      expect(table).toContain(id)
      const narrow = ok(yield* cli(["accounts", "multisig", "pending", b.address], env), secret)
      expect(narrow).toMatch(new RegExp(`^${id.slice(0, 6)}…${id.slice(-4)} +0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4} +\\d+ +\\d+ +\\d+(\\+\\d+)+ +\\d+ +`, "m"))
      for (const line of narrow.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80)
      expect(table).toContain("(last page)")
      const listed = ok(yield* cli(["accounts", "multisig", "pending", treasury.address, "--all", "--json"], env), secret).trim().split("\n")
      expect(listed.map((line) => JSON.parse(line).transactionId)).toEqual([id])

      const signature = ok(yield* cli(["tx", "sign", c.address, id, "--json"], env), secret).trim()
      expect(Object.keys(JSON.parse(signature)).sort()).toEqual(["R", "S", "V"])
      const first = ok(yield* cli(["accounts", "multisig", "sign", b.address, id], env), secret)
      expect(first).toContain("Signed: weight 1 of 3 (this signature 1)")
      // Two whole addresses would pass 80 columns: shortened, as the tour prints them (whole with --wide).
      const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`
      expect(first).toContain(`still to sign: ${short(a.address)}, ${short(c.address)}`)
      const second = JSON.parse(ok(yield* cli(["accounts", "multisig", "append", id, signature, "--json"], env), secret))
      expect(second).toMatchObject({ status: "Signed", signedWeight: 2 })
      const last = ok(yield* withClockMoving(cli(["accounts", "multisig", "sign", a.address, id, "--wait"], env)), secret)
      expect(last).toMatch(/^Submitted: weight 4 of 3 \(this signature 2\)\nsent: 0x[0-9a-f]{64}\nCommitted in block \d+, \d+ gas, 3 sender signatures$/)
      expect((yield* e.balance(1001, to.address)).balance).toBe(1000n)
      const none = ok(yield* cli(["accounts", "multisig", "pending", treasury.address], env), secret)
      expect(none).toContain("(nothing waits for signers)")
    })), { timeout: 30_000 })

  it.live("bad input: one line, exit code 2, nothing sent", () =>
    Effect.gen(function*() {
      const env = { KAS_WALLET_URL: "http://127.0.0.1:9", KAS_ACCESS_KEY_ID: "KASKTEST", KAS_SECRET_ACCESS_KEY: "s3cret" }
      const address = "0xa809284C83b901eD106Aba4Ccda14628Af128e14"
      const id = `0x${"ab".repeat(32)}`
      for (
        const [args, message] of [
          [["accounts", "multisig", "update", address, "--keys", address], /--threshold N is required/],
          [["accounts", "multisig", "update", address, "--threshold", "1"], /--keys KEY\[:WEIGHT\]\.\.\. is required/],
          [["accounts", "multisig", "update", address, "--threshold", "1", "--keys", "0x1234"], /--keys must be KEY\[:WEIGHT\]/],
          [["accounts", "multisig", "update", address, "--threshold", "1", "--keys", `${address}:0`], /the weight of/],
          [["accounts", "multisig", "update", "0x12", "--threshold", "1", "--keys", address], /<address>/],
          [["accounts", "multisig", "sign", address, "0x12"], /<transaction-id> must be a pending transaction's id/],
          [["accounts", "multisig", "sign", "nope", id], /<signer>/],
          [["accounts", "multisig", "append", id, "{\"V\":\"0x7f5\"}"], /<json> must be \{/],
          [["accounts", "multisig", "append", id, "[nope"], /<json> must be JSON/],
          [["tx", "sign", address, "nope"], /<transaction-id>/]
        ] as const
      ) {
        const ran = yield* cli([...args], env)
        expect(ran.code, `${args.join(" ")}: ${ran.err}`).toBe(2)
        expect(ran.err.trim().split("\n")).toHaveLength(1)
        expect(ran.err).toMatch(message)
      }
    }))
})

describe("who is still to sign", () => {
  it("at 80 columns, however many signers (a multisig key holds up to 10): four a line, aligned; --wide: one line", () => {
    const signers = Array.from({ length: 10 }, (_, i) => `0x${(i + 1).toString(16).repeat(40)}`)
    const fitted = Output.lines(stillToSign(signers, { wide: false }).join("\n"))
    for (const line of fitted.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80)
    expect(fitted.split("\n")).toHaveLength(3)
    expect(fitted.split("\n")[1]).toBe(`${" ".repeat(15)}0x5555…5555, 0x6666…6666, 0x7777…7777, 0x8888…8888,`)
    expect(stillToSign(signers, { wide: true })).toEqual([`still to sign: ${signers.join(", ")}`])
    expect(stillToSign([], { wide: false })).toEqual(["still to sign: (none: it waits for an earlier transaction of the account)"])
  })
})
