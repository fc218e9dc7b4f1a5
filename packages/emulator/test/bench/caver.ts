/**
 * Side by side with the official JavaScript client (caver-js-ext-kas 1.12, installed on demand
 * into a cache folder, never a dependency) against the same emulator, run as a process of its own
 * (`kas-wallet emulator`, file database):
 * - reads, over a data directory seeded once with 20,000 accounts and kept in node_modules/.cache:
 *   getAccount, one page of 1000, all 20,000 in pages of 1000 (the client's stream, full decoding
 *   and read-ahead, against `getAccountList` following cursors);
 * - writes, over a fresh data directory: sequential creates, value transfers (basic, from one
 *   sender and from 40 in turn, and paid by the global fee payer), each verified by the client as
 *   shipped.
 * `KAS_BENCH_OPERATIONS=transfer,creates` runs only the operations whose names contain one of the
 * words (the reads' seeded emulator is not started when none of them is asked for).
 * Each operation runs in slices that alternate between the two clients; a run's ratio is the
 * median of its slices' times, ours over theirs. Skipped, with a printed note, when the official
 * client cannot be installed.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Effect, Layer, ManagedRuntime, Redacted, Stream } from "effect"
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type * as Client from "effect-kas-wallet"
import { loadCaver } from "../support/caver.js"
import { cpuMs, fmt, median, spread, verdict } from "../../../../test/bench/harness.js"

const ACCOUNTS = 20_000
const RUNS = 5
// Senders in turn, as a service with many accounts sends: every transfer's signer is another.
const ROTATING = 40
const only = process.env.KAS_BENCH_OPERATIONS?.split(",").filter((w) => w !== "")
const wanted = (name: string) => only === undefined || only.some((w) => name.includes(w))
const to = "0x76c6b1f34562ed7a843786e1d7f57d0d7948a6f1"
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..")
const dataDir = path.join(root, "node_modules/.cache/effect-kas-wallet/bench-emulator")

interface Settings {
  readonly url: string
  readonly accessKeyId: string
  readonly secret: string
  readonly stop: () => void
}

/** `kas-wallet emulator` on a free port over the cached data directory; its settings from its output. */
const startEmulator = (dataDir: string): Promise<Settings> =>
  new Promise((resolve, reject) => {
    fs.mkdirSync(dataDir, { recursive: true })
    const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "packages/cli/src/bin.ts"), "emulator", "--data-dir", dataDir, "--port", "0"], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    child.once("error", reject)
    child.stdout.on("data", (d: Buffer) => {
      out += String(d)
      const url = /^listening on (\S+)$/m.exec(out)?.[1]
      const accessKeyId = /^export KAS_ACCESS_KEY_ID=(\S+)$/m.exec(out)?.[1]
      if (url !== undefined && accessKeyId !== undefined) {
        const secret = fs.readFileSync(path.join(dataDir, "secret-access-key"), "utf8").trim()
        resolve({ url, accessKeyId, secret, stop: () => child.kill("SIGTERM") })
      }
    })
  })


/** The transports the client is measured on: the platform's default and the faster one the README names. */
const transports: ReadonlyArray<readonly [string, Layer.Layer<HttpClient.HttpClient>]> = [
  ["FetchHttpClient", FetchHttpClient.layer],
  ["NodeHttpClient.layerUndici", NodeHttpClient.layerUndici]
]

interface Operation {
  readonly name: string
  /** Units of work per timed slice, and slices per run. */
  readonly perSlice: number
  readonly slices: number
  readonly theirs: () => Promise<unknown>
  readonly ours: ReadonlyArray<() => Promise<unknown>>
}

/**
 * Milliseconds per unit of work for each candidate (theirs first), wall time and this process's
 * CPU (the clients': the emulator is another process), one run of interleaved slices.
 */
const runOnce = async (op: Operation, run: number): Promise<{ readonly wall: ReadonlyArray<number>; readonly cpu: ReadonlyArray<number> }> => {
  const candidates = [op.theirs, ...op.ours]
  const wall = candidates.map(() => [] as Array<number>)
  const cpu = candidates.map(() => [] as Array<number>)
  for (let slice = 0; slice < op.slices; slice++) {
    for (let k = 0; k < candidates.length; k++) {
      // The order rotates so that no candidate always follows the same one.
      const i = (k + slice + run) % candidates.length
      const start = performance.now()
      const startCpu = cpuMs()
      for (let n = 0; n < op.perSlice; n++) await candidates[i]!()
      cpu[i]!.push((cpuMs() - startCpu) / op.perSlice)
      wall[i]!.push((performance.now() - start) / op.perSlice)
    }
  }
  return { wall: wall.map(median), cpu: cpu.map(median) }
}

const fund = async (emulator: Settings, address: string) => {
  const response = await fetch(`${emulator.url}/_emulator/fund`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${emulator.accessKeyId}:${emulator.secret}`).toString("base64")}`,
      "x-chain-id": "1001",
      "content-type": "application/json"
    },
    body: JSON.stringify({ address, amount: "1000000000000000000000000" })
  })
  if (!response.ok) throw new Error(`fund: ${response.status} ${await response.text()}`)
}

