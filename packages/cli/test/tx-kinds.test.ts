/**
 * `kas-wallet tx relay | cancel | anchor | update-key` and `--legacy` / `--reliable`: every
 * argument refused before anything is sent, one line each with exit code 2, in process and
 * without a service; the message of a failed `--reliable` send; one round trip of each against
 * an in-memory emulator mining by hand (a cancellation needs a transaction still pending).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WalletError } from "effect-kas-wallet"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Messages from "../src/output/Messages.js"
import { cli, cliEmulator } from "./_run.js"

const from = "0xa809284c83b901ed106aba4ccda14628af128e14"
const hash = `0x${"ab".repeat(32)}`
const key = (n: number) => `0x02${n.toString(16).padStart(2, "0").repeat(32)}`

describe("the new transaction kinds' arguments", () => {
  it.effect("are refused before anything is sent, naming the flag and what is wrong", () =>
    Effect.gen(function*() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kas-cli-kinds-"))
      const big = path.join(dir, "big.rlp")
      fs.writeFileSync(big, `0x${"00".repeat(32 * 1024 + 1)}`)
      const bad = path.join(dir, "bad.rlp")
      fs.writeFileSync(bad, "  0xf8zz\n")
      const secret = "ab".repeat(32)
      const secretFile = path.join(dir, "key.hex")
      fs.writeFileSync(secretFile, `${secret}\n`)
      const keyFile = path.join(dir, "key.json")
      fs.writeFileSync(keyFile, JSON.stringify({ keyType: 4, key: { threshold: 1, weightedKeys: [{ publicKey: key(1), weight: 0 }] } }))
      const unreachable = JSON.stringify({ keyType: 4, key: { threshold: 3, weightedKeys: [{ publicKey: key(1), weight: 1 }, { publicKey: key(2), weight: 1 }] } })
      const tx = (...args: ReadonlyArray<string>) => ["tx", ...args]
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
        [tx("cancel", "--from", from, "--nonce", "3", "--hash", hash), "give the pending transaction once: --nonce N or --hash HASH, not both"],
        [tx("cancel", "--from", from), "--nonce N or --hash HASH is required: the pending transaction to cancel"],
        [tx("anchor", "--from", from, "--data", "0xabc"), "--data must be 0x followed by an even, non-zero number of hex digits (got 0xabc)"],
        [tx("anchor", "--from", from), "--data is required, e.g. --data 0x5d3c4cbd2f6f1f10e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934c"],
        [tx("update-key", "--from", from, "--key", unreachable), "--key key.threshold: threshold 3 cannot be reached: the weights sum to 2"],
        [tx("update-key", "--from", from, "--key", keyFile), `--key ${keyFile} key.weightedKeys.0.weight: must be a positive integer`],
        [tx("update-key", "--from", from, "--key", "{keyType:1}"), "--key is not JSON"],
        [tx("update-key", "--from", from, "--legacy", "--fail"), "give the new key once: --key JSON|FILE, --legacy or --fail"],
        [tx("update-key", "--from", from), "--key JSON|FILE, --legacy or --fail is required: the new account key, e.g. --key new-key.json"],
        [
          tx("send", "--from", from, "--to", from, "--value", "1peb", "--legacy", "--fee-payer", "global"),
          "--legacy: a legacy transaction's sender pays its fee; leave out --fee-payer, --fee-ratio and --fee-payer-pool"
        ],
        [tx("send", "--from", from, "--to", from, "--value", "1peb", "--legacy", "--memo", "hi"), "--memo: a legacy transfer has no memo; leave out --memo or --legacy"],
        [tx("send", "--from", from, "--to", from, "--value", "1peb", "--reliable", "--no-submit"), "--reliable signs, then submits: leave out --no-submit or --reliable"],
        [tx("relay", big), `<file> ${big} holds more than 65536 bytes (64 KiB): not read; is it the right file?`],
        // Its content is not shown: a file given by mistake may hold a private key.
        [tx("relay", bad), `<file> ${bad} must hold an RLP: 0x followed by an even, non-zero number of hex digits (6 characters, not all hex digits in pairs)`],
        [tx("relay", secretFile), `<file> ${secretFile} must hold an RLP: 0x followed by an even, non-zero number of hex digits (it does not start with 0x (64 characters))`],
        [tx("relay", path.join(dir, "none.rlp")), `<file> ${path.join(dir, "none.rlp")} cannot be read: ENOENT`]
      ]
      try {
        for (const [args, message] of cases) {
          const ran = yield* cli(args)
          expect({ args, code: ran.code, out: ran.out }).toEqual({ args, code: 2, out: "" })
          expect(ran.err).not.toContain(secret)
          expect(ran.err.split("\n")).toHaveLength(1)
          expect(ran.err.startsWith(`kas-wallet: ${message}`), `${args.join(" ")}: ${ran.err}`).toBe(true)
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    }))

  it("a failed --reliable send says how to look it up and resubmit it; its rlp is printed, not in the line", () => {
    const error = new WalletError.SubmissionFailed({
      transactionHash: hash,
      rlp: "0xf86c0185",
      submissions: 4,
      error: "TransportError",
      description: "timeout"
    })
    const line = Messages.walletError(error, { operation: "send", chainId: 1001, pool: undefined, url: "http://x" })
    expect(line).toContain(`kas-wallet tx receipt ${hash}`)
    expect(line).toContain("kas-wallet tx relay")
    expect(line).not.toContain("0xf86c0185")
  })

  it.scoped("each command sends its kind: cancel, anchor, update-key, relay, --legacy, --reliable", () =>
    Effect.gen(function*() {
      const { emulator: e, env, secret } = yield* Effect.orDie(cliEmulator({ mining: "manual" }))
      let requests = ""
      const run = (...args: ReadonlyArray<string>) =>
        Effect.map(cli(["tx", ...args, "--json"], env), (ran) => {
          expect(`${ran.out}\n${ran.err}`).not.toContain(secret)
          expect(ran.code, `${args.join(" ")}: ${ran.err}`).toBe(0)
          requests = ran.err
          return ran.out.split("\n").map((line) => JSON.parse(line))
        })
      const created = JSON.parse((yield* cli(["accounts", "create", "--json"], env)).out) as { address: string; publicKey: string }
      const sender = created.address
      yield* Effect.orDie(e.fund(1001, sender, 10n ** 19n))

      // A transfer left pending, then cancelled by its nonce: the cancellation takes its place.
      const [pending] = yield* run("send", "--from", sender, "--to", from, "--value", "1peb")
      const [cancelled] = yield* run("cancel", "--from", sender, "--nonce", "0")
      expect(cancelled).toMatchObject({ typeInt: 56, nonce: 0, status: "Submitted" })
      expect(cancelled.transactionHash).not.toBe(pending.transactionHash)
      const [anchored] = yield* run("anchor", "--from", sender, "--data", "0x1234", "--fee-payer", "global")
      expect(anchored).toMatchObject({ typeInt: 73, nonce: 1, input: "0x1234" })
      // Signed, then submitted as RLP (sendReliably): a legacy transfer.
      const [legacy] = yield* run("send", "--from", sender, "--to", from, "--value", "1peb", "--legacy", "--reliable", "--verbose")
      expect(legacy).toMatchObject({ typeInt: 0, nonce: 2, status: "Submitted" })
      expect(requests.match(/^> POST \S+\/v2\/tx\/\S+/gm)?.map((l) => l.replace(/^.*\/v2/, "/v2"))).toEqual(["/v2/tx/legacy", "/v2/tx/rlp"])
      // The account's own key, as a public key: KAS's key still signs its transactions (not legacy
      // ones any more: Klaytn takes those from legacy keys only).
      const [updated] = yield* run("update-key", "--from", sender, "--key", JSON.stringify({ keyType: 2, key: created.publicKey }))
      expect(updated).toMatchObject({ typeInt: 32, nonce: 3 })
      expect(updated.accountKey).toMatch(/^0x02a1/)
      // Signed only, then relayed from a file: the same transaction.
      const [signed] = yield* run("send", "--from", sender, "--to", from, "--value", "3peb", "--no-submit")
      const file = path.join(os.tmpdir(), `kas-cli-relay-${process.pid}.rlp`)
      fs.writeFileSync(file, `${signed.rlp}\n`)
      const [relayed] = yield* Effect.ensuring(run("relay", file, "--from", sender), Effect.sync(() => fs.rmSync(file, { force: true })))
      expect(relayed).toMatchObject({ transactionHash: signed.transactionHash, nonce: 4, status: "Submitted" })

      // Every one reached the chain, the cancellation in place of the transfer.
      const [block] = yield* Effect.orDie(e.mine(1001))
      expect(block!.transactions).toEqual([cancelled, anchored, legacy, updated, relayed].map((r) => r.transactionHash))

      // cli.md's recipe: signed with the fee payer it will be relayed with, then relayed.
      const [delegated] = yield* run("send", "--from", sender, "--to", from, "--value", "5peb", "--fee-payer", "global", "--no-submit")
      const signedFile = path.join(os.tmpdir(), `kas-cli-signed-${process.pid}.rlp`)
      const relayFile = <A, E, R>(rlp: string, relay: Effect.Effect<A, E, R>) =>
        Effect.ensuring(
          Effect.zipRight(Effect.sync(() => fs.writeFileSync(signedFile, `${rlp}\n`)), relay),
          Effect.sync(() => fs.rmSync(signedFile, { force: true }))
        )
      const [relayedByGlobal] = yield* relayFile(delegated.rlp, run("relay", signedFile, "--fee-payer", "global"))
      expect(relayedByGlobal).toMatchObject({ transactionHash: delegated.transactionHash, nonce: 5, status: "Submitted" })
      // A basic transaction on the fee payer's route: refused before anything is sent, in plain words.
      const [basic] = yield* run("send", "--from", sender, "--to", from, "--value", "5peb", "--no-submit")
      const refused = yield* relayFile(basic.rlp, cli(["tx", "relay", signedFile, "--fee-payer", "global"], env))
      expect(refused.code).toBe(2)
      expect(refused.err).toMatch(/^kas-wallet: invalid RLP: type TxTypeValueTransfer is not fee-delegated/)
    }))
})
