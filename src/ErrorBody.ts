/**
 * The error body of the service, `{ code, message, requestId? }`, and the codes users branch on.
 *
 * The service answers most errors with HTTP 400 and tells them apart by `code`; messages change
 * over time, codes are the stable contract. `requestId` is documented as required but missing from
 * many real responses, so it is optional here.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * An error body as the service sends it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorBody = Schema.Struct({
  code: Schema.Int,
  message: Schema.String,
  requestId: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ identifier: "ErrorBody" })

/**
 * @since 0.1.0
 * @category models
 */
export interface ErrorBody extends Schema.Schema.Type<typeof ErrorBody> {}

/**
 * Error codes of the service (wallet API v2 and the common gateway).
 *
 * @since 0.1.0
 * @category constants
 */
export const Code = {
  /** Path or method does not exist (HTTP 404/405 on the real gateway; 400 body code). */
  InvalidPathOrMethod: 1010007,
  /** `Authorization` header missing or malformed (HTTP 401). */
  InvalidAuthorization: 1010008,
  /** Credentials do not match any key (HTTP 401). */
  CredentialMismatch: 1010009,
  /** The requested data does not exist, or is not the caller's (HTTP 400). */
  DataNotExist: 1061010,
  /** A field must start with 0x and be hex. */
  NotHex: 1061607,
  /** A field cannot be empty or zero. */
  EmptyOrZero: 1061608,
  /** A field must be a Klaytn address. */
  NotKlaytnAddress: 1061609,
  /** A value is out of range (for example `size`). */
  OutOfRange: 1061615,
  /** `feeRatio` is out of range. */
  FeeRatioOutOfRange: 1061616,
  /**
   * Disabling anything but an enabled account of the pool: a disabled one, a deleted one, an
   * address the pool does not hold ("account has been already deleted or disabled").
   */
  AlreadyDisabled: 1061510,
  /**
   * Enabling anything but a disabled account of the pool: an enabled, deleted or unknown one
   * ("account has been already deleted or enabled").
   */
  AlreadyEnabled: 1061511,
  /** The sender cannot sign: it is disabled. */
  AccountCannotSign: 1061512,
  /** The account is not a legacy account: it is already multisig (`PUT /v2/account/{address}/multisig`). */
  NotLegacyAccount: 1061515,
  /** The multisig transaction was already sent (its signatures reached the threshold); the message names its hash. */
  AlreadySubmitted: 1061914,
  /** An account key is malformed (`accountKey` of an account update). */
  InvalidAccountKey: 1061903,
  /**
   * A user fee payer (`feePayer` on a `/v2/tx/fd-user/…` route) that is not a fee-payer account of
   * the member on the chain, in the selected fee-payer pool ("failed to get feepayer").
   */
  FeePayerNotFound: 1061905,
  /** `feeRatio` or `feePayer` of the body differs from the raw transaction's. */
  FeeFieldsDifferFromRlp: 1061912,
  /** A role-based account key holds a legacy key. */
  LegacyKeyInRoleBased: 1061917,
  /** A raw transaction of a fee-delegated type on `/v2/tx/rlp`, which takes basic types only. */
  NotBasicType: 1061921,
  /** A raw transaction of a basic type (not fee-delegated) on a fee-delegated route. */
  BasicTypeOnFeeDelegatedRoute: 1061918,
  /** A raw transaction of a partial fee-delegation type (with ratio) whose ratio is 0. */
  PartialFeeDelegationWithoutRatio: 1061919,
  /** A raw transaction of a whole-fee delegation type given a fee ratio. */
  FeeRatioOnFullDelegation: 1061920,
  /** No transaction of that hash (yet): the receipt is unknown. */
  TransactionNotFound: 1065000,
  /**
   * The node refused the transaction: insufficient funds of the sender or of the fee payer, a nonce
   * already used ("nonce too low": cancelling a committed transaction), a transaction already known.
   */
  SendFailed: 1065001,
  /** The sender is not an account of the member the service can sign for (corrupted by a key update, or not its own). */
  CannotSignForAccount: 1065100,
  /** The account is corrupted: its key was updated away from the key KAS holds. */
  CorruptedAccount: 1065102
} as const

/**
 * @since 0.1.0
 * @category models
 */
export type Code = (typeof Code)[keyof typeof Code]
