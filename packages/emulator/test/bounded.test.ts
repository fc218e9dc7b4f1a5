/**
 * The bounded EVM (issue 33): a contract that never halts — a loop over dense JUMPDESTs, written
 * by hand (fixtures/bomb.ts) — runs in a worker thread for at most its time budget (200 ms here), while the
 * emulator goes on answering everyone else; each way of running it ends with what a node answers:
 * `eth_call` and `eth_estimateGas` with go-ethereum's `execution aborted (timeout = 200ms)`, the
 * other calls of a batch whose budget is spent with `-32002 request timed out`, `contract/call`
 * and a contract transaction with 1065001 in the node's words (the transaction refused before it
 * is accepted: nothing changes); in manual mining, where the run comes at mining, the
 * transaction is committed failed and the block goes on.
 *
 * Nothing here waits for a length of time: the test waits for a run to be under way in a worker
 * (`Workers.whenUnderWay`) and for answers.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as Workers from "../src/chain/evm/Workers.js"
import * as Reasons from "../src/chain/Reasons.js"
import * as Emulator from "../src/Emulator.js"
import { BOMB_CREATION, LATCHED_BOMB_CREATION } from "./fixtures/bomb.js"

const KLAY = 10n ** 18n
const ABORTED = "execution aborted (timeout = 200ms)"

interface Reply {
  readonly status: number
  readonly body: any
}

/** A member's view of the emulator over plain HTTP: its routes and the node's JSON-RPC. */
const client = (url: string, authorization: string) => {
  const call = (method: string, path: string, body?: unknown): Promise<Reply> =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization, "x-chain-id": "1001", ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {})
    }).then(async (r) => ({ status: r.status, body: await r.text().then((t) => (t === "" ? undefined : JSON.parse(t))) }))
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await call(method, path, body)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body
  }
  return {
    call,
    rpc: (payload: unknown) => call("POST", "/v1/klaytn", payload),
    ok,
    /**
     * `ok` for a transaction whose run at acceptance halts at once (a deploy, a harmless call)
     * but may still overrun the 200 ms budget on a loaded machine: a worker's first run compiles
     * the engine, and a worker stopped by a budget is replaced by a new one. Such a refusal
     * changes nothing (as the tests below check), so it is sent again, at most 5 times.
     */
    accepted: async (path: string, body: unknown) => {
      for (let attempt = 1; ; attempt++) {
        const reply = await call("POST", path, body)
        const overran = reply.status === 400 && String(reply.body?.message).includes(ABORTED)
        if (overran && attempt < 5) continue
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        return reply.body
      }
    }
  }
}

const rpcCall = (id: number, method: string, params: ReadonlyArray<unknown>) => ({ jsonrpc: "2.0", id, method, params })

/** An emulator with a 200 ms budget, its member's client, and a bomb deployed by a funded account. */
const setUp = (options: Parameters<typeof Emulator.make>[0] = {}) =>
  Effect.gen(function*() {
    const e = yield* Emulator.make({ port: 0, blockInterval: "10 millis", evm: { timeout: "200 millis", workers: 2 }, ...options }).pipe(Effect.orDie)
    const own = client(e.url, Redacted.value(e.member.authorization))
    return yield* Effect.promise(async () => {
      const from: string = (await own.ok("POST", "/v2/account")).address
      await Effect.runPromise(e.fund(1001, from, 100n * KLAY))
      const deployed = await own.accepted("/v2/tx/contract/deploy", { from, input: BOMB_CREATION, gas: 500_000 })
      if (e.mining === "manual") await Effect.runPromise(e.mine(1001))
      let receipt: any
      do receipt = await own.ok("GET", `/v2/tx/${deployed.transactionHash}`)
      while (receipt.status === "Pending")
      expect(receipt.status).toBe("Committed")
      return { e, own, from, bomb: receipt.contractAddress as string }
    })
  })

