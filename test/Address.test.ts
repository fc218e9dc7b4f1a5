import { keccak_256 } from "@noble/hashes/sha3.js"
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Option, ParseResult, Schema } from "effect"
import * as Address from "../src/Address.js"

// Reference EIP-55, straight from the EIP: hash the lower-case hex digits as ASCII, upper-case a
// letter when the matching nibble of the hash is 8 or more.
const referenceChecksum = (address: string): string => {
  const lower = address.slice(2).toLowerCase()
  const hash = keccak_256(new TextEncoder().encode(lower))
  let out = "0x"
  for (let i = 0; i < 40; i++) {
    const byte = hash[i >> 1]!
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!
  }
  return out
}

const decodeAddress = Schema.decodeUnknownEither(Address.Address)

const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
const lowerAddress = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${toHex(b)}`)
const flipCase = (c: string): string => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())
const isLetter = (c: string): boolean => /[a-fA-F]/.test(c)
/** Applies a case pattern (one boolean per hex digit: upper-case it) to a lower-case address. */
const withCase = (lower: string, upper: ReadonlyArray<boolean>): string =>
  "0x" + Array.from(lower.slice(2), (c, i) => (upper[i] ? c.toUpperCase() : c)).join("")

const anyCaseAddress = fc.oneof(
  lowerAddress,
  lowerAddress.map((a) => `0x${a.slice(2).toUpperCase()}`),
  lowerAddress.map(referenceChecksum),
  fc.tuple(lowerAddress, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 })).map(([a, up]) => withCase(a, up))
)

const failureMessage = (s: unknown): string => {
  const result = decodeAddress(s)
  expect(Either.isLeft(result)).toBe(true)
  if (Either.isRight(result)) return ""
  expect(ParseResult.isParseError(result.left)).toBe(true)
  return result.left.message
}

const BAD_SHAPE = "0x followed by 40 hex digits"
const BAD_CHECKSUM = "invalid EIP-55 checksum"

describe("Address", () => {
  const checksummedVectors = [
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"
  ]
  const singleCaseVectors = [
    "0x52908400098527886E0F7030069857D2E4169EE7",
    "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
    "0xde709f2102306220921060314715629080e2fb77",
    "0x27b1fdb04752bbc536007a920d24acb045561c26"
  ]

  it.each(checksummedVectors)("EIP-55 vector %s decodes to itself", (v) => {
    expect(referenceChecksum(v)).toBe(v) // the reference implementation agrees with the EIP
    expect(Schema.decodeSync(Address.Address)(v)).toBe(v)
    expect(Address.isValid(v)).toBe(true)
    expect(Option.getOrThrow(Address.checksum(v.toLowerCase()))).toBe(v)
  })

  it.each(singleCaseVectors)("all-caps / all-lower EIP-55 vector %s is its own checksum", (v) => {
    expect(referenceChecksum(v)).toBe(v)
    expect(Schema.decodeSync(Address.Address)(v)).toBe(v)
    expect(Address.isValid(v)).toBe(true)
    // The same address in the other single case decodes to the vector itself.
    const digits = v.slice(2)
    const other = `0x${digits === digits.toLowerCase() ? digits.toUpperCase() : digits.toLowerCase()}`
    expect(other).not.toBe(v)
    expect(Schema.decodeSync(Address.Address)(other)).toBe(v)
    expect(Option.getOrThrow(Address.checksum(other))).toBe(v)
  })

  it("decodes single-case inputs of the mixed-case vectors to the vectors", () => {
    for (const v of checksummedVectors) {
      expect(Schema.decodeSync(Address.Address)(v.toLowerCase())).toBe(v)
      expect(Schema.decodeSync(Address.Address)(`0x${v.slice(2).toUpperCase()}`)).toBe(v)
    }
  })

  it.prop("every accepted input decodes to the reference checksum of its lower-case form", [anyCaseAddress], ([s]) => {
    const result = decodeAddress(s)
    if (Either.isRight(result)) {
      expect(result.right).toBe(referenceChecksum(s.toLowerCase()))
    }
    // Lower, upper and checksummed forms are always accepted.
    const digits = s.slice(2)
    if (digits === digits.toLowerCase() || digits === digits.toUpperCase() || s === referenceChecksum(s)) {
      expect(Either.isRight(result)).toBe(true)
    }
  }, { fastCheck: { numRuns: 500 } })

  it.prop(
    "a mixed-case input is accepted iff it is the reference checksum",
    [
      fc.oneof(
        // random case: almost never the checksum
        fc.tuple(lowerAddress, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 })).map(([a, up]) => withCase(a, up)),
        // the checksum with 0 to 3 digits case-flipped: often the checksum itself, or close to it
        fc.tuple(lowerAddress, fc.array(fc.integer({ min: 2, max: 41 }), { maxLength: 3 })).map(([a, flips]) => {
          const chars = Array.from(referenceChecksum(a))
          for (const i of flips) chars[i] = flipCase(chars[i]!)
          return chars.join("")
        })
      )
    ],
    ([s]) => {
      const digits = s.slice(2)
      fc.pre(digits !== digits.toLowerCase() && digits !== digits.toUpperCase())
      const expected = referenceChecksum(s)
      const result = decodeAddress(s)
      expect(Either.isRight(result)).toBe(s === expected)
      expect(Address.isValid(s)).toBe(s === expected)
      if (Either.isLeft(result)) expect(result.left.message).toContain(BAD_CHECKSUM)
    },
    { fastCheck: { numRuns: 500 } }
  )

  it.prop("flipping the case of one letter of a checksummed address is rejected", [lowerAddress, fc.nat()], ([lower, n]) => {
    const good = referenceChecksum(lower)
    const letters = Array.from(good).flatMap((c, i) => (i >= 2 && isLetter(c) ? [i] : []))
    fc.pre(letters.length > 0)
    const at = letters[n % letters.length]!
    const bad = good.slice(0, at) + flipCase(good[at]!) + good.slice(at + 1)
    const digits = bad.slice(2)
    // When the address has a single letter, flipping it can make the address single-case, which
    // is accepted by design (and decodes back to `good`).
    if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) {
      expect(Schema.decodeSync(Address.Address)(bad)).toBe(good)
    } else {
      expect(failureMessage(bad)).toContain(BAD_CHECKSUM)
    }
  }, { fastCheck: { numRuns: 500 } })

  it("flipping a letter of each EIP vector is rejected with the checksum message", () => {
    for (const v of checksummedVectors) {
      for (let i = 2; i < 42; i++) {
        if (!isLetter(v[i]!)) continue
        const bad = v.slice(0, i) + flipCase(v[i]!) + v.slice(i + 1)
        const message = failureMessage(bad)
        expect(message).toContain(BAD_CHECKSUM)
        expect(message).toContain("Address")
      }
    }
  })

  const wrongShape = fc.oneof(
    // wrong length
    fc.tuple(lowerAddress, fc.integer({ min: 0, max: 39 })).map(([a, n]) => a.slice(0, 2 + n)),
    fc.tuple(lowerAddress, fc.stringMatching(/^[0-9a-fA-F]{1,10}$/)).map(([a, extra]) => a + extra),
    // missing or wrong prefix
    lowerAddress.map((a) => a.slice(2)),
    lowerAddress.map((a) => `0X${a.slice(2)}`),
    lowerAddress.map((a) => `00${a.slice(2)}`),
    lowerAddress.map((a) => ` ${a.slice(1)}`),
    // a non-hex or non-ASCII character in place of one digit (same length)
    fc
      .tuple(lowerAddress, fc.integer({ min: 2, max: 41 }), fc.constantFrom("g", "G", "x", " ", ":", "\u0000", "é", "０", "ａ", "\u{1F600}"))
      .map(([a, i, c]) => a.slice(0, i) + c + a.slice(i + 1)),
    fc.string()
  )

  it.prop("wrong shapes are rejected with the shape message", [wrongShape], ([s]) => {
    fc.pre(!/^0x[0-9a-fA-F]{40}$/.test(s))
    expect(failureMessage(s)).toContain(BAD_SHAPE)
    expect(Address.isValid(s)).toBe(false)
    expect(Option.isNone(Address.checksum(s))).toBe(true)
  }, { fastCheck: { numRuns: 500 } })

  it("rejects non-strings", () => {
    for (const bad of [undefined, null, 0, {}, [], new Uint8Array(20)]) {
      expect(Either.isLeft(decodeAddress(bad))).toBe(true)
    }
  })

  it.prop("checksum ignores the current case and matches the reference", [anyCaseAddress], ([s]) => {
    expect(Address.checksum(s)).toStrictEqual(Option.some(referenceChecksum(s)))
    // Even an input with a wrong checksum: checksum() ignores the case it is given.
    const wrong = `0x${Array.from(s.slice(2), (c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join("")}`
    expect(Address.checksum(wrong)).toStrictEqual(Option.some(referenceChecksum(s)))
  })

  it.prop("AddressFromSelf accepts exactly checksummed addresses; toLowerCase", [anyCaseAddress], ([s]) => {
    const is = Schema.is(Address.AddressFromSelf)
    expect(is(s)).toBe(s === referenceChecksum(s))
    const address = Schema.decodeSync(Address.Address)(s.toLowerCase())
    expect(is(address)).toBe(true)
    expect(Address.toLowerCase(address)).toBe(s.toLowerCase())
  })

  it.prop("generated addresses are checksummed and encode unchanged", [Address.AddressFromSelf], ([address]) => {
    expect(address).toBe(referenceChecksum(address))
    expect(Schema.encodeSync(Address.Address)(address)).toBe(address)
  })
})
