/**
 * Multisig accounts of the wallet: an account updated to a weighted set of its member's keys
 * (`PUT /v2/account/{address}/multisig`), whose transactions wait, `Pending`, until the weights of
 * the signers who signed them reach the threshold; then the service sends them. The shapes of the
 * multisig operations, as the public specification (2021-09-29) writes them.
 *
 * @since 0.8.0
 */
import { Schema } from "effect"
import * as Account from "./Account.js"
import * as AccountKey from "./AccountKey.js"
import * as Address from "./Address.js"
import * as Refusal from "./api/Refusal.js"
import * as ChainId from "./ChainId.js"
import * as ErrorBody from "./ErrorBody.js"
import * as Shapes from "./internal/shapes.js"
import * as Krn from "./Krn.js"
import * as Timestamp from "./Timestamp.js"
import * as Transaction from "./Transaction.js"

const Positive = Schema.Int.pipe(Schema.positive({ message: () => "must be a positive integer" }))
const NonNegative = Schema.Int.pipe(Schema.nonNegative({ message: () => "must be a non-negative integer" }))

/**
 * What `PUT /v2/account/{address}/multisig` takes: the threshold and the weighted public keys of
 * the signers (`AccountKey.MultiSigJson`: 1 to 10 distinct keys, positive weights, a threshold
 * the weights reach). The service takes only keys of the member's own accounts.
 *
 * @since 0.8.0
 * @category schemas
 */
export const UpdateRequest = AccountKey.MultiSigJson.pipe(
  // The service refuses any of its values as a key it cannot decode.
  Refusal.annotate({ invalid: ErrorBody.Code.InvalidAccountKey })
).annotations({ parseOptions: { onExcessProperty: "error" } })

/**
 * @since 0.8.0
 * @category models
 */
export type UpdateRequest = typeof UpdateRequest.Type

/**
 * The answer of `PUT /v2/account/{address}/multisig`: the account, its new weighted keys and
 * threshold, and the hash of the account update that set them (the account pays its fee).
 *
 * @since 0.8.0
 * @category schemas
 */
export const MultisigAccount = Schema.Struct({
  address: Address.Address,
  krn: Krn.AccountPoolKrn,
  multiSigKeys: Schema.Array(Account.MultiSigKey),
  threshold: Positive,
  transactionHash: Transaction.TxHash,
  updatedAt: Timestamp.Timestamp
}).annotations({ identifier: "MultisigAccount" })

/**
 * @since 0.8.0
 * @category models
 */
export interface MultisigAccount extends Schema.Schema.Type<typeof MultisigAccount> {}

/**
 * One signer of a pending transaction: the address of its key and the weight it adds.
 *
 * @since 0.8.0
 * @category schemas
 */
export const Signer = Schema.Struct({ address: Address.Address, weight: Positive }).annotations({ identifier: "MultisigSigner" })

/**
 * @since 0.8.0
 * @category models
 */
export interface Signer extends Schema.Schema.Type<typeof Signer> {}

/**
 * A transaction of a multisig account waiting for its signers (the spec's `PendedTransaction`):
 * the multisig account (`address`), the signers and their weights, the threshold, the
 * transaction's id and data (`txData`, no signature), and `status`, an integer the specification
 * leaves undescribed (the emulator answers 1 before the first signature, 2 after it).
 *
 * @since 0.8.0
 * @category schemas
 */
export const PendingTransaction = Schema.Struct({
  address: Address.Address,
  chainId: ChainId.ChainId,
  createdAt: Timestamp.Timestamp,
  multiSigKeys: Schema.Array(Signer),
  status: NonNegative,
  threshold: Positive,
  transactionId: Transaction.TransactionId,
  txData: Transaction.PendingTxData,
  type: Schema.optionalWith(Schema.String, { exact: true }),
  updatedAt: Timestamp.Timestamp
}).annotations({ identifier: "PendingTransaction" })

/**
 * @since 0.8.0
 * @category models
 */
export interface PendingTransaction extends Schema.Schema.Type<typeof PendingTransaction> {}

/**
 * A page of pending transactions (`GET /v2/multisig/account/{address}/tx`), newest first.
 *
 * @since 0.8.0
 * @category schemas
 */
export const PendingTransactionPage = Shapes.page(PendingTransaction, "PendingTransactionPage")

/**
 * @since 0.8.0
 * @category models
 */
export interface PendingTransactionPage extends Schema.Schema.Type<typeof PendingTransactionPage> {}

/**
 * Where a pending transaction stands after a signature (the spec's `MultisigTransactionStatus`):
 * `Signed` while the weights that signed (`signedWeight`) stay below the threshold, `reminders`
 * naming the signers yet to sign; `Submitted` once they reach it, with the `transactionHash` of
 * the transaction sent. `weight` is what this signature (or these signatures) added.
 *
 * @since 0.8.0
 * @category schemas
 */
export const SignatureStatus = Schema.Struct({
  signedWeight: NonNegative,
  status: Schema.Literal("Signed", "Submitted"),
  threshold: Positive,
  transactionHash: Schema.optionalWith(Transaction.TxHash, { exact: true }),
  transactionId: Transaction.TransactionId,
  weight: NonNegative,
  reminders: Schema.optionalWith(Schema.Array(Address.Address), { exact: true })
}).pipe(Schema.filter((s) =>
  s.status === "Submitted" && s.transactionHash === undefined
    ? { path: ["transactionHash"], message: "a Submitted transaction has its hash" }
    : s.status === "Signed" && s.transactionHash !== undefined
    ? { path: ["transactionHash"], message: "a transaction only Signed has no hash yet" }
    : true
)).annotations({ identifier: "SignatureStatus" })

/**
 * @since 0.8.0
 * @category models
 */
export interface SignatureStatus extends Schema.Schema.Type<typeof SignatureStatus> {}

/**
 * What `POST /v2/multisig/tx/{transaction-id}/sign` takes: signatures made elsewhere, one per
 * signer, each `{ V, R, S }` over the transaction's signing hash on its chain.
 *
 * @since 0.8.0
 * @category schemas
 */
export const AppendRequest = Schema.Struct({
  signatures: Schema.Array(Transaction.Signature).pipe(
    Schema.minItems(1, { message: () => "at least one signature" }),
    Schema.maxItems(AccountKey.MaxWeightedKeys, { message: () => `at most ${AccountKey.MaxWeightedKeys} signatures (a multisig key has at most ${AccountKey.MaxWeightedKeys} keys)` })
  )
}).annotations({ identifier: "AppendSignaturesRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * @since 0.8.0
 * @category models
 */
export interface AppendRequest extends Schema.Schema.Type<typeof AppendRequest> {}

/**
 * Whether the signatures of a status reached the threshold and the transaction was sent.
 *
 * @since 0.8.0
 * @category guards
 */
export const isSubmitted = (s: SignatureStatus): s is SignatureStatus & { readonly transactionHash: Transaction.TxHash } =>
  s.status === "Submitted"
