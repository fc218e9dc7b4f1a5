/**
 * The emulator's own costs, measured in process: CPU time to serve one 1000-account page, and
 * sequential creates per second over HTTP, against a file database and an in-memory one; then the
 * throughput of an emulator process of its own on a file database (value transfers from 8 senders
 * at once and from 1, fee-delegated ones, creates one at a time and 8 at once), against issue 21's
 * targets; and the emulator beside anvil in the same run (start-up, transfers/s: issue 34's targets).
 *
 * The client side is a bare `node:http` keep-alive agent that only collects the body's bytes, so
 * that process CPU is almost all the emulator's; the `/health` row is the floor of one request
 * (HTTP parsing and writing on both sides), to read the page's own cost against. A create on a
 * file database commits to the WAL without waiting for the disk (`synchronous=NORMAL`): the commit
 * row is the database's part of it.
 *
 * Run alone: `node --import tsx packages/emulator/test/bench/emulator.ts` (`... emulator.ts
 * throughput`: the process's throughput only; `... emulator.ts anvil`: beside anvil only; `anvil-start`:
 * only the starts beside anvil's; `anvil-length`: only one sender over a run's length beside anvil). The
 * emulator process is the built CLI (`KAS_BENCH_BIN` for another build), the in-process one the
 * built package (`KAS_BENCH_EMULATOR_MODULE`). `KAS_BENCH_LOADS=transfers8,...` runs only those
 * loads; `KAS_BENCH_CPU_PROF=<dir>` writes a CPU profile of the emulator process (`--cpu-prof`).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import * as fs from "node:fs/promises"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { call, find as findAnvil, Version as AnvilVersion } from "./anvil.js"
import { importFloor, type InProcessStart, inProcessStart, nodeStart, type Server, startAnvil, startEffectServerFloor, startEmulatorProcess } from "./servers.js"
import * as Database from "../../src/store/Database.js"
import * as Emulator from "../../src/Emulator.js"
import { closeConnections, cpuMs, request as requestText } from "./processCpu.js"

const PAGE_ACCOUNTS = 1000
const PAGE_REQUESTS = 200
const CREATE_ROUNDS = 5
const CREATES_PER_ROUND = 200

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const spread = (xs: ReadonlyArray<number>, digits: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return `${sorted[0]!.toFixed(digits)}–${sorted[sorted.length - 1]!.toFixed(digits)}`
}

interface Running {
  readonly url: string
  readonly authorization: string
  readonly close: () => Promise<void>
}

const start = async (database: string): Promise<Running> => {
  const scope = Effect.runSync(Scope.make())
  const emulator = await Effect.runPromise(Scope.extend(Emulator.make({ port: 0, database }), scope))
  return {
    url: emulator.url,
    authorization: Redacted.value(emulator.member.authorization),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

/** One request; resolves with the status and the body's byte count (the body is not decoded). */
const request = (method: string, url: string, headers: Readonly<Record<string, string>>) =>
  new Promise<{ readonly status: number; readonly bytes: number }>((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      let bytes = 0
      res.on("data", (chunk: Buffer) => (bytes += chunk.length))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

/** CPU ms of each of `count` sequential requests, after a tenth as many untimed. */
const cpuPerRequest = async (count: number, send: () => Promise<unknown>) => {
  for (let i = 0; i < count / 10; i++) await send()
  const each: Array<number> = []
  for (let i = 0; i < count; i++) {
    const before = cpuMs()
    await send()
    each.push(cpuMs() - before)
  }
  return each
}

const percentile = (xs: ReadonlyArray<number>, p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)]!
const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length

const pageCost = async () => {
  const emulator = await start(":memory:")
  try {
    const headers = { authorization: emulator.authorization, "x-chain-id": "1001" }
    // Concurrent creates fill the pool faster than sequential ones.
    for (let i = 0; i < PAGE_ACCOUNTS; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => request("POST", `${emulator.url}/v2/account`, headers)))
    }
    const page = await request("GET", `${emulator.url}/v2/account?size=1000`, headers)
    if (page.status !== 200) throw new Error(`page answered ${page.status}`)
    const pages = await cpuPerRequest(PAGE_REQUESTS, () => request("GET", `${emulator.url}/v2/account?size=1000`, headers))
    const health = await cpuPerRequest(PAGE_REQUESTS * 5, () => request("GET", `${emulator.url}/health`, {}))
    return { pages, health, bytes: page.bytes }
  } finally {
    await emulator.close()
  }
}

