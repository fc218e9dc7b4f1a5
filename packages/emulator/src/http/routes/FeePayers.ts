/**
 * The fee-payer account routes: create, list, get and delete accounts of the selected fee-payer
 * pool.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Effect } from "effect"
import * as WalletApi from "effect-kas-wallet/WalletApi"
import * as ApiError from "../ApiError.js"
import * as Listing from "../Listing.js"
import * as Route from "../Route.js"
import { notFoundOr } from "./Accounts.js"

const C = ApiError.Code
const api = WalletApi.feePayers

/**
 * The fee-payer account routes, in the document's order.
 *
 * @since 0.3.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.operation(api.createFeePayer, {
    summary: "Create a fee-payer account in the selected fee-payer pool",
    response: "The new fee-payer account (fresh secp256k1 key; createdAt = updatedAt = now).",
    errors:
      `Bad header or body: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.DataNotExist}; the body is optional, withoutAccountUpdate (default false) recorded: the emulator has no chain to update the account on.`,
    handler: ({ caller, payload, services }) =>
      services.accounts.createAccount(caller, { withoutAccountUpdate: payload.withoutAccountUpdate === true })
  }),
  Route.operation(api.listFeePayers, {
    summary: "List the fee-payer accounts of the selected fee-payer pool, newest first",
    response: "A page; cursor is \"\" exactly when no account remains after it.",
    errors: `Bad header or query value: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.DataNotExist}.`,
    // Fee-payer accounts are never disabled: every state is listed.
    handler: ({ caller, query, services }) => Effect.map(services.accounts.listAccounts(caller, Listing.request(query, "all")), Listing.pageBody)
  }),
  Route.operation(api.getFeePayer, {
    summary: "Get a fee-payer account of the selected fee-payer pool",
    response: "The fee-payer account.",
    errors: notFoundOr("Not in the selected fee-payer pool, not the caller's, or deleted"),
    handler: ({ caller, path, services }) => services.accounts.getAccount(caller, path.address)
  }),
  Route.operation(api.deleteFeePayer, {
    summary: "Delete a fee-payer account of the selected fee-payer pool",
    response: "{\"status\":\"deleted\"}.",
    errors: notFoundOr("Not in the selected fee-payer pool, not the caller's, or already deleted"),
    handler: ({ caller, path, services }) => services.accounts.deleteAccount(caller, path.address)
  })
]
