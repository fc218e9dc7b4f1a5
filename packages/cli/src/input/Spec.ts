/**
 * The command table of `kas-wallet`: every command, its arguments and flags, with descriptions and
 * examples. `--help`, the bash completions and the one reading of the command line (`Argv`) are
 * derived from it; the commands read their flags' values from that reading.
 *
 * Plain data with no runtime import, so that `--help` and `--version` answer without loading
 * effect, the client or the emulator.
 *
 * @since 0.1.0
 */
import type { EmulatorConfig } from "effect-kas-wallet-emulator"
import * as Route from "./Route.js"

/**
 * A flag: `--name VALUE`, or `--name` alone when it has no `value`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Flag {
  /** Without the leading `--`. */
  readonly name: string
  /** The placeholder of its value; absent for a switch. */
  readonly value?: string
  /** The environment variable read when the flag is absent. */
  readonly env?: string
  /** The default, in words. */
  readonly default?: string
  readonly description: string
  /** A use of the flag, as typed. */
  readonly example: string
  /** A secret: never printed; on the command line it is visible in the process list. */
  readonly secret?: boolean
  /** For a secret: the flag that reads it from a file instead. */
  readonly alternative?: string
  /** The values the completion offers. */
  readonly choices?: ReadonlyArray<string>
  /** Whether the completion offers file names. */
  readonly files?: boolean
  /**
   * Takes one or more values: every word after it up to the next option (`--args 0x50... 1000`);
   * `Argv` gives them as a list.
   */
  readonly many?: boolean
}

/**
 * A positional argument.
 *
 * @since 0.1.0
 * @category models
 */
export interface Positional {
  readonly name: string
  readonly description: string
  /** May be left out (only the last ones): the usage shows it as `[<name>]`. */
  readonly optional?: boolean
}

/**
 * Flags shown under one heading.
 *
 * @since 0.1.0
 * @category models
 */
export interface Group {
  readonly title: string
  readonly flags: ReadonlyArray<Flag>
  /**
   * Rarely changed flags (the connection, the emulator's storage and faults): the help lists
   * them on a few "more flags" lines, each with its variable, and docs/cli.md describes them, so
   * that every help fits a screen.
   */
  readonly more?: boolean
}

/**
 * A command of the table.
 *
 * @since 0.1.0
 * @category models
 */
export interface Command {
  /** The words after `kas-wallet` (empty for the root). */
  readonly path: ReadonlyArray<string>
  /** One line, for the list of commands. */
  readonly summary: string
  /** A paragraph for its own help. */
  readonly description: ReadonlyArray<string>
  readonly positionals: ReadonlyArray<Positional>
  readonly groups: ReadonlyArray<Group>
  readonly subcommands: ReadonlyArray<Command>
  /** Whether it does something itself; a command that does not shows its help. */
  readonly runs: boolean
  readonly examples: ReadonlyArray<string>
}

/**
 * The program's name.
 *
 * @since 0.1.0
 * @category constants
 */
export const program = "kas-wallet"

/**
 * The port `kas-wallet emulator` listens on by default (the library's layer picks a free one).
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultEmulatorPort = 8787

/**
 * The exit codes, one line, for help texts (the codes themselves live in `ExitCode`).
 *
 * @since 0.1.0
 * @category constants
 */
export const exitCodes =
  "Exit codes: 0 ok, 1 unexpected, 2 invalid argument, 3 unauthorized, 4 not found, 5 rate limited, 6 server error, 7 transport."

// ---------------------------------------------------------------------------------------------
// accounts
// ---------------------------------------------------------------------------------------------

/**
 * The flags of the `accounts` commands, by key.
 *
 * @since 0.1.0
 * @category flags
 */
export const accounts = {
  url: {
    name: "url",
    value: "URL",
    env: "KAS_WALLET_URL",
    description: "base URL of the service (the default) or of an emulator",
    example: "--url http://127.0.0.1:8787"
  },
  chain: {
    name: "chain",
    value: "ID",
    env: "KAS_CHAIN_ID",
    default: "1001",
    description: "chain: 8217 (mainnet) or 1001 (testnet)",
    example: "--chain 8217",
    choices: ["8217", "1001"]
  },
  pool: {
    name: "pool",
    value: "KRN",
    env: "KAS_ACCOUNT_POOL",
    default: "the member's default pool",
    description: "account pool KRN, sent as x-krn",
    example: "--pool krn:1001:wallet:<member>:account-pool:payroll"
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
  json: {
    name: "json",
    description: "JSON output: one document (with list --all, one account per line)",
    example: "--json | jq .address"
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
  },
  status: {
    name: "status",
    value: "STATE",
    default: "enabled",
    description: "accounts in this state: enabled, disabled, corrupted, or all (deleted ones never)",
    example: "--status disabled",
    choices: ["enabled", "disabled", "corrupted", "all"]
  },
  allPools: {
    name: "all-pools",
    description: "count every pool of the member, even with --pool or KAS_ACCOUNT_POOL set",
    example: "--all-pools"
  },
  feePayerPool: {
    name: "fee-payer-pool",
    value: "KRN",
    env: "KAS_FEEPAYER_POOL",
    default: "the member's default fee-payer pool",
    description: "fee-payer pool KRN, sent as x-krn",
    example: "--fee-payer-pool krn:1001:wallet:<member>:feepayer-pool:ops"
  },
  withoutAccountUpdate: {
    name: "without-account-update",
    description: "skip the on-chain account update that registers its key (withoutAccountUpdate)",
    example: "--without-account-update"
  }
} as const satisfies Record<string, Flag>

/**
 * The commands of a group, by verb: the group's words then the verb, the command's own flag groups
 * then those every command of the group shares.
 */
const commandsUnder = (prefix: ReadonlyArray<string>, common: ReadonlyArray<Group>) =>
(
  verb: string,
  summary: string,
  description: ReadonlyArray<string>,
  positionals: ReadonlyArray<Positional>,
  groups: ReadonlyArray<Group>,
  examples: ReadonlyArray<string>
): Command => ({
  path: [...prefix, verb],
  summary,
  description,
  positionals,
  groups: [...groups, ...common],
  subcommands: [],
  runs: true,
  examples
})

const connection: Group = {
  title: "Service and key",
  more: true,
  flags: [accounts.url, accounts.chain, accounts.pool, accounts.accessKeyId, accounts.secretAccessKeyFile, accounts.secretAccessKey]
}
const output: Group = { title: "Output", flags: [accounts.json, accounts.verbose] }
const feePayerConnection: Group = {
  title: "Service and key",
  more: true,
  flags: [
    accounts.url,
    accounts.chain,
    accounts.feePayerPool,
    accounts.accessKeyId,
    accounts.secretAccessKeyFile,
    accounts.secretAccessKey
  ]
}
const addressArgument: Positional = { name: "address", description: "0x followed by 40 hex digits" }

const accountsCreate: Command = {
  path: ["accounts", "create"],
  summary: "create an account in a pool",
  description: [`Create an account in the selected pool (${Route.route("createAccount")}) and print it.`],
  positionals: [],
  groups: [output, connection],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet accounts create",
    "kas-wallet accounts create --pool krn:1001:wallet:<member>:account-pool:pay"
  ]
}

const accountsGet: Command = {
  path: ["accounts", "get"],
  summary: "show one account by address",
  description: [
    `Show one account (${Route.route("getAccount")}). Any case is accepted; a mixed-case address must`,
    "carry a valid EIP-55 checksum."
  ],
  positionals: [addressArgument],
  groups: [output, connection],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet accounts get 0xa809284C83b901eD106Aba4Ccda14628Af128e14",
    "kas-wallet accounts get 0xa809284c83b901ed106aba4ccda14628af128e14 --json"
  ]
}

