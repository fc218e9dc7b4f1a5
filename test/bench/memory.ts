/**
 * Memory flat in the number of items, for each paged listing of `listings.ts` (accounts, the
 * fee-delegation history, keys, a multisig account's pending transactions): the peak resident
 * memory of a process streaming 1,000,000 items against one streaming 100,000, each in a fresh
 * process of its own (FetchHttpClient, default read-ahead, full decoding), and the V8 heap in use after a full collection, before and after the
 * stream.
 *
 * `npm run bench -- memory` measures every listing, in 5 pairs each; `node --expose-gc --import
 * tsx test/bench/memory.ts [--runs N] [<listing>...]` only the ones named, in N pairs.
 */
import { execFileSync } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { Layer, ManagedRuntime, Redacted, Stream } from "effect"
import { ChainId, WalletClient } from "../../src/index.js"
import { median, spread, verdict } from "./harness.js"
import { byName, type Listing, listings } from "./listings.js"
import { start } from "./server.js"

const RUNS = 5
const SMALL = 100_000
const LARGE = 1_000_000
const gc = () => (globalThis as { gc?: () => void }).gc?.()
const heapMb = () => process.memoryUsage().heapUsed / 1024 / 1024

interface Sample {
  readonly peakMb: number
  readonly heapGrowthMb: number
}

/** In the child: streams `count` items of a listing once after a warm-up stream, and prints a Sample. */
const measure = async (listing: Listing, count: number): Promise<Sample> => {
  const server = await start({ pages: count / 1000 })
  const runtime = ManagedRuntime.make(
    WalletClient.layer({
      credentials: { accessKeyId: "bench", secretAccessKey: Redacted.make("secret") },
      chainId: ChainId.Testnet,
      baseUrl: server.url
    }).pipe(Layer.provideMerge(FetchHttpClient.layer), Layer.orDie)
  )
  const client = await runtime.runPromise(WalletClient.WalletClient)
  // The warm-up streams 100,000 items first: what the first long stream leaves on the heap once
  // (optimized code and its feedback, ~3.6 MB; 0.05-0.25 MB for each stream after it) is not what
  // a stream retains.
  await runtime.runPromise(Stream.runDrain(Stream.take(listing.items(client, 1000), SMALL)))
  gc()
  const before = heapMb()
  const streamed = await runtime.runPromise(Stream.runCount(listing.items(client, 1000)))
  if (streamed !== count) throw new Error(`streamed ${streamed} of ${count} ${listing.noun}`)
  gc()
  const after = heapMb()
  await runtime.dispose()
  server.stop()
  return { peakMb: process.resourceUsage().maxRSS / 1024, heapGrowthMb: after - before }
}

if (process.argv[2] === "--measure") {
  const sample = await measure(byName(process.argv[3]!), Number(process.argv[4]))
  process.stdout.write(`${JSON.stringify(sample)}\n`)
  process.exit(0)
}

const inChild = (listing: Listing, count: number): Sample =>
  JSON.parse(
    execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), "--measure", listing.name, String(count)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"]
    }).trim().split("\n").pop()!
  ) as Sample

interface Measured {
  readonly listing: Listing
  readonly small: ReadonlyArray<Sample>
  readonly large: ReadonlyArray<Sample>
  readonly ratios: ReadonlyArray<number>
}

const pairs = (listing: Listing, runs: number): Measured => {
  const small: Array<Sample> = []
  const large: Array<Sample> = []
  const ratios: Array<number> = []
  for (let r = 0; r < runs; r++) {
    // Interleaved: the larger stream runs first in every other pair.
    const [a, b] = r % 2 === 0 ? [SMALL, LARGE] : [LARGE, SMALL]
    const first = inChild(listing, a)
    const second = inChild(listing, b)
    const s = a === SMALL ? first : second
    const l = a === SMALL ? second : first
    small.push(s)
    large.push(l)
    ratios.push(l.peakMb / s.peakMb)
  }
  return { listing, small, large, ratios }
}

const worstHeap = (m: Measured) => Math.max(...[...m.small, ...m.large].map((x) => Math.abs(x.heapGrowthMb)))

export const run = async (names?: ReadonlyArray<string>, runs = RUNS): Promise<ReadonlyArray<string>> => {
  const measured = (names !== undefined && names.length > 0 ? names.map(byName) : listings).map((l) => pairs(l, runs))
  const rows = measured.flatMap((m) => [
    `| ${m.listing.noun} | 100,000 | ${median(m.small.map((x) => x.peakMb)).toFixed(1)} | ${median(m.small.map((x) => x.heapGrowthMb)).toFixed(2)} | |`,
    `| ${m.listing.noun} | 1,000,000 | ${median(m.large.map((x) => x.peakMb)).toFixed(1)} | ${median(m.large.map((x) => x.heapGrowthMb)).toFixed(2)} | ${spread(m.ratios)} |`
  ])
  const accounts = measured.find((m) => m.listing.name === "accounts")
  return [
    `### Memory: peak resident memory streaming 1,000,000 items against 100,000, for each listing (FetchHttpClient, pages of 1000, a fresh process each, ${runs} interleaved pairs)`,
    "",
    "| listing | items | median peak RSS, MB | V8 heap after a full collection, after − before the stream, MB (median) | peak 1,000,000 / 100,000 (spread) |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    ...measured.map((m) =>
      `${m.listing.noun} (\`${m.listing.operation}\`): peak 1,000,000 / 100,000 at most 1.3x ${verdict(median(m.ratios) <= 1.3)} (${median(m.ratios).toFixed(2)}x); ` +
      `heap after a full collection within 1 MB of where it started ${verdict(worstHeap(m) <= 1)} (largest difference ${worstHeap(m).toFixed(2)} MB)` +
      (accounts !== undefined && m !== accounts
        ? `; peak at 1,000,000 ${(median(m.large.map((x) => x.peakMb)) / median(accounts.large.map((x) => x.peakMb))).toFixed(2)}x the accounts'.`
        : ".")
    ).flatMap((line) => [line, ""]).slice(0, -1)
  ]
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const at = args.indexOf("--runs")
  const runs = at === -1 ? RUNS : Number(args[at + 1])
  console.log((await run(args.filter((_, i) => at === -1 || (i !== at && i !== at + 1)), runs)).join("\n"))
}
