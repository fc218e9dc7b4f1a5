/**
 * The emulator's own costs, measured in process: CPU time to serve one 1000-account page, and
 * sequential creates per second over HTTP, against a file database and an in-memory one; then the
 * throughput of an emulator process of its own on a file database (value transfers from 8 senders
 * at once and from 1, fee-delegated ones, creates one at a time and 8 at once), against issue 21's
 * targets.
 *
 * The client side is a bare `node:http` keep-alive agent that only collects the body's bytes, so
 * that process CPU is almost all the emulator's; the `/health` row is the floor of one request
 * (HTTP parsing and writing on both sides), to read the page's own cost against. A create on a
 * file database commits to the WAL without waiting for the disk (`synchronous=NORMAL`): the commit
 * row is the database's part of it.
 *
 * Run alone: `node --import tsx packages/emulator/test/bench/emulator.ts` (`... emulator.ts
 * throughput`: the process's throughput only). `KAS_BENCH_LOADS=transfers8,...` runs only those
 * loads; `KAS_BENCH_CPU_PROF=<dir>` writes a CPU profile of the emulator process (`--cpu-prof`).
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import * as fs from "node:fs/promises"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
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

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..")

/** A `kas-wallet emulator` process of the benchmark. */
interface Child {
  readonly url: string
  readonly authorization: string
  /** The process's CPU time so far (user + system, ms), from /proc. */
  readonly cpuMs: () => number
  /** SIGTERM, then waits for the exit (a CPU profile is written then). */
  readonly stop: () => Promise<void>
}

/**
 * `kas-wallet emulator` (from source, as `npm start` runs it) over a fresh data directory, on a
 * free port; its settings from its output. `KAS_BENCH_CPU_PROF=<dir>` profiles it (`--cpu-prof`).
 */
const startChild = (dataDir: string): Promise<Child> =>
  new Promise((resolve, reject) => {
    const profile = process.env.KAS_BENCH_CPU_PROF
    const child = spawn(
      process.execPath,
      [
        ...(profile !== undefined ? ["--cpu-prof", "--cpu-prof-dir", profile] : []),
        "--import",
        "tsx",
        path.join(root, "packages/cli/src/bin.ts"),
        "emulator",
        "--data-dir",
        dataDir,
        "--port",
        "0"
      ],
      { cwd: root, stdio: ["ignore", "pipe", "inherit"] }
    )
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    let out = ""
    child.once("error", reject)
    child.stdout.on("data", (d: Buffer) => {
      out += String(d)
      const url = /^listening on (\S+)$/m.exec(out)?.[1]
      const authorization = /^authorization: (Basic \S+)$/m.exec(out)?.[1]
      if (url !== undefined && authorization !== undefined) {
        resolve({
          url,
          authorization,
          cpuMs: () => {
            // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 a second).
            const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
            return (Number(fields[11]) + Number(fields[12])) * 10
          },
          stop: () => {
            child.kill("SIGTERM")
            return exited
          }
        })
      }
    })
  })

const SENDERS = 8
const LOAD_ROUNDS = 5
const TRANSFERS_PER_SENDER = 40
const SINGLE_SENDER_TRANSFERS = 120
const CONCURRENT_CREATES = 320
const SEQUENTIAL_CREATES = 200

// The load's own keep-alive connections, one per concurrent sender.
const loadAgent = new http.Agent({ keepAlive: true, maxSockets: SENDERS })

/** One request of the load: its status only (the body is read, not decoded). */
const send = (url: string, headers: Readonly<Record<string, string>>, body?: string) =>
  new Promise<number>((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      agent: loadAgent
    }, (res) => {
      res.on("data", () => undefined)
      res.on("end", () => resolve(res.statusCode ?? 0))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(body)
  })

/** Runs `workers` loops of `each` requests at once: requests a second and the child's CPU ms per request. */
const load = async (child: Child, workers: number, each: number, one: (worker: number) => Promise<number>) => {
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
 * Throughput of an emulator process on a file database: value transfers (1 peb, the sender paying)
 * from 8 funded senders at once and from 1, fee-delegated ones (the global fee payer) from 8, and
 * creates one at a time and 8 at once; the kinds interleaved, round after round.
 */
const throughput = async (dataDir: string) => {
  const child = await startChild(dataDir)
  try {
    const headers = { authorization: child.authorization, "x-chain-id": "1001" }
    const ok = async (route: string, body?: unknown) => {
      const reply = await requestText("POST", `${child.url}${route}`, headers, body)
      if (reply.status !== 200) throw new Error(`${route} answered ${reply.status}: ${reply.text}`)
      return JSON.parse(reply.text)
    }
    const senders: Array<string> = []
    for (let i = 0; i < SENDERS; i++) senders.push((await ok("/v2/account")).address)
    const to: string = (await ok("/v2/account")).address
    for (const address of senders) await ok("/_emulator/fund", { address, amount: (10n ** 24n).toString() })
    const bodies = senders.map((from) => JSON.stringify({ from, to, value: "0x1" }))
    const transfer = (route: string) => (worker: number) => send(`${child.url}${route}`, headers, bodies[worker])
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
  const rate = (kind: LoadKind) => (loads[kind].rates.length === 0 ? Number.NaN : median(loads[kind].rates))
  const row = (label: string, kind: LoadKind) =>
    loads[kind].rates.length === 0 ? `| ${label} | not run | | | |` : `| ${label} | ${median(loads[kind].rates).toFixed(0)}/s | ${spread(loads[kind].rates, 0)} | ${median(loads[kind].cpu).toFixed(2)} ms | ${spread(loads[kind].cpu, 2)} |`
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
      ...(await throughputSection(path.join(dir, "process")))
    ]
  } finally {
    agent.destroy()
    closeConnections()
    await fs.rm(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `throughput`: only the emulator process's throughput (quicker, while working on it).
  if (process.argv[2] === "throughput") {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kas-emu-bench-"))
    try {
      console.log((await throughputSection(dir)).join("\n"))
    } finally {
      closeConnections()
      await fs.rm(dir, { recursive: true, force: true })
    }
  } else {
    console.log((await run()).join("\n"))
  }
}
