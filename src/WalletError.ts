/**
 * Every way a WalletClient operation can fail, as one tagged union.
 *
 * - From the service (an HTTP response that is not 2xx): `Unauthorized` (401), `AccountNotFound`
 *   (code 1061010, "data don't exist": the address is unknown or not in the selected pool),
 *   `PoolNotFound` (code 1061010 about `x-krn`: the pool is not the member's on the chain),
 *   `NodeRefusal` (code 1065001: the node refused the transaction, with a typed `reason`),
 *   `RateLimited` (429), `ServerError` (5xx), `InvalidRequest` (any other 4xx). Each carries the
 *   HTTP status, the KAS `code`, the service's message and `requestId` when the body is the KAS
 *   error shape, and a short excerpt of the body otherwise (a proxy's HTML page, an empty body).
 * - `TransportError`: no usable response (connection refused or reset, timeout).
 * - `ResponseDecodeError`: a 2xx body that breaks the schema, with the field and the rule (or that
 *   is not JSON, not the compression it claims, or contains the client's credentials).
 * - `InvalidArgument`: client-side validation failed; no request was sent.
 * - `RepeatedCursor`: the service returned a cursor it had already returned in this listing;
 *   pagination stops instead of looping forever.
 * - `UnexpectedStatus`: a status the KAS API never answers with (a redirect, never followed; 304;
 *   a final 1xx; outside 100..599).
 * - `ResponseTooLarge`: a body over the client's `maxResponseBytes`, not read further.
 * - `UnverifiedResult`: a transaction result that is not the transaction asked for (a field the
 *   request fixed, or the signed RLP, disagrees), never returned as a success.
 * - `SubmissionFailed`: `sendReliably` signed a transaction but could not get it onto the chain;
 *   it carries the transaction's hash and signed RLP, to look it up or submit it again.
 *
 * Errors raised while streaming carry `cursor`: pass it as the `cursor` of a new listing to resume
 * exactly at the page that failed.
 *
 * None of them holds a request, headers or credentials: printing one with `String`,
 * `util.inspect`, `JSON.stringify` or `Effect.log` never shows a secret, even when the server
 * echoed it (the client scrubs every string of an error).
 *
 * @since 0.1.0
 */
import { Predicate, Schema } from "effect"
import * as RefusalReason from "./RefusalReason.js"

const RequestFields = {
  /** HTTP method of the failed request. */
  method: Schema.String,
  /** Path and query of the failed request (never the host's credentials or headers). */
  path: Schema.String,
  /** In a listing: the cursor that resumes it at the page that failed (`""`: from the start). */
  cursor: Schema.optional(Schema.String)
}

const ServiceFields = {
  ...RequestFields,
  /** HTTP status of the response. */
  status: Schema.Number,
  /** The KAS error code, when the body was a KAS error body. */
  code: Schema.optional(Schema.Number),
  /** The service's message, or an excerpt of a body that was not a KAS error body. */
  serviceMessage: Schema.String,
  /** The service's request id, from the body or the response headers. */
  requestId: Schema.optional(Schema.String)
}

const describe = (self: {
  readonly status: number
  readonly code?: number | undefined
  readonly serviceMessage: string
  readonly method: string
  readonly path: string
  readonly requestId?: string | undefined
}): string =>
  `${self.method} ${self.path} → HTTP ${self.status}${self.code !== undefined ? ` (code ${self.code})` : ""}: ${self.serviceMessage}` +
  (self.requestId !== undefined ? ` [request ${self.requestId}]` : "")

/**
 * HTTP 401: the key is wrong (code 1010009) or the Authorization header missing or malformed
 * (1010008). Check `KAS_ACCESS_KEY_ID` / `KAS_SECRET_ACCESS_KEY`.
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", ServiceFields) {
  /** @since 0.1.0 */
  override get message(): string {
    return describe(this)
  }
}

/**
 * The account does not exist in the selected pool and chain, or is not the caller's (KAS answers
 * both with HTTP 400, code 1061010).
 *
 * @since 0.1.0
 * @category errors
 */
export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("AccountNotFound", ServiceFields) {
  /** @since 0.1.0 */
  override get message(): string {
    return describe(this)
  }
}

