/**
 * `kas-wallet emulator fund | balance | bill | mine | snapshot | revert | time`: the emulator's
 * ledger, either through a running
 * emulator (`--url`, else `KAS_WALLET_URL` when set: its console routes under `/_emulator/`, with
 * the member's key of the KAS_* settings) or directly in a database (`--db` or `--data-dir`, else
 * the default data directory). `mine`, `snapshot`, `revert` and `time` work only through a
 * running emulator: whether and how it makes blocks is that process's mining mode, and snapshots
 * belong to it. Their table is `Spec`.
 *
 * They never write elsewhere and claim success: against a database, the database must exist, and
 * `fund` credits only an account or a fee-payer account of it. An address it does not know means
 * the emulator in use is another one (an `--ephemeral` one, say), which only its `--url` reaches.
 *
 * @since 0.2.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Console, Effect, Either, Option, Redacted } from "effect"
import { Amount, type ChainId, Credentials } from "effect-kas-wallet"
import type * as Argv from "../../../input/Argv.js"
import * as Flags from "../../../input/Flags.js"
import * as Value from "../../../input/Value.js"
import * as ExitCode from "../../../output/ExitCode.js"
import * as Output from "../../../output/Output.js"
import type { Handlers } from "../../Handler.js"
import * as Client from "../../shared/Client.js"
import * as ClientConfig from "../../shared/ClientConfig.js"
import * as ConsoleHandlers from "../console/Handlers.js"
import * as Table from "../../Spec.js"

const E = Table.Console.flags
const L = Table.Ledger.flags

/** A balance as both ways answer it, and as `--json` prints it. */
interface Balance {
  readonly chainId: number
  readonly address: string
  readonly balance: bigint
  readonly nonce: number
}

/** A bill as both ways answer it. */
interface Bill {
  readonly accountId: string
  readonly chainId: number
  readonly feePayer: string
  readonly fees: bigint
  readonly transactions: number
}

/** What `fund`, `balance` and `bill` do, against a database or a running emulator. */
interface Ledger {
  readonly fund: (chainId: ChainId.ChainId, address: string, amount: bigint) => Effect.Effect<Balance, ExitCode.Failure>
  readonly balance: (chainId: ChainId.ChainId, address: string) => Effect.Effect<Balance, ExitCode.Failure>
  readonly bills: (filter: { readonly accountId?: string | undefined; readonly chainId?: ChainId.ChainId | undefined }) => Effect.Effect<ReadonlyArray<Bill>, ExitCode.Failure>
}

/** What only a running emulator does: make blocks, in its own mining mode; snapshots; its time. */
interface Running extends Ledger {
  readonly mine: (chainId: ChainId.ChainId | undefined, blocks: number) => Effect.Effect<ReadonlyArray<Block>, ExitCode.Failure>
  readonly snapshot: Effect.Effect<string, ExitCode.Failure>
  readonly revert: (id: string) => Effect.Effect<void, ExitCode.Failure>
  readonly time: (unixSeconds: number) => Effect.Effect<void, ExitCode.Failure>
}

/** A block `mine` made, as the console route answers it. */
interface Block {
  readonly chainId: number
  readonly blockNumber: number
  readonly blockHash: string
  readonly blockTimeMs: number
  readonly transactions: ReadonlyArray<string>
}

/** The ledger of a database, which must exist: opening a missing file would create an empty one. */
const databaseLedger = (given: string): Effect.Effect<Ledger, ExitCode.Failure> =>
  ConsoleHandlers.existing(given, "start one with `kas-wallet emulator`, or give a running emulator's --url").pipe(
    Effect.map((database): Ledger => ({
      fund: (chainId, address, amount) =>
        ConsoleHandlers.withConsole(database, (c) =>
          Effect.flatMap(c.isWalletAddress(address), (known) =>
            known ? Effect.map(c.fund(chainId, address, amount), Option.some) : Effect.succeed(Option.none()))).pipe(
            Effect.flatMap(Option.match({
              onNone: () =>
                Effect.fail(ExitCode.invalid(
                  `${address} is neither an account nor a fee-payer account of the database ${database}; ` +
                    "if a running emulator (an --ephemeral one, say) holds it, give that emulator's --url " +
                    "(or eval its settings: KAS_WALLET_URL)"
                )),
              onSome: Effect.succeed
            }))
          ),
      balance: (chainId, address) => ConsoleHandlers.withConsole(database, (c) => c.balance(chainId, address)),
      bills: (filter) => ConsoleHandlers.withConsole(database, (c) => c.feeBills(filter))
    }))
  )

