/**
 * The fee-delegation history (`/v2/history/fd/tx`): the caller's transactions on the request's
 * chain whose fee the chain's global fee payer paid (all of it, or its `feeRatio` share), newest
 * first, built from the ledger's fee records.
 *
 * - Only the global fee payer's: what KAS bills the member (the user fee payers are the member's
 *   own accounts, and pay from their own balances). Sender-paid transactions are not delegated.
 * - What is charged is what the global fee payer paid (`fee_payer_fee`).
 * - The emulator has no exchange rate (and testnet KLAY has no price): the rates are `0` on both
 *   chains (`Rates`).
 * - No record (empty listing, unknown hash, another member's, another chain's, a sender-paid or
 *   user-paid transaction, one still pending): `NotFound`, the spec's answer (its list has
 *   `minItems: 1`).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Context, Effect, Either, Layer, Option } from "effect"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Ledger from "../chain/Ledger.js"
import * as Refusal from "../Refusal.js"
import * as FeeRecords from "../store/FeeRecords.js"
import * as Cursors from "./Cursors.js"
import type * as Keys from "./Keys.js"

/**
 * The history's KLAY/KRW and KLAY/USD rates: none (the emulator has no price feed).
 *
 * @since 0.5.0
 * @category constants
 */
export const Rates = { krw: 0, usd: 0 } as const

/**
 * A listing of the history, its values read: only one sender's (lower case) when `from` is given.
 *
 * @since 0.5.0
 * @category models
 */
export interface HistoryRequest {
  readonly from: string | undefined
  readonly size: number
  readonly cursor: string
}

/**
 * A transaction whose fee the global fee payer paid, as the history shows it. Addresses and the
 * hash lower case.
 *
 * @since 0.10.0
 * @category models
 */
export interface FeeRecord {
  readonly chainId: number
  readonly transactionHash: string
  readonly from: string
  readonly feePayer: string
  /** What the global fee payer paid, in peb. */
  readonly charged: bigint
  readonly gasPrice: bigint
  readonly gasUsed: number
  /** Whether its run succeeded (a contract's revert or halt did not). */
  readonly succeeded: boolean
  /** Its block's time, Unix seconds. */
  readonly timestamp: number
  readonly typeInt: number
}

/**
 * A page of the history: at least one record; `cursor` is `""` on the last page.
 *
 * @since 0.10.0
 * @category models
 */
export interface Page {
  readonly items: ReadonlyArray<FeeRecord>
  readonly cursor: string
}

/**
 * The history's operations.
 *
 * @since 0.10.0
 * @category models
 */
export interface Service {
  /** One page, newest first; `NotFound` when nothing matches, `OutOfRange` for a cursor that does not verify. */
  readonly list: (caller: Keys.KeyCaller, request: HistoryRequest) => Effect.Effect<Page, Refusal.Refusal | SqlError.SqlError>
  /** One record by transaction hash (lower case); `NotFound` when there is none. */
  readonly get: (caller: Keys.KeyCaller, hash: string) => Effect.Effect<FeeRecord, Refusal.Refusal | SqlError.SqlError>
}

/**
 * The fee-delegation history of an emulator.
 *
 * @since 0.10.0
 * @category tags
 */
export class History extends Context.Tag("effect-kas-wallet-emulator/History")<History, Service>() {}

// A fee record of the ledger, with what its signed bytes say.
const recordOf = (chainId: number, row: FeeRecords.FeeRecordRow): Effect.Effect<FeeRecord> =>
  Either.match(Klaytn.fromRaw(row.raw, chainId), {
    // Written by the ledger from a signed transaction: one that does not decode is a defect.
    onLeft: (e) => Effect.dieMessage(`stored transaction ${row.hash}: ${e.reason}`),
    onRight: (signed) =>
      Effect.succeed({
        chainId,
        transactionHash: row.hash,
        from: row.sender,
        feePayer: row.feePayer,
        charged: row.feePayerFee,
        gasPrice: signed.tx.gasPrice,
        gasUsed: row.gasUsed,
        succeeded: row.txError === undefined,
        timestamp: Math.floor(row.blockTimeMs / 1000),
        typeInt: Number(signed.tx.type)
      })
  })

const binding = (caller: Keys.KeyCaller): Cursors.Binding => ({
  memberId: caller.memberId,
  chainId: caller.chainId,
  poolId: 0,
  kind: "feeHistory"
})

/**
 * Builds the history over the ledger and cursors of the context.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, Ledger.Ledger | Cursors.Cursors> = Effect.gen(function*() {
  const ledger = yield* Ledger.Ledger
  const cursors = yield* Cursors.Cursors
  return {
    list: (caller, request) =>
      Effect.gen(function*() {
        const resumed = yield* cursors.resume(binding(caller), request.cursor)
        const before = Option.map(resumed, (state) => state.after.seq)
        const snapshot = Option.map(resumed, (state) => state.snapshot)
        // One row ahead: the cursor is "" exactly when this page is the last.
        const rows = yield* ledger.feeRecords({
          memberId: caller.memberId,
          chainId: caller.chainId,
          sender: request.from,
          before: Option.getOrUndefined(before),
          limit: request.size + 1
        })
        if (rows.length === 0) return yield* new Refusal.NotFound({})
        const page = rows.slice(0, request.size)
        const items = yield* Effect.forEach(page, (row) => recordOf(caller.chainId, row))
        const last = page[page.length - 1]!
        const cursor = rows.length > request.size
          ? cursors.encode(binding(caller), {
            after: { createdAt: last.blockTimeMs, seq: last.seq },
            snapshot: Option.getOrElse(snapshot, () => page[0]!.seq)
          })
          : ""
        return { items, cursor }
      }),

    get: (caller, hash) =>
      Effect.gen(function*() {
        const rows = yield* ledger.feeRecords({ memberId: caller.memberId, chainId: caller.chainId, hash, limit: 1 })
        if (rows.length === 0) return yield* new Refusal.NotFound({})
        return yield* recordOf(caller.chainId, rows[0]!)
      })
  }
})

/**
 * The history over the ledger and cursors of the context.
 *
 * @since 0.10.0
 * @category layers
 */
export const layer: Layer.Layer<History, never, Ledger.Ledger | Cursors.Cursors> = Layer.effect(History, make)
