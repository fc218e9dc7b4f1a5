/**
 * Where the emulator keeps its state, and opening it: a libSQL client, migrated and tuned.
 *
 * Locations (the `database` option):
 * - `":memory:"`: a private database that lives as long as the emulator. It is a file in a fresh
 *   temporary directory, removed on shutdown: libSQL cannot name in-memory databases (its URLs
 *   reject `mode=memory`), and a plain `:memory:` database loses its tables in transactions. The
 *   file starts as a copy of what the migrations made of an empty file, once per process.
 * - a path, or a `file:` URL: an embedded libSQL (SQLite) file, created with its directory.
 *   Files (and the ephemeral one) are opened through libSQL's native binding with the statements
 *   kept (Embedded.ts); the other locations through @libsql/client.
 * - `file::memory:?cache=shared`: SQLite's shared in-memory database, passed through as is. Every
 *   client of the process that opens it sees the same data.
 * - a `libsql://`, `http(s)://` or `ws(s)://` URL: a libSQL server, shared by several emulators.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import * as LibsqlClient from "@effect/sql-libsql/LibsqlClient"
import * as Libsql from "@libsql/client"
import { Context, Effect, Either, Layer, Redacted } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { EmulatorError } from "../EmulatorError.js"
import * as Embedded from "./Embedded.js"
import * as Migrations from "./Migrations.js"

/**
 * A parsed database location.
 *
 * @since 0.1.0
 * @category models
 */
export type Location =
  | { readonly _tag: "Ephemeral" }
  | { readonly _tag: "File"; readonly path: string }
  | { readonly _tag: "SharedMemory"; readonly url: string }
  | { readonly _tag: "Remote"; readonly url: string }

/**
 * The location of a private database living as long as its emulator.
 *
 * @since 0.1.0
 * @category constants
 */
export const Memory = ":memory:"

/**
 * The database file of the `kas-wallet emulator` process, relative to its working directory.
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultFile = ".kas-wallet/emulator.db"

/**
 * Reads the `database` option. Relative paths resolve against the working directory.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (database: string): Either.Either<Location, EmulatorError> => {
  const fail = (message: string) => Either.left(new EmulatorError({ reason: "Config", message }))
  const trimmed = database.trim()
  if (trimmed === "") return fail("database must not be empty")
  if (trimmed === Memory) return Either.right({ _tag: "Ephemeral" })
  if (/^(libsql|https?|wss?):\/\//i.test(trimmed)) return Either.right({ _tag: "Remote", url: trimmed })
  if (/^file:/i.test(trimmed)) {
    const rest = trimmed.slice(5)
    if (rest.startsWith(":memory:")) return Either.right({ _tag: "SharedMemory", url: trimmed })
    if (rest.includes("?")) return fail(`file databases take no URL parameters: ${redactUrl(trimmed)}`)
    try {
      return Either.right({
        _tag: "File",
        path: rest.startsWith("//") ? fileURLToPath(trimmed) : path.resolve(decodeURIComponent(rest))
      })
    } catch {
      return fail(`not a valid file URL: ${trimmed}`)
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    return fail(`unsupported database URL scheme (use a path, file:, libsql:, http(s): or ws(s):): ${redactUrl(trimmed)}`)
  }
  return Either.right({ _tag: "File", path: path.resolve(trimmed) })
}

/**
 * A URL without the parts that may carry secrets (user info and query), for messages and logs.
 *
 * @since 0.1.0
 * @category utils
 */
export const redactUrl = (url: string): string => url.replace(/\/\/[^/@?#]*@/, "//<redacted>@").replace(/\?.*$/, "?<redacted>")

/**
 * A description of a location for humans, never containing credentials.
 *
 * @since 0.1.0
 * @category utils
 */
export const describe = (location: Location): string => {
  switch (location._tag) {
    case "Ephemeral":
      return Memory
    case "File":
      return location.path
    case "SharedMemory":
      return location.url
    case "Remote":
      return redactUrl(location.url)
  }
}

/**
 * The opened database: its location, and the file path of its data when it has one (the master
 * key file goes next to it).
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly location: Location
  /** The database file; `undefined` for in-memory and remote databases. */
  readonly file: string | undefined
}

/**
 * The opened database.
 *
 * @since 0.1.0
 * @category tags
 */
export class Database extends Context.Tag("effect-kas-wallet-emulator/Database")<Database, Service>() {}

/**
 * The libSQL client under the `SqlClient`, for what @effect/sql does not offer: `batch`, a list of
 * statements run as one transaction on the client's own connection (the ledger's writes,
 * LedgerStore.ts). Not `withTransaction`: @libsql/client hands a transaction the client's
 * connection and opens a new one for the client, which loses the connection's settings and keeps
 * the old one open until the garbage collector finds it (a file's client, Embedded.ts, keeps its
 * connection, but refuses other work while a transaction is open).
 *
 * @since 0.2.0
 * @category tags
 */
export class RawClient extends Context.Tag("effect-kas-wallet-emulator/Database/RawClient")<RawClient, Libsql.Client>() {}

/**
 * Options of `layer`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Where the data lives; see the module documentation. */
  readonly database: string
  /** Token for a `libsql://` server, when it requires one. */
  readonly authToken?: Redacted.Redacted<string> | undefined
}

