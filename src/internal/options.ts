/**
 * Validation of the WalletClient's options, once per layer, and of the chain and pool of each call
 * (call options, then the scope, then the layer).
 *
 * @internal
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import { Context, Duration, Either, Option, ParseResult, Schema } from "effect"
import * as ChainId from "../ChainId.js"
import * as Krn from "../Krn.js"
import * as WalletConfig from "../WalletConfig.js"
import * as WalletError from "../WalletError.js"
import * as Auth from "./auth.js"
import { describeParseError } from "./issues.js"

/**
 * The options of a client, validated and with their defaults applied.
 *
 * @internal
 */
export interface Settings {
  readonly target: Target
  readonly baseUrl: string
  /** The KAS Node API: its origin (what the node's client prepends) and its path (what it posts to). */
  readonly node: { readonly origin: string; readonly path: string }
  readonly auth: Auth.Auth
  /** Every attempt of a write; a read's after its first. */
  readonly timeout: Duration.Duration
  /** A read's first attempt. */
  readonly firstAttemptTimeout: Duration.Duration
  /** A whole call: attempts and the waits between them. */
  readonly deadline: Duration.Duration
  readonly retry: WalletConfig.RetryPolicy | undefined
  readonly readAhead: number
  /** The limit of every body when the options set one; absent, each operation's (the table's), else the default. */
  readonly maxResponseBytes: number | undefined
  readonly httpSpans: boolean
  /** What of a transaction result is checked: everything, all but the signatures, nothing. */
  readonly verifyResults: "all" | "fields" | "off"
  readonly transformClient: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

/**
 * The chain and pools a request goes to; a pool `undefined` is the member's default pool of its
 * type.
 *
 * @internal
 */
export interface Target {
  readonly chainId: ChainId.ChainId
  readonly pool: Krn.AccountPoolKrn | undefined
  readonly feePayerPool: Krn.FeePayerPoolKrn | undefined
  readonly keyPool: Krn.KeyPoolKrn | undefined
}

/**
 * Per-call selection of chain and pool.
 *
 * @internal
 */
export interface Selection {
  readonly chainId?: ChainId.ChainId | number | undefined
  readonly pool?: WalletConfig.PoolSelection | undefined
  readonly feePayerPool?: WalletConfig.FeePayerPoolSelection | undefined
  readonly keyPool?: WalletConfig.KeyPoolSelection | undefined
}

/**
 * An `InvalidArgument` naming the argument.
 *
 * @internal
 */
export const invalid = (argument: string, description: string) => new WalletError.InvalidArgument({ argument, description })

/**
 * The `InvalidArgument` of a schema failure: named after the failing field, else `fallback`.
 *
 * @internal
 */
export const fromParseError = (fallback: string) => (error: ParseResult.ParseError): WalletError.InvalidArgument => {
  const { head, text } = describeParseError(error, { under: "" })
  return invalid(head ?? fallback, text)
}

/**
 * Decodes one argument with a schema; the failure names `argument`.
 *
 * @internal
 */
export const argument = <A, I>(name: string, schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema)
  return (input: unknown): Either.Either<A, WalletError.InvalidArgument> =>
    Either.mapLeft(decode(input), (error) => invalid(name, describeParseError(error, { under: name }).text))
}

const decodeChainId = ParseResult.decodeUnknownEither(ChainId.ChainId)
const chainOf = (raw: unknown): Either.Either<ChainId.ChainId, WalletError.InvalidArgument> =>
  Either.mapLeft(decodeChainId(raw), () => invalid("chainId", `must be 8217 (mainnet) or 1001 (testnet), got ${String(raw)}`))

/**
 * A pool selection of one kind: `null` or absent is the member's default pool (`undefined`); a
 * string is decoded; a value must already be a KRN of that kind.
 */
const poolSelection = <K>(argument: string, schema: Schema.Schema<K, string>, form: string) => {
  const decodeString = ParseResult.decodeUnknownEither(schema)
  const isKrn = Schema.is(Schema.typeSchema(schema))
  return (raw: unknown): Either.Either<K | undefined, WalletError.InvalidArgument> => {
    if (raw === null || raw === undefined) return Either.right(undefined)
    if (typeof raw === "string") {
      return Either.mapLeft(decodeString(raw), (issue) =>
        invalid(argument, ParseResult.ArrayFormatter.formatIssueSync(issue).map((i) => i.message).join("; ")))
    }
    return isKrn(raw) ? Either.right(raw) : Either.left(invalid(argument, `expected ${form}`))
  }
}

