/**
 * The errors the emulator answers, as the wallet API shapes them: an HTTP status and a
 * `{ code, message, requestId }` body.
 *
 * Codes of the real service are reused wherever the reference names one (`ErrorBody.Code`). Where
 * the reference is silent, the emulator picks a code and says so here and in docs/emulator.md:
 * clients must never mistake an emulator choice for a documented fact of the service.
 *
 * @since 0.1.0
 */
import { Data } from "effect"
import { ErrorBody } from "effect-kas-wallet"

/**
 * Every code the emulator answers with. The first group is the real service's (see
 * `ErrorBody.Code`); the `Emulator*` group is the emulator's own, in a range (10999xx) the
 * reference does not use.
 *
 * @since 0.1.0
 * @category constants
 */
export const Code = {
  ...ErrorBody.Code,
  /** Emulator only: an injected fault answered 429 (with `Retry-After`). */
  EmulatorFaultTooManyRequests: 1099429,
  /** Emulator only: an injected fault answered 500. */
  EmulatorFaultInternal: 1099500,
  /** Emulator only: an injected fault answered 503. */
  EmulatorFaultUnavailable: 1099503,
  /** Emulator only: a genuine failure of the emulator itself (storage unavailable, ...), HTTP 500. */
  EmulatorInternal: 1099000
} as const

/**
 * A failure answered to the caller: the status, code and message of the response. The request id
 * is added when the response is rendered.
 *
 * @since 0.1.0
 * @category errors
 */
export class ApiError extends Data.TaggedError("ApiError")<{
  readonly status: number
  readonly code: number
  readonly message: string
  /** Extra response headers, for example `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>
  /**
   * The node's own words for a refusal the service relays (`nonce too low`, `execution reverted:
   * …`): what the node API answers in its JSON-RPC error, where the wallet API wraps it in `message`.
   *
   * @since 0.5.0
   */
  readonly reason?: string
}> {}

/**
 * 404 for an unknown path, 1010007.
 *
 * @since 0.1.0
 * @category constructors
 */
export const notFound = (): ApiError =>
  new ApiError({ status: 404, code: Code.InvalidPathOrMethod, message: "invalid path or method" })

/**
 * 405 for a known path with a method it does not serve, 1010007.
 *
 * @since 0.1.0
 * @category constructors
 */
export const methodNotAllowed = (allow: string): ApiError =>
  new ApiError({
    status: 405,
    code: Code.InvalidPathOrMethod,
    message: "invalid path or method",
    headers: { allow }
  })

/**
 * 401, 1010008: the `Authorization` header is missing or is not `Basic base64(id:secret)`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const invalidAuthorization = (): ApiError =>
  new ApiError({
    status: 401,
    code: Code.InvalidAuthorization,
    message: "authorization header is invalid or missing",
    headers: { "www-authenticate": "Basic realm=\"kas\"" }
  })

/**
 * 401, 1010009: the credentials do not match any key.
 *
 * @since 0.1.0
 * @category constructors
 */
export const credentialMismatch = (): ApiError =>
  new ApiError({
    status: 401,
    code: Code.CredentialMismatch,
    message: "the credential does not match",
    headers: { "www-authenticate": "Basic realm=\"kas\"" }
  })

/**
 * 400, 1061608: a required value is missing, `cannot be empty or zero value; <field>`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const missing = (field: string): ApiError =>
  new ApiError({ status: 400, code: Code.EmptyOrZero, message: `cannot be empty or zero value; ${field}` })

/**
 * 400, 1061615: `its value is out of range; <field>` (the real service's message for `size`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const outOfRange = (field: string): ApiError =>
  new ApiError({ status: 400, code: Code.OutOfRange, message: `its value is out of range; ${field}` })

/**
 * 400, 1061609: not an address, `it just allow Klaytn address form; <field>`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const notAddress = (field: string): ApiError =>
  new ApiError({ status: 400, code: Code.NotKlaytnAddress, message: `it just allow Klaytn address form; ${field}` })

/**
 * 400, 1061010, `data don't exist`: the real service's answer for anything that is not found or
 * not the caller's. `detail` is appended after `; ` when given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const dataNotExist = (detail?: string): ApiError =>
  new ApiError({
    status: 400,
    code: Code.DataNotExist,
    message: detail === undefined ? "data don't exist" : `data don't exist; ${detail}`
  })

/**
 * 400, 1061607: `must start with 0x and be hex; <field>` (the reference's message form).
 *
 * @since 0.2.0
 * @category constructors
 */
export const notHex = (field: string): ApiError =>
  new ApiError({ status: 400, code: Code.NotHex, message: `must start with 0x and be hex; ${field}` })

/**
 * 400, 1061510: disabling an account that is not enabled (already disabled, or deleted). The code
 * is the service's; the message is the emulator's (the reference does not give it).
 *
 * @since 0.2.0
 * @category constructors
 */
