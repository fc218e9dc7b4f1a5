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
const heapMb = () => process.memoryUsage().heapUsed / 1024 / 1024

export const run = async (): Promise<ReadonlyArray<string>> => {
  const server = await start({ pages: PAGES })
  const runtimeOf = (prefetch: boolean | "eager") =>
    ManagedRuntime.make(
      WalletClient.layer({
        credentials: { accessKeyId: "bench", secretAccessKey: Redacted.make("secret") },
        chainId: ChainId.Testnet,
        baseUrl: server.url,
        prefetch
      }).pipe(Layer.provide(FetchHttpClient.layer), Layer.orDie)
    )
  const runtime = runtimeOf(true)
  const eagerRuntime = runtimeOf("eager")
  const client = await runtime.runPromise(WalletClient.WalletClient)
  const eagerClient = await eagerRuntime.runPromise(WalletClient.WalletClient)
  const address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"

  const rawGet = async () => {
    const res = await fetch(`${server.url}/v2/account/${address}`, { headers })
    return JSON.parse(await res.text())
  }
  const clientGet = () => runtime.runPromise(client.getAccount(address))

  const rss: Record<number, number> = {}
  const heap: Record<number, number> = {}
  const clientStream = (sample: boolean) =>
    runtime.runPromise(
      client.accounts({ pageSize: 1000 }).pipe(
        Stream.runFoldEffect(0, (n) => {
          const next = n + 1
          if (sample && (next === 10_000 || next === 100_000)) {
            return Effect.sync(() => {
              gc()
              rss[next] = rssMb()
              heap[next] = heapMb()
              return next
            })
          }
          return Effect.succeed(next)
        })
      )
    )
  // Memory first, while the process is fresh: one full stream to bring the heap to its working
  // size, then a second one sampled at 10,000 and 100,000 accounts (after a full collection each
  // time). Growth between the two samples is memory held per account.
  await clientStream(false)
  await clientStream(true)

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
  // stream with full decoding.
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
  const eagerStream = () => eagerRuntime.runPromise(Stream.runCount(eagerClient.accounts({ pageSize: 1000 })))
  const sides: Array<[string, () => Promise<number>]> = [
    ["raw", rawStream],
    ["lib", () => clientStream(false)],
    ["eager", eagerStream]
  ]
  for (const [, run] of sides) await run()
  const times: Record<string, Array<number>> = { raw: [], lib: [], eager: [] }
  const ROUNDS = 9
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse()
    for (const [name, run] of order) {
      const t = performance.now()
      const count = await run()
      if (count !== PAGES * 1000) throw new Error(`${name} streamed ${count} accounts`)
      times[name]!.push(performance.now() - t)
    }
  }
  await runtime.dispose()
  await eagerRuntime.dispose()
  server.stop()
  const rawStreamMs = median(times.raw!)
  const libStreamMs = median(times.lib!)
  const eagerStreamMs = median(times.eager!)
  const throughput = rawStreamMs / libStreamMs
  const growth = (rss[100_000] ?? Number.NaN) - (rss[10_000] ?? Number.NaN)
  return [
    "### WalletClient against a raw fetch loop (loopback HTTP, fixed bodies, server in a child process)",
    "",
    "| measure | raw fetch + JSON.parse | WalletClient | ratio | target |",
    "| --- | ---: | ---: | ---: | --- |",
    `| getAccount median latency (ms, 2,500 requests each; retries, timeout and operation span on) | ${fmt(rawMedian)} | ${fmt(libMedian)} | ${(libMedian / rawMedian).toFixed(2)}x | ≤ 1.15x |`,
    `| streaming 100,000 accounts in pages of 1000 (median of ${ROUNDS} runs, ms), default prefetch | ${fmt(rawStreamMs)} | ${fmt(libStreamMs)} | throughput ${throughput.toFixed(2)} | ≥ 0.8 |`,
    `| the same with \`prefetch: "eager"\` | ${fmt(rawStreamMs)} | ${fmt(eagerStreamMs)} | throughput ${(rawStreamMs / eagerStreamMs).toFixed(2)} | |`,
    `| resident memory after 10,000 → 100,000 accounts of one stream (MB; after a warm-up stream) | | ${fmt(rss[10_000] ?? Number.NaN)} → ${fmt(rss[100_000] ?? Number.NaN)} | ${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MB | ≤ +10 MB |`,
    `| V8 heap in use after 10,000 → 100,000 accounts (MB) | | ${fmt(heap[10_000] ?? Number.NaN)} → ${fmt(heap[100_000] ?? Number.NaN)} | ${fmt((heap[100_000] ?? Number.NaN) - (heap[10_000] ?? Number.NaN))} MB | |`,
    "",
    "The client decodes every account fully (EIP-55 checksums included); the raw loop only parses JSON. The client's",
    "stream prefetches the next page while the current one is consumed; the raw loop is strictly sequential."
  ]
}
