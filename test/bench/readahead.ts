/**
 * Read-ahead that pays, and costs no request the consumer did not need, for each paged listing of
 * `listings.ts` (accounts, the fee-delegation history, keys, a multisig account's pending
 * transactions):
 * - the gain: the client with `readAhead` 1 (the default) against 0, when the service answers each
 *   page after 20 ms and the consumer spends 20 ms on each page of the page stream, over loopback
 *   HTTP to the fixed-body server (server.ts) in a child process. The ideal is 2x: the service's
 *   wait hidden behind the consumer's. Each figure is a ratio within one run, over RUNS interleaved
 *   runs. The accounts' item stream is measured too, its consumer spending the same 20 ms a page
 *   in four waits of 5 ms, one after each 250th item;
 * - the requests (item streams, pages of 1000, counted by a `transformClient`): `Stream.take(3)`,
 *   `Stream.take(1500)` (page 2's first half) and the whole listing: one, two and one a page;
 * - beside them, the CPU time of decoding one page of the listing (`JSON.parse` and the client's
 *   decoder, in process): the work on the client's thread that read-ahead cannot hide behind the
 *   service's wait.
 *
 * `npm run bench -- readahead` measures every listing; `node --import tsx test/bench/readahead.ts
 * <listing>...` only the ones named.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { Effect, Layer, ManagedRuntime, Redacted, Stream } from "effect"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { ChainId, WalletClient } from "../../src/index.js"
import { fmt, median, spread, verdict } from "./harness.js"
import { listingItems } from "./fixtures.js"
import { byName, type Listing, listings } from "./listings.js"
import { start } from "./server.js"

const RUNS = 5
const PAGES = 20
const SERVICE_MS = 20
const CONSUMER_MS = 20

const clientOn = async (url: string, readAhead: number) => {
  const sent = { requests: 0 }
  const runtime = ManagedRuntime.make(
    WalletClient.layer({
      credentials: { accessKeyId: "bench", secretAccessKey: Redacted.make("secret") },
      chainId: ChainId.Testnet,
      baseUrl: url,
      readAhead,
      transformClient: HttpClient.tapRequest(() => Effect.sync(() => sent.requests++))
    }).pipe(Layer.provideMerge(FetchHttpClient.layer), Layer.orDie)
  )
  return { runtime, client: await runtime.runPromise(WalletClient.WalletClient), sent }
}

/** The requests of `Stream.take(3)`, `Stream.take(1500)` and the whole item stream, with the default read-ahead. */
const requestsOf = async (listing: Listing, url: string): Promise<ReadonlyArray<number>> => {
  const side = await clientOn(url, 1)
  const counts: Array<number> = []
  for (const take of [3, 1500, PAGES * 1000]) {
    side.sent.requests = 0
    await side.runtime.runPromise(Stream.runDrain(Stream.take(listing.items(side.client, 1000), take)))
    counts.push(side.sent.requests)
  }
  await side.runtime.dispose()
  return counts
}

/** Median ms of decoding one 1000-item page of the listing (its text parsed, then decoded), in process. */
const decodeMs = (listing: Listing): number => {
  const item = listingItems[listing.path]!
  const text = JSON.stringify({ items: Array.from({ length: 1000 }, (_, i) => item(i)), cursor: "" })
  const once = () => {
    const decoded = listing.decodePage(JSON.parse(text))
    if (decoded._tag === "Left") throw new Error(`${listing.name}: the fixture page does not decode`)
  }
  for (let i = 0; i < 10; i++) once()
  const samples: Array<number> = []
  for (let i = 0; i < 30; i++) {
    const t = performance.now()
    once()
    samples.push(performance.now() - t)
  }
  return median(samples)
}

interface Measured {
  readonly listing: Listing
  readonly requests: ReadonlyArray<number>
  readonly decodeMs: number
  readonly t0: ReadonlyArray<number>
  readonly t1: ReadonlyArray<number>
  readonly gains: ReadonlyArray<number>
}

/** The consumer of one page stream: CONSUMER_MS on each page. */
const onPages = (listing: Listing) => (client: WalletClient.Service) =>
  listing.pages(client, 1000).pipe(Stream.mapEffect(() => Effect.sleep(`${CONSUMER_MS} millis`)), Stream.runCount, Effect.map((n) => n * 1000))

