/**
 * The key service on the wire (POST/GET /v2/key, GET/DELETE /v2/key/{key-id},
 * POST /v2/key/{key-id}/sign): method, path, query, headers and body of each operation, the
 * specification's example bodies decoded, arguments refused before sending, no retry of a write,
 * and a key listing streamed over several pages.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, ConfigProvider, Effect, Fiber, Stream, TestClock } from "effect"
import { readFileSync } from "node:fs"
import { Key, Krn, WalletClient, WalletConfig, type WalletError } from "../src/index.js"
import { accessKeyId, secret, testClient, withClient } from "./support/client.js"
import { json, type Recorded } from "./support/recordingClient.js"

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/key/${name}`, import.meta.url), "utf8"))
const created = fixture("key-create-200-success.json")
const oneKey = fixture("key-get-200-success.json")
const listed = fixture("key-list-200-success.json")
const signed = fixture("key-sign-200-success.json")
const deleted = fixture("key-delete-200-success.json")

const keyPool = "krn:1001:wallet:676de94a-9ca9-45e2-a67b-ed72178cdbcc:key-pool:default"
const otherKeyPool = "krn:1001:wallet:676de94a-9ca9-45e2-a67b-ed72178cdbcc:key-pool:signers"
const keyId: string = oneKey.keyId
const encodedKeyId = keyId.replaceAll(":", "%3A")
// The request example of the specification (KeySignDataRequest).
const hash = "0xf4075c4ac711519c7091365cf6a644dc432cc03d9dd8c506daf1bb565e7e4f9d"

/** Answers each route of the key service with the specification's example. */
const spec = (r: Recorded) =>
  r.url.pathname === "/v2/key"
    ? json(200, r.method === "POST" ? created : listed)
    : r.url.pathname.endsWith("/sign")
    ? json(200, signed)
    : json(200, r.method === "DELETE" ? deleted : oneKey)

const run = <A>(test: ReturnType<typeof testClient>, f: (c: WalletClient.Service) => Effect.Effect<A, WalletError.WalletError>) =>
  withClient(test, Effect.flatMap(WalletClient.WalletClient, f))

