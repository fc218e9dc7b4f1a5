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
import { Account } from "effect-kas-wallet"
import * as ApiError from "../ApiError.js"
import * as Description from "../Description.js"
import * as Listing from "../Listing.js"
import * as PathValues from "../PathValues.js"
import * as Render from "../Render.js"
import * as RequestBody from "../RequestBody.js"
import * as Route from "../Route.js"
import { notFoundOr } from "./Accounts.js"

const feePayerAccount = Description.domain("FeePayerAccount", Account.FeePayerAccount)

/**
 * The fee-payer account routes, in the document's order.
 *
 * @since 0.3.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.make({
    method: "POST",
    path: "/v2/feepayer",
    operationId: "createFeePayer",
    summary: "Create a fee-payer account in the selected fee-payer pool",
    access: "feePayerPool",
    body: {
      required: false,
      description:
        `Optional; empty or a JSON object. withoutAccountUpdate (boolean, default false) is recorded: the emulator has no chain to update the account on. Not a JSON object, or withoutAccountUpdate not a boolean: 400 ${ApiError.Code.OutOfRange}.`,
      // No domain schema: the client sends this one field and the emulator reads only it.
      schema: Description.json({ type: "object", properties: { withoutAccountUpdate: { type: "boolean" } } })
    },
    response: {
      description: "The new fee-payer account (fresh secp256k1 key; createdAt = updatedAt = now).",
      schema: feePayerAccount
    },
    errors: { 400: `Bad header or body: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.` },
    handler: ({ body, caller, services }) =>
      Effect.flatMap(RequestBody.parseFeePayerBody(body), (options) => services.accounts.createAccount(caller, options))
  }),
  Route.make({
    method: "GET",
    path: "/v2/feepayer",
    operationId: "listFeePayers",
    summary: "List the fee-payer accounts of the selected fee-payer pool, newest first",
    access: "feePayerPool",
    query: Listing.parameters("feePayer"),
    response: {
      description: "A page; cursor is \"\" exactly when no account remains after it.",
      schema: Description.domain("FeePayerAccountPage", Account.FeePayerAccountPage)
    },
    errors: { 400: `Bad header or query value: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.` },
    handler: ({ caller, query, services }) =>
      Effect.map(
        Effect.flatMap(Listing.parseQuery(query, "feePayer"), (request) => services.accounts.listAccounts(caller, request)),
        Listing.pageBody
      )
  }),
  Route.make({
    method: "GET",
    path: "/v2/feepayer/{address}",
    operationId: "getFeePayer",
    summary: "Get a fee-payer account of the selected fee-payer pool",
    access: "feePayerPool",
    pathParameters: { address: PathValues.address },
    response: { description: "The fee-payer account.", schema: feePayerAccount },
    errors: { 400: notFoundOr("Not in the selected fee-payer pool, not the caller's, or deleted") },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(PathValues.parseAddress(params.address), (address) => services.accounts.getAccount(caller, address))
  }),
  Route.make({
    method: "DELETE",
    path: "/v2/feepayer/{address}",
    operationId: "deleteFeePayer",
    summary: "Delete a fee-payer account of the selected fee-payer pool",
    access: "feePayerPool",
    pathParameters: { address: PathValues.address },
    response: { description: "{\"status\":\"deleted\"}.", schema: Description.domain("AccountStatus", Account.AccountStatus) },
    errors: { 400: notFoundOr("Not in the selected fee-payer pool, not the caller's, or already deleted") },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(
        Effect.flatMap(PathValues.parseAddress(params.address), (address) => services.accounts.deleteAccount(caller, address)),
        Render.json(Account.AccountStatus)
      )
  })
]
