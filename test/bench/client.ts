/**
 * The WalletClient against raw `fetch` / `undici` loops doing the same requests and `JSON.parse`,
 * over loopback HTTP to one fixed-body server (in a child process), side by side in one run.
 *
 * Each comparison pairs the client with a raw loop on the same transport: the client over
 * `FetchHttpClient` with raw `fetch`, the client over `NodeHttpClient.layerUndici` with raw
 * `undici.request`. Two reference rows separate what the client adds from what it cannot avoid:
 * the platform `HttpClient` alone (no client), and the raw loop with the client's full decoding.
 */
import { FetchHttpClient, HttpClient, type HttpClientError } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Chunk, Effect, Layer, ManagedRuntime, Redacted, Stream } from "effect"
import * as undici from "undici"
import { Account, ChainId, WalletClient } from "../../src/index.js"
import { fmt } from "./harness.js"
import { start } from "./server.js"

const PAGES = 100 // 100,000 accounts in pages of 1000
const headers = {
  authorization: `Basic ${Buffer.from("bench:secret").toString("base64")}`,
  "x-chain-id": "1001",
  accept: "application/json"
}

const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const gc = () => (globalThis as { gc?: () => void }).gc?.()
const rssMb = () => process.memoryUsage().rss / 1024 / 1024
const heapMb = () => process.memoryUsage().heapUsed / 1024 / 1024
const ratio = (x: number) => `${x.toFixed(2)}x`

type Transport = "fetch" | "undici"
const transports: Record<Transport, Layer.Layer<HttpClient.HttpClient>> = {
  fetch: FetchHttpClient.layer,
  undici: NodeHttpClient.layerUndici
}