/**
 * The pool the request names (`x-krn`: the client's `pool` or `feePayerPool`) is not one of the
 * member's on the request's chain, or not of the kind the route takes: another member's pool, an
 * unknown or deleted one, a fee-payer pool where an account pool is expected. The service answers
 * it as "data don't exist" (code 1061010) about `x-krn`.
 *
 * @since 0.11.0
 * @category errors
 */
export class PoolNotFound extends Schema.TaggedError<PoolNotFound>()("PoolNotFound", ServiceFields) {
  /** @since 0.11.0 */
  override get message(): string {
    return describe(this)
  }
}

/**
 * The node refused the transaction (code 1065001): nothing reached the chain. `reason` says why,
 * as a tagged value (`RefusalReason`: `InsufficientSenderFunds`, `InsufficientFeePayerFunds`,
 * `NonceTooLow`, `AlreadyKnown`, `Underpriced`, or `Other` with the node's words), so a program
 * matches on it rather than on `serviceMessage`. A contract call that reverts is one too (`Other`,
 * `execution reverted: …`).
 *
 * @since 0.11.0
 * @category errors
 */
export class NodeRefusal extends Schema.TaggedError<NodeRefusal>()("NodeRefusal", {
  ...ServiceFields,
  /** Why the node refused it. */
  reason: RefusalReason.RefusalReason
}) {
  /** @since 0.11.0 */
  override get message(): string {
    return describe(this)
  }
}

/**
 * Any other 4xx: the service rejected the request (bad pool, out-of-range value, ...). `code` says
 * which rule.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", ServiceFields) {
  /** @since 0.1.0 */
  override get message(): string {
    return describe(this)
  }
}

/**
 * HTTP 429. `retryAfterMillis` is the service's `Retry-After` (seconds or HTTP date), when sent.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  ...ServiceFields,
  retryAfterMillis: Schema.optional(Schema.Number)
}) {
  /** @since 0.1.0 */
  override get message(): string {
    return describe(this) + (this.retryAfterMillis !== undefined ? ` (retry after ${this.retryAfterMillis} ms)` : "")
  }
}

/**
 * HTTP 5xx: the service failed.
 *
 * @since 0.1.0
 * @category errors
 */
export class ServerError extends Schema.TaggedError<ServerError>()("ServerError", ServiceFields) {
  /** @since 0.1.0 */
  override get message(): string {
    return describe(this)
  }
}

/**
 * No usable response: `Connect` (the connection could not be made; the request was not sent),
 * `Timeout` (no complete response within the timeout), `Network` (the connection failed while the
 * request or response was in flight).
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Schema.TaggedError<TransportError>()("TransportError", {
  ...RequestFields,
  reason: Schema.Literal("Connect", "Timeout", "Network"),
  description: Schema.String
}) {
  /** @since 0.1.0 */
  override get message(): string {
    return `${this.method} ${this.path}: ${this.reason.toLowerCase()} error: ${this.description}`
  }
}

/**
 * A 2xx response whose body breaks the schema: `issue` names the field and the rule (for example
 * `items.3.address: invalid EIP-55 checksum`).
 *
 * @since 0.1.0
 * @category errors
 */
export class ResponseDecodeError extends Schema.TaggedError<ResponseDecodeError>()("ResponseDecodeError", {
  ...RequestFields,
  status: Schema.Number,
  issue: Schema.String,
  requestId: Schema.optional(Schema.String)
}) {
  /** @since 0.1.0 */
  override get message(): string {
    return `${this.method} ${this.path} → HTTP ${this.status}: unexpected response body: ${this.issue}`
  }
}

/**
 * An argument failed client-side validation; no request was sent. `argument` names it.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidArgument extends Schema.TaggedError<InvalidArgument>()("InvalidArgument", {
  argument: Schema.String,
  description: Schema.String
}) {
  /** @since 0.1.0 */
  override get message(): string {
    return `invalid ${this.argument}: ${this.description}`
  }
}

/**
 * The service returned a cursor it had already returned in this listing. Following it would loop
 * forever, so the listing stops here. `cursor` is the repeated cursor.
 *
 * @since 0.1.0
 * @category errors
 */
export class RepeatedCursor extends Schema.TaggedError<RepeatedCursor>()("RepeatedCursor", RequestFields) {
  /** @since 0.1.0 */
  override get message(): string {
    return `${this.method} ${this.path}: the service repeated cursor ${JSON.stringify(this.cursor)}; stopping to avoid an endless listing`
  }
}

