/**
 * `kas-wallet accounts create | get | list | count | by-public-key | disable | enable | delete |
 * register` and the `multisig` commands (`multisig/Handlers`): the wallet API's account operations
 * from the command line, over the WalletClient. Their table is `Spec`.
 *
 * @since 0.1.0
 */
import { Effect, Either, Option, Schema } from "effect"
import { Account, PublicKey, WalletClient } from "effect-kas-wallet"
import * as Flags from "../../input/Flags.js"
import * as ExitCode from "../../output/ExitCode.js"
import * as Output from "../../output/Output.js"
import type { Handler, Handlers } from "../Handler.js"
import * as Client from "../shared/Client.js"
import * as Table from "../Spec.js"
import * as Multisig from "./multisig/Handlers.js"

const S = { ...Table.Shared.flags, ...Table.Accounts.flags }
const uses = { pool: true, feePayerPool: false }

const printAccount = Client.printer(Account.Account, Output.accountDetails)
const encodeCount = Schema.encodeSync(Account.AccountCount)
const encodePoolCount = Schema.encodeSync(Account.PoolAccountCount)
const encodePublicKeyAccounts = Schema.encodeSync(Account.PublicKeyAccounts)

const toggle = (verb: "disable" | "enable"): Handler => (run) =>
  Client.onAddress(run, uses, { operation: verb }, (address, print, s) =>
    Effect.flatMap(
      verb === "disable" ? WalletClient.disableAccount(address) : WalletClient.enableAccount(address),
      Client.printer(Account.AccountSummary, (summary, layout) => Output.summaryDetails(summary, verb === "disable" ? "disabled" : "enabled", layout))(print, s)
    ))

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
          print(s.json ? JSON.stringify(encodePoolCount(c)) : Output.lines(`${c.count} ${c.count === 1 ? "account" : "accounts"} in pool ${c.krn.toString()}`, s)))
        : Effect.flatMap(WalletClient.accountCount(), (c) =>
          print(
            s.json
              ? JSON.stringify(encodeCount(c))
              : Output.lines(`${c.count} ${c.count === 1 ? "account" : "accounts"} of member ${c.accountId} on chain ${s.chainId}, in every pool`, s)
          )))
  })

/**
 * The `accounts` commands, by their words after `accounts`.
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = {
  create: (run) =>
    Client.withClient(run, uses, { operation: "create" }, (print, s) => Effect.flatMap(WalletClient.createAccount(), printAccount(print, s))),
  get: (run) =>
    Client.onAddress(run, uses, { operation: "get" }, (address, print, s) => Effect.flatMap(WalletClient.getAccount(address), printAccount(print, s))),
  list: (run) =>
    Effect.gen(function*() {
      const paging = yield* Client.paging(run)
      const status = Option.getOrUndefined(
        yield* Flags.read(S.status, Flags.given(run, S.status), Flags.choice(["enabled", "disabled", "corrupted", "all"], "enabled, disabled, corrupted or all"))
      )
      const params: WalletClient.ListParams = { ...paging, status }
      yield* Client.list(run, uses, {
        kind: "account",
        one: () => WalletClient.listAccounts(params),
        pages: () => WalletClient.accountPages(params),
        item: Account.Account,
        page: Account.AccountPage,
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
              : Output.table(["ADDRESS", "CHAIN"], items.map((a) => [a.address, String(a.chainId)]), "", s)
          )))
  },
  disable: toggle("disable"),
  enable: toggle("enable"),
  delete: (run) =>
    Client.onAddress(run, uses, { operation: "delete" }, (address, print, s) =>
      Effect.flatMap(WalletClient.deleteAccount(address), Client.printer(Account.AccountStatus, () => `deleted ${address}`)(print, s))),
  register: (run) => Effect.flatMap(Effect.promise(() => import("../migrate/Handlers.js")), (m) => m.register(run)),
  ...Multisig.handlers
} satisfies Handlers<typeof Table.Accounts.spec>
