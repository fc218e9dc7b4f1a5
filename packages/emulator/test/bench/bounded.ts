/**
 * The bounded EVM under attack: while 5 JSON-RPC batches of 100 `eth_call`s of a contract that
 * never halts (fixtures/bomb.ts) run, another member's `/health`, `getAccount` and transfers go
 * on being served. Its latencies are set beside the same requests on the idle emulator, in the
 * same process and run; the emulator has its shipped bounds (50M gas, 5 s, its default workers).
 *
 * Run alone: `node --import tsx packages/emulator/test/bench/bounded.ts`.
 */
import { Effect, Exit, Redacted, Scope } from "effect"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Emulator from "../../src/Emulator.js"
import { BOMB_CREATION } from "../fixtures/bomb.js"
import { closeConnections, request } from "./processCpu.js"

const BATCHES = 5
const PER_BATCH = 100
const KLAY = 10n ** 18n

type Probe = "health" | "getAccount" | "transfer"

const percentile = (xs: ReadonlyArray<number>, p: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const measure = async () => {
  const scope = Effect.runSync(Scope.make())
  const e = await Effect.runPromise(Scope.extend(Emulator.make({ port: 0, database: ":memory:", ...(process.env.BOUNDED_WORKERS ? { evm: { workers: Number(process.env.BOUNDED_WORKERS) } } : {}) }), scope))
  try {
    const headersOf = (authorization: Redacted.Redacted<string>) => ({ authorization: Redacted.value(authorization), "x-chain-id": "1001" })
    const own = headersOf(e.member.authorization)
    const other = headersOf((await Effect.runPromise(Effect.flatMap(e.createMember(), (m) => e.createKey(m.accountId)))).authorization)
    let fivexx = 0
    const ok = async (headers: Record<string, string>, method: string, route: string, body?: unknown) => {
      const reply = await request(method, `${e.url}${route}`, headers, body)
      if (reply.status >= 500) fivexx++
      if (reply.status !== 200) throw new Error(`${route} answered ${reply.status}: ${reply.text}`)
      return reply.text === "" ? undefined : JSON.parse(reply.text)
    }
    const from: string = (await ok(own, "POST", "/v2/account")).address
    await Effect.runPromise(e.fund(1001, from, 100n * KLAY))
    const deployed = await ok(own, "POST", "/v2/tx/contract/deploy", { from, input: BOMB_CREATION, gas: 500_000 })
    let receipt: any
    do receipt = await ok(own, "GET", `/v2/tx/${deployed.transactionHash}`)
    while (receipt.status === "Pending")
    const bomb: string = receipt.contractAddress

    const a: string = (await ok(other, "POST", "/v2/account")).address
    const b: string = (await ok(other, "POST", "/v2/account")).address
    await Effect.runPromise(e.fund(1001, a, 10n * KLAY))

    const probe = async (into: Record<Probe, Array<number>>) => {
      const timed = async (kind: Probe, send: () => Promise<unknown>) => {
        const t0 = performance.now()
        await send()
        into[kind].push(performance.now() - t0)
      }
      await timed("health", () => ok(other, "GET", "/health"))
      await timed("getAccount", () => ok(other, "GET", `/v2/account/${a}`))
      await timed("transfer", () => ok(other, "POST", "/v2/tx/value", { from: a, to: b, value: "0x1" }))
    }

    // Under attack: the batches over their own connections, the probes in turn until they end.
    const attacked: Record<Probe, Array<number>> = { health: [], getAccount: [], transfer: [] }
    const batch = JSON.stringify(Array.from({ length: PER_BATCH }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_call", params: [{ to: bomb, data: "0x" }, "latest"] })))
    const t0 = performance.now()
    let running = BATCHES
    const batches = Array.from({ length: BATCHES }, () =>
      fetch(`${e.url}/v1/klaytn`, { method: "POST", headers: { ...own, "content-type": "application/json" }, body: batch })
        .then(async (r) => {
          if (r.status >= 500) fivexx++
          const replies = (await r.json()) as Array<{ error?: { code: number; message: string } }>
          return { ms: performance.now() - t0, errors: replies.map((x) => x.error) }
        })
        .finally(() => void running--))
    while (running > 0) await probe(attacked)
    const answered = await Promise.all(batches)

    // Idle: as many rounds of the same probes.
    const idle: Record<Probe, Array<number>> = { health: [], getAccount: [], transfer: [] }
    for (let i = 0; i < attacked.health.length; i++) await probe(idle)

    // The last transfers wait in the pool for their block (interval mining): the balance is read
    // until it holds them all, or for 5 blocks.
    const transfers = attacked.transfer.length + idle.transfer.length
    const balanceOf = async () =>
      BigInt(JSON.parse((await request("POST", `${e.url}/v1/klaytn`, other, { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [b, "latest"] })).text).result)
    let applied = await balanceOf()
    for (let i = 0; i < 50 && applied !== BigInt(transfers); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      applied = await balanceOf()
    }
    return { attacked, idle, answered, fivexx, transfersApplied: applied === BigInt(transfers), transfers }
  } finally {
    closeConnections()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/**
 * Runs the bounded-EVM benchmark; returns a markdown section.
 */
export const run = async (): Promise<Array<string>> => {
  const m = await measure()
  const bombs = m.answered.flatMap((x) => x.errors)
  const aborted = bombs.filter((x) => x?.code === -32000 && x.message.startsWith("execution aborted (timeout = ")).length
  const timedOut = bombs.filter((x) => x?.code === -32002 && x.message === "request timed out").length
  const row = (kind: Probe, target: string) => {
    const p99 = percentile(m.attacked[kind], 99)
    const idle99 = percentile(m.idle[kind], 99)
    return `| ${kind} | ${m.attacked[kind].length} | ${percentile(m.attacked[kind], 50).toFixed(1)} | ${p99.toFixed(1)} | ${Math.max(...m.attacked[kind]).toFixed(1)} | ${idle99.toFixed(1)} | ${(p99 / idle99).toFixed(2)}x | ${target} |`
  }
  const health99 = percentile(m.attacked.health, 99)
  const get99 = percentile(m.attacked.getAccount, 99)
  return [
    "## The bounded EVM under gas bombs",
    "",
    `${BATCHES} JSON-RPC batches of ${PER_BATCH} \`eth_call\`s of a contract that never halts (a loop over 1000`,
    "JUMPDESTs), sent at once by one member, against an in-process emulator with its shipped bounds (50M gas,",
    "5 s a run and a batch, its default workers: the cores less one, at most two); meanwhile another member's `/health`, `getAccount` and",
    "value transfer, one after another over keep-alive HTTP, until the last batch answers; then as many",
    "rounds of the same on the idle emulator. Latencies in ms; the ratio is p99 under attack to p99 idle.",
    "",
    "| request | count | p50 | p99 | max | p99 idle | ratio | target |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    row("health", `p99 < 100 ms: ${health99 < 100 ? "**met**" : "**not met**"}`),
    row("getAccount", `p99 < 100 ms: ${get99 < 100 ? "**met**" : "**not met**"}`),
    row("transfer", "all succeed"),
    "",
    `Bombs: ${bombs.length} answered, ${aborted} \`-32000 execution aborted (timeout = 5s)\` (each batch's`,
    `first call, stopped by its own budget), ${timedOut} \`-32002 request timed out\` (the calls of a batch whose`,
    `budget is spent, as go-ethereum answers them); batches answered after ${m.answered.map((x) => (x.ms / 1000).toFixed(1)).join(", ")} s;`,
    `${m.fivexx}×5xx; the other member's ${m.transfers} transfers ${m.transfersApplied ? "all applied" : "**not all applied**"}.`,
    "Before issue 33 the same EVM ran on the event loop: a batch of 5 bombs froze every member for 41 s."
  ]
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log((await run()).join("\n"))
}