const createRate = async (database: string) => {
  const emulator = await start(database)
  try {
    const headers = { authorization: emulator.authorization, "x-chain-id": "1001" }
    const create = async () => {
      const reply = await request("POST", `${emulator.url}/v2/account`, headers)
      if (reply.status !== 200) throw new Error(`create answered ${reply.status}`)
    }
    for (let i = 0; i < 50; i++) await create()
    const rates: Array<number> = []
    const cpu: Array<number> = []
    for (let round = 0; round < CREATE_ROUNDS; round++) {
      const begin = performance.now()
      const cpuBefore = cpuMs()
      for (let i = 0; i < CREATES_PER_ROUND; i++) await create()
      cpu.push((cpuMs() - cpuBefore) / CREATES_PER_ROUND)
      rates.push(CREATES_PER_ROUND / ((performance.now() - begin) / 1000))
    }
    return { rates, cpu }
  } finally {
    await emulator.close()
  }
}

/** Wall ms of one committed single-row insert into a file database opened as the emulator opens it. */
const commitLatency = async (file: string) => {
  const scope = Effect.runSync(Scope.make())
  try {
    const context = await Effect.runPromise(Layer.buildWithScope(Database.layer({ database: file }), scope))
    const sql = Context.get(context, SqlClient.SqlClient)
    await Effect.runPromise(sql`CREATE TABLE bench_commit (x TEXT)`)
    const rounds: Array<number> = []
    for (let round = 0; round < CREATE_ROUNDS; round++) {
      const begin = performance.now()
      for (let i = 0; i < CREATES_PER_ROUND; i++) await Effect.runPromise(sql`INSERT INTO bench_commit (x) VALUES (${"x".repeat(400)})`)
      rounds.push((performance.now() - begin) / CREATES_PER_ROUND)
    }
    return rounds
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/**
 * `kas-wallet emulator` (the built CLI, as a user starts it) over a fresh data directory, on a
 * free port. `KAS_BENCH_CPU_PROF=<dir>` profiles it (`--cpu-prof`).
 */
const startChild = (dataDir: string): Promise<Server> => {
  const profile = process.env.KAS_BENCH_CPU_PROF
  return startEmulatorProcess(["--data-dir", dataDir], profile !== undefined ? ["--cpu-prof", "--cpu-prof-dir", profile] : [])
}

const SENDERS = 8
const LOAD_ROUNDS = 5
const TRANSFERS_PER_SENDER = 40
const SINGLE_SENDER_TRANSFERS = 120
const CONCURRENT_CREATES = 320
const SEQUENTIAL_CREATES = 200

// The load's own keep-alive connections, one per concurrent sender.
const loadAgent = new http.Agent({ keepAlive: true, maxSockets: SENDERS })

/**
 * One request of the load: its status (the body is not decoded; a JSON-RPC answer carrying an
 * error counts as a 500).
 */
const send = (url: string, headers: Readonly<Record<string, string>>, body?: string) =>
  new Promise<number>((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      agent: loadAgent
    }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resolve(text.startsWith("{\"jsonrpc\"") && text.includes("\"error\"") ? 500 : res.statusCode ?? 0))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(body)
  })

/** Runs `workers` loops of `each` requests at once: requests a second and the child's CPU ms per request. */
const load = async (child: Server, workers: number, each: number, one: (worker: number) => Promise<number>) => {
  const begin = performance.now()
  const cpuBefore = child.cpuMs()
  await Promise.all(Array.from({ length: workers }, async (_, worker) => {
    for (let i = 0; i < each; i++) {
      const status = await one(worker)
      if (status !== 200) throw new Error(`the load got ${status}`)
    }
  }))
  const seconds = (performance.now() - begin) / 1000
  return { rate: (workers * each) / seconds, cpu: (child.cpuMs() - cpuBefore) / (workers * each) }
}

type LoadKind = "transfers8" | "transfers1" | "feeDelegated8" | "creates1" | "creates8"
const AllLoadKinds: ReadonlyArray<LoadKind> = ["transfers8", "transfers1", "feeDelegated8", "creates1", "creates8"]
// `KAS_BENCH_LOADS=transfers8,...`: only those (a profile of one load, say).
const LoadKinds = AllLoadKinds.filter((k) => process.env.KAS_BENCH_LOADS?.split(",").includes(k) ?? true)

