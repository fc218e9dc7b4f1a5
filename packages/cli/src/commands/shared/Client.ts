/**
 * What the `accounts`, `fee-payers`, `tx`, `keys` and `history` commands share: running a program with the
 * WalletClient configured by `ClientConfig` (every printed line scrubbed of the key, every failure
 * one line and an exit code), the address and time parsers, and the listing (one page, or every
 * page streamed with a progress line).
 *
 * @since 0.2.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { Console, Effect, Either, Option, Schema, Stream } from "effect"
import { Address, Pagination, Timestamp, Transaction, WalletClient, WalletConfig, WalletError } from "effect-kas-wallet"
import * as ExitCode from "../../output/ExitCode.js"
import * as Json from "../../output/Json.js"
import type * as Argv from "../../input/Argv.js"
import * as ClientConfig from "./ClientConfig.js"
import * as Flags from "../../input/Flags.js"
import * as Messages from "../../output/Messages.js"
import * as Output from "../../output/Output.js"
import * as Verbose from "../../output/Verbose.js"
import * as Shared from "./Spec.js"

const S = Shared.flags

/**
 * What a running command knows of its settings, for what it prints.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  readonly url: string
  readonly chainId: number
  /** The account pool KRN; `undefined` for the member's default pool. */
  readonly pool: string | undefined
  /** The fee-payer pool KRN; `undefined` for the member's default fee-payer pool. */
  readonly feePayerPool: string | undefined
  /** The key pool KRN; `undefined` when none is selected (the member's default key pool). */
  readonly keyPool: string | undefined
  readonly json: boolean
  readonly verbose: boolean
  /** `--wide`: every address, hash and id in full, however wide the table. */
  readonly wide: boolean
}

const krnOf = (
  selection: WalletConfig.PoolSelection | WalletConfig.FeePayerPoolSelection | WalletConfig.KeyPoolSelection | undefined
) =>
  selection === undefined || selection === null ? undefined : selection.toString()

const encodeError = Schema.encodeSync(WalletError.WalletError)

/**
 * A line printer: prints one line (or several, joined) on stdout, scrubbed of the key.
 *
 * @since 0.2.0
 * @category models
 */
export type Print = (line: string) => Effect.Effect<void>

/**
 * How a command prints a result: with `--json` its JSON (the schema's encoding), else `text`.
 *
 * @since 0.9.0
 * @category printing
 */
export const printer = <A, I>(schema: Schema.Schema<A, I>, text: (a: A, layout: Output.Layout) => string) => {
  const encode = Schema.encodeSync(schema)
  return (print: Print, s: Settings) => (a: A): Effect.Effect<void> => print(s.json ? Json.stringify(encode(a)) : text(a, s))
}

/**
 * What a command tells `withClient` of what it does, for its messages: the pool is the selected
 * one of its kind (account, fee-payer or key pool) unless the command names another (`keys list
 * --krn`).
 *
 * @since 0.8.0
 * @category models
 */
export type Doing = Omit<Messages.Context, "chainId" | "pool" | "url"> & { readonly pool?: string | undefined }

/**
 * Runs a command's program with the client configured by `ClientConfig`, every printed line
 * scrubbed of the key by the client's scrubber, and every failure turned into one line and an
 * exit code; succeeds with what the program gives.
 *
 * @since 0.2.0
 * @category running
 */