interface Answer {
  readonly status: number
  readonly text: string
}

/** The ledger of a running emulator, through its console routes, with the member's key. */
const emulatorLedger = (run: Argv.Run): Effect.Effect<Running, ExitCode.Failure> =>
  Effect.gen(function*() {
    const { options } = yield* ClientConfig.configure(run, { pool: false, feePayerPool: false })
    const url = options.baseUrl?.toString().replace(/\/+$/, "") ?? ""
    if (!/^https?:\/\//.test(url)) return yield* ExitCode.invalid(`--url must be a running emulator's http(s) URL (got ${Flags.show(url)})`)
    const credentials = options.credentials
    const authorization = "authorization" in credentials
      ? credentials.authorization
      : Credentials.authorization(credentials.accessKeyId, credentials.secretAccessKey)

    const request = (method: "GET" | "POST", path: string, chainId: number, body?: unknown) =>
      Effect.gen(function*() {
        const client = yield* HttpClient.HttpClient
        const base = HttpClientRequest.make(method)(`${url}/_emulator/${path}`).pipe(
          HttpClientRequest.setHeaders({ authorization: Redacted.value(authorization), "x-chain-id": String(chainId) })
        )
        const response = yield* client.execute(body === undefined ? base : HttpClientRequest.bodyUnsafeJson(base, body))
        return { status: response.status, text: yield* response.text } satisfies Answer
      }).pipe(
        Effect.provide(FetchHttpClient.layer),
        Effect.mapError(() =>
          new ExitCode.Failure({
            message: `cannot reach an emulator at ${url}; is it running? check --url / KAS_WALLET_URL`,
            code: ExitCode.ExitCode.Transport
          })
        ),
        Effect.flatMap((answer) => answer.status === 200 ? Effect.succeed(JSON.parse(answer.text) as unknown) : Effect.fail(refused(url, answer)))
      )

    const balanceOf = (u: unknown): Balance => {
      const b = u as { chainId: number; address: string; balance: string; nonce: number }
      return { ...b, balance: BigInt(b.balance) }
    }
    return {
      fund: (chainId, address, amount) => Effect.map(request("POST", "fund", chainId, { address, amount: amount.toString() }), balanceOf),
      balance: (chainId, address) => Effect.map(request("GET", `balance/${address}`, chainId), balanceOf),
      bills: (filter) =>
        Effect.map(
          Effect.forEach(filter.chainId !== undefined ? [filter.chainId] : [8217, 1001], (chainId) =>
            request("GET", `bills${filter.accountId !== undefined ? `?accountId=${encodeURIComponent(filter.accountId)}` : ""}`, chainId)),
          (pages) =>
            pages.flatMap((page) =>
              (page as ReadonlyArray<Omit<Bill, "fees"> & { fees: string }>).map((b) => ({ ...b, fees: BigInt(b.fees) }))
            )
        ),
      mine: (chainId, blocks) =>
        Effect.map(
          Effect.forEach(chainId !== undefined ? [chainId] : [8217, 1001], (id) => request("POST", "mine", id, { blocks })),
          (answers) => answers.flatMap((made) => made as ReadonlyArray<Block>)
        ),
      // Snapshots and time span both chains: the chain of the request is only its header's.
      snapshot: Effect.map(request("POST", "snapshot", Number(ClientConfig.DefaultChain)), (answer) => (answer as { readonly id: string }).id),
      revert: (id) => Effect.asVoid(request("POST", "revert", Number(ClientConfig.DefaultChain), { id })),
      time: (timestamp) => Effect.asVoid(request("POST", "time", Number(ClientConfig.DefaultChain), { timestamp }))
    } satisfies Running
  })

/** The line of an emulator's refusal: its own message, and what to check. */
const refused = (url: string, answer: Answer): ExitCode.Failure => {
  let message = answer.text.slice(0, 200)
  try {
    message = String((JSON.parse(answer.text) as { message?: unknown }).message ?? message)
  } catch {
    // Not a KAS body: not an emulator's answer, shown as it came.
  }
  if (answer.status === 401) {
    return new ExitCode.Failure({
      message: `${url} refused the key (HTTP 401: ${message}); check KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY`,
      code: ExitCode.ExitCode.Unauthorized
    })
  }
  if (answer.status === 404) {
    return ExitCode.invalid(`${url} has no emulator console (HTTP 404): is it a kas-wallet emulator? check --url / KAS_WALLET_URL`)
  }
  return new ExitCode.Failure({
    message: message.replace(/\s+/g, " "),
    code: answer.status < 500 ? ExitCode.ExitCode.InvalidArgument : ExitCode.ExitCode.Server
  })
}

/**
 * Where the ledger commands work: `--url` or `--db`/`--data-dir` as given (not both); else a
 * running emulator when `KAS_WALLET_URL` is set (the settings of `kas-wallet emulator env`); else
 * the database of `KAS_EMULATOR_DB`, `KAS_EMULATOR_DATA_DIR` or the default data directory.
 */
const ledgerOf = (run: Argv.Run): Effect.Effect<Ledger, ExitCode.Failure> =>
  Effect.gen(function*() {
    const url = Flags.given(run, L.url)
    const local = [E.consoleDb, E.dataDir].find((flag) => Option.isSome(Flags.given(run, flag)))
    if (Option.isSome(url) && local !== undefined) {
      return yield* ExitCode.invalid(`give --${L.url.name} (a running emulator) or --${local.name} (a database), not both`)
    }
    if (local === undefined && (Option.isSome(url) || Option.isSome(yield* Flags.raw(L.url, Option.none())))) {
      return yield* emulatorLedger(run)
    }
    return yield* Effect.flatMap(ConsoleHandlers.database(run), databaseLedger)
  })

/**
 * A running emulator: `--url`, else `KAS_WALLET_URL`. Blocks are made by the process serving a
 * database, in its mining mode, so `mine` has no database form.
 */
const runningOf = (run: Argv.Run, what: string): Effect.Effect<Running, ExitCode.Failure> =>
  Effect.gen(function*() {
    if (Option.isNone(Flags.given(run, L.url)) && Option.isNone(yield* Flags.raw(L.url, Option.none()))) {
      return yield* ExitCode.invalid(`${what}: give its --url (or eval its settings: KAS_WALLET_URL)`)
    }
    return yield* emulatorLedger(run)
  })

/** Unix seconds as digits, or a date `Date.parse` reads with its zone (whole seconds). */
const parseTime: Flags.Parser<number> = (raw) => {
  if (/^\d{1,12}$/.test(raw)) return Either.right(Number(raw))
  const ms = /\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN
  return Number.isFinite(ms) && ms % 1000 === 0 && ms >= 0
    ? Either.right(ms / 1000)
    : Either.left(`must be Unix seconds or a date such as 2030-01-01T00:00:00Z, in whole seconds (got ${Flags.show(raw)})`)
}

const klay = (peb: bigint) => `${Amount.formatKlay(peb as Amount.Peb)} KLAY (${peb} peb)`

/** `--wide`: addresses, hashes and ids in full, however wide the line. */
const layoutOf = ConsoleHandlers.layoutOf

const balanceJson = (b: Balance) => JSON.stringify({ chainId: b.chainId, address: b.address, balance: b.balance.toString(), nonce: b.nonce })

/** The chain of `fund` and `balance`: --chain, else KAS_CHAIN_ID, else 1001 (as the client commands). */
const ledgerChain = (run: Argv.Run) =>
  Effect.gen(function*() {
    const chain = yield* Flags.read(
      Table.Shared.flags.chain,
      Flags.given(run, Table.Shared.flags.chain),
      Flags.choice(["8217", "1001"], "8217 (mainnet) or 1001 (testnet)")
    )
    return Number(Option.getOrElse(chain, () => ClientConfig.DefaultChain)) as ChainId.ChainId
  })

/**
 * The ledger commands, by the word after `emulator`.
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = {
  fund: (run) =>
    Effect.gen(function*() {
      const address = yield* Flags.argument(run, "address", Client.parseAddress)
      const amount = yield* Flags.argument(run, "amount", Value.parseAmount)
      const chainId = yield* ledgerChain(run)
      const b = yield* Effect.flatMap(ledgerOf(run), (ledger) => ledger.fund(chainId, address, amount))
      yield* Console.log(
        Flags.isSet(run, L.json)
          ? balanceJson(b)
          : Output.lines(`funded ${b.address} on chain ${b.chainId} with ${klay(amount)}\nit holds ${klay(b.balance)}`, layoutOf(run))
      )
    }),
  balance: (run) =>
    Effect.gen(function*() {
      const address = yield* Flags.argument(run, "address", Client.parseAddress)
      const chainId = yield* ledgerChain(run)
      const b = yield* Effect.flatMap(ledgerOf(run), (ledger) => ledger.balance(chainId, address))
      yield* Console.log(
        Flags.isSet(run, L.json) ? balanceJson(b) : Output.lines(`${b.address} on chain ${b.chainId}: ${klay(b.balance)}, next nonce ${b.nonce}`, layoutOf(run))
      )
    }),
  bill: (run) =>
    Effect.gen(function*() {
      const chainId = Option.getOrUndefined(yield* ConsoleHandlers.chainOf(run, L.billChain))
      const accountId = Option.getOrUndefined(yield* ConsoleHandlers.text(run, L.accountId))
      const bills = yield* Effect.flatMap(ledgerOf(run), (ledger) => ledger.bills({ accountId, chainId }))
      yield* Console.log(
        Flags.isSet(run, L.json)
          ? JSON.stringify(bills.map((b) => ({ ...b, fees: b.fees.toString() })))
          : bills.length === 0
          ? "no bills: the global fee payer has paid no fee"
          : Output.table(
            ["MEMBER", "CHAIN", "TXS", "FEES", "PAID BY"],
            bills.map((b) => [b.accountId, String(b.chainId), String(b.transactions), klay(b.fees), b.feePayer]),
            "",
            layoutOf(run)
          )
      )
    }),
  mine: (run) =>
    Effect.gen(function*() {
      const chainId = Option.getOrUndefined(yield* ConsoleHandlers.chainOf(run, L.mineChain))
      const blocks = Option.getOrElse(yield* Flags.read(L.blocks, Flags.given(run, L.blocks), Flags.integer(1, 1000)), () => 1)
      const made = yield* Effect.flatMap(runningOf(run, "mine works on a running emulator started with --mining manual"), (ledger) => ledger.mine(chainId, blocks))
      yield* Console.log(
        Flags.isSet(run, L.json)
          ? JSON.stringify(made)
          : Output.lines(
            made.map((b) =>
              `chain ${b.chainId} block ${b.blockNumber} ${b.blockHash}: ${b.transactions.length} transaction${b.transactions.length === 1 ? "" : "s"}${
                b.transactions.map((h) => `\n  ${h}`).join("")
              }`
            ).join("\n"),
            layoutOf(run)
          )
      )
    }),
  snapshot: (run) =>
    Effect.gen(function*() {
      const id = yield* Effect.flatMap(runningOf(run, "snapshot works on a running emulator"), (ledger) => ledger.snapshot)
      yield* Console.log(Flags.isSet(run, L.json) ? JSON.stringify({ id }) : id)
    }),
  revert: (run) =>
    Effect.gen(function*() {
      const id = yield* Flags.argument(run, "id", (raw) => /^0x[0-9a-fA-F]{1,12}$/.test(raw) ? Either.right(raw) : Either.left(`must be a snapshot's id such as 0x1 (got ${Flags.show(raw)})`))
      yield* Effect.flatMap(runningOf(run, "revert works on a running emulator"), (ledger) => ledger.revert(id))
      yield* Console.log(Flags.isSet(run, L.json) ? JSON.stringify({ reverted: id }) : `reverted to ${id}`)
    }),
  time: (run) =>
    Effect.gen(function*() {
      const seconds = yield* Flags.argument(run, "time", parseTime)
      yield* Effect.flatMap(runningOf(run, "time works on a running emulator"), (ledger) => ledger.time(seconds))
      yield* Console.log(
        Flags.isSet(run, L.json) ? JSON.stringify({ timestamp: seconds }) : `the next block's time: ${new Date(seconds * 1000).toISOString()} (${seconds})`
      )
    })
} satisfies Handlers<(typeof Table.Ledger.commands)[number]>
