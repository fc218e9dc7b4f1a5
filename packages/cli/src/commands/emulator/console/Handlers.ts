/**
 * `kas-wallet emulator env | member | key | pool`: the emulator's shell settings, and its members,
 * keys and pools managed directly in its database (running or not); with the database's location
 * (`--db`, else `--data-dir`, else the default data directory) and the emulator's failures as one
 * line each, which `ledger/Handlers` shares. Their table is `Spec`.
 *
 * @since 0.2.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as SqlError from "@effect/sql/SqlError"
import { Config, Console, Effect, Option, Redacted } from "effect"
import type { ChainId } from "effect-kas-wallet"
import type * as EmulatorConsole from "effect-kas-wallet-emulator/EmulatorConsole"
import type { EmulatorError } from "effect-kas-wallet-emulator/EmulatorError"
import type * as Argv from "../../../input/Argv.js"
import * as DataDir from "../../../input/DataDir.js"
import * as Flags from "../../../input/Flags.js"
import type * as Spec from "../../../input/Spec.js"
import { existsSync } from "node:fs"
import * as path from "node:path"
import * as ExitCode from "../../../output/ExitCode.js"
import * as Output from "../../../output/Output.js"
import type { Handlers } from "../../Handler.js"
import * as Table from "../../Spec.js"

const E = Table.Console.flags

const loadConsole = Effect.promise(() => import("effect-kas-wallet-emulator/EmulatorConsole"))

/**
 * The line and exit code of a failure of the emulator or its console.
 *
 * @since 0.2.0
 * @category errors
 */
export const failureOf = (error: EmulatorError | EmulatorConsole.ConsoleError | SqlError.SqlError): ExitCode.Failure => {
  const cause = "cause" in error && error.cause instanceof Error && error._tag === "EmulatorError" && error.reason === "Database"
    ? ` (${error.cause.message.replace(/\s+/g, " ")})`
    : ""
  const hint = error._tag === "EmulatorError" && error.reason === "Listen"
    ? `; is another emulator running? --port 0 picks a free port`
    : ""
  const message = error._tag === "SqlError" ? `storage failure: ${error.message}` : error.message
  return new ExitCode.Failure({ message: `${message}${cause}${hint}`.replace(/\s*\n\s*/g, " "), code: ExitCode.ofEmulatorError(error) })
}

const variable = (name: string) =>
  Effect.orElseSucceed(Config.string(name).pipe(Config.option, Config.map(Option.getOrUndefined)), () => undefined)

/**
 * The data directory, as an absolute path (the settings printed for it are evaluated in other
 * directories): `--data-dir`, else `KAS_EMULATOR_DATA_DIR`, else the default one.
 *
 * @since 0.2.0
 * @category settings
 */
export const dataDirectory = (given: Option.Option<string>): Effect.Effect<string> =>
  Effect.flatMap(Flags.raw(E.dataDir, given), (found) =>
    Option.match(found, {
      onSome: (s) => Effect.succeed(path.resolve(s.value)),
      // Read through Config, like every other setting, so that a test can give its own.
      onNone: () =>
        Effect.zipWith(variable("XDG_DATA_HOME"), variable("HOME"), (xdg, home) => DataDir.defaultDirectory({ XDG_DATA_HOME: xdg }, home))
    }))

/**
 * The database of a console command: `--db`, else `--data-dir`'s, else `KAS_EMULATOR_DB`, else
 * `KAS_EMULATOR_DATA_DIR`'s, else the default data directory's: a flag given beats a setting left
 * in the shell.
 *
 * @since 0.2.0
 * @category settings
 */
export const database = (run: Argv.Run): Effect.Effect<string> => {
  const db = Flags.given(run, E.consoleDb)
  if (Option.isSome(db)) return Effect.succeed(db.value)
  const dir = Flags.given(run, E.dataDir)
  if (Option.isSome(dir)) return Effect.succeed(DataDir.files(path.resolve(dir.value)).database)
  return Effect.flatMap(Flags.raw(E.consoleDb, Option.none()), (fromEnv) =>
    Option.match(fromEnv, {
      onSome: (s) => Effect.succeed(s.value),
      onNone: () => Effect.map(dataDirectory(Option.none()), (d) => DataDir.files(d).database)
    }))
}

/**
 * How an emulator command lays out its lines: whole with `--wide`, else fitting 80 columns.
 *
 * @since 0.13.0
 * @category output
 */
export const layoutOf = (run: Argv.Run): Output.Layout => ({ wide: Flags.isSet(run, Table.Shared.flags.wide) })

/**
 * Where a database option puts the database (`EmulatorConsole.databaseLocation`, loaded with the
 * console when needed).
 *
 * @since 0.13.0
 * @category settings
 */
export const databaseLocation = (database: string) => Effect.map(loadConsole, (C) => C.databaseLocation(database))

/**
 * The database, when it exists (a server's is taken as existing); else `missing`: opening a
 * missing file (a path or a `file:` URL) would create an empty database, and a command would work
 * on it and claim success.
 *
 * @since 0.13.0
 * @category settings
 */
