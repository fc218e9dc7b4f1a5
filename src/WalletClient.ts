/**
 * The WalletClient service: the typed operations of the KAS wallet API — accounts and their
 * lifecycle, fee-payer accounts, counts, transactions, the key service — over any `HttpClient` (fetch in browsers, Deno, Bun and
 * edge runtimes; Node's http client), with listings as Streams.
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
import * as HttpClient from "@effect/platform/HttpClient"
import { type Config, Context, Effect, Layer, Stream } from "effect"
import type * as Address from "./Address.js"
import * as Accounts from "./client/Accounts.js"
import * as FeePayers from "./client/FeePayers.js"
import * as History from "./client/History.js"
import * as Keys from "./client/Keys.js"
import * as MultisigOperations from "./client/Multisig.js"
import * as Receipts from "./client/Receipts.js"
import * as Registrations from "./client/Registration.js"
import * as Requests from "./client/Requests.js"
import * as Transactions from "./client/Transactions.js"
import * as Verification from "./client/Verification.js"
import * as Options from "./internal/options.js"
import * as Spans from "./internal/spans.js"
import type * as Multisig from "./Multisig.js"
import type * as TransactionKind from "./TransactionKind.js"
import type * as Transaction from "./Transaction.js"
import * as WalletConfig from "./WalletConfig.js"
import type * as WalletError from "./WalletError.js"

export type { ListParams } from "./client/Accounts.js"
export type { CallOptions, FeePayerCallOptions, HistoryCallOptions, KeyCallOptions } from "./client/CallOptions.js"
export type { CreateFeePayerOptions, FeePayerListParams } from "./client/FeePayers.js"
export type { HistoryListParams } from "./client/History.js"
export type { KeyListParams } from "./client/Keys.js"
export type { MultisigKeyInput, MultisigListParams } from "./client/Multisig.js"
export type { Op, StreamOp } from "./client/Operation.js"
export type { AwaitReceiptOptions } from "./client/Receipts.js"
export { defaultPolling as defaultReceiptPolling } from "./client/Receipts.js"
export type { MigrateOptions, RegisterAccountParams } from "./client/Registration.js"
export type {
  CallContractParams,
  CancelSendOptions,
  DistributiveOmit,
  LegacySendOptions,
  PayerOptions,
  RawSendOptions,
  ReliableSendOptions,
  SendFields,
  SendOptions,
  SendOptionsFor,
  TransferFields,
  TransferParams
} from "./client/Transactions.js"

/**
 * The default resubmission schedule of `sendReliably`: up to 4 resubmissions, waiting 1, 2, 4
 * and 8 seconds (a Klaytn block is one second).
 *
 * @since 0.5.0
 * @category constants
 */
export const DefaultResubmitSchedule = Transactions.DefaultResubmitSchedule

/**
 * The WalletClient's operations, by resource: accounts, fee-payer accounts, transactions and their
 * receipts, keys, multisig, registration and migration, the fee-delegation history. Each is
 * documented in its resource's module (src/client/).
 *
 * @since 0.1.0
 * @category models
 */
export interface Service
  extends
    Accounts.Service,
    FeePayers.Service,
    Transactions.Service,
    Receipts.Service,
    Keys.Service,
    Registrations.Service,
    History.Service,
    MultisigOperations.Service
{}

/**
 * The WalletClient service.
 *
 * @since 0.1.0
 * @category tags
 */
export class WalletClient extends Context.Tag("effect-kas-wallet/WalletClient")<WalletClient, Service>() {}

/**
 * The attributes the client sets on its spans (`WalletClient.<operation>`), by name, for tools
 * that read them: the chain and pool of each request, the account or transaction it is about, and
 * before each retry the attempt, the error that caused it and the wait chosen
 * (`kas.retry.delay_ms`).
 *
 * @since 0.2.0
 * @category constants
 */
export const SpanAttributes = Spans.SpanAttributes

/**
 * The User-Agent the client sends.
 *
 * @since 0.1.0
 * @category constants
 */
export const userAgent = Requests.userAgent

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
    const requests = Requests.make(settings, yield* HttpClient.HttpClient)
    const verification = Verification.make(requests)
    const receipts = Receipts.make(requests)
    const keys = Keys.make(requests)
    return WalletClient.of({
      ...Accounts.make(requests),
      ...FeePayers.make(requests),
      ...Transactions.make(requests, verification, receipts),
      ...receipts,
      ...keys,
      ...Registrations.make(requests, keys),
      ...History.make(requests),
      ...MultisigOperations.make(requests, verification)
    })
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
 * `KAS_ACCOUNT_POOL`, `KAS_FEEPAYER_POOL`); `extra` adds options that do not come from
 * configuration. Every mistake of the configuration is an `InvalidArgument` naming the setting.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Config<WalletConfig.Options> = WalletConfig.fromEnv,
  extra?: Omit<WalletConfig.Options, "credentials" | "chainId">
): Layer.Layer<WalletClient, WalletError.InvalidArgument, HttpClient.HttpClient> =>
  Layer.effect(WalletClient, Effect.flatMap(WalletConfig.load(config), (options) => make({ ...options, ...extra })))

