import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import * as FeeDelegation from "../src/FeeDelegation.js"
import * as Wire from "../src/Wire.js"

const ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"

const rejected = (result: Either.Either<unknown, { readonly message: string }>): string => {
  expect(Either.isLeft(result)).toBe(true)
  return Either.isLeft(result) ? result.left.message : ""
}

describe("the choices", () => {
  it("user takes an address as given (any case; the transfer checks it), global is one value", () => {
    expect(FeeDelegation.user(ADDRESS.toLowerCase())).toStrictEqual(new FeeDelegation.UserFeePayer({ address: ADDRESS.toLowerCase() }))
    expect(FeeDelegation.global._tag).toBe("GlobalFeePayer")
    expect(Schema.is(FeeDelegation.FeePayer)(FeeDelegation.user(ADDRESS))).toBe(true)
    expect(Schema.is(FeeDelegation.FeePayer)(FeeDelegation.global)).toBe(true)
    expect(Schema.is(FeeDelegation.FeePayer)({ _tag: "Someone" })).toBe(false)
  })
})

describe("Wire.valueTransferPath", () => {
  it("maps each choice to its path", () => {
    expect(Wire.valueTransferPath(undefined)).toBe("/v2/tx/value")
    expect(Wire.valueTransferPath(FeeDelegation.global)).toBe("/v2/tx/fd/value")
    expect(Wire.valueTransferPath(FeeDelegation.user(ADDRESS))).toBe("/v2/tx/fd-user/value")
  })
})

describe("FeeRatio", () => {
  it.prop(
    "accepts exactly the integers MinFeeRatio..MaxFeeRatio (1..99)",
    [fc.oneof(fc.integer({ min: -5, max: 105 }), fc.double(), fc.constantFrom(0, 1, 99, 100, 50.5, NaN, Infinity))],
    ([n]) => {
      const result = Schema.decodeUnknownEither(FeeDelegation.FeeRatio)(n)
      expect(Either.isRight(result)).toBe(Number.isInteger(n) && n >= 1 && n <= 99)
    }
  )

  it("says what is expected, once", () => {
    const message = rejected(Schema.decodeUnknownEither(FeeDelegation.FeeRatio)(100))
    expect(message).toContain("fee ratio must be an integer from 1 to 99, got 100")
    expect(message.split("fee ratio must").length).toBe(2)
    expect(rejected(Schema.decodeUnknownEither(FeeDelegation.FeeRatio)(0))).toContain("fee ratio must be an integer from 1 to 99")
  })

  it("the wire's request ratio is FeeRatio or 0, by the same bounds", () => {
    const decode = Schema.decodeUnknownEither(Wire.RequestFeeRatio)
    for (const n of [0, 1, 99]) expect(decode(n)).toStrictEqual(Either.right(n))
    for (const n of [-1, 100, 1.5]) expect(rejected(decode(n))).toContain(`fee ratio must be an integer from 1 to 99 (or 0: the whole fee), got ${n}`)
  })
})
