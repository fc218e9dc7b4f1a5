/**
 * Transactions in the client: `send` of any kind through the route of its kind and fee payer, its
 * result verified; `sendReliably`, which survives a lost answer; the transfer shorthand; and the
 * read-only contract call.
 *
 * @since 0.10.0
 */
import { Effect, Either, Schedule, Schema } from "effect"
import type * as Address from "../Address.js"
import * as Amount from "../Amount.js"
import * as WalletApi from "../api/WalletApi.js"
import type * as ChainId from "../ChainId.js"
import * as AbiValue from "../internal/abiValue.js"
import * as Options from "../internal/options.js"
import * as Spans from "../internal/spans.js"
import * as RefusalReason from "../RefusalReason.js"
import * as Transaction from "../Transaction.js"
import * as TransactionKind from "../TransactionKind.js"
import type * as FeeDelegation from "../FeeDelegation.js"
import type * as WalletConfig from "../WalletConfig.js"
import * as WalletError from "../WalletError.js"
import * as Wire from "../Wire.js"
import { validFrom, validValue } from "./Arguments.js"
import type { CallOptions } from "./CallOptions.js"
import type { Op } from "./Operation.js"
import type * as Receipts from "./Receipts.js"
import type * as Requests from "./Requests.js"
import { type AnyOptions, optional, prepare, roundTrip } from "./TransactionRequest.js"
import * as Verification from "./Verification.js"

/**
 * The fields of every transaction, whatever its kind and whoever pays the fee.
 *
 * @since 0.4.0
 * @category models
 */
export interface SendFields extends CallOptions {
  /** The sender: an account of the selected pool. */
  readonly from: Address.Address | string
  /** The sender's nonce; absent or 0: the next one. */
  readonly nonce?: number | undefined
  /** The gas limit; absent or 0: the service's default. */
  readonly gas?: number | undefined
  /** `false`: sign without sending. Default `true`. */
  readonly submit?: boolean | undefined
}

/**
 * Who pays the fee. Absent: the sender. `FeeDelegation.global`: the service pays and bills the
 * member. `FeeDelegation.user(address)`: the member's fee-payer account at `address` pays; its
 * pool is the call's `feePayerPool`, else the scope's (`WalletConfig.withFeePayerPool`), else the
 * layer's; an address that is no fee-payer account of the member there is `InvalidRequest` with
 * code 1061905 (`ErrorBody.Code.FeePayerNotFound`, "failed to get feepayer"). A `feeRatio` (the
 * fee payer's share, 1..99 percent) needs a `feePayer`: without one it is a type error.
 *
 * @since 0.4.0
 * @category models
 */
export type PayerOptions =
  | {
    /** Who pays the fee; absent: the sender. */
    readonly feePayer?: undefined
    readonly feeRatio?: undefined
    readonly feePayerPool?: undefined
  }
  | {
    /** Who pays the fee. */
    readonly feePayer: FeeDelegation.FeePayer
    /** The percentage of the fee the fee payer pays, 1..99 (absent: all of it). */
    readonly feeRatio?: number | undefined
    /** Fee-payer pool of a `FeeDelegation.user` fee payer. */
    readonly feePayerPool?: WalletConfig.FeePayerPoolSelection | undefined
  }

/**
 * The options of `send`: the sender and its nonce, gas and submission, and who pays the fee.
 *
 * @since 0.4.0
 * @category models
 */
export type SendOptions = SendFields & PayerOptions

/**
 * The options of `send` for a raw transaction: its sender, nonce and gas are the RLP's own, so
 * `from` is optional (when given, it is checked against the RLP's sender before anything is sent)
 * and `nonce` and `gas` are not taken. On a fee-delegated route, a `feeRatio` must be the RLP's.
 *
 * @since 0.5.0
 * @category models
 */
export type RawSendOptions =
  & CallOptions
  & {
    /** The RLP's sender, checked before sending; absent: whoever the RLP says. */
    readonly from?: Address.Address | string | undefined
    /** `false`: sign without sending. Default `true`. */
    readonly submit?: boolean | undefined
    readonly nonce?: undefined
    readonly gas?: undefined
  }
  & PayerOptions

