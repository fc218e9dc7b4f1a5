/**
 * The wallet interface behind the HTTP routes: authenticating a key, selecting a pool, and the
 * account operations, with the rules of the real service. Inputs arrive parsed (Routes.ts reads
 * the wire); failures are `ApiError`s carrying the service's status and code.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet/emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import type { SqlError } from "@effect/sql"
import { Clock, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import type * as ChainId from "../ChainId.js"
import * as Krn from "../Krn.js"
import * as AccountKeys from "./AccountKeys.js"
import * as ApiError from "./ApiError.js"
import * as Credentials from "./Credentials.js"
import * as Cursor from "./Cursor.js"
import { EmulatorError } from "./EmulatorError.js"
import * as KeyVault from "./KeyVault.js"
import * as Store from "./Store.js"

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
 * The pool a request works on: the member's, on the request's chain.
 *
 * @since 0.1.0
 * @category models
 */
export interface SelectedPool {
  readonly id: number
  readonly memberId: number
  readonly chainId: ChainId.ChainId
  readonly krn: Krn.AccountPoolKrn
}

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
}

/**
 * The wallet operations.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** The member owning a key, or 401 `1010009` when the key is unknown or the secret wrong. */
  readonly authenticate: (credentials: Credentials.BasicCredentials) => Effect.Effect<Caller, ApiError.ApiError | SqlError.SqlError>
  /**
   * The pool of an `x-krn` value (the default pool when absent). A KRN that is not one of the
   * caller's pools on this chain is 400 `1061010`: no other member's pool is ever selected.
   */
  readonly selectPool: (
    caller: Caller,
    chainId: ChainId.ChainId,
    krn: Option.Option<Krn.AccountPoolKrn>
  ) => Effect.Effect<SelectedPool, ApiError.ApiError | SqlError.SqlError>
  /**
   * A new account in the pool, as its JSON: the encoded form of `Account.Account`, written from
   * the stored row (`Store.Service.insertAccount`).
   */
  readonly createAccount: (pool: SelectedPool) => Effect.Effect<string, SqlError.SqlError>
  /** The JSON of the account of an address in the pool (any case), or 400 `1061010`. */
  readonly getAccount: (pool: SelectedPool, address: string) => Effect.Effect<string, ApiError.ApiError | SqlError.SqlError>
  /** One page, newest first; a cursor that does not verify for this pool is 400 `1061615`. */
  readonly listAccounts: (pool: SelectedPool, request: ListRequest) => Effect.Effect<Page, ApiError.ApiError | SqlError.SqlError>
}

/**
 * A page of accounts, each as its JSON in UTF-8 (see `Service.createAccount`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Page {
  readonly items: ReadonlyArray<Uint8Array>
  /** `""` on the last page. */
  readonly cursor: string
}

/**
 * The wallet operations of an emulator.
 *
 * @since 0.1.0
 * @category tags
 */
export class Wallet extends Context.Tag("effect-kas-wallet/emulator/Wallet")<Wallet, Service>() {}

const viewOf = (pool: SelectedPool): Store.PoolView => ({ chainId: pool.chainId, krn: pool.krn.toString() })

/**
 * Builds the wallet operations over the store and key vault of the context. The cursor signing key
 * is created in the database on first use, so that every emulator sharing it accepts the cursors
 * of the others.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<Service, EmulatorError, Store.Store | KeyVault.KeyVault> = Effect.gen(function*() {
  const store = yield* Store.Store
  const vault = yield* KeyVault.KeyVault
  const cursorKey = Redacted.make(
    yield* Effect.mapError(
      store.setting("cursor_secret", new Uint8Array(randomBytes(32))),
      (cause) => new EmulatorError({ reason: "Database", message: "cannot read the cursor key of the database", cause })
    )
  )

  // Pools are never deleted or renamed: a pool found once stays the same, and each request saves
  // a query (one of a create's three). Only found pools are kept (one may be created later), and
  // keys are never cached: a deleted key must fail at once, also when another process deleted it.
  const pools = new Map<string, SelectedPool>()

  const service: Service = {
    authenticate: ({ accessKeyId, secretAccessKey }) =>
      Effect.flatMap(store.findKey(accessKeyId), (found) => {
        const ok = Option.isSome(found)
          ? Credentials.verifySecret(secretAccessKey, found.value.salt, found.value.secretHash)
          : Credentials.verifyAgainstNothing(secretAccessKey)
        return ok && Option.isSome(found)
          ? Effect.succeed({ memberId: found.value.memberId, accountId: found.value.accountId })
          : Effect.fail(ApiError.credentialMismatch())
      }),

    selectPool: (caller, chainId, krn) => {
      if (Option.isSome(krn) && (krn.value.chainId !== chainId || krn.value.accountId !== caller.accountId)) {
        return Effect.fail(ApiError.dataNotExist("x-krn"))
      }
      const name = Option.match(krn, { onNone: () => Krn.DefaultPoolName, onSome: (k) => k.resourceId })
      const cacheKey = `${caller.memberId}:${chainId}:${name}`
      const cached = pools.get(cacheKey)
      if (cached !== undefined) return Effect.succeed(cached)
      return Effect.flatMap(store.findPool(caller.memberId, chainId, name), (row) => {
        if (Option.isNone(row)) return Effect.fail(ApiError.dataNotExist("x-krn"))
        const pool: SelectedPool = {
          id: row.value.id,
          memberId: caller.memberId,
          chainId,
          krn: Option.getOrElse(krn, () => Either.getOrThrow(Krn.accountPool(chainId, caller.accountId)))
        }
        pools.set(cacheKey, pool)
        return Effect.succeed(pool)
      })
    },

    createAccount: (pool) =>
      Effect.gen(function*() {
        const key = AccountKeys.generate()
        const createdAt = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        return yield* store.insertAccount({
          poolId: pool.id,
          address: key.address,
          publicKey: key.publicKey,
          keyHex: key.keyHex,
          // Bound to the address: a sealed key copied onto another row does not open.
          sealedPrivateKey: vault.seal(key.privateKey, key.address.toLowerCase()),
          createdAt
        }, viewOf(pool))
      }),

    getAccount: (pool, address) =>
      Effect.flatMap(store.findAccount(pool.id, address.toLowerCase(), viewOf(pool)), (json) =>
        Option.isNone(json) ? Effect.fail(ApiError.dataNotExist()) : Effect.succeed(json.value)),

    listAccounts: (pool, { cursor, from, size, to }) =>
      Effect.gen(function*() {
        const binding: Cursor.Binding = { memberId: pool.memberId, chainId: pool.chainId, poolId: pool.id }
        let state: { readonly after: Store.Position | undefined; readonly snapshot: number }
        if (cursor === "") {
          state = { after: undefined, snapshot: yield* store.lastSeq }
        } else {
          const decoded = Cursor.decode(cursorKey, binding, cursor)
          if (Option.isNone(decoded)) return yield* ApiError.outOfRange("cursor")
          state = decoded.value
        }
        // The cursor is "" exactly when this page is the last (the store looks one account
        // ahead), so no request ever gets an empty trailing page.
        const page = yield* store.page(
          { poolId: pool.id, after: state.after, snapshot: state.snapshot, from, to, size },
          viewOf(pool)
        )
        const next = page.next === undefined
          ? ""
          : Cursor.encode(cursorKey, binding, { after: page.next, snapshot: state.snapshot })
        return { items: page.items, cursor: next }
      })
  }
  return service
})

/**
 * The wallet operations over the store and key vault of the context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Wallet, EmulatorError, Store.Store | KeyVault.KeyVault> = Layer.effect(Wallet, make)
