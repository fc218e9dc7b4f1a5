/**
 * Configuration of the WalletClient: options and their defaults, loading them from `Config`
 * (environment variables), and per-scope overrides of the pool and chain.
 *
 * @since 0.1.0
 */
import { Config, ConfigError, Context, Duration, Effect, Either, Function, Option, ParseResult, Schema, Stream } from "effect"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as ChainId from "./ChainId.js"
import type * as Credentials from "./Credentials.js"
import * as Krn from "./Krn.js"
import * as WalletError from "./WalletError.js"

/**
 * Production base URL of the KAS wallet API.
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultBaseUrl = "https://wallet-api.klaytnapi.com"

/**
 * Default URL of the KAS Node API (Klaytn JSON-RPC) that `migrateAccounts` reads nonces, the gas
 * price and account keys from.
 *
 * @since 0.8.0
 * @category constants
 */
export const DefaultNodeUrl = "https://node-api.klaytnapi.com/v1/klaytn"

/**
 * Default time allowed for one attempt of a request, response body included: 30 seconds. It is
 * the limit of every attempt of a write, and of a read's attempts after the first (see
 * `DefaultFirstAttemptTimeout`); each within the call's deadline (`DefaultDeadline`).
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultTimeout: Duration.Duration = Duration.seconds(30)

/**
 * Default time allowed for the first attempt of a read (an operation retried after a timeout),
 * response body included: 10 seconds. A connection that went silent is given up early and the
 * read tried again, with the whole `timeout` (and what is left of the deadline) for the later
 * attempts, so that a slow but working service still answers.
 *
 * @since 0.11.0
 * @category constants
 */
export const DefaultFirstAttemptTimeout: Duration.Duration = Duration.seconds(10)

/**
 * Default deadline of one call: 30 seconds for its attempts and the waits between them together.
 * Against a service that never answers, a read fails within it (one attempt of 10 s, then a
 * second cut short at the deadline).
 *
 * @since 0.11.0
 * @category constants
 */
export const DefaultDeadline: Duration.Duration = Duration.seconds(30)

/**
 * Default number of pages a listing stream fetches ahead of its consumer: 1.
 *
 * @since 0.2.0
 * @category constants
 */
export const DefaultReadAhead = 1

/**
 * Default largest response body: 16 MiB, about 32 times a full page of 1000 accounts.
 *
 * @since 0.2.0
 * @category constants
 */
export const DefaultMaxResponseBytes = 16 * 1024 * 1024

/**
 * The largest `maxResponseBytes` accepted: 256 MiB. A body is read into one string, and the
 * JavaScript engine cannot make strings much longer than that.
 *
 * @since 0.2.0
 * @category constants
 */
export const MaxResponseBytesLimit = 256 * 1024 * 1024

/**
 * When and how often a request is tried again.
 *
 * @since 0.1.0
 * @category models
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. Default 3; 1 disables retries. */
  readonly maxAttempts: number
  /** First backoff step; attempt n waits a random time in [0, min(maxDelay, baseDelay·2ⁿ⁻¹)] (full jitter). Default 200 ms. */
  readonly baseDelay: Duration.DurationInput
  /** Cap of the exponential backoff. Default 5 s. */
  readonly maxDelay: Duration.DurationInput
  /** A `Retry-After` longer than this is clamped to it. Default 30 s. */
  readonly maxRetryAfter: Duration.DurationInput
}

/**
 * The default retry policy: 3 attempts, full-jitter exponential backoff from 200 ms capped at 5 s,
 * `Retry-After` honoured up to 30 s.
 *
 * Which failures are retried is fixed by the operation: reads (GET) on HTTP 408, 429, 5xx and
 * transport errors; `createAccount` (POST, not idempotent on the service: a retry could create a
 * second account) only when the connection could not be made at all, so the request never left.
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultRetryPolicy: RetryPolicy = {
  maxAttempts: 3,
  baseDelay: Duration.millis(200),
  maxDelay: Duration.seconds(5),
  maxRetryAfter: Duration.seconds(30)
}

/**
 * A pool selection: an account pool KRN (or its string form, validated before sending), or
 * `null` for the member's default pool (no `x-krn` header).
 *
 * @since 0.1.0
 * @category models
 */