/**
 * The options of `send` for a legacy transaction: the sender's fields only, since its sender
 * always pays (a fee payer is a type error).
 *
 * @since 0.5.0
 * @category models
 */
export type LegacySendOptions = SendFields & {
  readonly feePayer?: undefined
  readonly feeRatio?: undefined
  readonly feePayerPool?: undefined
}

/**
 * The options of `send` for a cancellation: its nonce is the pending transaction's, given in
 * `TransactionKind.Cancel`, so `nonce` is not taken here.
 *
 * @since 0.5.0
 * @category models
 */
export type CancelSendOptions = Omit<SendFields, "nonce"> & { readonly nonce?: undefined } & PayerOptions

/**
 * The options of `send` for a kind: `RawSendOptions` for a raw transaction, `LegacySendOptions`
 * for a legacy one, `CancelSendOptions` for a cancellation, `SendOptions` otherwise.
 *
 * @since 0.5.0
 * @category models
 */
export type SendOptionsFor<K extends TransactionKind.TransactionKind> = K extends { readonly _tag: "RawTransaction" } ? RawSendOptions
  : K extends { readonly _tag: "Legacy" } ? LegacySendOptions
  : K extends { readonly _tag: "Cancel" } ? CancelSendOptions
  : SendOptions

/**
 * `Omit` applied to each member of a union (TypeScript's `Omit` merges the members first).
 *
 * @since 0.5.0
 * @category models
 */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/**
 * The options of `sendReliably`: those of `send` for the kind, without `submit` (it signs, then
 * submits), and the schedule of resubmissions.
 *
 * @since 0.5.0
 * @category models
 */
export type ReliableSendOptions<K extends TransactionKind.TransactionKind> = DistributiveOmit<SendOptionsFor<K>, "submit"> & {
  /**
   * When to submit the signed transaction again while the service does not know it (each step
   * after a failure whose outcome is unknown and a look-up of the hash that finds nothing).
   * Default `DefaultResubmitSchedule`: up to 4 resubmissions, 1, 2, 4 and 8 seconds apart.
   */
  readonly resubmit?: Schedule.Schedule<unknown, WalletError.WalletError> | undefined
}

/**
 * The default resubmission schedule of `sendReliably`: up to 4 resubmissions, waiting 1, 2, 4
 * and 8 seconds (a Klaytn block is one second).
 *
 * @since 0.5.0
 * @category constants
 */
export const DefaultResubmitSchedule: Schedule.Schedule<unknown, unknown> = Schedule.intersect(
  Schedule.exponential("1 second"),
  Schedule.recurs(4)
)

/**
 * The fields of every value transfer, whoever pays the fee.
 *
 * @since 0.2.0
 * @category models
 */
export interface TransferFields extends SendFields {
  /** The recipient (not the zero address). */
  readonly to: Address.Address | string
  /** The amount in peb (1 KLAY = 10^18 peb); `Amount.fromKlay("1.5")` converts. */
  readonly value: Amount.Peb | bigint
  /** Free text recorded in the transaction (its UTF-8 bytes become the input). */
  readonly memo?: string | undefined
}

/**
 * A value transfer from an account of the selected pool: `send` of a
 * `TransactionKind.ValueTransfer`, in one object. See `PayerOptions` for who pays the fee.
 *
 * @since 0.2.0
 * @category models
 */
export type TransferParams = TransferFields & PayerOptions

/**
 * A read-only call of a contract (nothing is signed or sent): the method by name and its
 * arguments by ABI type; `Abi.callArguments` builds both from a signature.
 *
 * @since 0.4.0
 * @category models
 */
