/**
 * The console's part of the service: members, their API keys, their account pools and their
 * fee-payer pools.
 *
 * On the real service these are managed in a web console; the emulator offers them as library
 * operations (this module, and on the `Emulator` service) and as `kas-wallet emulator member|key|pool`
 * commands.
 *
 * Rules kept from the service: a member has at most 2 keys at a time (a third is refused until one
 * is deleted); a secret is returned once, at creation, and only its salted hash is stored; every
 * member has a `default` account pool and a `default` fee-payer pool on each chain from the start
 * (its first pools, hence its default ones); named pools are created per chain.
 *
 * @since 0.1.0
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Clock, Context, Data, Effect, Either, Layer, Option, Redacted, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { Address, Amount, type ChainId, Credentials, Krn } from "effect-kas-wallet"
import * as ApiKeys from "../store/ApiKeys.js"
import * as Database from "../store/Database.js"
import type { EmulatorError } from "../EmulatorError.js"
import * as LedgerStore from "../store/LedgerStore.js"
import * as Store from "../store/Store.js"

/**
 * Most API keys a member can hold at a time.
 *
 * @since 0.1.0
 * @category constants
 */
export const MaxKeysPerMember = 2

/**
 * A member: its account id (a UUID unless chosen otherwise) appears in every KRN of its resources.
 *
 * @since 0.1.0
 * @category models
 */
export interface Member {
  readonly accountId: string
  /** Unix seconds. */
  readonly createdAt: number
}

/**
 * An API key as listed: never its secret.
 *
 * @since 0.1.0
 * @category models
 */
export interface ApiKey {
  readonly accessKeyId: string
  readonly accountId: string
  /** Unix seconds. */
  readonly createdAt: number
}

/**
 * A key just created: the only time its secret and `Authorization` value can be read.
 *
 * @since 0.1.0
 * @category models
 */
export interface NewApiKey extends ApiKey {
  readonly secretAccessKey: Redacted.Redacted<string>
  /** `Basic base64(accessKeyId:secretAccessKey)`. */
  readonly authorization: Redacted.Redacted<string>
}

/**
 * A pool of either kind by its member, chain and name: what creating one takes.
 *
 * @since 0.10.0
 * @category models
 */
export interface NamedPool {
  readonly accountId: string
  readonly chainId: ChainId.ChainId
  readonly name: string
}

/**
 * An account pool.
 *
 * @since 0.1.0
 * @category models
 */
export interface Pool extends NamedPool {
  readonly krn: Krn.AccountPoolKrn
  /** Whether this is the member's default pool on its chain (used when no `x-krn` is sent). */
  readonly isDefault: boolean
  /** Unix seconds. */
  readonly createdAt: number
}

/**
 * A fee-payer pool: it holds the member's fee-payer accounts (`POST /v2/feepayer`). Every member
 * has a `default` one on each chain, used when a fee-payer request sends no `x-krn`.
 *
 * @since 0.2.0
 * @category models
 */
export interface FeePayerPool extends NamedPool {
  readonly krn: Krn.FeePayerPoolKrn
  /** Whether this is the member's default fee-payer pool on its chain (used when no `x-krn` is sent). */
  readonly isDefault: boolean
  /** Unix seconds. */
  readonly createdAt: number
}

/**
 * What the ledger of a chain holds for an address: its balance in peb and its next nonce (the
 * number of transactions it sent).
 *
 * @since 0.2.0
 * @category models
 */
export interface LedgerBalance {
  readonly chainId: ChainId.ChainId
  readonly address: Address.Address
  readonly balance: Amount.Peb
  readonly nonce: number
}

/**
 * What the global fee payer paid for a member's transactions on a chain (`/v2/tx/fd/value`): the
 * service pays first and bills the member later.
 *
 * @since 0.2.0
 * @category models
 */
export interface FeeBill {
  readonly accountId: string
  readonly chainId: ChainId.ChainId
  /** The chain's global fee payer, which signed and paid. */
  readonly feePayer: Address.Address
  /** The fees paid, in peb. */
  readonly fees: Amount.Peb
  /** How many transactions they were for. */
  readonly transactions: number
}

