/**
 * The node's refusals as the client types them, each one caused for real on the emulator over
 * loopback HTTP: `NodeRefusal` with its `reason` and code 1065001 (insufficient funds of the sender
 * and of the fee payer, nonce too low, already known, and another refusal kept as `Other` with the
 * node's words), `PoolNotFound` for another member's pool, and `sendReliably` deciding from the
 * reason. Manual mining: a transaction stays pending until `mine`, as on a chain between blocks.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FeeDelegation, Transaction, TransactionKind, WalletClient, type WalletError } from "effect-kas-wallet"
import * as Emulator from "../../src/Emulator.js"
import { wallet } from "./support.js"

const KLAY = 10n ** 18n
const recipient = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"

const refusal = (error: WalletError.WalletError) => ({
  tag: error._tag,
  code: "code" in error ? error.code : undefined,
  reason: error._tag === "NodeRefusal" || error._tag === "SubmissionFailed" ? error.reason : undefined
})

describe("WalletClient ⇄ emulator: the node's refusals, typed", () => {
  layer(wallet({ mining: "manual" }), { excludeTestServices: true })((it) => {
    it.effect("insufficient funds of the sender and of the fee payer", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        const from = yield* WalletClient.createAccount()
        const payer = yield* WalletClient.createFeePayer()
        const poor = yield* Effect.flip(WalletClient.transferValue({ from: from.address, to: recipient, value: KLAY }))
        expect(refusal(poor)).toEqual({ tag: "NodeRefusal", code: 1065001, reason: { _tag: "InsufficientSenderFunds" } })
        yield* emulator.fund(1001, from.address, KLAY)
        const poorPayer = yield* Effect.flip(
          WalletClient.transferValue({ from: from.address, to: recipient, value: 1n, feePayer: FeeDelegation.user(payer.address) })
        )
        expect(refusal(poorPayer)).toEqual({ tag: "NodeRefusal", code: 1065001, reason: { _tag: "InsufficientFeePayerFunds" } })
      }))

    it.effect("already known while pending, nonce too low once in a block, the rest as Other with the node's words", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        const from = yield* WalletClient.createAccount()
        yield* emulator.fund(1001, from.address, KLAY)
        const sent = yield* WalletClient.transferValue({ from: from.address, to: recipient, value: 1n })
        expect(Transaction.isSigned(sent)).toBe(true)
        const again = TransactionKind.RawTransaction({ rlp: Transaction.isSigned(sent) ? sent.rlp : "0x" })
        const known = yield* Effect.flip(WalletClient.send(again, {}))
        expect(refusal(known)).toEqual({ tag: "NodeRefusal", code: 1065001, reason: { _tag: "AlreadyKnown" } })
        yield* emulator.mine()
        const low = yield* Effect.flip(WalletClient.send(again, {}))
        expect(refusal(low)).toEqual({ tag: "NodeRefusal", code: 1065001, reason: { _tag: "NonceTooLow" } })
        const high = yield* Effect.flip(WalletClient.transferValue({ from: from.address, to: recipient, value: 1n, nonce: 99 }))
        expect(refusal(high)).toEqual({ tag: "NodeRefusal", code: 1065001, reason: { _tag: "Other", text: "nonce too high" } })
      }))

    it.effect("sendReliably: a refusal of its first submission is final and carries the reason", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        const from = yield* WalletClient.createAccount()
        const payer = yield* WalletClient.createFeePayer()
        yield* emulator.fund(1001, from.address, KLAY)
        const failed = yield* Effect.flip(
          WalletClient.sendReliably(TransactionKind.ValueTransfer({ to: recipient, value: 1n }), {
            from: from.address,
            feePayer: FeeDelegation.user(payer.address)
          })
        )
        expect(refusal(failed)).toEqual({ tag: "SubmissionFailed", code: 1065001, reason: { _tag: "InsufficientFeePayerFunds" } })
        expect((failed as WalletError.SubmissionFailed).submissions).toBe(1)
      }))

    it.effect("another member's pool: PoolNotFound, with the service's code", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        const other = yield* emulator.createMember()
        const theirs = (yield* emulator.listPools(other.accountId, 1001 as never))[0]!
        const error = yield* Effect.flip(WalletClient.createAccount({ pool: theirs.krn }))
        expect(refusal(error)).toEqual({ tag: "PoolNotFound", code: 1061010, reason: undefined })
        expect((error as WalletError.PoolNotFound).serviceMessage).toContain("x-krn")
      }))
  })
})
