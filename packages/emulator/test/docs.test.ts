/**
 * The examples of docs/emulator.md — "Using it in your tests", "The test kit", "From a program:
 * ConsoleClient" — verbatim but for the import paths.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Redacted, TestClock } from "effect"
import { ChainId, WalletClient } from "effect-kas-wallet"
import { ConsoleClient, Emulator, EmulatorTest } from "../src/index.js"

layer(Layer.merge(Emulator.layer(), FetchHttpClient.layer))("my service", (it) => {
  it.effect("creates an account in a named pool", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const { accountId, authorization } = emulator.member
      const pool = yield* emulator.createPool({ accountId, chainId: ChainId.Testnet, name: "payroll" })

      yield* TestClock.setTime(1_700_000_000_000) // the emulator's clock is Effect's Clock
      const response = yield* HttpClient.execute(
        HttpClientRequest.post(`${emulator.url}/v2/account`).pipe(
          HttpClientRequest.setHeaders({
            authorization: Redacted.value(authorization),
            "x-chain-id": "1001",
            "x-krn": pool.krn.toString()
          })
        )
      )
      const account: any = yield* response.json
      expect(account.krn).toBe(pool.krn.toString())
      expect(account.createdAt).toBe(1_700_000_000)
    }))
})

// docs/emulator.md, "The test kit", verbatim but for the import paths.
layer(EmulatorTest.layer())("payroll", (it) => {
  it.effect("funds an account", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const account = yield* WalletClient.createAccount()
      const { balance } = yield* emulator.fund(ChainId.Testnet, account.address, 10n ** 18n)
      expect(balance).toBe(10n ** 18n)
    }))
})

const Manual = EmulatorTest.layer({ mining: "manual", chainId: ChainId.Mainnet, client: { verifyResults: "fields" } })

// docs/emulator.md, "From a program: ConsoleClient", verbatim but for the import paths.
const Console = ConsoleClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))

const program = Effect.gen(function*() {
  const console = yield* ConsoleClient.ConsoleClient
  const { balance } = yield* console.fund(ChainId.Testnet, "0xa809284C83b901eD106Aba4Ccda14628Af128e14", 10n ** 18n)
  const blocks = yield* console.mine(ChainId.Testnet) // manual mining only
  return { balance, blocks }
}).pipe(Effect.provide(Console))

describe("docs/emulator.md's kit and console client", () => {
  it.effect("the kit of another mining mode and chain; the console client's program against it, its settings from the environment", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      expect(emulator.mining).toBe("manual")
      const settings = ConfigProvider.fromMap(
        new Map([
          ["KAS_WALLET_URL", emulator.url],
          ["KAS_ACCESS_KEY_ID", emulator.member.accessKeyId],
          ["KAS_SECRET_ACCESS_KEY", Redacted.value(emulator.member.secretAccessKey)],
          ["KAS_CHAIN_ID", "1001"]
        ])
      )
      const { balance, blocks } = yield* Effect.withConfigProvider(program, settings)
      expect(balance).toBe(10n ** 18n)
      expect(blocks).toMatchObject([{ chainId: 1001, transactions: [] }])
      // The kit's client calls mainnet.
      const account = yield* WalletClient.createAccount()
      expect(account.krn.toString()).toContain(":8217:")
    }).pipe(Effect.provide(Manual)))
})

// docs/emulator.md, "The test kit", one emulator with tests apart, verbatim.
layer(EmulatorTest.layer())("accounts", (it) => {
  it.effect("creates one", () =>
    EmulatorTest.isolated(Effect.gen(function*() {
      const created = yield* WalletClient.createAccount()
      expect((yield* WalletClient.accountCount()).count).toBe(1)
      return created
    })))

  it.effect("starts again from none", () =>
    Effect.gen(function*() {
      expect((yield* WalletClient.accountCount()).count).toBe(0)
    }))
})