describe("a contract that never halts", () => {
  it.scopedLive("while batches of bombs run, /health, another member's getAccount and transfers are answered; every bomb ends with a node's error, no 5xx", () =>
    Effect.gen(function*() {
      const { bomb, e, own } = yield* setUp()
      const otherMember = yield* Effect.orDie(e.createMember())
      const otherKey = yield* Effect.orDie(e.createKey(otherMember.accountId))
      const other = client(e.url, Redacted.value(otherKey.authorization))
      yield* Effect.promise(async () => {
        const a: string = (await other.ok("POST", "/v2/account")).address
        const b: string = (await other.ok("POST", "/v2/account")).address
        await Effect.runPromise(e.fund(1001, a, 10n * KLAY))

        // 3 batches of 100 bombs, sent together and not awaited yet.
        const batch = Array.from({ length: 100 }, (_, i) => rpcCall(i, "eth_call", [{ to: bomb, data: "0x" }, "latest"]))
        let settled = 0
        const batches = Array.from({ length: 3 }, () => own.rpc(batch).finally(() => void settled++))

        // Once a bomb is under way in a worker: the other member is served until the batches end.
        await Workers.whenUnderWay()
        const served = { health: 0, duringRun: 0, getAccount: 0, transfers: 0 }
        let last: string | undefined
        while (settled < batches.length) {
          const health = await other.call("GET", "/health")
          expect(health.status).toBe(200)
          served.health++
          // Answered while a contract ran: the event loop was free.
          if (Workers.underWay() > 0) served.duringRun++
          expect((await other.ok("GET", `/v2/account/${a}`)).address).toBe(a)
          served.getAccount++
          last = (await other.ok("POST", "/v2/tx/value", { from: a, to: b, value: "0x1" })).transactionHash
          served.transfers++
        }
        expect(served.duringRun, JSON.stringify(served)).toBeGreaterThan(0)

        // Each batch: its first bomb stopped by its own budget (which spends the batch's), the
        // other 99 answered as go-ethereum answers the calls of a batch out of time.
        for (const reply of await Promise.all(batches)) {
          expect(reply.status).toBe(200)
          expect(reply.body).toHaveLength(100)
          const errors = (reply.body as Array<any>).map((r) => r.error)
          expect(errors.every((error) => error !== undefined)).toBe(true)
          expect(errors[0]).toEqual({ code: -32000, message: ABORTED })
          expect(errors.slice(1).every((error) => error.code === -32002 && error.message === "request timed out")).toBe(true)
        }
        // The transfers all went through, once the last one's block is made (10 ms blocks).
        while (last !== undefined && (await other.ok("GET", `/v2/tx/${last}`)).status === "Pending") {
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
        const balance = await other.rpc(rpcCall(1, "eth_getBalance", [b, "latest"]))
        expect(BigInt(balance.body.result)).toBe(BigInt(served.transfers))
      })
    }), 60_000)

  it.scopedLive("each way of running it ends in its budget with the node's answer; a transaction over budget changes nothing", () =>
    Effect.gen(function*() {
      const { bomb, from, own } = yield* setUp()
      yield* Effect.promise(async () => {
        // One call, and a gas estimate (its runs share one budget).
        const called = await own.rpc(rpcCall(1, "eth_call", [{ to: bomb }, "latest"]))
        expect(called.body.error).toEqual({ code: -32000, message: ABORTED })
        const estimated = await own.rpc(rpcCall(2, "klay_estimateGas", [{ to: bomb }]))
        expect(estimated.body.error).toEqual({ code: -32000, message: ABORTED })

        // The wallet's read-only call: the service's code for the node's failures.
        const viaWallet = await own.call("POST", "/v2/tx/contract/call", { to: bomb, data: { methodName: "anything" } })
        expect(viaWallet.status).toBe(400)
        expect(viaWallet.body.code).toBe(1065001)
        expect(viaWallet.body.message).toBe(`failed to call a contract on klaytn node; -32000::${ABORTED}`)

        // A transaction: refused before it is accepted, nothing applied.
        const state = async () =>
          Promise.all(["eth_getBalance", "eth_getTransactionCount"].map((m, i) => own.rpc(rpcCall(i, m, [from, "latest"])).then((r) => r.body.result)))
        const before = await state()
        const executed = await own.call("POST", "/v2/tx/contract/execute", { from, to: bomb, input: "0x", gas: 30_000_000 })
        expect(executed.status).toBe(400)
        expect(executed.body.code).toBe(1065001)
        expect(executed.body.message).toBe(`failed to send a raw transaction to klaytn node; -32000::${ABORTED}`)
        expect(await state()).toEqual(before)
      })
    }), 60_000)

  it.scopedLive("within its gas the loop ends as any other: out of gas, whatever the time", () =>
    Effect.gen(function*() {
      // A budget no run here reaches, so that gas alone ends them (a cold worker on a loaded
      // machine may take longer than 200 ms for 100,000 gas).
      const { bomb, own } = yield* setUp({ evm: { timeout: "10 minutes", workers: 1 } })
      yield* Effect.promise(async () => {
        const capped = await own.rpc(rpcCall(3, "eth_call", [{ to: bomb, gas: "0x186a0" }, "latest"]))
        expect(capped.body.error).toEqual({ code: -32000, message: "out of gas" })
      })
    }), 60_000)

  it.scopedLive("interval and manual mining run a transaction at its block: one over budget then is refused before it is accepted, by a run at acceptance after every other check", () =>
    Effect.gen(function*() {
      for (const mining of ["manual", "interval"] as const) {
        const { bomb, from, own } = yield* setUp({ mining })
        yield* Effect.promise(async () => {
          // Refused by the node before it is accepted, for `reason`.
          const refused = async (path: string, body: unknown, reason: string) => {
            const reply = await own.call("POST", path, body)
            expect([mining, reply.status, reply.body.code, reply.body.message]).toEqual([
              mining,
              400,
              1065001,
              `failed to send a raw transaction to klaytn node; -32000::${reason}`
            ])
          }
          // A transaction another check refuses (here its sender's funds) is refused for that, at
          // once: the run comes after every other check, and never runs for it.
          const unfunded: string = (await own.ok("POST", "/v2/account")).address
          await refused("/v2/tx/contract/execute", { from: unfunded, to: bomb, input: "0x", gas: 30_000_000 }, Reasons.SenderFunds)
          const nonce = async () => (await own.rpc(rpcCall(1, "eth_getTransactionCount", [from, "pending"]))).body.result
          const before = await nonce()
          await refused("/v2/tx/contract/execute", { from, to: bomb, input: "0x", gas: 30_000_000 }, ABORTED)
          // A legacy transaction to the contract runs its code too, data or none: refused the same
          // way (in one mode: acceptance is the same code in both, and each run to the budget costs
          // a worker thread's restart).
          if (mining === "manual") await refused("/v2/tx/legacy", { from, to: bomb, value: "0x0", gas: 30_000_000 }, ABORTED)
          // Nothing entered the pool.
          expect(await nonce()).toBe(before)
        })
      }
    }), 60_000)

  it.scopedLive("in manual mining a run that only a block finds over budget (a latch set by the transaction before it) is committed failed, and the block goes on", () =>
    Effect.gen(function*() {
      const { e, from, own } = yield* setUp({ mining: "manual" })
      const latched = yield* Effect.promise(async () => {
        const deployed = await own.accepted("/v2/tx/contract/deploy", { from, input: LATCHED_BOMB_CREATION, gas: 500_000 })
        await Effect.runPromise(e.mine(1001))
        return (await own.ok("GET", `/v2/tx/${deployed.transactionHash}`)).contractAddress as string
      })
      const [latch, stuck, after] = yield* Effect.promise(async () => [
        await own.accepted("/v2/tx/contract/execute", { from, to: latched, input: "0x01", gas: 100_000 }),
        // Harmless on the state it is accepted on: the latch is not set yet.
        await own.accepted("/v2/tx/contract/execute", { from, to: latched, input: "0x", gas: 30_000_000 }),
        await own.ok("POST", "/v2/tx/value", { from, to: (await own.ok("POST", "/v2/account")).address, value: "0x1" })
      ])
      expect(stuck.status).toBe("Submitted")
      const [block] = yield* Effect.orDie(e.mine(1001))
      expect(block!.transactions).toEqual([latch.transactionHash, stuck.transactionHash, after.transactionHash])
      yield* Effect.promise(async () => {
        expect((await own.ok("GET", `/v2/tx/${latch.transactionHash}`)).status).toBe("Committed")
        const failed = await own.ok("GET", `/v2/tx/${stuck.transactionHash}`)
        expect(failed.status).toBe("CommitError")
        expect(failed.txError).toBe("0x2")
        expect((await own.ok("GET", `/v2/tx/${after.transactionHash}`)).status).toBe("Committed")
      })
    }), 60_000)
})