/**
 * A response whose status the KAS API never answers with: a redirect (3xx, whose `location` is
 * named and never followed: following it would send the request, credentials aside, elsewhere),
 * `304 Not Modified` (the client never sends a conditional request), a final informational 1xx,
 * a status outside 100..599, or `0`, the opaque redirect a browser's fetch returns in place of a
 * 3xx it hides.
 *
 * @since 0.2.0
 * @category errors
 */
export class UnexpectedStatus extends Schema.TaggedError<UnexpectedStatus>()("UnexpectedStatus", {
  ...RequestFields,
  status: Schema.Number,
  /** The `Location` header of a redirect, when there was one. */
  location: Schema.optional(Schema.String),
  /** An excerpt of the body. */
  serviceMessage: Schema.String
}) {
  /** @since 0.2.0 */
  override get message(): string {
    const kind = this.status === 0
      ? "an opaque redirect (the runtime hides its target), not followed (the KAS API never redirects)"
      : this.status === 304
      ? "not modified, to a request that was not conditional"
      : this.status >= 300 && this.status < 400
      ? `a redirect${this.location !== undefined ? ` to ${this.location}` : ""}, not followed (the KAS API never redirects)`
      : "a status the KAS API never answers with"
    return `${this.method} ${this.path} → HTTP ${this.status}: ${kind}`
  }
}

/**
 * The response body is larger than the client's `maxResponseBytes` (counted after decompression):
 * reading stopped there. A real page of 1000 accounts is about 0.5 MB.
 *
 * @since 0.2.0
 * @category errors
 */
export class ResponseTooLarge extends Schema.TaggedError<ResponseTooLarge>()("ResponseTooLarge", {
  ...RequestFields,
  status: Schema.Number,
  /** The limit in bytes. */
  limit: Schema.Number
}) {
  /** @since 0.2.0 */
  override get message(): string {
    return `${this.method} ${this.path} → HTTP ${this.status}: response body larger than ${this.limit} bytes; not read further (the maxResponseBytes option raises the limit)`
  }
}

/**
 * `awaitReceipt` gave up: the transaction was not committed within the time allowed. It may still
 * be: poll again with `getTransactionReceipt(hash)` later.
 *
 * @since 0.2.0
 * @category errors
 */
export class ReceiptTimeout extends Schema.TaggedError<ReceiptTimeout>()("ReceiptTimeout", {
  /** The transaction hash awaited. */
  hash: Schema.String,
  /** How long it was awaited, in milliseconds. */
  waitedMillis: Schema.Number,
  /** The status of the last receipt seen (`Pending`), or `unknown` when the service did not know the hash yet. */
  lastStatus: Schema.String
}) {
  /** @since 0.2.0 */
  override get message(): string {
    return `transaction ${this.hash} not committed after ${this.waitedMillis} ms (last status: ${this.lastStatus})`
  }
}

/**
 * A transaction result that does not match the request: a field the request fixed (`from`, `to`,
 * `value`, `input`, `nonce`, `gas`, `feePayer`, `feeRatio`, `accountKey`, the type), or the signed
 * transaction itself (`rlp`: undecodable, a JSON field that is not the RLP's, a hash that is not
 * keccak256 of the RLP, a signature that does not recover the sender or the fee payer). The
 * result is not returned: a service (or a proxy) that answers with another transaction than the
 * one asked for must not be taken at its word. `field` names what disagrees, `expected` what the
 * request (or the RLP) says and `actual` what came back; `body` is the returned body (scrubbed of
 * the credentials). The transaction may have been sent: look `transactionHash` up before sending
 * again.
 *
 * @since 0.5.0
 * @category errors
 */
export class UnverifiedResult extends Schema.TaggedError<UnverifiedResult>()("UnverifiedResult", {
  ...RequestFields,
  /** What disagrees: a field of the result (`to`, `feeRatio`...) or of its RLP (`rlp.signatures`...). */
  field: Schema.String,
  /** What the request or the RLP says. */
  expected: Schema.String,
  /** What the result says. */
  actual: Schema.String,
  /** The returned body, as JSON, scrubbed. */
  body: Schema.String,
  /** The result's transaction hash, when it had one. */
  transactionHash: Schema.optional(Schema.String)
}) {
  /** @since 0.5.0 */
  override get message(): string {
    return `${this.method} ${this.path}: the result is not the transaction asked for: ${this.field} is ${this.actual}, expected ${this.expected}` +
      (this.transactionHash !== undefined ? ` (transaction ${this.transactionHash})` : "")
  }
}

