/**
 * The address the emulator's own console routes take from their paths (the wallet's operations
 * read theirs by the operation table's schemas, `Input`): read from its raw, percent-encoded
 * segment, and described for the document.
 *
 * The reader decodes the segment itself and answers a malformed one with a 400: the router hands
 * segments over undecoded (see `PathPattern`), so no path can reach a decoder that fails with a
 * 500.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Either, Option } from "effect"
import { Address } from "effect-kas-wallet"
import * as ApiError from "./ApiError.js"
import * as Description from "./Description.js"

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

// `decodeURIComponent` throws on a malformed escape (`%zz`); a route answers that as bad input.
const decode: (raw: string) => Option.Option<string> = Option.liftThrowable(decodeURIComponent)

/**
 * Reads an address path segment (percent-decoded): `0x` + 40 hex digits in any case, else 400
 * `1061609`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseAddress = (raw: string): Either.Either<string, ApiError.ApiError> =>
  Option.match(Option.filter(decode(raw), (a) => ADDRESS.test(a)), {
    onNone: () => Either.left(ApiError.notAddress("address")),
    onSome: Either.right
  })

/**
 * The `{address}` parameter, as the document describes it.
 *
 * @since 0.3.0
 * @category documentation
 */
export const address: Description.Parameter = {
  description: `The address, in any case. Malformed: 400 ${ApiError.Code.NotKlaytnAddress}.`,
  schema: Description.domain("Address", Address.Address)
}

