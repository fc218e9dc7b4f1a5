/**
 * `kas-wallet accounts create | get | list | count | by-public-key | disable | enable | delete`:
 * the wallet API's account operations from the command line, over the WalletClient.
 *
 * @since 0.1.0
 */
import { Args, Command } from "@effect/cli"
import { Effect, Either, Option, Schema } from "effect"
import { Account, PublicKey, WalletClient } from "effect-kas-wallet"
import * as Client from "./ClientCommand.js"
import * as ExitCode from "../output/ExitCode.js"
import * as Flags from "../input/Flags.js"
import * as Output from "../output/Output.js"
import * as Spec from "../input/Spec.js"

const S = Spec.accounts
const shared = Client.accountOptions

/**
 * The settings of an `accounts` command, checked.
 *
 * @since 0.1.0
 * @category models
 */
export type Settings = Client.Settings

/**
 * Reads and checks the shared settings: each flag, else its environment variable.
 *
 * @since 0.1.0
 * @category settings
 */
export const settings = Client.settings

/**
 * Reads a time bound: Unix seconds, or an ISO-8601 date or date and time (see
 * `ClientCommand.parseTime`).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseTime = Client.parseTime

const encodeAccount = Schema.encodeSync(Account.Account)
const encodePage = Schema.encodeSync(Account.AccountPage)
const encodeStatus = Schema.encodeSync(Account.AccountStatus)
const encodeSummary = Schema.encodeSync(Account.AccountSummary)
const encodeCount = Schema.encodeSync(Account.AccountCount)
const encodePoolCount = Schema.encodeSync(Account.PoolAccountCount)
const encodePublicKeyAccounts = Schema.encodeSync(Account.PublicKeyAccounts)

const printAccount = (print: Client.Print, s: Client.Settings, account: Account.Account) =>
  print(s.json ? JSON.stringify(encodeAccount(account)) : Output.accountDetails(account))

const address = Args.text({ name: "address" })

const create = Command.make("create", shared, (o) =>
  Client.withClient(o, { operation: "create" }, (print, s) => Effect.flatMap(WalletClient.createAccount(), (a) => printAccount(print, s, a))))

const get = Command.make("get", { ...shared, address }, (o) =>
  Client.withAddress(o.address, (address) =>
    Client.withClient(o, { operation: "get", address }, (print, s) =>
      Effect.flatMap(WalletClient.getAccount(address), (a) => printAccount(print, s, a)))))

const list = Command.make("list", { ...shared, ...Client.listOptions, status: Flags.text(S.status) }, (o) =>
  Effect.gen(function*() {
    const paging = yield* Client.paging(o)
    const status = Option.getOrUndefined(
      yield* Flags.read(S.status, o.status, Flags.choice(["enabled", "disabled", "corrupted", "all"], "enabled, disabled, corrupted or all"))
    )
    const params: WalletClient.ListParams = { ...paging, status }
    yield* Client.list<Account.Account, Account.AccountPage>(o, o.all, {
      kind: "account",
      one: WalletClient.listAccounts(params),
      pages: WalletClient.accountPages(params),
      itemJson: (a) => JSON.stringify(encodeAccount(a)),
      pageJson: (page) => JSON.stringify(encodePage(page)),
      row: (a) => Output.accountRow(a),
      empty: "(no accounts)"
    })
  }))

const remove = Command.make("delete", { ...shared, address }, (o) =>
  Client.withAddress(o.address, (address) =>
    Client.withClient(o, { operation: "delete", address }, (print, s) =>
      Effect.flatMap(WalletClient.deleteAccount(address), (status) =>
        print(s.json ? JSON.stringify(encodeStatus(status)) : `deleted ${address}`)))))

const toggle = (verb: "disable" | "enable") =>
  Command.make(verb, { ...shared, address }, (o) =>
    Client.withAddress(o.address, (address) =>
      Client.withClient(o, { operation: verb, address }, (print, s) =>
        Effect.flatMap(verb === "disable" ? WalletClient.disableAccount(address) : WalletClient.enableAccount(address), (summary) =>
          print(s.json ? JSON.stringify(encodeSummary(summary)) : Output.summaryDetails(summary, verb === "disable" ? "disabled" : "enabled"))))))

const count = Command.make("count", { ...shared, allPools: Flags.toggle(S.allPools) }, (o) =>
  Effect.gen(function*() {
    // --pool (or KAS_ACCOUNT_POOL) counts that pool; --all-pools overrides the variable, not the flag.
    if (o.allPools && Option.isSome(o.pool)) {
      return yield* ExitCode.invalid(`give --${S.pool.name} or --${S.allPools.name}, not both`)
    }
    const byPool = !o.allPools && Option.isSome(yield* Flags.raw(S.pool, o.pool))
    // The member's total involves no pool: a KAS_ACCOUNT_POOL it overrides is not even read.
    const { pool: _, ...memberWide } = o
    yield* Client.withClient(byPool ? o : memberWide, { operation: "count" }, (print, s) =>
      byPool
        ? Effect.flatMap(WalletClient.accountCountByPool(), (c) =>
          print(s.json ? JSON.stringify(encodePoolCount(c)) : `${c.count} ${c.count === 1 ? "account" : "accounts"} in pool ${c.krn.toString()}`))
        : Effect.flatMap(WalletClient.accountCount(), (c) =>
          print(
            s.json
              ? JSON.stringify(encodeCount(c))
              : `${c.count} ${c.count === 1 ? "account" : "accounts"} of member ${c.accountId} on chain ${s.chainId}, in every pool`
          )))
  }))

const decodePublicKey = Schema.decodeUnknownEither(PublicKey.PublicKey)

const byPublicKey = Command.make("by-public-key", { ...shared, publicKey: Args.text({ name: "public-key" }) }, (o) =>
  Either.isLeft(decodePublicKey(o.publicKey))
    ? Effect.fail(ExitCode.invalid(`<public-key> must be 0x04 + 128 hex digits, 0x02/0x03 + 64, or 0x + 128 (got ${Flags.show(o.publicKey)})`))
    : Client.withClient(o, { operation: "by-public-key" }, (print, s) =>
      Effect.flatMap(WalletClient.accountsByPublicKey(o.publicKey), (items) =>
        print(
          s.json
            ? JSON.stringify(encodePublicKeyAccounts({ items }))
            : items.length === 0
            ? "(no accounts)"
            : Output.table(["ADDRESS", "CHAIN"], items.map((a) => [a.address, String(a.chainId)]))
        ))))

/**
 * `kas-wallet accounts`.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("accounts").pipe(
  Command.withSubcommands([create, get, list, count, byPublicKey, toggle("disable"), toggle("enable"), remove])
)