export const run = async (): Promise<ReadonlyArray<string>> => {
  const server = await start({ pages: PAGES })
  const address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
  const accountUrl = `${server.url}/v2/account/${address}`
  const pageUrl = (cursor: string) => `${server.url}/v2/account?size=1000${cursor !== "" ? `&cursor=${cursor}` : ""}`

  const runtimeOf = (transport: Transport, readAhead = 1) =>
    ManagedRuntime.make(
      WalletClient.layer({
        credentials: { accessKeyId: "bench", secretAccessKey: Redacted.make("secret") },
        chainId: ChainId.Testnet,
        baseUrl: server.url,
        readAhead
      }).pipe(Layer.provideMerge(transports[transport]), Layer.orDie)
    )
  const runtimes = { fetch: runtimeOf("fetch"), undici: runtimeOf("undici"), eager: runtimeOf("fetch", 2) }
  const clients = {
    fetch: await runtimes.fetch.runPromise(WalletClient.WalletClient),
    undici: await runtimes.undici.runPromise(WalletClient.WalletClient),
    eager: await runtimes.eager.runPromise(WalletClient.WalletClient)
  }
  const platformFetch = HttpClient.withTracerDisabledWhen(await runtimes.fetch.runPromise(HttpClient.HttpClient), () => true)

  // ---- getAccount latency: batches of 50 requests, candidates interleaved round by round,
  // per-request latencies, medians.
  const timedRaw = (get: () => Promise<unknown>) => async (into: Array<number>) => {
    for (let i = 0; i < 50; i++) {
      const t = performance.now()
      await get()
      into.push(performance.now() - t)
    }
  }
  // Inside one Effect program, as an application embedding the client runs it.
  const timedEffect = <R, E>(
    runtime: ManagedRuntime.ManagedRuntime<R, never>,
    effect: Effect.Effect<unknown, E, R>
  ) =>
  (into: Array<number>) =>
    runtime.runPromise(Effect.forEach(Array.from({ length: 50 }), () =>
      Effect.suspend(() => {
        const t = performance.now()
        return Effect.map(effect, () => {
          into.push(performance.now() - t)
        })
      }), { discard: true }))
  const latency: Array<[string, (into: Array<number>) => Promise<unknown>]> = [
    ["raw fetch", timedRaw(async () => JSON.parse(await (await fetch(accountUrl, { headers })).text()))],
    ["raw undici", timedRaw(async () => JSON.parse(await (await undici.request(accountUrl, { headers })).body.text()))],
    ["client, FetchHttpClient", timedEffect(runtimes.fetch, clients.fetch.getAccount(address))],
    ["client, FetchHttpClient, one runPromise per call", timedRaw(() => runtimes.fetch.runPromise(clients.fetch.getAccount(address)))],
    ["client, NodeHttpClient.layerUndici", timedEffect(runtimes.undici, clients.undici.getAccount(address))],
    [
      "FetchHttpClient alone (no client): execute, text, JSON.parse",
      timedEffect(
        runtimes.fetch,
        Effect.flatMap(platformFetch.get(accountUrl, { headers }), (r) =>
          Effect.map(r.text as Effect.Effect<string, HttpClientError.ResponseError>, JSON.parse))
      )
    ]
  ]
  const latencies = latency.map(() => [] as Array<number>)
  for (let round = 0; round < 50; round++) {
    for (let c = 0; c < latency.length; c++) {
      const i = round % 2 === 0 ? c : latency.length - 1 - c
      const into: Array<number> = []
      await latency[i]![1](into)
      if (round >= 10) latencies[i]!.push(...into)
    }
  }
  const lat = latencies.map(median)

  // ---- streaming 100,000 accounts: raw loops (fetch + JSON.parse, following cursors, counting
  // items) against the client's stream counted chunk by chunk (Stream.runCount), full decoding.
  const rawStream = (get: (url: string) => Promise<string>, decode: boolean) => async () => {
    let cursor = ""
    let count = 0
    do {
      const page = JSON.parse(await get(pageUrl(cursor))) as { items: Array<unknown>; cursor: string }
      if (decode && Account.decodePage(page)._tag === "Left") throw new Error("page does not decode")
      count += page.items.length
      cursor = page.cursor
    } while (cursor !== "")
    return count
  }
  const viaFetch = async (url: string) => (await fetch(url, { headers })).text()
  const viaUndici = async (url: string) => (await undici.request(url, { headers })).body.text()
  const clientStream = (key: keyof typeof clients) => () =>
    runtimes[key === "undici" ? "undici" : key].runPromise(Stream.runCount(clients[key].accounts({ pageSize: 1000 })))
  const streams: Array<[string, () => Promise<number>]> = [
    ["raw fetch", rawStream(viaFetch, false)],
    ["raw fetch + Account.decodePage", rawStream(viaFetch, true)],
    ["client, FetchHttpClient", clientStream("fetch")],
    ["client, FetchHttpClient, prefetch: \"eager\"", clientStream("eager")],
    ["raw undici", rawStream(viaUndici, false)],
    ["client, NodeHttpClient.layerUndici", clientStream("undici")]
  ]
  for (const [, go] of streams) await go()
  const times = streams.map(() => [] as Array<number>)
  const ROUNDS = 9
  for (let round = 0; round < ROUNDS; round++) {
    for (let c = 0; c < streams.length; c++) {
      const i = round % 2 === 0 ? c : streams.length - 1 - c
      const t = performance.now()
      const count = await streams[i]![1]()
      if (count !== PAGES * 1000) throw new Error(`${streams[i]![0]} streamed ${count} accounts`)
      times[i]!.push(performance.now() - t)
    }
  }
  for (const runtime of Object.values(runtimes)) await runtime.dispose()
  server.stop()
  const st = times.map(median)

  return [
    "### WalletClient against raw loops (loopback HTTP, fixed bodies, server in a child process)",
    "",
    "#### getAccount latency (median per request; 2,000 requests each, interleaved in batches of 50)",
    "",
    "| candidate | median ms | ratio to raw fetch | ratio to raw undici |",
    "| --- | ---: | ---: | ---: |",
    ...latency.map(([name], i) => `| ${name} | ${fmt(lat[i]!)} | ${ratio(lat[i]! / lat[0]!)} | ${ratio(lat[i]! / lat[1]!)} |`),
    "",
    `Target, client / raw on the same transport, at most 1.15x: FetchHttpClient / fetch **${ratio(lat[2]! / lat[0]!)}**, ` +
    `undici / undici **${ratio(lat[4]! / lat[1]!)}**. The platform client alone: **${ratio(lat[5]! / lat[0]!)}** of raw fetch.`,
    "",
    `#### Streaming 100,000 accounts in pages of 1000 (median of ${ROUNDS} runs)`,
    "",
    "| candidate | ms | throughput ratio to raw fetch | to raw undici |",
    "| --- | ---: | ---: | ---: |",
    ...streams.map(([name], i) => `| ${name} | ${fmt(st[i]!)} | ${(st[0]! / st[i]!).toFixed(2)} | ${(st[4]! / st[i]!).toFixed(2)} |`),
    "",
    `Target, throughput client / raw on the same transport, at least 0.8, full decoding: FetchHttpClient / fetch ` +
    `**${(st[0]! / st[2]!).toFixed(2)}** (eager prefetch ${(st[0]! / st[3]!).toFixed(2)}), undici / undici ` +
    `**${(st[4]! / st[5]!).toFixed(2)}**. The raw fetch loop itself, decoding as the client does: ` +
    `**${(st[0]! / st[1]!).toFixed(2)}**.`,

  ]
}

