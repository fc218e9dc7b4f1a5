/**
 * The key service of the wallet (`/v2/key`): key pools per member and chain, fresh secp256k1 keys
 * sealed at rest like account keys, and signing a 32-byte hash with one. Answers are values (the
 * client's records, or a key's JSON as the store wrote it: `Store.Encoded`).
 *
 * Key pool KRNs are `krn:<chain-id>:wallet:<account-id>:key-pool:<name>` and key ids
 * `<key-pool-krn>:0x<64 hex>`, as the public spec (2021-09-29) shows (`Krn.KeyPoolType`, the
 * client's).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Clock, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { createHash } from "node:crypto"
import { type ChainId, Key, Krn } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as AccountKeys from "../chain/AccountKeys.js"
import * as Refusal from "../Refusal.js"
import * as KeyVault from "../store/KeyVault.js"
import * as Snapshots from "../store/Snapshots.js"
import * as Store from "../store/Store.js"
import * as Cursors from "./Cursors.js"

/**
 * The most keys one `POST /v2/key` creates (the spec's `maximum`): the client's bound.
 *
 * @since 0.5.0
 * @category constants
 */
export const MaxCreate = Key.MaxCreateSize

/**
 * The caller of a key operation: the member and the request's chain.
 *
 * @since 0.5.0
 * @category models
 */
export interface KeyCaller {
  readonly memberId: number
  readonly accountId: string
  readonly chainId: ChainId.ChainId
}

/**
 * A listing of a key pool, its values read: the pool KRN as sent, items per page, the cursor.
 *
 * @since 0.5.0
 * @category models
 */
export interface KeyListRequest {
  readonly krn: string
  readonly size: number
  readonly cursor: string
}

/**
 * A key of the key service, opened: for the registration of an account under it.
 *
 * @since 0.8.0
 * @category models
 */
export interface OpenedKey {
  /** `0x` + 64 lower-case hex digits: the part of the key id after its pool KRN. */
  readonly keyHex: string
  /** Uncompressed, `0x04` + 128 hex digits. */
  readonly publicKey: string
  readonly privateKey: Redacted.Redacted<Uint8Array>
}

/**
 * The key operations. A key id or KRN that is not one of the caller's key pools on the request's
 * chain (another member's, another chain's, unknown, deleted) is `NotFound`, the same as an
 * unknown one: nothing tells them apart.
 *
 * @since 0.5.0
 * @category models
 */
export interface Service {
  /** `size` new keys in the caller's default key pool, each `{blob, keyId, krn, publicKey}`, in order. */
  readonly createKeys: (caller: KeyCaller, size: number) => Effect.Effect<ReadonlyArray<Store.Encoded<"Key">>, SqlError.SqlError>
  /** One page of a key pool, newest first: its items `{keyId, krn, publicKey}`, and the next cursor. */
  readonly listKeys: (
    caller: KeyCaller,
    request: KeyListRequest
  ) => Effect.Effect<
    { readonly items: ReadonlyArray<Store.EncodedBytes<"KeyListItem">>; readonly cursor: string },
    Refusal.Refusal | SqlError.SqlError
  >
  /** `{blob, keyId, krn, publicKey}`. */
  readonly getKey: (caller: KeyCaller, keyId: string) => Effect.Effect<Store.Encoded<"Key">, Refusal.Refusal | SqlError.SqlError>
  /** Deletes a key: it is gone from every read. */
  readonly deleteKey: (caller: KeyCaller, keyId: string) => Effect.Effect<Key.KeyStatus, Refusal.Refusal | SqlError.SqlError>
  /** `signedData`: `0x` + r (32 bytes) + s (32 bytes, low) + v (1 byte, the recovery id 0 or 1). */
  readonly signWithKey: (
    caller: KeyCaller,
    keyId: string,
    hash: Uint8Array
  ) => Effect.Effect<Key.KeySignature, Refusal.Refusal | SqlError.SqlError>
  /**
   * A key of the caller on the request's chain, opened (for a registration); `None` when the key
   * id is not one (malformed, another member's or chain's, unknown, deleted).
   *
   * @since 0.8.0
   */
  readonly openKey: (caller: KeyCaller, keyId: string) => Effect.Effect<Option.Option<OpenedKey>, SqlError.SqlError>
}

const KEY_HEX = /^0x[0-9a-fA-F]{64}$/

