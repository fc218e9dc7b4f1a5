/**
 * The ledger's queries: balances and nonces per chain, transactions, the block clock's start, the
 * global fee payer and its bills.
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
import { SqlClient, SqlError } from "@effect/sql"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Context, Effect, Layer, Option } from "effect"
import * as Database from "./Database.js"
import type * as Store from "./Store.js"

/**
 * A chain's ledger settings.
 *
 * @since 0.2.0
 * @category models
 */
export interface ChainRow {
  readonly chainId: number
  /** Peb per unit of gas. */
  readonly gasPrice: bigint
  /** When the block clock started (Unix milliseconds); `undefined` before the first transaction. */
  readonly genesisMs: number | undefined
  /** The global fee payer: its lower-case address and sealed key, once made. */
  readonly globalFeePayer: { readonly address: string; readonly sealedKey: Uint8Array } | undefined
  /**
   * The last block `mine` made (manual mining); 0 before the first.
   *
   * @since 0.5.0
   */
  readonly minedBlock: number
  /**
   * Bumped by every change of the chain's pending pool: what a pool write compares and sets.
   *
   * @since 0.5.0
   */
  readonly poolVersion: number
}

/**
 * What the ledger holds for an address: its balance in peb and its next nonce. An address never
 * seen holds 0 with nonce 0.
 *
 * @since 0.2.0
 * @category models
 */
export interface Balance {
  readonly balance: bigint
  readonly nonce: number
}

/**
 * Nothing: the state of an address the ledger has never seen.
 *
 * @since 0.2.0
 * @category constants
 */
export const Empty: Balance = { balance: 0n, nonce: 0 }

/**
 * An account of the wallet that may send: its checksummed address, state and sealed key.
 *
 * @since 0.2.0
 * @category models
 */
export interface KeyRow {
  readonly address: string
  readonly status: Store.Status
  readonly sealedKey: Uint8Array
  /**
   * Its public key (`0x04` + 128 hex digits), for an account: the address's own, or for an
   * account registered under a key of the key service that key's.
   *
   * @since 0.8.0
   */
  readonly publicKey?: string | undefined
  /**
   * Its account key on the chain `account` was asked about (Klaytn's RLP form; `None`: the legacy
   * key), read with the row.
   *
   * @since 0.9.0
   */
  readonly chainKey?: Option.Option<Uint8Array> | undefined
}

/**
 * What the ledger holds for some addresses: balances and nonces, and the hash of each one's code.
 *
 * @since 0.9.0
 * @category models
 */
export interface Parties {
  readonly balances: ReadonlyMap<string, Balance>
  /** `undefined` for an address without code. */
  readonly codeHashes: ReadonlyMap<string, string | undefined>
}

/**
 * The last block of a chain that holds transactions, and how many it holds.
 *
 * @since 0.2.0
 * @category models
 */
export interface Tip {
  readonly blockNumber: number
  readonly count: number
  /**
   * The logs its transactions hold: where the next transaction's logs start in the block (a log's
   * `logIndex` counts across its block).
   *
   * @since 0.4.0
   */
  readonly logs: number
  /**
   * The time of that block (Unix milliseconds).
   *
   * @since 0.5.0
   */
  readonly blockTimeMs: number
}

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
 * Who paid a transaction's fee.
 *
 * @since 0.2.0
 * @category models
 */
export type PayerKind = "sender" | "user" | "global"

/**
 * A log of a contract transaction, lower-case hex: the emitting contract, its topics (32-byte
 * words) and its data.
 *
 * @since 0.4.0
 * @category models
 */
export interface Log {
  readonly address: string
  readonly topics: ReadonlyArray<string>
  readonly data: string
}

/**
 * What the ledger keeps of every transaction it accepted, pending or in a block.
 *
 * @since 0.5.0
 * @category models
 */
export interface AcceptedRow {
  readonly chainId: number
  /** Lower case. */
  readonly hash: string
  /** Lower case. */
  readonly sender: string
  readonly nonce: number
  readonly memberId: number
  /** The signed raw transaction: everything else of it is decoded from it. */
  readonly raw: Uint8Array
  readonly payerKind: PayerKind
  /** Lower case; the user fee payer or the global one, `undefined` when the sender pays. */
  readonly feePayer: string | undefined
  readonly acceptedMs: number
}

/**
 * A transaction as stored in its block.
 *
 * @since 0.2.0
 * @category models
 */
