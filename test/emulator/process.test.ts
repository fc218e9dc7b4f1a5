/**
 * The emulator as a process (`kas-wallet emulator`, run through tsx): durability across SIGKILL,
 * secrets (shown once, never stored or logged in clear), the master key, graceful shutdown, and the
 * console commands.
 */
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Either, Fiber, Layer, Option, Redacted, Ref } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { SqlClient } from "@effect/sql"
import * as Console from "../../src/emulator/Console.js"
import * as Database from "../../src/emulator/Database.js"
import * as KeyVault from "../../src/emulator/KeyVault.js"
import * as Store from "../../src/emulator/Store.js"
import { runCli, start } from "./_process.js"
import { api, clientLayer, sendEither } from "./_support.js"

const tempDir = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-emu-proc-"))),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
)

/** Every byte the database keeps on disk (main file, WAL, shared memory), without the key file. */
const databaseBytes = (dir: string) =>
  Effect.promise(async () => {
    const names = (await fs.readdir(dir)).filter((n) => n.startsWith("e.db") && !n.endsWith(".key"))
    return Buffer.concat(await Promise.all(names.map((n) => fs.readFile(path.join(dir, n)))))
  })

const KEY = ["--access-key-id", "KASKPROCESSTEST000000001", "--secret-access-key", "proc:secret:with:colons"]
const AUTH = `Basic ${Buffer.from("KASKPROCESSTEST000000001:proc:secret:with:colons").toString("base64")}`

