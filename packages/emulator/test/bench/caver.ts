/**
 * Side by side with the official JavaScript client (caver-js-ext-kas 1.12, installed on demand
 * into a cache folder, never a dependency) against the same emulator, run as a process of its own
 * (`kas-wallet emulator`) over a data directory seeded once with 20,000 accounts and kept in
 * node_modules/.cache for later runs:
 * - reading all 20,000 accounts (pages of 1000): the client's stream (full decoding, read-ahead)
 *   against `caver.kas.wallet.getAccountList` following cursors;
 * - getAccount latency.
 * Skipped, with a printed note, when the official client cannot be installed.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer, ManagedRuntime, Redacted, Stream } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { ChainId, WalletClient } from "effect-kas-wallet"
import { loadCaver } from "../support/caver.js"
import { fmt, median, spread, verdict } from "../../../../test/bench/harness.js"

const ACCOUNTS = 20_000
const RUNS = 5
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..")
const dataDir = path.join(root, "node_modules/.cache/effect-kas-wallet/bench-emulator")

interface Settings {
  readonly url: string
  readonly accessKeyId: string
  readonly secret: string
  readonly stop: () => void
}

/** `kas-wallet emulator` on a free port over the cached data directory; its settings from its output. */
const startEmulator = (): Promise<Settings> =>
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

export const run = async (): Promise<ReadonlyArray<string>> => {
  const title = "### Side by side with the official JavaScript client (caver-js-ext-kas 1.12) against the same emulator"
  const loaded = loadCaver()
  if ("unavailable" in loaded) return [title, "", `Skipped: the official client could not be installed (${loaded.unavailable}).`]
  const emulator = await startEmulator()
  try {
    const runtime = ManagedRuntime.make(
      WalletClient.layer({
        credentials: { accessKeyId: emulator.accessKeyId, secretAccessKey: Redacted.make(emulator.secret) },
        chainId: ChainId.Testnet,
        baseUrl: emulator.url
      }).pipe(Layer.provideMerge(FetchHttpClient.layer), Layer.orDie)
    )
    const client = await runtime.runPromise(WalletClient.WalletClient)
    const caver = new loaded.CaverExtKAS()
    caver.initWalletAPI(1001, emulator.accessKeyId, emulator.secret, emulator.url)
    const wallet = caver.kas.wallet

    // Seed once: the data directory is kept for later runs. GET /v2/stat/count: one request
    // rather than reading every account to count them.
    const have = (await runtime.runPromise(client.accountCount())).count
    if (have < ACCOUNTS) {
      process.stderr.write(`seeding ${ACCOUNTS - have} accounts into ${dataDir} (once)...\n`)
      await runtime.runPromise(
        Effect.forEach(Array.from({ length: ACCOUNTS - have }), () => client.createAccount(), { concurrency: 8, discard: true })
      )
    }
    const address = (await runtime.runPromise(client.listAccounts({ pageSize: 1 }))).items[0]!.address

    const ours = () => runtime.runPromise(Stream.runCount(client.accounts({ pageSize: 1000 })))
    const theirs = async () => {
      let cursor = ""
      let count = 0
      do {
        const page = await wallet.getAccountList({ size: 1000, ...(cursor !== "" ? { cursor } : {}) })
        count += page.items.length
        cursor = page.cursor
      } while (cursor !== "")
      return count
    }
    const timed = async (f: () => Promise<number>) => {
      const t = performance.now()
      const n = await f()
      if (n < ACCOUNTS) throw new Error(`read ${n} accounts`)
      return performance.now() - t
    }
    await timed(ours)
    await timed(theirs)
    const readRatios: Array<number> = []
    const readOurs: Array<number> = []
    const readTheirs: Array<number> = []
    for (let r = 0; r < RUNS; r++) {
      let o: number
      let t: number
      if (r % 2 === 0) {
        o = await timed(ours)
        t = await timed(theirs)
      } else {
        t = await timed(theirs)
        o = await timed(ours)
      }
      readOurs.push(o)
      readTheirs.push(t)
      readRatios.push(o / t)
    }

    const latency = async (f: () => Promise<unknown>, n: number) => {
      const samples: Array<number> = []
      for (let i = 0; i < n; i++) {
        const t = performance.now()
        await f()
        samples.push(performance.now() - t)
      }
      return median(samples)
    }
    const ourGet = () => runtime.runPromise(client.getAccount(address))
    const theirGet = () => wallet.getAccount(address)
    await latency(ourGet, 100)
    await latency(theirGet, 100)
    const getRatios: Array<number> = []
    const getOurs: Array<number> = []
    const getTheirs: Array<number> = []
    for (let r = 0; r < RUNS; r++) {
      const o: Array<number> = []
      const t: Array<number> = []
      for (let b = 0; b < 10; b++) {
        if (b % 2 === 0) {
          o.push(await latency(ourGet, 20))
          t.push(await latency(theirGet, 20))
        } else {
          t.push(await latency(theirGet, 20))
          o.push(await latency(ourGet, 20))
        }
      }
      getOurs.push(median(o))
      getTheirs.push(median(t))
      getRatios.push(median(o) / median(t))
    }
    await runtime.dispose()
    return [
      title,
      "",
      `The emulator runs as a process of its own (\`kas-wallet emulator\`, file database); ${RUNS} interleaved runs.`,
      "",
      "| operation | caver-js-ext-kas, ms | effect-kas-wallet, ms | ratio (spread) | target |",
      "| --- | ---: | ---: | ---: | --- |",
      `| read ${ACCOUNTS.toLocaleString("en")} accounts, pages of 1000 | ${fmt(median(readTheirs))} | ${fmt(median(readOurs))} | ${spread(readRatios)} | ≤ 1.0x: ${verdict(median(readRatios) <= 1.0)} |`,
      `| getAccount, median latency | ${fmt(median(getTheirs))} | ${fmt(median(getOurs))} | ${spread(getRatios)} | ≤ 1.1x: ${verdict(median(getRatios) <= 1.1)} |`,
      "",
      "The official client validates nothing; this client decodes every account (EIP-55 included) and",
      "overlaps it with the emulator's work on the next page (read-ahead 1)."
    ]
  } finally {
    emulator.stop()
  }
}
