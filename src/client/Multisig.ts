/**
 * Multisig accounts in the client: the update of an account to a weighted multisig key, the
 * transactions that wait for their signers, and their signatures.
 *
 * @since 0.10.0
 */
import { Effect, Either } from "effect"
import * as AccountKey from "../AccountKey.js"
import type * as Address from "../Address.js"
import * as WalletApi from "../api/WalletApi.js"
import type * as ListingParams from "../internal/listing.js"
import * as Options from "../internal/options.js"
import * as Spans from "../internal/spans.js"
import * as Verify from "../internal/verifyResult.js"
import * as Multisig from "../Multisig.js"
import * as Pagination from "../Pagination.js"
import type * as PublicKey from "../PublicKey.js"
import type * as Transaction from "../Transaction.js"
import { validAddress, validSigner, validTransactionId } from "./Arguments.js"
import type { CallOptions, HistoryCallOptions } from "./CallOptions.js"
import * as Listings from "./Listings.js"
import type { Op, StreamOp } from "./Operation.js"
import type * as Requests from "./Requests.js"
import { roundTrip } from "./TransactionRequest.js"
import * as Verification from "./Verification.js"

/**
 * Parameters of the listing of a multisig account's pending transactions (GET
 * /v2/multisig/account/{address}/tx): the paging and time range of `ListParams` (`from` / `to`
 * bound when a transaction was made), no `status`. `pool` is checked as on every account route;
 * the listing spans the member's pools.
 *
 * @since 0.8.0
 * @category models
 */
export interface MultisigListParams extends CallOptions, ListingParams.Params {}

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
 * The multisig operations.
 *
 * @since 0.10.0
 * @category models
 */
export interface Service {
  /**
   * Makes an account of the selected pool a multisig account (PUT /v2/account/{address}/multisig):
   * its key becomes the weighted set of `key` (public keys of the member's accounts on the chain,
   * 1..10, distinct, positive weights, a threshold they reach: all checked before sending, the keys
   * on the curve). The update is a transaction the account signs and pays for; from then on its
   * transactions are pending (`Transaction.isMultisigPending`) until the weights of their signers
   * reach the threshold. The answer is verified against the request (`UnverifiedResult`). Not
   * retried once sent.
   */
  readonly updateToMultisig: Op<[address: Address.Address | string, key: MultisigKeyInput, options?: CallOptions], Multisig.MultisigAccount>
  /**
   * One page of the pending transactions of a multisig account, or of those a signer may sign (GET
   * /v2/multisig/account/{address}/tx), newest first; none pending (the service's 400 1061010 on the
   * first page) is an empty page.
   */
  readonly listMultisigTransactions: Op<[address: Address.Address | string, params?: MultisigListParams], Multisig.PendingTransactionPage>
  /** Every pending transaction of a multisig account or signer, page after page as the consumer pulls. */
  readonly multisigTransactions: StreamOp<[address: Address.Address | string, params?: MultisigListParams], Multisig.PendingTransaction>
  /** Every page of a multisig account's or signer's pending transactions. */
  readonly multisigTransactionPages: StreamOp<[address: Address.Address | string, params?: MultisigListParams], Multisig.PendingTransactionPage>
  /**
   * A signer (an account of the selected pool holding one of the transaction's keys) signs a
   * pending transaction (POST /v2/multisig/account/{signer}/tx/{transaction-id}/sign). `Signed`
   * while the weights stay below the threshold; `Submitted`, with the hash to `awaitReceipt`, once
   * they reach it. Not retried once sent.
   */
  readonly signMultisigTransaction: Op<
    [signer: Address.Address | string, transactionId: Transaction.TransactionId | string, options?: CallOptions],
    Multisig.SignatureStatus
  >
  /**
   * Adds signatures made elsewhere to a pending transaction (POST
   * /v2/multisig/tx/{transaction-id}/sign): each `{ V, R, S }` over its sender signing hash on the
   * chain, from one of its keys (`signTransactionById` makes one with an account of the wallet).
   * Not retried once sent.
   */
  readonly appendSignatures: Op<
    [transactionId: Transaction.TransactionId | string, signatures: ReadonlyArray<Transaction.Signature>, options?: HistoryCallOptions],
    Multisig.SignatureStatus
  >
  /**
   * An account of the selected pool signs a pending transaction (POST
   * /v2/account/{address}/tx/{transaction-id}/sign): its signature, which the service does not keep
   * (`appendSignatures` adds it). Retried like a read: nothing changes.
   */
  readonly signTransactionById: Op<
    [address: Address.Address | string, transactionId: Transaction.TransactionId | string, options?: CallOptions],
    Transaction.Signature
  >
}

const api = WalletApi.multisig
const multisigKeyBody = roundTrip(Multisig.UpdateRequest)
const appendBody = roundTrip(Multisig.AppendRequest)
const decodeAccountWithBody = Verification.withBody(Multisig.MultisigAccount)
const decodeStatusWithBody = Verification.withBody(Multisig.SignatureStatus)

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

