/**
 * sendReliably: sign, then submit the signed bytes; when the outcome of a submission is unknown,
 * look the hash up and resubmit the same bytes only while the service does not know them. The
 * service is simulated by a recording client; time is the TestClock's.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, Schedule, Schema } from "effect"
import { readFileSync } from "node:fs"
import * as Receipts from "../packages/emulator/src/chain/Receipts.js"
import * as Klaytn from "../src/Klaytn.js"
import { Address, FeeDelegation, Transaction, TransactionKind, WalletClient } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { withClockMoving } from "./support/clock.js"
import { type Answer, json, type Recorded } from "./support/recordingClient.js"

const key = (n: number) => new Uint8Array(32).fill(n)
const from = Either.getOrThrow(Klaytn.addressOfKey(key(1)))
const to = Option.getOrThrow(Address.checksum("0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"))

const signedTx = (feePayer: boolean) =>
  Either.getOrThrow(Klaytn.signTransaction(
    Either.getOrThrow(Klaytn.makeTransaction({ kind: "value", from, to, value: 5n, nonce: 7, gas: 50_000, gasPrice: 25_000_000_000n, feeDelegated: feePayer })),
    { chainId: 1001, sender: key(1), feePayer: feePayer ? key(2) : undefined }
  ))
const resultOf = (tx: Klaytn.SignedTx, status: "Pending" | "Submitted") => Schema.encodeSync(Transaction.TransactionResult)(Receipts.toResult(tx, status))

const { blockHash: _h, blockNumber: _n, contractAddress: _c, gasUsed: _g, logs: _l, logsBloom: _b, transactionIndex: _i, ...receiptFields } = JSON.parse(
  readFileSync(new URL("./fixtures/tx/tx-receipt-200-success.json", import.meta.url), "utf8")
)
const unknownHash = () => json(400, { code: 1065000, message: "data don't exist" })
const submitted = (tx: Klaytn.SignedTx) => () => json(200, resultOf(tx, "Submitted"))

/**
 * The service: signs on the kind's route, answers submissions of the signed RLP with `submissions`
 * in turn (the last one repeats), and looks the hash up with `lookups` in turn.
 */
const service = (tx: Klaytn.SignedTx, submissions: ReadonlyArray<() => Answer | Effect.Effect<Answer>>, lookups: ReadonlyArray<() => Answer>) => {
  let s = 0
  let l = 0
  const handler = (r: Recorded) => {
    if (r.url.pathname.endsWith("/rlp")) return submissions[Math.min(s++, submissions.length - 1)]!()
    if (r.method === "GET") return lookups[Math.min(l++, lookups.length - 1)]!()
    return json(200, resultOf(tx, "Pending"))
  }
  const test = testClient(handler, { timeout: "1 second" })
  const routes = () => test.requests.map((r) => `${r.method} ${r.url.pathname.replace(tx.transactionHash, "{hash}")}`)
  return { test, routes }
}

const known = (tx: Klaytn.SignedTx) => () => json(200, { ...receiptFields, transactionHash: tx.transactionHash, status: "Pending" })
const transfer = TransactionKind.ValueTransfer({ to, value: 5n })
const resubmit = Schedule.intersect(Schedule.spaced("1 second"), Schedule.recurs(3))

