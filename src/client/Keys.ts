/**
 * The key service's operations in the client: keys created in key pools, listed, read, deleted,
 * and signing 32-byte hashes.
 *
 * @since 0.10.0
 */
import { Effect, Either, Schema } from "effect"
import * as WalletApi from "../api/WalletApi.js"
import * as Options from "../internal/options.js"
import * as Spans from "../internal/spans.js"
import * as Key from "../Key.js"
import type * as KeyId from "../KeyId.js"
import * as Krn from "../Krn.js"
import type * as WalletError from "../WalletError.js"
import { validKeyId, validListKrn, validSignable } from "./Arguments.js"
import type { KeyCallOptions } from "./CallOptions.js"
import * as Listings from "./Listings.js"
import type { Op, StreamOp } from "./Operation.js"
import type * as Requests from "./Requests.js"

/**
 * Parameters of the key listing (GET /v2/key): the pool to list and the paging. `krn` is the pool
 * (a key pool, or an account or fee-payer pool to list its accounts' keys); absent: the selected
 * key pool (`keyPool`, the scope's, the layer's), else the `default` key pool of the member whose
 * account id a selected account or fee-payer pool gives. `pageSize` (alias `size`) is the number of
 * keys per request, 1..1000; the listing takes no time range.
 *
 * @since 0.6.0
 * @category models
 */
export interface KeyListParams extends KeyCallOptions {
  readonly krn?: Krn.PoolKrn | string | undefined
  readonly pageSize?: number | undefined
  readonly size?: number | undefined
  /** Continue from this cursor (from a previous page, or an error's `cursor`). */
  readonly cursor?: string | undefined
}

/**
 * The key service's operations.
 *
 * @since 0.10.0
 * @category models
 */
export interface Service {
  /**
   * Creates `size` keys (1..100) in a key pool (POST /v2/key, body `{ size }`; `x-krn` only when
   * a key pool is selected, else the member's default key pool). Not retried once the request may
   * have reached the service: creating is not idempotent.
   */
  readonly createKeys: Op<[size: number, options?: KeyCallOptions], Key.CreatedKeys>
  /** One key by key id (GET /v2/key/{key-id}); the key id is validated first and must be on the call's chain. */
  readonly getKey: Op<[keyId: KeyId.KeyId | string, options?: KeyCallOptions], Key.Key>
  /** Deletes a key (DELETE /v2/key/{key-id}). Not retried once sent. */
  readonly deleteKey: Op<[keyId: KeyId.KeyId | string, options?: KeyCallOptions], Key.KeyStatus>
  /** One page of a pool's keys (GET /v2/key?krn=...&size=...&cursor=...). */
  readonly listKeys: Op<[params?: KeyListParams], Key.KeyPage>
  /** Every key of a pool, fetched page by page as the consumer pulls. */
  readonly keys: StreamOp<[params?: KeyListParams], Key.KeySummary>
  /** Every page of a pool's keys, as the consumer pulls. */
  readonly keyPages: StreamOp<[params?: KeyListParams], Key.KeyPage>
  /**
   * Signs a 32-byte hash (`0x` + 64 hex digits) with a key (POST /v2/key/{key-id}/sign, body
   * `{ data }`); returns the 65-byte signature. Not retried once sent.
   */
  readonly signWithKey: Op<[keyId: KeyId.KeyId | string, hash: Key.SignableHash | string, options?: KeyCallOptions], Key.KeySignature>
}

const api = WalletApi.keys

const validCreateSize = Options.argument(
  "size",
  Schema.Int.pipe(
    Schema.between(1, Key.MaxCreateSize, { message: (issue) => `must be an integer from 1 to ${Key.MaxCreateSize}, got ${String(issue.actual)}` })
  )
)

// The pool a key listing lists: the `krn` given, else the selected key pool, else the default key
// pool of the member whose account id a selected pool gives.
const listedPool = (params: KeyListParams | undefined, t: Options.Target): Either.Either<Krn.PoolKrn, WalletError.InvalidArgument> => {
  if (params?.krn !== undefined) {
    return Either.flatMap(validListKrn(typeof params.krn === "string" ? params.krn : params.krn.toString()), (krn) =>
      krn.chainId === t.chainId
        ? Either.right(krn)
        : Either.left(Options.invalid("krn", `pool ${krn.toString()} is on chain ${krn.chainId}, the request on chain ${t.chainId}`)))
  }
  if (t.keyPool !== undefined) return Either.right(t.keyPool)
  const accountId = t.pool?.accountId ?? t.feePayerPool?.accountId
  return accountId === undefined
    ? Either.left(Options.invalid("krn", "give the pool to list (krn:<chain-id>:wallet:<account-id>:key-pool:<pool-name>), or select a key pool (keyPool)"))
    : Either.right(Either.getOrThrow(Krn.keyPool(t.chainId, accountId)))
}

/**
 * The key service's operations over the client's requests. `createKeys` is also what
 * `migrateAccounts` creates its keys with.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (requests: Requests.Requests): Service => {
  /** An operation on one key: the key id checked (and on the call's chain), then sent. */
  const onKey = <E extends typeof api.getKey | typeof api.deleteKey | typeof api.signWithKey>(
    endpoint: E,
    keyId: unknown,
    call: KeyCallOptions | undefined,
    payload?: Requests.Input<E>["payload"]
  ) =>
    Effect.flatMap(Effect.zip(validKeyId(keyId), requests.target(call)), ([checked, t]) =>
      checked.poolKrn.chainId !== t.chainId
        ? Effect.fail(Options.invalid("keyId", `key ${checked.toString()} is on chain ${checked.poolKrn.chainId}, the request on chain ${t.chainId}`))
        : requests.run(endpoint, t, { path: { "key-id": checked.toString() } as Requests.Input<E>["path"], payload }, {
          attributes: { [Spans.SpanAttributes.keyId]: checked.toString() }
        }))

  const listing = Listings.paged(requests, (params: KeyListParams | undefined) =>
    Effect.flatMap(requests.target(params), (t) => {
      // JavaScript callers may pass a range: the key listing has none.
      const loose = params as (KeyListParams & { readonly from?: unknown; readonly to?: unknown }) | undefined
      for (const bound of ["from", "to"] as const) {
        if (loose?.[bound] !== undefined) return Effect.fail(Options.invalid(bound, "the key listing takes no time range"))
      }
      return Effect.map(listedPool(params, t), (krn): Listings.Listing<typeof api.listKeys, Key.KeyPage> => ({
        endpoint: api.listKeys,
        extra: { krn }
      }))
    }))

  return {
    createKeys: (size, call) =>
      Effect.flatMap(Effect.zip(validCreateSize(size), requests.target(call)), ([checked, t]) =>
        requests.run(api.createKeys, t, { payload: { size: checked } })),
    getKey: (keyId, call) => onKey(api.getKey, keyId, call),
    deleteKey: (keyId, call) => onKey(api.deleteKey, keyId, call),
    listKeys: listing.one,
    keyPages: listing.all,
    keys: listing.items,
    signWithKey: (keyId, hash, call) => Effect.flatMap(validSignable(hash), (data) => onKey(api.signWithKey, keyId, call, { data }))
  }
}
