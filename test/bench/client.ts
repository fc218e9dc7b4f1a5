/**
 * The WalletClient side by side with what it is built on, over loopback HTTP to a fixed-body server
 * in a child process:
 * - getAccount against the platform `HttpClient` alone doing the same GET and `JSON.parse`, on
 *   each transport (fetch, undici, Node's http);
 * - streaming 100,000 accounts against a raw fetch loop doing the same decoding.
 * Read-ahead, for every listing, is readahead.ts.
 * Each figure is a ratio within one run, repeated over RUNS runs for its spread.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Effect, Layer, ManagedRuntime, Redacted, Stream } from "effect"
import { ChainId, WalletClient } from "../../src/index.js"
import * as DecodeAccounts from "../../src/internal/decodeAccounts.js"
import { fmt, median, spread, verdict } from "./harness.js"
import { start } from "./server.js"

const RUNS = 5
const PAGES = 100 // 100,000 accounts in pages of 1000
const headers = {
  authorization: `Basic ${Buffer.from("bench:secret").toString("base64")}`,
  "x-chain-id": "1001",
  accept: "application/json"
}
const address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"

type Transport = "fetch" | "undici" | "node"
const transports: Record<Transport, Layer.Layer<HttpClient.HttpClient>> = {
  fetch: FetchHttpClient.layer,
  undici: NodeHttpClient.layerUndici,
  node: NodeHttpClient.layer
}
const transportNames: Record<Transport, string> = {
  fetch: "FetchHttpClient",
  undici: "NodeHttpClient.layerUndici",
  node: "NodeHttpClient.layer"
}

/** A client and the bare platform client on one transport, in one runtime. */
const sideBySide = async (transport: Transport, url: string, readAhead?: number) => {
  const runtime = ManagedRuntime.make(
    WalletClient.layer({
      credentials: { accessKeyId: "bench", secretAccessKey: Redacted.make("secret") },
      chainId: ChainId.Testnet,
      baseUrl: url,
      ...(readAhead !== undefined ? { readAhead } : {})
    }).pipe(Layer.provideMerge(transports[transport]), Layer.orDie)
  )
  const client = await runtime.runPromise(WalletClient.WalletClient)
  const platform = HttpClient.withTracerDisabledWhen(await runtime.runPromise(HttpClient.HttpClient), () => true)
  return { runtime, client, platform }
}

/** Median latency of `effect` over `n` sequential runs inside one Effect program. */
const latencyOf = <E>(
  runtime: ManagedRuntime.ManagedRuntime<never, never> | ManagedRuntime.ManagedRuntime<any, never>,
  effect: Effect.Effect<unknown, E, never>,
  n: number
): Promise<number> => {
  const samples: Array<number> = []
  return runtime.runPromise(
    Effect.forEach(Array.from({ length: n }), () =>
      Effect.suspend(() => {
        const t = performance.now()
        return Effect.map(effect, () => {
          samples.push(performance.now() - t)
        })
      }), { discard: true })
  ).then(() => median(samples))
}

