/**
 * Every other transaction kind over HTTP, in manual mining (deterministic): chain-data anchoring,
 * legacy transactions and account updates, each signed exactly as Klaytn signs it (checked by an
 * independent RLP and secp256k1 implementation), pending until mined, then committed with Klaytn's
 * intrinsic gas; cancels replacing a pending transaction; raw RLP relayed from a wallet outside KAS
 * and signed by a pool account; and the spec's refusals, each changing nothing.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import { RLP } from "@ethereumjs/rlp"
import { expect, layer } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Effect, Either, FastCheck as fc, Layer, Runtime } from "effect"
import { type Address, ChainId, FeeDelegation, Transaction, TransactionKind, WalletClient } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Emulator from "../src/Emulator.js"
import { memberTx } from "./_ledger.js"
import { clientLayer } from "./_support.js"
import { bytesOf, hex, klaytnFields, listOf, minimal, type Nested, recover, unhex } from "./support/klaytn.js"

const KLAY = 10n ** 18n
const GasPrice = 25_000_000_000n
const CHAIN = 1001

const right = <A>(e: Either.Either<A, Klaytn.KlaytnError>): A => Either.getOrThrow(e)

/** A result checked independently: its RLP's fields are these, its sender (and fee payer) recover, its hash is keccak256. */
const independent = (result: any, fields: Array<Uint8Array>, signers: { readonly sender: string; readonly feePayer?: string }) => {
  const raw = unhex(result.rlp)
  expect(result.transactionHash).toBe(hex(keccak_256(raw)))
  const type = result.typeInt as number
  const items = listOf(RLP.decode(raw.subarray(1)) as Nested)
  expect(raw[0]).toBe(type)
  expect(items.slice(0, fields.length).map((i) => hex(bytesOf(i)))).toEqual(fields.map(hex))
  const typed = RLP.encode([minimal(type), ...fields])
  const senderHash = keccak_256(RLP.encode([typed, minimal(CHAIN), new Uint8Array(), new Uint8Array()]))
  expect(recover(senderHash, listOf(items[fields.length])[0]!, CHAIN).address).toBe(signers.sender.toLowerCase())
  if (signers.feePayer !== undefined) {
    expect(hex(bytesOf(items[fields.length + 1]))).toBe(signers.feePayer.toLowerCase())
    const payerHash = keccak_256(RLP.encode([typed, unhex(signers.feePayer), minimal(CHAIN), new Uint8Array(), new Uint8Array()]))
    expect(recover(payerHash, listOf(items[fields.length + 2])[0]!, CHAIN).address).toBe(signers.feePayer.toLowerCase())
  }
}

const outsider = () => {
  const key = secp256k1.utils.randomSecretKey()
  return { key, address: right(Klaytn.addressOfKey(key)) }
}

