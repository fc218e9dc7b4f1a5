/**
 * The WalletClient service: typed account operations of the KAS wallet API over any
 * `HttpClient` (fetch in browsers, Deno, Bun and edge runtimes; Node's http client), with
 * listings as Streams.
 *
 * @example
 * ```ts
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect, Layer, Redacted, Stream } from "effect"
 * import { ChainId, WalletClient } from "effect-kas-wallet"
 *
 * const Wallet = WalletClient.layer({
 *   credentials: { accessKeyId: "KASK...", secretAccessKey: Redacted.make("...") },
 *   chainId: ChainId.Testnet
 * }).pipe(Layer.provide(FetchHttpClient.layer))
 *
 * const program = Effect.gen(function* () {
 *   const created = yield* WalletClient.createAccount()
 *   const same = yield* WalletClient.getAccount(created.address)
 *   const recent = yield* WalletClient.accounts({ pageSize: 100 }).pipe(Stream.take(10), Stream.runCollect)
 * })
 *
 * program.pipe(Effect.provide(Wallet), Effect.runPromise)
 * ```
 *
 * @since 0.1.0
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import {
  Config,
  type ConfigError,
  Chunk,
  Context,
  Duration,
  Effect,
  Either,
  Fiber,
  Layer,
  Option,
  ParseResult,
  Redacted,
  Schema,
  Stream
} from "effect"
import * as Account from "./Account.js"
import * as Address from "./Address.js"
import * as ChainId from "./ChainId.js"
import { describeParseError } from "./internal/issues.js"
import * as Request from "./internal/request.js"
import { version } from "./internal/version.js"
import * as Krn from "./Krn.js"
import * as Pagination from "./Pagination.js"
import * as Timestamp from "./Timestamp.js"
import * as WalletConfig from "./WalletConfig.js"
import * as WalletError from "./WalletError.js"

export {
  /**
   * Runs an Effect or a Stream on a chain (see `WalletConfig.withChain`).
   *
   * @since 0.1.0
   * @category scoping
   */
  withChain,
  /**
   * Runs an Effect or a Stream with a pool selected (see `WalletConfig.withPool`).
   *
   * @since 0.1.0
   * @category scoping
   */
  withPool
} from "./WalletConfig.js"

/**
 * Per-call selection of chain and pool. Unset fields fall back to the scope (`withChain`,
 * `withPool`), then to the layer's options.
 *
 * @since 0.1.0
 * @category models
 */
export interface CallOptions {
  /** Chain of this call (`x-chain-id`). */
  readonly chainId?: ChainId.ChainId | number | undefined
  /** Pool of this call (`x-krn`); `null` for the member's default pool. */
  readonly pool?: WalletConfig.PoolSelection | undefined
}

/**
 * Listing parameters. `pageSize` (alias `size`, the wire name) is the number of accounts per
 * request, 1..1000 (the service's default is 100), never a total: bound a total with
 * `Stream.take`. `from` / `to` bound `createdAt` inclusively, in Unix seconds or as `Date`s; 0 or
 * absent means unbounded.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListParams extends CallOptions {
  readonly pageSize?: number | undefined
  readonly size?: number | undefined
  /** Continue from this cursor (from a previous page, or an error's `cursor`). */
  readonly cursor?: string | undefined
  readonly from?: number | Date | undefined
  readonly to?: number | Date | undefined
}

/**
 * The WalletClient's operations.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /**
   * Creates an account in the selected pool (POST /v2/account). Not retried once the request may
   * have reached the service: creating is not idempotent.
   */
  readonly createAccount: (options?: CallOptions) => Effect.Effect<Account.Account, WalletError.WalletError>
  /** One account by address (GET /v2/account/{address}); the address is validated first. */
  readonly getAccount: (
    address: Address.Address | string,
    options?: CallOptions
  ) => Effect.Effect<Account.Account, WalletError.WalletError>
  /** One page of the listing (GET /v2/account). */
  readonly listAccounts: (params?: ListParams) => Effect.Effect<Account.AccountPage, WalletError.WalletError>
  /** Every account of the listing, newest first, fetched page by page as the consumer pulls. */
  readonly accounts: (params?: ListParams) => Stream.Stream<Account.Account, WalletError.WalletError>
  /** Every page of the listing, as the consumer pulls. */
  readonly accountPages: (params?: ListParams) => Stream.Stream<Account.AccountPage, WalletError.WalletError>
}

