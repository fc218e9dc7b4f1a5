/**
 * The global fee payer's bills: what it paid for each member on each chain (the service pays first
 * and bills the member later).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.2.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Effect } from "effect"
import { type Client, guarded, type Statement } from "./LedgerClient.js"

/**
 * What the global fee payer paid for one member on one chain.
 *
 * @since 0.2.0
 * @category models
 */
export interface Bill {
  readonly fees: bigint
  readonly transactions: number
}

/**
 * A bill as the console lists it.
 *
 * @since 0.2.0
 * @category models
 */
export interface BillRow extends Bill {
  readonly accountId: string
  readonly chainId: number
  /** The chain's global fee payer (lower case), once made. */
  readonly feePayer: string | undefined
}

/**
 * A bill's change, written only if the bill is still as read.
 *
 * @since 0.10.0
 * @category models
 */
export interface BillChange {
  readonly memberId: number
  readonly read: Bill
  readonly write: Bill
}

/**
 * The statements of a bill's change, in the batch of the transaction it bills.
 *
 * @since 0.10.0
 * @category writing
 */
export const billStatements = (chainId: number, bill: BillChange): ReadonlyArray<Statement> =>
  guarded(
    `INSERT INTO fee_bills (member_id, chain_id, fees, transactions) VALUES (?, ?, ?, ?)
      ON CONFLICT (member_id, chain_id) DO UPDATE SET fees = excluded.fees, transactions = excluded.transactions
      WHERE fees = ? AND transactions = ?`,
    [bill.memberId, chainId, bill.write.fees.toString(), bill.write.transactions, bill.read.fees.toString(), bill.read.transactions]
  )

/**
 * The bills.
 *
 * @since 0.10.0
 * @category models
 */
export interface Queries {
  readonly bill: (memberId: number, chainId: number) => Effect.Effect<Bill, SqlError.SqlError>
  /** The bills of the global fee payer, by member and chain, oldest member first. */
  readonly bills: (filter: { readonly memberId?: number | undefined; readonly chainId?: number | undefined }) => Effect.Effect<
    ReadonlyArray<BillRow>,
    SqlError.SqlError
  >
}

/**
 * The bills' queries over the ledger's clients.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = ({ read, sql }: Client): Queries => ({
  bill: (memberId, chainId) =>
    read<{ readonly fees: string; readonly transactions: number }>(
      "SELECT fees, transactions FROM fee_bills WHERE member_id = ? AND chain_id = ?",
      [memberId, chainId]
    ).pipe(
      Effect.map((rows) => (rows[0] !== undefined ? { fees: BigInt(rows[0].fees), transactions: rows[0].transactions } : { fees: 0n, transactions: 0 }))
    ),

  bills: ({ chainId, memberId }) =>
    sql<{
      readonly accountId: string
      readonly chainId: number
      readonly fees: string
      readonly transactions: number
      readonly feePayer: string | null
    }>`SELECT m.account_id AS "accountId", b.chain_id AS "chainId", b.fees, b.transactions,
        c.fee_payer_address AS "feePayer"
      FROM fee_bills b JOIN members m ON m.id = b.member_id JOIN chains c ON c.chain_id = b.chain_id
      WHERE ${sql.and([
      ...(memberId !== undefined ? [sql`b.member_id = ${memberId}`] : []),
      ...(chainId !== undefined ? [sql`b.chain_id = ${chainId}`] : [])
    ])}
      ORDER BY m.id, b.chain_id`.pipe(
      Effect.map((rows) =>
        rows.map((r): BillRow => ({
          accountId: r.accountId,
          chainId: r.chainId,
          fees: BigInt(r.fees),
          transactions: r.transactions,
          feePayer: r.feePayer ?? undefined
        }))
      )
    )
})
