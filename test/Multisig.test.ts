/**
 * The multisig pending listing's fast decoder (src/internal/decodePending.ts) is the schema: the
 * specification's examples and generated, broken and reshuffled pages decode the same way through
 * both (same Left message, or the same value, fields in the same order).
 */
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, ParseResult, Schema } from "effect"
import * as DecodePending from "../src/internal/decodePending.js"
import * as Multisig from "../src/Multisig.js"
import {
  applyToPage,
  expectSameOutcome,
  JUNK,
  type Json,
  mutation,
  outcomes,
  type Path,
  repeatedAddressPages,
  singleChanges,
  viaJson
} from "./support/pageMutations.js"

const decodePageSchema = Schema.decodeUnknownEither(Multisig.PendingTransactionPage)
const encodePage = Schema.encodeSync(Multisig.PendingTransactionPage)
const encodeItem = Schema.encodeSync(Multisig.PendingTransaction)

const fixturesDir = new URL("./fixtures/multisig/", import.meta.url)
const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(name, fixturesDir), "utf8")) as Json
const example = () => fixture("multisig-tx-list-200-success.json")

describe("the specification's examples", () => {
  it("the list example decodes the same way through both", () => {
    const body = example()
    const slow = decodePageSchema(body)
    expect(Either.isRight(slow)).toBe(true)
    expectSameOutcome(DecodePending.decodePage(body), slow)
    const page = Either.getOrThrow(DecodePending.decodePage(body))
    // `txData.from` is the account, in lower case on the wire: the same checksummed address.
    expect(page.items[0]!.txData.from).toBe(page.items[0]!.address)
    expect(page.items[0]!.txData.value).toBe(0x121111111111111111n)
    expect(viaJson(encodePage(page))).toStrictEqual(body)
  })

  it.each(readdirSync(fixturesDir).filter((n) => n.endsWith(".json")).sort())("%s: the same outcome as a page", (name) => {
    const body = fixture(name)
    expectSameOutcome(DecodePending.decodePage(body), decodePageSchema(body))
  })
})

const TX_FIELDS = ["typeInt", "from", "to", "value", "gas", "gasPrice", "nonce", "input", "accountKey", "feePayer", "feeRatio"] as const
const paths: ReadonlyArray<Path> = [
  ...["address", "chainId", "createdAt", "multiSigKeys", "status", "threshold", "transactionId", "txData", "type", "updatedAt"].map((f) => [f]),
  ["multiSigKeys", 0],
  ["multiSigKeys", 0, "address"],
  ["multiSigKeys", 0, "weight"],
  ["multiSigKeys", 1, "address"],
  ["multiSigKeys", 1, "weight"],
  ...TX_FIELDS.map((f) => ["txData", f])
]
const addressPaths: ReadonlyArray<Path> = [
  ["address"],
  ["multiSigKeys", 0, "address"],
  ["multiSigKeys", 1, "address"],
  ["txData", "from"],
  ["txData", "to"],
  ["txData", "feePayer"]
]

const itemJson = Arbitrary.make(Multisig.PendingTransaction).map((t) => viaJson(encodeItem(t)))
/** Encoded pages; half of them with one account and its signers throughout, as an account's listing has. */
const pageJson = fc.tuple(Arbitrary.make(Multisig.PendingTransactionPage), fc.boolean()).map(([page, oneAccount]) => {
  const json = viaJson(encodePage(page))
  const items = json.items as Array<Json>
  if (oneAccount) {
    for (const item of items) {
      item.address = items[0]!.address
      item.multiSigKeys = viaJson(items[0]!.multiSigKeys)
      ;(item.txData as Json).from = String(items[0]!.address).toLowerCase()
    }
  }
  return json
})
const change = mutation({ paths, addressPaths, objectPaths: [[], ["txData"], ["multiSigKeys", 0]], other: itemJson })

const mutatedPage = fc.tuple(pageJson, fc.array(change, { maxLength: 4 })).map(([page, ms]) => {
  for (const m of ms) applyToPage(page, m, addressPaths)
  return page
})

/** The example's item, and the same as other kinds: fee-delegated with a ratio, an account update. */
const templates = (): ReadonlyArray<Json> => {
  const item = (example().items as Array<Json>)[0]!
  const txData = item.txData as Json
  const { input: _input, to: _to, value: _value, ...bare } = txData
  return [
    item,
    { ...item, txData: { ...txData, typeInt: 18, feePayer: "0x85b98485444c89880cd9c48807cef727c296f2da", feeRatio: 30 } },
    { ...item, txData: { ...bare, typeInt: 32, accountKey: "0x01c0" } }
  ]
}

describe("the fast decoder is the schema", () => {
  it("on every single change to one field of an item (edits, junk, deletion), for three kinds of transaction", () => {
    const [transfer, ...others] = templates()
    // Every field of the transfer; the transaction's own fields of the other kinds.
    const txPaths = paths.filter((p) => p[0] === "txData")
    const runs = [{ template: transfer!, paths }, ...others.map((template) => ({ template, paths: txPaths }))]
    let changes = 0
    for (const run of runs) {
      for (const changed of singleChanges({ items: [run.template], cursor: "" }, 0, run.paths)) {
        expectSameOutcome(DecodePending.decodePage(changed), decodePageSchema(changed))
        changes++
      }
    }
    expect(changes).toBeGreaterThan((paths.length + 2 * txPaths.length) * JUNK.length)
  })

  it("on pages repeating an address in every spelling", () => {
    const [, withFeePayer] = templates()
    let pages = 0
    for (const page of repeatedAddressPages(withFeePayer!, addressPaths)) {
      expectSameOutcome(DecodePending.decodePage(page), decodePageSchema(page))
      pages++
    }
    expect(pages).toBe((addressPaths.length * 5) ** 2)
  })

  it.prop("decodePage on generated, broken and reshuffled pages", [mutatedPage], ([u]) => {
    expectSameOutcome(DecodePending.decodePage(u), decodePageSchema(u))
  }, { fastCheck: { numRuns: 100 } })

  it.prop("decodePage on broken copies of the specification's page", [fc.array(change, { minLength: 1, maxLength: 3 })], ([ms]) => {
    const page = example()
    for (const m of ms) applyToPage(page, m, addressPaths)
    expectSameOutcome(DecodePending.decodePage(page), decodePageSchema(page))
  }, { fastCheck: { numRuns: 120 } })

  it("the generators reach both outcomes often", () => {
    const { lefts, rights } = outcomes(fc.sample(mutatedPage, { numRuns: 150, seed: 42 }), DecodePending.decodePage)
    expect(rights).toBeGreaterThan(25)
    expect(lefts).toBeGreaterThan(25)
  })

  it.prop(
    "nothing throws, and failures are ParseErrors",
    [fc.oneof(fc.anything(), fc.record({ items: fc.array(fc.oneof(fc.anything(), fc.record({ txData: fc.anything(), multiSigKeys: fc.anything() }))), cursor: fc.anything() }))],
    ([u]) => {
      const result = DecodePending.decodePage(u)
      if (Either.isLeft(result)) expect(ParseResult.isParseError(result.left)).toBe(true)
    },
    { fastCheck: { numRuns: 120 } }
  )
})