// `decodeURIComponent` throws on a malformed escape (`%zz`).
const decodeUri: (raw: string) => Option.Option<string> = Option.liftThrowable(decodeURIComponent)

/**
 * A key pool KRN of the caller on the request's chain: its pool name, or 400 `1061010`.
 *
 * @since 0.5.0
 * @category parsing
 */
export const poolNameOf = (caller: KeyCaller, krn: string): Either.Either<string, Refusal.Refusal> =>
  Either.flatMap(Either.mapLeft(Krn.decode(krn), () => new Refusal.NotFound({ detail: "krn" })), (k) =>
    Krn.isKeyPool(k) && k.chainId === caller.chainId &&
      k.accountId === caller.accountId
      ? Either.right(k.resourceId)
      : Either.left(new Refusal.NotFound({ detail: "krn" })))

/**
 * A key id path value (percent-encoded as sent): the pool KRN text and the key hex (lower case).
 * Not `<krn>:0x<64 hex>`: 400 `1061615`.
 *
 * @since 0.5.0
 * @category parsing
 */
export const parseKeyId = (raw: string): Either.Either<{ readonly krn: string; readonly keyHex: string }, Refusal.Refusal> => {
  const decoded = decodeUri(raw)
  if (Option.isNone(decoded)) return Either.left(new Refusal.OutOfRange({ field: "key-id" }))
  const at = decoded.value.lastIndexOf(":")
  const keyHex = decoded.value.slice(at + 1)
  if (at < 0 || !KEY_HEX.test(keyHex)) return Either.left(new Refusal.OutOfRange({ field: "key-id" }))
  return Either.right({ krn: decoded.value.slice(0, at), keyHex: keyHex.toLowerCase() })
}

const nowSeconds = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

/**
 * The key service of an emulator.
 *
 * @since 0.10.0
 * @category tags
 */
export class Keys extends Context.Tag("effect-kas-wallet-emulator/Keys")<Keys, Service>() {}

