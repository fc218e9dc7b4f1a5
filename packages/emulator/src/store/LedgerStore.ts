/**
 * The ledger's store: its queries, by concern — the chain's state (`ChainState`), the pending pool
 * (`PendingPool`), the global fee payer's bills (`Bills`), the fee-delegation history
 * (`FeeRecords`), the wallet's senders (`Senders`) — and its one atomic write.
 *
 * Amounts are peb as decimal text (they reach 2^256 - 1, beyond SQLite's integers), so the sums
 * are made here in bigint and written back whole. A write is therefore read, computed, then
 * written; two rules make that safe:
 *
 * - In one process, ledger work runs one at a time (`serialize`): 100 concurrent transfers from
 *   one account take consecutive nonces and leave an exact balance.
 * - Between processes (a console command funding an account while the emulator serves, two
 *   emulators on one libSQL server), every write is a compare-and-set in one atomic batch: each
 *   balance is written only if it is still what was read, and an assertion after each
 *   (`ledger_guard`) fails the whole batch otherwise. Nothing is half-written; the caller reads
 *   again and retries (`write` answers `false`).
 * - Contracts (issue 18): a contract run reads code, storage and accounts it may not write. Each
 *   of those reads is checked in the same batch, before anything is written (`Reads`), and the
 *   code, storage and destructions it makes (`Contracts`) are written in it: a transaction's
 *   state, receipt and fees land together or not at all, even under SIGKILL.
 * - The pending pool (issue 19, manual mining): a transaction accepted waits in
 *   `pending_transactions`; the write that mines it removes it from there in the batch that
 *   writes its state and receipt. Every change of a chain's pool is a compare-and-set of the
 *   chain's `pool_version`, so two processes never both accept on the same reading of the pool.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.2.0
 * @internal
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as SqlError from "@effect/sql/SqlError"
import { Context, Effect, Layer } from "effect"
import * as Bills from "./Bills.js"
import * as ChainState from "./ChainState.js"
import type * as Database from "./Database.js"
import * as FeeRecords from "./FeeRecords.js"
import * as LedgerClient from "./LedgerClient.js"
import * as PendingPool from "./PendingPool.js"
import * as Senders from "./Senders.js"

/**
 * What a contract run read of the ledger, with the values it saw: the write that applies its
 * result first checks each is still that, and writes nothing otherwise (another writer came in
 * between: read again and run again). Accounts not read are absent; so is what the run only wrote.
 *
 * @since 0.4.0
 * @category models
 */
export interface Reads {
  /** Balances and nonces, lower-case addresses; an address never seen reads as `Empty`. */
  readonly accounts: ReadonlyArray<{ readonly address: string; readonly state: ChainState.Balance }>
  /** The code of each address read, by `codeHash`; `undefined` when it had none. */
  readonly code: ReadonlyArray<{ readonly address: string; readonly codeHash: string | undefined }>
  /** The slots read (`ZeroWord` for one never written). */
  readonly storage: ReadonlyArray<ChainState.Slot>
}

/**
 * What a successful contract run writes beside balances and nonces (which go in `Write.balances`).
 *
 * @since 0.4.0
 * @category models
 */
export interface Contracts {
  /** The contracts created, lower-case addresses. An address that already has code fails the write (a conflict). */
  readonly code: ReadonlyArray<{ readonly address: string; readonly code: Uint8Array }>
  /** Final values of the slots written; `ZeroWord` clears one. */
  readonly storage: ReadonlyArray<ChainState.Slot>
  /**
   * Contracts removed by SELFDESTRUCT (Shanghai: at the end of the transaction): their code and
   * every slot go. Their balance and nonce return to `Empty` through `Write.balances`.
   */
  readonly destroyed: ReadonlyArray<string>
}

/**
 * One atomic write of the ledger: each balance with what was read of it (written only if it is
 * still that), the bill likewise, the start of the block clock when it was not started, and the
 * transaction; for a contract run, the checks of what it read and the code and storage it wrote.
 *
 * @since 0.2.0
 * @category models
 */
