/**
 * Every query of the emulator, over @effect/sql. Each write is a single statement, so it is atomic
 * and committed (durable, for a file database) before the caller answers; no transaction is
 * needed, which also keeps the libSQL client on one connection.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type * as SqlError from "@effect/sql/SqlError"
import { type Brand, Context, Effect, Layer, Option } from "effect"
import type { ChainId, Krn } from "effect-kas-wallet"
import type * as Database from "./Database.js"
import { bytes, make as ledgerClient } from "./LedgerClient.js"

/**
 * A member (a service account of the console).
 *
 * @since 0.1.0
 * @category models
 */
export interface MemberRow {
  readonly id: number
  readonly accountId: string
  readonly createdAt: number
}

/**
 * An API key: the salted hash of its secret, never the secret.
 *
 * @since 0.1.0
 * @category models
 */
export interface KeyRow {
  readonly accessKeyId: string
  readonly memberId: number
  readonly accountId: string
  readonly salt: Uint8Array
  readonly secretHash: Uint8Array
  readonly createdAt: number
}

/**
 * What a pool holds: accounts (`account-pool`) or fee-payer accounts (`feepayer-pool`). Each kind
 * has its own tables with the same columns, so every account query serves both.
 *
 * @since 0.2.0
 * @category models
 */
export type Kind = "account" | "feePayer"

/**
 * The state of an account. `corrupted`: an account update moved its key away from the key KAS
 * holds (KAS cannot sign for it). A deleted account keeps its row (without its key) so that storage
 * sequence numbers never repeat.
 *
 * @since 0.2.0
 * @category models
 */
export type Status = "enabled" | "disabled" | "corrupted" | "deleted"

/**
 * Which accounts a listing returns: one state, or `all` (every state but `deleted`).
 *
 * @since 0.2.0
 * @category models
 */
export type StatusFilter = "enabled" | "disabled" | "corrupted" | "all"

/**
 * A change of an account's state.
 *
 * @since 0.2.0
 * @category models
 */
export type Change = "disable" | "enable" | "delete"

/**
 * What a change did: the account's checksummed address and its new `updatedAt`, or why nothing
 * changed: `AlreadyDisabled` for a disable of anything but an enabled account of the pool (a
 * disabled, deleted or unknown one), `AlreadyEnabled` for an enable of anything but a disabled one,
 * `NotFound` for a delete of no account of the pool (or a deleted one).
 *
 * @since 0.2.0
 * @category models
 */
export type ChangeOutcome =
  | { readonly _tag: "Changed"; readonly address: string; readonly updatedAt: number }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "AlreadyDisabled" }
  | { readonly _tag: "AlreadyEnabled" }

/**
 * A pool (of accounts or of fee-payer accounts) of a member on one chain.
 *
 * @since 0.1.0
 * @category models
 */
export interface PoolRow {
  readonly id: number
  readonly memberId: number
  readonly chainId: number
  readonly name: string
  readonly createdAt: number
}

/**
 * What an account's JSON says of its pool, which the account's row does not hold.
 *
 * @since 0.1.0
 * @category models
 */
export interface PoolView {
  /** Which tables the pool's accounts live in. */
  readonly kind: Kind
  readonly chainId: number
  /** The pool's KRN, as text. */
  readonly krn: string
}

/**
 * The pool a request works on: a member's, on the request's chain; an account pool or a fee-payer
 * pool (`kind`). The services select it; the chain sends from its accounts and records its KRN.
 *
 * @since 0.1.0
 * @category models
 */
export interface SelectedPool {
  readonly id: number
  readonly memberId: number
  /** The member's account id, as in its KRNs. */
  readonly accountId: string
  readonly chainId: ChainId.ChainId
  readonly kind: Kind
  readonly krn: Krn.PoolKrn
}

/**
 * The JSON of a record exactly as the wire carries it (the encoded form of the client's schema
 * `What`: `Account` — an account or a fee-payer account —, `Key`, `KeyListItem`), written by the
 * database from the row (`json_object`) rather than encoded by the schema. Account pages pass it
 * through as it was read: a page of a thousand accounts would otherwise be decoded and encoded
 * again for every request (docs/emulator.md, "Durability and speed"). The brand says what it is
 * the JSON of, so that nothing else passes for it.
 *
 * @since 0.10.0
 * @category models
 */
