/**
 * Account lifecycle, lookups, counts and fee-payer accounts on the wire: method, path, headers and
 * body of each operation, decoding of the real example bodies, argument validation before sending,
 * and which operations are never retried once sent.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import { readFileSync } from "node:fs"
import { ChainId, WalletClient, WalletConfig, type WalletError } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { accountJson, accountsJson, listHandler, poolKrn } from "./support/fakeWallet.js"
import { json, type Recorded } from "./support/recordingClient.js"

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"))
const feePayerBody = fixture("lifecycle/feepayer-create-200-success.json")
const disableBody = fixture("lifecycle/account-disable-200-success.json")
const address = disableBody.address as string
const feePayerPool = "krn:1001:wallet:local:feepayer-pool:default"
const otherFeePayerPool = "krn:1001:wallet:local:feepayer-pool:gas"
const publicKey = accountJson(0).publicKey

const requestLine = (r: Recorded) => `${r.method} ${r.url.pathname}${r.url.search}`

describe("account lifecycle on the wire", () => {
  it.effect("delete, disable, enable: method, path, x-krn, and the decoded result", () =>
    Effect.gen(function*() {
      const test = testClient((r) =>
        r.method === "DELETE" ? json(200, { status: "deleted" }) : json(200, { ...disableBody, address: r.url.pathname.split("/")[3] })
      )
      const lower = address.toLowerCase()
      const deleted = yield* withClient(test, WalletClient.deleteAccount(lower, { pool: poolKrn }))
      const disabled = yield* withClient(test, WalletClient.disableAccount(address))
      const enabled = yield* withClient(test, WalletClient.enableAccount(address))
      expect(deleted).toStrictEqual({ status: "deleted" })
      expect(disabled.address).toBe(address)
      expect(String(enabled.krn)).toBe(disableBody.krn)
      expect(test.requests.map(requestLine)).toEqual([
        `DELETE /v2/account/${address}`,
        `PUT /v2/account/${address}/disable`,
        `PUT /v2/account/${address}/enable`
      ])
      expect(test.requests[0]!.headers["x-krn"]).toBe(poolKrn)
      expect(test.requests[1]!.headers["x-krn"]).toBeUndefined()
      expect(test.requests.every((r) => r.headers["x-chain-id"] === "1001")).toBe(true)
    }))

  it.effect("listings send status only when asked, in lower case whatever the case given, and reject a state the service does not list by", () =>
    Effect.gen(function*() {
      const test = testClient(listHandler(accountsJson(3)))
      yield* withClient(test, WalletClient.listAccounts({ status: "disabled", pageSize: 10 }))
      yield* withClient(test, WalletClient.accounts({ status: "all" }).pipe(Stream.runDrain))
      yield* withClient(test, WalletClient.listAccounts())
      // Any case, as the official client takes it (`status: 'DISABLED'`); the wire gets lower case.
      yield* withClient(test, WalletClient.listAccounts({ status: "DISABLED" }))
      yield* withClient(test, WalletClient.listAccounts({ status: "Corrupted" }))
      yield* withClient(test, WalletClient.listAccounts({ status: "eNaBlEd" as never }))
      expect(test.requests.map((r) => r.url.searchParams.get("status"))).toEqual(["disabled", "all", null, "disabled", "corrupted", "enabled"])
      for (const bad of ["deleted", "DELETED", " all", "", 1]) {
        const error = yield* Effect.flip(withClient(test, WalletClient.listAccounts({ status: bad as never })))
        expect(error._tag).toBe("InvalidArgument")
        expect((error as WalletError.InvalidArgument).argument).toBe("status")
      }
      expect(test.requests).toHaveLength(6)
    }))

  it.effect("accounts of a public key, and counts (member-wide, and by the selected pool)", () =>
    Effect.gen(function*() {
      const test = testClient((r) => {
        if (r.url.pathname.startsWith("/v2/pubkey/")) return json(200, { items: [{ address: address.toLowerCase(), chainId: 1001 }] })
        if (r.url.pathname === "/v2/stat/count") return json(200, { accountId: "68ec0e4b-0f61-4e6f-ae35-be865ab23187", count: 7 })
        return json(200, { accountId: "68ec0e4b-0f61-4e6f-ae35-be865ab23187", count: 2, krn: r.headers["x-krn"] ?? poolKrn })
      })
      const items = yield* withClient(test, WalletClient.accountsByPublicKey(publicKey))
      expect(items).toStrictEqual([{ address, chainId: ChainId.Testnet }])
      const total = yield* withClient(test, WalletClient.accountCount())
      const inPool = yield* withClient(test, WalletClient.accountCountByPool().pipe(WalletConfig.withPool(poolKrn)))
      expect(total.count).toBe(7)
      expect(inPool.count).toBe(2)
      expect(String(inPool.krn)).toBe(poolKrn)
      expect(test.requests.map(requestLine)).toEqual([`GET /v2/pubkey/${publicKey}/account`, "GET /v2/stat/count", "GET /v2/stat/count/krn"])
      expect(test.requests[2]!.headers["x-krn"]).toBe(poolKrn)
      const bad = yield* Effect.flip(withClient(test, WalletClient.accountsByPublicKey("0x04abc")))
      expect(bad._tag === "InvalidArgument" && bad.argument).toBe("publicKey")
      expect(test.requests).toHaveLength(3)
    }))
})

describe("fee-payer accounts on the wire", () => {
  it.effect("create, get, delete in the layer's or the call's fee-payer pool; the body of create", () =>
    Effect.gen(function*() {
      const bodies: Array<string> = []
      const test = testClient((r) => {
        if (r.method === "DELETE") return json(200, { status: "deleted" })
        return json(200, feePayerBody)
      }, { feePayerPool })
      const recordBodies = testClient(() => json(200, feePayerBody), {
        transformClient: HttpClient.tapRequest((request) =>
          Effect.sync(() => {
            if (request.body._tag === "Uint8Array") bodies.push(new TextDecoder().decode(request.body.body))
          }))
      })
      const created = yield* withClient(test, WalletClient.createFeePayer())
      expect(created.address).toBe(feePayerBody.address)
      yield* withClient(test, WalletClient.getFeePayer(created.address, { feePayerPool: otherFeePayerPool }))
      yield* withClient(test, WalletClient.deleteFeePayer(created.address, { feePayerPool: null }))
      expect(test.requests.map(requestLine)).toEqual([
        "POST /v2/feepayer",
        `GET /v2/feepayer/${created.address}`,
        `DELETE /v2/feepayer/${created.address}`
      ])
      expect(test.requests.map((r) => r.headers["x-krn"])).toEqual([feePayerPool, otherFeePayerPool, undefined])
      yield* withClient(recordBodies, WalletClient.createFeePayer({ withoutAccountUpdate: true }))
      yield* withClient(recordBodies, WalletClient.createFeePayer())
      expect(bodies.map((b) => JSON.parse(b))).toEqual([{ withoutAccountUpdate: true }, { withoutAccountUpdate: false }])
    }))

  it.effect("an account pool is not a fee-payer pool, and a pool must be on the call's chain: nothing is sent", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, feePayerBody))
      const argumentOf = (e: WalletError.WalletError) => (e._tag === "InvalidArgument" ? e.argument : e._tag)
      expect(argumentOf(yield* Effect.flip(withClient(test, WalletClient.createFeePayer({ feePayerPool: poolKrn }))))).toBe("feePayerPool")
      expect(argumentOf(yield* Effect.flip(withClient(test, WalletClient.getFeePayer(feePayerBody.address, { feePayerPool, chainId: 8217 })))))
        .toBe("feePayerPool")
      expect(argumentOf(yield* Effect.flip(withClient(test, WalletClient.deleteFeePayer("0x12"))))).toBe("address")
      expect(test.requests).toHaveLength(0)
    }))

  it.effect("the fee-payer listing pages as the account listing does: every account once, ceil(N/s) requests", () =>
    Effect.gen(function*() {
      const all = accountsJson(25).map((a, i) => ({
        ...a,
        krn: feePayerPool,
        keyId: `${feePayerPool}:${a.keyId.split(":").pop()}`,
        createdAt: a.createdAt - i
      }))
      const test = testClient(listHandler(all as never), { feePayerPool })
      const streamed = yield* withClient(test, WalletClient.feePayers({ pageSize: 10 }).pipe(Stream.runCollect))
      expect(Chunk.toReadonlyArray(streamed).map((a) => a.address)).toEqual(all.map((a) => a.address))
      expect(test.requests).toHaveLength(3)
      expect(test.requests.every((r) => r.url.pathname === "/v2/feepayer" && r.headers["x-krn"] === feePayerPool)).toBe(true)
      const page = yield* withClient(test, WalletClient.listFeePayers({ pageSize: 5 }))
      expect(page.items).toHaveLength(5)
    }))
})

describe("writes are never retried once sent", () => {
  it.effect("delete, disable, enable, createFeePayer and deleteFeePayer send once on a 503; reads retry", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(503, { code: 1, message: "down" }), { retry: { baseDelay: 0, maxDelay: 0 } })
      const writes: ReadonlyArray<Effect.Effect<unknown, WalletError.WalletError, WalletClient.WalletClient>> = [
        WalletClient.deleteAccount(address),
        WalletClient.disableAccount(address),
        WalletClient.enableAccount(address),
        WalletClient.createFeePayer(),
        WalletClient.deleteFeePayer(address)
      ]
      for (const write of writes) {
        const before = test.requests.length
        const error = yield* Effect.flip(withClient(test, write))
        expect(error._tag).toBe("ServerError")
        expect(test.requests.length - before).toBe(1)
      }
      const before = test.requests.length
      yield* Effect.flip(withClient(test, WalletClient.accountCount()))
      expect(test.requests.length - before).toBe(3)
    }))

  it.effect("the service's lifecycle codes come through: 1061510 disabling twice, 1061511 enabling twice", () =>
    Effect.gen(function*() {
      const test = testClient((r) =>
        json(400, r.url.pathname.endsWith("/disable")
          ? { code: 1061510, message: "account has been already deleted or disabled" }
          : { code: 1061511, message: "account has been already deleted or enabled" })
      )
      const disabled = yield* Effect.flip(withClient(test, WalletClient.disableAccount(address)))
      const enabled = yield* Effect.flip(withClient(test, WalletClient.enableAccount(address)))
      expect([disabled._tag, (disabled as WalletError.InvalidRequest).code]).toEqual(["InvalidRequest", 1061510])
      expect([enabled._tag, (enabled as WalletError.InvalidRequest).code]).toEqual(["InvalidRequest", 1061511])
    }))
})