describe("emulator process", () => {
  it.live("every account answered 200 survives SIGKILL during a stream of creates, and a restart", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const db = path.join(dir, "e.db")
      const acknowledged = yield* Ref.make<ReadonlyArray<any>>([])
      const first = yield* start(["--port", "0", "--db", db, ...KEY])
      expect(first.stdout()).toContain("KASKPROCESSTEST000000001")
      const a = api(first.url, "", AUTH)
      // 8 writers create without pause; the process is killed while they are in flight.
      const writers = yield* Effect.fork(
        Effect.forEach(Array.from({ length: 8 }), () =>
          Effect.forever(
            Effect.flatMap(Effect.either(sendEither("POST", `${first.url}/v2/account`, a.headers(1001))), (reply) =>
              Either.isRight(reply) && reply.right.status === 200
                ? Ref.update(acknowledged, (xs) => [...xs, reply.right.body])
                : Effect.void)
          ), { concurrency: 8, discard: true })
      )
      while ((yield* Ref.get(acknowledged)).length < 150) yield* Effect.sleep("20 millis")
      first.child.kill("SIGKILL")
      expect(yield* first.exited).toBe("SIGKILL")
      yield* Fiber.interrupt(writers)
      const acked = yield* Ref.get(acknowledged)
      expect(acked.length).toBeGreaterThanOrEqual(150)

      const second = yield* start(["--port", "0", "--db", db, ...KEY])
      const b = api(second.url, "", AUTH)
      for (const account of acked) {
        const reply = yield* b.get(1001, account.address)
        expect(reply.status, reply.text).toBe(200)
        expect(reply.body).toEqual(account)
      }
      const listed = new Set((yield* b.listAll(1001, { size: 1000 })).items.map((i: any) => i.address))
      for (const account of acked) expect(listed.has(account.address)).toBe(true)
      // the registered key is found again, not created twice; no secret is printed
      expect(second.stdout()).not.toContain("secret access key")
      expect(second.stdout()).not.toContain("proc:secret")
    }).pipe(Effect.scoped, Effect.provide(clientLayer)), { timeout: 90_000 })

  it.live("a created secret is printed once and stored nowhere in clear; private keys are sealed; the key file is 0600", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const db = path.join(dir, "e.db")
      const running = yield* start(["--port", "0", "--db", db])
      const out = running.stdout()
      const secret = /^secret access key: (\S+)$/m.exec(out)?.[1]
      const accountId = /^created member (\S+)$/m.exec(out)?.[1]
      const authorization = /^authorization: (Basic \S+)$/m.exec(out)?.[1]
      expect(secret).toMatch(/^[A-Za-z0-9]{40}$/)
      expect(out.split(secret!).length - 1).toBe(1)
      const a = api(running.url, accountId!, authorization!)
      const accounts = yield* Effect.forEach(Array.from({ length: 10 }), () => Effect.map(a.create(8217), (r) => r.body))
      // wrong credentials and other traffic: nothing of the Authorization value may be logged
      yield* sendEither("GET", `${running.url}/v2/account`, { authorization: `${authorization}x`, "x-chain-id": "8217" })
      yield* sendEither("GET", `${running.url}/v2/account`, { authorization: "Basic S0FTS1dST05HOndyb25nLXNlY3JldA==" })
      running.child.kill("SIGTERM")
      expect(yield* running.exited).toBe(0)
      const logs = running.stdout() + running.stderr()
      expect(logs.split(secret!).length - 1).toBe(1)
      expect(logs).not.toContain("S0FTS1dST05HOndyb25nLXNlY3JldA==")
      expect(logs).not.toContain("wrong-secret")
      expect(running.stderr()).toBe("")

      const bytes = yield* databaseBytes(dir)
      expect(bytes.length).toBeGreaterThan(0)
      expect(bytes.includes(Buffer.from(secret!))).toBe(false)
      expect(bytes.includes(Buffer.from(authorization!.slice(6)))).toBe(false)

      const keyFile = `${db}.key`
      expect((yield* Effect.promise(() => fs.stat(keyFile))).mode & 0o777).toBe(0o600)

      // Open the sealed keys with the vault: they are the accounts' keys, and they are not on disk in clear.
      const opened = yield* Effect.gen(function*() {
        const vault = yield* KeyVault.KeyVault
        const store = yield* Store.Store
        return yield* Effect.forEach(accounts, (account) =>
          Effect.map(store.sealedPrivateKey(account.address.toLowerCase()), (sealed) => ({
            account,
            privateKey: Option.flatMap(sealed, (s) => vault.open(s, account.address.toLowerCase()))
          })))
      }).pipe(
        Effect.provide(
          KeyVault.layer({}).pipe(Layer.provideMerge(Store.layer), Layer.provideMerge(Database.layer({ database: db })))
        )
      )
      for (const { account, privateKey } of opened) {
        expect(Option.isSome(privateKey)).toBe(true)
        const key = Redacted.value(Option.getOrThrow(privateKey))
        expect(`0x${Buffer.from(secp256k1.getPublicKey(key, false)).toString("hex")}`).toBe(account.publicKey)
        expect(bytes.includes(Buffer.from(key))).toBe(false)
        expect(bytes.includes(Buffer.from(Buffer.from(key).toString("hex")))).toBe(false)
      }
      // no column holds anything like a private key in clear
      const columns = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql`SELECT * FROM accounts LIMIT 1`
      }).pipe(Effect.provide(Database.layer({ database: db })))
      expect(Object.keys(columns[0]!).sort()).toEqual(
        ["address", "address_lc", "created_at", "key_hex", "pool_id", "private_key", "public_key", "seq", "updated_at"]
      )
    }).pipe(Effect.scoped, Effect.provide(clientLayer)), { timeout: 90_000 })

  it.live("another master key is refused at start, with a clear message", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const db = path.join(dir, "e.db")
      const first = yield* start(["--port", "0", "--db", db, "--master-key", "first-master-key"])
      first.child.kill("SIGTERM")
      yield* first.exited
      const wrong = yield* runCli(["emulator", "--port", "0", "--db", db, "--master-key", "another-master-key"])
      expect(wrong.code).toBe(2)
      expect(wrong.stderr).toContain("master key does not match this database")
      expect(wrong.stdout + wrong.stderr).not.toContain("another-master-key")
      expect(wrong.stdout).not.toContain("listening on")
      const again = yield* start(["--port", "0", "--db", db], { KAS_EMULATOR_MASTER_KEY: "first-master-key" })
      expect(again.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    }).pipe(Effect.scoped), { timeout: 90_000 })

  it.live("SIGTERM stops gracefully: an in-flight request is answered, then the process exits 0", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const running = yield* start([
        "--db", path.join(dir, "e.db"), ...KEY,
        "--fault-rate", "1", "--fault-kinds", "latency", "--fault-latency-ms", "1500"
      ])
      const inFlight = yield* Effect.fork(sendEither("POST", `${running.url}/v2/account`, api(running.url, "", AUTH).headers(1001)))
      yield* Effect.sleep("400 millis")
      running.child.kill("SIGTERM")
      const reply = yield* Fiber.join(inFlight)
      expect(reply.status).toBe(200)
      expect(yield* running.exited).toBe(0)
      const after = yield* Effect.either(sendEither("GET", `${running.url}/health`))
      expect(Either.isLeft(after)).toBe(true)
    }).pipe(Effect.scoped, Effect.provide(clientLayer)), { timeout: 90_000 })

  it.live("env KAS_ACCESS_KEY_ID / KAS_SECRET_ACCESS_KEY (+ KAS_ACCOUNT_ID) register the key for a member", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const db = path.join(dir, "e.db")
      const accountId = yield* Effect.gen(function*() {
        const console = yield* Console.Console
        const member = yield* console.createMember()
        yield* console.createPool({ accountId: member.accountId, chainId: 1001 as any, name: "payroll" })
        return member.accountId
      }).pipe(Effect.provide(Console.layerDatabase({ database: db })))
      const running = yield* start(["--port", "0", "--db", db], {
        KAS_ACCESS_KEY_ID: "KASKFROMENVIRONMENT00001",
        KAS_SECRET_ACCESS_KEY: "env-secret",
        KAS_ACCOUNT_ID: accountId
      })
      expect(running.stdout()).toContain(`member ${accountId}, access key id KASKFROMENVIRONMENT00001`)
      expect(running.stdout()).not.toContain("env-secret")
      const a = api(running.url, accountId, `Basic ${Buffer.from("KASKFROMENVIRONMENT00001:env-secret").toString("base64")}`)
      const created = yield* a.create(1001, a.krn(1001, "payroll"))
      expect(created.status, created.text).toBe(200)
    }).pipe(Effect.scoped, Effect.provide(clientLayer)), { timeout: 90_000 })
})
