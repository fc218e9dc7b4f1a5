/**
 * A typed client of a running emulator's console routes (`/_emulator/...`): fund an address, read
 * a balance, mine blocks, read the global fee payer's bills, take a snapshot and revert to it, set
 * the next block's time, for programs that talk to a `kas-wallet emulator` process rather than
 * start one. Its operations are the in-process `Emulator` service's, with the same arguments and
 * answers, over HTTP; each answer is decoded, each refusal a `ConsoleClientError` with a closed set
 * of reasons.
 *
 * It imports nothing of the emulator's server: loading it loads the client's vocabulary and
 * `@effect/platform`'s HttpClient only.
 *
 * @example
 * ```ts
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect, Layer } from "effect"
 * import { ChainId } from "effect-kas-wallet"
 * import { ConsoleClient } from "effect-kas-wallet-emulator"
 *
 * // KAS_WALLET_URL, KAS_ACCESS_KEY_ID, KAS_SECRET_ACCESS_KEY: `eval "$(kas-wallet emulator env)"`.
 * const Console = ConsoleClient.layerConfig().pipe(Layer.provide(FetchHttpClient.layer))
 *
 * const program = Effect.gen(function*() {
 *   const emulator = yield* ConsoleClient.ConsoleClient
 *   const { balance } = yield* emulator.fund(ChainId.Testnet, "0xa809284C83b901eD106Aba4Ccda14628Af128e14", 10n ** 18n)
 * })
 *
 * Effect.runPromise(program.pipe(Effect.provide(Console)))
 * ```
 *
 * @since 0.12.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { type Config, Context, Data, Duration, Effect, Either, Layer, Redacted, Schema } from "effect"
import { Address, Amount, ChainId, Credentials, WalletConfig, WalletError } from "effect-kas-wallet"
import type * as Blocks from "./chain/Blocks.js"
import type * as EmulatorConsole from "./console/EmulatorConsole.js"

/**
 * Why a console call failed, with a closed set of reasons:
 *
 * - `Transport`: the emulator could not be reached, or did not answer within the timeout.
 * - `Unauthorized`: the emulator refused the key (401).
 * - `InvalidInput`: the emulator refused the request (400): a malformed address or amount, a
 *   balance past 2^256 - 1 peb, a `mine` the mining mode does not take; `code` is its KAS code.
 * - `NoConsole`: the URL has no such console route (404): not a `kas-wallet emulator`.
 * - `Server`: any other answer (5xx).
 * - `Decode`: a 200 whose body is not the answer of the route.
 *
 * The message never holds the key: the request is not kept.
 *
 * @since 0.12.0
 * @category errors
 */
export class ConsoleClientError extends Data.TaggedError("ConsoleClientError")<{
  readonly reason: "Transport" | "Unauthorized" | "InvalidInput" | "NoConsole" | "Server" | "Decode"
  readonly message: string
  /** The HTTP status, when the emulator answered. */
  readonly status?: number | undefined
  /** The KAS code of the emulator's answer, when it had one. */
  readonly code?: number | undefined
}> {}

/**
 * What the client needs: the emulator's base URL and a member's key (either form; the secret
 * stays `Redacted`).
 *
 * @since 0.12.0
 * @category models
 */
