/**
 * The requests of the client: an operation of the table (`WalletApi`) made into a request — its
 * path, query, headers (the chain, and the pool its access takes) and body — and run through the
 * pipeline (timeout, retries, bounded and decoded body, scrubbed errors) under a span named after
 * it. Every operation of every resource goes through `run`; the KAS Node API, which is no operation
 * of the wallet's table, through `send`.
 *
 * @internal
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { type Context, Effect, Either, type ParseResult, Redacted, Schema, type Tracer } from "effect"
import type * as Endpoint from "../api/Endpoint.js"
import { fill } from "../api/Endpoint.js"
import * as Krn from "../Krn.js"
import * as Auth from "../internal/auth.js"
import { decoderOf } from "../internal/decoders.js"
import * as Options from "../internal/options.js"
import * as Request from "../internal/request.js"
import * as Spans from "../internal/spans.js"
import { version } from "../internal/version.js"
import * as WalletConfig from "../WalletConfig.js"
import type * as WalletError from "../WalletError.js"

/**
 * The User-Agent the client sends.
 *
 * @internal
 */
export const userAgent = `effect-kas-wallet/${version}`

/**
 * What one request of an operation takes besides its target: the path's parameters, the query's
 * values (decoded: the table's schemas encode them), the body (its JSON form).
 *
 * @internal
 */
export interface Input<E extends Endpoint.Any> {
  readonly path?: { readonly [K in Endpoint.ParamNames<E["path"]>]: string } | undefined
  readonly urlParams?: Partial<Endpoint.UrlValues<E>> | undefined
  readonly payload?: Endpoint.PayloadJson<E> | undefined
}

/**
 * How one request runs besides its input.
 *
 * @internal
 */
export interface RunOptions<A> {
  /** The span's name after `WalletClient.`; default the operation's name. */
  readonly span?: string | undefined
  /** Attributes of the span besides the chain, the pool, the method and the path. */
  readonly attributes?: Record<string, unknown> | undefined
  /** The decoder of the body; default the operation's result schema's. */
  readonly decode?: ((body: unknown) => Either.Either<A, ParseResult.ParseError>) | undefined
}

/**
 * The requests of one client.
 *
 * @internal
 */
export interface Requests {
  readonly settings: Options.Settings
  /** The chain and pools of a call: its own options, then the scope, then the layer. */
  readonly target: (call: Options.Selection | undefined) => Effect.Effect<Options.Target, WalletError.InvalidArgument>
  /** An operation's request, as it is sent (without the pipeline's headers and base URL). */
  readonly request: <E extends Endpoint.Any>(endpoint: E, t: Options.Target, input: Input<E>) => HttpClientRequest.HttpClientRequest
  /** An operation, run: its answer decoded by its result schema (or `options.decode`). */
  readonly run: <E extends Endpoint.Any, A = Endpoint.Success<E>>(
    endpoint: E,
    t: Options.Target,
    input: Input<E>,
    options?: RunOptions<A>
  ) => Effect.Effect<A, WalletError.WalletError>
  /** A request that is no operation of the table (the KAS Node API), through the node's pipeline. */
  readonly sendToNode: <A>(name: string, t: Options.Target, call: Request.Call<A>, attributes?: Record<string, unknown>) => Effect.Effect<A, WalletError.WalletError>
  /** Scrubs the credentials from text that leaves the client. */
  readonly scrub: (text: string) => string
}

/**
 * The `x-krn` an access sends for a target: the pools it takes, when selected.
 *
 * @internal
 */
export const krnOf = (access: Endpoint.Access, t: Options.Target): string | undefined => {
  switch (access) {
    case "accountPool":
    case "memberWide":
    case "sender":
      return t.pool?.toString()
    case "feePayerPool":
      return t.feePayerPool?.toString()
    case "senderAndFeePayer": {
      // Both pools, comma-joined, when either is selected: the other one is then the default.
      const accountId = t.pool?.accountId ?? t.feePayerPool?.accountId
      if (accountId === undefined) return undefined
      const pool = t.pool ?? Either.getOrThrow(Krn.accountPool(t.chainId, accountId))
      const feePayerPool = t.feePayerPool ?? Either.getOrThrow(Krn.feePayerPool(t.chainId, accountId))
      return `${pool.toString()},${feePayerPool.toString()}`
    }
    case "keyPool":
      return t.keyPool?.toString()
    case "senderAndNamedFeePayer":
    case "member":
      return undefined
  }
}

const encoders = new WeakMap<Schema.Schema.Any, (u: unknown) => Either.Either<unknown, ParseResult.ParseError>>()
const encoderOf = (schema: Schema.Schema.Any) => {
  let encode = encoders.get(schema)
  if (encode === undefined) {
    encode = Schema.encodeUnknownEither(schema as Schema.Schema<unknown, unknown>)
    encoders.set(schema, encode)
  }
  return encode
}

/**
 * The query of a request: the values given, encoded by the operation's schema, in the order of its
 * fields. The values come from the client's own checks: one the schema refuses is a bug.
 *
 * @internal
 */
