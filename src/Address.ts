/**
 * Klaytn account addresses: `0x` followed by 40 hex digits, EIP-55 checksummed.
 *
 * Decoding accepts an all-lower-case or all-upper-case address, and a mixed-case one only when
 * its case pattern is the EIP-55 checksum (keccak-256 of the lower-case hex). It always yields the
 * checksummed form, so two decoded addresses are equal exactly when they are the same account.
 *
 * @since 0.1.0
 */
import { type FastCheck, Option, ParseResult, Schema } from "effect"
import { BadShape, normalizeAddress as normalize } from "./internal/hexEngine.js"
import { arbitraryHexBytes } from "./internal/hexBytes.js"
import { show } from "./internal/show.js"

const SHAPE = /^0x[0-9a-fA-F]{40}$/

// Any-case 0x + 40 hex digits to its checksummed form (the shape must already be known good).
const checksummed = (s: string): string => normalize(s.toLowerCase()) as string

/**
 * A checksummed address of 20 random bytes, for the `arbitrary` annotations of the schemas
 * holding addresses (fast-check as annotations receive it).
 *
 * @since 0.9.0
 * @internal
 */
export const arbitraryAddress = (fc: typeof FastCheck): FastCheck.Arbitrary<string> =>
  arbitraryHexBytes(fc, 20, 20).map((hex) => normalize(hex) as string)

/**
 * A checksummed address, as a branded string.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AddressFromSelf = Schema.String.pipe(
  Schema.filter((s) => normalize(s) === s, {
    message: (issue) => `expected an EIP-55 checksummed address, got ${show(issue.actual)}`,
    arbitrary: () => arbitraryAddress
  }),
  Schema.brand("Address")
).annotations({ identifier: "Address" })

/**
 * @since 0.1.0
 * @category models
 */
export type Address = typeof AddressFromSelf.Type

// Decodes as `Address` does (any case; mixed case must be the EIP-55 checksum) and writes
// `encode(address)` back on the wire: the service sends accounts' addresses checksummed and
// transactions' in lower case.
const encodedAs = (encode: (address: Address) => string): Schema.Schema<Address, string> =>
  Schema.transformOrFail(Schema.String, AddressFromSelf, {
    strict: true,
    decode: (s, _, ast) => {
      const result = normalize(s)
      return typeof result === "string"
        ? ParseResult.succeed(result)
        : ParseResult.fail(
          new ParseResult.Type(
            ast,
            s,
            result === BadShape ? `expected 0x followed by 40 hex digits, got ${show(s)}` : "invalid EIP-55 checksum"
          )
        )
    },
    encode: (address) => ParseResult.succeed(encode(address as Address))
  })

/**
 * Decodes an address string into its checksummed form; encodes it unchanged.
 *
 * Failures: `expected 0x followed by 40 hex digits` for a wrong shape, `invalid EIP-55 checksum`
 * for a mixed-case address whose case pattern is not its checksum.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Address: Schema.Schema<Address, string> = encodedAs((address) => address).annotations({
  identifier: "Address",
  description: "an address, 0x followed by 40 hex digits (EIP-55)"
})

/**
 * An address written in lower case, as transaction results and receipts show them: decodes any
 * accepted case (as `Address` does) to the checksummed `Address`, encodes to lower case, so that a
 * re-encoded result is the service's JSON byte for byte.
 *
 * @since 0.2.0
 * @category schemas
 */
export const LowerCase: Schema.Schema<Address, string> = encodedAs((address) => address.toLowerCase()).annotations({
  identifier: "LowerCaseAddress",
  description: "an address, 0x followed by 40 hex digits, written in lower case"
})

/**
 * The EIP-55 checksummed form of any-case `0x` + 40 hex digits, ignoring its current case; `None`
 * when the input does not have that shape.
 *
 * @example
 * ```ts
 * import { Address } from "effect-kas-wallet"
 *
 * Address.checksum("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
 * // Option.some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const checksum = (address: string): Option.Option<Address> =>
  SHAPE.test(address) ? Option.some(checksummed(address) as Address) : Option.none()

/**
 * Whether a string is a valid address as `Address` decodes it (all-lower, all-upper or checksummed).
 *
 * @since 0.1.0
 * @category guards
 */
export const isValid = (s: string): boolean => typeof normalize(s) === "string"

/**
 * The all-lower-case form, as transaction results of the service show addresses.
 *
 * @since 0.1.0
 * @category utils
 */
export const toLowerCase = (address: Address): string => address.toLowerCase()
