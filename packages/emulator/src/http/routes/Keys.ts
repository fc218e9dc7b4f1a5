/**
 * The key service routes (`/v2/key`): create keys in the caller's default key pool, list a key
 * pool, get and delete a key, sign a 32-byte hash with one.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import { Effect, Either } from "effect"
import { Key, Krn } from "effect-kas-wallet"
import * as ApiError from "../ApiError.js"
import * as Description from "../Description.js"
import * as Keys from "../../services/Keys.js"
import * as Listing from "../Listing.js"
import * as Render from "../Render.js"
import * as Route from "../Route.js"

// The answers are described by the client's schemas (src/Key.ts), which decode them.
const KEY_HEX = { type: "string", pattern: "^0x[0-9a-fA-F]{64}$" } as const

const headerCodes = `${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange} (x-chain-id)`
const keyIdErrors =
  `Not the caller's key on the request's chain (another member's or chain's, unknown, deleted): ${ApiError.Code.DataNotExist}; a key id not <key-pool-krn>:0x<64 hex>: ${ApiError.Code.OutOfRange}; bad header: ${headerCodes}.`

const keyId: Description.Parameter = {
  description: "A key id, `krn:<chain-id>:wallet:<account-id>:key-pool:<name>:0x<64 hex>` (percent-encoded or not).",
  schema: Description.json({ type: "string" })
}

const HASH = /^0x[0-9a-fA-F]*$/
const DIGITS = /^[0-9]+$/

const jsonObject = (text: string): Either.Either<Readonly<Record<string, unknown>>, ApiError.ApiError> => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? Either.right(value as Record<string, unknown>)
      : Either.left(ApiError.outOfRange("body"))
  } catch {
    return Either.left(ApiError.outOfRange("body"))
  }
}

/**
 * The body of `POST /v2/key`: `{size}`, an integer from 1 to 100 (a JSON number, or a string of
 * digits); absent (or an empty body) → 1, the spec's default. 0 → 400 `1061608`; anything else
 * → 400 `1061615`.
 *
 * @since 0.5.0
 * @category parsing
 */
export const parseCreateBody = (text: string): Either.Either<number, ApiError.ApiError> => {
  if (text.trim() === "") return Either.right(1)
  return Either.flatMap(jsonObject(text), (body) => {
    const value: unknown = body.size
    if (value === undefined || value === null) return Either.right(1)
    const n = typeof value === "number" ? value : typeof value === "string" && DIGITS.test(value) ? Number(value) : NaN
    if (n === 0) return Either.left(ApiError.missing("size"))
    return Number.isInteger(n) && n >= 1 && n <= Keys.MaxCreate ? Either.right(n) : Either.left(ApiError.outOfRange("size"))
  })
}

/**
 * The body of `POST /v2/key/{key-id}/sign`: `{data}`, `0x` and 64 hex digits (32 bytes, any
 * case). Missing or empty → 400 `1061608`; not `0x` hex → `1061607`; another length → `1061615`.
 *
 * @since 0.5.0
 * @category parsing
 */
export const parseSignBody = (text: string): Either.Either<Uint8Array, ApiError.ApiError> =>
  Either.flatMap(text.trim() === "" ? Either.left(ApiError.missing("data")) : jsonObject(text), (body) => {
    const value: unknown = body.data
    if (value === undefined || value === null || value === "") return Either.left(ApiError.missing("data"))
    if (typeof value !== "string" || !HASH.test(value)) return Either.left(ApiError.notHex("data"))
    if (value.length !== 66) return Either.left(ApiError.outOfRange("data"))
    return Either.right(new Uint8Array(Buffer.from(value.slice(2), "hex")))
  })

const listQuery = (query: string): Either.Either<Keys.KeyListRequest, ApiError.ApiError> =>
  Either.gen(function*() {
    const params = new URLSearchParams(query)
    for (const name of ["krn", "size", "cursor"]) {
      if (params.getAll(name).length > 1) return yield* Either.left(ApiError.outOfRange(name))
    }
    const krn = params.get("krn")
    if (krn === null || krn === "") return yield* Either.left(ApiError.missing("krn"))
    const size = yield* Listing.parseSize(params.get("size") ?? undefined)
    return { krn, size, cursor: params.get("cursor") ?? "" }
  })

