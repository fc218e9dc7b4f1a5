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
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { type Config, Context, Duration, Effect, Either, Layer, type ParseResult, Redacted, Schedule, Schema, Stream, type Tracer } from "effect"
import * as Account from "./Account.js"
import * as AccountKey from "./AccountKey.js"
import * as Address from "./Address.js"
import * as Amount from "./Amount.js"
import * as ErrorBody from "./ErrorBody.js"
import type * as ChainId from "./ChainId.js"
import * as FeeDelegation from "./FeeDelegation.js"
import * as FeeHistory from "./FeeHistory.js"
import * as Key from "./Key.js"
import * as KeyId from "./KeyId.js"
import * as AbiValue from "./internal/abiValue.js"
import * as Auth from "./internal/auth.js"
import * as Verify from "./internal/verifyResult.js"
import * as DecodeAccounts from "./internal/decodeAccounts.js"
import * as DecodeHistory from "./internal/decodeHistory.js"
import * as DecodePending from "./internal/decodePending.js"
import { bytesOfHex } from "./internal/hex.js"
import * as Listing from "./internal/listing.js"
import * as Options from "./internal/options.js"
import * as Paginate from "./internal/paginate.js"
import * as Request from "./internal/request.js"
import * as Spans from "./internal/spans.js"
import { version } from "./internal/version.js"
import * as Krn from "./Krn.js"
import * as Multisig from "./Multisig.js"
import type * as Migration from "./Migration.js"
import type * as Node from "./internal/node.js"
import * as Pagination from "./Pagination.js"
import * as PublicKey from "./PublicKey.js"
import * as Registration from "./Registration.js"
import * as Transaction from "./Transaction.js"
import * as TransactionKind from "./TransactionKind.js"
import * as WalletConfig from "./WalletConfig.js"
import * as WalletError from "./WalletError.js"
import * as Wire from "./Wire.js"

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
 * Per-call selection of chain and fee-payer pool, for fee-payer operations. Unset fields fall back
 * to the scope's chain, then to the layer's options.
 *
 * @since 0.2.0
 * @category models
 */
export interface FeePayerCallOptions {
  /** Chain of this call (`x-chain-id`). */
  readonly chainId?: ChainId.ChainId | number | undefined
  /** Fee-payer pool of this call (`x-krn`); `null` for the member's default fee-payer pool. */
  readonly feePayerPool?: WalletConfig.FeePayerPoolSelection | undefined
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
  /**
   * Which accounts, by state: `enabled` (absent: the service's default), `disabled`, `corrupted`,
   * `all`, in any case (`"DISABLED"` as well, as the official client takes it); sent in lower case.
   */
  readonly status?: Account.StatusFilterInput | undefined
}

/**
 * Parameters of the fee-payer listing: the paging of `ListParams`, in a fee-payer pool.
 *
 * @since 0.2.0
 * @category models
 */
export interface FeePayerListParams extends FeePayerCallOptions, Listing.Params {}

/**
 * Per-call selection of chain and key pool, for the key service's operations. Unset fields fall
 * back to the scope (`withChain`, `withKeyPool`), then to the layer's options.
 *
 * @since 0.6.0
 * @category models
 */
export interface KeyCallOptions {
  /** Chain of this call (`x-chain-id`). */
  readonly chainId?: ChainId.ChainId | number | undefined
  /**
   * Key pool of `createKeys` (`x-krn`) and of `listKeys` without a `krn`; `null` for the member's
   * default key pool.
   */
  readonly keyPool?: WalletConfig.KeyPoolSelection | undefined
}

/**
 * Parameters of the key listing (GET /v2/key): the pool to list and the paging. `krn` is the pool
 * (a key pool, or an account or fee-payer pool to list its accounts' keys); absent: the selected
 * key pool (`keyPool`, the scope's, the layer's), else the `default` key pool of the member whose
 * account id a selected account or fee-payer pool gives. `pageSize` (alias `size`) is the number of
 * keys per request, 1..1000; the listing takes no time range.
 *
 * @since 0.6.0
 * @category models
 */
export interface KeyListParams extends KeyCallOptions {
  readonly krn?: Krn.PoolKrn | string | undefined
  readonly pageSize?: number | undefined
  readonly size?: number | undefined
  /** Continue from this cursor (from a previous page, or an error's `cursor`). */
  readonly cursor?: string | undefined
}

/**
 * Per-call selection of the chain, for the fee-delegation history (member-wide: no pool).
 *
 * @since 0.7.0
 * @category models
 */
export interface HistoryCallOptions {
  /** Chain of this call (`x-chain-id`). */
  readonly chainId?: ChainId.ChainId | number | undefined
}

/**
 * Parameters of the fee-delegation history (GET /v2/history/fd/tx): `from`, the sender's address
 * (the specification's one filter), and the paging. `pageSize` (alias `size`) is the number of
 * records per request, 1..1000, sent only when given (the specification lists no `size`); the
 * history takes no time range.
 *
 * @since 0.7.0
 * @category models
 */
export interface HistoryListParams extends HistoryCallOptions {
  /** Only the transactions this address sent. */
  readonly from?: Address.Address | string | undefined
  readonly pageSize?: number | undefined
  readonly size?: number | undefined
  /** Continue from this cursor (from a previous page, or an error's `cursor`). */
  readonly cursor?: string | undefined
}

/**
 * Parameters of the listing of a multisig account's pending transactions (GET
 * /v2/multisig/account/{address}/tx): the paging and time range of `ListParams` (`from` / `to`
 * bound when a transaction was made), no `status`. `pool` is checked as on every account route;
 * the listing spans the member's pools.
 *
 * @since 0.8.0
 * @category models
 */
export interface MultisigListParams extends CallOptions, Listing.Params {}

/**
 * A weighted multisig key for `updateToMultisig`: the wire's `{ threshold, weightedKeys }`, or an
 * `AccountKey.WeightedMultiSig` (its `keys` are the weighted keys).
 *
 * @since 0.8.0
 * @category models
 */
export type MultisigKeyInput =
  | { readonly threshold: number; readonly weightedKeys: ReadonlyArray<{ readonly publicKey: string; readonly weight: number }> }
  | Extract<AccountKey.AccountKey, { readonly _tag: "WeightedMultiSig" }>

/**
 * Options of `migrateAccounts`: the chain, the account pool the accounts join (`x-krn` of the
 * registration), and the key pool their keys are created in (`x-krn` of `createKeys`). Unset
 * fields fall back to the scope, then to the layer's options.
 *
 * @since 0.8.0
 * @category models
 */
export interface MigrateOptions extends CallOptions {
  /** Key pool of the keys created for the accounts; `null` for the member's default key pool. */
  readonly keyPool?: WalletConfig.KeyPoolSelection | undefined
}

/**
 * One account to register (`registerAccounts`): a key of the key service, the account's address,
 * and optionally its signed fee-delegated account update (`0x` hex) to that key.
 *
 * @since 0.8.0
 * @category models
 */
export interface RegisterAccountParams {
  readonly keyId: KeyId.KeyId | string
  readonly address: Address.Address | string
  readonly rlp?: string | undefined
}

/**
 * Options of `createFeePayer`.
 *
 * @since 0.2.0
 * @category models
 */
export interface CreateFeePayerOptions extends FeePayerCallOptions {
  /**
   * Create the account without the on-chain account update that registers its key (the wire's
   * `withoutAccountUpdate`). Default `false`.
   */
  readonly withoutAccountUpdate?: boolean | undefined
}

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
 * How `awaitReceipt` polls.
 *
 * @since 0.2.0
 * @category models
 */
