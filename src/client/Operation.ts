/**
 * The two shapes of the client's operations, so that each resource's `Service` says of every
 * operation only what is its own: the arguments (named, as a labelled tuple) and the answer.
 *
 * @since 0.10.0
 */
import type { Effect, Stream } from "effect"
import type * as WalletError from "../WalletError.js"

/**
 * An operation answering once: `(...args) => Effect<A, WalletError>`.
 *
 * @since 0.10.0
 * @category models
 */
export type Op<Args extends ReadonlyArray<unknown>, A> = (...args: Args) => Effect.Effect<A, WalletError.WalletError>

/**
 * A listing's stream, of items or of pages, fetched as the consumer pulls:
 * `(...args) => Stream<A, WalletError>`.
 *
 * @since 0.10.0
 * @category models
 */
export type StreamOp<Args extends ReadonlyArray<unknown>, A> = (...args: Args) => Stream.Stream<A, WalletError.WalletError>
