/**
 * The client of an embedded database file: @libsql/client's `Client` over libSQL's native binding
 * (the `libsql` package, which @libsql/client itself drives for `file:` URLs), with each statement
 * prepared once and kept.
 *
 * Why not @libsql/client's own file client: it prepares every statement again, asks for its
 * columns twice, throws and catches an exception to learn that an `INSERT` returns no rows, and
 * builds each row with `Object.defineProperty` per value. Measured on this project's machine, a
 * one-row query cost about 140 µs through it against 30 µs through the binding with its statement
 * kept; a value transfer runs fifteen statements (docs/emulator.md, "Durability and speed"). Here a
 * statement's rows share a prototype that reads their values by index.
 *
 * What it keeps of @libsql/client's contract, which @effect/sql-libsql and the emulator read:
 * - rows are objects keyed by column name (the first of two equal names wins), with `length` and
 *   the values by index, not enumerable (read through the row's prototype here, where
 *   @libsql/client defines them on the row); integers are numbers, and one beyond 2^53 is an error
 *   rather than a rounded number; BLOBs are `ArrayBuffer`s;
 * - an SQLite failure is a `LibsqlError` with SQLite's extended code (`SQLITE_CONSTRAINT_CHECK`,
 *   ...), which the ledger reads to tell a conflict;
 * - `batch` runs its statements as one transaction on the connection, rolled back whole when one
 *   fails.
 *
 * One difference, deliberate: `transaction()` keeps the connection (@libsql/client hands it to the
 * transaction and opens another for the client, losing its settings). While a transaction is open
 * (the migrations at start: the emulator runs none afterwards), any other use of the client fails
 * rather than joining it.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.9.0
 * @internal
 */
import {
  type Client,
  type InArgs,
  type InStatement,
  type InValue,
  LibsqlError,
  type Replicated,
  type ResultSet,
  type Row,
  type Transaction,
  type TransactionMode
} from "@libsql/client"
import Libsql from "libsql"

// Statements kept per connection. The emulator's texts are few (a list of n values is one text per
// n), but nothing bounds them: past this many the oldest go.
const MaxStatements = 500

interface Prepared {
  readonly statement: Libsql.Statement<Array<unknown>>
  /** Its columns and how its rows are made, for a statement that returns rows; `undefined` for one that does not. */
  readonly rows: RowShape | undefined
}

const minSafe = BigInt(Number.MIN_SAFE_INTEGER)
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER)

// As @libsql/client's "number" integer mode: a number, never a silently rounded one.
const fromSql = (value: unknown): unknown => {
  if (typeof value === "bigint") {
    if (value < minSafe || value > maxSafe) throw new RangeError("Received integer which cannot be safely represented as a JavaScript number")
    return Number(value)
  }
  if (value instanceof Uint8Array) {
    return value.byteOffset === 0 && value.byteLength === value.buffer.byteLength
      ? value.buffer
      : value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength)
  }
  return value
}

const toSql = (value: InValue): unknown => {
  if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments")
  if (typeof value === "boolean") return value ? 1 : 0
  if (value instanceof ArrayBuffer) return Buffer.from(value)
  if (value instanceof Date) return value.valueOf()
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database")
  return value
}

const toArgs = (args: InArgs | undefined): Array<unknown> | Record<string, unknown> => {
  if (args === undefined) return []
  if (Array.isArray(args)) return args.map(toSql)
  const named: Record<string, unknown> = {}
  for (const name in args) {
    const bare = name[0] === "@" || name[0] === "$" || name[0] === ":" ? name.substring(1) : name
    named[bare] = toSql((args as Record<string, InValue>)[name]!)
  }
  return named
}

const toError = (e: unknown): unknown =>
  e instanceof Libsql.SqliteError ? new LibsqlError(e.message, e.code, (e as { rawCode?: number }).rawCode, e) : e

// A row's values, in column order: where its prototype reads `length` and the values by index.
const Values = Symbol("values")