/**
 * `sendReliably` signed the transaction but could not confirm it reached the chain: the submission
 * failed and neither a look-up of its hash nor the resubmissions its schedule allowed settled it,
 * or the node refused it. `transactionHash` and `rlp` (the signed transaction) let the caller look
 * it up (`getTransactionReceipt`) or submit the very same bytes again
 * (`send(TransactionKind.RawTransaction({ rlp }))`): a transaction cannot be applied twice, so
 * resubmitting it is always safe. `error` is the tag of the last failure, with its `code` and
 * `description`.
 *
 * @since 0.5.0
 * @category errors
 */
export class SubmissionFailed extends Schema.TaggedError<SubmissionFailed>()("SubmissionFailed", {
  /** The hash of the signed transaction. */
  transactionHash: Schema.String,
  /** The signed transaction, RLP-encoded: submit these bytes again to retry. */
  rlp: Schema.String,
  /** How many times the signed transaction was submitted. */
  submissions: Schema.Number,
  /** The tag of the last failure (`TransportError`, `ServerError`, `InvalidRequest`...). */
  error: Schema.String,
  /** The KAS code of the last failure, when the service answered with one. */
  code: Schema.optional(Schema.Number),
  /** Why the node refused it, when the last failure was a `NodeRefusal`. */
  reason: Schema.optional(RefusalReason.RefusalReason),
  /** The last failure's message. */
  description: Schema.String
}) {
  /** @since 0.5.0 */
  override get message(): string {
    return `transaction ${this.transactionHash} not confirmed after ${this.submissions} submission(s): ${this.error}` +
      `${this.code !== undefined ? ` (code ${this.code})` : ""}: ${this.description}`
  }
}

/**
 * Errors answered by the service (a non-2xx response).
 *
 * @since 0.1.0
 * @category models
 */
export type ServiceError =
  | Unauthorized
  | AccountNotFound
  | PoolNotFound
  | NodeRefusal
  | InvalidRequest
  | RateLimited
  | ServerError

/**
 * Every error of a WalletClient operation.
 *
 * @since 0.1.0
 * @category models
 */
export type WalletError =
  | ServiceError
  | TransportError
  | ResponseDecodeError
  | InvalidArgument
  | RepeatedCursor
  | UnexpectedStatus
  | ResponseTooLarge
  | ReceiptTimeout
  | UnverifiedResult
  | SubmissionFailed

/**
 * The schema of every error, for encoding them (a CLI's `--json`, an RPC boundary).
 *
 * @since 0.1.0
 * @category schemas
 */
export const WalletError = Schema.Union(
  Unauthorized,
  AccountNotFound,
  PoolNotFound,
  NodeRefusal,
  InvalidRequest,
  RateLimited,
  ServerError,
  TransportError,
  ResponseDecodeError,
  InvalidArgument,
  RepeatedCursor,
  UnexpectedStatus,
  ResponseTooLarge,
  ReceiptTimeout,
  UnverifiedResult,
  SubmissionFailed
)

const tags = new Set<string>([
  "Unauthorized",
  "AccountNotFound",
  "PoolNotFound",
  "NodeRefusal",
  "InvalidRequest",
  "RateLimited",
  "ServerError",
  "TransportError",
  "ResponseDecodeError",
  "InvalidArgument",
  "RepeatedCursor",
  "UnexpectedStatus",
  "ResponseTooLarge",
  "ReceiptTimeout",
  "UnverifiedResult",
  "SubmissionFailed"
])

/**
 * Whether a value is one of the WalletClient's errors.
 *
 * @since 0.1.0
 * @category guards
 */
export const isWalletError = (u: unknown): u is WalletError =>
  Predicate.hasProperty(u, "_tag") && typeof u._tag === "string" && tags.has(u._tag) && u instanceof Error

/**
 * Whether the error came from the service (a non-2xx response).
 *
 * @since 0.1.0
 * @category guards
 */
export const isServiceError = (error: WalletError): error is ServiceError =>
  error._tag === "Unauthorized" || error._tag === "AccountNotFound" || error._tag === "PoolNotFound" ||
  error._tag === "NodeRefusal" || error._tag === "InvalidRequest" ||
  error._tag === "RateLimited" || error._tag === "ServerError"
