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
import { Registration } from "effect-kas-wallet"
import * as ApiError from "../ApiError.js"
import * as Description from "../Description.js"
import * as Route from "../Route.js"

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
    handler: ({ body, caller, services }) => services.registration.register(caller, body)
  })
]
