/**
 * Unix time in whole seconds, as the service reports `createdAt` / `updatedAt` and takes
 * `from-timestamp` / `to-timestamp`.
 *
 * @since 0.1.0
 */
import { type FastCheck, ParseResult, Schema } from "effect"
import { show } from "./internal/show.js"

/**
 * The largest accepted value, 9999-12-31T23:59:59Z. It also catches milliseconds passed where
 * seconds are expected: every millisecond time after 1978-01-11T21:31:40Z is above it.
 *
 * @since 0.1.0
 * @category constants
 */
export const Max = 253402300799

/**
 * Whether a number is a valid timestamp: an integer from 0 to `Max`.
 *
 * @since 0.1.0
 * @category guards
 */
export const isTimestamp = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= Max

/**
 * Unix seconds up to 2100, for the `arbitrary` annotations of the schemas holding timestamps
 * (fast-check as annotations receive it).
 *
 * @since 0.9.0
 * @internal
 */
export const arbitraryTimestamp = (fc: typeof FastCheck): FastCheck.Arbitrary<number> => fc.integer({ min: 0, max: 4102444800 })

/**
 * Unix seconds: an integer from 0 to `Max`, branded.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Timestamp = Schema.Number.pipe(
  Schema.filter(isTimestamp, {
    message: (issue) =>
      typeof issue.actual === "number" && Number.isInteger(issue.actual) && issue.actual > Max
        ? `timestamp must be Unix seconds, got ${issue.actual} (milliseconds?)`
        : `timestamp must be a whole number of Unix seconds from 0 to ${Max}, got ${show(issue.actual)}`,
    arbitrary: () => arbitraryTimestamp
  }),
  Schema.brand("Timestamp")
).annotations({ identifier: "Timestamp" })

/**
 * @since 0.1.0
 * @category models
 */
export type Timestamp = typeof Timestamp.Type

/**
 * A valid `Date` as Unix seconds (rounded down), or its number of Unix seconds as-is; decodes
 * to `Timestamp`, encodes to seconds.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FromDateOrSeconds: Schema.Schema<Timestamp, number | Date> = Schema.transformOrFail(
  Schema.Union(Schema.Number, Schema.DateFromSelf),
  Timestamp,
  {
    strict: true,
    decode: (input, _, ast) => {
      if (typeof input === "number") return ParseResult.succeed(input)
      const ms = input.getTime()
      return Number.isNaN(ms)
        ? ParseResult.fail(new ParseResult.Type(ast, input, "timestamp must be a valid Date"))
        : ParseResult.succeed(Math.floor(ms / 1000))
    },
    encode: ParseResult.succeed
  }
).annotations({ identifier: "TimestampFromDateOrSeconds" })

/**
 * Unix seconds of a `Date`, rounded down. The date must be valid.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromDate = (date: Date): Timestamp => Timestamp.make(Math.floor(date.getTime() / 1000))

/**
 * The `Date` of a timestamp.
 *
 * @since 0.1.0
 * @category utils
 */
export const toDate = (timestamp: Timestamp): Date => new Date(timestamp * 1000)
