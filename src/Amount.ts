/**
 * Amounts: peb (1 KLAY = 10^18 peb, 1 ston = 10^9 peb) as exact `bigint`s, their `0x` hex wire
 * form, and the decimal forms people write (`1.5KLAY`, `25ston`, `1000peb`).
 *
 * Amounts travel as `0x` hex strings of peb; the service drops leading zeros (`"0x0"` is zero).
 * Every conversion is exact: digits only, never a float.
 *
 * @since 0.2.0
 */
import { Data, Either, type FastCheck, ParseResult, Schema } from "effect"
import { fromString } from "./internal/fromString.js"
import { HEX_QUANTITY } from "./internal/hex.js"
import { show } from "./internal/show.js"

/**
 * Peb in one KLAY: 10^18.
 *
 * @since 0.1.0
 * @category constants
 */
export const PebPerKlay = 10n ** 18n

/**
 * Peb in one ston (the unit gas prices are quoted in): 10^9.
 *
 * @since 0.1.0
 * @category constants
 */
export const PebPerSton = 10n ** 9n

/**
 * The largest amount: 2^256 - 1 peb (Klaytn amounts are 256-bit).
 *
 * @since 0.1.0
 * @category constants
 */
export const MaxPeb = (1n << 256n) - 1n

const isPebValue = (n: bigint): boolean => n >= 0n && n <= MaxPeb

/**
 * An amount of peb: small ones, any up to `MaxPeb`, and the edges; for the `arbitrary`
 * annotations of the schemas holding amounts (fast-check as annotations receive it).
 *
 * @since 0.9.0
 * @internal
 */
export const arbitraryPeb = (fc: typeof FastCheck): FastCheck.Arbitrary<bigint> =>
  fc.oneof(
    fc.bigInt({ min: 0n, max: 10n ** 24n }),
    fc.bigInt({ min: 0n, max: MaxPeb }),
    fc.constantFrom(0n, 1n, 10n ** 18n, MaxPeb)
  )

/**
 * An amount in peb: a `bigint` from 0 to `MaxPeb`, branded.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PebFromSelf = Schema.BigIntFromSelf.pipe(
  Schema.filter(isPebValue, {
    message: (issue) => `amount must be a whole number of peb from 0 to 2^256 - 1, got ${show(issue.actual)}`,
    arbitrary: () => arbitraryPeb
  }),
  Schema.brand("Peb")
).annotations({ identifier: "Peb" })

/**
 * @since 0.1.0
 * @category models
 */
export type Peb = typeof PebFromSelf.Type

/**
 * The minimal lower-case `0x` hex form of an amount, as the service writes it (`0x0` for zero).
 *
 * @since 0.1.0
 * @category formatting
 */
export const toHex = (amount: Peb): string => `0x${amount.toString(16)}`

/**
 * The amount a `0x` hex string of peb stands for, or `undefined` when it is not one (`PebFromHex`'s
 * rule, shared with the client's fast page decoders).
 *
 * @since 0.8.0
 * @internal
 */
export const pebOfHex = (s: string): Peb | undefined => {
  if (!HEX_QUANTITY.test(s)) return undefined
  const n = BigInt(s)
  return n <= MaxPeb ? n as Peb : undefined
}

/**
 * Decodes a `0x` hex string of peb (any case, leading zeros allowed, at most 64 digits after
 * them) to `Peb`; encodes to the minimal lower-case form.
 *
 * Failures: `expected 0x followed by hex digits` for anything else (`"0x"` included), `amount
 * exceeds 2^256 - 1 peb` for too large a value.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PebFromHex: Schema.Schema<Peb, string> = fromString(
  PebFromSelf,
  pebOfHex,
  (s) => HEX_QUANTITY.test(s) ? "amount exceeds 2^256 - 1 peb" : `expected 0x followed by hex digits, got ${show(s)}`,
  (n) => `0x${n.toString(16)}`
).annotations({ identifier: "PebFromHex", description: "an amount of peb, 0x followed by hex digits" })

/**
 * Why an amount could not be read: `input` is what was given, `reason` the broken rule.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidAmount extends Data.TaggedError("InvalidAmount")<{
  readonly input: string
  readonly reason: string
}> {
  /** @since 0.1.0 */
  override get message(): string {
    return `invalid amount ${show(this.input)}: ${this.reason}`
  }
}

const DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/

