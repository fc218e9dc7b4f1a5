import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import * as ChainId from "../src/ChainId.js"

const decodeChainId = Schema.decodeUnknownEither(ChainId.ChainId)
const decodeHeader = Schema.decodeUnknownEither(ChainId.FromHeader)

describe("ChainId", () => {
  it("accepts exactly 8217 and 1001", () => {
    expect(decodeChainId(8217)).toStrictEqual(Either.right(8217))
    expect(decodeChainId(1001)).toStrictEqual(Either.right(1001))
    for (const bad of [0, 1, 1002, 8216, 8218, 1001.5, -1001, NaN, Infinity, "1001", "8217", null, undefined]) {
      const result = decodeChainId(bad)
      expect(Either.isLeft(result), String(bad)).toBe(true)
    }
  })

  it("the constants name their networks; isChainId tells a chain id from another number", () => {
    expect(ChainId.name(ChainId.Mainnet)).toBe("mainnet")
    expect(ChainId.name(ChainId.Testnet)).toBe("testnet")
    expect(ChainId.isChainId(1001)).toBe(true)
    expect(ChainId.isChainId(1002)).toBe(false)
  })

  it("the failure message names the rule and the value", () => {
    const result = decodeChainId(1002)
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toContain("chain id must be 8217 (mainnet) or 1001 (testnet), got 1002")
  })

  it.prop("accepts a number iff it is 8217 or 1001", [fc.oneof(fc.integer(), fc.double(), fc.constantFrom(8217, 1001))], ([n]) => {
    expect(Either.isRight(decodeChainId(n))).toBe(n === 8217 || n === 1001)
  })
})

describe("ChainId.FromHeader", () => {
  it("accepts exactly \"8217\" and \"1001\"", () => {
    expect(decodeHeader("8217")).toStrictEqual(Either.right(8217))
    expect(decodeHeader("1001")).toStrictEqual(Either.right(1001))
  })

  it.each(["08217", "8217.0", "1002", "", " 1001", "1001 ", "+1001", "1e3", "0x3e9", "01001", "1001\n", "8217 ", "١٠٠١"])(
    "rejects %j",
    (s) => {
      const result = decodeHeader(s)
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) expect(result.left.message).toContain("chain id must be \"8217\" (mainnet) or \"1001\" (testnet)")
    }
  )

  it("rejects non-strings", () => {
    for (const bad of [8217, 1001, null, undefined, {}, ["1001"]]) {
      expect(Either.isLeft(decodeHeader(bad))).toBe(true)
    }
  })

  // Strings close to the valid ones are far more likely to reveal a lenient parser than uniform
  // random strings: mix both.
  const nearHeader = fc.oneof(
    fc.string(),
    fc.stringMatching(/^[\s+0-]{0,2}(8217|1001)(\.0*|e0|\s)?$/),
    fc.integer({ min: -100000, max: 100000 }).map(String),
    fc.double().map(String)
  )

  it.prop("any string other than \"8217\" and \"1001\" is rejected", [nearHeader], ([s]) => {
    const result = decodeHeader(s)
    if (s === "8217" || s === "1001") {
      expect(result).toStrictEqual(Either.right(Number(s)))
    } else {
      expect(Either.isLeft(result)).toBe(true)
    }
  })

  it.prop("decode ∘ encode is the identity", [ChainId.ChainId], ([chainId]) => {
    const header = Schema.encodeSync(ChainId.FromHeader)(chainId)
    expect(header).toBe(String(chainId))
    expect(Schema.decodeSync(ChainId.FromHeader)(header)).toBe(chainId)
  })

  it.prop("encode ∘ decode is the identity", [fc.constantFrom("8217" as const, "1001" as const)], ([s]) => {
    expect(Schema.encodeSync(ChainId.FromHeader)(Schema.decodeSync(ChainId.FromHeader)(s))).toBe(s)
  })
})