export interface AwaitReceiptOptions extends CallOptions {
  /** When to ask again while the transaction is pending. Default: every second (about one block). */
  readonly schedule?: Schedule.Schedule<unknown, unknown> | undefined
  /** How long to wait in all before failing with `ReceiptTimeout`. Default 60 seconds. */
  readonly timeout?: Duration.DurationInput | undefined
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
  /**
   * Deletes an account (DELETE /v2/account/{address}): it is gone from get and list. Not retried
   * once sent: a second delete answers "data don't exist".
   */
  readonly deleteAccount: (
    address: Address.Address | string,
    options?: CallOptions
  ) => Effect.Effect<Account.AccountStatus, WalletError.WalletError>
  /**
   * Disables an account (PUT /v2/account/{address}/disable): it still answers get, is listed only
   * with `status: "disabled"` or `"all"`, and cannot send. Disabling anything but an enabled
   * account of the pool (a disabled or deleted one, or an address the pool does not hold) is
   * `InvalidRequest` with code 1061510, as the service answers. Not retried once sent.
   */
  readonly disableAccount: (
    address: Address.Address | string,
    options?: CallOptions
  ) => Effect.Effect<Account.AccountSummary, WalletError.WalletError>
  /**
   * Enables a disabled account (PUT /v2/account/{address}/enable). Enabling anything but a
   * disabled account of the pool (an enabled or deleted one, or an address the pool does not
   * hold) is `InvalidRequest` with code 1061511, as the service answers. Not retried once sent.
   */
  readonly enableAccount: (
    address: Address.Address | string,
    options?: CallOptions
  ) => Effect.Effect<Account.AccountSummary, WalletError.WalletError>
  /** The member's accounts of a public key on the chain (GET /v2/pubkey/{public-key}/account). */
  readonly accountsByPublicKey: (
    publicKey: PublicKey.PublicKey | string,
    options?: CallOptions
  ) => Effect.Effect<ReadonlyArray<Account.PublicKeyAccount>, WalletError.WalletError>
  /** How many accounts the member holds on the chain (GET /v2/stat/count). */
  readonly accountCount: (options?: CallOptions) => Effect.Effect<Account.AccountCount, WalletError.WalletError>
  /** How many accounts the selected pool holds (GET /v2/stat/count/krn, the pool in `x-krn`). */
  readonly accountCountByPool: (options?: CallOptions) => Effect.Effect<Account.PoolAccountCount, WalletError.WalletError>
  /**
   * Creates a fee-payer account in the selected fee-payer pool (POST /v2/feepayer). Not retried
   * once the request may have reached the service.
   */
  readonly createFeePayer: (options?: CreateFeePayerOptions) => Effect.Effect<Account.FeePayerAccount, WalletError.WalletError>
  /** One fee-payer account by address (GET /v2/feepayer/{address}). */
  readonly getFeePayer: (
    address: Address.Address | string,
    options?: FeePayerCallOptions
  ) => Effect.Effect<Account.FeePayerAccount, WalletError.WalletError>
  /** Deletes a fee-payer account (DELETE /v2/feepayer/{address}). Not retried once sent. */
  readonly deleteFeePayer: (
    address: Address.Address | string,
    options?: FeePayerCallOptions
  ) => Effect.Effect<Account.AccountStatus, WalletError.WalletError>
  /** One page of the fee-payer listing (GET /v2/feepayer). */
  readonly listFeePayers: (params?: FeePayerListParams) => Effect.Effect<Account.FeePayerAccountPage, WalletError.WalletError>
  /** Every fee-payer account, newest first, as the consumer pulls. */
  readonly feePayers: (params?: FeePayerListParams) => Stream.Stream<Account.FeePayerAccount, WalletError.WalletError>
  /** Every page of the fee-payer listing, as the consumer pulls. */
  readonly feePayerPages: (params?: FeePayerListParams) => Stream.Stream<Account.FeePayerAccountPage, WalletError.WalletError>
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
   * 5xx, a 429, a node answering "already known" or "nonce too low" to a resubmission), it looks
   * the hash up (GET /v2/tx/{hash}): known, pending or committed, is success; unknown, the same
   * bytes are submitted again on `resubmit`'s schedule (a transaction cannot be applied twice, so
   * this never sends twice). Two requests when all goes well. Returns the verified signed result
   * with `status: "Submitted"` (a multisig sender's pending result as it is); await its receipt
   * with `awaitReceipt`. Once signed, a failure is `SubmissionFailed` with the hash and the signed
   * RLP. docs/client.md.
   */
  readonly sendReliably: <K extends TransactionKind.TransactionKind>(
    kind: K,
    options: ReliableSendOptions<K>
  ) => Effect.Effect<Transaction.TransactionResult, WalletError.WalletError>
  /**
   * Transfers value from an account of the selected pool (POST /v2/tx/value, /v2/tx/fd/value or
   * /v2/tx/fd-user/value, by `feePayer`): `send` of a `TransactionKind.ValueTransfer`.
   */
  readonly transferValue: (params: TransferParams) => Effect.Effect<Transaction.TransactionResult, WalletError.WalletError>
  /**
   * Calls a contract read-only against the latest state (POST /v2/tx/contract/call): the
   * service encodes the method and arguments (`data`) and returns the raw return data
   * (`result`); `Abi` decodes it. Nothing is signed or sent, so it is retried like a read.
   */
  readonly callContract: (params: CallContractParams) => Effect.Effect<Transaction.ContractCallResult, WalletError.WalletError>
  /**
   * Creates `size` keys (1..100) in a key pool (POST /v2/key, body `{ size }`; `x-krn` only when
   * a key pool is selected, else the member's default key pool). Not retried once the request may
   * have reached the service: creating is not idempotent.
   */
  readonly createKeys: (size: number, options?: KeyCallOptions) => Effect.Effect<Key.CreatedKeys, WalletError.WalletError>
  /** One key by key id (GET /v2/key/{key-id}); the key id is validated first and must be on the call's chain. */
  readonly getKey: (keyId: KeyId.KeyId | string, options?: KeyCallOptions) => Effect.Effect<Key.Key, WalletError.WalletError>
  /** Deletes a key (DELETE /v2/key/{key-id}). Not retried once sent. */
  readonly deleteKey: (keyId: KeyId.KeyId | string, options?: KeyCallOptions) => Effect.Effect<Key.KeyStatus, WalletError.WalletError>
  /** One page of a pool's keys (GET /v2/key?krn=...&size=...&cursor=...). */
  readonly listKeys: (params?: KeyListParams) => Effect.Effect<Key.KeyPage, WalletError.WalletError>
  /** Every key of a pool, fetched page by page as the consumer pulls. */
  readonly keys: (params?: KeyListParams) => Stream.Stream<Key.KeySummary, WalletError.WalletError>
  /** Every page of a pool's keys, as the consumer pulls. */
  readonly keyPages: (params?: KeyListParams) => Stream.Stream<Key.KeyPage, WalletError.WalletError>
  /**
   * Signs a 32-byte hash (`0x` + 64 hex digits) with a key (POST /v2/key/{key-id}/sign, body
   * `{ data }`); returns the 65-byte signature. Not retried once sent.
   */
  readonly signWithKey: (
    keyId: KeyId.KeyId | string,
    hash: Key.SignableHash | string,
    options?: KeyCallOptions
  ) => Effect.Effect<Key.KeySignature, WalletError.WalletError>
  /**
   * Registers existing Klaytn accounts in the selected pool under keys of the key service (POST
   * /v2/registration/account): each item's `rlp`, when given, is a fee-delegated account update
   * (0x21) its current key signed, switching it to `AccountKeyPublic` of the key; the service
   * pays its fee and sends it. 1 to 100 items, one per address, each key id on the call's chain:
   * checked before anything is sent. The answer says which items failed and why
   * (`Registration.RegistrationResult`); a key id that is not the member's refuses the whole
   * request (`AccountNotFound`, code 1061010). Not retried once sent. `migrateAccounts` builds
   * the items from private keys.
   */
  readonly registerAccounts: (
    items: ReadonlyArray<RegisterAccountParams>,
    options?: CallOptions
  ) => Effect.Effect<Registration.RegistrationResult, WalletError.WalletError>
  /**
   * Brings existing Klaytn accounts under KAS custody in one call (the official client's
   * `migrateAccounts`): checks every account (`Migration.MigrationAccount`: its address and the
   * `Redacted` private key or keys that sign its updates) before anything is sent; reads what was
   * not given from the KAS Node API (`nodeUrl`: the chain id, checked; the gas price; each
   * account's pending nonce and its key on the chain, against which the keys are checked); creates
   * one key per account (`createKeys`, in `keyPool`); signs each account's fee-delegated update to
   * its key here, with the private keys, which never leave the process; and registers them
   * (`registerAccounts`, in `pool`). Each account's outcome says whether it was migrated, with its
   * key, or why not (`Migration.Outcome`). A failure of a node read or of the key creation fails
   * the call (nothing was registered); a failure of the registration request is each account's
   * outcome, with the key created for it. docs/migration.md.
   */
  readonly migrateAccounts: (
    accounts: ReadonlyArray<Migration.MigrationAccount>,
    options?: MigrateOptions
  ) => Effect.Effect<Migration.MigrationResult, WalletError.WalletError>
  /**
   * One page of the member's fee-delegation history (GET /v2/history/fd/tx), optionally only the
   * transactions `from` sent; an empty history (the service's 400 1061010 on the first page) is an
   * empty page.
   */
  readonly listFeeDelegationHistory: (params?: HistoryListParams) => Effect.Effect<FeeHistory.FeeDelegationHistoryPage, WalletError.WalletError>
  /** Every record of the fee-delegation history, page after page (see `listFeeDelegationHistory`). */
  readonly feeDelegationHistory: (params?: HistoryListParams) => Stream.Stream<FeeHistory.FeeDelegationRecord, WalletError.WalletError>
  /** Every page of the fee-delegation history. */
  readonly feeDelegationHistoryPages: (params?: HistoryListParams) => Stream.Stream<FeeHistory.FeeDelegationHistoryPage, WalletError.WalletError>
  /**
   * The fee-delegation record of one transaction (GET /v2/history/fd/tx/{transaction-hash}); a
   * hash the history does not hold fails with the service's 1061010 ("data don't exist"), which the
   * client classifies `AccountNotFound` on every path.
   */
  readonly getFeeDelegationRecord: (
    hash: Transaction.TxHash | string,
    options?: HistoryCallOptions
  ) => Effect.Effect<FeeHistory.FeeDelegationRecord, WalletError.WalletError>
  /**
   * Makes an account of the selected pool a multisig account (PUT /v2/account/{address}/multisig):
   * its key becomes the weighted set of `key` (public keys of the member's accounts on the chain,
   * 1..10, distinct, positive weights, a threshold they reach: all checked before sending, the keys
   * on the curve). The update is a transaction the account signs and pays for; from then on its
   * transactions are pending (`Transaction.isMultisigPending`) until the weights of their signers
   * reach the threshold. The answer is verified against the request (`UnverifiedResult`). Not
   * retried once sent.
   */
  readonly updateToMultisig: (
    address: Address.Address | string,
    key: MultisigKeyInput,
    options?: CallOptions
  ) => Effect.Effect<Multisig.MultisigAccount, WalletError.WalletError>
  /**
   * One page of the pending transactions of a multisig account, or of those a signer may sign (GET
   * /v2/multisig/account/{address}/tx), newest first; none pending (the service's 400 1061010 on the
   * first page) is an empty page.
   */
  readonly listMultisigTransactions: (
    address: Address.Address | string,
    params?: MultisigListParams
  ) => Effect.Effect<Multisig.PendingTransactionPage, WalletError.WalletError>
  /** Every pending transaction of a multisig account or signer, page after page as the consumer pulls. */
  readonly multisigTransactions: (
    address: Address.Address | string,
    params?: MultisigListParams
  ) => Stream.Stream<Multisig.PendingTransaction, WalletError.WalletError>
  /** Every page of a multisig account's or signer's pending transactions. */
  readonly multisigTransactionPages: (
    address: Address.Address | string,
    params?: MultisigListParams
  ) => Stream.Stream<Multisig.PendingTransactionPage, WalletError.WalletError>
  /**
   * A signer (an account of the selected pool holding one of the transaction's keys) signs a
   * pending transaction (POST /v2/multisig/account/{signer}/tx/{transaction-id}/sign). `Signed`
   * while the weights stay below the threshold; `Submitted`, with the hash to `awaitReceipt`, once
   * they reach it. Not retried once sent.
   */
  readonly signMultisigTransaction: (
    signer: Address.Address | string,
    transactionId: Transaction.TransactionId | string,
    options?: CallOptions
  ) => Effect.Effect<Multisig.SignatureStatus, WalletError.WalletError>
  /**
   * Adds signatures made elsewhere to a pending transaction (POST
   * /v2/multisig/tx/{transaction-id}/sign): each `{ V, R, S }` over its sender signing hash on the
   * chain, from one of its keys (`signTransactionById` makes one with an account of the wallet).
   * Not retried once sent.
   */
  readonly appendSignatures: (
    transactionId: Transaction.TransactionId | string,
    signatures: ReadonlyArray<Transaction.Signature>,
    options?: HistoryCallOptions
  ) => Effect.Effect<Multisig.SignatureStatus, WalletError.WalletError>
  /**
   * An account of the selected pool signs a pending transaction (POST
   * /v2/account/{address}/tx/{transaction-id}/sign): its signature, which the service does not keep
   * (`appendSignatures` adds it). Retried like a read: nothing changes.
   */
  readonly signTransactionById: (
    address: Address.Address | string,
    transactionId: Transaction.TransactionId | string,
    options?: CallOptions
  ) => Effect.Effect<Transaction.Signature, WalletError.WalletError>
  /** The receipt of a transaction (GET /v2/tx/{hash}); pending until committed. */
  readonly getTransactionReceipt: (
    hash: Transaction.TxHash | string,
    options?: CallOptions
  ) => Effect.Effect<Transaction.TransactionReceipt, WalletError.WalletError>
  /**
   * Polls the receipt on `schedule` until the transaction is committed (`Committed` or
   * `CommitError`), treating "unknown hash" as not yet indexed; fails with `ReceiptTimeout` after
   * `timeout`.
   */
  readonly awaitReceipt: (
    hash: Transaction.TxHash | string,
    options?: AwaitReceiptOptions
  ) => Effect.Effect<Transaction.CommittedReceipt, WalletError.WalletError>
}

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
export const userAgent = `effect-kas-wallet/${version}`

