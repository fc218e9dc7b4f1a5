/**
 * The command table of `kas-wallet emulator fund | balance | bill | mine | snapshot | revert | time`: the emulator's ledger,
 * through a running emulator or in its database. The handlers are in `Handlers`.
 *
 * Plain data with no runtime import but the table's own (help stays free of effect).
 *
 * @since 0.9.0
 */
import * as Route from "../../../input/Route.js"
import * as Spec from "../../../input/Spec.js"
import * as Shared from "../../shared/Spec.js"
import * as ConsoleSpec from "../console/Spec.js"

/**
 * The flags of `kas-wallet emulator fund | balance | bill | mine | snapshot | revert | time`, by key.
 *
 * @since 0.2.0
 * @category flags
 */
export const flags = {
  url: {
    name: "url",
    value: "URL",
    env: "KAS_WALLET_URL",
    default: "KAS_WALLET_URL when set, else the database",
    description: "a running emulator, with the key of the KAS_* settings",
    example: "--url http://127.0.0.1:8787"
  },
  billChain: Shared.chainFlag({
    name: "chain",
    default: "both",
    description: "only the bills of this chain: 8217 or 1001",
    example: "--chain 1001"
  }),
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
  mineChain: Shared.chainFlag({
    name: "chain",
    default: "both",
    description: "only make blocks on this chain: 8217 or 1001",
    example: "--chain 1001"
  }),
  blocks: {
    name: "blocks",
    value: "N",
    default: "1",
    description: "how many blocks to make (1 to 1000); the first holds every pending transaction",
    example: "--blocks 3"
  }
} as const satisfies Record<string, Spec.Flag>

/** The options of a command that works through a running emulator or in its database. */
const options = (...own: ReadonlyArray<Spec.Flag>): Spec.Group => ({
  title: "Options",
  flags: [...own, flags.json, Shared.flags.wide, flags.url, ...ConsoleSpec.database]
})

const verb = Spec.verbsUnder(["emulator"], [])

/**
 * `kas-wallet emulator fund | balance | bill | mine | snapshot | revert | time`.
 *
 * @since 0.9.0
 * @category commands
 */
export const commands = [
  verb("fund", "credit test value to an address (a faucet)", [
    "Credit test value to an address on a chain (the wire API has no faucet): through a running",
    "emulator (--url, KAS_WALLET_URL), or in a database, to its accounts and fee-payer accounts only."
  ], [Shared.address, { name: "amount", description: "with its unit: 1.5KLAY, 25ston or 1000peb" }], [options(Shared.flags.chain)], [
    "kas-wallet emulator fund 0xa809284C83b901eD106Aba4Ccda14628Af128e14 10KLAY"
  ]),
  verb("balance", "show the balance and nonce of any address", [
    "Show the balance (KLAY and peb) and next nonce of any address on a chain, from a running",
    "emulator (--url, KAS_WALLET_URL) or a database."
  ], [Shared.address], [options(Shared.flags.chain)], ["kas-wallet emulator balance 0xa809284C83b901eD106Aba4Ccda14628Af128e14"]),
  verb("bill", "show what the global fee payer paid for each member", [
    "Show the global fee payer's bills: the fees it paid for each member's fee-delegated transfers",
    `(${Route.route("feeDelegatedValueTransfer")}) on each chain, from a running emulator (--url) or a database.`
  ], [], [options(flags.billChain, flags.accountId)], ["kas-wallet emulator bill --chain 1001"]),
  verb("mine", "make blocks now (with --mining manual)", [
    "Make blocks on a running emulator started with --mining manual (--url, KAS_WALLET_URL): the",
    "first holds every pending transaction, in the order they were accepted; their receipts are",
    "Committed when this answers."
  ], [], [{ title: "Options", flags: [flags.mineChain, flags.blocks, flags.json, Shared.flags.wide, flags.url] }], ["kas-wallet emulator mine --chain 1001"]),
  verb("snapshot", "snapshot the whole emulator; prints its id", [
    "Take a snapshot of a running emulator (--url, KAS_WALLET_URL): every member's accounts, keys,",
    "pools, balances, nonces, contracts, pending transactions, multisig transactions, bills and",
    "history, on both chains. Prints its id, for `kas-wallet emulator revert`."
  ], [], [{ title: "Options", flags: [flags.json, flags.url] }], ["id=$(kas-wallet emulator snapshot)"]),
  verb("revert", "bring the whole emulator back to a snapshot", [
    "Bring a running emulator (--url, KAS_WALLET_URL) back to a snapshot. The snapshot and those",
    "taken after it are dropped: an id reverts once (take another snapshot to go back again)."
  ], [{ name: "id", description: "a snapshot's id, as `kas-wallet emulator snapshot` printed it" }], [{ title: "Options", flags: [flags.json, flags.url] }], [
    "kas-wallet emulator revert 0x1"
  ]),
  verb("time", "set the time of the next block", [
    "Set the time of the next block of a running emulator (--url, KAS_WALLET_URL), on both chains;",
    "the chain's time runs on from it. It cannot go before the latest block."
  ], [{ name: "time", description: "Unix seconds, or a date: 2030-01-01T00:00:00Z" }], [{ title: "Options", flags: [flags.json, flags.url] }], [
    "kas-wallet emulator time 2030-01-01T00:00:00Z"
  ])
] as const
