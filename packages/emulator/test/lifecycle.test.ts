/**
 * The account lifecycle, counts, lookups by public key and fee-payer accounts of the emulator, rule
 * by rule and code by code, over real loopback HTTP. Time is the TestClock (the emulator reads
 * Effect's Clock), so createdAt and updatedAt values are exact.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it, layer } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Either, FastCheck as fc, Layer, Option, Redacted, Schema, TestClock } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { Account } from "effect-kas-wallet"
import * as Database from "../src/store/Database.js"
import * as Emulator from "../src/Emulator.js"
import * as KeyVault from "../src/store/KeyVault.js"
import * as Store from "../src/store/Store.js"
import { type Api, api, clientLayer, expectError, expectKasErrorBody, memberApi, newMemberApi, send } from "./_support.js"

const TestLayer = Layer.merge(Emulator.layer(), clientLayer)

const encoded = <A, I>(schema: Schema.Schema<A, I>) => (text: string) =>
  JSON.stringify(Schema.encodeSync(schema)(Schema.decodeUnknownSync(schema)(JSON.parse(text))))

const addresses = (items: ReadonlyArray<any>) => items.map((a) => a.address)

/** The same key in its compressed form (0x02/0x03 + x). */
const compressed = (uncompressed: string) =>
  `0x${secp256k1.Point.fromHex(uncompressed.slice(2)).toHex(true)}`

const created = (a: Api, chain: number, krn?: string) =>
  Effect.map(a.create(chain, krn), (r) => {
    expect(r.status, r.text).toBe(200)
    return r.body
  })