type WithValues = { readonly [Values]: ReadonlyArray<unknown> }

/** The rows of one statement: its column names, their shared prototype, and which value each name takes. */
interface RowShape {
  readonly columns: ReadonlyArray<string>
  readonly prototype: object
  readonly names: ReadonlyArray<readonly [name: string, index: number]>
}

// The rows of a statement share a prototype that reads `length` and the values by index (not
// enumerable, as @libsql/client's are), so that a row's own properties are its names only, set in
// the same order every time: V8 keeps such objects fast, where numbered properties defined one by
// one on each row made every row a dictionary. A name takes its first column's value; `length`
// and the indexes stay the prototype's, as they stay the row's own ones in @libsql/client's rows.
const rowShape = (columns: ReadonlyArray<string>): RowShape => {
  const prototype = {}
  Object.defineProperty(prototype, "length", { get: (function(this: WithValues) { return this[Values].length }) })
  const reserved = new Set(["length"])
  columns.forEach((_, i) => {
    reserved.add(String(i))
    Object.defineProperty(prototype, i, { get: (function(this: WithValues) { return this[Values][i] }) })
  })
  const names: Array<readonly [string, number]> = []
  columns.forEach((name, i) => {
    if (reserved.has(name)) return
    reserved.add(name)
    names.push([name, i])
  })
  return { columns, prototype, names }
}

const row = (raw: ReadonlyArray<unknown>, shape: RowShape): Row => {
  const values = raw.map(fromSql)
  const out = Object.create(shape.prototype) as Record<string | symbol, unknown>
  Object.defineProperty(out, Values, { value: values })
  for (const [name, i] of shape.names) out[name] = values[i]
  return out as unknown as Row
}

const resultSet = (
  columns: ReadonlyArray<string>,
  rows: Array<Row>,
  rowsAffected: number,
  lastInsertRowid: bigint | undefined
): ResultSet => ({
  columns: [...columns],
  columnTypes: columns.map(() => ""),
  rows,
  rowsAffected,
  lastInsertRowid,
  toJSON: () => ({ columns, rows: rows.map((r) => Array.from(r as ArrayLike<unknown>)), rowsAffected, lastInsertRowid: lastInsertRowid?.toString() })
})

/** The synchronous core: one connection and its kept statements. */
class Connection {
  readonly #db: Libsql.Database
  readonly #prepared = new Map<string, Prepared>()

  constructor(path: string) {
    this.#db = new Libsql(path)
  }

  get inTransaction(): boolean {
    return this.#db.inTransaction
  }

  #prepare(sql: string): Prepared {
    const kept = this.#prepared.get(sql)
    if (kept !== undefined) return kept
    const statement = this.#db.prepare<Array<unknown>>(sql)
    statement.safeIntegers(true)
    const prepared: Prepared = { statement, rows: statement.reader ? rowShape(statement.raw(true).columns().map((c) => c.name)) : undefined }
    if (this.#prepared.size >= MaxStatements) this.#prepared.delete(this.#prepared.keys().next().value!)
    this.#prepared.set(sql, prepared)
    return prepared
  }

  run(stmt: InStatement): ResultSet {
    const { args, sql } = typeof stmt === "string" ? { sql: stmt, args: undefined } : stmt
    try {
      const { rows, statement } = this.#prepare(sql)
      // One argument, an array or an object, is how the binding takes positional or named values.
      const values = toArgs(args)
      if (rows !== undefined) {
        return resultSet(rows.columns, (statement.all(values) as Array<Array<unknown>>).map((r) => row(r, rows)), 0, undefined)
      }
      const info = statement.run(values)
      return resultSet([], [], info.changes, BigInt(info.lastInsertRowid))
    } catch (e) {
      throw toError(e)
    }
  }

  exec(sql: string): void {
    try {
      this.#db.exec(sql)
    } catch (e) {
      throw toError(e)
    }
  }

  close(): void {
    this.#prepared.clear()
    this.#db.close()
  }
}

