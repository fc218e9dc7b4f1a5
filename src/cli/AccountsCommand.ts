/**
 * `kas-wallet accounts create | get | list`: the wallet API's account operations from the
 * command line, over the WalletClient.
 *
 * @since 0.1.0
 */
import { Args, Command } from "@effect/cli"
import { FetchHttpClient, FileSystem } from "@effect/platform"
import { Console, Effect, Either, Layer, Option, Redacted, Schema, Stream } from "effect"
import * as Account from "../Account.js"
import * as Address from "../Address.js"
import * as Krn from "../Krn.js"
import * as Timestamp from "../Timestamp.js"
import * as WalletClient from "../WalletClient.js"
import * as WalletConfig from "../WalletConfig.js"
import * as WalletError from "../WalletError.js"
import * as ExitCode from "./ExitCode.js"
import * as Flags from "./Flags.js"
import * as Messages from "./Messages.js"
import * as Output from "./Output.js"
import * as Spec from "./Spec.js"
import * as Verbose from "./Verbose.js"

const S = Spec.accounts

const shared = {
  url: Flags.text(S.url),
  chain: Flags.text(S.chain),
  pool: Flags.text(S.pool),
  accessKeyId: Flags.text(S.accessKeyId),
  secretAccessKey: Flags.text(S.secretAccessKey),
  secretAccessKeyFile: Flags.text(S.secretAccessKeyFile),
  json: Flags.toggle(S.json),
  verbose: Flags.toggle(S.verbose)
}

type Shared = Command.Command.ParseConfig<typeof shared>

/**
 * The settings of an `accounts` command, checked.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  readonly url: string
  readonly chainId: 8217 | 1001
  readonly pool: string | undefined
  readonly accessKeyId: string
  readonly secretAccessKey: Redacted.Redacted<string>
  readonly json: boolean
  readonly verbose: boolean
}

const parseUrl: Flags.Parser<string> = (raw) => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return Either.left(`must be an http(s) URL such as http://127.0.0.1:8787 (got ${Flags.show(raw)})`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Either.left(`must be an http(s) URL such as http://127.0.0.1:8787 (got ${Flags.show(raw)})`)
  }
  // A key in the URL would be printed with it: it belongs in the key's own settings.
  if (url.username !== "" || url.password !== "") return Either.left("must not contain a user or password: give the key separately")
  return Either.right(url.toString().replace(/\/+$/, ""))
}

const decodePool = Schema.decodeUnknownEither(Krn.AccountPoolKrn)

const parsePool: Flags.Parser<string> = (raw) =>
  Either.isRight(decodePool(raw))
    ? Either.right(raw)
    : Either.left(`must be an account pool KRN, krn:<chain>:wallet:<account-id>:account-pool:<name> (got ${Flags.show(raw)})`)

const NoKey =
  "no API key: set KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY (or --secret-access-key-file); for a local emulator, run `kas-wallet emulator`, then `eval \"$(kas-wallet emulator env)\"`"

const readSecretFile = (path: string, source: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(path)).pipe(
    Effect.mapError((e) => ExitCode.invalid(`${source}: cannot read ${path} (${e._tag === "SystemError" && e.reason === "NotFound" ? "no such file" : e.message})`)),
    // The file's trailing newline is not part of the secret.
    Effect.map((text) => text.replace(/\r?\n$/, "")),
    Effect.filterOrFail((secret) => secret !== "", () => ExitCode.invalid(`${source}: ${path} is empty`)),
    Effect.map(Redacted.make)
  )

/** The secret: its flag, its file's flag, its variable, its file's variable, in that order. */
const secretOf = (o: Shared) =>
  Effect.gen(function*() {
    if (Option.isSome(o.secretAccessKey) && Option.isSome(o.secretAccessKeyFile)) {
      return yield* ExitCode.invalid(`give --${S.secretAccessKey.name} or --${S.secretAccessKeyFile.name}, not both`)
    }
    if (Option.isSome(o.secretAccessKey)) {
      return o.secretAccessKey.value === ""
        ? yield* ExitCode.invalid(`--${S.secretAccessKey.name} must not be empty`)
        : Option.some(Redacted.make(o.secretAccessKey.value))
    }
    if (Option.isSome(o.secretAccessKeyFile)) {
      return Option.some(yield* readSecretFile(o.secretAccessKeyFile.value, `--${S.secretAccessKeyFile.name}`))
    }
    const env = yield* Flags.raw(S.secretAccessKey, Option.none())
    if (Option.isSome(env)) return Option.some(Redacted.make(env.value.value))
    const file = yield* Flags.raw(S.secretAccessKeyFile, Option.none())
    if (Option.isSome(file)) return Option.some(yield* readSecretFile(file.value.value, file.value.source))
    return Option.none()
  })