const poolOf = poolSelection("pool", Krn.AccountPoolKrn, "an account pool KRN (krn:<chain-id>:wallet:<account-id>:account-pool:<pool-name>)")
const feePayerPoolOf = poolSelection(
  "feePayerPool",
  Krn.FeePayerPoolKrn,
  "a fee-payer pool KRN (krn:<chain-id>:wallet:<account-id>:feepayer-pool:<pool-name>)"
)

const keyPoolOf = poolSelection("keyPool", Krn.KeyPoolKrn, "a key pool KRN (krn:<chain-id>:wallet:<account-id>:key-pool:<pool-name>)")

/** Pools may only be used on their own chain; `subject` names what carries the other chain. */
const poolsOnChain = (
  chainId: ChainId.ChainId,
  pool: Krn.AccountPoolKrn | undefined,
  feePayerPool: Krn.FeePayerPoolKrn | undefined,
  keyPool: Krn.KeyPoolKrn | undefined,
  subject: string
): Either.Either<Target, WalletError.InvalidArgument> => {
  if (keyPool !== undefined && keyPool.chainId !== chainId) {
    return Either.left(invalid("keyPool", `key pool ${keyPool.toString()} is on chain ${keyPool.chainId}, the ${subject} on chain ${chainId}`))
  }
  if (pool !== undefined && pool.chainId !== chainId) {
    return Either.left(invalid("pool", `pool ${pool.toString()} is on chain ${pool.chainId}, the ${subject} on chain ${chainId}`))
  }
  if (feePayerPool !== undefined && feePayerPool.chainId !== chainId) {
    return Either.left(
      invalid("feePayerPool", `fee-payer pool ${feePayerPool.toString()} is on chain ${feePayerPool.chainId}, the ${subject} on chain ${chainId}`)
    )
  }
  return Either.right({ chainId, pool, feePayerPool, keyPool })
}

const urlOf = (name: string, raw: string | URL): Either.Either<URL, WalletError.InvalidArgument> => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return Either.left(invalid(name, "not a valid URL"))
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return Either.left(invalid(name, "must be http(s)"))
  // Credentials in a URL would leak into logs and span attributes: they belong in `credentials`.
  if (url.username !== "" || url.password !== "") {
    return Either.left(invalid(name, "must not contain credentials; use the credentials option"))
  }
  return Either.right(url)
}

const baseUrlOf = (raw: string | URL | undefined): Either.Either<string, WalletError.InvalidArgument> =>
  Either.map(urlOf("baseUrl", raw ?? WalletConfig.DefaultBaseUrl), (url) => url.toString().replace(/\/+$/, ""))

// The node is posted to at its path: a query or fragment would be dropped on the way.
const nodeUrlOf = (raw: string | URL | undefined): Either.Either<Settings["node"], WalletError.InvalidArgument> =>
  Either.flatMap(urlOf("nodeUrl", raw ?? WalletConfig.DefaultNodeUrl), (url) =>
    url.search !== "" || url.hash !== ""
      ? Either.left(invalid("nodeUrl", "must have no query or fragment"))
      : Either.right({ origin: url.origin, path: url.pathname.replace(/\/+$/, "") || "/" }))

const verificationOf = (value: unknown): Either.Either<"all" | "fields" | "off", WalletError.InvalidArgument> =>
  value === undefined || value === true
    ? Either.right("all")
    : value === false
    ? Either.right("off")
    : value === "fields"
    ? Either.right("fields")
    : Either.left(invalid("verifyResults", `must be true, false or "fields", got ${JSON.stringify(value) ?? String(value)}`))

const durationOf = (name: string, value: unknown): Either.Either<Duration.Duration, WalletError.InvalidArgument> => {
  const duration = Duration.decodeUnknown(value)
  return Option.isSome(duration) && Duration.greaterThan(duration.value, Duration.zero)
    ? Either.right(duration.value)
    : Either.left(invalid(name, `must be a positive duration such as "10 seconds" (or Duration.infinity), got ${JSON.stringify(value) ?? String(value)}`))
}

/**
 * The three limits of a call. Given alone, `timeout` keeps its meaning for every attempt (the
 * first of a read's included), and the default deadline never cuts one short.
 */
const timeoutsOf = (options: WalletConfig.Options) =>
  Either.gen(function*() {
    const given = options.timeout !== undefined ? yield* durationOf("timeout", options.timeout) : undefined
    const timeout = given ?? WalletConfig.DefaultTimeout
    const firstAttemptTimeout = options.firstAttemptTimeout !== undefined
      ? yield* durationOf("firstAttemptTimeout", options.firstAttemptTimeout)
      : given ?? WalletConfig.DefaultFirstAttemptTimeout
    const deadline = options.deadline !== undefined
      ? yield* durationOf("deadline", options.deadline)
      : Duration.max(WalletConfig.DefaultDeadline, timeout)
    return { timeout, firstAttemptTimeout, deadline }
  })

