/**
 * The emulator's HTTP app: gives each request an id, injects the next fault (unless the path is
 * one of the emulator's own anonymous routes), dispatches through the route table, and renders
 * the answer — a 200 with the handler's JSON, or the service's `{code, message, requestId}` body.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Cause, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import * as ApiError from "./ApiError.js"
import type * as Faults from "./Faults.js"
import type * as Route from "./Route.js"
import * as Refusals from "./Refusals.js"
import * as Router from "./Router.js"

/**
 * The response header carrying the request id (also in every error body).
 *
 * @since 0.1.0
 * @category constants
 */
export const RequestIdHeader = "x-request-id"

/**
 * What the app needs: the handlers' services, the table and the fault sequence.
 *
 * @since 0.3.0
 * @category models
 */
export interface Dependencies extends Route.Services {
  readonly table: ReadonlyArray<Route.Route>
  readonly faults: Faults.Injector
}

const json = (status: number, body: string | Uint8Array, requestId: string, headers?: Readonly<Record<string, string>>) =>
  HttpServerResponse.uint8Array(typeof body === "string" ? Buffer.from(body, "utf8") : body, {
    status,
    contentType: "application/json",
    headers: { ...headers, [RequestIdHeader]: requestId }
  })

const errorResponse = (error: ApiError.ApiError, requestId: string) =>
  json(error.status, JSON.stringify(ApiError.toBody(error, requestId)), requestId, error.headers)

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

/**
 * Builds the HTTP app. It never fails: every outcome is a response, or a dropped connection when a
 * fault asks for one.
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = (deps: Dependencies): HttpApp.Default<never, HttpServerRequest.HttpServerRequest> => {
  const router = Router.make(deps.table)
  const { faults } = deps

  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = randomUUID()
    const url = request.url
    const q = url.indexOf("?")
    const path = q < 0 ? url : url.slice(0, q)
    const query = q < 0 ? "" : url.slice(q + 1)
    const match = router.find(path)

    // Faults come before routing, so an unknown path is faulted (and counted) like any other.
    if (Option.isNone(match) || match.value.faulted) {
      const fault = yield* faults.next
      if (Option.isSome(fault)) {
        const response = yield* applyFault(request, fault.value, requestId)
        if (Option.isSome(response)) return response.value
      }
    }

    const answer: Route.Answer = Option.match(match, {
      onNone: () => Effect.fail(ApiError.notFound()),
      // Interval mining: the blocks whose time has come are made before the request reads or
      // writes the chain (Ledger.settle; nothing to do otherwise).
      onSome: ({ params, route }) =>
        Effect.flatMap(route(request.method), (r) => Effect.zipRight(deps.ledger.settle, r.run(deps, request, params, query)))
    })
    return yield* answer.pipe(
      Effect.map((body) => json(200, body, requestId)),
      Effect.catchAllCause((cause) => {
        const failure = Cause.failureOption(cause)
        if (Option.isSome(failure) && failure.value._tag !== "SqlError") {
          const error = failure.value._tag === "ApiError" ? failure.value : Refusals.toApiError(failure.value)
          return Effect.succeed(errorResponse(error, requestId))
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
