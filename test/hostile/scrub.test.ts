/**
 * The scrubber on its own, over random secrets (spaces, punctuation, non-ASCII, astral characters)
 * spelled every way a server can echo them, in random surroundings: found and removed; text
 * without them is left alone.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { scrubberOf } from "../../src/internal/auth.js"
import { binaryString } from "../support/binaryString.js"

/** Every UTF-16 unit as `\uXXXX` (an astral character as its surrogate pair). */
const jsonEscape = (s: string) => Array.from({ length: s.length }, (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, "0")}`).join("")

/** Spellings of a secret, each as a server could produce it. */
const spellings: Record<string, (s: string) => string> = {
  verbatim: (s) => s,
  "URL-encoded": encodeURIComponent,
  "URL-encoded, lower-case hex": (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase()),
  "form-encoded": (s) => new URLSearchParams({ k: s }).toString().slice(2),
  "JSON \\u-escaped": jsonEscape,
  "JSON-escaped as JSON.stringify with \\/": (s) => JSON.stringify(s).slice(1, -1).replaceAll("/", "\\/"),
  "every other character URL-encoded": (s) => Array.from(s, (c, i) => (i % 2 === 0 ? encodeURIComponent(c).replace(/^[A-Za-z0-9]$/, (x) => `%${x.charCodeAt(0).toString(16)}`) : c)).join(""),
  "URL-encoded, then JSON-escaped": (s) => jsonEscape(encodeURIComponent(s)),
  "JSON-escaped, then URL-encoded": (s) => encodeURIComponent(jsonEscape(s))
}

const secretChars = fc.oneof(
  fc.constantFrom(..."abcXYZ019+/=:~!*'() -_.%\\\"é€😀"),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 })
)
const secretArb = fc.string({ unit: secretChars, minLength: 8, maxLength: 40 })
// Surroundings that cannot complete a spelling by accident (no %, \ or alphanumerics at the edges).
const around = fc.string({ unit: fc.constantFrom(" ", "<", ">", "[", "]", "{", "}", ",", ";", "#"), maxLength: 30 })

describe("scrubberOf", () => {
  it("finds and removes a secret in every spelling, and nothing of it survives", () => {
    fc.assert(
      fc.property(secretArb, fc.constantFrom(...Object.keys(spellings)), around, around, (secret, how, before, after) => {
        const { leaks, scrub } = scrubberOf([secret])
        const text = `${before}${spellings[how]!(secret)}${after}`
        expect(leaks(text), `${how} of ${JSON.stringify(secret)} in ${JSON.stringify(text)}`).toBe(true)
        const clean = scrub(text)
        expect(leaks(clean), `${JSON.stringify(clean)} still leaks`).toBe(false)
        for (const spelling of Object.values(spellings)) expect(clean.includes(spelling(secret))).toBe(false)
      }),
      { numRuns: 500 }
    )
  })

  it("keeps the text around a single-layer spelling; replaces a string hiding one under two layers", () => {
    const { scrub } = scrubberOf(["s3cr/t+key"])
    expect(scrub("before s3cr%2Ft%2bkey after")).toBe("before <redacted> after")
    expect(scrub("{\"m\":\"s3cr\\/t+key\"}")).toBe("{\"m\":\"<redacted>\"}")
    expect(scrub(`x ${jsonEscape(encodeURIComponent("s3cr/t+key"))} y`)).toBe("<redacted>")
  })

  it("leaves text without the secret unchanged", () => {
    fc.assert(
      fc.property(secretArb, binaryString({ maxLength: 300 }), (secret, text) => {
        fc.pre(!text.includes(secret) && !decodeURIComponentSafe(text).includes(secret) && !text.includes(encodeURIComponent(secret)))
        const { leaks, scrub } = scrubberOf([secret])
        expect(leaks(text)).toBe(false)
        expect(scrub(text)).toBe(text)
      }),
      { numRuns: 200 }
    )
  })
})

const decodeURIComponentSafe = (s: string) => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}