export const run = async (): Promise<ReadonlyArray<string>> => {
  const lines: Array<string> = ["### WalletClient side by side with the platform client and a raw loop (loopback HTTP, fixed bodies, server in a child process)", ""]

  // ---- getAccount: client / platform HttpClient alone (GET, text, JSON.parse), per transport.
  const server = await start({ pages: PAGES })
  const accountUrl = `${server.url}/v2/account/${address}`
  const latencyRows: Array<string> = []
  const latencyRatios: Record<Transport, Array<number>> = { fetch: [], undici: [], node: [] }
  const absolute: Record<Transport, { client: Array<number>; platform: Array<number> }> = {
    fetch: { client: [], platform: [] },
    undici: { client: [], platform: [] },
    node: { client: [], platform: [] }
  }
  for (const transport of Object.keys(transports) as Array<Transport>) {
    const { client, platform, runtime } = await sideBySide(transport, server.url)
    const bare = Effect.flatMap(platform.get(accountUrl, { headers }), (r) =>
      Effect.map(r.text as Effect.Effect<string, HttpClientError.ResponseError>, JSON.parse))
    const ours = client.getAccount(address)
    await latencyOf(runtime, bare, 300)
    await latencyOf(runtime, ours, 300)
    for (let r = 0; r < RUNS; r++) {
      // Interleaved batches: machine noise hits both alike.
      const c: Array<number> = []
      const p: Array<number> = []
      for (let b = 0; b < 10; b++) {
        if (b % 2 === 0) {
          c.push(await latencyOf(runtime, ours, 50))
          p.push(await latencyOf(runtime, bare, 50))
        } else {
          p.push(await latencyOf(runtime, bare, 50))
          c.push(await latencyOf(runtime, ours, 50))
        }
      }
      absolute[transport].client.push(median(c))
      absolute[transport].platform.push(median(p))
      latencyRatios[transport].push(median(c) / median(p))
    }
    await runtime.dispose()
    latencyRows.push(
      `| ${transportNames[transport]} | ${fmt(median(absolute[transport].platform))} | ${fmt(median(absolute[transport].client))} | ${spread(latencyRatios[transport])} |`
    )
  }
  lines.push(
    `#### getAccount latency: the client / the platform HttpClient alone doing the same GET + \`JSON.parse\` (median per request, ${RUNS} runs of 10 interleaved batches of 50)`,
    "",
    "| transport | platform alone, ms | client, ms | ratio (spread) |",
    "| --- | ---: | ---: | ---: |",
    ...latencyRows,
    "",
    `Target at most 1.15x on the same transport: fetch ${verdict(median(latencyRatios.fetch) <= 1.15)} (${median(latencyRatios.fetch).toFixed(2)}x), ` +
    `undici ${verdict(median(latencyRatios.undici) <= 1.15)} (${median(latencyRatios.undici).toFixed(2)}x), ` +
    `node ${verdict(median(latencyRatios.node) <= 1.15)} (${median(latencyRatios.node).toFixed(2)}x).`,
    ""
  )

  // ---- streaming 100,000 accounts: the client's stream against a raw fetch loop decoding each
  // page with Account.decodePage, as the client does.
  const pageUrl = (cursor: string) => `${server.url}/v2/account?size=1000${cursor !== "" ? `&cursor=${cursor}` : ""}`
  const raw = async () => {
    let cursor = ""
    let count = 0
    do {
      const decoded = DecodeAccounts.decodePage(JSON.parse(await (await fetch(pageUrl(cursor), { headers })).text()))
      if (decoded._tag === "Left") throw new Error("page does not decode")
      count += decoded.right.items.length
      cursor = decoded.right.cursor
    } while (cursor !== "")
    return count
  }
  const withAhead = await sideBySide("fetch", server.url)
  const noAhead = await sideBySide("fetch", server.url, 0)
  const streamOf = (side: typeof withAhead) => () => side.runtime.runPromise(Stream.runCount(side.client.accounts({ pageSize: 1000 })))
  const streams: Array<[string, () => Promise<number>]> = [
    ["raw fetch loop + Account.decodePage", raw],
    ["client, FetchHttpClient, readAhead 1 (default)", streamOf(withAhead)],
    ["client, FetchHttpClient, readAhead 0", streamOf(noAhead)]
  ]
  for (const [, go] of streams) await go()
  const times = streams.map(() => [] as Array<number>)
  const throughput: Array<number> = []
  const throughput0: Array<number> = []
  for (let r = 0; r < RUNS; r++) {
    const once: Array<number> = []
    for (let c = 0; c < streams.length; c++) {
      const i = r % 2 === 0 ? c : streams.length - 1 - c
      const t = performance.now()
      const count = await streams[i]![1]()
      if (count !== PAGES * 1000) throw new Error(`${streams[i]![0]} streamed ${count} accounts`)
      once[i] = performance.now() - t
      times[i]!.push(once[i]!)
    }
    throughput.push(once[0]! / once[1]!)
    throughput0.push(once[0]! / once[2]!)
  }
  await withAhead.runtime.dispose()
  await noAhead.runtime.dispose()
  server.stop()
  lines.push(
    `#### Streaming 100,000 accounts in pages of 1000 (full decoding on both sides; ${RUNS} interleaved runs)`,
    "",
    "| candidate | median ms | throughput ratio to the raw loop (spread) |",
    "| --- | ---: | ---: |",
    `| ${streams[0]![0]} | ${fmt(median(times[0]!))} | 1.00x |`,
    `| ${streams[1]![0]} | ${fmt(median(times[1]!))} | ${spread(throughput)} |`,
    `| ${streams[2]![0]} | ${fmt(median(times[2]!))} | ${spread(throughput0)} |`,
    "",
    `Target at least 0.9x the raw loop's throughput: ${verdict(median(throughput) >= 0.9)} (${median(throughput).toFixed(2)}x).`
  )
  return lines
}
