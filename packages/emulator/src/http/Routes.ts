/**
 * The HTTP face of the emulator: reads requests, applies the wire rules of the real service and
 * renders accounts, pages and errors. Routes: `/v2/account` (POST, GET), `/v2/account/{address}`
 * (GET, DELETE), `/v2/account/{address}/disable|enable` (PUT), `/v2/pubkey/{public-key}/account`,
 * `/v2/stat/count`, `/v2/stat/count/krn` (GET), `/v2/feepayer` (POST, GET),
 * `/v2/feepayer/{address}` (GET, DELETE), `/v2/tx/value`, `/v2/tx/fd/value`, `/v2/tx/fd-user/value`
 * (POST), `/v2/tx/{transaction-hash}` (GET), and `/health`, `/openapi.json`.
 *
 * Routing is a small dispatcher on the raw path rather than a router: the service answers unknown
 * paths (404) and unknown methods of known paths (405) with its own code, 1010007, and hostile paths
 * must never reach a decoder that could fail with a 500.
 *
 * Order of checks on a wallet route, as a gateway does it: path and method, then authentication,
 * then `x-chain-id`, then `x-krn`, then the operation's own parameters.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import { type HttpApp, HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { SqlError } from "@effect/sql"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Cause, Effect, Either, Option, ParseResult, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { ChainId, Krn, Pagination } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as ApiError from "./ApiError.js"
import * as Credentials from "../console/Credentials.js"
import type * as Faults from "./Faults.js"
import type * as Ledger from "../chain/Ledger.js"
import type * as Store from "../store/Store.js"
import type * as Wallet from "../Wallet.js"

/**
 * The response header carrying the request id (also in every error body).
 *
 * @since 0.1.0
 * @category constants
 */
export const RequestIdHeader = "x-request-id"