const validAddress = Options.argument("address", Address.Address)
const validPublicKey = Options.argument("publicKey", PublicKey.PublicKey)
const validStatus = Options.argument("status", Account.StatusFilterFromString)
const validHash = Options.argument("hash", Transaction.TxHash)
const validValue = Options.argument("value", Amount.PebFromSelf)
const validFeePayer = Options.argument("feePayer", FeeDelegation.FeePayer)
const validFeeRatio = Options.argument("feeRatio", FeeDelegation.FeeRatio)
const validFrom = Options.argument("from", Address.Address)
const validKeyIdString = Options.argument("keyId", KeyId.KeyId)
// A key id value (from a result) as it is; a string decoded.
const validKeyId = (u: unknown): Either.Either<KeyId.KeyId, WalletError.InvalidArgument> =>
  KeyId.isKeyId(u) ? Either.right(u) : validKeyIdString(u)
const validSignable = Options.argument("hash", Key.SignableHash)
const validListKrn = Options.argument("krn", Krn.PoolKrn)
const CreateSize = Schema.Int.pipe(
  Schema.between(1, Key.MaxCreateSize, { message: (issue) => `must be an integer from 1 to ${Key.MaxCreateSize}, got ${String(issue.actual)}` })
)
const validCreateSize = Options.argument("size", CreateSize)
const decodeRegistrationResult: Decode<Registration.RegistrationResult> = Schema.decodeUnknownEither(Registration.RegistrationResult)
const decodeTransactionResult = Schema.decodeUnknownEither(Transaction.TransactionResult)
// The body is kept beside the result: a result that fails verification is shown as it came.
const decodeTransactionResultWithBody: Decode<{ readonly body: unknown; readonly result: Transaction.TransactionResult }> = (body) =>
  Either.map(decodeTransactionResult(body), (result) => ({ body, result }))
const decodeReceipt: Decode<Transaction.TransactionReceipt> = Schema.decodeUnknownEither(Transaction.TransactionReceipt)
const decodeCallResult: Decode<Transaction.ContractCallResult> = Schema.decodeUnknownEither(Transaction.ContractCallResult)

/** A body decoded by its schema (every field checked, and named when it fails), then encoded by it. */
const roundTrip = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema)
  const encode = Schema.encodeEither(schema)
  return (input: unknown): Either.Either<I, ParseResult.ParseError> => Either.flatMap(decode(input), encode)
}

const bodyOf: { readonly [K in Wire.Kind]: (input: unknown) => Either.Either<unknown, ParseResult.ParseError> } = {
  value: roundTrip(Wire.Bodies.value.any),
  "contract/deploy": roundTrip(Wire.Bodies["contract/deploy"].any),
  "contract/execute": roundTrip(Wire.Bodies["contract/execute"].any),
  rlp: roundTrip(Wire.Bodies.rlp.any),
  cancel: roundTrip(Wire.Bodies.cancel.any),
  anchor: roundTrip(Wire.Bodies.anchor.any),
  account: roundTrip(Wire.Bodies.account.any),
  legacy: roundTrip(Wire.Bodies.legacy.any)
}

const optional = <A>(name: string, value: A | undefined) => (value !== undefined ? { [name]: value } : {})

/** What `send` reads of its options, whatever the kind (JavaScript callers may pass anything). */
interface AnyOptions extends CallOptions {
  readonly from?: unknown
  readonly nonce?: unknown
  readonly gas?: unknown
  readonly submit?: unknown
  readonly feePayer?: unknown
  readonly feeRatio?: unknown
  readonly feePayerPool?: WalletConfig.FeePayerPoolSelection | undefined
}

/** The wire fields of a kind, before the body's schema checks them; amounts are checked here. */
const kindFields = (kind: TransactionKind.TransactionKind) =>
  Either.gen(function*() {
    const amount = "value" in kind && kind.value !== undefined ? Amount.toHex(yield* validValue(kind.value)) : undefined
    return TransactionKind.$match(kind, {
      ValueTransfer: (k): Record<string, unknown> => ({ to: k.to, value: amount, ...optional("memo", k.memo) }),
      ContractDeploy: (k) => ({ input: k.input, ...optional("value", amount) }),
      ContractExecution: (k) => ({ to: k.to, input: k.input, ...optional("value", amount) }),
      RawTransaction: (k) => ({ rlp: k.rlp }),
      Cancel: (k) => ({ ...optional("nonce", k.nonce), ...optional("transactionHash", k.transactionHash) }),
      Anchor: (k) => ({ input: k.input }),
      AccountUpdate: (k) => ({ accountKey: AccountKey.toJson(k.accountKey) }),
      Legacy: (k) => ({ ...optional("to", k.to), ...optional("value", amount), ...optional("input", k.input) })
    })
  })

// The fields a kind takes from the options rather than from itself: a raw transaction's sender,
// nonce and gas are its RLP's; a cancellation's nonce is its target's.
const ownFields = (kind: TransactionKind.TransactionKind, options: AnyOptions) =>
  Either.gen(function*() {
    if (kind._tag === "RawTransaction") {
      for (const field of ["nonce", "gas"] as const) {
        if (options[field] !== undefined) {
          return yield* Either.left(Options.invalid(field, `a raw transaction's ${field} is its RLP's: the option is not taken`))
        }
      }
      return { ...optional("submit", options.submit) }
    }
    if (kind._tag === "Cancel") {
      if (options.nonce !== undefined) {
        return yield* Either.left(Options.invalid("nonce", "a cancellation's nonce is the pending transaction's: give it in TransactionKind.Cancel"))
      }
      if ((kind.nonce === undefined) === (kind.transactionHash === undefined)) {
        return yield* Either.left(Options.invalid(
          kind.nonce === undefined ? "nonce" : "transactionHash",
          "a cancellation names the pending transaction by nonce or by transactionHash, exactly one of them"
        ))
      }
    }
    return {
      from: options.from,
      ...optional("nonce", options.nonce),
      ...optional("gas", options.gas),
      ...optional("submit", options.submit)
    }
  })