export const withClient = <A>(
  run: Argv.Run,
  uses: ClientConfig.Uses,
  context: Doing,
  program: (print: Print, s: Settings) => Effect.Effect<A, WalletError.WalletError, WalletClient.WalletClient>
): Effect.Effect<A, ExitCode.Failure> =>
  Effect.gen(function*() {
    const configured = yield* ClientConfig.configure(run, uses)
    const { options, scrubber } = configured
    const s: Settings = {
      url: options.baseUrl?.toString().replace(/\/+$/, "") ?? WalletConfig.DefaultBaseUrl,
      chainId: Number(options.chainId),
      pool: krnOf(options.pool),
      feePayerPool: krnOf(options.feePayerPool),
      keyPool: krnOf(options.keyPool),
      json: Flags.isSet(run, S.json),
      verbose: Flags.isSet(run, S.verbose),
      wide: Flags.isSet(run, S.wide)
    }
    const scrub = scrubber.scrub
    const print = (line: string) => Console.log(scrub(line))
    const verbose = s.verbose ? Verbose.make({ baseUrl: s.url, log: (line) => Console.error(line), scrub }) : undefined
    const client = yield* ClientConfig.client(configured, { transformClient: verbose?.transformClient }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    const provided = Effect.provideService(program(print, s), WalletClient.WalletClient, client)
    return yield* (verbose !== undefined ? verbose.observe(provided) : provided).pipe(
      Effect.catchAll((error) => {
        const full: Messages.Context = {
          ...context,
          chainId: s.chainId,
          pool: context.pool ?? (context.kind === "fee-payer" ? s.feePayerPool : context.kind === "key" ? s.keyPool : s.pool),
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
 * Runs `program` with the client (as `withClient`) on the `<address>` argument, checked first: a bad
 * one is exit code 2 before any request.
 *
 * @since 0.9.0
 * @category running
 */
export const onAddress = (
  run: Argv.Run,
  uses: ClientConfig.Uses,
  context: Doing,
  program: (address: string, print: Print, s: Settings) => Effect.Effect<void, WalletError.WalletError, WalletClient.WalletClient>
): Effect.Effect<void, ExitCode.Failure> =>
  Effect.flatMap(Flags.argument(run, "address", parseAddress), (address) =>
    withClient(run, uses, { ...context, address }, (print, s) => program(address, print, s)))

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
 * Checks a transaction hash argument: 0x and 64 hex digits (`Transaction.TxHash`).
 *
 * @since 0.9.0
 * @category parsing
 */
export const parseTxHash: Flags.Parser<Transaction.TxHash> = Flags.decoded(Transaction.TxHash, "must be 0x followed by 64 hex digits")

const parsePageSize = Flags.integerOf(Pagination.PageSize, Pagination.MinPageSize, Pagination.MaxPageSize)

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
 * Reads and checks the page size and the cursor of a listing (`--page-size`, `--cursor`): the
 * whole paging of a listing that takes no time range (keys, the history).
 *
 * @since 0.8.0
 * @category settings
 */
export const pageAndCursor = (
  run: Argv.Run
): Effect.Effect<{ readonly pageSize: number | undefined; readonly cursor: string | undefined }, ExitCode.Failure> =>
  Effect.gen(function*() {
    const pageSize = yield* Flags.read(S.pageSize, Flags.given(run, S.pageSize), parsePageSize)
    const cursor = yield* Flags.read(S.cursor, Flags.given(run, S.cursor), Flags.nonEmpty)
    return { pageSize: Option.getOrUndefined(pageSize), cursor: Option.getOrUndefined(cursor) }
  })

/**
 * Reads and checks the listing options.
 *
 * @since 0.2.0
 * @category settings
 */
export const paging = (run: Argv.Run): Effect.Effect<Paging, ExitCode.Failure> =>
  Effect.gen(function*() {
    const { cursor, pageSize } = yield* pageAndCursor(run)
    const from = yield* Flags.read(S.from, Flags.given(run, S.from), parseTime)
    const to = yield* Flags.read(S.to, Flags.given(run, S.to), parseTime)
    if (Option.isSome(from) && Option.isSome(to) && from.value > to.value) {
      return yield* ExitCode.invalid(`--from (${from.value}) is after --to (${to.value}): nothing can be listed`)
    }
    return {
      pageSize,
      cursor,
      from: Option.getOrUndefined(from),
      to: Option.getOrUndefined(to)
    }
  })

/**
 * What a listing prints: the JSON of an item and of a page (their schemas' encodings), the table
 * (its header and the row of an item), what an empty page says, and the noun of its progress
 * line. `one` and `pages` are given the settings, for a listing whose request depends on them (the
 * chain of a key pool).
 *
 * @since 0.2.0
 * @category models
 */
export interface Listed<A, IA, P extends { readonly items: ReadonlyArray<A>; readonly cursor: string }, IP> {
  readonly kind: Messages.Context["kind"]
  /** The pool the listing lists, for its messages, when not the selected one of its kind. */
  readonly pool?: string | undefined
  readonly one: (s: Settings) => Effect.Effect<P, WalletError.WalletError, WalletClient.WalletClient>
  readonly pages: (s: Settings) => Stream.Stream<P, WalletError.WalletError, WalletClient.WalletClient>
  readonly item: Schema.Schema<A, IA>
  readonly page: Schema.Schema<P, IP>
  readonly header: ReadonlyArray<string>
  /** An item's cells; `layout` for a row that fits 80 columns otherwise than by `Output.fit`. */
  readonly row: (item: A, layout: Output.Layout) => ReadonlyArray<string>
  readonly empty: string
  /** One item, for the progress line (`account`: `1000 accounts, 1 page…`). */
  readonly noun: string
}

/**
 * Runs a listing: one page and the cursor of the next, or with `all` every page, streamed (JSON:
 * one item per line), with a progress line when the rows go to a file or a pipe.
 *
 * @since 0.2.0
 * @category running
 */
export const list = <A, IA, P extends { readonly items: ReadonlyArray<A>; readonly cursor: string }, IP>(
  run: Argv.Run,
  uses: ClientConfig.Uses,
  listed: Listed<A, IA, P, IP>
): Effect.Effect<void, ExitCode.Failure> =>
  Effect.gen(function*() {
    const itemJson = (item: A) => Json.stringify(Schema.encodeSync(listed.item)(item))
    const context = { operation: "list", kind: listed.kind, pool: listed.pool } as const
    if (!Flags.isSet(run, S.all)) {
      return yield* withClient(run, uses, context, (print, s) =>
        Effect.flatMap(listed.one(s), (page) =>
          print(
            s.json
              ? Json.stringify(Schema.encodeSync(listed.page)(page))
              : [
                page.items.length === 0 ? listed.empty : Output.table(listed.header, page.items.map((item) => listed.row(item, s)), "", s),
                page.cursor === "" ? "(last page)" : `next page: --cursor ${page.cursor}`
              ].join("\n")
          )))
    }
    const terminal = yield* Output.Terminal
    const progress = Output.showsProgress(terminal)
    let items = 0
    let pages = 0
    return yield* withClient(run, uses, context, (print, s) =>
      listed.pages(s).pipe(
        Stream.runForEach((page) =>
          Effect.gen(function*() {
            if (page.items.length > 0) {
              if (s.json) {
                yield* print(page.items.map(itemJson).join("\n"))
              } else {
                const text = Output.table(listed.header, page.items.map((item) => listed.row(item, s)), "", s)
                yield* print(items === 0 ? text : text.slice(text.indexOf("\n") + 1))
              }
            }
            items += page.items.length
            pages++
            if (progress) terminal.writeProgress(`\r${Output.progress(items, pages, false, listed.noun)}`)
          })
        ),
        // The progress line ends before anything else is written to stderr (an error, say).
        Effect.ensuring(Effect.sync(() => {
          if (progress && pages > 0) terminal.writeProgress(`\r${Output.progress(items, pages, true, listed.noun)}\n`)
        }))
      ))
  })