export interface CallContractParams {
  /** The chain of this call (`x-chain-id`); absent: the scope's, then the layer's. */
  readonly chainId?: ChainId.ChainId | number | undefined
  /** The contract. */
  readonly to: Address.Address | string
  /** The method's name, e.g. `"balanceOf"`. */
  readonly method: string
  /**
   * The arguments, each an ABI type and a value of it: integers as `bigint`, numbers or decimal
   * or `0x` strings; addresses and bytes as `0x` strings; arrays as arrays.
   */
  readonly arguments?: ReadonlyArray<{ readonly type: string; readonly value: unknown }> | undefined
  /** The caller (`msg.sender`); absent: the zero address. */
  readonly from?: Address.Address | string | undefined
  /** Peb sent with the call. */
  readonly value?: Amount.Peb | bigint | undefined
  /** The gas limit of the call. */
  readonly gas?: number | undefined
}

/**
 * The transaction operations.
 *
 * @since 0.10.0
 * @category models
 */
export interface Service {
  /**
   * Sends a transaction of any kind from an account of the selected pool: the route is the
   * kind's (`value`, `contract/deploy`, `contract/execute`, `rlp`, `anchor`, `account` (PUT),
   * `legacy`; a cancellation is `DELETE` on the bare route) under `/v2/tx`, `/v2/tx/fd` or
   * `/v2/tx/fd-user` by `feePayer`. Every field is checked before anything is sent. Never retried
   * once the request may have left: a duplicate would send twice (`sendReliably` survives a lost
   * answer). The result is verified against the request unless `verifyResults` is `false`
   * (`UnverifiedResult`). A multisig sender's result is pending (`Transaction.isMultisigPending`)
   * until its signers sign.
   */
  readonly send: <K extends TransactionKind.TransactionKind>(
    kind: K,
    options: SendOptionsFor<K>
  ) => Effect.Effect<Transaction.TransactionResult, WalletError.WalletError>
  /**
   * Sends a transaction so that a lost answer loses nothing: signs it first (`submit: false`,
   * verified), keeps its hash, then submits the signed bytes through the kind's fee-payer route of
   * `/v2/tx/rlp`. When the outcome of a submission is unknown (a transport error or timeout, a
   * 5xx, a 429, a 2xx it cannot read, a node answering "already known" or "nonce too low" to a
   * resubmission), it looks the hash up (GET /v2/tx/{hash}): known, pending or committed, is
   * success; unknown, the same
   * bytes are submitted again on `resubmit`'s schedule (a transaction cannot be applied twice, so
   * this never sends twice). Two requests when all goes well. Returns the verified signed result
   * with `status: "Submitted"` (a multisig sender's pending result as it is); await its receipt
   * with `awaitReceipt`. Once signed, a failure is `SubmissionFailed` with the hash and the signed
   * RLP. Concurrent reliable sends of one sender (whose nonce the service picks) sign and submit
   * one at a time, in the order asked: each gets its own nonce. docs/client.md.
   */
  readonly sendReliably: <K extends TransactionKind.TransactionKind>(
    kind: K,
    options: ReliableSendOptions<K>
  ) => Effect.Effect<Transaction.TransactionResult, WalletError.WalletError>
  /**
   * Transfers value from an account of the selected pool (POST /v2/tx/value, /v2/tx/fd/value or
   * /v2/tx/fd-user/value, by `feePayer`): `send` of a `TransactionKind.ValueTransfer`.
   */
  readonly transferValue: Op<[params: TransferParams], Transaction.TransactionResult>
  /**
   * Calls a contract read-only against the latest state (POST /v2/tx/contract/call): the
   * service encodes the method and arguments (`data`) and returns the raw return data
   * (`result`); `Abi` decodes it. Nothing is signed or sent, so it is retried like a read.
   */
  readonly callContract: Op<[params: CallContractParams], Transaction.ContractCallResult>
}

const callBody = roundTrip(Wire.ContractCallBody)

