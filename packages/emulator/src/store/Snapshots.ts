/**
 * Snapshots of the whole database, as anvil's `evm_snapshot` / `evm_revert`: `take` copies every
 * table's rows into a shadow table of its own (one per table, rows tagged with the snapshot's
 * number), `restore` puts a snapshot's rows back in every table, in one transaction, and drops it
 * and the snapshots taken after it.
 *
 * Why copies inside the database: a file, the ephemeral file and a libSQL server all take the
 * same statements, nothing leaves the database, and a revert is one transaction (measured in
 * docs/emulator.md, "Snapshots and time": the shadow tables are made once, so taking a snapshot
 * changes no schema and keeps the prepared statements of the rest). What lives in memory beside
 * the tables (caches of pools, the chain's clock, when the next interval block is due) is
 * restored by whoever keeps it: `onRestore` registers them.
 *
 * A snapshot belongs to the process that took it (its shadow tables carry a tag of the process,
 * and are dropped when the emulator stops); another process on the same database keeps its own
 * caches, which a revert here does not reach.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.12.0
 * @internal
 */
import * as SqlError from "@effect/sql/SqlError"
import type * as Libsql from "@libsql/client"
import { Context, Effect, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import * as Database from "./Database.js"

/**
 * The snapshots of a database.
 *
 * @since 0.12.0
 * @category models
 */
export interface Service {
  /** Copies every table; answers the snapshot's number (1, 2, ...). */
  readonly take: Effect.Effect<number, SqlError.SqlError>
  /**
   * Puts snapshot `n` back in every table and drops it and the later ones, then runs what
   * `onRestore` registered. `false` (nothing changed) when there is no snapshot `n`.
   */
  readonly restore: (n: number) => Effect.Effect<boolean, SqlError.SqlError>
  /** Whether snapshot `n` exists (taken, not dropped by a revert). */
  readonly has: (n: number) => boolean
  /** Registers what a restore must also do (forget a cache): it is given the snapshot's number. */
  readonly onRestore: (f: (n: number) => void) => void
}

/**
 * The snapshots of the database of the context.
 *
 * @since 0.12.0
 * @category tags
 */
export class Snapshots extends Context.Tag("effect-kas-wallet-emulator/Snapshots")<Snapshots, Service>() {}

/**
 * Empties `cache` whenever a revert restores the database, when snapshots are kept: a cache of
 * what was found in the store (pools, say) may hold what the revert dropped.
 *
 * @since 0.12.0
 * @category combinators
 */
export const forgetOnRestore = (cache: { readonly clear: () => void }): Effect.Effect<void> =>
  Effect.asVoid(Effect.map(Effect.serviceOption(Snapshots), Option.map((snapshots) => snapshots.onRestore(() => cache.clear()))))

const quote = (name: string) => `"${name.replaceAll("\"", "\"\"")}"`

const sqlError = (message: string) => (cause: unknown) => new SqlError.SqlError({ cause, message })

interface Shadow {
  readonly table: string
  readonly shadow: string
  readonly columns: string
}

/**
 * Snapshots over a libSQL client.
 *
 * @since 0.12.0
 * @category constructors
 */
export const make = (raw: Libsql.Client) =>
  Effect.gen(function*() {
    const tag = randomBytes(4).toString("hex")
    const prefix = `snapshot_${tag}_`
    const run = (statements: Array<Libsql.InStatement>, what: string) =>
      Effect.tryPromise({ try: () => raw.batch(statements, "write"), catch: sqlError(`cannot ${what} a snapshot`) })

    let shadows: ReadonlyArray<Shadow> | undefined
    // The shadow tables, made at the first snapshot: one per table, with the snapshot's number.
    const ready = Effect.suspend(() => {
      if (shadows !== undefined) return Effect.succeed(shadows)
      return Effect.gen(function*() {
        const listed = yield* Effect.tryPromise({
          try: () =>
            raw.execute(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'snapshot\\_%' ESCAPE '\\' ORDER BY name`),
          catch: sqlError("cannot list the tables of a snapshot")
        })
        // Tables with triggers first: a restore inserts their rows, whose triggers write rows into
        // other tables (a member's default pools), replaced when those tables' turn comes.
        const triggered = yield* Effect.tryPromise({
          try: () => raw.execute("SELECT DISTINCT tbl_name AS name FROM sqlite_master WHERE type = 'trigger'"),
          catch: sqlError("cannot list the triggers of a snapshot")
        })
        const first = new Set(triggered.rows.map((r) => String(r.name)))
        const tables = listed.rows.map((r) => String(r.name)).sort((x, y) => Number(first.has(y)) - Number(first.has(x)))
        const made: Array<Shadow> = []
        for (const table of tables) {
          const info = yield* Effect.tryPromise({ try: () => raw.execute(`PRAGMA table_info(${quote(table)})`), catch: sqlError("cannot read a table of a snapshot") })
          made.push({ table, shadow: `${prefix}${table}`, columns: info.rows.map((c) => quote(String(c.name))).join(", ") })
        }
        yield* run(
          made.flatMap((s) => [
            { sql: `CREATE TABLE ${quote(s.shadow)} AS SELECT 0 AS snapshot_number, ${s.columns} FROM ${quote(s.table)} WHERE 0`, args: [] },
            { sql: `CREATE INDEX ${quote(`${s.shadow}_number`)} ON ${quote(s.shadow)}(snapshot_number)`, args: [] }
          ]),
          "prepare"
        )
        shadows = made
        return made
      })
    })

    yield* Effect.addFinalizer(() =>
      shadows === undefined ? Effect.void : run(shadows.map((s) => ({ sql: `DROP TABLE IF EXISTS ${quote(s.shadow)}`, args: [] })), "drop").pipe(Effect.ignore)
    )

    const taken: Array<number> = []
    let counter = 0
    const restorers: Array<(n: number) => void> = []

    const service: Service = {
      take: Effect.flatMap(ready, (all) => {
        const n = counter + 1
        return run(all.map((s) => ({ sql: `INSERT INTO ${quote(s.shadow)} SELECT ?, ${s.columns} FROM ${quote(s.table)}`, args: [n] })), "take").pipe(
          Effect.map(() => {
            counter = n
            taken.push(n)
            return n
          })
        )
      }),
      restore: (n) =>
        Effect.suspend(() => {
          if (!taken.includes(n) || shadows === undefined) return Effect.succeed(false)
          // Foreign keys are checked at the commit, once every table holds the snapshot's rows.
          // Every table is emptied first, and again just before it is filled: what a trigger wrote
          // meanwhile is replaced.
          const statements: Array<Libsql.InStatement> = [{ sql: "PRAGMA defer_foreign_keys = ON", args: [] }]
          for (const s of shadows) statements.push({ sql: `DELETE FROM ${quote(s.table)}`, args: [] })
          for (const s of shadows) {
            statements.push({ sql: `DELETE FROM ${quote(s.table)}`, args: [] })
            statements.push({ sql: `INSERT INTO ${quote(s.table)} (${s.columns}) SELECT ${s.columns} FROM ${quote(s.shadow)} WHERE snapshot_number = ?`, args: [n] })
          }
          for (const s of shadows) statements.push({ sql: `DELETE FROM ${quote(s.shadow)} WHERE snapshot_number >= ?`, args: [n] })
          return run(statements, "revert to").pipe(
            Effect.map(() => {
              taken.splice(taken.indexOf(n))
              for (const f of restorers) f(n)
              return true
            })
          )
        }),
      has: (n) => taken.includes(n),
      onRestore: (f) => {
        restorers.push(f)
      }
    }
    return service
  })

/**
 * The snapshots of the database of the context; its shadow tables dropped with the scope.
 *
 * @since 0.12.0
 * @category layers
 */
export const layer: Layer.Layer<Snapshots, never, Database.RawClient> = Layer.scoped(Snapshots, Effect.flatMap(Database.RawClient, make))