/**
 * Reads and checks the shared settings: each flag, else its environment variable.
 *
 * @since 0.1.0
 * @category settings
 */
export const settings = (o: Shared): Effect.Effect<Settings, ExitCode.Failure, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const chain = yield* Flags.read(S.chain, o.chain, Flags.choice(["8217", "1001"], "8217 (mainnet) or 1001 (testnet)"))
    const chainId = Number(Option.getOrElse(chain, () => "1001")) as 8217 | 1001
    const url = Option.getOrElse(yield* Flags.read(S.url, o.url, parseUrl), () => WalletConfig.DefaultBaseUrl)
    const pool = Option.getOrUndefined(yield* Flags.read(S.pool, o.pool, parsePool))
    if (pool !== undefined && !pool.startsWith(`krn:${chainId}:`)) {
      return yield* ExitCode.invalid(`--pool ${pool} is on chain ${pool.split(":")[1]}, but the chain is ${chainId} (--chain / KAS_CHAIN_ID)`)
    }
    const accessKeyId = yield* Flags.read(S.accessKeyId, o.accessKeyId, Flags.nonEmpty)
    const secretAccessKey = yield* secretOf(o)
    if (Option.isNone(accessKeyId) || Option.isNone(secretAccessKey)) return yield* ExitCode.invalid(NoKey)
    return {
      url,
      chainId,
      pool,
      accessKeyId: accessKeyId.value,
      secretAccessKey: secretAccessKey.value,
      json: o.json,
      verbose: o.verbose
    }
  })

const base64 = (s: string) => Buffer.from(s, "utf8").toString("base64")

/** What must never be printed: the secret and the Authorization value made from it. */
const secretsOf = (s: Settings): ReadonlyArray<string> => {
  const secret = Redacted.value(s.secretAccessKey)
  return [base64(`${s.accessKeyId}:${secret}`), secret]
}

const encodeAccount = Schema.encodeSync(Account.Account)
const encodePage = Schema.encodeSync(Account.AccountPage)
const encodeError = Schema.encodeSync(WalletError.WalletError)

/**
 * Runs a command's program with the client, every printed line scrubbed of the key, and every
 * failure turned into one line and an exit code.
 */
const withClient = <A>(
  o: Shared,
  context: Omit<Messages.Context, "chainId" | "pool" | "url">,
  program: (print: (line: string) => Effect.Effect<void>, s: Settings) => Effect.Effect<A, WalletError.WalletError, WalletClient.WalletClient>
): Effect.Effect<void, ExitCode.Failure, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const s = yield* settings(o)
    const scrub = Output.scrub(secretsOf(s))
    const print = (line: string) => Console.log(scrub(line))
    const verbose = s.verbose ? Verbose.make({ baseUrl: s.url, log: (line) => Console.error(line), scrub }) : undefined
    const layer = WalletClient.layer({
      credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
      chainId: s.chainId,
      baseUrl: s.url,
      pool: s.pool,
      transformClient: verbose?.transformClient
    }).pipe(Layer.provide(FetchHttpClient.layer))
    const run = Effect.provide(program(print, s), layer)
    yield* (verbose !== undefined ? verbose.observe(run) : run).pipe(
      Effect.catchAll((error) => {
        const full: Messages.Context = { ...context, chainId: s.chainId, pool: s.pool, url: s.url }
        const resume = context.operation === "list" && "cursor" in error ? Messages.resume(error.cursor) : ""
        const details = s.verbose ? Console.error(scrub(JSON.stringify(encodeError(error)))) : Effect.void
        return Effect.zipRight(
          details,
          Effect.fail(new ExitCode.Failure({ message: scrub(Messages.walletError(error, full) + resume), code: ExitCode.ofWalletError(error) }))
        )
      })
    )
  })

const printAccount = (print: (line: string) => Effect.Effect<void>, s: Settings, account: Account.Account) =>
  print(s.json ? JSON.stringify(encodeAccount(account)) : Output.accountDetails(account))

const create = Command.make("create", shared, (o) =>
  withClient(o, { operation: "create" }, (print, s) => Effect.flatMap(WalletClient.createAccount(), (a) => printAccount(print, s, a))))

const parseAddress: Flags.Parser<string> = (raw) =>
  Option.isNone(Address.checksum(raw))
    ? Either.left(`must be 0x followed by 40 hex digits (got ${Flags.show(raw)})`)
    : Address.isValid(raw)
    ? Either.right(raw)
    : Either.left(`${raw} has a wrong EIP-55 checksum: give it all in lower case, or with its checksum`)

const get = Command.make("get", { ...shared, address: Args.text({ name: "address" }) }, (o) =>
  Either.match(parseAddress(o.address), {
    onLeft: (problem) => Effect.fail(ExitCode.invalid(`<address> ${problem}`)),
    onRight: (address) =>
      withClient(o, { operation: "get", address }, (print, s) =>
        Effect.flatMap(WalletClient.getAccount(address), (a) => printAccount(print, s, a)))
  }))

