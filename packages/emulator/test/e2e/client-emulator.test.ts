/**
 * The WalletClient against the emulator, over real loopback HTTP.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { describe, expect, layer } from "@effect/vitest"
import { Chunk, Effect, Either, Layer, Option, Redacted, Stream } from "effect"
import { Address, ChainId, Krn, WalletClient, WalletConfig, type WalletError } from "effect-kas-wallet"
import * as Emulator from "../../src/Emulator.js"
import { wallet } from "./support.js"

const stranger = Option.getOrThrow(Address.checksum(`0x${"ab".repeat(20)}`))

describe("WalletClient ⇄ emulator over loopback HTTP", () => {
  // Live services: the emulator stamps accounts with the real clock, and retries really wait.
  layer(wallet(), { excludeTestServices: true })((it) => {
    it.effect("create, get (any case), list by hand and stream: the same accounts, newest first", () =>
      Effect.gen(function*() {
        const created = yield* Effect.forEach(Array.from({ length: 7 }), () => WalletClient.createAccount())
        for (const account of created) {
          expect(account.updatedAt).toBe(account.createdAt)
          expect(account.krn.resourceId).toBe(Krn.DefaultPoolName)
          expect(Krn.equals(account.keyId.poolKrn, account.krn)).toBe(true)
          const found = yield* WalletClient.getAccount(account.address.toLowerCase())
          expect(found.address).toBe(account.address)
          expect(found.publicKey).toBe(account.publicKey)
        }
        const byHand: Array<string> = []
        let cursor = ""
        let requests = 0
        do {
          const page = yield* WalletClient.listAccounts({ pageSize: 3, cursor })
          requests++
          byHand.push(...page.items.map((a) => a.address))
          cursor = page.cursor
        } while (cursor !== "")
        const streamed = yield* WalletClient.accounts({ pageSize: 3 }).pipe(Stream.runCollect)
        expect(Chunk.toReadonlyArray(streamed).map((a) => a.address)).toEqual(byHand)
        expect(new Set(byHand)).toEqual(new Set(created.map((a) => a.address)))
        expect(requests).toBe(Math.ceil(byHand.length / 3))
        const times = Chunk.toReadonlyArray(streamed).map((a) => a.createdAt)
        expect(times.every((t, i) => i === 0 || times[i - 1]! >= t)).toBe(true)
      }))

    it.effect("a named pool selected with x-krn at call, scope and stream level", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        const pool = yield* emulator.createPool({ accountId: emulator.member.accountId, chainId: ChainId.Testnet, name: "e2e-pool" })
        const a = yield* WalletClient.createAccount({ pool: pool.krn })
        const b = yield* WalletClient.createAccount().pipe(WalletConfig.withPool(pool.krn.toString()))
        expect(a.krn.toString()).toBe(pool.krn.toString())
        expect(b.krn.toString()).toBe(pool.krn.toString())
        const inPool = yield* WalletClient.accounts().pipe(WalletConfig.withPool(pool.krn), Stream.runCollect)
        expect(Chunk.toReadonlyArray(inPool).map((x) => x.address)).toEqual([b.address, a.address])
        // the default pool does not hold them
        const missing = yield* Effect.flip(WalletClient.getAccount(a.address))
        expect(missing._tag).toBe("AccountNotFound")
        const found = yield* WalletClient.getAccount(a.address, { pool: pool.krn })
        expect(found.address).toBe(a.address)
      }))

    it.effect("chains are separate", () =>
      Effect.gen(function*() {
        const onMainnet = yield* WalletClient.createAccount({ chainId: ChainId.Mainnet })
        expect(onMainnet.chainId).toBe(8217)
        expect(onMainnet.krn.chainId).toBe(8217)
        const fromTestnet = yield* Effect.flip(WalletClient.getAccount(onMainnet.address))
        expect(fromTestnet._tag).toBe("AccountNotFound")
        const fromMainnet = yield* WalletClient.getAccount(onMainnet.address).pipe(WalletConfig.withChain(ChainId.Mainnet))
        expect(fromMainnet.address).toBe(onMainnet.address)
      }))

    it.effect("typed errors: AccountNotFound, a foreign pool, Unauthorized", () =>
      Effect.gen(function*() {
        const notFound = yield* Effect.flip(WalletClient.getAccount(stranger))
        expect(notFound._tag).toBe("AccountNotFound")
        expect((notFound as WalletError.AccountNotFound).code).toBe(1061010)
        expect((notFound as WalletError.AccountNotFound).requestId).toBeDefined()
        const foreign = yield* Effect.flip(
          WalletClient.createAccount({ pool: "krn:1001:wallet:00000000-0000-4000-8000-000000000000:account-pool:default" })
        )
        // another member's pool: a 400, never their data
        expect((foreign as WalletError.ServiceError).status).toBe(400)
        const emulator = yield* Emulator.Emulator
        const wrongKey = WalletClient.layer({
          credentials: { accessKeyId: emulator.member.accessKeyId, secretAccessKey: Redacted.make("not the secret") },
          chainId: ChainId.Testnet,
          baseUrl: emulator.url
        }).pipe(Layer.provide(FetchHttpClient.layer), Layer.orDie)
        const unauthorized = yield* Effect.flip(Effect.provide(WalletClient.listAccounts(), wrongKey))
        expect(unauthorized._tag).toBe("Unauthorized")
        expect((unauthorized as WalletError.Unauthorized).code).toBe(1010009)
      }))

    it.effect("a time range streams exactly the accounts created in it", () =>
      Effect.gen(function*() {
        const all = Chunk.toReadonlyArray(yield* WalletClient.accounts().pipe(Stream.runCollect))
        const t = all[0]!.createdAt
        const ranged = Chunk.toReadonlyArray(yield* WalletClient.accounts({ pageSize: 2, from: t, to: t }).pipe(Stream.runCollect))
        expect(ranged.map((a) => a.address)).toEqual(all.filter((a) => a.createdAt === t).map((a) => a.address))
        const none = yield* WalletClient.listAccounts({ to: 1 })
        expect(none.items).toEqual([])
        expect(none.cursor).toBe("")
      }))

    it.effect("a cursor is not accepted in another pool", () =>
      Effect.gen(function*() {
        yield* WalletClient.createAccount()
        yield* WalletClient.createAccount()
        const page = yield* WalletClient.listAccounts({ pageSize: 1 })
        expect(page.cursor).not.toBe("")
        const emulator = yield* Emulator.Emulator
        const pools = yield* emulator.listPools(emulator.member.accountId)
        const other = pools.find((p) => p.name !== Krn.DefaultPoolName && p.chainId === ChainId.Testnet)!
        const error = yield* Effect.flip(WalletClient.listAccounts({ pageSize: 1, cursor: page.cursor, pool: other.krn }))
        expect(error._tag).toBe("InvalidRequest")
      }))
  })

  layer(
    wallet({ faults: { rate: 0.3, seed: 7, kinds: ["429", "500", "503"], retryAfter: 0 } }, {
      retry: { maxAttempts: 6, baseDelay: "1 millis", maxDelay: "5 millis" }
    }),
    { excludeTestServices: true }
  )((it) => {
    it.effect("with faults injected, retried reads still stream every account exactly once", () =>
      Effect.gen(function*() {
        const created: Array<string> = []
        let failed = 0
        while (created.length < 25) {
          const result = yield* Effect.either(WalletClient.createAccount())
          if (Either.isRight(result)) created.push(result.right.address)
          else failed++
        }
        // faults did happen (creates are not retried, so they show)
        expect(failed).toBeGreaterThan(0)
        const streamed = yield* WalletClient.accounts({ pageSize: 4 }).pipe(Stream.runCollect)
        const addresses = Chunk.toReadonlyArray(streamed).map((a) => a.address)
        expect(addresses.length).toBe(created.length)
        expect(new Set(addresses)).toEqual(new Set(created))
      }))
  })
})