export interface TransactionRow extends AcceptedRow {
  readonly blockNumber: number
  /** When its block is made (Unix milliseconds): pending until then. */
  readonly blockTimeMs: number
  readonly transactionIndex: number
  readonly gasUsed: number
  readonly senderFee: bigint
  readonly feePayerFee: bigint
  /**
   * Klaytn's receipt error code of a contract transaction that did not succeed (0x09 reverted,
   * ...); `undefined` when it succeeded, and for transfers.
   *
   * @since 0.4.0
   */
  readonly txError?: number | undefined
  /**
   * The reason of a revert with `Error(string)` data.
   *
   * @since 0.4.0
   */
  readonly revertReason?: string | undefined
  /**
   * The contract a deployment created (lower case).
   *
   * @since 0.4.0
   */
  readonly contractAddress?: string | undefined
  /**
   * The logs of a contract transaction, in order; `undefined` for transfers.
   *
   * @since 0.4.0
   */
  readonly logs?: ReadonlyArray<Log> | undefined
  /**
   * The block-wide index of the transaction's first log (the logs of the transactions before it
   * in its block come first); `undefined` for transfers.
   *
   * @since 0.4.0
   */
  readonly logIndex?: number | undefined
}

/**
 * A transaction of the pending pool: accepted (checked and signed), not yet in a block.
 *
 * @since 0.5.0
 * @category models
 */
export interface PendingRow extends AcceptedRow {
  /** The most it may cost its sender: value + the sender's part of gas limit × price. */
  readonly senderReserve: bigint
  /** The most it may cost a user fee payer (0 for another payer). */
  readonly feePayerReserve: bigint
  /** The place in acceptance order (mining order); on an insert, absent takes the next one. */
  readonly seq?: number | undefined
}

/**
 * An address as a contract run sees it: balance, nonce and code (`None` for an account without
 * code). An address never seen is `Empty` without code.
 *
 * @since 0.4.0
 * @category models
 */
export interface AccountState extends Balance {
  readonly code: Option.Option<Uint8Array>
}

/**
 * The value of a storage slot never written (or cleared): 32 zero bytes as `0x` + 64 hex digits.
 *
 * @since 0.4.0
 * @category constants
 */
export const ZeroWord = `0x${"0".repeat(64)}`

/**
 * A storage slot of a contract: its lower-case address, the slot and its value, each `0x` + 64
 * lower-case hex digits.
 *
 * @since 0.4.0
 * @category models
 */
export interface Slot {
  readonly address: string
  readonly slot: string
  readonly value: string
}

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
  readonly accounts: ReadonlyArray<{ readonly address: string; readonly state: Balance }>
  /** The code of each address read, by `codeHash`; `undefined` when it had none. */
  readonly code: ReadonlyArray<{ readonly address: string; readonly codeHash: string | undefined }>
  /** The slots read (`ZeroWord` for one never written). */
  readonly storage: ReadonlyArray<Slot>
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
  readonly storage: ReadonlyArray<Slot>
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
  readonly balances: ReadonlyArray<{ readonly address: string; readonly read: Balance; readonly write: Balance }>
  readonly bill?: { readonly memberId: number; readonly read: Bill; readonly write: Bill } | undefined
  /** Starts the block clock at this time; the write fails if another writer started it first. */
  readonly genesisMs?: number | undefined
  readonly transaction?: TransactionRow | undefined
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
  readonly pool?: {
    readonly version: number
    readonly remove?: ReadonlyArray<string> | undefined
    readonly add?: PendingRow | undefined
  } | undefined
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
  readonly accountKey?: {
    readonly address: string
    readonly key: Uint8Array
    readonly status: "enabled" | "disabled" | "corrupted"
    /**
     * A weighted multisig key's `{"multiSigKeys":[…],"threshold":n}`, which the wallet account's
     * JSON shows from now on; `undefined` for any other key (the account is no longer multisig).
     *
     * @since 0.8.0
     */
    readonly multisig?: string | undefined
    /**
     * When the update was accepted (Unix seconds): the wallet account's `updatedAt` moves to it
     * (never backwards).
     *
     * @since 0.8.0
     */
    readonly updatedAt: number
  } | undefined
}

/**
 * The hash by which the ledger knows a contract's code: keccak256 as `0x` + 64 lower-case hex
 * digits (the EVM's code hash).
 *
 * @since 0.4.0
 * @category contracts
 */
export const codeHash = (code: Uint8Array): string => `0x${Buffer.from(keccak_256(code)).toString("hex")}`

/**
 * The queries.
 *
 * @since 0.2.0
 * @category models
 */