/** The consumer of one item stream: CONSUMER_MS on each 1000 items, a quarter after each 250th. */
const onItems = (listing: Listing) => (client: WalletClient.Service) =>
  Effect.suspend(() => {
    let n = 0
    return listing.items(client, 1000).pipe(
      Stream.tap(() => ++n % 250 === 0 ? Effect.sleep(`${CONSUMER_MS / 4} millis`) : Effect.void),
      Stream.runCount
    )
  })

const measure = async (
  listing: Listing,
  url: string,
  consumer: (client: WalletClient.Service) => Effect.Effect<number, unknown> = onPages(listing)
): Promise<Measured> => {
  const ahead1 = await clientOn(url, 1)
  const ahead0 = await clientOn(url, 0)
  const consume = (side: typeof ahead1) => async () => {
    const items = await side.runtime.runPromise(consumer(side.client))
    if (items !== PAGES * 1000) throw new Error(`${listing.name}: ${items} items of ${PAGES * 1000}`)
  }
  // One untimed run of each: the first decodes of each path are not what a stream costs.
  await consume(ahead1)()
  await consume(ahead0)()
  const t1: Array<number> = []
  const t0: Array<number> = []
  const gains: Array<number> = []
  for (let r = 0; r < RUNS; r++) {
    const order = r % 2 === 0 ? [ahead1, ahead0] : [ahead0, ahead1]
    const once = new Map<typeof ahead1, number>()
    for (const side of order) {
      const t = performance.now()
      await consume(side)()
      once.set(side, performance.now() - t)
    }
    t1.push(once.get(ahead1)!)
    t0.push(once.get(ahead0)!)
    gains.push(once.get(ahead0)! / once.get(ahead1)!)
  }
  await ahead1.runtime.dispose()
  await ahead0.runtime.dispose()
  return { listing, requests: await requestsOf(listing, url), decodeMs: decodeMs(listing), t0, t1, gains }
}

const wanted = [1, 2, PAGES]

export const run = async (names?: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
  const slow = await start({ pages: PAGES, delayMs: SERVICE_MS })
  const measured: Array<Measured> = []
  let items: Measured | undefined
  try {
    for (const listing of names !== undefined && names.length > 0 ? names.map(byName) : listings) measured.push(await measure(listing, slow.url))
    items = await measure(byName("accounts"), slow.url, onItems(byName("accounts")))
  } finally {
    slow.stop()
  }
  const accounts = measured.find((m) => m.listing.name === "accounts")
  const gainOk = (m: Measured) => median(m.gains) >= 1.6
  const requestsOk = (m: Measured) => m.requests.every((n, i) => n === wanted[i])
  return [
    `#### Read-ahead, for each listing: ${PAGES} pages of 1000, the service answering each after ${SERVICE_MS} ms, the consumer spending ${CONSUMER_MS} ms on each (${RUNS} interleaved runs)`,
    "",
    "| listing | decoding one page (JSON.parse + the client's decoder), ms | readAhead 0, median ms | readAhead 1 (default), median ms | throughput ratio 1 / 0 (spread) | requests of the item stream: take(3) / take(1500) / all |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...measured.map((m) =>
      `| ${m.listing.noun} (\`${m.listing.operation}\`) | ${fmt(m.decodeMs)} | ${fmt(median(m.t0))} | ${fmt(median(m.t1))} | ${spread(m.gains)} | ${m.requests.join(" / ")} |`
    ),
    `| accounts, item stream (\`accounts\`; the consumer waiting ${CONSUMER_MS / 4} ms after each 250th) | | ${fmt(median(items!.t0))} | ${fmt(median(items!.t1))} | ${spread(items!.gains)} | |`,
    "",
    ...measured.map((m) =>
      `${m.listing.noun}: target a gain of at least 1.6x ${verdict(gainOk(m))} (${median(m.gains).toFixed(2)}x)` +
      (accounts !== undefined && m !== accounts ? `, ${(median(m.gains) / median(accounts.gains)).toFixed(2)} times the accounts' gain` : "") +
      `; \`Stream.take(3)\` one request, \`take(1500)\` two, the whole listing one a page and none after the last ${verdict(requestsOk(m))} (${m.requests.join(", ")}).`
    ).flatMap((line) => [line, ""]),
    `accounts, item stream: a gain of ${median(items!.gains).toFixed(2)}x (pages 1 and 2 come in halves, the next page requested at the second: docs/pagination-and-streaming.md).`
  ]
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log((await run(process.argv.slice(2))).join("\n"))
}
