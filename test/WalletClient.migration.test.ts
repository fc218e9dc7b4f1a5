/**
 * Registration and migration on the wire: `registerAccounts` (POST /v2/registration/account, the
 * specification's examples, arguments refused before sending) and `migrateAccounts` over a
 * recording client playing the KAS Node API (JSON-RPC), the key service and the registration:
 * what is read from the node and when, the chain checked, the keys checked against the chain's
 * key, the account updates signed (recovered here with @noble/curves), each outcome.
 */
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { ConfigProvider, Effect, Either, Layer, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { Migration, Registration, WalletClient, WalletConfig, type WalletError } from "../src/index.js"
import * as Klaytn from "../src/Klaytn.js"
import { options, secret, testClient, withClient } from "./support/client.js"
import { type Answer, json, makeRecordingClient, type Recorded } from "./support/recordingClient.js"

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/registration/${name}`, import.meta.url), "utf8"))
const requestExample = fixture("registration-account-request-success.json")
const partiallyFailed = fixture("registration-account-200-partially-failed.json")

const NODE = "https://node.test/v1/klaytn"
const ACCOUNT_ID = "676de94a-9ca9-45e2-a67b-ed72178cdbcc"
const KEY_POOL = `krn:1001:wallet:${ACCOUNT_ID}:key-pool:default`
const GAS_PRICE = 25_000_000_000n

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`
const addressOf = (key: Uint8Array) => Either.getOrThrow(Klaytn.addressOfKey(key))
const wallet = () => {
  const key = secp256k1.utils.randomSecretKey()
  return { key, address: addressOf(key), secret: Redacted.make(hex(key)) }
}
const point = (key: Uint8Array) => {
  const p = secp256k1.Point.fromBytes(secp256k1.getPublicKey(key, true))
  return { x: `0x${p.x.toString(16)}`, y: `0x${p.y.toString(16)}` }
}

/** A node, a key service and a registration, as the KAS API answers them; every request recorded. */
const fakeKas = (options: {
  readonly chainId?: number
  readonly nonces?: Record<string, number>
  readonly accountKeys?: Record<string, unknown>
  readonly rpcError?: string
  readonly registration?: (body: ReadonlyArray<{ readonly address: string }>) => Answer
} = {}) => {
  const keys: Array<{ readonly keyId: string; readonly publicKey: string }> = []
  return {
    keys,
    handler: (r: Recorded): Answer => {
      if (r.url.pathname === "/v1/klaytn") {
        const { id, method, params } = r.body as { id: number; method: string; params: ReadonlyArray<string> }
        if (method === options.rpcError) return json(200, { jsonrpc: "2.0", id, error: { code: -32602, message: "invalid argument 0" } })
        const result = method === "klay_chainID"
          ? `0x${(options.chainId ?? 1001).toString(16)}`
          : method === "klay_gasPrice"
          ? `0x${GAS_PRICE.toString(16)}`
          : method === "klay_getTransactionCount"
          ? `0x${(options.nonces?.[params[0]!] ?? 0).toString(16)}`
          : method === "klay_getAccountKey"
          ? options.accountKeys?.[params[0]!] ?? { keyType: 1, key: {} }
          : undefined
        return json(200, { jsonrpc: "2.0", id, result })
      }
      if (r.url.pathname === "/v2/key") {
        const size = (r.body as { size: number }).size
        const items = Array.from({ length: size }, () => {
          const publicKey = hex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false))
          const item = { blob: "0x00", keyId: `${KEY_POOL}:${hex(keccak_256(Buffer.from(publicKey)))}`, krn: KEY_POOL, publicKey }
          keys.push(item)
          return item
        })
        return json(200, { items })
      }
      if (r.url.pathname === "/v2/registration/account") {
        return options.registration?.(r.body as ReadonlyArray<{ readonly address: string }>) ?? json(200, { status: "ok" })
      }
      return json(404, { code: 1010007, message: "invalid path or method" })
    }
  }
}