layer(Layer.merge(Emulator.layer({ port: 0, mining: "manual" }), clientLayer))("every other transaction kind, in manual mining", (it) => {
  const setUp = Effect.gen(function*() {
    const e = yield* Emulator.Emulator
    const api = memberTx(e)
    const funded = (peb: bigint) => Effect.tap(api.account(), (a) => e.fund(CHAIN, a, peb))
    const ok = (reply: { readonly status: number; readonly text: string; readonly body: unknown }) => {
      expect(reply.status, reply.text).toBe(200)
      return reply.body as any
    }
    const refused = (reply: { readonly status: number; readonly text: string; readonly body: unknown }, code: number) => {
      expect(reply.status, reply.text).toBe(400)
      expect((reply.body as any).code, reply.text).toBe(code)
    }
    const state = (address: string) => Effect.map(e.balance(CHAIN, address), (b) => [b.balance, b.nonce] as const)
    const mine = Effect.asVoid(e.mine(CHAIN))
    return { e, api, funded, ok, refused, state, mine }
  }).pipe(Effect.orDie)

  it.effect("anchoring, a legacy transfer and an account update: signed as Klaytn signs them, pending until mined, then committed at Klaytn's intrinsic gas", () =>
    Effect.gen(function*() {
      const { api, e, funded, mine, ok, refused, state } = yield* setUp
      const from = yield* funded(KLAY)
      const to = yield* api.account()
      const updated = yield* funded(KLAY)
      const data = "0x6b617320656d756c61746f72"

      const anchor = ok(yield* api.post("/v2/tx/anchor", { from, input: data }))
      expect(anchor).toMatchObject({ typeInt: 0x48, from: from.toLowerCase(), input: data, gas: 1_000_000, nonce: 0 })
      expect(anchor.to).toBeUndefined()
      expect(anchor.value).toBeUndefined()
      independent(anchor, klaytnFields(0x48, { nonce: 0, gasPrice: GasPrice, gas: 1_000_000, value: 0n, from, input: unhex(data) }), { sender: from })

      const legacy = ok(yield* api.post("/v2/tx/legacy", { from, to, value: "0x9" }))
      expect(legacy).toMatchObject({ typeInt: 0, to: to.toLowerCase(), value: "0x9", nonce: 1 })
      // Ethereum's EIP-155 transaction: no type byte, nine items, the sender the signer.
      const items = listOf(RLP.decode(unhex(legacy.rlp)) as Nested)
      expect(items.length).toBe(9)
      const hash = keccak_256(RLP.encode([...items.slice(0, 6) as Array<Uint8Array>, minimal(CHAIN), new Uint8Array(), new Uint8Array()]))
      expect(recover(hash, items.slice(6) as Nested, CHAIN).address).toBe(from.toLowerCase())

      const publicKey = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false)
      const update = ok(yield* api.request("PUT", "/v2/tx/fd/account", { from: updated, accountKey: { keyType: 2, key: hex(publicKey) } }))
      const key = Uint8Array.from([0x02, ...RLP.encode(secp256k1.Point.fromBytes(publicKey).toBytes(true))])
      expect(update).toMatchObject({ typeInt: 0x21, accountKey: hex(key), feePayer: e.globalFeePayer(CHAIN).toLowerCase() })
      independent(update, klaytnFields(0x20, { nonce: 0, gasPrice: GasPrice, gas: 1_000_000, value: 0n, from: updated, key }), {
        sender: updated,
        feePayer: e.globalFeePayer(CHAIN)
      })

      // Pending until mined: nothing moved yet.
      for (const r of [anchor, legacy, update]) expect(ok(yield* api.receipt(r.transactionHash)).status).toBe("Pending")
      expect(yield* state(to)).toEqual([0n, 0])
      yield* mine
      const gasUsed = (r: any) => Effect.map(api.receipt(r.transactionHash), (reply) => Number(ok(reply).gasUsed))
      expect(yield* gasUsed(anchor)).toBe(21_000 + 100 * 12)
      expect(yield* gasUsed(legacy)).toBe(21_000)
      // An account update registering one public key, fee-delegated: 21000 + 10000 + 20000.
      expect(yield* gasUsed(update)).toBe(51_000)
      expect(yield* state(to)).toEqual([9n, 0])
      expect(yield* state(from)).toEqual([KLAY - 9n - BigInt(21_000 + 1_200 + 21_000) * GasPrice, 2])
      expect(yield* state(updated)).toEqual([KLAY, 1])

      // The key KAS holds no longer signs for the updated account: corrupted.
      refused(yield* api.request("GET", `/v2/account/${updated}`, undefined), 1065102)
      refused(yield* api.post("/v2/tx/value", { from: updated, to, value: "0x1" }), 1065100)
      const listed = ok(yield* api.request("GET", "/v2/account?status=corrupted", undefined))
      expect(listed.items.map((a: any) => a.address.toLowerCase())).toEqual([updated.toLowerCase()])
    }))

  it.effect("cancel: replaces the pending transaction of its nonce (by nonce or by hash, any fee payer); a committed nonce is nonce too low, an unknown hash 1065000", () =>
    Effect.gen(function*() {
      const { api, e, funded, mine, ok, refused, state } = yield* setUp
      const from = yield* funded(KLAY)
      const to = yield* api.account()
      const first = ok(yield* api.post("/v2/tx/value", { from, to, value: "0x5" }))
      const second = ok(yield* api.post("/v2/tx/value", { from, to, value: "0x6" }))
      const byNonce = ok(yield* api.request("DELETE", "/v2/tx", { from, nonce: first.nonce }))
      expect(byNonce).toMatchObject({ typeInt: 0x38, nonce: first.nonce, from: from.toLowerCase() })
      independent(byNonce, klaytnFields(0x38, { nonce: 0, gasPrice: GasPrice, gas: 1_000_000, value: 0n, from }), { sender: from })
      const byHash = ok(yield* api.request("DELETE", "/v2/tx/fd", { from, transactionHash: second.transactionHash }))
      expect(byHash).toMatchObject({ typeInt: 0x39, nonce: second.nonce, feePayer: e.globalFeePayer(CHAIN).toLowerCase() })
      yield* mine
      // The transfers never reach a block; the cancels do, and no value moved.
      refused(yield* api.receipt(first.transactionHash), 1065000)
      refused(yield* api.receipt(second.transactionHash), 1065000)
      expect(ok(yield* api.receipt(byNonce.transactionHash)).status).toBe("Committed")
      expect(yield* state(to)).toEqual([0n, 0])
      // The sender paid its own cancel only (21000 gas); the global fee payer paid the other.
      expect(yield* state(from)).toEqual([KLAY - 21_000n * GasPrice, 2])
      // A committed nonce: nonce too low. (0 is "the next to be mined": with nothing pending, a cancel of the next nonce.)
      refused(yield* api.request("DELETE", "/v2/tx", { from, nonce: second.nonce }), 1065001)
      refused(yield* api.request("DELETE", "/v2/tx", { from, transactionHash: first.transactionHash }), 1065000)
      refused(yield* api.request("DELETE", "/v2/tx", { from, transactionHash: byNonce.transactionHash }), 1065001)
      refused(yield* api.request("DELETE", "/v2/tx", { from, nonce: 1, transactionHash: byNonce.transactionHash }), 1061615)
      expect(yield* state(from)).toEqual([KLAY - 21_000n * GasPrice, 2])
      // By nonce 0: the lowest pending transaction, whatever its nonce.
      const third = ok(yield* api.post("/v2/tx/value", { from, to, value: "0x7" }))
      expect(third.nonce).toBe(2)
      const byZero = ok(yield* api.request("DELETE", "/v2/tx", { from, nonce: 0 }))
      expect([byZero.typeInt, byZero.nonce]).toEqual([0x38, 2])
      yield* mine
      refused(yield* api.receipt(third.transactionHash), 1065000)
      expect(yield* state(to)).toEqual([0n, 0])
    }))

  it.effect("relay: a wallet outside KAS signs, the global or a user fee payer signs and pays; a pool account signs a SigRLP; the spec's refusals change nothing", () =>
    Effect.gen(function*() {
      const { api, e, funded, mine, ok, refused, state } = yield* setUp
      const wallet = outsider()
      yield* e.fund(CHAIN, wallet.address, KLAY)
      const to = yield* api.account()
      const payer = yield* api.feePayer()
      yield* e.fund(CHAIN, payer, KLAY)
      const tx = (nonce: number, delegated: boolean, feeRatio?: number) =>
        right(Klaytn.makeTransaction({ kind: "value", from: wallet.address, to: to as Address.Address, value: 3n, nonce, gas: 100_000, gasPrice: GasPrice, feeDelegated: delegated, feeRatio }))
      const signed = (t: Klaytn.Tx, key = wallet.key, chainId = CHAIN) => hex(right(Klaytn.signAsSender(t, { chainId, sender: key })))

      // The spec's refusals first: nothing changes.
      refused(yield* api.post("/v2/tx/fd/rlp", { rlp: signed(tx(0, false)) }), 1061918)
      refused(yield* api.post("/v2/tx/rlp", { rlp: signed(tx(0, true)) }), 1061921)
      refused(yield* api.post("/v2/tx/fd/rlp", { rlp: signed(tx(0, true)), feeRatio: 20 }), 1061920)
      refused(yield* api.post("/v2/tx/fd-user/rlp", { rlp: signed(tx(0, true, 30)), feePayer: payer }), 1061919)
      refused(yield* api.post("/v2/tx/fd-user/rlp", { rlp: signed(tx(0, true, 30)), feePayer: payer, feeRatio: 40 }), 1061912)
      refused(yield* api.post("/v2/tx/fd/rlp", { rlp: signed(tx(0, true), wallet.key, 8217) }), 1065001)
      // Signed by another key than the sender's: the fields as they are, a stranger's signature.
      const stranger = right(Klaytn.sign(Klaytn.senderSigningHash(tx(0, true), CHAIN), outsider().key, CHAIN))
      const forged = Uint8Array.from([0x09, ...RLP.encode([
        ...klaytnFields(0x09, { ...tx(0, true), from: wallet.address }),
        [[minimal(stranger.v), minimal(stranger.r), minimal(stranger.s)]],
        new Uint8Array(),
        [[Uint8Array.of(1), new Uint8Array(), new Uint8Array()]]
      ] as Array<Uint8Array>)])
      refused(yield* api.post("/v2/tx/fd/rlp", { rlp: hex(forged) }), 1065001)
      refused(yield* api.post("/v2/tx/fd/rlp", { rlp: "0x09c0" }), 1061615)
      refused(yield* api.post("/v2/tx/fd/rlp", { rlp: "0xzz" }), 1061607)
      refused(yield* api.post("/v2/tx/rlp", { rlp: hex(right(Klaytn.encodeSigRlp(tx(0, false), CHAIN))) }), 1065100)
      expect(yield* state(wallet.address)).toEqual([KLAY, 0])

      const global = ok(yield* api.post("/v2/tx/fd/rlp", { rlp: signed(tx(0, true)) }))
      expect(global).toMatchObject({ typeInt: 0x09, from: wallet.address.toLowerCase(), feePayer: e.globalFeePayer(CHAIN).toLowerCase() })
      independent(global, klaytnFields(0x09, { nonce: 0, gasPrice: GasPrice, gas: 100_000, to, value: 3n, from: wallet.address }), {
        sender: wallet.address,
        feePayer: e.globalFeePayer(CHAIN)
      })
      const user = ok(yield* api.post("/v2/tx/fd-user/rlp", { rlp: signed(tx(1, true, 30)), feePayer: payer, feeRatio: 30 }))
      expect(user).toMatchObject({ typeInt: 0x0a, feePayer: payer.toLowerCase(), feeRatio: 30 })
      // A SigRLP of a pool account: the service signs it as the sender.
      const member = yield* funded(KLAY)
      const sigRlp = right(Klaytn.encodeSigRlp(right(Klaytn.makeTransaction({ kind: "value", from: member as Address.Address, to: to as Address.Address, value: 4n, nonce: 0, gas: 100_000, gasPrice: GasPrice })), CHAIN))
      // Disabled, it cannot sign: 1065100, as the service's live tests expect of caver.wallet.sign
      // (kasWalletIntTest INT-123); enabled again, it can (INT-125).
      expect((yield* api.put(`/v2/account/${member}/disable`)).status).toBe(200)
      refused(yield* api.post("/v2/tx/rlp", { rlp: hex(sigRlp) }), 1065100)
      refused(yield* api.post("/v2/tx/rlp", { rlp: hex(sigRlp), submit: false }), 1065100)
      expect(yield* state(member)).toEqual([KLAY, 0])
      expect((yield* api.put(`/v2/account/${member}/enable`)).status).toBe(200)
      const pool = ok(yield* api.post("/v2/tx/rlp", { rlp: hex(sigRlp) }))
      independent(pool, klaytnFields(0x08, { nonce: 0, gasPrice: GasPrice, gas: 100_000, to, value: 4n, from: member }), { sender: member })

      yield* mine
      for (const r of [global, user, pool]) expect(ok(yield* api.receipt(r.transactionHash)).status).toBe("Committed")
      const userFee = BigInt(21_000 + 15_000) * GasPrice
      expect(yield* state(wallet.address)).toEqual([KLAY - 6n - (userFee - (userFee * 30n) / 100n), 2])
      expect(yield* state(payer)).toEqual([KLAY - (userFee * 30n) / 100n, 0])
      expect(yield* state(to)).toEqual([10n, 0])
    }))

  it.effect("the same signed bytes again: already known while pending, nonce too low once mined; nothing changes (what a reliable send relies on)", () =>
    Effect.gen(function*() {
      const { api, funded, mine, ok, refused, state } = yield* setUp
      const from = yield* funded(KLAY)
      const to = yield* api.account()
      const signedOnly = ok(yield* api.post("/v2/tx/fd/value", { from, to, value: "0x7", submit: false }))
      expect(signedOnly.status).toBe("Pending")
      const submitted = ok(yield* api.post("/v2/tx/fd/rlp", { rlp: signedOnly.rlp }))
      expect(submitted.transactionHash).toBe(signedOnly.transactionHash)
      expect(submitted.rlp).toBe(signedOnly.rlp)
      refused(yield* api.post("/v2/tx/fd/rlp", { rlp: signedOnly.rlp }), 1065001)
      yield* mine
      refused(yield* api.post("/v2/tx/fd/rlp", { rlp: signedOnly.rlp }), 1065001)
      expect(yield* state(to)).toEqual([7n, 0])
    }))

  it.effect("account keys the service refuses: a legacy key in a role-based key 1061917, a key not of the curve 1061903, anchored data not hex 1061607", () =>
    Effect.gen(function*() {
      const { api, funded, refused, state } = yield* setUp
      const from = yield* funded(KLAY)
      refused(yield* api.request("PUT", "/v2/tx/account", { from, accountKey: { keyType: 5, key: [{ keyType: 1 }, { keyType: 1 }, { keyType: 1 }] } }), 1061917)
      refused(yield* api.request("PUT", "/v2/tx/account", { from, accountKey: { keyType: 2, key: `0x02${"ff".repeat(32)}` } }), 1061903)
      refused(yield* api.request("PUT", "/v2/tx/account", { from, accountKey: { keyType: 2, key: "0xabcd" } }), 1061903)
      refused(yield* api.request("PUT", "/v2/tx/account", { from, accountKey: { keyType: 4, key: { threshold: 3, weightedKeys: [] } } }), 1061903)
      refused(yield* api.post("/v2/tx/anchor", { from, input: "abcd" }), 1061607)
      const noRoute = yield* api.post("/v2/tx/fd/legacy", { from, to: from, value: "0x1" })
      expect([noRoute.status, (noRoute.body as any).code]).toEqual([404, 1010007])
      expect(yield* state(from)).toEqual([KLAY, 0])
    }))

  it.effect("every new route answers a random body with 200 or a 4xx KAS error body, never a 5xx; a refused one changes nothing (no balance, nonce or pending transaction)", () =>
    Effect.gen(function*() {
      const { api, e, funded, state } = yield* setUp
      const from = yield* funded(KLAY)
      const to = yield* api.account()
      const payer = yield* api.feePayer()
      const wallet = outsider()
      yield* e.fund(CHAIN, wallet.address, KLAY)
      const good = right(Klaytn.makeTransaction({ kind: "value", from: wallet.address, to: to as Address.Address, value: 1n, nonce: 0, gas: 100_000, gasPrice: GasPrice, feeDelegated: true }))
      const signed = right(Klaytn.signAsSender(good, { chainId: CHAIN, sender: wallet.key }))
      const watched = [from, to, payer, wallet.address]
      const runtime = yield* Effect.runtime<HttpClient.HttpClient>()
      const run = <A>(effect: Effect.Effect<A, never, HttpClient.HttpClient>) => Runtime.runPromise(runtime)(effect)
      const snapshot = () => run(Effect.orDie(Effect.forEach(watched, state)))

      // Valid pieces, broken ones, and random RLP: a flipped byte of a signed transaction, random bytes.
      const rlp = fc.oneof(
        fc.constant(hex(signed)),
        fc.nat({ max: signed.length - 1 }).chain((at) => fc.integer({ min: 1, max: 255 }).map((x) => hex(signed.map((b, i) => (i === at ? b ^ x : b))))),
        fc.uint8Array({ maxLength: 40 }).map(hex),
        fc.constantFrom("0x", "0x0", "0xzz", "0xc0", "0x09c0", "0xf8")
      )
      const key = fc.oneof(
        fc.constantFrom<unknown>({ keyType: 1 }, { keyType: 3 }, { keyType: 9 }, { keyType: 2 }, { keyType: 2, key: "0x02" + "11".repeat(32) }, { keyType: 5, key: [] }, { keyType: 5, key: [{ keyType: 1 }] }, null, "0x01c0"),
        fc.record({ keyType: fc.constant(4), key: fc.record({ threshold: fc.integer({ min: -1, max: 3 }), weightedKeys: fc.array(fc.record({ publicKey: fc.constantFrom("0x04" + "1".repeat(128), hex(secp256k1.getPublicKey(wallet.key, false))), weight: fc.integer({ min: -1, max: 2 }) }), { maxLength: 3 }) }) })
      )
      const value = fc.oneof(
        fc.constantFrom<unknown>(from, to, payer, wallet.address, "0x", "0x0", "0x123", "0xzz", "", null, -1, 0, 1.5, 2 ** 60, true, [], {}),
        rlp,
        key,
        fc.string({ maxLength: 12 }),
        fc.integer()
      )
      const body = fc.dictionary(
        fc.constantFrom("from", "to", "input", "value", "nonce", "gas", "submit", "feeRatio", "feePayer", "rlp", "transactionHash", "accountKey", "fee_payer"),
        value,
        { maxKeys: 6 }
      )
      const route = fc.constantFrom(
        ["POST", "/v2/tx/rlp"],
        ["POST", "/v2/tx/fd/rlp"],
        ["POST", "/v2/tx/fd-user/rlp"],
        ["DELETE", "/v2/tx"],
        ["DELETE", "/v2/tx/fd"],
        ["DELETE", "/v2/tx/fd-user"],
        ["POST", "/v2/tx/anchor"],
        ["POST", "/v2/tx/fd-user/anchor"],
        ["PUT", "/v2/tx/account"],
        ["PUT", "/v2/tx/fd/account"],
        ["POST", "/v2/tx/legacy"]
      ) as fc.Arbitrary<readonly ["POST" | "PUT" | "DELETE", string]>
      let answered = 0
      let refused = 0
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(route, body, async ([method, path], b) => {
            const before = await snapshot()
            // In manual mining an accepted transaction waits in the pool: balances and nonces stay
            // as they were whatever the answer; a refusal must not add to the pool either (below).
            const reply = await run(api.request(method, path, b))
            answered++
            expect(reply.status, `${method} ${path} ${JSON.stringify(b)}: ${reply.text}`).toBeLessThan(500)
            expect(await snapshot()).toEqual(before)
            if (reply.status === 200) return
            refused++
            const error = reply.body as { readonly code?: unknown; readonly message?: unknown }
            expect(typeof error.code, reply.text).toBe("number")
            expect(typeof error.message, reply.text).toBe("string")
          }),
          { numRuns: 80 }
        )
      )
      // Most random bodies are refused: the property is about refusals, not a vacuous pass.
      expect(refused).toBeGreaterThan(answered / 2)
      // What was accepted is what the pool holds: a block of it commits, and no refusal left a trace.
      const block = yield* e.mine(CHAIN)
      expect(block[0]!.transactions.length).toBe(answered - refused)
    }))
})