/**
 * Why a console operation was refused, with a closed set of reasons:
 *
 * - `MemberNotFound`: no member has that account id.
 * - `MemberExists`: a member already has that account id.
 * - `KeyLimit`: the member already has `MaxKeysPerMember` keys; delete one first.
 * - `KeyNotFound`: the member has no key with that id.
 * - `KeyExists`: that AccessKey ID is taken.
 * - `KeyMismatch`: the AccessKey ID exists with another secret (or for another member).
 * - `PoolExists`: the member already has a pool of that name on that chain.
 * - `InvalidInput`: an account id, key or pool name of the wrong form.
 *
 * @since 0.1.0
 * @category errors
 */
export class ConsoleError extends Data.TaggedError("ConsoleError")<{
  readonly reason:
    | "MemberNotFound"
    | "MemberExists"
    | "KeyLimit"
    | "KeyNotFound"
    | "KeyExists"
    | "KeyMismatch"
    | "PoolExists"
    | "InvalidInput"
  readonly message: string
}> {}

/**
 * The console operations.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** A new member, with its default pools of both kinds. `accountId` defaults to a fresh UUID. */
  readonly createMember: (options?: { readonly accountId?: string | undefined }) => Effect.Effect<Member, ConsoleError | SqlError.SqlError>
  readonly listMembers: Effect.Effect<ReadonlyArray<Member>, SqlError.SqlError>
  /** A new key with a generated id and secret (the secret is returned this once). */
  readonly createKey: (accountId: string) => Effect.Effect<NewApiKey, ConsoleError | SqlError.SqlError>
  /** Stores a key with a given id and secret (for fixed test credentials). */
  readonly registerKey: (key: {
    readonly accountId: string
    readonly accessKeyId: string
    readonly secretAccessKey: Redacted.Redacted<string>
  }) => Effect.Effect<ApiKey, ConsoleError | SqlError.SqlError>
  readonly listKeys: (accountId: string) => Effect.Effect<ReadonlyArray<ApiKey>, ConsoleError | SqlError.SqlError>
  readonly deleteKey: (accountId: string, accessKeyId: string) => Effect.Effect<void, ConsoleError | SqlError.SqlError>
  /** A new named account pool of a member on a chain. */
  readonly createPool: (pool: NamedPool) => Effect.Effect<Pool, ConsoleError | SqlError.SqlError>
  /** The member's pools, on one chain or on both. */
  readonly listPools: (accountId: string, chainId?: ChainId.ChainId) => Effect.Effect<ReadonlyArray<Pool>, ConsoleError | SqlError.SqlError>
  /** A new named fee-payer pool of a member on a chain (names as for account pools). */
  readonly createFeePayerPool: (pool: NamedPool) => Effect.Effect<FeePayerPool, ConsoleError | SqlError.SqlError>
  /** The member's fee-payer pools, on one chain or on both. */
  readonly listFeePayerPools: (accountId: string, chainId?: ChainId.ChainId) => Effect.Effect<ReadonlyArray<FeePayerPool>, ConsoleError | SqlError.SqlError>
  /**
   * Makes sure a key exists: when its id is unknown, registers it for the member `accountId`
   * (created if needed; a new member when absent); when it exists with the same secret, does
   * nothing; otherwise fails with `KeyMismatch`.
   */
  readonly ensureKey: (key: {
    readonly accessKeyId: string
    readonly secretAccessKey: Redacted.Redacted<string>
    readonly accountId?: string | undefined
  }) => Effect.Effect<ApiKey, ConsoleError | SqlError.SqlError>
  /**
   * Credits test value to any address on a chain (the wire API has no faucet): its new balance.
   * The address need not be an account of the wallet. A balance above 2^256 - 1 peb is refused.
   */
  readonly fund: (
    chainId: 8217 | 1001,
    address: Address.Address | string,
    amount: Amount.Peb | bigint
  ) => Effect.Effect<LedgerBalance, ConsoleError | SqlError.SqlError>
  /**
   * Whether an account or a fee-payer account of this database (not deleted) has this address:
   * what a console run against a database file checks before funding, so that funding the
   * database of another emulator than the running one is refused rather than done unseen.
   */
  readonly isWalletAddress: (address: Address.Address | string) => Effect.Effect<boolean, ConsoleError | SqlError.SqlError>
  /** The balance and next nonce of any address on a chain (0 and 0 for one never seen). */
  readonly balance: (
    chainId: 8217 | 1001,
    address: Address.Address | string
  ) => Effect.Effect<LedgerBalance, ConsoleError | SqlError.SqlError>
  /**
   * The global fee payer's bills: what it paid for each member on each chain, oldest member first;
   * one member's (`accountId`) or one chain's when asked. Members it never paid for are absent.
   */
  readonly feeBills: (filter?: {
    readonly accountId?: string | undefined
    readonly chainId?: 8217 | 1001 | undefined
  }) => Effect.Effect<ReadonlyArray<FeeBill>, ConsoleError | SqlError.SqlError>
}

