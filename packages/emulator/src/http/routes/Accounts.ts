/**
 * The account routes: create, list, get, delete, disable and enable accounts of the selected
 * account pool; the member's accounts of a public key; the counts.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Effect, Option } from "effect"
import { Account } from "effect-kas-wallet"
import * as ApiError from "../ApiError.js"
import * as Description from "../Description.js"
import * as Listing from "../Listing.js"
import * as PathValues from "../PathValues.js"
import * as Route from "../Route.js"
import type * as Accounts from "../../services/Accounts.js"
import * as Render from "../Render.js"

const badHeader = `Bad header: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.`

/**
 * The description of a 400 on one address: the route's own refusal, then the header and address
 * codes every such route shares.
 *
 * @since 0.3.0
 * @category documentation
 */
export const notFoundOr = (what: string): string =>
  `${what}: ${ApiError.Code.DataNotExist} "data don't exist"; bad header or address: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.NotKlaytnAddress}.`

// Disable and enable differ only in the state they ask for.
const setEnabled = (enabled: boolean) =>
({ caller, params, services }: {
  readonly caller: Accounts.SelectedPool
  readonly params: { readonly address: string }
  readonly services: Route.Services
}) =>
  Effect.flatMap(
    Effect.flatMap(PathValues.parseAddress(params.address), (address) => services.accounts.setEnabled(caller, address, enabled)),
    Render.json(Account.AccountSummary)
  )

/**
 * The account routes, in the document's order.
 *
 * @since 0.3.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.make({
    method: "POST",
    path: "/v2/account",
    operationId: "createAccount",
    summary: "Create an account in the selected pool",
    access: "accountPool",
    response: {
      description: "The new account (fresh secp256k1 key; createdAt = updatedAt = now).",
      schema: Description.domain("Account", Account.Account)
    },
    errors: { 400: badHeader },
    handler: ({ caller, services }) => services.accounts.createAccount(caller)
  }),
  Route.make({
    method: "GET",
    path: "/v2/account",
    operationId: "listAccounts",
    summary: "List the accounts of the selected pool, newest first",
    access: "accountPool",
    query: Listing.parameters("account"),
    response: {
      description: "A page; cursor is \"\" exactly when no account remains after it.",
      schema: Description.domain("AccountPage", Account.AccountPage)
    },
    errors: { 400: `Bad header or query value: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.` },
    handler: ({ caller, query, services }) =>
      Effect.map(
        Effect.flatMap(Listing.parseQuery(query, "account"), (request) => services.accounts.listAccounts(caller, request)),
        Listing.pageBody
      )
  }),
  Route.make({
    method: "GET",
    path: "/v2/account/{address}",
    operationId: "getAccount",
    summary: "Get an account of the selected pool (enabled or disabled)",
    access: "accountPool",
    pathParameters: { address: PathValues.address },
    response: { description: "The account.", schema: Description.domain("Account", Account.Account) },
    errors: { 400: notFoundOr("Not in the selected pool, not the caller's, or deleted") },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(PathValues.parseAddress(params.address), (address) => services.accounts.getAccount(caller, address))
  }),
  Route.make({
    method: "DELETE",
    path: "/v2/account/{address}",
    operationId: "deleteAccount",
    summary: "Delete an account of the selected pool (enabled or disabled): it is gone from every read",
    access: "accountPool",
    pathParameters: { address: PathValues.address },
    response: { description: "{\"status\":\"deleted\"}.", schema: Description.domain("AccountStatus", Account.AccountStatus) },
    errors: { 400: notFoundOr("Not in the selected pool, not the caller's, or already deleted") },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(
        Effect.flatMap(PathValues.parseAddress(params.address), (address) => services.accounts.deleteAccount(caller, address)),
        Render.json(Account.AccountStatus)
      )
  }),
  Route.make({
    method: "PUT",
    path: "/v2/account/{address}/disable",
    operationId: "disableAccount",
    summary: "Disable an enabled account: it still answers GET, is listed only with status disabled or all",
    access: "accountPool",
    pathParameters: { address: PathValues.address },
    response: {
      description: "The account, its pool and its new updatedAt.",
      schema: Description.domain("AccountSummary", Account.AccountSummary)
    },
    errors: {
      400: `Not an enabled account of the selected pool (disabled, deleted, another pool's or member's, unknown): ${ApiError.Code.AlreadyDisabled} "account has been already deleted or disabled"; bad header or address: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.NotKlaytnAddress}, ${ApiError.Code.DataNotExist} (x-krn).`
    },
    handler: setEnabled(false)
  }),
  Route.make({
    method: "PUT",
    path: "/v2/account/{address}/enable",
    operationId: "enableAccount",
    summary: "Enable a disabled account",
    access: "accountPool",
    pathParameters: { address: PathValues.address },
    response: {
      description: "The account, its pool and its new updatedAt.",
      schema: Description.domain("AccountSummary", Account.AccountSummary)
    },
    errors: {
      400: `Not a disabled account of the selected pool (enabled, deleted, another pool's or member's, unknown): ${ApiError.Code.AlreadyEnabled} "account has been already deleted or enabled"; bad header or address: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.NotKlaytnAddress}, ${ApiError.Code.DataNotExist} (x-krn).`
    },
    handler: setEnabled(true)
  }),
  Route.make({
    method: "GET",
    path: "/v2/pubkey/{public-key}/account",
    operationId: "getAccountsByPublicKey",
    summary: "The caller's accounts of a public key on the request's chain, in every account pool (enabled or disabled)",
    access: "memberWide",
    pathParameters: { "public-key": PathValues.publicKey },
    response: {
      description: "The accounts, oldest first; empty items when none.",
      schema: Description.domain("PublicKeyAccounts", Account.PublicKeyAccounts)
    },
    errors: {
      400: `Bad header or public key: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.NotHex}, ${ApiError.Code.DataNotExist}.`
    },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(PathValues.parsePublicKey(params["public-key"]), (key) =>
        Effect.flatMap(
          Option.isNone(key)
            // A compressed key off the curve: no account can have it.
            ? Effect.succeed<Account.PublicKeyAccounts>({ items: [] })
            : services.accounts.accountsByPublicKey({ memberId: caller.memberId, accountId: caller.accountId }, caller.chainId, key.value),
          Render.json(Account.PublicKeyAccounts)
        ))
  }),
  Route.make({
    method: "GET",
    path: "/v2/stat/count",
    operationId: "getAccountCount",
    summary:
      "How many accounts the caller holds on the request's chain, in every account pool (enabled and disabled; not deleted, not fee-payer accounts)",
    access: "memberWide",
    response: {
      description: "The caller's account id and the count.",
      schema: Description.domain("AccountCount", Account.AccountCount)
    },
    errors: { 400: badHeader },
    handler: ({ caller, services }) =>
      Effect.flatMap(
        services.accounts.accountCount({ memberId: caller.memberId, accountId: caller.accountId }, caller.chainId),
        Render.json(Account.AccountCount)
      )
  }),
  Route.make({
    method: "GET",
    path: "/v2/stat/count/krn",
    operationId: "getAccountCountByKRN",
    summary: "How many accounts the selected pool holds (enabled and disabled; not deleted)",
    access: "accountPool",
    response: {
      description: "The caller's account id, the count and the pool.",
      schema: Description.domain("PoolAccountCount", Account.PoolAccountCount)
    },
    errors: { 400: badHeader },
    handler: ({ caller, services }) => Effect.flatMap(services.accounts.poolAccountCount(caller), Render.json(Account.PoolAccountCount))
  })
]
