/**
 * secp256k1 public keys as the service returns them.
 *
 * Accepted, `0x`-prefixed, hex digits in either case (kept as received):
 * - uncompressed, `0x04` + 128 hex digits — the form the service returns for every account;
 * - compressed, `0x02` or `0x03` + 64 hex digits;
 * - raw coordinates, 128 hex digits without a prefix byte (the X||Y form some Klaytn tools print).
 *
 * Only the shape is checked: whether the point is on the curve is the service's concern.
 *
 * @since 0.1.0
 */
import { type FastCheck, Schema } from "effect"
import { has0x, isHexRange } from "./internal/hexEngine.js"
import { arbitraryHexBytes } from "./internal/hexBytes.js"
import { show } from "./internal/show.js"

const isUncompressed = (s: string) => s.length === 132 && has0x(s) && s.charCodeAt(2) === 0x30 && s.charCodeAt(3) === 0x34 && isHexRange(s, 4, 132)
const isCompressed = (s: string) =>
  s.length === 68 && has0x(s) && s.charCodeAt(2) === 0x30 && (s.charCodeAt(3) === 0x32 || s.charCodeAt(3) === 0x33) && isHexRange(s, 4, 68)
const isRaw = (s: string) => s.length === 130 && has0x(s) && isHexRange(s, 2, 130)

/**
 * Whether a string is a public key in one of the accepted forms.
 *
 * @since 0.1.0
 * @category guards
 */
export const isPublicKey = (s: string): boolean => isUncompressed(s) || isCompressed(s) || isRaw(s)

/**
 * A public key: mostly uncompressed (as the service returns them), sometimes compressed or raw;
 * for the `arbitrary` annotations of the schemas holding one (fast-check as annotations receive
 * it).
 *
 * @since 0.9.0
 * @internal
 */
export const arbitraryPublicKey = (fc: typeof FastCheck): FastCheck.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: arbitraryHexBytes(fc, 64, 64).map((h) => `0x04${h.slice(2)}`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom("02", "03"), arbitraryHexBytes(fc, 32, 32)).map(([p, h]) => `0x${p}${h.slice(2)}`) },
    { weight: 1, arbitrary: arbitraryHexBytes(fc, 64, 64) }
  )

/**
 * A public key in one of the accepted forms, branded.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PublicKey = Schema.String.pipe(
  Schema.filter(isPublicKey, {
    message: (issue) =>
      `public key must be 0x04 + 128 hex digits (uncompressed), 0x02/0x03 + 64 (compressed) or 0x + 128 (raw), got ${show(issue.actual)}`,
    arbitrary: () => arbitraryPublicKey
  }),
  Schema.brand("PublicKey")
).annotations({ identifier: "PublicKey" })

/**
 * @since 0.1.0
 * @category models
 */
export type PublicKey = typeof PublicKey.Type

/**
 * Which form a public key is in.
 *
 * @since 0.1.0
 * @category utils
 */
export const format = (key: PublicKey): "uncompressed" | "compressed" | "raw" =>
  isUncompressed(key) ? "uncompressed" : isCompressed(key) ? "compressed" : "raw"