export const urlParamsOf = <E extends Endpoint.Any>(endpoint: E, values: Partial<Endpoint.UrlValues<E>> | undefined): Array<[string, string]> => {
  if (values === undefined) return []
  const encoded = Either.getOrThrowWith(
    encoderOf(endpoint.urlParamsSchema)(values),
    (e) => new Error(`${endpoint.name}: the client built a query its table refuses: ${e.message}`)
  ) as Record<string, string | undefined>
  const params: Array<[string, string]> = []
  for (const name of Object.keys(endpoint.urlParamsSchema.fields)) {
    const value = encoded[name]
    if (value !== undefined) params.push([name, value])
  }
  return params
}

/**
 * Builds the requests of a client from its settings, over the `HttpClient` given.
 *
 * @internal
 */
export const make = (settings: Options.Settings, base: HttpClient.HttpClient): Requests => {
  const headers = {
    authorization: Redacted.value(settings.auth.header),
    accept: "application/json",
    "user-agent": userAgent
  }
  const pipelineOf = (origin: string): Request.Pipeline => {
    const client = (settings.httpSpans ? base : HttpClient.withTracerDisabledWhen(base, () => true)).pipe(
      HttpClient.mapRequest((request) => HttpClientRequest.setHeaders(HttpClientRequest.prependUrl(request, origin), headers)),
      HttpClient.transform(Request.noRedirects)
    )
    return {
      client: settings.transformClient !== undefined ? settings.transformClient(client) : client,
      timeout: settings.timeout,
      firstAttemptTimeout: settings.firstAttemptTimeout,
      deadline: settings.deadline,
      retry: settings.retry,
      maxResponseBytes: settings.maxResponseBytes ?? WalletConfig.DefaultMaxResponseBytes,
      auth: settings.auth
    }
  }
  const pipeline = pipelineOf(settings.baseUrl)
  // The KAS Node API: the same credentials, timeout, retries and limits, at its own origin.
  const nodePipeline = pipelineOf(settings.node.origin)

  const scrubbingTracers = new WeakMap<Tracer.Tracer, Tracer.Tracer>()
  const scrubbed = (tracer: Tracer.Tracer): Tracer.Tracer => {
    let wrapped = scrubbingTracers.get(tracer)
    if (wrapped === undefined) {
      wrapped = Auth.scrubbingTracer(tracer, settings.auth.scrub)
      scrubbingTracers.set(tracer, wrapped)
    }
    return wrapped
  }

  const target = (call: Options.Selection | undefined) =>
    Effect.contextWithEffect((context: Context.Context<never>) => Options.targetOf(settings.target, call, context))

  /** One request: its span (named after the operation, with the target and the request), then the pipeline. */
  const send = <A>(
    name: string,
    t: Options.Target,
    call: Request.Call<A>,
    attributes: Record<string, unknown> | undefined,
    through: Request.Pipeline
  ): Effect.Effect<A, WalletError.WalletError> => {
    const path = Request.pathOf(call.request)
    const krn = call.request.headers["x-krn"]
    const traced = Spans.withSpan(Request.run(through, call, path, name), `WalletClient.${name}`, {
      attributes: {
        [Spans.SpanAttributes.chainId]: t.chainId,
        [Spans.SpanAttributes.pool]: krn ?? "default",
        "http.request.method": call.request.method,
        "url.path": settings.auth.scrub(path),
        ...attributes
      },
      // A stack trace here would point into this file, and capturing it costs more than the rest
      // of the span.
      captureStackTrace: false
    })
    // The platform's spans record the response headers, where a server may echo the credentials.
    return settings.httpSpans ? Effect.tracerWith((tracer) => Effect.withTracer(traced, scrubbed(tracer))) : traced
  }

  const request = <E extends Endpoint.Any>(endpoint: E, t: Options.Target, input: Input<E>) => {
    const krn = krnOf(endpoint.access, t)
    const made = HttpClientRequest.make(endpoint.method)(
      input.path === undefined ? endpoint.path : fill(endpoint.path, input.path as Record<string, string>),
      {
        urlParams: urlParamsOf(endpoint, input.urlParams),
        headers: krn === undefined ? { "x-chain-id": String(t.chainId) } : { "x-chain-id": String(t.chainId), "x-krn": krn }
      }
    )
    return input.payload === undefined ? made : HttpClientRequest.bodyUnsafeJson(made, input.payload)
  }

  return {
    settings,
    target,
    request,
    // Suspended: a query the client built wrong is a defect of this effect, not a throw.
    run: (endpoint, t, input, options) =>
      Effect.suspend(() => send(
        options?.span ?? endpoint.name,
        t,
        {
          request: request(endpoint, t, input),
          idempotent: endpoint.idempotent,
          decode: options?.decode ?? (decoderOf(endpoint.successSchema as Schema.Schema<any, any>) as never),
          // The options' limit for every operation; else the operation's own, else the pipeline's.
          maxResponseBytes: settings.maxResponseBytes ?? endpoint.maxResponseBytes
        },
        options?.attributes,
        pipeline
      )),
    sendToNode: (name, t, call, attributes) => send(name, t, call, attributes, nodePipeline),
    scrub: settings.auth.scrub
  }
}
