/**
 * The key service over HTTP (`/v2/key`): create, list (cursors, sizes), get, sign (the signature
 * recovered independently to the key's public key), delete; members and chains apart; refusals.
 */
import { expect, layer } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Layer } from "effect"
import * as Emulator from "../src/Emulator.js"
import { type Api, clientLayer, expectError, newMemberApi, send } from "./_support.js"

const keys = (a: Api) => {
  const h = (chainId: number) => a.headers(chainId)
  const enc = encodeURIComponent
  return {
    url: a.url,
    poolKrn: (chainId: number, name = "default") => `krn:${chainId}:wallet:${a.accountId}:key-pool:${name}`,
    create: (chainId: number, body?: string) => send("POST", `${a.url}/v2/key`, h(chainId), body),
    list: (chainId: number, query: string) => send("GET", `${a.url}/v2/key?${query}`, h(chainId)),
    get: (chainId: number, keyId: string) => send("GET", `${a.url}/v2/key/${enc(keyId)}`, h(chainId)),
    remove: (chainId: number, keyId: string) => send("DELETE", `${a.url}/v2/key/${enc(keyId)}`, h(chainId)),
    sign: (chainId: number, keyId: string, body: string) => send("POST", `${a.url}/v2/key/${enc(keyId)}/sign`, h(chainId), body)
  }
}

const HASH = `0x${"ab".repeat(32)}`

