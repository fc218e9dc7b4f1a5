/**
 * Isolation: a member never reaches another member's accounts, whatever it sends in x-krn; chains
 * are separate.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Emulator from "../../src/emulator/Emulator.js"
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
})
