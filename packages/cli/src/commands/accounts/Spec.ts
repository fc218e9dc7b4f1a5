/**
 * The command table of `kas-wallet accounts`: create, get, list, count, by-public-key, disable,
 * enable, delete, register, and the `multisig` group (`multisig/Spec`). The handlers are in
 * `Handlers`.
 *
 * Plain data with no runtime import but the table's own (help stays free of effect).
 *
 * @since 0.9.0
 */
import * as Route from "../../input/Route.js"
import * as Spec from "../../input/Spec.js"
import * as Migrate from "../migrate/Spec.js"
import * as Shared from "../shared/Spec.js"
import * as Multisig from "./multisig/Spec.js"

/**
 * The flags of the `accounts` commands of their own, by key (the others are `Shared`'s).
 *
 * @since 0.9.0
 * @category flags
 */
export const flags = {
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
  }
} as const satisfies Record<string, Spec.Flag>

const verb = Spec.verbsUnder(["accounts"], [Shared.output, Shared.connection])

/** A command on one account: its summary opens the description, the operation it calls after it. */
const onAddress = <const V extends string>(name: V, operation: Route.Operation, lines: ReadonlyArray<string>, example: string) =>
  verb(name, lines[0]!, [`${Spec.sentence(lines[0]!)} (${Route.route(operation)}).`, ...lines.slice(1)], [Shared.address], [], [
    example,
    `${example} --json`
  ])

const address = "0xa809284C83b901eD106Aba4Ccda14628Af128e14"

/**
 * `kas-wallet accounts` and its commands.
 *
 * @since 0.9.0
 * @category commands
 */
export const spec = Spec.parent({
  path: ["accounts"],
  summary: "create, get, list, count, find, disable, enable, delete accounts; multisig accounts",
  description: [
    "Accounts of the KAS wallet API, or of the emulator (--url). The key comes from",
    "KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY (or their flags, or a secret file)."
  ],
  subcommands: [
    verb("create", "create an account in a pool", [
      `Create an account in the selected pool (${Route.route("createAccount")}) and print it.`
    ], [], [], [
      "kas-wallet accounts create",
      "kas-wallet accounts create --pool krn:1001:wallet:<member>:account-pool:pay"
    ]),
    verb("get", "show one account by address", [
      `Show one account (${Route.route("getAccount")}). Any case is accepted; a mixed-case address must`,
      "carry a valid EIP-55 checksum."
    ], [Shared.address], [], [
      `kas-wallet accounts get ${address}`,
      "kas-wallet accounts get 0xa809284c83b901ed106aba4ccda14628af128e14 --json"
    ]),
    verb("list", "list accounts, newest first: one page, or all with --all", [
      `List the accounts of a pool, newest first (${Route.route("listAccounts")}): one page and the cursor of the`,
      "next, or every page with --all. A failed --all prints the --cursor that resumes it."
    ], [], [{ title: "Listing", flags: [flags.status, ...Shared.paging] }], [
      "kas-wallet accounts list --page-size 20",
      "kas-wallet accounts list --page-size 20 --cursor eyJ2IjoxLCJ0Ijo...   # page 2",
      "kas-wallet accounts list --status disabled",
      "kas-wallet accounts list --all --json --from 2024-01-01 > accounts.ndjson"
    ]),
    verb("count", "count the member's accounts, or one pool's", [
      `Count the accounts of the member on the chain, in every pool (${Route.route("accountCount")}); with --pool`,
      `(or KAS_ACCOUNT_POOL), of that pool (${Route.route("accountCountByPool")}). Disabled ones count, deleted ones not.`
    ], [], [{ title: "Counting", flags: [flags.allPools] }], [
      "kas-wallet accounts count",
      "kas-wallet accounts count --pool krn:1001:wallet:<member>:account-pool:pay"
    ]),
    verb("by-public-key", "find the member's accounts of a public key", [
      `List the member's accounts of a public key on the chain, in every pool (${Route.route("accountsByPublicKey")}):`,
      "address and chain of each; deleted ones never."
    ], [{ name: "public-key", description: "0x04 + 128 hex digits, 0x02/0x03 + 64, or 0x + 128" }], [], [
      "kas-wallet accounts by-public-key 0x04cdccfb99b2905561e3dd886687b429a0...",
      "kas-wallet accounts by-public-key \"$(jq -r .publicKey account.json)\" --json"
    ]),
    onAddress("disable", "disableAccount", [
      "disable an enabled account",
      "It still answers get, is listed only with --status disabled or all, and cannot send."
    ], `kas-wallet accounts disable ${address}`),
    onAddress("enable", "enableAccount", ["enable a disabled account"], `kas-wallet accounts enable ${address}`),
    onAddress("delete", "deleteAccount", [
      "delete an account of a pool",
      "It is gone from get, list, counts and by-public-key; its key is destroyed. Enabled or disabled."
    ], `kas-wallet accounts delete ${address}`),
    Multisig.spec,
    Spec.command({
      path: ["accounts", "register"],
      summary: "register existing accounts under keys of the key service",
      description: [
        "Register existing Klaytn accounts in the pool under keys of the key service",
        `(${Route.route("registerAccounts")}), from a JSON file or stdin: [{keyId, address, rlp?}], rlp a signed`,
        "fee-delegated account update to the key. Prints each account's outcome. `migrate` builds it all."
      ],
      positionals: [{ name: "file", description: "JSON file of [{keyId, address, rlp?}], or - for stdin" }],
      groups: [Shared.outputOf(Migrate.flags.json), Shared.connection],
      examples: [
        "kas-wallet accounts register registrations.json",
        "jq '[.[] | {keyId, address}]' keys.json | kas-wallet accounts register -"
      ]
    })
  ],
  examples: [
    "eval \"$(kas-wallet emulator env)\"   # use the local emulator's key",
    "kas-wallet accounts create && kas-wallet accounts list"
  ]
})
