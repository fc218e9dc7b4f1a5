import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import * as Amount from "../src/Amount.js"

const rejected = (result: Either.Either<unknown, { readonly message: string }>): string => {
  expect(Either.isLeft(result)).toBe(true)
  return Either.isLeft(result) ? result.left.message : ""
}

const decodePeb = Schema.decodeUnknownEither(Amount.PebFromHex)
const encodePeb = Schema.encodeSync(Amount.PebFromHex)
const MINIMAL_HEX = /^0x(?:0|[1-9a-f][0-9a-f]*)$/

describe("Amount", () => {
  it.prop("hex: decode(encode(p)) = p and the encoding is minimal lower-case", [Amount.PebFromSelf], ([p]) => {
    const hex = encodePeb(p)
    expect(hex).toMatch(MINIMAL_HEX)
    expect(hex).toBe(Amount.toHex(p))
    expect(decodePeb(hex)).toStrictEqual(Either.right(p))
  })

  it.prop(
    "hex: leading zeros and upper case decode to the same amount",
    [Amount.PebFromSelf, fc.nat({ max: 5 }), fc.boolean()],
    ([p, zeros, upper]) => {
      const digits = "0".repeat(zeros) + p.toString(16)
      expect(decodePeb(`0x${upper ? digits.toUpperCase() : digits}`)).toStrictEqual(Either.right(p))
    }
  )

  it("PebFromSelf: exactly the integers 0..2^256 - 1", () => {
    const is = Schema.is(Amount.PebFromSelf)
    expect([0n, 1n, Amount.MaxPeb].map(is)).toStrictEqual([true, true, true])
    expect([-1n, Amount.MaxPeb + 1n].map(is)).toStrictEqual([false, false])
    expect(rejected(Schema.decodeUnknownEither(Amount.PebFromSelf)(-1n))).toContain("from 0 to 2^256 - 1, got -1")
  })

  it("hex: rejects what is not 0x + hex digits, and values above 2^256 - 1", () => {
    for (const bad of ["0x", "", "0", "12", "0x-1", "0xg", " 0x1", "0x1 ", "0X1", 1, null]) {
      expect(rejected(decodePeb(bad))).toMatch(/expected 0x followed by hex digits|Expected string/)
    }
    expect(decodePeb(`0x${"f".repeat(64)}`)).toStrictEqual(Either.right(Amount.MaxPeb))
    expect(decodePeb(`0x0000${"f".repeat(64)}`)).toStrictEqual(Either.right(Amount.MaxPeb))
    expect(rejected(decodePeb(`0x1${"0".repeat(64)}`))).toContain("exceeds 2^256 - 1 peb")
    expect(decodePeb("0x0")).toStrictEqual(Either.right(0n))
  })

  it.prop("KLAY: fromKlay(formatKlay(p)) = p, and formatKlay has no trailing zeros", [Amount.PebFromSelf], ([p]) => {
    const text = Amount.formatKlay(p)
    expect(text).toMatch(/^(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?$/)
    expect(Amount.fromKlay(text)).toStrictEqual(Either.right(p))
    expect(Schema.decodeSync(Amount.Klay)(Schema.encodeSync(Amount.Klay)(p))).toBe(p)
  })

  it.prop(
    "KLAY: a decimal with up to 18 places is exactly whole·10^18 + fraction·10^(18-places)",
    [fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.stringMatching(/^[0-9]{0,18}$/), fc.nat({ max: 3 })],
    ([whole, fraction, extraZeros]) => {
      const text = fraction === "" ? `${whole}` : `${whole}.${fraction}${"0".repeat(extraZeros)}`
      const expected = whole * 10n ** 18n + (fraction === "" ? 0n : BigInt(fraction) * 10n ** BigInt(18 - fraction.length))
      expect(Amount.fromKlay(text)).toStrictEqual(Either.right(expected))
    }
  )

  it("KLAY: examples and refusals", () => {
    expect(Amount.fromKlay("1.5")).toStrictEqual(Either.right(1_500_000_000_000_000_000n))
    expect(Amount.fromKlay("0.000000000000000001")).toStrictEqual(Either.right(1n))
    expect(Amount.formatKlay(Amount.PebFromSelf.make(1n))).toBe("0.000000000000000001")
    expect(Amount.formatKlay(Amount.PebFromSelf.make(0n))).toBe("0")
    expect(Amount.formatKlay(Amount.PebFromSelf.make(20n * 10n ** 18n))).toBe("20")
    expect(rejected(Amount.fromKlay("0.0000000000000000001"))).toContain("at most 18 decimal places")
    for (const bad of ["", "1e18", "-1", "+1", "1.", ".5", " 1", "1 ", "1,5", "0x10", "Infinity", "NaN", "1.5KLAY"]) {
      const left = Amount.fromKlay(bad)
      expect(Either.isLeft(left) && left.left._tag === "InvalidAmount" && left.left.input === bad).toBe(true)
    }
    expect(rejected(Schema.decodeUnknownEither(Amount.Klay)("1.2.3"))).toContain("decimal number of KLAY")
  })

  it("parseAmount: units KLAY, ston, peb, bare integers and hex", () => {
    const ok = (s: string) => Either.getOrThrow(Amount.parseAmount(s))
    expect(ok("1.5KLAY")).toBe(1_500_000_000_000_000_000n)
    expect(ok("1.5 klay")).toBe(1_500_000_000_000_000_000n)
    expect(ok("25ston")).toBe(25_000_000_000n)
    expect(ok("0.5ston")).toBe(500_000_000n)
    expect(ok("1000peb")).toBe(1000n)
    expect(ok("1000")).toBe(1000n)
    expect(ok("0x3e8")).toBe(1000n)
    for (const bad of ["", "KLAY", "1.5", "1.5peb", "0.0000000001ston", "-1KLAY", "1.5 KLAYS", "0x3e8KLAY", "1e3", "0x", "1KAIA"]) {
      expect(Either.isLeft(Amount.parseAmount(bad))).toBe(true)
    }
  })

  it("parseAmount: every refusal says how to write an amount, in words that are themselves accepted", () => {
    const reason = (s: string) => Either.match(Amount.parseAmount(s), { onLeft: (e) => e.reason, onRight: () => "accepted" })
    for (const bad of ["1e3", "0x", "1KAIA", "", "abc"]) expect(reason(bad)).toBe(`not an amount: ${Amount.AmountHint}`)
    expect(reason("1.5")).toBe(`a number without a unit is peb, which has no fractions: ${Amount.AmountHint}`)
    expect(reason("1.5peb")).toContain("the smallest unit is 1 peb")
    // The examples of the hint are amounts.
    for (const example of ["1.5KLAY", "25ston", "1000peb"]) {
      expect(Amount.AmountHint).toContain(example)
      expect(Either.isRight(Amount.parseAmount(example))).toBe(true)
    }
  })

  it("formatKlay takes any bigint: a plain one, and a negative difference", () => {
    expect(Amount.formatKlay(1500000000000000000n)).toBe("1.5")
    expect(Amount.formatKlay(-1500000000000000000n)).toBe("-1.5")
    expect(Amount.formatKlay(-1n)).toBe("-0.000000000000000001")
  })
})
