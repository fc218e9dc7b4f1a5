/**
 * Amounts as the command line takes them: always with their unit (`1.5KLAY`, `25ston`,
 * `1000peb`), read by the client's `Amount.parseAmount`. A bare number is refused, even where the
 * client would read it as peb: `--value 1` meaning a billionth of a billionth of a KLAY is a
 * mistake far more often than an intent.
 *
 * @since 0.2.0
 */
import { Either } from "effect"
import { Amount } from "effect-kas-wallet"
import * as Flags from "./Flags.js"

/**
 * Reads an amount with its unit; every refusal ends with `Amount.AmountHint`.
 *
 * @since 0.2.0
 * @category parsers
 */
export const parseAmount: Flags.Parser<Amount.Peb> = (raw) =>
  /^\s*(0x[0-9a-f]*|[0-9.,_]*)\s*$/i.test(raw)
    ? Either.left(`has no unit: ${Amount.AmountHint} (got ${Flags.show(raw)})`)
    : Either.mapLeft(Amount.parseAmount(raw), (e) => `${e.reason} (got ${Flags.show(raw)})`)
