/**
 * Hex text without Buffer (the client runs in browsers): quantities, bytes, non-negative integers.
 *
 * @internal
 */
import { type FastCheck, Schema } from "effect"
import { show } from "./show.js"

/**
 * `0x` and at least one hex digit, any case: a quantity as the service writes it.
 *
 * @internal
 */
export const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/

/**
 * A quantity of 1 to `maxDigits` hex digits without leading zeros, for the schemas'
 * `arbitrary` annotations (fast-check as they receive it: nothing here imports it).
 *
 * @internal
 */
export const arbitraryHexQuantity = (fc: typeof FastCheck, maxDigits: number): FastCheck.Arbitrary<string> =>
  fc.bigInt({ min: 1n, max: (1n << BigInt(4 * maxDigits)) - 1n }).map((n) => `0x${n.toString(16)}`)

/**
 * `0x` and the bytes in lower-case hex.
 *
 * @internal
 */
export const hexOfBytes = (bytes: Uint8Array): string => {
  let out = "0x"
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

/**
 * The bytes of hex text, with or without `0x`, already checked to be an even number of hex digits.
 *
 * @internal
 */
export const bytesOfHex = (hex: string): Uint8Array => {
  const digits = hex.startsWith("0x") ? hex.slice(2) : hex
  const out = new Uint8Array(digits.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16)
  return out
}

/**
 * A non-negative integer, with a message that shows what was given.
 *
 * @internal
 */
export const NonNegativeInt = Schema.NonNegativeInt.annotations({
  message: (issue) => `expected a non-negative integer, got ${show(issue.actual)}`
})
