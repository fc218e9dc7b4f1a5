/**
 * Upgrading a database made before fee-payer accounts and account states (migration 0001 only):
 * its members get their default fee-payer pools, its accounts are enabled and still listed, and it
 * serves every new route. And an in-memory database, a copy of what the migrations made once in the
 * process: the same as a file migrated from nothing, and private.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as LibsqlClient from "@effect/sql-libsql/LibsqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import * as AccountKeys from "../src/chain/AccountKeys.js"
import * as Database from "../src/store/Database.js"
import * as Emulator from "../src/Emulator.js"
import * as Migrations from "../src/store/Migrations.js"
import { api, clientLayer } from "./_support.js"

/** A database at the first version of the schema, with a member and an account of it. */
const firstVersion = (file: string, accountId: string) =>
  Effect.gen(function*() {
    yield* Migrator.make({})({
      loader: Migrator.fromRecord({ "0001_initial": Migrations.migrations["0001_initial"]! }),
      table: "kas_emulator_migrations"
    })
    const sql = yield* SqlClient.SqlClient
    // The member's default account pools come from the first version's trigger.
    yield* sql`INSERT INTO members (account_id, created_at) VALUES (${accountId}, 1600000000)`
    const key = AccountKeys.generate()
    yield* sql`INSERT INTO accounts (pool_id, address, address_lc, public_key, key_hex, private_key, created_at, updated_at)
      SELECT id, ${key.address}, ${key.address.toLowerCase()}, ${key.publicKey}, ${key.keyHex}, ${new Uint8Array(randomBytes(60))},
        1600000001, 1600000001
      FROM pools WHERE chain_id = 1001 AND name = 'default'`
    return key
  }).pipe(Effect.provide(LibsqlClient.layer({ url: pathToFileURL(file).href })))

describe("emulator database upgrade", () => {
  it.live("a database of the first version gains fee-payer pools and account states, and serves the new routes", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-migrate-")))
      yield* Effect.addFinalizer(() => Effect.promise(() => fs.rm(dir, { recursive: true, force: true })))
      const database = path.join(dir, "emulator.db")
      const accountId = "old-member"
      const key = yield* firstVersion(database, accountId)

      const upgraded = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return {
          migrations: yield* sql<{ readonly name: string }>`SELECT name FROM kas_emulator_migrations ORDER BY migration_id`,
          feePayerPools: yield* sql<{ readonly chain: number; readonly name: string }>`SELECT chain_id AS chain, name
            FROM feepayer_pools ORDER BY chain_id`,
          statuses: yield* sql<{ readonly status: string }>`SELECT status FROM accounts`
        }
      }).pipe(Effect.provide(Database.layer({ database })))
      expect(upgraded.migrations.map((m) => m.name)).toEqual(Object.keys(Migrations.migrations).map((id) => id.slice(5)))
      expect(upgraded.feePayerPools).toEqual([{ chain: 1001, name: "default" }, { chain: 8217, name: "default" }])
      expect(upgraded.statuses).toEqual([{ status: "enabled" }])

      const e = yield* Emulator.make({
        port: 0,
        database,
        member: { accountId, accessKeyId: "OLDKEY", secretAccessKey: Redacted.make("old-secret") }
      })
      const a = api(e.url, accountId, Redacted.value(e.member.authorization))
      const listed = yield* a.listAll(1001)
      expect(listed.items.map((x) => x.address)).toEqual([key.address])
      expect(listed.items[0].updatedAt).toBe(1_600_000_001)
      expect((yield* a.count(1001)).body).toEqual({ accountId, count: 1 })
      expect((yield* a.byPublicKey(1001, key.publicKey)).body.items).toEqual([{ address: key.address, chainId: 1001 }])
      expect((yield* a.disable(1001, key.address)).status).toBe(200)
      const payer = yield* a.feePayers.create(8217)
      expect(payer.status, payer.text).toBe(200)
      expect(payer.body.krn).toBe(`krn:8217:wallet:${accountId}:feepayer-pool:default`)
      // A member created after the upgrade gets its fee-payer pools from the new trigger.
      const later = yield* e.createMember()
      expect((yield* e.listFeePayerPools(later.accountId)).map((p) => p.krn.toString())).toEqual([
        `krn:1001:wallet:${later.accountId}:feepayer-pool:default`,
        `krn:8217:wallet:${later.accountId}:feepayer-pool:default`
      ])
    }).pipe(Effect.scoped, Effect.provide(clientLayer)))

  it.live("an in-memory database holds what the migrations make of an empty file, in a file of its own", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-migrate-")))
      yield* Effect.addFinalizer(() => Effect.promise(() => fs.rm(dir, { recursive: true, force: true })))
      const contents = Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return {
          schema: yield* sql`SELECT type, name, tbl_name AS "table", sql FROM sqlite_master ORDER BY rowid`,
          migrations: yield* sql`SELECT migration_id AS id, name FROM kas_emulator_migrations ORDER BY migration_id`,
          chains: yield* sql`SELECT * FROM chains ORDER BY chain_id`,
          members: yield* sql`SELECT account_id FROM members`
        }
      })
      const fromFile = yield* contents.pipe(Effect.provide(Database.layer({ database: path.join(dir, "fresh.db") })))
      expect(fromFile.migrations.length).toBe(Object.keys(Migrations.migrations).length)
      // Two at once, as tests start them.
      const [a, b] = yield* Effect.all([Layer.build(Database.layer({ database: ":memory:" })), Layer.build(Database.layer({ database: ":memory:" }))], {
        concurrency: 2
      })
      for (const memory of [a, b]) {
        expect(yield* Effect.provide(contents, memory)).toEqual(fromFile)
        const file = Context.get(memory, Database.Database).file!
        expect((yield* Effect.promise(() => fs.stat(file))).mode & 0o777).toBe(0o600)
        const pragmas = yield* Effect.provide(Effect.flatMap(SqlClient.SqlClient, (sql) =>
          Effect.all([sql`PRAGMA journal_mode`, sql`PRAGMA synchronous`])), memory)
        expect(pragmas).toEqual([[{ journal_mode: "wal" }], [{ synchronous: 0 }]])
      }
      expect(Context.get(a, Database.Database).file).not.toBe(Context.get(b, Database.Database).file)
      yield* Effect.provide(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO members (account_id, created_at) VALUES ('only-a', 1)`), a)
      expect((yield* Effect.provide(contents, a)).members).toEqual([{ account_id: "only-a" }])
      expect((yield* Effect.provide(contents, b)).members).toEqual([])
    }).pipe(Effect.scoped))
})
