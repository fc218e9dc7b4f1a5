/**
 * The WalletClient against a raw `fetch` + `JSON.parse` loop, over loopback HTTP to the same
 * fixed-body server, side by side in one run.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer, ManagedRuntime, Redacted, Stream } from "effect"
import { ChainId, WalletClient } from "../../src/index.js"
import { fmt } from "./harness.js"
import { start } from "./server.js"

const PAGES = 100 // 100,000 accounts in pages of 1000
const headers = {
  authorization: `Basic ${Buffer.from("bench:secret").toString("base64")}`,
  "x-chain-id": "1001",
  accept: "application/json"
}

const median = (xs: Array<number>) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const gc = () => (globalThis as { gc?: () => void }).gc?.()
const rssMb = () => process.memoryUsage().rss / 1024 / 1024

export const run = async (): Promise<ReadonlyArray<string>> => {
  const server = await start({ pages: PAGES })
  const runtime = ManagedRuntime.make(
    WalletClient.layer({
      credentials: { accessKeyId: "bench", secretAccessKey: Redacted.make("secret") },
      chainId: ChainId.Testnet,
      baseUrl: server.url
    }).pipe(Layer.provide(FetchHttpClient.layer), Layer.orDie)
  )
  const client = await runtime.runPromise(WalletClient.WalletClient)
  const address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"

  const rawGet = async () => {
    const res = await fetch(`${server.url}/v2/account/${address}`, { headers })
    return JSON.parse(await res.text())
  }
  const clientGet = () => runtime.runPromise(client.getAccount(address))

  // getAccount latency: interleaved batches, per-request latencies, medians.
  const raw: Array<number> = []
  const lib: Array<number> = []
  for (let round = 0; round < 60; round++) {
    for (const [fn, into] of round % 2 === 0 ? [[rawGet, raw], [clientGet, lib]] as const : [[clientGet, lib], [rawGet, raw]] as const) {
      for (let i = 0; i < 50; i++) {
        const t = performance.now()
        await fn()
        if (round >= 10) into.push(performance.now() - t)
      }
    }
  }
  const rawMedian = median(raw)
  const libMedian = median(lib)

  // Streaming 100,000 accounts: raw loop (fetch + JSON.parse, following cursors) vs the client's
  // stream with full decoding; memory sampled at 10,000 and 100,000 accounts.
  const rawStream = async () => {
    let cursor = ""
    let count = 0
    do {
      const res = await fetch(`${server.url}/v2/account?size=1000${cursor ? `&cursor=${cursor}` : ""}`, { headers })
      const page = JSON.parse(await res.text()) as { items: Array<unknown>; cursor: string }
      count += page.items.length
      cursor = page.cursor
    } while (cursor !== "")
    return count
  }
  const rss: Record<number, number> = {}
  const clientStream = (sample: boolean) =>
    runtime.runPromise(
      client.accounts({ pageSize: 1000 }).pipe(
        Stream.runFoldEffect(0, (n) => {
          const next = n + 1
          if (sample && (next === 10_000 || next === 100_000)) {
            return Effect.sync(() => {
              gc()
              rss[next] = rssMb()
              return next
            })
          }
          return Effect.succeed(next)
        })
      )
    )
  await rawStream()
  await clientStream(false)
  const rawTimes: Array<number> = []
  const libTimes: Array<number> = []
  for (let round = 0; round < 6; round++) {
    for (const side of round % 2 === 0 ? ["raw", "lib"] : ["lib", "raw"]) {
      const t = performance.now()
      const count = side === "raw" ? await rawStream() : await clientStream(round === 5)
      if (count !== PAGES * 1000) throw new Error(`${side} streamed ${count} accounts`)
      ;(side === "raw" ? rawTimes : libTimes).push(performance.now() - t)
    }
  }
  await runtime.dispose()
  server.stop()
  const rawStreamMs = median(rawTimes)
  const libStreamMs = median(libTimes)
  const throughput = rawStreamMs / libStreamMs
  const growth = (rss[100_000] ?? Number.NaN) - (rss[10_000] ?? Number.NaN)
  return [
    "### WalletClient against a raw fetch loop (loopback HTTP, fixed bodies, server in a child process)",
    "",
    "| measure | raw fetch + JSON.parse | WalletClient | ratio | target |",
    "| --- | ---: | ---: | ---: | --- |",
    `| getAccount median latency (ms, 2,500 requests each) | ${fmt(rawMedian)} | ${fmt(libMedian)} | ${(libMedian / rawMedian).toFixed(2)}x | ≤ 1.15x |`,
    `| streaming 100,000 accounts in pages of 1000 (median of 3 runs, ms) | ${fmt(rawStreamMs)} | ${fmt(libStreamMs)} | throughput ${throughput.toFixed(2)} | ≥ 0.8 |`,
    `| resident memory after 10,000 → 100,000 accounts (MB) | | ${fmt(rss[10_000] ?? Number.NaN)} → ${fmt(rss[100_000] ?? Number.NaN)} | +${growth.toFixed(1)} MB | ≤ +10 MB |`,
    "",
    "The client decodes every account fully (EIP-55 checksums included); the raw loop only parses JSON. The client's",
    "stream prefetches the next page while the current one is consumed; the raw loop is strictly sequential."
  ]
}
