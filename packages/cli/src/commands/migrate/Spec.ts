/**
 * The command table of `kas-wallet migrate` (and the flags `accounts register` shares with it):
 * existing Klaytn accounts brought under KAS custody. The handlers are in `Handlers`.
 *
 * Plain data with no runtime import but the table's own (help stays free of effect).
 *
 * @since 0.9.0
 */
import * as Spec from "../../input/Spec.js"
import * as Shared from "../shared/Spec.js"

/**
 * The flags of `migrate` and `accounts register`, by key (with the connection flags of
 * `Shared`, the node's URL among them).
 *
 * @since 0.8.0
 * @category flags
 */
export const flags = {
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
} as const satisfies Record<string, Spec.Flag>

/**
 * `kas-wallet migrate`.
 *
 * @since 0.9.0
 * @category commands
 */
export const spec = Spec.command({
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
    { title: "Migration", flags: [flags.gasPrice] },
    Shared.outputOf(flags.json),
    { ...Shared.connection, flags: [...Shared.connection.flags, Shared.flags.nodeUrl] }
  ],
  examples: [
    "kas-wallet migrate accounts.json",
    "pass show klaytn/accounts.json | kas-wallet migrate - --json",
    "kas-wallet migrate accounts.json --node-url \"$KAS_WALLET_URL/v1/klaytn\""
  ]
})