/** A request checked and encoded: its body, route, fee payer, and what its result must show. */
interface Prepared {
  readonly body: unknown
  readonly wireKind: Wire.Kind
  readonly route: Wire.PayerRoute
  readonly feePayer: FeeDelegation.FeePayer | undefined
  readonly path: string
  readonly expected: (chainId: number) => Verify.Expected
}

/** The types a result of a typed kind may have, whoever pays and with which ratio. */
const expectedTypes = (kind: Wire.TypedKind, route: Wire.PayerRoute, feeRatio: number | undefined, memo: boolean | undefined) =>
  Wire.kindTypes[kind]
    // Without a memo either transfer type will do (its input must then be empty).
    .filter((base) => memo !== true || base === Wire.TxType.ValueTransferMemo)
    .map((base) => base + (route === "tx" ? 0 : feeRatio !== undefined ? 2 : 1))

const lowerHex = (s: unknown) => (typeof s === "string" ? s.toLowerCase() : undefined)
const nonZero = (n: unknown) => (typeof n === "number" && n !== 0 ? n : undefined)

/**
 * The transaction's body, on the wire: the kind's fields and the options, decoded with the kind's
 * body schema of `Wire` (the one the emulator decodes the same body with), so that every field is
 * checked, and named when it fails, before anything is sent; then encoded by the same schema.
 */
const requestBody = (kind: TransactionKind.TransactionKind, options: AnyOptions) =>
  Either.gen(function*() {
    const wireKind = TransactionKind.wireKind(kind)
    const fields = yield* kindFields(kind)
    const own = yield* ownFields(kind, options)
    const feePayer = options.feePayer === undefined ? undefined : yield* validFeePayer(options.feePayer)
    if (options.feeRatio !== undefined && feePayer === undefined) {
      // A type error in TypeScript; JavaScript callers reach this.
      return yield* Either.left(Options.invalid("feeRatio", "a fee ratio needs a fee payer (feePayer: FeeDelegation.global or FeeDelegation.user(address))"))
    }
    const route = Wire.payerRoute(feePayer)
    if (!Wire.payerRoutes[wireKind].includes(route)) {
      return yield* Either.left(Options.invalid("feePayer", `a ${kind._tag} transaction has no fee-delegated form: its sender pays`))
    }
    // 1..99 here: the wire's 0 (the whole fee) is written as no ratio at all.
    const feeRatio = options.feeRatio === undefined ? undefined : yield* validFeeRatio(options.feeRatio)
    const body = (yield* Either.mapLeft(
      bodyOf[wireKind]({
        ...own,
        ...fields,
        ...(feePayer?._tag === "UserFeePayer" ? { feePayer: feePayer.address } : {}),
        ...optional("feeRatio", feeRatio)
      }),
      Options.fromParseError("params")
    )) as Record<string, unknown>
    const userFeePayer = typeof body.feePayer === "string" ? body.feePayer as Address.Address : undefined
    const from = typeof body.from === "string" ? body.from as Address.Address : undefined
    const typed = (kind: Wire.TypedKind, memo?: boolean): Pick<Verify.Expected, "route" | "types" | "from" | "nonce" | "gas" | "feePayer" | "feeRatio"> => ({
      route,
      types: expectedTypes(kind, route, feeRatio, memo),
      from,
      nonce: nonZero(body.nonce),
      gas: nonZero(body.gas),
      feePayer: userFeePayer,
      feeRatio
    })
    const shape = TransactionKind.$match(kind, {
      ValueTransfer: (k) => ({ ...typed("value", k.memo !== undefined), to: body.to as Address.Address, value: BigInt(body.value as string), input: k.memo !== undefined ? Wire.memoInput(k.memo) : "0x" }),
      ContractDeploy: () => ({ ...typed("contract/deploy"), value: BigInt((body.value as string | undefined) ?? 0), input: lowerHex(body.input) }),
      ContractExecution: () => ({ ...typed("contract/execute"), to: body.to as Address.Address, value: BigInt((body.value as string | undefined) ?? 0), input: lowerHex(body.input) }),
      // Completed once the RLP is decoded (`rawRequest`).
      RawTransaction: () => ({ route, types: [], feePayer: userFeePayer, feeRatio }),
      // The cancel transaction takes the nonce of the one it replaces.
      Cancel: (k) => ({ ...typed("cancel"), ...(k.nonce !== undefined ? { nonce: k.nonce } : {}) }),
      Anchor: () => ({ ...typed("anchor"), input: lowerHex(body.input) }),
      AccountUpdate: (k) => ({ ...typed("account"), accountKey: k.accountKey }),
      Legacy: () => ({
        ...typed("legacy"),
        ...(body.to !== undefined ? { to: body.to as Address.Address } : { noRecipient: true }),
        value: BigInt((body.value as string | undefined) ?? 0),
        input: lowerHex(body.input) ?? "0x"
      })
    }) as Omit<Verify.Expected, "chainId">
    const prepared: Prepared = {
      body,
      wireKind,
      route,
      feePayer,
      path: Wire.txPath(wireKind, route),
      expected: (chainId) => ({ ...shape, chainId })
    }
    return prepared
  })

/**
 * A raw transaction's request, completed from its RLP: decoded (a mistake names `rlp`), its sender
 * compared with a `from` given, its type and ratio with the route (the refusals of the service,
 * codes 1061918, 1061920 and 1061912, made before sending).
 */
const rawRequest = (prepared: Prepared, rlp: string, options: AnyOptions) =>
  Effect.flatMap(
    Effect.mapError(Verify.loadCodec, (m) => Options.invalid("rlp", `${m.expected}: ${m.actual}`)),
    (klaytn) =>
      Either.gen(function*() {
        const sent = yield* Either.mapLeft(klaytn.decodeRaw(bytesOfHex(rlp)), (e) => Options.invalid("rlp", e.reason))
        const t = sent.tx
        if (options.from !== undefined) {
          const from = yield* validFrom(options.from)
          if (from.toLowerCase() !== t.from.toLowerCase()) {
            return yield* Either.left(Options.invalid("from", `the RLP's sender is ${t.from}, not ${from}`))
          }
        }
        const delegated = Wire.isFeeDelegatedType(t.type)
        if (prepared.route !== "tx" && !delegated) {
          return yield* Either.left(Options.invalid(
            "rlp",
            `type ${Wire.typeName(t.type)} is not fee-delegated: a fee payer takes fee-delegated types only (the service refuses it with 1061918)`
          ))
        }
        const ratio = prepared.expected(0).feeRatio
        if (ratio !== undefined && delegated && !Wire.hasFeeRatio(t.type)) {
          return yield* Either.left(Options.invalid("feeRatio", `type ${Wire.typeName(t.type)} delegates the whole fee: it takes no ratio (1061920)`))
        }
        if (ratio !== undefined && t.feeRatio !== undefined && ratio !== t.feeRatio) {
          return yield* Either.left(Options.invalid("feeRatio", `the RLP's fee ratio is ${t.feeRatio}, not ${ratio} (1061912)`))
        }
        const asked = prepared.expected(0).feePayer
        // An empty or zero fee payer (not signed yet) decodes as none.
        const inRlp = sent.feePayer?.address
        if (asked !== undefined && inRlp !== undefined && inRlp.toLowerCase() !== asked.toLowerCase()) {
          return yield* Either.left(Options.invalid("feePayer", `the RLP's fee payer is ${inRlp}, not ${asked} (1061912)`))
        }
        const completed: Prepared = {
          ...prepared,
          expected: (chainId) => ({
            ...prepared.expected(chainId),
            types: [t.type],
            from: t.from,
            feeRatio: t.feeRatio,
            sent
          })
        }
        return completed
      })
  )

const callBody = roundTrip(Wire.ContractCallBody)
const registrationBody = roundTrip(Registration.RegistrationRequest)

/**
 * A registration's body, checked and encoded: key ids as strings (a `KeyId` value or a string),
 * each on the call's chain.
 */
const registrationItems = (items: unknown, chainId: number) =>
  Either.gen(function*() {
    if (!Array.isArray(items)) return yield* Either.left(Options.invalid("items", "must be an array of { keyId, address, rlp? }"))
    const raw = (items as ReadonlyArray<unknown>).map((item) => {
      if (typeof item !== "object" || item === null) return item
      const i = item as Record<string, unknown>
      return KeyId.isKeyId(i.keyId) ? { ...i, keyId: i.keyId.toString() } : i
    })
    const body = yield* Either.mapLeft(registrationBody(raw), (error) => {
      const e = Options.fromParseError("items")(error)
      return Options.invalid(e.argument === "items" ? "items" : `items[${e.argument}]`, e.description)
    })
    for (const [i, item] of body.entries()) {
      const keyId = Either.getOrThrow(validKeyIdString(item.keyId))
      if (keyId.poolKrn.chainId !== chainId) {
        return yield* Either.left(Options.invalid(`items[${i}].keyId`, `key ${item.keyId} is on chain ${keyId.poolKrn.chainId}, the request on chain ${chainId}`))
      }
    }
    return body
  })

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

