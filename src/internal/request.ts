/**
 * The request pipeline of the WalletClient: one attempt (send, time out, read, classify, decode),
 * and the retry loop around it.
 *
 * @internal
 */
import type { HttpClient, HttpClientError, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import { Clock, Duration, Effect, Either, ParseResult, Random } from "effect"
import * as ErrorBody from "../ErrorBody.js"
import type { RetryPolicy } from "../WalletConfig.js"
import * as WalletError from "../WalletError.js"
import { timeoutFail } from "./deadline.js"
import { describeParseError } from "./issues.js"
import { parseRetryAfter } from "./retryAfter.js"

/**
 * What the pipeline needs from the client.
 *
 * @internal
 */
export interface Pipeline {
  /** The decorated client: base URL, auth, accept, user agent, the user's transformation. */
  readonly client: HttpClient.HttpClient
  readonly timeout: Duration.Duration
  readonly retry: RetryPolicy | undefined
  /** Removes any secret from a string that came from outside (error descriptions). */
  readonly scrub: (s: string) => string
}

/**
 * One operation's request: `idempotent` decides which failures may be retried.
 *
 * @internal
 */
export interface Call<A> {
  readonly request: HttpClientRequest.HttpClientRequest
  readonly idempotent: boolean
  readonly decode: (body: unknown) => Either.Either<A, ParseResult.ParseError>
}

const REQUEST_ID_HEADERS = ["x-request-id", "x-kas-request-id", "request-id"] as const
const EXCERPT = 200

// Error codes of the platform or runtime meaning the connection was never established, so the
// request never reached the server.
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT"
])

/**
 * The path and query of a request, as errors show it.
 *
 * @internal
 */
export const pathOf = (request: HttpClientRequest.HttpClientRequest): string => {
  const query = new URLSearchParams(request.urlParams as unknown as Array<[string, string]>).toString()
  return query === "" ? request.url : `${request.url}?${query}`
}

/** The innermost message of an error chain, and whether a connect-failure code occurs in it. */
const inspectCause = (cause: unknown): { readonly message: string; readonly connect: boolean } => {
  let message = "request failed"
  let connect = false
  let current: unknown = cause
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    const { code, message: m } = current as { code?: unknown; message?: unknown }
    if (typeof code === "string" && CONNECT_CODES.has(code)) connect = true
    if (typeof m === "string" && m !== "") message = m
    current = (current as { cause?: unknown }).cause
  }
  return { message, connect }
}

const excerpt = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  if (flat === "") return "(empty body)"
  return flat.length > EXCERPT ? `${flat.slice(0, EXCERPT)}…` : flat
}

const requestIdOf = (response: HttpClientResponse.HttpClientResponse): string | undefined => {
  for (const name of REQUEST_ID_HEADERS) {
    const value = response.headers[name]
    if (value !== undefined && value !== "") return value
  }
  return undefined
}

const decodeErrorBody = ParseResult.decodeUnknownEither(ErrorBody.ErrorBody)

const parseJson = (text: string): Either.Either<unknown, string> => {
  try {
    return Either.right(JSON.parse(text))
  } catch (e) {
    return Either.left(e instanceof Error ? e.message : String(e))
  }
}

/** The error for a non-2xx response. */
const serviceError = (
  response: HttpClientResponse.HttpClientResponse,
  text: string,
  method: string,
  path: string,
  now: number
): WalletError.ServiceError => {
  const json = parseJson(text)
  const body = Either.isRight(json) ? decodeErrorBody(json.right) : undefined
  const kas = body !== undefined && Either.isRight(body) ? body.right : undefined
  const requestId = kas?.requestId ?? requestIdOf(response)
  const status = response.status
  const fields = {
    method,
    path,
    status,
    serviceMessage: kas !== undefined ? kas.message : excerpt(text),
    ...(kas !== undefined ? { code: kas.code } : {}),
    ...(requestId !== undefined ? { requestId } : {})
  }
  if (status === 401) return new WalletError.Unauthorized(fields)
  if (status === 429) {
    const retryAfterMillis = parseRetryAfter(response.headers["retry-after"], now)
    return new WalletError.RateLimited({ ...fields, ...(retryAfterMillis !== undefined ? { retryAfterMillis } : {}) })
  }
  if (status >= 500) return new WalletError.ServerError(fields)
  if (kas?.code === ErrorBody.Code.DataNotExist) return new WalletError.AccountNotFound(fields)
  return new WalletError.InvalidRequest(fields)
}

const transportError = (
  pipeline: Pipeline,
  error: HttpClientError.HttpClientError,
  method: string,
  path: string
): WalletError.TransportError => {
  const { connect, message } = inspectCause(error.cause ?? error)
  return new WalletError.TransportError({
    method,
    path,
    reason: error._tag === "RequestError" && connect ? "Connect" : "Network",
    description: pipeline.scrub(message)
  })
}

