/**
 * The emulator's building blocks in isolation: Basic credentials, query values, cursors, account
 * keys, database locations and the key vault.
 */
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Either, FastCheck as fc, Option, Redacted } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import * as Libsql from "@libsql/client"
import * as AccountKeys from "../src/chain/AccountKeys.js"
import * as ApiKeys from "../src/store/ApiKeys.js"
import * as Caller from "../src/http/Caller.js"
import * as Cursor from "../src/services/Cursors.js"
import * as Database from "../src/store/Database.js"
import * as Embedded from "../src/store/Embedded.js"
import * as Emulator from "../src/Emulator.js"
import * as KeyVault from "../src/store/KeyVault.js"
import * as WalletApi from "effect-kas-wallet/WalletApi"
import * as Input from "../src/http/Input.js"
import * as Listing from "../src/http/Listing.js"

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64")

describe("Credentials", () => {
  it("parseBasic splits on the first colon (RFC 7617), scheme case-insensitive", () => {
    const parsed = Caller.parseBasic(`Basic ${b64("id:se:cr:et")}`)
    expect(Option.map(parsed, (c) => [c.accessKeyId, Redacted.value(c.secretAccessKey)])).toEqual(Option.some(["id", "se:cr:et"]))
    expect(Option.isSome(Caller.parseBasic(`bAsIc ${b64("id:x")}`))).toBe(true)
    expect(Option.map(Caller.parseBasic(`Basic ${b64("id:")}`), (c) => Redacted.value(c.secretAccessKey))).toEqual(Option.some(""))
    // unpadded base64 is tolerated
    expect(Option.isSome(Caller.parseBasic(`Basic ${b64("id:xy").replace(/=+$/, "")}`))).toBe(true)
  })

  it("parseBasic refuses other schemes, bad base64, no colon, an empty id, invalid UTF-8", () => {
    for (
      const header of [
        "",
        "Basic",
        "Basic ",
        `Bearer ${b64("id:x")}`,
        "Basic !!!",
        `Basic ${b64("noColon")}`,
        `Basic ${b64(":secret")}`,
        `Basic ${Buffer.from([0xc3, 0x28, 0x3a, 0x41]).toString("base64")}`,
        `Basic ${b64("id:x")} extra`
      ]
    ) {
      expect(Caller.parseBasic(header), header).toEqual(Option.none())
    }
  })

  it.prop("hashes verify only the same secret, in constant time", [fc.string(), fc.string()], ([a, b]) => {
    const salt = ApiKeys.generateSalt()
    const hash = ApiKeys.hashSecret(Redacted.make(a), salt)
    expect(ApiKeys.verifySecret(Redacted.make(a), salt, hash)).toBe(true)
    expect(ApiKeys.verifySecret(Redacted.make(b), salt, hash)).toBe(a === b)
    expect(Buffer.from(hash).toString("utf8")).not.toContain(a.length > 3 ? a : "\u0000never")
  })

  it("generated ids and secrets have the documented shapes and never a colon", () => {
    const ids = new Set<string>()
    for (let i = 0; i < 200; i++) {
      const id = ApiKeys.generateAccessKeyId()
      expect(id).toMatch(/^KASK[A-Z0-9]{20}$/)
      ids.add(id)
      expect(Redacted.value(ApiKeys.generateSecret())).toMatch(/^[A-Za-z0-9]{40}$/)
    }
    expect(ids.size).toBe(200)
  })
})

