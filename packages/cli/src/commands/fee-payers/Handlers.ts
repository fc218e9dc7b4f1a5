/**
 * `kas-wallet fee-payers create | get | list | delete`: the member's fee-payer accounts (which pay
 * the fees of its transfers) from the command line, over the WalletClient; their table is `Spec`.
 * They live in fee-payer pools: `--fee-payer-pool` or `KAS_FEEPAYER_POOL`, else the member's
 * default one.
 *
 * @since 0.2.0
 */
import { Effect } from "effect"
import { Account, WalletClient } from "effect-kas-wallet"
import * as Flags from "../../input/Flags.js"
import * as Output from "../../output/Output.js"
import type { Handlers } from "../Handler.js"
import * as Client from "../shared/Client.js"
import * as Table from "../Spec.js"

const uses = { pool: false, feePayerPool: true }

const printFeePayer = Client.printer(Account.FeePayerAccount, Output.accountDetails)

/**
 * The `fee-payers` commands, by their words after `fee-payers`.
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = {
  create: (run) =>
    Client.withClient(run, uses, { operation: "create", kind: "fee-payer" }, (print, s) =>
      Effect.flatMap(
        WalletClient.createFeePayer({ withoutAccountUpdate: Flags.isSet(run, Table.FeePayers.flags.withoutAccountUpdate) }),
        printFeePayer(print, s)
      )),
  get: (run) =>
    Client.onAddress(run, uses, { operation: "get", kind: "fee-payer" }, (address, print, s) =>
      Effect.flatMap(WalletClient.getFeePayer(address), printFeePayer(print, s))),
  list: (run) =>
    Effect.flatMap(Client.paging(run), (params) =>
      Client.list(run, uses, {
        kind: "fee-payer",
        one: () => WalletClient.listFeePayers(params),
        pages: () => WalletClient.feePayerPages(params),
        item: Account.FeePayerAccount,
        page: Account.FeePayerAccountPage,
        header: Output.accountHeader,
        row: (a) => Output.accountRow(a),
        empty: "(no fee-payer accounts)",
        noun: "fee-payer account"
      })),
  delete: (run) =>
    Client.onAddress(run, uses, { operation: "delete", kind: "fee-payer" }, (address, print, s) =>
      Effect.flatMap(WalletClient.deleteFeePayer(address), Client.printer(Account.AccountStatus, () => `deleted ${address}`)(print, s)))
} satisfies Handlers<typeof Table.FeePayers.spec>
