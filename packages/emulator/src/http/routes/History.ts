/**
 * The fee-delegation history routes (`/v2/history/fd/tx`): the caller's transactions on the
 * request's chain whose fee the chain's global fee payer paid (all of it, or its `feeRatio` share),
 * newest first, built from the ledger's fee records.
 *
 * - Only the global fee payer's: what KAS bills the member (the user fee payers are the member's
 *   own accounts, and pay from their own balances). Sender-paid transactions are not delegated.
 * - `chargedByPeb` / `chargedByKlay`: what the global fee payer paid (`fee_payer_fee`).
 * - The emulator has no exchange rate (and testnet KLAY has no price): `krw` and `usd` are `0`,
 *   `chargedByKrw` and `chargedByUsd` `"0"`, on both chains.
 * - No record (empty listing, unknown hash, another member's, another chain's, a sender-paid or
 *   user-paid transaction, one still pending): 400 `1061010` `data don't exist`, the spec's answer
 *   (its list has `minItems: 1`).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import { Effect, Either, Option } from "effect"
import { Amount, FeeHistory } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as ApiError from "../ApiError.js"
import type * as Cursor from "../Cursor.js"
import * as Description from "../Description.js"
import * as Listing from "../Listing.js"
import * as PathValues from "../PathValues.js"
import * as Route from "../Route.js"
import type * as LedgerStore from "../../store/LedgerStore.js"
import type * as Wallet from "../../Wallet.js"

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * The history's KLAY/KRW and KLAY/USD rates: none (the emulator has no price feed).
 *
 * @since 0.5.0
 * @category constants
 */
export const Rates = { krw: 0, usd: 0 } as const

/**
 * A listing of the history, its values read.
 *
 * @since 0.5.0
 * @category models
 */
export interface HistoryRequest {
  readonly from: string | undefined
  readonly size: number
  readonly cursor: string
}

const single = (params: URLSearchParams, name: string): Either.Either<string | undefined, ApiError.ApiError> => {
  const values = params.getAll(name)
  return values.length > 1 ? Either.left(ApiError.outOfRange(name)) : Either.right(values[0])
}

/**
 * Reads `from` (an address in any case; absent or empty: every sender; malformed: 400 `1061609`),
 * `size` and `cursor` as every listing.
 *
 * @since 0.5.0
 * @category parsing
 */
export const parseQuery = (query: string): Either.Either<HistoryRequest, ApiError.ApiError> =>
  Either.gen(function*() {
    const params = new URLSearchParams(query)
    const from = yield* single(params, "from")
    if (from !== undefined && from !== "" && !ADDRESS.test(from)) return yield* Either.left(ApiError.notAddress("from"))
    const size = yield* Either.flatMap(single(params, "size"), Listing.parseSize)
    const cursor = (yield* single(params, "cursor")) ?? ""
    return { from: from === undefined || from === "" ? undefined : from.toLowerCase(), size, cursor }
  })

/**
 * A fee record as the spec's `FDTransactionWithCurrencyResult`, its fields in the spec's order.
 *
 * @since 0.5.0
 * @category rendering
 */
export const render = (chainId: number, row: LedgerStore.FeeRecordRow): Effect.Effect<string> =>
  Either.match(Klaytn.fromRaw(row.raw, chainId), {
    // Written by the ledger from a signed transaction: one that does not decode is a defect.
    onLeft: (e) => Effect.dieMessage(`stored transaction ${row.hash}: ${e.reason}`),
    onRight: (signed) =>
      Effect.succeed(JSON.stringify({
        chainId,
        chargedByKlay: Amount.formatKlay(row.feePayerFee),
        chargedByKrw: "0",
        chargedByPeb: row.feePayerFee.toString(),
        chargedByUsd: "0",
        feePayer: row.feePayer,
        from: row.sender,
        gasPrice: `0x${signed.tx.gasPrice.toString(16)}`,
        gasUsed: `0x${row.gasUsed.toString(16)}`,
        krw: Rates.krw,
        status: row.txError === undefined ? "0x1" : "0x0",
        timestamp: Math.floor(row.blockTimeMs / 1000),
        transactionHash: row.hash,
        typeInt: Number(signed.tx.type),
        usd: Rates.usd
      }))
  })

const binding = (caller: Wallet.KeyCaller): Cursor.Binding => ({
  memberId: caller.memberId,
  chainId: caller.chainId,
  poolId: 0,
  kind: "feeHistory"
})

const list = (services: Route.Services, caller: Wallet.KeyCaller, request: HistoryRequest) =>
  Effect.gen(function*() {
    let before: number | undefined
    let snapshot: number | undefined
    if (request.cursor !== "") {
      const decoded = services.wallet.cursors.decode(binding(caller), request.cursor)
      if (Option.isNone(decoded)) return yield* ApiError.outOfRange("cursor")
      before = decoded.value.after.seq
      snapshot = decoded.value.snapshot
    }
    // One row ahead: the cursor is "" exactly when this page is the last.
    const rows = yield* services.ledger.feeRecords({
      memberId: caller.memberId,
      chainId: caller.chainId,
      sender: request.from,
      before,
      limit: request.size + 1
    })
    if (rows.length === 0) return yield* ApiError.dataNotExist()
    const page = rows.slice(0, request.size)
    const items = yield* Effect.forEach(page, (row) => render(caller.chainId, row))
    const last = page[page.length - 1]!
    const cursor = rows.length > request.size
      ? services.wallet.cursors.encode(binding(caller), {
        after: { createdAt: last.blockTimeMs, seq: last.seq },
        snapshot: snapshot ?? page[0]!.seq
      })
      : ""
    return `{"cursor":${JSON.stringify(cursor)},"items":[${items.join(",")}]}`
  })

const get = (services: Route.Services, caller: Wallet.KeyCaller, raw: string) =>
  Effect.gen(function*() {
    const hash = yield* Either.mapLeft(
      PathValues.parseTransactionHash(raw),
      // Hex of another length: no record has that hash.
      (e) => (e.code === ApiError.Code.NotHex ? e : ApiError.dataNotExist())
    )
    const rows = yield* services.ledger.feeRecords({ memberId: caller.memberId, chainId: caller.chainId, hash, limit: 1 })
    if (rows.length === 0) return yield* ApiError.dataNotExist()
    return yield* render(caller.chainId, rows[0]!)
  })


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
    handler: ({ caller, query, services }) => Effect.flatMap(parseQuery(query), (request) => list(services, caller, request))
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
    handler: ({ caller, params, services }) => get(services, caller, params["transaction-hash"])
  })
]
