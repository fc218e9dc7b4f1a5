/**
 * `kas-wallet history list | get`: the member's fee-delegation history (`listFeeDelegationHistory`,
 * `getFeeDelegationRecord`) from the command line, over the WalletClient: what the service's global
 * fee payer was charged for each transaction whose fee it paid; their table is `Spec`. Member-wide:
 * no pool is read.
 *
 * @since 0.8.0
 */
import { Effect, Option } from "effect"
import { Amount, FeeHistory, WalletClient } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as Flags from "../../input/Flags.js"
import * as Output from "../../output/Output.js"
import type { Handlers } from "../Handler.js"
import * as Client from "../shared/Client.js"
import * as Table from "../Spec.js"

const H = Table.History.flags
const uses = { pool: false, feePayerPool: false }


const klay = (peb: bigint) => `${Amount.formatKlay(peb as Amount.Peb)} KLAY`

const status = (record: FeeHistory.FeeDelegationRecord) => (FeeHistory.succeeded(record) ? "ok" : "failed")

/**
 * Column titles of `recordRow`.
 *
 * @since 0.8.0
 * @category formatting
 */
export const recordHeader = ["TRANSACTION", "TIME (UTC)", "FROM", "CHARGED", "STATUS"] as const

/**
 * One record of the history as table cells: the whole hash (to give to `history get`), when, the
 * sender shortened, the fee the fee payer was charged, and whether the transaction succeeded.
 *
 * @since 0.8.0
 * @category formatting
 */
export const recordRow = (record: FeeHistory.FeeDelegationRecord): ReadonlyArray<string> => [
  record.transactionHash,
  Output.time(record.timestamp),
  Output.short(record.from),
  klay(record.chargedByPeb),
  status(record)
]

const recordDetails = (r: FeeHistory.FeeDelegationRecord, layout: Output.Layout): string =>
  Output.table(["FIELD", "VALUE"], [
    ["transaction", r.transactionHash],
    ["status", `${status(r)} (${r.status})`],
    ["type", `${Wire.typeName(r.typeInt)} (${r.typeInt})`],
    ["from", r.from],
    ...(r.to !== undefined ? [["to", r.to] as const] : []),
    ["feePayer", r.feePayer],
    ["charged", `${klay(r.chargedByPeb)} (${r.chargedByPeb} peb)`],
    ["in KRW", `${r.chargedByKrw} (at ${r.krw} KRW/KLAY)`],
    ["in USD", `${r.chargedByUsd} (at ${r.usd} USD/KLAY)`],
    // Absent or blank when the fee payer paid it all, or when the service leaves it out (the
    // type says whether the transaction had a ratio).
    ...(r.feeRatio !== undefined && r.feeRatio !== "" ? [["feeRatio", `${r.feeRatio}%`] as const] : []),
    ["gas", `${r.gasUsed} used at ${Amount.formatKlay(r.gasPrice)} KLAY (${r.gasPrice / Amount.PebPerSton} ston)`],
    ["timestamp", `${r.timestamp} (${Output.time(r.timestamp)} UTC)`],
    ["chainId", String(r.chainId)]
  ], "", layout)

/**
 * The `history` commands, by their words after `history`.
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = {
  list: (run) =>
    Effect.gen(function*() {
      const paging = yield* Client.pageAndCursor(run)
      const from = Option.getOrUndefined(yield* Flags.read(H.from, Flags.given(run, H.from), Client.parseAddress))
      const params: WalletClient.HistoryListParams = { ...paging, from }
      yield* Client.list(run, uses, {
        kind: "history",
        one: () => WalletClient.listFeeDelegationHistory(params),
        pages: () => WalletClient.feeDelegationHistoryPages(params),
        item: FeeHistory.FeeDelegationRecord,
        page: FeeHistory.FeeDelegationHistoryPage,
        header: recordHeader,
        row: recordRow,
        empty: from !== undefined ? `(no fee-delegated transactions of ${from})` : "(no fee-delegated transactions)",
        noun: "record"
      })
    }),
  get: (run) =>
    Effect.flatMap(Flags.argument(run, "hash", Client.parseTxHash), (hash) =>
      Client.withClient(run, uses, { operation: "get", kind: "history", hash }, (print, s) =>
        Effect.flatMap(WalletClient.getFeeDelegationRecord(hash), Client.printer(FeeHistory.FeeDelegationRecord, recordDetails)(print, s))))
} satisfies Handlers<typeof Table.History.spec>
