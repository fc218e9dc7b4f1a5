/**
 * The parameters of a listing (page size, cursor, time range), validated before anything is sent,
 * and their query string.
 *
 * @internal
 */
import { Either, Schema } from "effect"
import * as Pagination from "../Pagination.js"
import type * as WalletError from "../WalletError.js"
import { fromParseError, invalid } from "./options.js"

/**
 * What a caller may pass to a listing.
 *
 * @internal
 */
export interface Params {
  readonly pageSize?: number | undefined
  readonly size?: number | undefined
  readonly cursor?: string | undefined
  readonly from?: number | Date | undefined
  readonly to?: number | Date | undefined
}

/**
 * A validated listing: the page size to send (none: the service's default), the cursor to start
 * from, and the time range (only real bounds).
 *
 * @internal
 */
export interface Query {
  readonly size: Pagination.PageSize | undefined
  readonly cursor: string
  readonly range: Pagination.TimeRange
}

// `exact`: an optional field that is present is checked once, as the field's own schema says
// (without it, a failure also said "Expected undefined").
const Paging = Schema.Struct({
  pageSize: Schema.optionalWith(Pagination.PageSize, { exact: true }),
  size: Schema.optionalWith(Pagination.PageSize, { exact: true }),
  cursor: Schema.optionalWith(Schema.String, { exact: true })
})
const decodePaging = Schema.decodeUnknownEither(Paging)
const decodeRange = Schema.decodeUnknownEither(Pagination.TimeRange)

/**
 * Validates the parameters of a listing; the failure names the parameter.
 *
 * @internal
 */
export const query = (params: Params | undefined): Either.Either<Query, WalletError.InvalidArgument> =>
  Either.gen(function*() {
    const p = params ?? {}
    // Only the parameters given: `undefined` is as good as absent (ListParams says `| undefined`).
    const given = Object.fromEntries(
      (["pageSize", "size", "cursor"] as const).filter((k) => p[k] !== undefined).map((k) => [k, p[k]])
    )
    const paging = yield* Either.mapLeft(decodePaging(given), fromParseError("params"))
    if (paging.pageSize !== undefined && paging.size !== undefined && paging.pageSize !== paging.size) {
      return yield* Either.left(invalid("pageSize", `pageSize (${paging.pageSize}) and its alias size (${paging.size}) differ`))
    }
    const range = yield* Either.mapLeft(
      decodeRange({ ...(p.from !== undefined ? { from: p.from } : {}), ...(p.to !== undefined ? { to: p.to } : {}) }),
      fromParseError("from")
    )
    return { size: paging.pageSize ?? paging.size, cursor: paging.cursor ?? "", range }
  })

/**
 * The query string of one page: only what is set (`size`, a non-empty `cursor`,
 * `from-timestamp`, `to-timestamp`), then `extra`.
 *
 * @internal
 */
export const urlParams = (
  q: Query,
  cursor: string,
  extra: ReadonlyArray<readonly [string, string]> = []
): Array<[string, string]> => {
  const params: Array<[string, string]> = []
  if (q.size !== undefined) params.push(["size", String(q.size)])
  if (cursor !== "") params.push(["cursor", cursor])
  if (q.range.from !== undefined) params.push(["from-timestamp", String(q.range.from)])
  if (q.range.to !== undefined) params.push(["to-timestamp", String(q.range.to)])
  for (const [k, v] of extra) params.push([k, v])
  return params
}