const wholeNumber = (name: string, value: number, min: number, max: number) =>
  Number.isInteger(value) && value >= min && value <= max
    ? Either.right(value)
    : Either.left(invalid(name, `must be an integer from ${min} to ${max}, got ${String(value)}`))

/**
 * Validates the options of a client and applies the defaults of `WalletConfig`.
 *
 * @internal
 */
export const resolve = (options: WalletConfig.Options): Either.Either<Settings, WalletError.InvalidArgument> =>
  Either.gen(function*() {
    const chainId = yield* chainOf(options.chainId)
    const pool = yield* poolOf(options.pool)
    const feePayerPool = yield* feePayerPoolOf(options.feePayerPool)
    const keyPool = yield* keyPoolOf(options.keyPool)
    const target = yield* poolsOnChain(chainId, pool, feePayerPool, keyPool, "client")
    const baseUrl = yield* baseUrlOf(options.baseUrl)
    const node = yield* nodeUrlOf(options.nodeUrl)
    const auth = yield* Auth.make(options.credentials)
    const { deadline, firstAttemptTimeout, timeout } = yield* timeoutsOf(options)
    const readAhead = yield* wholeNumber("readAhead", options.readAhead ?? WalletConfig.DefaultReadAhead, 0, 16)
    // At most 256 MiB: the body becomes one string, and V8 cannot make one of 512 MiB (the
    // platform's Node transport crashes the process trying).
    const verifyResults = yield* verificationOf(options.verifyResults)
    // Absent: each operation's own limit (the table's), else the default.
    const maxResponseBytes = options.maxResponseBytes === undefined
      ? undefined
      : yield* wholeNumber("maxResponseBytes", options.maxResponseBytes, 1024, WalletConfig.MaxResponseBytesLimit)
    return {
      target,
      baseUrl,
      node,
      auth,
      timeout,
      firstAttemptTimeout,
      deadline,
      retry: options.retry === false ? undefined : { ...WalletConfig.DefaultRetryPolicy, ...options.retry },
      readAhead,
      maxResponseBytes,
      httpSpans: options.httpSpans === true,
      verifyResults,
      transformClient: options.transformClient
    }
  })

/**
 * The chain and pools of one call: the call's own options, then the scope (`withChain`,
 * `withPool`, `withFeePayerPool`, `withKeyPool`), then the layer's defaults; a pool must be on the call's chain.
 *
 * @internal
 */
export const targetOf = (
  layer: Target,
  call: Selection | undefined,
  context: Context.Context<never>
): Either.Either<Target, WalletError.InvalidArgument> => {
  const scopeChain = Context.get(context, WalletConfig.CurrentChain)
  const scopePool = Context.get(context, WalletConfig.CurrentPool)
  const scopeFeePayerPool = Context.get(context, WalletConfig.CurrentFeePayerPool)
  const scopeKeyPool = Context.get(context, WalletConfig.CurrentKeyPool)
  const chain = call?.chainId ?? Option.getOrUndefined(scopeChain)
  // The common case, nothing selected beyond the layer: nothing to validate again.
  if (
    chain === undefined && call?.pool === undefined && call?.feePayerPool === undefined && call?.keyPool === undefined &&
    Option.isNone(scopePool) && Option.isNone(scopeFeePayerPool) && Option.isNone(scopeKeyPool)
  ) {
    return Either.right(layer)
  }
  return Either.gen(function*() {
    const chainId = chain === undefined ? layer.chainId : yield* chainOf(chain)
    const pool = call?.pool !== undefined
      ? yield* poolOf(call.pool)
      : Option.isSome(scopePool) ? yield* poolOf(scopePool.value) : layer.pool
    const feePayerPool = call?.feePayerPool !== undefined
      ? yield* feePayerPoolOf(call.feePayerPool)
      : Option.isSome(scopeFeePayerPool) ? yield* feePayerPoolOf(scopeFeePayerPool.value) : layer.feePayerPool
    const keyPool = call?.keyPool !== undefined
      ? yield* keyPoolOf(call.keyPool)
      : Option.isSome(scopeKeyPool) ? yield* keyPoolOf(scopeKeyPool.value) : layer.keyPool
    return yield* poolsOnChain(chainId, pool, feePayerPool, keyPool, "request")
  })
}