/**
 * `SENDERS` funded accounts of a running emulator and a recipient: `transfer(route)(worker)` sends
 * 1 peb from the worker's sender (`POST /v2/tx/value` or `/v2/tx/fd/value`).
 */
const transfersOf = async (child: Server) => {
  const ok = async (route: string, body?: unknown) => {
    const reply = await requestText("POST", `${child.url}${route}`, child.headers, body)
    if (reply.status !== 200) throw new Error(`${route} answered ${reply.status}: ${reply.text}`)
    return JSON.parse(reply.text)
  }
  const senders: Array<string> = []
  for (let i = 0; i < SENDERS; i++) senders.push((await ok("/v2/account")).address)
  const to: string = (await ok("/v2/account")).address
  for (const address of senders) await ok("/_emulator/fund", { address, amount: (10n ** 24n).toString() })
  const bodies = senders.map((from) => JSON.stringify({ from, to, value: "0x1" }))
  return { transfer: (route: string) => (worker: number) => send(`${child.url}${route}`, child.headers, bodies[worker]) }
}

/**
 * Throughput of an emulator process on a file database: value transfers (1 peb, the sender paying)
 * from 8 funded senders at once and from 1, fee-delegated ones (the global fee payer) from 8, and
 * creates one at a time and 8 at once; the kinds interleaved, round after round.
 */
const throughput = async (dataDir: string) => {
  const child = await startChild(dataDir)
  try {
    const headers = child.headers
    const { transfer } = await transfersOf(child)
    const create = () => send(`${child.url}/v2/account`, headers)
    const runs: Record<LoadKind, () => ReturnType<typeof load>> = {
      transfers8: () => load(child, SENDERS, TRANSFERS_PER_SENDER, transfer("/v2/tx/value")),
      transfers1: () => load(child, 1, SINGLE_SENDER_TRANSFERS, transfer("/v2/tx/value")),
      feeDelegated8: () => load(child, SENDERS, TRANSFERS_PER_SENDER, transfer("/v2/tx/fd/value")),
      creates1: () => load(child, 1, SEQUENTIAL_CREATES, create),
      creates8: () => load(child, SENDERS, CONCURRENT_CREATES / SENDERS, create)
    }
    // Warm every path untimed.
    for (const one of [transfer("/v2/tx/value"), transfer("/v2/tx/fd/value"), create]) await load(child, SENDERS, 5, one)
    const figures = Object.fromEntries(LoadKinds.map((k) => [k, { rates: [] as Array<number>, cpu: [] as Array<number> }])) as Record<
      LoadKind,
      { rates: Array<number>; cpu: Array<number> }
    >
    for (let round = 0; round < LOAD_ROUNDS; round++) {
      // Alternate the order so that no kind always follows the same one.
      const order = round % 2 === 0 ? LoadKinds : [...LoadKinds].reverse()
      for (const kind of order) {
        const { cpu, rate } = await runs[kind]()
        figures[kind].rates.push(rate)
        figures[kind].cpu.push(cpu)
      }
    }
    return figures
  } finally {
    loadAgent.destroy()
    await child.stop()
  }
}

/** The targets of issue 21 for the emulator process on a file database. */
const TransferTarget = 300
const CreateTarget = 400

