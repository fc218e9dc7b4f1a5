/**
 * Decoding a 1000-account list page (JSON text → AccountPage) with full validation (EIP-55 included),
 * as a ratio to `JSON.parse` of the same text in the same run, on each keccak engine.
 */
import { Either, Schema } from "effect"
import { keccak_256 } from "@noble/hashes/sha3.js"
import * as Account from "../../src/Account.js"
import { makeNobleEngine, makeWasmEngine, useEngine } from "../../src/internal/hexEngine.js"
import { load } from "../../src/internal/keccakWasm.js"
import { compare, fmt, median, spread, verdict } from "./harness.js"
import { pageText } from "./fixtures.js"

const RUNS = 5

export const run = async (): Promise<ReadonlyArray<string>> => {
  const text = pageText(1000)
  const slow = Schema.decodeUnknownEither(Account.AccountPage)
  const check = Account.decodePage(JSON.parse(text))
  if (Either.isLeft(check)) throw new Error(`fixture does not decode: ${check.left.message}`)
  const addresses = (JSON.parse(text) as { items: Array<{ address: string }> }).items.map((a) => a.address)
  const encoder = new TextEncoder()
  const wasm = makeWasmEngine(load()!)
  const noble = makeNobleEngine()
  const candidates = [
    { name: "JSON.parse", run: () => JSON.parse(text) },
    { name: "JSON.parse + Account.decodePage (WebAssembly keccak, the default)", run: () => (useEngine(wasm), Account.decodePage(JSON.parse(text))) },
    { name: "JSON.parse + Account.decodePage (@noble/hashes keccak, the fallback)", run: () => (useEngine(noble), Account.decodePage(JSON.parse(text))) },
    { name: "JSON.parse + Schema.decodeUnknown(AccountPage)", run: () => (useEngine(wasm), slow(JSON.parse(text))) },
    { name: "1000 EIP-55 checks, WebAssembly engine", run: () => addresses.forEach((a) => wasm.normalizeAddress(a)) },
    { name: "1000 EIP-55 checks, @noble/hashes engine", run: () => addresses.forEach((a) => noble.normalizeAddress(a)) },
    { name: "1000 keccak-256 of the lower-case hex, @noble/hashes", run: () => addresses.forEach((a) => keccak_256(encoder.encode(a.slice(2).toLowerCase()))) }
  ]
  const perRun = [] as Array<ReadonlyArray<{ readonly medianMs: number }>>
  for (let r = 0; r < RUNS; r++) perRun.push(await compare(candidates, { rounds: 60, warmup: r === 0 ? 30 : 5 }))
  useEngine(wasm)
  const ratios = candidates.map((_, i) => perRun.map((results) => results[i]!.medianMs / results[0]!.medianMs))
  const ms = candidates.map((_, i) => median(perRun.map((results) => results[i]!.medianMs)))
  const decode = median(ratios[1]!)
  return [
    "### Decoding a 1000-account page (JSON text → AccountPage, full validation)",
    "",
    `Page: ${(text.length / 1024).toFixed(0)} KiB, one pool, random checksummed addresses. ${RUNS} runs of 60 interleaved rounds; ratios to \`JSON.parse\` within each run.`,
    "",
    "| candidate | median ms | ratio to JSON.parse (spread) |",
    "| --- | ---: | ---: |",
    ...candidates.map((c, i) => `| ${c.name} | ${fmt(ms[i]!)} | ${i === 0 ? "1.00x" : spread(ratios[i]!)} |`),
    "",
    `Target at most 3x \`JSON.parse\` (stretch 2x): ${verdict(decode <= 3)} (${decode.toFixed(2)}x; stretch ${decode <= 2 ? "met" : "not met"}). ` +
    `The WebAssembly engine against the @noble/hashes fallback on the same decoding: ${(median(ratios[2]!) / decode).toFixed(2)}x faster.`
  ]
}
