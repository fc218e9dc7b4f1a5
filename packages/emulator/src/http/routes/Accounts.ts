/**
 * The account routes: create, list, get, delete, disable and enable accounts of the selected
 * account pool; the member's accounts of a public key; the counts. Each is an operation of the
 * client's table (`WalletApi.accounts`): this module holds what the emulator adds, its handlers.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Option } from "effect"
import * as WalletApi from "effect-kas-wallet/WalletApi"
import * as ApiError from "../ApiError.js"
import * as Listing from "../Listing.js"
import * as Route from "../Route.js"

const C = ApiError.Code
const api = WalletApi.accounts

/**
 * The description of a 400 on one address: the route's own refusal, then the header and address
 * codes every such route shares.
 *
 * @since 0.3.0
 * @category documentation
 */
export const notFoundOr = (what: string): string =>
  `${what}: ${C.DataNotExist} "data don't exist"; bad header or address: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.NotKlaytnAddress}.`

const badHeader = `Bad header: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.DataNotExist}.`

/**
 * A public key in the uncompressed lower-case form the accounts store, from any of its forms;
 * `None` for a compressed key that is no point of the curve: no account can have it.
 *
 * @since 0.10.0
 * @category reading
 */
export const uncompressed = (key: string): Option.Option<string> => {
  const digits = key.slice(2).toLowerCase()
  if (digits.length === 130) return Option.some(`0x${digits}`)
  if (digits.length === 128) return Option.some(`0x04${digits}`)
  return Option.map(Option.liftThrowable(() => secp256k1.Point.fromHex(digits))(), (point) => `0x${point.toHex(false)}`)
}

/**
 * The account routes, in the document's order.
 *
 * @since 0.3.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.operation(api.createAccount, {
    summary: "Create an account in the selected pool",
    response: "The new account (fresh secp256k1 key; createdAt = updatedAt = now).",
    errors: badHeader,
    handler: ({ caller, services }) => services.accounts.createAccount(caller)
  }),
  Route.operation(api.listAccounts, {
    summary: "List the accounts of the selected pool, newest first",
    response: "A page; cursor is \"\" exactly when no account remains after it.",
    errors: `Bad header or query value: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.DataNotExist}.`,
    handler: ({ caller, query, services }) =>
      Effect.map(services.accounts.listAccounts(caller, Listing.request(query, "enabled")), Listing.pageBody)
  }),
  Route.operation(api.getAccount, {
    summary: "Get an account of the selected pool (enabled or disabled)",
    response: "The account.",
    errors: notFoundOr("Not in the selected pool, not the caller's, or deleted"),
    handler: ({ caller, path, services }) => services.accounts.getAccount(caller, path.address)
  }),
  Route.operation(api.deleteAccount, {
    summary: "Delete an account of the selected pool (enabled or disabled): it is gone from every read",
    response: "{\"status\":\"deleted\"}.",
    errors: notFoundOr("Not in the selected pool, not the caller's, or already deleted"),
    handler: ({ caller, path, services }) => services.accounts.deleteAccount(caller, path.address)
  }),
  Route.operation(api.disableAccount, {
    summary: "Disable an enabled account: it still answers GET, is listed only with status disabled or all",
    response: "The account, its pool and its new updatedAt.",
    errors:
      `Not an enabled account of the selected pool (disabled, deleted, another pool's or member's, unknown): ${C.AlreadyDisabled} "account has been already deleted or disabled"; bad header or address: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.NotKlaytnAddress}, ${C.DataNotExist} (x-krn).`,
    handler: ({ caller, path, services }) => services.accounts.setEnabled(caller, path.address, false)
  }),
  Route.operation(api.enableAccount, {
    summary: "Enable a disabled account",
    response: "The account, its pool and its new updatedAt.",
    errors:
      `Not a disabled account of the selected pool (enabled, deleted, another pool's or member's, unknown): ${C.AlreadyEnabled} "account has been already deleted or enabled"; bad header or address: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.NotKlaytnAddress}, ${C.DataNotExist} (x-krn).`,
    handler: ({ caller, path, services }) => services.accounts.setEnabled(caller, path.address, true)
  }),
  Route.operation(api.accountsByPublicKey, {
    summary: "The caller's accounts of a public key on the request's chain, in every account pool (enabled or disabled)",
    response: "The accounts, oldest first; empty items when none.",
    errors: `Bad header or public key: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.NotHex}, ${C.DataNotExist}.`,
    handler: ({ caller, path, services }) =>
      Option.match(uncompressed(path["public-key"]), {
        // A compressed key off the curve: no account can have it.
        onNone: () => Effect.succeed({ items: [] }),
        onSome: (key) => services.accounts.accountsByPublicKey({ memberId: caller.memberId, accountId: caller.accountId }, caller.chainId, key)
      })
  }),
  Route.operation(api.accountCount, {
    summary:
      "How many accounts the caller holds on the request's chain, in every account pool (enabled and disabled; not deleted, not fee-payer accounts)",
    response: "The caller's account id and the count.",
    errors: badHeader,
    handler: ({ caller, services }) => services.accounts.accountCount({ memberId: caller.memberId, accountId: caller.accountId }, caller.chainId)
  }),
  Route.operation(api.accountCountByPool, {
    summary: "How many accounts the selected pool holds (enabled and disabled; not deleted)",
    response: "The caller's account id, the count and the pool.",
    errors: badHeader,
    handler: ({ caller, services }) => services.accounts.poolAccountCount(caller)
  })
]