const begin = (mode: TransactionMode) => (mode === "write" ? "BEGIN IMMEDIATE" : mode === "read" ? "BEGIN TRANSACTION READONLY" : "BEGIN DEFERRED")

// The statements in one transaction opened by `beginSql`: committed together, or rolled back whole.
const inTransaction = (connection: Connection, beginSql: string, stmts: Array<InStatement>): Array<ResultSet> => {
  connection.exec(beginSql)
  try {
    const results = stmts.map((s) => connection.run(s))
    connection.exec("COMMIT")
    return results
  } finally {
    if (connection.inTransaction) connection.exec("ROLLBACK")
  }
}

const attempt = <A>(f: () => A): Promise<A> => {
  try {
    return Promise.resolve(f())
  } catch (e) {
    return Promise.reject(e)
  }
}

class EmbeddedTransaction implements Transaction {
  closed = false

  constructor(readonly connection: Connection, readonly done: () => void) {}

  #check() {
    if (this.closed) throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED")
  }

  execute(stmt: InStatement): Promise<ResultSet> {
    return attempt(() => {
      this.#check()
      return this.connection.run(stmt)
    })
  }

  batch(stmts: Array<InStatement>): Promise<Array<ResultSet>> {
    return attempt(() => {
      this.#check()
      return stmts.map((s) => this.connection.run(s))
    })
  }

  executeMultiple(sql: string): Promise<void> {
    return attempt(() => {
      this.#check()
      this.connection.exec(sql)
    })
  }

  #end(sql: string) {
    if (this.closed) return
    this.closed = true
    this.done()
    if (this.connection.inTransaction) this.connection.exec(sql)
  }

  rollback(): Promise<void> {
    return attempt(() => this.#end("ROLLBACK"))
  }

  commit(): Promise<void> {
    return attempt(() => {
      this.#check()
      this.#end("COMMIT")
    })
  }

  close(): void {
    this.#end("ROLLBACK")
  }
}

class EmbeddedClient implements Client {
  closed = false
  readonly protocol = "file"
  readonly #connection: Connection
  #transaction = false

  constructor(path: string) {
    this.#connection = new Connection(path)
  }

  #ready(): Connection {
    if (this.closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED")
    if (this.#transaction) throw new LibsqlError("A transaction is open on this connection", "TRANSACTION_OPEN")
    return this.#connection
  }

  execute(stmtOrSql: InStatement | string, args?: InArgs): Promise<ResultSet> {
    return attempt(() => this.#ready().run(typeof stmtOrSql === "string" ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql))
  }

  batch(stmts: Array<InStatement>, mode: TransactionMode = "deferred"): Promise<Array<ResultSet>> {
    return attempt(() => inTransaction(this.#ready(), begin(mode), stmts))
  }

  migrate(stmts: Array<InStatement>): Promise<Array<ResultSet>> {
    return attempt(() => {
      const connection = this.#ready()
      connection.exec("PRAGMA foreign_keys=off")
      try {
        return inTransaction(connection, "BEGIN DEFERRED", stmts)
      } finally {
        connection.exec("PRAGMA foreign_keys=on")
      }
    })
  }

  transaction(mode: TransactionMode = "write"): Promise<Transaction> {
    return attempt(() => {
      const connection = this.#ready()
      connection.exec(begin(mode))
      this.#transaction = true
      return new EmbeddedTransaction(connection, () => (this.#transaction = false))
    })
  }

  executeMultiple(sql: string): Promise<void> {
    return attempt(() => this.#ready().exec(sql))
  }

  sync(): Promise<Replicated> {
    return Promise.resolve(undefined)
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.#connection.close()
  }
}

/**
 * Opens an embedded database file (created when absent) as a libSQL `Client`. Throws as
 * `Libsql.createClient` does when the file cannot be opened.
 *
 * @since 0.9.0
 * @category constructors
 */
export const open = (path: string): Client => {
  try {
    return new EmbeddedClient(path)
  } catch (e) {
    throw toError(e)
  }
}