/**
 * The console of an emulator's database.
 *
 * @since 0.1.0
 * @category tags
 */
export class Console extends Context.Tag("effect-kas-wallet-emulator/Console")<Console, Service>() {}

const invalid = (message: string) => new ConsoleError({ reason: "InvalidInput", message })

const now = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

// One shape for both kinds of pool: only the KRN's kind differs.
const poolOf = <K extends Krn.AccountPoolKrn | Krn.FeePayerPoolKrn>(
  krnOf: (chainId: ChainId.ChainId, accountId: string, name: string) => Either.Either<K, unknown>
) =>
(accountId: string, row: Store.PoolRow) => ({
  // Names and account ids were validated as KRN segments on the way in.
  krn: Either.getOrThrow(krnOf(row.chainId as ChainId.ChainId, accountId, row.name)),
  accountId,
  chainId: row.chainId as ChainId.ChainId,
  name: row.name,
  isDefault: row.name === Krn.DefaultPoolName,
  createdAt: row.createdAt
})

const toPool: (accountId: string, row: Store.PoolRow) => Pool = poolOf(Krn.accountPool)
const toFeePayerPool: (accountId: string, row: Store.PoolRow) => FeePayerPool = poolOf(Krn.feePayerPool)

const checkAccountId = (accountId: string) =>
  Either.isRight(Krn.accountPool(1001 as ChainId.ChainId, accountId)) && accountId.length <= 128
    ? Effect.void
    : Effect.fail(invalid(`account id must be 1 to 128 visible ASCII characters without ':' or ',', got ${JSON.stringify(accountId)}`))

const decodeAddress = Schema.decodeUnknownEither(Address.Address)

const checkAddress = (address: unknown) =>
  Either.match(decodeAddress(address), {
    onLeft: () =>
      Effect.fail(invalid(`an address is 0x followed by 40 hex digits, in one case or with its EIP-55 checksum, got ${JSON.stringify(address)}`)),
    onRight: Effect.succeed
  })

const checkChain = (chainId: number) =>
  chainId === 8217 || chainId === 1001 ? Effect.void : Effect.fail(invalid(`the chain is 8217 or 1001, got ${chainId}`))

/**
 * Builds the console over the `Store` and `LedgerStore` of the context.
 *
 * @since 0.1.0
 * @category constructors
 * @internal
 */
