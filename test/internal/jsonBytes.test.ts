import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { parse } from "../../src/internal/jsonBytes.js"
import { binaryString } from "../support/binaryString.js"

const bytesOf = (text: string) => new TextEncoder().encode(text)
const never = () => false

// What JSON.parse makes of the same bytes decoded whole (a leading byte-order mark dropped, as the
// platform's `text` does), or `undefined` when it throws.
const whole = (bytes: Uint8Array): { readonly value: unknown } | undefined => {
  try {
    return { value: JSON.parse(new TextDecoder().decode(bytes)) }
  } catch {
    return undefined
  }
}

// Deep equality that also sees key order and own `__proto__` keys.
const same = (a: unknown, b: unknown) => {
  expect(a).toStrictEqual(b)
  expect(JSON.stringify(a)).toBe(JSON.stringify(b))
}

// JSON values whose strings and keys take any code point (astral ones, U+FEFF, what JSON.stringify
// escapes), with `__proto__` among the keys.
// Strings of any code point, and strings of the characters the scan must see through: quotes and
// backslashes (JSON.stringify escapes them), brackets, commas, colons, white space.
const string = (maxLength: number) =>
  fc.oneof(
    binaryString({ maxLength }),
    fc.string({ unit: fc.constantFrom("\"", "\\", "{", "}", "[", "]", ",", ":", " ", "\n", "a", "\u2028", "\uFEFF"), maxLength })
  )
const key = fc.oneof({ weight: 6, arbitrary: string(6) }, { weight: 1, arbitrary: fc.constant("__proto__") })
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    string(12),
    fc.array(tie("json"), { maxLength: 12 }),
    fc.dictionary(key, tie("json"), { maxKeys: 6 })
  )
}))

// JSON texts with strings of any code point (astral ones, U+FEFF and escapes included), spread
// over lines or not, and pieces small enough (`limit`) that arrays are cut into groups and objects
// into members at every depth.
const texts = fc.record({
  value: json,
  indent: fc.constantFrom(undefined, 0, 1, 2, "\t", " \r\n"),
  bom: fc.boolean()
}).map(({ bom, indent, value }) => `${bom ? "\uFEFF" : ""}${JSON.stringify(value, null, indent as never) ?? "null"}`)
const limits = fc.integer({ min: 1, max: 80 })

describe("jsonBytes.parse", () => {
  it.prop("gives what JSON.parse gives of the whole text, whatever the size of the pieces", [texts, limits], ([text, limit]) => {
    const bytes = bytesOf(text)
    const got = parse(bytes, never, limit)
    expect(got).not.toBe(undefined)
    same(got, whole(bytes))
  }, { fastCheck: { numRuns: 400 } })

  it.prop("a text that is not JSON is declined (parsed whole, with JSON.parse's error); one that is gives the same value", [
    texts,
    limits,
    fc.array(fc.record({ at: fc.nat(), cut: fc.nat({ max: 2 }), put: fc.constantFrom("", ",", ":", "[", "]", "{", "}", "\"", "\\", " ", "\uFEFF", "1", "-", "e", "n", "x", "é") }), { minLength: 1, maxLength: 3 })
  ], ([text, limit, edits]) => {
    let edited = text
    for (const { at, cut, put } of edits) {
      const i = at % (edited.length + 1)
      edited = edited.slice(0, i) + put + edited.slice(i + cut)
    }
    const bytes = bytesOf(edited)
    const expected = whole(bytes)
    const got = parse(bytes, never, limit)
    if (expected === undefined) expect(got).toBe(undefined)
    else if (got !== undefined) same(got, expected)
  }, { fastCheck: { numRuns: 5000 } })

  it("keys as JSON.parse keeps them: __proto__ as an own property, the last of repeated keys in the first's place", () => {
    const text = `{"__proto__":{"polluted":true},"a":[${Array.from({ length: 50 }, (_, i) => i).join(",")}],"b":1,"a":"again"}`
    const got = parse(bytesOf(text), never, 8) as { readonly value: Record<string, unknown> }
    same(got, whole(bytesOf(text)))
    expect(Object.getPrototypeOf(got.value)).toBe(Object.prototype)
    expect(Object.keys(got.value)).toEqual(["__proto__", "a", "b"])
  })

  it("declines what a scan of the structure alone would take: empty elements, trailing commas, a byte-order mark inside", () => {
    for (
      const text of [
        "",
        "  ",
        `[${"1,".repeat(40)}]`,
        `[,${"1,".repeat(40)}1]`,
        `[${"1,".repeat(40)},1]`,
        `{"a":${"[1],".repeat(20)}}`,
        `{"a":[${"1,".repeat(40)}1],}`,
        `{"a" ${"1".repeat(40)}}`,
        `[${"1,".repeat(40)}\uFEFF1]`,
        `[${"[1],".repeat(40)}[1}]`,
        `{"a":[${"1,".repeat(40)}1]} x`
      ]
    ) {
      expect(whole(bytesOf(text)), text).toBe(undefined)
      expect(parse(bytesOf(text), never, 8), text).toBe(undefined)
    }
    // An element so small that it is a group of its own: an empty one is no group of nothing.
    for (const text of ["[,null]", "[null,,null]", "{\"a\":[,1]}"]) expect(parse(bytesOf(text), never, 1), text).toBe(undefined)
  })

  it.prop("every string and number reaches the credential check whole: one holding the secret is refused", [
    fc.array(json, { minLength: 1, maxLength: 60 }),
    fc.nat(),
    limits
  ], ([items, at, limit]) => {
    const secret = "S3cr3t/K+y="
    const placed = [...items]
    placed.splice(at % (items.length + 1), 0, { note: `a ${secret} b` })
    const bytes = bytesOf(JSON.stringify({ items: placed, cursor: "" }))
    expect(parse(bytes, (t) => t.includes(secret), limit)).toBe("refused")
    // Without it, nothing is refused.
    expect(parse(bytesOf(JSON.stringify({ items, cursor: "" })), (t) => t.includes(secret), limit)).not.toBe("refused")
  }, { fastCheck: { numRuns: 200 } })

  it("no piece over the limit but a string or number that is larger on its own", () => {
    const big = "x".repeat(300)
    const text = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ i, s: "y".repeat(i % 30) })), big, n: [big] })
    const pieces: Array<string> = []
    const got = parse(bytesOf(text), (t) => (pieces.push(t), false), 64)
    same(got, whole(bytesOf(text)))
    for (const piece of pieces) if (!piece.includes(big)) expect(piece.length, piece).toBeLessThanOrEqual(64)
  })
})