const accountsList: Command = {
  path: ["accounts", "list"],
  summary: "list accounts, newest first: one page, or all with --all",
  description: [
    `List the accounts of a pool, newest first (${Route.route("listAccounts")}): one page and the cursor of the`,
    "next, or every page with --all. A failed --all prints the --cursor that resumes it."
  ],
  positionals: [],
  groups: [
    { title: "Listing", flags: [accounts.status, accounts.pageSize, accounts.cursor, accounts.from, accounts.to, accounts.all] },
    output,
    connection
  ],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet accounts list --page-size 20",
    "kas-wallet accounts list --page-size 20 --cursor eyJ2IjoxLCJ0Ijo...   # page 2",
    "kas-wallet accounts list --status disabled",
    "kas-wallet accounts list --all --json --from 2024-01-01 > accounts.ndjson"
  ]
}

const onAddress = (verb: string, wire: string, lines: ReadonlyArray<string>, example: string): Command => ({
  path: ["accounts", verb],
  summary: lines[0]!,
  description: [`${lines[0]![0]!.toUpperCase()}${lines[0]!.slice(1)} (${wire}).`, ...lines.slice(1)],
  positionals: [addressArgument],
  groups: [output, connection],
  subcommands: [],
  runs: true,
  examples: [example, `${example} --json`]
})

const accountsDelete = onAddress("delete", Route.route("deleteAccount"), [
  "delete an account of a pool",
  "It is gone from get, list, counts and by-public-key; its key is destroyed. Enabled or disabled."
], "kas-wallet accounts delete 0xa809284C83b901eD106Aba4Ccda14628Af128e14")

const accountsDisable = onAddress("disable", Route.route("disableAccount"), [
  "disable an enabled account",
  "It still answers get, is listed only with --status disabled or all, and cannot send."
], "kas-wallet accounts disable 0xa809284C83b901eD106Aba4Ccda14628Af128e14")

const accountsEnable = onAddress("enable", Route.route("enableAccount"), [
  "enable a disabled account"
], "kas-wallet accounts enable 0xa809284C83b901eD106Aba4Ccda14628Af128e14")

const accountsCount: Command = {
  path: ["accounts", "count"],
  summary: "count the member's accounts, or one pool's",
  description: [
    `Count the accounts of the member on the chain, in every pool (${Route.route("accountCount")}); with --pool`,
    `(or KAS_ACCOUNT_POOL), of that pool (${Route.route("accountCountByPool")}). Disabled ones count, deleted ones not.`
  ],
  positionals: [],
  groups: [{ title: "Counting", flags: [accounts.allPools] }, output, connection],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet accounts count",
    "kas-wallet accounts count --pool krn:1001:wallet:<member>:account-pool:pay"
  ]
}

const accountsByPublicKey: Command = {
  path: ["accounts", "by-public-key"],
  summary: "find the member's accounts of a public key",
  description: [
    `List the member's accounts of a public key on the chain, in every pool (${Route.route("accountsByPublicKey")}):`,
    "address and chain of each; deleted ones never."
  ],
  positionals: [{ name: "public-key", description: "0x04 + 128 hex digits, 0x02/0x03 + 64, or 0x + 128" }],
  groups: [output, connection],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet accounts by-public-key 0x04cdccfb99b2905561e3dd886687b429a0...",
    "kas-wallet accounts by-public-key \"$(jq -r .publicKey account.json)\" --json"
  ]
}

/**
 * The flags of the `accounts multisig` commands, by key.
 *
 * @since 0.8.0
 * @category flags
 */
export const multisig = {
  threshold: {
    name: "threshold",
    value: "N",
    description: "the weight the signatures of a transaction must reach, 1 to the sum of the weights",
    example: "--threshold 2"
  },
  keys: {
    name: "keys",
    value: "KEY[:WEIGHT]...",
    many: true,
    description:
      "the signers, 1 to 10: each a public key, or the address of an account of the pool (its key is looked up), with its weight (default 1)",
    example: "--keys 0x04cdcc…37:2 0xa809284C83b901eD106Aba4Ccda14628Af128e14"
  },
  wait: {
    name: "wait",
    description: "once the signatures reach the threshold, wait for the receipt (committed) and print it",
    example: "--wait"
  }
} as const satisfies Record<string, Flag>

const transactionIdArgument: Positional = { name: "transaction-id", description: "a pending transaction's id, 0x followed by 64 hex digits" }

const multisigCommand = commandsUnder(["accounts", "multisig"], [output, connection])

const accountsMultisig: Command = {
  path: ["accounts", "multisig"],
  summary: "make an account multisig; list, sign and add signatures to what waits for its signers",
  description: [
    "A multisig account's key is a weighted set of the member's keys: its transactions wait (Pending)",
    "until the weights of the signers who signed reach the threshold, then the service sends them."
  ],
  positionals: [],
  groups: [],
  subcommands: [
    multisigCommand("update", "make an account multisig: its signers and threshold", [
      `Update an account of the pool to a weighted multisig key (${Route.route("updateToMultisig")}):`,
      "an account update it signs and pays for. Each signer is a public key of one of the member's",
      "accounts, or the address of an account of the pool. Never retried once sent."
    ], [addressArgument], [{ title: "Multisig", flags: [multisig.keys, multisig.threshold] }], [
      'kas-wallet accounts multisig update "$SAFE" --threshold 2 --keys "$A" "$B"',
      'kas-wallet accounts multisig update "$SAFE" --threshold 3 --keys "$PK":2 "$B"'
    ]),
    multisigCommand("pending", "list the transactions waiting for signers, of an account or a signer", [
      "List the member's transactions waiting for signers whose sender, or one of whose signers, is",
      `<address>, newest first (${Route.route("listMultisigTransactions")}): one page, or all with --all.`
    ], [addressArgument], [{ title: "Listing", flags: [accounts.pageSize, accounts.cursor, accounts.from, accounts.to, accounts.all] }], [
      'kas-wallet accounts multisig pending "$SAFE"',
      'kas-wallet accounts multisig pending "$A" --all --json | jq -r .transactionId'
    ]),
    multisigCommand("sign", "a signer of the pool signs a pending transaction", [
      "Sign a pending transaction as <signer>, an account of the pool holding one of its keys",
      `(${Route.route("signMultisigTransaction", { address: "signer" })}). Signed until the weights reach the`,
      "threshold, then Submitted with its hash. Never retried once sent."
    ], [{ name: "signer", description: "the signer's address, 0x followed by 40 hex digits" }, transactionIdArgument], [{
      title: "Output",
      flags: [multisig.wait]
    }], [
      'kas-wallet accounts multisig sign "$A" "$TX_ID"',
      'kas-wallet accounts multisig sign "$B" "$TX_ID" --wait'
    ]),
    multisigCommand("append", "add signatures made elsewhere to a pending transaction", [
      `Add signatures to a pending transaction (${Route.route("appendSignatures")}): JSON`,
      "{\"V\",\"R\",\"S\"} or an array of them, as tx sign --json prints it, or a file of it; - reads stdin."
    ], [transactionIdArgument, { name: "json", description: "the signatures: JSON {V, R, S} or [{V, R, S}, …], a file of it, or - for stdin" }], [{
      title: "Output",
      flags: [multisig.wait]
    }], [
      'kas-wallet tx sign "$C" "$TX_ID" --json > sig.json',
      'kas-wallet accounts multisig append "$TX_ID" sig.json --wait'
    ])
  ],
  runs: false,
  examples: [
    'kas-wallet accounts multisig update "$SAFE" --threshold 2 --keys "$A" "$B"',
    'kas-wallet tx send --from "$SAFE" --to "$TO" --value 1KLAY   # Pending: its id',
    'kas-wallet accounts multisig sign "$A" "$TX_ID"',
    'kas-wallet accounts multisig sign "$B" "$TX_ID" --wait'
  ]
}

/**
 * The flags of `migrate` and `accounts register`, by key (with the connection flags of `accounts`).
 *
 * @since 0.8.0
 * @category flags
 */
