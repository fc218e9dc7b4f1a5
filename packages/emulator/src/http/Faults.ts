/**
 * Fault injection for reliability tests: added latency, error statuses (429 with `Retry-After`,
 * 500, 503) and dropped connections, for a chosen fraction of requests.
 *
 * Reproducible: whether request number `n` (counted from 0 in arrival order, `/health` and
 * `/openapi.json` excepted) gets a fault, and which one, is a pure function of the seed and `n`
 * (`decide`). Two emulators with the same options answer the same sequence of requests the same
 * way. Off by default (`rate` 0).
 *
 * @since 0.1.0
 */
import { Duration, Effect, Either, Option } from "effect"
import { EmulatorError } from "../EmulatorError.js"

/**
 * The kinds of fault.
 *
 * - `latency`: the request is served normally after an added delay.
 * - `429`: answered 429 with `Retry-After`, without being served.
 * - `500`, `503`: answered with that status, without being served.
 * - `drop`: the connection is destroyed without a response, without being served.
 *
 * @since 0.1.0
 * @category models
 */
export type Kind = "latency" | "429" | "500" | "503" | "drop"

/**
 * Every kind, the default set.
 *
 * @since 0.1.0
 * @category constants
 */
export const Kinds: ReadonlyArray<Kind> = ["latency", "429", "500", "503", "drop"]

/**
 * Fault injection options.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Fraction of requests that get a fault, from 0 (default: off) to 1. */
  readonly rate?: number | undefined
  /** Seed of the fault sequence (default 0). */
  readonly seed?: number | undefined
  /** Kinds to choose from, uniformly (default: all of `Kinds`). */
  readonly kinds?: ReadonlyArray<Kind> | undefined
  /** Delay added by a `latency` fault (default 250 millis). */
  readonly latency?: Duration.DurationInput | undefined
  /** `Retry-After` of a 429, whole seconds (default 1). */
  readonly retryAfter?: number | undefined
}

/**
 * Options with every default applied.
 *
 * @since 0.1.0
 * @category models
 */
export interface Resolved {
  readonly rate: number
  readonly seed: number
  readonly kinds: ReadonlyArray<Kind>
  readonly latency: Duration.Duration
  readonly retryAfter: number
}

/**
 * A fault chosen for one request.
 *
 * @since 0.1.0
 * @category models
 */
export type Fault =
  | { readonly _tag: "Latency"; readonly duration: Duration.Duration }
  | { readonly _tag: "Status"; readonly status: 429 | 500 | 503; readonly retryAfter: number }
  | { readonly _tag: "Drop" }

/**
 * No faults.
 *
 * @since 0.1.0
 * @category constants
 */
export const off: Resolved = { rate: 0, seed: 0, kinds: Kinds, latency: Duration.millis(250), retryAfter: 1 }

/**
 * Checks options and applies defaults.
 *
 * @since 0.1.0
 * @category constructors
 */
export const resolve = (options: Options | undefined): Either.Either<Resolved, EmulatorError> => {
  const fail = (message: string) => Either.left(new EmulatorError({ reason: "Config", message: `faults: ${message}` }))
  if (options === undefined) return Either.right(off)
  const rate = options.rate ?? 0
  if (!(rate >= 0 && rate <= 1)) return fail(`rate must be a number from 0 to 1, got ${rate}`)
  const seed = options.seed ?? 0
  if (!Number.isSafeInteger(seed)) return fail(`seed must be an integer, got ${seed}`)
  const kinds = options.kinds ?? Kinds
  if (rate > 0 && kinds.length === 0) return fail("kinds must not be empty when rate is above 0")
  const unknown = kinds.filter((k) => !Kinds.includes(k))
  if (unknown.length > 0) return fail(`unknown kinds ${unknown.join(", ")} (known: ${Kinds.join(", ")})`)
  const latency = Duration.decodeUnknown(options.latency ?? off.latency)
  if (Option.isNone(latency)) return fail("latency must be a duration")
  const retryAfter = options.retryAfter ?? 1
  if (!Number.isSafeInteger(retryAfter) || retryAfter < 0) {
    return fail(`retryAfter must be a whole number of seconds, got ${retryAfter}`)
  }
  return Either.right({ rate, seed, kinds: Array.from(new Set(kinds)), latency: latency.value, retryAfter })
}

// A 32-bit integer hash with good avalanche (the finalizer of MurmurHash3), so that nearby
// (seed, n) pairs give unrelated draws.
const mix = (x: number): number => {
  let h = x | 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

const draw = (seed: number, n: number, lane: number): number => {
  const seedLow = seed | 0
  const seedHigh = Math.floor(seed / 2 ** 32) | 0
  return mix(mix(mix(seedLow ^ 0x9e3779b9) ^ seedHigh) ^ mix(n * 2 + lane)) / 2 ** 32
}

/**
 * The fault of request number `n` (from 0), if any: a pure function of the options and `n`.
 *
 * @since 0.1.0
 * @category decisions
 */
export const decide = (options: Resolved, n: number): Option.Option<Fault> => {
  if (options.rate <= 0 || draw(options.seed, n, 0) >= options.rate) return Option.none()
  const kind = options.kinds[Math.floor(draw(options.seed, n, 1) * options.kinds.length)]!
  switch (kind) {
    case "latency":
      return Option.some({ _tag: "Latency", duration: options.latency })
    case "drop":
      return Option.some({ _tag: "Drop" })
    default:
      return Option.some({ _tag: "Status", status: Number(kind) as 429 | 500 | 503, retryAfter: options.retryAfter })
  }
}

/**
 * A fault sequence: each call of `next` takes the next request number.
 *
 * @since 0.1.0
 * @category models
 */
export interface Injector {
  readonly options: Resolved
  readonly next: Effect.Effect<Option.Option<Fault>>
}

/**
 * A fresh fault sequence, starting at request 0.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeInjector = (options: Resolved): Injector => {
  let n = 0
  return {
    options,
    next: options.rate <= 0 ? Effect.succeedNone : Effect.sync(() => decide(options, n++))
  }
}