type ClientModule = typeof Client

/**
 * The client as users run it: its build (`dist/`, made here first), not its TypeScript sources
 * through tsx, which adds a wrapper to every function (about 30% more client CPU a transfer).
 */
const loadClient = (): Promise<ClientModule> => {
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "src"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] })
  return import(path.join(root, "dist/index.js")) as Promise<ClientModule>
}

const clients = async ({ ChainId, WalletClient }: ClientModule, emulator: Settings, loaded: { readonly CaverExtKAS: any }) => {
  const runtimes = transports.map(([, transport]) =>
    ManagedRuntime.make(
      WalletClient.layer({
        credentials: { accessKeyId: emulator.accessKeyId, secretAccessKey: Redacted.make(emulator.secret) },
        chainId: ChainId.Testnet,
        baseUrl: emulator.url
      }).pipe(Layer.provideMerge(transport), Layer.orDie)
    )
  )
  const ours = await Promise.all(runtimes.map(async (runtime) => ({ runtime, client: await runtime.runPromise(WalletClient.WalletClient) })))
  const caver = new loaded.CaverExtKAS()
  caver.initWalletAPI(1001, emulator.accessKeyId, emulator.secret, emulator.url)
  return { ours, wallet: caver.kas.wallet, dispose: () => Promise.all(runtimes.map((r) => r.dispose())) }
}

/** The reads, over the emulator seeded with ACCOUNTS accounts (once: its data directory is kept for later runs). */
const readOperations = async (
  client: ClientModule,
  reader: Settings,
  loaded: { readonly CaverExtKAS: any },
  operations: Array<Operation>,
  cleanups: Array<() => Promise<unknown>>
) => {
  const r = await clients(client, reader, loaded)
  cleanups.push(r.dispose)
  const [first] = r.ours
  // Seed once: the data directory is kept for later runs. GET /v2/stat/count: one request
  // rather than reading every account to count them.
  const have = (await first!.runtime.runPromise(first!.client.accountCount())).count
  if (have < ACCOUNTS) {
    process.stderr.write(`seeding ${ACCOUNTS - have} accounts into ${dataDir} (once)...\n`)
    await first!.runtime.runPromise(
      Effect.forEach(Array.from({ length: ACCOUNTS - have }), () => first!.client.createAccount(), { concurrency: 8, discard: true })
    )
  }
  const address = (await first!.runtime.runPromise(first!.client.listAccounts({ pageSize: 1 }))).items[0]!.address
  const atLeast = (n: number) => (count: number) => {
    if (count < n) throw new Error(`read ${count} accounts`)
  }
  operations.push(
    {
      name: "getAccount",
      perSlice: 20,
      slices: 10,
      theirs: () => r.wallet.getAccount(address),
      ours: r.ours.map(({ client, runtime }) => () => runtime.runPromise(client.getAccount(address)))
    },
    {
      name: "one page of 1000 accounts",
      perSlice: 4,
      slices: 6,
      theirs: () => r.wallet.getAccountList({ size: 1000 }),
      ours: r.ours.map(({ client, runtime }) => () => runtime.runPromise(client.listAccounts({ pageSize: 1000 })))
    },
    {
      name: `all ${ACCOUNTS.toLocaleString("en")} accounts, pages of 1000`,
      perSlice: 1,
      slices: 3,
      theirs: async () => {
        let cursor = ""
        let count = 0
        do {
          const page = await r.wallet.getAccountList({ size: 1000, ...(cursor !== "" ? { cursor } : {}) })
          count += page.items.length
          cursor = page.cursor
        } while (cursor !== "")
        atLeast(ACCOUNTS)(count)
      },
      ours: r.ours.map(({ client, runtime }) => () =>
        runtime.runPromise(Stream.runCount(client.accounts({ pageSize: 1000 }))).then(atLeast(ACCOUNTS)))
    }
  )
}