describe("query values, as the table's schemas read them", () => {
  const read = (query: string) =>
    Either.map(Input.query(WalletApi.accounts.listAccounts.urlParamsSchema, query), (q) => Listing.request(q as Listing.Query, "enabled"))

  it("size: absent, empty or 0 → 100; above 1000 → 1000; else 400 1061615", () => {
    const size = (v: string | undefined) =>
      Either.getOrElse(Either.map(read(v === undefined ? "" : `size=${encodeURIComponent(v)}`), (r) => r.size as number | string), (e) => `${e.code}`)
    expect([undefined, "", "0", "-0", "1", "999", "1000", "1001", "1".repeat(400)].map(size)).toEqual([
      100, 100, 100, 100, 1, 999, 1000, 1000, 1000
    ])
    for (const bad of ["-1", "1.0", "1e3", " 1", "+1", "abc", "0x1"]) expect(size(bad)).toBe("1061615")
    // Given twice: ambiguous.
    expect(Either.getLeft(read("size=1&size=2")).pipe(Option.map((e) => [e.code, e.message]))).toEqual(
      Option.some([1061615, "its value is out of range; size"])
    )
  })

  it("timestamps: absent, empty or 0 → unbounded; non-negative integers; else 400 1061615", () => {
    const ts = (v: string | undefined) => Either.map(read(v === undefined ? "" : `from-timestamp=${v}`), (r) => r.from)
    expect(ts(undefined)).toEqual(Either.right(undefined))
    expect(ts("")).toEqual(Either.right(undefined))
    expect(ts("0")).toEqual(Either.right(undefined))
    expect(ts("1599187293")).toEqual(Either.right(1599187293))
    for (const bad of ["-1", "1.5", "x"]) {
      expect(Either.getLeft(ts(bad)).pipe(Option.map((e) => [e.code, e.message]))).toEqual(
        Option.some([1061615, "its value is out of range; from-timestamp"])
      )
    }
  })

  it("status: absent or empty → enabled; any case; else 400 1061615", () => {
    const status = (v: string) => Either.getOrElse(Either.map(read(`status=${v}`), (r) => r.status as string), (e) => `${e.code}`)
    expect(["", "DISABLED", "Corrupted", "all"].map(status)).toEqual(["enabled", "disabled", "corrupted", "all"])
    expect(status("deleted")).toBe("1061615")
  })
})

describe("Cursor", () => {
  const secret = Redacted.make(new Uint8Array(32).fill(7))
  const binding = fc.record({
    memberId: fc.nat(),
    chainId: fc.constantFrom(8217, 1001),
    poolId: fc.nat(),
    kind: fc.constantFrom<"account" | "feePayer">("account", "feePayer")
  })
  const state = fc.record({ createdAt: fc.nat(), seq: fc.nat() }).chain(({ createdAt, seq }) =>
    fc.nat().map((extra) => ({ after: { createdAt, seq }, snapshot: seq + extra }))
  )

  it.prop("decodes what it encodes, for the same binding only", [binding, binding, state], ([b, other, s]) => {
    const cursor = Cursor.encode(secret, b, s)
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/)
    expect(Cursor.decode(secret, b, cursor)).toEqual(Option.some(s))
    const same = other.memberId === b.memberId && other.chainId === b.chainId && other.poolId === b.poolId &&
      other.kind === b.kind
    expect(Option.isSome(Cursor.decode(secret, other, cursor))).toBe(same)
    // Account pools and fee-payer pools number their ids apart: the same id of the other kind is another pool.
    const otherKind = b.kind === "account" ? "feePayer" : "account"
    expect(Cursor.decode(secret, { ...b, kind: otherKind }, cursor)).toEqual(Option.none())
    expect(Cursor.decode(Redacted.make(new Uint8Array(32).fill(8)), b, cursor)).toEqual(Option.none())
  })

  it.prop("any change of any character is detected", [binding, state, fc.nat(), fc.char()], ([b, s, i, c]) => {
    const cursor = Cursor.encode(secret, b, s)
    const at = i % cursor.length
    const altered = cursor.slice(0, at) + c + cursor.slice(at + 1)
    if (altered !== cursor) expect(Cursor.decode(secret, b, altered)).toEqual(Option.none())
  })

  it.prop("random strings never decode", [fc.string({ maxLength: 600 })], ([s]) => {
    expect(Cursor.decode(secret, { memberId: 1, chainId: 1001, poolId: 1, kind: "account" }, s)).toEqual(Option.none())
  })
})