/**
 * The key routes, in the document's order.
 *
 * @since 0.5.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.make({
    method: "POST",
    path: "/v2/key",
    operationId: "KeyCreation",
    summary: "Create keys (fresh secp256k1) in the caller's default key pool on the request's chain",
    access: "keyService",
    body: {
      required: false,
      description:
        `{size}: 1 to ${Keys.MaxCreate} (absent or an empty body: 1). 0: 400 ${ApiError.Code.EmptyOrZero}; another value, or not a JSON object: 400 ${ApiError.Code.OutOfRange}.`,
      schema: Description.json({
        type: "object",
        properties: { size: { type: "integer", minimum: 1, maximum: Keys.MaxCreate, default: 1 } }
      })
    },
    response: {
      description: "The new keys, in creation order.",
      schema: Description.domain("CreatedKeys", Key.CreatedKeys)
    },
    errors: { 400: `Bad header or body: ${headerCodes}, ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange} (size).` },
    handler: ({ body, caller, services }) =>
      Effect.flatMap(parseCreateBody(body), (size) =>
        Effect.map(services.keys.createKeys(caller, size), (items) => `{"items":[${items.join(",")}]}`))
  }),
  Route.make({
    method: "GET",
    path: "/v2/key",
    operationId: "RetrieveKeys",
    summary: "List the keys of one of the caller's key pools, newest first",
    access: "keyService",
    query: [
      {
        name: "krn",
        description:
          `Required: the key pool, krn:<chain-id>:wallet:<account-id>:key-pool:<name>. Missing: 400 ${ApiError.Code.EmptyOrZero}; not a key pool of the caller on the request's chain: 400 ${ApiError.Code.DataNotExist}.`,
        schema: Description.domain("KeyPoolKrn", Krn.KeyPoolKrn)
      },
      ...Listing.parameters("feePayer").filter((p) => p.name === "size" || p.name === "cursor")
    ],
    response: {
      description: "A page; cursor is \"\" exactly when no key remains after it.",
      schema: Description.domain("KeyPage", Key.KeyPage)
    },
    errors: {
      400: `Bad header or query value: ${headerCodes}, ${ApiError.Code.EmptyOrZero} (krn), ${ApiError.Code.DataNotExist} (krn), ${ApiError.Code.OutOfRange} (size, cursor).`
    },
    handler: ({ caller, query, services }) =>
      Effect.map(Effect.flatMap(listQuery(query), (request) => services.keys.listKeys(caller, request)), Listing.pageBody)
  }),
  Route.make({
    method: "GET",
    path: "/v2/key/{key-id}",
    operationId: "GetKey",
    summary: "Get one of the caller's keys",
    access: "keyService",
    pathParameters: { "key-id": keyId },
    response: { description: "The key (never its private key; blob: an opaque handle of the sealed key, no key material).", schema: Description.domain("Key", Key.Key) },
    errors: { 400: keyIdErrors },
    handler: ({ caller, params, services }) => services.keys.getKey(caller, params["key-id"])
  }),
  Route.make({
    method: "DELETE",
    path: "/v2/key/{key-id}",
    operationId: "KeyDeletion",
    summary: "Delete one of the caller's keys: it is gone from every read, and cannot sign",
    access: "keyService",
    pathParameters: { "key-id": keyId },
    response: {
      description: "{\"status\":\"deleted\"}.",
      schema: Description.domain("KeyStatus", Key.KeyStatus)
    },
    errors: { 400: keyIdErrors },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(services.keys.deleteKey(caller, params["key-id"]), Render.json(Key.KeyStatus))
  }),
  Route.make({
    method: "POST",
    path: "/v2/key/{key-id}/sign",
    operationId: "KeySignData",
    summary: "Sign a 32-byte hash with one of the caller's keys (ECDSA over the hash as given, no prefix)",
    access: "keyService",
    pathParameters: { "key-id": keyId },
    body: {
      required: true,
      description:
        `{data}: 0x and 64 hex digits. Missing or empty: 400 ${ApiError.Code.EmptyOrZero}; not 0x hex: 400 ${ApiError.Code.NotHex}; another length, or not a JSON object: 400 ${ApiError.Code.OutOfRange}.`,
      schema: Description.json({ type: "object", required: ["data"], properties: { data: KEY_HEX } })
    },
    response: {
      description: "signedData: 0x + r (32 bytes) + s (32 bytes, low s) + v (1 byte: the recovery id, 00 or 01), as the spec's example.",
      schema: Description.domain("KeySignature", Key.KeySignature)
    },
    errors: { 400: `${keyIdErrors} Bad body: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.NotHex}, ${ApiError.Code.OutOfRange} (data).` },
    handler: ({ body, caller, params, services }) =>
      Effect.flatMap(
        Effect.flatMap(parseSignBody(body), (hash) => services.keys.signWithKey(caller, params["key-id"], hash)),
        Render.json(Key.KeySignature)
      )
  })
]