export const migration = {
  nodeUrl: {
    name: "node-url",
    value: "URL",
    env: "KAS_NODE_URL",
    default: "https://node-api.klaytnapi.com/v1/klaytn",
    description: "the KAS Node API (JSON-RPC) nonces and the gas price are read from",
    example: "--node-url http://127.0.0.1:8787/v1/klaytn"
  },
  gasPrice: {
    name: "gas-price",
    value: "AMOUNT",
    default: "the node's",
    description: "gas price of the accounts whose file gives none: 25ston",
    example: "--gas-price 25ston"
  },
  json: {
    name: "json",
    description: "JSON: {status, accounts: [{address, outcome, keyId, publicKey, ...}]}",
    example: "--json | jq -r '.accounts[] | select(.outcome == \"failed\") | .address'"
  }
} as const satisfies Record<string, Flag>

const accountsRegister: Command = {
  path: ["accounts", "register"],
  summary: "register existing accounts under keys of the key service",
  description: [
    "Register existing Klaytn accounts in the pool under keys of the key service",
    `(${Route.route("registerAccounts")}), from a JSON file or stdin: [{keyId, address, rlp?}], rlp a signed`,
    "fee-delegated account update to the key. Prints each account's outcome. `migrate` builds it all."
  ],
  positionals: [{ name: "file", description: "JSON file of [{keyId, address, rlp?}], or - for stdin" }],
  groups: [{ title: "Output", flags: [migration.json, accounts.verbose] }, connection],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet accounts register registrations.json",
    "jq '[.[] | {keyId, address}]' keys.json | kas-wallet accounts register -"
  ]
}

const accountsGroup: Command = {
  path: ["accounts"],
  summary: "create, get, list, count, find, disable, enable, delete accounts; multisig accounts",
  description: [
    "Accounts of the KAS wallet API, or of the emulator (--url). The key comes from",
    "KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY (or their flags, or a secret file)."
  ],
  positionals: [],
  groups: [],
  subcommands: [
    accountsCreate,
    accountsGet,
    accountsList,
    accountsCount,
    accountsByPublicKey,
    accountsDisable,
    accountsEnable,
    accountsDelete,
    accountsMultisig,
    accountsRegister
  ],
  runs: false,
  examples: [
    "eval \"$(kas-wallet emulator env)\"   # use the local emulator's key",
    "kas-wallet accounts create && kas-wallet accounts list"
  ]
}

// ---------------------------------------------------------------------------------------------
// fee-payers
// ---------------------------------------------------------------------------------------------

const feePayerCommand = commandsUnder(["fee-payers"], [output, feePayerConnection])

const feePayersGroup: Command = {
  path: ["fee-payers"],
  summary: "create, get, list and delete fee-payer accounts",
  description: [
    "Fee-payer accounts pay the fees of the member's transfers (user fee delegation). They live in",
    "fee-payer pools: --fee-payer-pool or KAS_FEEPAYER_POOL, else the member's default one."
  ],
  positionals: [],
  groups: [],
  subcommands: [
    feePayerCommand("create", "create a fee-payer account in a fee-payer pool", [
      `Create a fee-payer account in the selected fee-payer pool (${Route.route("createFeePayer")}) and print it.`
    ], [], [{ title: "Account", flags: [accounts.withoutAccountUpdate] }], [
      "kas-wallet fee-payers create",
      "kas-wallet fee-payers create --without-account-update --json"
    ]),
    feePayerCommand("get", "show one fee-payer account by address", [
      `Show one fee-payer account (${Route.route("getFeePayer")}). Any case is accepted; a mixed-case`,
      "address must carry a valid EIP-55 checksum."
    ], [addressArgument], [], [
      "kas-wallet fee-payers get 0xDd3B08d269c5BA292E31050BA8608798D46FC712"
    ]),
    feePayerCommand("list", "list fee-payer accounts, newest first: one page, or all with --all", [
      `List the fee-payer accounts of a fee-payer pool, newest first (${Route.route("listFeePayers")}): one page and`,
      "the cursor of the next, or every page with --all. A failed --all prints the --cursor to resume."
    ], [], [{ title: "Listing", flags: [accounts.pageSize, accounts.cursor, accounts.from, accounts.to, accounts.all] }], [
      "kas-wallet fee-payers list",
      "kas-wallet fee-payers list --all --json > fee-payers.ndjson"
    ]),
    feePayerCommand("delete", "delete a fee-payer account", [
      `Delete a fee-payer account of the selected fee-payer pool (${Route.route("deleteFeePayer")}).`
    ], [addressArgument], [], [
      "kas-wallet fee-payers delete 0xDd3B08d269c5BA292E31050BA8608798D46FC712"
    ])
  ],
  runs: false,
  examples: [
    "kas-wallet fee-payers create",
    "kas-wallet fee-payers list --all --json > fee-payers.ndjson"
  ]
}

// ---------------------------------------------------------------------------------------------
// keys
// ---------------------------------------------------------------------------------------------

/**
 * The flags of the `keys` commands (the key service), by key, with the connection
 * flags of `accounts`.
 *
 * @since 0.8.0
 * @category flags
 */
export const keys = {
  keyPool: {
    name: "key-pool",
    value: "KRN",
    env: "KAS_KEY_POOL",
    default: "the member's default key pool",
    description: "key pool KRN: x-krn of create, the pool list lists",
    example: "--key-pool krn:1001:wallet:<member>:key-pool:default"
  },
  size: {
    name: "size",
    value: "N",
    default: "1",
    description: "how many keys to create, 1 to 100",
    example: "--size 10"
  },
  krn: {
    name: "krn",
    value: "KRN",
    default: "--key-pool, else the default key pool",
    description: "the pool to list: a key pool KRN",
    example: "--krn krn:1001:wallet:<member>:key-pool:default"
  },
  pageSize: {
    name: "page-size",
    value: "N",
    default: "100",
    description: "keys per request, 1 to 1000, not a total",
    example: "--page-size 50"
  },
  json: {
    name: "json",
    description: "JSON output: one document (with list --all, one key per line)",
    example: "--json | jq -r '.items[].keyId'"
  }
} as const satisfies Record<string, Flag>

const keyConnection: Group = {
  title: "Service and key",
  more: true,
  flags: [accounts.url, accounts.chain, keys.keyPool, accounts.accessKeyId, accounts.secretAccessKeyFile, accounts.secretAccessKey]
}
const keyOutput: Group = { title: "Output", flags: [keys.json, accounts.verbose] }
const keyIdArgument: Positional = {
  name: "key-id",
  description: "krn:<chain>:wallet:<member>:key-pool:<name>:0x + 64 hex digits"
}

const keyCommand = commandsUnder(["keys"], [keyOutput, keyConnection])

