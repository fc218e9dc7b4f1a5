/**
 * A schema from the service's text form of a value, read by a plain function: the amounts,
 * quantities and hashes the results carry as strings.
 *
 * @internal
 */
import { ParseResult, Schema } from "effect"

/**
 * Decodes a string to `to` with `read` (`undefined`: refused, with `why` the string's issue's
 * message); encodes with `write`.
 *
 * @internal
 */
export const fromString = <A, I>(
  to: Schema.Schema<A, I>,
  read: (s: string) => I | undefined,
  why: (s: string) => string,
  write: (value: I) => string
): Schema.transformOrFail<typeof Schema.String, Schema.Schema<A, I>> =>
  Schema.transformOrFail(Schema.String, to, {
    strict: true,
    decode: (s, _, ast) => {
      const value = read(s)
      return value !== undefined ? ParseResult.succeed(value) : ParseResult.fail(new ParseResult.Type(ast, s, why(s)))
    },
    encode: (value) => ParseResult.succeed(write(value))
  })