/**
 * Reads a time bound: Unix seconds (digits only), or an ISO-8601 date (`2024-05-01`) or date and
 * time (`2024-05-01T12:00:00Z`, `2024-05-01T12:00+09:00`; UTC without an offset). Anything else is
 * refused, as are impossible dates (`2024-02-30`).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseTime: Flags.Parser<number> = (raw) => {
  const refuse = (why?: string) =>
    Either.left(`${why ?? "must be Unix seconds or an ISO-8601 date such as 2024-05-01T00:00:00Z"} (got ${Flags.show(raw)})`)
  if (/^\d+$/.test(raw)) {
    const seconds = Number(raw)
    if (seconds > Timestamp.Max) return refuse(raw.length >= 13 ? "must be in seconds, not milliseconds" : `must be Unix seconds up to ${Timestamp.Max}`)
    return Either.right(seconds)
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(raw)
  if (m === null) return refuse()
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0", m[6] ?? "0"].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number
  ]
  const utc = Date.UTC(year, month - 1, day, hour, minute, second)
  const back = new Date(utc)
  // Date.UTC rolls impossible values over (February 30th becomes March 1st): refuse them instead.
  if (
    back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day ||
    back.getUTCHours() !== hour || back.getUTCMinutes() !== minute || back.getUTCSeconds() !== second
  ) {
    return refuse("must be a date and time that exist")
  }
  const zone = m[7]
  let offset = 0
  if (zone !== undefined && zone !== "Z") {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!
    const [h, mm] = [Number(z[2]), Number(z[3])]
    if (h > 23 || mm > 59) return refuse("must have a valid offset from UTC")
    offset = (z[1] === "-" ? -1 : 1) * (h * 60 + mm) * 60_000
  }
  const seconds = Math.floor((utc - offset) / 1000)
  if (seconds < 0) return refuse("must not be before 1970")
  return Either.right(seconds)
}

const list = Command.make("list", {
  ...shared,
  pageSize: Flags.text(S.pageSize),
  cursor: Flags.text(S.cursor),
  from: Flags.text(S.from),
  to: Flags.text(S.to),
  all: Flags.toggle(S.all)
}, (o) =>
  Effect.gen(function*() {
    const pageSize = yield* Flags.read(S.pageSize, o.pageSize, Flags.integer(1, 1000))
    const cursor = yield* Flags.read(S.cursor, o.cursor, Flags.nonEmpty)
    const from = yield* Flags.read(S.from, o.from, parseTime)
    const to = yield* Flags.read(S.to, o.to, parseTime)
    if (Option.isSome(from) && Option.isSome(to) && from.value > to.value) {
      return yield* ExitCode.invalid(`--from (${from.value}) is after --to (${to.value}): nothing can be listed`)
    }
    const params: WalletClient.ListParams = {
      pageSize: Option.getOrUndefined(pageSize),
      cursor: Option.getOrUndefined(cursor),
      from: Option.getOrUndefined(from),
      to: Option.getOrUndefined(to)
    }
    if (!o.all) {
      return yield* withClient(o, { operation: "list" }, (print, s) =>
        Effect.flatMap(WalletClient.listAccounts(params), (page) =>
          print(
            s.json
              ? JSON.stringify(encodePage(page))
              : [
                page.items.length === 0 ? "(no accounts)" : Output.table(Output.accountHeader, page.items.map((a) => Output.accountRow(a))),
                page.cursor === "" ? "(last page)" : `next page: --cursor ${page.cursor}`
              ].join("\n")
          )))
    }
    const terminal = yield* Output.Terminal
    const progress = Output.showsProgress(terminal)
    let accounts = 0
    let pages = 0
    return yield* withClient(o, { operation: "list" }, (print, s) =>
      WalletClient.accountPages(params).pipe(
        Stream.runForEach((page) =>
          Effect.gen(function*() {
            if (page.items.length > 0) {
              if (s.json) {
                yield* print(page.items.map((a) => JSON.stringify(encodeAccount(a))).join("\n"))
              } else {
                const text = Output.table(Output.accountHeader, page.items.map((a) => Output.accountRow(a)))
                yield* print(accounts === 0 ? text : text.slice(text.indexOf("\n") + 1))
              }
            }
            accounts += page.items.length
            pages++
            if (progress) terminal.writeProgress(`\r${Output.progress(accounts, pages, false)}`)
          })
        ),
        // The progress line ends before anything else is written to stderr (an error, say).
        Effect.ensuring(Effect.sync(() => {
          if (progress && pages > 0) terminal.writeProgress(`\r${Output.progress(accounts, pages, true)}\n`)
        }))
      ))
  }))

/**
 * `kas-wallet accounts`.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("accounts").pipe(Command.withSubcommands([create, get, list]))