const keysGroup: Command = {
  path: ["keys"],
  summary: "create, list, get, delete keys of the key service and sign with them",
  description: [
    `Keys held by the key service (${Route.path("createKeys")}) in key pools: created in batches, listed by pool, and`,
    "signing 32-byte hashes. The pool: --key-pool or KAS_KEY_POOL, else the member's default one."
  ],
  positionals: [],
  groups: [],
  subcommands: [
    keyCommand("create", "create keys in a key pool", [
      `Create --size keys in the selected key pool (${Route.route("createKeys")}; x-krn: --key-pool) and print their`,
      "key ids and public keys. Never retried once sent: creating is not idempotent."
    ], [], [{ title: "Keys", flags: [keys.size] }], [
      "kas-wallet keys create",
      "kas-wallet keys create --size 10 --json | jq -r '.items[].keyId'"
    ]),
    keyCommand("list", "list a key pool's keys, newest first: one page, or all with --all", [
      `List the keys of a pool, newest first (${Route.route("listKeys")}?krn=): --krn, else --key-pool, else the`,
      "member's default key pool. One page and the cursor of the next, or every page with --all."
    ], [], [{ title: "Listing", flags: [keys.krn, keys.pageSize, accounts.cursor, accounts.all] }], [
      "kas-wallet keys list",
      "kas-wallet keys list --all --json > keys.ndjson"
    ]),
    keyCommand("get", "show one key by key id", [
      `Show one key (${Route.route("getKey")}): its id, pool and public key, and the blob the service`,
      "keeps of it (encrypted; never the private key). The key id must be on the chain (--chain)."
    ], [keyIdArgument], [], [
      "kas-wallet keys get \"$KEY_ID\"",
      "kas-wallet keys get \"$KEY_ID\" --json | jq -r .publicKey"
    ]),
    keyCommand("delete", "delete a key", [
      `Delete a key (${Route.route("deleteKey")}): it is gone from every read and cannot sign. Never`,
      "retried once sent."
    ], [keyIdArgument], [], [
      "kas-wallet keys delete \"$KEY_ID\""
    ]),
    keyCommand("sign", "sign a 32-byte hash with a key", [
      `Sign a 32-byte hash with a key (${Route.route("signWithKey")}, no prefix added): prints the`,
      "65-byte signature (r, s, v). Hash the message yourself first (keccak-256, sha-256)."
    ], [keyIdArgument, { name: "hash", description: "0x followed by 64 hex digits (32 bytes)" }], [], [
      "kas-wallet keys sign \"$KEY_ID\" \"$HASH\"",
      "kas-wallet keys sign \"$KEY_ID\" \"0x$(sha256sum < doc.pdf | cut -c1-64)\" --json"
    ])
  ],
  runs: false,
  examples: [
    "kas-wallet keys create --size 2",
    "kas-wallet keys list --json"
  ]
}

// ---------------------------------------------------------------------------------------------
// history
// ---------------------------------------------------------------------------------------------

/**
 * The flags of the `history` commands (the fee-delegation history), by key,
 * with the connection flags of `accounts` but the pools (the history spans the member's pools).
 *
 * @since 0.8.0
 * @category flags
 */
export const history = {
  from: {
    name: "from",
    value: "ADDRESS",
    default: "every sender",
    description: "only the transactions this address sent",
    example: "--from 0xa809284C83b901eD106Aba4Ccda14628Af128e14"
  },
  pageSize: {
    name: "page-size",
    value: "N",
    default: "100",
    description: "records per request, 1 to 1000, not a total",
    example: "--page-size 50"
  },
  json: {
    name: "json",
    description: "JSON output: one document (with list --all, one record per line)",
    example: "--json | jq -r .chargedByKlay"
  }
} as const satisfies Record<string, Flag>

const historyConnection: Group = {
  title: "Service and key",
  more: true,
  flags: [accounts.url, accounts.chain, accounts.accessKeyId, accounts.secretAccessKeyFile, accounts.secretAccessKey]
}
const historyOutput: Group = { title: "Output", flags: [history.json, accounts.verbose] }

const historyGroup: Command = {
  path: ["history"],
  summary: "the fee-delegation history: what the global fee payer paid",
  description: [
    `The member's fee-delegation history (${Route.path("listFeeDelegationHistory")}): each transaction whose fee the`,
    "service's global fee payer paid (--fee-payer global), with what it was charged."
  ],
  positionals: [],
  groups: [],
  subcommands: [
    {
      path: ["history", "list"],
      summary: "list the history, newest first: one page, or all with --all",
      description: [
        `List the fee-delegation history, newest first (${Route.route("listFeeDelegationHistory")}), every sender's or`,
        "--from's: one page and the cursor of the next, or every page with --all."
      ],
      positionals: [],
      groups: [
        { title: "Listing", flags: [history.from, history.pageSize, accounts.cursor, accounts.all] },
        historyOutput,
        historyConnection
      ],
      subcommands: [],
      runs: true,
      examples: [
        "kas-wallet history list --from 0xa809284C83b901eD106Aba4Ccda14628Af128e14",
        "kas-wallet history list --all --json | jq -r .chargedByKlay"
      ]
    },
    {
      path: ["history", "get"],
      summary: "show the fee-delegation record of one transaction",
      description: [
        "Show what the global fee payer was charged for one transaction",
        `(${Route.route("getFeeDelegationRecord", { "transaction-hash": "hash" })}): not found (exit 4) when it did not pay for it.`
      ],
      positionals: [{ name: "hash", description: "the transaction's hash: 0x followed by 64 hex digits" }],
      groups: [historyOutput, historyConnection],
      subcommands: [],
      runs: true,
      examples: [
        "kas-wallet history get \"$HASH\"",
        "kas-wallet history get \"$HASH\" --json | jq -r .chargedByPeb"
      ]
    }
  ],
  runs: false,
  examples: [
    "kas-wallet tx send --from \"$FROM\" --to \"$TO\" --value 1KLAY --fee-payer global",
    "kas-wallet history list --from \"$FROM\""
  ]
}

// ---------------------------------------------------------------------------------------------
// tx
// ---------------------------------------------------------------------------------------------

/**
 * The flags of the `tx` commands, by key (with the connection flags of `accounts`).
 *
 * @since 0.2.0
 * @category flags
 */
