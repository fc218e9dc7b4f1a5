/**
 * Multisig accounts over HTTP: an account updated to a weighted set of its member's keys (the
 * account update checked independently), its transactions waiting `Pending` until the weights of
 * their signers reach the threshold — signed by the member's signers, by signatures made elsewhere
 * (an account's signature by id) — then sent, their signatures recovered by an independent
 * implementation (@ethereumjs/rlp, @noble/curves); nonces kept in order, fee delegation, refusals
 * that change nothing.
 */
import { expect, layer } from "@effect/vitest"
import { RLP } from "@ethereumjs/rlp"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Effect, Layer, TestClock } from "effect"
import * as Emulator from "../src/Emulator.js"
import { memberTx, newMemberTx, type TxApi } from "./_ledger.js"
import { clientLayer, type Reply } from "./_support.js"
import { encodeKey, hex, klaytnFields, minimal, recover } from "./support/klaytn.js"

const CHAIN = 1001
const KLAY = 10n ** 18n

/** A `{ V, R, S }` signature as the RLP list `recover` reads. */
const rlpSignature = (s: { readonly V: string; readonly R: string; readonly S: string }) => [s.V, s.R, s.S].map((x) => minimal(BigInt(x)))

const ok = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(200)
  return reply.body as any
}
const refused = (reply: Reply, code: number) => {
  expect(reply.status, reply.text).toBe(400)
  expect((reply.body as any).code, reply.text).toBe(code)
  return (reply.body as any).message as string
}

/** The sender signing hash of a value transfer, from Klaytn's documentation (not the emulator's code). */
const senderHash = (type: number, txData: any) => {
  const fields = klaytnFields(type, {
    nonce: txData.nonce,
    gasPrice: BigInt(txData.gasPrice),
    gas: txData.gas,
    to: txData.to,
    value: BigInt(txData.value ?? "0x0"),
    from: txData.from,
    ...(txData.feeRatio !== undefined ? { feeRatio: txData.feeRatio } : {})
  })
  return keccak_256(RLP.encode([RLP.encode([minimal(type), ...fields]), minimal(CHAIN), new Uint8Array(), new Uint8Array()]))
}

const routes = (api: TxApi) => ({
  update: (address: string, body: unknown, krn?: string) => api.request("PUT", `/v2/account/${address}/multisig`, body, krn !== undefined ? { krn } : {}),
  list: (address: string, query = "") => api.request("GET", `/v2/multisig/account/${address}/tx${query}`, undefined),
  sign: (signer: string, id: string) => api.post(`/v2/multisig/account/${signer}/tx/${id}/sign`, undefined),
  append: (id: string, body: unknown) => api.post(`/v2/multisig/tx/${id}/sign`, body),
  signatureOf: (address: string, id: string) => api.post(`/v2/account/${address}/tx/${id}/sign`, undefined),
  account: (address: string) => api.request("GET", `/v2/account/${address}`, undefined)
})