const decodeChainId = Schema.decodeUnknownEither(ChainId.FromHeader)
const decodeKrn: Record<Store.Kind, (u: unknown) => Either.Either<Krn.PoolKrn, unknown>> = {
  account: Schema.decodeUnknownEither(Krn.AccountPoolKrn),
  feePayer: Schema.decodeUnknownEither(Krn.FeePayerPoolKrn)
}
const notAPool: Record<Store.Kind, string> = {
  account: "x-krn is not an account pool KRN",
  feePayer: "x-krn is not a fee-payer pool KRN"
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const DIGITS = /^-?[0-9]+$/
const HEX = /^0x[0-9a-fA-F]*$/

/** The largest body read (`POST /v2/feepayer` holds one boolean; a transfer, a memo of some kilobytes). */
const MaxBodyBytes = 64 * 1024

const json = (status: number, body: string | Uint8Array, requestId: string, headers?: Readonly<Record<string, string>>) =>
  HttpServerResponse.uint8Array(typeof body === "string" ? Buffer.from(body, "utf8") : body, {
    status,
    contentType: "application/json",
    headers: { ...headers, [RequestIdHeader]: requestId }
  })

const PAGE_START = Buffer.from("{\"items\":[")
const COMMA = Buffer.from(",")

/**
 * The body of a page: the encoded form of `Account.AccountPage`, joined from the accounts' JSON.
 *
 * @since 0.1.0
 * @category rendering
 */
export const pageBody = (page: Wallet.Page): Buffer => {
  const parts: Array<Uint8Array> = [PAGE_START]
  for (let i = 0; i < page.items.length; i++) {
    if (i > 0) parts.push(COMMA)
    parts.push(page.items[i]!)
  }
  parts.push(Buffer.from(`],"cursor":${JSON.stringify(page.cursor)}}`, "utf8"))
  return Buffer.concat(parts)
}

const errorResponse = (error: ApiError.ApiError, requestId: string) =>
  json(error.status, JSON.stringify(ApiError.toBody(error, requestId)), requestId, error.headers)

const single = (params: URLSearchParams, name: string): Either.Either<string | undefined, ApiError.ApiError> => {
  const values = params.getAll(name)
  return values.length > 1 ? Either.left(ApiError.outOfRange(name)) : Either.right(values[0])
}

/**
 * Reads `size`: absent, empty or 0 → 100; above 1000 → 1000; negative or not an integer → 400
 * `1061615`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseSize = (value: string | undefined): Either.Either<number, ApiError.ApiError> => {
  if (value === undefined || value === "") return Either.right(Pagination.DefaultPageSize)
  if (!DIGITS.test(value)) return Either.left(ApiError.outOfRange("size"))
  const n = Number(value)
  if (n < 0) return Either.left(ApiError.outOfRange("size"))
  return Either.right(n === 0 ? Pagination.DefaultPageSize : Math.min(n, Pagination.MaxPageSize))
}

/**
 * Reads `from-timestamp` / `to-timestamp`: absent, empty or 0 → unbounded; otherwise a
 * non-negative integer of Unix seconds, else 400 `1061615`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseTimestamp = (name: string, value: string | undefined): Either.Either<number | undefined, ApiError.ApiError> => {
  if (value === undefined || value === "") return Either.right(undefined)
  if (!DIGITS.test(value)) return Either.left(ApiError.outOfRange(name))
  const n = Number(value)
  if (n < 0) return Either.left(ApiError.outOfRange(name))
  // Beyond any timestamp anyway; keeps the bound a finite integer for the query.
  return Either.right(n === 0 ? undefined : Math.min(n, Number.MAX_SAFE_INTEGER))
}

/**
 * Reads `status`: absent or empty → `enabled` (the service's default); `enabled`, `disabled`,
 * `corrupted` or `all`; anything else → 400 `1061615`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseStatus = (value: string | undefined): Either.Either<Store.StatusFilter, ApiError.ApiError> => {
  if (value === undefined || value === "") return Either.right("enabled")
  return value === "enabled" || value === "disabled" || value === "corrupted" || value === "all"
    ? Either.right(value)
    : Either.left(ApiError.outOfRange("status"))
}

/**
 * Reads an address path segment (percent-decoded): `0x` + 40 hex digits in any case, else 400
 * `1061609`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseAddress = (raw: string): Either.Either<string, ApiError.ApiError> => {
  let address: string
  try {
    address = decodeURIComponent(raw)
  } catch {
    return Either.left(ApiError.notAddress("address"))
  }
  return ADDRESS.test(address) ? Either.right(address) : Either.left(ApiError.notAddress("address"))
}

/**
 * Reads a public key path segment (percent-decoded) in any of the forms the client accepts —
 * uncompressed (`0x04` + 128 hex digits), compressed (`0x02`/`0x03` + 64) or raw coordinates
 * (`0x` + 128) — as the uncompressed lower-case form the accounts store. `None` for a compressed
 * key that is no point of the curve: no account can have it. Not `0x` and hex: 400 `1061607`; hex
 * of another length or prefix: 400 `1061615`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parsePublicKey = (raw: string): Either.Either<Option.Option<string>, ApiError.ApiError> => {
  let key: string
  try {
    key = decodeURIComponent(raw)
  } catch {
    return Either.left(ApiError.notHex("public-key"))
  }
  if (!HEX.test(key)) return Either.left(ApiError.notHex("public-key"))
  const digits = key.slice(2).toLowerCase()
  if (digits.length === 130 && digits.startsWith("04")) return Either.right(Option.some(`0x${digits}`))
  if (digits.length === 128) return Either.right(Option.some(`0x04${digits}`))
  if (digits.length === 66 && (digits.startsWith("02") || digits.startsWith("03"))) {
    try {
      return Either.right(Option.some(`0x${secp256k1.Point.fromHex(digits).toHex(false)}`))
    } catch {
      return Either.right(Option.none())
    }
  }
  return Either.left(ApiError.outOfRange("public-key"))
}

/** A request body that must be a JSON object; anything else → 400 `1061615` naming `body`. */
const jsonObject = (text: string): Either.Either<Record<string, unknown>, ApiError.ApiError> => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return Either.left(ApiError.outOfRange("body"))
  }
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? Either.right(body as Record<string, unknown>)
    : Either.left(ApiError.outOfRange("body"))
}