export const tx = {
  from: {
    name: "from",
    value: "ADDRESS",
    description: "the sender: an account of the pool (--pool)",
    example: "--from 0xa809284C83b901eD106Aba4Ccda14628Af128e14"
  },
  to: {
    name: "to",
    value: "ADDRESS",
    description: "the recipient: any address but the zero address",
    example: "--to 0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"
  },
  value: {
    name: "value",
    value: "AMOUNT",
    description: "amount with its unit: 1.5KLAY, 25ston or 1000peb",
    example: "--value 1.5KLAY"
  },
  memo: {
    name: "memo",
    value: "TEXT",
    description: "free text recorded in the transaction (a memo type)",
    example: "--memo \"invoice 42\""
  },
  feePayer: {
    name: "fee-payer",
    value: "global|ADDRESS",
    default: "the sender",
    description: "who pays the fee: global or your fee-payer account",
    example: "--fee-payer global"
  },
  feeRatio: {
    name: "fee-ratio",
    value: "N",
    default: "all",
    description: "fee payer's share: 1 to 99 percent",
    example: "--fee-ratio 30"
  },
  feePayerPool: {
    name: "fee-payer-pool",
    value: "KRN",
    env: "KAS_FEEPAYER_POOL",
    default: "the member's default fee-payer pool",
    description: "fee-payer pool of --fee-payer ADDRESS (x-krn's second KRN)",
    example: "--fee-payer-pool krn:1001:wallet:<member>:feepayer-pool:ops"
  },
  nonce: {
    name: "nonce",
    value: "N",
    default: "the sender's next",
    description: "the sender's nonce; another than the next is refused",
    example: "--nonce 7"
  },
  gas: {
    name: "gas",
    value: "N",
    default: "the service's (1000000)",
    description: "gas limit; it must cover the transfer's intrinsic gas",
    example: "--gas 50000"
  },
  noSubmit: {
    name: "no-submit",
    description: "sign only: print the signed transaction, send nothing",
    example: "--no-submit --json | jq -r .rlp"
  },
  wait: {
    name: "wait",
    description: "wait for the receipt (committed) and print it",
    example: "--wait"
  },
  json: {
    name: "json",
    description: "JSON: the result, then with --wait the receipt",
    example: "--json | jq -r .transactionHash"
  },
  bytecodeFile: {
    name: "bytecode-file",
    value: "FILE",
    description: "file of the bytecode: hex, or a JSON artifact",
    example: "--bytecode-file build/Token.bin",
    files: true
  },
  bytecode: {
    name: "bytecode",
    value: "HEX",
    description: "the creation bytecode itself: 0x and hex digits",
    example: "--bytecode 0x6080604052348015600e575f80fd5b50"
  },
  constructor: {
    name: "constructor",
    value: "SIGNATURE",
    description: "the constructor's signature, to encode --args",
    example: "--constructor \"constructor(uint256 supply)\""
  },
  args: {
    name: "args",
    value: "VALUE...",
    many: true,
    description: "integers, addresses, true|false, text, JSON arrays",
    example: "--args 0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa 1000"
  },
  contract: {
    name: "to",
    value: "CONTRACT",
    description: "the contract's address",
    example: "--to 0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"
  },
  method: {
    name: "method",
    value: "SIGNATURE",
    description: "the function, as name(types), to encode --args",
    example: "--method \"transfer(address,uint256)\""
  },
  callMethod: {
    name: "method",
    value: "SIGNATURE",
    description: "name(types), and returns (types) to decode the result",
    example: "--method \"balanceOf(address) returns (uint256)\""
  },
  input: {
    name: "input",
    value: "HEX",
    description: "the calldata itself, 0x and hex digits",
    example: "--input 0xa9059cbb"
  },
  payable: {
    name: "value",
    value: "AMOUNT",
    default: "none",
    description: "KLAY for a payable contract, with its unit: 1KLAY, 25ston",
    example: "--value 1KLAY"
  },
  contractGas: {
    name: "gas",
    value: "N",
    default: "the service's",
    description: "gas limit",
    example: "--gas 1000000"
  },
  caller: {
    name: "from",
    value: "ADDRESS",
    default: "the zero address",
    description: "the caller, msg.sender",
    example: "--from 0xa809284C83b901eD106Aba4Ccda14628Af128e14"
  },
  event: {
    name: "event",
    value: "SIGNATURE...",
    many: true,
    description: "decode the logs of these events",
    example: "--event \"Transfer(address indexed from,address indexed to,uint256 value)\""
  },
  callJson: {
    name: "json",
    description: "JSON: {data, result, outputs}",
    example: "--json | jq -r .outputs[0]"
  },
  legacy: {
    name: "legacy",
    description: "an Ethereum-style (legacy) transaction: the sender pays",
    example: "--legacy"
  },
  reliable: {
    name: "reliable",
    description: "sign, then submit until the outcome is known",
    example: "--reliable"
  },
  relayFrom: {
    name: "from",
    value: "ADDRESS",
    description: "checked against the RLP's sender, if given",
    example: "--from 0xa809284C83b901eD106Aba4Ccda14628Af128e14"
  },
  cancelNonce: {
    name: "nonce",
    value: "N",
    description: "the nonce of the pending transaction to cancel",
    example: "--nonce 7"
  },
  cancelHash: {
    name: "hash",
    value: "HASH",
    description: "the hash of the pending transaction to cancel",
    example: "--hash 0x0f6aafdb65534b8548decb372ebd7d9fec2251e75ad41cee317ed9924656c2c5"
  },
  data: {
    name: "data",
    value: "HEX",
    description: "the data to record: 0x and an even number of hex digits",
    example: "--data 0x5d3c4cbd2f6f1f10e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934c"
  },
  key: {
    name: "key",
    value: "JSON|FILE",
    description: "the new key: JSON {keyType, key}, or its file",
    example: "--key new-key.json",
    files: true
  },
  legacyKey: {
    name: "legacy",
    description: "the key the address was made from (keyType 1)",
    example: "--legacy"
  },
  failKey: {
    name: "fail",
    description: "the fail key: the account never sends again",
    example: "--fail"
  }
} as const satisfies Record<string, Flag>

const txSend: Command = {
  path: ["tx", "send"],
  summary: "transfer KLAY from an account of a pool",
  description: [
    `Send value from an account of the pool (${Route.route("valueTransfer")}, ${Route.path("feeDelegatedValueTransfer")} or`,
    `${Route.path("userFeeDelegatedValueTransfer")}); never retried once sent.`
  ],
  positionals: [],
  groups: [
    { title: "Transfer", flags: [tx.from, tx.to, tx.value, tx.memo, tx.feePayer, tx.feeRatio, tx.wait] },
    { title: "Rarely", flags: [tx.feePayerPool, tx.nonce, tx.gas, tx.noSubmit, tx.legacy, tx.reliable], more: true },
    { title: "Output", flags: [tx.json, accounts.verbose] },
    connection
  ],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet tx send --from \"$FROM\" --to \"$TO\" --value 1.5KLAY --wait",
    "kas-wallet tx send --from \"$FROM\" --to \"$TO\" --value 1KLAY --fee-payer global"
  ]
}

const txDeploy: Command = {
  path: ["tx", "deploy"],
  summary: "deploy a contract from an account of a pool",
  description: [
    "Deploy a contract from an account of the pool; --wait shows its address:",
    `${Route.route("contractDeploy")} (fd/, fd-user/: fee payers). Never retried.`
  ],
  positionals: [],
  groups: [
    {
      title: "Deployment",
      flags: [tx.from, tx.bytecodeFile, tx.bytecode, tx.constructor, tx.args, tx.feePayer, tx.feeRatio, tx.contractGas, tx.wait]
    },
    { title: "Rarely", flags: [tx.payable, tx.event, tx.feePayerPool, tx.nonce, tx.noSubmit, tx.legacy, tx.reliable], more: true },
    { title: "Output", flags: [tx.json, accounts.verbose] },
    connection
  ],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet tx deploy --from \"$FROM\" --bytecode-file Token.bin --wait \\",
    "  --constructor \"constructor(uint256 supply)\" --args 1000 --fee-payer global"
  ]
}

const txExecute: Command = {
  path: ["tx", "execute"],
  summary: "execute a contract's function from an account of a pool",
  description: [
    "Run a contract's function from a pool's account, by --method and --args or by",
    `--input: ${Route.route("contractExecution")} (fd/, fd-user/: fee payer). Never retried.`
  ],
  positionals: [],
  groups: [
    {
      title: "Execution",
      flags: [tx.from, tx.contract, tx.method, tx.args, tx.input, tx.feePayer, tx.feeRatio, tx.wait, tx.event]
    },
    { title: "Rarely", flags: [tx.payable, tx.feePayerPool, tx.nonce, tx.contractGas, tx.noSubmit, tx.legacy, tx.reliable], more: true },
    { title: "Output", flags: [tx.json, accounts.verbose] },
    connection
  ],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet tx execute --from \"$FROM\" --to \"$TOKEN\" --fee-payer global \\",
    "  --method \"transfer(address,uint256)\" --args \"$TO\" 1000 --wait"
  ]
}

// The flags every new kind shares after its own: who pays, waiting, and how it is sent.
const txRarely: Group = { title: "Rarely", flags: [tx.feePayerPool, tx.nonce, tx.contractGas, tx.noSubmit], more: true }
const txOutput: Group = { title: "Output", flags: [tx.json, accounts.verbose] }

const txRelay: Command = {
  path: ["tx", "relay"],
  summary: "send a transaction given as RLP (a pool account's, or signed)",
  description: [
    "Send an RLP-encoded transaction (0x hex, at most 64 KiB) from <file> or stdin: a pool",
    "account's, which the service signs, or a signed one (the rlp of a failed --reliable):",
    `${Route.route("processRlp")} (fd/, fd-user/: fee payers).`
  ],
  positionals: [{ name: "file", description: "file of the RLP; - or none: stdin", optional: true }],
  groups: [
    { title: "Transaction", flags: [tx.relayFrom, tx.feePayer, tx.feeRatio, tx.wait, tx.reliable] },
    { title: "Rarely", flags: [tx.feePayerPool, tx.noSubmit], more: true },
    txOutput,
    connection
  ],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet tx relay signed.rlp --wait",
    "jq -r .rlp failed.json | kas-wallet tx relay - --fee-payer global"
  ]
}

