/**
 * Memory flat in the number of accounts: the peak resident memory of a process streaming 1,000,000
 * accounts against one streaming 100,000, each in a fresh process of its own (FetchHttpClient,
 * default read-ahead, full decoding), and the V8 heap in use after a full collection, before and
 * after the stream.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { FetchHttpClient } from "@effect/platform"
import { Layer, ManagedRuntime, Redacted, Stream } from "effect"
import { ChainId, WalletClient } from "../../src/index.js"
import { median, spread, verdict } from "./harness.js"
import { start } from "./server.js"

const RUNS = 5
const gc = () => (globalThis as { gc?: () => void }).gc?.()
const heapMb = () => process.memoryUsage().heapUsed / 1024 / 1024

interface Sample {
  readonly peakMb: number
  readonly heapGrowthMb: number
}

/** In the child: streams `accounts` accounts once after a warm-up stream, and prints a Sample. */
const measure = async (accounts: number): Promise<Sample> => {
  const server = await start({ pages: accounts / 1000 })
  const runtime = ManagedRuntime.make(
    WalletClient.layer({
      credentials: { accessKeyId: "bench", secretAccessKey: Redacted.make("secret") },
      chainId: ChainId.Testnet,
      baseUrl: server.url
    }).pipe(Layer.provideMerge(FetchHttpClient.layer), Layer.orDie)
  )
  const client = await runtime.runPromise(WalletClient.WalletClient)
  // The warm-up streams 100,000 accounts first: what the first long stream leaves on the heap once
  // (optimized code and its feedback, ~3.6 MB; 0.05-0.25 MB for each stream after it) is not what
  // a stream retains.
  await runtime.runPromise(Stream.runDrain(Stream.take(client.accounts({ pageSize: 1000 }), 100_000)))
  gc()
  const before = heapMb()
  const count = await runtime.runPromise(Stream.runCount(client.accounts({ pageSize: 1000 })))
  if (count !== accounts) throw new Error(`streamed ${count} of ${accounts}`)
  gc()
  const after = heapMb()
  await runtime.dispose()
  server.stop()
  return { peakMb: process.resourceUsage().maxRSS / 1024, heapGrowthMb: after - before }
}

if (process.argv[2] === "--measure") {
  const sample = await measure(Number(process.argv[3]))
  process.stdout.write(`${JSON.stringify(sample)}\n`)
  process.exit(0)
}

const inChild = (accounts: number): Sample =>
  JSON.parse(
    execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), "--measure", String(accounts)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"]
    }).trim().split("\n").pop()!
  ) as Sample

export const run = async (): Promise<ReadonlyArray<string>> => {
  const small: Array<Sample> = []
  const large: Array<Sample> = []
  const ratios: Array<number> = []
  for (let r = 0; r < RUNS; r++) {
    const [a, b] = r % 2 === 0 ? [100_000, 1_000_000] : [1_000_000, 100_000]
    const first = inChild(a)
    const second = inChild(b)
    const s = a === 100_000 ? first : second
    const l = a === 100_000 ? second : first
    small.push(s)
    large.push(l)
    ratios.push(l.peakMb / s.peakMb)
  }
  const heapGrowth = [...small, ...large].map((x) => Math.abs(x.heapGrowthMb))
  const worstHeap = Math.max(...heapGrowth)
  return [
    `### Memory: peak resident memory streaming 1,000,000 accounts against 100,000 (FetchHttpClient, a fresh process each, ${RUNS} interleaved pairs)`,
    "",
    "| accounts | median peak RSS, MB | V8 heap after a full collection, after − before the stream, MB (median) |",
    "| ---: | ---: | ---: |",
    `| 100,000 | ${median(small.map((x) => x.peakMb)).toFixed(1)} | ${median(small.map((x) => x.heapGrowthMb)).toFixed(2)} |`,
    `| 1,000,000 | ${median(large.map((x) => x.peakMb)).toFixed(1)} | ${median(large.map((x) => x.heapGrowthMb)).toFixed(2)} |`,
    "",
    `Peak 1,000,000 / 100,000: ${spread(ratios)}. Target at most 1.3x: ${verdict(median(ratios) <= 1.3)}. ` +
    `Heap after a full collection within 1 MB of where it started: ${verdict(worstHeap <= 1)} (largest difference ${worstHeap.toFixed(2)} MB).`
  ]
}
