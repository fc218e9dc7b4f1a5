/**
 * The request pipeline of the WalletClient: one attempt (send, read a bounded body, classify,
 * decode) under a timeout, the retry loop around it, and the scrubbing of every error it lets out.
 *
 * @internal
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Clock, Duration, Effect, Either, Option, ParseResult, Random, Stream } from "effect"
import * as ErrorBody from "../ErrorBody.js"
import * as RefusalReason from "../RefusalReason.js"
import type { RetryPolicy } from "../WalletConfig.js"
import * as WalletError from "../WalletError.js"
import { mapStrings } from "./errors.js"
import type { Auth } from "./auth.js"
import { describeParseError } from "./issues.js"
import { lazyModule } from "./lazyModule.js"
import { retryAfterMillis } from "./retryAfter.js"
import { SpanAttributes } from "./spans.js"
import { within } from "./timeout.js"

/**
 * What the pipeline needs from the client.
 *
 * @internal
 */
export interface Pipeline {
  /** The decorated client: base URL, auth, accept, user agent, the user's transformation. */
  readonly client: HttpClient.HttpClient
  /** Time allowed for every attempt of a write, and for a read's attempts after the first. */
  readonly timeout: Duration.Duration
  /** Time allowed for the first attempt of a read (an idempotent call). */
  readonly firstAttemptTimeout: Duration.Duration
  /** Time allowed for a whole call: its attempts and the waits between them. */
  readonly deadline: Duration.Duration
  readonly retry: RetryPolicy | undefined
  /** Largest body read, in bytes after any decompression. */
  readonly maxResponseBytes: number
  readonly auth: Auth
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
  /** The largest body read for this call; absent, the pipeline's. */
  readonly maxResponseBytes?: number | undefined
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
 * The path and query of a request, as errors and spans show it.
 *
 * @internal
 */
export const pathOf = (request: HttpClientRequest.HttpClientRequest): string => {
  const query = new URLSearchParams(request.urlParams as unknown as Array<[string, string]>).toString()
  return query === "" ? request.url : `${request.url}?${query}`
}

/**
 * The transformation every client of the pipeline gets: redirects are never followed. The KAS API
 * never redirects, and following one would send the request (a POST included) elsewhere; fetch
 * is told so through its `RequestInit` (keeping the user's other settings), the Node transports
 * never follow.
 *
 * @internal
 */
export const noRedirects = <E, R>(
  effect: Effect.Effect<HttpClientResponse.HttpClientResponse, E, R>
): Effect.Effect<HttpClientResponse.HttpClientResponse, E, R> =>
  Effect.flatMap(Effect.serviceOption(FetchHttpClient.RequestInit), (init) =>
    Effect.provideService(effect, FetchHttpClient.RequestInit, { ...Option.getOrUndefined(init), redirect: "manual" }))

// Error codes of Node's zlib (`Z_DATA_ERROR`...) and brotli (`ERR__ERROR_FORMAT_PADDING_1`...):
// fetch failed to decompress a body the server sent with a `Content-Encoding` it does not honour.
const isDecompressionCode = (code: string): boolean => code.startsWith("Z_") || code.startsWith("ERR__ERROR_")

/**
 * The innermost message of an error chain, whether a connect-failure code occurs in it, and
 * whether a decompression failure does.
 */
const inspectCause = (cause: unknown): { readonly message: string; readonly connect: boolean; readonly decompression: boolean } => {
  let message = "request failed"
  let connect = false
  let decompression = false
  let current: unknown = cause
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    const { code, message: m } = current as { code?: unknown; message?: unknown }
    if (typeof code === "string" && CONNECT_CODES.has(code)) connect = true
    if (typeof code === "string" && isDecompressionCode(code)) decompression = true
    if (typeof m === "string" && m !== "") message = m
    current = (current as { cause?: unknown }).cause
  }
  return { message, connect, decompression }
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

/** Where the request went, as every error of an attempt names it. */
interface Where {
  readonly method: string
  readonly path: string
}

// The service's "data don't exist" when the pool of `x-krn` is not the member's
// (`data don't exist; x-krn`, `…; x-krn is not an account pool KRN`).
const POOL = /;\s*x-krn\b/i

/**
 * The error for a response that is not 2xx. `text` is already scrubbed: an excerpt cut through an
 * echoed secret would keep a part of it that no scrubbing can recognise afterwards.
 */
const statusError = (
  response: HttpClientResponse.HttpClientResponse,
  text: string,
  where: Where,
  now: number,
  policy: RetryPolicy | undefined
): WalletError.WalletError => {
  const status = response.status
  if (status < 400 || status > 599) {
    const location = response.headers["location"]
    return new WalletError.UnexpectedStatus({
      ...where,
      status,
      ...(location !== undefined && location !== "" ? { location } : {}),
      serviceMessage: excerpt(text)
    })
  }
  const json = parseJson(text)
  const body = Either.isRight(json) ? decodeErrorBody(json.right) : undefined
  const kas = body !== undefined && Either.isRight(body) ? body.right : undefined
  const requestId = kas?.requestId ?? requestIdOf(response)
  const fields = {
    ...where,
    status,
    serviceMessage: kas !== undefined ? kas.message : excerpt(text),
    ...(kas !== undefined ? { code: kas.code } : {}),
    ...(requestId !== undefined ? { requestId } : {})
  }
  if (status === 401) return new WalletError.Unauthorized(fields)
  if (status === 429) {
    const wait = retryAfterMillis(response.headers["retry-after"], now, policy)
    return new WalletError.RateLimited({ ...fields, ...(wait !== undefined ? { retryAfterMillis: wait } : {}) })
  }
  if (status >= 500) return new WalletError.ServerError(fields)
  if (kas?.code === ErrorBody.Code.DataNotExist) {
    // "data don't exist" about the request's `x-krn` names the pool, not an account.
    return POOL.test(kas.message) ? new WalletError.PoolNotFound(fields) : new WalletError.AccountNotFound(fields)
  }
  if (kas?.code === ErrorBody.Code.SendFailed) {
    return new WalletError.NodeRefusal({ ...fields, reason: RefusalReason.fromMessage(kas.message) })
  }
  return new WalletError.InvalidRequest(fields)
}

/**
 * The error of a failure of the platform: a transport error, or, when fetch could not decompress
 * the body, a decode error (the bytes arrived; they are not what their `Content-Encoding` says, and
 * trying again would fetch the same bytes).
 */
const platformError = (
  error: HttpClientError.HttpClientError,
  where: Where
): WalletError.TransportError | WalletError.ResponseDecodeError => {
  const { connect, decompression, message } = inspectCause(error.cause ?? error)
  if (error._tag === "ResponseError" && decompression) {
    return new WalletError.ResponseDecodeError({
      ...where,
      status: error.response.status,
      issue: `the body is not valid ${error.response.headers["content-encoding"] ?? "compressed data"} (${message})`
    })
  }
  return new WalletError.TransportError({
    ...where,
    reason: error._tag === "RequestError" && connect ? "Connect" : "Network",
    description: message
  })
}

const utf8 = new TextDecoder()

/** Bodies at most this long are read as text and parsed whole: their string is a regular object. */
const WHOLE_BYTES = 64 * 1024

/**
 * Bodies longer than this are read by chunks even when their length is declared, not by the
 * transport's `arrayBuffer`: @effect/platform-node's copies every byte read so far for each chunk
 * it appends, a cost that grows with the square of the length (a 24 MB receipt over
 * `NodeHttpClient.layer`: 1.4-5.8 s of CPU, 0.5 s by chunks; 0.3-0.6 s over undici or fetch
 * either way). Up to this length it is a few milliseconds, and `arrayBuffer` reads a page faster
 * than the stream does over fetch (docs/benchmarks.md, "Where the stream's time goes").
 */
const CHUNKED_BYTES = 1024 * 1024

// Loaded on the first body over WHOLE_BYTES: an application that reads none never downloads it.
// Where it cannot be loaded, the body is parsed whole.
const jsonBytes = Effect.orElseSucceed(lazyModule(() => import("./jsonBytes.js")), () => undefined)

/**
 * The body, never more than `limit` bytes (after decompression, which fetch applies before the
 * bytes reach us): as text when it is at most `WHOLE_BYTES`, as bytes when larger, for
 * `jsonBytes` (a string that large is costly to make and to collect). A declared length
 * over the limit fails before reading; a body without one, or a compressed one, is counted as it
 * streams and abandoned at the limit.
 */
const readBody = (
  response: HttpClientResponse.HttpClientResponse,
  limit: number,
  where: Where
): Effect.Effect<string | Uint8Array, WalletError.WalletError | HttpClientError.ResponseError> => {
  const tooLarge = () => new WalletError.ResponseTooLarge({ ...where, status: response.status, limit })
  const declared = response.headers["content-length"]
  const encoding = response.headers["content-encoding"]
  if (declared !== undefined && /^\d+$/.test(declared)) {
    // Drop the connection now rather than when the response is garbage-collected: the server would
    // keep it busy (fetch's pool holds it until then). Interrupting the body stream aborts the
    // request, before any byte is awaited.
    if (Number(declared) > limit) {
      return Effect.zipRight(
        Effect.ignore(Stream.runDrain(Stream.interruptWhen(response.stream, Effect.void))),
        Effect.fail(tooLarge())
      )
    }
    // The transport reads exactly the declared bytes: the common case needs no counting.
    if ((encoding === undefined || encoding === "identity") && Number(declared) <= CHUNKED_BYTES) {
      return Number(declared) <= WHOLE_BYTES ? response.text : Effect.map(response.arrayBuffer, (buffer) => new Uint8Array(buffer))
    }
  }
  return Effect.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let total = 0
    return response.stream.pipe(
      Stream.runForEachChunk((chunk) => {
        for (const bytes of chunk) {
          total += bytes.length
          if (total > limit) return Effect.fail(tooLarge())
          chunks.push(bytes)
        }
        return Effect.void
      }),
      // A response without a body (fetch's `null` body) is an empty text, as `text` reads it.
      Effect.catchIf((e) => e._tag === "ResponseError" && e.reason === "EmptyBody", () => Effect.void),
      Effect.map(() => {
        let all = chunks[0] ?? new Uint8Array(0)
        if (chunks.length > 1) {
          all = new Uint8Array(total)
          let at = 0
          for (const bytes of chunks) {
            all.set(bytes, at)
            at += bytes.length
          }
        }
        return total <= WHOLE_BYTES ? utf8.decode(all) : all
      })
    )
  })
}