/**
 * The operations of `Service` that answer one Effect, each with the WalletClient taken from the
 * context; each is documented on `Service` (the Streams and the generic sends follow).
 *
 * @since 0.1.0
 * @category accessors
 */
export const {
  accountCount,
  accountCountByPool,
  accountsByPublicKey,
  appendSignatures,
  awaitReceipt,
  callContract,
  createAccount,
  createFeePayer,
  createKeys,
  deleteAccount,
  deleteFeePayer,
  deleteKey,
  disableAccount,
  enableAccount,
  getAccount,
  getFeeDelegationRecord,
  getFeePayer,
  getKey,
  getTransactionReceipt,
  listAccounts,
  listFeeDelegationHistory,
  listFeePayers,
  listKeys,
  listMultisigTransactions,
  migrateAccounts,
  registerAccounts,
  signMultisigTransaction,
  signTransactionById,
  signWithKey,
  transferValue,
  updateToMultisig
} = Effect.serviceFunctions(WalletClient)

/**
 * `Service.send` with the WalletClient taken from the context, keeping the options typed by kind.
 *
 * @since 0.4.0
 * @category accessors
 */
export const send = <K extends TransactionKind.TransactionKind>(
  kind: K,
  options: Transactions.SendOptionsFor<K>
): Effect.Effect<Transaction.TransactionResult, WalletError.WalletError, WalletClient> =>
  Effect.flatMap(WalletClient, (client) => client.send(kind, options))

/**
 * `Service.sendReliably` with the WalletClient taken from the context.
 *
 * @since 0.5.0
 * @category accessors
 */
export const sendReliably = <K extends TransactionKind.TransactionKind>(
  kind: K,
  options: Transactions.ReliableSendOptions<K>
): Effect.Effect<Transaction.TransactionResult, WalletError.WalletError, WalletClient> =>
  Effect.flatMap(WalletClient, (client) => client.sendReliably(kind, options))

/** A listing of the service as a Stream with the WalletClient taken from the context. */
const streamed = <P, A>(listing: (client: Service) => (params?: P) => Stream.Stream<A, WalletError.WalletError>) =>
(params?: P): Stream.Stream<A, WalletError.WalletError, WalletClient> =>
  Stream.unwrap(Effect.map(WalletClient, (client) => listing(client)(params)))

/**
 * Every account of the listing, with the WalletClient taken from the context (see `Service.accounts`).
 *
 * @since 0.1.0
 * @category accessors
 */
export const accounts = streamed((client) => client.accounts)

/**
 * Every page of the listing, with the WalletClient taken from the context (see `Service.accountPages`).
 *
 * @since 0.1.0
 * @category accessors
 */
export const accountPages = streamed((client) => client.accountPages)

/**
 * Every fee-payer account, with the WalletClient taken from the context (see `Service.feePayers`).
 *
 * @since 0.2.0
 * @category accessors
 */
export const feePayers = streamed((client) => client.feePayers)

/**
 * Every page of the fee-payer listing, with the WalletClient taken from the context (see
 * `Service.feePayerPages`).
 *
 * @since 0.2.0
 * @category accessors
 */
export const feePayerPages = streamed((client) => client.feePayerPages)

/**
 * Every key of a pool, with the WalletClient taken from the context (see `Service.keys`).
 *
 * @since 0.6.0
 * @category accessors
 */
export const keys = streamed((client) => client.keys)

/**
 * Every page of a pool's keys, with the WalletClient taken from the context (see
 * `Service.keyPages`).
 *
 * @since 0.6.0
 * @category accessors
 */
export const keyPages = streamed((client) => client.keyPages)

/**
 * Every record of the fee-delegation history, with the WalletClient taken from the context (see
 * `Service.feeDelegationHistory`).
 *
 * @since 0.7.0
 * @category accessors
 */
export const feeDelegationHistory = streamed((client) => client.feeDelegationHistory)

/**
 * Every page of the fee-delegation history, with the WalletClient taken from the context (see
 * `Service.feeDelegationHistoryPages`).
 *
 * @since 0.7.0
 * @category accessors
 */
export const feeDelegationHistoryPages = streamed((client) => client.feeDelegationHistoryPages)

/**
 * Every pending transaction of a multisig account or signer, with the WalletClient taken from the
 * context (see `Service.multisigTransactions`).
 *
 * @since 0.8.0
 * @category accessors
 */
export const multisigTransactions = (
  address: Address.Address | string,
  params?: MultisigOperations.MultisigListParams
): Stream.Stream<Multisig.PendingTransaction, WalletError.WalletError, WalletClient> =>
  Stream.unwrap(Effect.map(WalletClient, (client) => client.multisigTransactions(address, params)))

/**
 * Every page of a multisig account's or signer's pending transactions, with the WalletClient taken
 * from the context (see `Service.multisigTransactionPages`).
 *
 * @since 0.8.0
 * @category accessors
 */
export const multisigTransactionPages = (
  address: Address.Address | string,
  params?: MultisigOperations.MultisigListParams
): Stream.Stream<Multisig.PendingTransactionPage, WalletError.WalletError, WalletClient> =>
  Stream.unwrap(Effect.map(WalletClient, (client) => client.multisigTransactionPages(address, params)))
