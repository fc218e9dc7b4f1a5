/**
 * The accounts service: authenticating a key, selecting a pool, and the operations on accounts
 * and fee-payer accounts, with the rules of the real service. Inputs arrive parsed (the routes
 * read the wire); answers are values (the client's records, or an account's JSON as the store
 * wrote it: `Store.Encoded`); failures are the domain's refusals (`Refusal`).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Clock, Context, Effect, Either, Layer, Option, type Redacted, Schema } from "effect"
import { Account, type Address, type ChainId, Krn } from "effect-kas-wallet"
import * as AccountKeys from "../chain/AccountKeys.js"
import * as ApiKeys from "../store/ApiKeys.js"
import * as Refusal from "../Refusal.js"
import * as KeyVault from "../store/KeyVault.js"
import * as Snapshots from "../store/Snapshots.js"
import * as Store from "../store/Store.js"
import * as Cursors from "./Cursors.js"
import type * as Keys from "./Keys.js"

/**
 * The authenticated member of a request.
 *
 * @since 0.1.0
 * @category models
 */
export interface Caller {
  readonly memberId: number
  readonly accountId: string
}

/**
 * The pool a request works on (`Store.SelectedPool`).
 *
 * @since 0.1.0
 * @category models
 */
export type SelectedPool = Store.SelectedPool

/**
 * A list request, its values already read and range-checked.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListRequest {
  /** Items per page, 1 to 1000. */
  readonly size: number
  /** `""` for the first page. */
  readonly cursor: string
  readonly from: number | undefined
  readonly to: number | undefined
  /** Which states are listed (`all` for fee-payer accounts, which are never disabled). */
  readonly status: Store.StatusFilter
}

/**
 * The wallet operations. Every account operation works on the selected pool, of either kind: the
 * fee-payer routes select fee-payer pools, the account routes account pools.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /**
   * The member owning a key; `None` when the key is unknown or the secret wrong (the two take the
   * same time).
   */
  readonly authenticate: (
    accessKeyId: string,
    secretAccessKey: Redacted.Redacted<string>
  ) => Effect.Effect<Option.Option<Caller>, SqlError.SqlError>
  /**
   * The pool of an `x-krn` value (the member's default pool of that kind when absent). A KRN that
   * is not one of the caller's pools of that kind on this chain is 400 `1061010`: no other
   * member's pool is ever selected.
   */
  readonly selectPool: (
    caller: Caller,
    chainId: ChainId.ChainId,
    krn: Option.Option<Krn.PoolKrn>,
    kind: Store.Kind
  ) => Effect.Effect<SelectedPool, Refusal.Refusal | SqlError.SqlError>
  /**
   * A new account in the pool, as its JSON: the encoded form of `Account.Account` (or
   * `Account.FeePayerAccount`), written from the stored row (`Store.Service.insertAccount`).
   * `withoutAccountUpdate` is recorded for fee-payer accounts.
   */
  readonly createAccount: (
    pool: SelectedPool,
    options?: { readonly withoutAccountUpdate?: boolean | undefined }
  ) => Effect.Effect<Store.Encoded<"Account">, SqlError.SqlError>
  /**
   * Takes an existing address into the pool as an account whose key is a key of the key service
   * (a registration): its private key sealed again, bound to the address, as every account's.
   * The account's JSON, or `None` when the address already is an account or fee-payer account of
   * the emulator (any member, chain or state).
   *
   * @since 0.8.0
   */
  readonly registerAccount: (
    pool: SelectedPool,
    account: { readonly address: Address.Address; readonly key: Keys.OpenedKey }
  ) => Effect.Effect<Option.Option<Store.Encoded<"Account">>, SqlError.SqlError>
  /**
   * Whether an address (any case) is an account or fee-payer account of the emulator, of any
   * member, chain or state.
   *
   * @since 0.8.0
   */
  readonly addressTaken: (address: string) => Effect.Effect<boolean, SqlError.SqlError>
  /**
   * The JSON of the account of an address in the pool (any case); `NotFound` (also when deleted),
   * `AccountCorrupted` when its key is no longer the one KAS holds.
   */
  readonly getAccount: (pool: SelectedPool, address: string) => Effect.Effect<Store.Encoded<"Account">, Refusal.Refusal | SqlError.SqlError>
  /** One page, newest first; a cursor that does not verify for this pool is `OutOfRange`. */
  readonly listAccounts: (pool: SelectedPool, request: ListRequest) => Effect.Effect<Page, Refusal.Refusal | SqlError.SqlError>
  /** Deletes an account of the pool; `NotFound` when unknown or deleted. */
  readonly deleteAccount: (
    pool: SelectedPool,
    address: string
  ) => Effect.Effect<Account.AccountStatus, Refusal.Refusal | SqlError.SqlError>
  /**
   * Disables (`enabled: false`) or enables an account of the pool: its address, pool and new
   * `updatedAt`. `AlreadyDisabled` when disabling anything but an enabled account of the pool (a
   * disabled, deleted or unknown one), `AlreadyEnabled` when enabling anything but a disabled one.
   */
  readonly setEnabled: (
    pool: SelectedPool,
    address: string,
    enabled: boolean
  ) => Effect.Effect<Account.AccountSummary, Refusal.Refusal | SqlError.SqlError>
  /** The member's accounts on the chain, in every account pool, deleted ones aside. */
  readonly accountCount: (caller: Caller, chainId: ChainId.ChainId) => Effect.Effect<Account.AccountCount, SqlError.SqlError>
  /** The accounts of the pool, deleted ones aside. */
  readonly poolAccountCount: (pool: SelectedPool) => Effect.Effect<Account.PoolAccountCount, SqlError.SqlError>
  /**
   * The member's accounts on the chain whose public key is `publicKey` (uncompressed, lower case),
   * deleted ones aside.
   */
  readonly accountsByPublicKey: (
    caller: Caller,
    chainId: ChainId.ChainId,
    publicKey: string
  ) => Effect.Effect<Account.PublicKeyAccounts, SqlError.SqlError>
}

