/**
 * The fee-delegation history over HTTP (`/v2/history/fd/tx`): only the global fee payer's records,
 * newest first, in pages with cursors, the `from` filter, one by hash, members and chains apart,
 * refusals (`1061010` for no record, never a 5xx). Manual mining: each record is in a block when
 * the test mines.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Emulator from "../src/Emulator.js"
import { clientLayer, expectError } from "./_support.js"
import { GasPrice, intrinsic, memberTx, newMemberTx, type TxApi } from "./_ledger.js"

const KLAY = 10n ** 18n
const HASH = /^0x[0-9a-f]{64}$/

const history = (t: TxApi, query = "", chainId = 1001) =>
  t.request("GET", `/v2/history/fd/tx${query === "" ? "" : `?${query}`}`, undefined, { chainId })
const record = (t: TxApi, hash: string, chainId = 1001) =>
  t.request("GET", `/v2/history/fd/tx/${hash}`, undefined, { chainId })

layer(Layer.merge(Emulator.layer({ mining: "manual" }), clientLayer))("fee-delegation history", (it) => {
  it.effect("global records only, newest first, paged, filtered, by hash, per member and chain; refusals", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const t = memberTx(e)
      const a = yield* t.account()
      const b = yield* t.account()
      const to = yield* t.account()
      const payer = yield* t.feePayer()
      for (const x of [a, b, payer]) yield* e.fund(1001, x, KLAY)
      const sent = (kind: "value" | "fd" | "fd-user", body: object) =>
        Effect.map(t.transfer(kind, { to, value: "0x1", ...body }), (r) => {
          expect(r.status, r.text).toBe(200)
          return (r.body as any).transactionHash as string
        })

      // Nothing yet: the spec's 1061010.
      expectError(yield* history(t), 400, 1061010)
      const h1 = yield* sent("fd", { from: a })
      expectError(yield* history(t), 400, 1061010) // pending: not in a block
      const [block] = yield* e.mine(1001)
      const h2 = yield* sent("fd", { from: b, feeRatio: 30 })
      const h3 = yield* sent("fd", { from: a })
      yield* sent("value", { from: b }) // the sender pays: not delegated
      yield* sent("fd-user", { from: b, feePayer: payer }) // the member's own fee payer: not KAS's
      yield* e.mine(1001)

      const all = yield* history(t)
      expect(all.status, all.text).toBe(200)
      expect(Object.keys(all.body as object)).toEqual(["cursor", "items"])
      const items: Array<any> = (all.body as any).items
      expect((all.body as any).cursor).toBe("")
      expect(items.map((i) => i.transactionHash)).toEqual([h3, h2, h1])
      const global = e.globalFeePayer(1001).toLowerCase()
      const full = BigInt(intrinsic("global", 0, 0)) * GasPrice
      expect(items[2]).toEqual({
        chainId: 1001,
        chargedByKlay: "0.000775",
        chargedByKrw: "0",
        chargedByPeb: full.toString(),
        chargedByUsd: "0",
        feePayer: global,
        from: a.toLowerCase(),
        gasPrice: `0x${GasPrice.toString(16)}`,
        gasUsed: `0x${intrinsic("global", 0, 0).toString(16)}`,
        krw: 0,
        status: "0x1",
        timestamp: Math.floor(block!.blockTimeMs / 1000),
        transactionHash: h1,
        typeInt: 0x09,
        usd: 0
      })
      // The ratio: the global fee payer's 30 % share only.
      expect(items[1].chargedByPeb).toBe(((BigInt(intrinsic("global", 30, 0)) * GasPrice * 30n) / 100n).toString())
      expect(items[1].typeInt).toBe(0x0a)
      for (const i of items) expect(i.transactionHash).toMatch(HASH)

      // Pages of 2 and 1; a record added during the listing is not in its later pages.
      const first = yield* history(t, "size=2")
      expect((first.body as any).items.map((i: any) => i.transactionHash)).toEqual([h3, h2])
      const cursor = (first.body as any).cursor as string
      expect(cursor).not.toBe("")
      yield* sent("fd", { from: b })
      yield* e.mine(1001)
      const second = yield* history(t, `size=2&cursor=${cursor}`)
      expect(second.body).toEqual({ cursor: "", items: [items[2]] })

      // The from filter (any case); an address with no record: 1061010.
      const fromA = yield* history(t, `from=${a.toUpperCase().replace("0X", "0x")}`)
      expect((fromA.body as any).items.map((i: any) => i.transactionHash)).toEqual([h3, h1])
      expectError(yield* history(t, `from=${to}`), 400, 1061010)
      expectError(yield* history(t, "from=0x12"), 400, 1061609)
      expectError(yield* history(t, "size=-1"), 400, 1061615)
      expectError(yield* history(t, "cursor=abc.def"), 400, 1061615)

      // By hash (any case); unknown, sender-paid, other length: 1061010; not hex: 1061607.
      expect((yield* record(t, h1.toUpperCase().replace("0X", "0x"))).body).toEqual(items[2])
      expectError(yield* record(t, `0x${"ab".repeat(32)}`), 400, 1061010)
      expectError(yield* record(t, "0xabc"), 400, 1061010)
      expectError(yield* record(t, "0xzz"), 400, 1061607)

      // Another member sees none of it, and its cursor is refused; another chain neither.
      const other = yield* newMemberTx(e)
      expectError(yield* history(other), 400, 1061010)
      expectError(yield* record(other, h1), 400, 1061010)
      expectError(yield* history(other, `size=2&cursor=${cursor}`), 400, 1061615)
      expectError(yield* history(t, "", 8217), 400, 1061010)
      expectError(yield* record(t, h1, 8217), 400, 1061010)
      expectError(yield* history(t, `size=2&cursor=${cursor}`, 8217), 400, 1061615)
    }))
})
