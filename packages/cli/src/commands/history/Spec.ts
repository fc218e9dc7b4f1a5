/**
 * The command table of `kas-wallet history list | get`: the member's fee-delegation history. The
 * handlers are in `Handlers`.
 *
 * Plain data with no runtime import but the table's own (help stays free of effect).
 *
 * @since 0.9.0
 */
import * as Route from "../../input/Route.js"
import * as Spec from "../../input/Spec.js"
import * as Shared from "../shared/Spec.js"

/**
 * The flags of the `history` commands of their own, by key: the connection is `Shared`'s but the
 * pools (the history spans the member's pools).
 *
 * @since 0.8.0
 * @category flags
 */
export const flags = {
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
} as const satisfies Record<string, Spec.Flag>

const verb = Spec.verbsUnder(["history"], [Shared.outputOf(flags.json), Shared.connectionOf()])

/**
 * `kas-wallet history` and its commands.
 *
 * @since 0.9.0
 * @category commands
 */
export const spec = Spec.parent({
  path: ["history"],
  summary: "the fee-delegation history: what the global fee payer paid",
  description: [
    `The member's fee-delegation history (${Route.path("listFeeDelegationHistory")}): each transaction whose fee the`,
    "service's global fee payer paid (--fee-payer global), with what it was charged."
  ],
  subcommands: [
    verb("list", "list the history, newest first: one page, or all with --all", [
      `List the fee-delegation history, newest first (${Route.route("listFeeDelegationHistory")}), every sender's or`,
      "--from's: one page and the cursor of the next, or every page with --all."
    ], [], [{ title: "Listing", flags: [flags.from, flags.pageSize, Shared.flags.cursor, Shared.flags.all] }], [
      "kas-wallet history list --from 0xa809284C83b901eD106Aba4Ccda14628Af128e14",
      "kas-wallet history list --all --json | jq -r .chargedByKlay"
    ]),
    verb("get", "show the fee-delegation record of one transaction", [
      "Show what the global fee payer was charged for one transaction",
      `(${Route.route("getFeeDelegationRecord", { "transaction-hash": "hash" })}): not found (exit 4) when it did not pay for it.`
    ], [{ name: "hash", description: "the transaction's hash: 0x followed by 64 hex digits" }], [], [
      "kas-wallet history get \"$HASH\"",
      "kas-wallet history get \"$HASH\" --json | jq -r .chargedByPeb"
    ])
  ],
  examples: [
    "kas-wallet tx send --from \"$FROM\" --to \"$TO\" --value 1KLAY --fee-payer global",
    "kas-wallet history list --from \"$FROM\""
  ]
})