export interface Service {
  /** Runs ledger work one at a time in this process (every read-compute-write of the ledger). */
  readonly serialize: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  readonly chain: (chainId: number) => Effect.Effect<ChainRow, SqlError.SqlError>
  /** Stores a chain's global fee payer unless one is stored (first writer wins); answers the stored one. */
  readonly setGlobalFeePayer: (
    chainId: number,
    address: string,
    sealedKey: Uint8Array
  ) => Effect.Effect<{ readonly address: string; readonly sealedKey: Uint8Array }, SqlError.SqlError>
  /** The balances of some (lower-case) addresses; those never seen are `Empty`. */
  readonly balances: (chainId: number, addresses: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, Balance>, SqlError.SqlError>
  /**
   * The balances of some (lower-case) addresses and their code hashes, in one query (what a
   * transaction's acceptance reads of its parties).
   *
   * @since 0.9.0
   */
  readonly parties: (chainId: number, addresses: ReadonlyArray<string>) => Effect.Effect<Parties, SqlError.SqlError>
  /**
   * An account of a pool that is not deleted, by lower-case address; with its account key on
   * `chainId` (`chainKey`) when given.
   */
  readonly account: (poolId: number, address: string, chainId?: number | undefined) => Effect.Effect<Option.Option<KeyRow>, SqlError.SqlError>
  /**
   * A fee-payer account of the member on the chain that is not deleted, by lower-case address; in
   * that fee-payer pool only when `poolId` is given.
   */
  readonly feePayer: (
    memberId: number,
    chainId: number,
    address: string,
    poolId: number | undefined
  ) => Effect.Effect<Option.Option<KeyRow>, SqlError.SqlError>
  readonly tip: (chainId: number) => Effect.Effect<Option.Option<Tip>, SqlError.SqlError>
  readonly bill: (memberId: number, chainId: number) => Effect.Effect<Bill, SqlError.SqlError>
  /**
   * Applies a write atomically: `true` when applied; `false`, with nothing written, when another
   * writer changed what was read (read again and retry).
   */
  readonly write: (write: Write) => Effect.Effect<boolean, SqlError.SqlError>
  /**
   * Balance, nonce and code of an address by chain and lower-case address, in one query (what a
   * contract run reads of each address it meets).
   *
   * @since 0.4.0
   */
  readonly state: (chainId: number, address: string) => Effect.Effect<AccountState, SqlError.SqlError>
  /**
   * The code of a contract by chain and lower-case address; `None` for an address without code.
   *
   * @since 0.4.0
   */
  readonly code: (chainId: number, address: string) => Effect.Effect<Option.Option<Uint8Array>, SqlError.SqlError>
  /**
   * A storage slot of a contract by chain, lower-case address and slot (`0x` + 64 hex digits);
   * `ZeroWord` when never written.
   *
   * @since 0.4.0
   */
  readonly storage: (chainId: number, address: string, slot: string) => Effect.Effect<string, SqlError.SqlError>
  /** A transaction by chain and lower-case hash. */
  readonly transaction: (chainId: number, hash: string) => Effect.Effect<Option.Option<TransactionRow>, SqlError.SqlError>
  /**
   * Whether the chain holds a lower-case address: a balance row (funded, sent from, sent to, paid
   * a fee) or code.
   *
   * @since 0.5.0
   */
  readonly exists: (chainId: number, address: string) => Effect.Effect<boolean, SqlError.SqlError>
  /**
   * The transactions of a block, in their order.
   *
   * @since 0.5.0
   */
  readonly blockTransactions: (chainId: number, blockNumber: number) => Effect.Effect<ReadonlyArray<TransactionRow>, SqlError.SqlError>
  /**
   * The time of the last block at or before `blockNumber` that holds transactions; `None` when
   * none does.
   *
   * @since 0.5.0
   */
  readonly blockTime: (chainId: number, blockNumber: number) => Effect.Effect<Option.Option<number>, SqlError.SqlError>
  /**
   * Every storage slot a contract holds (non-zero), by slot.
   *
   * @since 0.5.0
   */
  readonly storageOf: (
    chainId: number,
    address: string
  ) => Effect.Effect<ReadonlyArray<{ readonly slot: string; readonly value: string }>, SqlError.SqlError>
  /**
   * The pending pool of a chain in acceptance order; of one sender (lower case) only when given.
   *
   * @since 0.5.0
   */
  readonly pending: (chainId: number, sender?: string | undefined) => Effect.Effect<ReadonlyArray<PendingRow>, SqlError.SqlError>
  /**
   * A pending transaction by chain and lower-case hash.
   *
   * @since 0.5.0
   */
  readonly pendingTransaction: (chainId: number, hash: string) => Effect.Effect<Option.Option<PendingRow>, SqlError.SqlError>
  /**
   * The account key of an address (Klaytn's RLP form); none: the legacy key, the address's own.
   *
   * @since 0.5.0
   */
  readonly accountKey: (chainId: number, address: string) => Effect.Effect<Option.Option<Uint8Array>, SqlError.SqlError>
  /**
   * The public key of the wallet account at a (lower-case) address that is not deleted, as bytes
   * (uncompressed): the key KAS holds for it.
   *
   * @since 0.8.0
   */
  readonly heldPublicKey: (address: string) => Effect.Effect<Option.Option<Uint8Array>, SqlError.SqlError>
  /**
   * What the pending transactions may still cost each of some (lower-case) addresses, as sender
   * and as user fee payer; 0 for those with none.
   *
   * @since 0.5.0
   */
  readonly reserved: (chainId: number, addresses: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, bigint>, SqlError.SqlError>
  /**
   * The member's transactions on a chain whose fee the global fee payer paid (all or its ratio),
   * newest first (by `seq`).
   *
   * @since 0.5.0
   */
  readonly feeHistory: (query: FeeHistoryQuery) => Effect.Effect<ReadonlyArray<FeeRecordRow>, SqlError.SqlError>
  /** The bills of the global fee payer, by member and chain, oldest member first. */
  readonly bills: (filter: { readonly memberId?: number | undefined; readonly chainId?: number | undefined }) => Effect.Effect<
    ReadonlyArray<BillRow>,
    SqlError.SqlError
  >
}

/**
 * The ledger's queries, as a service.
 *
 * @since 0.2.0
 * @category tags
 */
export class LedgerStore extends Context.Tag("effect-kas-wallet-emulator/LedgerStore")<LedgerStore, Service>() {}

// libSQL returns BLOBs as ArrayBuffers.
const bytes = (u: unknown): Uint8Array =>
  u instanceof Uint8Array ? u : u instanceof ArrayBuffer ? new Uint8Array(u) : new Uint8Array(0)

const GUARD = "INSERT OR REPLACE INTO ledger_guard (id, ok) VALUES (1, changes())"

// The failures of a batch that mean another writer came first (libSQL's extended result codes).
const Conflicts: ReadonlySet<string> = new Set(["SQLITE_CONSTRAINT_CHECK", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"])

type Statement = { readonly sql: string; readonly args: Array<string | number | Uint8Array | null> }

type Condition = { readonly sql: string; readonly args: Array<string | number> }

// Conditions per statement: each takes at most 5 arguments, far below SQLite's limit of 32766.
const ConditionsPerCheck = 200

// Read checks are assertions of their own: the guard row takes the truth of the conditions, and
// its CHECK (ok = 1) fails the batch when one is false. Many conditions go in one statement (each
// statement of a batch costs about as much as a small query). An absent row compares as what
// absence means (Empty, no code, a zero slot).
const readChecks = (chainId: number, reads: Reads): Array<Statement> => {
  const conditions: Array<Condition> = [
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
      args: [chainId, s.address, s.slot, ZeroWord, s.value]
    }))
  ]
  const out: Array<Statement> = []
  for (let i = 0; i < conditions.length; i += ConditionsPerCheck) {
    const chunk = conditions.slice(i, i + ConditionsPerCheck)
    out.push({
      sql: `INSERT OR REPLACE INTO ledger_guard (id, ok) VALUES (1, ${chunk.map((c) => `(${c.sql})`).join(" AND ")})`,
      args: chunk.flatMap((c) => c.args)
    })
  }
  return out
}

// Unguarded: the batch runs in one write transaction, so the read checks before it already
// decided. Only a second creation at one address (its primary key) fails here.
const contractWrites = (chainId: number, c: Contracts): Array<Statement> => [
  ...c.destroyed.flatMap((address) => [
    { sql: "DELETE FROM contract_code WHERE chain_id = ? AND address = ?", args: [chainId, address] },
    { sql: "DELETE FROM contract_storage WHERE chain_id = ? AND address = ?", args: [chainId, address] }
  ]),
  ...c.code.map(({ address, code }) => ({
    sql: "INSERT INTO contract_code (chain_id, address, code_hash, code) VALUES (?, ?, ?, ?)",
    args: [chainId, address, codeHash(code), code]
  })),
  ...c.storage.map((s) =>
    s.value === ZeroWord
      ? { sql: "DELETE FROM contract_storage WHERE chain_id = ? AND address = ? AND slot = ?", args: [chainId, s.address, s.slot] }
      : {
        sql: `INSERT INTO contract_storage (chain_id, address, slot, value) VALUES (?, ?, ?, ?)
            ON CONFLICT (chain_id, address, slot) DO UPDATE SET value = excluded.value`,
        args: [chainId, s.address, s.slot, s.value]
      }
  )
]

interface RawPending {
  readonly seq: number
  readonly chainId: number
  readonly hash: string
  readonly sender: string
  readonly nonce: number
  readonly memberId: number
  readonly raw: unknown
  readonly payerKind: PayerKind
  readonly feePayer: string | null
  readonly senderReserve: string
  readonly feePayerReserve: string
  readonly acceptedMs: number
}

const pendingRow = (r: RawPending): PendingRow => ({
  ...r,
  raw: bytes(r.raw),
  feePayer: r.feePayer ?? undefined,
  senderReserve: BigInt(r.senderReserve),
  feePayerReserve: BigInt(r.feePayerReserve)
})

interface RawTransaction {
  readonly chainId: number
  readonly hash: string
  readonly sender: string
  readonly nonce: number
  readonly memberId: number
  readonly raw: unknown
  readonly blockNumber: number
  readonly blockTimeMs: number
  readonly transactionIndex: number
  readonly gasUsed: number
  readonly feePayer: string | null
  readonly payerKind: PayerKind
  readonly senderFee: string
  readonly feePayerFee: string
  readonly acceptedMs: number
  readonly txError: number | null
  readonly revertReason: string | null
  readonly contractAddress: string | null
  readonly logs: string | null
  readonly logIndex: number | null
}

// The columns of a transaction row, as `transactionRow` reads them.
const TransactionColumns = `chain_id AS "chainId", hash, sender, nonce, member_id AS "memberId", raw,
  block_number AS "blockNumber", block_time_ms AS "blockTimeMs", tx_index AS "transactionIndex",
  gas_used AS "gasUsed", fee_payer AS "feePayer", payer_kind AS "payerKind", sender_fee AS "senderFee",
  fee_payer_fee AS "feePayerFee", accepted_ms AS "acceptedMs", tx_error AS "txError",
  revert_reason AS "revertReason", contract_address AS "contractAddress", logs, log_index AS "logIndex"`

const transactionRow = (r: RawTransaction): TransactionRow => ({
  ...r,
  raw: bytes(r.raw),
  feePayer: r.feePayer ?? undefined,
  senderFee: BigInt(r.senderFee),
  feePayerFee: BigInt(r.feePayerFee),
  txError: r.txError ?? undefined,
  revertReason: r.revertReason ?? undefined,
  contractAddress: r.contractAddress ?? undefined,
  // Written by `write` from the same type: anything else is a broken row, a defect.
  logs: r.logs !== null ? (JSON.parse(r.logs) as ReadonlyArray<Log>) : undefined,
  logIndex: r.logIndex ?? undefined
})

/**
 * Builds the queries over the database of the context.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, SqlClient.SqlClient | Database.RawClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const raw = yield* Database.RawClient
  const lock = yield* Effect.makeSemaphore(1)

  const transactionColumns = sql.literal(TransactionColumns)

  // The reads every transaction's acceptance makes go to the client directly, as the writes do:
  // @effect/sql's compilation of the statement, its span and its connection semaphore cost about
  // 50 µs a query, as much as the query itself (docs/emulator.md, "Durability and speed").
  const read = <A>(text: string, args: Array<string | number>): Effect.Effect<ReadonlyArray<A>, SqlError.SqlError> =>
    Effect.tryPromise({
      try: () => raw.execute({ sql: text, args }),
      catch: (cause) => new SqlError.SqlError({ cause, message: "Failed to execute statement" })
    }).pipe(Effect.map((result) => result.rows as unknown as ReadonlyArray<A>))

  const keyRow = (
    rows: ReadonlyArray<
      { readonly address: string; readonly status: Store.Status; readonly key: unknown; readonly publicKey?: string; readonly chainKey?: unknown }
    >
  ) =>
    Option.map(Option.fromNullable(rows[0]), (r): KeyRow => ({
      address: r.address,
      status: r.status,
      sealedKey: bytes(r.key),
      ...(r.publicKey !== undefined ? { publicKey: r.publicKey } : {}),
      ...(r.chainKey !== undefined ? { chainKey: r.chainKey === null ? Option.none() : Option.some(bytes(r.chainKey)) } : {})
    }))

  const statements = (w: Write) => {
    const out: Array<Statement> = []
    const guarded = (sql: string, args: Array<string | number | Uint8Array | null>) => {
      out.push({ sql, args }, { sql: GUARD, args: [] })
    }
    // First, before this batch changes anything: what a contract run read must be what it saw.
    if (w.reads !== undefined) out.push(...readChecks(w.chainId, w.reads))
    if (w.genesisMs !== undefined) {
      guarded("UPDATE chains SET genesis_ms = ? WHERE chain_id = ? AND genesis_ms IS NULL", [w.genesisMs, w.chainId])
    }
    for (const b of w.balances) {
      // Inserted when absent, updated when still as read; otherwise no row changes and the guard
      // fails the batch. An absent row reads as Empty, so a row another writer created with
      // nothing in it still matches.
      guarded(
        `INSERT INTO ledger_accounts (chain_id, address, balance, nonce) VALUES (?, ?, ?, ?)
          ON CONFLICT (chain_id, address) DO UPDATE SET balance = excluded.balance, nonce = excluded.nonce
          WHERE balance = ? AND nonce = ?`,
        [w.chainId, b.address, b.write.balance.toString(), b.write.nonce, b.read.balance.toString(), b.read.nonce]
      )
    }
    if (w.bill !== undefined) {
      guarded(
        `INSERT INTO fee_bills (member_id, chain_id, fees, transactions) VALUES (?, ?, ?, ?)
          ON CONFLICT (member_id, chain_id) DO UPDATE SET fees = excluded.fees, transactions = excluded.transactions
          WHERE fees = ? AND transactions = ?`,
        [w.bill.memberId, w.chainId, w.bill.write.fees.toString(), w.bill.write.transactions, w.bill.read.fees.toString(), w.bill.read.transactions]
      )
    }
    if (w.contracts !== undefined) out.push(...contractWrites(w.chainId, w.contracts))
    if (w.minedBlock !== undefined) {
      guarded("UPDATE chains SET mined_block = ? WHERE chain_id = ? AND mined_block = ?", [w.minedBlock.write, w.chainId, w.minedBlock.read])
    }
    if (w.pool !== undefined) {
      guarded("UPDATE chains SET pool_version = pool_version + 1 WHERE chain_id = ? AND pool_version = ?", [w.chainId, w.pool.version])
      for (const hash of w.pool.remove ?? []) {
        guarded("DELETE FROM pending_transactions WHERE chain_id = ? AND hash = ?", [w.chainId, hash])
      }
      const p = w.pool.add
      if (p !== undefined) {
        // One pending transaction per (sender, nonce) and per hash: a second breaks a unique key.
        out.push({
          sql: `INSERT INTO pending_transactions (seq, chain_id, hash, sender, nonce, member_id, raw, payer_kind, fee_payer,
              sender_reserve, fee_payer_reserve, accepted_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          args: [
            p.seq ?? null,
            w.chainId,
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
    }
    const k = w.accountKey
    if (k !== undefined) {
      out.push({
        sql: `INSERT INTO account_keys (chain_id, address, key) VALUES (?, ?, ?)
          ON CONFLICT (chain_id, address) DO UPDATE SET key = excluded.key`,
        args: [w.chainId, k.address, k.key]
      })
      // The wallet's view of the account follows its key (a deleted account stays deleted; an
      // account disabled by its owner is not enabled by a legacy key).
      // The wallet account of this chain only: the other chain's ledger knows the address too.
      const onChain = "pool_id IN (SELECT id FROM pools WHERE chain_id = ?)"
      out.push({
        sql: k.status === "enabled"
          ? `UPDATE accounts SET status = 'enabled' WHERE address_lc = ? AND ${onChain} AND status = 'corrupted'`
          : `UPDATE accounts SET status = '${k.status}' WHERE address_lc = ? AND ${onChain} AND status IN ('enabled', 'disabled', 'corrupted')`,
        args: [k.address, w.chainId]
      })
      out.push({
        sql: `UPDATE accounts SET multisig = ?, updated_at = max(updated_at, ?) WHERE address_lc = ? AND ${onChain} AND status != 'deleted'`,
        args: [k.multisig ?? null, k.updatedAt, k.address, w.chainId]
      })
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

  const service: Service = {
    serialize: (self) => lock.withPermits(1)(self),

    chain: (chainId) =>
      sql<{
        readonly gasPrice: string
        readonly genesisMs: number | null
        readonly feePayer: string | null
        readonly feePayerKey: unknown
        readonly minedBlock: number
        readonly poolVersion: number
      }>`SELECT gas_price AS "gasPrice", genesis_ms AS "genesisMs", fee_payer_address AS "feePayer",
          fee_payer_key AS "feePayerKey", mined_block AS "minedBlock", pool_version AS "poolVersion"
          FROM chains WHERE chain_id = ${chainId}`.pipe(
        Effect.flatMap((rows) => {
          const row = rows[0]
          // Migration 0003 made a row for each chain the emulator serves.
          if (row === undefined) return Effect.fail(new SqlError.SqlError({ message: `no ledger for chain ${chainId}` }))
          return Effect.succeed<ChainRow>({
            chainId,
            gasPrice: BigInt(row.gasPrice),
            genesisMs: row.genesisMs ?? undefined,
            globalFeePayer: row.feePayer !== null ? { address: row.feePayer, sealedKey: bytes(row.feePayerKey) } : undefined,
            minedBlock: row.minedBlock,
            poolVersion: row.poolVersion
          })
        })
      ),

    setGlobalFeePayer: (chainId, address, sealedKey) =>
      Effect.zipRight(
        sql`UPDATE chains SET fee_payer_address = ${address}, fee_payer_key = ${sealedKey}
          WHERE chain_id = ${chainId} AND fee_payer_key IS NULL`,
        sql<{ readonly address: string; readonly key: unknown }>`SELECT fee_payer_address AS address, fee_payer_key AS key
          FROM chains WHERE chain_id = ${chainId}`
      ).pipe(Effect.map((rows) => ({ address: rows[0]!.address, sealedKey: bytes(rows[0]!.key) }))),

    balances: (chainId, addresses) =>
      addresses.length === 0
        ? Effect.succeed(new Map())
        : sql<{ readonly address: string; readonly balance: string; readonly nonce: number }>`SELECT address, balance, nonce
            FROM ledger_accounts WHERE chain_id = ${chainId} AND ${sql.in("address", addresses)}`.pipe(
            Effect.map((rows) => {
              const found = new Map<string, Balance>(addresses.map((a) => [a, Empty]))
              for (const r of rows) found.set(r.address, { balance: BigInt(r.balance), nonce: r.nonce })
              return found
            })
          ),

    parties: (chainId, addresses) =>
      addresses.length === 0 ? Effect.succeed({ balances: new Map(), codeHashes: new Map() }) : read<
        { readonly address: string; readonly balance: string | null; readonly nonce: number | null; readonly codeHash: string | null }
      >(
        `WITH parties (address) AS (VALUES ${addresses.map(() => "(?)").join(", ")})
        SELECT p.address, l.balance, l.nonce, c.code_hash AS "codeHash" FROM parties p
          LEFT JOIN ledger_accounts l ON l.chain_id = ? AND l.address = p.address
          LEFT JOIN contract_code c ON c.chain_id = ? AND c.address = p.address`,
        [...addresses, chainId, chainId]
      ).pipe(
        Effect.map((rows) => {
          const balances = new Map<string, Balance>()
          const codeHashes = new Map<string, string | undefined>()
          for (const r of rows) {
            balances.set(r.address, r.balance === null ? Empty : { balance: BigInt(r.balance), nonce: r.nonce! })
            codeHashes.set(r.address, r.codeHash ?? undefined)
          }
          return { balances, codeHashes }
        })
      ),

    account: (poolId, address, chainId) =>
      read<
        { readonly address: string; readonly status: Store.Status; readonly key: unknown; readonly publicKey: string; readonly chainKey?: unknown }
      >(
        `SELECT address, status, private_key AS key, public_key AS "publicKey"${
          chainId !== undefined ? `, (SELECT key FROM account_keys WHERE chain_id = ? AND address = ?) AS "chainKey"` : ""
        } FROM accounts WHERE pool_id = ? AND address_lc = ? AND status != 'deleted'`,
        [...(chainId !== undefined ? [chainId, address] : []), poolId, address]
      ).pipe(Effect.map(keyRow)),

    feePayer: (memberId, chainId, address, poolId) =>
      sql<{ readonly address: string; readonly status: Store.Status; readonly key: unknown }>`SELECT f.address, f.status,
          f.private_key AS key FROM feepayers f JOIN feepayer_pools p ON p.id = f.pool_id
          WHERE f.address_lc = ${address} AND f.status != 'deleted' AND p.member_id = ${memberId}
            AND p.chain_id = ${chainId} ${poolId !== undefined ? sql`AND p.id = ${poolId}` : sql``}`.pipe(Effect.map(keyRow)),

    tip: (chainId) =>
      read<Tip>(
        `SELECT block_number AS "blockNumber",
          count(*) AS count, coalesce(sum(json_array_length(logs)), 0) AS logs, max(block_time_ms) AS "blockTimeMs"
          FROM transactions WHERE chain_id = ?
            AND block_number = (SELECT max(block_number) FROM transactions WHERE chain_id = ?)
          GROUP BY block_number`,
        [chainId, chainId]
      ).pipe(Effect.map((rows) => Option.fromNullable(rows[0]))),

    bill: (memberId, chainId) =>
      read<{ readonly fees: string; readonly transactions: number }>(
        "SELECT fees, transactions FROM fee_bills WHERE member_id = ? AND chain_id = ?",
        [memberId, chainId]
      ).pipe(
        Effect.map((rows) => (rows[0] !== undefined ? { fees: BigInt(rows[0].fees), transactions: rows[0].transactions } : { fees: 0n, transactions: 0 }))
      ),

    write: (w) =>
      Effect.tryPromise({
        try: () => raw.batch(statements(w), "write").then(() => true),
        catch: (cause) => cause
      }).pipe(
        Effect.catchAll((cause) =>
          // A compare-and-set that found something else (the guard's CHECK), or a unique key
          // another writer took: a conflict. Anything else is a failure.
          Conflicts.has(String((cause as { code?: unknown }).code))
            ? Effect.succeed(false)
            : Effect.fail(new SqlError.SqlError({ cause, message: "Failed to write to the ledger" }))
        )
      ),

    state: (chainId, address) =>
      sql<{ readonly balance: string | null; readonly nonce: number | null; readonly code: unknown }>`SELECT
          (SELECT balance FROM ledger_accounts WHERE chain_id = ${chainId} AND address = ${address}) AS balance,
          (SELECT nonce FROM ledger_accounts WHERE chain_id = ${chainId} AND address = ${address}) AS nonce,
          (SELECT code FROM contract_code WHERE chain_id = ${chainId} AND address = ${address}) AS code`.pipe(
        Effect.map(([row]): AccountState => ({
          balance: BigInt(row?.balance ?? 0),
          nonce: row?.nonce ?? 0,
          code: row?.code === null || row?.code === undefined ? Option.none() : Option.some(bytes(row.code))
        }))
      ),

    code: (chainId, address) =>
      sql<{ readonly code: unknown }>`SELECT code FROM contract_code WHERE chain_id = ${chainId} AND address = ${address}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (r) => bytes(r.code)))
      ),

    storage: (chainId, address, slot) =>
      sql<{ readonly value: string }>`SELECT value FROM contract_storage
          WHERE chain_id = ${chainId} AND address = ${address} AND slot = ${slot}`.pipe(
        Effect.map((rows) => rows[0]?.value ?? ZeroWord)
      ),

    transaction: (chainId, hash) =>
      sql<RawTransaction>`SELECT ${transactionColumns} FROM transactions WHERE chain_id = ${chainId} AND hash = ${hash}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), transactionRow))
      ),

    exists: (chainId, address) =>
      sql<{ readonly found: number }>`SELECT
          EXISTS (SELECT 1 FROM ledger_accounts WHERE chain_id = ${chainId} AND address = ${address})
          OR EXISTS (SELECT 1 FROM contract_code WHERE chain_id = ${chainId} AND address = ${address}) AS found`.pipe(
        Effect.map((rows) => rows[0]?.found === 1)
      ),

    blockTransactions: (chainId, blockNumber) =>
      sql<RawTransaction>`SELECT ${transactionColumns} FROM transactions
        WHERE chain_id = ${chainId} AND block_number = ${blockNumber} ORDER BY tx_index`.pipe(
        Effect.map((rows) => rows.map(transactionRow))
      ),

    blockTime: (chainId, blockNumber) =>
      sql<{ readonly time: number | null }>`SELECT max(block_time_ms) AS time FROM transactions
        WHERE chain_id = ${chainId} AND block_number <= ${blockNumber}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0]?.time))
      ),

    storageOf: (chainId, address) =>
      sql<{ readonly slot: string; readonly value: string }>`SELECT slot, value FROM contract_storage
        WHERE chain_id = ${chainId} AND address = ${address} ORDER BY slot`,

    pending: (chainId, sender) =>
      sql<RawPending>`SELECT seq, chain_id AS "chainId", hash, sender, nonce, member_id AS "memberId", raw,
          payer_kind AS "payerKind", fee_payer AS "feePayer", sender_reserve AS "senderReserve",
          fee_payer_reserve AS "feePayerReserve", accepted_ms AS "acceptedMs"
        FROM pending_transactions WHERE chain_id = ${chainId} ${sender !== undefined ? sql`AND sender = ${sender}` : sql``}
        ORDER BY seq`.pipe(Effect.map((rows) => rows.map(pendingRow))),

    pendingTransaction: (chainId, hash) =>
      sql<RawPending>`SELECT seq, chain_id AS "chainId", hash, sender, nonce, member_id AS "memberId", raw,
          payer_kind AS "payerKind", fee_payer AS "feePayer", sender_reserve AS "senderReserve",
          fee_payer_reserve AS "feePayerReserve", accepted_ms AS "acceptedMs"
        FROM pending_transactions WHERE chain_id = ${chainId} AND hash = ${hash}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), pendingRow))
      ),

    heldPublicKey: (address) =>
      sql<{ readonly publicKey: string }>`SELECT public_key AS "publicKey" FROM accounts
          WHERE address_lc = ${address} AND status != 'deleted'`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (r) => new Uint8Array(Buffer.from(r.publicKey.slice(2), "hex"))))
      ),

    accountKey: (chainId, address) =>
      sql<{ readonly key: unknown }>`SELECT key FROM account_keys WHERE chain_id = ${chainId} AND address = ${address}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (r) => bytes(r.key)))
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
          ),

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
  }
  return service
})

/**
 * The ledger's queries over the database of the context.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer: Layer.Layer<LedgerStore, never, SqlClient.SqlClient | Database.RawClient> = Layer.effect(LedgerStore, make)
