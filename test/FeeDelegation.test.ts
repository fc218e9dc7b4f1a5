import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import * as Address from "../src/Address.js"
import * as FeeDelegation from "../src/FeeDelegation.js"

const decodeWire = Schema.decodeUnknownEither(FeeDelegation.FeeDelegation)
const encodeWire = Schema.encodeSync(FeeDelegation.FeeDelegation)

const ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" as Address.Address
const OTHER = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359" as Address.Address

const rejected = (result: Either.Either<unknown, { readonly message: string }>): string => {
  expect(Either.isLeft(result)).toBe(true)
  return Either.isLeft(result) ? result.left.message : ""
}

describe("FeeDelegation wire codec", () => {
  it("UserFeePayer ↔ { feePayer: address }", () => {
    const payer = new FeeDelegation.UserFeePayer({ address: ADDRESS })
    expect(encodeWire(payer)).toStrictEqual({ feePayer: ADDRESS })
    expect(decodeWire({ feePayer: ADDRESS })).toStrictEqual(Either.right(payer))
  })

  it("GlobalFeePayer ↔ {}", () => {
    const payer = new FeeDelegation.GlobalFeePayer()
    expect(encodeWire(payer)).toStrictEqual({})
    expect(decodeWire({})).toStrictEqual(Either.right(payer))
    // Other body fields are not the codec's business.
    expect(decodeWire({ value: "0x1", submit: true })).toStrictEqual(Either.right(payer))
  })

  it.prop("encode then decode is the identity on every FeePayer", [FeeDelegation.FeePayer], ([payer]) => {
    const wire = encodeWire(payer)
    expect(Object.keys(wire)).toStrictEqual(payer._tag === "UserFeePayer" ? ["feePayer"] : [])
    expect(Schema.decodeSync(FeeDelegation.FeeDelegation)(wire)).toStrictEqual(payer)
  })

  it("decode also accepts the fee_payer spelling", () => {
    expect(decodeWire({ fee_payer: ADDRESS })).toStrictEqual(Either.right(new FeeDelegation.UserFeePayer({ address: ADDRESS })))
    // Re-encoding gives the canonical camelCase spelling.
    expect(encodeWire(Either.getOrThrow(decodeWire({ fee_payer: ADDRESS })))).toStrictEqual({ feePayer: ADDRESS })
  })

  it.prop(
    "any spelling and case of an address decodes to its checksummed form",
    [Address.AddressFromSelf, fc.constantFrom("feePayer", "fee_payer", "both"), fc.constantFrom("lower", "upper", "checksum")],
    ([address, spelling, form]) => {
      const raw = form === "lower" ? address.toLowerCase() : form === "upper" ? `0x${address.slice(2).toUpperCase()}` : address
      const body = spelling === "both" ? { feePayer: raw, fee_payer: address.toLowerCase() } : { [spelling]: raw }
      expect(decodeWire(body)).toStrictEqual(Either.right(new FeeDelegation.UserFeePayer({ address })))
    }
  )

  it("both spellings naming different accounts is a failure", () => {
    expect(rejected(decodeWire({ feePayer: ADDRESS, fee_payer: OTHER }))).toContain("feePayer and fee_payer name different accounts")
  })

  it.prop("both spellings: accepted iff they name the same account", [Address.AddressFromSelf, fc.option(Arbitrary.make(Address.AddressFromSelf), { nil: undefined })], ([a, maybeB]) => {
    const b = maybeB ?? a
    const result = decodeWire({ feePayer: a, fee_payer: b })
    expect(Either.isRight(result)).toBe(a === b)
  })

  it.each([
    ["feePayer", { feePayer: "0x1234" }, "expected 0x followed by 40 hex digits"],
    ["fee_payer", { fee_payer: "0x1234" }, "expected 0x followed by 40 hex digits"],
    ["feePayer", { feePayer: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD" }, "invalid EIP-55 checksum"],
    ["fee_payer", { fee_payer: "" }, "expected 0x followed by 40 hex digits"]
  ])("an invalid address in %s is a failure naming the field", (field, body, rule) => {
    const message = rejected(decodeWire(body))
    expect(message).toContain(`["${field}"]`)
    expect(message).toContain(rule)
  })

  it("a non-string fee payer is a failure naming the field", () => {
    expect(rejected(decodeWire({ feePayer: 1 }))).toContain("[\"feePayer\"]")
    expect(rejected(decodeWire({ fee_payer: null }))).toContain("[\"fee_payer\"]")
    expect(Either.isLeft(decodeWire(null))).toBe(true)
  })
})

describe("valueTransferPath", () => {
  it("maps each choice to its path", () => {
    expect(FeeDelegation.valueTransferPath(undefined)).toBe("/v2/tx/value")
    expect(FeeDelegation.valueTransferPath(new FeeDelegation.GlobalFeePayer())).toBe("/v2/tx/fd/value")
    expect(FeeDelegation.valueTransferPath(new FeeDelegation.UserFeePayer({ address: ADDRESS }))).toBe("/v2/tx/fd-user/value")
  })
})

describe("FeeRatio", () => {
  it.prop(
    "accepts exactly the integers 1..99",
    [fc.oneof(fc.integer({ min: -5, max: 105 }), fc.double(), fc.constantFrom(0, 1, 99, 100, 50.5, NaN, Infinity))],
    ([n]) => {
      const result = Schema.decodeUnknownEither(FeeDelegation.FeeRatio)(n)
      expect(Either.isRight(result)).toBe(Number.isInteger(n) && n >= 1 && n <= 99)
    }
  )

  it("says what is expected", () => {
    expect(rejected(Schema.decodeUnknownEither(FeeDelegation.FeeRatio)(100))).toContain("fee ratio must be an integer from 1 to 99")
    expect(rejected(Schema.decodeUnknownEither(FeeDelegation.FeeRatio)(0))).toContain("fee ratio must be an integer from 1 to 99")
  })
})

describe("FeeDelegation: both spellings", () => {
  it("validates fee_payer too when both spellings are present", () => {
    const address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    const broken = address.replace("aA", "Aa")
    const decode = Schema.decodeUnknownEither(FeeDelegation.FeeDelegation)
    expect(Either.isLeft(decode({ feePayer: address, fee_payer: broken }))).toBe(true)
    expect(Either.isRight(decode({ feePayer: address, fee_payer: address.toLowerCase() }))).toBe(true)
  })
})