/** The throughput section: the load on an emulator process, and the targets. */
const throughputSection = async (dataDir: string): Promise<Array<string>> => {
  const loads = await throughput(dataDir)
  const rate = (kind: LoadKind) => ((loads[kind]?.rates.length ?? 0) === 0 ? Number.NaN : median(loads[kind].rates))
  const row = (label: string, kind: LoadKind) =>
    (loads[kind]?.rates.length ?? 0) === 0 ? `| ${label} | not run | | | |` : `| ${label} | ${median(loads[kind].rates).toFixed(0)}/s | ${spread(loads[kind].rates, 0)} | ${median(loads[kind].cpu).toFixed(2)} ms | ${spread(loads[kind].cpu, 2)} |`
  const verdict = (ok: boolean) => (ok ? "**met**" : "**not met**")
  return [
    "### Throughput of the emulator process (file database)",
    "",
    "`kas-wallet emulator --data-dir <fresh directory>` in a child process; the load comes from this",
    "process over `node:http` keep-alive connections (one per concurrent sender), reading no body.",
    "Transfers are `POST /v2/tx/value` (1 peb, the sender paying) or `/v2/tx/fd/value` (the global fee",
    `payer), each sender one request at a time. ${LOAD_ROUNDS} rounds of every kind, interleaved: median and spread over`,
    "the rounds; CPU is the emulator process's (from /proc) per request.",
    "",
    "| load | rate | spread | emulator CPU per request | spread |",
    "|---|---|---|---|---|",
    row(`value transfers, ${SENDERS} senders at once (${SENDERS} × ${TRANSFERS_PER_SENDER} a round)`, "transfers8"),
    row(`value transfers, 1 sender (${SINGLE_SENDER_TRANSFERS} a round)`, "transfers1"),
    row(`fee-delegated transfers (global fee payer), ${SENDERS} senders at once`, "feeDelegated8"),
    row(`creates, one at a time (${SEQUENTIAL_CREATES} a round)`, "creates1"),
    row(`creates, ${SENDERS} at once (${CONCURRENT_CREATES} a round)`, "creates8"),
    "",
    `- Target: at least ${TransferTarget} value transfers/s with ${SENDERS} senders on a file database: ${rate("transfers8").toFixed(0)}/s, ${verdict(rate("transfers8") >= TransferTarget)}.`,
    `- Target: at least ${CreateTarget} creates/s on a file database: ${rate("creates1").toFixed(0)}/s one at a time, ${rate("creates8").toFixed(0)}/s ${SENDERS} at once, ${verdict(Math.max(rate("creates1"), rate("creates8")) >= CreateTarget)}.`,
    "- Both with the same durability: nothing answered 200 is lost when the process is killed (packages/cli/test/process.test.ts)."
  ]
}

const START_ROUNDS = 7
const SIDE_ROUNDS = 5

/** A ratio's median and range over rounds: `2.10x (1.90–2.40)`. */
const ratio = (xs: ReadonlyArray<number>) => `${median(xs).toFixed(2)}x (${spread(xs, 2)})`

/** A build measured beside the current one (`KAS_BENCH_BASELINE_BIN`, `KAS_BENCH_BASELINE_MODULE`). */
const baseline = { bin: process.env.KAS_BENCH_BASELINE_BIN, module: process.env.KAS_BENCH_BASELINE_MODULE }

/** One start of a candidate: wall and CPU ms to the first answer, with the in-process parts. */
interface Started {
  readonly ms: number
  readonly cpu: number
  readonly parts?: InProcessStart
}

/**
 * Start-up beside anvil's, round after round (the order alternating): anvil from its spawn to its
 * first answer, the built `kas-wallet emulator --ephemeral` from its spawn to its first answer, and
 * a new Node process importing the built emulator package and starting `Emulator.make` (from the
 * import to the first answer, measured inside it). The first answer is an `eth_blockNumber`.
 */