/**
 * The WalletClient service.
 *
 * @since 0.1.0
 * @category tags
 */
export class WalletClient extends Context.Tag("effect-kas-wallet/WalletClient")<WalletClient, Service>() {}

/**
 * The User-Agent the client sends.
 *
 * @since 0.1.0
 * @category constants
 */
export const userAgent = `effect-kas-wallet/${version}`

const invalid = (argument: string, description: string) => new WalletError.InvalidArgument({ argument, description })

/** A pool may only be used on its own chain; `subject` names what carries the other chain. */
const poolOnChain = (
  pool: Krn.AccountPoolKrn | undefined,
  chainId: ChainId.ChainId,
  subject: string
): Either.Either<Krn.AccountPoolKrn | undefined, WalletError.InvalidArgument> =>
  pool !== undefined && pool.chainId !== chainId
    ? Either.left(invalid("pool", `pool ${pool.toString()} is on chain ${pool.chainId}, the ${subject} on chain ${chainId}`))
    : Either.right(pool)

const fromParseError = (fallback: string) => (error: ParseResult.ParseError) => {
  const { head, text } = describeParseError(error)
  return invalid(head ?? fallback, text)
}

const decodeChainId = ParseResult.decodeUnknownEither(ChainId.ChainId)
const decodePoolString = ParseResult.decodeUnknownEither(Krn.AccountPoolKrn)
const isAccountPoolKrn = Schema.is(Schema.typeSchema(Krn.AccountPoolKrn))
const decodeAddress = Schema.decodeUnknownEither(Address.Address)

const validateChain = (raw: unknown): Either.Either<ChainId.ChainId, WalletError.InvalidArgument> =>
  Either.mapLeft(decodeChainId(raw), () => invalid("chainId", `must be 8217 (mainnet) or 1001 (testnet), got ${String(raw)}`))

const validatePool = (raw: unknown): Either.Either<Krn.AccountPoolKrn | undefined, WalletError.InvalidArgument> => {
  if (raw === null || raw === undefined) return Either.right(undefined)
  if (typeof raw === "string") {
    return Either.mapLeft(decodePoolString(raw), (issue) =>
      invalid("pool", ParseResult.ArrayFormatter.formatIssueSync(issue).map((i) => i.message).join("; ")))
  }
  return isAccountPoolKrn(raw)
    ? Either.right(raw)
    : Either.left(invalid("pool", "expected an account pool KRN (krn:<chain-id>:wallet:<account-id>:account-pool:<pool-name>)"))
}