const txCancel: Command = {
  path: ["tx", "cancel"],
  summary: "cancel a pending transaction of an account of a pool",
  description: [
    "Replace the sender's pending transaction, given by --nonce or by --hash (exactly one),",
    `with a cancel transaction: ${Route.route("cancelTransaction")} (${Route.path("feeDelegatedCancelTransaction")},`,
    `${Route.path("userFeeDelegatedCancelTransaction")}: fee payers).`
  ],
  positionals: [],
  groups: [
    { title: "Cancellation", flags: [tx.from, tx.cancelNonce, tx.cancelHash, tx.feePayer, tx.feeRatio, tx.wait, tx.reliable] },
    { title: "Rarely", flags: [tx.feePayerPool, tx.contractGas, tx.noSubmit], more: true },
    txOutput,
    connection
  ],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet tx cancel --from \"$FROM\" --nonce 7 --wait",
    "kas-wallet tx cancel --from \"$FROM\" --hash \"$HASH\" --fee-payer global"
  ]
}

const txAnchor: Command = {
  path: ["tx", "anchor"],
  summary: "record data on the chain (chain data anchoring)",
  description: [
    "Record data (a document's hash, say) on the chain from an account of the pool:",
    `${Route.route("anchorTransaction")} (fd/, fd-user/: fee payers).`
  ],
  positionals: [],
  groups: [
    { title: "Anchoring", flags: [tx.from, tx.data, tx.feePayer, tx.feeRatio, tx.wait, tx.reliable] },
    txRarely,
    txOutput,
    connection
  ],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet tx anchor --from \"$FROM\" --wait \\",
    "  --data \"0x$(sha256sum < doc.pdf | cut -c1-64)\""
  ]
}

const txUpdateKey: Command = {
  path: ["tx", "update-key"],
  summary: "set the account key of an account of a pool",
  description: [
    `Set the key of a pool's account (one of --key, --legacy, --fail): ${Route.route("accountUpdate")}`,
    "(fd/, fd-user/: fee payers). WARNING: a key KAS does not hold makes the account",
    "unusable through KAS; --fail disables it for good."
  ],
  positionals: [],
  groups: [
    { title: "Account update", flags: [tx.from, tx.key, tx.legacyKey, tx.failKey, tx.feePayer, tx.feeRatio, tx.wait, tx.reliable] },
    txRarely,
    txOutput,
    connection
  ],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet tx update-key --from \"$FROM\" --key multisig.json --wait",
    "kas-wallet tx update-key --from \"$FROM\" --legacy --fee-payer global"
  ]
}

const txCall: Command = {
  path: ["tx", "call"],
  summary: "call a contract's function, read only",
  description: [
    `Call a function of a contract against the latest state (${Route.route("callContract")}): nothing is`,
    "signed or sent. Prints the calldata, the raw result and, with returns (...), the decoded outputs."
  ],
  positionals: [],
  groups: [
    { title: "Call", flags: [tx.contract, tx.callMethod, tx.args, tx.caller] },
    { title: "Rarely", flags: [tx.payable, tx.contractGas], more: true },
    { title: "Output", flags: [tx.callJson, accounts.verbose] },
    connection
  ],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet tx call --to \"$TOKEN\" --method \"symbol() returns (string)\" --json",
    "kas-wallet tx call --to \"$TOKEN\" --args \"$FROM\" \\",
    "  --method \"balanceOf(address owner) view returns (uint256 balance)\""
  ]
}

const txReceipt: Command = {
  path: ["tx", "receipt"],
  summary: "show the receipt of a transaction",
  description: [
    `Show the receipt of a transaction (${Route.route("getTransactionReceipt", { "transaction-hash": "hash" })}): Pending until its block, then Committed`,
    "(or CommitError) with the block, the gas, the fee, a contract's address and the logs. With",
    "--wait, poll until it is in a block."
  ],
  positionals: [{ name: "hash", description: "0x followed by 64 hex digits" }],
  groups: [{ title: "Output", flags: [tx.wait, tx.event, tx.json, accounts.verbose] }, connection],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet tx receipt \"$HASH\"",
    "kas-wallet tx receipt \"$HASH\" --wait --json | jq -r .status",
    "kas-wallet tx receipt \"$HASH\" \\",
    "  --event \"Transfer(address indexed from,address indexed to,uint256 value)\""
  ]
}

const txSign: Command = {
  path: ["tx", "sign"],
  summary: "an account's signature of a pending multisig transaction (not kept)",
  description: [
    `Sign a pending multisig transaction with an account of the pool (${Route.route("signTransactionById")}):`,
    "prints the signature {V, R, S}, which the",
    "service does not keep; kas-wallet accounts multisig append adds it."
  ],
  positionals: [addressArgument, transactionIdArgument],
  groups: [{ title: "Output", flags: [tx.json, accounts.verbose] }, connection],
  subcommands: [],
  runs: true,
  examples: [
    'kas-wallet tx sign "$C" "$TX_ID"',
    'kas-wallet tx sign "$C" "$TX_ID" --json > signature.json'
  ]
}

const txGroup: Command = {
  path: ["tx"],
  summary: "send value, deploy, execute and call contracts, read receipts",
  description: [
    "Value transfers, contract deployments and executions, raw (RLP) transactions, cancellations,",
    "anchorings and account-key updates from the accounts of a pool, their fee paid by the sender,",
    "the service (global fee payer) or your fee-payer account; read-only calls; receipts.",
    "Connection flags as for accounts."
  ],
  positionals: [],
  groups: [],
  subcommands: [txSend, txDeploy, txExecute, txRelay, txCancel, txAnchor, txUpdateKey, txCall, txReceipt, txSign],
  runs: false,
  examples: [
    "kas-wallet emulator fund 0xa809284C83b901eD106Aba4Ccda14628Af128e14 10KLAY",
    "kas-wallet tx send --from \"$FROM\" --to \"$TO\" --value 1KLAY --fee-payer global",
    "kas-wallet tx deploy --from \"$FROM\" --bytecode-file Token.bin --wait"
  ]
}

// ---------------------------------------------------------------------------------------------
// emulator
// ---------------------------------------------------------------------------------------------

/**
 * The flags of `kas-wallet emulator` that are not options of the emulator itself, by key.
 *
 * @since 0.1.0
 * @category flags
 */
export const emulator = {
  dataDir: {
    name: "data-dir",
    value: "DIR",
    env: "KAS_EMULATOR_DATA_DIR",
    default: "~/.kas-wallet/emulator, or under $XDG_DATA_HOME",
    description: "keeps the database and keys",
    example: "--data-dir ./.emulator",
    files: true
  },
  ephemeral: {
    name: "ephemeral",
    description: "a throwaway run in memory: nothing kept",
    example: "--ephemeral --port 0"
  },
  secretAccessKeyFile: {
    name: "secret-access-key-file",
    value: "PATH",
    env: "KAS_SECRET_ACCESS_KEY_FILE",
    description: "file holding that Secret AccessKey",
    example: "--secret-access-key-file ./secret",
    files: true
  },
  consoleDb: {
    name: "db",
    value: "PATH|URL",
    env: "KAS_EMULATOR_DB",
    default: "<data dir>/emulator.db",
    description: "database of the emulator",
    example: "--db ./emulator.db",
    files: true
  },
  accountId: {
    name: "account-id",
    value: "ID",
    description: "account id of the member (a UUID, as printed by member create)",
    example: "--account-id 6c5f6a1e-0d3b-4f5e-9a0c-2f1e4d3c2b1a"
  },
  newAccountId: {
    name: "account-id",
    value: "ID",
    default: "a fresh UUID",
    description: "account id to give the member",
    example: "--account-id team-a"
  },
  withKey: {
    name: "with-key",
    description: "also create an API key for it (its secret is printed once)",
    example: "--with-key"
  },
  keyId: {
    name: "access-key-id",
    value: "ID",
    description: "AccessKey ID of the key",
    example: "--access-key-id KASK..."
  },
  poolChain: {
    name: "chain",
    value: "ID",
    description: "chain: 8217 (mainnet) or 1001 (testnet)",
    example: "--chain 1001",
    choices: ["8217", "1001"]
  },
  chainId: {
    name: "chain-id",
    value: "ID",
    description: "the same as --chain (an older spelling)",
    example: "--chain-id 1001",
    choices: ["8217", "1001"]
  },
  optionalPoolChain: {
    name: "chain",
    value: "ID",
    default: "both",
    description: "only the pools of this chain: 8217 or 1001",
    example: "--chain 8217",
    choices: ["8217", "1001"]
  },
  optionalChainId: {
    name: "chain-id",
    value: "ID",
    description: "the same as --chain (an older spelling)",
    example: "--chain-id 8217",
    choices: ["8217", "1001"]
  },
  name: {
    name: "name",
    value: "NAME",
    description: "name of the pool",
    example: "--name payroll"
  },
  feePayer: {
    name: "fee-payer",
    description: "fee-payer pools (feepayer-pool) rather than account pools",
    example: "--fee-payer"
  }
} as const satisfies Record<string, Flag>