/**
 * A page of accounts, each as its JSON in UTF-8 (see `Service.createAccount`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Page {
  readonly items: ReadonlyArray<Store.EncodedBytes<"Account">>
  /** `""` on the last page. */
  readonly cursor: string
}

/**
 * The accounts service of an emulator.
 *
 * @since 0.10.0
 * @category tags
 */
export class Accounts extends Context.Tag("effect-kas-wallet-emulator/Accounts")<Accounts, Service>() {}

const viewOf = (pool: SelectedPool): Store.PoolView => ({ kind: pool.kind, chainId: pool.chainId, krn: pool.krn.toString() })

const nowSeconds = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

/**
 * A small answer as the client's record, checked by its schema: what is answered is what the
 * client decodes, and a value that does not fit the contract is a defect (500), never a wrong
 * answer.
 */
const record = <A, I>(schema: Schema.Schema<A, I>, value: unknown): Effect.Effect<A> => Effect.orDie(Schema.decodeUnknown(schema)(value))

const defaultKrn = (kind: Store.Kind, chainId: ChainId.ChainId, accountId: string): Krn.PoolKrn =>
  // The account id was a valid KRN segment when the member was created.
  kind === "account"
    ? Either.getOrThrow(Krn.accountPool(chainId, accountId))
    : Either.getOrThrow(Krn.feePayerPool(chainId, accountId))

