/**
 * Exit codes of `kas-wallet`, one per class of failure, and the one place every failure gets its
 * code.
 *
 * | code | class |
 * | ---: | --- |
 * | 0 | success |
 * | 1 | unexpected failure (a bug, or a storage failure of the emulator) |
 * | 2 | invalid argument or configuration (checked locally, or rejected by the service: 4xx) |
 * | 3 | unauthorized (401: wrong or missing key) |
 * | 4 | not found (the account or pool is not in the selected chain) |
 * | 5 | rate limited (429) |
 * | 6 | server error (5xx, or a response the client cannot accept) |
 * | 7 | transport (connection refused or reset, timeout) |
 * | 8 | refused by the node (1065001: insufficient funds, nonce too low, already known, ...) |
 *
 * @since 0.1.0
 */
import { Data } from "effect"
import { ErrorBody, type WalletError } from "effect-kas-wallet"

/**
 * The exit codes.
 *
 * @since 0.1.0
 * @category constants
 */
export const ExitCode = {
  Ok: 0,
  Unexpected: 1,
  InvalidArgument: 2,
  Unauthorized: 3,
  NotFound: 4,
  RateLimited: 5,
  Server: 6,
  Transport: 7,
  Refused: 8
} as const

/**
 * An exit code.
 *
 * @since 0.1.0
 * @category models
 */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

/**
 * A failure of a command, ready to report: its line (without the `kas-wallet:` prefix) and its
 * exit code. Every other failure is turned into one of these by `ofError`.
 *
 * @since 0.1.0
 * @category errors
 */
export class Failure extends Data.TaggedError("CliFailure")<{
  readonly message: string
  readonly code: ExitCode
}> {}

/**
 * A usage or configuration failure: exit code 2.
 *
 * @since 0.1.0
 * @category constructors
 */
export const invalid = (message: string): Failure => new Failure({ message, code: ExitCode.InvalidArgument })

/**
 * The exit code of a client error.
 *
 * @since 0.1.0
 * @category mapping
 */
export const ofWalletError = (error: WalletError.WalletError): ExitCode => {
  switch (error._tag) {
    case "InvalidArgument":
      return ExitCode.InvalidArgument
    case "InvalidRequest":
      // An unknown transaction hash is the service's "not found" for transactions, "failed to get
      // feepayer" its "not found" for a user fee payer.
      return error.code === ErrorBody.Code.TransactionNotFound || error.code === ErrorBody.Code.FeePayerNotFound
        ? ExitCode.NotFound
        : ExitCode.InvalidArgument
    case "Unauthorized":
      return ExitCode.Unauthorized
    case "AccountNotFound":
    case "PoolNotFound":
      return ExitCode.NotFound
    case "NodeRefusal":
      return ExitCode.Refused
    case "RateLimited":
      return ExitCode.RateLimited
    case "ServerError":
    case "ResponseDecodeError":
    case "RepeatedCursor":
    case "UnexpectedStatus":
    case "ResponseTooLarge":
    case "UnverifiedResult":
      return ExitCode.Server
    case "SubmissionFailed":
      // The node's refusal of the signed transaction is final; any other failure left it unknown.
      return error.reason !== undefined ? ExitCode.Refused : ExitCode.Transport
    case "ReceiptTimeout":
    case "TransportError":
      return ExitCode.Transport
  }
}

/**
 * The exit code of a failure of the emulator commands: 2 (invalid argument or configuration) when
 * the emulator cannot start (`EmulatorError`: options, database location, master key, member key,
 * port in use) and for console refusals (`ConsoleError`); 1 for anything else (a storage failure,
 * a bug).
 *
 * @since 0.1.0
 * @category mapping
 */
export const ofEmulatorError = (error: { readonly _tag: string }): ExitCode =>
  error._tag === "EmulatorError" || error._tag === "ConsoleError" ? ExitCode.InvalidArgument : ExitCode.Unexpected
