/**
 * The fee-delegation history in the client: what the global fee payer paid for the member's
 * transactions, page by page or one record by hash.
 *
 * @since 0.10.0
 */
import { Effect, Either } from "effect"
import * as Address from "../Address.js"
import * as WalletApi from "../api/WalletApi.js"
import type * as FeeHistory from "../FeeHistory.js"
import * as Options from "../internal/options.js"
import * as Spans from "../internal/spans.js"
import * as Pagination from "../Pagination.js"
import type * as Transaction from "../Transaction.js"
import { validFrom, validHash } from "./Arguments.js"
import type { HistoryCallOptions } from "./CallOptions.js"
import * as Listings from "./Listings.js"
import type { Op, StreamOp } from "./Operation.js"
import type * as Requests from "./Requests.js"

/**
 * Parameters of the fee-delegation history (GET /v2/history/fd/tx): `from`, the sender's address
 * (the specification's one filter), and the paging. `pageSize` (alias `size`) is the number of
 * records per request, 1..1000, sent only when given (the specification lists no `size`); the
 * history takes no time range.
 *
 * @since 0.7.0
 * @category models
 */
export interface HistoryListParams extends HistoryCallOptions {
  /** Only the transactions this address sent. */
  readonly from?: Address.Address | string | undefined
  readonly pageSize?: number | undefined
  readonly size?: number | undefined
  /** Continue from this cursor (from a previous page, or an error's `cursor`). */
  readonly cursor?: string | undefined
}

/**
 * The fee-delegation history's operations.
 *
 * @since 0.10.0
 * @category models
 */
export interface Service {
  /**
   * One page of the member's fee-delegation history (GET /v2/history/fd/tx), optionally only the
   * transactions `from` sent; an empty history (the service's 400 1061010 on the first page) is an
   * empty page.
   */
  readonly listFeeDelegationHistory: Op<[params?: HistoryListParams], FeeHistory.FeeDelegationHistoryPage>
  /** Every record of the fee-delegation history, page after page (see `listFeeDelegationHistory`). */
  readonly feeDelegationHistory: StreamOp<[params?: HistoryListParams], FeeHistory.FeeDelegationRecord>
  /** Every page of the fee-delegation history. */
  readonly feeDelegationHistoryPages: StreamOp<[params?: HistoryListParams], FeeHistory.FeeDelegationHistoryPage>
  /**
   * The fee-delegation record of one transaction (GET /v2/history/fd/tx/{transaction-hash}); a
   * hash the history does not hold fails with the service's 1061010 ("data don't exist"), which the
   * client classifies `AccountNotFound` on every path.
   */
  readonly getFeeDelegationRecord: Op<[hash: Transaction.TxHash | string, options?: HistoryCallOptions], FeeHistory.FeeDelegationRecord>
}

const api = WalletApi.history

/**
 * The fee-delegation history's operations over the client's requests.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (requests: Requests.Requests): Service => {
  // The history's `from` is the sender's address, not the time bound of the other listings: the
  // paging goes to the listing without it, the address as an extra parameter.
  const listing = Listings.paged(requests, (params: HistoryListParams | undefined) => {
    // JavaScript callers may pass a range: the history has none.
    const loose = params as (HistoryListParams & { readonly to?: unknown }) | undefined
    if (loose?.to !== undefined) return Effect.fail(Options.invalid("to", "the fee-delegation history takes no time range (from is the sender's address)"))
    return Effect.map(
      params?.from === undefined ? Either.right(undefined) : validFrom(params.from),
      (from): Listings.Listing<typeof api.listFeeDelegationHistory, FeeHistory.FeeDelegationHistoryPage> => ({
        endpoint: api.listFeeDelegationHistory,
        // The wire's addresses are lower case (the official client sends what it is given).
        extra: from !== undefined ? { from: Address.toLowerCase(from) } : {},
        emptyPage: { items: [], cursor: Pagination.EndCursor },
        paging: params === undefined ? undefined : (({ from: _, ...paging }) => paging)(params)
      })
    )
  })
  return {
    listFeeDelegationHistory: listing.one,
    feeDelegationHistoryPages: listing.all,
    feeDelegationHistory: listing.items,
    getFeeDelegationRecord: (hash, call) =>
      Effect.flatMap(Effect.zip(validHash(hash), requests.target(call)), ([checked, t]) =>
        requests.run(api.getFeeDelegationRecord, t, { path: { "transaction-hash": checked } }, {
          attributes: { [Spans.SpanAttributes.txHash]: checked }
        }))
  }
}