export const alreadyDisabled = (): ApiError =>
  new ApiError({ status: 400, code: Code.AlreadyDisabled, message: "the account is already disabled" })

/**
 * 400, 1061511: enabling an account that is already enabled. The code is the service's; the
 * message is the emulator's.
 *
 * @since 0.2.0
 * @category constructors
 */
export const alreadyEnabled = (): ApiError =>
  new ApiError({ status: 400, code: Code.AlreadyEnabled, message: "the account is already enabled" })

/**
 * 400, 1061616: a fee ratio that is not an integer from 0 to 99 (the message of the service's
 * public error table).
 *
 * @since 0.2.0
 * @category constructors
 */
export const feeRatioOutOfRange = (): ApiError =>
  new ApiError({ status: 400, code: Code.FeeRatioOutOfRange, message: "fee ratio must be between 1 and 99; feeRatio" })

/**
 * 400, 1065100: the sender of a raw transaction is not an account of the member (the service's
 * "Not your own account").
 *
 * @since 0.5.0
 * @category constructors
 */
export const notMemberAccount = (address: string): ApiError =>
  new ApiError({ status: 400, code: Code.CannotSignForAccount, message: `failed to get an account; data don't exist; ${address}` })

/**
 * 400, 1065100: the account's key was updated away from the key KAS holds (it is `corrupted`):
 * KAS can no longer sign for it.
 *
 * @since 0.5.0
 * @category constructors
 */
export const corruptedAccount = (address: string): ApiError =>
  new ApiError({ status: 400, code: Code.CannotSignForAccount, message: `the account key of ${address} is not the one KAS holds: it cannot sign for it` })

/**
 * 400, 1065102: the account is corrupted (its key was updated away from the key KAS holds).
 *
 * @since 0.5.0
 * @category constructors
 */
export const corruptedAccountGet = (address: string): ApiError =>
  new ApiError({ status: 400, code: Code.CorruptedAccount, message: `the account is corrupted: its key is not the one KAS holds; ${address}` })

/**
 * 400 with a code and the service's message for it: the refusals of one route each (1061903,
 * 1061912, 1061917..1061921, ...).
 *
 * @since 0.5.0
 * @category constructors
 */
export const refused = (code: number, message: string): ApiError => new ApiError({ status: 400, code, message })

/**
 * 400, 1061512: the sender cannot sign — it is disabled. Code and message form are the service's
 * (its public error table); that a disabled sender gets this code is the emulator's choice.
 *
 * @since 0.2.0
 * @category constructors
 */
export const cannotSign = (address: string): ApiError =>
  new ApiError({ status: 400, code: Code.AccountCannotSign, message: `account is invalid to sign the transaction; ${address}` })

/**
 * 400, 1065001: the node refused the transaction, with Klaytn's reason: `failed to send a raw
 * transaction to klaytn node; -32000::<reason>` (the service's example for insufficient funds of
 * the sender; the same form for the others).
 *
 * @since 0.2.0
 * @category constructors
 */
export const sendFailed = (reason: string): ApiError =>
  new ApiError({ status: 400, code: Code.SendFailed, message: `failed to send a raw transaction to klaytn node; -32000::${reason}`, reason })

/**
 * 400, 1065001: a read-only contract call failed on the node: `failed to call a contract on klaytn
 * node; -32000::<reason>`, the reason being the node's (`execution reverted: <message>`,
 * `execution reverted`, `out of gas`, ...). The reference documents no error of
 * `/v2/tx/contract/call`: the code is the one the service gives the node's refusals, the message
 * form the emulator's (after `sendFailed`'s).
 *
 * @since 0.4.0
 * @category constructors
 */
export const callFailed = (reason: string): ApiError =>
  new ApiError({ status: 400, code: Code.SendFailed, message: `failed to call a contract on klaytn node; -32000::${reason}`, reason })

/**
 * 400, 1065000: no transaction of that hash on the chain.
 *
 * @since 0.2.0
 * @category constructors
 */
export const transactionNotFound = (): ApiError =>
  new ApiError({ status: 400, code: Code.TransactionNotFound, message: "failed to retrieve a transaction from klaytn node" })

/**
 * 500, 1099000: the emulator itself failed (its storage, typically). Never caused by input.
 *
 * @since 0.1.0
 * @category constructors
 */
export const internal = (): ApiError =>
  new ApiError({ status: 500, code: Code.EmulatorInternal, message: "internal error of the emulator" })

/**
 * The JSON body of an error response, shaped as `ErrorBody.ErrorBody`.
 *
 * @since 0.1.0
 * @category rendering
 */
export const toBody = (error: ApiError, requestId: string): ErrorBody.ErrorBody => ({
  code: error.code,
  message: error.message,
  requestId
})
