/**
 * The client's errors in the terms of the command line: one line each, naming flags rather than
 * the library's parameters, with what to do next.
 *
 * @since 0.1.0
 */
import { ErrorBody, RefusalReason, type WalletError } from "effect-kas-wallet"

/**
 * What a command was doing, for its messages.
 *
 * @since 0.1.0
 * @category models
 */
export interface Context {
  readonly operation:
    | "create"
    | "get"
    | "list"
    | "delete"
    | "disable"
    | "enable"
    | "count"
    | "by-public-key"
    | Transacting
    | "call"
    | "receipt"
    | "sign"
    | "migrate"
    | "register"
  /**
   * What the command works on: accounts (the default), fee-payer accounts, keys of the key
   * service, or the fee-delegation history.
   */
  readonly kind?: "account" | "fee-payer" | "key" | "history" | undefined
  readonly chainId: number
  /**
   * The pool's KRN (a fee-payer pool for fee-payer commands, a key pool for key commands);
   * `undefined` for the member's default pool.
   */
  readonly pool: string | undefined
  readonly url: string
  readonly address?: string | undefined
  /** A transfer's fee payer of the member (`--fee-payer ADDRESS`), for `send`. */
  readonly feePayer?: string | undefined
  /** The transaction's hash, for `receipt` and `history get`. */
  readonly hash?: string | undefined
  /** The key id, for `keys get | delete | sign`. */
  readonly keyId?: string | undefined
  /**
   * The KAS Node API a migration reads (its URL, and the path its requests name), for the
   * messages of its failures.
   *
   * @since 0.8.0
   */
  readonly node?: { readonly url: string; readonly path: string } | undefined
}

/**
 * The operations that send a transaction from `--from` (a `tx` command each).
 *
 * @since 0.5.0
 * @category models
 */
export type Transacting = "send" | "deploy" | "execute" | "relay" | "cancel" | "anchor" | "update-key"

const transacting: ReadonlySet<string> = new Set<Transacting>(["send", "deploy", "execute", "relay", "cancel", "anchor", "update-key"])

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
  feePayerPool: "--fee-payer-pool",
  publicKey: "<public-key>",
  status: "--status",
  chainId: "--chain",
  baseUrl: "--url",
  address: "<address>",
  rlp: "RLP",
  nodeUrl: "--node-url",
  accountKey: "--key",
  transactionHash: "--hash",
  keyId: "<key-id>",
  keyPool: "--key-pool",
  krn: "--krn",
  credentials: "key (--access-key-id / --secret-access-key)"
}

const poolWord = (context: Context) => (context.kind === "fee-payer" ? "fee-payer pool" : "pool")

const poolFlag = (context: Context) => (context.kind === "fee-payer" ? "--fee-payer-pool" : "--pool")

const where = (context: Context) =>
  `${context.pool === undefined ? `the default ${poolWord(context)}` : `${poolWord(context)} ${context.pool}`} on chain ${context.chainId}`

const subject = (context: Context) => (context.kind === "fee-payer" ? "fee-payer account" : "account")

// Trimmed: some of the service's messages end in a space ("insufficient funds of the sender for value ").
const service = (error: WalletError.ServiceError) =>
  `HTTP ${error.status}${error.code !== undefined ? `, code ${error.code}` : ""}: ${error.serviceMessage.trim()}` +
  (error.requestId !== undefined ? ` [request ${error.requestId}]` : "")

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, " ").trim()

// A base URL with a path (`…/v2`) sends every request to `<path>/v2/...`, which the service does
// not serve: a 404 then most likely means the URL, not the request.
const pathHint = (url: string): string => {
  const path = URL.canParse(url) ? new URL(url).pathname.replace(/\/+$/, "") : ""
  return path === "" ? "" : `; the base URL ${url} has a path (${path}): requests go to ${path}/v2/…, give the service's root instead (--url / KAS_WALLET_URL)`
}

const refused = {
  deploy: "deployment",
  execute: "execution",
  call: "call",
  relay: "transaction",
  cancel: "cancellation",
  anchor: "anchoring",
  "update-key": "account update"
} as Record<string, string>

// What to do about each reason, in the command line's terms.
const refusalHint = (reason: RefusalReason.RefusalReason, context: Context): string => {
  switch (reason._tag) {
    case "InsufficientSenderFunds":
      return `; fund ${context.address ?? "the sender"} or send less`
    case "InsufficientFeePayerFunds":
      return `; fund the fee payer${context.feePayer !== undefined ? ` ${context.feePayer}` : ""}`
    case "NonceTooLow":
      return "; the nonce is used already (the transaction, or another of the sender, is in a block)"
    case "AlreadyKnown":
      return "; the node holds this transaction already: await its receipt"
    case "Underpriced":
      return "; a replacement must raise the gas price"
    case "Other":
      // Klaytn's word for an address without code: a contract's operation on an account.
      return /not a program account/.test(reason.text) ? "; check --to: it is not a contract" : ""
  }
}

