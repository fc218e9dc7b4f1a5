/**
 * The pending pool of manual mining: the transactions accepted and not yet in a block, in
 * acceptance order, and what they may still cost their senders and user fee payers. Every change
 * of a chain's pool is a compare-and-set of the chain's `pool_version`, so two processes never
 * both accept on the same reading of the pool.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import type * as ChainState from "./ChainState.js"
import { bytes, type Client, guarded, type Statement } from "./LedgerClient.js"

/**
 * A transaction of the pending pool: accepted (checked and signed), not yet in a block.
 *
 * @since 0.5.0
 * @category models
 */
export interface PendingRow extends ChainState.AcceptedRow {
  /** The most it may cost its sender: value + the sender's part of gas limit × price. */
  readonly senderReserve: bigint
  /** The most it may cost a user fee payer (0 for another payer). */
  readonly feePayerReserve: bigint
  /** The place in acceptance order (mining order); on an insert, absent takes the next one. */
  readonly seq?: number | undefined
}

/**
 * A change of a chain's pending pool, written only if the pool is still at `version` (which the
 * write bumps): pending transactions removed by hash (each must still be there), then one added.
 *
 * @since 0.10.0
 * @category models
 */
export interface PoolChange {
  readonly version: number
  readonly remove?: ReadonlyArray<string> | undefined
  readonly add?: PendingRow | undefined
}

/**
 * The statements of a pool change, in the batch that writes it.
 *
 * @since 0.10.0
 * @category writing
 */
export const poolStatements = (chainId: number, pool: PoolChange): ReadonlyArray<Statement> => {
  const out: Array<Statement> = [
    ...guarded("UPDATE chains SET pool_version = pool_version + 1 WHERE chain_id = ? AND pool_version = ?", [chainId, pool.version])
  ]
  for (const hash of pool.remove ?? []) {
    out.push(...guarded("DELETE FROM pending_transactions WHERE chain_id = ? AND hash = ?", [chainId, hash]))
  }
  const p = pool.add
  if (p !== undefined) {
    // One pending transaction per (sender, nonce) and per hash: a second breaks a unique key.
    out.push({
      sql: `INSERT INTO pending_transactions (seq, chain_id, hash, sender, nonce, member_id, raw, payer_kind, fee_payer,
          sender_reserve, fee_payer_reserve, accepted_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        p.seq ?? null,
        chainId,
        p.hash,
        p.sender,
        p.nonce,
        p.memberId,
        p.raw,
        p.payerKind,
        p.feePayer ?? null,
        p.senderReserve.toString(),
        p.feePayerReserve.toString(),
        p.acceptedMs
      ]
    })
  }
  return out
}

interface RawPending extends ChainState.RawAccepted {
  readonly seq: number
  readonly senderReserve: string
  readonly feePayerReserve: string
}

const pendingRow = (r: RawPending): PendingRow => ({
  ...r,
  raw: bytes(r.raw),
  feePayer: r.feePayer ?? undefined,
  senderReserve: BigInt(r.senderReserve),
  feePayerReserve: BigInt(r.feePayerReserve)
})

/**
 * The pending pool.
 *
 * @since 0.10.0
 * @category models
 */
export interface Queries {
  /**
   * The pending pool of a chain in acceptance order; of one sender (lower case) only when given.
   *
   * @since 0.5.0
   */
  readonly pending: (chainId: number, sender?: string | undefined) => Effect.Effect<ReadonlyArray<PendingRow>, SqlError.SqlError>
  /**
   * How many pending transactions a sender (lower case) has on a chain: a send's next nonce counts
   * them (the rows themselves would cost each send more as the pool grows within a block).
   *
   * @since 0.12.0
   */
  readonly pendingCount: (chainId: number, sender: string) => Effect.Effect<number, SqlError.SqlError>
  /**
   * A sender's (lower case) pending transaction of a nonce: the one a replacement takes the place of.
   *
   * @since 0.12.0
   */
  readonly pendingAt: (chainId: number, sender: string, nonce: number) => Effect.Effect<Option.Option<PendingRow>, SqlError.SqlError>
  /**
   * A pending transaction by chain and lower-case hash.
   *
   * @since 0.5.0
   */
  readonly pendingTransaction: (chainId: number, hash: string) => Effect.Effect<Option.Option<PendingRow>, SqlError.SqlError>
  /**
   * What the pending transactions may still cost each of some (lower-case) addresses, as sender
   * and as user fee payer; 0 for those with none.
   *
   * @since 0.5.0
   */
  readonly reserved: (chainId: number, addresses: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, bigint>, SqlError.SqlError>
}

/**
 * The pool's queries over the ledger's clients.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = ({ sql }: Client): Queries => ({
  pending: (chainId, sender) =>
    sql<RawPending>`SELECT seq, chain_id AS "chainId", hash, sender, nonce, member_id AS "memberId", raw,
        payer_kind AS "payerKind", fee_payer AS "feePayer", sender_reserve AS "senderReserve",
        fee_payer_reserve AS "feePayerReserve", accepted_ms AS "acceptedMs"
      FROM pending_transactions WHERE chain_id = ${chainId} ${sender !== undefined ? sql`AND sender = ${sender}` : sql``}
      ORDER BY seq`.pipe(Effect.map((rows) => rows.map(pendingRow))),

  pendingCount: (chainId, sender) =>
    sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM pending_transactions WHERE chain_id = ${chainId} AND sender = ${sender}`.pipe(
      Effect.map((rows) => Number(rows[0]?.n ?? 0))
    ),

  pendingAt: (chainId, sender, nonce) =>
    sql<RawPending>`SELECT seq, chain_id AS "chainId", hash, sender, nonce, member_id AS "memberId", raw,
        payer_kind AS "payerKind", fee_payer AS "feePayer", sender_reserve AS "senderReserve",
        fee_payer_reserve AS "feePayerReserve", accepted_ms AS "acceptedMs"
      FROM pending_transactions WHERE chain_id = ${chainId} AND sender = ${sender} AND nonce = ${nonce}`.pipe(
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), pendingRow))
    ),

  pendingTransaction: (chainId, hash) =>
    sql<RawPending>`SELECT seq, chain_id AS "chainId", hash, sender, nonce, member_id AS "memberId", raw,
        payer_kind AS "payerKind", fee_payer AS "feePayer", sender_reserve AS "senderReserve",
        fee_payer_reserve AS "feePayerReserve", accepted_ms AS "acceptedMs"
      FROM pending_transactions WHERE chain_id = ${chainId} AND hash = ${hash}`.pipe(
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), pendingRow))
    ),

  reserved: (chainId, addresses) =>
    addresses.length === 0
      ? Effect.succeed(new Map())
      : sql<{ readonly address: string; readonly amount: string }>`SELECT sender AS address, sender_reserve AS amount
          FROM pending_transactions WHERE chain_id = ${chainId} AND ${sql.in("sender", addresses)}
        UNION ALL SELECT fee_payer AS address, fee_payer_reserve AS amount
          FROM pending_transactions WHERE chain_id = ${chainId} AND payer_kind = 'user' AND ${sql.in("fee_payer", addresses)}`.pipe(
          // Amounts are decimal text beyond SQLite's integers: summed here in bigint.
          Effect.map((rows) => {
            const sums = new Map<string, bigint>(addresses.map((a) => [a, 0n]))
            for (const r of rows) sums.set(r.address, (sums.get(r.address) ?? 0n) + BigInt(r.amount))
            return sums
          })
        )
})