/**
 * Builds the accounts service over the store, key vault and cursors of the context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, Store.Store | KeyVault.KeyVault | Cursors.Cursors> = Effect.gen(function*() {
  const store = yield* Store.Store
  const vault = yield* KeyVault.KeyVault
  const cursors = yield* Cursors.Cursors

  // Pools are never deleted or renamed: a pool found once stays the same, and each request saves
  // a query (one of a create's three). Only found pools are kept (one may be created later), and
  // keys are never cached: a deleted key must fail at once, also when another process deleted it.
  const pools = new Map<string, SelectedPool>()
  // A revert may drop pools created since its snapshot: what was found is looked up again.
  yield* Snapshots.forgetOnRestore(pools)

  const changed = (outcome: Store.ChangeOutcome) => {
    switch (outcome._tag) {
      case "NotFound":
        return Effect.fail(new Refusal.NotFound({}))
      case "AlreadyDisabled":
        return Effect.fail(new Refusal.AlreadyDisabled())
      case "AlreadyEnabled":
        return Effect.fail(new Refusal.AlreadyEnabled())
      case "Changed":
        return Effect.succeed(outcome)
    }
  }

  const service: Service = {
    authenticate: (accessKeyId, secretAccessKey) =>
      Effect.map(store.findKey(accessKeyId), (found) => {
        const ok = Option.isSome(found)
          ? ApiKeys.verifySecret(secretAccessKey, found.value.salt, found.value.secretHash)
          : ApiKeys.verifyAgainstNothing(secretAccessKey)
        return ok && Option.isSome(found)
          ? Option.some({ memberId: found.value.memberId, accountId: found.value.accountId })
          : Option.none()
      }),

    selectPool: (caller, chainId, krn, kind) => {
      const type = kind === "account" ? Krn.AccountPoolType : Krn.FeePayerPoolType
      if (
        Option.isSome(krn) &&
        (krn.value.chainId !== chainId || krn.value.accountId !== caller.accountId || krn.value.resourceType !== type)
      ) {
        return Effect.fail(new Refusal.NotFound({ detail: "x-krn" }))
      }
      const name = Option.match(krn, { onNone: () => Krn.DefaultPoolName, onSome: (k) => k.resourceId })
      const cacheKey = `${kind}:${caller.memberId}:${chainId}:${name}`
      const cached = pools.get(cacheKey)
      if (cached !== undefined) return Effect.succeed(cached)
      return Effect.flatMap(store.findPool(kind, caller.memberId, chainId, name), (row) => {
        if (Option.isNone(row)) return Effect.fail(new Refusal.NotFound({ detail: "x-krn" }))
        const pool: SelectedPool = {
          id: row.value.id,
          memberId: caller.memberId,
          accountId: caller.accountId,
          chainId,
          kind,
          krn: Option.getOrElse(krn, () => defaultKrn(kind, chainId, caller.accountId))
        }
        pools.set(cacheKey, pool)
        return Effect.succeed(pool)
      })
    },

    createAccount: (pool, options) =>
      Effect.gen(function*() {
        const key = AccountKeys.generate()
        const createdAt = yield* nowSeconds
        return yield* store.insertAccount({
          poolId: pool.id,
          address: key.address,
          publicKey: key.publicKey,
          keyHex: key.keyHex,
          // Bound to the address: a sealed key copied onto another row does not open.
          sealedPrivateKey: vault.seal(key.privateKey, key.address.toLowerCase()),
          createdAt,
          withoutAccountUpdate: options?.withoutAccountUpdate
        }, viewOf(pool))
      }),

    registerAccount: (pool, { address, key }) =>
      Effect.flatMap(nowSeconds, (createdAt) =>
        store.insertRegisteredAccount({
          poolId: pool.id,
          address,
          publicKey: key.publicKey,
          keyHex: key.keyHex,
          // Bound to the address, as every account's key: the key service's copy stays its own.
          sealedPrivateKey: vault.seal(key.privateKey, address.toLowerCase()),
          createdAt
        }, viewOf(pool))),

    addressTaken: (address) => store.addressTaken(address.toLowerCase()),

    getAccount: (pool, address) =>
      Effect.flatMap(store.findAccount(pool.id, address.toLowerCase(), viewOf(pool)), (found): Effect.Effect<Store.Encoded<"Account">, Refusal.Refusal> =>
        Option.isNone(found)
          ? Effect.fail(new Refusal.NotFound({}))
          // KAS can no longer sign for a corrupted account: the service answers 1065102.
          : found.value.status === "corrupted"
          ? Effect.fail(new Refusal.AccountCorrupted({ address, use: "read" }))
          : Effect.succeed(found.value.json)),

    listAccounts: (pool, { cursor, from, size, status, to }) =>
      Effect.gen(function*() {
        const binding: Cursors.Binding = { memberId: pool.memberId, chainId: pool.chainId, poolId: pool.id, kind: pool.kind }
        const resumed = yield* cursors.resume(binding, cursor)
        const state: { readonly after: Store.Position | undefined; readonly snapshot: number } = Option.isSome(resumed)
          ? resumed.value
          : { after: undefined, snapshot: yield* store.lastSeq(pool.kind) }
        // The cursor is "" exactly when this page is the last (the store looks one account
        // ahead), so no request ever gets an empty trailing page.
        const page = yield* store.page(
          { poolId: pool.id, after: state.after, snapshot: state.snapshot, from, to, size, status },
          viewOf(pool)
        )
        const next = page.next === undefined
          ? ""
          : cursors.encode(binding, { after: page.next, snapshot: state.snapshot })
        return { items: page.items, cursor: next }
      }),

    deleteAccount: (pool, address) =>
      Effect.gen(function*() {
        const outcome = yield* store.changeStatus(pool.id, address.toLowerCase(), "delete", yield* nowSeconds, pool.kind)
        yield* changed(outcome)
        return { status: "deleted" } as const
      }),

    setEnabled: (pool, address, enabled) =>
      Effect.gen(function*() {
        const outcome = yield* store.changeStatus(
          pool.id,
          address.toLowerCase(),
          enabled ? "enable" : "disable",
          yield* nowSeconds,
          pool.kind
        )
        const { address: checksummed, updatedAt } = yield* changed(outcome)
        return yield* record(Account.AccountSummary, { address: checksummed, krn: pool.krn.toString(), updatedAt })
      }),

    accountCount: (caller, chainId) =>
      Effect.flatMap(store.countMember(caller.memberId, chainId), (count) =>
        record(Account.AccountCount, { accountId: caller.accountId, count })),

    poolAccountCount: (pool) =>
      Effect.flatMap(store.countPool(pool.id, pool.kind), (count) =>
        record(Account.PoolAccountCount, { accountId: pool.accountId, count, krn: pool.krn.toString() })),

    accountsByPublicKey: (caller, chainId, publicKey) =>
      Effect.flatMap(store.addressesOfPublicKey(caller.memberId, chainId, publicKey), (addresses) =>
        record(Account.PublicKeyAccounts, { items: addresses.map((address) => ({ address, chainId })) }))
  }
  return service
})

/**
 * The accounts service over the store, key vault and cursors of the context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Accounts, never, Store.Store | KeyVault.KeyVault | Cursors.Cursors> = Layer.effect(Accounts, make)