/**
 * The body as `classify` takes it: the text, or a large 2xx body's value parsed in pieces
 * (`jsonBytes`), `false` when one of them held the credentials. What the pieces do not take is
 * read whole, as a smaller body is: the same checks, the same errors.
 */
const textOrValue = (
  pipeline: Pipeline,
  response: HttpClientResponse.HttpClientResponse,
  body: string | Uint8Array
): Effect.Effect<string | { readonly value: unknown } | false> =>
  typeof body === "string"
    ? Effect.succeed(body)
    : Effect.map(response.status >= 200 && response.status < 300 ? jsonBytes : Effect.succeed(undefined), (module) => {
      const parsed = module?.parse(body, pipeline.auth.leaks)
      return parsed === undefined ? utf8.decode(body) : parsed !== "refused" && parsed
    })

/** Classifies a received response: an error, or the decoded value. */
const classify = <A>(
  pipeline: Pipeline,
  call: Call<A>,
  where: Where,
  response: HttpClientResponse.HttpClientResponse,
  body: string | { readonly value: unknown } | false
): Effect.Effect<A, WalletError.WalletError> => {
  const text = typeof body === "string" ? body : ""
  if (response.status < 200 || response.status >= 300) {
    return Effect.flatMap(
      Clock.currentTimeMillis,
      (now) => Effect.fail(statusError(response, pipeline.auth.scrub(text), where, now, pipeline.retry))
    )
  }
  const decodeFailure = (issue: string) => {
    const requestId = requestIdOf(response)
    return new WalletError.ResponseDecodeError({
      ...where,
      status: response.status,
      issue,
      ...(requestId !== undefined ? { requestId } : {})
    })
  }
  // A body echoing our credentials is a hostile or broken server: nothing of it is returned.
  if (body === false || pipeline.auth.leaks(text)) return Effect.fail(decodeFailure("the body contains the client's credentials; refused"))
  const json = typeof body === "string" ? parseJson(text) : Either.right(body.value)
  if (Either.isLeft(json)) return Effect.fail(decodeFailure(`body is not JSON (${json.left}): ${excerpt(text)}`))
  const decoded = call.decode(json.right)
  return Either.isRight(decoded) ? Effect.succeed(decoded.right) : Effect.fail(decodeFailure(describeParseError(decoded.left).text))
}