layer(TestLayer)("emulator account lifecycle", (it) => {
  describe("PUT /v2/account/{address}/disable and /enable", () => {
    it.effect("answer {address, krn, updatedAt}; updatedAt moves with each change, createdAt never; a disabled account still answers GET", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(1_700_000_000_000)
        const a = yield* newMemberApi
        const account = yield* created(a, 1001)
        yield* TestClock.adjust("7 seconds")
        const disabled = yield* a.disable(1001, account.address.toLowerCase())
        expect(disabled.status, disabled.text).toBe(200)
        expect(disabled.body).toEqual({ address: account.address, krn: a.krn(1001), updatedAt: 1_700_000_007 })
        expect(Object.keys(disabled.body)).toEqual(["address", "krn", "updatedAt"])
        expect(disabled.text).toBe(encoded(Account.AccountSummary)(disabled.text))
        const got = yield* a.get(1001, account.address)
        expect(got.status, got.text).toBe(200)
        expect(got.body).toEqual({ ...account, updatedAt: 1_700_000_007 })

        yield* TestClock.adjust("3 seconds")
        const enabled = yield* a.enable(1001, `0x${account.address.slice(2).toUpperCase()}`)
        expect(enabled.status, enabled.text).toBe(200)
        expect(enabled.body).toEqual({ address: account.address, krn: a.krn(1001), updatedAt: 1_700_000_010 })
        expect((yield* a.get(1001, account.address)).body).toEqual({ ...account, updatedAt: 1_700_000_010 })
      }))

    it.effect("disabling a disabled account is 1061510, enabling an enabled one 1061511; nothing changes", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        const account = yield* created(a, 8217)
        const enabledTwice = yield* a.enable(8217, account.address)
        expectError(enabledTwice, 400, 1061511)
        expect(enabledTwice.body.message).toBe("account has been already deleted or enabled")
        expect((yield* a.disable(8217, account.address)).status).toBe(200)
        const before = (yield* a.get(8217, account.address)).body
        yield* TestClock.adjust("5 seconds")
        const disabledTwice = yield* a.disable(8217, account.address)
        expectError(disabledTwice, 400, 1061510)
        expect(disabledTwice.body.message).toBe("account has been already deleted or disabled")
        expect((yield* a.get(8217, account.address)).body).toEqual(before)
      }))

    it.effect("updatedAt never goes backwards, also when the clock does", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(1_800_000_000_000)
        const a = yield* newMemberApi
        const account = yield* created(a, 1001)
        yield* TestClock.adjust("20 seconds")
        expect((yield* a.disable(1001, account.address)).body.updatedAt).toBe(1_800_000_020)
        // A clock set back: the change is made, its time is no earlier than the last one.
        yield* TestClock.setTime(1_800_000_005_000)
        expect((yield* a.enable(1001, account.address)).body.updatedAt).toBe(1_800_000_020)
        const got = (yield* a.get(1001, account.address)).body
        expect(got.createdAt).toBe(1_800_000_000)
        expect(got.updatedAt).toBe(1_800_000_020)
      }))
  })

  describe("DELETE /v2/account/{address}", () => {
    it.effect("answers {status: deleted}; the account is gone from get, list (every status), counts and lookups; it cannot be deleted, disabled or enabled again", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        const [keep, gone, goneDisabled] = [yield* created(a, 1001), yield* created(a, 1001), yield* created(a, 1001)]
        expect((yield* a.disable(1001, goneDisabled.address)).status).toBe(200)
        for (const account of [gone, goneDisabled]) {
          const reply = yield* a.remove(1001, account.address.toLowerCase())
          expect(reply.status, reply.text).toBe(200)
          expect(reply.text).toBe("{\"status\":\"deleted\"}")
        }
        for (const account of [gone, goneDisabled]) {
          expectError(yield* a.get(1001, account.address), 400, 1061010)
          expectError(yield* a.remove(1001, account.address), 400, 1061010)
          // As the service: disabling anything but an enabled account is "already disabled",
          // enabling anything but a disabled one "already enabled" ("already deleted or ...").
          expectError(yield* a.disable(1001, account.address), 400, 1061510)
          expectError(yield* a.enable(1001, account.address), 400, 1061511)
          expect((yield* a.byPublicKey(1001, account.publicKey)).body).toEqual({ items: [] })
        }
        for (const status of ["enabled", "disabled", "corrupted", "all"]) {
          expect(addresses((yield* a.listAll(1001, { status })).items), status).toEqual(status === "enabled" || status === "all" ? [keep.address] : [])
        }
        expect((yield* a.count(1001)).body.count).toBe(1)
        expect((yield* a.countPool(1001)).body.count).toBe(1)
      }))

    // The service's live integration tests (caver-js-ext-kas, kasWalletIntTest.js INT-124 and
    // INT-126) disable and enable a fresh address: "account has been already deleted or
    // disabled" (1061510) and "… or enabled" (1061511). A delete of one is "data don't exist".
    it.effect("unknown, foreign, other-pool and other-chain addresses: delete 1061010, disable 1061510, enable 1061511; malformed ones 1061609", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* newMemberApi
        const b = yield* newMemberApi
        yield* Effect.orDie(e.createPool({ accountId: a.accountId, chainId: 1001 as any, name: "side" }))
        const mine = yield* created(a, 1001)
        const inSide = yield* created(a, 1001, a.krn(1001, "side"))
        const theirs = yield* created(b, 1001)
        const cases: ReadonlyArray<readonly [number, string, string | undefined]> = [
          [1001, `0x${"12".repeat(20)}`, undefined],
          [1001, theirs.address, undefined],
          [1001, inSide.address, undefined],
          [1001, mine.address, a.krn(1001, "side")],
          [8217, mine.address, undefined]
        ]
        for (const [chain, address, krn] of cases) {
          expectError(yield* a.remove(chain, address, krn), 400, 1061010)
          const disabled = yield* a.disable(chain, address, krn)
          expectError(disabled, 400, 1061510)
          expect(disabled.body.message).toBe("account has been already deleted or disabled")
          const enabled = yield* a.enable(chain, address, krn)
          expectError(enabled, 400, 1061511)
          expect(enabled.body.message).toBe("account has been already deleted or enabled")
        }
        // Another member's pool KRN is refused before the address is looked at.
        for (const op of [a.remove, a.disable, a.enable]) expectError(yield* op(1001, theirs.address, b.krn(1001)), 400, 1061010)
        for (const bad of ["0x1234", `0x${"zz".repeat(20)}`, "%E0%A4%A", "nope"]) {
          for (const op of [a.remove, a.disable, a.enable]) expectError(yield* op(1001, bad), 400, 1061609)
        }
        // Nothing of the above changed anything.
        expect((yield* a.get(1001, mine.address)).body).toEqual(mine)
        expect((yield* a.get(1001, inSide.address, a.krn(1001, "side"))).body).toEqual(inSide)
        expect((yield* b.get(1001, theirs.address)).body).toEqual(theirs)
      }))
  })

  describe("GET /v2/account?status=", () => {
    it.effect("enabled by default; disabled, corrupted (none in the emulator) and all, in any case; anything else is 1061615", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        const accounts = yield* Effect.forEach([0, 1, 2, 3, 4], () => created(a, 8217))
        for (const i of [1, 3]) expect((yield* a.disable(8217, accounts[i]!.address)).status).toBe(200)
        const newestFirst = [...accounts].reverse()
        const enabled = newestFirst.filter((_, i) => i !== 1 && i !== 3)
        expect(addresses((yield* a.listAll(8217)).items)).toEqual(addresses(enabled))
        expect(addresses((yield* a.listAll(8217, { status: "" })).items)).toEqual(addresses(enabled))
        expect(addresses((yield* a.listAll(8217, { status: "enabled" })).items)).toEqual(addresses(enabled))
        expect(addresses((yield* a.listAll(8217, { status: "disabled", size: 1 })).items)).toEqual(
          [accounts[3]!.address, accounts[1]!.address]
        )
        expect((yield* a.listAll(8217, { status: "corrupted" })).items).toEqual([])
        const all = yield* a.listAll(8217, { status: "all", size: 2 })
        expect(addresses(all.items)).toEqual(addresses(newestFirst))
        expect(all.pages.length).toBe(3)
        // In any case, as the official client sends what its users write (`status: 'DISABLED'`).
        expect(addresses((yield* a.listAll(8217, { status: "DISABLED" })).items)).toEqual([accounts[3]!.address, accounts[1]!.address])
        expect(addresses((yield* a.listAll(8217, { status: "Enabled" })).items)).toEqual(addresses(enabled))
        expect(addresses((yield* a.listAll(8217, { status: "aLL" })).items)).toEqual(addresses(newestFirst))
        for (const bad of ["deleted", "DELETED", "any", "enabled,disabled", " all", "all ", "ｅnabled"]) {
          const reply = yield* a.list(8217, { status: bad })
          expectError(reply, 400, 1061615)
          expect(reply.body.message).toBe("its value is out of range; status")
        }
        const repeated = yield* send("GET", `${a.url}/v2/account?status=all&status=all`, a.headers(8217))
        expectError(repeated, 400, 1061615)
      }))

    it.effect("a listing stays exact while accounts change state under it: no duplicate, no skip of the unchanged, the changed by their state when their page is read", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        const accounts = yield* Effect.forEach(Array.from({ length: 9 }), () => created(a, 1001))
        const newestFirst = [...accounts].reverse().map((x) => x.address)
        const first = yield* a.list(1001, { size: 3 })
        expect(addresses(first.body.items)).toEqual(newestFirst.slice(0, 3))
        // Already listed: disabled and deleted. Not yet listed: one disabled, one deleted.
        yield* a.disable(1001, newestFirst[0]!)
        yield* a.remove(1001, newestFirst[1]!)
        yield* a.disable(1001, newestFirst[4]!)
        yield* a.remove(1001, newestFirst[6]!)
        const rest: Array<string> = []
        let cursor = first.body.cursor
        while (cursor !== "") {
          const page = yield* a.list(1001, { size: 3, cursor })
          expect(page.status, page.text).toBe(200)
          rest.push(...addresses(page.body.items))
          cursor = page.body.cursor
        }
        expect(rest).toEqual([newestFirst[3], newestFirst[5], newestFirst[7], newestFirst[8]])
        // The same cursor continues a listing of another state from the same position.
        const disabledAfter = yield* a.list(1001, { size: 3, cursor: first.body.cursor, status: "disabled" })
        expect(addresses(disabledAfter.body.items)).toEqual([newestFirst[4]])
        expect(disabledAfter.body.cursor).toBe("")
        // Enabled again during a disabled listing: it leaves that listing.
        yield* a.disable(1001, newestFirst[7]!)
        const disabledFirst = yield* a.list(1001, { size: 1, status: "disabled" })
        expect(addresses(disabledFirst.body.items)).toEqual([newestFirst[0]])
        yield* a.enable(1001, newestFirst[4]!)
        const disabledRest = yield* a.list(1001, { size: 1, status: "disabled", cursor: disabledFirst.body.cursor })
        expect(addresses(disabledRest.body.items)).toEqual([newestFirst[7]])
        expect(disabledRest.body.cursor).toBe("")
      }))
  })

  describe("GET /v2/pubkey/{public-key}/account", () => {
    it.effect("answers the member's accounts of the key on the chain, in any pool, enabled or disabled, in every accepted form of the key", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* newMemberApi
        yield* Effect.orDie(e.createPool({ accountId: a.accountId, chainId: 1001 as any, name: "keys" }))
        const plain = yield* created(a, 1001)
        const pooled = yield* created(a, 1001, a.krn(1001, "keys"))
        const mainnet = yield* created(a, 8217)
        for (const account of [plain, pooled]) {
          const forms = [
            account.publicKey,
            `0x${account.publicKey.slice(2).toUpperCase()}`,
            `0x${account.publicKey.slice(4)}`,
            compressed(account.publicKey)
          ]
          for (const form of forms) {
            const reply = yield* a.byPublicKey(1001, form)
            expect(reply.status, reply.text).toBe(200)
            expect(reply.body, form).toEqual({ items: [{ address: account.address, chainId: 1001 }] })
            expect(reply.text).toBe(encoded(Account.PublicKeyAccounts)(reply.text))
          }
        }
        yield* a.disable(1001, plain.address)
        expect((yield* a.byPublicKey(1001, plain.publicKey)).body.items).toEqual([{ address: plain.address, chainId: 1001 }])
        // Another chain, an unknown key, a compressed value that is no point of the curve: none.
        expect((yield* a.byPublicKey(1001, mainnet.publicKey)).body).toEqual({ items: [] })
        expect((yield* a.byPublicKey(8217, plain.publicKey)).body).toEqual({ items: [] })
        expect((yield* a.byPublicKey(8217, mainnet.publicKey)).body.items).toEqual([{ address: mainnet.address, chainId: 8217 }])
        expect((yield* a.byPublicKey(1001, `0x04${"11".repeat(64)}`)).body).toEqual({ items: [] })
        expect((yield* a.byPublicKey(1001, `0x02${"ff".repeat(32)}`)).body).toEqual({ items: [] })
        // x-krn is checked as on every account route, but the lookup spans the member's pools.
        expect((yield* a.byPublicKey(1001, pooled.publicKey, a.krn(1001))).body.items).toHaveLength(1)
        expectError(yield* a.byPublicKey(1001, pooled.publicKey, a.feePayerKrn(1001)), 400, 1061010)
      }))

    it.effect("a key that is not 0x and hex is 1061607; hex of another length or prefix 1061615", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        for (const bad of ["nope", "04abcd", `0x${"g".repeat(130)}`, "%E0%A4%A"]) {
          const reply = yield* a.byPublicKey(1001, bad)
          expectError(reply, 400, 1061607)
          expect(reply.body.message).toBe("must start with 0x and be hex; public-key")
        }
        for (const bad of ["0x", "0x1234", `0x05${"11".repeat(64)}`, `0x04${"11".repeat(62)}`, `0x01${"11".repeat(32)}`]) {
          const reply = yield* a.byPublicKey(1001, bad)
          expectError(reply, 400, 1061615)
          expect(reply.body.message).toBe("its value is out of range; public-key")
        }
      }))
  })

  describe("GET /v2/stat/count and /v2/stat/count/krn", () => {
    it.effect("count the member's accounts on the chain (every pool) and the selected pool's; disabled count, deleted and fee-payer accounts do not", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* newMemberApi
        const b = yield* newMemberApi
        yield* Effect.orDie(e.createPool({ accountId: a.accountId, chainId: 1001 as any, name: "counted" }))
        expect((yield* a.count(1001)).body).toEqual({ accountId: a.accountId, count: 0 })
        expect((yield* a.countPool(1001)).body).toEqual({ accountId: a.accountId, count: 0, krn: a.krn(1001) })
        const inDefault = yield* Effect.forEach([1, 2, 3], () => created(a, 1001))
        yield* Effect.forEach([1, 2], () => created(a, 1001, a.krn(1001, "counted")))
        yield* created(a, 8217)
        yield* created(b, 1001)
        expect((yield* a.feePayers.create(1001)).status).toBe(200)
        yield* a.disable(1001, inDefault[0]!.address)
        yield* a.remove(1001, inDefault[1]!.address)
        const total = yield* a.count(1001)
        expect(total.status, total.text).toBe(200)
        expect(total.text).toBe(JSON.stringify({ accountId: a.accountId, count: 4 }))
        expect((yield* a.count(1001, a.krn(1001, "counted"))).body.count).toBe(4)
        expect((yield* a.count(8217)).body.count).toBe(1)
        const pool = yield* a.countPool(1001)
        expect(pool.text).toBe(JSON.stringify({ accountId: a.accountId, count: 2, krn: a.krn(1001) }))
        expect((yield* a.countPool(1001, a.krn(1001, "counted"))).body).toEqual({ accountId: a.accountId, count: 2, krn: a.krn(1001, "counted") })
        expect((yield* b.count(1001)).body).toEqual({ accountId: b.accountId, count: 1 })
        for (const krn of [a.krn(1001, "nope"), a.feePayerKrn(1001), b.krn(1001), a.krn(8217)]) {
          expectError(yield* a.countPool(1001, krn), 400, 1061010)
          expectError(yield* a.count(1001, krn), 400, 1061010)
        }
      }))
  })

  describe("fee-payer accounts: POST, GET, DELETE /v2/feepayer[/{address}]", () => {
    it.effect("create answers a real account in the default fee-payer pool, byte for byte the schema's encoding; get and list find it; delete removes it", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(1_700_000_100_000)
        const a = yield* newMemberApi
        const reply = yield* a.feePayers.create(1001)
        expect(reply.status, reply.text).toBe(200)
        const payer = reply.body
        expect(Either.isRight(Schema.decodeUnknownEither(Account.FeePayerAccount)(payer)), reply.text).toBe(true)
        expect(reply.text).toBe(encoded(Account.FeePayerAccount)(reply.text))
        expect(payer.krn).toBe(`krn:1001:wallet:${a.accountId}:feepayer-pool:default`)
        expect(payer.keyId).toMatch(new RegExp(`^${payer.krn}:0x[0-9a-f]{64}$`))
        expect(payer.publicKey).toMatch(/^0x04[0-9a-f]{128}$/)
        expect(payer.createdAt).toBe(1_700_000_100)
        expect(payer.updatedAt).toBe(payer.createdAt)
        const got = yield* a.feePayers.get(1001, payer.address.toLowerCase())
        expect(got.body).toEqual(payer)
        expect(got.text).toBe(reply.text)
        const page = yield* a.feePayers.list(1001)
        expect(page.text).toBe(encoded(Account.FeePayerAccountPage)(page.text))
        expect(page.body).toEqual({ items: [payer], cursor: "" })
        // A fee-payer account is no account, and no account is a fee-payer account.
        const account = yield* created(a, 1001)
        expectError(yield* a.get(1001, payer.address), 400, 1061010)
        expectError(yield* a.remove(1001, payer.address), 400, 1061010)
        expectError(yield* a.disable(1001, payer.address), 400, 1061510)
        expectError(yield* a.feePayers.get(1001, account.address), 400, 1061010)
        expectError(yield* a.feePayers.remove(1001, account.address), 400, 1061010)
        expect(addresses((yield* a.listAll(1001, { status: "all" })).items)).toEqual([account.address])
        expect((yield* a.byPublicKey(1001, payer.publicKey)).body).toEqual({ items: [] })

        const deleted = yield* a.feePayers.remove(1001, payer.address)
        expect(deleted.status, deleted.text).toBe(200)
        expect(deleted.text).toBe("{\"status\":\"deleted\"}")
        expectError(yield* a.feePayers.get(1001, payer.address), 400, 1061010)
        expectError(yield* a.feePayers.remove(1001, payer.address), 400, 1061010)
        expect((yield* a.feePayers.list(1001)).body).toEqual({ items: [], cursor: "" })
      }))

    it.effect("the body is optional: empty, {}, withoutAccountUpdate true, false or null; anything else is 1061615", () =>
      Effect.gen(function*() {
        const a = yield* newMemberApi
        for (const body of [undefined, "", "  ", "{}", "{\"withoutAccountUpdate\":true}", "{\"withoutAccountUpdate\":false}", "{\"withoutAccountUpdate\":null}", "{\"other\":1}"]) {
          const reply = yield* a.feePayers.create(8217, undefined, body)
          expect(reply.status, `${JSON.stringify(body)} -> ${reply.text}`).toBe(200)
          expect(reply.body.chainId).toBe(8217)
        }
        for (const [body, field] of [
          ["nope", "body"],
          ["[]", "body"],
          ["true", "body"],
          ["{\"withoutAccountUpdate\":\"yes\"}", "withoutAccountUpdate"],
          ["{\"withoutAccountUpdate\":1}", "withoutAccountUpdate"],
          [`{"pad":"${"x".repeat(70_000)}"}`, "body"]
        ] as const) {
          const reply = yield* a.feePayers.create(8217, undefined, body)
          expectError(reply, 400, 1061615)
          expect(reply.body.message).toBe(`its value is out of range; ${field}`)
        }
        expect((yield* a.feePayers.listAll(8217)).items).toHaveLength(8)
      }))

    it.effect("x-krn selects a fee-payer pool of the caller on the chain; an account pool, another member's, another chain's or an unknown one is 1061010", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* newMemberApi
        const b = yield* newMemberApi
        const ops = yield* Effect.orDie(e.createFeePayerPool({ accountId: a.accountId, chainId: 1001 as any, name: "ops" }))
        expect(ops.krn.toString()).toBe(a.feePayerKrn(1001, "ops"))
        const inOps = (yield* a.feePayers.create(1001, ops.krn.toString())).body
        expect(inOps.krn).toBe(ops.krn.toString())
        expect(inOps.keyId.startsWith(`${ops.krn.toString()}:0x`)).toBe(true)
        const inDefault = (yield* a.feePayers.create(1001)).body
        expect((yield* a.feePayers.listAll(1001, {}, a.feePayerKrn(1001, "ops"))).items).toEqual([inOps])
        expect((yield* a.feePayers.listAll(1001, {}, ` ${a.feePayerKrn(1001)} `)).items).toEqual([inDefault])
        expectError(yield* a.feePayers.get(1001, inOps.address), 400, 1061010)
        const refused = [a.krn(1001), a.krn(1001, "ops"), b.feePayerKrn(1001), a.feePayerKrn(8217, "ops"), a.feePayerKrn(1001, "nope"), "garbage", `${a.feePayerKrn(1001)},${a.feePayerKrn(1001)}`]
        for (const krn of refused) {
          for (const reply of [
            yield* a.feePayers.create(1001, krn),
            yield* a.feePayers.list(1001, {}, krn),
            yield* a.feePayers.get(1001, inDefault.address, krn),
            yield* a.feePayers.remove(1001, inDefault.address, krn)
          ]) expectError(reply, 400, 1061010)
        }
        const notAPool = yield* a.feePayers.list(1001, {}, a.krn(1001))
        expect(notAPool.body.message).toBe("data don't exist; x-krn is not a fee-payer pool KRN")
        expect((yield* a.feePayers.listAll(1001, {}, a.feePayerKrn(1001, "ops"))).items).toEqual([inOps])
        expect((yield* a.feePayers.listAll(1001)).items).toEqual([inDefault])
      }))

    it.effect("the listing pages as the account listing does: size, cursor, time range; cursors do not cross between accounts and fee-payer accounts", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(1_710_000_000_000)
        const a = yield* newMemberApi
        const payers: Array<any> = []
        for (let i = 0; i < 5; i++) {
          payers.push((yield* a.feePayers.create(1001)).body)
          yield* TestClock.adjust("10 seconds")
        }
        yield* Effect.forEach([1, 2, 3], () => created(a, 1001))
        const newestFirst = [...payers].reverse()
        const paged = yield* a.feePayers.listAll(1001, { size: 2 })
        expect(paged.items).toEqual(newestFirst)
        expect(paged.pages.length).toBe(3)
        const ranged = yield* a.feePayers.listAll(1001, { "from-timestamp": 1_710_000_010, "to-timestamp": 1_710_000_030 })
        expect(addresses(ranged.items)).toEqual(addresses(newestFirst.slice(1, 4)))
        expect((yield* a.feePayers.list(1001, { size: 1000 })).body.items).toHaveLength(5)
        expectError(yield* a.feePayers.list(1001, { size: -1 }), 400, 1061615)
        expectError(yield* a.feePayers.list(1001, { "from-timestamp": "x" }), 400, 1061615)
        const feePayerCursor = (yield* a.feePayers.list(1001, { size: 1 })).body.cursor
        const accountCursor = (yield* a.list(1001, { size: 1 })).body.cursor
        expect(feePayerCursor).not.toBe("")
        expect(accountCursor).not.toBe("")
        expectError(yield* a.feePayers.list(1001, { size: 1, cursor: accountCursor }), 400, 1061615)
        expectError(yield* a.list(1001, { size: 1, cursor: feePayerCursor }), 400, 1061615)
      }))
  })

  describe("paths and methods", () => {
    it.effect("the new paths answer 405 to other methods (with Allow) and 404 beyond them, both 1010007", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        const address = `0x${"1".repeat(40)}`
        const key = `0x04${"11".repeat(64)}`
        const cases: ReadonlyArray<readonly [string, string, number, string?]> = [
          ["PUT", `/v2/account/${address}`, 405, "GET, DELETE"],
          ["GET", `/v2/account/${address}/disable`, 405, "PUT"],
          ["POST", `/v2/account/${address}/enable`, 405, "PUT"],
          ["DELETE", "/v2/feepayer", 405, "GET, POST"],
          ["PUT", `/v2/feepayer/${address}`, 405, "GET, DELETE"],
          ["POST", `/v2/pubkey/${key}/account`, 405, "GET"],
          ["DELETE", "/v2/stat/count", 405, "GET"],
          ["POST", "/v2/stat/count/krn", 405, "GET"],
          ["PUT", `/v2/account/${address}/delete`, 404],
          ["PUT", `/v2/account/${address}/disable/`, 404],
          ["PUT", `/v2/feepayer/${address}/disable`, 404],
          ["GET", "/v2/feepayer/", 404],
          ["GET", `/v2/pubkey/${key}`, 404],
          ["GET", `/v2/pubkey/${key}/accounts`, 404],
          ["GET", "/v2/pubkey//account", 404],
          ["GET", "/v2/stat", 404],
          ["GET", "/v2/stat/count/pool", 404]
        ]
        for (const [method, p, status, allow] of cases) {
          for (const headers of [a.headers(1001), {}]) {
            const reply = yield* send(method as any, `${a.url}${p}`, headers)
            expectError(reply, status, 1010007)
            if (allow !== undefined) expect(reply.headers.allow, `${method} ${p}`).toBe(allow)
          }
        }
      }))

    it.effect.prop(
      "random segments, queries, bodies and pools on the new routes: never a 5xx, always the service's error body",
      [
        fc.constantFrom("GET", "PUT", "POST", "DELETE"),
        fc.constantFrom("/v2/account/{x}", "/v2/account/{x}/disable", "/v2/account/{x}/enable", "/v2/pubkey/{x}/account", "/v2/stat/count", "/v2/stat/count/krn", "/v2/feepayer", "/v2/feepayer/{x}", "/v2/account"),
        fc.oneof(
          fc.stringMatching(/^[A-Za-z0-9._~%!$&'()*+,;=:@-]{0,140}$/).filter((x) => !/%(?![0-9A-Fa-f]{2})/.test(x)),
          fc.hexaString({ minLength: 0, maxLength: 140 }).map((h) => `0x${h}`)
        ),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        fc.option(fc.oneof(fc.string({ maxLength: 40 }), fc.json({ maxDepth: 2 })), { nil: undefined }),
        fc.constantFrom<"none" | "account" | "feePayer" | "junk">("none", "account", "feePayer", "junk")
      ],
      ([method, template, segment, status, body, krnKind]) =>
        Effect.gen(function*() {
          const a = yield* memberApi
          const krn = krnKind === "account" ? a.krn(1001) : krnKind === "feePayer" ? a.feePayerKrn(1001) : krnKind === "junk" ? "krn:1001:x" : undefined
          const query = status === undefined ? "" : `?status=${encodeURIComponent(status)}`
          const target = `${a.url}${template.replace("{x}", segment === "" ? "0x" : segment)}${query}`
          // fetch sends no body with a GET.
          const reply = yield* send(method as any, target, a.headers(1001, krn), method === "GET" ? undefined : body)
          expect(reply.status, `${method} ${target} -> ${reply.text}`).toBeLessThan(500)
          if (reply.status >= 400) expectKasErrorBody(reply)
        }),
      { fastCheck: { numRuns: 150 } }
    )

    it.effect("checks come in order: authorization, x-chain-id, x-krn, then the route's own values", () =>
      Effect.gen(function*() {
        const a = yield* memberApi
        const bad = "0x1234"
        const requests = [
          (h: Record<string, string>) => send("PUT", `${a.url}/v2/account/${bad}/disable`, h),
          (h: Record<string, string>) => send("DELETE", `${a.url}/v2/account/${bad}`, h),
          (h: Record<string, string>) => send("GET", `${a.url}/v2/pubkey/nope/account`, h),
          (h: Record<string, string>) => send("GET", `${a.url}/v2/feepayer/${bad}`, h),
          (h: Record<string, string>) => send("POST", `${a.url}/v2/feepayer`, h, "nope"),
          (h: Record<string, string>) => send("GET", `${a.url}/v2/account?status=nope`, h)
        ]
        for (const request of requests) {
          expectError(yield* request({ "x-chain-id": "5", "x-krn": "nope" }), 401, 1010008)
          expectError(yield* request({ authorization: "Basic eDp5", "x-krn": "nope" }), 401, 1010009)
          expectError(yield* request({ authorization: a.authorization, "x-krn": "nope" }), 400, 1061608)
          expectError(yield* request({ authorization: a.authorization, "x-chain-id": "5", "x-krn": "nope" }), 400, 1061615)
          expectError(yield* request({ ...a.headers(1001), "x-krn": "nope" }), 400, 1061010)
          const own = yield* request(a.headers(1001))
          expect(own.status).toBe(400)
          expect([1061609, 1061607, 1061615]).toContain(own.body.code)
        }
      }))
  })
})

