/**
 * `kas-wallet tour` (`npm start`, the README's first command): every step runs against its
 * in-process emulator and says what happened, the transfer's fee split to the peb.
 *
 * Live clock: the tour stamps its time range with the wall clock, and its transactions wait for
 * the emulator's next block (a quarter of a second in the tour).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { cli } from "./_run.js"

describe("kas-wallet tour", () => {
  it.live("walks through accounts, pools, pages, streams, a typed error, a fee-delegated transfer, a token, a relayed user-signed transaction and a multisig treasury", () =>
    Effect.gen(function*() {
      // Blocks every 20 ms rather than the tour's quarter second: the same steps, less waiting.
      const ran = yield* cli(["tour"], { KAS_EMULATOR_BLOCK_INTERVAL: "20 millis" })
      expect(ran.err).toBe("")
      expect(ran.code).toBe(0)
      const steps = [...ran.out.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]))
      expect(steps).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
      // Every line fits 80 columns, as every command's output does.
      for (const line of ran.out.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80)
      expect(ran.out).toMatch(/^ {3}5 accounts streamed from /m)
      expect(ran.out).toContain("caught AccountNotFound: HTTP 400, code 1061010, \"data don't exist\"")
      // 36,000 gas at 25 ston is 0.0009 KLAY: 30% to the global fee payer, 70% and the value to the sender.
      expect(ran.out).toMatch(/^ {3}submitted 0x[0-9a-f]{8}…[0-9a-f]{6}, nonce 0\n {5}a signed Klaytn TxTypeFeeDelegatedValueTransferWithRatio \(type 10\)$/m)
      expect(ran.out).toMatch(/^ {3}Committed in block \d+: 36000 gas at 25 ston, a fee of 0\.0009 KLAY$/m)
      expect(ran.out).toContain("the global fee payer paid 30%, 0.00027 KLAY; the member's bill: 0.00027 KLAY")
      expect(ran.out).toContain("the sender paid 1.5 KLAY and the other 70%: 10 KLAY → 8.49937 KLAY")
      expect(ran.out).toContain("the recipient holds 1.5 KLAY")
      // The token: deployed and transferred with global fee delegation, read through callContract.
      expect(ran.out).toMatch(/^ {3}submitted 0x[0-9a-f]{8}…[0-9a-f]{6}: KasToken's code, initialSupply 1000000 KAST\n {5}a signed Klaytn TxTypeFeeDelegatedSmartContractDeploy \(type 41\), 1601 bytes$/m)
      const token = /^ {3}Committed in block \d+, \d+ gas\n {3}token (0x[0-9a-fA-F]{40}) \(receipt\.contractAddress\)$/m.exec(ran.out)?.[1]
      expect(token).toBeDefined()
      const [sender, recipient] = [...ran.out.matchAll(/^ {3}the console credits 10 KLAY to (0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4})|transfer\((0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}), 250 KAST\)$/gm)]
        .map((m) => m[1] ?? m[2])
      expect(ran.out).toMatch(/^ {3}submitted 0x[0-9a-f]{8}…[0-9a-f]{6}: transfer\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}, 250 KAST\)\n {5}a signed Klaytn TxTypeFeeDelegatedSmartContractExecution \(type 49\)$/m)
      expect(ran.out).toMatch(/^ {3}Committed in block \d+, \d+ gas; its Transfer log, decoded:$/m)
      expect(ran.out).toContain(`     from ${sender} to ${recipient}, value 250000000000000000000 (250 KAST)`)
      expect(ran.out).toContain(`balanceOf through callContract (read only, nothing signed):\n     ${sender} holds 999750 KAST, ${recipient} holds 250 KAST`)
      // Global fee delegation: the sender's KLAY did not move, the member is billed for three transactions.
      expect(ran.out).toMatch(/^ {3}the sender paid no fee: it still holds 8\.49937 KLAY\n {3}the member's bill: 0\.\d+ KLAY for 3 transactions$/m)
      // A user's own signed transaction, relayed with the global fee payer, verified, sent reliably.
      expect(ran.out).toMatch(/^ {3}submitted 0x[0-9a-f]{8}…[0-9a-f]{6}, verified: the user's own transaction\n {5}with the global fee payer's signature added \(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\)$/m)
      expect(ran.out).toMatch(/^ {3}Committed in block \d+: the user paid no fee, 1 KLAY → 0\.75 KLAY$/m)
      // A multisig treasury: pending, one signature, the second sends it.
      expect(ran.out).toMatch(/^ {3}a transfer of 0\.1 KLAY from it waits: status Pending, no signature yet\n {5}transaction id 0x[0-9a-f]{8}…[0-9a-f]{6}$/m)
      expect(ran.out).toMatch(/^ {3}0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4} signs: Signed, weight 1 of 2\n {5}still to sign: 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}, 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}$/m)
      expect(ran.out).toMatch(/^ {3}Committed in block \d+ with 2 sender signatures; the treasury paid the fee$/m)
      expect(ran.out).toContain("packages/cli/docs/cli.md")
      // The member's secret stays in memory.
      expect(ran.out).not.toMatch(/secret access key:|Basic [A-Za-z0-9+/=]{8,}/i)
    }), { timeout: 60_000 })
})