// A fee-delegated transaction signed by any key (an account whose key was updated away from its
// address's), as a wallet hands it over: the fee payer empty, its signature a placeholder.
const signedBy = (tx: Klaytn.Tx, key: Uint8Array) => {
  const sig = Either.getOrThrow(Klaytn.sign(Klaytn.senderSigningHash(tx, CHAIN), key, CHAIN))
  return hex(Uint8Array.from([tx.type, ...RLP.encode([
    ...klaytnFields(tx.type, { ...tx, from: tx.from.toLowerCase() }),
    [[minimal(sig.v), minimal(sig.r), minimal(sig.s)]],
    new Uint8Array(),
    [[Uint8Array.of(1), new Uint8Array(), new Uint8Array()]]
  ] as Array<Uint8Array>)]))
}

layer(Layer.merge(Emulator.layer({ port: 0, mining: "manual" }), clientLayer))("what mining checks again", (it) => {
  it.effect("a value that would overflow its recipient is committed failed, and the block is made; a relayed cancel replaces its nonce; a transaction signed with a key updated away is dropped", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const api = memberTx(e)
      const ok = (reply: { readonly status: number; readonly text: string; readonly body: unknown }) => {
        expect(reply.status, reply.text).toBe(200)
        return reply.body as any
      }
      const from = yield* api.account()
      yield* e.fund(CHAIN, from, KLAY)
      const rich = outsider()
      yield* Effect.orDie(e.fund(CHAIN, rich.address, (1n << 256n) - 1n))
      // 1. Accepted (the recipient's balance is not the sender's concern), then refused at mining.
      const overflow = ok(yield* api.post("/v2/tx/value", { from, to: rich.address, value: "0x1" }))
      // 2. A cancel built elsewhere as a SigRLP of the pool account: it replaces the pending transfer after it.
      const to = yield* api.account()
      const pending = ok(yield* api.post("/v2/tx/value", { from, to, value: "0x5" }))
      const cancel = right(Klaytn.makeTransaction({ kind: "cancel", from: from as Address.Address, value: 0n, nonce: pending.nonce, gas: 100_000, gasPrice: GasPrice }))
      const relayedCancel = ok(yield* api.post("/v2/tx/rlp", { rlp: hex(right(Klaytn.encodeSigRlp(cancel, CHAIN))) }))
      expect([relayedCancel.typeInt, relayedCancel.nonce]).toEqual([0x38, pending.nonce])
      // 3. A wallet updates its key to a fail key, then sends with its old key: both accepted (pending).
      const wallet = outsider()
      yield* e.fund(CHAIN, wallet.address, KLAY)
      const update = right(Klaytn.makeTransaction({ kind: "account", from: wallet.address, value: 0n, nonce: 0, gas: 100_000, gasPrice: GasPrice, key: Uint8Array.of(0x03, 0xc0), feeDelegated: true }))
      ok(yield* api.post("/v2/tx/fd/rlp", { rlp: signedBy(update, wallet.key) }))
      const late = right(Klaytn.makeTransaction({ kind: "value", from: wallet.address, to: to as Address.Address, value: 7n, nonce: 1, gas: 100_000, gasPrice: GasPrice, feeDelegated: true }))
      const lateResult = ok(yield* api.post("/v2/tx/fd/rlp", { rlp: signedBy(late, wallet.key) }))

      const [block] = yield* Effect.orDie(e.mine(CHAIN))
      expect(block!.transactions).toContain(overflow.transactionHash)
      expect(block!.transactions).toContain(relayedCancel.transactionHash)
      expect(block!.transactions).not.toContain(pending.transactionHash)
      expect(block!.transactions).not.toContain(lateResult.transactionHash)
      const failed = ok(yield* api.receipt(overflow.transactionHash))
      expect([failed.status, failed.txError]).toEqual(["CommitError", "0x2"])
      expect((yield* e.balance(CHAIN, rich.address)).balance).toBe((1n << 256n) - 1n)
      expect((yield* e.balance(CHAIN, to)).balance).toBe(0n)
      // The next block is made as usual.
      const next = ok(yield* api.post("/v2/tx/value", { from, to, value: "0x2" }))
      const [second] = yield* Effect.orDie(e.mine(CHAIN))
      expect(second!.transactions).toEqual([next.transactionHash])
    }))

  it.effect("an account whose key was updated to a public key of its own choosing relays a transaction signed with it: the emulator checks it against that key, the client verifies the result", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const api = memberTx(e)
      const wallet = outsider()
      yield* e.fund(CHAIN, wallet.address, KLAY)
      const newKey = secp256k1.utils.randomSecretKey()
      const update = right(Klaytn.makeTransaction({
        kind: "account", from: wallet.address, value: 0n, nonce: 0, gas: 100_000, gasPrice: GasPrice, feeDelegated: true,
        key: right(Klaytn.encodeAccountKey({ _tag: "Public", publicKey: secp256k1.getPublicKey(newKey, true) }))
      }))
      const updated = yield* api.post("/v2/tx/fd/rlp", { rlp: signedBy(update, wallet.key) })
      expect(updated.status, updated.text).toBe(200)
      yield* Effect.orDie(e.mine(CHAIN))
      const to = yield* api.account()
      const transfer = right(Klaytn.makeTransaction({ kind: "value", from: wallet.address, to: to as Address.Address, value: 9n, nonce: 1, gas: 100_000, gasPrice: GasPrice, feeDelegated: true }))
      // The old key no longer signs for it; the new one does.
      const old = yield* api.post("/v2/tx/fd/rlp", { rlp: signedBy(transfer, wallet.key) })
      expect([old.status, (old.body as any).code]).toEqual([400, 1065001])
      const client = yield* WalletClient.WalletClient.pipe(
        Effect.provide(WalletClient.layer({ credentials: { accessKeyId: e.member.accessKeyId, secretAccessKey: e.member.secretAccessKey }, chainId: ChainId.Testnet, baseUrl: e.url })),
        Effect.orDie
      )
      const sent = yield* client.send(TransactionKind.RawTransaction({ rlp: signedBy(transfer, newKey) }), { feePayer: FeeDelegation.global })
      expect(Transaction.isSigned(sent) && sent.from).toBe(wallet.address)
      yield* Effect.orDie(e.mine(CHAIN))
      expect((yield* e.balance(CHAIN, to)).balance).toBe(9n)
    }))
})