describe("fee-payer keys and deleted keys at rest", () => {
  it.live("fee-payer private keys are sealed like accounts' and open by address; a deleted account or fee-payer account keeps no key", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-lifecycle-")))
      yield* Effect.addFinalizer(() => Effect.promise(() => fs.rm(dir, { recursive: true, force: true })))
      const database = path.join(dir, "emulator.db")
      const e = yield* Emulator.make({ port: 0, database })
      const a = api(e.url, e.member.accountId, Redacted.value(e.member.authorization))
      const payer = (yield* a.feePayers.create(1001)).body
      const gonePayer = (yield* a.feePayers.create(1001)).body
      const withoutUpdate = (yield* a.feePayers.create(1001, undefined, "{\"withoutAccountUpdate\":true}")).body
      const account = (yield* a.create(1001)).body
      const goneAccount = (yield* a.create(1001)).body
      expect((yield* a.feePayers.remove(1001, gonePayer.address)).status).toBe(200)
      expect((yield* a.remove(1001, goneAccount.address)).status).toBe(200)
      const { flags, opened, sealed, stored } = yield* Effect.gen(function*() {
        const vault = yield* KeyVault.KeyVault
        const store = yield* Store.Store
        const sql = yield* SqlClient.SqlClient
        const sealed = yield* Effect.forEach([payer, account, gonePayer, goneAccount], (x) => store.sealedPrivateKey(x.address.toLowerCase()))
        return {
          sealed,
          opened: sealed.map((s, i) => Option.flatMap(s, (bytes) => vault.open(bytes, [payer, account][i]?.address.toLowerCase() ?? ""))),
          // What is left on disk of the deleted ones' keys.
          stored: yield* sql<{ readonly n: number }>`SELECT length(private_key) AS n FROM accounts WHERE address_lc = ${goneAccount.address.toLowerCase()}
            UNION ALL SELECT length(private_key) FROM feepayers WHERE address_lc = ${gonePayer.address.toLowerCase()}`,
          // What the creates asked for, for the transactions to come.
          flags: yield* sql<{ readonly address: string; readonly flag: number }>`SELECT address, without_account_update AS flag
            FROM feepayers WHERE address IN (${payer.address}, ${withoutUpdate.address}) ORDER BY seq`
        }
      }).pipe(Effect.provide(KeyVault.layer({}).pipe(Layer.provideMerge(Store.layer), Layer.provideMerge(Database.layer({ database })))))
      for (const [i, x] of [payer, account].entries()) {
        const key = Redacted.value(Option.getOrThrow(opened[i]!))
        expect(`0x${Buffer.from(secp256k1.getPublicKey(key, false)).toString("hex")}`).toBe(x.publicKey)
      }
      expect(sealed[2]).toEqual(Option.none())
      expect(sealed[3]).toEqual(Option.none())
      expect(stored).toEqual([{ n: 0 }, { n: 0 }])
      expect(flags).toEqual([{ address: payer.address, flag: 0 }, { address: withoutUpdate.address, flag: 1 }])
    }).pipe(Effect.scoped, Effect.provide(clientLayer)))
})
