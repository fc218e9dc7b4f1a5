/**
 * What the `accounts` and `fee-payers` commands share: the service and key settings (each flag,
 * else its environment variable), running a program with the WalletClient (every printed line
 * scrubbed of the key, every failure one line and an exit code), the address and time parsers,
 * and the listing (one page, or every page streamed with a progress line).
 *
 * @since 0.2.0
 */
import type { Command } from "@effect/cli"
import { FetchHttpClient, FileSystem } from "@effect/platform"
import { Console, Effect, Either, Layer, Option, Redacted, Schema, Stream } from "effect"
import { Address, Krn, Timestamp, WalletClient, WalletConfig, WalletError } from "effect-kas-wallet"
import * as ExitCode from "../output/ExitCode.js"
import * as Flags from "../input/Flags.js"
import * as Messages from "../output/Messages.js"
import * as Output from "../output/Output.js"
import * as Spec from "../input/Spec.js"
import * as Verbose from "../output/Verbose.js"

const S = Spec.accounts

const connection = {
  url: Flags.text(S.url),
  chain: Flags.text(S.chain),
  accessKeyId: Flags.text(S.accessKeyId),
  secretAccessKey: Flags.text(S.secretAccessKey),
  secretAccessKeyFile: Flags.text(S.secretAccessKeyFile),
  json: Flags.toggle(S.json),
  verbose: Flags.toggle(S.verbose)
}

/**
 * The options of every `accounts` command: service, chain, account pool, key and output.
 *
 * @since 0.2.0
 * @category options
 */
export const accountOptions = { ...connection, pool: Flags.text(S.pool) }

/**
 * The options of every `fee-payers` command: service, chain, fee-payer pool, key and output.
 *
 * @since 0.2.0
 * @category options
 */
export const feePayerOptions = { ...connection, feePayerPool: Flags.text(S.feePayerPool) }

/**
 * The parsed options of a command: the connection's, and the pool of its kind.
 *
 * @since 0.2.0
 * @category models
 */
export type Options = Command.Command.ParseConfig<typeof connection> & {
  readonly pool?: Option.Option<string>
  readonly feePayerPool?: Option.Option<string>
}

/**
 * The settings of a command, checked.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  readonly url: string
  readonly chainId: 8217 | 1001
  /** The account pool KRN (`accounts` commands). */
  readonly pool: string | undefined
  /** The fee-payer pool KRN (`fee-payers` commands). */
  readonly feePayerPool: string | undefined
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

const krnParser = (schema: Schema.Schema<any, string>, expected: string): Flags.Parser<string> => {
  const decode = Schema.decodeUnknownEither(schema)
  return (raw) => Either.isRight(decode(raw)) ? Either.right(raw) : Either.left(`must be ${expected} (got ${Flags.show(raw)})`)
}

const parsePool = krnParser(Krn.AccountPoolKrn, "an account pool KRN, krn:<chain>:wallet:<account-id>:account-pool:<name>")
const parseFeePayerPool = krnParser(
  Krn.FeePayerPoolKrn,
  "a fee-payer pool KRN, krn:<chain>:wallet:<account-id>:feepayer-pool:<name>"
)

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
const secretOf = (o: Options) =>
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

/** A pool KRN of the command's kind, when it has one, on the chain of the command. */
const poolOf = (flag: Spec.Flag, given: Option.Option<string> | undefined, parse: Flags.Parser<string>, chainId: number) =>
  given === undefined
    ? Effect.succeed(undefined)
    : Effect.flatMap(Flags.read(flag, given, parse), (found) => {
      const krn = Option.getOrUndefined(found)
      return krn !== undefined && !krn.startsWith(`krn:${chainId}:`)
        ? Effect.fail(ExitCode.invalid(`--${flag.name} ${krn} is on chain ${krn.split(":")[1]}, but the chain is ${chainId} (--chain / KAS_CHAIN_ID)`))
        : Effect.succeed(krn)
    })