export type Encoded<What extends string> = string & Brand.Brand<`Json<${What}>`>

/**
 * `Encoded` as UTF-8 bytes, as a page holds them.
 *
 * @since 0.10.0
 * @category models
 */
export type EncodedBytes<What extends string> = Uint8Array & Brand.Brand<`Json<${What}>`>

/**
 * A page of a listing.
 *
 * @since 0.1.0
 * @category models
 */
export interface Page {
  /** Each account's JSON as answered (see `Service.insertAccount`), in UTF-8, newest first. */
  readonly items: ReadonlyArray<EncodedBytes<"Account">>
  /** The position of the last item when more accounts follow it; `undefined` on the last page. */
  readonly next: Position | undefined
}

/**
 * A position in a listing: the last account of a page, in (createdAt, seq) order.
 *
 * @since 0.1.0
 * @category models
 */
export interface Position {
  readonly createdAt: number
  readonly seq: number
}

/**
 * What one page query asks for.
 *
 * @since 0.1.0
 * @category models
 */
export interface PageQuery {
  readonly poolId: number
  /** Only accounts strictly before this position (newest first); from the newest when absent. */
  readonly after: Position | undefined
  /** Only accounts with `seq` at most this (those that existed when the listing began). */
  readonly snapshot: number
  readonly from: number | undefined
  readonly to: number | undefined
  /** Items per page. */
  readonly size: number
  /** Which states are listed; deleted accounts never are. */
  readonly status: StatusFilter
}

/**
 * The new account to store.
 *
 * @since 0.1.0
 * @category models
 */
export interface NewAccount {
  readonly poolId: number
  readonly address: string
  readonly publicKey: string
  readonly keyHex: string
  readonly sealedPrivateKey: Uint8Array
  readonly createdAt: number
  /** Fee-payer accounts only: the create's `withoutAccountUpdate`. */
  readonly withoutAccountUpdate?: boolean | undefined
}

/**
 * A new key of the key service (`/v2/key`): the private key sealed, never plain.
 *
 * @since 0.5.0
 * @category models
 */
export interface NewWalletKey {
  /** `0x` + 64 lower-case hex digits: the part of the key id after the key pool KRN. */
  readonly keyHex: string
  /** Uncompressed, `0x04` + 128 hex digits. */
  readonly publicKey: string
  /** The opaque `blob` of the wire. */
  readonly blob: string
  readonly sealedPrivateKey: Uint8Array
  readonly createdAt: number
}

/**
 * A page of a key pool's listing: each key's list item JSON (`{keyId, krn, publicKey}`), newest
 * first, and the `seq` of the last one when more follow.
 *
 * @since 0.5.0
 * @category models
 */
export interface WalletKeyPage {
  readonly items: ReadonlyArray<EncodedBytes<"KeyListItem">>
  readonly next: number | undefined
}