type Decode<A> = (body: unknown) => Either.Either<A, ParseResult.ParseError>

/** Polling gave no final receipt yet. */
const NotYet = Symbol("NotYet")

const decodeAccountStatus: Decode<Account.AccountStatus> = Schema.decodeUnknownEither(Account.AccountStatus)
const decodeAccountSummary: Decode<Account.AccountSummary> = Schema.decodeUnknownEither(Account.AccountSummary)
const decodePublicKeyAccounts: Decode<Account.PublicKeyAccounts> = Schema.decodeUnknownEither(Account.PublicKeyAccounts)
const decodeAccountCount: Decode<Account.AccountCount> = Schema.decodeUnknownEither(Account.AccountCount)
const decodePoolAccountCount: Decode<Account.PoolAccountCount> = Schema.decodeUnknownEither(Account.PoolAccountCount)
const decodeKey: Decode<Key.Key> = Schema.decodeUnknownEither(Key.Key)
const decodeCreatedKeys: Decode<Key.CreatedKeys> = Schema.decodeUnknownEither(Key.CreatedKeys)
const decodeKeyPage: Decode<Key.KeyPage> = Schema.decodeUnknownEither(Key.KeyPage)
const decodeKeyStatus: Decode<Key.KeyStatus> = Schema.decodeUnknownEither(Key.KeyStatus)
const decodeKeySignature: Decode<Key.KeySignature> = Schema.decodeUnknownEither(Key.KeySignature)

const decodeMultisigAccount = Schema.decodeUnknownEither(Multisig.MultisigAccount)
const decodeMultisigAccountWithBody: Decode<{ readonly body: unknown; readonly result: Multisig.MultisigAccount }> = (body) =>
  Either.map(decodeMultisigAccount(body), (result) => ({ body, result }))
const decodeSignatureStatus = Schema.decodeUnknownEither(Multisig.SignatureStatus)
const decodeSignatureStatusWithBody: Decode<{ readonly body: unknown; readonly result: Multisig.SignatureStatus }> = (body) =>
  Either.map(decodeSignatureStatus(body), (result) => ({ body, result }))
const decodeSignature: Decode<Transaction.Signature> = Schema.decodeUnknownEither(Transaction.Signature)
const validTransactionId = Options.argument("transactionId", Transaction.TransactionId)
const validSigner = Options.argument("signer", Address.Address)
const multisigKeyBody = roundTrip(Multisig.UpdateRequest)
const appendBody = roundTrip(Multisig.AppendRequest)

/**
 * The body of an update to multisig, checked: its rules by the schema (named under `key`), then
 * each public key on the curve, with the codec the client loads to verify results.
 */
const multisigUpdateBody = (key: MultisigKeyInput) =>
  Effect.gen(function*() {
    const input = key !== null && typeof key === "object" && "_tag" in key
      ? (AccountKey.toJson(key) as { readonly key?: unknown }).key
      : key
    const body = yield* Either.mapLeft(multisigKeyBody(input), (e) => {
      const invalid = Options.fromParseError("key")(e)
      return invalid.argument === "key" ? invalid : Options.invalid(`key.${invalid.argument}`, invalid.description)
    })
    const klaytn = yield* Effect.mapError(Verify.loadCodec, (m) => Options.invalid("key", `${m.expected}: ${m.actual}`))
    for (const [i, w] of body.weightedKeys.entries()) {
      const compressed = AccountKey.toKlaytn(AccountKey.Public({ publicKey: w.publicKey as PublicKey.PublicKey }))
      if (compressed._tag !== "Public" || Either.isLeft(klaytn.addressOfPublicKey(compressed.publicKey))) {
        return yield* Options.invalid(`key.weightedKeys.${i}.publicKey`, `${w.publicKey} is not a point of secp256k1`)
      }
    }
    return body
  })

/** A key id's path segment: percent-encoded, as the official client sends it (`krn%3A1001%3A...`). */
const keyPath = (keyId: KeyId.KeyId) => `/v2/key/${encodeURIComponent(keyId.toString())}`

