/**
 * The emulator's database schema, as @effect/sql migrations.
 *
 * Append new migrations; never edit one that has shipped (a database records which ids it ran).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

const initial = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Server-side values shared by every process on one database: the cursor signing key, the salt
  // and check value of the master key.
  yield* sql`CREATE TABLE settings (
    name TEXT PRIMARY KEY NOT NULL,
    value BLOB NOT NULL
  )`
  yield* sql`CREATE TABLE members (
    id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
  )`
  // Only a salted hash of the secret is kept (Credentials.ts).
  yield* sql`CREATE TABLE api_keys (
    access_key_id TEXT PRIMARY KEY NOT NULL,
    member_id INTEGER NOT NULL REFERENCES members(id),
    salt BLOB NOT NULL,
    secret_hash BLOB NOT NULL,
    created_at INTEGER NOT NULL
  )`
  yield* sql`CREATE INDEX api_keys_member ON api_keys(member_id)`
  yield* sql`CREATE TABLE pools (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members(id),
    chain_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (member_id, chain_id, name)
  )`
  // Every member has a default pool on each chain from the moment it exists. A trigger makes that
  // part of the member's single INSERT statement: atomic without a transaction.
  yield* sql`CREATE TRIGGER members_default_pools AFTER INSERT ON members BEGIN
    INSERT INTO pools (member_id, chain_id, name, created_at)
      VALUES (NEW.id, 8217, 'default', NEW.created_at), (NEW.id, 1001, 'default', NEW.created_at);
  END`
  // seq is the rowid: it grows with every insert and breaks ties between accounts created in the
  // same second. private_key is AES-256-GCM sealed (KeyVault.ts), never plain.
  yield* sql`CREATE TABLE accounts (
    seq INTEGER PRIMARY KEY,
    pool_id INTEGER NOT NULL REFERENCES pools(id),
    address TEXT NOT NULL,
    address_lc TEXT NOT NULL UNIQUE,
    public_key TEXT NOT NULL,
    key_hex TEXT NOT NULL,
    private_key BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  )`
  // Keyset pagination walks this index from a (created_at, seq) position: a page costs the same at
  // any depth.
  yield* sql`CREATE INDEX accounts_listing ON accounts(pool_id, created_at, seq)`
})

// Issue 12: account states, fee-payer pools and fee-payer accounts.
const lifecycle = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // enabled | disabled | corrupted | deleted. A deleted account keeps its row (its seq must never
  // be reused: listings' snapshots rely on seq growing) but loses its sealed key. 'corrupted' is a
  // state of the real service the emulator never enters; the listing filter accepts it.
  yield* sql`ALTER TABLE accounts ADD COLUMN status TEXT NOT NULL DEFAULT 'enabled'`
  // The listing index gains the status: a page filtered by state skips the accounts of other
  // states in the index, without reading their rows.
  yield* sql`DROP INDEX accounts_listing`
  yield* sql`CREATE INDEX accounts_listing ON accounts(pool_id, created_at, seq, status)`
  yield* sql`CREATE INDEX accounts_public_key ON accounts(public_key)`
  // Fee-payer pools and their accounts live in tables of their own: the names of fee-payer pools
  // repeat those of account pools ("default"), which pools' unique key forbids, and rebuilding
  // pools is out of reach (libSQL enforces foreign keys, and the migrations run in a transaction,
  // where they cannot be turned off).
  yield* sql`CREATE TABLE feepayer_pools (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members(id),
    chain_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (member_id, chain_id, name)
  )`
  yield* sql`INSERT INTO feepayer_pools (member_id, chain_id, name, created_at)
    SELECT id, 8217, 'default', created_at FROM members
    UNION ALL SELECT id, 1001, 'default', created_at FROM members`
  yield* sql`CREATE TRIGGER members_default_feepayer_pools AFTER INSERT ON members BEGIN
    INSERT INTO feepayer_pools (member_id, chain_id, name, created_at)
      VALUES (NEW.id, 8217, 'default', NEW.created_at), (NEW.id, 1001, 'default', NEW.created_at);
  END`
  // The same columns as accounts; without_account_update is what the create asked for (the
  // emulator has no chain to update the account on, but the transactions may want to know).
  yield* sql`CREATE TABLE feepayers (
    seq INTEGER PRIMARY KEY,
    pool_id INTEGER NOT NULL REFERENCES feepayer_pools(id),
    address TEXT NOT NULL,
    address_lc TEXT NOT NULL UNIQUE,
    public_key TEXT NOT NULL,
    key_hex TEXT NOT NULL,
    private_key BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'enabled',
    without_account_update INTEGER NOT NULL DEFAULT 0
  )`
  yield* sql`CREATE INDEX feepayers_listing ON feepayers(pool_id, created_at, seq, status)`
})

// Issue 13: the ledger of each chain — balances, nonces, transactions, the block clock, the global
// fee payer and its bills. Amounts are peb as decimal TEXT: they reach 2^256 - 1, far beyond
// SQLite's 64-bit integers, so every sum is made in JavaScript with bigint (LedgerStore.ts).
const ledger = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One row per chain. genesis_ms is set by the first transaction (block n ends at genesis_ms +
  // n × the block interval); the global fee payer's key is made when the emulator first starts on
  // this database, sealed like every private key, its address kept beside it in clear.
  yield* sql`CREATE TABLE chains (
    chain_id INTEGER PRIMARY KEY,
    gas_price TEXT NOT NULL,
    genesis_ms INTEGER,
    fee_payer_address TEXT,
    fee_payer_key BLOB
  )`
  // 25 ston: the gas price inside the signed RLP of the service's examples.
  yield* sql`INSERT INTO chains (chain_id, gas_price) VALUES (8217, '25000000000'), (1001, '25000000000')`
  // Any address, the member's or not: funding and receiving need no account of the wallet.
  // address is lower case.
  yield* sql`CREATE TABLE ledger_accounts (
    chain_id INTEGER NOT NULL,
    address TEXT NOT NULL,
    balance TEXT NOT NULL,
    nonce INTEGER NOT NULL,
    PRIMARY KEY (chain_id, address)
  ) WITHOUT ROWID`
  // Every transaction sent (never those signed with submit: false). raw is the signed transaction;
  // everything a receipt shows is decoded from it, the block fields aside. The unique keys are the
  // last line of defence against two writers: one nonce per sender, one position per block.
  yield* sql`CREATE TABLE transactions (
    seq INTEGER PRIMARY KEY,
    chain_id INTEGER NOT NULL,
    hash TEXT NOT NULL,
    sender TEXT NOT NULL,
    nonce INTEGER NOT NULL,
    member_id INTEGER NOT NULL REFERENCES members(id),
    raw BLOB NOT NULL,
    block_number INTEGER NOT NULL,
    block_time_ms INTEGER NOT NULL,
    tx_index INTEGER NOT NULL,
    gas_used INTEGER NOT NULL,
    fee_payer TEXT,
    payer_kind TEXT NOT NULL,
    sender_fee TEXT NOT NULL,
    fee_payer_fee TEXT NOT NULL,
    accepted_ms INTEGER NOT NULL,
    UNIQUE (chain_id, hash),
    UNIQUE (chain_id, sender, nonce),
    UNIQUE (chain_id, block_number, tx_index)
  )`
  // What the global fee payer paid for each member on each chain: the service's bill.
  yield* sql`CREATE TABLE fee_bills (
    member_id INTEGER NOT NULL REFERENCES members(id),
    chain_id INTEGER NOT NULL,
    fees TEXT NOT NULL,
    transactions INTEGER NOT NULL,
    PRIMARY KEY (member_id, chain_id)
  ) WITHOUT ROWID`
  // The assertion of a ledger write: `INSERT OR REPLACE INTO ledger_guard VALUES (1, changes())`
  // after each compare-and-set fails the whole batch when that statement changed no row.
  yield* sql`CREATE TABLE ledger_guard (
    id INTEGER PRIMARY KEY,
    ok INTEGER NOT NULL CHECK (ok = 1)
  )`
})

// Issue 18: contracts. Code and storage per chain, beside the balances and nonces of
// ledger_accounts (a contract's balance and nonce live there like any account's). Written only in
// the ledger's atomic batches (LedgerStore.ts), so a transaction's code, storage, balances and
// receipt commit together or not at all.
const contracts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // address is lower case; code_hash is keccak256 of code as 0x-hex, what a write checks when a
  // run read the code (comparing 32 bytes rather than the whole code). A rowid table: code reaches
  // 24 KB, too large for the rows of a WITHOUT ROWID table.
  yield* sql`CREATE TABLE contract_code (
    chain_id INTEGER NOT NULL,
    address TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    code BLOB NOT NULL,
    PRIMARY KEY (chain_id, address)
  )`
  // slot and value are 0x + 64 lower-case hex digits. A slot holding zero has no row: unset and
  // zero are one state, as in the EVM, and clearing a slot frees its row.
  yield* sql`CREATE TABLE contract_storage (
    chain_id INTEGER NOT NULL,
    address TEXT NOT NULL,
    slot TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (chain_id, address, slot)
  ) WITHOUT ROWID`
  // What a receipt of a contract transaction shows beyond its signed bytes: how the run ended
  // (tx_error, Klaytn's code; NULL when it succeeded, as for every transfer), the revert reason,
  // the created contract, and the logs as a JSON array of {address, topics, data} (read back
  // whole with the receipt, never searched). NULL for the rows of transfers.
  yield* sql`ALTER TABLE transactions ADD COLUMN tx_error INTEGER`
  yield* sql`ALTER TABLE transactions ADD COLUMN revert_reason TEXT`
  yield* sql`ALTER TABLE transactions ADD COLUMN contract_address TEXT`
  yield* sql`ALTER TABLE transactions ADD COLUMN logs TEXT`
  // The block-wide index of the transaction's first log (logIndex counts across a block).
  yield* sql`ALTER TABLE transactions ADD COLUMN log_index INTEGER`
})

// Issue 19: the pending pool of manual mining. A transaction accepted but not yet in a block waits
// here, whole (its signed bytes and who pays), until `mine` runs and applies it: the row leaves
// the pool in the same atomic batch that writes its state and receipt, so a SIGKILL never loses
// an accepted transaction nor applies half of one. seq is the acceptance order, the order a block
// holds them in. The reserves are what the transaction may cost its sender (value + its part of
// gas limit × price) and its user fee payer (that one's part), as decimal peb text: acceptance
// checks a balance against what is already reserved, so that whatever is accepted is affordable
// when mined. The unique keys keep one pending transaction per (sender, nonce) and per hash.
const pool = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE pending_transactions (
    seq INTEGER PRIMARY KEY,
    chain_id INTEGER NOT NULL,
    hash TEXT NOT NULL,
    sender TEXT NOT NULL,
    nonce INTEGER NOT NULL,
    member_id INTEGER NOT NULL REFERENCES members(id),
    raw BLOB NOT NULL,
    payer_kind TEXT NOT NULL,
    fee_payer TEXT,
    sender_reserve TEXT NOT NULL,
    fee_payer_reserve TEXT NOT NULL,
    accepted_ms INTEGER NOT NULL,
    UNIQUE (chain_id, hash),
    UNIQUE (chain_id, sender, nonce)
  )`
  // The reserves of a fee payer are summed by address.
  yield* sql`CREATE INDEX pending_fee_payer ON pending_transactions(chain_id, fee_payer)`
  // mined_block: the last block `mine` made (manual mining; 0: none). pool_version: bumped by
  // every change of the chain's pool, a compare-and-set that orders pool writes across processes
  // (two acceptances reserving from one fee payer cannot both pass on the same reading).
  yield* sql`ALTER TABLE chains ADD COLUMN mined_block INTEGER NOT NULL DEFAULT 0`
  yield* sql`ALTER TABLE chains ADD COLUMN pool_version INTEGER NOT NULL DEFAULT 0`
})

// The account key of each address the ledger saw updated (an absent row: the legacy key, the
// address's own). Account updates write it with the transaction that carries it.
const accountKeys = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE account_keys (
    chain_id INTEGER NOT NULL,
    address TEXT NOT NULL,
    key BLOB NOT NULL,
    PRIMARY KEY (chain_id, address)
  )`
})

// The key service (`/v2/key`): key pools per member and chain, each member with a `default` pool on
// both chains from the moment it exists (a trigger, as for account pools; members created before
// this migration get theirs here). seq only grows (AUTOINCREMENT): a deleted key's row is removed,
// and a listing cursor's position must never be taken by a newer key. private_key is sealed
// (KeyVault.ts) with the key id as context; blob is an opaque handle, no key material.
const keys = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE key_pools (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members(id),
    chain_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (member_id, chain_id, name)
  )`
  yield* sql`INSERT INTO key_pools (member_id, chain_id, name, created_at)
    SELECT id, 8217, 'default', created_at FROM members UNION ALL SELECT id, 1001, 'default', created_at FROM members`
  yield* sql`CREATE TRIGGER members_default_key_pools AFTER INSERT ON members BEGIN
    INSERT INTO key_pools (member_id, chain_id, name, created_at)
      VALUES (NEW.id, 8217, 'default', NEW.created_at), (NEW.id, 1001, 'default', NEW.created_at);
  END`
  yield* sql`CREATE TABLE wallet_keys (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    pool_id INTEGER NOT NULL REFERENCES key_pools(id),
    key_hex TEXT NOT NULL,
    public_key TEXT NOT NULL,
    blob TEXT NOT NULL,
    private_key BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (pool_id, key_hex)
  )`
  yield* sql`CREATE INDEX wallet_keys_listing ON wallet_keys(pool_id, seq)`
})

// Issue 20: the fee-delegation history (`GET /v2/history/fd/tx`) lists a member's transactions the
// global fee payer paid for on a chain, newest first: an index for that listing.
const feeHistory = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX transactions_fee_history ON transactions(member_id, chain_id, payer_kind, seq)`
})

// Issue 20: multisig accounts. An account updated to a weighted multisig key shows its keys and
// threshold (`multisig`, the JSON object its account JSON is patched with; NULL otherwise), set
// with the key by the ledger's write. Its transactions wait in multisig_transactions until the
// weights of their signatures reach the threshold: tx is the unsigned transaction (its SigRLP),
// signers the weighted keys at creation ([{publicKey (compressed hex), address, weight}]),
// signatures those collected so far ([{publicKey, v, r, s}]); state pending | submitted | dropped;
// version is the compare-and-set of every change. seq only grows (listings' snapshots rely on it).
const multisig = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN multisig TEXT`
  yield* sql`CREATE TABLE multisig_transactions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    member_id INTEGER NOT NULL REFERENCES members(id),
    chain_id INTEGER NOT NULL,
    pool_krn TEXT NOT NULL,
    sender TEXT NOT NULL,
    nonce INTEGER NOT NULL,
    tx BLOB NOT NULL,
    payer_kind TEXT NOT NULL,
    fee_payer TEXT,
    fee_payer_pool_krn TEXT,
    signers TEXT NOT NULL,
    threshold INTEGER NOT NULL,
    signatures TEXT NOT NULL,
    state TEXT NOT NULL,
    transaction_hash TEXT,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  )`
  yield* sql`CREATE INDEX multisig_transactions_sender ON multisig_transactions(chain_id, sender, state)`
  yield* sql`CREATE INDEX multisig_transactions_listing ON multisig_transactions(member_id, chain_id, created_at, seq)`
})

/**
 * The migrations, by id.
 *
 * @since 0.1.0
 * @category migrations
 */
export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_initial": initial,
  "0002_lifecycle": lifecycle,
  "0003_ledger": ledger,
  "0004_contracts": contracts,
  "0005_pool": pool,
  "0006_account_keys": accountKeys,
  "0007_keys": keys,
  "0008_fee_history": feeHistory,
  "0009_multisig": multisig
}

/**
 * The loader for @effect/sql's Migrator.
 *
 * @since 0.1.0
 * @category migrations
 */
export const loader: Migrator.Loader = Migrator.fromRecord(migrations)

/**
 * Runs the pending migrations (in one transaction; a concurrent runner makes this a no-op).
 *
 * @since 0.1.0
 * @category migrations
 */
export const run = Migrator.make({})({ loader, table: "kas_emulator_migrations" })
