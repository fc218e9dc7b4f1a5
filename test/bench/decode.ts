/**
 * Decoding a 1000-account list page (JSON text → AccountPage) with full validation (EIP-55 included),
 * as a ratio to `JSON.parse` of the same text in the same run, on each keccak engine.
 */
import { Either, Schema } from "effect"
import { keccak_256 } from "@noble/hashes/sha3.js"
import * as Account from "../../src/Account.js"
import * as DecodeAccounts from "../../src/internal/decodeAccounts.js"
import { makeNobleEngine, makeWasmEngine, useEngine } from "../../src/internal/hexEngine.js"
import { load } from "../../src/internal/keccakWasm.js"
import { compare, fmt, median, spread, verdict } from "./harness.js"
import { pageText } from "./fixtures.js"

const RUNS = 5

export const run = async (): Promise<ReadonlyArray<string>> => {
  const text = pageText(1000)
  const slow = Schema.decodeUnknownEither(Account.AccountPage)
  const check = DecodeAccounts.decodePage(JSON.parse(text))
  if (Either.isLeft(check)) throw new Error(`fixture does not decode: ${check.left.message}`)
  const addresses = (JSON.parse(text) as { items: Array<{ address: string }> }).items.map((a) => a.address)
  const encoder = new TextEncoder()
  const wasm = makeWasmEngine(load()!)
  const noble = makeNobleEngine()
  // The target's pair is measured on its own: interleaving the schema path (13 ms of garbage a
  // round) would put its collections into the other candidates' times.
  const target = [
    { name: "JSON.parse", run: () => JSON.parse(text) },
    { name: "JSON.parse + DecodeAccounts.decodePage (WebAssembly keccak, the default)", run: () => DecodeAccounts.decodePage(JSON.parse(text)) }
  ]
  const others = [
    { name: "JSON.parse", run: () => JSON.parse(text) },
    { name: "JSON.parse + Schema.decodeUnknown(AccountPage)", run: () => slow(JSON.parse(text)) },
    { name: "1000 EIP-55 checks, WebAssembly engine", run: () => addresses.forEach((a) => wasm.normalizeAddress(a)) },
    { name: "1000 EIP-55 checks, @noble/hashes engine", run: () => addresses.forEach((a) => noble.normalizeAddress(a)) },
    { name: "1000 keccak-256 of the lower-case hex, @noble/hashes", run: () => addresses.forEach((a) => keccak_256(encoder.encode(a.slice(2).toLowerCase()))) }
  ]
  // The engines side by side on the same decoding, a pair of their own (the ratio is within each run).
  const engines = [
    { name: "JSON.parse + DecodeAccounts.decodePage (WebAssembly keccak)", run: () => (useEngine(wasm), DecodeAccounts.decodePage(JSON.parse(text))) },
    { name: "JSON.parse + DecodeAccounts.decodePage (@noble/hashes keccak, the fallback)", run: () => (useEngine(noble), DecodeAccounts.decodePage(JSON.parse(text))) }
  ]
  useEngine(wasm)
  const targetRuns = [] as Array<ReadonlyArray<{ readonly medianMs: number }>>
  for (let r = 0; r < RUNS; r++) targetRuns.push(await compare(target, { rounds: 100, warmup: r === 0 ? 30 : 5 }))
  const engineRuns = [] as Array<ReadonlyArray<{ readonly medianMs: number }>>
  for (let r = 0; r < RUNS; r++) engineRuns.push(await compare(engines, { rounds: 30, warmup: r === 0 ? 10 : 2 }))
  useEngine(wasm)
  const otherRuns = [] as Array<ReadonlyArray<{ readonly medianMs: number }>>
  for (let r = 0; r < RUNS; r++) otherRuns.push(await compare(others, { rounds: 30, warmup: r === 0 ? 10 : 2 }))
  const ratiosOf = (runs: typeof targetRuns, i: number) => runs.map((results) => results[i]!.medianMs / results[0]!.medianMs)
  const msOf = (runs: typeof targetRuns, i: number) => median(runs.map((results) => results[i]!.medianMs))
  const decode = median(ratiosOf(targetRuns, 1))
  const rows = [
    `| ${target[0]!.name} | ${fmt(msOf(targetRuns, 0))} | 1.00x |`,
    `| ${target[1]!.name} | ${fmt(msOf(targetRuns, 1))} | ${spread(ratiosOf(targetRuns, 1))} |`,
    `| ${engines[1]!.name} | ${fmt(msOf(engineRuns, 1))} | not to JSON.parse: ${spread(ratiosOf(engineRuns, 1))} the WebAssembly decoding, side by side |`,
    ...others.slice(1).map((c, i) => `| ${c.name} | ${fmt(msOf(otherRuns, i + 1))} | ${spread(ratiosOf(otherRuns, i + 1))} |`)
  ]
  const nobleRatio = median(ratiosOf(engineRuns, 1))
  return [
    "### Decoding a 1000-account page (JSON text → AccountPage, full validation)",
    "",
    `Page: ${(text.length / 1024).toFixed(0)} KiB, one pool, random checksummed addresses. ${RUNS} runs of interleaved rounds; ratios to \`JSON.parse\` within each run (the target pair alone, the other rows together).`,
    "",
    "| candidate | median ms | ratio to JSON.parse (spread) |",
    "| --- | ---: | ---: |",
    ...rows,
    "",
    `Target at most 3x \`JSON.parse\` (stretch 2x): ${verdict(decode <= 3)} (${decode.toFixed(2)}x; stretch ${decode <= 2 ? "met" : "not met"}). ` +
    `The @noble/hashes fallback against the WebAssembly engine on the same decoding, side by side: ${spread(ratiosOf(engineRuns, 1))} the time, ` +
    `so the WebAssembly engine ${nobleRatio > 1.2 ? "stays" : "does not earn its place"}.`
  ]
}
