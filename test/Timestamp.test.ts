import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import * as Timestamp from "../src/Timestamp.js"

const decodeTimestamp = Schema.decodeUnknownEither(Timestamp.Timestamp)
const decodeFromDate = Schema.decodeUnknownEither(Timestamp.FromDateOrSeconds)

const rejected = (result: Either.Either<unknown, { readonly message: string }>): string => {
  expect(Either.isLeft(result)).toBe(true)
  return Either.isLeft(result) ? result.left.message : ""
}

describe("Timestamp", () => {
  it("accepts the fixture's createdAt and the bounds", () => {
    expect(decodeTimestamp(1599187293)).toStrictEqual(Either.right(1599187293))
    expect(decodeTimestamp(0)).toStrictEqual(Either.right(0))
    expect(decodeTimestamp(Timestamp.Max)).toStrictEqual(Either.right(Timestamp.Max))
    expect(Timestamp.Max).toBe(Date.UTC(9999, 11, 31, 23, 59, 59) / 1000)
  })

  it.prop(
    "accepts exactly the integers 0..Max",
    [fc.oneof(fc.integer(), fc.double(), fc.maxSafeInteger(), fc.integer({ min: 0, max: Timestamp.Max + 10 }), fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, Timestamp.Max + 1))],
    ([n]) => {
      const ok = Number.isInteger(n) && n >= 0 && n <= Timestamp.Max
      expect(Either.isRight(decodeTimestamp(n))).toBe(ok)
      expect(Timestamp.isTimestamp(n)).toBe(ok)
    }
  )

  it.prop("rejects negatives", [fc.integer({ max: -1 })], ([n]) => {
    expect(rejected(decodeTimestamp(n))).toContain(`timestamp must be a whole number of Unix seconds from 0 to ${Timestamp.Max}`)
  })

  it.prop("rejects non-integers", [fc.double({ min: 0, max: Timestamp.Max, noInteger: true })], ([n]) => {
    expect(rejected(decodeTimestamp(n))).toContain("timestamp must be a whole number of Unix seconds")
  })

  it.prop(
    "rejects millisecond-looking values, saying so",
    [fc.integer({ min: Date.UTC(1978, 0, 12), max: Date.UTC(2200, 0, 1) })],
    ([ms]) => {
      expect(rejected(decodeTimestamp(ms))).toContain("(milliseconds?)")
    }
  )

  it("rejects Date.now() with the milliseconds hint", () => {
    expect(rejected(decodeTimestamp(Date.now()))).toContain("milliseconds")
    expect(rejected(decodeTimestamp("1599187293"))).toContain("Expected number")
  })

  it.prop("FromDateOrSeconds: a Date decodes to its Unix seconds, rounded down", [fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)), noInvalidDate: true })], ([d]) => {
    const expected = Math.floor(d.getTime() / 1000)
    expect(decodeFromDate(d)).toStrictEqual(Either.right(expected))
    expect(Timestamp.fromDate(d)).toBe(expected)
    expect(Timestamp.toDate(Timestamp.fromDate(d)).getTime()).toBe(expected * 1000)
    expect(Schema.encodeSync(Timestamp.FromDateOrSeconds)(Timestamp.fromDate(d))).toBe(expected)
  })

  it("FromDateOrSeconds: numbers pass through; invalid and pre-1970 dates are rejected", () => {
    expect(decodeFromDate(1599187293)).toStrictEqual(Either.right(1599187293))
    expect(decodeFromDate(new Date(1599187293999))).toStrictEqual(Either.right(1599187293))
    expect(rejected(decodeFromDate(new Date(NaN)))).toContain("timestamp must be a valid Date")
    expect(rejected(decodeFromDate(new Date(-1000)))).toContain("timestamp must be a whole number")
    expect(rejected(decodeFromDate(1599187293000))).toContain("milliseconds")
    expect(Either.isLeft(decodeFromDate("2020-01-01"))).toBe(true)
  })
})