/** What one attempt classifies: the response and its whole body. */
interface Received {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly text: string
}

/** Classifies a received response: a service error, a decode error, or the decoded value. */
const classify = <A>(call: Call<A>, method: string, path: string, { response, text }: Received): Effect.Effect<A, WalletError.WalletError> => {
  if (response.status < 200 || response.status >= 300) {
    return Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.fail(serviceError(response, text, method, path, now)))
  }
  const decodeFailure = (issue: string) => {
    const requestId = requestIdOf(response)
    return new WalletError.ResponseDecodeError({
      method,
      path,
      status: response.status,
      issue,
      ...(requestId !== undefined ? { requestId } : {})
    })
  }
  const json = parseJson(text)
  if (Either.isLeft(json)) return Effect.fail(decodeFailure(`body is not JSON (${json.left}): ${excerpt(text)}`))
  const decoded = call.decode(json.right)
  return Either.isRight(decoded) ? Effect.succeed(decoded.right) : Effect.fail(decodeFailure(describeParseError(decoded.left).text))
}

/** One attempt: send, read the body within the timeout, classify and decode. */
const attempt = <A>(pipeline: Pipeline, call: Call<A>, method: string, path: string): Effect.Effect<A, WalletError.WalletError> =>
  Effect.matchEffect(
    timeoutFail(
      Effect.flatMap(pipeline.client.execute(call.request), (response) =>
        Effect.map(response.text, (text): Received => ({ response, text }))),
      pipeline.timeout,
      () =>
        new WalletError.TransportError({
          method,
          path,
          reason: "Timeout",
          description: `no complete response within ${Duration.format(pipeline.timeout)}`
        })
    ),
    {
      // Map the platform's errors right away: they hold the request, Authorization header included.
      onFailure: (error) =>
        Effect.fail(error._tag === "TransportError" ? error : transportError(pipeline, error, method, path)),
      onSuccess: (received) =>
        Effect.zipRight(
          Effect.annotateCurrentSpan("http.response.status_code", received.response.status),
          classify(call, method, path, received)
        )
    }
  )

/**
 * Whether a failed attempt may be tried again: reads on 408, 429, 5xx and transport errors;
 * non-idempotent writes only when the connection was never made.
 *
 * @internal
 */
export const isRetryable = (error: WalletError.WalletError, idempotent: boolean): boolean => {
  if (error._tag === "TransportError") return idempotent || error.reason === "Connect"
  if (!idempotent) return false
  return error._tag === "RateLimited" || error._tag === "ServerError" ||
    (error._tag === "InvalidRequest" && error.status === 408)
}

/**
 * How long to wait before attempt `next` (2, 3, ...): the service's `Retry-After` (clamped) when
 * it sent one, otherwise full-jitter exponential backoff.
 *
 * @internal
 */
export const retryDelay = (
  policy: RetryPolicy,
  error: WalletError.WalletError,
  next: number
): Effect.Effect<Duration.Duration> => {
  if (error._tag === "RateLimited" && error.retryAfterMillis !== undefined) {
    return Effect.succeed(Duration.min(Duration.millis(error.retryAfterMillis), Duration.decode(policy.maxRetryAfter)))
  }
  const cap = Math.min(
    Duration.toMillis(policy.maxDelay),
    Duration.toMillis(policy.baseDelay) * 2 ** (next - 2)
  )
  return Effect.map(Random.next, (r) => Duration.millis(Math.floor(r * cap)))
}

/**
 * Runs a call with the pipeline's timeout and retry policy; `path` is `pathOf(call.request)`,
 * which the caller has already computed for its span.
 *
 * @internal
 */
export const run = <A>(
  pipeline: Pipeline,
  call: Call<A>,
  path: string
): Effect.Effect<A, WalletError.WalletError> => {
  const method = call.request.method
  const once = attempt(pipeline, call, method, path)
  const policy = pipeline.retry
  if (policy === undefined || policy.maxAttempts <= 1) return once
  const loop = (n: number): Effect.Effect<A, WalletError.WalletError> =>
    Effect.catchAll(once, (error) =>
      n >= policy.maxAttempts || !isRetryable(error, call.idempotent)
        ? Effect.fail(error)
        : Effect.flatMap(retryDelay(policy, error, n + 1), (delay) =>
          Effect.zipRight(
            Effect.annotateCurrentSpan({ "kas.retry.attempt": n + 1, "kas.retry.after_error": error._tag }),
            Effect.zipRight(Effect.sleep(delay), loop(n + 1))
          ))
    )
  return loop(1)
}