/** The body of a contract call, checked (the arguments against their ABI types) and encoded. */
const contractCallBody = (params: CallContractParams) =>
  Either.gen(function*() {
    const value = params.value === undefined ? undefined : Amount.toHex(yield* validValue(params.value))
    return yield* Either.mapLeft(
      callBody({
        to: params.to,
        ...optional("from", params.from),
        ...optional("value", value),
        ...optional("gas", params.gas),
        data: {
          methodName: params.method,
          ...(params.arguments !== undefined
            ? { arguments: params.arguments.map((a) => ({ type: a.type, value: AbiValue.jsonValue(a.value) })) }
            : {})
        }
      }),
      Options.fromParseError("params")
    )
  })

const decodeResultWithBody = Verification.withBody(Transaction.TransactionResult)

/** Whether a failed submission may have reached the chain: only a look-up of its hash can tell. */
const outcomeUnknown = (error: WalletError.WalletError, resubmission: boolean) =>
  error._tag === "TransportError" || error._tag === "ServerError" || error._tag === "RateLimited" ||
  // A 2xx the client could not read (garbled, cut short): the service may well have accepted it.
  error._tag === "ResponseDecodeError" ||
  // A resubmission the node refuses as a duplicate ("already known", "nonce too low") may
  // mean the first one got through; any other refusal means it did not.
  (resubmission && error._tag === "NodeRefusal" && RefusalReason.isDuplicate(error.reason))