/**
 * Memory of the client's stream, in a process of its own (no other runtime, no raw loop): the
 * resident size is then the client's and the transport's alone.
 */
export const runMemory = async (side: "client" | "raw" = "client"): Promise<ReadonlyArray<string>> => {
  const server = await start({ pages: PAGES })
  const runtime = ManagedRuntime.make(
    WalletClient.layer({
      credentials: { accessKeyId: "bench", secretAccessKey: Redacted.make("secret") },
      chainId: ChainId.Testnet,
      baseUrl: server.url
    }).pipe(Layer.provideMerge(FetchHttpClient.layer), Layer.orDie)
  )
  const runtimes = { fetch: runtime }
  const clients = { fetch: await runtime.runPromise(WalletClient.WalletClient) }
  // ---- memory: one stream to bring the heap to its working size, then three sampled at 10,000
  // and 100,000 accounts (after a full collection each time). Growth between the two samples is
  // memory held per account.
  const growth: Array<{ rss: number; heap: number; rss10: number; rss100: number }> = []
  // The raw fetch loop, sampled the same way: what reading 1000-account pages costs any client.
  const sampledRaw = async (sample: boolean) => {
    const at: Record<number, { rss: number; heap: number }> = {}
    let cursor = ""
    let n = 0
    do {
      const page = JSON.parse(await (await fetch(`${server.url}/v2/account?size=1000${cursor !== "" ? `&cursor=${cursor}` : ""}`, { headers })).text()) as { items: Array<unknown>; cursor: string }
      n += page.items.length
      cursor = page.cursor
      if (sample && (n === 10_000 || n === 100_000)) {
        gc()
        at[n] = { rss: rssMb(), heap: heapMb() }
      }
    } while (cursor !== "")
    if (sample) growth.push({ rss: at[100_000]!.rss - at[10_000]!.rss, heap: at[100_000]!.heap - at[10_000]!.heap, rss10: at[10_000]!.rss, rss100: at[100_000]!.rss })
  }
  const sampledClient = (sample: boolean) =>
    runtimes.fetch.runPromise(Effect.gen(function*() {
      const at: Record<number, { rss: number; heap: number }> = {}
      let n = 0
      yield* Stream.runForEachChunk(clients.fetch.accounts({ pageSize: 1000 }), (chunk) =>
        Effect.sync(() => {
          n += Chunk.size(chunk)
          if (sample && (n === 10_000 || n === 100_000)) {
            gc()
            at[n] = { rss: rssMb(), heap: heapMb() }
          }
        }))
      if (sample) {
        growth.push({
          rss: at[100_000]!.rss - at[10_000]!.rss,
          heap: at[100_000]!.heap - at[10_000]!.heap,
          rss10: at[10_000]!.rss,
          rss100: at[100_000]!.rss
        })
      }
    }))
  const sampled = side === "raw" ? sampledRaw : sampledClient
  await sampled(false)
  for (let i = 0; i < 5; i++) await sampled(true)

  await runtime.dispose()
  server.stop()
  const rssGrowth = median(growth.map((g) => g.rss))
  const heapGrowth = median(growth.map((g) => g.heap))
  const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(1)} MB`
  return [
    side === "raw"
      ? "#### Memory of the raw fetch loop over the same 100,000 accounts, sampled the same way (a process of its own)"
      : "#### Memory of one client stream of 100,000 accounts, FetchHttpClient (a process of its own; after a warm-up stream; full collection before each sample)",
    "",
    "| stream | resident MB after 10,000 → 100,000 | growth | V8 heap growth |",
    "| --- | --- | ---: | ---: |",
    ...growth.map((g, i) => `| ${i + 1} | ${fmt(g.rss10)} → ${fmt(g.rss100)} | ${signed(g.rss)} | ${signed(g.heap)} |`),
    "",
    `${side === "raw" ? "Raw fetch loop" : "Target, client"}: resident memory growth from 10,000 to 100,000 accounts${side === "raw" ? "" : " at most +10 MB"}: median **${signed(rssGrowth)}** ` +
    `(V8 heap in use: ${signed(heapGrowth)}).`
  ]
}
