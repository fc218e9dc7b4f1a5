/**
 * The mining modes over HTTP on loopback: instant (a receipt `Committed` when the send answers,
 * on the wallet's routes and the node's `eth_sendRawTransaction`; `mine` refused, nothing
 * changed), interval (a transaction pending in the pool until its block's time, where a cancel
 * or a replacement of its nonce takes its place). Time is the TestClock's: no wall-clock waits.
 */
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Either, TestClock } from "effect"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Emulator from "../src/Emulator.js"
import { GasPrice, memberTx } from "./_ledger.js"
import { clientLayer, expectError } from "./_support.js"
import { hex } from "./support/klaytn.js"

const KLAY = 10n ** 18n
const OUTSIDER = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"

const ok = (reply: { readonly status: number; readonly text: string; readonly body: any }) => {
  expect(reply.status, reply.text).toBe(200)
  return reply.body
}

/** An emulator with `options`, in the mining mode they should give, and a funded account of its member. */
const fundedSender = (options: Parameters<typeof Emulator.make>[0], mining: Emulator.Service["mining"]) =>
  Effect.gen(function*() {
    const e = yield* Emulator.make({ port: 0, ...options }).pipe(Effect.orDie)
    expect(e.mining).toBe(mining)
    const t = memberTx(e)
    const from = yield* t.account()
    yield* e.fund(1001, from, KLAY)
    return { e, from, t }
  })

describe("instant mining", () => {
  it.scoped("the receipt is Committed when the send answers, on the wallet's routes and the node's; mine is refused and changes nothing", () =>
    Effect.gen(function*() {
      const { e, from, t } = yield* fundedSender({ mining: "instant" }, "instant")
      const receipts = yield* Effect.forEach(["value", "fd"] as const, (kind) =>
        Effect.gen(function*() {
          const sent = ok(yield* t.transfer(kind, { from, to: OUTSIDER, value: "0x1" }))
          return ok(yield* t.receipt(sent.transactionHash))
        }))
      // A block each, one after the other, no time passing.
      expect(receipts.map((r) => [r.status, r.blockNumber])).toEqual([["Committed", "0x1"], ["Committed", "0x2"]])
      expect(yield* e.balance(1001, from)).toMatchObject({ nonce: 2 })

      // A transaction signed elsewhere, sent to the node: in its block when the node answers.
      const key = secp256k1.utils.randomSecretKey()
      const address = Either.getOrThrow(Klaytn.addressOfKey(key))
      yield* e.fund(1001, address, KLAY)
      const made = Klaytn.makeTransaction({ kind: "legacy", from: address, to: OUTSIDER as any, value: 5n, nonce: 0, gas: 21_000, gasPrice: GasPrice })
      if (Either.isLeft(made)) throw new Error(JSON.stringify(made.left))
      const signed = Klaytn.signAsSender(made.right, { chainId: 1001, sender: key })
      if (Either.isLeft(signed)) throw new Error(JSON.stringify(signed.left))
      const raw = hex(signed.right)
      const rpc = (method: string, params: ReadonlyArray<unknown>) =>
        Effect.map(t.post("/v1/klaytn", { jsonrpc: "2.0", id: 1, method, params }), (r) => {
          expect(r.body.error, r.text).toBeUndefined()
          return r.body.result
        })
      const hash = yield* rpc("eth_sendRawTransaction", [raw])
      expect(yield* rpc("eth_getTransactionReceipt", [hash])).toMatchObject({ status: "0x1", blockNumber: "0x3" })
      expect(yield* rpc("eth_blockNumber", [])).toBe("0x3")

      // mine: a 400 with its words, for the console route and in-process; no block is made.
      const refused = yield* t.post("/_emulator/mine", {})
      expectError(refused, 400, 1061615)
      expect(refused.body.message).toContain("instant mining")
      expect(yield* Effect.flip(e.mine())).toMatchObject({ _tag: "ConsoleError", reason: "InvalidInput" })
      expect(yield* rpc("eth_blockNumber", [])).toBe("0x3")
    }).pipe(Effect.provide(clientLayer)))
})

describe("interval mining: a real pending pool", () => {
  it.scoped("a transaction is pending until its block's time; a cancel of a pending one succeeds; a replacement takes its nonce", () =>
    Effect.gen(function*() {
      const { e, from, t } = yield* fundedSender({ blockInterval: "1 second" }, "interval")
      const status = (hash: string) => Effect.map(t.receipt(hash), (r) => ok(r).status as string)

      const first = ok(yield* t.transfer("value", { from, to: OUTSIDER, value: "0x1" }))
      expect(yield* status(first.transactionHash)).toBe("Pending")
      expect(yield* e.balance(1001, from)).toMatchObject({ balance: KLAY, nonce: 0 })

      // A cancel of the pending transaction takes its nonce: the transfer never happens.
      const cancel = ok(yield* t.request("DELETE", "/v2/tx", { from, nonce: first.nonce }))
      expect(cancel.nonce).toBe(first.nonce)
      expectError(yield* t.receipt(first.transactionHash), 400, 1065000)

      // A replacement (the same nonce through the cancel route by hash) of the cancel itself works
      // too; the next transfer takes the next nonce.
      const second = ok(yield* t.transfer("value", { from, to: OUTSIDER, value: "0x2" }))
      expect(second.nonce).toBe(first.nonce + 1)
      const replaced = ok(yield* t.request("DELETE", "/v2/tx", { from, transactionHash: second.transactionHash }))
      expect(replaced.nonce).toBe(second.nonce)
      expectError(yield* t.receipt(second.transactionHash), 400, 1065000)

      // Until the block's time, pending; then committed, in one block, and applied.
      yield* TestClock.adjust(999)
      expect(yield* status(cancel.transactionHash)).toBe("Pending")
      yield* TestClock.adjust(1)
      const [a, b] = [ok(yield* t.receipt(cancel.transactionHash)), ok(yield* t.receipt(replaced.transactionHash))]
      expect([a.status, b.status, a.blockNumber]).toEqual(["Committed", "Committed", b.blockNumber])
      const after = yield* e.balance(1001, from)
      expect(after.nonce).toBe(2)
      // Only the cancels' fees: no value moved.
      expect(after.balance).toBe(KLAY - BigInt(a.gasUsed) * GasPrice - BigInt(b.gasUsed) * GasPrice)
      expect((yield* e.balance(1001, OUTSIDER)).balance).toBe(0n)
    }).pipe(Effect.provide(clientLayer)))
})
