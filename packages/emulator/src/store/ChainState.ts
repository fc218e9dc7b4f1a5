/**
 * The chain's state as the ledger stores it: each chain's settings (gas price, block clock, global
 * fee payer, mined block, pool version), balances and nonces, contracts' code and storage, account
 * keys, and the transactions in blocks with their receipts' facts.
 *
 * Amounts are peb as decimal text (they reach 2^256 - 1, beyond SQLite's integers).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.2.0
 * @internal
 */
import * as SqlError from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import { bytes, type Client } from "./LedgerClient.js"
import { type Balance, Empty, ZeroWord } from "./StateValues.js"

// The plain values shared with the EVM's worker live in a leaf module; they are the state's own.
export { type Balance, codeHash, Empty, ZeroWord } from "./StateValues.js"

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
 * An accepted transaction's columns as the database returns them (what `AcceptedRow` is read
 * from), for the rows of transactions in blocks and of the pending pool.
 *
 * @since 0.10.0
 * @category models
 */
export interface RawAccepted {
  readonly chainId: number
  readonly hash: string
  readonly sender: string
  readonly nonce: number
  readonly memberId: number
  readonly raw: unknown
  readonly payerKind: PayerKind
  readonly feePayer: string | null
  readonly acceptedMs: number
}

interface RawTransaction extends RawAccepted {
  readonly blockNumber: number
  readonly blockTimeMs: number
  readonly transactionIndex: number
  readonly gasUsed: number
  readonly senderFee: string
  readonly feePayerFee: string
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
 * The chain's state.
 *
 * @since 0.10.0
 * @category models
 */
export interface Queries {
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
  readonly tip: (chainId: number) => Effect.Effect<Option.Option<Tip>, SqlError.SqlError>
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
   * The account key of an address (Klaytn's RLP form); none: the legacy key, the address's own.
   *
   * @since 0.5.0
   */
  readonly accountKey: (chainId: number, address: string) => Effect.Effect<Option.Option<Uint8Array>, SqlError.SqlError>
}

/**
 * The chain-state queries over the ledger's clients.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = ({ read, sql }: Client): Queries => {
  const transactionColumns = sql.literal(TransactionColumns)
  return {
    // Read by every transaction's acceptance: straight to the database client (`read`).
    chain: (chainId) =>
      read<{
        readonly gasPrice: string
        readonly genesisMs: number | null
        readonly feePayer: string | null
        readonly feePayerKey: unknown
        readonly minedBlock: number
        readonly poolVersion: number
      }>(
        `SELECT gas_price AS "gasPrice", genesis_ms AS "genesisMs", fee_payer_address AS "feePayer",
          fee_payer_key AS "feePayerKey", mined_block AS "minedBlock", pool_version AS "poolVersion"
          FROM chains WHERE chain_id = ?`,
        [chainId]
      ).pipe(
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

    tip: (chainId) =>
      read<Tip>(
        `SELECT block_number AS "blockNumber",
          count(*) AS count, coalesce(sum(json_array_length(logs)), 0) AS logs, max(block_time_ms) AS "blockTimeMs"
          FROM transactions WHERE chain_id = ?
            AND block_number = (SELECT max(block_number) FROM transactions WHERE chain_id = ?)
          GROUP BY block_number`,
        [chainId, chainId]
      ).pipe(Effect.map((rows) => Option.fromNullable(rows[0]))),

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

    accountKey: (chainId, address) =>
      sql<{ readonly key: unknown }>`SELECT key FROM account_keys WHERE chain_id = ${chainId} AND address = ${address}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (r) => bytes(r.key)))
      )
  }
}
