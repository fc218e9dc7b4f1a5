/**
 * `kas-wallet tx relay | cancel | anchor | update-key` and `--legacy` / `--reliable`: every
 * argument refused before anything is sent, one line each with exit code 2, in process and
 * without a service (nothing here reaches one); the message of a failed `--reliable` send.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WalletError } from "effect-kas-wallet"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Messages from "../src/output/Messages.js"
import { cli } from "./_run.js"

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
      const keyFile = path.join(dir, "key.json")
      fs.writeFileSync(keyFile, JSON.stringify({ keyType: 4, key: { threshold: 1, weightedKeys: [{ publicKey: key(1), weight: 0 }] } }))
      const unreachable = JSON.stringify({ keyType: 4, key: { threshold: 3, weightedKeys: [{ publicKey: key(1), weight: 1 }, { publicKey: key(2), weight: 1 }] } })
      const tx = (...args: ReadonlyArray<string>) => ["tx", ...args]
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
        [tx("cancel", "--from", from, "--nonce", "3", "--hash", hash), "give the pending transaction once: --nonce N or --hash HASH, not both"],
        [tx("cancel", "--from", from), "--nonce N or --hash HASH is required: the pending transaction to cancel"],
        [tx("cancel", "--from", from, "--hash", "0x12"), "--hash must be 0x followed by 64 hex digits (got 0x12)"],
        [tx("anchor", "--from", from, "--data", "0xabc"), "--data must be 0x followed by an even, non-zero number of hex digits (got 0xabc)"],
        [tx("anchor", "--from", from, "--data", "0x"), "--data must be 0x followed by an even, non-zero number of hex digits (got 0x)"],
        [tx("anchor", "--from", from), "--data is required, e.g. --data 0x5d3c4cbd2f6f1f10e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934c"],
        [tx("update-key", "--from", from, "--key", unreachable), "--key key.threshold: threshold 3 cannot be reached: the weights sum to 2"],
        [tx("update-key", "--from", from, "--key", "{\"keyType\":2}"), "--key key is missing"],
        [tx("update-key", "--from", from, "--key", keyFile), `--key ${keyFile} key.weightedKeys.0.weight: must be a positive integer`],
        [tx("update-key", "--from", from, "--key", "{keyType:1}"), "--key is not JSON"],
        [tx("update-key", "--from", from, "--legacy", "--fail"), "give the new key once: --key JSON|FILE, --legacy or --fail"],
        [tx("update-key", "--from", from), "--key JSON|FILE, --legacy or --fail is required: the new account key, e.g. --key new-key.json"],
        [
          tx("send", "--from", from, "--to", from, "--value", "1peb", "--legacy", "--fee-payer", "global"),
          "--legacy: a legacy transaction's sender pays its fee; leave out --fee-payer, --fee-ratio and --fee-payer-pool"
        ],
        [tx("execute", "--from", from, "--to", from, "--input", "0x12", "--legacy", "--fee-payer", from), "--legacy: a legacy transaction's sender pays its fee"],
        [tx("send", "--from", from, "--to", from, "--value", "1peb", "--legacy", "--memo", "hi"), "--memo: a legacy transfer has no memo; leave out --memo or --legacy"],
        [tx("send", "--from", from, "--to", from, "--value", "1peb", "--reliable", "--no-submit"), "--reliable signs, then submits: leave out --no-submit or --reliable"],
        [tx("relay", big), `<file> ${big} holds more than 65536 bytes (64 KiB): not read; is it the right file?`],
        [tx("relay", bad), `<file> ${bad} must hold an RLP: 0x followed by an even, non-zero number of hex digits (got 0xf8zz)`],
        [tx("relay", path.join(dir, "none.rlp")), `<file> ${path.join(dir, "none.rlp")} cannot be read: ENOENT`],
        [tx("relay", bad, "--fee-ratio", "30"), `<file> ${bad} must hold an RLP`]
      ]
      try {
        for (const [args, message] of cases) {
          const ran = yield* cli(args)
          expect({ args, code: ran.code, out: ran.out }).toEqual({ args, code: 2, out: "" })
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
})
