/**
 * The client's multisig lifecycle against the emulator: an account updated to a weighted set of
 * its member's keys, a transfer from it pending, its pending transactions streamed, signatures
 * collected (a signer's, and one made by an account and appended), the receipt awaited; the
 * client's checks before sending.
 */
import { expect, layer } from "@effect/vitest"
import { Chunk, Effect, Either, Schedule, Stream } from "effect"
import { AccountKey, Multisig, Transaction, WalletClient } from "effect-kas-wallet"
import * as Emulator from "../../src/Emulator.js"
import { wallet } from "./support.js"

layer(wallet({ mining: "manual" }))("the client's multisig accounts against the emulator", (it) => {
  it.effect("update, send (Pending), stream the pending ones, sign and append, await the receipt", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const account = yield* WalletClient.createAccount()
      const [a, b, c] = yield* Effect.all([WalletClient.createAccount(), WalletClient.createAccount(), WalletClient.createAccount()])
      const to = (yield* WalletClient.createAccount()).address
      yield* e.fund(1001, account.address, 10n ** 18n)

      const updated = yield* WalletClient.updateToMultisig(
        account.address,
        AccountKey.WeightedMultiSig({ threshold: 2, keys: [a!, b!, c!].map((s) => ({ publicKey: s.publicKey, weight: 1 })) })
      )
      expect(updated.threshold).toBe(2)
      expect(updated.multiSigKeys.map((k) => k.publicKey)).toEqual([a!.publicKey, b!.publicKey, c!.publicKey])
      yield* e.mine(1001)
      expect((yield* WalletClient.getAccount(account.address)).threshold).toBe(2)

      const sent = yield* WalletClient.transferValue({ from: account.address, to, value: 7n })
      expect(Transaction.isMultisigPending(sent)).toBe(true)
      const id = (sent as Transaction.MultisigPendingResult).transactionId
      const another = yield* WalletClient.transferValue({ from: account.address, to, value: 8n })

      // Both listed for a signer, one page at a time, newest first.
      const pending = Chunk.toReadonlyArray(yield* Stream.runCollect(WalletClient.multisigTransactions(b!.address, { pageSize: 1 })))
      expect(pending.map((p) => p.transactionId)).toEqual([(another as Transaction.MultisigPendingResult).transactionId, id])
      expect(pending[1]!.txData.value).toBe(7n)

      const signature = yield* WalletClient.signTransactionById(c!.address, id)
      const first = yield* WalletClient.signMultisigTransaction(a!.address, id)
      expect(first).toMatchObject({ status: "Signed", signedWeight: 1, reminders: [b!.address, c!.address] })
      const second = yield* WalletClient.appendSignatures(id, [signature])
      expect(Multisig.isSubmitted(second)).toBe(true)
      yield* e.mine(1001)
      const receipt = yield* WalletClient.awaitReceipt(second.transactionHash!, { schedule: Schedule.spaced("10 millis"), timeout: "5 seconds" })
      expect(receipt).toMatchObject({ status: "Committed", value: 7n })
      expect(receipt.signatures).toHaveLength(2)
      expect(Chunk.size(yield* Stream.runCollect(WalletClient.multisigTransactions(account.address)))).toBe(1)
    }))

  it.effect("checked before sending: threshold out of reach, a key twice, a key off the curve, a bad id; none of them sent", () =>
    Effect.gen(function*() {
      const a = yield* WalletClient.createAccount()
      const b = yield* WalletClient.createAccount()
      const keys = [{ publicKey: a.publicKey, weight: 1 }, { publicKey: b.publicKey, weight: 1 }]
      const fails = (effect: Effect.Effect<unknown, any, WalletClient.WalletClient>) =>
        Effect.map(Effect.either(effect), (r) => {
          expect(Either.isLeft(r) && r.left._tag).toBe("InvalidArgument")
          return Either.isLeft(r) ? `${(r.left as { readonly argument: string }).argument}: ${r.left.message}` : ""
        })
      expect(yield* fails(WalletClient.updateToMultisig(a.address, { threshold: 3, weightedKeys: keys }))).toMatch(/^key\.threshold: .*cannot be reached/)
      expect(yield* fails(WalletClient.updateToMultisig(a.address, { threshold: 1, weightedKeys: [keys[0]!, keys[0]!] }))).toMatch(/^key\.weightedKeys.*appears twice/)
      expect(yield* fails(WalletClient.updateToMultisig(a.address, { threshold: 1, weightedKeys: [{ publicKey: `0x02${"00".repeat(32)}`, weight: 1 }] })))
        .toMatch(/^key\.weightedKeys\.0\.publicKey: .*not a point/)
      expect(yield* fails(WalletClient.updateToMultisig(a.address, { threshold: 1, weightedKeys: [{ ...keys[0]!, weight: 0 }] }))).toMatch(/^key\.weightedKeys.*positive/)
      expect(yield* fails(WalletClient.signMultisigTransaction(a.address, "0x12"))).toMatch(/^transactionId: /)
      expect(yield* fails(WalletClient.appendSignatures(`0x${"12".repeat(32)}`, []))).toMatch(/^signatures/)
      expect(yield* fails(WalletClient.listMultisigTransactions("0x12"))).toMatch(/^address: /)
      expect((yield* WalletClient.getAccount(a.address)).multiSigKeys).toBeUndefined()
    }))
})