const startSideBySide = async (anvil: string) => {
  const spawned = (start: () => Promise<Server>) => async (): Promise<Started> => {
    const server = await start()
    await server.stop()
    return { ms: server.startMs, cpu: server.startCpuMs }
  }
  const inProcess = (module?: string) => async (): Promise<Started> => {
    const parts = inProcessStart(module)
    return { ms: parts.totalMs, cpu: parts.cpuMs, parts }
  }
  const candidates: Array<{ readonly name: string; readonly run: () => Promise<Started> }> = [
    { name: "anvil `--port 0`: spawn to first answer", run: spawned(() => startAnvil(anvil)) },
    { name: "`kas-wallet emulator --ephemeral` (built CLI): spawn to first answer", run: spawned(() => startEmulatorProcess(["--ephemeral"])) },
    { name: "in process: `import(\"effect-kas-wallet-emulator\")` (built package) to first answer", run: inProcess() }
  ]
  if (baseline.bin !== undefined) {
    const bin = baseline.bin
    candidates.push({ name: "the same process, baseline build", run: spawned(() => startEmulatorProcess(["--ephemeral"], [], bin)) })
  }
  if (baseline.module !== undefined) candidates.push({ name: "the same in process, baseline build", run: inProcess(baseline.module) })
  // The floors of the stack the design names (Node 20, Effect 3): what any start pays at least.
  candidates.push(
    { name: "floor: `node -e 0`, spawn to exit", run: async () => {
      const started = nodeStart()
      return { ms: started.ms, cpu: started.cpuMs }
    } },
    { name: "floor: an Effect 3 HTTP server, bundled (`NodeHttpServer`, one JSON-RPC route): spawn to first answer", run: spawned(startEffectServerFloor) },
    { name: "floor in process: `import(\"effect\")` and `import(\"@effect/platform-node/NodeHttpServer\")`", run: async () => {
      const floor = importFloor()
      return { ms: floor.importMs, cpu: floor.cpuMs }
    } }
  )
  // One untimed round: the file system's cache, the builds.
  for (const candidate of candidates) await candidate.run()
  const starts = candidates.map(() => [] as Array<Started>)
  for (let round = 0; round < START_ROUNDS; round++) {
    const order = candidates.map((_, i) => i)
    for (const i of round % 2 === 0 ? order : order.reverse()) starts[i]!.push(await candidates[i]!.run())
  }
  const ms = (xs: ReadonlyArray<number>, digits = 0) => `${median(xs).toFixed(digits)} ms (${spread(xs, digits)})`
  const parts = (pick: (s: InProcessStart) => number) => starts[2]!.map((s) => pick(s.parts!))
  const rows = candidates.map((c, i) => {
    const wall = starts[i]!.map((s) => s.ms)
    const cpu = starts[i]!.map((s) => s.cpu)
    if (i === 0) return `| ${c.name} | ${ms(wall)} | 1 | ${ms(cpu)} | 1 | |`
    const toAnvil = wall.map((x, k) => x / starts[0]![k]!.ms)
    const cpuToAnvil = cpu.map((x, k) => x / starts[0]![k]!.cpu)
    const target = i < 3 ? (median(toAnvil) <= 2 ? "**met** (at most 2x)" : "**not met** (at most 2x)") : ""
    return `| ${c.name} | ${ms(wall)} | ${ratio(toAnvil)} | ${ms(cpu)} | ${ratio(cpuToAnvil)} | ${target} |`
  })
  return [
    `### Start-up beside anvil ${AnvilVersion}`,
    "",
    `${START_ROUNDS} rounds after an untimed one, the order alternating; wall time, and the process's CPU time`,
    "(user + system, its own start included) to the first answer; the ratios to anvil's are taken in each",
    "round, then their median and range. The first answer is one `eth_blockNumber` (the emulator's on",
    "`/v1/klaytn`, with its printed credentials). The floors are what any start on the stack the design",
    "names (Node 20, Effect 3) pays at least, measured in the same rounds: Node's own start, a bundled",
    "Effect HTTP server with one route and nothing of the emulator (the bench's floor/effectServer.ts), and",
    "the imports of `effect` and `@effect/platform-node/NodeHttpServer` in a new process.",
    "",
    "| start | wall: median (range) | to anvil's | CPU: median (range) | to anvil's | target |",
    "|---|---|---|---|---|---|",
    ...rows,
    `| in process, of which the import | ${ms(parts((s) => s.importMs))} | | | | |`,
    `| in process, of which \`Emulator.make\` (in-memory database) | ${ms(parts((s) => s.makeMs))} | | | | |`,
    `| in process, of which the first answer | ${ms(parts((s) => s.firstMs))} | | | | |`
  ]
}

/** A server of the transfer side by side, and how it sends a transfer from a worker's sender. */
interface Transferring {
  readonly name: string
  readonly server: Server
  readonly transfer: (worker: number) => Promise<number>
}

/** anvil, automine: `eth_sendTransaction` of 1 wei from one of its dev accounts (unlocked: it signs). */
const anvilTransfers = async (bin: string): Promise<Transferring> => {
  const server = await startAnvil(bin)
  const accounts = (await call(server.rpcUrl)("eth_accounts")) as ReadonlyArray<string>
  const to = accounts[accounts.length - 1]!
  const bodies = accounts.slice(0, SENDERS).map((from) =>
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_sendTransaction", params: [{ from, to, value: "0x1" }] })
  )
  return { name: `anvil ${AnvilVersion} (automine), \`eth_sendTransaction\``, server, transfer: (worker) => send(server.rpcUrl, {}, bodies[worker]) }
}

/** A `kas-wallet emulator` process: `POST /v2/tx/value` of 1 peb (it signs with the account's key). */
const emulatorTransfers = async (name: string, args: ReadonlyArray<string>, bin?: string): Promise<Transferring> => {
  const server = await startEmulatorProcess(args, [], bin)
  return { name, server, transfer: (await transfersOf(server)).transfer("/v2/tx/value") }
}

/**
 * Transfers/s and server CPU per transfer, from 1 sender and from 8 at once, anvil beside emulator
 * processes (each server a process of its own, running at the same time; the loads take turns),
 * round after round, the order alternating.
 */