/**
 * The queries.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** The value of a setting, storing `initial` first when there is none (first writer wins). */
  readonly setting: (name: string, initial: Uint8Array) => Effect.Effect<Uint8Array, SqlError.SqlError>
  /** A new member; `None` when the account id is taken. Its default pools come with it. */
  readonly insertMember: (accountId: string, createdAt: number) => Effect.Effect<Option.Option<MemberRow>, SqlError.SqlError>
  readonly findMember: (accountId: string) => Effect.Effect<Option.Option<MemberRow>, SqlError.SqlError>
  readonly listMembers: Effect.Effect<ReadonlyArray<MemberRow>, SqlError.SqlError>
  /**
   * Stores a key unless its member already has `limit` keys or the id is taken: `"inserted"`,
   * `"limit"` or `"exists"`. The check and the insert are one statement.
   */
  readonly insertKey: (
    key: Omit<KeyRow, "accountId">,
    limit: number
  ) => Effect.Effect<"inserted" | "limit" | "exists", SqlError.SqlError>
  readonly findKey: (accessKeyId: string) => Effect.Effect<Option.Option<KeyRow>, SqlError.SqlError>
  readonly listKeys: (memberId: number) => Effect.Effect<ReadonlyArray<KeyRow>, SqlError.SqlError>
  /** Whether a key of that member was deleted. */
  readonly deleteKey: (memberId: number, accessKeyId: string) => Effect.Effect<boolean, SqlError.SqlError>
  /** A new pool of a kind; `None` when the member has one of that kind and name on that chain. */
  readonly insertPool: (
    kind: Kind,
    memberId: number,
    chainId: number,
    name: string,
    createdAt: number
  ) => Effect.Effect<Option.Option<PoolRow>, SqlError.SqlError>
  readonly findPool: (
    kind: Kind,
    memberId: number,
    chainId: number,
    name: string
  ) => Effect.Effect<Option.Option<PoolRow>, SqlError.SqlError>
  readonly listPools: (kind: Kind, memberId: number, chainId?: number) => Effect.Effect<ReadonlyArray<PoolRow>, SqlError.SqlError>
  /**
   * Stores an account in the pool's tables; answers its JSON as the service sends it: the encoded
   * form of `Account.Account` (or `Account.FeePayerAccount`), fields in the same order, written by
   * the database from the row.
   */
  readonly insertAccount: (account: NewAccount, pool: PoolView) => Effect.Effect<Encoded<"Account">, SqlError.SqlError>
  /**
   * Stores an account registered under a key of the key service (`POST /v2/registration/account`)
   * unless its address already is an account or a fee-payer account — of any member, chain or
   * state, deleted ones included (their rows stay) —: its JSON as `insertAccount` answers it, or
   * `None`. One statement: the check and the insert are atomic.
   *
   * @since 0.8.0
   */
  readonly insertRegisteredAccount: (
    account: NewAccount,
    pool: PoolView
  ) => Effect.Effect<Option.Option<Encoded<"Account">>, SqlError.SqlError>
  /**
   * Whether a (lower-case) address is an account or a fee-payer account, of any member, chain or
   * state (deleted ones included).
   *
   * @since 0.8.0
   */
  readonly addressTaken: (addressLowerCase: string) => Effect.Effect<boolean, SqlError.SqlError>
  /** The JSON of the account of that (lower-case) address in that pool, unless deleted. */
  readonly findAccount: (
    poolId: number,
    addressLowerCase: string,
    pool: PoolView
  ) => Effect.Effect<Option.Option<{ readonly json: Encoded<"Account">; readonly status: Status }>, SqlError.SqlError>
  /**
   * The sealed private key of an account or fee-payer account that is not deleted, by address
   * (sealed with the lower-case address as context): for signing, the key vault's checks and tests.
   */
  readonly sealedPrivateKey: (addressLowerCase: string) => Effect.Effect<Option.Option<Uint8Array>, SqlError.SqlError>
  /** The largest `seq` so far of a kind of account (0 when there is none). */
  readonly lastSeq: (kind: Kind) => Effect.Effect<number, SqlError.SqlError>
  /** Up to `size` accounts, newest first, and whether more follow. */
  readonly page: (query: PageQuery, pool: PoolView) => Effect.Effect<Page, SqlError.SqlError>
  /**
   * Disables, enables or deletes the account of that (lower-case) address in that pool, moving
   * its `updatedAt` to `now` — never backwards. One statement: the state is checked and changed
   * at once. A deleted account loses its sealed key.
   */
  readonly changeStatus: (
    poolId: number,
    addressLowerCase: string,
    change: Change,
    now: number,
    kind: Kind
  ) => Effect.Effect<ChangeOutcome, SqlError.SqlError>
  /** The number of accounts of a pool that are not deleted. */
  readonly countPool: (poolId: number, kind: Kind) => Effect.Effect<number, SqlError.SqlError>
  /** The number of accounts (not fee-payer accounts) a member holds on a chain, deleted ones aside. */
  readonly countMember: (memberId: number, chainId: number) => Effect.Effect<number, SqlError.SqlError>
  /**
   * The checksummed addresses of a member's accounts (not fee-payer accounts) on a chain whose
   * public key is this one (uncompressed, lower case), deleted ones aside, oldest first.
   */
  readonly addressesOfPublicKey: (
    memberId: number,
    chainId: number,
    publicKey: string
  ) => Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
  /** The id of a member's key pool of that name on that chain. */
  readonly findKeyPool: (memberId: number, chainId: number, name: string) => Effect.Effect<Option.Option<number>, SqlError.SqlError>
  /**
   * Stores keys in a key pool, in one statement (all or none); answers each key's JSON as the
   * service sends it (`{blob, keyId, krn, publicKey}`), in order. `krn` is the pool's KRN text.
   */
  readonly insertWalletKeys: (
    poolId: number,
    krn: string,
    keys: ReadonlyArray<NewWalletKey>
  ) => Effect.Effect<ReadonlyArray<Encoded<"Key">>, SqlError.SqlError>
  /** The JSON of a key (`{blob, keyId, krn, publicKey}`) and its sealed private key. */
  readonly findWalletKey: (
    poolId: number,
    krn: string,
    keyHex: string
  ) => Effect.Effect<Option.Option<{ readonly json: Encoded<"Key">; readonly sealed: Uint8Array }>, SqlError.SqlError>
  /** Removes a key; whether there was one. */
  readonly deleteWalletKey: (poolId: number, keyHex: string) => Effect.Effect<boolean, SqlError.SqlError>
  /** The largest key `seq` so far (0 when none). */
  readonly lastWalletKeySeq: Effect.Effect<number, SqlError.SqlError>
  /** Up to `size` keys of a pool with `seq` below `before` and at most `snapshot`, newest first. */
  readonly walletKeyPage: (query: {
    readonly poolId: number
    readonly krn: string
    readonly before: number | undefined
    readonly snapshot: number
    readonly size: number
  }) => Effect.Effect<WalletKeyPage, SqlError.SqlError>
}