export type PoolSelection = Krn.AccountPoolKrn | string | null

/**
 * A fee-payer pool selection: a fee-payer pool KRN (or its string form, validated before
 * sending), or `null` for the member's default fee-payer pool.
 *
 * @since 0.2.0
 * @category models
 */
export type FeePayerPoolSelection = Krn.FeePayerPoolKrn | string | null

/**
 * A key pool selection: a key pool KRN (or its string form, validated before sending), or `null`
 * for the member's default key pool.
 *
 * @since 0.6.0
 * @category models
 */
export type KeyPoolSelection = Krn.KeyPoolKrn | string | null

/**
 * Options of `WalletClient.make` / `layer`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The API key (see `Credentials`). */
  readonly credentials: Credentials.Credentials
  /** Default chain of every request (`x-chain-id`). */
  readonly chainId: ChainId.ChainId | number
  /** Base URL of the service. Default `DefaultBaseUrl`. */
  readonly baseUrl?: string | URL | undefined
  /**
   * The KAS Node API, Klaytn's JSON-RPC (`klay_chainID`, `klay_gasPrice`,
   * `klay_getTransactionCount`, `klay_getAccountKey`), that `migrateAccounts` reads what the
   * caller did not give from: a node's URL, path included (requests are `POST` to it). Default
   * `DefaultNodeUrl`; the emulator's is `<its URL>/v1/klaytn`. Requests carry the same credentials
   * and `x-chain-id`, and go through the same pipeline (timeout, retries of reads, bounded bodies,
   * scrubbed errors) as the wallet API's.
   *
   * @since 0.8.0
   */
  readonly nodeUrl?: string | URL | undefined
  /** Default pool (`x-krn`); absent or `null`: the member's default pool. */
  readonly pool?: PoolSelection | undefined
  /**
   * Default fee-payer pool of fee-payer operations (`x-krn`); absent or `null`: the member's
   * default fee-payer pool.
   */
  readonly feePayerPool?: FeePayerPoolSelection | undefined
  /**
   * Default key pool of the key service's operations: `createKeys` sends it as `x-krn`, and
   * `listKeys` lists it when given no `krn`. Absent or `null`: the member's default key pool.
   */
  readonly keyPool?: KeyPoolSelection | undefined
  /**
   * Time allowed for one attempt, response body included: every attempt of a write, and a
   * read's attempts after the first (and its first too when given and `firstAttemptTimeout` is
   * not). Default `DefaultTimeout` (30 s). A positive duration; `Duration.infinity` for none.
   */
  readonly timeout?: Duration.DurationInput | undefined
  /**
   * Time allowed for the first attempt of a read (an operation retried after a timeout), response
   * body included: shorter than `timeout`, so that a silent connection is given up and the read
   * tried again early. Default `DefaultFirstAttemptTimeout` (10 s), or `timeout` when that is
   * given. A write's first attempt has `timeout`: a write is not retried once it may have left,
   * so cutting it short would only lose its answer.
   *
   * @since 0.11.0
   */
  readonly firstAttemptTimeout?: Duration.DurationInput | undefined
  /**
   * Deadline of one call: its attempts and the waits between them (backoff, `Retry-After`)
   * together. An attempt is cut short at the deadline, and a wait that would end past it is not
   * begun: the call fails with the last attempt's error. Default `DefaultDeadline` (30 s), or
   * `timeout` when a longer one is given, so that no attempt is cut short by a default. It bounds
   * one request of the service: `sendReliably` (a submission, look-ups, resubmissions) and
   * `awaitReceipt` (a read per poll) make several, each with its own deadline, within their own
   * schedule and timeout. `Duration.infinity` for none.
   *
   * @since 0.11.0
   */
  readonly deadline?: Duration.DurationInput | undefined
  /** Retry policy, partly or wholly overriding `DefaultRetryPolicy`; `false` disables retries. */
  readonly retry?: Partial<RetryPolicy> | false | undefined
  /**
   * How many pages a listing stream fetches ahead of its consumer, 0..16: with 1 (the default)
   * the next page is requested while the consumer works on the current one, once the consumer
   * pulls the last part of it (an item stream hands its first two pages in halves, so a
   * `Stream.take` ending in the first half of one costs no extra request); 0 requests each page
   * only when the consumer pulls it. docs/pagination-and-streaming.md.
   */
  readonly readAhead?: number | undefined
  /**
   * Largest response body read, in bytes after decompression, for every operation; a larger one
   * fails with `ResponseTooLarge` without being read further. 1024 to `MaxResponseBytesLimit`
   * (256 MiB). Absent: each operation's own limit where the operation table gives one (a receipt,
   * which holds every log of its transaction: `WalletApi.ReceiptMaxBytes`, 64 MiB), else
   * `DefaultMaxResponseBytes` (16 MiB; a page of 1000 accounts is about 0.5 MB).
   */
  readonly maxResponseBytes?: number | undefined
  /**
   * Whether the platform's `http.client` spans (and W3C trace headers) are emitted for each HTTP
   * request, under the operation's span. Default `false`: the operation span already carries the
   * method, path and status, and the extra span costs about a fifth of a loopback request.
   */
  readonly httpSpans?: boolean | undefined
  /**
   * Whether every transaction result is checked against the request before it is returned.
   * Default `true`: the fields the request fixed (sender, recipient, value, input or memo, nonce
   * and gas when given, fee payer, fee ratio, account key, the type), and the signed transaction
   * itself: its RLP decoded, its hash recomputed, its JSON fields compared with the RLP's, its
   * signatures recovered to the sender and the fee payer on the call's chain. A mismatch is
   * `WalletError.UnverifiedResult`, never a success. The check loads the Klaytn codec (and its
   * elliptic curve) on the first signed result: bundlers put it in a chunk of its own.
   * `"fields"`: all of it but the signatures' recovery, the one costly part (about 1.3 ms of CPU
   * per signature in JavaScript; docs/benchmarks.md) — a transaction whose signature is not the
   * signer's is refused by the chain and never gets a receipt. `false` returns results as decoded.
   * docs/client.md.
   */
  readonly verifyResults?: boolean | "fields" | undefined
  /** A last transformation of the decorated HttpClient (extra headers, logging, a proxy...). */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

