/**
 * Decoding a 1000-item page of the fee-delegation history and of a multisig account's pending
 * transactions (JSON text → page, full validation), with the schema and with the client's fast
 * decoder, as ratios to `JSON.parse` of the same text in the same run; beside them the accounts'
 * fast decoder on its own page, for scale. Pages are the streaming benchmarks' (`fixtures.listingItems`).
 *
 * `npm run bench -- decodelistings`.
 */
import { Either, Schema } from "effect"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as FeeHistory from "../../src/FeeHistory.js"
import * as DecodeAccounts from "../../src/internal/decodeAccounts.js"
import * as DecodeHistory from "../../src/internal/decodeHistory.js"
import * as DecodePending from "../../src/internal/decodePending.js"
import * as Multisig from "../../src/Multisig.js"
import { compare, fmt, median, spread } from "./harness.js"
import { listingItems, multisigPath } from "./fixtures.js"

const RUNS = 5

const pageOf = (path: string): string =>
  JSON.stringify({ items: Array.from({ length: 1000 }, (_, i) => listingItems[path]!(i)), cursor: "" })

const checked = (name: string, decode: (u: unknown) => Either.Either<unknown, unknown>, text: string) => {
  if (Either.isLeft(decode(JSON.parse(text)))) throw new Error(`${name}: the fixture page does not decode`)
  return () => decode(JSON.parse(text))
}

export const run = async (): Promise<ReadonlyArray<string>> => {
  const listings = [
    {
      noun: "fee-delegation records",
      text: pageOf("/v2/history/fd/tx"),
      schema: Schema.decodeUnknownEither(FeeHistory.FeeDelegationHistoryPage),
      fast: DecodeHistory.decodePage,
      fastName: "DecodeHistory.decodePage"
    },
    {
      noun: "pending multisig transactions",
      text: pageOf(multisigPath),
      schema: Schema.decodeUnknownEither(Multisig.PendingTransactionPage),
      fast: DecodePending.decodePage,
      fastName: "DecodePending.decodePage"
    },
    {
      noun: "accounts",
      text: pageOf("/v2/account"),
      schema: undefined,
      fast: DecodeAccounts.decodePage,
      fastName: "DecodeAccounts.decodePage"
    }
  ]
  const rows: Array<string> = []
  // Each decoder is paired with JSON.parse on its own: interleaving the schema path (20-30 ms of
  // garbage a round) would put its collections into the fast decoder's time.
  const measure = async (candidates: ReadonlyArray<{ readonly name: string; readonly run: () => unknown }>) => {
    const runs: Array<ReadonlyArray<{ readonly medianMs: number }>> = []
    for (let r = 0; r < RUNS; r++) runs.push(await compare(candidates, { rounds: 30, warmup: r === 0 ? 10 : 2 }))
    return {
      ms: (i: number) => median(runs.map((results) => results[i]!.medianMs)),
      ratios: (i: number) => runs.map((results) => results[i]!.medianMs / results[0]!.medianMs)
    }
  }
  for (const l of listings) {
    const parse = { name: "JSON.parse", run: () => JSON.parse(l.text) }
    const page = `${l.noun} (${(l.text.length / 1024).toFixed(0)} KiB)`
    const fast = await measure([parse, { name: `JSON.parse + ${l.fastName}`, run: checked(l.noun, l.fast, l.text) }])
    rows.push(`| ${page} | JSON.parse | ${fmt(fast.ms(0))} | 1.00x |`)
    rows.push(`| ${page} | JSON.parse + ${l.fastName} | ${fmt(fast.ms(1))} | ${spread(fast.ratios(1))} |`)
    if (l.schema !== undefined) {
      const slow = await measure([parse, { name: "JSON.parse + the schema", run: checked(l.noun, l.schema, l.text) }])
      rows.push(`| ${page} | JSON.parse + the page's schema | ${fmt(slow.ms(1))} | ${spread(slow.ratios(1))} |`)
    }
  }
  return [
    "### Decoding a 1000-item page of the other listings (JSON text → page, full validation)",
    "",
    `The streaming benchmarks' pages (test/bench/fixtures.ts): history records with random senders and recipients and one fee payer; one multisig account's pending value transfers (three signers, random recipients). ${RUNS} runs of interleaved rounds, each decoder paired with \`JSON.parse\` on its own; ratios to \`JSON.parse\` within each run.`,
    "",
    "| page | candidate | median ms | ratio to JSON.parse (spread) |",
    "| --- | --- | ---: | ---: |",
    ...rows
  ]
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log((await run()).join("\n"))
}