/** How one listing of the API is paged: where, what a page decodes to, which extra parameters. */
interface ListingSpec<P> {
  readonly name: string
  readonly path: string
  readonly decode: Decode<P>
  readonly extra: ReadonlyArray<readonly [string, string]>
  readonly headers: (t: Options.Target) => Record<string, string>
  /** The page that a "data don't exist" (1061010) answer to a first page stands for, when it means "none". */
  readonly emptyPage?: P | undefined
  /** The parameters the paging reads, when not the caller's as they are. */
  readonly paging?: (Listing.Params & Options.Selection) | undefined
}

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
    const pipelineOf = (origin: string): Request.Pipeline => {
      const client = (settings.httpSpans ? base : HttpClient.withTracerDisabledWhen(base, () => true)).pipe(
        HttpClient.mapRequest((request) => HttpClientRequest.setHeaders(HttpClientRequest.prependUrl(request, origin), headers)),
        HttpClient.transform(Request.noRedirects)
      )
      return {
        client: settings.transformClient !== undefined ? settings.transformClient(client) : client,
        timeout: settings.timeout,
        retry: settings.retry,
        maxResponseBytes: settings.maxResponseBytes,
        auth: settings.auth
      }
    }
    const pipeline = pipelineOf(settings.baseUrl)
    // The KAS Node API: the same credentials, timeout, retries and limits, at its own origin.
    const nodePipeline = pipelineOf(settings.node.origin)

    const scrubbingTracers = new WeakMap<Tracer.Tracer, Tracer.Tracer>()
    const scrubbed = (tracer: Tracer.Tracer): Tracer.Tracer => {
      let wrapped = scrubbingTracers.get(tracer)
      if (wrapped === undefined) {
        wrapped = Auth.scrubbingTracer(tracer, settings.auth.scrub)
        scrubbingTracers.set(tracer, wrapped)
      }
      return wrapped
    }

    /** The chain and pools of a call: its own options, then the scope, then the layer. */
    const target = (call: Options.Selection | undefined) =>
      Effect.contextWithEffect((context: Context.Context<never>) => Options.targetOf(settings.target, call, context))

    // `x-krn` of account operations: the account pool, when one is selected.
    const poolHeaders = (t: Options.Target): Record<string, string> =>
      t.pool !== undefined
        ? { "x-chain-id": String(t.chainId), "x-krn": t.pool.toString() }
        : { "x-chain-id": String(t.chainId) }

    // `x-krn` of fee-payer operations: the fee-payer pool, when one is selected.
    const feePayerPoolHeaders = (t: Options.Target): Record<string, string> =>
      t.feePayerPool !== undefined
        ? { "x-chain-id": String(t.chainId), "x-krn": t.feePayerPool.toString() }
        : { "x-chain-id": String(t.chainId) }

    // `x-krn` of a transfer whose fee the member's fee-payer account pays: both pools,
    // comma-joined, when either is selected (the other one is then the member's default).
    const bothPoolsHeaders = (t: Options.Target): Record<string, string> => {
      const accountId = t.pool?.accountId ?? t.feePayerPool?.accountId
      if (accountId === undefined) return { "x-chain-id": String(t.chainId) }
      const pool = t.pool ?? Either.getOrThrow(Krn.accountPool(t.chainId, accountId))
      const feePayerPool = t.feePayerPool ?? Either.getOrThrow(Krn.feePayerPool(t.chainId, accountId))
      return { "x-chain-id": String(t.chainId), "x-krn": `${pool.toString()},${feePayerPool.toString()}` }
    }

    /** One operation: its span (named after it, with the target and the request), then the pipeline. */
    const send = <A>(
      name: string,
      t: Options.Target,
      call: Request.Call<A>,
      attributes?: Record<string, unknown>,
      through: Request.Pipeline = pipeline
    ): Effect.Effect<A, WalletError.WalletError> => {
      const path = Request.pathOf(call.request)
      const krn = call.request.headers["x-krn"]
      const traced = Spans.withSpan(Request.run(through, call, path), `WalletClient.${name}`, {
        attributes: {
          [Spans.SpanAttributes.chainId]: t.chainId,
          [Spans.SpanAttributes.pool]: krn ?? "default",
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

    /** A request checked, encoded and, for a raw transaction, completed from its RLP. */
    const prepare = (kind: TransactionKind.TransactionKind, options: AnyOptions) =>
      Effect.flatMap(requestBody(kind, options), (prepared) =>
        kind._tag === "RawTransaction" ? rawRequest(prepared, kind.rlp, options) : Effect.succeed(prepared))

    /** The UnverifiedResult of a mismatch: where the request went, and the body (scrubbed). */
    const unverified = (request: HttpClientRequest.HttpClientRequest, body: unknown, result: Transaction.TransactionResult) =>
    (m: Verify.Mismatch) =>
      new WalletError.UnverifiedResult({
        method: request.method,
        path: settings.auth.scrub(Request.pathOf(request)),
        ...m,
        body: settings.auth.scrub(JSON.stringify(body)),
        ...(Transaction.isSigned(result) ? { transactionHash: result.transactionHash } : {})
      })

    // The keys of senders whose key is not their address's own (accounts registered under a key of
    // the key service), by chain and lower-case address: learnt from the account when a result's sender
    // signature does not recover to its address; bounded, the oldest forgotten first.
    const senderKeys = new Map<string, Uint8Array>()
    const senderKeyOf = (from: Address.Address, t: Options.Target) => {
      // By chain too: one address may be registered on both chains under two keys.
      const id = `${t.chainId}:${from.toLowerCase()}`
      const known = senderKeys.get(id)
      if (known !== undefined) return Effect.succeed(known)
      return Effect.map(
        send("getAccount", t, {
          request: HttpClientRequest.get(`/v2/account/${from}`, { headers: poolHeaders(t) }),
          idempotent: true,
          decode: DecodeAccounts.decodeAccount
        }, { [Spans.SpanAttributes.address]: from }),
        (account) => {
          const key = (AccountKey.toKlaytn(AccountKey.Public({ publicKey: account.publicKey })) as { readonly publicKey: Uint8Array }).publicKey
          if (senderKeys.size >= 1024) senderKeys.delete(senderKeys.keys().next().value!)
          senderKeys.set(id, key)
          return key
        }
      )
    }

    /**
     * A result's check: the request's, and when the sender's signature the service made does not
     * recover to its address, once more against the key the sender's account holds — an account
     * registered under a key of the key service signs with a key of another address. The account is
     * read once (GET /v2/account/{from}); a failure there leaves the first mismatch.
     */
    const verified = (expected: Verify.Expected, result: Transaction.TransactionResult, t: Options.Target) => {
      const once = (e: Verify.Expected) => Verify.verify(e, result, settings.verifyResults === "all")
      return Effect.catchAll(once(expected), (mismatch) =>
        mismatch.field !== "rlp.signatures" || expected.sent !== undefined || expected.from === undefined || settings.verifyResults !== "all"
          ? Effect.fail(mismatch)
          : senderKeyOf(expected.from, t).pipe(
            Effect.matchEffect({
              onFailure: () => Effect.fail(mismatch),
              onSuccess: (senderKey) => once({ ...expected, senderKey })
            })
          ))
    }

    /** Any transaction: its body checked and built, sent to the route of its kind and fee payer, its result verified. */
    const sendTransaction = (name: string, kind: TransactionKind.TransactionKind, options: AnyOptions) =>
      Effect.flatMap(Effect.zip(prepare(kind, options), target(options)), ([prepared, t]) => {
        const request = HttpClientRequest.make(Wire.methodOf(prepared.wireKind))(prepared.path, {
          headers: prepared.feePayer?._tag === "UserFeePayer" ? bothPoolsHeaders(t) : poolHeaders(t)
        }).pipe(HttpClientRequest.bodyUnsafeJson(prepared.body))
        const sent = send(name, t, { request, idempotent: false, decode: decodeTransactionResultWithBody }, {
          [Spans.SpanAttributes.txKind]: kind._tag,
          [Spans.SpanAttributes.feePayer]: prepared.feePayer === undefined ? "sender" : prepared.feePayer._tag
        })
        return Effect.flatMap(sent, ({ body, result }) =>
          settings.verifyResults !== "off"
            ? Effect.as(Effect.mapError(verified(prepared.expected(t.chainId), result, t), unverified(request, body, result)), result)
            : Effect.succeed(result))
      })

    /** Whether a failed submission may have reached the chain: only a look-up of its hash can tell. */
    const outcomeUnknown = (error: WalletError.WalletError, resubmission: boolean) =>
      error._tag === "TransportError" || error._tag === "ServerError" || error._tag === "RateLimited" ||
      // A resubmission the node refuses as a duplicate ("already known", "nonce too low") may
      // mean the first one got through.
      (resubmission && error._tag === "InvalidRequest" && error.code === ErrorBody.Code.SendFailed)

    const sendReliably = (kind: TransactionKind.TransactionKind, options: AnyOptions & { readonly resubmit?: Schedule.Schedule<unknown, WalletError.WalletError> | undefined }) =>
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
                  path: Wire.txPath("rlp", Wire.payerRoute(feePayer as FeeDelegation.FeePayer | undefined)),
                  field: "transactionHash",
                  expected: transactionHash,
                  actual: Transaction.isSigned(result) ? result.transactionHash : "none (a result without a signed transaction)",
                  body: settings.auth.scrub(JSON.stringify(Schema.encodeSync(Transaction.TransactionResult)(result))),
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
            description: error.message
          })
        // Known to the service, pending or in a block: the submission got through.
        const known = Effect.match(receipt(transactionHash, options), { onFailure: () => false, onSuccess: () => true })
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

    /** An operation on one address: validated first, then sent to the call's target. */
    const onAddress = <A>(
      name: string,
      address: unknown,
      call: Options.Selection | undefined,
      request: (address: Address.Address, t: Options.Target) => Request.Call<A>
    ) =>
      Effect.flatMap(Effect.zip(validAddress(address), target(call)), ([checked, t]) =>
        send(name, t, request(checked, t), { [Spans.SpanAttributes.address]: checked }))

    /** A listing, validated once: its query, and one page at any cursor. */
    const listing = <P>(spec: ListingSpec<P>, params: (Listing.Params & Options.Selection) | undefined) =>
      Effect.map(Effect.zip(Listing.query(params), target(params)), ([query, t]) => ({
        query,
        page: (cursor: string) => {
          const fetched = send(spec.name, t, {
            request: HttpClientRequest.get(spec.path, {
              urlParams: Listing.urlParams(query, cursor, spec.extra),
              headers: spec.headers(t)
            }),
            idempotent: true,
            decode: spec.decode
          }, { [Spans.SpanAttributes.pageSize]: query.size ?? Pagination.DefaultPageSize })
          const empty = spec.emptyPage
          return empty === undefined || cursor !== ""
            ? fetched
            : Effect.catchIf(
              fetched,
              // 1061010 is classified AccountNotFound, whatever the path.
              (e) => "code" in e && e.code === ErrorBody.Code.DataNotExist,
              () => Effect.succeed(empty)
            )
        }
      }))

    /** A listing's one page, its pages and its items, from one spec. */
    const paged = <A, P extends { readonly cursor: string; readonly items: ReadonlyArray<A> }, Q = Listing.Params & Options.Selection>(
      spec: (params: Q | undefined) => Effect.Effect<ListingSpec<P>, WalletError.InvalidArgument>
    ) => {
      const open = (params: Q | undefined) =>
        Effect.flatMap(spec(params), (s) =>
          Effect.map(listing(s, s.paging ?? (params as (Listing.Params & Options.Selection) | undefined)), (l) => ({ ...l, path: s.path })))
      const one = (params?: Q) => Effect.flatMap(open(params), (l) => l.page(l.query.cursor))
      const paging = (params: Q | undefined) =>
        Effect.map(open(params), (l): Paginate.Paging<P> => ({ start: l.query.cursor, fetch: l.page, readAhead: settings.readAhead, path: l.path }))
      const all = (params?: Q) => Stream.unwrap(Effect.map(paging(params), Paginate.pages))
      const items = (params?: Q) => Stream.unwrap(Effect.map(paging(params), (p) => Paginate.items<A, P>(p)))
      return { one, all, items }
    }

    /** A key-service operation on one key: the key id validated (and on the call's chain), then sent. */
    const onKey = <A>(
      name: string,
      keyId: unknown,
      call: KeyCallOptions | undefined,
      request: (keyId: KeyId.KeyId, t: Options.Target) => Request.Call<A>
    ) =>
      Effect.flatMap(Effect.zip(validKeyId(keyId), target(call)), ([checked, t]) =>
        checked.poolKrn.chainId !== t.chainId
          ? Effect.fail(Options.invalid("keyId", `key ${checked.toString()} is on chain ${checked.poolKrn.chainId}, the request on chain ${t.chainId}`))
          : send(name, t, request(checked, t), { [Spans.SpanAttributes.keyId]: checked.toString() }))

    // The pool a key listing lists: the `krn` given, else the selected key pool, else the default
    // key pool of the member whose account id a selected pool gives.
    const keyListKrn = (params: KeyListParams | undefined, t: Options.Target): Either.Either<Krn.PoolKrn, WalletError.InvalidArgument> => {
      if (params?.krn !== undefined) {
        return Either.flatMap(validListKrn(typeof params.krn === "string" ? params.krn : params.krn.toString()), (krn) =>
          krn.chainId === t.chainId
            ? Either.right(krn)
            : Either.left(Options.invalid("krn", `pool ${krn.toString()} is on chain ${krn.chainId}, the request on chain ${t.chainId}`)))
      }
      if (t.keyPool !== undefined) return Either.right(t.keyPool)
      const accountId = t.pool?.accountId ?? t.feePayerPool?.accountId
      return accountId === undefined
        ? Either.left(Options.invalid("krn", "give the pool to list (krn:<chain-id>:wallet:<account-id>:key-pool:<pool-name>), or select a key pool (keyPool)"))
        : Either.right(Either.getOrThrow(Krn.keyPool(t.chainId, accountId)))
    }

    const keyListing = paged<Key.KeySummary, Key.KeyPage>((params: KeyListParams | undefined) =>
      Effect.flatMap(target(params), (t) => {
        // JavaScript callers may pass a range: the key listing has none.
        const loose = params as (KeyListParams & { readonly from?: unknown; readonly to?: unknown }) | undefined
        for (const bound of ["from", "to"] as const) {
          if (loose?.[bound] !== undefined) return Effect.fail(Options.invalid(bound, "the key listing takes no time range"))
        }
        return Effect.map(keyListKrn(params, t), (krn): ListingSpec<Key.KeyPage> => ({
          name: "listKeys",
          path: "/v2/key",
          decode: decodeKeyPage,
          extra: [["krn", krn.toString()]],
          headers: (t) => ({ "x-chain-id": String(t.chainId) })
        }))
      })
    )

    // The history's `from` is the sender's address, not the time bound of the other listings: the
    // paging goes to the listing without it, the address as an extra parameter.
    const historyListing = paged<FeeHistory.FeeDelegationRecord, FeeHistory.FeeDelegationHistoryPage, HistoryListParams>(
      (params: HistoryListParams | undefined) => {
        // JavaScript callers may pass a range: the history has none.
        const loose = params as (HistoryListParams & { readonly to?: unknown }) | undefined
        if (loose?.to !== undefined) return Effect.fail(Options.invalid("to", "the fee-delegation history takes no time range (from is the sender's address)"))
        return Effect.map(
          params?.from === undefined ? Either.right(undefined) : validFrom(params.from),
          (from): ListingSpec<FeeHistory.FeeDelegationHistoryPage> => ({
            name: "listFeeDelegationHistory",
            path: "/v2/history/fd/tx",
            decode: DecodeHistory.decodePage,
            // The wire's addresses are lower case (the official client sends what it is given).
            extra: from !== undefined ? [["from", Address.toLowerCase(from)]] : [],
            headers: (t) => ({ "x-chain-id": String(t.chainId) }),
            emptyPage: { items: [], cursor: Pagination.EndCursor },
            paging: params === undefined ? undefined : (({ from: _, ...paging }) => paging)(params)
          })
        )
      }
    )
    const receipt = (hash: unknown, call: CallOptions | undefined) =>
      Effect.flatMap(Effect.zip(validHash(hash), target(call)), ([checked, t]) =>
        send("getTransactionReceipt", t, {
          request: HttpClientRequest.get(`/v2/tx/${checked}`, { headers: { "x-chain-id": String(t.chainId) } }),
          idempotent: true,
          decode: decodeReceipt
        }, { [Spans.SpanAttributes.txHash]: checked }))

    // An answer that does not say what the request asked: UnverifiedResult, the body scrubbed.
    const mismatch = (request: HttpClientRequest.HttpClientRequest, body: unknown, field: string, expected: string, actual: string) =>
      new WalletError.UnverifiedResult({
        method: request.method,
        path: settings.auth.scrub(Request.pathOf(request)),
        field,
        expected,
        actual,
        body: settings.auth.scrub(JSON.stringify(body))
      })

    // The multisig listing names its account (or signer) in the path; the rest is every listing's
    // paging. A first page the service answers 1061010 ("No content") is an empty page.
    const multisigListing = paged<Multisig.PendingTransaction, Multisig.PendingTransactionPage, MultisigListParams & { readonly address: unknown }>(
      (params) =>
        Effect.map(validAddress(params?.address), (address): ListingSpec<Multisig.PendingTransactionPage> => ({
          name: "listMultisigTransactions",
          path: `/v2/multisig/account/${address}/tx`,
          decode: DecodePending.decodePage,
          extra: [],
          headers: poolHeaders,
          emptyPage: { items: [], cursor: Pagination.EndCursor },
          paging: params === undefined ? undefined : (({ address: _, ...paging }) => paging)(params)
        }))
    )

    /** A signature sent for a pending transaction: its status, checked to be of that transaction. */
    const signing = (name: string, t: Options.Target, id: Transaction.TransactionId, request: HttpClientRequest.HttpClientRequest) =>
      Effect.flatMap(
        send(name, t, { request, idempotent: false, decode: decodeSignatureStatusWithBody }, { [Spans.SpanAttributes.transactionId]: id }),
        ({ body, result }) =>
          result.transactionId !== id
            ? Effect.fail(mismatch(request, body, "transactionId", id, result.transactionId))
            : Effect.succeed(result)
      )
    const createKeys = (size: number, call: KeyCallOptions | undefined) =>
      Effect.flatMap(Effect.zip(validCreateSize(size), target(call)), ([checked, t]) =>
        send("createKeys", t, {
          request: HttpClientRequest.post("/v2/key", {
            headers: t.keyPool !== undefined
              ? { "x-chain-id": String(t.chainId), "x-krn": t.keyPool.toString() }
              : { "x-chain-id": String(t.chainId) }
          }).pipe(HttpClientRequest.bodyUnsafeJson({ size: checked })),
          idempotent: false,
          decode: decodeCreatedKeys
        }))

    const registerAccounts = (items: unknown, call: CallOptions | undefined) =>
      Effect.flatMap(target(call), (t) =>
        Effect.flatMap(registrationItems(items, t.chainId), (body) =>
          send("registerAccounts", t, {
            request: HttpClientRequest.post("/v2/registration/account", { headers: poolHeaders(t) }).pipe(
              HttpClientRequest.bodyUnsafeJson(body)
            ),
            // Not idempotent: a registration sent twice sends its transactions twice.
            idempotent: false,
            decode: decodeRegistrationResult
          }, { "kas.accounts": body.length })))

    const accountListing = paged<Account.Account, Account.AccountPage>((params: ListParams | undefined) =>
      Effect.map(
        params?.status === undefined ? Either.right(undefined) : validStatus(params.status),
        (status): ListingSpec<Account.AccountPage> => ({
          name: "listAccounts",
          path: "/v2/account",
          decode: DecodeAccounts.decodePage,
          extra: status !== undefined ? [["status", status]] : [],
          headers: poolHeaders
        })
      ))

    const feePayerListing = paged<Account.FeePayerAccount, Account.FeePayerAccountPage>((_: FeePayerListParams | undefined) =>
      Effect.succeed<ListingSpec<Account.FeePayerAccountPage>>({
        name: "listFeePayers",
        path: "/v2/feepayer",
        decode: DecodeAccounts.decodeFeePayerPage,
        extra: [],
        headers: feePayerPoolHeaders
      })
    )

    return WalletClient.of({
      createAccount: (call) =>
        Effect.flatMap(target(call), (t) =>
          send("createAccount", t, {
            request: HttpClientRequest.post("/v2/account", { headers: poolHeaders(t) }),
            idempotent: false,
            decode: DecodeAccounts.decodeAccount
          })),
      getAccount: (address, call) =>
        onAddress("getAccount", address, call, (a, t) => ({
          request: HttpClientRequest.get(`/v2/account/${a}`, { headers: poolHeaders(t) }),
          idempotent: true,
          decode: DecodeAccounts.decodeAccount
        })),
      listAccounts: accountListing.one,
      accountPages: accountListing.all,
      accounts: accountListing.items,
      deleteAccount: (address, call) =>
        onAddress("deleteAccount", address, call, (a, t) => ({
          request: HttpClientRequest.del(`/v2/account/${a}`, { headers: poolHeaders(t) }),
          idempotent: false,
          decode: decodeAccountStatus
        })),
      disableAccount: (address, call) =>
        onAddress("disableAccount", address, call, (a, t) => ({
          request: HttpClientRequest.put(`/v2/account/${a}/disable`, { headers: poolHeaders(t) }),
          idempotent: false,
          decode: decodeAccountSummary
        })),
      enableAccount: (address, call) =>
        onAddress("enableAccount", address, call, (a, t) => ({
          request: HttpClientRequest.put(`/v2/account/${a}/enable`, { headers: poolHeaders(t) }),
          idempotent: false,
          decode: decodeAccountSummary
        })),
      accountsByPublicKey: (publicKey, call) =>
        Effect.flatMap(Effect.zip(validPublicKey(publicKey), target(call)), ([key, t]) =>
          Effect.map(
            send("accountsByPublicKey", t, {
              request: HttpClientRequest.get(`/v2/pubkey/${key}/account`, { headers: poolHeaders(t) }),
              idempotent: true,
              decode: decodePublicKeyAccounts
            }),
            (result) => result.items
          )),
      accountCount: (call) =>
        Effect.flatMap(target(call), (t) =>
          send("accountCount", t, {
            request: HttpClientRequest.get("/v2/stat/count", { headers: { "x-chain-id": String(t.chainId) } }),
            idempotent: true,
            decode: decodeAccountCount
          })),
      accountCountByPool: (call) =>
        Effect.flatMap(target(call), (t) =>
          send("accountCountByPool", t, {
            request: HttpClientRequest.get("/v2/stat/count/krn", { headers: poolHeaders(t) }),
            idempotent: true,
            decode: decodePoolAccountCount
          })),
      createFeePayer: (call) =>
        Effect.flatMap(target(call), (t) =>
          send("createFeePayer", t, {
            request: HttpClientRequest.post("/v2/feepayer", { headers: feePayerPoolHeaders(t) }).pipe(
              HttpClientRequest.bodyUnsafeJson({ withoutAccountUpdate: call?.withoutAccountUpdate === true })
            ),
            idempotent: false,
            decode: DecodeAccounts.decodeFeePayer
          })),
      getFeePayer: (address, call) =>
        onAddress("getFeePayer", address, call, (a, t) => ({
          request: HttpClientRequest.get(`/v2/feepayer/${a}`, { headers: feePayerPoolHeaders(t) }),
          idempotent: true,
          decode: DecodeAccounts.decodeFeePayer
        })),
      deleteFeePayer: (address, call) =>
        onAddress("deleteFeePayer", address, call, (a, t) => ({
          request: HttpClientRequest.del(`/v2/feepayer/${a}`, { headers: feePayerPoolHeaders(t) }),
          idempotent: false,
          decode: decodeAccountStatus
        })),
      listFeePayers: feePayerListing.one,
      feePayerPages: feePayerListing.all,
      feePayers: feePayerListing.items,
      send: (kind, options) => sendTransaction("send", kind, options),
      sendReliably: (kind, options) => sendReliably(kind, options),
      transferValue: ({ memo, to, value, ...options }) =>
        sendTransaction("transferValue", TransactionKind.ValueTransfer({ to, value, memo }), options),
      callContract: (params) =>
        Effect.flatMap(Effect.zip(contractCallBody(params), target(params)), ([body, t]) =>
          send("callContract", t, {
            request: HttpClientRequest.post(Wire.contractCallPath, { headers: { "x-chain-id": String(t.chainId) } }).pipe(
              HttpClientRequest.bodyUnsafeJson(body)
            ),
            // Read-only: nothing is signed or sent, so asking again cannot do anything twice.
            idempotent: true,
            decode: decodeCallResult
          }, { [Spans.SpanAttributes.contract]: body.to })),
      createKeys,
      getKey: (keyId, call) =>
        onKey("getKey", keyId, call, (k, t) => ({
          request: HttpClientRequest.get(keyPath(k), { headers: { "x-chain-id": String(t.chainId) } }),
          idempotent: true,
          decode: decodeKey
        })),
      deleteKey: (keyId, call) =>
        onKey("deleteKey", keyId, call, (k, t) => ({
          request: HttpClientRequest.del(keyPath(k), { headers: { "x-chain-id": String(t.chainId) } }),
          idempotent: false,
          decode: decodeKeyStatus
        })),
      listKeys: keyListing.one,
      keyPages: keyListing.all,
      keys: keyListing.items,
      signWithKey: (keyId, hash, call) =>
        Effect.flatMap(validSignable(hash), (data) =>
          onKey("signWithKey", keyId, call, (k, t) => ({
            request: HttpClientRequest.post(`${keyPath(k)}/sign`, { headers: { "x-chain-id": String(t.chainId) } }).pipe(
              HttpClientRequest.bodyUnsafeJson({ data })
            ),
            idempotent: false,
            decode: decodeKeySignature
          }))),
      registerAccounts: (items, call) => registerAccounts(items, call),
      migrateAccounts: (accounts, call) =>
        Effect.flatMap(target(call), (t) => {
          const node: Node.Node = {
            path: settings.node.path,
            chainId: t.chainId,
            send: (name, nodeCall, attributes) => send(name, t, nodeCall, attributes, nodePipeline)
          }
          return Effect.flatMap(Effect.promise(() => import("./internal/migrate.js")), (module) =>
            module.migrate({
              chainId: t.chainId,
              node,
              createKeys: (size) => createKeys(size, call),
              register: (items) => registerAccounts(items, call)
            }, accounts)).pipe(
              Spans.withSpan("WalletClient.migrateAccounts", {
                attributes: {
                  [Spans.SpanAttributes.chainId]: t.chainId,
                  [Spans.SpanAttributes.pool]: t.pool?.toString() ?? "default",
                  "kas.accounts": Array.isArray(accounts) ? accounts.length : 0
                },
                captureStackTrace: false
              })
            )
        }),
      listFeeDelegationHistory: historyListing.one,
      feeDelegationHistoryPages: historyListing.all,
      feeDelegationHistory: historyListing.items,
      getFeeDelegationRecord: (hash, call) =>
        Effect.flatMap(Effect.zip(validHash(hash), target(call)), ([checked, t]) =>
          send("getFeeDelegationRecord", t, {
            request: HttpClientRequest.get(`/v2/history/fd/tx/${checked}`, { headers: { "x-chain-id": String(t.chainId) } }),
            idempotent: true,
            decode: DecodeHistory.decodeRecord
          }, { [Spans.SpanAttributes.txHash]: checked })),
      updateToMultisig: (address, key, call) =>
        Effect.flatMap(Effect.all([validAddress(address), multisigUpdateBody(key), target(call)]), ([checked, body, t]) => {
          const request = HttpClientRequest.put(`/v2/account/${checked}/multisig`, { headers: poolHeaders(t) }).pipe(
            HttpClientRequest.bodyUnsafeJson(body)
          )
          return Effect.flatMap(
            send("updateToMultisig", t, { request, idempotent: false, decode: decodeMultisigAccountWithBody }, { [Spans.SpanAttributes.address]: checked }),
            ({ body: answer, result }) => {
              // The keys compared by identity (any form of a key is the same key), in order.
              const identity = (publicKey: string) => AccountKey.toKlaytn(AccountKey.Public({ publicKey: publicKey as PublicKey.PublicKey }))
              const same = (a: string, b: string) => {
                const x = identity(a)
                const y = identity(b)
                return x._tag === "Public" && y._tag === "Public" && x.publicKey.every((byte, i) => byte === y.publicKey[i])
              }
              const asked = body.weightedKeys.map((w) => `${w.publicKey}×${w.weight}`).join(", ")
              const got = result.multiSigKeys.map((w) => `${w.publicKey}×${w.weight}`).join(", ")
              if (result.address !== checked) return Effect.fail(mismatch(request, answer, "address", checked, result.address))
              if (result.threshold !== body.threshold) return Effect.fail(mismatch(request, answer, "threshold", String(body.threshold), String(result.threshold)))
              if (
                result.multiSigKeys.length !== body.weightedKeys.length ||
                result.multiSigKeys.some((k, i) => k.weight !== body.weightedKeys[i]!.weight || !same(k.publicKey, body.weightedKeys[i]!.publicKey))
              ) {
                return Effect.fail(mismatch(request, answer, "multiSigKeys", asked, got))
              }
              return Effect.succeed(result)
            }
          )
        }),
      listMultisigTransactions: (address, params) => multisigListing.one({ ...params, address }),
      multisigTransactions: (address, params) => multisigListing.items({ ...params, address }),
      multisigTransactionPages: (address, params) => multisigListing.all({ ...params, address }),
      signMultisigTransaction: (signer, transactionId, call) =>
        Effect.flatMap(Effect.all([validSigner(signer), validTransactionId(transactionId), target(call)]), ([checked, id, t]) =>
          signing("signMultisigTransaction", t, id, HttpClientRequest.post(`/v2/multisig/account/${checked}/tx/${id}/sign`, { headers: poolHeaders(t) }))),
      appendSignatures: (transactionId, signatures, call) =>
        Effect.flatMap(
          Effect.all([
            validTransactionId(transactionId),
            Either.mapLeft(appendBody({ signatures }), (e) => {
              const invalid = Options.fromParseError("signatures")(e)
              return invalid.argument === "signatures" || invalid.argument.startsWith("signatures") ? invalid : Options.invalid(`signatures.${invalid.argument}`, invalid.description)
            }),
            target(call)
          ]),
          ([id, body, t]) =>
            signing(
              "appendSignatures",
              t,
              id,
              HttpClientRequest.post(`/v2/multisig/tx/${id}/sign`, { headers: { "x-chain-id": String(t.chainId) } }).pipe(HttpClientRequest.bodyUnsafeJson(body))
            )
        ),
      signTransactionById: (address, transactionId, call) =>
        Effect.flatMap(Effect.all([validAddress(address), validTransactionId(transactionId), target(call)]), ([checked, id, t]) =>
          send("signTransactionById", t, {
            request: HttpClientRequest.post(`/v2/account/${checked}/tx/${id}/sign`, { headers: poolHeaders(t) }),
            // The service keeps nothing: asking again signs the same hash with the same key.
            idempotent: true,
            decode: decodeSignature
          }, { [Spans.SpanAttributes.address]: checked, [Spans.SpanAttributes.transactionId]: id })),
      getTransactionReceipt: (hash, call) => receipt(hash, call),
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
            schedule: options?.schedule ?? Schedule.spaced("1 second"),
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
 * The operations, each with the WalletClient taken from the context: `createAccount`,
 * `getAccount`, `listAccounts`, `deleteAccount`, `disableAccount`, `enableAccount`,
 * `accountsByPublicKey`, `accountCount`, `accountCountByPool`, `createFeePayer`, `getFeePayer`,
 * `deleteFeePayer`, `listFeePayers`, `transferValue`, `callContract`,
 * `getTransactionReceipt`, `awaitReceipt`, `createKeys`, `getKey`, `deleteKey`, `listKeys`,
 * `signWithKey`, `registerAccounts`, `migrateAccounts`, `listFeeDelegationHistory`,
 * `getFeeDelegationRecord`, `updateToMultisig`, `listMultisigTransactions`,
 * `signMultisigTransaction`, `appendSignatures`, `signTransactionById`.
 * Each is documented on `Service`.
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
  options: SendOptionsFor<K>
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
  options: ReliableSendOptions<K>
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
  params?: MultisigListParams
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
  params?: MultisigListParams
): Stream.Stream<Multisig.PendingTransactionPage, WalletError.WalletError, WalletClient> =>
  Stream.unwrap(Effect.map(WalletClient, (client) => client.multisigTransactionPages(address, params)))