layer(Layer.merge(Emulator.layer({ port: 0 }), clientLayer))("multisig accounts", (it) => {
  // A multisig account holding `funds`, its three signers (weights 2, 1, 1; threshold 3), a recipient.
  const setUp = (funds: bigint) =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const api = memberTx(e)
      const m = routes(api)
      const account = ok(yield* api.request("POST", "/v2/account", undefined))
      const signers = [ok(yield* api.request("POST", "/v2/account", undefined)), ok(yield* api.request("POST", "/v2/account", undefined)), ok(yield* api.request("POST", "/v2/account", undefined))]
      const to = yield* api.account()
      yield* e.fund(CHAIN, account.address, funds)
      const weights = [2, 1, 1]
      const updated = ok(yield* m.update(account.address, {
        threshold: 3,
        weightedKeys: signers.map((s, i) => ({ publicKey: s.publicKey, weight: weights[i] }))
      }))
      // Interval mining: the account's new key holds once the update's block is made.
      yield* TestClock.adjust("1 second")
      return { e, api, m, account, signers, to, updated }
    })

  it.effect("update, send Pending, collect signatures (a signer's, one made elsewhere), sent at the threshold", () =>
    Effect.gen(function*() {
      const { account, api, e, m, signers, to, updated } = yield* setUp(KLAY)
      expect(Object.keys(updated)).toEqual(["address", "krn", "multiSigKeys", "threshold", "transactionHash", "updatedAt"])
      expect(updated.address).toBe(account.address)
      expect(updated.multiSigKeys).toEqual(signers.map((s, i) => ({ publicKey: s.publicKey, weight: [2, 1, 1][i] })))
      // The update is an account update (0x20) the account signed and paid for, setting Klaytn's
      // weighted key of the three compressed keys.
      const update = ok(yield* api.receipt(updated.transactionHash))
      expect(update.typeInt).toBe(0x20)
      const key = encodeKey({
        type: 4,
        threshold: 3,
        keys: signers.map((s, i) => [[2, 1, 1][i]!, secp256k1.Point.fromHex(s.publicKey.slice(2)).toBytes(true)] as const)
      })
      // Its sender hash is keccak256(type ‖ rlp([fields with that key, signatures])), and it
      // recovers the account over the fields' signing hash.
      const fields = klaytnFields(0x20, { nonce: 0, gasPrice: BigInt(update.gasPrice), gas: Number(update.gas), value: 0n, from: account.address, key })
      const signatures = update.signatures.map(rlpSignature)
      expect(update.senderTxHash).toBe(hex(keccak_256(Uint8Array.from([0x20, ...RLP.encode([...fields, signatures])]))))
      const updateHash = keccak_256(RLP.encode([RLP.encode([minimal(0x20), ...fields]), minimal(CHAIN), new Uint8Array(), new Uint8Array()]))
      expect(recover(updateHash, signatures[0], CHAIN).address).toBe(account.address.toLowerCase())
      const shown = ok(yield* m.account(account.address))
      expect(shown.multiSigKeys).toEqual(updated.multiSigKeys)
      expect(shown.threshold).toBe(3)
      const before = yield* e.balance(CHAIN, account.address)

      // A transfer from it waits for its signers: no hash, no signature, nothing moves.
      const pending = ok(yield* api.transfer("value", { from: account.address, to, value: "0x1000" }))
      expect(pending).toMatchObject({ status: "Pending", nonce: 1, typeInt: 8, from: account.address.toLowerCase(), to: to.toLowerCase() })
      expect(pending.transactionId).toMatch(/^0x[0-9a-f]{64}$/)
      expect(pending.rlp).toBeUndefined()
      expect((yield* e.balance(CHAIN, account.address)).balance).toBe(before.balance)

      // Listed for the account and for each signer, not for others.
      const listed = ok(yield* m.list(account.address))
      expect(listed.cursor).toBe("")
      expect(listed.items).toHaveLength(1)
      const item = listed.items[0]
      expect(item).toMatchObject({ address: account.address, chainId: CHAIN, status: 1, threshold: 3, transactionId: pending.transactionId, type: "TX" })
      expect(item.multiSigKeys).toEqual(signers.map((s, i) => ({ address: s.address, weight: [2, 1, 1][i] })))
      expect(item.txData).toEqual({ typeInt: 8, from: pending.from, to: pending.to, value: "0x1000", gas: pending.gas, gasPrice: pending.gasPrice, nonce: 1 })
      expect(ok(yield* m.list(signers[2].address)).items.map((i: any) => i.transactionId)).toEqual([pending.transactionId])
      refused(yield* m.list(to), 1061010)

      // An account's signature by id: answered, not kept; it recovers that account over the hash.
      const hash = senderHash(8, item.txData)
      const made = ok(yield* m.signatureOf(signers[2].address, pending.transactionId))
      expect(Object.keys(made).sort()).toEqual(["R", "S", "V"])
      expect(recover(hash, rlpSignature(made), CHAIN).address).toBe(signers[2].address.toLowerCase())
      expect(ok(yield* m.list(account.address)).items[0].status).toBe(1)

      const first = ok(yield* m.sign(signers[1].address, pending.transactionId))
      expect(first).toEqual({
        signedWeight: 1,
        status: "Signed",
        threshold: 3,
        transactionId: pending.transactionId,
        weight: 1,
        reminders: [signers[0].address, signers[2].address]
      })
      refused(yield* m.sign(signers[1].address, pending.transactionId), 1061512) // signed already
      refused(yield* m.sign(to, pending.transactionId), 1061512) // not a signer
      expect(ok(yield* m.list(account.address)).items[0].status).toBe(2)

      const appended = ok(yield* m.append(pending.transactionId, { signatures: [made] }))
      expect(appended).toMatchObject({ signedWeight: 2, status: "Signed", weight: 1, reminders: [signers[0].address] })
      refused(yield* m.append(pending.transactionId, { signatures: [made] }), 1061512)

      const sent = ok(yield* m.sign(signers[0].address, pending.transactionId))
      expect(sent).toMatchObject({ signedWeight: 4, status: "Submitted", threshold: 3, weight: 2 })
      expect(sent.reminders).toBeUndefined()
      const receipt = ok(yield* api.receipt(sent.transactionHash))
      expect(receipt).toMatchObject({ from: account.address.toLowerCase(), to: to.toLowerCase(), value: "0x1000", nonce: "0x1", typeInt: 8 })
      // The three signatures, in the order they came, each recovering its signer.
      expect(receipt.signatures.map((s: any) => recover(hash, rlpSignature(s), CHAIN).address)).toEqual(
        [signers[1], signers[2], signers[0]].map((s) => s.address.toLowerCase())
      )
      // Interval mining: applied when its block is made.
      yield* TestClock.adjust("1 second")
      expect((yield* e.balance(CHAIN, to)).balance).toBe(0x1000n)
      expect((yield* e.balance(CHAIN, account.address)).nonce).toBe(2)

      refused(yield* m.list(account.address), 1061010)
      expect(refused(yield* m.sign(signers[2].address, pending.transactionId), 1061914)).toContain(sent.transactionHash)
      refused(yield* m.append(pending.transactionId, { signatures: [made] }), 1061914)
    }))

  it.effect("nonces in order: one signed first waits for the one before it; global fee delegation; a refusal keeps nothing", () =>
    Effect.gen(function*() {
      const { account, api, e, m, signers, to } = yield* setUp(KLAY)
      const send = (value: string) => Effect.map(api.transfer("fd", { from: account.address, to, value }), ok)
      const t1 = yield* send("0x1")
      const t2 = yield* send("0x2")
      expect([t1.nonce, t2.nonce]).toEqual([1, 2])
      expect(t1.feePayer).toBe(e.globalFeePayer(CHAIN).toLowerCase())
      const items = ok(yield* m.list(account.address, "?size=1"))
      expect(items.items.map((i: any) => i.transactionId)).toEqual([t2.transactionId])
      expect(ok(yield* m.list(account.address, `?size=1&cursor=${items.cursor}`)).items.map((i: any) => i.transactionId)).toEqual([t1.transactionId])

      // The second reaches its threshold first: it keeps its signatures and waits.
      for (const s of [signers[0], signers[1]]) ok(yield* m.sign(s.address, t2.transactionId))
      const waiting = ok(yield* m.list(account.address)).items.find((i: any) => i.transactionId === t2.transactionId)
      expect(waiting.status).toBe(3)
      ok(yield* m.sign(signers[0].address, t1.transactionId))
      const sent = ok(yield* m.sign(signers[2].address, t1.transactionId))
      expect(sent.status).toBe("Submitted")
      // ...and follows it at once, into the same block.
      yield* TestClock.adjust("1 second")
      expect((yield* e.balance(CHAIN, account.address)).nonce).toBe(3)
      expect((yield* e.balance(CHAIN, to)).balance).toBe(3n)
      refused(yield* m.list(account.address), 1061010)
      const bills = yield* e.feeBills({ chainId: CHAIN })
      expect(bills.some((b) => b.transactions >= 2)).toBe(true)

      // Sender-paid, all its balance as value: nothing is left for the fee, so the node refuses it
      // and the signature is not kept; funded, the same signature sends it.
      const all = (yield* e.balance(CHAIN, account.address)).balance
      const t3 = ok(yield* api.transfer("value", { from: account.address, to, value: `0x${all.toString(16)}` }))
      ok(yield* m.sign(signers[1].address, t3.transactionId))
      refused(yield* m.sign(signers[0].address, t3.transactionId), 1065001)
      expect(ok(yield* m.list(account.address)).items[0]).toMatchObject({ status: 2, transactionId: t3.transactionId })
      yield* e.fund(CHAIN, account.address, KLAY)
      expect(ok(yield* m.sign(signers[0].address, t3.transactionId)).status).toBe("Submitted")
    }))

  it.effect("refusals: codes of the spec, nothing changed", () =>
    Effect.gen(function*() {
      const { account, api, e, m, signers, to } = yield* setUp(KLAY)
      const keys = signers.map((s) => ({ publicKey: s.publicKey, weight: 1 }))
      refused(yield* m.update(account.address, { threshold: 1, weightedKeys: keys }), 1061515) // already multisig

      const plain = ok(yield* api.request("POST", "/v2/account", undefined))
      yield* e.fund(CHAIN, plain.address, KLAY)
      const other = newMemberTx(e)
      const stranger = ok(yield* (yield* other).request("POST", "/v2/account", undefined))
      refused(yield* m.update(plain.address, { threshold: 1, weightedKeys: [{ publicKey: stranger.publicKey, weight: 1 }] }), 1061010)
      refused(yield* m.update(plain.address, { threshold: 4, weightedKeys: keys }), 1061903)
      refused(yield* m.update(plain.address, { threshold: 1, weightedKeys: [keys[0], keys[0]] }), 1061903)
      refused(yield* m.update(plain.address, { threshold: 1, weightedKeys: [{ ...keys[0], weight: 0 }] }), 1061903)
      refused(yield* m.update(plain.address, { weightedKeys: keys }), 1061608)
      refused(yield* m.update(plain.address, { threshold: 1, weightedKeys: keys, extra: 1 }), 1061615)
      refused(yield* m.update(stranger.address, { threshold: 1, weightedKeys: keys }), 1065100) // not the member's
      const poor = ok(yield* api.request("POST", "/v2/account", undefined))
      refused(yield* m.update(poor.address, { threshold: 1, weightedKeys: keys }), 1065001)
      // None of it changed the accounts.
      expect(ok(yield* m.account(plain.address)).multiSigKeys).toBeUndefined()
      expect((yield* e.balance(CHAIN, plain.address)).nonce).toBe(0)

      const pending = ok(yield* api.transfer("value", { from: account.address, to, value: "0x1" }))
      const id = pending.transactionId as string
      refused(yield* m.sign(signers[0].address, "0xzz"), 1061607)
      refused(yield* m.sign(signers[0].address, `0x${"ab".repeat(32)}`), 1061010)
      refused(yield* m.sign(signers[0].address, "0xab"), 1061010)
      // Another member does not see it.
      refused(yield* routes(yield* other).append(id, { signatures: [{ V: "0x7f5", R: "0x1", S: "0x1" }] }), 1061010)
      refused(yield* m.append(id, {}), 1061608)
      refused(yield* m.append(id, { signatures: [{ V: "0x7f5" }] }), 1061615)
      // A signature of another chain (V for 8217) recovers nothing here; one of a key not a signer.
      const made = ok(yield* m.signatureOf(signers[0].address, id))
      refused(yield* m.append(id, { signatures: [{ ...made, V: made.V === "0x7f5" ? "0x4056" : "0x4055" }] }), 1061615)
      const foreign = ok(yield* m.signatureOf(plain.address, id))
      expect(refused(yield* m.append(id, { signatures: [made, foreign] }), 1061512)).toContain(plain.address)
      // All or nothing: the signer's signature beside the refused one was not kept.
      expect(ok(yield* m.list(account.address)).items[0].status).toBe(1)
      refused(yield* m.signatureOf(stranger.address, id), 1061010)
      refused(yield* m.list("0x1234"), 1061609)
    }))
})
