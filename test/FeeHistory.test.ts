/**
 * The fee-delegation history's fast decoder (src/internal/decodeHistory.ts) is the schema: the
 * specification's examples and generated, broken and reshuffled pages and records decode the same
 * way through both (same Left message, or the same value, fields in the same order).
 */
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, Option, ParseResult, Schema } from "effect"
import * as Address from "../src/Address.js"
import * as FeeHistory from "../src/FeeHistory.js"
import * as DecodeHistory from "../src/internal/decodeHistory.js"
import {
  applyToItem,
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

const decodePageSchema = Schema.decodeUnknownEither(FeeHistory.FeeDelegationHistoryPage)
const decodeRecordSchema = Schema.decodeUnknownEither(FeeHistory.FeeDelegationRecord)
const encodePage = Schema.encodeSync(FeeHistory.FeeDelegationHistoryPage)
const encodeRecord = Schema.encodeSync(FeeHistory.FeeDelegationRecord)

const fixturesDir = new URL("./fixtures/history/", import.meta.url)
const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(name, fixturesDir), "utf8")) as Json

describe("the specification's examples", () => {
  const names = readdirSync(fixturesDir).filter((n) => n.endsWith(".json")).sort()

  it("the list example decodes the same way through both, to its records", () => {
    const body = fixture("fd-history-list-200-success.json")
    const slow = decodePageSchema(body)
    expect(Either.isRight(slow)).toBe(true)
    expectSameOutcome(DecodeHistory.decodePage(body), slow)
    const page = Either.getOrThrow(DecodeHistory.decodePage(body))
    expect(page.items.map((r) => r.chargedByPeb)).toStrictEqual([3877775000000000n, 3877775000000000n])
    // The wire's lower-case addresses, checksummed.
    expect(page.items[0]!.from).toBe(Option.getOrThrow(Address.checksum("0x9154cc66c18fd04632d6daf98af8de0a99801c6d")))
    expect(page.items[0]!.from).not.toBe(page.items[0]!.from.toLowerCase())
    expect(viaJson(encodePage(page))).toStrictEqual(body)
  })

  it("the record example decodes the same way through both", () => {
    const body = fixture("fd-history-get-200-success.json")
    const slow = decodeRecordSchema(body)
    expect(Either.isRight(slow)).toBe(true)
    expectSameOutcome(DecodeHistory.decodeRecord(body), slow)
    expect(viaJson(encodeRecord(Either.getOrThrow(DecodeHistory.decodeRecord(body))))).toStrictEqual(body)
  })

  it.each(names)("%s: the same outcome as a page and as a record", (name) => {
    const body = fixture(name)
    expectSameOutcome(DecodeHistory.decodePage(body), decodePageSchema(body))
    expectSameOutcome(DecodeHistory.decodeRecord(body), decodeRecordSchema(body))
  })
})

const FIELDS = [
  "chainId", "chargedByKlay", "chargedByKrw", "chargedByPeb", "chargedByUsd", "feePayer", "from", "to", "gasPrice", "gasUsed",
  "krw", "usd", "status", "timestamp", "transactionHash", "typeInt", "feeRatio"
] as const
const paths: ReadonlyArray<Path> = FIELDS.map((f) => [f])
const addressPaths: ReadonlyArray<Path> = [["feePayer"], ["from"], ["to"]]

const recordJson = Arbitrary.make(FeeHistory.FeeDelegationRecord).map((r) => viaJson(encodeRecord(r)))
/** Encoded pages; half of them with one fee payer throughout, as a member's history has. */
const pageJson = fc.tuple(Arbitrary.make(FeeHistory.FeeDelegationHistoryPage), fc.boolean()).map(([page, onePayer]) => {
  const json = viaJson(encodePage(page))
  const items = json.items as Array<Json>
  if (onePayer) for (const item of items) item.feePayer = items[0]!.feePayer
  return json
})
const change = mutation({ paths, addressPaths, objectPaths: [[]], other: recordJson })

const mutatedPage = fc.tuple(pageJson, fc.array(change, { maxLength: 4 })).map(([page, ms]) => {
  for (const m of ms) applyToPage(page, m, addressPaths)
  return page
})
const mutatedRecord = fc.tuple(recordJson, fc.array(change, { maxLength: 2 })).map(([record, ms]) => {
  for (const m of ms) applyToItem(record, m)
  return record
})

describe("the fast decoder is the schema", () => {
  it("on every single change to one field of a record of the specification's page (edits, junk, deletion)", () => {
    // The example's second record, with the optional fields too.
    const page = fixture("fd-history-list-200-success.json")
    Object.assign((page.items as Array<Json>)[1]!, { to: "0x60d0902c428d0e197f97a756011fd4893c1e57b0", feeRatio: "30", typeInt: 42 })
    let changes = 0
    for (const changed of singleChanges(page, 1, paths)) {
      expectSameOutcome(DecodeHistory.decodePage(changed), decodePageSchema(changed))
      const record = (changed.items as Array<unknown>)[1]
      expectSameOutcome(DecodeHistory.decodeRecord(record), decodeRecordSchema(record))
      changes++
    }
    expect(changes).toBeGreaterThan(paths.length * JUNK.length)
  })

  it("on pages repeating an address in every spelling", () => {
    const record = (fixture("fd-history-list-200-success.json").items as Array<Json>)[0]!
    let pages = 0
    for (const page of repeatedAddressPages({ ...record, to: record.from }, addressPaths)) {
      expectSameOutcome(DecodeHistory.decodePage(page), decodePageSchema(page))
      pages++
    }
    expect(pages).toBe((addressPaths.length * 5) ** 2)
  })

  it.prop("decodePage on generated, broken and reshuffled pages", [mutatedPage], ([u]) => {
    expectSameOutcome(DecodeHistory.decodePage(u), decodePageSchema(u))
  }, { fastCheck: { numRuns: 180 } })

  it.prop("decodeRecord on generated and broken records", [mutatedRecord], ([u]) => {
    expectSameOutcome(DecodeHistory.decodeRecord(u), decodeRecordSchema(u))
  }, { fastCheck: { numRuns: 180 } })

  it.prop("decodePage on broken copies of the specification's page", [fc.array(change, { minLength: 1, maxLength: 3 })], ([ms]) => {
    const page = fixture("fd-history-list-200-success.json")
    for (const m of ms) applyToPage(page, m, addressPaths)
    expectSameOutcome(DecodeHistory.decodePage(page), decodePageSchema(page))
  }, { fastCheck: { numRuns: 120 } })

  it("the generators reach both outcomes often", () => {
    const pages = outcomes(fc.sample(mutatedPage, { numRuns: 300, seed: 42 }), DecodeHistory.decodePage)
    const records = outcomes(fc.sample(mutatedRecord, { numRuns: 300, seed: 42 }), DecodeHistory.decodeRecord)
    for (const { lefts, rights } of [pages, records]) {
      expect(rights).toBeGreaterThan(40)
      expect(lefts).toBeGreaterThan(40)
    }
  })

  it.prop("nothing throws, and failures are ParseErrors", [fc.oneof(fc.anything(), fc.record({ items: fc.array(fc.anything()), cursor: fc.anything() }))], ([u]) => {
    const decoders: ReadonlyArray<(u: unknown) => Either.Either<unknown, ParseResult.ParseError>> = [DecodeHistory.decodePage, DecodeHistory.decodeRecord]
    for (const decode of decoders) {
      const result = decode(u)
      if (Either.isLeft(result)) expect(ParseResult.isParseError(result.left)).toBe(true)
    }
  }, { fastCheck: { numRuns: 120 } })
})