/**
 * The queries, as a service.
 *
 * @since 0.1.0
 * @category tags
 */
export class Store extends Context.Tag("effect-kas-wallet-emulator/Store")<Store, Service>() {}

const OPEN_BRACE = 0x7b

// The tables of each kind. Identifiers, never input.
const tables: Record<Kind, { readonly pools: string; readonly accounts: string }> = {
  account: { pools: "pools", accounts: "accounts" },
  feePayer: { pools: "feepayer_pools", accounts: "feepayers" }
}

interface Changed {
  readonly address: string
  readonly updatedAt: number
}

interface RawKey {
  readonly accessKeyId: string
  readonly memberId: number
  readonly accountId: string
  readonly salt: unknown
  readonly secretHash: unknown
  readonly createdAt: number
}
const toKeyRow = (r: RawKey): KeyRow => ({ ...r, salt: bytes(r.salt), secretHash: bytes(r.secretHash) })

/**
 * Builds the queries over the `SqlClient` of the context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, SqlClient.SqlClient | Database.RawClient> = Effect.gen(function*() {
  const { read, sql } = yield* ledgerClient
  const first = <A>(rows: ReadonlyArray<A>): Option.Option<A> => Option.fromNullable(rows[0])

  const memberColumns = sql`id, account_id AS "accountId", created_at AS "createdAt"`
  const poolColumns = sql`id, member_id AS "memberId", chain_id AS "chainId", name, created_at AS "createdAt"`
  // An account's JSON exactly as `JSON.stringify` of `Schema.encode(Account.Account)` writes it
  // (test/emulator/wire.test.ts compares them byte for byte), written by SQLite: the libSQL client
  // costs about a microsecond for every value it reads, so a 1000-account page read as one string
  // per account costs a fraction of seven columns decoded and encoded again. chainId is cast: a
  // bound JavaScript number reaches SQLite as a REAL, which json_object writes as 1001.0.
  const plainAccountJson = (pool: PoolView) =>
    sql`json_object('address', address, 'chainId', CAST(${pool.chainId} AS INTEGER), 'createdAt', created_at,
      'updatedAt', updated_at, 'keyId', ${`${pool.krn}:`} || key_hex, 'krn', ${pool.krn}, 'publicKey', public_key)`
  // A multisig account's JSON ends with its keys and threshold (json_patch appends them, in the
  // schema's order); fee-payer accounts are never multisig.
  const accountJson = (pool: PoolView) =>
    pool.kind === "account"
      ? sql`CASE WHEN multisig IS NULL THEN ${plainAccountJson(pool)} ELSE json_patch(${plainAccountJson(pool)}, multisig) END`
      : plainAccountJson(pool)
  // A key of the key service exactly as the service answers it: blob, keyId, krn, publicKey.
  const walletKeyJson = (krn: string) =>
    sql`json_object('blob', blob, 'keyId', ${`${krn}:`} || key_hex, 'krn', ${krn}, 'publicKey', public_key)`
  const keyColumnsText = `k.access_key_id AS "accessKeyId", k.member_id AS "memberId", m.account_id AS "accountId",
    k.salt, k.secret_hash AS "secretHash", k.created_at AS "createdAt"`
  const keyColumns = sql.literal(keyColumnsText)

  // Every authenticated request reads its key: straight to the database client, as the ledger's
  // reads (LedgerClient's `read`: no statement compilation, span or semaphore).
  const findKey = (accessKeyId: string) =>
    read<RawKey>(`SELECT ${keyColumnsText} FROM api_keys k JOIN members m ON m.id = k.member_id WHERE k.access_key_id = ?`, [accessKeyId])
      .pipe(Effect.map((rows) => Option.map(first(rows), toKeyRow)))

  const service: Service = {
    setting: (name, initial) =>
      Effect.zipRight(
        sql`INSERT INTO settings (name, value) VALUES (${name}, ${initial}) ON CONFLICT (name) DO NOTHING`,
        sql<{ readonly value: unknown }>`SELECT value FROM settings WHERE name = ${name}`
      ).pipe(Effect.map((rows) => bytes(rows[0]?.value))),

    insertMember: (accountId, createdAt) =>
      sql<MemberRow>`INSERT INTO members (account_id, created_at) VALUES (${accountId}, ${createdAt})
        ON CONFLICT (account_id) DO NOTHING RETURNING ${memberColumns}`.pipe(Effect.map(first)),

    findMember: (accountId) =>
      sql<MemberRow>`SELECT ${memberColumns} FROM members WHERE account_id = ${accountId}`.pipe(Effect.map(first)),

    listMembers: sql<MemberRow>`SELECT ${memberColumns} FROM members ORDER BY id`,

    insertKey: (key, limit) =>
      sql<{ readonly id: string }>`INSERT INTO api_keys (access_key_id, member_id, salt, secret_hash, created_at)
        SELECT ${key.accessKeyId}, ${key.memberId}, ${key.salt}, ${key.secretHash}, ${key.createdAt}
        WHERE (SELECT count(*) FROM api_keys WHERE member_id = ${key.memberId}) < ${limit}
        ON CONFLICT (access_key_id) DO NOTHING RETURNING access_key_id AS id`.pipe(
        Effect.flatMap((rows) =>
          rows.length > 0
            ? Effect.succeed("inserted" as const)
            : Effect.map(findKey(key.accessKeyId), (found) => (Option.isSome(found) ? "exists" as const : "limit" as const))
        )
      ),

    findKey,

    listKeys: (memberId) =>
      sql<RawKey>`SELECT ${keyColumns} FROM api_keys k JOIN members m ON m.id = k.member_id
        WHERE k.member_id = ${memberId} ORDER BY k.created_at, k.access_key_id`.pipe(Effect.map((rows) => rows.map(toKeyRow))),

    deleteKey: (memberId, accessKeyId) =>
      sql`DELETE FROM api_keys WHERE member_id = ${memberId} AND access_key_id = ${accessKeyId}
        RETURNING access_key_id`.pipe(Effect.map((rows) => rows.length > 0)),

    insertPool: (kind, memberId, chainId, name, createdAt) =>
      sql<PoolRow>`INSERT INTO ${sql(tables[kind].pools)} (member_id, chain_id, name, created_at)
        VALUES (${memberId}, ${chainId}, ${name}, ${createdAt})
        ON CONFLICT (member_id, chain_id, name) DO NOTHING RETURNING ${poolColumns}`.pipe(Effect.map(first)),

    findPool: (kind, memberId, chainId, name) =>
      sql<PoolRow>`SELECT ${poolColumns} FROM ${sql(tables[kind].pools)}
        WHERE member_id = ${memberId} AND chain_id = ${chainId} AND name = ${name}`.pipe(Effect.map(first)),

    listPools: (kind, memberId, chainId) =>
      chainId === undefined
        ? sql<PoolRow>`SELECT ${poolColumns} FROM ${sql(tables[kind].pools)} WHERE member_id = ${memberId}
            ORDER BY chain_id, id`
        : sql<PoolRow>`SELECT ${poolColumns} FROM ${sql(tables[kind].pools)}
            WHERE member_id = ${memberId} AND chain_id = ${chainId} ORDER BY id`,

    insertAccount: (a, pool) =>
      (pool.kind === "account"
        ? sql<{ readonly json: Encoded<"Account"> }>`INSERT INTO accounts
            (pool_id, address, address_lc, public_key, key_hex, private_key, created_at, updated_at)
            VALUES (${a.poolId}, ${a.address}, ${a.address.toLowerCase()}, ${a.publicKey}, ${a.keyHex},
              ${a.sealedPrivateKey}, ${a.createdAt}, ${a.createdAt})
            RETURNING ${accountJson(pool)} AS json`
        : sql<{ readonly json: Encoded<"Account"> }>`INSERT INTO feepayers
            (pool_id, address, address_lc, public_key, key_hex, private_key, created_at, updated_at, without_account_update)
            VALUES (${a.poolId}, ${a.address}, ${a.address.toLowerCase()}, ${a.publicKey}, ${a.keyHex},
              ${a.sealedPrivateKey}, ${a.createdAt}, ${a.createdAt}, ${a.withoutAccountUpdate === true ? 1 : 0})
            RETURNING ${accountJson(pool)} AS json`).pipe(Effect.map((rows) => rows[0]!.json)),

    insertRegisteredAccount: (a, pool) =>
      sql<{ readonly json: Encoded<"Account"> }>`INSERT INTO accounts
          (pool_id, address, address_lc, public_key, key_hex, private_key, created_at, updated_at)
          SELECT ${a.poolId}, ${a.address}, ${a.address.toLowerCase()}, ${a.publicKey}, ${a.keyHex},
            ${a.sealedPrivateKey}, ${a.createdAt}, ${a.createdAt}
          WHERE NOT EXISTS (SELECT 1 FROM feepayers WHERE address_lc = ${a.address.toLowerCase()})
          ON CONFLICT (address_lc) DO NOTHING
          RETURNING ${accountJson(pool)} AS json`.pipe(Effect.map((rows) => Option.map(first(rows), (r) => r.json))),

    addressTaken: (addressLowerCase) =>
      sql<{ readonly n: number }>`SELECT (SELECT count(*) FROM accounts WHERE address_lc = ${addressLowerCase})
          + (SELECT count(*) FROM feepayers WHERE address_lc = ${addressLowerCase}) AS n`.pipe(
        Effect.map((rows) => (rows[0]?.n ?? 0) > 0)
      ),

    findAccount: (poolId, addressLowerCase, pool) =>
      sql<{ readonly json: Encoded<"Account">; readonly status: Status }>`SELECT ${accountJson(pool)} AS json, status FROM ${sql(tables[pool.kind].accounts)}
        WHERE address_lc = ${addressLowerCase} AND pool_id = ${poolId} AND status != 'deleted'`.pipe(
        Effect.map((rows) => first(rows))
      ),

    sealedPrivateKey: (addressLowerCase) =>
      sql<{ readonly key: unknown }>`SELECT private_key AS key FROM accounts
          WHERE address_lc = ${addressLowerCase} AND status != 'deleted'
        UNION ALL SELECT private_key FROM feepayers WHERE address_lc = ${addressLowerCase} AND status != 'deleted'`.pipe(
        Effect.map((rows) => Option.map(first(rows), (r) => bytes(r.key)))
      ),

    lastSeq: (kind) =>
      sql<{ readonly seq: number | null }>`SELECT max(seq) AS seq FROM ${sql(tables[kind].accounts)}`.pipe(
        Effect.map((rows) => rows[0]?.seq ?? 0)
      ),

    changeStatus: (poolId, addressLowerCase, change, now, kind) => {
      const table = sql(tables[kind].accounts)
      const where = sql`pool_id = ${poolId} AND address_lc = ${addressLowerCase}`
      // The state is checked in the UPDATE itself: of two concurrent disables, one wins. max()
      // keeps updatedAt from going backwards when the clock does.
      const update = change === "delete"
        ? sql<Changed>`UPDATE ${table} SET status = 'deleted', private_key = X'', updated_at = max(updated_at, ${now})
            WHERE ${where} AND status != 'deleted' RETURNING address, updated_at AS "updatedAt"`
        : change === "disable"
        ? sql<Changed>`UPDATE ${table} SET status = 'disabled', updated_at = max(updated_at, ${now})
            WHERE ${where} AND status = 'enabled' RETURNING address, updated_at AS "updatedAt"`
        : sql<Changed>`UPDATE ${table} SET status = 'enabled', updated_at = max(updated_at, ${now})
            WHERE ${where} AND status = 'disabled' RETURNING address, updated_at AS "updatedAt"`
      return Effect.map(update, (rows): ChangeOutcome => {
        const changed = rows[0]
        if (changed !== undefined) return { _tag: "Changed", address: changed.address, updatedAt: changed.updatedAt }
        // As the service (its live integration tests, its messages "account has been already
        // deleted or disabled/enabled"): a disable or enable that changes nothing is "already",
        // whatever the reason, an address it never held included; only a delete is "not found".
        return change === "disable"
          ? { _tag: "AlreadyDisabled" }
          : change === "enable"
          ? { _tag: "AlreadyEnabled" }
          : { _tag: "NotFound" }
      })
    },

    countPool: (poolId, kind) =>
      sql<{ readonly n: number }>`SELECT count(*) AS n FROM ${sql(tables[kind].accounts)}
        WHERE pool_id = ${poolId} AND status != 'deleted'`.pipe(Effect.map((rows) => rows[0]?.n ?? 0)),

    // Both walk the listing index of each of the member's pools (the status is in it).
    countMember: (memberId, chainId) =>
      sql<{ readonly n: number }>`SELECT count(*) AS n FROM accounts
        WHERE pool_id IN (SELECT id FROM pools WHERE member_id = ${memberId} AND chain_id = ${chainId})
          AND status != 'deleted'`.pipe(Effect.map((rows) => rows[0]?.n ?? 0)),

    addressesOfPublicKey: (memberId, chainId, publicKey) =>
      sql<{ readonly address: string }>`SELECT a.address FROM accounts a JOIN pools p ON p.id = a.pool_id
        WHERE a.public_key = ${publicKey} AND p.member_id = ${memberId} AND p.chain_id = ${chainId}
          AND a.status != 'deleted'
        ORDER BY a.seq`.pipe(Effect.map((rows) => rows.map((r) => r.address))),

    findKeyPool: (memberId, chainId, name) =>
      sql<{ readonly id: number }>`SELECT id FROM key_pools
        WHERE member_id = ${memberId} AND chain_id = ${chainId} AND name = ${name}`.pipe(
        Effect.map((rows) => Option.map(first(rows), (r) => r.id))
      ),

    insertWalletKeys: (poolId, krn, keys) =>
      keys.length === 0
        ? Effect.succeed([])
        : sql<{ readonly seq: number; readonly json: Encoded<"Key"> }>`INSERT INTO wallet_keys (pool_id, key_hex, public_key, blob, private_key, created_at)
            VALUES ${
          sql.csv(keys.map((k) => sql`(${poolId}, ${k.keyHex}, ${k.publicKey}, ${k.blob}, ${k.sealedPrivateKey}, ${k.createdAt})`))
        }
            RETURNING seq, ${walletKeyJson(krn)} AS json`.pipe(
          Effect.map((rows) => [...rows].sort((a, b) => a.seq - b.seq).map((r) => r.json))
        ),

    findWalletKey: (poolId, krn, keyHex) =>
      sql<{ readonly json: Encoded<"Key">; readonly sealed: unknown }>`SELECT ${walletKeyJson(krn)} AS json, private_key AS sealed
        FROM wallet_keys WHERE pool_id = ${poolId} AND key_hex = ${keyHex}`.pipe(
        Effect.map((rows) => Option.map(first(rows), (r) => ({ json: r.json, sealed: bytes(r.sealed) })))
      ),

    deleteWalletKey: (poolId, keyHex) =>
      sql`DELETE FROM wallet_keys WHERE pool_id = ${poolId} AND key_hex = ${keyHex} RETURNING seq`.pipe(
        Effect.map((rows) => rows.length > 0)
      ),

    lastWalletKeySeq: sql<{ readonly seq: number | null }>`SELECT max(seq) AS seq FROM wallet_keys`.pipe(
      Effect.map((rows) => rows[0]?.seq ?? 0)
    ),

    walletKeyPage: (q) =>
      sql<{ readonly seq: number; readonly json: string }>`SELECT seq, json_object('keyId', ${`${q.krn}:`} || key_hex,
          'krn', ${q.krn}, 'publicKey', public_key) AS json
        FROM wallet_keys WHERE pool_id = ${q.poolId} AND seq <= ${q.snapshot}
          ${q.before !== undefined ? sql`AND seq < ${q.before}` : sql``}
        ORDER BY seq DESC LIMIT ${q.size + 1}`.pipe(
        Effect.map((rows): WalletKeyPage => {
          const count = Math.min(rows.length, q.size)
          const items = rows.slice(0, count).map((r) => Buffer.from(r.json, "utf8") as Uint8Array as EncodedBytes<"KeyListItem">)
          return { items, next: rows.length > q.size ? rows[count - 1]!.seq : undefined }
        })
      ),

    page: (q, pool) => {
      // Everything is an index range on (pool_id, created_at, seq, status): the start position
      // bounds created_at from above and the row-value comparison finishes the tie within one
      // second; the status is checked in the index, so accounts of other states cost no row read.
      // Keyset pagination over the filtered set: an account changing state during a listing is
      // listed or not by its state when its page is read, and nothing else moves.
      const conditions = [
        sql`pool_id = ${q.poolId}`,
        sql`seq <= ${q.snapshot}`,
        q.status === "all" ? sql`status != 'deleted'` : sql`status = ${q.status}`,
        ...(q.from !== undefined ? [sql`created_at >= ${q.from}`] : []),
        ...(q.to !== undefined ? [sql`created_at <= ${q.to}`] : []),
        ...(q.after !== undefined
          ? [sql`created_at <= ${q.after.createdAt}`, sql`(created_at, seq) < (${q.after.createdAt}, ${q.after.seq})`]
          : [])
      ]
      // One row more than the page tells whether anything remains. Each row is one value, the
      // bytes of "<createdAt>,<seq>,<json>": the libSQL client's cost per value read is most of a
      // page's, only the last item's position is ever needed, and bytes stay out of the
      // JavaScript heap (as strings, a page's accounts made the collector run every few pages).
      return sql<{ readonly r: unknown }>`SELECT CAST(created_at || ',' || seq || ',' || ${accountJson(pool)} AS BLOB) AS r
        FROM ${sql(tables[pool.kind].accounts)} WHERE ${sql.and(conditions)}
        ORDER BY created_at DESC, seq DESC LIMIT ${q.size + 1}`.pipe(
        Effect.map((rows): Page => {
          const count = Math.min(rows.length, q.size)
          const items = new Array<EncodedBytes<"Account">>(count)
          let position = ""
          for (let i = 0; i < count; i++) {
            const row = bytes(rows[i]!.r)
            // The JSON object starts at the first "{": the position before it is digits and commas.
            const start = row.indexOf(OPEN_BRACE)
            items[i] = row.subarray(start) as EncodedBytes<"Account">
            if (i === count - 1) position = Buffer.from(row.buffer, row.byteOffset, start).toString("latin1")
          }
          if (rows.length <= q.size) return { items, next: undefined }
          const [createdAt, seq] = position.split(",")
          return { items, next: { createdAt: Number(createdAt), seq: Number(seq) } }
        })
      )
    }
  }
  return service
})

/**
 * The queries over the `SqlClient` of the context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Store, never, SqlClient.SqlClient | Database.RawClient> = Layer.effect(Store, make)