/**
 * Names of the environment variables `fromEnv` reads.
 *
 * @since 0.1.0
 * @category constants
 */
export const EnvironmentVariables = {
  accessKeyId: "KAS_ACCESS_KEY_ID",
  secretAccessKey: "KAS_SECRET_ACCESS_KEY",
  chainId: "KAS_CHAIN_ID",
  baseUrl: "KAS_WALLET_URL",
  nodeUrl: "KAS_NODE_URL",
  pool: "KAS_ACCOUNT_POOL",
  feePayerPool: "KAS_FEEPAYER_POOL",
  keyPool: "KAS_KEY_POOL",
  /** The `deadline` of each call, as a duration with its unit (`5s`, `500ms`, `2m`). */
  deadline: "KAS_TIMEOUT"
} as const

/** What each variable holds, for the messages of a mistake in one. */
const meaning: Record<string, string> = {
  [EnvironmentVariables.accessKeyId]: "the AccessKey ID of your KAS key",
  [EnvironmentVariables.secretAccessKey]: "the Secret AccessKey of your KAS key",
  [EnvironmentVariables.chainId]: "8217 (mainnet) or 1001 (testnet)",
  [EnvironmentVariables.baseUrl]: `the service's base URL (unset: ${DefaultBaseUrl})`,
  [EnvironmentVariables.nodeUrl]: `the KAS Node API's URL, path included (unset: ${DefaultNodeUrl})`,
  [EnvironmentVariables.pool]: "an account pool KRN, krn:<chain-id>:wallet:<account-id>:account-pool:<pool-name> (unset: the default pool)",
  [EnvironmentVariables.feePayerPool]:
    "a fee-payer pool KRN, krn:<chain-id>:wallet:<account-id>:feepayer-pool:<pool-name> (unset: the default fee-payer pool)",
  [EnvironmentVariables.keyPool]: "a key pool KRN, krn:<chain-id>:wallet:<account-id>:key-pool:<pool-name> (unset: the default key pool)",
  [EnvironmentVariables.deadline]: "the deadline of each request, retries included, such as 5s, 500ms or 2m (unset: 30s)"
}