/**
 * Reads and checks the shared settings: each flag, else its environment variable.
 *
 * @since 0.1.0
 * @category settings
 */
export const settings = (o: Options): Effect.Effect<Settings, ExitCode.Failure, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const chain = yield* Flags.read(S.chain, o.chain, Flags.choice(["8217", "1001"], "8217 (mainnet) or 1001 (testnet)"))
    const chainId = Number(Option.getOrElse(chain, () => "1001")) as 8217 | 1001
    const url = Option.getOrElse(yield* Flags.read(S.url, o.url, parseUrl), () => WalletConfig.DefaultBaseUrl)
    const pool = yield* poolOf(S.pool, o.pool, parsePool, chainId)
    const feePayerPool = yield* poolOf(S.feePayerPool, o.feePayerPool, parseFeePayerPool, chainId)
    const accessKeyId = yield* Flags.read(S.accessKeyId, o.accessKeyId, Flags.nonEmpty)
    const secretAccessKey = yield* secretOf(o)
    if (Option.isNone(accessKeyId) || Option.isNone(secretAccessKey)) return yield* ExitCode.invalid(NoKey)
    return {
      url,
      chainId,
      pool,
      feePayerPool,
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

const encodeError = Schema.encodeSync(WalletError.WalletError)

/**
 * A line printer: prints one line (or several, joined) on stdout, scrubbed of the key.
 *
 * @since 0.2.0
 * @category models
 */
export type Print = (line: string) => Effect.Effect<void>

/**
 * Runs a command's program with the client, every printed line scrubbed of the key, and every
 * failure turned into one line and an exit code.
 *
 * @since 0.2.0
 * @category running
 */
export const withClient = <A>(
  o: Options,
  context: Omit<Messages.Context, "chainId" | "pool" | "url">,
  program: (print: Print, s: Settings) => Effect.Effect<A, WalletError.WalletError, WalletClient.WalletClient>
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
      feePayerPool: s.feePayerPool,
      transformClient: verbose?.transformClient
    }).pipe(Layer.provide(FetchHttpClient.layer))
    const run = Effect.provide(program(print, s), layer)
    yield* (verbose !== undefined ? verbose.observe(run) : run).pipe(
      Effect.catchAll((error) => {
        const full: Messages.Context = {
          ...context,
          chainId: s.chainId,
          pool: context.kind === "fee-payer" ? s.feePayerPool : s.pool,
          url: s.url
        }
        const resume = context.operation === "list" && "cursor" in error ? Messages.resume(error.cursor) : ""
        const details = s.verbose ? Console.error(scrub(JSON.stringify(encodeError(error)))) : Effect.void
        return Effect.zipRight(
          details,
          Effect.fail(new ExitCode.Failure({ message: scrub(Messages.walletError(error, full) + resume), code: ExitCode.ofWalletError(error) }))
        )
      })
    )
  })

/**
 * Checks an address argument: 0x and 40 hex digits, in one case or with a valid EIP-55 checksum.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseAddress: Flags.Parser<string> = (raw) =>
  Option.isNone(Address.checksum(raw))
    ? Either.left(`must be 0x followed by 40 hex digits (got ${Flags.show(raw)})`)
    : Address.isValid(raw)
    ? Either.right(raw)
    : Either.left(`${raw} has a wrong EIP-55 checksum: give it all in lower case, or with its checksum`)

/**
 * Runs `withAddress` with a checked `<address>` argument; a bad one is exit code 2 before any
 * request.
 *
 * @since 0.2.0
 * @category running
 */
export const withAddress = (
  raw: string,
  withAddress: (address: string) => Effect.Effect<void, ExitCode.Failure, FileSystem.FileSystem>
): Effect.Effect<void, ExitCode.Failure, FileSystem.FileSystem> =>
  Either.match(parseAddress(raw), {
    onLeft: (problem) => Effect.fail(ExitCode.invalid(`<address> ${problem}`)),
    onRight: withAddress
  })

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