const validateBaseUrl = (raw: string | URL | undefined): Either.Either<string, WalletError.InvalidArgument> => {
  let url: URL
  try {
    url = new URL(raw ?? WalletConfig.DefaultBaseUrl)
  } catch {
    return Either.left(invalid("baseUrl", "not a valid URL"))
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return Either.left(invalid("baseUrl", "must be http(s)"))
  // Credentials in a URL would leak into logs and span attributes: they belong in `credentials`.
  if (url.username !== "" || url.password !== "") {
    return Either.left(invalid("baseUrl", "must not contain credentials; use the credentials option"))
  }
  return Either.right(url.toString().replace(/\/+$/, ""))
}

const base64 = (s: string): string => {
  const bytes = new TextEncoder().encode(s)
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

/** The Authorization value and the strings that must never appear in our output. */
const authorizationOf = (
  credentials: WalletConfig.Credentials
): Either.Either<{ readonly header: Redacted.Redacted<string>; readonly secrets: ReadonlyArray<string> }, WalletError.InvalidArgument> => {
  if ("authorization" in credentials) {
    const value = Redacted.value(credentials.authorization).trim()
    const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(value)
    if (match === null) return Either.left(invalid("credentials", "authorization must be \"Basic <base64(id:secret)>\""))
    let decoded: string
    try {
      decoded = atob(match[1]!)
    } catch {
      return Either.left(invalid("credentials", "authorization is not valid base64"))
    }
    const colon = decoded.indexOf(":")
    if (colon <= 0) return Either.left(invalid("credentials", "authorization must encode \"id:secret\""))
    const secret = decoded.slice(colon + 1)
    return Either.right({ header: Redacted.make(`Basic ${match[1]!}`), secrets: [match[1]!, secret] })
  }
  const id = credentials.accessKeyId
  const secret = Redacted.value(credentials.secretAccessKey)
  if (id === "" || id.includes(":")) return Either.left(invalid("credentials", "accessKeyId must be non-empty and contain no ':'"))
  if (secret === "") return Either.left(invalid("credentials", "secretAccessKey must be non-empty"))
  const encoded = base64(`${id}:${secret}`)
  return Either.right({ header: Redacted.make(`Basic ${encoded}`), secrets: [encoded, secret] })
}

const ListQuery = Schema.Struct({
  pageSize: Schema.optional(Pagination.PageSize),
  size: Schema.optional(Pagination.PageSize),
  cursor: Schema.optional(Schema.String),
  from: Schema.optional(Schema.Union(Schema.Literal(0), Timestamp.FromDateOrSeconds)),
  to: Schema.optional(Schema.Union(Schema.Literal(0), Timestamp.FromDateOrSeconds))
})
const decodeListQuery = Schema.decodeUnknownEither(ListQuery)

interface Target {
  readonly chainId: ChainId.ChainId
  readonly pool: Krn.AccountPoolKrn | undefined
}

interface ListRequest extends Target {
  readonly size: Pagination.PageSize | undefined
  readonly cursor: string
  readonly from: number | undefined
  readonly to: number | undefined
}

// One turn of the event loop, independent of the Clock service (TestClock included).
const nextMacrotask: Effect.Effect<void> = Effect.async<void>((resume) => {
  const timer = typeof setImmediate === "function"
    ? { cancel: clearImmediate, handle: setImmediate(() => resume(Effect.void)) }
    : { cancel: clearTimeout, handle: setTimeout(() => resume(Effect.void), 0) }
  return Effect.sync(() => timer.cancel(timer.handle as never))
})

const spanAttributes = (target: Target, extra?: Record<string, unknown>) => ({
  "kas.chain_id": target.chainId,
  "kas.pool": target.pool !== undefined ? target.pool.toString() : "default",
  ...extra
})

/**
 * Builds the service from options, over the `HttpClient` in context. Fails with
 * `InvalidArgument` when an option is invalid.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: WalletConfig.Options
): Effect.Effect<Service, WalletError.InvalidArgument, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const defaultChain = yield* validateChain(options.chainId)
    const defaultPool = yield* validatePool(options.pool)
    yield* poolOnChain(defaultPool, defaultChain, "client")
    const baseUrl = yield* validateBaseUrl(options.baseUrl)
    const auth = yield* authorizationOf(options.credentials)
    const timeout = Duration.decode(options.timeout ?? WalletConfig.DefaultTimeout)
    const retry = options.retry === false ? undefined : { ...WalletConfig.DefaultRetryPolicy, ...options.retry }
    const prefetch = options.prefetch ?? true

    const staticHeaders = {
      authorization: Redacted.value(auth.header),
      accept: "application/json",
      "user-agent": userAgent
    }
    const base = yield* HttpClient.HttpClient
    const decorated = (options.httpSpans === true ? base : HttpClient.withTracerDisabledWhen(base, () => true)).pipe(
      HttpClient.mapRequest((request) =>
        HttpClientRequest.setHeaders(HttpClientRequest.prependUrl(request, baseUrl), staticHeaders)
      )
    )
    const pipeline: Request.Pipeline = {
      client: options.transformClient !== undefined ? options.transformClient(decorated) : decorated,
      timeout,
      retry,
      scrub: (s) => auth.secrets.reduce((out, secret) => out.split(secret).join("<redacted>"), s)
    }

    const defaultTarget: Target = { chainId: defaultChain, pool: defaultPool }

    /** The value of the most specific level that sets one (call, then scope), validated; else the layer's. */
    const selected = <I, A>(
      call: I | undefined,
      scope: Option.Option<I>,
      validate: (input: I) => Either.Either<A, WalletError.InvalidArgument>,
      layer: A
    ): Either.Either<A, WalletError.InvalidArgument> =>
      call !== undefined ? validate(call) : Option.isSome(scope) ? validate(scope.value) : Either.right(layer)

    /** Chain and pool for a call: call options, then the scope, then the layer's defaults. */
    const resolveTarget = (call: CallOptions | undefined, context: Context.Context<never>): Either.Either<Target, WalletError.InvalidArgument> => {
      const scopeChain = Context.get(context, WalletConfig.CurrentChain)
      const scopePool = Context.get(context, WalletConfig.CurrentPool)
      // The common case, nothing selected beyond the layer: no validation to repeat.
      if (call?.chainId === undefined && call?.pool === undefined && Option.isNone(scopeChain) && Option.isNone(scopePool)) {
        return Either.right(defaultTarget)
      }
      const chainId = selected(call?.chainId, scopeChain, validateChain, defaultChain)
      if (Either.isLeft(chainId)) return Either.left(chainId.left)
      const pool = selected(call?.pool, scopePool, validatePool, defaultPool)
      if (Either.isLeft(pool)) return Either.left(pool.left)
      return Either.map(poolOnChain(pool.right, chainId.right, "request"), (p) => ({ chainId: chainId.right, pool: p }))
    }

    const target = (call: CallOptions | undefined): Effect.Effect<Target, WalletError.InvalidArgument> =>
      Effect.contextWithEffect((context: Context.Context<never>) => resolveTarget(call, context))

    const targetHeaders = (t: Target): Record<string, string> =>
      t.pool !== undefined
        ? { "x-chain-id": String(t.chainId), "x-krn": t.pool.toString() }
        : { "x-chain-id": String(t.chainId) }

    /** One operation: its span (named after it, with the target and the request), then the pipeline. */
    const operation = <A>(
      name: string,
      t: Target,
      call: Request.Call<A>,
      extra?: Record<string, unknown>
    ): Effect.Effect<A, WalletError.WalletError> => {
      const path = Request.pathOf(call.request)
      return Effect.withSpan(Request.run(pipeline, call, path), name, {
        attributes: spanAttributes(t, {
          "http.request.method": call.request.method,
          "url.path": path,
          ...extra
        }),
        // A stack trace here would point into this file, and capturing it costs more than the
        // rest of the span.
        captureStackTrace: false
      })
    }

    const createAccount: Service["createAccount"] = (call) =>
      Effect.flatMap(target(call), (t) =>
        operation("WalletClient.createAccount", t, {
          request: HttpClientRequest.post("/v2/account", { headers: targetHeaders(t) }),
          idempotent: false,
          decode: Account.decodeAccount
        }))

    const getAccount: Service["getAccount"] = (address, call) => {
      const checked = decodeAddress(address)
      if (Either.isLeft(checked)) return Effect.fail(fromParseError("address")(checked.left))
      return Effect.flatMap(target(call), (t) =>
        operation("WalletClient.getAccount", t, {
          request: HttpClientRequest.get(`/v2/account/${checked.right}`, { headers: targetHeaders(t) }),
          idempotent: true,
          decode: Account.decodeAccount
        }, { "kas.address": checked.right }))
    }

    const prepareList = (params: ListParams | undefined): Effect.Effect<ListRequest, WalletError.InvalidArgument> =>
      Effect.gen(function*() {
        const query = yield* Effect.mapError(decodeListQuery(params ?? {}), fromParseError("params"))
        if (query.pageSize !== undefined && query.size !== undefined && query.pageSize !== query.size) {
          return yield* invalid("pageSize", `pageSize (${query.pageSize}) and its alias size (${query.size}) differ`)
        }
        const from = query.from === 0 ? undefined : query.from
        const to = query.to === 0 ? undefined : query.to
        if (from !== undefined && to !== undefined && from > to) {
          return yield* invalid("from", `from (${from}) must not be after to (${to})`)
        }
        const t = yield* target(params)
        return { ...t, size: query.pageSize ?? query.size, cursor: query.cursor ?? "", from, to }
      })

    const listRequest = (list: ListRequest, cursor: string) => {
      const params: Array<[string, string]> = []
      if (list.size !== undefined) params.push(["size", String(list.size)])
      if (cursor !== "") params.push(["cursor", cursor])
      if (list.from !== undefined) params.push(["from-timestamp", String(list.from)])
      if (list.to !== undefined) params.push(["to-timestamp", String(list.to)])
      return HttpClientRequest.get("/v2/account", { urlParams: params, headers: targetHeaders(list) })
    }

    const listOperation = <A>(list: ListRequest, call: Request.Call<A>) =>
      operation("WalletClient.listAccounts", list, call, { "kas.page_size": list.size ?? Pagination.DefaultPageSize })

    const fetchPage = (list: ListRequest, cursor: string) =>
      listOperation(list, { request: listRequest(list, cursor), idempotent: true, decode: Account.decodePage })

    /**
     * A page whose body is parsed but not yet decoded, and its cursor: the eager prefetch sends the
     * next request before decoding this page.
     */
    interface Fetched {
      readonly next: string
      readonly page: Effect.Effect<Account.AccountPage, WalletError.WalletError>
    }

    const fetchParsed = (list: ListRequest, cursor: string): Effect.Effect<Fetched, WalletError.WalletError> => {
      const request = listRequest(list, cursor)
      return listOperation(list, {
        request,
        idempotent: true,
        // Only the cursor is checked here; anything off is reported by the full decoder.
        decode: (body) =>
          typeof body === "object" && body !== null && typeof (body as { cursor?: unknown }).cursor === "string"
            ? Either.right(body as { readonly cursor: string })
            : Either.map(Account.decodePage(body), (page) => ({ cursor: page.cursor as string }))
      }).pipe(
        Effect.map((body): Fetched => ({
          next: body.cursor,
          page: Either.match(Account.decodePage(body), {
            onLeft: (error) =>
              Effect.fail(new WalletError.ResponseDecodeError({
                method: "GET",
                path: Request.pathOf(request),
                status: 200,
                issue: describeParseError(error).text
              })),
            onRight: Effect.succeed
          })
        }))
      )
    }

    const listAccounts: Service["listAccounts"] = (params) =>
      Effect.flatMap(prepareList(params), (list) => fetchPage(list, list.cursor))

    const accountPages: Service["accountPages"] = (params) =>
      Stream.unwrapScoped(Effect.gen(function*() {
        const list = yield* prepareList(params)
        const scope = yield* Effect.scope
        const seen = new Set<string>(list.cursor !== "" ? [list.cursor] : [])
        let cursor = list.cursor
        let pending: Fiber.RuntimeFiber<Fetched, WalletError.WalletError> | undefined
        let repeated: WalletError.RepeatedCursor | undefined
        let done = false
        // Every failure carries the cursor of the page that failed: listing again from it resumes
        // exactly there.
        const fetch = (at: string): Effect.Effect<Fetched, WalletError.WalletError> =>
          Effect.mapError(
            prefetch === "eager"
              ? Effect.map(fetchParsed(list, at), (f) => ({ ...f, page: Effect.mapError(f.page, (e) => WalletError.withCursor(e, at)) }))
              : Effect.map(fetchPage(list, at), (page) => ({ next: page.cursor, page: Effect.succeed(page) })),
            (e) => WalletError.withCursor(e, at)
          )
        const pull: Effect.Effect<Account.AccountPage, Option.Option<WalletError.WalletError>> = Effect.suspend(() => {
          if (repeated !== undefined) {
            const error = repeated
            repeated = undefined
            done = true
            return Effect.fail(Option.some(error))
          }
          if (done) return Effect.fail(Option.none())
          const next = pending !== undefined ? Fiber.join(pending) : fetch(cursor)
          pending = undefined
          return Effect.flatMap(Effect.mapError(next, Option.some), (fetched) => {
            let more = false
            if (fetched.next === "") done = true
            else if (seen.has(fetched.next)) {
              repeated = new WalletError.RepeatedCursor({ method: "GET", path: "/v2/account", cursor: fetched.next })
            } else {
              seen.add(fetched.next)
              cursor = fetched.next
              more = true
            }
            const ahead = (gate: boolean) =>
              Effect.tap(Effect.forkIn(gate ? Effect.zipRight(nextMacrotask, fetch(cursor)) : fetch(cursor), scope), (fiber) => {
                pending = fiber
              })
            if (more && prefetch === "eager") {
              // Send the next request now, and decode this page while the service works on it:
              // the yield lets the forked fetch run until its request is on the wire.
              return Effect.zipRight(Effect.zipRight(ahead(false), Effect.yieldNow()), Effect.mapError(fetched.page, Option.some))
            }
            if (more && prefetch === true) {
              // Fetch ahead while the consumer works on this page. Waiting one macrotask first
              // lets a consumer that is already satisfied (a Stream.take that got its items) end
              // the stream, interrupting this fiber before it sends anything; a consumer doing
              // real (I/O) work yields to the event loop, and the fetch then overlaps with it.
              return Effect.zipLeft(Effect.mapError(fetched.page, Option.some), ahead(true))
            }
            return Effect.mapError(fetched.page, Option.some)
          })
        })
        return Stream.repeatEffectOption(pull)
      }))

    const accounts: Service["accounts"] = (params) =>
      accountPages(params).pipe(Stream.mapConcatChunk((page) => Chunk.unsafeFromArray(page.items as Array<Account.Account>)))

    return WalletClient.of({ createAccount, getAccount, listAccounts, accounts, accountPages })
  })