/**
 * The flags of `kas-wallet emulator fund | balance | bill`, by key.
 *
 * @since 0.2.0
 * @category flags
 */
export const ledger = {
  url: {
    name: "url",
    value: "URL",
    env: "KAS_WALLET_URL",
    default: "KAS_WALLET_URL when set, else the database",
    description: "a running emulator, with the key of the KAS_* settings",
    example: "--url http://127.0.0.1:8787"
  },
  billChain: {
    name: "chain",
    value: "ID",
    default: "both",
    description: "only the bills of this chain: 8217 or 1001",
    example: "--chain 1001",
    choices: ["8217", "1001"]
  },
  accountId: {
    name: "account-id",
    value: "ID",
    default: "every member",
    description: "only the bill of this member",
    example: "--account-id 6c5f6a1e-0d3b-4f5e-9a0c-2f1e4d3c2b1a"
  },
  json: {
    name: "json",
    description: "JSON output, amounts in peb as decimal strings",
    example: "--json | jq -r .balance"
  },
  mineChain: {
    name: "chain",
    value: "ID",
    default: "both",
    description: "only make blocks on this chain: 8217 or 1001",
    example: "--chain 1001",
    choices: ["8217", "1001"]
  },
  blocks: {
    name: "blocks",
    value: "N",
    default: "1",
    description: "how many blocks to make (1 to 1000); the first holds every pending transaction",
    example: "--blocks 3"
  }
} as const satisfies Record<string, Flag>

/**
 * The flag of an emulator option of `EmulatorConfig.fields`, with the defaults of
 * `kas-wallet emulator` where they differ from the library's layer.
 *
 * @since 0.1.0
 * @category flags
 */
export const emulatorFlag = (field: EmulatorConfig.Field): Flag => {
  const defaults: Record<string, string> = {
    port: String(DefaultEmulatorPort),
    db: "<data dir>/emulator.db"
  }
  // Where a secret can be read from a file instead of the command line.
  const alternatives: Record<string, string> = {
    "master-key": "master-key-file",
    "secret-access-key": "secret-access-key-file"
  }
  const fallback = defaults[field.flag] ?? field.default
  return {
    name: field.flag,
    value: field.value,
    env: field.env,
    ...(fallback !== undefined ? { default: fallback } : {}),
    description: field.description,
    example: `--${field.flag} ${field.example}`,
    ...(field.secret ? { secret: true } : {}),
    ...(alternatives[field.flag] !== undefined ? { alternative: alternatives[field.flag] } : {}),
    ...(field.kind === "string" && (field.flag === "db" || field.flag.endsWith("-file")) ? { files: true } : {})
  }
}

const consoleCommand = (
  path: ReadonlyArray<string>,
  summary: string,
  flags: ReadonlyArray<Flag>,
  example: string
): Command => ({
  path,
  summary,
  description: [`${summary[0]!.toUpperCase()}${summary.slice(1)}, directly in the emulator's database.`],
  positionals: [],
  groups: [{ title: "Options", flags: [...flags, emulator.dataDir, emulator.consoleDb] }],
  subcommands: [],
  runs: true,
  examples: [example]
})

const consoleGroup = (name: string, summary: string, subcommands: ReadonlyArray<Command>): Command => ({
  path: ["emulator", name],
  summary,
  description: [`${summary[0]!.toUpperCase()}${summary.slice(1)}, directly in the emulator's database (running or not).`],
  positionals: [],
  groups: [],
  subcommands,
  runs: false,
  examples: subcommands.flatMap((c) => c.examples.slice(0, 1))
})

const emulatorSubcommands: ReadonlyArray<Command> = [
  {
    path: ["emulator", "env"],
    summary: "print the KAS_* shell settings of its stored member",
    description: [
      "Print export lines for KAS_WALLET_URL, KAS_CHAIN_ID, KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY",
      "(read from its file, never printed), so that kas-wallet accounts and your programs use the emulator."
    ],
    positionals: [],
    groups: [{ title: "Options", flags: [emulator.dataDir] }],
    subcommands: [],
    runs: true,
    examples: ["eval \"$(kas-wallet emulator env)\""]
  },
  consoleGroup("member", "create and list members (service accounts)", [
    consoleCommand(["emulator", "member", "create"], "create a member, with a default pool on each chain", [
      emulator.newAccountId,
      emulator.withKey
    ], "kas-wallet emulator member create --with-key"),
    consoleCommand(["emulator", "member", "list"], "list the members", [], "kas-wallet emulator member list")
  ]),
  consoleGroup("key", "create, list and delete API keys of members", [
    consoleCommand(
      ["emulator", "key", "create"],
      "create an API key (at most 2 per member); prints its secret once",
      [emulator.accountId],
      "kas-wallet emulator key create --account-id <id>"
    ),
    consoleCommand(
      ["emulator", "key", "list"],
      "list the API keys of a member, never their secrets",
      [emulator.accountId],
      "kas-wallet emulator key list --account-id <id>"
    ),
    consoleCommand(
      ["emulator", "key", "delete"],
      "delete an API key of a member",
      [emulator.accountId, emulator.keyId],
      "kas-wallet emulator key delete --account-id <id> --access-key-id KASK..."
    )
  ]),
  consoleGroup("pool", "create and list account and fee-payer pools", [
    consoleCommand(
      ["emulator", "pool", "create"],
      "create a named account pool (or fee-payer pool) on a chain; prints its KRN",
      [emulator.accountId, emulator.poolChain, emulator.chainId, emulator.name, emulator.feePayer],
      "kas-wallet emulator pool create --account-id <id> --chain 1001 --name pay"
    ),
    consoleCommand(
      ["emulator", "pool", "list"],
      "list the account pools (or fee-payer pools) of a member",
      [emulator.accountId, emulator.optionalPoolChain, emulator.optionalChainId, emulator.feePayer],
      "kas-wallet emulator pool list --account-id <id>"
    )
  ]),
  {
    path: ["emulator", "fund"],
    summary: "credit test value to an address (a faucet)",
    description: [
      "Credit test value to an address on a chain (the wire API has no faucet): through a running",
      "emulator (--url, KAS_WALLET_URL), or in a database, to its accounts and fee-payer accounts only."
    ],
    positionals: [
      { name: "address", description: "0x followed by 40 hex digits" },
      { name: "amount", description: "with its unit: 1.5KLAY, 25ston or 1000peb" }
    ],
    groups: [{ title: "Options", flags: [accounts.chain, ledger.json, ledger.url, emulator.dataDir, emulator.consoleDb] }],
    subcommands: [],
    runs: true,
    examples: ["kas-wallet emulator fund 0xa809284C83b901eD106Aba4Ccda14628Af128e14 10KLAY"]
  },
  {
    path: ["emulator", "balance"],
    summary: "show the balance and nonce of any address",
    description: [
      "Show the balance (KLAY and peb) and next nonce of any address on a chain, from a running",
      "emulator (--url, KAS_WALLET_URL) or a database."
    ],
    positionals: [{ name: "address", description: "0x followed by 40 hex digits" }],
    groups: [{ title: "Options", flags: [accounts.chain, ledger.json, ledger.url, emulator.dataDir, emulator.consoleDb] }],
    subcommands: [],
    runs: true,
    examples: ["kas-wallet emulator balance 0xa809284C83b901eD106Aba4Ccda14628Af128e14"]
  },
  {
    path: ["emulator", "bill"],
    summary: "show what the global fee payer paid for each member",
    description: [
      "Show the global fee payer's bills: the fees it paid for each member's fee-delegated transfers",
      `(${Route.route("feeDelegatedValueTransfer")}) on each chain, from a running emulator (--url) or a database.`
    ],
    positionals: [],
    groups: [{ title: "Options", flags: [ledger.billChain, ledger.accountId, ledger.json, ledger.url, emulator.dataDir, emulator.consoleDb] }],
    subcommands: [],
    runs: true,
    examples: ["kas-wallet emulator bill --chain 1001"]
  },
  {
    path: ["emulator", "mine"],
    summary: "make blocks now (with --mining manual)",
    description: [
      "Make blocks on a running emulator started with --mining manual (--url, KAS_WALLET_URL): the",
      "first holds every pending transaction, in the order they were accepted; their receipts are",
      "Committed when this answers."
    ],
    positionals: [],
    groups: [{ title: "Options", flags: [ledger.mineChain, ledger.blocks, ledger.json, ledger.url] }],
    subcommands: [],
    runs: true,
    examples: ["kas-wallet emulator mine --chain 1001"]
  }
]

