/**
 * The fee-delegation history's query: the transactions whose fee the global fee payer paid, newest
 * first.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Effect } from "effect"
import { bytes, type Client } from "./LedgerClient.js"

/**
 * A transaction whose fee (or its part of it) the global fee payer paid: a line of the
 * fee-delegation history.
 *
 * @since 0.5.0
 * @category models
 */
export interface FeeRecordRow {
  /** The place in the ledger's order of writes: the history's order (newest first). */
  readonly seq: number
  readonly hash: string
  readonly sender: string
  readonly raw: Uint8Array
  readonly blockTimeMs: number
  readonly gasUsed: number
  /** Lower case. */
  readonly feePayer: string
  /** What the global fee payer paid (peb). */
  readonly feePayerFee: bigint
  readonly txError: number | undefined
}

/**
 * A query of the fee-delegation history of a member on a chain.
 *
 * @since 0.5.0
 * @category models
 */
export interface FeeHistoryQuery {
  readonly memberId: number
  readonly chainId: number
  /** Only this sender's (lower case). */
  readonly sender?: string | undefined
  /** Only this transaction (lower case). */
  readonly hash?: string | undefined
  /** Only rows before this position (a cursor's), at or below the listing's snapshot bound. */
  readonly before?: number | undefined
  /** Only rows whose block time is at or before this (Unix ms); every row when absent. */
  readonly visibleAtMs?: number | undefined
  readonly limit: number
}

/**
 * The history's query.
 *
 * @since 0.10.0
 * @category models
 */
export interface Queries {
  /**
   * The member's transactions on a chain whose fee the global fee payer paid (all or its ratio),
   * newest first (by `seq`).
   *
   * @since 0.5.0
   */
  readonly feeHistory: (query: FeeHistoryQuery) => Effect.Effect<ReadonlyArray<FeeRecordRow>, SqlError.SqlError>
}

/**
 * The history's query over the ledger's clients.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = ({ sql }: Client): Queries => ({
  feeHistory: ({ before, chainId, hash, limit, memberId, sender, visibleAtMs }) =>
    sql<{
      readonly seq: number
      readonly hash: string
      readonly sender: string
      readonly raw: unknown
      readonly blockTimeMs: number
      readonly gasUsed: number
      readonly feePayer: string
      readonly feePayerFee: string
      readonly txError: number | null
    }>`SELECT seq, hash, sender, raw, block_time_ms AS "blockTimeMs", gas_used AS "gasUsed", fee_payer AS "feePayer",
        fee_payer_fee AS "feePayerFee", tx_error AS "txError"
      FROM transactions
      WHERE ${
      sql.and([
        sql`member_id = ${memberId}`,
        sql`chain_id = ${chainId}`,
        sql`payer_kind = 'global'`,
        ...(sender !== undefined ? [sql`sender = ${sender}`] : []),
        ...(hash !== undefined ? [sql`hash = ${hash}`] : []),
        ...(before !== undefined ? [sql`seq < ${before}`] : []),
        ...(visibleAtMs !== undefined ? [sql`block_time_ms <= ${visibleAtMs}`] : [])
      ])
    }
      ORDER BY seq DESC LIMIT ${limit}`.pipe(
      Effect.map((rows) =>
        rows.map((r): FeeRecordRow => ({
          ...r,
          raw: bytes(r.raw),
          feePayerFee: BigInt(r.feePayerFee),
          txError: r.txError ?? undefined
        }))
      )
    )
})