/**
 * A layer of the service from options, over the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: WalletConfig.Options): Layer.Layer<WalletClient, WalletError.InvalidArgument, HttpClient.HttpClient> =>
  Layer.effect(WalletClient, make(options))

/**
 * A layer of the service from configuration: by default `WalletConfig.fromEnv` (environment
 * variables `KAS_ACCESS_KEY_ID`, `KAS_SECRET_ACCESS_KEY`, `KAS_CHAIN_ID`, `KAS_WALLET_URL`,
 * `KAS_ACCOUNT_POOL`); `extra` adds options that do not come from configuration.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Config<WalletConfig.Options> = WalletConfig.fromEnv,
  extra?: Omit<WalletConfig.Options, "credentials" | "chainId">
): Layer.Layer<WalletClient, WalletError.InvalidArgument | ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.effect(WalletClient, Effect.flatMap(config, (options) => make({ ...options, ...extra })))

/**
 * Creates an account with the WalletClient in context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const createAccount = (options?: CallOptions): Effect.Effect<Account.Account, WalletError.WalletError, WalletClient> =>
  Effect.flatMap(WalletClient, (client) => client.createAccount(options))

/**
 * Gets an account with the WalletClient in context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const getAccount = (
  address: Address.Address | string,
  options?: CallOptions
): Effect.Effect<Account.Account, WalletError.WalletError, WalletClient> =>
  Effect.flatMap(WalletClient, (client) => client.getAccount(address, options))

/**
 * Lists one page with the WalletClient in context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const listAccounts = (params?: ListParams): Effect.Effect<Account.AccountPage, WalletError.WalletError, WalletClient> =>
  Effect.flatMap(WalletClient, (client) => client.listAccounts(params))

/**
 * Streams every account with the WalletClient in context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const accounts = (params?: ListParams): Stream.Stream<Account.Account, WalletError.WalletError, WalletClient> =>
  Stream.unwrap(Effect.map(WalletClient, (client) => client.accounts(params)))

/**
 * Streams every page with the WalletClient in context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const accountPages = (params?: ListParams): Stream.Stream<Account.AccountPage, WalletError.WalletError, WalletClient> =>
  Stream.unwrap(Effect.map(WalletClient, (client) => client.accountPages(params)))
