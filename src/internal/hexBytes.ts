/**
 * The schema of bytes as hex text, shared by results (`Transaction`) and request bodies (`Wire`).
 *
 * @internal
 */
import { Schema } from "effect"
import * as Arb from "./arbitrary.js"
import { show } from "./show.js"

/**
 * `0x` and an even number of hex digits, any case.
 *
 * @internal
 */
export const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/

/**
 * Whether a string is `0x` and an even number of hex digits (`HexBytes`' rule).
 *
 * @internal
 */
export const isHexBytes = (s: string): boolean => HEX_BYTES.test(s)

/**
 * Bytes as `0x` + an even number of hex digits (`"0x"` is empty), as received.
 *
 * @internal
 */
export const HexBytes = Schema.String.pipe(
  Schema.filter(isHexBytes, {
    message: (issue) => `expected 0x followed by an even number of hex digits, got ${show(issue.actual)}`,
    arbitrary: () => (fc) => Arb.hexBytes(fc, 0, 40)
  })
).annotations({ identifier: "HexBytes" })
