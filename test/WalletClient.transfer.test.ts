/**
 * Transfers and receipts on the wire: the endpoint and `x-krn` for each fee delegation, the body,
 * validation before sending, never a retry once a transfer may have left, and awaiting a receipt
 * on a schedule under the TestClock.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Schedule, TestClock } from "effect"
import { readFileSync } from "node:fs"
import { Address, FeeDelegation, Transaction, WalletClient, type WalletError } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { poolKrn } from "./support/fakeWallet.js"
import { json, type Recorded } from "./support/recordingClient.js"

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/tx/${name}`, import.meta.url), "utf8"))
const valueResult = fixture("tx-value-200-success.json")
const fdResult = fixture("fd-value-200-with-fee-ratio.json")
const receiptBody = fixture("tx-receipt-200-success.json")
const insufficient = fixture("error-tx-value-400-insufficient-funds-of-the-sender.json")

const from = "0x60d0902c428d0e197f97a756011fd4893c1e57b0"
const to = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"
const checksummed = (a: string) => Option.getOrThrow(Address.checksum(a))
const feePayerAddress = checksummed("0x1b71a63903e35371e2fc41c6012effb99b9a2c0f")
const feePayerPool = "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:feepayer-pool:gas"
const hash = receiptBody.transactionHash as string
// The same transaction before its block: no block fields.
const { blockHash: _h, blockNumber: _n, contractAddress: _c, gasUsed: _g, logs: _l, logsBloom: _b, transactionIndex: _i, ...pendingBody } =
  receiptBody
const pending = { ...pendingBody, status: "Pending" }

describe("transferValue on the wire", () => {
  it.effect("the sender pays, the service pays, or the member's fee payer pays: endpoint, x-krn and body", () =>
    Effect.gen(function*() {
      const bodies: Array<unknown> = []
      // What goes on the wire is the point here: the answers are the reference examples, not the
      // transactions asked for, so they are not verified (verification: WalletClient.verify.test).
      const test = testClient((r: Recorded) => json(200, r.url.pathname === "/v2/tx/value" ? valueResult : fdResult), {
        verifyResults: false,
        pool: poolKrn,
        transformClient: HttpClient.tapRequest((request) =>
          Effect.sync(() => {
            if (request.body._tag === "Uint8Array") bodies.push(JSON.parse(new TextDecoder().decode(request.body.body)))
          }))
      })
      const basic = yield* withClient(test, WalletClient.transferValue({ from, to, value: 10n ** 18n, memo: "0x123" }))
      expect(Transaction.isSigned(basic) && basic.transactionHash).toBe(valueResult.transactionHash)
      expect(Transaction.isFeeDelegatedResult(basic)).toBe(false)
      const global = yield* withClient(test, WalletClient.transferValue({ from, to, value: 0n, feePayer: FeeDelegation.global, feeRatio: 30 }))
      expect(Transaction.isFeeDelegatedResult(global) && global.feeRatio).toBe(30)
      yield* withClient(test, WalletClient.transferValue({
        from,
        to,
        value: 5n,
        feePayer: FeeDelegation.user(feePayerAddress),
        feePayerPool,
        nonce: 7,
        gas: 50_000,
        submit: false
      }))
      expect(test.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
        "POST /v2/tx/value",
        "POST /v2/tx/fd/value",
        "POST /v2/tx/fd-user/value"
      ])
      expect(test.requests[0]!.headers["x-krn"]).toBe(poolKrn)
      expect(test.requests[1]!.headers["x-krn"]).toBe(poolKrn)
      expect(test.requests[2]!.headers["x-krn"]).toBe(`${poolKrn},${feePayerPool}`)
      const ends = { from: checksummed(from), to: checksummed(to) }
      expect(bodies).toEqual([
        { ...ends, value: "0xde0b6b3a7640000", memo: "0x123" },
        { ...ends, value: "0x0", feeRatio: 30 },
        { ...ends, value: "0x5", nonce: 7, gas: 50_000, submit: false, feePayer: feePayerAddress }
      ])
    }))

  it.effect("with a user fee payer and only the default pools, no x-krn; with one pool selected, the other is the member's default", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, fdResult), { verifyResults: false })
      yield* withClient(test, WalletClient.transferValue({ from, to, value: 1n, feePayer: FeeDelegation.user(feePayerAddress) }))
      yield* withClient(test, WalletClient.transferValue({ from, to, value: 1n, feePayer: FeeDelegation.user(feePayerAddress), pool: poolKrn }))
      expect(test.requests[0]!.headers["x-krn"]).toBeUndefined()
      expect(test.requests[1]!.headers["x-krn"]).toBe(
        `${poolKrn},krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:feepayer-pool:default`
      )
    }))

  it.effect("bad arguments fail before anything is sent, naming the argument", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, valueResult))
      const argumentOf = (params: WalletClient.TransferParams) =>
        Effect.flip(withClient(test, WalletClient.transferValue(params))).pipe(
          Effect.map((e) => (e._tag === "InvalidArgument" ? e.argument : e._tag))
        )
      expect(yield* argumentOf({ from: "0x12", to, value: 1n })).toBe("from")
      expect(yield* argumentOf({ from, to: "0x0000000000000000000000000000000000000000", value: 1n })).toBe("to")
      expect(yield* argumentOf({ from, to, value: -1n })).toBe("value")
      // @ts-expect-error a fee ratio without a fee payer is a type error (the discriminated TransferParams)...
      expect(yield* argumentOf({ from, to, value: 1n, feeRatio: 30 })).toBe("feeRatio")
      // ...and, for JavaScript callers, refused before anything is sent.
      expect(yield* argumentOf({ from, to, value: 1n, feeRatio: 30 } as unknown as WalletClient.TransferParams)).toBe("feeRatio")
      expect(yield* argumentOf({ from, to, value: 1n, feePayer: FeeDelegation.global, feeRatio: 100 })).toBe("feeRatio")
      expect(yield* argumentOf({ from, to, value: 1n, feePayer: FeeDelegation.global, feeRatio: 0 })).toBe("feeRatio")
      expect(yield* argumentOf({ from, to, value: 1n, nonce: -1 })).toBe("nonce")
      expect(yield* argumentOf({ from, to, value: 1n, gas: 1.5 })).toBe("gas")
      expect(yield* argumentOf({ from, to, value: 1n, feePayer: FeeDelegation.user(feePayerAddress), feePayerPool: poolKrn })).toBe("feePayerPool")
      expect(test.requests).toHaveLength(0)
    }))

  it.effect("a transfer is sent once whatever happens after it left: 503, reset, timeout; insufficient funds keep their code", () =>
    Effect.gen(function*() {
      for (const answer of [() => json(503, { code: 1, message: "down" }), () => ({ fail: "ECONNRESET" }), () => json(400, insufficient)]) {
        const test = testClient(answer, { retry: { baseDelay: 0, maxDelay: 0, maxAttempts: 5 } })
        const error = yield* Effect.flip(withClient(test, WalletClient.transferValue({ from, to, value: 1n })))
        expect(test.requests).toHaveLength(1)
        if (error._tag === "InvalidRequest") expect(error.code).toBe(1065001)
      }
      // ...but a connection that was never made may be tried again: nothing left.
      const refused = testClient(() => ({ fail: "ECONNREFUSED" }), { retry: { baseDelay: 0, maxDelay: 0, maxAttempts: 3 } })
      yield* Effect.flip(withClient(refused, WalletClient.transferValue({ from, to, value: 1n })))
      expect(refused.requests).toHaveLength(3)
    }))
})

describe("receipts", () => {
  it.effect("getTransactionReceipt decodes the real receipt; an unknown hash keeps code 1065000", () =>
    Effect.gen(function*() {
      const test = testClient((r) =>
        r.url.pathname.endsWith(hash) ? json(200, receiptBody) : json(400, { code: 1065000, message: "data don't exist" })
      )
      const receipt = yield* withClient(test, WalletClient.getTransactionReceipt(hash.toUpperCase().replace("0X", "0x")))
      expect(receipt.status).toBe("Committed")
      expect(test.requests[0]!.url.pathname).toBe(`/v2/tx/${hash}`)
      const unknown = yield* Effect.flip(withClient(test, WalletClient.getTransactionReceipt(`0x${"ab".repeat(32)}`)))
      expect(unknown._tag === "InvalidRequest" && unknown.code).toBe(1065000)
      const bad = yield* Effect.flip(withClient(test, WalletClient.getTransactionReceipt("0x1234")))
      expect(bad._tag === "InvalidArgument" && bad.argument).toBe("hash")
    }))

  it.effect("awaitReceipt polls on its schedule through 'unknown' and 'Pending' until committed", () =>
    Effect.gen(function*() {
      let n = 0
      const test = testClient(() => {
        n++
        if (n === 1) return json(400, { code: 1065000, message: "data don't exist" })
        if (n === 2) return json(200, pending)
        return json(200, receiptBody)
      })
      const fiber = yield* Effect.fork(withClient(test, WalletClient.awaitReceipt(hash, { schedule: Schedule.spaced("2 seconds") })))
      yield* TestClock.adjust("1999 millis")
      expect(test.requests).toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      expect(test.requests).toHaveLength(2)
      yield* TestClock.adjust("2 seconds")
      const receipt = yield* Fiber.join(fiber)
      expect(receipt.blockNumber).toBe(0xba)
      expect(test.requests).toHaveLength(3)
    }))

  it.effect("awaitReceipt by default asks again soon at first (50 ms, doubling), then every second", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, pending))
      const fiber = yield* Effect.fork(withClient(test, WalletClient.awaitReceipt(hash, { timeout: "1 hour" })))
      // The reads' times: 0, then 50, 150, 350, 750, 1550 ms (the delays doubling: 50 to 800), then
      // every second (the next delay, 1600, held at a second).
      // Each read comes at its time, not a millisecond sooner.
      const reads = [0, 50, 150, 350, 750, 1_550, 2_550, 3_550, 4_550]
      const counts: Array<readonly [number, number]> = []
      let now = 0
      for (const at of reads) {
        if (at > 0) {
          yield* TestClock.adjust(at - 1 - now)
          counts.push([at - 1, test.requests.length])
        }
        yield* TestClock.adjust(at === 0 ? 0 : 1)
        counts.push([at, test.requests.length])
        now = at
      }
      expect(counts).toEqual(reads.flatMap((at, i) => (at === 0 ? [[at, 1]] : [[at - 1, i], [at, i + 1]])))
      yield* Fiber.interrupt(fiber)
    }))

  it.effect("awaitReceipt fails with ReceiptTimeout when the deadline passes; other errors end it at once", () =>
    Effect.gen(function*() {
      const pendingClient = testClient(() => json(200, pending))
      const fiber = yield* Effect.fork(Effect.flip(withClient(pendingClient, WalletClient.awaitReceipt(hash, { timeout: "10 seconds" }))))
      yield* TestClock.adjust("11 seconds")
      const error = (yield* Fiber.join(fiber)) as WalletError.ReceiptTimeout
      expect(error._tag).toBe("ReceiptTimeout")
      expect(error.lastStatus).toBe("Pending")
      expect(error.waitedMillis).toBe(10_000)
      const denied = testClient(() => json(401, { code: 1010009, message: "credential does not match" }))
      const unauthorized = yield* Effect.flip(withClient(denied, WalletClient.awaitReceipt(hash)))
      expect(unauthorized._tag).toBe("Unauthorized")
      expect(denied.requests).toHaveLength(1)
      // Only "unknown hash" (1065000) means "not yet": another refusal of the same status ends it.
      const refused = testClient(() => json(400, { code: 1061607, message: "must start with 0x and be hex" }))
      const polling = yield* Effect.fork(Effect.flip(withClient(refused, WalletClient.awaitReceipt(hash))))
      // Were it taken for "not yet", polling would go on until the deadline: let the clock get there.
      yield* TestClock.adjust("61 seconds")
      const invalid = yield* Fiber.join(polling)
      expect(invalid._tag === "InvalidRequest" && invalid.code).toBe(1061607)
      expect(refused.requests).toHaveLength(1)
    }))
})
