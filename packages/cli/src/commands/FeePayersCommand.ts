/**
 * `kas-wallet fee-payers create | get | list | delete`: the member's fee-payer accounts (which pay
 * the fees of its transfers) from the command line, over the WalletClient. They live in fee-payer
 * pools: `--fee-payer-pool` or `KAS_FEEPAYER_POOL`, else the member's default one.
 *
 * @since 0.2.0
 */
import { Args, Command } from "@effect/cli"
import { Effect, Schema } from "effect"
import { Account, WalletClient } from "effect-kas-wallet"
import * as Client from "./ClientCommand.js"
import * as Flags from "../input/Flags.js"
import * as Output from "../output/Output.js"
import * as Spec from "../input/Spec.js"

const S = Spec.accounts
const shared = Client.feePayerOptions

const encodeFeePayer = Schema.encodeSync(Account.FeePayerAccount)
const encodePage = Schema.encodeSync(Account.FeePayerAccountPage)
const encodeStatus = Schema.encodeSync(Account.AccountStatus)

const printFeePayer = (print: Client.Print, s: Client.Settings, account: Account.FeePayerAccount) =>
  print(s.json ? JSON.stringify(encodeFeePayer(account)) : Output.accountDetails(account))

const address = Args.text({ name: "address" })

const create = Command.make("create", { ...shared, withoutAccountUpdate: Flags.toggle(S.withoutAccountUpdate) }, (o) =>
  Client.withClient(o, { operation: "create", kind: "fee-payer" }, (print, s) =>
    Effect.flatMap(WalletClient.createFeePayer({ withoutAccountUpdate: o.withoutAccountUpdate }), (a) => printFeePayer(print, s, a))))

const get = Command.make("get", { ...shared, address }, (o) =>
  Client.withAddress(o.address, (address) =>
    Client.withClient(o, { operation: "get", kind: "fee-payer", address }, (print, s) =>
      Effect.flatMap(WalletClient.getFeePayer(address), (a) => printFeePayer(print, s, a)))))

const list = Command.make("list", { ...shared, ...Client.listOptions }, (o) =>
  Effect.flatMap(Client.paging(o), (params) =>
    Client.list<Account.FeePayerAccount, Account.FeePayerAccountPage>(o, o.all, {
      kind: "fee-payer",
      one: WalletClient.listFeePayers(params),
      pages: WalletClient.feePayerPages(params),
      itemJson: (a) => JSON.stringify(encodeFeePayer(a)),
      pageJson: (page) => JSON.stringify(encodePage(page)),
      row: (a) => Output.accountRow(a),
      empty: "(no fee-payer accounts)"
    })))

const remove = Command.make("delete", { ...shared, address }, (o) =>
  Client.withAddress(o.address, (address) =>
    Client.withClient(o, { operation: "delete", kind: "fee-payer", address }, (print, s) =>
      Effect.flatMap(WalletClient.deleteFeePayer(address), (status) =>
        print(s.json ? JSON.stringify(encodeStatus(status)) : `deleted ${address}`)))))

/**
 * `kas-wallet fee-payers`.
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("fee-payers").pipe(Command.withSubcommands([create, get, list, remove]))
