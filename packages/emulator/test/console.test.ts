/**
 * The console operations (members, keys, pools), the ready member of an emulator, and how keys
 * behave over HTTP once created or deleted.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Exit, Layer, Redacted } from "effect"
import * as Console from "../src/console/EmulatorConsole.js"
import * as Emulator from "../src/Emulator.js"
import { api, clientLayer, expectError, send } from "./_support.js"

const secret = (s: string) => Redacted.make(s)

layer(Layer.merge(Emulator.layer(), clientLayer))("emulator console", (it) => {
  it.effect("the ready member works at once, and has a default pool on each chain", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      expect(e.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(e.port).toBeGreaterThan(0)
      expect(e.member.generated).toBe(true)
      expect(e.member.accountId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(e.member.accessKeyId).toMatch(/^KASK[A-Z0-9]{20}$/)
      expect(Redacted.value(e.member.secretAccessKey)).toMatch(/^[A-Za-z0-9]{40}$/)
      expect(String(e.member.secretAccessKey)).not.toContain(Redacted.value(e.member.secretAccessKey))
      const pools = yield* e.listPools(e.member.accountId)
      expect(pools.map((p) => [p.krn.toString(), p.isDefault])).toEqual([
        [`krn:1001:wallet:${e.member.accountId}:account-pool:default`, true],
        [`krn:8217:wallet:${e.member.accountId}:account-pool:default`, true]
      ])
      const a = api(e.url, e.member.accountId, Redacted.value(e.member.authorization))
      expect((yield* a.create(1001)).status).toBe(200)
    }))

  describe("keys", () => {
    it.effect("at most 2 per member: a third is refused until one is deleted; a deleted key stops working", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const m = yield* e.createMember()
        const k1 = yield* e.createKey(m.accountId)
        const k2 = yield* e.createKey(m.accountId)
        expect(k1.accessKeyId).not.toBe(k2.accessKeyId)
        const third = yield* Effect.either(e.createKey(m.accountId))
        expect(third).toMatchObject(Either.left({ _tag: "ConsoleError", reason: "KeyLimit" }))
        if (Either.isLeft(third)) expect(third.left.message).toContain("delete one first")
        const listed = yield* e.listKeys(m.accountId)
        expect(listed.map((k) => k.accessKeyId).sort()).toEqual([k1.accessKeyId, k2.accessKeyId].sort())
        // listing never shows a secret
        for (const k of listed) expect(Object.keys(k).sort()).toEqual(["accessKeyId", "accountId", "createdAt"])
        const a1 = api(e.url, m.accountId, Redacted.value(k1.authorization))
        expect((yield* a1.list(1001)).status).toBe(200)
        yield* e.deleteKey(m.accountId, k1.accessKeyId)
        expectError(yield* a1.list(1001), 401, 1010009)
        const k3 = yield* e.createKey(m.accountId)
        expect((yield* api(e.url, m.accountId, Redacted.value(k3.authorization)).list(1001)).status).toBe(200)
        expect(yield* Effect.either(e.deleteKey(m.accountId, k1.accessKeyId))).toMatchObject(
          Either.left({ reason: "KeyNotFound" })
        )
      }))

    it.effect("the Authorization value of a new key is Basic base64(id:secret)", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const m = yield* e.createMember()
        const k = yield* e.createKey(m.accountId)
        expect(Redacted.value(k.authorization)).toBe(
          `Basic ${Buffer.from(`${k.accessKeyId}:${Redacted.value(k.secretAccessKey)}`).toString("base64")}`
        )
      }))

    it.effect("registered keys: validated, unique, and their secret may hold colons", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const m = yield* e.createMember()
        yield* e.registerKey({ accountId: m.accountId, accessKeyId: "CONSOLE-KEY-1", secretAccessKey: secret("a:b:c") })
        const a = api(e.url, m.accountId, `Basic ${Buffer.from("CONSOLE-KEY-1:a:b:c").toString("base64")}`)
        expect((yield* a.list(8217)).status).toBe(200)
        const other = yield* e.createMember()
        expect(
          yield* Effect.either(e.registerKey({ accountId: other.accountId, accessKeyId: "CONSOLE-KEY-1", secretAccessKey: secret("x") }))
        ).toMatchObject(Either.left({ reason: "KeyExists" }))
        for (const accessKeyId of ["with:colon", "", "has space"]) {
          expect(
            yield* Effect.either(e.registerKey({ accountId: m.accountId, accessKeyId, secretAccessKey: secret("x") }))
          ).toMatchObject(Either.left({ reason: "InvalidInput" }))
        }
        expect(
          yield* Effect.either(e.registerKey({ accountId: m.accountId, accessKeyId: "CONSOLE-KEY-2", secretAccessKey: secret("") }))
        ).toMatchObject(Either.left({ reason: "InvalidInput" }))
        expect(
          yield* Effect.either(e.registerKey({ accountId: "no-such-member", accessKeyId: "CONSOLE-KEY-3", secretAccessKey: secret("x") }))
        ).toMatchObject(Either.left({ reason: "MemberNotFound" }))
      }))

    it.effect("ensureKey registers once, accepts the same secret again, refuses another secret", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const first = yield* e.ensureKey({ accessKeyId: "ENSURE-1", secretAccessKey: secret("s1") })
        const again = yield* e.ensureKey({ accessKeyId: "ENSURE-1", secretAccessKey: secret("s1") })
        expect(again).toEqual(first)
        expect(yield* Effect.either(e.ensureKey({ accessKeyId: "ENSURE-1", secretAccessKey: secret("s2") }))).toMatchObject(
          Either.left({ reason: "KeyMismatch" })
        )
        const chosen = yield* e.ensureKey({ accessKeyId: "ENSURE-2", secretAccessKey: secret("s"), accountId: "fixed-account-id" })
        expect(chosen.accountId).toBe("fixed-account-id")
        expect((yield* e.listPools("fixed-account-id")).length).toBe(2)
      }))
  })

  describe("members and pools", () => {
    it.effect("members: chosen or generated account ids, unique", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const m = yield* e.createMember({ accountId: "68ec0e4b-0f61-4e6f-ae35-be865ab23187" })
        expect(m.accountId).toBe("68ec0e4b-0f61-4e6f-ae35-be865ab23187")
        expect(yield* Effect.either(e.createMember({ accountId: m.accountId }))).toMatchObject(Either.left({ reason: "MemberExists" }))
        expect(yield* Effect.either(e.createMember({ accountId: "a:b" }))).toMatchObject(Either.left({ reason: "InvalidInput" }))
        const members = yield* e.listMembers
        expect(members.some((x) => x.accountId === m.accountId)).toBe(true)
      }))

    it.effect("pools: per chain, unique per member and chain, names are KRN segments", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const m = yield* e.createMember()
        const p = yield* e.createPool({ accountId: m.accountId, chainId: 1001 as any, name: "payroll" })
        expect(p).toMatchObject({ accountId: m.accountId, chainId: 1001, name: "payroll", isDefault: false })
        expect(yield* Effect.either(e.createPool({ accountId: m.accountId, chainId: 1001 as any, name: "payroll" }))).toMatchObject(
          Either.left({ reason: "PoolExists" })
        )
        expect(yield* Effect.either(e.createPool({ accountId: m.accountId, chainId: 1001 as any, name: "default" }))).toMatchObject(
          Either.left({ reason: "PoolExists" })
        )
        yield* e.createPool({ accountId: m.accountId, chainId: 8217 as any, name: "payroll" })
        for (const name of ["", "a:b", "a,b", "with space"]) {
          expect(yield* Effect.either(e.createPool({ accountId: m.accountId, chainId: 1001 as any, name }))).toMatchObject(
            Either.left({ reason: "InvalidInput" })
          )
        }
        expect((yield* e.listPools(m.accountId, 1001 as any)).map((x) => x.name)).toEqual(["default", "payroll"])
        expect((yield* e.listPools(m.accountId)).length).toBe(4)
      }))

    it.effect("fee-payer pools: a default one per chain from the start, named ones per chain, apart from account pools of the same name", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const m = yield* e.createMember()
        expect((yield* e.listFeePayerPools(m.accountId)).map((p) => [p.krn.toString(), p.isDefault])).toEqual([
          [`krn:1001:wallet:${m.accountId}:feepayer-pool:default`, true],
          [`krn:8217:wallet:${m.accountId}:feepayer-pool:default`, true]
        ])
        // The same name as an account pool is another pool.
        yield* e.createPool({ accountId: m.accountId, chainId: 1001 as any, name: "ops" })
        const p = yield* e.createFeePayerPool({ accountId: m.accountId, chainId: 1001 as any, name: "ops" })
        expect(p).toMatchObject({ accountId: m.accountId, chainId: 1001, name: "ops", isDefault: false })
        expect(p.krn.toString()).toBe(`krn:1001:wallet:${m.accountId}:feepayer-pool:ops`)
        for (const name of ["ops", "default"]) {
          expect(yield* Effect.either(e.createFeePayerPool({ accountId: m.accountId, chainId: 1001 as any, name }))).toMatchObject(
            Either.left({ reason: "PoolExists" })
          )
        }
        for (const name of ["", "a:b", "a,b", "x".repeat(129)]) {
          expect(yield* Effect.either(e.createFeePayerPool({ accountId: m.accountId, chainId: 1001 as any, name }))).toMatchObject(
            Either.left({ reason: "InvalidInput" })
          )
        }
        expect(yield* Effect.either(e.createFeePayerPool({ accountId: "nobody", chainId: 1001 as any, name: "x" }))).toMatchObject(
          Either.left({ reason: "MemberNotFound" })
        )
        expect((yield* e.listFeePayerPools(m.accountId, 1001 as any)).map((x) => x.name)).toEqual(["default", "ops"])
        expect((yield* e.listPools(m.accountId, 1001 as any)).map((x) => x.name)).toEqual(["default", "ops"])
        expect((yield* Console.listFeePayerPools(m.accountId, 8217 as any).pipe(Effect.provideService(Console.Console, e))).length).toBe(1)
      }))

    it.effect("the console functions work over the Console service too", () =>
      Effect.gen(function*() {
        const m = yield* Console.createMember()
        const k = yield* Console.createKey(m.accountId)
        expect((yield* Console.listKeys(m.accountId)).map((x) => x.accessKeyId)).toEqual([k.accessKeyId])
        const p = yield* Console.createPool({ accountId: m.accountId, chainId: 1001 as any, name: "x" })
        expect((yield* Console.listPools(m.accountId, 1001 as any)).map((x) => x.krn.toString())).toContain(p.krn.toString())
      }).pipe(Effect.provide(Console.layerDatabase({ database: ":memory:" }))))
  })

  it.effect("unknown paths still answer while the member is unauthenticated", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      expectError(yield* send("GET", `${e.url}/v2/nothing`), 404, 1010007)
    }))
})

describe("emulator start-up", () => {
  it.effect("registers the given member key, and the same key again on a second start of the same database", () =>
    Effect.gen(function*() {
      const member = { accessKeyId: "KASKFIXEDTESTKEY0000001", secretAccessKey: secret("fixed-secret:with-colon") }
      const dir = yield* Effect.promise(() => import("node:fs/promises").then((fs) => fs.mkdtemp("/tmp/kas-emu-test-")))
      const database = `${dir}/e.db`
      const start = Effect.scoped(Effect.flatMap(Emulator.make({ database, member }), (e) => Effect.succeed(e.member)))
      const first = yield* start
      const second = yield* start
      expect(first.generated).toBe(false)
      expect(second.accountId).toBe(first.accountId)
      expect(second.accessKeyId).toBe("KASKFIXEDTESTKEY0000001")
      const conflict = yield* Effect.exit(
        Effect.scoped(Emulator.make({ database, member: { ...member, secretAccessKey: secret("other") } }))
      )
      expect(conflict).toMatchObject(Exit.fail({ _tag: "EmulatorError", reason: "Member" }))
      yield* Effect.promise(() => import("node:fs/promises").then((fs) => fs.rm(dir, { recursive: true })))
    }))

  it.effect("layerConfig reads KAS_ACCESS_KEY_ID / KAS_SECRET_ACCESS_KEY", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      expect(e.member.accessKeyId).toBe("KASKFROMENV")
      expect(Redacted.value(e.member.secretAccessKey)).toBe("env-secret")
      expect(e.member.generated).toBe(false)
    }).pipe(
      Effect.provide(Emulator.layerConfig()),
      Effect.withConfigProvider(ConfigProvider.fromJson({ KAS_ACCESS_KEY_ID: "KASKFROMENV", KAS_SECRET_ACCESS_KEY: "env-secret" }))
    ))

  it.effect("layerConfig refuses an access key id without its secret", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Effect.scoped(Layer.build(Emulator.layerConfig())))
      expect(Exit.isFailure(exit)).toBe(true)
    }).pipe(Effect.withConfigProvider(ConfigProvider.fromJson({ KAS_ACCESS_KEY_ID: "KASKALONE" }))))

  it.effect("invalid options fail with a Config error", () =>
    Effect.gen(function*() {
      for (
        const options of [
          { port: 70000 },
          { port: 1.5 },
          { database: "" },
          { database: "ftp://example.com/db" },
          { faults: { rate: 2 } },
          { faults: { rate: 0.5, kinds: [] } },
          { faults: { rate: 0.5, kinds: ["teapot" as any] } }
        ]
      ) {
        const exit = yield* Effect.exit(Effect.scoped(Emulator.make(options)))
        expect(exit, JSON.stringify(options)).toMatchObject(Exit.fail({ _tag: "EmulatorError", reason: "Config" }))
      }
    }))

  it.effect("a port in use is a Listen error", () =>
    Effect.scoped(Effect.gen(function*() {
      const first = yield* Emulator.make()
      const exit = yield* Effect.exit(Effect.scoped(Emulator.make({ port: first.port })))
      expect(exit).toMatchObject(Exit.fail({ _tag: "EmulatorError", reason: "Listen" }))
    })))

  it.effect("two emulators in one process are independent", () =>
    Effect.scoped(Effect.gen(function*() {
      const [x, y] = yield* Effect.all([Emulator.make(), Emulator.make()], { concurrency: 2 })
      expect(x.url).not.toBe(y.url)
      expect(yield* y.listMembers).toHaveLength(1)
      expect((yield* x.listMembers).map((m) => m.accountId)).toEqual([x.member.accountId])
    })))
})