/** One attempt: send, read the body within `limit` (none when infinite), classify and decode. */
const attempt = <A>(
  pipeline: Pipeline,
  call: Call<A>,
  where: Where,
  limit: Duration.Duration,
  onTimeout: () => WalletError.TransportError
): Effect.Effect<A, WalletError.WalletError> =>
  Effect.flatMap(
    within(
      Effect.flatMap(pipeline.client.execute(call.request), (response) =>
        Effect.map(readBody(response, call.maxResponseBytes ?? pipeline.maxResponseBytes, where), (body) => ({ response, body }))).pipe(
          // Map the platform's errors at once: they hold the request, Authorization header included.
          Effect.catchIf(
            (e): e is HttpClientError.HttpClientError => e._tag === "RequestError" || e._tag === "ResponseError",
            (e) => Effect.fail(platformError(e, where))
          )
        ),
      limit,
      onTimeout
    ),
    ({ body, response }) =>
      Effect.zipRight(
        Effect.annotateCurrentSpan("http.response.status_code", response.status),
        Effect.flatMap(textOrValue(pipeline, response, body), (b) => classify(pipeline, call, where, response, b))
      )
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
    // Already clamped to the policy when the error was made (internal/retryAfter).
    return Effect.succeed(Duration.millis(error.retryAfterMillis))
  }
  const cap = Math.min(
    Duration.toMillis(policy.maxDelay),
    Duration.toMillis(policy.baseDelay) * 2 ** (next - 2)
  )
  return Effect.map(Random.next, (r) => Duration.millis(Math.floor(r * cap)))
}

