/**
 * The fee-delegation history routes, operations of the client's table (`WalletApi.history`): the
 * records and pages of the history service (`services/History.ts`) as the spec's JSON.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import { Effect } from "effect"
import { Amount } from "effect-kas-wallet"
import * as WalletApi from "effect-kas-wallet/WalletApi"
import * as History from "../../services/History.js"
import * as ApiError from "../ApiError.js"
import * as Listing from "../Listing.js"
import * as Route from "../Route.js"

const C = ApiError.Code
const api = WalletApi.history

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

const noRecord = `No record: ${C.DataNotExist} (data don't exist)`
const headerCodes = `${C.EmptyOrZero}, ${C.OutOfRange} (x-chain-id)`

/**
 * The history routes, in the document's order.
 *
 * @since 0.5.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.operation(api.listFeeDelegationHistory, {
    summary: "List the caller's transactions whose fee the global fee payer paid on the request's chain, newest first",
    response:
      "A page of at least one record; cursor is \"\" exactly when no record remains after it. KRW and USD are 0: the emulator has no exchange rate.",
    errors: `${noRecord} when nothing matches; bad header or query value: ${headerCodes}, ${C.NotKlaytnAddress} (from), ${C.OutOfRange} (size, cursor).`,
    handler: ({ caller, query, services }) =>
      Effect.map(
        services.history.list(caller, {
          // Absent or empty: every sender.
          from: query.from === undefined || query.from === "" ? undefined : query.from.toLowerCase(),
          size: Listing.pageSize(query.size),
          cursor: query.cursor ?? ""
        }),
        pageBody
      )
  }),
  Route.operation(api.getFeeDelegationRecord, {
    summary: "Get one of the caller's transactions whose fee the global fee payer paid on the request's chain",
    response: "The record. KRW and USD are 0: the emulator has no exchange rate.",
    errors: `${noRecord} (unknown, another member's or chain's, not paid by the global fee payer, not yet in a block); not hex: ${C.NotHex}; bad header: ${headerCodes}.`,
    handler: ({ caller, path, services }) => Effect.map(services.history.get(caller, path["transaction-hash"]), render)
  })
]
