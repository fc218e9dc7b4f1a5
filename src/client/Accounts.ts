/**
 * The account operations of the client: accounts of an account pool and their lifecycle, the
 * member's accounts of a public key, the counts.
 *
 * @since 0.10.0
 */
import { Effect, Either } from "effect"
import type * as Account from "../Account.js"
import type * as Address from "../Address.js"
import * as WalletApi from "../api/WalletApi.js"
import type * as ListingParams from "../internal/listing.js"
import type * as PublicKey from "../PublicKey.js"
import { onAddress, validPublicKey, validStatus } from "./Arguments.js"
import type { CallOptions } from "./CallOptions.js"
import * as Listings from "./Listings.js"
import type { Op, StreamOp } from "./Operation.js"
import type * as Requests from "./Requests.js"

/**
 * Listing parameters. `pageSize` (alias `size`, the wire name) is the number of accounts per
 * request, 1..1000 (the service's default is 100), never a total: bound a total with
 * `Stream.take`. `from` / `to` bound `createdAt` inclusively, in Unix seconds or as `Date`s; 0 or
 * absent means unbounded.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListParams extends CallOptions, ListingParams.Params {
  readonly pageSize?: number | undefined
  readonly size?: number | undefined
  /** Continue from this cursor (from a previous page, or an error's `cursor`). */
  readonly cursor?: string | undefined
  readonly from?: number | Date | undefined
  readonly to?: number | Date | undefined
  /**
   * Which accounts, by state: `enabled` (absent: the service's default), `disabled`, `corrupted`,
   * `all`, in any case (`"DISABLED"` as well, as the official client takes it); sent in lower case.
   */
  readonly status?: Account.StatusFilterInput | undefined
}

/**
 * The account operations.
 *
 * @since 0.10.0
 * @category models
 */
export interface Service {
  /**
   * Creates an account in the selected pool (POST /v2/account). Not retried once the request may
   * have reached the service: creating is not idempotent.
   */
  readonly createAccount: Op<[options?: CallOptions], Account.Account>
  /** One account by address (GET /v2/account/{address}); the address is validated first. */
  readonly getAccount: Op<[address: Address.Address | string, options?: CallOptions], Account.Account>
  /** One page of the listing (GET /v2/account). */
  readonly listAccounts: Op<[params?: ListParams], Account.AccountPage>
  /** Every account of the listing, newest first, fetched page by page as the consumer pulls. */
  readonly accounts: StreamOp<[params?: ListParams], Account.Account>
  /** Every page of the listing, as the consumer pulls. */
  readonly accountPages: StreamOp<[params?: ListParams], Account.AccountPage>
  /**
   * Deletes an account (DELETE /v2/account/{address}): it is gone from get and list. Not retried
   * once sent: a second delete answers "data don't exist".
   */
  readonly deleteAccount: Op<[address: Address.Address | string, options?: CallOptions], Account.AccountStatus>
  /**
   * Disables an account (PUT /v2/account/{address}/disable): it still answers get, is listed only
   * with `status: "disabled"` or `"all"`, and cannot send. Disabling anything but an enabled
   * account of the pool (a disabled or deleted one, or an address the pool does not hold) is
   * `InvalidRequest` with code 1061510, as the service answers. Not retried once sent.
   */
  readonly disableAccount: Op<[address: Address.Address | string, options?: CallOptions], Account.AccountSummary>
  /**
   * Enables a disabled account (PUT /v2/account/{address}/enable). Enabling anything but a
   * disabled account of the pool (an enabled or deleted one, or an address the pool does not
   * hold) is `InvalidRequest` with code 1061511, as the service answers. Not retried once sent.
   */
  readonly enableAccount: Op<[address: Address.Address | string, options?: CallOptions], Account.AccountSummary>
  /** The member's accounts of a public key on the chain (GET /v2/pubkey/{public-key}/account). */
  readonly accountsByPublicKey: Op<[publicKey: PublicKey.PublicKey | string, options?: CallOptions], ReadonlyArray<Account.PublicKeyAccount>>
  /** How many accounts the member holds on the chain (GET /v2/stat/count). */
  readonly accountCount: Op<[options?: CallOptions], Account.AccountCount>
  /** How many accounts the selected pool holds (GET /v2/stat/count/krn, the pool in `x-krn`). */
  readonly accountCountByPool: Op<[options?: CallOptions], Account.PoolAccountCount>
}

const api = WalletApi.accounts

/**
 * The account operations over the client's requests.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (requests: Requests.Requests): Service => {
  const onTarget = <E extends typeof api.createAccount | typeof api.accountCount | typeof api.accountCountByPool>(endpoint: E) =>
  (call: CallOptions | undefined) => Effect.flatMap(requests.target(call), (t) => requests.run(endpoint, t, {}))

  const listing = Listings.paged(requests, (params: ListParams | undefined) =>
    Effect.map(
      params?.status === undefined ? Either.right(undefined) : validStatus(params.status),
      (status): Listings.Listing<typeof api.listAccounts, Account.AccountPage> => ({
        endpoint: api.listAccounts,
        extra: status !== undefined ? { status } : {}
      })
    ))

  return {
    createAccount: onTarget(api.createAccount),
    getAccount: (address, call) => onAddress(requests, api.getAccount, address, call),
    listAccounts: listing.one,
    accountPages: listing.all,
    accounts: listing.items,
    deleteAccount: (address, call) => onAddress(requests, api.deleteAccount, address, call),
    disableAccount: (address, call) => onAddress(requests, api.disableAccount, address, call),
    enableAccount: (address, call) => onAddress(requests, api.enableAccount, address, call),
    accountsByPublicKey: (publicKey, call) =>
      Effect.flatMap(Effect.zip(validPublicKey(publicKey), requests.target(call)), ([key, t]) =>
        Effect.map(requests.run(api.accountsByPublicKey, t, { path: { "public-key": key } }), (result) => result.items)),
    accountCount: onTarget(api.accountCount),
    accountCountByPool: onTarget(api.accountCountByPool)
  }
}