const refusal = (error: WalletError.NodeRefusal, context: Context): string =>
  `the chain refused the ${refused[context.operation as string] ?? "transfer"}` +
  // The node's own words are in the service's message already.
  `${error.reason._tag === "Other" ? "" : `: ${RefusalReason.describe(error.reason)}`} (${service(error)})` +
  refusalHint(error.reason, context)

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
      // The key service and the history answer "data don't exist" for what they do not hold.
      if (context.kind === "key") {
        return context.keyId !== undefined
          ? `no key ${context.keyId} of the member on chain ${context.chainId} (${service(error)}); check <key-id> (kas-wallet keys list) and --chain`
          : `no such key pool ${context.pool ?? "(the member's default)"} on chain ${context.chainId} (${service(error)}); check --krn, --key-pool and --chain`
      }
      if (context.kind === "history") {
        return `no fee-delegation record of ${context.hash ?? "the transaction"} on chain ${context.chainId} (${service(error)}); ` +
          "the global fee payer paid no fee of it (or it is in no block yet); check --chain"
      }
      // A registration names keys: the one the service does not know is in its message.
      if (context.operation === "migrate" || context.operation === "register") {
        return `a key id is not one of the member's keys on chain ${context.chainId} (${service(error)}); check the key ids and --chain`
      }
      if (transacting.has(context.operation)) {
        const feePayer = context.feePayer
        // A relayed RLP without --from: its sender is the RLP's.
        return `no account ${context.address ?? "(the RLP's sender)"} in ${where(context)}${
          feePayer !== undefined ? `, or ${feePayer} is not one of the member's fee-payer accounts` : ""
        } (${service(error)}); check --from, --pool, --chain${feePayer !== undefined ? " and --fee-payer" : ""}`
      }
      // A receipt is asked for without x-krn: no pool can be wrong.
      if (context.operation === "receipt") return `the service has no receipt ${context.hash ?? ""} for this key (${service(error)}); check --chain`
      // The service answers "data don't exist" both for an unknown account and for an unknown
      // pool: an operation on no address (a listing, a creation, a count) can only mean the pool.
      if (context.address === undefined && context.pool !== undefined) {
        return `no such ${poolWord(context)} ${context.pool} on chain ${context.chainId} (${service(error)}); check ${poolFlag(context)} and --chain`
      }
      return `no ${subject(context)} ${context.address ?? ""} in ${where(context)}${
        context.pool !== undefined ? ` (or no such ${poolWord(context)})` : ""
      } (${service(error)}); check --chain and ${poolFlag(context)}`
    case "PoolNotFound":
      return `no such ${poolWord(context)} ${context.pool ?? "(the member's default)"} on chain ${context.chainId} (${service(error)}); check ${poolFlag(context)} and --chain`
    case "NodeRefusal":
      return refusal(error, context)
    case "InvalidRequest":
      // The service answers these for every disable (enable) that changes nothing, an address
      // it does not hold included.
      if (error.code === ErrorBody.Code.AlreadyDisabled) {
        return `account ${context.address ?? ""} is already disabled, or deleted, or not in ${where(context)} (${service(error)})`
      }
      if (error.code === ErrorBody.Code.AlreadyEnabled) {
        return `account ${context.address ?? ""} is already enabled, or deleted, or not in ${where(context)} (${service(error)})`
      }
      if (error.code === ErrorBody.Code.FeePayerNotFound) {
        return `${context.feePayer ?? "the fee payer"} is not one of the member's fee-payer accounts in the selected fee-payer pool on chain ${context.chainId} (${service(error)}); check --fee-payer, --fee-payer-pool and --chain`
      }
      if (error.code === ErrorBody.Code.TransactionNotFound) {
        return `no transaction ${context.hash ?? ""} on chain ${context.chainId} (${service(error)}); check --chain, or wait with --wait`
      }
      return `the service rejected the request (${service(error)})${error.status === 404 ? pathHint(context.url) : ""}`
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
    case "UnverifiedResult":
      // The transaction may have been sent: the hash is what the user needs to find out.
      return oneLine(error.message) + (error.transactionHash !== undefined ? `; check it with kas-wallet tx receipt ${error.transactionHash}` : "")
    case "SubmissionFailed":
      // The command printed the signed transaction (its rlp) before this line.
      return oneLine(error.message) +
        `; look it up with kas-wallet tx receipt ${error.transactionHash}, or submit it again:` +
        " its rlp (printed) to kas-wallet tx relay, with the same --fee-payer"
    case "ReceiptTimeout":
      return `transaction ${error.hash} not committed after ${error.waitedMillis} ms (last status ${error.lastStatus}); check later with kas-wallet tx receipt ${error.hash}`
    case "TransportError": {
      // A migration's reads of the node go to the node, not to the wallet API.
      const node = context.node !== undefined && error.path.startsWith(context.node.path) ? context.node : undefined
      const url = node?.url ?? context.url
      switch (error.reason) {
        case "Connect":
          return oneLine(`cannot connect to ${url} (${error.description}); is it running? check ${node !== undefined ? "--node-url / KAS_NODE_URL" : "--url / KAS_WALLET_URL"}`)
        case "Timeout":
          // The description names the operation, the attempt and the limit that stopped it.
          return oneLine(
            `${url} did not answer in time: ${error.method} ${error.path}: ${error.description}; --timeout (KAS_TIMEOUT) sets how long a request may take, retries included`
          )
        case "Network":
          return oneLine(`the connection to ${url} failed during ${error.method} ${error.path} (${error.description})`)
      }
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
