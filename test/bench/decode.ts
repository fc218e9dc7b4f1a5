/**
 * Decoding a 1000-account list page (JSON text → AccountPage), as a ratio to `JSON.parse` of the
 * same text in the same run.
 */
import { Either, Schema } from "effect"
import { keccak_256 } from "@noble/hashes/sha3.js"
import * as Account from "../../src/Account.js"
import { engine, makeNobleEngine, makeWasmEngine, useEngine } from "../../src/internal/hexEngine.js"
import { load } from "../../src/internal/keccakWasm.js"
import { compare, fmt } from "./harness.js"
import { pageText } from "./fixtures.js"

export const run = async (): Promise<ReadonlyArray<string>> => {
  const text = pageText(1000)
  const slow = Schema.decodeUnknownEither(Account.AccountPage)
  const check = Account.decodePage(JSON.parse(text))
  if (Either.isLeft(check)) throw new Error(`fixture does not decode: ${check.left.message}`)
  const addresses = (JSON.parse(text) as { items: Array<{ address: string }> }).items.map((a) => a.address)
  const encoder = new TextEncoder()
  const wasm = makeWasmEngine(load()!)
  const noble = makeNobleEngine()
  const results = await compare([
    { name: "JSON.parse", run: () => JSON.parse(text) },
    { name: "JSON.parse + Account.decodePage", run: () => (useEngine(wasm), Account.decodePage(JSON.parse(text))) },
    { name: "JSON.parse + Account.decodePage, noble engine", run: () => (useEngine(noble), Account.decodePage(JSON.parse(text))) },
    { name: "JSON.parse + Schema.decodeUnknown(AccountPage)", run: () => (useEngine(wasm), slow(JSON.parse(text))) },
    { name: `1000 EIP-55 checks, ${engine().engine} engine`, run: () => addresses.forEach((a) => wasm.normalizeAddress(a)) },
    { name: "1000 EIP-55 checks, noble engine", run: () => addresses.forEach((a) => noble.normalizeAddress(a)) },
    { name: "1000 keccak-256, @noble/hashes", run: () => addresses.forEach((a) => keccak_256(encoder.encode(a.slice(2).toLowerCase()))) }
  ], { rounds: 200, warmup: 30 })
  const base = results[0]!.medianMs
  return [
    "### Decoding a 1000-account page (JSON text → AccountPage)",
    "",
    `Page: ${(text.length / 1024).toFixed(0)} KiB, one pool, random checksummed addresses. Median of 200 interleaved rounds.`,
    "",
    "| candidate | median ms | p90 ms | ratio to JSON.parse |",
    "| --- | ---: | ---: | ---: |",
    ...results.map((r) => `| ${r.name} | ${fmt(r.medianMs)} | ${fmt(r.p90Ms)} | ${(r.medianMs / base).toFixed(2)}x |`),
    "",
    `Target: \`JSON.parse + Account.decodePage\` at most 3x \`JSON.parse\`: **${(results[1]!.medianMs / base).toFixed(2)}x**.`
  ]
}