/**
 * Builds the key operations over the store, key vault and cursors of the context.
 *
 * @since 0.5.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, Store.Store | KeyVault.KeyVault | Cursors.Cursors> = Effect.gen(function*() {
  const store = yield* Store.Store
  const vault = yield* KeyVault.KeyVault
  const cursors = yield* Cursors.Cursors
  // Key pools are never deleted or renamed: found once, they stay (as the account pools).
  const pools = new Map<string, number>()
  // A revert may drop pools created since its snapshot: what was found is looked up again.
  yield* Snapshots.forgetOnRestore(pools)
  const poolOf = (caller: KeyCaller, name: string) => {
    const cacheKey = `${caller.memberId}:${caller.chainId}:${name}`
    const cached = pools.get(cacheKey)
    if (cached !== undefined) return Effect.succeed(cached)
    return Effect.flatMap(store.findKeyPool(caller.memberId, caller.chainId, name), (id) => {
      if (Option.isNone(id)) return Effect.fail(new Refusal.NotFound({ detail: "krn" }))
      pools.set(cacheKey, id.value)
      return Effect.succeed(id.value)
    })
  }
  const poolKrn = (caller: KeyCaller, name: string) => `krn:${caller.chainId}:wallet:${caller.accountId}:${Krn.KeyPoolType}:${name}`

  // A key id of the caller: its pool (id and KRN text) and key hex; anything else is not found.
  const keyOf = (caller: KeyCaller, raw: string) =>
    Effect.gen(function*() {
      const { keyHex, krn } = yield* parseKeyId(raw)
      const name = yield* Either.mapLeft(poolNameOf(caller, krn), () => new Refusal.NotFound({}))
      const poolId = yield* Effect.mapError(poolOf(caller, name), () => new Refusal.NotFound({}))
      // The KRN as the service writes it (the key id's own text may differ only where it cannot).
      return { poolId, krn: poolKrn(caller, name), keyHex }
    })

  // The sealed key is bound to its key id: copied onto another row, it does not open.
  const context = (krn: string, keyHex: string) => `key:${krn}:${keyHex}`
  // A key that does not open under this vault cannot sign: a broken row, never a wrong answer.
  const openSealed = (sealed: Uint8Array, krn: string, keyHex: string) =>
    Option.match(vault.open(sealed, context(krn, keyHex)), {
      onNone: () => Effect.die(new Error(`the sealed key of ${krn}:${keyHex} does not open`)),
      onSome: Effect.succeed
    })

  return {
    createKeys: (caller, size) =>
      Effect.gen(function*() {
        const poolId = yield* Effect.orDie(poolOf(caller, Krn.DefaultPoolName))
        const krn = poolKrn(caller, Krn.DefaultPoolName)
        const createdAt = yield* nowSeconds
        const keys = Array.from({ length: size }, (): Store.NewWalletKey => {
          const key = AccountKeys.generate()
          const keyHex = key.keyHex.toLowerCase()
          const sealedPrivateKey = vault.seal(key.privateKey, context(krn, keyHex))
          // An opaque handle of the sealed key: a digest, no key material (the private key never
          // leaves the emulator, sealed or not).
          const blob = `0x${createHash("sha256").update("kas-emulator-key-blob/v1").update(sealedPrivateKey).digest("hex")}`
          return { keyHex, publicKey: key.publicKey, blob, sealedPrivateKey, createdAt }
        })
        return yield* store.insertWalletKeys(poolId, krn, keys)
      }),

    listKeys: (caller, { cursor, krn, size }) =>
      Effect.gen(function*() {
        const name = yield* poolNameOf(caller, krn)
        const poolId = yield* poolOf(caller, name)
        const binding: Cursors.Binding = { memberId: caller.memberId, chainId: caller.chainId, poolId, kind: "key" }
        const resumed = yield* cursors.resume(binding, cursor)
        const state: { readonly before: number | undefined; readonly snapshot: number } = Option.isSome(resumed)
          ? { before: resumed.value.after.seq, snapshot: resumed.value.snapshot }
          : { before: undefined, snapshot: yield* store.lastWalletKeySeq }
        const page = yield* store.walletKeyPage({
          poolId,
          krn: poolKrn(caller, name),
          before: state.before,
          snapshot: state.snapshot,
          size
        })
        const next = page.next === undefined
          ? ""
          : cursors.encode(binding, { after: { createdAt: 0, seq: page.next }, snapshot: state.snapshot })
        return { items: page.items, cursor: next }
      }),

    getKey: (caller, raw) =>
      Effect.gen(function*() {
        const { keyHex, krn, poolId } = yield* keyOf(caller, raw)
        const found = yield* store.findWalletKey(poolId, krn, keyHex)
        if (Option.isNone(found)) return yield* new Refusal.NotFound({})
        return found.value.json
      }),

    deleteKey: (caller, raw) =>
      Effect.gen(function*() {
        const { keyHex, poolId } = yield* keyOf(caller, raw)
        if (!(yield* store.deleteWalletKey(poolId, keyHex))) return yield* new Refusal.NotFound({})
        return { status: "deleted" } as const
      }),

    signWithKey: (caller, raw, hash) =>
      Effect.gen(function*() {
        const { keyHex, krn, poolId } = yield* keyOf(caller, raw)
        const found = yield* store.findWalletKey(poolId, krn, keyHex)
        if (Option.isNone(found)) return yield* new Refusal.NotFound({})
        const opened = yield* openSealed(found.value.sealed, krn, keyHex)
        // RFC 6979 nonces, low s. The signature ends with the recovery id: Klaytn's `v` on chain 0
        // is 35 + it.
        const { r, s, v } = yield* Effect.orDie(Klaytn.sign(hash, Redacted.value(opened), 0))
        const hex = (n: bigint | number, digits: number) => n.toString(16).padStart(digits, "0")
        return { signedData: `0x${hex(r, 64)}${hex(s, 64)}${hex(v - 35, 2)}` as Key.KeySignature["signedData"] }
      }),

    openKey: (caller, raw) =>
      Effect.gen(function*() {
        const where = yield* Effect.either(keyOf(caller, raw))
        if (Either.isLeft(where)) return Option.none()
        const { keyHex, krn, poolId } = where.right
        const found = yield* store.findWalletKey(poolId, krn, keyHex)
        if (Option.isNone(found)) return Option.none()
        const privateKey = yield* openSealed(found.value.sealed, krn, keyHex)
        const { publicKey } = JSON.parse(found.value.json) as { readonly publicKey: string }
        return Option.some<OpenedKey>({ keyHex, publicKey: publicKey.toLowerCase(), privateKey })
      })
  }
})

/**
 * The key service over the store, key vault and cursors of the context.
 *
 * @since 0.10.0
 * @category layers
 */
export const layer: Layer.Layer<Keys, never, Store.Store | KeyVault.KeyVault | Cursors.Cursors> = Layer.effect(Keys, make)
