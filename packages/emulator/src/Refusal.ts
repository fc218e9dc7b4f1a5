/**
 * Why the emulator's domain (its services, its chain) refuses a request: a closed set of errors,
 * each named by what went wrong, each carrying the facts of its case. The domain knows nothing of
 * HTTP: the HTTP edge answers each refusal with the status and KAS code the service gives it, in
 * one function (`http/Refusals.ts`).
 *
 * Each refusal's `message` is the service's own words for it. They are part of the domain, not
 * of the edge: a registration's result carries them as the reason an item failed, and the console
 * shows them.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import { Data } from "effect"

/**
 * A required value is missing, empty or zero: `cannot be empty or zero value; <field>`.
 *
 * @since 0.10.0
 * @category refusals
 */
export class Missing extends Data.TaggedError("Missing")<{ readonly field: string }> {
  override get message() {
    return `cannot be empty or zero value; ${this.field}`
  }
}

/**
 * A value the operation cannot take (a size, a cursor, a gas limit, ...): `its value is out of
 * range; <field>`.
 *
 * @since 0.10.0
 * @category refusals
 */
export class OutOfRange extends Data.TaggedError("OutOfRange")<{ readonly field: string }> {
  override get message() {
    return `its value is out of range; ${this.field}`
  }
}

/**
 * Nothing of that name exists for the caller (unknown, another member's or chain's, deleted): the
 * service's `data don't exist`, with `detail` after `; ` when given.
 *
 * @since 0.10.0
 * @category refusals
 */
export class NotFound extends Data.TaggedError("NotFound")<{ readonly detail?: string | undefined }> {
  override get message() {
    return this.detail === undefined ? "data don't exist" : `data don't exist; ${this.detail}`
  }
}

/**
 * The fee payer a request names is not a fee-payer account of the member (in the selected
 * fee-payer pool).
 *
 * @since 0.10.0
 * @category refusals
 */
export class FeePayerNotFound extends Data.TaggedError("FeePayerNotFound")<{}> {
  override get message() {
    return "failed to get feepayer"
  }
}

/**
 * Disabling anything but an enabled account of the pool (a disabled, deleted or unknown one).
 *
 * @since 0.10.0
 * @category refusals
 */
export class AlreadyDisabled extends Data.TaggedError("AlreadyDisabled")<{}> {
  override get message() {
    return "account has been already deleted or disabled"
  }
}

/**
 * Enabling anything but a disabled account of the pool (an enabled, deleted or unknown one).
 *
 * @since 0.10.0
 * @category refusals
 */
export class AlreadyEnabled extends Data.TaggedError("AlreadyEnabled")<{}> {
  override get message() {
    return "account has been already deleted or enabled"
  }
}

/**
 * The sender of a raw transaction is not an account of the member (or is disabled): KAS has no
 * account it can sign for.
 *
 * @since 0.10.0
 * @category refusals
 */
export class NotMemberAccount extends Data.TaggedError("NotMemberAccount")<{ readonly address: string }> {
  override get message() {
    return `failed to get an account; data don't exist; ${this.address}`
  }
}

/**
 * The account's key was updated away from the key KAS holds: KAS can no longer sign for it
 * (`use: "sign"`), and the service no longer shows it (`use: "read"`).
 *
 * @since 0.10.0
 * @category refusals
 */
export class AccountCorrupted extends Data.TaggedError("AccountCorrupted")<{
  readonly address: string
  readonly use: "sign" | "read"
}> {
  override get message() {
    return this.use === "sign"
      ? `the account key of ${this.address} is not the one KAS holds: it cannot sign for it`
      : `the account is corrupted: its key is not the one KAS holds; ${this.address}`
  }
}

/**
 * The account cannot sign this transaction: it is disabled, or (multisig) its key is not among
 * the transaction's signers, or has signed it already.
 *
 * @since 0.10.0
 * @category refusals
 */
export class CannotSign extends Data.TaggedError("CannotSign")<{ readonly address: string }> {
  override get message() {
    return `account is invalid to sign the transaction; ${this.address}`
  }
}

/**
 * The node refused a transaction (`send`) or a read-only contract call (`call`), in its own words
 * (`reason`: `nonce too low`, `execution reverted: …`, ...).
 *
 * @since 0.10.0
 * @category refusals
 */
