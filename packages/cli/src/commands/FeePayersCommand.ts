/**
 * `kas-wallet fee-payers create | get | list | delete`: the member's fee-payer accounts (which pay
 * the fees of its transfers) from the command line, over the WalletClient. They live in fee-payer
 * pools: `--fee-payer-pool` or `KAS_FEEPAYER_POOL`, else the member's default one.
 *
 * @since 0.2.0
 */
import { Effect, Schema } from "effect"
import { Account, WalletClient } from "effect-kas-wallet"
import type * as Argv from "../input/Argv.js"
import * as Client from "./ClientCommand.js"
import type * as ExitCode from "../output/ExitCode.js"
import * as Flags from "../input/Flags.js"
import * as Output from "../output/Output.js"
import * as Spec from "../input/Spec.js"

const S = Spec.accounts
const uses = { pool: false, feePayerPool: true }

const encodeFeePayer = Schema.encodeSync(Account.FeePayerAccount)
const encodePage = Schema.encodeSync(Account.FeePayerAccountPage)
const encodeStatus = Schema.encodeSync(Account.AccountStatus)

const printFeePayer = (print: Client.Print, s: Client.Settings, account: Account.FeePayerAccount) =>
  print(s.json ? JSON.stringify(encodeFeePayer(account)) : Output.accountDetails(account))

type Handler = (run: Argv.Run) => Effect.Effect<void, ExitCode.Failure>

const onAddress = (run: Argv.Run, f: (address: string) => Effect.Effect<void, ExitCode.Failure>) =>
  Client.withAddress(Flags.positional(run, "address"), f)

/**
 * The `fee-payers` commands, by name.
 *
 * @since 0.2.0
 * @category commands
 */
export const commands: Readonly<Record<string, Handler>> = {
  create: (run) =>
    Client.withClient(run, uses, { operation: "create", kind: "fee-payer" }, (print, s) =>
      Effect.flatMap(
        WalletClient.createFeePayer({ withoutAccountUpdate: Flags.isSet(run, S.withoutAccountUpdate) }),
        (a) => printFeePayer(print, s, a)
      )),
  get: (run) =>
    onAddress(run, (address) =>
      Client.withClient(run, uses, { operation: "get", kind: "fee-payer", address }, (print, s) =>
        Effect.flatMap(WalletClient.getFeePayer(address), (a) => printFeePayer(print, s, a)))),
  list: (run) =>
    Effect.flatMap(Client.paging(run), (params) =>
      Client.list<Account.FeePayerAccount, Account.FeePayerAccountPage>(run, uses, {
        kind: "fee-payer",
        one: () => WalletClient.listFeePayers(params),
        pages: () => WalletClient.feePayerPages(params),
        itemJson: (a) => JSON.stringify(encodeFeePayer(a)),
        pageJson: (page) => JSON.stringify(encodePage(page)),
        header: Output.accountHeader,
        row: (a) => Output.accountRow(a),
        empty: "(no fee-payer accounts)",
        noun: "fee-payer account"
      })),
  delete: (run) =>
    onAddress(run, (address) =>
      Client.withClient(run, uses, { operation: "delete", kind: "fee-payer", address }, (print, s) =>
        Effect.flatMap(WalletClient.deleteFeePayer(address), (status) =>
          print(s.json ? JSON.stringify(encodeStatus(status)) : `deleted ${address}`))))
}