layer(Layer.merge(Emulator.layer(), clientLayer))("emulator key service", (it) => {
  it.effect("create, list in pages, get, sign (recovered to the key), delete", () =>
    Effect.gen(function*() {
      const k = keys(yield* newMemberApi)
      const krn = k.poolKrn(1001)
      const created = yield* k.create(1001, JSON.stringify({ size: 3 }))
      expect(created.status, created.text).toBe(200)
      const items: Array<any> = created.body.items
      expect(items).toHaveLength(3)
      for (const item of items) {
        expect(Object.keys(item)).toEqual(["blob", "keyId", "krn", "publicKey"])
        expect(item.krn).toBe(krn)
        expect(item.keyId).toMatch(new RegExp(`^${krn}:0x[0-9a-f]{64}$`))
        expect(item.publicKey).toMatch(/^0x04[0-9a-f]{128}$/)
        expect(item.blob).toMatch(/^0x[0-9a-f]{64}$/)
      }
      expect((yield* k.create(1001)).body.items).toHaveLength(1) // no body: the spec's default, 1

      // Pages of 2, newest first, cursors to the end; a key created during the listing is not in it.
      const first = yield* k.list(1001, `krn=${encodeURIComponent(krn)}&size=2`)
      expect(first.status, first.text).toBe(200)
      expect(Object.keys(first.body)).toEqual(["items", "cursor"])
      expect(first.body.items).toHaveLength(2)
      const late = (yield* k.create(1001, "{\"size\":1}")).body.items[0]
      const second = yield* k.list(1001, `krn=${encodeURIComponent(krn)}&size=2&cursor=${first.body.cursor}`)
      expect(second.body.cursor).toBe("")
      const listed = [...first.body.items, ...second.body.items]
      expect(listed.map((i: any) => i.keyId)).not.toContain(late.keyId)
      expect(listed.slice(1)).toEqual([...items].reverse().map(({ blob: _, ...rest }) => rest))
      expect((yield* k.list(1001, `krn=${encodeURIComponent(krn)}&size=0`)).body.items).toHaveLength(5)

      const key = items[0]
      expect((yield* k.get(1001, key.keyId)).body).toEqual(key)

      const signed = yield* k.sign(1001, key.keyId, JSON.stringify({ data: HASH }))
      expect(signed.status, signed.text).toBe(200)
      expect(Object.keys(signed.body)).toEqual(["signedData"])
      const sig = Buffer.from(signed.body.signedData.slice(2), "hex")
      expect(sig).toHaveLength(65)
      expect([0, 1]).toContain(sig[64])
      const hash = Buffer.from(HASH.slice(2), "hex")
      const recovered = secp256k1.Signature.fromBytes(Buffer.concat([sig.subarray(64), sig.subarray(0, 64)]), "recovered")
        .recoverPublicKey(hash)
      expect(`0x${recovered.toHex(false)}`).toBe(key.publicKey)
      expect(secp256k1.verify(sig.subarray(0, 64), hash, Buffer.from(key.publicKey.slice(2), "hex"), { prehash: false })).toBe(true)

      expect((yield* k.remove(1001, key.keyId)).body).toEqual({ status: "deleted" })
      expectError(yield* k.get(1001, key.keyId), 400, 1061010)
      expectError(yield* k.sign(1001, key.keyId, JSON.stringify({ data: HASH })), 400, 1061010)
      expectError(yield* k.remove(1001, key.keyId), 400, 1061010)
      const after = (yield* k.list(1001, `krn=${encodeURIComponent(krn)}`)).body.items.map((i: any) => i.keyId)
      expect(after).toHaveLength(4)
      expect(after).not.toContain(key.keyId)
    }))

  it.effect("members and chains apart: another member's or chain's key id or key pool does not exist", () =>
    Effect.gen(function*() {
      const a = keys(yield* newMemberApi)
      const b = keys(yield* newMemberApi)
      const aKey = (yield* a.create(1001)).body.items[0]
      const bKey = (yield* b.create(8217)).body.items[0]
      expect(bKey.krn).toBe(b.poolKrn(8217))
      for (const chain of [1001, 8217]) {
        expectError(yield* b.get(chain, aKey.keyId), 400, 1061010)
        expectError(yield* b.sign(chain, aKey.keyId, JSON.stringify({ data: HASH })), 400, 1061010)
        expectError(yield* b.remove(chain, aKey.keyId), 400, 1061010)
        expectError(yield* b.list(chain, `krn=${encodeURIComponent(a.poolKrn(chain))}`), 400, 1061010)
      }
      // A's key on the other chain's header; a pool name that does not exist.
      expectError(yield* a.get(8217, aKey.keyId), 400, 1061010)
      expectError(yield* a.list(1001, `krn=${encodeURIComponent(a.poolKrn(1001, "nope"))}`), 400, 1061010)
      expectError(yield* a.list(1001, `krn=${encodeURIComponent(a.poolKrn(1001).replace("key-pool", "account-pool"))}`), 400, 1061010)
      expect((yield* a.get(1001, aKey.keyId)).body).toEqual(aKey)
      // A cursor of A's listing is refused to B, on B's own pool.
      yield* a.create(1001, "{\"size\":2}")
      const cursor = (yield* a.list(1001, `krn=${encodeURIComponent(a.poolKrn(1001))}&size=1`)).body.cursor
      expect(cursor).not.toBe("")
      expectError(yield* b.list(1001, `krn=${encodeURIComponent(b.poolKrn(1001))}&cursor=${cursor}`), 400, 1061615)
    }))

  it.effect("refusals: sizes, bodies, key ids, queries: 4xx with the service's codes, nothing created", () =>
    Effect.gen(function*() {
      const k = keys(yield* newMemberApi)
      const krn = encodeURIComponent(k.poolKrn(1001))
      expectError(yield* k.create(1001, "{\"size\":0}"), 400, 1061608)
      for (const body of ["{\"size\":101}", "{\"size\":-1}", "{\"size\":1.5}", "{\"size\":\"x\"}", "[1]", "nope"]) {
        expectError(yield* k.create(1001, body), 400, 1061615)
      }
      expect((yield* k.list(1001, `krn=${krn}`)).body).toEqual({ items: [], cursor: "" })
      expect((yield* k.create(1001, "{\"size\":100}")).body.items).toHaveLength(100)
      const keyId = (yield* k.list(1001, `krn=${krn}&size=1`)).body.items[0].keyId

      expectError(yield* k.list(1001, ""), 400, 1061608)
      expectError(yield* k.list(1001, `krn=${krn}&size=-1`), 400, 1061615)
      expectError(yield* k.list(1001, `krn=${krn}&size=x`), 400, 1061615)
      expectError(yield* k.list(1001, `krn=${krn}&cursor=forged`), 400, 1061615)
      expectError(yield* k.list(1001, "krn=not-a-krn"), 400, 1061010)
      expect((yield* k.list(1001, `krn=${krn}&size=5000`)).body.items).toHaveLength(100)

      expectError(yield* k.sign(1001, keyId, "{}"), 400, 1061608)
      expectError(yield* k.sign(1001, keyId, ""), 400, 1061608)
      expectError(yield* k.sign(1001, keyId, JSON.stringify({ data: "zz" })), 400, 1061607)
      expectError(yield* k.sign(1001, keyId, JSON.stringify({ data: "0xabcd" })), 400, 1061615)
      expectError(yield* k.sign(1001, keyId, JSON.stringify({ data: `${HASH}00` })), 400, 1061615)
      expectError(yield* k.sign(1001, keyId, "[]"), 400, 1061615)

      for (const bad of [k.poolKrn(1001), `${k.poolKrn(1001)}:0x12`, "x"]) {
        expectError(yield* k.get(1001, bad), 400, 1061615)
      }
      expectError(yield* k.get(1001, `${k.poolKrn(1001)}:0x${"0".repeat(64)}`), 400, 1061010)
      expectError(yield* send("GET", `${k.url}/v2/key?krn=${krn}`, { "x-chain-id": "1001" }), 401, 1010008)
    }))
})
