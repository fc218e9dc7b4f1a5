/**
 * The queries of multisig transactions: a multisig account's transactions waiting for their
 * signers (`multisig_transactions`, migration `0009_multisig`), and the member's accounts that
 * hold the signers' keys.
 *
 * Every change of a waiting transaction is a compare-and-set of its `version`: of two signers
 * signing at once (two processes on one database), one wins and the other reads again.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.8.0
 * @internal
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type * as SqlError from "@effect/sql/SqlError"
import { Context, Effect, Layer, Option } from "effect"
import { bytes } from "./LedgerClient.js"

/**
 * Where a multisig transaction is: waiting for signatures (`pending`), sent to the chain
 * (`submitted`, with its hash), or dropped (its nonce was taken by another transaction).
 *
 * @since 0.8.0
 * @category models
 */
export type State = "pending" | "submitted" | "dropped"

/**
 * One key of the multisig account when the transaction was made: its compressed public key (hex,
 * no `0x`), the address of the member's account holding it (else the key's own address), in lower
 * case, and its weight.
 *
 * @since 0.8.0
 * @category models
 */
export interface Signer {
  readonly publicKey: string
  readonly address: string
  readonly weight: number
}

/**
 * A signature collected: the signer's compressed public key (hex, no `0x`) and `v`, `r`, `s`
 * (`r` and `s` as decimal text).
 *
 * @since 0.8.0
 * @category models
 */
export interface Collected {
  readonly publicKey: string
  readonly v: number
  readonly r: string
  readonly s: string
}

/**
 * A multisig transaction as stored.
 *
 * @since 0.8.0
 * @category models
 */
export interface Row {
  readonly seq: number
  /** `0x` + 64 lower-case hex digits. */
  readonly id: string
  readonly memberId: number
  readonly chainId: number
  /** The sender's account pool (its KRN). */
  readonly poolKrn: string
  /** Lower case. */
  readonly sender: string
  readonly nonce: number
  /** The unsigned transaction: its SigRLP. */
  readonly tx: Uint8Array
  readonly payerKind: "sender" | "global" | "user"
  /** The user fee payer, lower case. */
  readonly feePayer: string | undefined
  /** The fee-payer pool the request selected (its KRN), if any. */
  readonly feePayerPoolKrn: string | undefined
  readonly signers: ReadonlyArray<Signer>
  readonly threshold: number
  readonly signatures: ReadonlyArray<Collected>
  readonly state: State
  readonly transactionHash: string | undefined
  readonly version: number
  readonly createdAt: number
  readonly updatedAt: number
}

/**
 * A listing of waiting transactions: those of the member on the chain whose sender, or one of
 * whose signers, is `address` (lower case); created within `from`..`to` (Unix seconds, inclusive),
 * newest first, before `before` (a `seq`) when given; `limit` rows.
 *
 * @since 0.8.0
 * @category models
 */
export interface ListQuery {
  readonly memberId: number
  readonly chainId: number
  readonly address: string
  readonly from: number | undefined
  readonly to: number | undefined
  readonly before: { readonly createdAt: number; readonly seq: number } | undefined
  readonly limit: number
}

/**
 * The queries.
 *
 * @since 0.8.0
 * @category models
 */