/** A setting's value checked by `schema`; the mistake, if any, in one line (no tree). */
const checked = <A, I extends string>(path: ReadonlyArray<string>, schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema)
  return (value: string): Either.Either<A, ConfigError.ConfigError> =>
    Either.mapLeft(decode(value), (error) =>
      ConfigError.InvalidData([...path], ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => issue.message).join("; ")))
}

/** A required setting. */
// (`Config.string(name)` puts the name in front of the path of what its mapping fails with.)
const required = <A, I extends string>(name: string, schema: Schema.Schema<A, I>): Config.Config<A> =>
  Config.string(name).pipe(Config.mapOrFail(checked([], schema)))

/** An optional setting: absent or empty is unset; anything else must decode. */
const optional = <A>(name: string, schema: Schema.Schema<A, string>): Config.Config<Option.Option<A>> => {
  const check = checked([name], schema)
  return Config.option(Config.string(name)).pipe(
    Config.mapOrFail((value) => Option.isNone(value) || value.value === "" ? Either.right(Option.none()) : Either.map(check(value.value), Option.some))
  )
}

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/**
 * A duration as a person writes it: a positive number and its unit, short (`5s`, `500ms`, `2m`,
 * `1h`) or Effect's (`5 seconds`, `500 millis`). A bare number is refused: seconds or milliseconds
 * would be a guess.
 */
const DurationText = Schema.transformOrFail(Schema.String, Schema.DurationFromSelf, {
  strict: true,
  decode: (text, _, ast) => {
    const short = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)$/.exec(text.trim())
    const duration = short !== null
      ? Option.some(Duration.millis(Number(short[1]) * durationUnits[short[2]!]!))
      : Duration.decodeUnknown(text.trim())
    return Option.isSome(duration) && Duration.greaterThan(duration.value, Duration.zero)
      ? ParseResult.succeed(duration.value)
      : ParseResult.fail(new ParseResult.Type(ast, text, `expected a positive duration with its unit, such as 5s, 500ms or 2m, got ${JSON.stringify(text)}`))
  },
  encode: (duration) => ParseResult.succeed(Duration.format(duration))
})

const Url = Schema.String.pipe(
  Schema.filter((s) => URL.canParse(s), { message: () => "expected a URL such as https://wallet-api.klaytnapi.com" })
)

/**
 * Options from configuration (by default the environment). An empty optional variable counts as
 * unset.
 *
 * | variable | meaning | default |
 * | --- | --- | --- |
 * | `KAS_ACCESS_KEY_ID` | AccessKey ID | required |
 * | `KAS_SECRET_ACCESS_KEY` | Secret AccessKey (read as `Config.redacted`) | required |
 * | `KAS_CHAIN_ID` | `8217` or `1001` | required |
 * | `KAS_WALLET_URL` | base URL | `DefaultBaseUrl` |
 * | `KAS_NODE_URL` | the KAS Node API's URL (`migrateAccounts`) | `DefaultNodeUrl` |
 * | `KAS_ACCOUNT_POOL` | account pool KRN | the member's default pool |
 * | `KAS_FEEPAYER_POOL` | fee-payer pool KRN | the member's default fee-payer pool |
 * | `KAS_KEY_POOL` | key pool KRN | the member's default key pool |
 * | `KAS_TIMEOUT` | `deadline`: each call's, retries included (`5s`, `500ms`, `2m`) | `DefaultDeadline` (30 s) |
 *
 * @since 0.1.0
 * @category config
 */