/**
 * Reads the body of `POST /v2/feepayer`: empty (or only white space), or a JSON object whose
 * `withoutAccountUpdate`, when present and not `null`, is a boolean. Anything else → 400
 * `1061615` naming `body` or the field.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseFeePayerBody = (text: string): Either.Either<{ readonly withoutAccountUpdate: boolean }, ApiError.ApiError> => {
  if (text.trim() === "") return Either.right({ withoutAccountUpdate: false })
  return Either.flatMap(jsonObject(text), (body) => {
    const value: unknown = body.withoutAccountUpdate
    if (value === undefined || value === null) return Either.right({ withoutAccountUpdate: false })
    return typeof value === "boolean"
      ? Either.right({ withoutAccountUpdate: value })
      : Either.left(ApiError.outOfRange("withoutAccountUpdate"))
  })
}

/**
 * Which transfer endpoint: `/v2/tx/value` (the sender pays), `/v2/tx/fd/value` (the global fee
 * payer) or `/v2/tx/fd-user/value` (the member's fee-payer account).
 *
 * @since 0.2.0
 * @category models
 */
export type TransferKind = "value" | "fd" | "fd-user"

const transferPaths: Readonly<Record<string, TransferKind>> = {
  "/v2/tx/value": "value",
  "/v2/tx/fd/value": "fd",
  "/v2/tx/fd-user/value": "fd-user"
}

const transferSchemas = {
  value: Schema.decodeUnknownEither(Wire.ValueTransferBody),
  fd: Schema.decodeUnknownEither(Wire.FeeDelegatedTransferBody),
  "fd-user": Schema.decodeUnknownEither(Wire.UserFeeDelegatedTransferBody)
}

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/
const ZERO_ADDRESS = /^0x0{40}$/i

/**
 * The service's error for a transfer body its schema refused, by the first field the failure
 * names: an address (`from`, `to`, `feePayer`) missing, empty or (for `to`) zero → 1061608, else
 * 1061609; `value` missing → 1061608, not `0x` hex → 1061607, too large → 1061615; `feeRatio` →
 * 1061616; a field the endpoint does not take, or anything else (`nonce`, `gas`, `memo`, `submit`
 * of the wrong type) → 1061615 naming it.
 *
 * @since 0.2.0
 * @category parsing
 */
export const transferBodyError = (body: Readonly<Record<string, unknown>>, error: ParseResult.ParseError): ApiError.ApiError => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  const field = issue !== undefined && issue.path.length > 0 ? String(issue.path[0]) : "body"
  // A field the endpoint does not take (`feeRatio` on /v2/tx/value, a misspelt `fee_payer`).
  if (issue?._tag === "Unexpected") return ApiError.outOfRange(field)
  const raw = body[field]
  const absent = raw === undefined || raw === null || raw === ""
  switch (field) {
    case "from":
    case "to":
    case "feePayer":
      return absent || (typeof raw === "string" && ZERO_ADDRESS.test(raw)) ? ApiError.missing(field) : ApiError.notAddress(field)
    case "value":
      if (absent) return ApiError.missing(field)
      return typeof raw === "string" && HEX_QUANTITY.test(raw) ? ApiError.outOfRange(field) : ApiError.notHex(field)
    case "feeRatio":
      return ApiError.feeRatioOutOfRange()
    default:
      return ApiError.outOfRange(field)
  }
}

