/**
 * Isolation: a member never reaches another member's accounts or fee-payer accounts, whatever it
 * sends in x-krn, on any route; chains are separate.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Emulator from "../src/Emulator.js"
import { clientLayer, expectError, newMemberApi } from "./_support.js"

layer(Layer.merge(Emulator.layer(), clientLayer))("emulator isolation", (it) => {
  it.effect("member B can neither get nor list member A's accounts, with or without A's KRN", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const a = yield* newMemberApi
      const b = yield* newMemberApi
      yield* Effect.orDie(e.createPool({ accountId: a.accountId, chainId: 1001 as any, name: "vault" }))
      const aDefault = yield* Effect.forEach([1, 2, 3], () => Effect.map(a.create(1001), (r) => r.body))
      const aNamed = yield* Effect.forEach([1, 2], () => Effect.map(a.create(1001, a.krn(1001, "vault")), (r) => r.body))
      const aMainnet = (yield* a.create(8217)).body

      for (const account of [...aDefault, ...aNamed, aMainnet]) {
        for (const chain of [1001, 8217]) {
          expectError(yield* b.get(chain, account.address), 400, 1061010)
          expectError(yield* b.get(chain, account.address.toLowerCase()), 400, 1061010)
          for (const krn of [a.krn(chain), a.krn(chain, "vault"), account.krn]) {
            expectError(yield* b.get(chain, account.address, krn), 400, 1061010)
          }
        }
      }
      for (const chain of [1001, 8217]) {
        expect((yield* b.listAll(chain)).items).toEqual([])
        for (const krn of [a.krn(1001), a.krn(1001, "vault"), a.krn(8217)]) {
          expectError(yield* b.list(chain, {}, krn), 400, 1061010)
          expectError(yield* b.create(chain, krn), 400, 1061010)
        }
      }
      // A still sees exactly its own, per chain and pool
      expect((yield* a.listAll(1001)).items).toEqual([...aDefault].reverse())
      expect((yield* a.listAll(1001, {}, a.krn(1001, "vault"))).items).toEqual([...aNamed].reverse())
      expect((yield* a.listAll(8217)).items).toEqual([aMainnet])
    }))

  it.effect("B's own pool of the same name is B's, not A's", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const a = yield* newMemberApi
      const b = yield* newMemberApi
      for (const m of [a, b]) yield* Effect.orDie(e.createPool({ accountId: m.accountId, chainId: 8217 as any, name: "shared-name" }))
      const aAccount = (yield* a.create(8217, a.krn(8217, "shared-name"))).body
      const bAccount = (yield* b.create(8217, b.krn(8217, "shared-name"))).body
      expect((yield* b.listAll(8217, {}, b.krn(8217, "shared-name"))).items).toEqual([bAccount])
      expect((yield* a.listAll(8217, {}, a.krn(8217, "shared-name"))).items).toEqual([aAccount])
      expectError(yield* b.get(8217, aAccount.address, b.krn(8217, "shared-name")), 400, 1061010)
    }))

  it.effect("chains are separate: an account of one chain does not exist on the other", () =>
    Effect.gen(function*() {
      const a = yield* newMemberApi
      const testnet = (yield* a.create(1001)).body
      const mainnet = (yield* a.create(8217)).body
      expectError(yield* a.get(8217, testnet.address), 400, 1061010)
      expectError(yield* a.get(1001, mainnet.address), 400, 1061010)
      expect((yield* a.listAll(1001)).items).toEqual([testnet])
      expect((yield* a.listAll(8217)).items).toEqual([mainnet])
      // a KRN of the other chain does not select anything
      expectError(yield* a.get(1001, testnet.address, a.krn(8217)), 400, 1061010)
    }))

  it.effect("cursors do not cross members, chains or pools", () =>
    Effect.gen(function*() {
      const a = yield* newMemberApi
      const b = yield* newMemberApi
      yield* Effect.forEach([1, 2, 3], () => Effect.all([a.create(1001), a.create(8217), b.create(1001)]), { discard: true })
      const aCursor = (yield* a.list(1001, { size: 1 })).body.cursor
      const bCursor = (yield* b.list(1001, { size: 1 })).body.cursor
      expectError(yield* b.list(1001, { size: 1, cursor: aCursor }), 400, 1061615)
      expectError(yield* a.list(1001, { size: 1, cursor: bCursor }), 400, 1061615)
      expectError(yield* a.list(8217, { size: 1, cursor: aCursor }), 400, 1061615)
    }))

  it.effect("member B can neither delete, disable nor enable A's accounts, find them by public key nor count them", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const a = yield* newMemberApi
      const b = yield* newMemberApi
      yield* Effect.orDie(e.createPool({ accountId: a.accountId, chainId: 1001 as any, name: "vault" }))
      const aAccounts = [(yield* a.create(1001)).body, (yield* a.create(1001, a.krn(1001, "vault"))).body]
      const aDisabled = (yield* a.create(1001)).body
      expect((yield* a.disable(1001, aDisabled.address)).status).toBe(200)
      const bAccount = (yield* b.create(1001)).body
      for (const account of [...aAccounts, aDisabled]) {
        for (const krn of [undefined, a.krn(1001), a.krn(1001, "vault"), account.krn]) {
          expectError(yield* b.remove(1001, account.address, krn), 400, 1061010)
          // A's pools are not B's: its KRNs are refused (1061010); without one, B's default pool
          // holds no such account, which the service answers "already deleted or …".
          expectError(yield* b.enable(1001, account.address, krn), 400, krn === undefined ? 1061511 : 1061010)
          expectError(yield* b.disable(1001, account.address, krn), 400, krn === undefined ? 1061510 : 1061010)
        }
        expect((yield* b.byPublicKey(1001, account.publicKey)).body).toEqual({ items: [] })
        expectError(yield* b.byPublicKey(1001, account.publicKey, account.krn), 400, 1061010)
      }
      expect((yield* b.count(1001)).body).toEqual({ accountId: b.accountId, count: 1 })
      expect((yield* b.countPool(1001)).body).toEqual({ accountId: b.accountId, count: 1, krn: b.krn(1001) })
      for (const krn of [a.krn(1001), a.krn(1001, "vault")]) {
        expectError(yield* b.count(1001, krn), 400, 1061010)
        expectError(yield* b.countPool(1001, krn), 400, 1061010)
        expectError(yield* b.list(1001, { status: "all" }, krn), 400, 1061010)
      }
      expect((yield* b.listAll(1001, { status: "all" })).items).toEqual([bAccount])
      // A's accounts are as A left them.
      expect((yield* a.count(1001)).body.count).toBe(3)
      expect((yield* a.listAll(1001, { status: "disabled" })).items.map((x) => x.address)).toEqual([aDisabled.address])
      expect((yield* a.get(1001, aAccounts[0]!.address)).body).toEqual(aAccounts[0])
      // and A cannot touch B's either
      expectError(yield* a.disable(1001, bAccount.address), 400, 1061510)
      expect((yield* a.byPublicKey(1001, bAccount.publicKey)).body).toEqual({ items: [] })
    }))

  it.effect("member B can neither get, list, create in nor delete A's fee-payer accounts and pools; cursors do not cross", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const a = yield* newMemberApi
      const b = yield* newMemberApi
      yield* Effect.orDie(e.createFeePayerPool({ accountId: a.accountId, chainId: 1001 as any, name: "ops" }))
      yield* Effect.orDie(e.createFeePayerPool({ accountId: b.accountId, chainId: 1001 as any, name: "ops" }))
      const aPayers = [
        (yield* a.feePayers.create(1001)).body,
        (yield* a.feePayers.create(1001)).body,
        (yield* a.feePayers.create(1001, a.feePayerKrn(1001, "ops"))).body
      ]
      const bPayer = (yield* b.feePayers.create(1001)).body
      for (const payer of aPayers) {
        for (const chain of [1001, 8217]) {
          for (const krn of [undefined, a.feePayerKrn(chain), a.feePayerKrn(chain, "ops"), payer.krn, b.feePayerKrn(chain, "ops")]) {
            expectError(yield* b.feePayers.get(chain, payer.address, krn), 400, 1061010)
            expectError(yield* b.feePayers.remove(chain, payer.address, krn), 400, 1061010)
          }
        }
      }
      for (const krn of [a.feePayerKrn(1001), a.feePayerKrn(1001, "ops")]) {
        expectError(yield* b.feePayers.list(1001, {}, krn), 400, 1061010)
        expectError(yield* b.feePayers.create(1001, krn), 400, 1061010)
      }
      expect((yield* b.feePayers.listAll(1001)).items).toEqual([bPayer])
      expect((yield* b.feePayers.listAll(1001, {}, b.feePayerKrn(1001, "ops"))).items).toEqual([])
      const aCursor = (yield* a.feePayers.list(1001, { size: 1 })).body.cursor
      expect(aCursor).not.toBe("")
      expectError(yield* b.feePayers.list(1001, { size: 1, cursor: aCursor }), 400, 1061615)
      expectError(yield* a.feePayers.list(1001, { size: 1, cursor: aCursor }, a.feePayerKrn(1001, "ops")), 400, 1061615)
      expectError(yield* a.feePayers.list(8217, { size: 1, cursor: aCursor }), 400, 1061615)
      // A still has all of its own, in their pools.
      expect((yield* a.feePayers.listAll(1001)).items).toEqual([aPayers[1], aPayers[0]])
      expect((yield* a.feePayers.listAll(1001, {}, a.feePayerKrn(1001, "ops"))).items).toEqual([aPayers[2]])
    }))
})