export const fromEnv: Config.Config<Options> = Config.all({
  accessKeyId: Config.nonEmptyString(EnvironmentVariables.accessKeyId),
  secretAccessKey: Config.redacted(Config.nonEmptyString(EnvironmentVariables.secretAccessKey)),
  chainId: required(EnvironmentVariables.chainId, ChainId.FromHeader),
  baseUrl: optional(EnvironmentVariables.baseUrl, Url),
  nodeUrl: optional(EnvironmentVariables.nodeUrl, Url),
  pool: optional(EnvironmentVariables.pool, Krn.AccountPoolKrn),
  feePayerPool: optional(EnvironmentVariables.feePayerPool, Krn.FeePayerPoolKrn),
  keyPool: optional(EnvironmentVariables.keyPool, Krn.KeyPoolKrn),
  deadline: optional(EnvironmentVariables.deadline, DurationText)
}).pipe(
  Config.map(({ accessKeyId, baseUrl, chainId, deadline, feePayerPool, keyPool, nodeUrl, pool, secretAccessKey }): Options => ({
    credentials: { accessKeyId, secretAccessKey },
    chainId,
    baseUrl: Option.getOrUndefined(baseUrl),
    ...(Option.isSome(nodeUrl) ? { nodeUrl: nodeUrl.value } : {}),
    pool: Option.getOrUndefined(pool),
    feePayerPool: Option.getOrUndefined(feePayerPool),
    ...(Option.isSome(keyPool) ? { keyPool: keyPool.value } : {}),
    ...(Option.isSome(deadline) ? { deadline: deadline.value } : {})
  }))
)

/** Each mistake of a configuration error, with the setting it concerns. */
const mistakes = (error: ConfigError.ConfigError): Array<{ readonly setting: string; readonly problem: string }> => {
  switch (error._op) {
    case "And":
    case "Or":
      return [...mistakes(error.left), ...mistakes(error.right)]
    case "MissingData":
      return [{ setting: error.path.join("_"), problem: "is not set (or empty)" }]
    case "InvalidData":
      return [{ setting: error.path.join("_"), problem: `is invalid: ${error.message.replace(/\s*\n\s*/g, " ")}` }]
    case "SourceUnavailable":
      return [{ setting: error.path.join("_"), problem: `cannot be read: ${error.message}` }]
    case "Unsupported":
      return [{ setting: error.path.join("_"), problem: `is unsupported: ${error.message}` }]
  }
}

/**
 * The `InvalidArgument` of a configuration error: it names the first setting at fault (a
 * variable, with `fromEnv`) and says what it must hold; the others follow in the description.
 *
 * @since 0.2.0
 * @category config
 */
export const fromConfigError = (error: ConfigError.ConfigError): WalletError.InvalidArgument => {
  const all = mistakes(error)
  const [first, ...rest] = all.length > 0 ? all : [{ setting: "configuration", problem: "is invalid" }]
  const hint = meaning[first!.setting]
  return new WalletError.InvalidArgument({
    argument: first!.setting,
    description: `${first!.problem}${hint !== undefined ? `: set it to ${hint}` : ""}` +
      rest.map((m) => `; ${m.setting} ${m.problem}`).join("")
  })
}

/**
 * Loads options from configuration (by default `fromEnv`); a missing or malformed setting is an
 * `InvalidArgument` naming it (see `fromConfigError`), never a defect.
 *
 * @since 0.2.0
 * @category config
 */
export const load = (config: Config.Config<Options> = fromEnv): Effect.Effect<Options, WalletError.InvalidArgument> =>
  Effect.mapError(config, fromConfigError)

/**
 * The pool selected for the current scope, if any (set by `withPool`).
 *
 * @since 0.1.0
 * @category references
 */
export class CurrentPool extends Context.Reference<CurrentPool>()("effect-kas-wallet/WalletConfig/CurrentPool", {
  defaultValue: (): Option.Option<PoolSelection> => Option.none()
}) {}

/**
 * The fee-payer pool selected for the current scope, if any (set by `withFeePayerPool`).
 *
 * @since 0.2.0
 * @category references
 */