const transfersSideBySide = async (anvil: string, dataDir: string) => {
  const servers: Array<Transferring> = [await anvilTransfers(anvil)]
  try {
    servers.push(await emulatorTransfers("`kas-wallet emulator --data-dir D` (file database, interval mining: the default)", ["--data-dir", dataDir]))
    servers.push(await emulatorTransfers("`kas-wallet emulator --ephemeral` (in memory, interval mining)", ["--ephemeral"]))
    if (baseline.bin !== undefined) {
      servers.push(await emulatorTransfers("`kas-wallet emulator --ephemeral` (in memory, interval mining), baseline build", ["--ephemeral"], baseline.bin))
    }
    // Instant mining (a block per transaction, as anvil's automine), where the build has it.
    const instantArgs = ["--ephemeral", "--mining", "instant"]
    const instant = await emulatorTransfers("`kas-wallet emulator --ephemeral --mining instant`", instantArgs).catch(() => undefined)
    if (instant !== undefined) servers.push(instant)
    if (instant !== undefined && baseline.bin !== undefined) {
      const base = await emulatorTransfers("`kas-wallet emulator --ephemeral --mining instant`, baseline build", instantArgs, baseline.bin).catch(() => undefined)
      if (base !== undefined) servers.push(base)
    }
    const loads = [
      { name: "1 sender", workers: 1, each: SINGLE_SENDER_TRANSFERS },
      { name: `${SENDERS} senders at once`, workers: SENDERS, each: TRANSFERS_PER_SENDER }
    ]
    const figures = servers.map(() => loads.map(() => ({ rates: [] as Array<number>, cpu: [] as Array<number> })))
    for (const s of servers) {
      for (const l of loads) {
        loadAgent.destroy()
        await load(s.server, l.workers, 5, s.transfer)
      }
    }
    for (let round = 0; round < SIDE_ROUNDS; round++) {
      const order = servers.map((_, i) => i)
      for (const i of round % 2 === 0 ? order : order.reverse()) {
        for (const [j, l] of loads.entries()) {
          // New connections for each load: a connection left idle while the other servers' loads
          // ran may be closed by its server (its keep-alive timeout) just as a transfer is sent on it.
          loadAgent.destroy()
          const { cpu, rate } = await load(servers[i]!.server, l.workers, l.each, servers[i]!.transfer)
          figures[i]![j]!.rates.push(rate)
          figures[i]![j]!.cpu.push(cpu)
        }
      }
    }
    const rows = servers.flatMap((s, i) =>
      loads.map((l, j) => {
        const f = figures[i]![j]!
        const toAnvil = f.rates.map((r, k) => r / figures[0]![j]!.rates[k]!)
        const cpuToAnvil = f.cpu.map((c, k) => c / figures[0]![j]!.cpu[k]!)
        const target = i === 0 ? "" : median(toAnvil) >= 1 ? "**met** (at least 1x)" : "**not met** (at least 1x)"
        return `| ${s.name} | ${l.name} | ${median(f.rates).toFixed(0)}/s (${spread(f.rates, 0)}) | ${i === 0 ? "1" : ratio(toAnvil)} | ${median(f.cpu).toFixed(2)} ms (${spread(f.cpu, 2)}) | ${i === 0 ? "1" : ratio(cpuToAnvil)} | ${target} |`
      })
    )
    // The current build against the baseline one, in each mode the baseline ran, round by round.
    const paired = servers.flatMap((s, base) => {
      if (!s.name.endsWith(", baseline build")) return []
      const current = servers.findIndex((c) => c.name === s.name.slice(0, -", baseline build".length))
      const mode = s.name.includes("instant") ? "`--ephemeral --mining instant`" : "`--ephemeral`"
      return current < 0 ? [] : loads.map((l, j) => {
        const now = figures[current]![j]!
        const then = figures[base]![j]!
        const rate = now.rates.map((r, k) => r / then.rates[k]!)
        const cpu = now.cpu.map((c, k) => c / then.cpu[k]!)
        return `- ${mode}, ${l.name}: this build / the baseline: ${ratio(rate)} the rate, ${ratio(cpu)} the CPU per transfer.`
      })
    })
    return [
      `### Transfers beside anvil ${AnvilVersion}`,
      "",
      "Value transfers over `node:http` keep-alive connections (one per sender), each sender one request",
      "at a time; the body is not decoded. anvil signs with its unlocked dev accounts",
      "(`eth_sendTransaction`, automine: a block per transaction); the emulator signs with the sending",
      "account's key (`POST /v2/tx/value`, the wallet API's own way to send, which signs on the",
      "server as anvil does: `eth_sendRawTransaction` would move the signing into the load).",
      `${SIDE_ROUNDS} rounds after an untimed warm-up, the servers' order alternating; the ratios to anvil are`,
      "taken in each round, then their median and range. CPU is the server process's (from /proc) per transfer.",
      "",
      "| server | senders | transfers/s (range) | to anvil's rate | server CPU per transfer (range) | to anvil's CPU | target |",
      "|---|---|---|---|---|---|---|",
      ...rows,
      ...(paired.length === 0 ? [] : ["", ...paired])
    ]
  } finally {
    await Promise.all(servers.map((s) => s.server.stop()))
  }
}

