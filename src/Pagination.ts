/**
 * Listing parameters: page size, cursor and time range.
 *
 * `PageSize` is the number of items in one response, never a total: to bound a total, take from
 * the stream of accounts.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { show } from "./internal/show.js"
import * as Timestamp from "./Timestamp.js"

/**
 * Smallest page size.
 *
 * @since 0.1.0
 * @category constants
 */
export const MinPageSize = 1

/**
 * Largest page size the service serves.
 *
 * @since 0.1.0
 * @category constants
 */
export const MaxPageSize = 1000

/**
 * Page size the service uses when none is sent.
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultPageSize = 100

/**
 * Items per page: an integer from 1 to 1000, branded.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PageSize = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= MinPageSize && n <= MaxPageSize, {
    message: (issue) => `page size must be an integer from ${MinPageSize} to ${MaxPageSize}, got ${show(issue.actual)}`,
    arbitrary: () => (fc) => fc.integer({ min: MinPageSize, max: MaxPageSize })
  }),
  Schema.brand("PageSize")
).annotations({ identifier: "PageSize" })

/**
 * @since 0.1.0
 * @category models
 */
export type PageSize = typeof PageSize.Type

/**
 * An opaque continuation token from a list response. The empty string, in a response, means the
 * listing is complete; in a request (or absent), it asks for the first page.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Cursor = Schema.String.pipe(Schema.brand("Cursor")).annotations({ identifier: "Cursor" })

/**
 * @since 0.1.0
 * @category models
 */
export type Cursor = typeof Cursor.Type

/**
 * The cursor of the last page.
 *
 * @since 0.1.0
 * @category constants
 */
export const EndCursor: Cursor = Cursor.make("")

const Bound = Schema.optionalWith(Timestamp.FromDateOrSeconds, { exact: true })

/**
 * A creation-time range, both ends inclusive. `from` / `to` are Unix seconds (or `Date`s when
 * decoding); absent or `0` means unbounded on that side, and decoding drops a `0` so that only
 * real bounds remain. When both are set, `from` must not be after `to`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TimeRange = Schema.transform(
  Schema.Struct({ from: Bound, to: Bound }),
  Schema.Struct({
    from: Schema.optionalWith(Schema.typeSchema(Timestamp.Timestamp), { exact: true }),
    to: Schema.optionalWith(Schema.typeSchema(Timestamp.Timestamp), { exact: true })
  }),
  {
    strict: true,
    decode: ({ from, to }) => ({
      ...(from !== undefined && from !== 0 ? { from } : {}),
      ...(to !== undefined && to !== 0 ? { to } : {})
    }),
    encode: (range) => range
  }
).pipe(
  Schema.filter((r) =>
    r.from !== undefined && r.to !== undefined && r.from > r.to
      ? { path: ["from"], message: `from (${r.from}) must not be after to (${r.to})` }
      : undefined
  )
).annotations({ identifier: "TimeRange" })

/**
 * @since 0.1.0
 * @category models
 */
export interface TimeRange extends Schema.Schema.Type<typeof TimeRange> {}

/**
 * Whether a creation time falls inside a range (inclusive, unbounded sides ignored).
 *
 * @since 0.1.0
 * @category utils
 */
export const inRange = (range: TimeRange, createdAt: number): boolean =>
  (range.from === undefined || createdAt >= range.from) && (range.to === undefined || createdAt <= range.to)