export class NodeRefused extends Data.TaggedError("NodeRefused")<{
  readonly reason: string
  readonly during: "send" | "call"
}> {
  override get message() {
    return this.during === "send"
      ? `failed to send a raw transaction to klaytn node; -32000::${this.reason}`
      : `failed to call a contract on klaytn node; -32000::${this.reason}`
  }
}

/**
 * No transaction of that hash on the chain.
 *
 * @since 0.10.0
 * @category refusals
 */
export class TransactionNotFound extends Data.TaggedError("TransactionNotFound")<{}> {
  override get message() {
    return "failed to retrieve a transaction from klaytn node"
  }
}

/**
 * A multisig transaction that was sent already: it takes no more signatures.
 *
 * @since 0.10.0
 * @category refusals
 */
export class AlreadySubmitted extends Data.TaggedError("AlreadySubmitted")<{ readonly transactionHash: string }> {
  override get message() {
    return `already submitted transaction. Confirm transaction hash; ${this.transactionHash}`
  }
}

/**
 * An account that is not a legacy account (its key is not its own: multisig already) cannot be
 * updated to multisig.
 *
 * @since 0.10.0
 * @category refusals
 */
export class NotLegacyAccount extends Data.TaggedError("NotLegacyAccount")<{}> {
  override get message() {
    return "the requested account must be a legacy account; if the account is multisig account, use `PUT /v2/tx/{fd|fd-user}/account` API for multisig transaction and /v2/multisig/**/** APIs"
  }
}

/**
 * Blocks are made by the clock (interval mining): only manual mining makes blocks on demand.
 *
 * @since 0.10.0
 * @category refusals
 */
export class IntervalMining extends Data.TaggedError("IntervalMining")<{ readonly interval: string }> {
  override get message() {
    return `blocks are made every ${this.interval} by the clock (interval mining): mine needs manual mining (--mining manual)`
  }
}

/**
 * A block is made for each transaction as it is accepted (instant mining): there is nothing to
 * mine on demand.
 *
 * @since 0.12.0
 * @category refusals
 */
export class InstantMining extends Data.TaggedError("InstantMining")<{}> {
  override get message() {
    return "a block is made for each transaction as it is accepted (instant mining): mine needs manual mining (--mining manual)"
  }
}

/**
 * A time set for the next block before the latest block's: a chain's time never goes back.
 *
 * @since 0.12.0
 * @category refusals
 */
export class TimeBeforeBlock extends Data.TaggedError("TimeBeforeBlock")<{ readonly timeMs: number; readonly blockMs: number }> {
  override get message() {
    // Unix seconds, with the milliseconds when there are some: a block made within the second
    // given is later than that second's start.
    const iso = (ms: number) => `${new Date(ms).toISOString()} (${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(3)})`
    return `the next block's time ${iso(this.timeMs)} is before the latest block's, ${iso(this.blockMs)}: a chain's time never goes back`
  }
}

/**
 * Every refusal of the domain.
 *
 * @since 0.10.0
 * @category refusals
 */
export type Refusal =
  | Missing
  | OutOfRange
  | NotFound
  | FeePayerNotFound
  | AlreadyDisabled
  | AlreadyEnabled
  | NotMemberAccount
  | AccountCorrupted
  | CannotSign
  | NodeRefused
  | TransactionNotFound
  | AlreadySubmitted
  | NotLegacyAccount
  | IntervalMining
  | InstantMining
  | TimeBeforeBlock

const tags: ReadonlySet<string> = new Set<Refusal["_tag"]>([
  "Missing",
  "OutOfRange",
  "NotFound",
  "FeePayerNotFound",
  "AlreadyDisabled",
  "AlreadyEnabled",
  "NotMemberAccount",
  "AccountCorrupted",
  "CannotSign",
  "NodeRefused",
  "TransactionNotFound",
  "AlreadySubmitted",
  "NotLegacyAccount",
  "IntervalMining",
  "InstantMining",
  "TimeBeforeBlock"
])

/**
 * Whether a failure is a refusal of the domain (rather than a storage failure or a defect).
 *
 * @since 0.10.0
 * @category guards
 */
export const isRefusal = (u: unknown): u is Refusal =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" && tags.has(u._tag)
