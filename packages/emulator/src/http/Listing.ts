/**
 * Listing a pool (`GET /v2/account`, `GET /v2/feepayer`): the query values (`size`, `cursor`,
 * `from-timestamp`, `to-timestamp`, `status`), how each is read and documented, and the page body.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Account, Pagination } from "effect-kas-wallet"
import { Either, Schema } from "effect"
import * as ApiError from "./ApiError.js"
import * as Description from "./Description.js"
import type * as Store from "../store/Store.js"
import type * as Accounts from "../services/Accounts.js"

const DIGITS = /^-?[0-9]+$/

/**
 * Reads `size`: absent, empty or 0 → 100; above 1000 → 1000; negative or not an integer → 400
 * `1061615`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseSize = (value: string | undefined): Either.Either<number, ApiError.ApiError> => {
  if (value === undefined || value === "") return Either.right(Pagination.DefaultPageSize)
  if (!DIGITS.test(value)) return Either.left(ApiError.outOfRange("size"))
  const n = Number(value)
  if (n < 0) return Either.left(ApiError.outOfRange("size"))
  return Either.right(n === 0 ? Pagination.DefaultPageSize : Math.min(n, Pagination.MaxPageSize))
}

/**
 * Reads `from-timestamp` / `to-timestamp`: absent, empty or 0 → unbounded; otherwise a
 * non-negative integer of Unix seconds, else 400 `1061615`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseTimestamp = (name: string, value: string | undefined): Either.Either<number | undefined, ApiError.ApiError> => {
  if (value === undefined || value === "") return Either.right(undefined)
  if (!DIGITS.test(value)) return Either.left(ApiError.outOfRange(name))
  const n = Number(value)
  if (n < 0) return Either.left(ApiError.outOfRange(name))
  // Beyond any timestamp anyway; keeps the bound a finite integer for the query.
  return Either.right(n === 0 ? undefined : Math.min(n, Number.MAX_SAFE_INTEGER))
}

const decodeStatus = Schema.decodeUnknownEither(Account.StatusFilterFromString)

/**
 * Reads `status`: absent or empty → `enabled` (the service's default); `enabled`, `disabled`,
 * `corrupted` or `all` in any case (`DISABLED`, as the official client's users send it: **chosen**,
 * the spec is silent); anything else → 400 `1061615`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseStatus = (value: string | undefined): Either.Either<Store.StatusFilter, ApiError.ApiError> => {
  if (value === undefined || value === "") return Either.right("enabled")
  return Either.mapLeft(decodeStatus(value), () => ApiError.outOfRange("status"))
}

/**
 * The one value of a query parameter (`undefined` when absent). A repeated one is ambiguous (which
 * one the service would take is not documented): 400 `1061615` naming it.
 *
 * @since 0.10.0
 * @category parsing
 */
export const single = (params: URLSearchParams, name: string): Either.Either<string | undefined, ApiError.ApiError> => {
  const values = params.getAll(name)
  return values.length > 1 ? Either.left(ApiError.outOfRange(name)) : Either.right(values[0])
}

/**
 * Reads the query of a listing of accounts (`account`) or fee-payer accounts (`feePayer`, whose
 * listing has no `status`: they are never disabled).
 *
 * @since 0.3.0
 * @category parsing
 */
export const parseQuery = (query: string, kind: Store.Kind): Either.Either<Accounts.ListRequest, ApiError.ApiError> =>
  Either.gen(function*() {
    const params = new URLSearchParams(query)
    const size = yield* Either.flatMap(single(params, "size"), parseSize)
    const from = yield* Either.flatMap(single(params, "from-timestamp"), (v) => parseTimestamp("from-timestamp", v))
    const to = yield* Either.flatMap(single(params, "to-timestamp"), (v) => parseTimestamp("to-timestamp", v))
    const cursor = (yield* single(params, "cursor")) ?? ""
    const status = kind === "account" ? yield* Either.flatMap(single(params, "status"), parseStatus) : "all"
    return { size, cursor, from, to, status }
  })

const common: ReadonlyArray<Description.QueryParameter> = [
  {
    name: "size",
    description:
      `Items per page: absent or 0 means ${Pagination.DefaultPageSize}, above ${Pagination.MaxPageSize} means ${Pagination.MaxPageSize}; negative or not an integer: 400 ${ApiError.Code.OutOfRange}.`,
    schema: Description.json({ type: "integer" })
  },
  {
    name: "cursor",
    description:
      `The cursor of the previous page; absent or empty for the first page. A cursor not issued for this member, chain and pool: 400 ${ApiError.Code.OutOfRange}.`,
    schema: Description.json({ type: "string" })
  },
  {
    name: "from-timestamp",
    description: "Only accounts created at or after this Unix second; 0 or empty: unbounded.",
    schema: Description.json({ type: "integer", minimum: 0 })
  },
  {
    name: "to-timestamp",
    description: "Only accounts created at or before this Unix second; 0 or empty: unbounded.",
    schema: Description.json({ type: "integer", minimum: 0 })
  }
]

const status: Description.QueryParameter = {
  name: "status",
  description:
    `Which accounts, by state, in any case: enabled (absent or empty), disabled, corrupted (an account update moved its key away from the one KAS holds) or all (every state but deleted). Another value: 400 ${ApiError.Code.OutOfRange}.`,
  // JSON Schema has no case-insensitive flag: the pattern spells each letter's two cases.
  schema: Description.domain(
    "StatusFilterFromString",
    Account.StatusFilterFromString.annotations({
      jsonSchema: {
        type: "string",
        pattern: `^(?:${Account.StatusFilter.literals.map((w) => [...w].map((c) => `[${c.toUpperCase()}${c}]`).join("")).join("|")})$`,
        description: "enabled, disabled, corrupted or all, in any case"
      }
    })
  )
}

/**
 * The query parameters `parseQuery` reads, as the document describes them.
 *
 * @since 0.3.0
 * @category documentation
 */
export const parameters = (kind: Store.Kind): ReadonlyArray<Description.QueryParameter> =>
  kind === "account" ? [...common, status] : common

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