describe("AccountKeys", () => {
  it("derives the address of a known key (private key 1)", () => {
    const one = new Uint8Array(32)
    one[31] = 1
    const key = AccountKeys.fromPrivateKey(Redacted.make(one))
    expect(key.address).toBe("0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf")
    expect(key.publicKey).toBe(
      "0x0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8"
    )
    expect(key.keyHex).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it("generates distinct valid key pairs whose public key matches the private key", () => {
    for (let i = 0; i < 20; i++) {
      const key = AccountKeys.generate()
      expect(`0x${Buffer.from(secp256k1.getPublicKey(Redacted.value(key.privateKey), false)).toString("hex")}`).toBe(key.publicKey)
      expect(String(key.privateKey)).not.toContain(Buffer.from(Redacted.value(key.privateKey)).toString("hex"))
    }
  })
})

describe("Database.parse", () => {
  it("reads every kind of location", () => {
    const parse = (s: string) => Either.map(Database.parse(s), (l) => l._tag)
    expect(parse(":memory:")).toEqual(Either.right("Ephemeral"))
    expect(parse("file::memory:?cache=shared")).toEqual(Either.right("SharedMemory"))
    expect(parse("data/e.db")).toEqual(Either.right("File"))
    expect(parse("file:/tmp/e.db")).toEqual(Either.right("File"))
    expect(parse("file:///tmp/e.db")).toEqual(Either.right("File"))
    expect(parse("libsql://db.example.com")).toEqual(Either.right("Remote"))
    expect(parse("http://127.0.0.1:8080")).toEqual(Either.right("Remote"))
    expect(Either.isLeft(Database.parse(""))).toBe(true)
    expect(Either.isLeft(Database.parse("ftp://x"))).toBe(true)
    expect(Either.isLeft(Database.parse("file:/tmp/e.db?mode=ro"))).toBe(true)
  })

  it("never shows credentials of a URL", () => {
    expect(Database.redactUrl("libsql://user:pw@db.example.com?authToken=secret")).toBe("libsql://<redacted>@db.example.com?<redacted>")
  })
})

describe("Database.layer", () => {
  // The failure must come at once: the bound only turns a hang (the regression) into a failure.
  const startFailure = (options: Parameters<typeof Emulator.make>[0]) =>
    Emulator.make({ port: 0, ...options }).pipe(Effect.scoped, Effect.timeout("5 seconds"), Effect.flip)

  it.live("a database whose directory or file cannot be made fails at once, naming the path and the system's reason", () =>
    Effect.gen(function*() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kas-emu-units-"))
      const aFile = path.join(dir, "plain")
      fs.writeFileSync(aFile, "")
      try {
        const cases = [
          // Under /proc, mkdir fails with ENOENT below a parent that exists: Node's recursive mkdir
          // then loops forever.
          ...(process.platform === "linux" ? [{ db: "/proc/nope/x.db", reason: "ENOENT" }] : []),
          { db: path.join(aFile, "sub", "x.db"), reason: "ENOTDIR" },
          { db: dir, reason: "EISDIR" }
        ]
        for (const { db, reason } of cases) {
          const error = yield* startFailure({ database: db })
          expect(error._tag, db).toBe("EmulatorError")
          expect(error._tag === "EmulatorError" && error.reason, db).toBe("Database")
          expect(error.message, db).toContain(db)
          expect(error.message, db).toContain(reason)
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    }))

  it.live("a master key file whose directory cannot be made fails at once, naming the path and the system's reason", () =>
    Effect.gen(function*() {
      const aFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kas-emu-units-")), "plain")
      fs.writeFileSync(aFile, "")
      try {
        const cases = [
          ...(process.platform === "linux" ? [{ file: "/proc/nope/emulator.key", reason: "ENOENT" }] : []),
          { file: path.join(aFile, "sub", "emulator.key"), reason: "ENOTDIR" }
        ]
        for (const { file, reason } of cases) {
          const error = yield* startFailure({ masterKeyFile: file })
          expect(error._tag === "EmulatorError" && error.reason, file).toBe("MasterKey")
          expect(error.message, file).toContain(file)
          expect(error.message, file).toContain(reason)
        }
      } finally {
        fs.rmSync(path.dirname(aFile), { recursive: true, force: true })
      }
    }))
})

describe("Embedded", () => {
  // Side by side with @libsql/client's own file client on the same file: what the SqlClient and
  // the ledger read of a result or a failure must not change with the client.
  it.live("answers as @libsql/client's file client: rows by name and index, integers as numbers (none rounded), BLOBs as ArrayBuffers, SQLite's extended codes, batches whole or not at all; a kept statement reads anew; an open transaction holds off other work", () =>
    Effect.promise(async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kas-emu-embedded-"))
      const file = path.join(dir, "x.db")
      const ours = Embedded.open(file)
      const theirs = Libsql.createClient({ url: pathToFileURL(file).href })
      const outcome = (p: Promise<Libsql.ResultSet | Array<Libsql.ResultSet>>) =>
        p.then(
          (r) => ({ ok: (Array.isArray(r) ? r : [r]).map((s) => ({ columns: s.columns, rowsAffected: s.rowsAffected, rows: s.rows.map((row) => ({ byIndex: Array.from(row), byName: { ...row } })) })) }),
          (e) => ({ failed: e instanceof Libsql.LibsqlError ? e.code : e instanceof RangeError ? "RangeError" : String(e) })
        )
      // `tag` tells the two apart where a write must not meet the other's.
      const both = async (run: (client: Libsql.Client, tag: string) => Promise<Libsql.ResultSet | Array<Libsql.ResultSet>>) => {
        const a = await outcome(run(ours, "x"))
        const b = await outcome(run(theirs, "y"))
        expect(a).toEqual(b)
        return a
      }
      try {
        await ours.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, data BLOB, n INTEGER)")
        const insert = (name: string, n: number | bigint) => ({ sql: "INSERT INTO t (name, data, n) VALUES (?, ?, ?)", args: [name, new Uint8Array([1, 2, name.length]), n] })
        await ours.execute(insert("a", Number.MAX_SAFE_INTEGER))
        const select = "SELECT id, name, data, n, name AS id FROM t ORDER BY id"
        const read = await both((c) => c.execute(select))
        expect(read).toMatchObject({ ok: [{ rows: [{ byName: { id: 1, name: "a", n: Number.MAX_SAFE_INTEGER } }] }] })
        expect((await ours.execute(select)).rows[0]!.data).toBeInstanceOf(ArrayBuffer)
        // A kept statement reads what changed since.
        await ours.execute(insert("bb", 2))
        expect((await ours.execute(select)).rows.length).toBe(2)
        // Failures: a unique key, an integer past 2^53 read back, a batch failing in its middle.
        expect(await both((c) => c.execute(insert("a", 3)))).toEqual({ failed: "SQLITE_CONSTRAINT_UNIQUE" })
        await ours.execute(insert("big", 2n ** 53n + 1n))
        expect(await both((c) => c.execute("SELECT n FROM t WHERE name = 'big'"))).toEqual({ failed: "RangeError" })
        expect(await both((c) => c.batch([insert("c", 4), insert("a", 5)], "write"))).toEqual({ failed: "SQLITE_CONSTRAINT_UNIQUE" })
        expect(await both((c, tag) => c.batch([{ sql: "SELECT count(*) AS n FROM t WHERE name = 'c'", args: [] }, insert(`d${tag}`, 6)], "write")))
          .toMatchObject({ ok: [{ rows: [{ byName: { n: 0 } }] }, { rowsAffected: 1 }] })
        // A transaction keeps the connection; the client waits for nothing but refuses meanwhile.
        const tx = await ours.transaction("write")
        await tx.execute(insert("e", 7))
        expect(await outcome(ours.execute("SELECT 1"))).toEqual({ failed: "TRANSACTION_OPEN" })
        await tx.rollback()
        expect((await ours.execute("SELECT count(*) AS n FROM t WHERE name = 'e'")).rows[0]!.n).toBe(0)
      } finally {
        ours.close()
        theirs.close()
        fs.rmSync(dir, { recursive: true, force: true })
      }
    }))
})

describe("KeyVault", () => {
  it("seals with AES-256-GCM: opens under the same key and context only; never the plaintext", () => {
    const vault = KeyVault.unsafeFromKey(Redacted.make(new Uint8Array(32).fill(1)), { _tag: "Ephemeral" })
    const other = KeyVault.unsafeFromKey(Redacted.make(new Uint8Array(32).fill(2)), { _tag: "Ephemeral" })
    const secret = new Uint8Array(32).fill(9)
    const sealed = vault.seal(Redacted.make(secret), "ctx")
    expect(sealed.length).toBe(12 + 16 + 32)
    expect(Buffer.from(sealed).includes(Buffer.from(secret))).toBe(false)
    expect(Option.map(vault.open(sealed, "ctx"), Redacted.value)).toEqual(Option.some(secret))
    expect(vault.open(sealed, "other")).toEqual(Option.none())
    expect(other.open(sealed, "ctx")).toEqual(Option.none())
    const tampered = new Uint8Array(sealed)
    tampered[40]! ^= 1
    expect(vault.open(tampered, "ctx")).toEqual(Option.none())
    // a fresh nonce each time
    expect(Buffer.from(vault.seal(Redacted.make(secret), "ctx")).equals(Buffer.from(sealed))).toBe(false)
  })
})