export const make: Effect.Effect<Service, never, Store.Store | LedgerStore.LedgerStore> = Effect.gen(function*() {
  const store = yield* Store.Store
  const ledger = yield* LedgerStore.LedgerStore

  const member = (accountId: string) =>
    Effect.flatMap(store.findMember(accountId), Option.match({
      onNone: () => Effect.fail(new ConsoleError({ reason: "MemberNotFound", message: `no member has the account id ${accountId}` })),
      onSome: Effect.succeed
    }))

  // A pool of either kind: its name checked as a KRN segment, refused when it exists.
  const insertPool = <P>(
    kind: Store.Kind,
    { accountId, chainId, name }: { readonly accountId: string; readonly chainId: ChainId.ChainId; readonly name: string },
    krnOf: (chainId: ChainId.ChainId, accountId: string, name: string) => Either.Either<Krn.Krn, unknown>,
    toPool: (accountId: string, row: Store.PoolRow) => P
  ) =>
    Effect.gen(function*() {
      const m = yield* member(accountId)
      const krn = krnOf(chainId, accountId, name)
      if (Either.isLeft(krn) || name.length > 128) {
        return yield* invalid(`a pool name must be 1 to 128 visible ASCII characters without ':' or ',', got ${JSON.stringify(name)}`)
      }
      const row = yield* store.insertPool(kind, m.id, chainId, name, yield* now)
      if (Option.isNone(row)) {
        return yield* new ConsoleError({ reason: "PoolExists", message: `the pool ${krn.right.toString()} exists already` })
      }
      return toPool(accountId, row.value)
    })

  const createMember: Service["createMember"] = (options) =>
    Effect.gen(function*() {
      const accountId = options?.accountId ?? randomUUID()
      yield* checkAccountId(accountId)
      const row = yield* store.insertMember(accountId, yield* now)
      if (Option.isNone(row)) {
        return yield* new ConsoleError({ reason: "MemberExists", message: `a member already has the account id ${accountId}` })
      }
      return { accountId, createdAt: row.value.createdAt }
    })

  const insertKey = (
    m: Store.MemberRow,
    accessKeyId: string,
    secret: Redacted.Redacted<string>
  ): Effect.Effect<ApiKey, ConsoleError | SqlError.SqlError> =>
    Effect.gen(function*() {
      const salt = ApiKeys.generateSalt()
      const createdAt = yield* now
      const outcome = yield* store.insertKey(
        { accessKeyId, memberId: m.id, salt, secretHash: ApiKeys.hashSecret(secret, salt), createdAt },
        MaxKeysPerMember
      )
      if (outcome === "limit") {
        return yield* new ConsoleError({
          reason: "KeyLimit",
          message: `member ${m.accountId} already has ${MaxKeysPerMember} API keys, the most it can hold; delete one first`
        })
      }
      if (outcome === "exists") {
        return yield* new ConsoleError({ reason: "KeyExists", message: `the AccessKey ID ${accessKeyId} is taken` })
      }
      return { accessKeyId, accountId: m.accountId, createdAt }
    })

  const registerKey: Service["registerKey"] = ({ accessKeyId, accountId, secretAccessKey }) =>
    Effect.gen(function*() {
      if (!ApiKeys.isAccessKeyId(accessKeyId)) {
        return yield* invalid("an AccessKey ID must be 1 to 128 visible ASCII characters without ':'")
      }
      if (!ApiKeys.isSecret(Redacted.value(secretAccessKey))) {
        return yield* invalid("a Secret AccessKey must be 1 to 256 characters without control characters")
      }
      return yield* insertKey(yield* member(accountId), accessKeyId, secretAccessKey)
    })

  const service: Service = {
    createMember,

    listMembers: Effect.map(store.listMembers, (rows) => rows.map(({ accountId, createdAt }) => ({ accountId, createdAt }))),

    createKey: (accountId) =>
      Effect.gen(function*() {
        const m = yield* member(accountId)
        const secretAccessKey = ApiKeys.generateSecret()
        const key = yield* insertKey(m, ApiKeys.generateAccessKeyId(), secretAccessKey)
        return { ...key, secretAccessKey, authorization: Credentials.authorization(key.accessKeyId, secretAccessKey) }
      }),

    registerKey,

    listKeys: (accountId) =>
      Effect.flatMap(member(accountId), (m) =>
        Effect.map(store.listKeys(m.id), (rows) =>
          rows.map(({ accessKeyId, createdAt }) => ({ accessKeyId, accountId, createdAt })))),

    deleteKey: (accountId, accessKeyId) =>
      Effect.flatMap(member(accountId), (m) =>
        Effect.flatMap(store.deleteKey(m.id, accessKeyId), (deleted) =>
          deleted
            ? Effect.void
            : Effect.fail(new ConsoleError({ reason: "KeyNotFound", message: `member ${accountId} has no key ${accessKeyId}` })))),

    createPool: (pool) => insertPool("account", pool, Krn.accountPool, toPool),

    listPools: (accountId, chainId) =>
      Effect.flatMap(member(accountId), (m) =>
        Effect.map(store.listPools("account", m.id, chainId), (rows) => rows.map((row) => toPool(accountId, row)))),

    createFeePayerPool: (pool) => insertPool("feePayer", pool, Krn.feePayerPool, toFeePayerPool),

    listFeePayerPools: (accountId, chainId) =>
      Effect.flatMap(member(accountId), (m) =>
        Effect.map(store.listPools("feePayer", m.id, chainId), (rows) => rows.map((row) => toFeePayerPool(accountId, row)))),

    ensureKey: ({ accessKeyId, accountId, secretAccessKey }) =>
      Effect.gen(function*() {
        const existing = yield* store.findKey(accessKeyId)
        if (Option.isSome(existing)) {
          const key = existing.value
          if (
            !ApiKeys.verifySecret(secretAccessKey, key.salt, key.secretHash) ||
            (accountId !== undefined && accountId !== key.accountId)
          ) {
            return yield* new ConsoleError({
              reason: "KeyMismatch",
              message: accountId !== undefined && accountId !== key.accountId
                ? `the AccessKey ID ${accessKeyId} belongs to another member`
                : `the AccessKey ID ${accessKeyId} exists with another secret`
            })
          }
          return { accessKeyId, accountId: key.accountId, createdAt: key.createdAt }
        }
        const owner = accountId === undefined
          ? yield* createMember()
          : yield* Effect.catchIf(
            member(accountId),
            (e) => e._tag === "ConsoleError" && e.reason === "MemberNotFound",
            () => createMember({ accountId })
          )
        return yield* registerKey({ accountId: owner.accountId, accessKeyId, secretAccessKey })
      }),

    fund: (chainId, address, amount) =>
      Effect.gen(function*() {
        yield* checkChain(chainId)
        const checked = yield* checkAddress(address)
        if (typeof amount !== "bigint" || amount < 0n || amount > Amount.MaxPeb) {
          return yield* invalid(`an amount is a whole number of peb from 0 to 2^256 - 1, got ${String(amount)}`)
        }
        const key = checked.toLowerCase()
        // Read, add, write only if unchanged: the emulator may be sending from this address in
        // another process (LedgerStore.ts). A conflict means it did: read again.
        const attempt = Effect.gen(function*() {
          const read = (yield* ledger.balances(chainId, [key])).get(key)!
          const balance = read.balance + amount
          if (balance > Amount.MaxPeb) {
            return yield* invalid(`${checked} would hold more than 2^256 - 1 peb on chain ${chainId}`)
          }
          const write = { balance, nonce: read.nonce }
          const applied = yield* ledger.write({ chainId, balances: [{ address: key, read, write }] })
          return applied ? Option.some(write) : Option.none()
        })
        const written = yield* ledger.serialize(Effect.repeat(attempt, { until: Option.isSome }))
        const { balance, nonce } = Option.getOrThrow(written)
        return { chainId: chainId as ChainId.ChainId, address: checked, balance: balance as Amount.Peb, nonce }
      }),

    isWalletAddress: (address) =>
      Effect.flatMap(checkAddress(address), (checked) => Effect.map(store.sealedPrivateKey(checked.toLowerCase()), Option.isSome)),

    balance: (chainId, address) =>
      Effect.gen(function*() {
        yield* checkChain(chainId)
        const checked = yield* checkAddress(address)
        const { balance, nonce } = (yield* ledger.balances(chainId, [checked.toLowerCase()])).get(checked.toLowerCase())!
        return { chainId: chainId as ChainId.ChainId, address: checked, balance: balance as Amount.Peb, nonce }
      }),

    feeBills: (filter) =>
      Effect.gen(function*() {
        if (filter?.chainId !== undefined) yield* checkChain(filter.chainId)
        const memberId = filter?.accountId !== undefined ? (yield* member(filter.accountId)).id : undefined
        const rows = yield* ledger.bills({ memberId, chainId: filter?.chainId })
        return rows.map((row): FeeBill => ({
          accountId: row.accountId,
          chainId: row.chainId as ChainId.ChainId,
          // A bill exists only once the global fee payer paid, so after it was made.
          feePayer: Either.getOrThrow(decodeAddress(row.feePayer)),
          fees: row.fees as Amount.Peb,
          transactions: row.transactions
        }))
      })
  }
  return service
})

