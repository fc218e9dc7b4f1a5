/**
 * Reading the values of a command line's flags: the flag, else its environment variable, checked
 * by a parser whose message names where the value came from.
 *
 * The command line itself is read once, by `Argv.read`, against the table; every value arrives
 * here as text and is checked here, so that each message is one line in the user's terms
 * (`--page-size must be ...`) and names the flag or the variable it came from.
 *
 * @since 0.1.0
 */
import { Config, Effect, Either, Option, Schema } from "effect"
import * as ExitCode from "../output/ExitCode.js"
import type * as Argv from "./Argv.js"
import type * as Spec from "./Spec.js"

// Own properties only: a flag named `constructor` is not Object.prototype's.
const own = (run: Argv.Run, flag: Spec.Flag) => (Object.hasOwn(run.flags, flag.name) ? run.flags[flag.name] : undefined)

/**
 * The value given to a flag on the command line, if any.
 *
 * @since 0.2.0
 * @category reading
 */
export const given = (run: Argv.Run, flag: Spec.Flag): Option.Option<string> => {
  const value = own(run, flag)
  return typeof value === "string" ? Option.some(value) : Option.none()
}

/**
 * The values given to a flag that takes many (`Spec.Flag.many`), if it was given.
 *
 * @since 0.4.0
 * @category reading
 */
export const givenList = (run: Argv.Run, flag: Spec.Flag): Option.Option<ReadonlyArray<string>> => {
  const value = own(run, flag)
  return Array.isArray(value) ? Option.some(value as ReadonlyArray<string>) : Option.none()
}

/**
 * Whether a switch was given.
 *
 * @since 0.2.0
 * @category reading
 */
export const isSet = (run: Argv.Run, flag: Spec.Flag): boolean => own(run, flag) === true

/**
 * A positional argument by name; `Argv.read` has checked that every one is there but the
 * optional ones (`""` when left out).
 *
 * @since 0.2.0
 * @category reading
 */
export const positional = (run: Argv.Run, name: string): string =>
  run.positionals[run.command.positionals.findIndex((p) => p.name === name)] ?? ""

/**
 * A positional argument checked by `parse`; a bad one fails with exit code 2, the argument named
 * (`<address> must be ...`), before anything is sent.
 *
 * @since 0.9.0
 * @category reading
 */
export const argument = <A>(run: Argv.Run, name: string, parse: Parser<A>): Effect.Effect<A, ExitCode.Failure> =>
  Either.match(parse(positional(run, name)), {
    onLeft: (problem) => Effect.fail(ExitCode.invalid(`<${name}> ${problem}`)),
    onRight: Effect.succeed
  })

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
 * A value a schema of the client decodes (`Transaction.TxHash`, `KeyId.KeyId`), refused with
 * `must` (the end of a sentence whose subject is the flag or argument) and the value.
 *
 * @since 0.9.0
 * @category parsers
 */
export const decoded = <A, I>(schema: Schema.Schema<A, I>, must: string): Parser<A> => {
  const decode = Schema.decodeUnknownEither(schema)
  return (raw) => Either.mapLeft(decode(raw), () => `${must} (got ${show(raw)})`)
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
 * An integer (digits only) that a schema of the client accepts, such as `FeeDelegation.FeeRatio`
 * or `Pagination.PageSize`: the schema is the one definition of the bound, `min` and `max` (its
 * constants) only word the refusal.
 *
 * @since 0.2.0
 * @category parsers
 */
export const integerOf = <A>(schema: Schema.Schema<A, number>, min: number, max: number): Parser<A> => {
  const decode = Schema.decodeUnknownEither(schema)
  return (raw) => {
    const decoded = /^\d{1,15}$/.test(raw) ? decode(Number(raw)) : undefined
    return decoded !== undefined && Either.isRight(decoded)
      ? Either.right(decoded.right)
      : Either.left(`must be an integer from ${min} to ${max} (got ${show(raw)})`)
  }
}

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
