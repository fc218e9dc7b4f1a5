/**
 * Registration over HTTP (`POST /v2/registration/account`): existing addresses taken into a pool
 * under keys of the key service, each with its fee-delegated account update (built and signed
 * here independently: @ethereumjs/rlp, @noble/curves), or without one when the chain already has
 * the key; per-item failures that change nothing; request-level refusals that change nothing.
 * Manual mining: each update is in a block when the test mines.
 */
import { expect, layer } from "@effect/vitest"
import { RLP } from "@ethereumjs/rlp"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import type * as HttpClient from "@effect/platform/HttpClient"
import { Effect, FastCheck as fc, Layer, Runtime } from "effect"
import { ChainId } from "effect-kas-wallet"
import * as Emulator from "../src/Emulator.js"
import { clientLayer, expectError, type Reply } from "./_support.js"
import { GasPrice, memberTx, newMemberTx, type TxApi } from "./_ledger.js"
import { addressOfKey, encodeKey, hex, klaytnFields, listOf, minimal, type Nested, recover, unhex } from "./support/klaytn.js"

const KLAY = 10n ** 18n
const CHAIN = 1001

/** A wallet outside KAS: its private key and lower-case address. */
const outsider = () => {
  const key = secp256k1.utils.randomSecretKey()
  return { key, address: addressOfKey(key) }
}

const compressed = (publicKey: string) => secp256k1.Point.fromHex(publicKey.slice(2)).toBytes(true)

/**
 * A fee-delegated account update (0x21; 0x22 with a ratio), signed by `signer` as Klaytn's
 * documentation says: keccak256(rlp([rlp([type, ...fields]), chainId, 0, 0])), the fee payer left
 * empty with the placeholder signature a wallet hands over.
 */
const update = (options: {
  readonly from: string
  readonly signer: Uint8Array
  readonly key: Uint8Array
  readonly nonce?: number
  readonly type?: number
  readonly chainId?: number
}) => {
  const type = options.type ?? 0x21
  const fields = klaytnFields(type, {
    nonce: options.nonce ?? 0,
    gasPrice: GasPrice,
    gas: 100_000,
    value: 0n,
    from: options.from,
    key: options.key,
    feeRatio: type === 0x22 ? 30 : undefined
  })
  const chainId = options.chainId ?? CHAIN
  const hash = keccak_256(RLP.encode([RLP.encode([minimal(type), ...fields]), minimal(chainId), new Uint8Array(), new Uint8Array()]))
  const sig = secp256k1.Signature.fromBytes(secp256k1.sign(hash, options.signer, { prehash: false, format: "recovered" }), "recovered")
  const signature = [minimal(2 * chainId + 35 + sig.recovery!), minimal(sig.r), minimal(sig.s)]
  return hex(Uint8Array.from([type, ...RLP.encode([...fields, [signature], new Uint8Array(), [[Uint8Array.of(1), new Uint8Array(), new Uint8Array()]]] as Array<Uint8Array>)]))
}

const publicKeyUpdate = (publicKey: string) => encodeKey({ type: 2, key: compressed(publicKey) })

const register = (t: TxApi, items: unknown, options?: { readonly chainId?: number; readonly krn?: string }) =>
  t.request("POST", "/v2/registration/account", items, options)

const ok = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(200)
  return reply.body as any
}

const newKeys = (t: TxApi, size: number, chainId = CHAIN) =>
  Effect.map(t.request("POST", "/v2/key", { size }, { chainId }), (r) => ok(r).items as Array<{ keyId: string; publicKey: string }>)