const run = <A>(test: ReturnType<typeof testClient>, f: (c: WalletClient.Service) => Effect.Effect<A, WalletError.WalletError>) =>
  withClient(test, Effect.flatMap(WalletClient.WalletClient, f))

/** An account update as sent: its fields, and the public keys its signatures recover (independently). */
const sentUpdate = (rlp: string) => {
  const parts = Either.getOrThrow(Klaytn.decodeRaw(Buffer.from(rlp.slice(2), "hex")))
  const hash = Klaytn.senderSigningHash(parts.tx, 1001)
  const signers = parts.signatures.map((sig) => {
    expect([2037, 2038]).toContain(sig.v)
    return hex(new secp256k1.Signature(sig.r, sig.s, sig.v - 2037).recoverPublicKey(hash).toBytes(true))
  })
  return { tx: parts.tx, feePayer: parts.feePayer, signers }
}

describe("registerAccounts on the wire", () => {
  it.effect("POST /v2/registration/account with x-chain-id and the pool; the specification's request body goes as it is; its answers decode", () =>
    Effect.gen(function*() {
      const test = testClient((r) => json(200, r.body !== undefined && (r.body as Array<unknown>).length === 2 ? partiallyFailed : { status: "ok" }))
      // The specification's example names keys of an account pool, on chain 1001.
      const result = yield* run(test, (c) => c.registerAccounts(requestExample))
      expect(result.status).toBe("partially failed")
      expect(result.failures).toEqual(partiallyFailed.failures)
      const [request] = test.requests
      expect([request!.method, request!.url.pathname]).toEqual(["POST", "/v2/registration/account"])
      expect(request!.headers["x-chain-id"]).toBe("1001")
      expect(request!.headers["x-krn"]).toBeUndefined()
      expect(request!.body).toEqual(requestExample)
      const pool = `krn:1001:wallet:${ACCOUNT_ID}:account-pool:migrated`
      const ok = yield* run(test, (c) => c.registerAccounts([{ keyId: `${KEY_POOL}:0x${"ab".repeat(32)}`, address: requestExample[0].address }], { pool }))
      expect(ok).toEqual({ status: "ok" })
      expect(test.requests[1]!.headers["x-krn"]).toBe(pool)
      expect(test.requests[1]!.body).toEqual([{ keyId: `${KEY_POOL}:0x${"ab".repeat(32)}`, address: requestExample[0].address }])
    }))

  it.effect("refused before sending: no item, 101, an address twice, a malformed key id or address, a key of another chain, rlp not hex, an unknown field", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, { status: "ok" }))
      const item = { keyId: `${KEY_POOL}:0x${"ab".repeat(32)}`, address: requestExample[0].address }
      const refused = (items: unknown, argument: string, text?: string) =>
        Effect.map(Effect.flip(run(test, (c) => c.registerAccounts(items as never))), (e) => {
          expect(e._tag).toBe("InvalidArgument")
          expect((e as WalletError.InvalidArgument).argument).toBe(argument)
          if (text !== undefined) expect(e.message).toContain(text)
        })
      yield* refused([], "items", "at least one")
      yield* refused(Array.from({ length: 101 }, (_, i) => ({ ...item, address: `0x${i.toString(16).padStart(40, "0")}` })), "items", "at most 100")
      yield* refused([item, { ...item, address: item.address.toLowerCase() }], "items[1]", "one item per address")
      yield* refused([{ ...item, keyId: "nope" }], "items[0]", "keyId")
      yield* refused([{ ...item, address: "0x12" }], "items[0]", "address")
      yield* refused([{ ...item, keyId: `krn:8217:wallet:${ACCOUNT_ID}:key-pool:default:0x${"ab".repeat(32)}` }], "items[0].keyId", "chain 8217")
      yield* refused([{ ...item, rlp: "0xzz" }], "items[0]", "rlp")
      yield* refused([{ ...item, rlp: "0x" }], "items[0]", "rlp")
      yield* refused([{ ...item, extra: 1 }], "items[0]", "extra")
      yield* refused("nope", "items")
      expect(test.requests).toHaveLength(0)
    }))

  it.effect("an answer that contradicts itself (ok with failures, failed without) is a decode error; 1061010 (an unknown key) is AccountNotFound", () =>
    Effect.gen(function*() {
      const item = { keyId: `${KEY_POOL}:0x${"ab".repeat(32)}`, address: requestExample[0].address }
      const bad = yield* Effect.flip(run(testClient(() => json(200, { status: "ok", failures: { [item.address]: "x" } })), (c) => c.registerAccounts([item])))
      expect(bad._tag).toBe("ResponseDecodeError")
      const none = yield* Effect.flip(run(testClient(() => json(200, { status: "all failed" })), (c) => c.registerAccounts([item])))
      expect(none._tag).toBe("ResponseDecodeError")
      const unknown = yield* Effect.flip(run(testClient(() => json(400, { code: 1061010, message: `data don't exist; ${item.keyId}` }), { retry: { maxAttempts: 3, baseDelay: 0 } }), (c) => c.registerAccounts([item])))
      expect([unknown._tag, (unknown as WalletError.AccountNotFound).code]).toEqual(["AccountNotFound", 1061010])
    }))
})