const emulatorCommand = (fields: typeof EmulatorConfig.fields | undefined): Command => {
  const f = (name: EmulatorConfig.Name): ReadonlyArray<Flag> => fields !== undefined ? [emulatorFlag(fields[name])] : []
  return {
    path: ["emulator"],
    summary: "run a local emulator of the wallet API, which keeps its data",
    description: [
      "Serve a local KAS wallet API that keeps its data in a data directory; print the KAS_*",
      "settings to eval, then `listening on URL`. Ctrl-C stops it."
    ],
    positionals: [],
    groups: [
      {
        title: "Server and data",
        flags: [...f("host"), ...f("port"), emulator.dataDir, emulator.ephemeral, ...f("blockInterval")]
      },
      {
        title: "Storage, mining and faults",
        flags: [
          ...f("database"),
          ...f("authToken"),
          ...f("masterKey"),
          ...f("masterKeyFile"),
          ...f("mining"),
          ...f("faultRate"),
          ...f("faultSeed"),
          ...f("faultKinds"),
          ...f("faultLatency"),
          ...f("faultRetryAfter")
        ],
        more: true
      },
      {
        title: "Member key (default: the stored one)",
        flags: [...f("accessKeyId"), emulator.secretAccessKeyFile, ...f("secretAccessKey"), ...f("accountId")],
        more: true
      }
    ],
    subcommands: emulatorSubcommands,
    runs: true,
    examples: [
      "kas-wallet emulator   # then elsewhere: eval \"$(kas-wallet emulator env)\"",
      "kas-wallet emulator --ephemeral --block-interval \"200 millis\" --fault-rate 0.2"
    ]
  }
}

// ---------------------------------------------------------------------------------------------
// root
// ---------------------------------------------------------------------------------------------

/**
 * The root's own flags.
 *
 * @since 0.1.0
 * @category flags
 */
export const root = {
  help: { name: "help", description: "show help; after a command, its own help", example: "kas-wallet accounts list --help" },
  version: { name: "version", description: "print the version", example: "kas-wallet --version" },
  completions: {
    name: "completions",
    value: "bash",
    description: "print a bash completion script",
    example: "source <(kas-wallet --completions bash)",
    choices: ["bash"]
  }
} as const satisfies Record<string, Flag>

const migrate: Command = {
  path: ["migrate"],
  summary: "bring existing Klaytn accounts under KAS custody, from a file of their keys",
  description: [
    "Migrate existing accounts into the pool (migrateAccounts): keys created, each account's",
    "update to its key signed here with its private key, registered. The keys are read from a JSON",
    "file or stdin, never a flag, never printed: [{address, privateKey | privateKeys, nonce?, gasPrice?}].",
    "Nonce and gas price not given are read from the KAS Node API (--node-url)."
  ],
  positionals: [{ name: "file", description: "JSON file of the accounts and their private keys, or - for stdin" }],
  groups: [
    { title: "Migration", flags: [migration.gasPrice] },
    { title: "Output", flags: [migration.json, accounts.verbose] },
    { ...connection, flags: [...connection.flags, migration.nodeUrl] }
  ],
  subcommands: [],
  runs: true,
  examples: [
    "kas-wallet migrate accounts.json",
    "pass show klaytn/accounts.json | kas-wallet migrate - --json",
    "kas-wallet migrate accounts.json --node-url \"$KAS_WALLET_URL/v1/klaytn\""
  ]
}

const tour: Command = {
  path: ["tour"],
  summary: "a guided tour of the library against an in-process emulator",
  description: ["A walk through the library against an emulator started in-process: no key, no network."],
  positionals: [],
  groups: [],
  subcommands: [],
  runs: true,
  examples: ["kas-wallet tour        # npm start, in a clone"]
}

/**
 * The whole table. Without `emulatorFields` (`EmulatorConfig.fields`) the emulator's own flags are
 * left out: only `kas-wallet emulator --help` and the completions need them, and loading them costs
 * part of effect.
 *
 * @since 0.1.0
 * @category constructors
 */
export const tree = (emulatorFields?: typeof EmulatorConfig.fields): Command => ({
  path: [],
  summary: "the KAS wallet API from the command line",
  description: [
    "The KAS wallet API from the command line: accounts, fee-payer accounts, transfers, keys and",
    "the fee-delegation history of the service or of a local emulator, the emulator itself, and a",
    "tour of the effect-kas-wallet library."
  ],
  positionals: [],
  groups: [{ title: "Options", flags: [root.help, root.version, root.completions] }],
  subcommands: [accountsGroup, feePayersGroup, txGroup, keysGroup, historyGroup, migrate, emulatorCommand(emulatorFields), tour],
  runs: false,
  examples: [
    "kas-wallet emulator                  # a local emulator that keeps its data",
    "eval \"$(kas-wallet emulator env)\"    # in another shell: use it",
    "kas-wallet accounts list --all --json > accounts.ndjson"
  ]
})

/**
 * Every command of a table, depth first.
 *
 * @since 0.1.0
 * @category utils
 */
export const all = (command: Command): ReadonlyArray<Command> => [command, ...command.subcommands.flatMap(all)]

/**
 * Every flag of a command.
 *
 * @since 0.1.0
 * @category utils
 */
export const flags = (command: Command): ReadonlyArray<Flag> => command.groups.flatMap((g) => g.flags)

/**
 * The command a path of words names, following subcommands as far as they match.
 *
 * @since 0.1.0
 * @category utils
 */
export const find = (command: Command, words: ReadonlyArray<string>): Command => {
  let current = command
  for (const word of words) {
    const next = current.subcommands.find((c) => c.path[c.path.length - 1] === word)
    if (next === undefined) break
    current = next
  }
  return current
}

/**
 * Whether the emulator's option table is needed for this command line (help or completions of the
 * `emulator` command itself).
 *
 * @since 0.1.0
 * @category utils
 */
export const needsEmulatorFields = (args: ReadonlyArray<string>): boolean =>
  args[0] === "emulator" || args.includes("--completions")