describe("sendReliably", () => {
  it.effect("two requests when all goes well: sign on the kind's route, then submit the signed bytes through the payer's rlp route", () =>
    Effect.gen(function*() {
      const tx = signedTx(true)
      const { routes, test } = service(tx, [submitted(tx)], [])
      const result = yield* withClient(test, WalletClient.sendReliably(transfer, { from, feePayer: FeeDelegation.global }))
      expect(routes()).toEqual(["POST /v2/tx/fd/value", "POST /v2/tx/fd/rlp"])
      expect(Transaction.isSigned(result) && [result.transactionHash, result.status]).toEqual([tx.transactionHash, "Submitted"])
    }))

  it.effect("the answer is lost after the service accepted (reset, 5xx, timeout): the hash is known, nothing is submitted again", () =>
    Effect.gen(function*() {
      const tx = signedTx(false)
      for (const lost of [() => ({ fail: "ECONNRESET" }), () => json(503, { code: 1, message: "busy" }), () => Effect.never]) {
        const { routes, test } = service(tx, [lost], [known(tx)])
        const result = yield* withClockMoving(withClient(test, WalletClient.sendReliably(transfer, { from, resubmit })))
        expect(routes()).toEqual(["POST /v2/tx/value", "POST /v2/tx/rlp", "GET /v2/tx/{hash}"])
        expect(Transaction.isSigned(result) && result.transactionHash).toBe(tx.transactionHash)
      }
    }))

  it.effect("a 200 the client cannot read (garbled, cut short) after the service accepted: the hash is looked up, found, nothing submitted again", () =>
    Effect.gen(function*() {
      const tx = signedTx(false)
      for (const garbled of ["{\"transactionHash\": \"0x12", "<html>ok</html>", ""]) {
        const { routes, test } = service(tx, [() => new Response(garbled, { status: 200, headers: { "content-type": "application/json" } })], [known(tx)])
        const result = yield* withClockMoving(withClient(test, WalletClient.sendReliably(transfer, { from, resubmit })))
        expect(routes(), garbled).toEqual(["POST /v2/tx/value", "POST /v2/tx/rlp", "GET /v2/tx/{hash}"])
        expect(Transaction.isSigned(result) && [result.transactionHash, result.status]).toEqual([tx.transactionHash, "Submitted"])
      }
    }))

  it.effect("an unknown hash is submitted again, the same bytes; 'already known' to a resubmission is settled by a look-up", () =>
    Effect.gen(function*() {
      const tx = signedTx(false)
      const retried = service(tx, [() => json(503, {}), submitted(tx)], [unknownHash])
      yield* withClockMoving(withClient(retried.test, WalletClient.sendReliably(transfer, { from, resubmit })))
      expect(retried.routes()).toEqual(["POST /v2/tx/value", "POST /v2/tx/rlp", "GET /v2/tx/{hash}", "POST /v2/tx/rlp"])
      const alreadyKnown = service(tx, [() => ({ fail: "ECONNRESET" }), () => json(400, { code: 1065001, message: "already known" })], [unknownHash, known(tx)])
      yield* withClockMoving(withClient(alreadyKnown.test, WalletClient.sendReliably(transfer, { from, resubmit })))
      expect(alreadyKnown.routes()).toEqual(["POST /v2/tx/value", "POST /v2/tx/rlp", "GET /v2/tx/{hash}", "POST /v2/tx/rlp", "GET /v2/tx/{hash}"])
    }))

  it.effect("failures once signed carry the hash and the signed RLP: the schedule spent, or a refusal of the first submission", () =>
    Effect.gen(function*() {
      const tx = signedTx(false)
      const rlp = (resultOf(tx, "Pending") as { readonly rlp: string }).rlp
      const down = service(tx, [() => json(503, {})], [unknownHash])
      const spent = yield* Effect.flip(withClockMoving(withClient(down.test, WalletClient.sendReliably(transfer, { from, resubmit }))))
      expect(spent).toMatchObject({ _tag: "SubmissionFailed", transactionHash: tx.transactionHash, rlp, submissions: 4, error: "ServerError" })
      // "Insufficient funds" to the first submission is an answer, not an unknown outcome.
      const poor = service(tx, [() => json(400, { code: 1065001, message: "insufficient funds" })], [])
      const refused = yield* Effect.flip(withClient(poor.test, WalletClient.sendReliably(transfer, { from, resubmit })))
      expect(refused).toMatchObject({ _tag: "SubmissionFailed", transactionHash: tx.transactionHash, submissions: 1, code: 1065001 })
      expect(poor.routes()).toEqual(["POST /v2/tx/value", "POST /v2/tx/rlp"])
      // A submission answered without a signed transaction (a pending multisig shape) is not the
      // one submitted: never "Submitted", and the error names the hash to look up.
      const { rlp: _rlp, signatures: _signatures, transactionHash: _hash, ...fields } = resultOf(tx, "Submitted") as Record<string, unknown>
      const unsigned = service(tx, [() => json(200, { ...fields, status: "Pending", transactionId: `0x${"12".repeat(32)}` })], [])
      const notIt = yield* Effect.flip(withClient(unsigned.test, WalletClient.sendReliably(transfer, { from, resubmit })))
      expect(notIt).toMatchObject({ _tag: "UnverifiedResult", field: "transactionHash", transactionHash: tx.transactionHash })
    }))
})