export const existing = (database: string, missing: string): Effect.Effect<string, ExitCode.Failure> =>
  Effect.flatMap(databaseLocation(database), (location) =>
    location._tag === "File" && !existsSync(location.path)
      ? Effect.fail(ExitCode.invalid(`no emulator database at ${location.path}: ${missing}`))
      : Effect.succeed(database))

/**
 * What to do when the database a member, key or pool command looks in is not the emulator's: where
 * to point it, and why an `--ephemeral` emulator's cannot be reached.
 *
 * @since 0.13.0
 * @category errors
 */
export const elsewhere =
  "give the emulator's --data-dir (or --db), or set KAS_EMULATOR_DATA_DIR as the settings of `kas-wallet emulator env` do; " +
  "an --ephemeral emulator keeps its members, keys and pools in its memory, out of another process's reach: " +
  "start it with --data-dir DIR to manage them from here"

/**
 * Runs `f` with the console of a database; a member it does not hold is reported with the
 * database looked in.
 *
 * @since 0.2.0
 * @category running
 */
export const withConsole = <A>(
  database: string,
  f: (console: EmulatorConsole.Service) => Effect.Effect<A, EmulatorConsole.ConsoleError | SqlError.SqlError>
): Effect.Effect<A, ExitCode.Failure> =>
  Effect.flatMap(loadConsole, (C) =>
    Effect.flatMap(C.Console, f).pipe(
      Effect.provide(C.layerDatabase({ database })),
      Effect.mapError((error) => {
        const failure = failureOf(error)
        return error._tag === "ConsoleError" && error.reason === "MemberNotFound"
          ? new ExitCode.Failure({ message: `${failure.message} in the database ${database}: check the account id, or the database: ${elsewhere}`, code: failure.code })
          : failure
      })
    ))

/** A new key's fields, the secret and its Authorization value shown this once. */
const newKeyFields = (key: EmulatorConsole.NewApiKey) => ({
  accessKeyId: key.accessKeyId,
  secretAccessKey: Redacted.value(key.secretAccessKey),
  authorization: Redacted.value(key.authorization)
})

const newKeyLines = (key: EmulatorConsole.NewApiKey) => {
  const fields = newKeyFields(key)
  return [
    `access key id: ${fields.accessKeyId}`,
    `secret access key: ${fields.secretAccessKey}`,
    `authorization: ${fields.authorization}`,
    "(the secret is shown this once: only its hash is stored)"
  ]
}

/**
 * Reads a chain flag: 8217 or 1001.
 *
 * @since 0.2.0
 * @category settings
 */
export const chainOf = (run: Argv.Run, flag: Spec.Flag): Effect.Effect<Option.Option<ChainId.ChainId>, ExitCode.Failure> =>
  Effect.map(
    Flags.read(flag, Flags.given(run, flag), Flags.choice(["8217", "1001"], "8217 (mainnet) or 1001 (testnet)")),
    Option.map((s) => Number(s) as ChainId.ChainId)
  )

const required = <A>(flag: Spec.Flag, value: Effect.Effect<Option.Option<A>, ExitCode.Failure>) =>
  Effect.flatMap(value, Option.match({
    onNone: () =>
      Effect.fail(ExitCode.invalid(`--${flag.name}${flag.env !== undefined ? ` (or ${flag.env})` : ""} is required, e.g. ${flag.example}`)),
    onSome: Effect.succeed
  }))

/**
 * A text flag, not empty when given.
 *
 * @since 0.2.0
 * @category settings
 */
export const text = (run: Argv.Run, flag: Spec.Flag): Effect.Effect<Option.Option<string>, ExitCode.Failure> =>
  Flags.read(flag, Flags.given(run, flag), Flags.nonEmpty)

/** The chain of `pool create` and `pool list`: `--chain`, as everywhere, or its older spelling `--chain-id`. */
const poolChain = (run: Argv.Run, chainFlag: Spec.Flag, chainIdFlag: Spec.Flag) =>
  Effect.gen(function*() {
    const chain = yield* chainOf(run, chainFlag)
    const chainId = yield* chainOf(run, chainIdFlag)
    if (Option.isSome(chain) && Option.isSome(chainId)) return yield* ExitCode.invalid(`give --${chainFlag.name} or --${chainIdFlag.name}, not both`)
    return Option.orElse(chain, () => chainId)
  })

const created = (item: { readonly createdAt: number }) => new Date(item.createdAt * 1000).toISOString()

/**
 * A listing of the console: a line per item (at 80 columns, ids shortened throughout when a line
 * would pass them; `--wide` whole), or with `--json` one array.
 */
const printList = <A>(run: Argv.Run, items: ReadonlyArray<A>, line: (a: A) => string) =>
  Console.log(
    Flags.isSet(run, E.json)
      ? JSON.stringify(items)
      : Output.lines(items.map(line).join("\n"), layoutOf(run), true)
  ).pipe(Effect.when(() => Flags.isSet(run, E.json) || items.length > 0))

