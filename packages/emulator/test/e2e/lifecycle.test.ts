/**
 * The WalletClient's lifecycle, count, public-key and fee-payer operations against the emulator,
 * over real loopback HTTP: every operation round-trips, decoded by the client's own schemas.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Chunk, Effect, Redacted, Stream } from "effect"
import { ChainId, Krn, WalletClient, type WalletError } from "effect-kas-wallet"
import * as Emulator from "../../src/Emulator.js"
import { wallet } from "./support.js"

const codeOf = (e: WalletError.WalletError) => ("code" in e ? e.code : undefined)

describe("WalletClient ⇄ emulator: lifecycle, counts, lookups, fee payers", () => {
  layer(wallet(), { excludeTestServices: true })((it) => {
    it.effect("disableAccount, enableAccount, deleteAccount and the status filter of listings", () =>
      Effect.gen(function*() {
        const [a, b, c] = [yield* WalletClient.createAccount(), yield* WalletClient.createAccount(), yield* WalletClient.createAccount()]
        const disabled = yield* WalletClient.disableAccount(b.address.toLowerCase())
        expect(disabled.address).toBe(b.address)
        expect(Krn.equals(disabled.krn, b.krn)).toBe(true)
        expect(disabled.updatedAt).toBeGreaterThanOrEqual(b.updatedAt)
        const again = yield* Effect.flip(WalletClient.disableAccount(b.address))
        expect(again._tag).toBe("InvalidRequest")
        expect(codeOf(again)).toBe(1061510)
        const notDisabled = yield* Effect.flip(WalletClient.enableAccount(a.address))
        expect(notDisabled._tag).toBe("InvalidRequest")
        expect(codeOf(notDisabled)).toBe(1061511)
        expect((yield* WalletClient.getAccount(b.address)).address).toBe(b.address)

        const stream = (status?: "enabled" | "disabled" | "all") =>
          Effect.map(Stream.runCollect(WalletClient.accounts({ pageSize: 1, status })), (all) => Chunk.toReadonlyArray(all).map((x) => x.address))
        expect(yield* stream("disabled")).toEqual([b.address])
        expect(yield* stream()).toEqual([c.address, a.address])
        expect(yield* stream("all")).toEqual([c.address, b.address, a.address])
        const page = yield* WalletClient.listAccounts({ status: "disabled" })
        expect(page.items.map((x) => x.address)).toEqual([b.address])

        const enabled = yield* WalletClient.enableAccount(b.address)
        expect(enabled.address).toBe(b.address)
        expect(yield* stream("disabled")).toEqual([])

        const deleted = yield* WalletClient.deleteAccount(c.address)
        expect(deleted).toEqual({ status: "deleted" })
        const gone = yield* Effect.flip(WalletClient.getAccount(c.address))
        expect(gone._tag).toBe("AccountNotFound")
        expect((yield* Effect.flip(WalletClient.deleteAccount(c.address)))._tag).toBe("AccountNotFound")
        expect(yield* stream("all")).toEqual([b.address, a.address])
      }))

    it.effect("accountsByPublicKey, accountCount and accountCountByPool", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        const pool = yield* emulator.createPool({ accountId: emulator.member.accountId, chainId: ChainId.Testnet, name: "counted" })
        const before = yield* WalletClient.accountCount()
        expect(before.accountId).toBe(emulator.member.accountId)
        const inPool = yield* WalletClient.createAccount({ pool: pool.krn })
        yield* WalletClient.createAccount({ pool: pool.krn })
        const found = yield* WalletClient.accountsByPublicKey(inPool.publicKey)
        expect(found).toEqual([{ address: inPool.address, chainId: ChainId.Testnet }])
        expect(yield* WalletClient.accountsByPublicKey(inPool.publicKey, { chainId: ChainId.Mainnet })).toEqual([])
        expect((yield* WalletClient.accountCount()).count).toBe(before.count + 2)
        const byPool = yield* WalletClient.accountCountByPool({ pool: pool.krn })
        expect(byPool.count).toBe(2)
        expect(byPool.accountId).toBe(emulator.member.accountId)
        expect(Krn.equals(byPool.krn, pool.krn)).toBe(true)
        const byDefault = yield* WalletClient.accountCountByPool()
        expect(byDefault.krn.resourceId).toBe(Krn.DefaultPoolName)
        expect(byDefault.count).toBe(before.count)
      }))

    it.effect("createFeePayer, getFeePayer, listFeePayers, feePayers, feePayerPages and deleteFeePayer, in the default and a named fee-payer pool", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        const ops = yield* emulator.createFeePayerPool({ accountId: emulator.member.accountId, chainId: ChainId.Testnet, name: "ops" })
        const payers = [
          yield* WalletClient.createFeePayer(),
          yield* WalletClient.createFeePayer({ withoutAccountUpdate: true })
        ]
        for (const p of payers) {
          expect(p.krn.toString()).toBe(`krn:1001:wallet:${emulator.member.accountId}:feepayer-pool:default`)
          expect(Krn.isFeePayerPool(p.keyId.poolKrn)).toBe(true)
          expect((yield* WalletClient.getFeePayer(p.address.toLowerCase())).publicKey).toBe(p.publicKey)
        }
        const named = yield* WalletClient.createFeePayer({ feePayerPool: ops.krn })
        expect(Krn.equals(named.krn, ops.krn)).toBe(true)
        expect((yield* Effect.flip(WalletClient.getFeePayer(named.address)))._tag).toBe("AccountNotFound")
        expect((yield* WalletClient.getFeePayer(named.address, { feePayerPool: ops.krn.toString() })).address).toBe(named.address)

        const page = yield* WalletClient.listFeePayers({ pageSize: 1 })
        expect(page.items.map((x) => x.address)).toEqual([payers[1]!.address])
        expect(page.cursor).not.toBe("")
        const pages = Chunk.toReadonlyArray(yield* Stream.runCollect(WalletClient.feePayerPages({ pageSize: 1 })))
        expect(pages.length).toBe(2)
        const all = Chunk.toReadonlyArray(yield* Stream.runCollect(WalletClient.feePayers()))
        expect(all.map((x) => x.address)).toEqual([payers[1]!.address, payers[0]!.address])
        const inOps = Chunk.toReadonlyArray(yield* Stream.runCollect(WalletClient.feePayers({ feePayerPool: ops.krn })))
        expect(inOps.map((x) => x.address)).toEqual([named.address])

        expect(yield* WalletClient.deleteFeePayer(payers[0]!.address)).toEqual({ status: "deleted" })
        expect((yield* Effect.flip(WalletClient.getFeePayer(payers[0]!.address)))._tag).toBe("AccountNotFound")
        expect((yield* WalletClient.listFeePayers()).items.map((x) => x.address)).toEqual([payers[1]!.address])
        // A fee-payer account is not an account.
        expect((yield* Effect.flip(WalletClient.getAccount(payers[1]!.address)))._tag).toBe("AccountNotFound")
      }))
  })

  // The layer's fee-payer pool applies to every fee-payer call that does not name one.
  layer(
    wallet(
      { member: { accountId: "e2e-member", accessKeyId: "E2EKEY", secretAccessKey: Redacted.make("e2e-secret") } },
      { feePayerPool: "krn:1001:wallet:e2e-member:feepayer-pool:layer" }
    ),
    { excludeTestServices: true }
  )((it) => {
    it.effect("a fee-payer pool set on the layer; null selects the default one", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        // Not created yet: "data don't exist" about x-krn, as for any unknown pool.
        expect((yield* Effect.flip(WalletClient.createFeePayer()))._tag).toBe("PoolNotFound")
        const pool = yield* emulator.createFeePayerPool({ accountId: "e2e-member", chainId: ChainId.Testnet, name: "layer" })
        const created = yield* WalletClient.createFeePayer()
        expect(Krn.equals(created.krn, pool.krn)).toBe(true)
        expect((yield* WalletClient.listFeePayers()).items.map((x) => x.address)).toEqual([created.address])
        const inDefault = yield* WalletClient.createFeePayer({ feePayerPool: null })
        expect(inDefault.krn.resourceId).toBe(Krn.DefaultPoolName)
        expect((yield* WalletClient.listFeePayers({ feePayerPool: null })).items.map((x) => x.address)).toEqual([inDefault.address])
      }))
  })
})
