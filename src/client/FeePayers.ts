/**
 * The fee-payer account operations of the client: accounts of a fee-payer pool.
 *
 * @since 0.10.0
 */
import { Effect } from "effect"
import type * as Account from "../Account.js"
import type * as Address from "../Address.js"
import * as WalletApi from "../api/WalletApi.js"
import type * as ListingParams from "../internal/listing.js"
import { onAddress } from "./Arguments.js"
import type { FeePayerCallOptions } from "./CallOptions.js"
import * as Listings from "./Listings.js"
import type { Op, StreamOp } from "./Operation.js"
import type * as Requests from "./Requests.js"

/**
 * Parameters of the fee-payer listing: the paging of `ListParams`, in a fee-payer pool.
 *
 * @since 0.2.0
 * @category models
 */
export interface FeePayerListParams extends FeePayerCallOptions, ListingParams.Params {}

/**
 * Options of `createFeePayer`.
 *
 * @since 0.2.0
 * @category models
 */
export interface CreateFeePayerOptions extends FeePayerCallOptions {
  /**
   * Create the account without the on-chain account update that registers its key (the wire's
   * `withoutAccountUpdate`). Default `false`.
   */
  readonly withoutAccountUpdate?: boolean | undefined
}

/**
 * The fee-payer account operations.
 *
 * @since 0.10.0
 * @category models
 */
export interface Service {
  /**
   * Creates a fee-payer account in the selected fee-payer pool (POST /v2/feepayer). Not retried
   * once the request may have reached the service.
   */
  readonly createFeePayer: Op<[options?: CreateFeePayerOptions], Account.FeePayerAccount>
  /** One fee-payer account by address (GET /v2/feepayer/{address}). */
  readonly getFeePayer: Op<[address: Address.Address | string, options?: FeePayerCallOptions], Account.FeePayerAccount>
  /** Deletes a fee-payer account (DELETE /v2/feepayer/{address}). Not retried once sent. */
  readonly deleteFeePayer: Op<[address: Address.Address | string, options?: FeePayerCallOptions], Account.AccountStatus>
  /** One page of the fee-payer listing (GET /v2/feepayer). */
  readonly listFeePayers: Op<[params?: FeePayerListParams], Account.FeePayerAccountPage>
  /** Every fee-payer account, newest first, as the consumer pulls. */
  readonly feePayers: StreamOp<[params?: FeePayerListParams], Account.FeePayerAccount>
  /** Every page of the fee-payer listing, as the consumer pulls. */
  readonly feePayerPages: StreamOp<[params?: FeePayerListParams], Account.FeePayerAccountPage>
}

const api = WalletApi.feePayers

/**
 * The fee-payer account operations over the client's requests.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (requests: Requests.Requests): Service => {
  const listing = Listings.paged(requests, (_: FeePayerListParams | undefined) =>
    Effect.succeed<Listings.Listing<typeof api.listFeePayers, Account.FeePayerAccountPage>>({ endpoint: api.listFeePayers }))
  return {
    createFeePayer: (call) =>
      Effect.flatMap(requests.target(call), (t) =>
        requests.run(api.createFeePayer, t, { payload: { withoutAccountUpdate: call?.withoutAccountUpdate === true } })),
    getFeePayer: (address, call) => onAddress(requests, api.getFeePayer, address, call),
    deleteFeePayer: (address, call) => onAddress(requests, api.deleteFeePayer, address, call),
    listFeePayers: listing.one,
    feePayerPages: listing.all,
    feePayers: listing.items
  }
}