export class CurrentFeePayerPool extends Context.Reference<CurrentFeePayerPool>()("effect-kas-wallet/WalletConfig/CurrentFeePayerPool", {
  defaultValue: (): Option.Option<FeePayerPoolSelection> => Option.none()
}) {}

/**
 * The key pool selected for the current scope, if any (set by `withKeyPool`).
 *
 * @since 0.6.0
 * @category references
 */
export class CurrentKeyPool extends Context.Reference<CurrentKeyPool>()("effect-kas-wallet/WalletConfig/CurrentKeyPool", {
  defaultValue: (): Option.Option<KeyPoolSelection> => Option.none()
}) {}

/**
 * The chain selected for the current scope, if any (set by `withChain`).
 *
 * @since 0.1.0
 * @category references
 */
export class CurrentChain extends Context.Reference<CurrentChain>()("effect-kas-wallet/WalletConfig/CurrentChain", {
  defaultValue: (): Option.Option<ChainId.ChainId | number> => Option.none()
}) {}

/**
 * An Effect or a Stream: what a scope override applies to.
 *
 * @since 0.2.0
 * @category models
 */
export type Scopable = Stream.Stream<any, any, any> | Effect.Effect<any, any, any>

/**
 * A scope override, applicable to an Effect or a Stream; it returns the same type.
 *
 * @since 0.1.0
 * @category models
 */
export type Scoped = <S extends Scopable>(self: S) => S

/** Both forms of an override of `tag`: data-last `(value)(self)` and data-first `(self, value)`. */
const scopedBy = <I, A>(tag: Context.Tag<I, Option.Option<A>>): {
  (value: A): Scoped
  <S extends Scopable>(self: S, value: A): S
} =>
  Function.dual(2, <S extends Scopable>(self: S, value: A): S =>
    (Stream.StreamTypeId in self
      ? Stream.provideService(self as Stream.Stream<unknown, unknown, unknown>, tag, Option.some(value))
      : Effect.provideService(self as Effect.Effect<unknown, unknown, unknown>, tag, Option.some(value))) as S)

/**
 * Runs an Effect or a Stream with `pool` selected for every request in it that does not name a
 * pool itself (`null`: the member's default pool). Data-first or data-last.
 *
 * @example
 * ```ts
 * import { WalletClient, WalletConfig } from "effect-kas-wallet"
 *
 * const inPayroll = WalletClient.createAccount().pipe(
 *   WalletConfig.withPool("krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:payroll")
 * )
 * ```
 *
 * @since 0.1.0
 * @category scoping
 */
export const withPool: {
  (pool: PoolSelection): Scoped
  <S extends Scopable>(self: S, pool: PoolSelection): S
} = scopedBy(CurrentPool)

/**
 * Runs an Effect or a Stream with `feePayerPool` selected for every fee-payer operation, and every
 * transfer paid by a user fee payer, that does not name one itself (`null`: the member's default
 * fee-payer pool). Data-first or data-last.
 *
 * @since 0.2.0
 * @category scoping
 */
export const withFeePayerPool: {
  (feePayerPool: FeePayerPoolSelection): Scoped
  <S extends Scopable>(self: S, feePayerPool: FeePayerPoolSelection): S
} = scopedBy(CurrentFeePayerPool)

/**
 * Runs an Effect or a Stream with `keyPool` selected for every key-service operation that does not
 * name one itself (`null`: the member's default key pool). Data-first or data-last.
 *
 * @since 0.6.0
 * @category scoping
 */
export const withKeyPool: {
  (keyPool: KeyPoolSelection): Scoped
  <S extends Scopable>(self: S, keyPool: KeyPoolSelection): S
} = scopedBy(CurrentKeyPool)

/**
 * Runs an Effect or a Stream on `chainId` for every request in it that does not name a chain
 * itself. Data-first or data-last.
 *
 * @since 0.1.0
 * @category scoping
 */
export const withChain: {
  (chainId: ChainId.ChainId | number): Scoped
  <S extends Scopable>(self: S, chainId: ChainId.ChainId | number): S
} = scopedBy(CurrentChain)
