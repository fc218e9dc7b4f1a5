/**
 * `--verbose`: each request (method, URL with its query string, headers with secrets redacted),
 * each response (status and time) and each retry (the attempt, the error that caused it, and the
 * wait) on stderr.
 *
 * Requests are observed through the client's `transformClient` option; retries through the span
 * attributes the client sets before it waits (`kas.retry.attempt`, `kas.retry.after_error`, and
 * `kas.retry.delay_millis` when the client reports the wait it chose), by a tracer that wraps the
 * current one.
 *
 * @since 0.1.0
 */
import { Headers, HttpClient, type HttpClientRequest } from "@effect/platform"
import { Effect, Tracer } from "effect"

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
  readonly at: number
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
    const headers = Object.entries(Headers.redact(request.headers, ["authorization"]))
      .filter(([name]) => name !== "accept" && name !== "user-agent")
      .map(([name, value]) => `${name}: ${String(value)}`)
    return `> ${request.method} ${url}${query === "" ? "" : `?${query}`}${headers.length > 0 ? ` (${headers.join(", ")})` : ""}`
  }

  const transformClient = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
    HttpClient.transform(client, (effect, request) =>
      Effect.gen(function*() {
        // The wall clock, as the tracer's callback (synchronous) reads it for the start of a wait.
        const now = Date.now()
        const pending = retry
        retry = undefined
        if (pending !== undefined) {
          const waited = pending.delay !== undefined ? `${pending.delay} ms` : `${now - pending.at} ms`
          yield* log(`retry: attempt ${pending.attempt} after ${pending.after}, waited ${waited}`)
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
                if (key.startsWith("kas.retry.")) {
                  if (key === "kas.retry.after_error") after = String(value)
                  if (key === "kas.retry.delay_millis" && typeof value === "number") delay = value
                  if (key === "kas.retry.attempt" && typeof value === "number") attempt = value
                  if (attempt !== undefined) retry = { attempt, after, at: Date.now(), delay }
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
