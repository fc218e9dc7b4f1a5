/**
 * `kas-wallet accounts create | get | list | count | by-public-key | disable | enable | delete`:
 * the wallet API's account operations from the command line, over the WalletClient.
 *
 * @since 0.1.0
 */
import { Effect, Either, Option, Schema } from "effect"
import { Account, PublicKey, WalletClient } from "effect-kas-wallet"
import type * as Argv from "../input/Argv.js"
import * as Client from "./ClientCommand.js"
import * as Multisig from "./MultisigCommand.js"
import * as ExitCode from "../output/ExitCode.js"
import * as Flags from "../input/Flags.js"
import * as Output from "../output/Output.js"
import * as Spec from "../input/Spec.js"

const S = Spec.accounts
const uses = { pool: true, feePayerPool: false }

/**
 * The settings of an `accounts` command, as it prints them.
 *
 * @since 0.1.0
 * @category models
 */
export type Settings = Client.Settings

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

type Handler = (run: Argv.Run) => Effect.Effect<void, ExitCode.Failure>

const onAddress = (run: Argv.Run, f: (address: string) => Effect.Effect<void, ExitCode.Failure>) =>
  Client.withAddress(Flags.positional(run, "address"), f)

const toggle = (verb: "disable" | "enable"): Handler => (run) =>
  onAddress(run, (address) =>
    Client.withClient(run, uses, { operation: verb, address }, (print, s) =>
      Effect.flatMap(verb === "disable" ? WalletClient.disableAccount(address) : WalletClient.enableAccount(address), (summary) =>
        print(s.json ? JSON.stringify(encodeSummary(summary)) : Output.summaryDetails(summary, verb === "disable" ? "disabled" : "enabled")))))

const decodePublicKey = Schema.decodeUnknownEither(PublicKey.PublicKey)

const count: Handler = (run) =>
  Effect.gen(function*() {
    // --pool (or KAS_ACCOUNT_POOL) counts that pool; --all-pools overrides the variable, not the flag.
    const allPools = Flags.isSet(run, S.allPools)
    if (allPools && Option.isSome(Flags.given(run, S.pool))) {
      return yield* ExitCode.invalid(`give --${S.pool.name} or --${S.allPools.name}, not both`)
    }
    const byPool = !allPools && Option.isSome(yield* Flags.raw(S.pool, Flags.given(run, S.pool)))
    // The member's total involves no pool: a KAS_ACCOUNT_POOL it overrides is not even read.
    yield* Client.withClient(run, { pool: byPool, feePayerPool: false }, { operation: "count" }, (print, s) =>
      byPool
        ? Effect.flatMap(WalletClient.accountCountByPool(), (c) =>
          print(s.json ? JSON.stringify(encodePoolCount(c)) : `${c.count} ${c.count === 1 ? "account" : "accounts"} in pool ${c.krn.toString()}`))
        : Effect.flatMap(WalletClient.accountCount(), (c) =>
          print(
            s.json
              ? JSON.stringify(encodeCount(c))
              : `${c.count} ${c.count === 1 ? "account" : "accounts"} of member ${c.accountId} on chain ${s.chainId}, in every pool`
          )))
  })

/**
 * The `accounts` commands, by name.
 *
 * @since 0.2.0
 * @category commands
 */
export const commands: Readonly<Record<string, Handler>> = {
  create: (run) =>
    Client.withClient(run, uses, { operation: "create" }, (print, s) =>
      Effect.flatMap(WalletClient.createAccount(), (a) => printAccount(print, s, a))),
  get: (run) =>
    onAddress(run, (address) =>
      Client.withClient(run, uses, { operation: "get", address }, (print, s) =>
        Effect.flatMap(WalletClient.getAccount(address), (a) => printAccount(print, s, a)))),
  list: (run) =>
    Effect.gen(function*() {
      const paging = yield* Client.paging(run)
      const status = Option.getOrUndefined(
        yield* Flags.read(S.status, Flags.given(run, S.status), Flags.choice(["enabled", "disabled", "corrupted", "all"], "enabled, disabled, corrupted or all"))
      )
      const params: WalletClient.ListParams = { ...paging, status }
      yield* Client.list<Account.Account, Account.AccountPage>(run, uses, {
        kind: "account",
        one: () => WalletClient.listAccounts(params),
        pages: () => WalletClient.accountPages(params),
        itemJson: (a) => JSON.stringify(encodeAccount(a)),
        pageJson: (page) => JSON.stringify(encodePage(page)),
        header: Output.accountHeader,
        row: (a) => Output.accountRow(a),
        empty: "(no accounts)",
        noun: "account"
      })
    }),
  count,
  "by-public-key": (run) => {
    const publicKey = Flags.positional(run, "public-key")
    return Either.isLeft(decodePublicKey(publicKey))
      ? Effect.fail(ExitCode.invalid(`<public-key> must be 0x04 + 128 hex digits, 0x02/0x03 + 64, or 0x + 128 (got ${Flags.show(publicKey)})`))
      : Client.withClient(run, uses, { operation: "by-public-key" }, (print, s) =>
        Effect.flatMap(WalletClient.accountsByPublicKey(publicKey), (items) =>
          print(
            s.json
              ? JSON.stringify(encodePublicKeyAccounts({ items }))
              : items.length === 0
              ? "(no accounts)"
              : Output.table(["ADDRESS", "CHAIN"], items.map((a) => [a.address, String(a.chainId)]))
          )))
  },
  register: (run) => Effect.flatMap(Effect.promise(() => import("./MigrateCommand.js")), (m) => m.register(run)),
  disable: toggle("disable"),
  enable: toggle("enable"),
  delete: (run) =>
    onAddress(run, (address) =>
      Client.withClient(run, uses, { operation: "delete", address }, (print, s) =>
        Effect.flatMap(WalletClient.deleteAccount(address), (status) =>
          print(s.json ? JSON.stringify(encodeStatus(status)) : `deleted ${address}`)))),
  ...Multisig.commands
}
