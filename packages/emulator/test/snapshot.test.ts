/**
 * Snapshots, reverts and the next block's time, over HTTP on loopback (the console routes
 * `/_emulator/snapshot`, `/_emulator/revert`, `/_emulator/time`) and in-process: a revert brings
 * back every kind of state of every member, an id reverts once, a time never goes back.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Emulator from "../src/Emulator.js"
import { memberTx, newMemberTx, type TxApi } from "./_ledger.js"
import { clientLayer, expectError } from "./_support.js"
import { createdAddress } from "./support/klaytn.js"
import * as KasToken from "../../cli/src/tour/KasToken.js"

const KLAY = 10n ** 18n
const OUTSIDER = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"
const word = (x: string | bigint) => (typeof x === "string" ? x.slice(2).toLowerCase() : x.toString(16)).padStart(64, "0")
const DEPLOY_INPUT = `${KasToken.bytecode}${word(10n ** 24n)}`
// transfer(address,uint256)
const transferInput = (to: string, amount: bigint) => `0xa9059cbb${word(to)}${word(amount)}`

const ok = (reply: { readonly status: number; readonly text: string; readonly body: any }) => {
  expect(reply.status, reply.text).toBe(200)
  return reply.body
}

// What a member sees, read over the wire: its accounts, each one's balance, nonce and key, its
// keys, its history, the contract's storage, a transaction's receipt; and the console's bills.
const view = (e: Emulator.Service, t: TxApi, token: string, holders: ReadonlyArray<string>, hashes: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const strip = (reply: { readonly status: number; readonly body: any }) => {
      const { requestId: _id, ...rest } = reply.body ?? {}
      return { status: reply.status, body: rest }
    }
    const accounts: ReadonlyArray<string> = ok(yield* t.request("GET", "/v2/account?size=100", undefined)).items.map((a: any) => a.address)
    const state = yield* Effect.forEach(accounts, (address) =>
      Effect.gen(function*() {
        const { balance, nonce } = yield* e.balance(1001, address)
        return { address, balance, nonce, account: strip(yield* t.request("GET", `/v2/account/${address}`, undefined)) }
      }))
    const keys = strip(yield* t.request("GET", `/v2/key?krn=${encodeURIComponent(`krn:1001:wallet:${t.accountId}:key-pool:default`)}&size=100`, undefined))
    const history = strip(yield* t.request("GET", "/v2/history/fd/tx", undefined))
    const storage = yield* Effect.forEach([OUTSIDER, ...holders], (holder) =>
      Effect.map(t.post("/v2/tx/contract/call", { to: token, data: { methodName: "balanceOf", arguments: [{ type: "address", value: holder }] } }), strip))
    const receipts = yield* Effect.forEach(hashes, (hash) => Effect.map(t.receipt(hash), strip))
    const pools = yield* e.listPools(t.accountId)
    return { accounts: state, keys, history, storage, receipts, pools: pools.map((p) => p.krn.toString()), bills: yield* e.feeBills() }
  })

describe("snapshot and revert", () => {
  it.scoped("a revert brings back every member's accounts, balances, nonces, keys, pools, contracts, pending pool, multisig, bills and history", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.make({ port: 0, mining: "manual" }).pipe(Effect.orDie)
      const a = memberTx(e)
      const b = yield* newMemberTx(e)
      const console = (path: string, body?: unknown) => a.post(`/_emulator/${path}`, body ?? {})
      const mine = Effect.asVoid(e.mine())

      // Before the snapshot: each member has funded accounts, a fee-delegated transfer (a bill and
      // its history), a key; A a contract, and a transfer left pending.
      const setUp = (t: TxApi) =>
        Effect.gen(function*() {
          const from = yield* t.account()
          const other = yield* t.account()
          yield* e.fund(1001, from, KLAY)
          ok(yield* t.transfer("fd", { from, to: other, value: "0x10" }))
          ok(yield* t.request("POST", "/v2/key", { size: 1 }))
          return { from, other }
        })
      const sa = yield* setUp(a)
      const sb = yield* setUp(b)
      ok(yield* a.post("/v2/tx/contract/deploy", { from: sa.from, input: DEPLOY_INPUT }))
      yield* mine
      const token = createdAddress(sa.from, 1)
      const pending = ok(yield* a.transfer("value", { from: sa.from, to: OUTSIDER, value: "0x1" })).transactionHash as string
      const views = Effect.all([view(e, a, token, [sa.from], [pending]), view(e, b, token, [], [])])
      const before = yield* views

      const id = ok(yield* console("snapshot")).id as string
      expect(id).toMatch(/^0x[0-9a-f]+$/)

      // Everything changes: new accounts and keys, a pool, the pending transfer mined, more
      // transfers and bills, the contract's storage, B's account made multisig, a new pending one.
      for (const [t, s] of [[a, sa], [b, sb]] as const) {
        yield* t.account()
        ok(yield* t.request("POST", "/v2/key", { size: 2 }))
        ok(yield* t.transfer("fd", { from: s.from, to: s.other, value: "0x20" }))
      }
      yield* e.createPool({ accountId: a.accountId, chainId: 1001 as any, name: "side" })
      ok(yield* a.post("/v2/tx/contract/execute", { from: sa.from, to: token, input: transferInput(OUTSIDER, 77n) }))
      const signers = [ok(yield* b.request("POST", "/v2/account", undefined)), ok(yield* b.request("POST", "/v2/account", undefined))]
      ok(yield* b.request("PUT", `/v2/account/${sb.from}/multisig`, { threshold: 2, weightedKeys: signers.map((s: any) => ({ publicKey: s.publicKey, weight: 1 })) }))
      yield* mine
      const later = ok(yield* a.transfer("value", { from: sa.from, to: OUTSIDER, value: "0x2" })).transactionHash as string
      const changed = yield* views
      expect(changed[0]).not.toEqual(before[0])
      expect(changed[1]).not.toEqual(before[1])
      expect(changed[1].accounts.find((x) => x.address === sb.from)!.account.body.multiSigKeys).toHaveLength(2)

      ok(yield* console("revert", { id }))
      expect(yield* views).toEqual(before)
      // The transaction sent after the snapshot is no one's now; the pending one is pending again.
      expectError(yield* a.receipt(later), 400, 1065000)
      expect(ok(yield* a.receipt(pending)).status).toBe("Pending")

      // An id reverts once; an unknown one is refused; nothing changes.
      const again = yield* console("revert", { id })
      expectError(again, 400, 1061615)
      expect(again.body.message).toContain(`no snapshot "${id}"`)
      expectError(yield* console("revert", { id: "0x99" }), 400, 1061615)
      expectError(yield* console("revert", { id: 5 }), 400, 1061615)
      expectError(yield* console("revert", {}), 400, 1061608)
      expect(yield* views).toEqual(before)

      // The emulator goes on from there: the pool named again, transfers, mining.
      yield* e.createPool({ accountId: a.accountId, chainId: 1001 as any, name: "side" })
      const side = yield* a.account({ krn: `krn:1001:wallet:${a.accountId}:account-pool:side` })
      yield* e.fund(1001, side, KLAY)
      ok(yield* a.transfer("value", { from: side, to: OUTSIDER, value: "0x3" }, { krn: `krn:1001:wallet:${a.accountId}:account-pool:side` }))
      const [block] = yield* e.mine(1001)
      expect(block!.transactions).toHaveLength(2)
      expect((yield* e.balance(1001, side)).nonce).toBe(1)
    }).pipe(Effect.provide(clientLayer)))

  it.scoped("a revert drops the snapshots taken after its own; in-process ids are the console's", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.make({ port: 0, mining: "instant" }).pipe(Effect.orDie)
      const t = memberTx(e)
      const from = yield* t.account()
      yield* e.fund(1001, from, 1n)
      const first = yield* e.snapshot
      yield* e.fund(1001, from, 2n)
      const second = yield* e.snapshot
      yield* e.fund(1001, from, 4n)
      const third = yield* e.snapshot
      expect([first, second, third]).toEqual(["0x1", "0x2", "0x3"])
      yield* e.revert(second)
      expect((yield* e.balance(1001, from)).balance).toBe(3n)
      for (const gone of [second, third]) {
        const refused = yield* Effect.flip(e.revert(gone))
        expect(refused).toMatchObject({ _tag: "ConsoleError", reason: "InvalidInput" })
      }
      expect((yield* e.balance(1001, from)).balance).toBe(3n)
      // A snapshot after a revert takes a new id; the first still holds.
      expect(yield* e.snapshot).toBe("0x4")
      yield* e.revert(first)
      expect((yield* e.balance(1001, from)).balance).toBe(1n)
    }).pipe(Effect.provide(clientLayer)))
})

describe("the next block's time", () => {
  it.scoped("instant mining: the next block has exactly the time set, the chain's time runs on from it; a time backwards is refused, nothing changed", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.make({ port: 0, mining: "instant" }).pipe(Effect.orDie)
      const t = memberTx(e)
      const from = yield* t.account()
      yield* e.fund(1001, from, KLAY)
      const time = (body: unknown) => t.post("/_emulator/time", body)
      const blockTime = (blockNumber: string) =>
        Effect.map(t.post("/v1/klaytn", { jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: [blockNumber, false] }), (r) => Number(BigInt(ok(r).result.timestamp)))
      const send = Effect.map(t.transfer("value", { from, to: OUTSIDER, value: "0x1" }), (r) => ok(r).transactionHash as string)
      const blockOf = (hash: string) => Effect.map(t.receipt(hash), (r) => ok(r).blockNumber as string)

      const future = 2_000_000_000
      expect(ok(yield* time({ timestamp: future }))).toEqual({ timestamp: future })
      const first = yield* blockOf(yield* send)
      expect(yield* blockTime(first)).toBe(future)
      // Backwards from the latest block: refused with its words, nothing changed.
      const back = yield* time({ timestamp: future - 1 })
      expectError(back, 400, 1061615)
      expect(back.body.message).toContain("before the latest block's")
      const refused = yield* Effect.flip(e.setNextBlockTime(future - 60))
      expect(refused).toMatchObject({ _tag: "ConsoleError", reason: "InvalidInput" })
      expectError(yield* time({ timestamp: 1.5 }), 400, 1061615)
      expectError(yield* time({ timestamp: "soon" }), 400, 1061615)
      // The chain's time runs on from the time set (the test clock stands still).
      const second = yield* blockOf(yield* send)
      expect(yield* blockTime(second)).toBe(future)
      // The same time again is allowed (not before the latest block).
      yield* e.setNextBlockTime(future + 100)
      expect(yield* blockTime(yield* blockOf(yield* send))).toBe(future + 100)
      // List times keep Effect's clock (here the test clock, at 0): a multisig sender's pending
      // transaction is created and updated at it, as its signatures are, not at the chain's time.
      const signers = [ok(yield* t.request("POST", "/v2/account", undefined)), ok(yield* t.request("POST", "/v2/account", undefined))]
      ok(yield* t.request("PUT", `/v2/account/${from}/multisig`, { threshold: 2, weightedKeys: signers.map((s: any) => ({ publicKey: s.publicKey, weight: 1 })) }))
      ok(yield* t.transfer("value", { from, to: OUTSIDER, value: "0x2" }))
      const [waiting] = ok(yield* t.request("GET", `/v2/multisig/account/${from}/tx`, undefined)).items
      expect({ createdAt: waiting.createdAt, updatedAt: waiting.updatedAt }).toEqual({ createdAt: 0, updatedAt: 0 })
    }).pipe(Effect.provide(clientLayer)))
})