/**
 * The error of an attempt stopped by its limit, saying which: the operation, the attempt, and
 * whether it was the attempt's own timeout or the call's deadline.
 */
const timedOut = (
  where: Where,
  operation: string,
  attempt: string,
  limit: { readonly deadline: true; readonly total: Duration.Duration; readonly left: number } | {
    readonly deadline: false
    readonly timeout: Duration.Duration
    readonly first: boolean
  }
) =>
  new WalletError.TransportError({
    ...where,
    reason: "Timeout",
    description: limit.deadline
      ? `${operation}: no complete response within ${
        Duration.format(limit.total)
      }, the deadline of the whole call (attempts and the waits between them); ${attempt} was stopped after ${
        Duration.format(Duration.millis(limit.left))
      }`
      : `${operation}: no complete response within ${Duration.format(limit.timeout)}, the timeout of ${
        limit.first ? "a read's first attempt" : "one attempt"
      } (${attempt})`
  })

/**
 * Runs a call with the pipeline's timeouts, deadline and retry policy; `path` is
 * `pathOf(call.request)`, which the caller has already computed for its span, and `operation` the
 * name errors give it. Every attempt has its limit (a read's first the shorter one), cut to what
 * is left of the call's deadline; a wait before a retry that would end past the deadline is not
 * begun, and the call fails with the last error. Every error it fails with is scrubbed of the
 * credentials, whatever the server echoed.
 *
 * @internal
 */
export const run = <A>(
  pipeline: Pipeline,
  call: Call<A>,
  path: string,
  operation: string
): Effect.Effect<A, WalletError.WalletError> => {
  const where: Where = { method: call.request.method, path }
  const policy = pipeline.retry
  const attempts = policy?.maxAttempts ?? 1
  const total = Duration.toMillis(pipeline.deadline)
  const tryAt = (n: number, start: number, now: number): Effect.Effect<A, WalletError.WalletError> => {
    const first = n === 1 && call.idempotent
    const timeout = first ? pipeline.firstAttemptTimeout : pipeline.timeout
    const left = total - (now - start)
    // Reads say how many attempts they may have; a write is tried again only when it never left.
    const which = call.idempotent ? `attempt ${n} of ${attempts}` : `attempt ${n}`
    const cut = left < Duration.toMillis(timeout)
    const once = cut
      ? attempt(pipeline, call, where, Duration.millis(left), () => timedOut(where, operation, which, { deadline: true, total: pipeline.deadline, left }))
      : attempt(pipeline, call, where, timeout, () =>
        timedOut(where, operation, which, {
          deadline: false,
          timeout,
          // Worth saying only when the later attempts have longer.
          first: first && Duration.lessThan(timeout, pipeline.timeout)
        }))
    return Effect.catchAll(once, (error) =>
      policy === undefined || n >= policy.maxAttempts || !isRetryable(error, call.idempotent) ||
        // Stopped at the deadline: the call is over, whatever the clock says.
        (cut && error._tag === "TransportError" && error.reason === "Timeout")
        ? Effect.fail(error)
        : Effect.flatMap(Effect.zip(retryDelay(policy, error, n + 1), Clock.currentTimeMillis), ([delay, failedAt]) => {
          const wait = Duration.toMillis(delay)
          // No time would be left for the next attempt: the last error is the call's.
          if (failedAt + wait - start >= total) return Effect.fail(error)
          return Effect.zipRight(
            Effect.annotateCurrentSpan({
              [SpanAttributes.retryAttempt]: n + 1,
              [SpanAttributes.retryAfterError]: error._tag,
              [SpanAttributes.retryDelayMillis]: wait
            }),
            Effect.zipRight(Effect.sleep(delay), Effect.flatMap(Clock.currentTimeMillis, (now) => tryAt(n + 1, start, now)))
          )
        }))
  }
  return Effect.mapError(
    Effect.flatMap(Clock.currentTimeMillis, (start) => tryAt(1, start, start)),
    (error) => mapStrings(error, pipeline.auth.scrub)
  )
}
