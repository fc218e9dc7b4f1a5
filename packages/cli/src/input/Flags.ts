/**
 * The command line's flags as @effect/cli options, and reading their values: the flag, else its
 * environment variable, checked by a parser whose message names where the value came from.
 *
 * Every flag is read as text by @effect/cli and checked here, so that each message is one line in
 * the user's terms (`--page-size must be an integer from 1 to 1000 (got 0)`) rather than the
 * parser's (`'abc' is not a integer`).
 *
 * @since 0.1.0
 */
import { Options } from "@effect/cli"
import { Config, Effect, Either, Option } from "effect"
import * as ExitCode from "../output/ExitCode.js"
import type * as Spec from "./Spec.js"

/**
 * A flag with a value, as an optional @effect/cli option.
 *
 * @since 0.1.0
 * @category options
 */
export const text = (flag: Spec.Flag): Options.Options<Option.Option<string>> => Options.optional(Options.text(flag.name))

/**
 * A switch, as an @effect/cli option.
 *
 * @since 0.1.0
 * @category options
 */
export const toggle = (flag: Spec.Flag): Options.Options<boolean> => Options.boolean(flag.name)

/**
 * Checks a value: the value, or what is wrong with it, as the end of a sentence whose subject is
 * the flag (`must be ... (got ...)`).
 *
 * @since 0.1.0
 * @category models
 */
export type Parser<A> = (raw: string) => Either.Either<A, string>

/**
 * Where a value came from: the flag, or its environment variable.
 *
 * @since 0.1.0
 * @category models
 */
export interface Sourced<A> {
  readonly value: A
  /** `--flag` or `ENV_VAR`. */
  readonly source: string
}

/**
 * The raw text of a flag, else of its environment variable (an empty variable counts as unset).
 *
 * @since 0.1.0
 * @category reading
 */
export const raw = (flag: Spec.Flag, given: Option.Option<string>): Effect.Effect<Option.Option<Sourced<string>>> => {
  if (Option.isSome(given)) return Effect.succeed(Option.some({ value: given.value, source: `--${flag.name}` }))
  if (flag.env === undefined) return Effect.succeed(Option.none())
  const env = flag.env
  return Config.option(Config.string(env)).pipe(
    Effect.map(Option.filter((s) => s !== "")),
    Effect.map(Option.map((value) => ({ value, source: env }))),
    // A string variable cannot be malformed; a provider that fails counts as unset.
    Effect.orElseSucceed(() => Option.none())
  )
}

/**
 * The value of a flag, else of its environment variable, checked by `parse`.
 *
 * @since 0.1.0
 * @category reading
 */
export const read = <A>(
  flag: Spec.Flag,
  given: Option.Option<string>,
  parse: Parser<A>
): Effect.Effect<Option.Option<A>, ExitCode.Failure> =>
  Effect.flatMap(raw(flag, given), (found) =>
    Option.match(found, {
      onNone: () => Effect.succeed(Option.none()),
      onSome: ({ source, value }) =>
        Either.match(parse(value), {
          onLeft: (problem) => Effect.fail(ExitCode.invalid(`${source} ${problem}`)),
          onRight: (a) => Effect.succeed(Option.some(a))
        })
    }))

/**
 * A value as typed, for messages: bare when it is one printable word, quoted otherwise; cut when
 * long.
 *
 * @since 0.1.0
 * @category formatting
 */
export const show = (raw: string): string => {
  const cut = raw.length > 80 ? `${raw.slice(0, 77)}...` : raw
  return /^[\x21-\x7e]+$/.test(cut) && !cut.includes("\"") ? cut : JSON.stringify(cut)
}

/**
 * An integer in a range, digits only (no sign, exponent or fraction).
 *
 * @since 0.1.0
 * @category parsers
 */
export const integer = (min: number, max: number): Parser<number> => (raw) =>
  /^\d{1,15}$/.test(raw) && Number(raw) >= min && Number(raw) <= max
    ? Either.right(Number(raw))
    : Either.left(`must be an integer from ${min} to ${max} (got ${show(raw)})`)

/**
 * One of some values.
 *
 * @since 0.1.0
 * @category parsers
 */
export const choice = <const A extends string>(choices: ReadonlyArray<A>, meaning?: string): Parser<A> => (raw) =>
  (choices as ReadonlyArray<string>).includes(raw)
    ? Either.right(raw as A)
    : Either.left(`must be ${meaning ?? choices.join(" or ")} (got ${show(raw)})`)

/**
 * Any text that is not empty.
 *
 * @since 0.1.0
 * @category parsers
 */
export const nonEmpty: Parser<string> = (raw) => (raw !== "" ? Either.right(raw) : Either.left("must not be empty"))
