import { describe, expect, it } from "@effect/vitest"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { ConfigProvider, Effect, Either, Layer, Redacted, Stream } from "effect"
import { readFileSync } from "node:fs"
import { ChainId, Krn, WalletClient, WalletConfig } from "../src/index.js"
import { version } from "../src/internal/version.js"
import { accessKeyId, basic, options, secret, testClient, withClient } from "./support/client.js"
import { accountJson, poolKrn } from "./support/fakeWallet.js"
import { json } from "./support/recordingClient.js"

const fixture = JSON.parse(readFileSync(new URL("./fixtures/account-create-200-success.json", import.meta.url), "utf8"))
const payroll = "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:payroll"
const mainnetPool = "krn:8217:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default"

/** Answers every route with a valid body for the pool the request names. */
const echo = (request: { method: string; url: URL; headers: Readonly<Record<string, string>> }) => {
  const chainId = Number(request.headers["x-chain-id"])
  const krn = request.headers["x-krn"] ?? poolKrn.replace("krn:1001:", `krn:${chainId}:`)
  if (request.url.pathname === "/v2/account" && request.method === "GET") {
    return json(200, { items: [accountJson(0, krn, chainId)], cursor: "" })
  }
  return json(200, accountJson(0, krn, chainId))
}

describe("WalletClient on the wire", () => {
  it.effect("createAccount: POST /v2/account with auth, chain, accept and user agent, no body, no x-krn", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, fixture))
      const account = yield* withClient(test, WalletClient.createAccount())
      expect(account.address).toBe(fixture.address)
      expect(test.requests).toHaveLength(1)
      const [request] = test.requests
      expect(request!.method).toBe("POST")
      expect(request!.url.toString()).toBe("https://wallet-api.klaytnapi.com/v2/account")
      expect(request!.headers["authorization"]).toBe(basic)
      expect(request!.headers["authorization"]).toBe(`Basic ${Buffer.from(`${accessKeyId}:${secret}`).toString("base64")}`)
      expect(request!.headers["x-chain-id"]).toBe("1001")
      expect(request!.headers["accept"]).toBe("application/json")
      expect(request!.headers["user-agent"]).toBe(`effect-kas-wallet/${version}`)
      expect(request!.headers["x-krn"]).toBeUndefined()
      expect(request!.headers["content-length"] ?? "0").toBe("0")
    }))

  it.effect("getAccount: GET /v2/account/<checksummed address>", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, fixture))
      yield* withClient(test, WalletClient.getAccount(fixture.address.toLowerCase()))
      expect(test.requests[0]!.method).toBe("GET")
      expect(test.requests[0]!.url.pathname).toBe(`/v2/account/${fixture.address}`)
      expect(test.requests[0]!.url.search).toBe("")
    }))

  it.effect("listAccounts sends size, cursor, from-timestamp and to-timestamp only when set", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, { items: [], cursor: "" }))
      yield* withClient(test, WalletClient.listAccounts())
      yield* withClient(test, WalletClient.listAccounts({ pageSize: 2, cursor: "", from: 0, to: 0 }))
      yield* withClient(test, WalletClient.listAccounts({ size: 3, cursor: "abc=", from: new Date(1_600_000_000_999), to: 1_700_000_000 }))
      const queries = test.requests.map((r) => [...r.url.searchParams.entries()])
      expect(queries).toEqual([
        [],
        [["size", "2"]],
        [["size", "3"], ["cursor", "abc="], ["from-timestamp", "1600000000"], ["to-timestamp", "1700000000"]]
      ])
      expect(test.requests.every((r) => r.url.pathname === "/v2/account")).toBe(true)
    }))

  it.effect("x-krn is sent exactly when a pool is selected, at any level; the most specific level wins", () =>
    Effect.gen(function*() {
      const test = testClient(echo)
      const krnOf = () => test.requests[test.requests.length - 1]!.headers["x-krn"]
      yield* withClient(test, WalletClient.createAccount())
      expect(krnOf()).toBeUndefined()
      yield* withClient(test, WalletClient.createAccount({ pool: payroll }))
      expect(krnOf()).toBe(payroll)
      yield* withClient(test, WalletClient.getAccount(fixture.address).pipe(WalletConfig.withPool(payroll)))
      expect(krnOf()).toBe(payroll)
      yield* withClient(test, WalletConfig.withPool(WalletClient.listAccounts(), payroll))
      expect(krnOf()).toBe(payroll)
      yield* withClient(test, WalletClient.accounts().pipe(Stream.runDrain, WalletConfig.withPool(payroll)))
      expect(krnOf()).toBe(payroll)
      yield* withClient(test, WalletClient.accounts().pipe(WalletConfig.withPool(payroll), Stream.runDrain))
      expect(krnOf()).toBe(payroll)
      // the call overrides the scope; null means the member's default pool
      yield* withClient(test, WalletClient.createAccount({ pool: null }).pipe(WalletConfig.withPool(payroll)))
      expect(krnOf()).toBeUndefined()
      const layered = testClient(echo, { pool: payroll })
      yield* withClient(layered, WalletClient.createAccount())
      expect(layered.requests[0]!.headers["x-krn"]).toBe(payroll)
      yield* withClient(layered, WalletClient.createAccount({ pool: null }))
      expect(layered.requests[1]!.headers["x-krn"]).toBeUndefined()
      const decoded = Either.getOrThrow(Krn.decode(payroll))
      yield* withClient(test, WalletClient.createAccount({ pool: decoded as Krn.AccountPoolKrn }))
      expect(krnOf()).toBe(payroll)
    }))

  it.effect("x-chain-id is always sent: layer default, scope, then call", () =>
    Effect.gen(function*() {
      const test = testClient(echo)
      const chainOf = () => test.requests[test.requests.length - 1]!.headers["x-chain-id"]
      yield* withClient(test, WalletClient.listAccounts())
      expect(chainOf()).toBe("1001")
      yield* withClient(test, WalletClient.listAccounts().pipe(WalletConfig.withChain(ChainId.Mainnet)))
      expect(chainOf()).toBe("8217")
      yield* withClient(test, WalletClient.listAccounts({ chainId: 1001 }).pipe(WalletConfig.withChain(ChainId.Mainnet)))
      expect(chainOf()).toBe("1001")
      yield* withClient(
        test,
        WalletClient.createAccount().pipe(WalletConfig.withPool(mainnetPool), WalletConfig.withChain(8217))
      )
      expect(chainOf()).toBe("8217")
      expect(test.requests[test.requests.length - 1]!.headers["x-krn"]).toBe(mainnetPool)
    }))

  it.effect("a ready Basic authorization value gives the same header as id + secret", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, fixture), { credentials: { authorization: Redacted.make(basic) } })
      yield* withClient(test, WalletClient.createAccount())
      expect(test.requests[0]!.headers["authorization"]).toBe(basic)
    }))

  it.effect("baseUrl and transformClient apply to every request, the transform last", () =>
    Effect.gen(function*() {
      const seen: Array<string> = []
      const test = testClient(() => json(200, fixture), {
        baseUrl: "http://127.0.0.1:9999/prefix/",
        transformClient: (client) =>
          client.pipe(
            HttpClient.mapRequest(HttpClientRequest.setHeader("x-trace", "abc")),
            // Sees the request as the pipeline built it: base URL and auth already applied.
            HttpClient.tapRequest((request) =>
              Effect.sync(() => {
                seen.push(`${request.url} ${request.headers["user-agent"]}`)
              })
            )
          )
      })
      yield* withClient(test, WalletClient.getAccount(fixture.address))
      yield* withClient(test, WalletClient.createAccount())
      expect(test.requests[0]!.url.toString()).toBe(`http://127.0.0.1:9999/prefix/v2/account/${fixture.address}`)
      expect(test.requests.map((r) => r.headers["x-trace"])).toEqual(["abc", "abc"])
      expect(seen).toEqual([
        `http://127.0.0.1:9999/prefix/v2/account/${fixture.address} ${WalletClient.userAgent}`,
        `http://127.0.0.1:9999/prefix/v2/account ${WalletClient.userAgent}`
      ])
    }))

  it.effect("layerConfig reads KAS_* variables", () =>
    Effect.gen(function*() {
      const test = testClient(echo)
      const provider = ConfigProvider.fromMap(
        new Map([
          ["KAS_ACCESS_KEY_ID", accessKeyId],
          ["KAS_SECRET_ACCESS_KEY", secret],
          ["KAS_CHAIN_ID", "8217"],
          ["KAS_WALLET_URL", "http://127.0.0.1:1234"],
          ["KAS_ACCOUNT_POOL", mainnetPool]
        ])
      )
      const layer = WalletClient.layerConfig().pipe(
        Layer.provide(test.layer),
        Layer.provide(Layer.setConfigProvider(provider)),
        Layer.orDie
      )
      yield* Effect.provide(WalletClient.createAccount(), layer)
      const [request] = test.requests
      expect(request!.url.toString()).toBe("http://127.0.0.1:1234/v2/account")
      expect(request!.headers["authorization"]).toBe(basic)
      expect(request!.headers["x-chain-id"]).toBe("8217")
      expect(request!.headers["x-krn"]).toBe(mainnetPool)
    }))

  it.effect("invalid options fail the layer with InvalidArgument", () =>
    Effect.gen(function*() {
      const test = testClient(echo)
      const attempt = (extra: Partial<WalletConfig.Options>) =>
        Effect.provide(WalletClient.createAccount(), WalletClient.layer(options(extra)).pipe(Layer.provide(test.layer))).pipe(
          Effect.flip,
          Effect.map((e) => (e._tag === "InvalidArgument" ? e.argument : e._tag))
        )
      expect(yield* attempt({ chainId: 1 })).toBe("chainId")
      expect(yield* attempt({ pool: "krn:1001:wallet:x:feepayer-pool:p" })).toBe("pool")
      expect(yield* attempt({ pool: mainnetPool })).toBe("pool")
      expect(yield* attempt({ baseUrl: "https://id:pw@example.com" })).toBe("baseUrl")
      expect(yield* attempt({ baseUrl: "ftp://example.com" })).toBe("baseUrl")
      expect(yield* attempt({ credentials: { authorization: Redacted.make("Bearer x") } })).toBe("credentials.authorization")
      expect(test.requests).toHaveLength(0)
    }))

  it("the User-Agent version is the package version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
    expect(version).toBe(pkg.version)
  })
})
