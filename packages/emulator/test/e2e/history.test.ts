/**
 * The client's fee-delegation history against the emulator: transfers whose fee the global fee
 * payer paid (its share with a ratio) are the history, newest first, streamed page by page and
 * fetched by hash; the client's schemas decode every answer; an empty history is an empty stream.
 */
import { expect, layer } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import { FeeDelegation, Transaction, WalletClient } from "effect-kas-wallet"
import * as Emulator from "../../src/Emulator.js"
import { wallet } from "./support.js"

layer(wallet({ mining: "manual" }))("the client's fee-delegation history against the emulator", (it) => {
  it.effect("global fee payments only, newest first, by pages and by hash; the ratio's share; none: an empty stream", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const from = (yield* WalletClient.createAccount()).address
      const to = (yield* WalletClient.createAccount()).address
      yield* e.fund(1001, from, 10n ** 18n)
      expect(Chunk.size(yield* Stream.runCollect(WalletClient.feeDelegationHistory({ from })))).toBe(0)
      const sent = yield* Effect.forEach([undefined, 30, undefined], (feeRatio) =>
        WalletClient.transferValue({ from, to, value: 1n, feePayer: FeeDelegation.global, ...(feeRatio !== undefined ? { feeRatio } : {}) }))
      // Paid by the sender: not in the history.
      yield* WalletClient.transferValue({ from, to, value: 1n })
      yield* e.mine(1001)
      const history = Chunk.toReadonlyArray(yield* Stream.runCollect(WalletClient.feeDelegationHistory({ from, pageSize: 2 })))
      const hashes = sent.map((r) => (r as Transaction.SignedResult).transactionHash)
      expect(history.map((r) => r.transactionHash)).toEqual([...hashes].reverse())
      const withRatio = yield* WalletClient.getFeeDelegationRecord(hashes[1]!)
      const receipt = yield* WalletClient.getTransactionReceipt(hashes[1]!)
      const fee = BigInt((receipt as Transaction.CommittedReceipt).gasUsed) * 25_000_000_000n
      expect(withRatio.chargedByPeb).toBe((fee * 30n) / 100n)
      expect(withRatio.feePayer).toBe(e.globalFeePayer(1001))
    }))
})
