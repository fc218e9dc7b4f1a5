import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import * as Pagination from "../src/Pagination.js"
import * as Timestamp from "../src/Timestamp.js"

const decodePageSize = Schema.decodeUnknownEither(Pagination.PageSize)
const decodeRange = Schema.decodeUnknownEither(Pagination.TimeRange)

const rejected = (result: Either.Either<unknown, { readonly message: string }>): string => {
  expect(Either.isLeft(result)).toBe(true)
  return Either.isLeft(result) ? result.left.message : ""
}

describe("PageSize", () => {
  it("the service's default page size is a valid page size, and the bounds are the accepted extremes", () => {
    expect(Either.isRight(decodePageSize(Pagination.DefaultPageSize))).toBe(true)
    expect(Either.isRight(decodePageSize(Pagination.MinPageSize))).toBe(true)
    expect(Either.isRight(decodePageSize(Pagination.MaxPageSize))).toBe(true)
    expect(Either.isLeft(decodePageSize(Pagination.MinPageSize - 1))).toBe(true)
    expect(Either.isLeft(decodePageSize(Pagination.MaxPageSize + 1))).toBe(true)
  })

  it.prop(
    "accepts exactly the integers 1..1000",
    [
      fc.oneof(
        fc.integer(),
        fc.double(),
        fc.integer({ min: -5, max: 1005 }),
        fc.constantFrom(NaN, Infinity, -Infinity, 1.5, 0, -0, 1, 1000, 1001, 999.999, 1e-300, Number.MAX_SAFE_INTEGER)
      )
    ],
    ([n]) => {
      const ok = Number.isInteger(n) && 1 <= n && n <= 1000
      const result = decodePageSize(n)
      expect(Either.isRight(result)).toBe(ok)
      if (Either.isLeft(result)) expect(result.left.message).toContain("page size must be an integer from 1 to 1000")
    },
    { fastCheck: { numRuns: 500 } }
  )

  it("every integer 1..1000 is accepted, 0 and 1001 are not", () => {
    for (let n = 1; n <= 1000; n++) expect(Either.isRight(decodePageSize(n))).toBe(true)
    expect(rejected(decodePageSize(0))).toContain("got 0")
    expect(rejected(decodePageSize(1001))).toContain("got 1001")
    expect(Either.isLeft(decodePageSize("100"))).toBe(true)
  })

  it.prop("generated page sizes are in range", [Pagination.PageSize], ([n]) => {
    expect(Number.isInteger(n) && n >= 1 && n <= 1000).toBe(true)
  })
})

describe("Cursor", () => {
  it("is an opaque string", () => {
    expect(Schema.decodeUnknownSync(Pagination.Cursor)("eyJ4IjoxfQ==")).toBe("eyJ4IjoxfQ==")
    expect(Either.isLeft(Schema.decodeUnknownEither(Pagination.Cursor)(null))).toBe(true)
  })
})

describe("TimeRange", () => {
  it("0 or absent means unbounded and is dropped on decode", () => {
    expect(decodeRange({})).toStrictEqual(Either.right({}))
    expect(decodeRange({ from: 0 })).toStrictEqual(Either.right({}))
    expect(decodeRange({ to: 0 })).toStrictEqual(Either.right({}))
    expect(decodeRange({ from: 0, to: 0 })).toStrictEqual(Either.right({}))
    expect(decodeRange({ from: 0, to: 5 })).toStrictEqual(Either.right({ to: 5 }))
    expect(decodeRange({ from: 5, to: 0 })).toStrictEqual(Either.right({ from: 5 }))
    expect(decodeRange({ from: 5, to: 5 })).toStrictEqual(Either.right({ from: 5, to: 5 }))
    // An unbounded side is absent, not present-but-undefined.
    const decoded = Schema.decodeUnknownSync(Pagination.TimeRange)({ from: 0, to: 7 })
    expect(Object.keys(decoded)).toStrictEqual(["to"])
  })

  it("Dates are accepted and floored to seconds", () => {
    expect(decodeRange({ from: new Date(1599187293999), to: new Date("2021-01-01T00:00:00.500Z") })).toStrictEqual(
      Either.right({ from: 1599187293, to: 1609459200 })
    )
    // The epoch as a Date is 0: unbounded.
    expect(decodeRange({ from: new Date(0) })).toStrictEqual(Either.right({}))
    expect(rejected(decodeRange({ from: new Date(NaN) }))).toContain("timestamp must be a valid Date")
  })

  it("from after to is rejected, naming from", () => {
    const message = rejected(decodeRange({ from: 10, to: 9 }))
    expect(message).toContain("[\"from\"]")
    expect(message).toContain("from (10) must not be after to (9)")
    expect(rejected(decodeRange({ from: new Date(20_000), to: new Date(10_000) }))).toContain("from (20) must not be after to (10)")
  })

  it("invalid bounds are rejected, naming the bound", () => {
    expect(rejected(decodeRange({ from: -1 }))).toContain("[\"from\"]")
    expect(rejected(decodeRange({ to: 1.5 }))).toContain("[\"to\"]")
    expect(rejected(decodeRange({ to: Date.now() }))).toContain("milliseconds")
    expect(Either.isLeft(decodeRange({ from: "1599187293" }))).toBe(true)
    expect(Either.isLeft(decodeRange({ from: undefined }))).toBe(true)
  })

  const bound = fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2_000_000_000 })), { nil: undefined })

  it.prop("decoding keeps the non-zero bounds, and fails exactly when from > to", [bound, bound], ([from, to]) => {
    const input = { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) }
    const result = decodeRange(input)
    const f = from === 0 ? undefined : from
    const t = to === 0 ? undefined : to
    if (f !== undefined && t !== undefined && f > t) {
      expect(rejected(result)).toContain("[\"from\"]")
    } else {
      expect(result).toStrictEqual(Either.right({ ...(f !== undefined ? { from: f } : {}), ...(t !== undefined ? { to: t } : {}) }))
      if (Either.isRight(result)) {
        // Encoding gives back the real bounds.
        expect(Schema.encodeSync(Pagination.TimeRange)(result.right)).toStrictEqual(result.right)
      }
    }
  })

  // inRange by its definition: both ends inclusive, an absent end unbounded. Computed here as
  // membership of the closed interval [lo, hi] with infinite defaults.
  it.prop(
    "inRange matches the definition",
    [bound, bound, fc.oneof(fc.integer({ min: 0, max: 2_000_000_000 }), fc.constantFrom(0, 1, Timestamp.Max))],
    ([from, to, createdAt]) => {
      const decoded = decodeRange({ ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) })
      fc.pre(Either.isRight(decoded))
      if (Either.isLeft(decoded)) return
      const range = decoded.right
      const lo = from === undefined || from === 0 ? -Infinity : from
      const hi = to === undefined || to === 0 ? Infinity : to
      expect(Pagination.inRange(range, createdAt)).toBe(lo <= createdAt && createdAt <= hi)
    },
    { fastCheck: { numRuns: 500 } }
  )

  it.prop("inRange includes both ends", [fc.integer({ min: 1, max: 2_000_000_000 }), fc.nat({ max: 1000 })], ([from, width]) => {
    const range = Schema.decodeUnknownSync(Pagination.TimeRange)({ from, to: from + width })
    expect(Pagination.inRange(range, from)).toBe(true)
    expect(Pagination.inRange(range, from + width)).toBe(true)
    expect(Pagination.inRange(range, from - 1)).toBe(false)
    expect(Pagination.inRange(range, from + width + 1)).toBe(false)
  })
})
