/**
 * The registration route (`POST /v2/registration/account`): existing Klaytn accounts taken into
 * the selected account pool under keys of the key service, each with the account update that
 * switches it to its key (docs/emulator.md, "Registration"). An operation of the client's table
 * (`WalletApi.registration`): this module holds what the emulator adds, its handler.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.8.0
 * @internal
 */
import { Registration } from "effect-kas-wallet"
import * as WalletApi from "effect-kas-wallet/WalletApi"
import * as ApiError from "../ApiError.js"
import * as Route from "../Route.js"

const C = ApiError.Code

/**
 * The registration routes, in the document's order.
 *
 * @since 0.8.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.operation(WalletApi.registration.registerAccounts, {
    summary:
      "Register existing accounts in the selected account pool under keys of the key service, each rlp (a signed TxTypeFeeDelegatedAccountUpdate to AccountKeyPublic of the key) sent with the global fee payer paying",
    response:
      "status ok (every account registered), partially failed or all failed, with the reason of each failure by address. A failed item changes nothing; a registered one is an account of the pool, its key the key service's key (which stays in the key service).",
    errors:
      `1 to ${Registration.MaxItems} items {keyId, address, rlp?}, one per address. Empty: ${C.EmptyOrZero} (body); keyId or address missing or empty: ${C.EmptyOrZero}; address malformed: ${C.NotKlaytnAddress}; rlp not hex: ${C.NotHex}; a key id malformed, an address twice, an unknown field, more items, not JSON: ${C.OutOfRange}; a key id that is not the caller's key on the request's chain: ${C.DataNotExist} (data don't exist; <keyId>); bad header: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.DataNotExist} (x-krn). A refused request changes nothing.`,
    handler: ({ caller, payload, services }) => services.registration.register(caller, payload)
  })
]
