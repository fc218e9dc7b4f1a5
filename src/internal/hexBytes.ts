/**
 * The schema of bytes as hex text, shared by results (`Transaction`) and request bodies (`Wire`).
 *
 * @internal
 */
import { type FastCheck, Schema } from "effect"
import { hexOfBytes } from "./hex.js"
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
 * `0x` and `min` to `max` random bytes in lower-case hex: the generator of `HexBytes` and of the
 * fixed-size hex fields built on it. It takes fast-check as the schemas' `arbitrary` annotations
 * receive it, so that no module of the client imports fast-check (docs/benchmarks.md, "Browser
 * bundle"), while `Arbitrary.make` in a property test still derives every schema's generator.
 *
 * @internal
 */
export const arbitraryHexBytes = (fc: typeof FastCheck, min: number, max: number): FastCheck.Arbitrary<string> =>
  fc.uint8Array({ minLength: min, maxLength: max }).map(hexOfBytes)

/**
 * Bytes as `0x` + an even number of hex digits (`"0x"` is empty), as received.
 *
 * @internal
 */
export const HexBytes = Schema.String.pipe(
  Schema.filter(isHexBytes, {
    message: (issue) => `expected 0x followed by an even number of hex digits, got ${show(issue.actual)}`,
    arbitrary: () => (fc) => arbitraryHexBytes(fc, 0, 40)
  })
).annotations({ identifier: "HexBytes" })