// Exact decimal to integer in units of 10^-decimals: digits only, never a float.
const parseDecimal = (input: string, text: string, decimals: number, unit: string): Either.Either<Peb, InvalidAmount> => {
  const match = DECIMAL.exec(text)
  if (match === null) {
    return Either.left(new InvalidAmount({ input, reason: `expected a decimal number of ${unit} such as 1.5` }))
  }
  const whole = match[1]!
  const fraction = match[2] ?? ""
  // Zeros past the last representable place change nothing, so they are allowed.
  if (fraction.length > decimals && !/^0*$/.test(fraction.slice(decimals))) {
    return Either.left(
      new InvalidAmount({ input, reason: `${unit} has at most ${decimals} decimal places (the smallest unit is 1 peb)` })
    )
  }
  const digits = whole + fraction.slice(0, decimals).padEnd(decimals, "0")
  const n = BigInt(digits)
  return n <= MaxPeb ? Either.right(n as Peb) : Either.left(new InvalidAmount({ input, reason: "amount exceeds 2^256 - 1 peb" }))
}

/**
 * Reads a decimal number of KLAY (`"1.5"`, `"0.000000000000000001"`, `"20"`) exactly as peb.
 * At most 18 significant decimal places; no sign, exponent, spaces or thousands separators.
 *
 * @example
 * ```ts
 * import { Transaction } from "effect-kas-wallet"
 *
 * Transaction.fromKlay("1.5") // Either.right(1500000000000000000n)
 * Transaction.fromKlay("1e18") // Either.left(InvalidAmount)
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const fromKlay = (klay: string): Either.Either<Peb, InvalidAmount> => parseDecimal(klay, klay, 18, "KLAY")

/**
 * An amount of peb as a decimal number of KLAY, without trailing zeros (`"1.5"`, `"0"`, `"20"`):
 * the exact inverse of `fromKlay`. Takes any `bigint` (a plain one, a fee, a difference of
 * balances: a negative amount is written with a leading `-`).
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatKlay = (amount: Peb | bigint): string => {
  const sign = amount < 0n ? "-" : ""
  const abs = amount < 0n ? -amount : amount
  const whole = abs / PebPerKlay
  const fraction = (abs % PebPerKlay).toString().padStart(18, "0").replace(/0+$/, "")
  return `${sign}${whole}${fraction === "" ? "" : `.${fraction}`}`
}

const AMOUNT = /^(.*?)\s*(klay|ston|peb)?$/i

/**
 * How to write an amount, as every refusal of `parseAmount` ends.
 *
 * @since 0.2.0
 * @category constants
 */
export const AmountHint = "write it with its unit, such as 1.5KLAY, 25ston or 1000peb"

/**
 * Reads an amount as a person writes it: `1.5KLAY` / `1.5 klay`, `25ston`, `1000peb`, a bare
 * integer (peb) or `0x` hex (peb). Decimals are exact; fractions of a peb are refused. Every
 * refusal says how to write it (`AmountHint`).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseAmount = (input: string): Either.Either<Peb, InvalidAmount> => {
  const match = AMOUNT.exec(input)
  const number = match?.[1] ?? ""
  const written = match?.[2]
  const unit = (written ?? "peb").toLowerCase()
  if (unit === "peb" && HEX_QUANTITY.test(number)) {
    const n = pebOfHex(number)
    return n !== undefined ? Either.right(n) : Either.left(new InvalidAmount({ input, reason: "amount exceeds 2^256 - 1 peb" }))
  }
  if (!DECIMAL.test(number)) return Either.left(new InvalidAmount({ input, reason: `not an amount: ${AmountHint}` }))
  if (written === undefined && number.includes(".")) {
    return Either.left(new InvalidAmount({ input, reason: `a number without a unit is peb, which has no fractions: ${AmountHint}` }))
  }
  return parseDecimal(input, number, unit === "klay" ? 18 : unit === "ston" ? 9 : 0, unit === "klay" ? "KLAY" : unit)
}

/**
 * Decodes a decimal number of KLAY (see `fromKlay`) to `Peb`; encodes with `formatKlay`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Klay: Schema.Schema<Peb, string> = Schema.transformOrFail(Schema.String, PebFromSelf, {
  strict: true,
  decode: (s, _, ast) =>
    Either.match(fromKlay(s), {
      onLeft: (e) => ParseResult.fail(new ParseResult.Type(ast, s, e.reason)),
      onRight: ParseResult.succeed
    }),
  encode: (n) => ParseResult.succeed(formatKlay(n as Peb))
}).annotations({ identifier: "Klay", description: "a decimal number of KLAY" })
