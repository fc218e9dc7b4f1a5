/**
 * The HTTP face of the emulator: reads requests, applies the wire rules of the real service and
 * renders accounts, pages and errors.
 *
 * Routing is a small dispatcher on the raw path rather than a router: the service answers unknown
 * paths (404) and unknown methods of known paths (405) with its own code, 1010007, and hostile paths
 * must never reach a decoder that could fail with a 500.
 *
 * Order of checks on a wallet route, as a gateway does it: path and method, then authentication,
 * then `x-chain-id`, then `x-krn`, then the operation's own parameters.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet/emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Cause, Effect, Either, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import * as ChainId from "../ChainId.js"
import * as Krn from "../Krn.js"
import * as Pagination from "../Pagination.js"
import * as ApiError from "./ApiError.js"
import * as Credentials from "./Credentials.js"
import type * as Faults from "./Faults.js"
import type * as Wallet from "./Wallet.js"

/**
 * The response header carrying the request id (also in every error body).
 *
 * @since 0.1.0
 * @category constants
 */
export const RequestIdHeader = "x-request-id"

const decodeChainId = Schema.decodeUnknownEither(ChainId.FromHeader)
const decodeKrn = Schema.decodeUnknownEither(Krn.AccountPoolKrn)

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const DIGITS = /^-?[0-9]+$/

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
  const { faults, wallet } = deps

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

  const krnOf = (request: HttpServerRequest.HttpServerRequest) => {
    const value = header(request, "x-krn")?.trim()
    if (value === undefined || value === "") return Either.right(Option.none<Krn.AccountPoolKrn>())
    return Either.match(decodeKrn(value), {
      onLeft: () => Either.left(ApiError.dataNotExist("x-krn is not an account pool KRN")),
      onRight: (krn) => Either.right(Option.some(krn))
    })
  }

  // Authentication, chain and pool: the common prefix of every wallet operation.
  const selectPool = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function*() {
      const caller = yield* authenticate(request)
      const chainId = yield* chainOf(request)
      const krn = yield* krnOf(request)
      return yield* wallet.selectPool(caller, chainId, krn)
    })

  const createAccount = (request: HttpServerRequest.HttpServerRequest) => Effect.flatMap(selectPool(request), wallet.createAccount)

  const getAccount = (request: HttpServerRequest.HttpServerRequest, rawAddress: string) =>
    Effect.gen(function*() {
      const pool = yield* selectPool(request)
      let address: string
      try {
        address = decodeURIComponent(rawAddress)
      } catch {
        return yield* ApiError.notAddress("address")
      }
      if (!ADDRESS.test(address)) return yield* ApiError.notAddress("address")
      return yield* wallet.getAccount(pool, address)
    })

  const listAccounts = (request: HttpServerRequest.HttpServerRequest, query: string) =>
    Effect.gen(function*() {
      const pool = yield* selectPool(request)
      const params = new URLSearchParams(query)
      const size = yield* Either.flatMap(single(params, "size"), parseSize)
      const from = yield* Either.flatMap(single(params, "from-timestamp"), (v) => parseTimestamp("from-timestamp", v))
      const to = yield* Either.flatMap(single(params, "to-timestamp"), (v) => parseTimestamp("to-timestamp", v))
      const cursor = (yield* single(params, "cursor")) ?? ""
      return yield* wallet.listAccounts(pool, { size, cursor, from, to })
    })

  const ok = (body: string | Uint8Array, requestId: string) => json(200, body, requestId)

  const route = (
    request: HttpServerRequest.HttpServerRequest,
    path: string,
    query: string,
    requestId: string
  ) => {
    const method = request.method
    if (path === "/v2/account") {
      if (method === "POST") return Effect.map(createAccount(request), (body) => ok(body, requestId))
      if (method === "GET") return Effect.map(listAccounts(request, query), (page) => ok(pageBody(page), requestId))
      return Effect.fail(ApiError.methodNotAllowed("GET, POST"))
    }
    if (path.startsWith("/v2/account/")) {
      const address = path.slice("/v2/account/".length)
      if (address === "" || address.includes("/")) return Effect.fail(ApiError.notFound())
      if (method === "GET") return Effect.map(getAccount(request, address), (body) => ok(body, requestId))
      return Effect.fail(ApiError.methodNotAllowed("GET"))
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
