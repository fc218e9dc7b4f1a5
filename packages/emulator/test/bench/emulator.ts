/**
 * The emulator's own costs, measured in process: CPU time to serve one 1000-account page, and
 * sequential creates per second over HTTP, against a file database and an in-memory one.
 *
 * The client side is a bare `node:http` keep-alive agent that only collects the body's bytes, so
 * that process CPU is almost all the emulator's; the `/health` row is the floor of one request
 * (HTTP parsing and writing on both sides), to read the page's own cost against. A create on a
 * file database waits for its commit to reach the disk (`synchronous=FULL`): the commit row is that
 * floor, on the same disk at the same time.
 *
 * Run alone: `node --import tsx test/bench/emulator.ts`.
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import * as fs from "node:fs/promises"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Database from "../../src/store/Database.js"
import * as Emulator from "../../src/Emulator.js"

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

const cpuMs = () => {
  const { system, user } = process.cpuUsage()
  return (user + system) / 1000
}

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
      `| one committed insert into a file database (the disk's part of a create there) | ${median(commit).toFixed(2)} ms | ${spread(commit, 2)} | |`
    ]
  } finally {
    agent.destroy()
    await fs.rm(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log((await run()).join("\n"))
}
