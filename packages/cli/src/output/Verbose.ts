/**
 * `--verbose`: each request (method, URL with its query string, headers), each response (status
 * and time) and each retry (the attempt, the error that caused it, and the delay the client chose)
 * on stderr. Every line goes through the client's scrubber (`Credentials.scrubber`), which takes
 * the key out of the Authorization header as out of anything else.
 *
 * Requests are observed through the client's `transformClient` option; retries through the span
 * attributes the client sets before it waits (`WalletClient.SpanAttributes`: the attempt, the
 * error that caused it and the delay), by a tracer that wraps the current one.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect, Tracer } from "effect"
import { WalletClient } from "effect-kas-wallet"

const A = WalletClient.SpanAttributes

/**
 * What `--verbose` installs.
 *
 * @since 0.1.0
 * @category models
 */
export interface Verbose {
  /** For the client's `transformClient` option. */
  readonly transformClient: (client: HttpClient.HttpClient) => HttpClient.HttpClient
  /** Runs an effect with its retries observed. */
  readonly observe: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

interface Retry {
  readonly attempt: number
  readonly after: string
  /** The delay the client chose, in milliseconds. */
  readonly delay: number | undefined
}

/**
 * Logs through `log` (one call per line), with every line passed through `scrub` first.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: {
  readonly baseUrl: string
  readonly log: (line: string) => Effect.Effect<void>
  readonly scrub: (s: string) => string
}): Verbose => {
  const log = (line: string) => options.log(options.scrub(line))
  // Set by the tracer (synchronously, inside the client's retry loop) and read by the next request;
  // one command runs one client, so one cell is enough.
  let retry: Retry | undefined

  const describe = (request: HttpClientRequest.HttpClientRequest) => {
    const query = new URLSearchParams(request.urlParams as unknown as Array<[string, string]>).toString()
    const url = request.url.startsWith("/") ? `${options.baseUrl}${request.url}` : request.url
    const headers = Object.entries(request.headers)
      .filter(([name]) => name !== "accept" && name !== "user-agent")
      .map(([name, value]) => `${name}: ${String(value)}`)
    return `> ${request.method} ${url}${query === "" ? "" : `?${query}`}${headers.length > 0 ? ` (${headers.join(", ")})` : ""}`
  }

  const transformClient = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
    HttpClient.transform(client, (effect, request) =>
      Effect.gen(function*() {
        const now = Date.now()
        const pending = retry
        retry = undefined
        if (pending !== undefined) {
          // The delay the client chose (a Retry-After, or its backoff), not a measured time.
          yield* log(`retry: attempt ${pending.attempt} after ${pending.after}, waited ${pending.delay ?? "an unknown number of"} ms`)
        }
        yield* log(describe(request))
        return yield* effect.pipe(
          Effect.tapBoth({
            onFailure: () => Effect.suspend(() => log(`< no response (${Date.now() - now} ms)`)),
            onSuccess: (response) => Effect.suspend(() => log(`< ${response.status} (${Date.now() - now} ms)`))
          })
        )
      }))

  const tracer = (base: Tracer.Tracer): Tracer.Tracer =>
    Tracer.make({
      span: (name, parent, context, links, startTime, kind, spanOptions) => {
        const span = base.span(name, parent, context, links, startTime, kind, spanOptions)
        let attempt: number | undefined
        let after = "an error"
        let delay: number | undefined
        return new Proxy(span, {
          get: (target, property, receiver) =>
            property === "attribute"
              ? (key: string, value: unknown) => {
                // Only the retry's own attributes arm the next request's line: the span's others
                // come after the retried request too.
                if (key === A.retryAfterError || key === A.retryDelayMillis || key === A.retryAttempt) {
                  if (key === A.retryAfterError) after = String(value)
                  if (key === A.retryDelayMillis && typeof value === "number") delay = value
                  if (key === A.retryAttempt && typeof value === "number") attempt = value
                  if (attempt !== undefined) retry = { attempt, after, delay }
                }
                target.attribute(key, value)
              }
              : Reflect.get(target, property, receiver)
        })
      },
      context: (f, fiber) => base.context(f, fiber)
    })

  return {
    transformClient,
    observe: (effect) => Effect.flatMap(Effect.tracer, (base) => Effect.withTracer(effect, tracer(base)))
  }
}
