/**
 * Exit codes of `kas-wallet`, one per class of failure, and the one-line advice printed for each.
 *
 * | code | class |
 * | ---: | --- |
 * | 0 | success |
 * | 1 | unexpected failure (a bug: please report it) |
 * | 2 | invalid argument or configuration (checked locally, or rejected by the service: 4xx) |
 * | 3 | unauthorized (401: wrong or missing key) |
 * | 4 | not found (the account is not in the selected pool and chain) |
 * | 5 | rate limited (429) |
 * | 6 | server error (5xx, or a response the client cannot accept) |
 * | 7 | transport (connection refused or reset, timeout) |
 *
 * @since 0.1.0
 */
import type * as WalletError from "../WalletError.js"

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
  Transport: 7
} as const

/**
 * The table above, for `--help`.
 *
 * @since 0.1.0
 * @category constants
 */
export const helpText = [
  "Exit codes: 0 ok · 1 unexpected · 2 invalid argument (local or service 4xx) · 3 unauthorized ·",
  "4 not found · 5 rate limited · 6 server error · 7 transport (connection, timeout)"
].join("\n")

/**
 * The exit code and the advice for an error of the client.
 *
 * @since 0.1.0
 * @category mapping
 */
export const classify = (error: WalletError.WalletError): { readonly code: number; readonly advice: string } => {
  switch (error._tag) {
    case "InvalidArgument":
      return { code: ExitCode.InvalidArgument, advice: "fix the argument (see --help)" }
    case "InvalidRequest":
      return { code: ExitCode.InvalidArgument, advice: "the service rejected the request: check the values (see --help)" }
    case "Unauthorized":
      return { code: ExitCode.Unauthorized, advice: "check KAS_ACCESS_KEY_ID / KAS_SECRET_ACCESS_KEY (or --access-key-id / --secret-access-key)" }
    case "AccountNotFound":
      return { code: ExitCode.NotFound, advice: "no such account in this pool and chain: check --chain and --pool" }
    case "RateLimited":
      return { code: ExitCode.RateLimited, advice: "slow down and try again later" }
    case "ServerError":
      return { code: ExitCode.Server, advice: "the service failed: try again later" }
    case "ResponseDecodeError":
    case "RepeatedCursor":
    case "UnexpectedStatus":
    case "ResponseTooLarge":
      return { code: ExitCode.Server, advice: "the service answered something unexpected: use --verbose and report it" }
    case "ReceiptTimeout":
      return { code: ExitCode.Transport, advice: "the transaction may still be committed: check later with `kas-wallet tx receipt <hash>`" }
    case "TransportError":
      return { code: ExitCode.Transport, advice: "check --url / KAS_WALLET_URL and the network (is the emulator running?)" }
  }
}