/**
 * The transaction operations over the client's requests; `sendReliably` looks hashes up with the
 * receipts' `getTransactionReceipt`.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (
  requests: Requests.Requests,
  verification: Verification.Verification,
  receipts: Pick<Receipts.Service, "getTransactionReceipt">
): Service => {
  /** Any transaction: its body checked and built, sent to the route of its kind and fee payer, its result verified. */
  const sendTransaction = (span: string, kind: TransactionKind.TransactionKind, options: AnyOptions) =>
    Effect.flatMap(Effect.zip(prepare(kind, options), requests.target(options)), ([prepared, t]) => {
      const input = { payload: prepared.body as never }
      const sent = requests.run(prepared.endpoint, t, input, {
        span,
        decode: decodeResultWithBody,
        attributes: {
          [Spans.SpanAttributes.txKind]: kind._tag,
          [Spans.SpanAttributes.feePayer]: prepared.feePayer === undefined ? "sender" : prepared.feePayer._tag
        }
      })
      return Effect.flatMap(sent, ({ body, result }) =>
        verification.transaction(() => requests.request(prepared.endpoint, t, input), body, prepared.expected(t.chainId), result, t))
    })

  // One lane per sender and chain for the reliable sends whose nonce the service picks: the
  // service gives a transaction signed without being submitted the sender's next nonce, so two
  // signed at once would get the same one, and the second could never be submitted ("nonce too
  // low"). A lane lets one reliable send of the sender sign and submit at a time, in the order
  // they asked (the semaphore's waiters are served first come, first served); a lane no send holds
  // or waits for is dropped.
  const lanes = new Map<string, { readonly semaphore: Effect.Semaphore; users: number }>()
  const inLane = <A, E>(key: string | undefined, effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    key === undefined ? effect : Effect.acquireUseRelease(
      Effect.sync(() => {
        const lane = lanes.get(key) ?? { semaphore: Effect.unsafeMakeSemaphore(1), users: 0 }
        lane.users++
        lanes.set(key, lane)
        return lane
      }),
      (lane) => lane.semaphore.withPermits(1)(effect),
      (lane) =>
        Effect.sync(() => {
          if (--lane.users === 0) lanes.delete(key)
        })
    )
  // The lane of a reliable send: none when its nonce is fixed (given, a raw transaction's, a
  // cancellation's target's) or its sender cannot be read (the send then fails as it would).
  const laneOf = (kind: TransactionKind.TransactionKind, options: AnyOptions) =>
    kind._tag === "RawTransaction" || kind._tag === "Cancel" || (options.nonce !== undefined && options.nonce !== 0)
      ? Effect.succeed(undefined)
      : Effect.match(Effect.zip(validFrom(options.from), requests.target(options)), {
        onFailure: () => undefined,
        onSuccess: ([from, t]) => `${t.chainId}:${from.toLowerCase()}`
      })

  const sendReliably = (
    kind: TransactionKind.TransactionKind,
    options: AnyOptions & { readonly resubmit?: Schedule.Schedule<unknown, WalletError.WalletError> | undefined }
  ) => Effect.flatMap(laneOf(kind, options), (lane) => inLane(lane, signAndSubmit(kind, options)))

  const signAndSubmit = (
    kind: TransactionKind.TransactionKind,
    options: AnyOptions & { readonly resubmit?: Schedule.Schedule<unknown, WalletError.WalletError> | undefined }
  ) =>
    Effect.flatMap(sendTransaction("sendReliably", kind, { ...options, submit: false }), (signed) => {
      if (!Transaction.isSigned(signed)) return Effect.succeed<Transaction.TransactionResult>(signed)
      const { rlp, transactionHash } = signed
      const submitted: Transaction.TransactionResult = { ...signed, status: "Submitted" }
      const { chainId, feePayer, feePayerPool, feeRatio, pool } = options
      const submitOnce = Effect.flatMap(
        sendTransaction("sendReliably", TransactionKind.RawTransaction({ rlp }), { chainId, pool, feePayer, feePayerPool, feeRatio, submit: true }),
        (result) =>
          // The fee payer signs deterministically: the same bytes, the same hash. Another hash is
          // another transaction with the same nonce, which the one signed can no longer join; an
          // answer with no signed transaction at all is not the one submitted either.
          !Transaction.isSigned(result) || result.transactionHash !== transactionHash
            ? Effect.fail(
              new WalletError.UnverifiedResult({
                method: "POST",
                path: WalletApi.txPath("rlp", Wire.payerRoute(feePayer as FeeDelegation.FeePayer | undefined)),
                field: "transactionHash",
                expected: transactionHash,
                actual: Transaction.isSigned(result) ? result.transactionHash : "none (a result without a signed transaction)",
                body: requests.scrub(JSON.stringify(Schema.encodeSync(Transaction.TransactionResult)(result))),
                transactionHash
              })
            )
            : Effect.succeed(submitted)
      )
      const failed = (submissions: number, error: WalletError.WalletError) =>
        new WalletError.SubmissionFailed({
          transactionHash,
          rlp,
          submissions,
          error: error._tag,
          ...("code" in error && error.code !== undefined ? { code: error.code } : {}),
          ...(error._tag === "NodeRefusal" ? { reason: error.reason } : {}),
          description: error.message
        })
      // Known to the service, pending or in a block: the submission got through.
      const known = Effect.match(receipts.getTransactionReceipt(transactionHash, options), { onFailure: () => false, onSuccess: () => true })
      return Effect.flatMap(Schedule.driver(options.resubmit ?? DefaultResubmitSchedule), (driver) => {
        const attempt = (submissions: number): Effect.Effect<Transaction.TransactionResult, WalletError.WalletError> =>
          Effect.catchAll(submitOnce, (error) =>
            !outcomeUnknown(error, submissions > 1)
              ? Effect.fail(error._tag === "UnverifiedResult" ? error : failed(submissions, error))
              : Effect.flatMap(known, (isKnown) =>
                isKnown
                  ? Effect.succeed(submitted)
                  : Effect.matchEffect(driver.next(error), {
                    onFailure: () => Effect.fail(failed(submissions, error)),
                    onSuccess: () => attempt(submissions + 1)
                  })))
        return attempt(1)
      })
    })

  return {
    send: (kind, options) => sendTransaction("send", kind, options),
    sendReliably: (kind, options) => sendReliably(kind, options),
    transferValue: ({ memo, to, value, ...options }) =>
      sendTransaction("transferValue", TransactionKind.ValueTransfer({ to, value, memo }), options),
    callContract: (params) =>
      Effect.flatMap(Effect.zip(contractCallBody(params), requests.target(params)), ([body, t]) =>
        requests.run(WalletApi.transactions.callContract, t, { payload: body }, { attributes: { [Spans.SpanAttributes.contract]: body.to } }))
  }
}