/**
 * The console over the `Store` of the context.
 *
 * @since 0.1.0
 * @category layers
 * @internal
 */
export const layer: Layer.Layer<Console, never, Store.Store | LedgerStore.LedgerStore> = Layer.effect(Console, make)

/**
 * Where `layerDatabase` finds its database: `database` as in `EmulatorConfig.Options`, and the
 * token of a `libsql://` server.
 *
 * @since 0.1.0
 * @category models
 */
export interface DatabaseOptions extends Database.Options {}

/**
 * The console of a database, opened (and migrated) by the layer: for tools working on a database
 * without serving it, like the `kas-wallet emulator member|key|pool` commands.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerDatabase = (options: DatabaseOptions): Layer.Layer<Console, EmulatorError> =>
  layer.pipe(Layer.provide(Layer.merge(Store.layer, LedgerStore.layer)), Layer.provide(Database.layer(options)))

/**
 * Where a `database` option (as in `EmulatorConfig.Options`) puts the database: `File` with its
 * absolute path (a path or a `file:` URL, which opening creates when missing), `Memory` (private
 * or shared), `Remote` (a libSQL server, with `url` only when it carries no credentials, so that a
 * tool may print it), or `Invalid` with the reason. One reading of the option, the layers' own.
 *
 * @since 0.13.0
 * @category databases
 */
