/**
 * The client's errors in the terms of the command line: one line each, naming flags rather than
 * the library's parameters, with what to do next.
 *
 * @since 0.1.0
 */
import type * as WalletError from "../WalletError.js"

/**
 * What a command was doing, for its messages.
 *
 * @since 0.1.0
 * @category models
 */
export interface Context {
  readonly operation: "create" | "get" | "list"
  readonly chainId: number
  /** The pool's KRN; `undefined` for the member's default pool. */
  readonly pool: string | undefined
  readonly url: string
  readonly address?: string | undefined
}

/**
 * The flag that sets each argument the client validates.
 *
 * @since 0.1.0
 * @category constants
 */
export const flagOf: Readonly<Record<string, string>> = {
  pageSize: "--page-size",
  size: "--page-size",
  cursor: "--cursor",
  from: "--from",
  to: "--to",
  pool: "--pool",
  chainId: "--chain",
  baseUrl: "--url",
  address: "<address>",
  credentials: "the key (--access-key-id / --secret-access-key)"
}

const where = (context: Context) =>
  `${context.pool === undefined ? "the default pool" : `pool ${context.pool}`} on chain ${context.chainId}`

const service = (error: WalletError.ServiceError) =>
  `HTTP ${error.status}${error.code !== undefined ? `, code ${error.code}` : ""}: ${error.serviceMessage}` +
  (error.requestId !== undefined ? ` [request ${error.requestId}]` : "")

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, " ").trim()

/**
 * The line for a client error (without the `kas-wallet:` prefix).
 *
 * @since 0.1.0
 * @category rendering
 */
export const walletError = (error: WalletError.WalletError, context: Context): string => {
  switch (error._tag) {
    case "InvalidArgument":
      return oneLine(`invalid ${flagOf[error.argument] ?? error.argument}: ${error.description}`)
    case "Unauthorized":
      return `${context.url} refused the key (${service(error)}); check KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY`
    case "AccountNotFound":
      // The service answers "data don't exist" both for an unknown account and for an unknown
      // pool: a listing or a creation in a named pool can only mean the pool.
      if (context.operation !== "get" && context.pool !== undefined) {
        return `no such pool ${context.pool} on chain ${context.chainId} (${service(error)}); check --pool and --chain`
      }
      return `no account ${context.address ?? ""} in ${where(context)}${
        context.pool !== undefined ? " (or no such pool)" : ""
      } (${service(error)}); check --chain and --pool`
    case "InvalidRequest":
      return `the service rejected the request (${service(error)})`
    case "RateLimited":
      return `rate limited (${service(error)}); try again later`
    case "ServerError":
      return `the service failed (${service(error)}); try again later`
    case "ResponseDecodeError":
      return oneLine(`unexpected answer to ${error.method} ${error.path} (HTTP ${error.status}): ${error.issue}`)
    case "RepeatedCursor":
      return "the service repeated a cursor; stopped rather than list forever"
    case "UnexpectedStatus":
      return oneLine(error.message)
    case "ResponseTooLarge":
      return `the answer to ${error.method} ${error.path} is larger than ${error.limit} bytes; not read`
    case "ReceiptTimeout":
      return `transaction ${error.hash} not committed after ${error.waitedMillis} ms (last status ${error.lastStatus}); check later with kas-wallet tx receipt ${error.hash}`
    case "TransportError":
      switch (error.reason) {
        case "Connect":
          return oneLine(`cannot connect to ${context.url} (${error.description}); is it running? check --url / KAS_WALLET_URL`)
        case "Timeout":
          return oneLine(`${context.url} did not answer ${error.method} ${error.path} in time (${error.description})`)
        case "Network":
          return oneLine(`the connection to ${context.url} failed during ${error.method} ${error.path} (${error.description})`)
      }
  }
}

/**
 * What a failed listing adds: how to resume it at the page that failed.
 *
 * @since 0.1.0
 * @category rendering
 */
export const resume = (cursor: string | undefined): string =>
  cursor !== undefined && cursor !== "" ? `; to resume, run the same command with --cursor ${cursor}` : ""