describe("the node's setting", () => {
  it.effect("nodeUrl: an http(s) URL without credentials, query or fragment; KAS_NODE_URL through WalletConfig.fromEnv; the default is the KAS Node API", () =>
    Effect.gen(function*() {
      const attempt = (nodeUrl: string) =>
        Effect.flip(Effect.provide(WalletClient.WalletClient, WalletClient.layer(options({ nodeUrl })).pipe(Layer.provide(makeRecordingClient(() => json(200, {})).layer))))
      for (const bad of ["ftp://node.test/v1/klaytn", "https://id:pw@node.test/v1/klaytn", "https://node.test/v1/klaytn?key=x", "not a url"]) {
        const e = yield* attempt(bad)
        expect([e._tag, e.argument], bad).toEqual(["InvalidArgument", "nodeUrl"])
      }
      expect(WalletConfig.DefaultNodeUrl).toBe("https://node-api.klaytnapi.com/v1/klaytn")
      const env = (extra: Record<string, string>) =>
        Effect.either(WalletConfig.load().pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries({
          KAS_ACCESS_KEY_ID: "KASKTEST",
          KAS_SECRET_ACCESS_KEY: "secret",
          KAS_CHAIN_ID: "1001",
          ...extra
        }))))))
      const read = yield* env({ KAS_NODE_URL: NODE })
      expect(Either.isRight(read) && read.right.nodeUrl).toBe(NODE)
      const bad = yield* env({ KAS_NODE_URL: "nope" })
      expect(Either.isLeft(bad) && bad.left.argument).toBe("KAS_NODE_URL")
      // Unset: the default node, at its path, with the client's credentials.
      const a = wallet()
      const test = testClient(fakeKas().handler)
      yield* run(test, (c) => c.migrateAccounts([{ address: a.address, privateKey: a.secret, nonce: 0 }]))
      expect(test.requests[0]!.url.toString()).toBe("https://node-api.klaytnapi.com/v1/klaytn")
    }))

  it.effect("the node's reads go through the request pipeline: bounded bodies, retried reads", () =>
    Effect.gen(function*() {
      const a = wallet()
      const big = testClient(() => json(200, { jsonrpc: "2.0", id: 1, result: `0x${"0".repeat(4096)}1` }), { nodeUrl: NODE, maxResponseBytes: 1024 })
      const tooLarge = yield* Effect.flip(run(big, (c) => c.migrateAccounts([{ address: a.address, privateKey: a.secret }])))
      expect([tooLarge._tag, (tooLarge as WalletError.ResponseTooLarge).path]).toEqual(["ResponseTooLarge", "/v1/klaytn"])
      // A read is retried on a 503 (as every read), then answered.
      let failures = 1
      const kas = fakeKas()
      const flaky = testClient((r) => (r.url.pathname === "/v1/klaytn" && failures-- > 0 ? json(503, { code: 1, message: "busy" }) : kas.handler(r)), {
        nodeUrl: NODE,
        retry: { maxAttempts: 2, baseDelay: 0, maxDelay: 0 }
      })
      const result = yield* run(flaky, (c) => c.migrateAccounts([{ address: a.address, privateKey: a.secret }]))
      expect(result.status).toBe("ok")
      expect(flaky.requests.filter((r) => (r.body as any)?.method === "klay_chainID")).toHaveLength(2)
    }))

  it.effect("a node that echoes the credentials is not believed, and nothing of the echo shows", () =>
    Effect.gen(function*() {
      const a = wallet()
      const test = testClient((r) => json(200, { jsonrpc: "2.0", id: 1, error: { code: -32000, message: `bad: ${r.headers["authorization"]} ${secret}` } }), { nodeUrl: NODE })
      const e = yield* Effect.flip(run(test, (c) => c.migrateAccounts([{ address: a.address, privateKey: a.secret }])))
      expect(e._tag).toBe("ResponseDecodeError")
      expect(JSON.stringify(e) + String(e)).not.toContain(secret)
      expect(test.requests).toHaveLength(1)
    }))
})

