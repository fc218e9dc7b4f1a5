/**
 * Listing a pool (`GET /v2/account`, `GET /v2/feepayer`, and the other listings): what a page is
 * asked for, from the query the operation table's schemas decoded (`size`, `cursor`,
 * `from-timestamp`, `to-timestamp`, `status`), and the page body.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Pagination } from "effect-kas-wallet"
import type * as Store from "../store/Store.js"
import type * as Accounts from "../services/Accounts.js"

/**
 * The page size of a `size`: absent or 0 → 100 (the service's default); above 1000 → 1000.
 *
 * @since 0.10.0
 * @category reading
 */
export const pageSize = (size: number | undefined): number =>
  size === undefined || size === 0 ? Pagination.DefaultPageSize : Math.min(size, Pagination.MaxPageSize)

/**
 * A listing's query as the table decodes it.
 *
 * @since 0.10.0
 * @category models
 */
export interface Query {
  readonly size?: number | undefined
  readonly cursor?: string | undefined
  readonly "from-timestamp"?: number | undefined
  readonly "to-timestamp"?: number | undefined
  readonly status?: Store.StatusFilter | undefined
}

/**
 * What a page is asked for: the size clamped (`pageSize`), a bound of 0 as none, no cursor as the
 * first page, no `status` as `whenNoStatus` (`enabled` for accounts, the service's default; `all`
 * for the listings without one).
 *
 * @since 0.10.0
 * @category reading
 */
export const request = (query: Query, whenNoStatus: Store.StatusFilter): Accounts.ListRequest => ({
  size: pageSize(query.size),
  cursor: query.cursor ?? "",
  from: query["from-timestamp"] === 0 ? undefined : query["from-timestamp"],
  to: query["to-timestamp"] === 0 ? undefined : query["to-timestamp"],
  status: query.status ?? whenNoStatus
})

const PAGE_START = Buffer.from("{\"items\":[")
const COMMA = Buffer.from(",")

/**
 * The body of a page of records already JSON (`Store.EncodedBytes`: accounts, keys), as
 * `{"items":[…],"cursor":"…"}`: for accounts, the encoded form of `Account.AccountPage`.
 *
 * @since 0.1.0
 * @category rendering
 */
export const pageBody = (page: { readonly items: ReadonlyArray<Uint8Array>; readonly cursor: string }): Buffer => {
  const parts: Array<Uint8Array> = [PAGE_START]
  for (let i = 0; i < page.items.length; i++) {
    if (i > 0) parts.push(COMMA)
    parts.push(page.items[i]!)
  }
  parts.push(Buffer.from(`],"cursor":${JSON.stringify(page.cursor)}}`, "utf8"))
  return Buffer.concat(parts)
}
