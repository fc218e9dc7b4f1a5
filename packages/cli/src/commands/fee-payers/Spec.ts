/**
 * The command table of `kas-wallet fee-payers create | get | list | delete`: the member's
 * fee-payer accounts. The handlers are in `Handlers`.
 *
 * Plain data with no runtime import but the table's own (help stays free of effect).
 *
 * @since 0.9.0
 */
import * as Route from "../../input/Route.js"
import * as Spec from "../../input/Spec.js"
import * as Shared from "../shared/Spec.js"

/**
 * The flags of the `fee-payers` commands of their own, by key (the others are `Shared`'s).
 *
 * @since 0.9.0
 * @category flags
 */
export const flags = {
  withoutAccountUpdate: {
    name: "without-account-update",
    description: "skip the on-chain account update that registers its key (withoutAccountUpdate)",
    example: "--without-account-update"
  }
} as const satisfies Record<string, Spec.Flag>

const verb = Spec.verbsUnder(["fee-payers"], [Shared.output, Shared.connectionOf(Shared.flags.feePayerPool)])

/**
 * `kas-wallet fee-payers` and its commands.
 *
 * @since 0.9.0
 * @category commands
 */
export const spec = Spec.parent({
  path: ["fee-payers"],
  summary: "create, get, list and delete fee-payer accounts",
  description: [
    "Fee-payer accounts pay the fees of the member's transfers (user fee delegation). They live in",
    "fee-payer pools: --fee-payer-pool or KAS_FEEPAYER_POOL, else the member's default one."
  ],
  subcommands: [
    verb("create", "create a fee-payer account in a fee-payer pool", [
      `Create a fee-payer account in the selected fee-payer pool (${Route.route("createFeePayer")}) and print it.`
    ], [], [{ title: "Account", flags: [flags.withoutAccountUpdate] }], [
      "kas-wallet fee-payers create",
      "kas-wallet fee-payers create --without-account-update --json"
    ]),
    verb("get", "show one fee-payer account by address", [
      `Show one fee-payer account (${Route.route("getFeePayer")}). Any case is accepted; a mixed-case`,
      "address must carry a valid EIP-55 checksum."
    ], [Shared.address], [], [
      "kas-wallet fee-payers get 0xDd3B08d269c5BA292E31050BA8608798D46FC712"
    ]),
    verb("list", "list fee-payer accounts, newest first: one page, or all with --all", [
      `List the fee-payer accounts of a fee-payer pool, newest first (${Route.route("listFeePayers")}): one page and`,
      "the cursor of the next, or every page with --all. A failed --all prints the --cursor to resume."
    ], [], [{ title: "Listing", flags: Shared.paging }], [
      "kas-wallet fee-payers list",
      "kas-wallet fee-payers list --all --json > fee-payers.ndjson"
    ]),
    verb("delete", "delete a fee-payer account", [
      `Delete a fee-payer account of the selected fee-payer pool (${Route.route("deleteFeePayer")}).`
    ], [Shared.address], [], [
      "kas-wallet fee-payers delete 0xDd3B08d269c5BA292E31050BA8608798D46FC712"
    ])
  ],
  examples: [
    "kas-wallet fee-payers create",
    "kas-wallet fee-payers list --all --json > fee-payers.ndjson"
  ]
})