const LENGTH_PAIRS = 2
const LENGTH_ROUNDS = 12

/**
 * One sender over a run's length: a new anvil and a new `--ephemeral --mining instant` emulator,
 * nothing sent before, taking turns round after round. The rate from one sender depends on how
 * far into its run each server is: the emulator's JIT warms up over its first hundreds of
 * transfers, while anvil's cost per transfer grows with its chain (measured on 2026-11-29: 1.1 →
 * 5-6 ms of CPU over 2000 transfers). The table says where they cross.
 */
const runLengthSideBySide = async (anvil: string) => {
  const pairs: Array<Array<{ readonly anvil: { rate: number; cpu: number }; readonly emulator: { rate: number; cpu: number } }>> = []
  for (let p = 0; p < LENGTH_PAIRS; p++) {
    const servers: Array<Transferring> = []
    try {
      // Started inside the try: an emulator that fails to start still stops the anvil before it.
      servers.push(await anvilTransfers(anvil))
      servers.push(await emulatorTransfers("", ["--ephemeral", "--mining", "instant"]))
      const rounds: (typeof pairs)[number] = []
      for (let round = 0; round < LENGTH_ROUNDS; round++) {
        const order = round % 2 === 0 ? servers : [...servers].reverse()
        const figures = new Map<Transferring, { rate: number; cpu: number }>()
        for (const s of order) {
          loadAgent.destroy()
          figures.set(s, await load(s.server, 1, SINGLE_SENDER_TRANSFERS, s.transfer))
        }
        rounds.push({ anvil: figures.get(servers[0]!)!, emulator: figures.get(servers[1]!)! })
      }
      pairs.push(rounds)
    } finally {
      await Promise.all(servers.map((s) => s.server.stop()))
    }
  }
  const both = (f: (p: (typeof pairs)[number][number]) => number, digits: number) => (round: number) =>
    pairs.map((rounds) => f(rounds[round]!).toFixed(digits)).join("; ")
  return [
    `### One sender over a run's length, beside anvil ${AnvilVersion}`,
    "",
    `A new anvil (automine) and a new \`kas-wallet emulator --ephemeral --mining instant\`, nothing sent`,
    `before, taking turns: ${LENGTH_ROUNDS} rounds of ${SINGLE_SENDER_TRANSFERS} value transfers from one sender each, the order`,
    `alternating; ${LENGTH_PAIRS} such pairs, their figures separated by \`;\`. The rate from one sender depends on how`,
    "far into its run each server is: the emulator's JIT warms up over its first hundreds of transfers,",
    "while anvil's cost per transfer grows with its chain.",
    "",
    "| transfers sent by then | anvil: transfers/s | anvil: CPU per transfer | emulator: transfers/s | emulator: CPU per transfer | emulator / anvil (rate) |",
    "|---|---|---|---|---|---|",
    ...Array.from({ length: LENGTH_ROUNDS }, (_, round) =>
      `| ${(round + 1) * SINGLE_SENDER_TRANSFERS} | ${both((r) => r.anvil.rate, 0)(round)} | ${both((r) => r.anvil.cpu, 2)(round)} ms | ${both((r) => r.emulator.rate, 0)(round)} | ${both((r) => r.emulator.cpu, 2)(round)} ms | ${both((r) => r.emulator.rate / r.anvil.rate, 2)(round)} |`)
  ]
}

/**
 * The emulator beside anvil (start-up, transfers), or why not (no anvil).
 */