const databaseError = (message: string) => (cause: unknown) => new EmulatorError({ reason: "Database", message, cause })

const reason = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

// A private temporary directory, removed with the scope.
const temporaryDirectory = Effect.acquireRelease(
  Effect.tryPromise({
    try: () => fs.mkdtemp(path.join(os.tmpdir(), "kas-emu-")),
    catch: databaseError("cannot create a temporary directory for the in-memory database")
  }),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }).catch(() => undefined))
)

const sqlClientOf = (raw: Libsql.Client) =>
  LibsqlClient.make({ liveClient: raw }).pipe(Effect.provideServiceEffect(Reactivity.Reactivity, Reactivity.make))

// The bytes of a database file as the migrations leave it when they run on an empty one: made
// once per process, by `Migrations.run` itself on a temporary file, when the first ephemeral
// database is opened. Every ephemeral database starts as a copy of them (a file of its own), and
// then goes through `Migrations.run` like any other, which finds nothing left to do. Running the
// migrations cost some 13 ms of CPU per database (mostly SQLite executing some 60 DDL statements),
// the copy a fraction of a millisecond: a test suite builds an emulator per test file and more
// (docs/emulator.md, "Starting an emulator").
let migratedBytes: Uint8Array | undefined
const migratedLock = Effect.unsafeMakeSemaphore(1)
const migrated: Effect.Effect<Uint8Array, EmulatorError> = migratedLock.withPermits(1)(Effect.suspend(() =>
  migratedBytes !== undefined ? Effect.succeed(migratedBytes) : Effect.scoped(Effect.gen(function*() {
    const file = path.join(yield* temporaryDirectory, "migrated.db")
    const raw = yield* Effect.acquireRelease(
      Effect.try({ try: () => Embedded.open(file), catch: (cause) => databaseError(`cannot open a temporary database: ${reason(cause)}`)(cause) }),
      (c) => Effect.sync(() => c.close())
    )
    // A scratch file, read back at once: its commits need not wait for the disk (a new file in
    // rollback-journal mode syncs the journal and the file at every commit, some 60 of them: 100 ms
    // and more of a process's start waiting for the disk while other jobs write to it). Neither
    // setting changes the bytes the file ends with.
    yield* Effect.tryPromise({
      try: () => raw.executeMultiple("PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY;"),
      catch: databaseError("cannot configure a temporary database")
    })
    yield* Migrations.run.pipe(
      Effect.provideServiceEffect(SqlClient.SqlClient, sqlClientOf(raw)),
      Effect.mapError(databaseError(`cannot migrate the database ${Memory}`))
    )
    // Committed in the rollback-journal mode of a new file: the file itself holds all of it now,
    // whenever libSQL gets to close the connection (it waits for its statements to be collected).
    raw.close()
    const bytes = yield* Effect.tryPromise({ try: () => fs.readFile(file), catch: databaseError("cannot read a temporary database") })
    migratedBytes = new Uint8Array(bytes)
    return migratedBytes
  }))
))

// A private database file for an ephemeral database, its directory removed with the scope.
const ephemeralFile = Effect.gen(function*() {
  const bytes = yield* migrated
  const file = path.join(yield* temporaryDirectory, "emulator.db")
  yield* Effect.tryPromise({
    try: () => fs.writeFile(file, bytes, { flag: "wx", mode: 0o600 }),
    catch: databaseError("cannot create the in-memory database")
  })
  return file
})