export interface Service {
  /** Stores a new waiting transaction. */
  readonly insert: (row: Omit<Row, "seq" | "version" | "state" | "transactionHash" | "signatures">) => Effect.Effect<void, SqlError.SqlError>
  /** A transaction of the member on the chain by id, in any state. */
  readonly find: (memberId: number, chainId: number, id: string) => Effect.Effect<Option.Option<Row>, SqlError.SqlError>
  /** The sender's waiting transactions on a chain, by nonce. */
  readonly waiting: (chainId: number, sender: string) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
  /**
   * Changes a transaction if it is still at `version` (which the change bumps): `true` when
   * changed, `false` when another writer came first.
   */
  readonly update: (
    seq: number,
    version: number,
    change: {
      readonly signatures: ReadonlyArray<Collected>
      readonly state: State
      readonly transactionHash: string | undefined
      readonly updatedAt: number
    }
  ) => Effect.Effect<boolean, SqlError.SqlError>
  /** A page of waiting transactions (see `ListQuery`). */
  readonly list: (query: ListQuery) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
  /**
   * The addresses (lower case) of the member's accounts on the chain (any account pool, not
   * deleted) by their public key (uncompressed, `0x04` + 128 lower-case hex digits, as accounts
   * store it).
   */
  readonly accountsOfKeys: (
    memberId: number,
    chainId: number,
    publicKeys: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyMap<string, string>, SqlError.SqlError>
}

/**
 * The multisig queries, as a service.
 *
 * @since 0.8.0
 * @category tags
 */
export class MultisigStore extends Context.Tag("effect-kas-wallet-emulator/MultisigStore")<MultisigStore, Service>() {}

// A row as libSQL answers it: the BLOB as it comes, NULL for what is absent, the JSON columns as text.
interface RawRow extends Omit<Row, "tx" | "feePayer" | "feePayerPoolKrn" | "signers" | "signatures" | "transactionHash"> {
  readonly tx: unknown
  readonly feePayer: string | null
  readonly feePayerPoolKrn: string | null
  readonly signers: string
  readonly signatures: string
  readonly transactionHash: string | null
}

const toRow = (r: RawRow): Row => ({
  ...r,
  tx: bytes(r.tx),
  feePayer: r.feePayer ?? undefined,
  feePayerPoolKrn: r.feePayerPoolKrn ?? undefined,
  // Written by `insert` and `update` from typed values.
  signers: JSON.parse(r.signers) as ReadonlyArray<Signer>,
  signatures: JSON.parse(r.signatures) as ReadonlyArray<Collected>,
  transactionHash: r.transactionHash ?? undefined
})

/**
 * Builds the queries over the `SqlClient` of the context.
 *
 * @since 0.8.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql`seq, id, member_id AS "memberId", chain_id AS "chainId", pool_krn AS "poolKrn", sender, nonce, tx,
    payer_kind AS "payerKind", fee_payer AS "feePayer", fee_payer_pool_krn AS "feePayerPoolKrn", signers, threshold,
    signatures, state, transaction_hash AS "transactionHash", version, created_at AS "createdAt", updated_at AS "updatedAt"`
  return {
    insert: (r) =>
      sql`INSERT INTO multisig_transactions (id, member_id, chain_id, pool_krn, sender, nonce, tx, payer_kind, fee_payer,
          fee_payer_pool_krn, signers, threshold, signatures, state, version, created_at, updated_at)
        VALUES (${r.id}, ${r.memberId}, ${r.chainId}, ${r.poolKrn}, ${r.sender}, ${r.nonce}, ${r.tx}, ${r.payerKind},
          ${r.feePayer ?? null}, ${r.feePayerPoolKrn ?? null}, ${JSON.stringify(r.signers)}, ${r.threshold}, '[]', 'pending', 0,
          ${r.createdAt}, ${r.updatedAt})`.pipe(Effect.asVoid),

    find: (memberId, chainId, id) =>
      sql<RawRow>`SELECT ${columns} FROM multisig_transactions
        WHERE id = ${id} AND member_id = ${memberId} AND chain_id = ${chainId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRow))
      ),

    waiting: (chainId, sender) =>
      sql<RawRow>`SELECT ${columns} FROM multisig_transactions
        WHERE chain_id = ${chainId} AND sender = ${sender} AND state = 'pending' ORDER BY nonce, seq`.pipe(
        Effect.map((rows) => rows.map(toRow))
      ),

    update: (seq, version, change) =>
      sql<{ readonly seq: number }>`UPDATE multisig_transactions
        SET signatures = ${JSON.stringify(change.signatures)}, state = ${change.state},
          transaction_hash = ${change.transactionHash ?? null}, updated_at = ${change.updatedAt}, version = version + 1
        WHERE seq = ${seq} AND version = ${version} RETURNING seq`.pipe(Effect.map((rows) => rows.length > 0)),

    list: (q) => {
      const conditions = [
        sql`member_id = ${q.memberId}`,
        sql`chain_id = ${q.chainId}`,
        sql`state = 'pending'`,
        sql`(sender = ${q.address} OR EXISTS (SELECT 1 FROM json_each(signers) WHERE json_extract(value, '$.address') = ${q.address}))`,
        ...(q.from !== undefined ? [sql`created_at >= ${q.from}`] : []),
        ...(q.to !== undefined ? [sql`created_at <= ${q.to}`] : []),
        ...(q.before !== undefined ? [sql`(created_at, seq) < (${q.before.createdAt}, ${q.before.seq})`] : [])
      ]
      return sql<RawRow>`SELECT ${columns} FROM multisig_transactions WHERE ${sql.and(conditions)}
        ORDER BY created_at DESC, seq DESC LIMIT ${q.limit}`.pipe(Effect.map((rows) => rows.map(toRow)))
    },

    accountsOfKeys: (memberId, chainId, publicKeys) =>
      publicKeys.length === 0
        ? Effect.succeed(new Map())
        : sql<{ readonly publicKey: string; readonly address: string }>`SELECT a.public_key AS "publicKey", a.address_lc AS address
            FROM accounts a JOIN pools p ON p.id = a.pool_id
            WHERE p.member_id = ${memberId} AND p.chain_id = ${chainId} AND a.status != 'deleted'
              AND a.public_key IN ${sql.in(publicKeys)}
            ORDER BY a.seq`.pipe(
          Effect.map((rows) => {
            const found = new Map<string, string>()
            // The oldest account of a key holds it (an emulated key belongs to one account).
            for (const row of rows) if (!found.has(row.publicKey)) found.set(row.publicKey, row.address)
            return found
          })
        )
  }
})

/**
 * The multisig queries over the `SqlClient` of the context.
 *
 * @since 0.8.0
 * @category layers
 */
export const layer: Layer.Layer<MultisigStore, never, SqlClient.SqlClient> = Layer.effect(MultisigStore, make)
