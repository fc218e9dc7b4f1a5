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
import { type Config, type ConfigError, Context, Effect, Layer, Redacted, Stream, type Tracer } from "effect"
import * as Account from "./Account.js"
import * as Address from "./Address.js"
import type * as ChainId from "./ChainId.js"
import * as Auth from "./internal/auth.js"
import * as Listing from "./internal/listing.js"
import * as Options from "./internal/options.js"
import { pages } from "./internal/paginate.js"
import * as Request from "./internal/request.js"
import { version } from "./internal/version.js"
import * as Pagination from "./Pagination.js"
import * as WalletConfig from "./WalletConfig.js"
import type * as WalletError from "./WalletError.js"

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
export interface ListParams extends CallOptions, Listing.Params {
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

const validAddress = Options.argument("address", Address.Address)

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
    const settings = yield* Options.resolve(options)
    const base = yield* HttpClient.HttpClient
    const headers = {
      authorization: Redacted.value(settings.auth.header),
      accept: "application/json",
      "user-agent": userAgent
    }
    const decorated = (settings.httpSpans ? base : HttpClient.withTracerDisabledWhen(base, () => true)).pipe(
      HttpClient.mapRequest((request) =>
        HttpClientRequest.setHeaders(HttpClientRequest.prependUrl(request, settings.baseUrl), headers)
      ),
      HttpClient.transform(Request.noRedirects)
    )
    const pipeline: Request.Pipeline = {
      client: settings.transformClient !== undefined ? settings.transformClient(decorated) : decorated,
      timeout: settings.timeout,
      retry: settings.retry,
      maxResponseBytes: settings.maxResponseBytes,
      auth: settings.auth
    }

    const scrubbingTracers = new WeakMap<Tracer.Tracer, Tracer.Tracer>()
    const scrubbed = (tracer: Tracer.Tracer): Tracer.Tracer => {
      let wrapped = scrubbingTracers.get(tracer)
      if (wrapped === undefined) {
        wrapped = Auth.scrubbingTracer(tracer, settings.auth.scrub)
        scrubbingTracers.set(tracer, wrapped)
      }
      return wrapped
    }

    /** The chain and pool of a call, and their headers. */
    const target = (call: Options.Selection | undefined) =>
      Effect.contextWithEffect((context: Context.Context<never>) => Options.targetOf(settings.target, call, context))

    const targetHeaders = (t: Options.Target): Record<string, string> =>
      t.pool !== undefined
        ? { "x-chain-id": String(t.chainId), "x-krn": t.pool.toString() }
        : { "x-chain-id": String(t.chainId) }

    /** One operation: its span (named after it, with the target and the request), then the pipeline. */
    const send = <A>(
      name: string,
      t: Options.Target,
      call: Request.Call<A>,
      attributes?: Record<string, unknown>
    ): Effect.Effect<A, WalletError.WalletError> => {
      const path = Request.pathOf(call.request)
      const traced = Effect.withSpan(Request.run(pipeline, call, path), `WalletClient.${name}`, {
        attributes: {
          "kas.chain_id": t.chainId,
          "kas.pool": t.pool !== undefined ? t.pool.toString() : "default",
          "http.request.method": call.request.method,
          "url.path": settings.auth.scrub(path),
          ...attributes
        },
        // A stack trace here would point into this file, and capturing it costs more than the
        // rest of the span.
        captureStackTrace: false
      })
      // The platform's spans record the response headers, where a server may echo the credentials.
      return settings.httpSpans ? Effect.tracerWith((tracer) => Effect.withTracer(traced, scrubbed(tracer))) : traced
    }

    const createAccount: Service["createAccount"] = (call) =>
      Effect.flatMap(target(call), (t) =>
        send("createAccount", t, {
          request: HttpClientRequest.post("/v2/account", { headers: targetHeaders(t) }),
          idempotent: false,
          decode: Account.decodeAccount
        }))

    const getAccount: Service["getAccount"] = (address, call) =>
      Effect.flatMap(Effect.all([validAddress(address), target(call)]), ([checked, t]) =>
        send("getAccount", t, {
          request: HttpClientRequest.get(`/v2/account/${checked}`, { headers: targetHeaders(t) }),
          idempotent: true,
          decode: Account.decodeAccount
        }, { "kas.address": checked }))

    /** A listing, validated once: its target, its query, and one page at any cursor. */
    const listing = (params: ListParams | undefined) =>
      Effect.map(Effect.all([Listing.query(params), target(params)]), ([query, t]) => ({
        query,
        page: (cursor: string) =>
          send("listAccounts", t, {
            request: HttpClientRequest.get("/v2/account", {
              urlParams: Listing.urlParams(query, cursor),
              headers: targetHeaders(t)
            }),
            idempotent: true,
            decode: Account.decodePage
          }, { "kas.page_size": query.size ?? Pagination.DefaultPageSize })
      }))

    const listAccounts: Service["listAccounts"] = (params) =>
      Effect.flatMap(listing(params), (l) => l.page(l.query.cursor))

    const accountPages: Service["accountPages"] = (params) =>
      Stream.unwrap(Effect.map(listing(params), (l) =>
        pages({ start: l.query.cursor, fetch: l.page, readAhead: settings.readAhead, path: "/v2/account" })))

    const accounts: Service["accounts"] = (params) =>
      Stream.mapConcat(accountPages(params), (page) => page.items)

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