/**
 * Runs `f` on the command's database, which must exist: a member, key or pool command never
 * creates a database but `member create` given `--db` (`create`), which may start one.
 */
const onDatabase = <A>(
  run: Argv.Run,
  f: (console: EmulatorConsole.Service) => Effect.Effect<A, EmulatorConsole.ConsoleError | SqlError.SqlError>,
  create = false
) =>
  Effect.flatMap(database(run), (db) =>
    Effect.flatMap(create && Option.isSome(Flags.given(run, E.consoleDb)) ? Effect.succeed(db) : existing(db, elsewhere), (db) => withConsole(db, f)))

/**
 * The console commands, by their words after `emulator`.
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = {
  env: (run) =>
    Effect.gen(function*() {
      const directory = yield* dataDirectory(Flags.given(run, E.dataDir))
      yield* Console.log((yield* DataDir.readEnv(directory)).trimEnd())
    }),
  "member create": (run) =>
    Effect.flatMap(text(run, E.newAccountId), (accountId) =>
      onDatabase(run, (c) =>
        Effect.gen(function*() {
          const member = yield* c.createMember({ accountId: Option.getOrUndefined(accountId) })
          const key = Flags.isSet(run, E.withKey) ? yield* c.createKey(member.accountId) : undefined
          yield* Console.log(
            Flags.isSet(run, E.json)
              ? JSON.stringify({ accountId: member.accountId, ...(key !== undefined ? newKeyFields(key) : {}) })
              : [`account id: ${member.accountId}`, ...(key !== undefined ? newKeyLines(key) : [])].join("\n")
          )
        }), true)),
  "member list": (run) =>
    onDatabase(run, (c) =>
      Effect.flatMap(c.listMembers, (members) =>
        printList(run, members.map((m) => ({ accountId: m.accountId, createdAt: m.createdAt })), (m) => `${m.accountId}  created ${created(m)}`))),
  "key create": (run) =>
    Effect.flatMap(required(E.accountId, text(run, E.accountId)), (accountId) =>
      onDatabase(run, (c) =>
        Effect.flatMap(c.createKey(accountId), (key) =>
          Console.log(Flags.isSet(run, E.json) ? JSON.stringify({ accountId, ...newKeyFields(key) }) : newKeyLines(key).join("\n"))))),
  "key list": (run) =>
    Effect.flatMap(required(E.accountId, text(run, E.accountId)), (accountId) =>
      onDatabase(run, (c) =>
        Effect.flatMap(c.listKeys(accountId), (keys) =>
          printList(run, keys.map((k) => ({ accessKeyId: k.accessKeyId, createdAt: k.createdAt })), (k) => `${k.accessKeyId}  created ${created(k)}`)))),
  "key delete": (run) =>
    Effect.gen(function*() {
      const accountId = yield* required(E.accountId, text(run, E.accountId))
      const accessKeyId = yield* required(E.keyId, text(run, E.keyId))
      yield* onDatabase(run, (c) =>
        Effect.zipRight(
          c.deleteKey(accountId, accessKeyId),
          Console.log(Flags.isSet(run, E.json) ? JSON.stringify({ status: "deleted", accessKeyId }) : `deleted ${accessKeyId}`)
        ))
    }),
  "pool create": (run) =>
    Effect.gen(function*() {
      const accountId = yield* required(E.accountId, text(run, E.accountId))
      const chainId = yield* required(E.poolChain, poolChain(run, E.poolChain, E.chainId))
      const name = yield* required(E.name, text(run, E.name))
      yield* onDatabase(run, (c) =>
        Effect.flatMap(
          Flags.isSet(run, E.feePayer)
            ? Effect.map(c.createFeePayerPool({ accountId, chainId, name }), (p) => p.krn.toString())
            : Effect.map(c.createPool({ accountId, chainId, name }), (p) => p.krn.toString()),
          (krn) => Console.log(Flags.isSet(run, E.json) ? JSON.stringify({ krn }) : krn)
        ))
    }),
  "pool list": (run) =>
    Effect.gen(function*() {
      const accountId = yield* required(E.accountId, text(run, E.accountId))
      const chainId = Option.getOrUndefined(yield* poolChain(run, E.optionalPoolChain, E.optionalChainId))
      yield* onDatabase(run, (c) =>
        Effect.flatMap(
          Flags.isSet(run, E.feePayer)
            ? Effect.map(c.listFeePayerPools(accountId, chainId), (pools) => pools.map((p) => ({ krn: p.krn.toString(), isDefault: p.isDefault })))
            : Effect.map(c.listPools(accountId, chainId), (pools) => pools.map((p) => ({ krn: p.krn.toString(), isDefault: p.isDefault }))),
          (pools) => printList(run, pools, (p) => `${p.krn}${p.isDefault ? "  (default)" : ""}`)
        ))
    })
} satisfies Handlers<(typeof Table.Console.commands)[number], FileSystem.FileSystem>