// The keys compared by identity (any form of a key is the same key).
const sameKey = (a: string, b: string) => {
  const x = AccountKey.toKlaytn(AccountKey.Public({ publicKey: a as PublicKey.PublicKey }))
  const y = AccountKey.toKlaytn(AccountKey.Public({ publicKey: b as PublicKey.PublicKey }))
  return x._tag === "Public" && y._tag === "Public" && x.publicKey.every((byte, i) => byte === y.publicKey[i])
}

/**
 * The multisig operations over the client's requests.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (requests: Requests.Requests, verification: Verification.Verification): Service => {
  /** A signature sent for a pending transaction: its status, checked to be of that transaction. */
  const signing = <E extends typeof api.signMultisigTransaction | typeof api.appendSignatures>(
    endpoint: E,
    t: Options.Target,
    id: Transaction.TransactionId,
    input: Requests.Input<E>
  ) =>
    Effect.flatMap(
      requests.run(endpoint, t, input, { decode: decodeStatusWithBody, attributes: { [Spans.SpanAttributes.transactionId]: id } }),
      ({ body, result }) =>
        result.transactionId !== id
          ? Effect.fail(verification.mismatch(requests.request(endpoint, t, input), body, "transactionId", id, result.transactionId))
          : Effect.succeed(result)
    )

  // The multisig listing names its account (or signer) in the path; the rest is every listing's
  // paging. A first page the service answers 1061010 ("No content") is an empty page.
  const listing = Listings.paged(requests, (params: (MultisigListParams & { readonly address: unknown }) | undefined) =>
    Effect.map(validAddress(params?.address), (address): Listings.Listing<typeof api.listMultisigTransactions, Multisig.PendingTransactionPage> => ({
      endpoint: api.listMultisigTransactions,
      path: { address },
      emptyPage: { items: [], cursor: Pagination.EndCursor },
      paging: params === undefined ? undefined : (({ address: _, ...paging }) => paging)(params)
    })))

  return {
    updateToMultisig: (address, key, call) =>
      Effect.flatMap(Effect.all([validAddress(address), multisigUpdateBody(key), requests.target(call)]), ([checked, body, t]) => {
        const input = { path: { address: checked }, payload: body }
        return Effect.flatMap(
          requests.run(api.updateToMultisig, t, input, { decode: decodeAccountWithBody, attributes: { [Spans.SpanAttributes.address]: checked } }),
          ({ body: answer, result }) => {
            const mismatch = (field: string, expected: string, actual: string) =>
              Effect.fail(verification.mismatch(requests.request(api.updateToMultisig, t, input), answer, field, expected, actual))
            if (result.address !== checked) return mismatch("address", checked, result.address)
            if (result.threshold !== body.threshold) return mismatch("threshold", String(body.threshold), String(result.threshold))
            if (
              result.multiSigKeys.length !== body.weightedKeys.length ||
              result.multiSigKeys.some((k, i) => k.weight !== body.weightedKeys[i]!.weight || !sameKey(k.publicKey, body.weightedKeys[i]!.publicKey))
            ) {
              const list = (keys: ReadonlyArray<{ readonly publicKey: string; readonly weight: number }>) =>
                keys.map((w) => `${w.publicKey}×${w.weight}`).join(", ")
              return mismatch("multiSigKeys", list(body.weightedKeys), list(result.multiSigKeys))
            }
            return Effect.succeed(result)
          }
        )
      }),
    listMultisigTransactions: (address, params) => listing.one({ ...params, address }),
    multisigTransactions: (address, params) => listing.items({ ...params, address }),
    multisigTransactionPages: (address, params) => listing.all({ ...params, address }),
    signMultisigTransaction: (signer, transactionId, call) =>
      Effect.flatMap(Effect.all([validSigner(signer), validTransactionId(transactionId), requests.target(call)]), ([checked, id, t]) =>
        signing(api.signMultisigTransaction, t, id, { path: { address: checked, "transaction-id": id } })),
    appendSignatures: (transactionId, signatures, call) =>
      Effect.flatMap(
        Effect.all([
          validTransactionId(transactionId),
          Either.mapLeft(appendBody({ signatures }), (e) => {
            const invalid = Options.fromParseError("signatures")(e)
            return invalid.argument === "signatures" || invalid.argument.startsWith("signatures")
              ? invalid
              : Options.invalid(`signatures.${invalid.argument}`, invalid.description)
          }),
          requests.target(call)
        ]),
        ([id, body, t]) => signing(api.appendSignatures, t, id, { path: { "transaction-id": id }, payload: body })
      ),
    signTransactionById: (address, transactionId, call) =>
      Effect.flatMap(Effect.all([validAddress(address), validTransactionId(transactionId), requests.target(call)]), ([checked, id, t]) =>
        requests.run(api.signTransactionById, t, { path: { address: checked, "transaction-id": id } }, {
          attributes: { [Spans.SpanAttributes.address]: checked, [Spans.SpanAttributes.transactionId]: id }
        }))
  }
}