/**
 * Creates a directory and its missing parents (mode 0700), one level at a time.
 *
 * Not `fs.mkdir`'s `recursive` option: where mkdir fails with ENOENT under a parent that exists
 * (`/proc/nope`), Node 20's recursive mkdir retries forever in its thread pool, burning a core, and
 * the call never returns.
 *
 * @since 0.1.0
 * @category utils
 */
export const makeDirectory = async (dir: string): Promise<void> => {
  try {
    await fs.mkdir(dir, { mode: 0o700 })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === "EEXIST") return
    const parent = path.dirname(dir)
    if (code !== "ENOENT" || parent === dir) throw e
    await makeDirectory(parent)
    // Once more, now that the parent exists; a second failure is the answer.
    await fs.mkdir(dir, { mode: 0o700 }).catch((e2: NodeJS.ErrnoException) => {
      if (e2.code !== "EEXIST") throw e2
    })
  }
}

// The directory and the file itself, so that a failure names the path and the system's reason
// (libSQL only says "Unable to open connection ...: 14").
const prepareFile = (file: string) =>
  Effect.tryPromise({
    try: async () => {
      await makeDirectory(path.dirname(file))
      await (await fs.open(file, "a", 0o600)).close()
    },
    catch: (cause) =>
      new EmulatorError({ reason: "Database", message: `cannot open the database ${file}: ${reason(cause)}`, cause })
  })

/**
 * Opens, migrates and tunes the database: provides `SqlClient` (libSQL) and `Database`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options
): Layer.Layer<Database | SqlClient.SqlClient | LibsqlClient.LibsqlClient | RawClient, EmulatorError> =>
  Layer.scopedContext(Effect.gen(function*() {
    const location = yield* parse(options.database)
    const file = location._tag === "Ephemeral"
      ? yield* ephemeralFile
      : location._tag === "File"
      ? yield* Effect.as(prepareFile(location.path), location.path)
      : undefined
    // Opening throws on a bad URL or an unreadable file: a configuration problem, not a crash. The
    // client is made here rather than by LibsqlClient so that the ledger can reach its `batch`
    // (RawClient).
    const raw = yield* Effect.acquireRelease(
      Effect.try({
        try: () =>
          file !== undefined
            ? Embedded.open(file)
            : Libsql.createClient({
              url: (location as { readonly url: string }).url,
              ...(options.authToken !== undefined ? { authToken: Redacted.value(options.authToken) } : {})
            }),
        catch: (cause) => databaseError(`cannot open the database ${describe(location)}: ${reason(cause)}`)(cause)
      }),
      (c) => Effect.sync(() => c.close())
    )
    const client = yield* sqlClientOf(raw)
    const provideSql = Effect.provideService(SqlClient.SqlClient, client)
    const local = location._tag === "File" || location._tag === "Ephemeral"
    const configureError = databaseError(`cannot configure the database ${describe(location)}`)
    // Another process (a console command, a second emulator) may be writing: wait for it rather
    // than fail. Set before the migrations, whose transaction runs on the same connection (a
    // file's client keeps its one connection: Embedded.ts).
    if (local) yield* Effect.mapError(provideSql(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`PRAGMA busy_timeout = 5000`)), configureError)
    yield* provideSql(Migrations.run).pipe(
      Effect.mapError(databaseError(`cannot migrate the database ${describe(location)}`))
    )
    if (local) {
      yield* provideSql(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // Readers never wait for the writer.
        const wal = sql`PRAGMA journal_mode = WAL`
        if (location._tag === "Ephemeral") {
          // An ephemeral database dies with the process: nothing of it waits for the disk, not
          // even the switch to WAL (a commit of the file's header, which syncs the file unless
          // synchronous is OFF by then: ~3 ms per database).
          yield* sql`PRAGMA synchronous = OFF`
          yield* wal
        } else {
          yield* wal
          // A file database commits to the WAL without waiting for the disk (NORMAL): a commit is
          // in the operating system's cache when the 200 goes out, so it survives a kill of the
          // process, not a crash of the machine (docs/emulator.md, "Durability and speed").
          yield* sql`PRAGMA synchronous = NORMAL`
        }
      })).pipe(Effect.mapError(configureError))
    }
    return Context.make(Database, { location, file }).pipe(
      Context.add(SqlClient.SqlClient, client),
      Context.add(LibsqlClient.LibsqlClient, client),
      Context.add(RawClient, raw)
    )
  }))
