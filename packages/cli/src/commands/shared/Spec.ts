/**
 * What the commands of the wallet API (`accounts`, `fee-payers`, `tx`, `keys`, `history`,
 * `migrate`) share in the command table: the connection flags (the client's settings, each with
 * its variable, the deadline of each request among them), the output and listing flags, their flag groups, and the `<address>` argument.
 *
 * Plain data with no runtime import, so that `--help` answers without loading effect.
 *
 * @since 0.9.0
 */
import type * as Spec from "../../input/Spec.js"

/**
 * A flag that chooses a chain by its id: 8217 (mainnet) or 1001 (testnet).
 *
 * @since 0.9.0
 * @category flags
 */
export const chainFlag = (flag: Omit<Spec.Flag, "value" | "choices">): Spec.Flag => ({ ...flag, value: "ID", choices: ["8217", "1001"] })

/**
 * The shared flags, by key: the connection (one flag for each variable of the client's
 * `WalletConfig.EnvironmentVariables`, and the secret's file), the output, and a listing's paging.
 *
 * @since 0.9.0
 * @category flags
 */
export const flags = {
  url: {
    name: "url",
    value: "URL",
    env: "KAS_WALLET_URL",
    description: "base URL of the service (the default) or of an emulator",
    example: "--url http://127.0.0.1:8787"
  },
  chain: chainFlag({
    name: "chain",
    env: "KAS_CHAIN_ID",
    default: "1001",
    description: "chain: 8217 (mainnet) or 1001 (testnet)",
    example: "--chain 8217"
  }),
  pool: {
    name: "pool",
    value: "KRN",
    env: "KAS_ACCOUNT_POOL",
    default: "the member's default pool",
    description: "account pool KRN, sent as x-krn",
    example: "--pool krn:1001:wallet:<member>:account-pool:payroll"
  },
  feePayerPool: {
    name: "fee-payer-pool",
    value: "KRN",
    env: "KAS_FEEPAYER_POOL",
    default: "the member's default fee-payer pool",
    description: "fee-payer pool KRN, sent as x-krn",
    example: "--fee-payer-pool krn:1001:wallet:<member>:feepayer-pool:ops"
  },
  keyPool: {
    name: "key-pool",
    value: "KRN",
    env: "KAS_KEY_POOL",
    default: "the member's default key pool",
    description: "key pool KRN: x-krn of create, the pool list lists",
    example: "--key-pool krn:1001:wallet:<member>:key-pool:default"
  },
  accessKeyId: {
    name: "access-key-id",
    value: "ID",
    env: "KAS_ACCESS_KEY_ID",
    description: "AccessKey ID",
    example: "--access-key-id KASK..."
  },
  secretAccessKeyFile: {
    name: "secret-access-key-file",
    value: "PATH",
    env: "KAS_SECRET_ACCESS_KEY_FILE",
    description: "file holding the Secret AccessKey",
    example: "--secret-access-key-file ~/.kas-wallet/emulator/secret-access-key",
    files: true
  },
  secretAccessKey: {
    name: "secret-access-key",
    value: "SECRET",
    env: "KAS_SECRET_ACCESS_KEY",
    description: "Secret AccessKey",
    alternative: "secret-access-key-file",
    example: "--secret-access-key \"$(pass kas/secret)\"",
    secret: true
  },
  nodeUrl: {
    name: "node-url",
    value: "URL",
    env: "KAS_NODE_URL",
    default: "https://node-api.klaytnapi.com/v1/klaytn",
    description: "the KAS Node API (JSON-RPC) nonces and the gas price are read from",
    example: "--node-url http://127.0.0.1:8787/v1/klaytn"
  },
  timeout: {
    name: "timeout",
    value: "DURATION",
    env: "KAS_TIMEOUT",
    default: "30s",
    description: "give up on a request after this long, retries included: 5s, 500ms, 2m",
    example: "--timeout 5s"
  },
  json: {
    name: "json",
    description: "JSON: one document ({items,cursor} for a page; --all: a line each)",
    example: "--json | jq .address"
  },
  wide: {
    name: "wide",
    description: "full addresses, hashes and ids in tables",
    example: "--wide"
  },
  verbose: {
    name: "verbose",
    description: "log requests, statuses, retries on stderr",
    example: "--verbose"
  },
  pageSize: {
    name: "page-size",
    value: "N",
    default: "100",
    description: "accounts per request, 1 to 1000, not a total",
    example: "--page-size 50"
  },
  cursor: {
    name: "cursor",
    value: "CURSOR",
    description: "continue where an earlier listing stopped",
    example: "--cursor eyJhZGRyZXNzIjoi..."
  },
  from: {
    name: "from",
    value: "TIME",
    description: "created at or after TIME: Unix seconds or ISO-8601 (UTC without an offset)",
    example: "--from 2024-05-01T00:00:00Z"
  },
  to: {
    name: "to",
    value: "TIME",
    description: "created at or before TIME, as --from",
    example: "--to 1714521600"
  },
  all: {
    name: "all",
    description: "every page, streamed",
    example: "--all --json > accounts.ndjson"
  }
} as const satisfies Record<string, Spec.Flag>

/**
 * The connection flags, with the pool flag a command reads (none for a member-wide one):
 * rarely changed, so the help lists them on a few lines.
 *
 * @since 0.9.0
 * @category groups
 */
export const connectionOf = (...pool: ReadonlyArray<Spec.Flag>): Spec.Group => ({
  title: "Service and key",
  more: true,
  flags: [flags.url, flags.chain, ...pool, flags.accessKeyId, flags.timeout, flags.secretAccessKeyFile, flags.secretAccessKey]
})

/**
 * The connection flags of a command of an account pool.
 *
 * @since 0.9.0
 * @category groups
 */
export const connection: Spec.Group = connectionOf(flags.pool)

/**
 * An "Output" group: the command's own output flags, then `--verbose`.
 *
 * @since 0.9.0
 * @category groups
 */
export const outputOf = (...own: ReadonlyArray<Spec.Flag>): Spec.Group => ({ title: "Output", flags: [...own, flags.wide, flags.verbose] })

/**
 * The output flags of a command that prints one record or one page.
 *
 * @since 0.9.0
 * @category groups
 */
export const output: Spec.Group = outputOf(flags.json)

/**
 * The paging of a listing by creation time: page size, cursor, time range, every page.
 *
 * @since 0.9.0
 * @category groups
 */
export const paging: ReadonlyArray<Spec.Flag> = [flags.pageSize, flags.cursor, flags.from, flags.to, flags.all]

/**
 * The `<address>` argument.
 *
 * @since 0.9.0
 * @category arguments
 */
export const address: Spec.Positional = { name: "address", description: "0x followed by 40 hex digits" }
