/**
 * The key service routes (`/v2/key`): create keys in the caller's default key pool, list a key
 * pool, get and delete a key, sign a 32-byte hash with one. Each is an operation of the client's
 * table (`WalletApi.keys`): this module holds what the emulator adds, its handlers.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import { Effect } from "effect"
import * as WalletApi from "effect-kas-wallet/WalletApi"
import * as ApiError from "../ApiError.js"
import * as Listing from "../Listing.js"
import * as Route from "../Route.js"

const C = ApiError.Code
const api = WalletApi.keys
const headerCodes = `${C.EmptyOrZero}, ${C.OutOfRange} (x-chain-id)`
const keyIdErrors =
  `Not the caller's key on the request's chain (another member's or chain's, unknown, deleted): ${C.DataNotExist}; a key id not <key-pool-krn>:0x<64 hex>: ${C.OutOfRange}; bad header: ${headerCodes}.`

const bytesOf = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.slice(2), "hex"))

/**
 * The key routes, in the document's order.
 *
 * @since 0.5.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.operation(api.createKeys, {
    summary: "Create keys (fresh secp256k1) in the caller's default key pool on the request's chain (x-krn is not read)",
    response: "The new keys, in creation order.",
    errors: `Bad header or body: ${headerCodes}, ${C.EmptyOrZero} (size 0), ${C.OutOfRange} (size, or a body not a JSON object).`,
    handler: ({ caller, payload, services }) =>
      Effect.map(services.keys.createKeys(caller, payload.size ?? 1), (items) => `{"items":[${items.join(",")}]}`)
  }),
  Route.operation(api.listKeys, {
    summary: "List the keys of one of the caller's key pools, newest first",
    response: "A page; cursor is \"\" exactly when no key remains after it.",
    errors: `Bad header or query value: ${headerCodes}, ${C.EmptyOrZero} (krn), ${C.DataNotExist} (krn: not a key pool of the caller on the request's chain), ${C.OutOfRange} (size, cursor).`,
    handler: ({ caller, query, services }) =>
      Effect.map(
        services.keys.listKeys(caller, { krn: query.krn.toString(), size: Listing.pageSize(query.size), cursor: query.cursor ?? "" }),
        Listing.pageBody
      )
  }),
  Route.operation(api.getKey, {
    summary: "Get one of the caller's keys",
    response: "The key (never its private key; blob: an opaque handle of the sealed key, no key material).",
    errors: keyIdErrors,
    handler: ({ caller, path, services }) => services.keys.getKey(caller, path["key-id"])
  }),
  Route.operation(api.deleteKey, {
    summary: "Delete one of the caller's keys: it is gone from every read, and cannot sign",
    response: "{\"status\":\"deleted\"}.",
    errors: keyIdErrors,
    handler: ({ caller, path, services }) => services.keys.deleteKey(caller, path["key-id"])
  }),
  Route.operation(api.signWithKey, {
    summary: "Sign a 32-byte hash with one of the caller's keys (ECDSA over the hash as given, no prefix)",
    response: "signedData: 0x + r (32 bytes) + s (32 bytes, low s) + v (1 byte: the recovery id, 00 or 01), as the spec's example.",
    errors: `${keyIdErrors} Bad body: ${C.EmptyOrZero}, ${C.NotHex}, ${C.OutOfRange} (data).`,
    handler: ({ caller, path, payload, services }) => services.keys.signWithKey(caller, path["key-id"], bytesOf(payload.data))
  })
]