export interface Options {
  /** The running emulator's base URL, for example `http://127.0.0.1:8787`. */
  readonly url: string | URL
  readonly credentials: Credentials.Credentials
  /** How long one call may wait for its answer. Default 30 seconds. */
  readonly timeout?: Duration.DurationInput | undefined
  /** Applied to the `HttpClient` from context once, after the client's own decoration. */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

/**
 * The console operations of a running emulator, as the `Emulator` service has them.
 *
 * @since 0.12.0
 * @category models
 */
export interface Service {
  /** The emulator's base URL, without a trailing slash. */
  readonly url: string
  /** Credits test value (peb) to any address on a chain: its new balance (`POST /_emulator/fund`). */
  readonly fund: (
    chainId: 8217 | 1001,
    address: Address.Address | string,
    amount: Amount.Peb | bigint
  ) => Effect.Effect<EmulatorConsole.LedgerBalance, ConsoleClientError>
  /** The balance and next nonce of any address on a chain (`GET /_emulator/balance/{address}`). */
  readonly balance: (
    chainId: 8217 | 1001,
    address: Address.Address | string
  ) => Effect.Effect<EmulatorConsole.LedgerBalance, ConsoleClientError>
  /**
   * Makes `blocks` blocks (default 1) on a chain, both when absent (`POST /_emulator/mine`): the
   * blocks made. `InvalidInput` when the emulator does not mine on demand.
   */
  readonly mine: (
    chainId?: 8217 | 1001 | undefined,
    blocks?: number | undefined
  ) => Effect.Effect<ReadonlyArray<Blocks.MinedBlock>, ConsoleClientError>
  /** The global fee payer's bills, one member's or one chain's when asked (`GET /_emulator/bills`). */
  readonly feeBills: (filter?: {
    readonly accountId?: string | undefined
    readonly chainId?: 8217 | 1001 | undefined
  }) => Effect.Effect<ReadonlyArray<EmulatorConsole.FeeBill>, ConsoleClientError>
  /**
   * Takes a snapshot of the whole emulator and answers its id (`POST /_emulator/snapshot`), as
   * `Emulator.snapshot` does.
   */
  readonly snapshot: Effect.Effect<string, ConsoleClientError>
  /**
   * Brings the whole emulator back to a snapshot, dropping it and those taken after it
   * (`POST /_emulator/revert`); `InvalidInput` for an id unknown or reverted already.
   */
  readonly revert: (id: string) => Effect.Effect<void, ConsoleClientError>
  /**
   * Sets the time (Unix seconds) of the next block, from which the chains' time runs
   * (`POST /_emulator/time`); `InvalidInput` for a time before the latest block.
   */
  readonly setNextBlockTime: (unixSeconds: number) => Effect.Effect<void, ConsoleClientError>
}

/**
 * The console client of a running emulator.
 *
 * @since 0.12.0
 * @category tags
 */
export class ConsoleClient extends Context.Tag("effect-kas-wallet-emulator/ConsoleClient")<ConsoleClient, Service>() {}

const Chains = [8217, 1001] as const

/** Peb as the console writes it: decimal digits in a string. */
const Peb = Schema.compose(Schema.BigInt, Amount.PebFromSelf)

const LedgerBalance = Schema.Struct({
  chainId: ChainId.ChainId,
  address: Address.Address,
  balance: Peb,
  nonce: Schema.NonNegativeInt
})

const MinedBlocks = Schema.Array(Schema.Struct({
  chainId: ChainId.ChainId,
  blockNumber: Schema.NonNegativeInt,
  blockHash: Schema.String,
  blockTimeMs: Schema.NonNegativeInt,
  transactions: Schema.Array(Schema.String)
}))

const FeeBills = Schema.Array(Schema.Struct({
  accountId: Schema.String,
  chainId: ChainId.ChainId,
  feePayer: Address.Address,
  fees: Peb,
  transactions: Schema.NonNegativeInt
}))

const SnapshotAnswer = Schema.Struct({ id: Schema.String })

const invalid = (argument: string, description: string) => new WalletError.InvalidArgument({ argument, description })

const baseUrl = (url: string | URL): Either.Either<string, WalletError.InvalidArgument> => {
  let parsed: URL
  try {
    parsed = new URL(url.toString())
  } catch {
    return Either.left(invalid("url", `must be a running emulator's http(s) URL, got ${JSON.stringify(url.toString())}`))
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return Either.left(invalid("url", `must be a running emulator's http(s) URL, got ${JSON.stringify(url.toString())}`))
  }
  return Either.right(parsed.toString().replace(/\/+$/, ""))
}

/** The emulator's refusal as a typed error: its own message and code when it gave a KAS body. */
const refusal = (url: string, status: number, text: string): ConsoleClientError => {
  let message = text.slice(0, 200)
  let code: number | undefined
  try {
    const body = JSON.parse(text) as { readonly code?: unknown; readonly message?: unknown }
    if (typeof body.message === "string") message = body.message
    if (typeof body.code === "number") code = body.code
  } catch {
    // Not a KAS body: shown as it came.
  }
  const reason = status === 400
    ? "InvalidInput"
    : status === 401 || status === 403
    ? "Unauthorized"
    : status === 404
    ? "NoConsole"
    : "Server"
  const text_ = reason === "NoConsole"
    ? `${url} has no emulator console here (HTTP 404): is it a kas-wallet emulator?`
    : reason === "Unauthorized"
    ? `${url} refused the key (HTTP ${status}: ${message})`
    : message
  return new ConsoleClientError({ reason, message: text_, status, code })
}

/**
 * Builds the client over the `HttpClient` in context. Fails with `InvalidArgument` for a URL that
 * is not http(s) or a timeout that is not a duration.
 *
 * @since 0.12.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<Service, WalletError.InvalidArgument, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const url = yield* baseUrl(options.url)
    const timeout = Duration.decodeUnknown(options.timeout ?? "30 seconds")
    if (timeout._tag === "None" || !Duration.greaterThan(timeout.value, Duration.zero)) {
      return yield* invalid("timeout", "must be a positive duration")
    }
    const credentials = options.credentials
    const authorization = "authorization" in credentials
      ? credentials.authorization
      : Credentials.authorization(credentials.accessKeyId, credentials.secretAccessKey)
    const base = yield* HttpClient.HttpClient
    const http = options.transformClient ? options.transformClient(base) : base

    const call = <A>(
      method: "GET" | "POST",
      path: string,
      chainId: 8217 | 1001,
      answer: Schema.Schema<A, any>,
      body?: unknown
    ): Effect.Effect<A, ConsoleClientError> => {
      const request = HttpClientRequest.make(method)(`${url}/_emulator/${path}`).pipe(
        HttpClientRequest.setHeaders({
          authorization: Redacted.value(authorization),
          "x-chain-id": String(chainId),
          accept: "application/json"
        })
      )
      return http.execute(body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body)).pipe(
        Effect.flatMap((response) => Effect.map(response.text, (text) => ({ status: response.status, text }))),
        // The platform's error holds the request, key included: only its reason goes on.
        Effect.mapError((e) =>
          new ConsoleClientError({ reason: "Transport", message: `cannot reach an emulator at ${url} (${e._tag} ${e.reason}): is it running?` })
        ),
        Effect.timeoutFail({
          duration: timeout.value,
          onTimeout: () =>
            new ConsoleClientError({ reason: "Transport", message: `${url} did not answer ${method} /_emulator/${path} within ${Duration.format(timeout.value)}` })
        }),
        Effect.flatMap(({ status, text }) =>
          status !== 200 ? Effect.fail(refusal(url, status, text)) : Effect.try({
            // An empty 200 is an answer of no value (a revert's, say).
            try: () => (text.trim() === "" ? undefined : JSON.parse(text)) as unknown,
            catch: () => new ConsoleClientError({ reason: "Decode", message: `${url} answered ${path} with a body that is not JSON`, status })
          }).pipe(
            Effect.flatMap(Schema.decodeUnknown(answer)),
            Effect.mapError((e) =>
              e._tag === "ConsoleClientError"
                ? e
                : new ConsoleClientError({ reason: "Decode", message: `${url} answered ${path} with an unexpected body: ${e.message}`, status })
            )
          )
        )
      )
    }

    return ConsoleClient.of({
      url,
      fund: (chainId, address, amount) => call("POST", "fund", chainId, LedgerBalance, { address, amount: amount.toString() }),
      balance: (chainId, address) => call("GET", `balance/${encodeURIComponent(address)}`, chainId, LedgerBalance),
      mine: (chainId, blocks) =>
        Effect.map(
          Effect.forEach(chainId !== undefined ? [chainId] : Chains, (id) =>
            call("POST", "mine", id, MinedBlocks, blocks === undefined ? undefined : { blocks })),
          (made) => made.flat()
        ),
      feeBills: (filter) => {
        const query = filter?.accountId !== undefined ? `?accountId=${encodeURIComponent(filter.accountId)}` : ""
        return Effect.map(
          Effect.forEach(filter?.chainId !== undefined ? [filter.chainId] : Chains, (id) => call("GET", `bills${query}`, id, FeeBills)),
          (bills) => bills.flat()
        )
      },
      // Snapshots, reverts and the time are the whole emulator's, whatever chain the header names.
      snapshot: Effect.map(call("POST", "snapshot", ChainId.Testnet, SnapshotAnswer), (answer) => answer.id),
      revert: (id) => Effect.asVoid(call("POST", "revert", ChainId.Testnet, Schema.Unknown, { id })),
      setNextBlockTime: (unixSeconds) => Effect.asVoid(call("POST", "time", ChainId.Testnet, Schema.Unknown, { timestamp: unixSeconds }))
    })
  })

/**
 * The client as a layer, over the `HttpClient` in context.
 *
 * @since 0.12.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<ConsoleClient, WalletError.InvalidArgument, HttpClient.HttpClient> =>
  Layer.effect(ConsoleClient, make(options))

/**
 * The client from the settings `kas-wallet emulator env` prints (by default
 * `WalletConfig.fromEnv`): `KAS_WALLET_URL` (required here), `KAS_ACCESS_KEY_ID`,
 * `KAS_SECRET_ACCESS_KEY`, `KAS_CHAIN_ID`. Every mistake is an `InvalidArgument` naming the
 * setting.
 *
 * @since 0.12.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Config<WalletConfig.Options> = WalletConfig.fromEnv
): Layer.Layer<ConsoleClient, WalletError.InvalidArgument, HttpClient.HttpClient> =>
  Layer.effect(
    ConsoleClient,
    Effect.flatMap(WalletConfig.load(config), (options) =>
      options.baseUrl === undefined
        ? Effect.fail(invalid(WalletConfig.EnvironmentVariables.baseUrl, "is missing: set it to the running emulator's URL (`kas-wallet emulator env` prints it)"))
        : make({ url: options.baseUrl, credentials: options.credentials, timeout: options.deadline }))
  )