export interface Write {
  readonly chainId: number
  readonly balances: ReadonlyArray<{ readonly address: string; readonly read: ChainState.Balance; readonly write: ChainState.Balance }>
  readonly bill?: Bills.BillChange | undefined
  /** Starts the block clock at this time; the write fails if another writer started it first. */
  readonly genesisMs?: number | undefined
  readonly transaction?: ChainState.TransactionRow | undefined
  /**
   * What a contract run read: checked before anything is written, the write fails (answers
   * `false`) when any of it changed.
   *
   * @since 0.4.0
   */
  readonly reads?: Reads | undefined
  /**
   * Code, storage and destructions of a contract run.
   *
   * @since 0.4.0
   */
  readonly contracts?: Contracts | undefined
  /**
   * A change of the chain's pending pool, written only if the pool is still at `version` (which
   * the write bumps): pending transactions removed by hash (each must still be there), then one
   * added.
   *
   * @since 0.5.0
   */
  readonly pool?: PendingPool.PoolChange | undefined
  /**
   * The chain's last mined block moves from `read` to `write` (compare-and-set; equal when the
   * block was already started).
   *
   * @since 0.5.0
   */
  readonly minedBlock?: { readonly read: number; readonly write: number } | undefined
  /**
   * An account update: the address's new account key (Klaytn's RLP form), and the state its wallet
   * account takes (the member's account at that address, if any): `corrupted` when the key KAS
   * holds can no longer sign, `disabled` for a fail key, `enabled` when a legacy key gives it back.
   *
   * @since 0.5.0
   */
  readonly accountKey?: Senders.AccountKeyChange | undefined
}

/**
 * The ledger's queries and its write.
 *
 * @since 0.2.0
 * @category models
 */
export interface Service extends ChainState.Queries, PendingPool.Queries, Bills.Queries, FeeRecords.Queries, Senders.Queries {
  /** Runs ledger work one at a time in this process (every read-compute-write of the ledger). */
  readonly serialize: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Applies a write atomically: `true` when applied; `false`, with nothing written, when another
   * writer changed what was read (read again and retry).
   */
  readonly write: (write: Write) => Effect.Effect<boolean, SqlError.SqlError>
  /**
   * Whether what a contract run read is all still so, checked at one instant (one read
   * transaction): a run whose reads hold is the run the state now gives.
   *
   * @since 0.11.0
   */
  readonly holds: (chainId: number, reads: Reads) => Effect.Effect<boolean, SqlError.SqlError>
  /**
   * How many writes this process has started, when none is under way (`undefined` while one is):
   * the same mark before and after some reads means no write of this process came between them.
   *
   * @since 0.11.0
   */
  readonly writeMark: () => number | undefined
}

/**
 * The ledger's queries, as a service.
 *
 * @since 0.2.0
 * @category tags
 */
export class LedgerStore extends Context.Tag("effect-kas-wallet-emulator/LedgerStore")<LedgerStore, Service>() {}

