/**
 * The multisig operations on the wire (PUT /v2/account/{address}/multisig,
 * GET /v2/multisig/account/{address}/tx, POST .../tx/{transaction-id}/sign, POST
 * /v2/multisig/tx/{transaction-id}/sign, POST /v2/account/{address}/tx/{transaction-id}/sign):
 * method, path, headers and body of each, the specification's examples decoded, answers that are
 * not what was asked refused, arguments refused before sending, no retry of a signature.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Schema, Stream } from "effect"
import { readFileSync } from "node:fs"
import { AccountKey, Multisig, Transaction, WalletClient, type WalletError } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { json, type Recorded } from "./support/recordingClient.js"

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/multisig/${name}`, import.meta.url), "utf8"))
const updateRequest = fixture("account-multisig-update-request-success.json")
const updated = fixture("account-multisig-update-200-success.json")
const listed = fixture("multisig-tx-list-200-success.json")
const noContent = fixture("multisig-tx-list-400-no-content.json")
const signed = fixture("multisig-tx-sign-200-signed.json")
const submitted = fixture("multisig-tx-sign-200-submitted.json")
const signature = fixture("account-tx-sign-200-success.json")

const account = updated.address as string
const pendingId = listed.items[0].transactionId as string

const fails = <A>(effect: Effect.Effect<A, WalletError.WalletError, WalletClient.WalletClient>, test: ReturnType<typeof testClient>) =>
  Effect.map(Effect.either(withClient(test, effect)), (r) => {
    if (Either.isRight(r)) throw new Error("expected a failure")
    return r.left
  })

describe("multisig on the wire", () => {
  it.effect("updateToMultisig: PUT with the spec's body; its example decodes; the answer is checked against the request", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, updated))
      const result = yield* withClient(test, WalletClient.updateToMultisig(account, updateRequest, { pool: updated.krn }))
      expect(result.threshold).toBe(4)
      expect(result.multiSigKeys).toEqual(updateRequest.weightedKeys.map((k: any) => ({ publicKey: k.publicKey, weight: k.weight })))
      expect(result.transactionHash).toBe(updated.transactionHash)
      const [request] = test.requests
      expect([request!.method, request!.url.pathname]).toEqual(["PUT", `/v2/account/${account}/multisig`])
      expect(request!.headers["x-krn"]).toBe(updated.krn)
      expect(request!.body).toEqual({ threshold: 4, weightedKeys: updateRequest.weightedKeys.map((k: any) => ({ publicKey: k.publicKey, weight: k.weight })) })

      // An AccountKey value gives the same body; a compressed key is the same key in the answer.
      const key = AccountKey.WeightedMultiSig({ threshold: 4, keys: updateRequest.weightedKeys })
      yield* withClient(test, WalletClient.updateToMultisig(account, key))
      expect(test.requests[1]!.body).toEqual(request!.body)

      // Answers that are not what was asked.
      const answered = (changed: object) => testClient(() => json(200, { ...updated, ...changed }))
      for (
        const [changed, field] of [
          [{ threshold: 3 }, "threshold"],
          [{ multiSigKeys: [...updated.multiSigKeys].reverse() }, "multiSigKeys"],
          [{ multiSigKeys: [updated.multiSigKeys[0]] }, "multiSigKeys"],
          [{ multiSigKeys: [{ ...updated.multiSigKeys[0], weight: 2 }, updated.multiSigKeys[1]] }, "multiSigKeys"],
          [{ address: "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa" }, "address"]
        ] as const
      ) {
        const error = yield* fails(WalletClient.updateToMultisig(account, updateRequest), answered(changed))
        expect(error._tag).toBe("UnverifiedResult")
        expect((error as WalletError.UnverifiedResult).field).toBe(field)
      }
      // Not retried: one request even when the connection breaks after sending.
      const broken = testClient(() => json(503, { code: 1, message: "down" }))
      yield* fails(WalletClient.updateToMultisig(account, updateRequest), broken)
      expect(broken.requests).toHaveLength(1)
    }))

  it.effect("the pending listing: paged under the address; the example decodes; the service's 'No content' is an empty page", () =>
    Effect.gen(function*() {
      const pages = [{ ...listed, cursor: "next" }, listed]
      const test = testClient((r: Recorded) => json(200, r.url.searchParams.get("cursor") === "next" ? pages[1] : pages[0]))
      const items = Chunk.toReadonlyArray(yield* withClient(test, Stream.runCollect(WalletClient.multisigTransactions(account, { pageSize: 1, from: 10 }))))
      expect(items).toHaveLength(2)
      const item = items[0]!
      expect(item.transactionId).toBe(pendingId)
      expect(item.multiSigKeys.map((k) => k.weight)).toEqual([3, 1])
      expect(item.txData.value).toBe(0x121111111111111111n)
      expect(item.status).toBe(2)
      const [first, second] = test.requests
      expect(first!.url.pathname).toBe(`/v2/multisig/account/${account}/tx`)
      expect(Object.fromEntries(first!.url.searchParams)).toEqual({ size: "1", "from-timestamp": "10" })
      expect(second!.url.searchParams.get("cursor")).toBe("next")

      const none = testClient(() => json(400, noContent))
      expect(yield* withClient(none, WalletClient.listMultisigTransactions(account))).toEqual({ items: [], cursor: "" })
      expect(Chunk.size(yield* withClient(none, Stream.runCollect(WalletClient.multisigTransactions(account))))).toBe(0)
    }))

  it.effect("signing: a signer's, appended, by id; the examples decode; another transaction's status is refused", () =>
    Effect.gen(function*() {
      const test = testClient((r: Recorded) =>
        r.url.pathname.startsWith("/v2/account/")
          ? json(200, signature)
          : json(200, r.url.pathname.startsWith("/v2/multisig/tx/") ? submitted : signed)
      )
      const signer = signed.reminders[0] as string
      const status = yield* withClient(test, WalletClient.signMultisigTransaction(signer, signed.transactionId))
      expect(status).toMatchObject({ status: "Signed", signedWeight: 1, threshold: 4 })
      expect(Multisig.isSubmitted(status)).toBe(false)
      const made = yield* withClient(test, WalletClient.signTransactionById(account, submitted.transactionId))
      expect(made).toEqual(signature)
      const sent = yield* withClient(test, WalletClient.appendSignatures(submitted.transactionId.toUpperCase().replace("0X", "0x"), [made]))
      expect(Multisig.isSubmitted(sent) && sent.transactionHash).toBe(submitted.transactionHash)
      const [one, two, three] = test.requests
      expect([one!.method, one!.url.pathname]).toEqual(["POST", `/v2/multisig/account/${signer}/tx/${signed.transactionId}/sign`])
      expect([two!.method, two!.url.pathname]).toEqual(["POST", `/v2/account/${account}/tx/${submitted.transactionId}/sign`])
      expect([three!.method, three!.url.pathname]).toEqual(["POST", `/v2/multisig/tx/${submitted.transactionId}/sign`])
      expect(three!.body).toEqual({ signatures: [signature] })
      expect(three!.headers["x-krn"]).toBeUndefined()

      // The answer of another transaction.
      const wrong = yield* fails(WalletClient.signMultisigTransaction(signer, pendingId), test)
      expect(wrong._tag).toBe("UnverifiedResult")
      // A signature is not sent twice.
      const broken = testClient(() => json(502, { code: 1, message: "bad gateway" }))
      yield* fails(WalletClient.appendSignatures(pendingId, [signature]), broken)
      expect(broken.requests).toHaveLength(1)
    }))

  it.effect("arguments refused before sending", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, {}))
      const refused = (effect: Effect.Effect<unknown, WalletError.WalletError, WalletClient.WalletClient>) =>
        Effect.map(fails(effect, test), (e) => (e._tag === "InvalidArgument" ? e.argument : e._tag))
      expect(yield* refused(WalletClient.updateToMultisig("0x12", updateRequest))).toBe("address")
      expect(yield* refused(WalletClient.updateToMultisig(account, { threshold: 0, weightedKeys: updateRequest.weightedKeys }))).toBe("key.threshold")
      expect(yield* refused(WalletClient.updateToMultisig(account, { threshold: 1, weightedKeys: [] }))).toBe("key.weightedKeys")
      expect(yield* refused(WalletClient.updateToMultisig(account, { threshold: 1, weightedKeys: Array(11).fill(updateRequest.weightedKeys[0]) })))
        .toBe("key.weightedKeys")
      expect(yield* refused(WalletClient.updateToMultisig(account, null as any))).toMatch(/^key/)
      expect(yield* refused(WalletClient.signMultisigTransaction(account, "0x1234"))).toBe("transactionId")
      expect(yield* refused(WalletClient.signMultisigTransaction("nope", pendingId))).toBe("signer")
      expect(yield* refused(WalletClient.signTransactionById(account, `0x${"g".repeat(64)}`))).toBe("transactionId")
      expect(yield* refused(WalletClient.appendSignatures(pendingId, [{ V: "0x7f5", R: "0x1", S: "nope" }]))).toMatch(/^signatures/)
      expect(yield* refused(WalletClient.appendSignatures(pendingId, []))).toMatch(/^signatures/)
      expect(yield* refused(WalletClient.listMultisigTransactions(account, { pageSize: 0 }))).toBe("pageSize")
      expect(test.requests).toHaveLength(0)
      // The spec's pending result decodes, its id a TransactionId these operations take.
      const pending = Schema.decodeUnknownSync(Transaction.TransactionResult)(fixture("tx-value-200-multisig-account-pending.json"))
      expect(Transaction.isMultisigPending(pending) && pending.transactionId).toBe("0x3b67ef4ce5c97249443da16e6b188220e2efc91c703154f8b810ffeca0171202")
    }))
})