describe("migrateAccounts", () => {
  it.effect("reads the chain, the gas price, each pending nonce and account key from the node; one createKeys; each update signed by the account's key to AccountKeyPublic of its new key; registered; migrated", () =>
    Effect.gen(function*() {
      const a = wallet()
      const b = wallet()
      const kas = fakeKas({ nonces: { [a.address.toLowerCase()]: 7 } })
      const test = testClient(kas.handler, { nodeUrl: NODE })
      const result = yield* run(test, (c) => c.migrateAccounts([{ address: a.address, privateKey: a.secret }, { address: b.address.toLowerCase(), privateKey: Redacted.make(b.key) }]))
      expect(result.status).toBe("ok")
      const node = test.requests.filter((r) => r.url.host === "node.test")
      for (const r of node) {
        expect([r.method, r.url.pathname]).toEqual(["POST", "/v1/klaytn"])
        expect(r.headers["x-chain-id"]).toBe("1001")
        expect(r.headers["authorization"]).toBe(test.requests.find((x) => x.url.pathname === "/v2/key")!.headers["authorization"])
      }
      const calls = node.map((r) => [(r.body as any).method, ...(r.body as any).params])
      expect(calls.slice(0, 2)).toEqual([["klay_chainID"], ["klay_gasPrice"]])
      expect(calls.slice(2)).toEqual(expect.arrayContaining([
        ["klay_getTransactionCount", a.address.toLowerCase(), "pending"],
        ["klay_getAccountKey", a.address.toLowerCase(), "latest"],
        ["klay_getTransactionCount", b.address.toLowerCase(), "pending"],
        ["klay_getAccountKey", b.address.toLowerCase(), "latest"]
      ]))
      expect(calls).toHaveLength(6)
      const wallet_ = test.requests.filter((r) => r.url.host !== "node.test")
      expect(wallet_.map((r) => r.url.pathname)).toEqual(["/v2/key", "/v2/registration/account"])
      expect(wallet_[0]!.body).toEqual({ size: 2 })
      const items = wallet_[1]!.body as Array<{ keyId: string; address: string; rlp: string }>
      expect(items.map((i) => [i.keyId, i.address])).toEqual([[kas.keys[0]!.keyId, a.address], [kas.keys[1]!.keyId, b.address]])
      for (const [i, w] of [a, b].entries()) {
        const sent = sentUpdate(items[i]!.rlp)
        expect(sent.tx.type).toBe(0x21)
        expect(sent.tx.from).toBe(w.address)
        expect(sent.tx.nonce).toBe(i === 0 ? 7 : 0)
        expect(sent.tx.gasPrice).toBe(GAS_PRICE)
        expect(sent.tx.gas).toBe(Migration.UpdateGas)
        expect(sent.feePayer).toBeUndefined() // left to the service's global fee payer
        expect(sent.signers).toEqual([hex(secp256k1.getPublicKey(w.key, true))])
        const compressed = hex(secp256k1.Point.fromHex(kas.keys[i]!.publicKey.slice(2)).toBytes(true))
        expect(hex(sent.tx.key!)).toBe(`0x02a1${compressed.slice(2)}`)
        const outcome = result.accounts[i]!
        expect(outcome).toMatchObject({ _tag: "Migrated", address: w.address, publicKey: kas.keys[i]!.publicKey, nonce: i === 0 ? 7 : 0 })
        expect(String(Migration.$is("Migrated")(outcome) && outcome.keyId)).toBe(kas.keys[i]!.keyId)
        // The sender's hash: keccak256 of the update without the fee payer's part.
        const parts = Either.getOrThrow(Klaytn.decodeRaw(Buffer.from(items[i]!.rlp.slice(2), "hex")))
        expect(Migration.$is("Migrated")(outcome) && outcome.senderTxHash).toBe(Klaytn.senderTxHash(parts))
      }
    }))

  it.effect("with a nonce and a gas price for every account, no node request; the node's chain must be the client's", () =>
    Effect.gen(function*() {
      const a = wallet()
      const kas = fakeKas()
      const test = testClient(kas.handler, { nodeUrl: NODE })
      const result = yield* run(test, (c) => c.migrateAccounts([{ address: a.address, privateKey: a.secret, nonce: 3, gasPrice: 50_000_000_000n }]))
      expect(result.status).toBe("ok")
      expect(test.requests.map((r) => r.url.pathname)).toEqual(["/v2/key", "/v2/registration/account"])
      const sent = sentUpdate((test.requests[1]!.body as Array<{ rlp: string }>)[0]!.rlp)
      expect([sent.tx.nonce, sent.tx.gasPrice]).toEqual([3, 50_000_000_000n])

      const other = testClient(fakeKas({ chainId: 8217 }).handler, { nodeUrl: NODE })
      const wrong = yield* Effect.flip(run(other, (c) => c.migrateAccounts([{ address: a.address, privateKey: a.secret }])))
      expect([wrong._tag, (wrong as WalletError.InvalidArgument).argument]).toEqual(["InvalidArgument", "nodeUrl"])
      expect(wrong.message).toContain("chain 8217")
      expect(other.requests.map((r) => (r.body as any).method)).toEqual(["klay_chainID"])
      // A JSON-RPC error answered with 200 is the node's refusal, with its code.
      const refusing = testClient(fakeKas({ rpcError: "klay_gasPrice" }).handler, { nodeUrl: NODE })
      const refused = yield* Effect.flip(run(refusing, (c) => c.migrateAccounts([{ address: a.address, privateKey: a.secret }])))
      const e = refused as WalletError.InvalidRequest
      expect([e._tag, e.status, e.code, e.serviceMessage, e.path]).toEqual(["InvalidRequest", 200, -32602, "invalid argument 0", "/v1/klaytn (klay_gasPrice)"])
      expect(refusing.requests.some((r) => r.url.pathname === "/v2/key")).toBe(false)
    }))

  it.effect("keys checked against the chain's key: a public key of another address, a multisig reaching its threshold, a role-based update role pass; keys that do not sign fail before any key is created", () =>
    Effect.gen(function*() {
      const decoupled = wallet()
      const decoupledKey = wallet()
      const multi = wallet()
      const [m1, m2, m3] = [wallet(), wallet(), wallet()]
      const roles = wallet()
      const [txRole, updateRole] = [wallet(), wallet()]
      const wrong = wallet()
      const kas = fakeKas({
        accountKeys: {
          [decoupled.address.toLowerCase()]: { keyType: 2, key: point(decoupledKey.key) },
          [multi.address.toLowerCase()]: { keyType: 4, key: { threshold: 3, keys: [{ weight: 1, key: point(m1.key) }, { weight: 2, key: point(m2.key) }, { weight: 1, key: point(m3.key) }] } },
          [roles.address.toLowerCase()]: { keyType: 5, key: [{ keyType: 2, key: point(txRole.key) }, { keyType: 2, key: point(updateRole.key) }] },
          [wrong.address.toLowerCase()]: { keyType: 3, key: {} }
        }
      })
      const test = testClient(kas.handler, { nodeUrl: NODE })
      const result = yield* run(test, (c) =>
        c.migrateAccounts([
          { address: decoupled.address, privateKeys: [decoupledKey.secret] },
          { address: multi.address, privateKeys: [m1.secret, m2.secret] },
          { address: roles.address, privateKeys: [updateRole.secret] },
          { address: wrong.address, privateKey: wrong.secret },
          // Enough keys? 1 + 1 of 3: no.
          { address: wallet().address, privateKeys: [m1.secret] }
        ]))
      expect(result.status).toBe("partially failed")
      expect(result.accounts.map((o) => o._tag)).toEqual(["Migrated", "Migrated", "Migrated", "Failed", "Failed"])
      expect(result.accounts[3]).toMatchObject({ reason: expect.stringContaining("AccountKeyFail") })
      expect(result.accounts[3]!).not.toHaveProperty("keyId")
      expect(result.accounts[4]).toMatchObject({ reason: expect.stringContaining("AccountKeyLegacy") })
      // Keys for the three that pass only.
      expect(test.requests.find((r) => r.url.pathname === "/v2/key")!.body).toEqual({ size: 3 })
      const items = test.requests.find((r) => r.url.pathname === "/v2/registration/account")!.body as Array<{ rlp: string }>
      expect(items.map((i) => sentUpdate(i.rlp).signers)).toEqual([
        [hex(secp256k1.getPublicKey(decoupledKey.key, true))],
        [hex(secp256k1.getPublicKey(m1.key, true)), hex(secp256k1.getPublicKey(m2.key, true))],
        [hex(secp256k1.getPublicKey(updateRole.key, true))]
      ])
    }))

  it.effect("the registration's failures are the accounts' outcomes, with their keys; a failed registration request is every account's, with the error", () =>
    Effect.gen(function*() {
      const [a, b] = [wallet(), wallet()]
      const kas = fakeKas({
        registration: (body) =>
          json(200, { status: "partially failed", failures: { [body[1]!.address.toLowerCase()]: "failed to send a raw transaction to klaytn node; -32000::nonce too low" } })
      })
      const result = yield* run(testClient(kas.handler, { nodeUrl: NODE }), (c) =>
        c.migrateAccounts([{ address: a.address, privateKey: a.secret, nonce: 0, gasPrice: GAS_PRICE }, { address: b.address, privateKey: b.secret, nonce: 0, gasPrice: GAS_PRICE }]))
      expect(result.status).toBe("partially failed")
      expect(result.accounts[0]!._tag).toBe("Migrated")
      expect(result.accounts[1]).toMatchObject({ _tag: "Failed", address: b.address, reason: expect.stringContaining("nonce too low"), publicKey: kas.keys[1]!.publicKey })

      const down = fakeKas({ registration: () => json(503, { code: 1099503, message: "unavailable" }) })
      const test = testClient(down.handler, { nodeUrl: NODE, retry: false })
      const failed = yield* run(test, (c) => c.migrateAccounts([{ address: a.address, privateKey: a.secret, nonce: 0, gasPrice: GAS_PRICE }]))
      expect(failed.status).toBe("all failed")
      expect(failed.accounts[0]).toMatchObject({ _tag: "Failed", reason: expect.stringContaining("the registration request failed"), publicKey: down.keys[0]!.publicKey })
      expect(Migration.$is("Failed")(failed.accounts[0]!) && failed.accounts[0].error?._tag).toBe("ServerError")
      // The registration was sent once: never retried, a second one would send the updates again.
      expect(test.requests.filter((r) => r.url.pathname === "/v2/registration/account")).toHaveLength(1)
    }))

  it.effect("every argument checked before any request: not Redacted, not a key, zero, another address's key, both or neither key field, a repeated key or address, a bad nonce or gas price, none or 101", () =>
    Effect.gen(function*() {
      const test = testClient(fakeKas().handler, { nodeUrl: NODE })
      const a = wallet()
      const refused = (accounts: unknown, argument: string, text: string) =>
        Effect.map(Effect.flip(run(test, (c) => c.migrateAccounts(accounts as never))), (e) => {
          expect(e._tag).toBe("InvalidArgument")
          expect((e as WalletError.InvalidArgument).argument).toBe(argument)
          expect(e.message).toContain(text)
        })
      yield* refused([{ address: a.address, privateKey: hex(a.key) }], "accounts[0].privateKey", "must be Redacted")
      yield* refused([{ address: a.address, privateKey: Redacted.make("0x1234") }], "accounts[0].privateKey", "not a private key")
      yield* refused([{ address: a.address, privateKey: Redacted.make(new Uint8Array(31)) }], "accounts[0].privateKey", "not a private key")
      yield* refused([{ address: a.address, privateKey: Redacted.make(`0x${"0".repeat(64)}`) }], "accounts[0].privateKey", "not a secp256k1 private key")
      yield* refused([{ address: a.address, privateKey: Redacted.make(`0x${"f".repeat(64)}`) }], "accounts[0].privateKey", "not a secp256k1 private key")
      yield* refused([{ address: wallet().address, privateKey: a.secret }], "accounts[0].privateKey", "is not the key of")
      yield* refused([{ address: a.address }], "accounts[0].privateKey", "exactly one")
      yield* refused([{ address: a.address, privateKey: a.secret, privateKeys: [a.secret] }], "accounts[0].privateKey", "exactly one")
      yield* refused([{ address: a.address, privateKeys: [a.secret, a.secret] }], "accounts[0].privateKeys[1]", "twice")
      yield* refused([{ address: a.address, privateKeys: [] }], "accounts[0].privateKeys", "1 to 10")
      yield* refused([{ address: a.address, privateKey: a.secret }, { address: a.address.toLowerCase(), privateKey: a.secret }], "accounts[1].address", "one entry per account")
      yield* refused([{ address: "0x12", privateKey: a.secret }], "accounts[0].address", "40 hex digits")
      yield* refused([{ address: a.address, privateKey: a.secret, nonce: -1 }], "accounts[0].nonce", "integer")
      yield* refused([{ address: a.address, privateKey: a.secret, gasPrice: 25 }], "accounts[0].gasPrice", "bigint")
      yield* refused([{ address: a.address, privateKey: a.secret, key: a.secret }], "accounts[0].key", "not a field")
      yield* refused([], "accounts", "1 to 100")
      yield* refused(Array.from({ length: 101 }, () => ({ address: a.address, privateKey: a.secret })), "accounts", "1 to 100")
      expect(test.requests).toHaveLength(0)
      // The upper-case 0X spelling and the bare 64 digits are keys too.
      const result = yield* run(test, (c) => c.migrateAccounts([{ address: a.address, privateKey: Redacted.make(hex(a.key).slice(2).toUpperCase()), nonce: 0, gasPrice: GAS_PRICE }]))
      expect(result.status).toBe("ok")
      expect(Registration.statusOf(2, 1)).toBe("partially failed")
    }))
})