describe("the key service on the wire", () => {
  it.effect("createKeys: POST /v2/key { size }, x-krn only with a key pool (call, scope, layer); the example decodes", () =>
    Effect.gen(function*() {
      const test = testClient(spec)
      const result = yield* withClient(test, WalletClient.createKeys(30))
      expect(result.items).toHaveLength(30)
      const first = result.items[0]!
      expect(String(first.keyId)).toBe(created.items[0].keyId)
      expect(Krn.isKeyPool(first.krn)).toBe(true)
      expect(Krn.isKeyPool(first.keyId.poolKrn)).toBe(true)
      expect(first.publicKey).toBe(created.items[0].publicKey)
      expect(first.blob).toBe(created.items[0].blob)
      yield* withClient(test, WalletClient.createKeys(1, { keyPool: otherKeyPool }))
      yield* withClient(test, WalletClient.createKeys(2).pipe(WalletConfig.withKeyPool(keyPool)))
      const [plain, perCall, scoped] = test.requests
      expect([plain!.method, plain!.url.pathname, plain!.url.search]).toEqual(["POST", "/v2/key", ""])
      expect(plain!.headers["x-chain-id"]).toBe("1001")
      expect(plain!.headers["x-krn"]).toBeUndefined()
      expect(plain!.body).toEqual({ size: 30 })
      expect(perCall!.headers["x-krn"]).toBe(otherKeyPool)
      expect(perCall!.body).toEqual({ size: 1 })
      expect(scoped!.headers["x-krn"]).toBe(keyPool)

      const layered = testClient(spec, { keyPool })
      yield* withClient(layered, WalletClient.createKeys(1))
      yield* withClient(layered, WalletClient.createKeys(1, { keyPool: null }))
      expect(layered.requests.map((r) => r.headers["x-krn"])).toEqual([keyPool, undefined])
    }))

  it.effect("getKey, deleteKey, signWithKey: the key id percent-encoded in the path, as the official client sends it", () =>
    Effect.gen(function*() {
      const test = testClient(spec)
      const key = yield* withClient(test, WalletClient.getKey(keyId))
      expect(String(key.keyId)).toBe(keyId)
      expect(String(key.krn)).toBe(keyPool)
      expect(key.blob).toBe(oneKey.blob)
      const status = yield* withClient(test, WalletClient.deleteKey(key.keyId))
      expect(status).toEqual({ status: "deleted" })
      const signature = yield* withClient(test, WalletClient.signWithKey(keyId, hash))
      expect(signature.signedData).toBe(signed.signedData)
      expect(Key.signatureParts(signature.signedData)).toEqual({
        r: `0x${signed.signedData.slice(2, 66)}`,
        s: `0x${signed.signedData.slice(66, 130)}`,
        v: 1
      })
      expect(test.requests.map((r) => [r.method, r.url.pathname, r.url.search, r.headers["x-chain-id"], r.headers["x-krn"], r.body])).toEqual([
        ["GET", `/v2/key/${encodedKeyId}`, "", "1001", undefined, undefined],
        ["DELETE", `/v2/key/${encodedKeyId}`, "", "1001", undefined, undefined],
        ["POST", `/v2/key/${encodedKeyId}/sign`, "", "1001", undefined, { data: hash }]
      ])
    }))

  it.effect("listKeys: GET /v2/key with krn (given, else the key pool selected, else the default key pool of the account pool's member), size and cursor in the query", () =>
    Effect.gen(function*() {
      const test = testClient(spec)
      const page = yield* run(test, (c) => c.listKeys({ krn: listed.items[0].krn, pageSize: 2, cursor: "abc=" }))
      expect(page.cursor).toBe(listed.cursor)
      expect(page.items.map((k) => String(k.keyId))).toEqual(listed.items.map((k: { keyId: string }) => k.keyId))
      expect(Krn.isAccountPool(page.items[0]!.krn)).toBe(true)
      yield* run(test, (c) => c.listKeys({ keyPool }))
      yield* run(test, (c) => c.listKeys().pipe(WalletConfig.withPool("krn:1001:wallet:acc-1:account-pool:payroll")))
      expect(test.requests.map((r) => [r.method, r.url.pathname, [...r.url.searchParams.entries()], r.headers["x-krn"]])).toEqual([
        ["GET", "/v2/key", [["size", "2"], ["cursor", "abc="], ["krn", listed.items[0].krn]], undefined],
        ["GET", "/v2/key", [["krn", keyPool]], undefined],
        ["GET", "/v2/key", [["krn", "krn:1001:wallet:acc-1:key-pool:default"]], undefined]
      ])
    }))

  it.effect("keys streams a pool's keys over several pages, each page asked for at the previous page's cursor", () =>
    Effect.gen(function*() {
      const items = listed.items as ReadonlyArray<unknown>
      const pages: Record<string, unknown> = {
        "": { items: [items[0]], cursor: "p2" },
        p2: { items: [items[1]], cursor: "p3" },
        p3: { items: [items[0]], cursor: "" }
      }
      const test = testClient((r) => json(200, pages[r.url.searchParams.get("cursor") ?? ""]))
      const all = yield* WalletClient.keys({ krn: listed.items[0].krn, pageSize: 1 }).pipe(Stream.runCollect, (s) => withClient(test, s))
      expect(Chunk.toReadonlyArray(all).map((k) => String(k.keyId))).toEqual([listed.items[0].keyId, listed.items[1].keyId, listed.items[0].keyId])
      expect(test.requests.map((r) => r.url.searchParams.get("cursor"))).toEqual([null, "p2", "p3"])
      const pageCount = yield* WalletClient.keyPages({ krn: listed.items[0].krn }).pipe(Stream.runCount, (s) => withClient(test, s))
      expect(pageCount).toBe(3)
    }))

  it.effect("arguments are refused before sending, naming the field", () =>
    Effect.gen(function*() {
      const test = testClient(spec)
      const refused = (f: (c: WalletClient.Service) => Effect.Effect<unknown, WalletError.WalletError>) =>
        Effect.map(Effect.flip(run(test, f)), (e) => [e._tag, e._tag === "InvalidArgument" ? e.argument : undefined])
      const mainnetKey = keyId.replace("krn:1001:", "krn:8217:")
      const cases: Array<[(c: WalletClient.Service) => Effect.Effect<unknown, WalletError.WalletError>, string]> = [
        [(c) => c.createKeys(0), "size"],
        [(c) => c.createKeys(101), "size"],
        [(c) => c.createKeys(1.5), "size"],
        [(c) => c.createKeys(1, { keyPool: "krn:1001:wallet:x:account-pool:default" }), "keyPool"],
        [(c) => c.createKeys(1, { keyPool: "krn:8217:wallet:x:key-pool:default" }), "keyPool"],
        [(c) => c.getKey("0x1234"), "keyId"],
        [(c) => c.getKey("krn:1001:node:x:key-pool:default:0x12"), "keyId"],
        [(c) => c.deleteKey(mainnetKey), "keyId"],
        [(c) => c.signWithKey(keyId, hash.slice(0, 64)), "hash"],
        [(c) => c.signWithKey(keyId, `${hash}00`), "hash"],
        [(c) => c.signWithKey("nope", hash), "keyId"],
        [(c) => c.listKeys(), "krn"],
        [(c) => c.listKeys({ krn: "krn:1001:wallet:x:other:default" }), "krn"],
        [(c) => c.listKeys({ krn: "krn:8217:wallet:x:key-pool:default" }), "krn"],
        [(c) => c.listKeys({ krn: keyPool, pageSize: 1001 }), "pageSize"],
        [(c) => c.listKeys({ krn: keyPool, from: 1 } as WalletClient.KeyListParams), "from"]
      ]
      for (const [f, argument] of cases) expect(yield* refused(f)).toEqual(["InvalidArgument", argument])
      expect(test.requests).toHaveLength(0)
    }))

  it.effect("KAS_KEY_POOL: the layer's key pool from the environment; a KRN of another kind names the variable", () =>
    Effect.gen(function*() {
      const env = (keyPoolValue: string) =>
        Effect.withConfigProvider(
          Effect.either(WalletConfig.load()),
          ConfigProvider.fromMap(new Map([["KAS_ACCESS_KEY_ID", accessKeyId], ["KAS_SECRET_ACCESS_KEY", secret], ["KAS_CHAIN_ID", "1001"], ["KAS_KEY_POOL", keyPoolValue]]))
        )
      const good = yield* env(keyPool)
      expect(good._tag === "Right" && String(good.right.keyPool)).toBe(keyPool)
      const unset = yield* env("")
      expect(unset._tag === "Right" && unset.right.keyPool).toBeUndefined()
      const bad = yield* env("krn:1001:wallet:x:account-pool:default")
      expect(bad._tag === "Left" && bad.left.argument).toBe("KAS_KEY_POOL")
    }))

  it.effect("a write (create, delete, sign) is not retried once sent; a read (get) is", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(503, { code: 1, message: "unavailable" }))
      const writes = Effect.all([
        Effect.flip(withClient(test, WalletClient.createKeys(1))),
        Effect.flip(withClient(test, WalletClient.deleteKey(keyId))),
        Effect.flip(withClient(test, WalletClient.signWithKey(keyId, hash)))
      ])
      const fiber = yield* Effect.fork(Effect.zip(writes, Effect.flip(withClient(test, WalletClient.getKey(keyId)))))
      yield* TestClock.adjust("1 minute")
      const [errors, readError] = yield* Fiber.join(fiber)
      expect([...errors, readError].map((e) => e._tag)).toEqual(["ServerError", "ServerError", "ServerError", "ServerError"])
      expect(test.requests.map((r) => r.method)).toEqual(["POST", "DELETE", "POST", "GET", "GET", "GET"])
    }))
})