/**
 * The listing options: page size, cursor, time range, all pages.
 *
 * @since 0.2.0
 * @category options
 */
export const listOptions = {
  pageSize: Flags.text(S.pageSize),
  cursor: Flags.text(S.cursor),
  from: Flags.text(S.from),
  to: Flags.text(S.to),
  all: Flags.toggle(S.all)
}

/**
 * A listing's paging, checked.
 *
 * @since 0.2.0
 * @category models
 */
export interface Paging {
  readonly pageSize: number | undefined
  readonly cursor: string | undefined
  readonly from: number | undefined
  readonly to: number | undefined
}

/**
 * Reads and checks the listing options.
 *
 * @since 0.2.0
 * @category settings
 */
export const paging = (o: {
  readonly pageSize: Option.Option<string>
  readonly cursor: Option.Option<string>
  readonly from: Option.Option<string>
  readonly to: Option.Option<string>
}): Effect.Effect<Paging, ExitCode.Failure> =>
  Effect.gen(function*() {
    const pageSize = yield* Flags.read(S.pageSize, o.pageSize, Flags.integer(1, 1000))
    const cursor = yield* Flags.read(S.cursor, o.cursor, Flags.nonEmpty)
    const from = yield* Flags.read(S.from, o.from, parseTime)
    const to = yield* Flags.read(S.to, o.to, parseTime)
    if (Option.isSome(from) && Option.isSome(to) && from.value > to.value) {
      return yield* ExitCode.invalid(`--from (${from.value}) is after --to (${to.value}): nothing can be listed`)
    }
    return {
      pageSize: Option.getOrUndefined(pageSize),
      cursor: Option.getOrUndefined(cursor),
      from: Option.getOrUndefined(from),
      to: Option.getOrUndefined(to)
    }
  })

/**
 * What a listing prints: the JSON of an item and of a page, the table row of an item, and what an
 * empty page says.
 *
 * @since 0.2.0
 * @category models
 */
export interface Listed<A, P extends { readonly items: ReadonlyArray<A>; readonly cursor: string }> {
  readonly kind: Messages.Context["kind"]
  readonly one: Effect.Effect<P, WalletError.WalletError, WalletClient.WalletClient>
  readonly pages: Stream.Stream<P, WalletError.WalletError, WalletClient.WalletClient>
  readonly itemJson: (item: A) => string
  readonly pageJson: (page: P) => string
  readonly row: (item: A) => ReadonlyArray<string>
  readonly empty: string
}

/**
 * Runs a listing: one page and the cursor of the next, or with `all` every page, streamed (JSON:
 * one item per line), with a progress line when the rows go to a file or a pipe.
 *
 * @since 0.2.0
 * @category running
 */
export const list = <A, P extends { readonly items: ReadonlyArray<A>; readonly cursor: string }>(
  o: Options,
  all: boolean,
  listed: Listed<A, P>
): Effect.Effect<void, ExitCode.Failure, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const context = { operation: "list", kind: listed.kind } as const
    if (!all) {
      return yield* withClient(o, context, (print, s) =>
        Effect.flatMap(listed.one, (page) =>
          print(
            s.json
              ? listed.pageJson(page)
              : [
                page.items.length === 0 ? listed.empty : Output.table(Output.accountHeader, page.items.map(listed.row)),
                page.cursor === "" ? "(last page)" : `next page: --cursor ${page.cursor}`
              ].join("\n")
          )))
    }
    const terminal = yield* Output.Terminal
    const progress = Output.showsProgress(terminal)
    let accounts = 0
    let pages = 0
    return yield* withClient(o, context, (print, s) =>
      listed.pages.pipe(
        Stream.runForEach((page) =>
          Effect.gen(function*() {
            if (page.items.length > 0) {
              if (s.json) {
                yield* print(page.items.map(listed.itemJson).join("\n"))
              } else {
                const text = Output.table(Output.accountHeader, page.items.map(listed.row))
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
  })
