/**
 * `kas-wallet accounts create | get | list`: the wallet API's account operations from the
 * command line, over the WalletClient.
 *
 * @since 0.1.0
 */
import { Args, Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import { FetchHttpClient, Headers, HttpClient } from "@effect/platform"
import { Config, Console, Effect, Layer, Option, Redacted, Schema, Stream } from "effect"
import * as Account from "../Account.js"
import * as WalletClient from "../WalletClient.js"
import * as WalletConfig from "../WalletConfig.js"
import * as WalletError from "../WalletError.js"
import * as EnvOption from "./EnvOption.js"
import * as ExitCode from "./ExitCode.js"
import * as Output from "./Output.js"

const env = WalletConfig.EnvironmentVariables

const chain = Options.choice("chain", ["8217", "1001"]).pipe(
  Options.withFallbackConfig(Config.literal("8217", "1001")(env.chainId)),
  Options.withDefault("1001" as const),
  Options.withDescription(`Chain: 8217 (mainnet) or 1001 (testnet) (env ${env.chainId}; default 1001)`)
)
const pool = EnvOption.optional(
  Options.text("pool"),
  Config.string(env.pool),
  `Account pool KRN to use (x-krn) (env ${env.pool}; default: the member's default pool)`
)
const url = EnvOption.optional(
  Options.text("url"),
  Config.string(env.baseUrl),
  `Base URL of the wallet API (env ${env.baseUrl}; default ${WalletConfig.DefaultBaseUrl})`
)
const accessKeyId = EnvOption.accessKeyId(`AccessKey ID (env ${env.accessKeyId})`)
const secretAccessKey = EnvOption.secretAccessKey(`Secret AccessKey (env ${env.secretAccessKey}; never printed)`)
const json = Options.boolean("json").pipe(Options.withDescription("Print JSON (one document; NDJSON with --all)"))
const verbose = Options.boolean("verbose").pipe(
  Options.withDescription("Print each request and response status on stderr, and error details (secrets redacted)")
)

const shared = { chain, pool, url, accessKeyId, secretAccessKey, json, verbose }

interface Shared {
  readonly chain: "8217" | "1001"
  readonly pool: Option.Option<string>
  readonly url: Option.Option<string>
  readonly accessKeyId: Option.Option<string>
  readonly secretAccessKey: Option.Option<Redacted.Redacted<string>>
  readonly json: boolean
  readonly verbose: boolean
}

const NoCredentials = [
  "no credentials. Either",
  `  - use the real service: set ${env.accessKeyId} and ${env.secretAccessKey} (or pass --access-key-id and --secret-access-key), or`,
  "  - use the local emulator: run `kas-wallet emulator` (it prints `listening on http://HOST:PORT` and a key),",
  "    then pass --url http://HOST:PORT with that key."
].join("\n")

class Failure extends Schema.TaggedError<Failure>()("Failure", { message: Schema.String, code: Schema.Number }) {}

// Logs each request on stderr with its headers redacted (Authorization included), then its status.
const verboseClient = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  client.pipe(
    HttpClient.tapRequest((request) => {
      const headers = Headers.redact(request.headers, ["authorization"])
      const shown = Object.entries(headers).map(([k, v]) => `${k}: ${String(v)}`).join(", ")
      return Console.error(`> ${request.method} ${request.url} (${shown})`)
    }),
    HttpClient.tap((response) => Console.error(`< ${response.status} ${response.request.method} ${response.request.url}`))
  )

const clientLayer = (options: Shared) =>
  Effect.gen(function*() {
    if (Option.isNone(options.accessKeyId) || Option.isNone(options.secretAccessKey)) {
      return yield* new Failure({ message: NoCredentials, code: ExitCode.ExitCode.InvalidArgument })
    }
    return WalletClient.layer({
      credentials: { accessKeyId: options.accessKeyId.value, secretAccessKey: options.secretAccessKey.value },
      chainId: Number(options.chain),
      baseUrl: Option.getOrUndefined(options.url),
      pool: Option.getOrUndefined(options.pool),
      transformClient: options.verbose ? verboseClient : undefined
    }).pipe(Layer.provide(FetchHttpClient.layer))
  })

const encodeAccount = Schema.encodeSync(Account.Account)
const encodePage = Schema.encodeSync(Account.AccountPage)
const encodeError = Schema.encodeSync(WalletError.WalletError)

/** Runs a handler with the client, turning every failure into one line and an exit code. */
const withClient = <A>(
  options: Shared,
  program: Effect.Effect<A, WalletError.WalletError, WalletClient.WalletClient>
) =>
  Effect.flatMap(clientLayer(options), (layer) => Effect.provide(program, layer)).pipe(
    Effect.catchAll((error) => {
      const { advice, code } = error._tag === "Failure"
        ? { advice: "", code: error.code }
        : ExitCode.classify(error)
      const details = options.verbose && error._tag !== "Failure"
        ? Console.error(JSON.stringify(encodeError(error), null, 2))
        : Effect.void
      return Console.error(`kas-wallet: ${error._tag === "Failure" ? "" : `${error._tag}: `}${error.message}${advice ? `\n  hint: ${advice}` : ""}`).pipe(
        Effect.zipRight(details),
        Effect.zipRight(Effect.sync(() => {
          process.exitCode = code
        }))
      )
    })
  )

const printAccount = (options: Shared, account: Account.Account) =>
  options.json ? Console.log(JSON.stringify(encodeAccount(account))) : Console.log(Output.accountDetails(account))

/**
 * Parses a time bound: Unix seconds, or an ISO-8601 date.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseTime = (s: string): Option.Option<number> => {
  if (/^\d+$/.test(s)) return Option.some(Number(s))
  const ms = Date.parse(s)
  return Number.isNaN(ms) ? Option.none() : Option.some(Math.floor(ms / 1000))
}

const timeOption = (name: "from" | "to") =>
  Options.text(name).pipe(
    Options.mapEffect((s) =>
      Option.match(parseTime(s), {
        onNone: () =>
          Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--${name}: expected Unix seconds or an ISO-8601 date, got ${JSON.stringify(s)}`))),
        onSome: Effect.succeed
      })
    ),
    Options.optional,
    Options.withDescription(`${name === "from" ? "Earliest" : "Latest"} creation time, inclusive: Unix seconds or ISO-8601 (e.g. 2024-05-01T00:00:00Z)`)
  )

const create = Command.make("create", shared, (options) =>
  withClient(options, Effect.flatMap(WalletClient.createAccount(), (account) => printAccount(options, account)))
).pipe(Command.withDescription([
  "Create an account in the selected pool (POST /v2/account).",
  "Examples:",
  "  kas-wallet accounts create --chain 1001",
  "  kas-wallet accounts create --pool krn:1001:wallet:<account-id>:account-pool:payroll --json"
].join("\n")))

const get = Command.make("get", { ...shared, address: Args.text({ name: "address" }) }, (options) =>
  withClient(options, Effect.flatMap(WalletClient.getAccount(options.address), (account) => printAccount(options, account)))
).pipe(Command.withDescription([
  "Show one account (GET /v2/account/<address>). Any case is accepted; a mixed-case address must be EIP-55 checksummed.",
  "Examples:",
  "  kas-wallet accounts get 0xa809284C83b901eD106Aba4Ccda14628Af128e14",
  "  kas-wallet accounts get 0xa809284c83b901ed106aba4ccda14628af128e14 --json"
].join("\n")))

const list = Command.make("list", {
  ...shared,
  size: Options.integer("size").pipe(Options.optional, Options.withDescription("Accounts per page, 1..1000 (the service's default: 100)")),
  cursor: Options.text("cursor").pipe(Options.optional, Options.withDescription("Continue from this cursor")),
  from: timeOption("from"),
  to: timeOption("to"),
  all: Options.boolean("all").pipe(Options.withDescription("Stream every page (a table, or NDJSON with --json)"))
}, (options) => {
  const params: WalletClient.ListParams = {
    pageSize: Option.getOrUndefined(options.size),
    cursor: Option.getOrUndefined(options.cursor),
    from: Option.getOrUndefined(options.from),
    to: Option.getOrUndefined(options.to)
  }
  if (!options.all) {
    return withClient(options, Effect.flatMap(WalletClient.listAccounts(params), (page) =>
      options.json
        ? Console.log(JSON.stringify(encodePage(page)))
        : Console.log([
          page.items.length === 0 ? "(no accounts)" : Output.table(Output.accountHeader, page.items.map((a) => Output.accountRow(a))),
          page.cursor === "" ? "(last page)" : `next page: --cursor ${page.cursor}`
        ].join("\n"))))
  }
  const progress = process.stderr.isTTY === true
  let accounts = 0
  let pages = 0
  const stream = WalletClient.accountPages(params).pipe(
    Stream.mapEffect((page) =>
      Effect.gen(function*() {
        if (options.json) {
          if (page.items.length > 0) yield* Console.log(page.items.map((a) => JSON.stringify(encodeAccount(a))).join("\n"))
        } else if (page.items.length > 0) {
          const text = Output.table(Output.accountHeader, page.items.map((a) => Output.accountRow(a)))
          yield* Console.log(accounts === 0 ? text : text.slice(text.indexOf("\n") + 1))
        }
        accounts += page.items.length
        pages++
        if (progress) process.stderr.write(`\r${accounts} accounts, ${pages} pages…`)
      })
    ),
    Stream.runDrain,
    Effect.ensuring(Effect.sync(() => {
      if (progress) process.stderr.write(`\r${accounts} accounts, ${pages} pages.\n`)
    }))
  )
  return withClient(options, stream)
}).pipe(Command.withDescription([
  "List accounts, newest first (GET /v2/account): one page, or every page with --all.",
  "Examples:",
  "  kas-wallet accounts list --size 20",
  "  kas-wallet accounts list --size 20 --cursor <cursor from the previous page>",
  "  kas-wallet accounts list --all --json --from 2024-01-01T00:00:00Z > accounts.ndjson"
].join("\n")))

/**
 * `kas-wallet accounts`.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("accounts").pipe(
  Command.withDescription([
    "Create, get and list accounts of the KAS wallet API (or of the emulator, with --url).",
    `Credentials: ${env.accessKeyId} / ${env.secretAccessKey} or --access-key-id / --secret-access-key.`,
    ExitCode.helpText
  ].join("\n")),
  Command.withSubcommands([create, get, list])
)
