/**
 * Receipts in the client: one read of a transaction's receipt, and the wait for it to be final.
 *
 * @since 0.10.0
 */
import { Duration, Effect, Schedule } from "effect"
import * as WalletApi from "../api/WalletApi.js"
import * as ErrorBody from "../ErrorBody.js"
import * as Spans from "../internal/spans.js"
import * as Transaction from "../Transaction.js"
import * as WalletError from "../WalletError.js"
import { validHash } from "./Arguments.js"
import type { CallOptions } from "./CallOptions.js"
import type { Op } from "./Operation.js"
import type * as Requests from "./Requests.js"

/**
 * How `awaitReceipt` polls.
 *
 * @since 0.2.0
 * @category models
 */
export interface AwaitReceiptOptions extends CallOptions {
  /** When to ask again while the transaction is pending. Default: `defaultPolling`. */
  readonly schedule?: Schedule.Schedule<unknown, unknown> | undefined
  /** How long to wait in all before failing with `ReceiptTimeout`. Default 60 seconds. */
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * How `awaitReceipt` polls by default: soon at first (50 ms, doubling), then every second. A block
 * of the service comes every second, so a wait settles at one read a second; an emulator's block
 * can come much sooner (instant mining, a short interval), and a receipt ready early is seen
 * within a few tens of milliseconds rather than a whole second later.
 *
 * @since 0.12.0
 * @category polling
 */
export const defaultPolling: Schedule.Schedule<unknown> = Schedule.exponential("50 millis").pipe(
  Schedule.union(Schedule.spaced("1 second"))
)

/**
 * The receipt operations.
 *
 * @since 0.10.0
 * @category models
 */
export interface Service {
  /** The receipt of a transaction (GET /v2/tx/{hash}); pending until committed. */
  readonly getTransactionReceipt: Op<[hash: Transaction.TxHash | string, options?: CallOptions], Transaction.TransactionReceipt>
  /**
   * Polls the receipt on `schedule` until the transaction is committed (`Committed` or
   * `CommitError`), treating "unknown hash" as not yet indexed; fails with `ReceiptTimeout` after
   * `timeout`.
   */
  readonly awaitReceipt: Op<[hash: Transaction.TxHash | string, options?: AwaitReceiptOptions], Transaction.CommittedReceipt>
}

/** Polling gave no final receipt yet. */
const NotYet = Symbol("NotYet")

/**
 * The receipt operations over the client's requests.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (requests: Requests.Requests): Service => {
  const receipt = (hash: unknown, call: CallOptions | undefined) =>
    Effect.flatMap(Effect.zip(validHash(hash), requests.target(call)), ([checked, t]) =>
      requests.run(WalletApi.transactions.getTransactionReceipt, t, { path: { "transaction-hash": checked } }, {
        attributes: { [Spans.SpanAttributes.txHash]: checked }
      }))
  return {
    getTransactionReceipt: receipt,
    awaitReceipt: (hash, options) =>
      Effect.flatMap(validHash(hash), (checked) => {
        let lastStatus = "unknown"
        const poll = receipt(checked, options).pipe(
          Effect.catchIf(
            (e) => e._tag === "InvalidRequest" && e.code === ErrorBody.Code.TransactionNotFound,
            () => Effect.fail(NotYet)
          ),
          Effect.flatMap((r) => {
            lastStatus = r.status
            return Transaction.isFinal(r) ? Effect.succeed(r) : Effect.fail(NotYet)
          })
        )
        const timeout = Duration.decode(options?.timeout ?? "60 seconds")
        return Effect.retry(poll, {
          schedule: options?.schedule ?? defaultPolling,
          while: (e) => e === NotYet
        }).pipe(
          Effect.timeoutFail({
            duration: timeout,
            onTimeout: () => new WalletError.ReceiptTimeout({ hash: checked, waitedMillis: Duration.toMillis(timeout), lastStatus })
          }),
          Effect.catchIf((e): e is typeof NotYet => e === NotYet, () =>
            Effect.fail(new WalletError.ReceiptTimeout({ hash: checked, waitedMillis: Duration.toMillis(timeout), lastStatus }))),
          Spans.withSpan("WalletClient.awaitReceipt", { attributes: { [Spans.SpanAttributes.txHash]: checked }, captureStackTrace: false })
        )
      })
  }
}