// The failures of a batch that mean another writer came first (libSQL's extended result codes).
const Conflicts: ReadonlySet<string> = new Set(["SQLITE_CONSTRAINT_CHECK", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"])

type Statement = LedgerClient.Statement

type Condition = { readonly sql: string; readonly args: Array<string | number> }

// Conditions per statement: each takes at most 5 arguments, far below SQLite's limit of 32766.
const ConditionsPerCheck = 200

// The conditions that what a contract run read is still so, in statements of at most
// `ConditionsPerCheck` (each statement of a batch costs about as much as a small query). An absent
// row compares as what absence means (Empty, no code, a zero slot).
const readConditions = (chainId: number, reads: Reads): Array<Condition> => [
  ...reads.accounts.map((a): Condition => ({
    sql: "coalesce((SELECT balance = ? AND nonce = ? FROM ledger_accounts WHERE chain_id = ? AND address = ?), ?)",
    args: [a.state.balance.toString(), a.state.nonce, chainId, a.address, a.state.balance === 0n && a.state.nonce === 0 ? 1 : 0]
  })),
  ...reads.code.map((c): Condition => ({
    sql: "coalesce((SELECT code_hash FROM contract_code WHERE chain_id = ? AND address = ?), '') = ?",
    args: [chainId, c.address, c.codeHash ?? ""]
  })),
  ...reads.storage.map((s): Condition => ({
    sql: "coalesce((SELECT value FROM contract_storage WHERE chain_id = ? AND address = ? AND slot = ?), ?) = ?",
    args: [chainId, s.address, s.slot, ChainState.ZeroWord, s.value]
  }))
]

const chunks = <A>(items: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += ConditionsPerCheck) out.push(items.slice(i, i + ConditionsPerCheck))
  return out
}

const conjunction = (chunk: ReadonlyArray<Condition>) => chunk.map((c) => `(${c.sql})`).join(" AND ")

// Read checks are assertions of their own: the guard row takes the truth of the conditions, and
// its CHECK (ok = 1) fails the batch when one is false.
const readChecks = (chainId: number, reads: Reads): Array<Statement> =>
  chunks(readConditions(chainId, reads)).map((chunk) => ({
    sql: `INSERT OR REPLACE INTO ledger_guard (id, ok) VALUES (1, ${conjunction(chunk)})`,
    args: chunk.flatMap((c) => c.args)
  }))

// Unguarded: the batch runs in one write transaction, so the read checks before it already
// decided. Only a second creation at one address (its primary key) fails here.
const contractWrites = (chainId: number, c: Contracts): Array<Statement> => [
  ...c.destroyed.flatMap((address) => [
    { sql: "DELETE FROM contract_code WHERE chain_id = ? AND address = ?", args: [chainId, address] },
    { sql: "DELETE FROM contract_storage WHERE chain_id = ? AND address = ?", args: [chainId, address] }
  ]),
  ...c.code.map(({ address, code }) => ({
    sql: "INSERT INTO contract_code (chain_id, address, code_hash, code) VALUES (?, ?, ?, ?)",
    args: [chainId, address, ChainState.codeHash(code), code]
  })),
  ...c.storage.map((s) =>
    s.value === ChainState.ZeroWord
      ? { sql: "DELETE FROM contract_storage WHERE chain_id = ? AND address = ? AND slot = ?", args: [chainId, s.address, s.slot] }
      : {
        sql: `INSERT INTO contract_storage (chain_id, address, slot, value) VALUES (?, ?, ?, ?)
            ON CONFLICT (chain_id, address, slot) DO UPDATE SET value = excluded.value`,
        args: [chainId, s.address, s.slot, s.value]
      }
  )
]

// The statements of a write, in the order that makes it safe: the checks of what a contract run
// read come first, before the batch changes anything.
const statements = (w: Write): Array<Statement> => {
  const out: Array<Statement> = []
  if (w.reads !== undefined) out.push(...readChecks(w.chainId, w.reads))
  if (w.genesisMs !== undefined) {
    out.push(...LedgerClient.guarded("UPDATE chains SET genesis_ms = ? WHERE chain_id = ? AND genesis_ms IS NULL", [w.genesisMs, w.chainId]))
  }
  for (const b of w.balances) {
    // Inserted when absent, updated when still as read; otherwise no row changes and the guard
    // fails the batch. An absent row reads as Empty, so a row another writer created with
    // nothing in it still matches.
    out.push(...LedgerClient.guarded(
      `INSERT INTO ledger_accounts (chain_id, address, balance, nonce) VALUES (?, ?, ?, ?)
        ON CONFLICT (chain_id, address) DO UPDATE SET balance = excluded.balance, nonce = excluded.nonce
        WHERE balance = ? AND nonce = ?`,
      [w.chainId, b.address, b.write.balance.toString(), b.write.nonce, b.read.balance.toString(), b.read.nonce]
    ))
  }
  if (w.bill !== undefined) out.push(...Bills.billStatements(w.chainId, w.bill))
  if (w.contracts !== undefined) out.push(...contractWrites(w.chainId, w.contracts))
  if (w.minedBlock !== undefined) {
    out.push(...LedgerClient.guarded("UPDATE chains SET mined_block = ? WHERE chain_id = ? AND mined_block = ?", [w.minedBlock.write, w.chainId, w.minedBlock.read]))
  }
  if (w.pool !== undefined) out.push(...PendingPool.poolStatements(w.chainId, w.pool))
  const k = w.accountKey
  if (k !== undefined) {
    out.push({
      sql: `INSERT INTO account_keys (chain_id, address, key) VALUES (?, ?, ?)
        ON CONFLICT (chain_id, address) DO UPDATE SET key = excluded.key`,
      args: [w.chainId, k.address, k.key]
    })
    // The wallet's view of the account follows its key.
    out.push(...Senders.accountStatusStatements(w.chainId, k))
  }
  const t = w.transaction
  if (t !== undefined) {
    // A second writer with the same nonce or block position breaks a unique key: the batch fails.
    out.push({
      sql: `INSERT INTO transactions (chain_id, hash, sender, nonce, member_id, raw, block_number, block_time_ms, tx_index,
          gas_used, fee_payer, payer_kind, sender_fee, fee_payer_fee, accepted_ms, tx_error, revert_reason, contract_address, logs, log_index)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        t.chainId,
        t.hash,
        t.sender,
        t.nonce,
        t.memberId,
        t.raw,
        t.blockNumber,
        t.blockTimeMs,
        t.transactionIndex,
        t.gasUsed,
        t.feePayer ?? null,
        t.payerKind,
        t.senderFee.toString(),
        t.feePayerFee.toString(),
        t.acceptedMs,
        t.txError ?? null,
        t.revertReason ?? null,
        t.contractAddress ?? null,
        t.logs !== undefined ? JSON.stringify(t.logs) : null,
        t.logIndex ?? null
      ]
    })
  }
  return out
}

/**
 * Builds the queries over the database of the context.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, SqlClient.SqlClient | Database.RawClient> = Effect.gen(function*() {
  const client = yield* LedgerClient.make
  const lock = yield* Effect.makeSemaphore(1)
  let started = 0
  let finished = 0
  return {
    ...ChainState.make(client),
    ...PendingPool.make(client),
    ...Bills.make(client),
    ...FeeRecords.make(client),
    ...Senders.make(client),
    serialize: (self) => lock.withPermits(1)(self),
    writeMark: () => (started === finished ? started : undefined),
    holds: (chainId, reads) => {
      const checks = chunks(readConditions(chainId, reads))
      if (checks.length === 0) return Effect.succeed(true)
      return Effect.tryPromise({
        try: () =>
          client.raw.batch(checks.map((chunk) => ({ sql: `SELECT ${conjunction(chunk)} AS ok`, args: chunk.flatMap((c) => c.args) })), "read"),
        catch: (cause) => new SqlError.SqlError({ cause, message: "Failed to check a contract run's reads" })
      }).pipe(Effect.map((results) => results.every((r) => Number(r.rows[0]?.ok) === 1)))
    },
    write: (w) =>
      Effect.tryPromise({
        try: () => {
          started++
          return client.raw.batch(statements(w), "write").then(() => true).finally(() => void finished++)
        },
        catch: (cause) => cause
      }).pipe(
        Effect.catchAll((cause) =>
          // A compare-and-set that found something else (the guard's CHECK), or a unique key
          // another writer took: a conflict. Anything else is a failure.
          Conflicts.has(String((cause as { code?: unknown }).code))
            ? Effect.succeed(false)
            : Effect.fail(new SqlError.SqlError({ cause, message: "Failed to write to the ledger" }))
        )
      )
  }
})

/**
 * The ledger's queries over the database of the context.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer: Layer.Layer<LedgerStore, never, SqlClient.SqlClient | Database.RawClient> = Layer.effect(LedgerStore, make)