export const databaseLocation = (
  database: string
): { readonly _tag: "File"; readonly path: string } | { readonly _tag: "Memory" } | { readonly _tag: "Remote"; readonly url: string | undefined } | {
  readonly _tag: "Invalid"
  readonly reason: string
} =>
  Either.match(Database.parse(database), {
    onLeft: (e) => ({ _tag: "Invalid", reason: e.message }),
    onRight: (location) => {
      switch (location._tag) {
        case "File":
          return { _tag: "File", path: location.path }
        case "Ephemeral":
        case "SharedMemory":
          return { _tag: "Memory" }
        case "Remote":
          return { _tag: "Remote", url: Database.redactUrl(location.url) === location.url ? location.url : undefined }
      }
    }
  })

/**
 * Creates a member. See `Service.createMember`.
 *
 * @since 0.1.0
 * @category operations
 */
export const createMember = (options?: { readonly accountId?: string | undefined }) =>
  Effect.flatMap(Console, (c) => c.createMember(options))

/**
 * Lists the members.
 *
 * @since 0.1.0
 * @category operations
 */
export const listMembers = Effect.flatMap(Console, (c) => c.listMembers)

/**
 * Creates an API key for a member; the secret is returned this once.
 *
 * @since 0.1.0
 * @category operations
 */
export const createKey = (accountId: string) => Effect.flatMap(Console, (c) => c.createKey(accountId))

/**
 * Registers an API key with a given id and secret for a member.
 *
 * @since 0.1.0
 * @category operations
 */
export const registerKey = (key: Parameters<Service["registerKey"]>[0]) => Effect.flatMap(Console, (c) => c.registerKey(key))

/**
 * Lists a member's API keys (never their secrets).
 *
 * @since 0.1.0
 * @category operations
 */
export const listKeys = (accountId: string) => Effect.flatMap(Console, (c) => c.listKeys(accountId))

/**
 * Deletes an API key of a member.
 *
 * @since 0.1.0
 * @category operations
 */
export const deleteKey = (accountId: string, accessKeyId: string) =>
  Effect.flatMap(Console, (c) => c.deleteKey(accountId, accessKeyId))

/**
 * Creates a named account pool of a member on a chain.
 *
 * @since 0.1.0
 * @category operations
 */
export const createPool = (pool: NamedPool) => Effect.flatMap(Console, (c) => c.createPool(pool))

/**
 * Lists a member's account pools, on one chain or both.
 *
 * @since 0.1.0
 * @category operations
 */
export const listPools = (accountId: string, chainId?: ChainId.ChainId) =>
  Effect.flatMap(Console, (c) => c.listPools(accountId, chainId))

/**
 * Creates a named fee-payer pool of a member on a chain.
 *
 * @since 0.2.0
 * @category operations
 */
export const createFeePayerPool = (pool: NamedPool) => Effect.flatMap(Console, (c) => c.createFeePayerPool(pool))

/**
 * Lists a member's fee-payer pools, on one chain or both.
 *
 * @since 0.2.0
 * @category operations
 */
export const listFeePayerPools = (accountId: string, chainId?: ChainId.ChainId) =>
  Effect.flatMap(Console, (c) => c.listFeePayerPools(accountId, chainId))

/**
 * Credits test value to any address on a chain. See `Service.fund`.
 *
 * @since 0.2.0
 * @category operations
 */
export const fund = (chainId: 8217 | 1001, address: Address.Address | string, amount: Amount.Peb | bigint) =>
  Effect.flatMap(Console, (c) => c.fund(chainId, address, amount))

/**
 * The balance and next nonce of any address on a chain. See `Service.balance`.
 *
 * @since 0.2.0
 * @category operations
 */
export const balance = (chainId: 8217 | 1001, address: Address.Address | string) =>
  Effect.flatMap(Console, (c) => c.balance(chainId, address))

/**
 * The global fee payer's bills, by member and chain. See `Service.feeBills`.
 *
 * @since 0.2.0
 * @category operations
 */
export const feeBills = (filter?: Parameters<Service["feeBills"]>[0]) => Effect.flatMap(Console, (c) => c.feeBills(filter))