const sideBySideSection = async (dataDir: string, parts: { readonly transfers: boolean } = { transfers: true }): Promise<Array<string>> => {
  const anvil = findAnvil()
  if (anvil === undefined) {
    return ["## Emulator beside anvil", "", `Not measured: no anvil (KAS_BENCH_ANVIL, nor @foundry-rs/anvil@${AnvilVersion} installed or installable).`]
  }
  return [
    "## Emulator beside anvil",
    "",
    "anvil (Foundry's dev node, installed on demand outside the repository) is the reference a user",
    "of Ethereum tooling starts their tests against. Issue 34's targets: each start at most 2x",
    "anvil's, transfers/s with 1 and with 8 senders at least anvil's, all measured in the same run.",
    "",
    ...(await startSideBySide(anvil)),
    ...(parts.transfers ? ["", ...(await transfersSideBySide(anvil, dataDir)), "", ...(await runLengthSideBySide(anvil))] : [])
  ]
}

/**
 * Runs the emulator benchmark; returns a markdown section.
 */
export const run = async (): Promise<Array<string>> => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kas-emu-bench-"))
  try {
    const page = await pageCost()
    const file = await createRate(path.join(dir, "bench.db"))
    const memory = await createRate(":memory:")
    const commit = await commitLatency(path.join(dir, "commit.db"))
    return [
      "## Emulator",
      "",
      "Emulator in process, a bare `node:http` keep-alive client that does not decode bodies, one",
      `request at a time. Page and \`/health\`: the process CPU of each of ${PAGE_REQUESTS} (\`/health\`: ${PAGE_REQUESTS * 5}) requests,`,
      "median and 10th–90th percentiles; the mean includes the garbage collector's runs, which land on",
      `some requests. Creates: ${CREATE_ROUNDS} rounds of ${CREATES_PER_ROUND}, median and spread over the rounds.`,
      "",
      "| measure | median | spread | mean |",
      "|---|---|---|---|",
      `| process CPU per 1000-account page request (${Math.round(page.bytes / 1024)} KiB) | ${percentile(page.pages, 0.5).toFixed(2)} ms | ${percentile(page.pages, 0.1).toFixed(2)}–${percentile(page.pages, 0.9).toFixed(2)} | ${mean(page.pages).toFixed(2)} ms |`,
      `| process CPU per \`/health\` request (the floor of any request) | ${percentile(page.health, 0.5).toFixed(3)} ms | ${percentile(page.health, 0.1).toFixed(3)}–${percentile(page.health, 0.9).toFixed(3)} | ${mean(page.health).toFixed(3)} ms |`,
      `| sequential creates over HTTP, file database | ${median(file.rates).toFixed(0)}/s | ${spread(file.rates, 0)} | |`,
      `| process CPU per create, file database | ${median(file.cpu).toFixed(2)} ms | ${spread(file.cpu, 2)} | |`,
      `| sequential creates over HTTP, \`:memory:\` | ${median(memory.rates).toFixed(0)}/s | ${spread(memory.rates, 0)} | |`,
      `| process CPU per create, \`:memory:\` | ${median(memory.cpu).toFixed(2)} ms | ${spread(memory.cpu, 2)} | |`,
      `| one committed insert into a file database (the database's part of a create there) | ${median(commit).toFixed(2)} ms | ${spread(commit, 2)} | |`,
      "",
      ...(await throughputSection(path.join(dir, "process"))),
      "",
      ...(await sideBySideSection(path.join(dir, "beside")))
    ]
  } finally {
    agent.destroy()
    closeConnections()
    await fs.rm(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `throughput`: only the emulator process's throughput; `anvil`: only beside anvil; `anvil-start`:
  // only the starts beside anvil's (quicker, while working on them); `anvil-length`: only one sender
  // over a run's length beside anvil.
  const only = process.argv[2]
  if (only === "anvil-length") {
    const anvil = findAnvil()
    if (anvil === undefined) throw new Error(`no anvil: not found nor installable (set KAS_BENCH_ANVIL to its binary)`)
    try {
      console.log((await runLengthSideBySide(anvil)).join("\n"))
    } finally {
      closeConnections()
    }
  } else if (only === "throughput" || only === "anvil" || only === "anvil-start") {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kas-emu-bench-"))
    try {
      const section = only === "throughput" ? throughputSection(dir) : sideBySideSection(dir, { transfers: only === "anvil" })
      console.log((await section).join("\n"))
    } finally {
      closeConnections()
      await fs.rm(dir, { recursive: true, force: true })
    }
  } else {
    console.log((await run()).join("\n"))
  }
}