layer(Layer.merge(Emulator.layer({ mining: "manual" }), clientLayer))("registration", (it) => {
  it.effect("an address with its update joins the pool under the key: the chain's key is the key's, the global fee payer pays, transfers are signed by the key", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const t = memberTx(e)
      const [kas] = yield* newKeys(t, 1)
      const wallet = outsider()
      yield* e.fund(CHAIN, wallet.address, KLAY)
      const billsBefore = yield* e.feeBills({ accountId: e.member.accountId, chainId: CHAIN })

      const answer = yield* register(t, [{ keyId: kas!.keyId, address: wallet.address, rlp: update({ from: wallet.address, signer: wallet.key, key: publicKeyUpdate(kas!.publicKey) }) }])
      expect(ok(answer)).toEqual({ status: "ok" })

      // In the pool at once, with the key's public key and a key id of the pool.
      const account = ok(yield* t.request("GET", `/v2/account/${wallet.address}`, undefined))
      expect(account.address.toLowerCase()).toBe(wallet.address)
      expect(account.publicKey).toBe(kas!.publicKey)
      expect(account.keyId).toBe(`krn:${CHAIN}:wallet:${e.member.accountId}:account-pool:default:${kas!.keyId.split(":").at(-1)}`)
      const byKey = ok(yield* t.request("GET", `/v2/pubkey/${kas!.publicKey}/account`, undefined))
      expect(byKey.items.map((i: any) => i.address.toLowerCase())).toEqual([wallet.address])
      // The key stays in the key service.
      expect(ok(yield* t.request("GET", `/v2/key/${encodeURIComponent(kas!.keyId)}`, undefined)).publicKey).toBe(kas!.publicKey)

      // The update waits in the pool: until it is mined the chain still has the old key, and a
      // transaction signed by the KAS key is refused as a node refuses it.
      const to = yield* t.account()
      expectError(yield* t.transfer("fd", { from: wallet.address, to, value: "0x1" }), 400, 1065001)
      const [block] = yield* Effect.orDie(e.mine(CHAIN))
      expect(block!.transactions).toHaveLength(1)
      const receipt = ok(yield* t.receipt(block!.transactions[0]!))
      expect([receipt.status, receipt.typeInt, receipt.from]).toEqual(["Committed", 0x21, wallet.address])
      // The transaction mined is the one the wallet signed, to AccountKeyPublic of the key: its
      // signature (recovered independently) is over that key.
      const updateHash = keccak_256(RLP.encode([
        RLP.encode([minimal(0x21), ...klaytnFields(0x21, { nonce: 0, gasPrice: GasPrice, gas: 100_000, value: 0n, from: wallet.address, key: publicKeyUpdate(kas!.publicKey) })]),
        minimal(CHAIN),
        new Uint8Array(),
        new Uint8Array()
      ]))
      const { R, S, V } = receipt.signatures[0]
      expect(recover(updateHash, [V, R, S].map((h: string) => minimal(BigInt(h))), CHAIN).address).toBe(wallet.address)
      expect(receipt.feePayer).toBe(e.globalFeePayer(CHAIN).toLowerCase())
      const billsAfter = yield* e.feeBills({ accountId: e.member.accountId, chainId: CHAIN })
      expect(billsAfter[0]!.transactions).toBe((billsBefore[0]?.transactions ?? 0) + 1)
      expect((yield* e.balance(CHAIN, wallet.address)).balance).toBe(KLAY) // the sender paid nothing

      // Still enabled once its update is mined (the key it was updated to is the one KAS holds).
      expect(ok(yield* t.request("GET", `/v2/account/${wallet.address}`, undefined)).address.toLowerCase()).toBe(wallet.address)
      // A transfer from it: signed by the key, whose address is not the account's.
      const sent = ok(yield* t.transfer("value", { from: wallet.address, to, value: "0x7" }))
      const raw = unhex(sent.rlp)
      const tf = listOf(RLP.decode(raw.subarray(1)) as Nested)
      const hash = keccak_256(RLP.encode([RLP.encode([minimal(raw[0]!), ...tf.slice(0, 6)] as Array<Uint8Array>), minimal(CHAIN), new Uint8Array(), new Uint8Array()]))
      const signer = recover(hash, listOf(tf[6])[0]!, CHAIN).address
      expect(signer).toBe(hex(keccak_256(unhex(kas!.publicKey).subarray(1)).subarray(12)))
      expect(signer).not.toBe(wallet.address)
      // Deleting the key in the key service leaves the account its own copy.
      ok(yield* t.request("DELETE", `/v2/key/${encodeURIComponent(kas!.keyId)}`, undefined))
      ok(yield* t.transfer("value", { from: wallet.address, to, value: "0x1" }))
      yield* Effect.orDie(e.mine(CHAIN))
      expect((yield* e.balance(CHAIN, to)).balance).toBe(8n)
    }))

  it.effect("without rlp: only an address whose key already is the key's; items fail apart (partially failed), each failure changing nothing", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const t = memberTx(e)
      const [k1, k2] = yield* newKeys(t, 2)
      const updated = outsider()
      const legacy = outsider()
      // `updated` switches to k1 on its own (a fee-delegated raw transaction), before registering.
      ok(yield* t.post("/v2/tx/fd/rlp", { rlp: update({ from: updated.address, signer: updated.key, key: publicKeyUpdate(k1!.publicKey) }) }))
      // Not mined yet: the chain's key is still its own.
      const early = ok(yield* register(t, [{ keyId: k1!.keyId, address: updated.address }]))
      expect(early.status).toBe("all failed")
      expect(Object.keys(early.failures).map((a) => a.toLowerCase())).toEqual([updated.address])
      yield* Effect.orDie(e.mine(CHAIN))
      const answer = ok(yield* register(t, [
        { keyId: k1!.keyId, address: updated.address },
        { keyId: k2!.keyId, address: legacy.address }
      ]))
      expect(answer.status).toBe("partially failed")
      const failures = Object.entries(answer.failures)
      expect(failures).toHaveLength(1)
      expect(failures[0]![0].toLowerCase()).toBe(legacy.address)
      expect(failures[0]![1]).toContain("not AccountKeyPublic of the key's public key")
      expect(ok(yield* t.request("GET", `/v2/account/${updated.address}`, undefined)).publicKey).toBe(k1!.publicKey)
      expectError(yield* t.request("GET", `/v2/account/${legacy.address}`, undefined), 400, 1061010)
      // Registered once: a second registration of it is a failure.
      const again = ok(yield* register(t, [{ keyId: k1!.keyId, address: updated.address }]))
      expect(Object.values(again.failures)).toEqual([expect.stringContaining("already registered")])
      // A role-based key whose transaction role is the key: KAS signs its transactions, the owner keeps its updates.
      const roles = outsider()
      const [k3] = yield* newKeys(t, 1)
      const roleKey = encodeKey({ type: 5, roles: [{ type: 2, key: compressed(k3!.publicKey) }, { type: 2, key: secp256k1.getPublicKey(roles.key, true) }] })
      expect(ok(yield* register(t, [{ keyId: k3!.keyId, address: roles.address, rlp: update({ from: roles.address, signer: roles.key, key: roleKey }) }]))).toEqual({ status: "ok" })
      yield* Effect.orDie(e.mine(CHAIN))
      yield* e.fund(CHAIN, roles.address, KLAY)
      ok(yield* t.transfer("value", { from: roles.address, to: updated.address, value: "0x1" }))
      yield* Effect.orDie(e.mine(CHAIN))
      expect((yield* e.balance(CHAIN, updated.address)).balance).toBe(1n)
    }))

  it.effect("per-item failures: partial delegation, another type, another sender, another key, a signature not of the account's key, a nonce ahead, an account of the emulator; nothing changes", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const t = memberTx(e)
      const [kas, other] = yield* newKeys(t, 2)
      const w = Array.from({ length: 7 }, outsider)
      const mine = yield* t.account()
      const to = publicKeyUpdate(kas!.publicKey)
      const transfer = (() => {
        // A fee-delegated value transfer (0x09), signed by w[1].
        const fields = klaytnFields(0x09, { nonce: 0, gasPrice: GasPrice, gas: 100_000, to: w[1]!.address, value: 0n, from: w[1]!.address })
        const hash = keccak_256(RLP.encode([RLP.encode([minimal(0x09), ...fields]), minimal(CHAIN), new Uint8Array(), new Uint8Array()]))
        const sig = secp256k1.Signature.fromBytes(secp256k1.sign(hash, w[1]!.key, { prehash: false, format: "recovered" }), "recovered")
        return hex(Uint8Array.from([0x09, ...RLP.encode([...fields, [[minimal(2 * CHAIN + 35 + sig.recovery!), minimal(sig.r), minimal(sig.s)]], new Uint8Array(), [[Uint8Array.of(1), new Uint8Array(), new Uint8Array()]]] as Array<Uint8Array>)]))
      })()
      const items = [
        { keyId: kas!.keyId, address: w[0]!.address, rlp: update({ from: w[0]!.address, signer: w[0]!.key, key: to, type: 0x22 }) },
        { keyId: kas!.keyId, address: w[1]!.address, rlp: transfer },
        { keyId: kas!.keyId, address: w[2]!.address, rlp: update({ from: w[3]!.address, signer: w[3]!.key, key: to }) },
        { keyId: kas!.keyId, address: w[4]!.address, rlp: update({ from: w[4]!.address, signer: w[4]!.key, key: publicKeyUpdate(other!.publicKey) }) },
        { keyId: kas!.keyId, address: w[5]!.address, rlp: update({ from: w[5]!.address, signer: w[6]!.key, key: to }) },
        { keyId: kas!.keyId, address: w[6]!.address, rlp: update({ from: w[6]!.address, signer: w[6]!.key, key: to, nonce: 3 }) },
        { keyId: kas!.keyId, address: mine }
      ]
      const bills = yield* e.feeBills({ accountId: e.member.accountId, chainId: CHAIN })
      const answer = ok(yield* register(t, items))
      expect(answer.status).toBe("all failed")
      const reasons = Object.fromEntries(Object.entries(answer.failures as Record<string, string>).map(([a, r]) => [a.toLowerCase(), r]))
      expect(reasons).toEqual({
        [w[0]!.address]: "partialFeeDelegation transaction do not supported. use feeDelegation transaction",
        [w[1]!.address]: expect.stringContaining("TxTypeFeeDelegatedAccountUpdate"),
        [w[2]!.address]: expect.stringContaining("is not the account"),
        [w[4]!.address]: expect.stringContaining("must be AccountKeyPublic of the key's public key"),
        [w[5]!.address]: "failed to send a raw transaction to klaytn node; -32000::invalid transaction v, r, s values of the sender",
        [w[6]!.address]: "failed to send a raw transaction to klaytn node; -32000::nonce too high",
        [mine.toLowerCase()]: expect.stringContaining("already registered")
      })
      // Nothing changed: no transaction, no bill, no account.
      expect(yield* Effect.orDie(e.mine(CHAIN))).toEqual([expect.objectContaining({ transactions: [] })])
      expect(yield* e.feeBills({ accountId: e.member.accountId, chainId: CHAIN })).toEqual(bills)
      for (const x of w) {
        expect((yield* e.balance(CHAIN, x.address)).nonce).toBe(0)
        expectError(yield* t.request("GET", `/v2/account/${x.address}`, undefined), 400, 1061010)
      }
    }))

  it.effect("random bodies: 200 or a 4xx KAS error body, never a 5xx; an item refused, or a body refused, changes nothing", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const t = yield* newMemberTx(e)
      const [kas] = yield* newKeys(t, 1)
      const w = outsider()
      const good = update({ from: w.address, signer: w.key, key: publicKeyUpdate(kas!.publicKey) })
      const runtime = yield* Effect.runtime<HttpClient.HttpClient>()
      const value = fc.oneof(
        fc.constantFrom<unknown>(kas!.keyId, `${kas!.keyId}00`, w.address, w.address.toUpperCase(), "0x", "0xzz", good, "", null, 1, true, [], {}),
        // The good update with one byte flipped.
        fc.nat({ max: good.length / 2 - 2 }).chain((at) => fc.integer({ min: 1, max: 15 }).map((x) => {
          const bytes = unhex(good)
          bytes[at] = bytes[at]! ^ x
          return hex(bytes)
        })),
        fc.string({ maxLength: 8 })
      )
      const item = fc.dictionary(fc.constantFrom("keyId", "address", "rlp", "extra"), value, { maxKeys: 3 })
      const body = fc.oneof(fc.array(item, { maxLength: 3 }), item, fc.string({ maxLength: 10 }))
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(body, async (b) => {
            const reply = await Runtime.runPromise(runtime)(register(t, typeof b === "string" ? b : b))
            expect(reply.status === 200 || (reply.status >= 400 && reply.status < 500), reply.text).toBe(true)
            if (reply.status !== 200) expect(Object.keys(reply.body).sort()).toEqual(["code", "message", "requestId"])
            else expect(["ok", "partially failed", "all failed"]).toContain(reply.body.status)
            // Nothing registered but the one good update could register (and only once).
            const account = await Runtime.runPromise(runtime)(t.request("GET", `/v2/account/${w.address}`, undefined))
            if (account.status === 200) expect(account.body.publicKey).toBe(kas!.publicKey)
          }),
          { numRuns: 40 }
        )
      )
      expect((yield* e.balance(CHAIN, w.address)).nonce).toBe(0) // pending at most: not mined
      yield* Effect.orDie(e.mine(CHAIN))
      expect((yield* e.balance(CHAIN, w.address)).nonce).toBeLessThanOrEqual(1)
    }))

  it.effect("request-level refusals change nothing; a key of another member or chain is data don't exist; x-krn selects the pool", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const t = memberTx(e)
      const stranger = yield* newMemberTx(e)
      const [kas] = yield* newKeys(t, 1)
      const [theirs] = yield* newKeys(stranger, 1)
      const [mainnet] = yield* newKeys(t, 1, 8217)
      const w = outsider()
      const good = { keyId: kas!.keyId, address: w.address, rlp: update({ from: w.address, signer: w.key, key: publicKeyUpdate(kas!.publicKey) }) }
      const refused = (body: unknown, code: number, message?: string) =>
        Effect.map(register(t, body), (reply) => {
          expectError(reply, 400, code)
          if (message !== undefined) expect(reply.body.message).toBe(message)
        })
      yield* refused("not json", 1061615)
      yield* refused({ keyId: kas!.keyId, address: w.address }, 1061615, "its value is out of range; body")
      yield* refused([], 1061608, "cannot be empty or zero value; body")
      yield* refused([{ address: w.address }], 1061608, "cannot be empty or zero value; keyId")
      yield* refused([{ keyId: "", address: w.address }], 1061608, "cannot be empty or zero value; keyId")
      yield* refused([{ keyId: kas!.keyId }], 1061608, "cannot be empty or zero value; address")
      yield* refused([{ keyId: kas!.keyId, address: "0x1234" }], 1061609, "it just allow Klaytn address form; address")
      yield* refused([{ keyId: "krn:nope", address: w.address }], 1061615, "its value is out of range; keyId")
      yield* refused([{ ...good, rlp: "0xzz" }], 1061607, "must start with 0x and be hex; rlp")
      yield* refused([{ ...good, extra: 1 }], 1061615, "its value is out of range; extra")
      yield* refused([good, { ...good, address: w.address.toUpperCase().replace("0X", "0x") }], 1061615, "its value is out of range; address")
      yield* refused(Array.from({ length: 101 }, () => good), 1061615)
      // A good item first, then a key that is not the caller's on this chain: the whole request is refused.
      const other = outsider()
      yield* refused([good, { keyId: theirs!.keyId, address: other.address }], 1061010, `data don't exist; ${theirs!.keyId}`)
      yield* refused([good, { keyId: mainnet!.keyId, address: other.address }], 1061010, `data don't exist; ${mainnet!.keyId}`)
      expectError(yield* t.request("GET", `/v2/account/${w.address}`, undefined), 400, 1061010)
      expect(yield* Effect.orDie(e.mine(CHAIN))).toEqual([expect.objectContaining({ transactions: [] })])

      // x-krn: the account joins that pool, not the default one.
      const pool = yield* Effect.orDie(e.createPool({ accountId: e.member.accountId, chainId: ChainId.Testnet, name: "migrated" }))
      expect(ok(yield* register(t, [good], { krn: pool.krn.toString() }))).toEqual({ status: "ok" })
      expect(ok(yield* t.request("GET", `/v2/account/${w.address}`, undefined, { krn: pool.krn.toString() })).krn).toBe(pool.krn.toString())
      expectError(yield* t.request("GET", `/v2/account/${w.address}`, undefined), 400, 1061010)
      expectError(yield* register(t, [good], { krn: `krn:${CHAIN}:wallet:${e.member.accountId}:account-pool:nope` }), 400, 1061010)
      yield* Effect.orDie(e.mine(CHAIN))
    }))
})
