/**
 * Contract state in the ledger's store (migration 0004, LedgerStore's code, storage and the
 * contract part of its atomic write): code and slots survive a reopened database, stay on their
 * chain, and a write whose reads another writer changed writes nothing at all. Last, the EVM over
 * the store: deploy, execute and call across reopenings, and a lost update refused.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as LibsqlClient from "@effect/sql-libsql/LibsqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import * as Evm from "../src/chain/Evm.js"
import * as Database from "../src/store/Database.js"
import * as LedgerStore from "../src/store/LedgerStore.js"
import * as ChainState from "../src/store/ChainState.js"
import * as Migrations from "../src/store/Migrations.js"

const contract = "0x00000000000000000000000000000000000c0de1"
const alice = "0x1111111111111111111111111111111111111111"
const code = Uint8Array.of(0x60, 0x00, 0x60, 0x00, 0xf3)
const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`
const unhex = (h: string) => new Uint8Array(Buffer.from(h.slice(2), "hex"))

/** A fresh database file, removed with the scope. */
const tempDatabase = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "kas-contracts-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
).pipe(Effect.map((dir) => path.join(dir, "emulator.db")))

/** Opens the database, runs `f` with its store, closes it. */
const withStore = <A, E>(database: string, f: (store: LedgerStore.Service, sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
  Effect.flatMap(Effect.all([LedgerStore.LedgerStore, SqlClient.SqlClient]), ([store, sql]) => f(store, sql)).pipe(
    Effect.provide(LedgerStore.layer.pipe(Layer.provideMerge(Database.layer({ database }))))
  )

const noContracts: LedgerStore.Contracts = { code: [], storage: [], destroyed: [] }

/** Everything of a chain the contract tables and the ledger hold, to compare before and after. */
const snapshot = (sql: SqlClient.SqlClient) =>
  Effect.all([
    sql`SELECT chain_id, address, code_hash FROM contract_code ORDER BY chain_id, address`,
    sql`SELECT chain_id, address, slot, value FROM contract_storage ORDER BY chain_id, address, slot`,
    sql`SELECT chain_id, address, balance, nonce FROM ledger_accounts ORDER BY chain_id, address`
  ])

describe("contract state in the store", () => {
  it.effect("a database of the ledger's schema (0003) gains the contract tables and keeps its balances", () =>
    Effect.gen(function*() {
      const database = yield* tempDatabase
      yield* Effect.gen(function*() {
        // The migrations up to the ledger's (0003), none after.
        const before = Object.fromEntries(Object.entries(Migrations.migrations).filter(([id]) => id < "0004"))
        yield* Migrator.make({})({ loader: Migrator.fromRecord(before), table: "kas_emulator_migrations" })
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO ledger_accounts (chain_id, address, balance, nonce) VALUES (1001, ${alice}, '42', 3)`
      }).pipe(Effect.provide(LibsqlClient.layer({ url: pathToFileURL(database).href })))
      yield* withStore(database, (store, sql) =>
        Effect.gen(function*() {
          const ran = yield* sql<{ readonly name: string }>`SELECT name FROM kas_emulator_migrations ORDER BY migration_id`
          expect(ran.map((m) => m.name)).toEqual(Object.keys(Migrations.migrations).map((id) => id.slice(5)))
          expect(yield* store.state(1001, alice)).toEqual({ balance: 42n, nonce: 3, code: Option.none() })
          expect(yield* store.state(1001, contract)).toEqual({ ...ChainState.Empty, code: Option.none() })
        }))
    }).pipe(Effect.scoped, Effect.orDie))

  it.effect("code and storage survive a reopened database and stay on their chain; zero clears a slot", () =>
    Effect.gen(function*() {
      const database = yield* tempDatabase
      const written = yield* withStore(database, (store) =>
        store.write({
          chainId: 1001,
          balances: [{ address: contract, read: ChainState.Empty, write: { balance: 5n, nonce: 1 } }],
          contracts: {
            code: [{ address: contract, code }],
            storage: [{ address: contract, slot: word(0n), value: word(7n) }, { address: contract, slot: word(1n), value: word(9n) }],
            destroyed: []
          }
        }))
      expect(written).toBe(true)

      yield* withStore(database, (store, sql) =>
        Effect.gen(function*() {
          expect(yield* store.code(1001, contract)).toEqual(Option.some(code))
          expect(yield* store.storage(1001, contract, word(0n))).toBe(word(7n))
          expect(yield* store.storage(1001, contract, word(2n))).toBe(ChainState.ZeroWord)
          // Another chain has none of it.
          expect(yield* store.code(8217, contract)).toEqual(Option.none())
          expect(yield* store.storage(8217, contract, word(0n))).toBe(ChainState.ZeroWord)
          const [row] = yield* sql<{ readonly hash: string }>`SELECT code_hash AS hash FROM contract_code`
          expect(row!.hash).toBe(ChainState.codeHash(code))

          // Writing zero frees the slot's row.
          expect(
            yield* store.write({
              chainId: 1001,
              balances: [],
              contracts: { ...noContracts, storage: [{ address: contract, slot: word(1n), value: ChainState.ZeroWord }] }
            })
          ).toBe(true)
          expect(yield* sql`SELECT slot FROM contract_storage`).toEqual([{ slot: word(0n) }])
        }))
      // And after a second reopening.
      expect(yield* withStore(database, (store) => store.storage(1001, contract, word(1n)))).toBe(ChainState.ZeroWord)
      expect(yield* withStore(database, (store) => store.storage(1001, contract, word(0n)))).toBe(word(7n))
    }).pipe(Effect.scoped, Effect.orDie))

  it.effect("a write whose storage, code or account reads changed writes nothing, and applies once read again", () =>
    Effect.gen(function*() {
      const database = yield* tempDatabase
      yield* withStore(database, (store, sql) =>
        Effect.gen(function*() {
          yield* sql`INSERT INTO members (account_id, created_at) VALUES ('m', 0)`
          const seeded = yield* store.write({
            chainId: 1001,
            balances: [{ address: alice, read: ChainState.Empty, write: { balance: 100n, nonce: 0 } }],
            contracts: { ...noContracts, code: [{ address: contract, code }], storage: [{ address: contract, slot: word(0n), value: word(1n) }] }
          })
          expect(seeded).toBe(true)
          const reads: LedgerStore.Reads = {
            accounts: [{ address: alice, state: { balance: 100n, nonce: 0 } }, { address: contract, state: ChainState.Empty }],
            code: [{ address: contract, codeHash: ChainState.codeHash(code) }, { address: alice, codeHash: undefined }],
            storage: [{ address: contract, slot: word(0n), value: word(1n) }, { address: contract, slot: word(5n), value: ChainState.ZeroWord }]
          }
          const write = (r: LedgerStore.Reads, nonce: number): LedgerStore.Write => ({
            chainId: 1001,
            balances: [{ address: alice, read: { balance: 100n, nonce }, write: { balance: 90n, nonce: nonce + 1 } }],
            reads: r,
            contracts: { ...noContracts, storage: [{ address: contract, slot: word(0n), value: word(2n) }] },
            transaction: {
              chainId: 1001,
              hash: `0x${String(nonce).padStart(64, "a")}`,
              sender: alice,
              nonce,
              memberId: 1,
              raw: Uint8Array.of(0x30),
              blockNumber: 1,
              blockTimeMs: 1_000,
              transactionIndex: nonce,
              gasUsed: 30_000,
              feePayer: undefined,
              payerKind: "sender",
              senderFee: 10n,
              feePayerFee: 0n,
              acceptedMs: 0
            }
          })
          // Each change another writer may make to what was read; the read it invalidates.
          const changes: ReadonlyArray<readonly [string, LedgerStore.Write]> = [
            ["a slot read", { chainId: 1001, balances: [], contracts: { ...noContracts, storage: [{ address: contract, slot: word(0n), value: word(3n) }] } }],
            ["a slot read as unset", { chainId: 1001, balances: [], contracts: { ...noContracts, storage: [{ address: contract, slot: word(5n), value: word(1n) }] } }],
            // Destroyed and its slot written again: only the code differs.
            ["code read", {
              chainId: 1001,
              balances: [],
              contracts: { code: [], storage: [{ address: contract, slot: word(0n), value: word(1n) }], destroyed: [contract] }
            }],
            ["code read as absent", { chainId: 1001, balances: [], contracts: { ...noContracts, code: [{ address: alice, code }] } }],
            ["an account read", { chainId: 1001, balances: [{ address: contract, read: ChainState.Empty, write: { balance: 1n, nonce: 0 } }] }]
          ]
          for (const [what, change] of changes) {
            const before = yield* snapshot(sql)
            // The read checks alone refuse it: the other writer touched nothing the write writes.
            expect(yield* store.write(change), what).toBe(true)
            const between = yield* snapshot(sql)
            expect(yield* store.write(write(reads, 0)), what).toBe(false)
            expect(yield* snapshot(sql), what).toEqual(between)
            expect(yield* store.transaction(1001, write(reads, 0).transaction!.hash), what).toEqual(Option.none())
            // Put the state back as it was for the next case.
            yield* sql`DELETE FROM contract_code`
            yield* sql`DELETE FROM contract_storage`
            yield* sql`DELETE FROM ledger_accounts`
            yield* store.write({
              chainId: 1001,
              balances: [{ address: alice, read: ChainState.Empty, write: { balance: 100n, nonce: 0 } }],
              contracts: { ...noContracts, code: [{ address: contract, code }], storage: [{ address: contract, slot: word(0n), value: word(1n) }] }
            })
            expect(yield* snapshot(sql), what).toEqual(before)
          }
          // Unchanged reads: it applies, all of it.
          expect(yield* store.write(write(reads, 0))).toBe(true)
          expect(yield* store.storage(1001, contract, word(0n))).toBe(word(2n))
          expect((yield* store.balances(1001, [alice])).get(alice)).toEqual({ balance: 90n, nonce: 1 })
          expect(Option.isSome(yield* store.transaction(1001, write(reads, 0).transaction!.hash))).toBe(true)
        }))
    }).pipe(Effect.scoped, Effect.orDie))

  it.effect("a contract transaction keeps its receipt's outcome (error, reason, contract, logs) across a reopening; a transfer has none", () =>
    Effect.gen(function*() {
      const database = yield* tempDatabase
      const row = (nonce: number, extra: Partial<ChainState.TransactionRow>): ChainState.TransactionRow => ({
        chainId: 1001,
        hash: `0x${String(nonce).padStart(64, "b")}`,
        sender: alice,
        nonce,
        memberId: 1,
        raw: Uint8Array.of(0x28, nonce),
        blockNumber: 1,
        blockTimeMs: 1_000,
        transactionIndex: nonce,
        gasUsed: 60_000,
        feePayer: undefined,
        payerKind: "sender",
        senderFee: 1n,
        feePayerFee: 0n,
        acceptedMs: 0,
        ...extra
      })
      const logs = [
        { address: contract, topics: [word(1n), word(2n)], data: "0x0102" },
        { address: contract, topics: [], data: "0x" }
      ]
      const rows = [
        row(0, { contractAddress: contract, logs }),
        row(1, { txError: 0x09, revertReason: "Reverter: value must be zero", logs: [] }),
        row(2, {})
      ]
      yield* withStore(database, (store, sql) =>
        Effect.gen(function*() {
          yield* sql`INSERT INTO members (account_id, created_at) VALUES ('m', 0)`
          for (const transaction of rows) expect(yield* store.write({ chainId: 1001, balances: [], transaction })).toBe(true)
        }))
      const read = yield* withStore(database, (store) => Effect.forEach(rows, (r) => store.transaction(1001, r.hash)))
      expect(read).toEqual(rows.map(Option.some))
      expect(Option.getOrThrow(read[2]!)).toMatchObject({ txError: undefined, revertReason: undefined, contractAddress: undefined, logs: undefined })
    }).pipe(Effect.scoped, Effect.orDie))

  it.effect("reads are checked many to a statement: a stale one among hundreds still refuses the write", () =>
    Effect.gen(function*() {
      const database = yield* tempDatabase
      yield* withStore(database, (store) =>
        Effect.gen(function*() {
          const slots = Array.from({ length: 450 }, (_, i) => ({ address: contract, slot: word(BigInt(i)), value: ChainState.ZeroWord }))
          const write: LedgerStore.Write = {
            chainId: 1001,
            balances: [],
            reads: { accounts: [], code: [], storage: slots },
            contracts: { ...noContracts, storage: [{ address: contract, slot: word(1000n), value: word(1n) }] }
          }
          for (const stale of [449, 200, 0]) {
            const slot = word(BigInt(stale))
            yield* store.write({ chainId: 1001, balances: [], contracts: { ...noContracts, storage: [{ address: contract, slot, value: word(1n) }] } })
            expect(yield* store.write(write), `slot ${stale}`).toBe(false)
            expect(yield* store.storage(1001, contract, word(1000n))).toBe(ChainState.ZeroWord)
            yield* store.write({ chainId: 1001, balances: [], contracts: { ...noContracts, storage: [{ address: contract, slot, value: ChainState.ZeroWord }] } })
          }
          expect(yield* store.write(write)).toBe(true)
          expect(yield* store.storage(1001, contract, word(1000n))).toBe(word(1n))
        }))
    }).pipe(Effect.scoped, Effect.orDie))

  it.effect("a second creation at one address is a conflict; destruction removes code and storage of its chain only", () =>
    Effect.gen(function*() {
      const database = yield* tempDatabase
      yield* withStore(database, (store, sql) =>
        Effect.gen(function*() {
          const create = (chainId: number): LedgerStore.Write => ({
            chainId,
            balances: [],
            contracts: { code: [{ address: contract, code }], storage: [{ address: contract, slot: word(0n), value: word(1n) }], destroyed: [] }
          })
          expect(yield* store.write(create(1001))).toBe(true)
          expect(yield* store.write(create(8217))).toBe(true)
          const before = yield* snapshot(sql)
          expect(yield* store.write({ ...create(1001), balances: [{ address: alice, read: ChainState.Empty, write: { balance: 1n, nonce: 0 } }] })).toBe(false)
          expect(yield* snapshot(sql)).toEqual(before)

          expect(yield* store.write({ chainId: 1001, balances: [], contracts: { ...noContracts, destroyed: [contract] } })).toBe(true)
          expect(yield* store.code(1001, contract)).toEqual(Option.none())
          expect(yield* store.storage(1001, contract, word(0n))).toBe(ChainState.ZeroWord)
          expect(yield* store.code(8217, contract)).toEqual(Option.some(code))
          expect(yield* store.storage(8217, contract, word(0n))).toBe(word(1n))
        }))
    }).pipe(Effect.scoped, Effect.orDie))

  it.effect("the EVM over the store: deploy, execute and call across reopenings; of two runs on one state, the second write is refused", () =>
    Effect.gen(function*() {
      const database = yield* tempDatabase
      const artifacts = JSON.parse(fs.readFileSync(new URL("./fixtures/contracts/artifacts.json", import.meta.url), "utf8")).contracts
      const message = (kind: "deploy" | "execute" | "call", input: string, to?: string): Evm.Message => {
        const fields = { from: alice, value: 0n, input: unhex(input), gasLimit: 500_000n, blockNumber: 1, timestamp: 1, chainId: 1001, gasPrice: 1n }
        return kind === "deploy" ? { kind, ...fields } : { kind, to: to!, ...fields }
      }
      // What the ledger does with an outcome (fees aside): the sender's nonce, the run's balances
      // and nonces compare-and-set, its reads checked, its contract writes.
      const apply = (store: LedgerStore.Service, m: Evm.Message, outcome: Evm.Outcome) =>
        Effect.gen(function*() {
          const read = yield* store.balances(1001, [m.from, ...Evm.changedAccounts(outcome)])
          const after = Evm.applyChanges(read, outcome)
          const sender = after.get(m.from)!
          after.set(m.from, { ...sender, nonce: sender.nonce + 1 })
          return yield* store.write({
            chainId: 1001,
            balances: [...after].map(([address, write]) => ({ address, read: read.get(address)!, write })),
            reads: outcome.reads,
            contracts: outcome.contracts
          })
        })
      const send = (m: Evm.Message) =>
        withStore(database, (store) =>
          Effect.gen(function*() {
            const outcome = yield* Evm.run(m, Evm.storeReader(store, 1001))
            expect(yield* apply(store, m, outcome)).toBe(true)
            return outcome
          }))
      const count = "0x06661abd"
      const increment = "0xd09de08a"

      const counter = (yield* send(message("deploy", `${artifacts.Counter.bytecode}${word(7n).slice(2)}`))).createdAddress!
      yield* send(message("execute", increment, counter))
      const read = yield* withStore(database, (store) => Evm.run(message("call", count, counter), Evm.storeReader(store, 1001)))
      expect(read.returnData).toEqual(unhex(word(8n)))

      // Two runs computed on the same state (two emulators on one database): the first write
      // applies, the second is refused rather than losing the first's increment.
      yield* withStore(database, (store) =>
        Effect.gen(function*() {
          const m = message("execute", increment, counter)
          const first = yield* Evm.run(m, Evm.storeReader(store, 1001))
          const second = yield* Evm.run(m, Evm.storeReader(store, 1001))
          expect(yield* apply(store, m, first)).toBe(true)
          expect(yield* apply(store, m, second)).toBe(false)
          expect(yield* store.storage(1001, counter, word(0n))).toBe(word(9n))
          expect((yield* store.balances(1001, [alice, counter])).get(counter)).toEqual({ balance: 0n, nonce: 1 })
        }))
    }).pipe(Effect.scoped, Effect.orDie))
})
