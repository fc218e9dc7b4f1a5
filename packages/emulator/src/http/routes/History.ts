/**
 * The fee-delegation history routes (`/v2/history/fd/tx`): their query, and the records and pages
 * of the history service (`services/History.ts`) as the spec's JSON.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import { Effect, Either } from "effect"
import { Amount, FeeHistory } from "effect-kas-wallet"
import * as History from "../../services/History.js"
import * as ApiError from "../ApiError.js"
import * as Description from "../Description.js"
import * as Listing from "../Listing.js"
import * as PathValues from "../PathValues.js"
import * as Route from "../Route.js"

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * Reads `from` (an address in any case; absent or empty: every sender; malformed: 400 `1061609`),
 * `size` and `cursor` as every listing.
 *
 * @since 0.5.0
 * @category parsing
 */
export const parseQuery = (query: string): Either.Either<History.HistoryRequest, ApiError.ApiError> =>
  Either.gen(function*() {
    const params = new URLSearchParams(query)
    const from = yield* Listing.single(params, "from")
    if (from !== undefined && from !== "" && !ADDRESS.test(from)) return yield* Either.left(ApiError.notAddress("from"))
    const size = yield* Either.flatMap(Listing.single(params, "size"), Listing.parseSize)
    const cursor = (yield* Listing.single(params, "cursor")) ?? ""
    return { from: from === undefined || from === "" ? undefined : from.toLowerCase(), size, cursor }
  })

/**
 * A fee record as the spec's `FDTransactionWithCurrencyResult`, its fields in the spec's order.
 *
 * @since 0.5.0
 * @category rendering
 */
export const render = (record: History.FeeRecord): string =>
  JSON.stringify({
    chainId: record.chainId,
    chargedByKlay: Amount.formatKlay(record.charged),
    chargedByKrw: "0",
    chargedByPeb: record.charged.toString(),
    chargedByUsd: "0",
    feePayer: record.feePayer,
    from: record.from,
    gasPrice: `0x${record.gasPrice.toString(16)}`,
    gasUsed: `0x${record.gasUsed.toString(16)}`,
    krw: History.Rates.krw,
    status: record.succeeded ? "0x1" : "0x0",
    timestamp: record.timestamp,
    transactionHash: record.transactionHash,
    typeInt: record.typeInt,
    usd: History.Rates.usd
  })

const pageBody = (page: History.Page): string =>
  `{"cursor":${JSON.stringify(page.cursor)},"items":[${page.items.map(render).join(",")}]}`

const noRecord = `No record: ${ApiError.Code.DataNotExist} (data don't exist)`
const headerCodes = `${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange} (x-chain-id)`

/**
 * The history routes, in the document's order.
 *
 * @since 0.5.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.make({
    method: "GET",
    path: "/v2/history/fd/tx",
    operationId: "get-v2-history-fd-tx",
    summary: "List the caller's transactions whose fee the global fee payer paid on the request's chain, newest first",
    access: "keyService",
    query: [
      {
        name: "from",
        description: `Only this sender's (any case); absent or empty: every sender. Malformed: 400 ${ApiError.Code.NotKlaytnAddress}.`,
        schema: Description.json({ type: "string" })
      },
      ...Listing.parameters("feePayer").filter((p) => p.name === "size" || p.name === "cursor")
    ],
    response: {
      description:
        "A page of at least one record; cursor is \"\" exactly when no record remains after it. KRW and USD are 0: the emulator has no exchange rate.",
      // The client's schemas, which decode the answers: one description of the wire.
      schema: Description.domain("FeeDelegationHistoryPage", FeeHistory.FeeDelegationHistoryPage)
    },
    errors: {
      400: `${noRecord} when nothing matches; bad header or query value: ${headerCodes}, ${ApiError.Code.NotKlaytnAddress} (from), ${ApiError.Code.OutOfRange} (size, cursor).`
    },
    handler: ({ caller, query, services }) =>
      Effect.flatMap(parseQuery(query), (request) => Effect.map(services.history.list(caller, request), pageBody))
  }),
  Route.make({
    method: "GET",
    path: "/v2/history/fd/tx/{transaction-hash}",
    operationId: "get-v2-history-fd-tx-transaction-hash",
    summary: "Get one of the caller's transactions whose fee the global fee payer paid on the request's chain",
    access: "keyService",
    pathParameters: { "transaction-hash": PathValues.transactionHash },
    response: { description: "The record. KRW and USD are 0: the emulator has no exchange rate.", schema: Description.domain("FeeDelegationRecord", FeeHistory.FeeDelegationRecord) },
    errors: {
      400: `${noRecord} (unknown, another member's or chain's, not paid by the global fee payer, not yet in a block); not hex: ${ApiError.Code.NotHex}; bad header: ${headerCodes}.`
    },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(
        Either.mapLeft(
          PathValues.parseTransactionHash(params["transaction-hash"]),
          // Hex of another length: no record has that hash.
          (e) => (e.code === ApiError.Code.NotHex ? e : ApiError.dataNotExist())
        ),
        (hash) => Effect.map(services.history.get(caller, hash), render)
      )
  })
]
