/**
 * The WalletClient's transfers against the emulator over loopback HTTP: the three fee delegations,
 * the receipt before and after its block, and awaiting it, with the block clock driven by the
 * TestClock (no wall-clock wait).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Clock, Effect, Schedule, TestClock } from "effect"
import { FeeDelegation, Transaction, WalletClient, type WalletError } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as Emulator from "../../src/Emulator.js"
import { withClockMoving } from "../../../../test/support/clock.js"
import { wallet } from "./support.js"

const KLAY = 10n ** 18n
const GasPrice = 25_000_000_000n
const recipient = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"

describe("WalletClient ⇄ emulator: transfers and receipts", () => {
  layer(wallet())((it) => {
    it.effect("transferValue with each fee delegation: typed results, the fee paid by who it says, typed refusals", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        const from = yield* WalletClient.createAccount()
        const payer = yield* WalletClient.createFeePayer()
        const ops = yield* emulator.createFeePayerPool({ accountId: emulator.member.accountId, chainId: 1001 as any, name: "ops" })
        const payerInOps = yield* WalletClient.createFeePayer({ feePayerPool: ops.krn })
        yield* emulator.fund(1001, from.address, 5n * KLAY)
        yield* emulator.fund(1001, payer.address, KLAY)
        yield* emulator.fund(1001, payerInOps.address, KLAY)

        const basic = yield* WalletClient.transferValue({ from: from.address, to: recipient, value: KLAY, memo: "rent" })
        expect(basic.typeInt).toBe(Wire.TxType.ValueTransferMemo)
        expect(Transaction.isFeeDelegatedResult(basic)).toBe(false)
        expect(basic.value).toBe(KLAY)
        expect(basic.input).toBe(Wire.memoInput("rent"))

        const global = yield* WalletClient.transferValue({ from: from.address, to: recipient, value: 1n, feePayer: FeeDelegation.global, feeRatio: 30 })
        expect(global.typeInt).toBe(Wire.TxType.FeeDelegatedValueTransferWithRatio)
        expect(Transaction.isFeeDelegatedResult(global) && global.feePayer).toBe(emulator.globalFeePayer(1001))
        expect(Transaction.isFeeDelegatedResult(global) && global.feeRatio).toBe(30)

        const user = yield* WalletClient.transferValue({ from: from.address, to: recipient, value: 2n, feePayer: FeeDelegation.user(payer.address) })
        expect(user.typeInt).toBe(Wire.TxType.FeeDelegatedValueTransfer)
        expect(Transaction.isFeeDelegatedResult(user) && user.feePayer).toBe(payer.address)

        // Both pools in x-krn: the fee payer is in the named fee-payer pool.
        const inOps = yield* WalletClient.transferValue({
          from: from.address,
          to: recipient,
          value: 3n,
          feePayer: FeeDelegation.user(payerInOps.address),
          feePayerPool: ops.krn,
          feeRatio: 50
        })
        expect(Transaction.isFeeDelegatedResult(inOps) && inOps.feePayer).toBe(payerInOps.address)
        expect([basic.nonce, global.nonce, user.nonce, inOps.nonce]).toEqual([0, 1, 2, 3])

        // Interval mining: applied when their block is made.
        yield* TestClock.adjust("1 second")
        const fee = (gas: number) => BigInt(gas) * GasPrice
        expect((yield* emulator.balance(1001, from.address)).balance).toBe(
          5n * KLAY - KLAY - 1n - 2n - 3n - fee(21_400) - (fee(36_000) - (fee(36_000) * 30n) / 100n) - (fee(36_000) - fee(36_000) / 2n)
        )
        expect((yield* emulator.balance(1001, payer.address)).balance).toBe(KLAY - fee(31_000))
        expect((yield* emulator.balance(1001, payerInOps.address)).balance).toBe(KLAY - fee(36_000) / 2n)
        expect(yield* emulator.feeBills({ accountId: emulator.member.accountId })).toEqual([
          { accountId: emulator.member.accountId, chainId: 1001, feePayer: emulator.globalFeePayer(1001), fees: (fee(36_000) * 30n) / 100n, transactions: 1 }
        ])

        // The service's refusals, typed.
        const poor = yield* Effect.flip(WalletClient.transferValue({ from: from.address, to: recipient, value: 10n * KLAY }))
        expect([poor._tag, (poor as WalletError.NodeRefusal).code, (poor as WalletError.NodeRefusal).reason])
          .toEqual(["NodeRefusal", 1065001, { _tag: "InsufficientSenderFunds" }])
        const foreign = yield* Effect.flip(
          WalletClient.transferValue({ from: from.address, to: recipient, value: 1n, feePayer: FeeDelegation.user(from.address) })
        )
        // Not a fee-payer account of the member: the service's "failed to get feepayer".
        expect([foreign._tag, (foreign as WalletError.InvalidRequest).code]).toEqual(["InvalidRequest", 1061905])
      }))

    it.effect("getTransactionReceipt: Pending until the next block, then Committed with its block; awaitReceipt polls until then", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        const from = yield* WalletClient.createAccount()
        yield* emulator.fund(1001, from.address, KLAY)
        const sent = yield* WalletClient.transferValue({ from: from.address, to: recipient, value: 7n, feePayer: FeeDelegation.global }).pipe(
          Effect.filterOrDieMessage(Transaction.isSigned, "the emulator signs at once")
        )
        const pending = yield* WalletClient.getTransactionReceipt(sent.transactionHash)
        expect(pending.status).toBe("Pending")
        expect(Transaction.isFinal(pending)).toBe(false)

        const started = yield* Clock.currentTimeMillis
        const committed = yield* withClockMoving(
          WalletClient.awaitReceipt(sent.transactionHash, { schedule: Schedule.spaced("200 millis"), timeout: "10 seconds" })
        )
        // It polled until the next block: a second at most.
        const waited = (yield* Clock.currentTimeMillis) - started
        expect(waited).toBeGreaterThan(0)
        expect(waited).toBeLessThanOrEqual(1_300)
        expect(committed.status).toBe("Committed")
        expect(committed.transactionHash).toBe(sent.transactionHash)
        expect(committed.gasUsed).toBe(31_000)
        expect(committed.feePayer).toBe(emulator.globalFeePayer(1001))
        expect(committed.blockNumber).toBeGreaterThan(0)
        expect(yield* WalletClient.getTransactionReceipt(sent.transactionHash)).toEqual(committed)
      }))

    it.effect("awaitReceipt of a hash the chain does not have gives up with ReceiptTimeout", () =>
      Effect.gen(function*() {
        const unknown = `0x${"cd".repeat(32)}`
        const notFound = yield* Effect.flip(WalletClient.getTransactionReceipt(unknown))
        expect([notFound._tag, (notFound as WalletError.InvalidRequest).code]).toEqual(["InvalidRequest", 1065000])
        const timedOut = yield* Effect.flip(withClockMoving(WalletClient.awaitReceipt(unknown, { timeout: "5 seconds" })))
        expect(timedOut).toMatchObject({ _tag: "ReceiptTimeout", hash: unknown, waitedMillis: 5000 })
      }))
  })
})
