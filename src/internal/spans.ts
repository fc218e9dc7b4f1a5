import { Effect, Function, type Tracer } from "effect"

/**
 * The attributes the client sets on its spans, by name: one list for the client that sets them
 * and for any tool that reads them (the command line's `--verbose` follows retries through them).
 *
 * @internal
 */
export const SpanAttributes = {
  /** The chain of the request. */
  chainId: "kas.chain_id",
  /** The `x-krn` sent, or `default`. */
  pool: "kas.pool",
  /** The account an operation is about. */
  address: "kas.address",
  /** The page size of a listing's request. */
  pageSize: "kas.page_size",
  /** The transaction a receipt is about. */
  txHash: "kas.tx_hash",
  /** Who pays a transaction's fee: `sender`, `GlobalFeePayer` or `UserFeePayer`. */
  feePayer: "kas.fee_payer",
  /** The kind of a transaction sent: `ValueTransfer`, `ContractDeploy`, `ContractExecution`. */
  txKind: "kas.tx_kind",
  /** The key (its key id) a key-service operation is about. */
  keyId: "kas.key_id",
  /** The multisig transaction (its transaction id) an operation is about. */
  transactionId: "kas.transaction_id",
  /** The contract a call is about. */
  contract: "kas.contract",
  /** Set before a retry: the attempt about to be made (2, 3, ...). */
  retryAttempt: "kas.retry.attempt",
  /** Set before a retry: the tag of the error that caused it. */
  retryAfterError: "kas.retry.after_error",
  /** Set before a retry: how long the client waits first, in milliseconds. */
  retryDelayMillis: "kas.retry.delay_ms"
} as const

/**
 * `Effect.withSpan`, the span ending on no value. Effect's span keeps the exit it ended with, and
 * a span that lived through a request's wait has been moved to V8's old generation by then: what
 * it holds survives every young-generation collection until a full one finds the span dead. A
 * page of 1000 accounts was promoted that way on every request (3.5x the platform alone's
 * promotion, ~0.5 ms of collection a page: docs/benchmarks.md). A failure stays in the span, for
 * tracers to report.
 *
 * @internal
 */
export const withSpan: {
  (name: string, options: Tracer.SpanOptions): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, name: string, options: Tracer.SpanOptions): Effect.Effect<A, E, R>
} = Function.dual(3, <A, E, R>(self: Effect.Effect<A, E, R>, name: string, options: Tracer.SpanOptions) =>
  Effect.suspend(() => {
    // The value passes beside the span, and is let go of as it is handed on: this closure has
    // waited out the request too.
    let held: A | undefined
    return Effect.map(
      Effect.withSpan(Effect.map(self, (value) => {
        held = value
      }), name, options),
      () => {
        const value = held as A
        held = undefined
        return value
      }
    )
  }))
