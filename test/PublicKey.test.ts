import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import * as PublicKey from "../src/PublicKey.js"

const decodeKey = Schema.decodeUnknownEither(PublicKey.PublicKey)
const hexDigits = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${n}}$`))

const FIXTURE_KEY =
  "0x04cdccfb99b2905561e3dd886687b429a004718f11b04914f17ce68fd3a0db46c598a45da85caa61fe84cb78a0f2eaa9983ec7b8805a93ef9428eb1350a8558237"

const RULE = "public key must be 0x04 + 128 hex digits (uncompressed), 0x02/0x03 + 64 (compressed) or 0x + 128 (raw)"

const rejected = (s: unknown): string => {
  const result = decodeKey(s)
  expect(Either.isLeft(result)).toBe(true)
  return Either.isLeft(result) ? result.left.message : ""
}

// The reference definition of the accepted forms.
const referenceFormat = (s: string): "uncompressed" | "compressed" | "raw" | undefined =>
  /^0x04[0-9a-fA-F]{128}$/.test(s)
    ? "uncompressed"
    : /^0x0[23][0-9a-fA-F]{64}$/.test(s)
    ? "compressed"
    : /^0x[0-9a-fA-F]{128}$/.test(s)
    ? "raw"
    : undefined

describe("PublicKey", () => {
  it("accepts the fixture's key, kept as received", () => {
    expect(Schema.decodeSync(PublicKey.PublicKey)(FIXTURE_KEY)).toBe(FIXTURE_KEY)
    expect(PublicKey.format(Schema.decodeSync(PublicKey.PublicKey)(FIXTURE_KEY))).toBe("uncompressed")
    expect(Schema.decodeSync(PublicKey.PublicKey)(FIXTURE_KEY.toUpperCase().replace("0X", "0x"))).toBe(
      FIXTURE_KEY.toUpperCase().replace("0X", "0x")
    )
  })

  it.prop("uncompressed: 0x04 + 128 hex digits, either case", [hexDigits(128)], ([h]) => {
    const key = `0x04${h}`
    expect(decodeKey(key)).toStrictEqual(Either.right(key))
    expect(PublicKey.format(key as PublicKey.PublicKey)).toBe("uncompressed")
  })

  it.prop("compressed: 0x02 / 0x03 + 64 hex digits, either case", [fc.constantFrom("02", "03"), hexDigits(64)], ([p, h]) => {
    const key = `0x${p}${h}`
    expect(decodeKey(key)).toStrictEqual(Either.right(key))
    expect(PublicKey.format(key as PublicKey.PublicKey)).toBe("compressed")
  })

  it.prop("raw: 0x + 128 hex digits, either case", [hexDigits(128)], ([h]) => {
    const key = `0x${h}`
    expect(decodeKey(key)).toStrictEqual(Either.right(key))
    expect(PublicKey.format(key as PublicKey.PublicKey)).toBe("raw")
  })

  it.each([
    ["a wrong prefix byte, uncompressed length", `0x05${"ab".repeat(64)}`],
    ["0x04 with a compressed length", `0x04${"ab".repeat(32)}`],
    ["0x02 with an uncompressed length", `0x02${"ab".repeat(64)}`],
    ["0x01 with a compressed length", `0x01${"ab".repeat(32)}`],
    ["no 0x", `04${"ab".repeat(64)}`],
    ["0X", `0X04${"ab".repeat(64)}`],
    ["one digit short", `0x04${"ab".repeat(64).slice(1)}`],
    ["one digit long", `0x04${"ab".repeat(64)}0`],
    ["a non-hex digit", `0x04${"ab".repeat(63)}ag`],
    ["a non-ASCII digit", `0x04${"ab".repeat(63)}a０`],
    ["the empty string", ""],
    ["just 0x", "0x"]
  ])("rejects %s", (_, s) => {
    expect(rejected(s)).toContain(RULE)
  })

  it("rejects non-strings", () => {
    for (const bad of [undefined, null, 4, {}, []]) expect(Either.isLeft(decodeKey(bad))).toBe(true)
  })

  const nearKey = fc.oneof(
    fc.tuple(fc.constantFrom("0x", "0X", "", "0x04", "0x02", "0x03", "0x05", "0x00"), fc.stringMatching(/^[0-9a-fA-F]{60,132}$/)).map(([p, h]) => p + h),
    fc.tuple(fc.constantFrom("0x04", "0x02", "0x"), fc.stringMatching(/^[0-9a-gA-G]{64,128}$/)).map(([p, h]) => p + h),
    fc.string()
  )

  it.prop("accepted exactly when the reference definition accepts, and format agrees", [nearKey], ([s]) => {
    const expected = referenceFormat(s)
    const result = decodeKey(s)
    expect(Either.isRight(result)).toBe(expected !== undefined)
    expect(PublicKey.isPublicKey(s)).toBe(expected !== undefined)
    if (Either.isRight(result)) expect(PublicKey.format(result.right)).toBe(expected)
  }, { fastCheck: { numRuns: 500 } })

  it.prop("generated keys are valid", [PublicKey.PublicKey], ([key]) => {
    expect(referenceFormat(key)).toBe(PublicKey.format(key))
  })
})
