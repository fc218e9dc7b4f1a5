/**
 * The registration route (`POST /v2/registration/account`): existing Klaytn accounts taken into
 * the selected account pool under keys of the key service, each with the account update that
 * switches it to its key (docs/emulator.md, "Registration").
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.8.0
 * @internal
 */
import { Effect, Either, ParseResult, Schema } from "effect"
import { Registration } from "effect-kas-wallet"
import * as ApiError from "../ApiError.js"
import * as Description from "../Description.js"
import * as Route from "../Route.js"

const decodeRequest = Schema.decodeUnknownEither(Registration.RegistrationRequest)

const encodeResult = Schema.encodeSync(Registration.RegistrationResult)

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/

// The service's refusal of a body its schema refused, by the field of the first failure.
const bodyError = (body: unknown, error: ParseResult.ParseError): ApiError.ApiError => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  const [index, field] = issue?.path ?? []
  if (typeof index !== "number" || typeof field !== "string") {
    // The array itself: none, or too many; an item that is not an object.
    return Array.isArray(body) && body.length === 0 ? ApiError.missing("body") : ApiError.outOfRange("body")
  }
  if (issue?._tag === "Unexpected") return ApiError.outOfRange(field)
  const raw: unknown = (body as ReadonlyArray<Record<string, unknown>>)[index]?.[field]
  const absent = raw === undefined || raw === null || raw === ""
  switch (field) {
    case "keyId":
      return absent ? ApiError.missing(field) : ApiError.outOfRange(field)
    case "address":
      // A second item of one address is out of range; a malformed one is no address.
      if (absent) return ApiError.missing(field)
      return typeof raw === "string" && /^0x[0-9a-fA-F]{40}$/.test(raw) ? ApiError.outOfRange(field) : ApiError.notAddress(field)
    case "rlp":
      if (absent || raw === "0x") return ApiError.missing(field)
      return typeof raw === "string" && HEX_BYTES.test(raw) ? ApiError.outOfRange(field) : ApiError.notHex(field)
    default:
      return ApiError.outOfRange(field)
  }
}

/**
 * Reads the body: a JSON array decoded by `Registration.RegistrationRequest`. Not JSON → 400
 * `1061615` `body`; an empty array → `1061608` `body`; a field missing or empty → `1061608`
 * naming it; an address malformed → `1061609`, or given twice → `1061615`; `rlp` not `0x` hex →
 * `1061607`; a key id malformed, an unknown field, more than 100 items → `1061615`.
 *
 * @since 0.8.0
 * @category parsing
 */
export const parseBody = (text: string): Either.Either<ReadonlyArray<Registration.RegistrationItem>, ApiError.ApiError> => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return Either.left(ApiError.outOfRange("body"))
  }
  return Either.mapLeft(decodeRequest(body), (error) => bodyError(body, error))
}

/**
 * The registration routes, in the document's order.
 *
 * @since 0.8.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.make({
    method: "POST",
    path: "/v2/registration/account",
    operationId: "RegisterAccount",
    summary:
      "Register existing accounts in the selected account pool under keys of the key service, each rlp (a signed TxTypeFeeDelegatedAccountUpdate to AccountKeyPublic of the key) sent with the global fee payer paying",
    access: "accountPool",
    body: {
      required: true,
      description:
        `1 to ${Registration.MaxItems} items {keyId, address, rlp?}, one per address. Empty: 400 ${ApiError.Code.EmptyOrZero} (body); keyId or address missing or empty: ${ApiError.Code.EmptyOrZero}; address malformed: ${ApiError.Code.NotKlaytnAddress}; rlp not hex: ${ApiError.Code.NotHex}; a key id malformed, an address twice, an unknown field, more items, not JSON: ${ApiError.Code.OutOfRange}; a key id that is not the caller's key on the request's chain: ${ApiError.Code.DataNotExist} (data don't exist; <keyId>). A refused request changes nothing.`,
      schema: Description.domain("AccountRegistrationRequest", Registration.RegistrationRequest)
    },
    response: {
      description:
        "status ok (every account registered), partially failed or all failed, with the reason of each failure by address. A failed item changes nothing; a registered one is an account of the pool, its key the key service's key (which stays in the key service).",
      schema: Description.domain("RegistrationStatusResponse", Registration.RegistrationResult)
    },
    errors: {
      400: `Bad header or body: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.NotKlaytnAddress}, ${ApiError.Code.NotHex}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist} (x-krn, keyId).`
    },
    handler: ({ body, caller, services }) =>
      Effect.flatMap(parseBody(body), (items) =>
        Effect.map(services.registration.register(caller, items), (result) => JSON.stringify(encodeResult(result))))
  })
]
