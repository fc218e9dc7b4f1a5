/**
 * The wire contract of the emulator, rule by rule, over real loopback HTTP. Time is the TestClock
 * (the emulator reads Effect's Clock), so createdAt values are exact.
 */
import { describe, expect, layer } from "@effect/vitest"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Clock, Effect, Either, Layer, Option, Redacted, Schema, TestClock } from "effect"
import { Account, Address, ChainId } from "effect-kas-wallet"
import * as Emulator from "../src/Emulator.js"
import {
  addAccounts,
  api,
  basic,
  clientLayer,
  expectError,
  expectKasErrorBody,
  fileEmulator,
  memberApi,
  newMemberApi,
  rawExchange,
  send
} from "./_support.js"

const decodeAccount = Schema.decodeUnknownEither(Account.Account)
const decodePage = Schema.decodeUnknownEither(Account.AccountPage)
const seconds = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

const TestLayer = Layer.merge(Emulator.layer(), clientLayer)

layer(TestLayer)("emulator wire contract", (it) => {
  describe("POST /v2/account", () => {
    it.effect("creates a real account in the default pool, now, with every field derived as the service does", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(1_700_000_000_000)
        const a = yield* memberApi
        const reply = yield* a.create(1001)
        expect(reply.status, reply.text).toBe(200)
        expect(reply.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)
        const body = reply.body
        expect(Either.isRight(decodeAccount(body)), reply.text).toBe(true)
        expect(Object.keys(body).sort()).toEqual(["address", "chainId", "createdAt", "keyId", "krn", "publicKey", "updatedAt"])
        expect(body.chainId).toBe(1001)
        expect(body.krn).toBe(a.krn(1001))
        expect(body.createdAt).toBe(1_700_000_000)
        expect(body.updatedAt).toBe(body.createdAt)
        expect(body.publicKey).toMatch(/^0x04[0-9a-f]{128}$/)
        expect(body.keyId).toMatch(new RegExp(`^${a.krn(1001)}:0x[0-9a-f]{64}$`))
        // address = last 20 bytes of keccak-256 of the 64 coordinate bytes, EIP-55 checksummed
        const digest = keccak_256(Buffer.from(body.publicKey.slice(4), "hex"))
        expect(body.address).toBe(Option.getOrThrow(Address.checksum(`0x${hex(digest.subarray(12))}`)))
        expect(body.address).not.toBe(body.address.toLowerCase())
      }))

    it.effect("each account has a fresh key pair", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        const replies = yield* Effect.forEach([1, 2, 3, 4, 5], () => a.create(8217))
        expect(new Set(replies.map((r) => r.body.publicKey)).size).toBe(5)
        expect(new Set(replies.map((r) => r.body.keyId)).size).toBe(5)
        for (const r of replies) expect(r.body.chainId).toBe(8217)
      }))
  })

  describe("bodies", () => {
    it.effect("accounts and pages are byte for byte the JSON of their schema encoding, also where a pool name needs escaping", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* newMemberApi
        yield* Effect.orDie(e.createPool({ accountId: a.accountId, chainId: 8217 as any, name: `q"uo\\te` }))
        const krn = a.krn(8217, `q"uo\\te`)
        const encodedAccount = (text: string) => JSON.stringify(Schema.encodeSync(Account.Account)(Schema.decodeUnknownSync(Account.Account)(JSON.parse(text))))
        const encodedPage = (text: string) =>
          JSON.stringify(Schema.encodeSync(Account.AccountPage)(Schema.decodeUnknownSync(Account.AccountPage)(JSON.parse(text))))
        const created = [yield* a.create(8217, krn), yield* a.create(8217, krn), yield* a.create(1001)]
        const got = yield* a.get(8217, created[0]!.body.address.toLowerCase(), krn)
        for (const reply of [...created, got]) {
          expect(reply.status, reply.text).toBe(200)
          expect(reply.text).toBe(encodedAccount(reply.text))
        }
        expect(created[0]!.body.krn).toBe(krn)
        const first = yield* a.list(8217, { size: 1 }, krn)
        const last = yield* a.list(8217, { size: 1, cursor: first.body.cursor }, krn)
        for (const reply of [first, last, yield* a.list(8217, { size: 5 }, krn), yield* a.list(8217), yield* a.list(1001)]) {
          expect(reply.status, reply.text).toBe(200)
          expect(reply.text).toBe(encodedPage(reply.text))
        }
        expect(first.body.cursor).not.toBe("")
        expect(last.body.items.length).toBe(1)
        expect(last.body.cursor).toBe("")
      }))
  })

  describe("GET /v2/account/:address", () => {
    it.effect("answers the account for its address in any case", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        const created = (yield* a.create(1001)).body
        for (const form of [created.address, created.address.toLowerCase(), `0x${created.address.slice(2).toUpperCase()}`]) {
          const reply = yield* a.get(1001, form)
          expect(reply.status, reply.text).toBe(200)
          expect(reply.body).toEqual(created)
        }
      }))

    it.effect("a malformed address is 400 1061609", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        for (const bad of ["0x123", "123", "0x" + "g".repeat(40), "0x" + "1".repeat(41), "0X" + "1".repeat(40), "%zz"]) {
          expectError(yield* a.get(1001, bad), 400, 1061609)
        }
      }))

    it.effect("an address outside the selected pool is 400 1061010 \"data don't exist\"", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* memberApi
        yield* Effect.orDie(e.createPool({ accountId: a.accountId, chainId: 1001 as any, name: "wire-get" }))
        const inDefault = (yield* a.create(1001)).body
        const inNamed = (yield* a.create(1001, a.krn(1001, "wire-get"))).body
        const unknown = yield* a.get(1001, "0x" + "1".repeat(40))
        expectError(unknown, 400, 1061010)
        expect(unknown.body.message).toBe("data don't exist")
        expectError(yield* a.get(1001, inNamed.address), 400, 1061010)
        expectError(yield* a.get(1001, inDefault.address, a.krn(1001, "wire-get")), 400, 1061010)
        expectError(yield* a.get(8217, inDefault.address), 400, 1061010)
        expect((yield* a.get(1001, inNamed.address, a.krn(1001, "wire-get"))).body).toEqual(inNamed)
      }))
  })

  describe("authentication", () => {
    it.effect("missing or malformed Authorization is 401 1010008", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        for (
          const authorization of [
            undefined,
            "",
            "Bearer abc",
            "Basic",
            "Basic !!!!",
            basic("no-colon-here"),
            basic(":secret-without-id"),
            "Basic " + Buffer.from([0xff, 0xfe, 0x3a, 0x41]).toString("base64")
          ]
        ) {
          for (const [method, path] of [["POST", "/v2/account"], ["GET", "/v2/account"], ["GET", `/v2/account/0x${"1".repeat(40)}`]] as const) {
            const headers = { "x-chain-id": "1001", ...(authorization !== undefined ? { authorization } : {}) }
            expectError(yield* send(method, `${e.url}${path}`, headers), 401, 1010008)
          }
        }
      }))

    it.effect("an unknown key id or a wrong secret is 401 1010009", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        for (const credentials of [`${e.member.accessKeyId}:wrong`, `${e.member.accessKeyId}:`, "KASKNOSUCHKEY:secret"]) {
          expectError(yield* send("GET", `${e.url}/v2/account`, { authorization: basic(credentials), "x-chain-id": "1001" }), 401, 1010009)
        }
      }))

    it.effect("credentials split on the first colon (RFC 7617): a secret may contain colons; the scheme is case-insensitive", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const member = yield* Effect.orDie(e.createMember())
        yield* Effect.orDie(e.registerKey({
          accountId: member.accountId,
          accessKeyId: "WIRE-COLON-KEY",
          secretAccessKey: Schema.decodeSync(Schema.Redacted(Schema.String))("se:cr:et::")
        }))
        const ok = yield* send("GET", `${e.url}/v2/account`, { authorization: basic("WIRE-COLON-KEY:se:cr:et::"), "x-chain-id": "1001" })
        expect(ok.status, ok.text).toBe(200)
        const lower = yield* send("GET", `${e.url}/v2/account`, {
          authorization: "basic " + Buffer.from("WIRE-COLON-KEY:se:cr:et::").toString("base64"),
          "x-chain-id": "1001"
        })
        expect(lower.status).toBe(200)
        expectError(
          yield* send("GET", `${e.url}/v2/account`, { authorization: basic("WIRE-COLON-KEY:se"), "x-chain-id": "1001" }),
          401,
          1010009
        )
      }))

    it.effect("two Authorization headers are 401 1010008, whichever keys they carry: nothing is created", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        const b = yield* newMemberApi
        const counts = Effect.all([a.listAll(1001), b.listAll(1001)]).pipe(Effect.map((ls) => ls.map((l) => l.items.length)))
        const before = yield* counts
        const pairs = [[b.authorization, a.authorization], [a.authorization, b.authorization], [a.authorization, a.authorization], [a.authorization, "Bearer x"]]
        for (const [first, second] of pairs) {
          for (const [method, path] of [["POST", "/v2/account"], ["GET", "/v2/account"]]) {
            const reply = yield* rawExchange(
              a.url,
              `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${first}\r\nx-chain-id: 1001\r\n` +
                `authorization: ${second}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`
            )
            expectError(reply, 401, 1010008)
          }
        }
        expect(yield* counts).toEqual(before)
      }))

    it.effect("authentication comes before header validation", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        expectError(yield* send("POST", `${e.url}/v2/account`, { "x-chain-id": "bogus" }), 401, 1010008)
      }))
  })

  describe("x-chain-id", () => {
    it.effect("missing is 400 1061608; anything but 8217 or 1001 is 400 1061615", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        const noChain = { authorization: a.authorization }
        const e = yield* Emulator.Emulator
        const missing = yield* send("POST", `${e.url}/v2/account`, noChain)
        expectError(missing, 400, 1061608)
        expect(missing.body.message).toContain("x-chain-id")
        for (const chain of ["1002", "08217", "mainnet", "8217,1001", "1001.0", "-1"]) {
          const reply = yield* send("GET", `${e.url}/v2/account`, { ...noChain, "x-chain-id": chain })
          expectError(reply, 400, 1061615)
          expect(reply.body.message).toBe("its value is out of range; x-chain-id")
        }
      }))
  })

  describe("x-krn", () => {
    it.effect("absent or empty selects the default pool; the default pool's KRN selects it too", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        const created = (yield* a.create(1001)).body
        expect(created.krn).toBe(a.krn(1001))
        const viaKrn = (yield* a.create(1001, a.krn(1001))).body
        expect(viaKrn.krn).toBe(a.krn(1001))
        const viaEmpty = yield* a.create(1001, "")
        expect(viaEmpty.status, viaEmpty.text).toBe(200)
        expect(viaEmpty.body.krn).toBe(a.krn(1001))
        const all = yield* a.listAll(1001, {}, a.krn(1001))
        expect(all.items.map((i: any) => i.address)).toEqual([viaEmpty.body.address, viaKrn.address, created.address])
      }))

    it.effect("a named pool holds its own accounts; keyId names the pool", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* newMemberApi
        const pool = yield* Effect.orDie(e.createPool({ accountId: a.accountId, chainId: 8217 as any, name: "payroll" }))
        expect(pool.krn.toString()).toBe(a.krn(8217, "payroll"))
        const created = (yield* a.create(8217, a.krn(8217, "payroll"))).body
        expect(created.krn).toBe(a.krn(8217, "payroll"))
        expect(created.keyId.startsWith(`${a.krn(8217, "payroll")}:0x`)).toBe(true)
        expect((yield* a.listAll(8217, {}, a.krn(8217, "payroll"))).items).toEqual([created])
        expect((yield* a.listAll(8217)).items).toEqual([])
      }))

    it.effect("malformed, foreign, other-chain or unknown KRNs are 400 1061010 on every route", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* newMemberApi
        const b = yield* newMemberApi
        yield* Effect.orDie(e.createPool({ accountId: b.accountId, chainId: 1001 as any, name: "bpool" }))
        const bAccount = (yield* b.create(1001)).body
        const bad = [
          "krn:1001:wallet",
          "not a krn",
          `krn:1001:wallet:${a.accountId}:feepayer-pool:default`,
          `krn:1001:node:${a.accountId}:account-pool:default`,
          `krn:1001:wallet:${a.accountId}:account-pool:default,krn:1001:wallet:${a.accountId}:feepayer-pool:x`,
          b.krn(1001),
          b.krn(1001, "bpool"),
          a.krn(8217),
          a.krn(1001, "nosuchpool")
        ]
        for (const krn of bad) {
          expectError(yield* a.create(1001, krn), 400, 1061010)
          expectError(yield* a.list(1001, {}, krn), 400, 1061010)
          expectError(yield* a.get(1001, bAccount.address, krn), 400, 1061010)
        }
        expect((yield* b.listAll(1001)).items).toEqual([bAccount])
      }))
  })

  describe("GET /v2/account: size", () => {
    it.scoped("absent or 0 is 100; above 1000 is 1000; negative or not an integer is 400 1061615", () =>
      Effect.gen(function*() {
        // More than 1000 accounts to list, created in the database rather than by 1001 requests.
        const { database, emulator: e } = yield* fileEmulator
        const a = api(e.url, e.member.accountId, Redacted.value(e.member.authorization))
        yield* addAccounts(database, a.accountId, ChainId.Testnet, 1001)
        expect((yield* a.count(1001)).body.count).toBe(1001)
        for (const size of [undefined, "", 0, "-0"]) {
          const reply = yield* a.list(1001, { size })
          expect(reply.status, reply.text).toBe(200)
          expect(reply.body.items.length).toBe(100)
          expect(reply.body.cursor).not.toBe("")
        }
        for (const size of [1000, 1001, 5000, "99999999999999999999999"]) {
          const reply = yield* a.list(1001, { size })
          expect(reply.status, reply.text).toBe(200)
          expect(reply.body.items.length).toBe(1000)
          expect(reply.body.cursor).not.toBe("")
          const rest = yield* a.list(1001, { size, cursor: reply.body.cursor })
          expect(rest.body.items.length).toBe(1)
          expect(rest.body.cursor).toBe("")
        }
        for (const size of [-1, -1000, "1.5", "abc", "1e2", "+5", " 5", "0x10"]) {
          const reply = yield* a.list(1001, { size })
          expectError(reply, 400, 1061615)
          expect(reply.body.message).toBe("its value is out of range; size")
        }
        expectError(yield* send("GET", `${a.url}/v2/account?size=1&size=2`, a.headers(1001)), 400, 1061615)
      }))
  })

  describe("GET /v2/account: pages and cursors", () => {
    it.effect("an empty pool is one request: no items, cursor \"\"", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        const reply = yield* a.list(8217, { size: 5 })
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual({ items: [], cursor: "" })
        expect(Either.isRight(decodePage(reply.body))).toBe(true)
      }))

    it.effect("N items in pages of s take exactly ceil(N/s) requests, newest first, never a trailing empty page", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        const created: Array<any> = []
        for (let i = 0; i < 10; i++) {
          created.push((yield* a.create(1001)).body)
          // Two accounts per second: ties are broken by creation order, newest first.
          if (i % 2 === 1) yield* TestClock.adjust("1 second")
        }
        const newestFirst = [...created].reverse()
        for (const s of [1, 2, 3, 4, 5, 9, 10, 11, 100]) {
          const { items, pages } = yield* a.listAll(1001, { size: s })
          expect(pages.length, `size ${s}`).toBe(Math.ceil(10 / s))
          expect(items).toEqual(newestFirst)
          for (const [i, page] of pages.entries()) {
            const last = i === pages.length - 1
            expect(page.items.length).toBe(last ? 10 - s * (pages.length - 1) : s)
            expect(page.cursor === "").toBe(last)
            expect(Either.isRight(decodePage(page))).toBe(true)
          }
        }
      }))

    it.effect("a cursor may continue with another size", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        yield* Effect.forEach([1, 2, 3, 4, 5, 6], () => a.create(1001), { discard: true })
        const all = (yield* a.listAll(1001)).items
        const first = yield* a.list(1001, { size: 2 })
        const next = yield* a.list(1001, { size: 3, cursor: first.body.cursor })
        expect([...first.body.items, ...next.body.items]).toEqual(all.slice(0, 5))
        const last = yield* a.list(1001, { size: 3, cursor: next.body.cursor })
        expect(last.body).toEqual({ items: all.slice(5), cursor: "" })
      }))

    it.effect("forged, altered or foreign cursors are 400 1061615", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* newMemberApi
        const b = yield* newMemberApi
        yield* Effect.orDie(e.createPool({ accountId: a.accountId, chainId: 1001 as any, name: "other" }))
        yield* Effect.forEach([1, 2, 3], () => Effect.zip(a.create(1001), b.create(1001)), { discard: true })
        yield* Effect.forEach([1, 2, 3], () => Effect.zip(a.create(8217), a.create(1001, a.krn(1001, "other"))), { discard: true })
        const cursor: string = (yield* a.list(1001, { size: 1 })).body.cursor
        expect(cursor).not.toBe("")
        const [payload, tag] = cursor.split(".") as [string, string]
        const json = JSON.parse(Buffer.from(payload, "base64url").toString())
        const forgedPayload = Buffer.from(JSON.stringify({ ...json, s: json.s + 1 })).toString("base64url")
        const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1)
        const bad = [
          "garbage",
          "e30",
          `${forgedPayload}.${tag}`,
          flip(cursor, 0),
          flip(cursor, cursor.length - 2),
          cursor + "A",
          cursor.replace(".", ".."),
          Buffer.from(JSON.stringify(json)).toString("base64")
        ]
        for (const c of bad) {
          const reply = yield* a.list(1001, { size: 1, cursor: c })
          expectError(reply, 400, 1061615)
          expect(reply.body.message).toBe("its value is out of range; cursor")
        }
        // the genuine cursor is bound to member, chain and pool
        expectError(yield* b.list(1001, { size: 1, cursor }), 400, 1061615)
        expectError(yield* a.list(8217, { size: 1, cursor }), 400, 1061615)
        expectError(yield* a.list(1001, { size: 1, cursor }, a.krn(1001, "other")), 400, 1061615)
        expect((yield* a.list(1001, { size: 1, cursor })).status).toBe(200)
      }))

    it.effect("accounts created after a listing began cause no duplicate and no skip, even if the clock goes back", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        const before: Array<any> = []
        for (let i = 0; i < 9; i++) {
          before.push((yield* a.create(1001)).body)
          if (i % 3 === 2) yield* TestClock.adjust("1 second")
        }
        const expected = [...before].reverse()
        const seen: Array<any> = []
        let cursor = ""
        let round = 0
        do {
          const reply = yield* a.list(1001, { size: 2, ...(cursor !== "" ? { cursor } : {}) })
          seen.push(...reply.body.items)
          cursor = reply.body.cursor
          // New accounts in the same second, a later one, and (clock set back) an earlier one.
          yield* a.create(1001)
          if (round === 1) yield* TestClock.adjust("5 seconds")
          if (round === 2) {
            const now = yield* Clock.currentTimeMillis
            yield* TestClock.setTime(now - 3_600_000)
            yield* a.create(1001)
            yield* TestClock.setTime(now)
          }
          round++
        } while (cursor !== "")
        expect(seen).toEqual(expected)
      }))
  })

  describe("GET /v2/account: from-timestamp / to-timestamp", () => {
    it.effect("bounds are inclusive; 0 or empty means unbounded; an inverted range is empty", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        const base = (yield* seconds) + 1000
        const at = (t: number) => Effect.zipRight(TestClock.setTime(t * 1000), a.create(8217))
        const [t0, t0b, t1, t2] = [
          (yield* at(base)).body,
          (yield* at(base)).body,
          (yield* at(base + 10)).body,
          (yield* at(base + 20)).body
        ]
        const addresses = (items: ReadonlyArray<any>) => items.map((i) => i.address)
        const run = (query: Record<string, string | number>) => Effect.map(a.listAll(8217, query), (r) => addresses(r.items))
        expect(yield* run({})).toEqual(addresses([t2, t1, t0b, t0]))
        expect(yield* run({ "from-timestamp": base + 10 })).toEqual(addresses([t2, t1]))
        expect(yield* run({ "to-timestamp": base + 10 })).toEqual(addresses([t1, t0b, t0]))
        expect(yield* run({ "from-timestamp": base + 10, "to-timestamp": base + 10 })).toEqual(addresses([t1]))
        expect(yield* run({ "from-timestamp": base + 1, "to-timestamp": base + 19 })).toEqual(addresses([t1]))
        expect(yield* run({ "from-timestamp": 0, "to-timestamp": "" })).toEqual(addresses([t2, t1, t0b, t0]))
        expect(yield* run({ "from-timestamp": "", "to-timestamp": 0 })).toEqual(addresses([t2, t1, t0b, t0]))
        expect(yield* run({ "from-timestamp": base + 20, "to-timestamp": base })).toEqual([])
        const huge = "9".repeat(400)
        expect(yield* run({ "to-timestamp": huge })).toEqual(addresses([t2, t1, t0b, t0]))
        expect(yield* run({ "from-timestamp": huge })).toEqual([])
        const paged = yield* a.listAll(8217, { size: 1, "to-timestamp": base })
        expect(paged.pages.length).toBe(2)
        expect(addresses(paged.items)).toEqual(addresses([t0b, t0]))
        for (const field of ["from-timestamp", "to-timestamp"]) {
          for (const value of [-1, "abc", "1.5", "1e3"]) {
            const reply = yield* a.list(8217, { [field]: value })
            expectError(reply, 400, 1061615)
            expect(reply.body.message).toBe(`its value is out of range; ${field}`)
          }
        }
      }))
  })

  describe("paths, methods and operations", () => {
    it.effect("unknown paths are 404 and unknown methods 405, both 1010007, with or without credentials", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        const cases = [
          ["GET", "/", 404],
          ["GET", "/v2/accounts", 404],
          ["GET", "/v2/account/", 404],
          ["GET", `/v2/account/0x${"1".repeat(40)}/keys`, 404],
          ["POST", "/v1/account", 404],
          ["DELETE", "/v2/account", 405],
          ["PUT", "/v2/account", 405],
          ["PATCH", `/v2/account/0x${"1".repeat(40)}`, 405],
          ["POST", `/v2/account/0x${"1".repeat(40)}`, 405],
          ["POST", "/health", 405],
          ["DELETE", "/openapi.json", 405]
        ] as const
        for (const [method, path, status] of cases) {
          for (const headers of [a.headers(1001), {}]) {
            const reply = yield* send(method, `${a.url}${path}`, headers)
            expectError(reply, status, 1010007)
          }
        }
      }))

    it.effect("CONNECT is answered like any other method the routes do not know, then the connection closes", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        for (const [target, status] of [["example.com:443", 404], [new URL(a.url).host, 404], ["/v2/account", 405]] as const) {
          const reply = yield* rawExchange(
            a.url,
            `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nAuthorization: ${a.authorization}\r\nx-chain-id: 1001\r\n\r\n`
          )
          expectError(reply, status, 1010007)
        }
      }))

    it.effect("every response carries a distinct request id", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        const replies = [
          yield* a.create(1001),
          yield* a.list(1001, { size: 1 }),
          yield* send("GET", `${a.url}/health`),
          yield* send("GET", `${a.url}/openapi.json`),
          yield* send("GET", `${a.url}/nope`)
        ]
        const ids = replies.map((r) => r.headers["x-request-id"])
        for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/)
        expect(new Set(ids).size).toBe(ids.length)
      }))

    it.effect("GET /health needs no credentials", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const reply = yield* send("GET", `${e.url}/health`)
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual({ status: "ok" })
      }))

    it.effect("GET /openapi.json describes the emulated API with the domain's schemas", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const reply = yield* send("GET", `${e.url}/openapi.json`)
        expect(reply.status).toBe(200)
        const doc = reply.body
        expect(doc.openapi).toBe("3.1.0")
        expect(Object.keys(doc.paths).sort()).toEqual([
          "/_emulator/balance/{address}",
          "/_emulator/bills",
          "/_emulator/fund",
          "/_emulator/mine",
          "/_emulator/revert",
          "/_emulator/snapshot",
          "/_emulator/time",
          "/health",
          "/openapi.json",
          "/v1/klaytn",
          "/v2/account",
          "/v2/account/{address}",
          "/v2/account/{address}/disable",
          "/v2/account/{address}/enable",
          "/v2/account/{address}/multisig",
          "/v2/account/{address}/tx/{transaction-id}/sign",
          "/v2/feepayer",
          "/v2/feepayer/{address}",
          "/v2/history/fd/tx",
          "/v2/history/fd/tx/{transaction-hash}",
          "/v2/key",
          "/v2/key/{key-id}",
          "/v2/key/{key-id}/sign",
          "/v2/multisig/account/{address}/tx",
          "/v2/multisig/account/{address}/tx/{transaction-id}/sign",
          "/v2/multisig/tx/{transaction-id}/sign",
          "/v2/pubkey/{public-key}/account",
          "/v2/registration/account",
          "/v2/stat/count",
          "/v2/stat/count/krn",
          "/v2/tx",
          "/v2/tx/account",
          "/v2/tx/anchor",
          "/v2/tx/contract/call",
          "/v2/tx/contract/deploy",
          "/v2/tx/contract/execute",
          "/v2/tx/fd",
          "/v2/tx/fd-user",
          "/v2/tx/fd-user/account",
          "/v2/tx/fd-user/anchor",
          "/v2/tx/fd-user/contract/deploy",
          "/v2/tx/fd-user/contract/execute",
          "/v2/tx/fd-user/rlp",
          "/v2/tx/fd-user/value",
          "/v2/tx/fd/account",
          "/v2/tx/fd/anchor",
          "/v2/tx/fd/contract/deploy",
          "/v2/tx/fd/contract/execute",
          "/v2/tx/fd/rlp",
          "/v2/tx/fd/value",
          "/v2/tx/legacy",
          "/v2/tx/rlp",
          "/v2/tx/value",
          "/v2/tx/{transaction-hash}"
        ])
        // Every transaction route of the spec, with its method: a cancel is a DELETE, an account update a PUT.
        for (const route of ["/v2/tx", "/v2/tx/fd", "/v2/tx/fd-user"]) expect(Object.keys(doc.paths[route]), route).toEqual(["delete"])
        for (const route of ["/v2/tx/account", "/v2/tx/fd/account", "/v2/tx/fd-user/account"]) expect(Object.keys(doc.paths[route]), route).toEqual(["put"])
        expect(Object.keys(doc.paths["/v2/account"]).sort()).toEqual(["get", "post"])
        expect(Object.keys(doc.paths["/v2/account/{address}"]).sort()).toEqual(["delete", "get"])
        expect(Object.keys(doc.paths["/v2/feepayer"]).sort()).toEqual(["get", "post"])
        expect(Object.keys(doc.paths["/v2/feepayer/{address}"]).sort()).toEqual(["delete", "get"])
        expect(Object.keys(doc.paths["/v2/key"]).sort()).toEqual(["get", "post"])
        expect(Object.keys(doc.paths["/v2/key/{key-id}"]).sort()).toEqual(["delete", "get"])
        expect(Object.keys(doc.paths["/v2/key/{key-id}/sign"])).toEqual(["post"])
        expect(Object.keys(doc.paths["/v2/history/fd/tx"])).toEqual(["get"])
        expect(Object.keys(doc.paths["/v2/history/fd/tx/{transaction-hash}"])).toEqual(["get"])
        expect(doc.paths["/v2/history/fd/tx"].get.parameters.map((p: any) => p.name)).toEqual(["x-chain-id", "size", "cursor", "from"])
        // Registration: the selected pool in x-krn; the client's schemas describe the body and the answer.
        expect(Object.keys(doc.paths["/v2/registration/account"])).toEqual(["post"])
        expect(doc.paths["/v2/registration/account"].post.operationId).toBe("RegisterAccount")
        expect(doc.paths["/v2/registration/account"].post.parameters.map((p: any) => p.name)).toEqual(["x-chain-id", "x-krn"])
        for (const name of ["AccountRegistrationRequest", "RegistrationStatusResponse"]) expect(doc.components.schemas[name], name).toBeDefined()
        // The node route: the KAS Node API's headers, the chain only (no x-krn).
        expect(Object.keys(doc.paths["/v1/klaytn"])).toEqual(["post"])
        expect(doc.paths["/v1/klaytn"].post.parameters.map((p: any) => p.name)).toEqual(["x-chain-id"])
        expect(doc.paths["/v2/account"].get.parameters.map((p: any) => p.name)).toContain("status")
        // Every answer of every operation is described by a schema of the domain.
        const refs = JSON.stringify(doc.paths).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? []
        for (const ref of new Set(refs)) expect(doc.components.schemas[ref.split("/").pop()!], ref).toBeDefined()
        for (const name of ["FeePayerAccount", "FeePayerAccountPage", "AccountSummary", "AccountStatus", "PublicKeyAccounts", "AccountCount", "PoolAccountCount", "FeePayerPoolKrn", "StatusFilterFromString", "ContractDeployBody", "UserFeeDelegatedContractExecutionBody", "ContractCallBody", "ContractCallResult"]) {
          expect(doc.components.schemas[name], name).toBeDefined()
        }
        expect(doc.paths["/v2/account/{address}/disable"].put.responses["200"].content["application/json"].schema).toEqual({
          $ref: "#/components/schemas/AccountSummary"
        })
        expect(doc.components.schemas.Account.required).toEqual(
          expect.arrayContaining(["address", "chainId", "createdAt", "updatedAt", "keyId", "krn", "publicKey"])
        )
        expect(doc.components.schemas.ErrorBody.required).toEqual(["code", "message"])
        expect(doc.components.securitySchemes.basic).toMatchObject({ type: "http", scheme: "basic" })
        expect(doc.servers).toEqual([{ url: e.url }])
        expect(doc).toEqual(e.openApi)
        // Served as JSON.stringify writes it (the server's URL is spliced into text made once per
        // process), and frozen: every emulator of the process shares its parts.
        expect(reply.text).toBe(JSON.stringify(e.openApi))
        expect(() => (e.openApi.paths as any)["/health"].get.summary = "changed").toThrow(TypeError)
      }))

    it.effect("every error body has exactly code, message and requestId", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        const replies = [
          yield* send("GET", `${a.url}/v2/account`),
          yield* a.list(1001, { size: -1 }),
          yield* a.get(1001, "0x" + "2".repeat(40)),
          yield* send("GET", `${a.url}/x`)
        ]
        for (const r of replies) expectKasErrorBody(r)
      }))
  })
})
