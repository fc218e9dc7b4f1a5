/**
 * The core's check of call arguments agrees with an ABI coder: for random ABI types and random
 * values, fitting or not, `check` accepts exactly what ox encodes. The core validates without
 * loading a coder; this property is what lets it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as AbiParameters from "ox/AbiParameters"
import * as AbiValue from "../../src/internal/abiValue.js"
import { arbitraryAddress } from "../../src/Address.js"
import { arbitraryHexBytes } from "../../src/internal/hexBytes.js"

const bits = fc.integer({ min: 1, max: 32 }).map((n) => n * 8)

const elementary: fc.Arbitrary<string> = fc.oneof(
  bits.map((b) => `uint${b}`),
  bits.map((b) => `int${b}`),
  fc.constantFrom("uint", "int", "address", "bool", "string", "bytes"),
  fc.integer({ min: 1, max: 32 }).map((n) => `bytes${n}`)
)

const abiType: fc.Arbitrary<string> = fc.tuple(
  elementary,
  fc.array(fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }), { maxLength: 2 })
).map(([base, dims]) => base + dims.map((d) => `[${d ?? ""}]`).join(""))

/** A value near the type's edges, or of another shape: about half fit. */
const valueFor = (type: string): fc.Arbitrary<unknown> => {
  const parsed = Either.getOrThrow(AbiValue.parse(type))
  const go = (p: AbiValue.Parsed): fc.Arbitrary<unknown> => {
    switch (p._tag) {
      case "uint":
      case "int": {
        const max = p._tag === "uint" ? (1n << BigInt(p.bits)) - 1n : (1n << BigInt(p.bits - 1)) - 1n
        const min = p._tag === "uint" ? 0n : -(1n << BigInt(p.bits - 1))
        return fc.oneof(
          fc.bigInt({ min, max }).map((n) => n.toString()),
          fc.constantFrom(max + 1n, min - 1n, max, min).map((n) => n.toString()),
          fc.integer({ min: -1000, max: 1000 }),
          fc.constantFrom(1.5, "12abc", true, null)
        )
      }
      case "address":
        return fc.oneof(arbitraryAddress(fc), arbitraryAddress(fc).map((a) => a.toLowerCase()), arbitraryHexBytes(fc, 19, 21), fc.constant(42))
      case "bool":
        return fc.oneof(fc.boolean(), fc.constantFrom("true", 1))
      case "string":
        return fc.oneof(fc.string(), fc.integer())
      case "bytes":
        return fc.oneof(arbitraryHexBytes(fc, 0, 40), fc.constantFrom("0x1", "zz", 7))
      case "fixedBytes":
        return fc.oneof(arbitraryHexBytes(fc, p.size, p.size), arbitraryHexBytes(fc, 0, 33), fc.constant("0x1"))
      case "array": {
        const n = p.size
        return fc.oneof(
          { weight: 4, arbitrary: fc.array(go(p.element), n === undefined ? { maxLength: 3 } : { minLength: n, maxLength: n }) },
          { weight: 1, arbitrary: fc.array(go(p.element), { maxLength: 4 }) },
          { weight: 1, arbitrary: fc.constant("[]") }
        )
      }
    }
  }
  return go(parsed)
}

/** A value that fits the type, in any of the forms the service takes. */
const fittingFor = (p: AbiValue.Parsed): fc.Arbitrary<unknown> => {
  switch (p._tag) {
    case "uint":
    case "int": {
      const max = p._tag === "uint" ? (1n << BigInt(p.bits)) - 1n : (1n << BigInt(p.bits - 1)) - 1n
      const min = p._tag === "uint" ? 0n : -(1n << BigInt(p.bits - 1))
      return fc.bigInt({ min, max }).chain((n) =>
        fc.constantFrom<unknown>(n.toString(), ...(n >= 0n ? [`0x${n.toString(16)}`] : []), ...(Number.isSafeInteger(Number(n)) && BigInt(Number(n)) === n ? [Number(n)] : []))
      )
    }
    case "address":
      return fc.oneof(arbitraryAddress(fc), arbitraryAddress(fc).map((a) => a.toLowerCase()))
    case "bool":
      return fc.boolean()
    case "string":
      return fc.string()
    case "bytes":
      return arbitraryHexBytes(fc, 0, 40)
    case "fixedBytes":
      return arbitraryHexBytes(fc, p.size, p.size)
    case "array":
      return fc.array(fittingFor(p.element), p.size === undefined ? { maxLength: 3 } : { minLength: p.size, maxLength: p.size })
  }
}

/** The JSON value as ox takes it: integers as bigints. */
const toOx = (type: AbiValue.Parsed, value: unknown): unknown =>
  type._tag === "uint" || type._tag === "int"
    ? (typeof value === "number" && Number.isSafeInteger(value)) || (typeof value === "string" && /^-?\d+$/.test(value)) ? BigInt(value) : value
    : type._tag === "array" && Array.isArray(value)
    ? value.map((v) => toOx(type.element, v))
    : value

const oxEncodes = (type: string, value: unknown): boolean => {
  try {
    AbiParameters.encode([{ type }] as never, [toOx(Either.getOrThrow(AbiValue.parse(type)), value)] as never)
    return true
  } catch {
    return false
  }
}

describe("call arguments: the core's check against an ABI coder", () => {
  // ox is laxer than the service on shapes (it encodes a number given for a string): the check
  // must never accept what ox refuses, and must accept every value of the type.
  it.prop("whatever check accepts, ox encodes", [abiType.chain((type) => fc.tuple(fc.constant(type), valueFor(type)))], ([[type, value]]) => {
    if (AbiValue.check(type, value) === undefined) expect(oxEncodes(type, value)).toBe(true)
  }, { fastCheck: { numRuns: 300 } })

  it.prop("every value of the type is accepted, and ox encodes it", [
    abiType.chain((type) => fc.tuple(fc.constant(type), fittingFor(Either.getOrThrow(AbiValue.parse(type)))))
  ], ([[type, value]]) => {
    expect(AbiValue.check(type, value)).toBeUndefined()
    expect(oxEncodes(type, value)).toBe(true)
  }, { fastCheck: { numRuns: 300 } })

  it("a type nested deeper than MaxDimensions is refused, not a stack overflow", () => {
    expect(Either.isRight(AbiValue.parse("uint8" + "[]".repeat(AbiValue.MaxDimensions)))).toBe(true)
    expect(Either.isLeft(AbiValue.parse("uint8" + "[]".repeat(AbiValue.MaxDimensions + 1)))).toBe(true)
    expect(AbiValue.check("uint8" + "[]".repeat(20_000), [])).toMatch(/at most 8 array dimensions/)
  })

  it("types that are not ABI types are refused with what is allowed", () => {
    for (const type of ["uint7", "uint264", "int0", "bytes0", "bytes33", "uint256[0]", "tuple", "(uint256)", "address[01]", "uint08"]) {
      expect(Either.isLeft(AbiValue.parse(type)), type).toBe(true)
    }
  })
})
