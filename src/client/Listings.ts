/**
 * The listings of the client: an operation of the table that pages by cursor, as one page, a
 * Stream of its pages and a Stream of their items, from one description (`Listing`): the operation,
 * its path parameters and extra query values, and the page a "data don't exist" first page stands
 * for when the service answers "none" that way.
 *
 * @internal
 */
import { Effect, Stream } from "effect"
import type * as Endpoint from "../api/Endpoint.js"
import { fill } from "../api/Endpoint.js"
import * as ErrorBody from "../ErrorBody.js"
import * as ListingParams from "../internal/listing.js"
import type * as Options from "../internal/options.js"
import * as Paginate from "../internal/paginate.js"
import * as Spans from "../internal/spans.js"
import * as Pagination from "../Pagination.js"
import type * as WalletError from "../WalletError.js"
import type * as Requests from "./Requests.js"

/**
 * One listing's request, its paging aside.
 *
 * @internal
 */
export interface Listing<E extends Endpoint.Any, P> {
  readonly endpoint: E
  readonly path?: Requests.Input<E>["path"]
  /** Query values besides the paging (`status`, `krn`, `from`). */
  readonly extra?: Partial<Endpoint.UrlValues<E>> | undefined
  /** The page that a "data don't exist" (1061010) answer to a first page stands for, when it means "none". */
  readonly emptyPage?: P | undefined
  /** The parameters the paging reads, when not the caller's as they are. */
  readonly paging?: (ListingParams.Params & Options.Selection) | undefined
}

/**
 * A listing's one page, its pages and its items.
 *
 * @internal
 */
export interface Paged<Q, A, P> {
  readonly one: (params?: Q) => Effect.Effect<P, WalletError.WalletError>
  readonly all: (params?: Q) => Stream.Stream<P, WalletError.WalletError>
  readonly items: (params?: Q) => Stream.Stream<A, WalletError.WalletError>
}

/**
 * A listing, from what its parameters make of it (checked before anything is sent).
 *
 * @internal
 */
export const paged = <E extends Endpoint.Any, P extends { readonly cursor: string; readonly items: ReadonlyArray<unknown> }, Q>(
  requests: Requests.Requests,
  describe: (params: Q | undefined) => Effect.Effect<Listing<E, P>, WalletError.InvalidArgument>
): Paged<Q, P["items"][number], P> => {
  type A = P["items"][number]
  const open = (params: Q | undefined) =>
    Effect.flatMap(describe(params), (listing) => {
      const paging = listing.paging ?? (params as (ListingParams.Params & Options.Selection) | undefined)
      return Effect.map(Effect.zip(ListingParams.query(paging), requests.target(paging)), ([query, t]) => {
        const page = (cursor: string): Effect.Effect<P, WalletError.WalletError> => {
          const fetched = requests.run(listing.endpoint, t, {
            path: listing.path,
            urlParams: {
              ...(query.size !== undefined ? { size: query.size } : {}),
              ...(cursor !== "" ? { cursor } : {}),
              ...(query.range.from !== undefined ? { "from-timestamp": query.range.from } : {}),
              ...(query.range.to !== undefined ? { "to-timestamp": query.range.to } : {}),
              ...listing.extra
            } as Partial<Endpoint.UrlValues<E>>
          }, { attributes: { [Spans.SpanAttributes.pageSize]: query.size ?? Pagination.DefaultPageSize } }) as Effect.Effect<P, WalletError.WalletError>
          const empty = listing.emptyPage
          return empty === undefined || cursor !== ""
            ? fetched
            : Effect.catchIf(
              fetched,
              // 1061010 is classified AccountNotFound, whatever the path.
              (e) => "code" in e && e.code === ErrorBody.Code.DataNotExist,
              () => Effect.succeed(empty)
            )
        }
        const paging: Paginate.Paging<P> = {
          start: query.cursor,
          fetch: page,
          readAhead: requests.settings.readAhead,
          path: listing.path === undefined ? listing.endpoint.path : fill(listing.endpoint.path, listing.path as Record<string, string>)
        }
        return paging
      })
    })
  return {
    one: (params) => Effect.flatMap(open(params), (p) => p.fetch(p.start)),
    all: (params) => Stream.unwrap(Effect.map(open(params), Paginate.pages)),
    items: (params) => Stream.unwrap(Effect.map(open(params), (p) => Paginate.items<A, P>(p)))
  }
}
