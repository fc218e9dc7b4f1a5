/**
 * What the ledger's queries share: the database's clients (@effect/sql's, and the raw libSQL
 * client that the hot reads and the atomic writes go to directly), and the statements of a batch.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlError from "@effect/sql/SqlError"
import { Effect } from "effect"
import * as Database from "./Database.js"

/**
 * A statement of a batch.
 *
 * @since 0.10.0
 * @category models
 */
export type Statement = { readonly sql: string; readonly args: Array<string | number | Uint8Array | null> }

/**
 * The assertion after a compare-and-set statement of a batch: it fails the whole batch when the
 * statement before it changed no row (`ledger_guard`'s CHECK).
 *
 * @since 0.10.0
 * @category models
 */
export const Guard: Statement = { sql: "INSERT OR REPLACE INTO ledger_guard (id, ok) VALUES (1, changes())", args: [] }

/**
 * A compare-and-set statement and its guard.
 *
 * @since 0.10.0
 * @category constructors
 */
export const guarded = (sql: string, args: Statement["args"]): ReadonlyArray<Statement> => [{ sql, args }, Guard]

/**
 * A BLOB as bytes (libSQL returns them as ArrayBuffers).
 *
 * @since 0.10.0
 * @category decoding
 */
export const bytes = (u: unknown): Uint8Array =>
  u instanceof Uint8Array ? u : u instanceof ArrayBuffer ? new Uint8Array(u) : new Uint8Array(0)

/**
 * The clients of the ledger's queries.
 *
 * @since 0.10.0
 * @category models
 */
export interface Client {
  readonly sql: SqlClient.SqlClient
  readonly raw: Database.RawClient["Type"]
  /** A read sent to the raw client directly. */
  readonly read: <A>(text: string, args: Array<string | number>) => Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>
}

/**
 * The clients of the database of the context.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make: Effect.Effect<Client, never, SqlClient.SqlClient | Database.RawClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const raw = yield* Database.RawClient
  // The reads every transaction's acceptance makes go to the client directly, as the writes do:
  // @effect/sql's compilation of the statement, its span and its connection semaphore cost about
  // 50 µs a query, as much as the query itself (docs/emulator.md, "Durability and speed").
  const read = <A>(text: string, args: Array<string | number>): Effect.Effect<ReadonlyArray<A>, SqlError.SqlError> =>
    Effect.tryPromise({
      try: () => raw.execute({ sql: text, args }),
      catch: (cause) => new SqlError.SqlError({ cause, message: "Failed to execute statement" })
    }).pipe(Effect.map((result) => result.rows as unknown as ReadonlyArray<A>))
  return { sql, raw, read }
})