/**
 * Reads a transfer body: a JSON object decoded by the endpoint's schema (`ValueTransferBody`,
 * `FeeDelegatedTransferBody`, `UserFeeDelegatedTransferBody`). Not JSON, or not an object → 400
 * 1061615 naming `body`; a field the schema refuses → see `transferBodyError`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseTransferBody = (
  kind: TransferKind,
  text: string
): Either.Either<Wire.TransferBody, ApiError.ApiError> => {
  return Either.flatMap(
    jsonObject(text),
    (object) => Either.mapLeft(transferSchemas[kind](object), (error) => transferBodyError(object, error))
  )
}

const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined => {
  const value: unknown = request.headers[name]
  return typeof value === "string" ? value : undefined
}

/**
 * What the routes need.
 *
 * @since 0.1.0
 * @category models
 */
export interface Dependencies {
  readonly wallet: Wallet.Service
  /** The chain of the transaction routes. */
  readonly ledger: Ledger.Service
  readonly faults: Faults.Injector
  /** The OpenAPI document, serialized. */
  readonly openApi: string
}

/**
 * Builds the HTTP app. It never fails: every outcome is a response, or a dropped connection when a
 * fault asks for one.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (deps: Dependencies): HttpApp.Default<never, HttpServerRequest.HttpServerRequest> => {
  const { faults, ledger, wallet } = deps

  const authenticate = (request: HttpServerRequest.HttpServerRequest) => {
    const value = header(request, "authorization")
    // Node keeps the first of repeated Authorization lines: two credentials are ambiguous, and
    // must never be served as the first one's member.
    const repeated = (NodeHttpServerRequest.toIncomingMessage(request).headersDistinct.authorization?.length ?? 0) > 1
    const credentials = value === undefined || repeated ? Option.none() : Credentials.parseBasic(value)
    return Option.isNone(credentials)
      ? Effect.fail(ApiError.invalidAuthorization())
      : wallet.authenticate(credentials.value)
  }

  const chainOf = (request: HttpServerRequest.HttpServerRequest) => {
    const value = header(request, "x-chain-id")
    if (value === undefined || value === "") return Either.left(ApiError.missing("x-chain-id"))
    return Either.mapLeft(decodeChainId(value), () => ApiError.outOfRange("x-chain-id"))
  }

  const krnOf = (request: HttpServerRequest.HttpServerRequest, kind: Store.Kind) => {
    const value = header(request, "x-krn")?.trim()
    if (value === undefined || value === "") return Either.right(Option.none<Krn.PoolKrn>())
    return Either.match(decodeKrn[kind](value), {
      onLeft: () => Either.left(ApiError.dataNotExist(notAPool[kind])),
      onRight: (krn) => Either.right(Option.some(krn))
    })
  }

  // Authentication, chain and pool: the common prefix of every wallet operation. Member-wide
  // operations (counts, accounts of a public key) check x-krn too, as every route does.
  const selectPool = (request: HttpServerRequest.HttpServerRequest, kind: Store.Kind) =>
    Effect.gen(function*() {
      const caller = yield* authenticate(request)
      const chainId = yield* chainOf(request)
      const krn = yield* krnOf(request, kind)
      return yield* wallet.selectPool(caller, chainId, krn, kind)
    })

  const createAccount = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.flatMap(selectPool(request, "account"), (pool) => wallet.createAccount(pool))

  const createFeePayer = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function*() {
      const pool = yield* selectPool(request, "feePayer")
      // A declared length over the limit is refused unread: Node then discards the body and the
      // client reads the answer. An undeclared one is cut off at the limit (the connection with it).
      const declared = Number(header(request, "content-length") ?? "0")
      if (!(declared <= MaxBodyBytes)) return yield* ApiError.outOfRange("body")
      const text = yield* HttpIncomingMessage.withMaxBodySize(request.text, Option.some(MaxBodyBytes)).pipe(
        Effect.mapError(() => ApiError.outOfRange("body"))
      )
      const { withoutAccountUpdate } = yield* parseFeePayerBody(text)
      return yield* wallet.createAccount(pool, { withoutAccountUpdate })
    })

  /** An operation on one address of the selected pool. */
  const onAddress = <A>(
    request: HttpServerRequest.HttpServerRequest,
    kind: Store.Kind,
    rawAddress: string,
    operation: (pool: Wallet.SelectedPool, address: string) => Effect.Effect<A, ApiError.ApiError | SqlError.SqlError>
  ) =>
    Effect.gen(function*() {
      const pool = yield* selectPool(request, kind)
      const address = yield* parseAddress(rawAddress)
      return yield* operation(pool, address)
    })

  const listAccounts = (request: HttpServerRequest.HttpServerRequest, query: string, kind: Store.Kind) =>
    Effect.gen(function*() {
      const pool = yield* selectPool(request, kind)
      const params = new URLSearchParams(query)
      const size = yield* Either.flatMap(single(params, "size"), parseSize)
      const from = yield* Either.flatMap(single(params, "from-timestamp"), (v) => parseTimestamp("from-timestamp", v))
      const to = yield* Either.flatMap(single(params, "to-timestamp"), (v) => parseTimestamp("to-timestamp", v))
      const cursor = (yield* single(params, "cursor")) ?? ""
      // Fee-payer accounts are never disabled; their listing has no status.
      const status = kind === "account" ? yield* Either.flatMap(single(params, "status"), parseStatus) : "all"
      return yield* wallet.listAccounts(pool, { size, cursor, from, to, status })
    })

  const accountsByPublicKey = (request: HttpServerRequest.HttpServerRequest, rawKey: string) =>
    Effect.gen(function*() {
      const pool = yield* selectPool(request, "account")
      const key = yield* parsePublicKey(rawKey)
      const caller = { memberId: pool.memberId, accountId: pool.accountId }
      return Option.isNone(key)
        ? "{\"items\":[]}"
        : yield* wallet.accountsByPublicKey(caller, pool.chainId, key.value)
    })

  // `x-krn` of the transaction routes: an account pool KRN, and for `fd-user` (and receipts) a
  // fee-payer pool KRN too, comma-separated in either order, each at most once.
  const transactionKrns = (request: HttpServerRequest.HttpServerRequest, feePayerPool: boolean) => {
    const value = header(request, "x-krn")?.trim()
    let account = Option.none<Krn.PoolKrn>()
    let feePayer = Option.none<Krn.PoolKrn>()
    if (value === undefined || value === "") return Either.right({ account, feePayer })
    for (const part of value.split(",").map((p) => p.trim())) {
      const asAccount = decodeKrn.account(part)
      if (Either.isRight(asAccount) && Option.isNone(account)) {
        account = Option.some(asAccount.right)
        continue
      }
      const asFeePayer = feePayerPool ? decodeKrn.feePayer(part) : Either.left(undefined)
      if (Either.isRight(asFeePayer) && Option.isNone(feePayer)) {
        feePayer = Option.some(asFeePayer.right)
        continue
      }
      return Either.left(ApiError.dataNotExist(
        feePayerPool ? "x-krn is not an account pool KRN and a fee-payer pool KRN" : notAPool.account
      ))
    }
    return Either.right({ account, feePayer })
  }

  /**
   * Authentication, chain and the pools of a transaction route. A user fee payer (`fd-user`) must
   * be in the selected fee-payer pool: the member's default one when `x-krn` names none.
   */
  const transactionPools = (request: HttpServerRequest.HttpServerRequest, route: TransferKind | "receipt") =>
    Effect.gen(function*() {
      const caller = yield* authenticate(request)
      const chainId = yield* chainOf(request)
      const krns = yield* transactionKrns(request, route === "fd-user" || route === "receipt")
      const pool = yield* wallet.selectPool(caller, chainId, krns.account, "account")
      const feePayers = route === "fd-user" || Option.isSome(krns.feePayer)
        ? yield* wallet.selectPool(caller, chainId, krns.feePayer, "feePayer")
        : undefined
      return { pool, feePayers }
    })

  const transfer = (request: HttpServerRequest.HttpServerRequest, kind: TransferKind) =>
    Effect.gen(function*() {
      const { feePayers, pool } = yield* transactionPools(request, kind)
      // A declared length over the limit is refused unread; an undeclared one is cut at the limit.
      if (!(Number(header(request, "content-length") ?? "0") <= MaxBodyBytes)) return yield* ApiError.outOfRange("body")
      const text = yield* HttpIncomingMessage.withMaxBodySize(request.text, Option.some(MaxBodyBytes)).pipe(
        Effect.mapError(() => ApiError.outOfRange("body"))
      )
      const body = yield* parseTransferBody(kind, text)
      const feeRatio = body.feeRatio ?? 0
      return yield* ledger.transfer({
        pool,
        from: body.from,
        to: body.to,
        value: body.value,
        memo: body.memo,
        nonce: body.nonce,
        gas: body.gas,
        submit: body.submit ?? true,
        payer: kind === "value"
          ? { _tag: "Sender" }
          : kind === "fd"
          ? { _tag: "Global", feeRatio }
          // The fd-user schema requires feePayer.
          : { _tag: "User", address: body.feePayer!, feeRatio, pool: feePayers }
      })
    })

  const receipt = (request: HttpServerRequest.HttpServerRequest, rawHash: string) =>
    Effect.gen(function*() {
      const { pool } = yield* transactionPools(request, "receipt")
      let hash: string
      try {
        hash = decodeURIComponent(rawHash)
      } catch {
        return yield* ApiError.notHex("transaction-hash")
      }
      if (!HEX.test(hash)) return yield* ApiError.notHex("transaction-hash")
      // Hex of another length is no hash any transaction has.
      if (hash.length !== 66) return yield* ApiError.transactionNotFound()
      return yield* ledger.receipt(pool.chainId, hash.toLowerCase())
    })

  const ok = (body: string | Uint8Array, requestId: string) => json(200, body, requestId)

  const route = (
    request: HttpServerRequest.HttpServerRequest,
    path: string,
    query: string,
    requestId: string
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, ApiError.ApiError | SqlError.SqlError> => {
    const method = request.method
    const answer = (body: Effect.Effect<string | Uint8Array, ApiError.ApiError | SqlError.SqlError>) =>
      Effect.map(body, (b) => ok(b, requestId))
    if (path === "/v2/account" || path === "/v2/feepayer") {
      const kind: Store.Kind = path === "/v2/account" ? "account" : "feePayer"
      if (method === "POST") return answer(kind === "account" ? createAccount(request) : createFeePayer(request))
      if (method === "GET") return answer(Effect.map(listAccounts(request, query, kind), pageBody))
      return Effect.fail(ApiError.methodNotAllowed("GET, POST"))
    }
    if (path.startsWith("/v2/account/") || path.startsWith("/v2/feepayer/")) {
      const kind: Store.Kind = path.startsWith("/v2/account/") ? "account" : "feePayer"
      const [address = "", action, ...rest] = path.slice(kind === "account" ? 12 : 13).split("/")
      if (address === "" || rest.length > 0) return Effect.fail(ApiError.notFound())
      if (action === undefined) {
        if (method === "GET") return answer(onAddress(request, kind, address, wallet.getAccount))
        if (method === "DELETE") return answer(onAddress(request, kind, address, wallet.deleteAccount))
        return Effect.fail(ApiError.methodNotAllowed("GET, DELETE"))
      }
      if (kind === "account" && (action === "disable" || action === "enable")) {
        if (method !== "PUT") return Effect.fail(ApiError.methodNotAllowed("PUT"))
        return answer(onAddress(request, kind, address, (pool, a) => wallet.setEnabled(pool, a, action === "enable")))
      }
      return Effect.fail(ApiError.notFound())
    }
    if (path.startsWith("/v2/pubkey/")) {
      const [key = "", account, ...rest] = path.slice(11).split("/")
      if (key === "" || account !== "account" || rest.length > 0) return Effect.fail(ApiError.notFound())
      if (method !== "GET") return Effect.fail(ApiError.methodNotAllowed("GET"))
      return answer(accountsByPublicKey(request, key))
    }
    if (path === "/v2/stat/count" || path === "/v2/stat/count/krn") {
      if (method !== "GET") return Effect.fail(ApiError.methodNotAllowed("GET"))
      return answer(Effect.flatMap(selectPool(request, "account"), (pool) =>
        path === "/v2/stat/count"
          ? wallet.accountCount({ memberId: pool.memberId, accountId: pool.accountId }, pool.chainId)
          : wallet.poolAccountCount(pool)))
    }
    const transferKind = transferPaths[path]
    if (transferKind !== undefined) {
      if (method !== "POST") return Effect.fail(ApiError.methodNotAllowed("POST"))
      return answer(transfer(request, transferKind))
    }
    if (path.startsWith("/v2/tx/")) {
      const [hash = "", ...rest] = path.slice(7).split("/")
      if (hash === "" || rest.length > 0) return Effect.fail(ApiError.notFound())
      if (method !== "GET") return Effect.fail(ApiError.methodNotAllowed("GET"))
      return answer(receipt(request, hash))
    }
    return Effect.fail(ApiError.notFound())
  }

  const applyFault = (request: HttpServerRequest.HttpServerRequest, fault: Faults.Fault, requestId: string) => {
    switch (fault._tag) {
      case "Latency":
        return Effect.as(Effect.sleep(fault.duration), Option.none<HttpServerResponse.HttpServerResponse>())
      case "Drop":
        return Effect.sync(() => {
          NodeHttpServerRequest.toIncomingMessage(request).socket.destroy()
          return Option.some(HttpServerResponse.empty({ status: 499 }))
        })
      case "Status": {
        const error = fault.status === 429
          ? new ApiError.ApiError({
            status: 429,
            code: ApiError.Code.EmulatorFaultTooManyRequests,
            message: "too many requests (injected fault)",
            headers: { "retry-after": String(fault.retryAfter) }
          })
          : fault.status === 500
          ? new ApiError.ApiError({ status: 500, code: ApiError.Code.EmulatorFaultInternal, message: "internal server error (injected fault)" })
          : new ApiError.ApiError({ status: 503, code: ApiError.Code.EmulatorFaultUnavailable, message: "service unavailable (injected fault)" })
        return Effect.succeed(Option.some(errorResponse(error, requestId)))
      }
    }
  }

  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = randomUUID()
    const url = request.url
    const q = url.indexOf("?")
    const path = q < 0 ? url : url.slice(0, q)
    const query = q < 0 ? "" : url.slice(q + 1)

    if (path === "/health" || path === "/openapi.json") {
      if (request.method !== "GET") return errorResponse(ApiError.methodNotAllowed("GET"), requestId)
      return path === "/health"
        ? json(200, "{\"status\":\"ok\"}", requestId)
        : json(200, deps.openApi, requestId)
    }

    const fault = yield* faults.next
    if (Option.isSome(fault)) {
      const response = yield* applyFault(request, fault.value, requestId)
      if (Option.isSome(response)) return response.value
    }

    return yield* route(request, path, query, requestId).pipe(
      Effect.catchAllCause((cause) => {
        const failure = Cause.failureOption(cause)
        if (Option.isSome(failure) && failure.value._tag === "ApiError") {
          return Effect.succeed(errorResponse(failure.value, requestId))
        }
        // Anything else is the emulator's own failure (storage, a bug): log the cause — it never
        // holds request headers — and answer 500 with a KAS body.
        return Effect.as(
          Effect.logError("request failed", cause).pipe(Effect.annotateLogs("requestId", requestId)),
          errorResponse(ApiError.internal(), requestId)
        )
      })
    )
  })
}