export const run = async (): Promise<ReadonlyArray<string>> => {
  const title = "### Side by side with the official JavaScript client (caver-js-ext-kas 1.12) against the same emulator"
  const loaded = loadCaver()
  if ("unavailable" in loaded) return [title, "", `Skipped: the official client could not be installed (${loaded.unavailable}).`]
  const client = await loadClient()
  const { FeeDelegation } = client
  const operations: Array<Operation> = []
  const reads = ["getAccount", "one page of 1000 accounts", `all ${ACCOUNTS.toLocaleString("en")} accounts, pages of 1000`].some(wanted)
  const reader = reads ? await startEmulator(dataDir) : undefined
  const writesDir = fs.mkdtempSync(path.join(os.tmpdir(), "kas-bench-writes-"))
  const writer = await startEmulator(writesDir)
  const cleanups: Array<() => Promise<unknown>> = []
  try {
    if (reader !== undefined) await readOperations(client, reader, loaded, operations, cleanups)

    const w = await clients(client, writer, loaded)
    cleanups.push(w.dispose)
    // One funded sender per candidate, so that each sends its own nonces.
    const senders = await Promise.all([
      w.wallet.createAccount().then((a: { address: string }) => a.address),
      ...w.ours.map(({ client, runtime }) => runtime.runPromise(client.createAccount()).then((a) => a.address as string))
    ])
    // And ROTATING more per candidate, used in turn.
    const rotating = await Promise.all([
      Promise.all(Array.from({ length: ROTATING }, () => w.wallet.createAccount().then((a: { address: string }) => a.address as string))),
      ...w.ours.map(({ client, runtime }) =>
        runtime.runPromise(Effect.forEach(Array.from({ length: ROTATING }), () => Effect.map(client.createAccount(), (a) => a.address as string))))
    ])
    for (const sender of [...senders, ...rotating.flat()]) await fund(writer, sender)
    const turns = rotating.map(() => 0)
    const next = (i: number) => rotating[i]![turns[i]!++ % ROTATING]!
    operations.push(
      {
        name: "sequential creates",
        perSlice: 20,
        slices: 5,
        theirs: () => w.wallet.createAccount(),
        ours: w.ours.map(({ client, runtime }) => () => runtime.runPromise(client.createAccount()))
      },
      {
        name: "value transfer (basic)",
        perSlice: 10,
        slices: 5,
        theirs: () => w.wallet.requestValueTransfer({ from: senders[0], to, value: 1, submit: true }),
        ours: w.ours.map(({ client, runtime }, i) => () =>
          runtime.runPromise(client.transferValue({ from: senders[i + 1] as never, to: to as never, value: 1n })))
      },
      {
        name: `value transfer (basic), ${ROTATING} senders in turn`,
        perSlice: 10,
        slices: 5,
        theirs: () => w.wallet.requestValueTransfer({ from: next(0), to, value: 1, submit: true }),
        ours: w.ours.map(({ client, runtime }, i) => () =>
          runtime.runPromise(client.transferValue({ from: next(i + 1) as never, to: to as never, value: 1n })))
      },
      {
        name: "value transfer (global fee delegation)",
        perSlice: 10,
        slices: 5,
        theirs: () => w.wallet.requestFDValueTransferPaidByGlobalFeePayer({ from: senders[0], to, value: 1, submit: true }),
        ours: w.ours.map(({ client, runtime }, i) => () =>
          runtime.runPromise(client.transferValue({ from: senders[i + 1] as never, to: to as never, value: 1n, feePayer: FeeDelegation.global })))
      }
    )

    const rows: Array<string> = []
    const verdicts: Array<string> = []
    for (const op of operations.filter((o) => wanted(o.name))) {
      process.stderr.write(`  ${op.name}...\n`)
      await runOnce(op, 0) // warm-up: JIT, connections, the codec's first load
      const times: Array<Array<number>> = [op.theirs, ...op.ours].map(() => [])
      const cpus: Array<Array<number>> = [op.theirs, ...op.ours].map(() => [])
      for (let run = 0; run < RUNS; run++) {
        const { cpu, wall } = await runOnce(op, run)
        wall.forEach((ms, i) => times[i]!.push(ms))
        cpu.forEach((ms, i) => cpus[i]!.push(ms))
      }
      const ratios = op.ours.map((_, j) => times[j + 1]!.map((ms, run) => ms / times[0]![run]!))
      const cpuRatios = op.ours.map((_, j) => cpus[j + 1]!.map((ms, run) => ms / cpus[0]![run]!))
      rows.push(`| ${op.name} | ${fmt(median(times[0]!))} | ${op.ours.map((_, j) => `${fmt(median(times[j + 1]!))} | ${spread(ratios[j]!)} | ${median(cpuRatios[j]!).toFixed(2)}x`).join(" | ")} |`)
      verdicts.push(`${op.name}: ${transports.map(([name], j) => `${name} ${verdict(median(ratios[j]!) <= 1.0)}`).join(", ")}`)
    }
    return [
      title,
      "",
      `Each emulator runs as a process of its own (\`kas-wallet emulator\`, file database: reads on one seeded with ${ACCOUNTS.toLocaleString("en")} accounts, writes on a fresh one); every operation in interleaved slices, ${RUNS} runs; ms per operation, the ratio our time / caver's within each run. The client as shipped (its build, \`dist/\`): every response decoded, every transaction's RLP, hash and signers verified.`,
      "",
      `| operation | caver-js-ext-kas, ms | ${transports.map(([name]) => `ours on ${name}, ms | ratio (spread) | client CPU ratio`).join(" | ")} |`,
      `| --- | ---: | ${transports.map(() => "---: | ---: | ---:").join(" | ")} |`,
      ...rows,
      "",
      "Target at most 1.0x the official client's time:",
      "",
      ...verdicts.map((v) => `- ${v}`)
    ]
  } finally {
    for (const cleanup of cleanups) await cleanup()
    reader?.stop()
    writer.stop()
    setTimeout(() => fs.rmSync(writesDir, { recursive: true, force: true }), 500).unref()
  }
}
