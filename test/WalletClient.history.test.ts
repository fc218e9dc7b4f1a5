/**
 * The fee-delegation history on the wire (GET /v2/history/fd/tx, GET /v2/history/fd/tx/{hash}):
 * method, path, query and headers, the specification's example bodies decoded, a history streamed
 * over several pages, the specification's "data don't exist" as an empty history (listing) or a
 * typed error (one record), arguments refused before sending, reads retried.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Fiber, Schema, Stream, TestClock } from "effect"
import { readFileSync } from "node:fs"
import { FeeHistory, WalletClient, type WalletError } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { json } from "./support/recordingClient.js"

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/history/${name}`, import.meta.url), "utf8"))
const listed = fixture("fd-history-list-200-success.json")
const one = fixture("fd-history-get-200-success.json")
const notFound = fixture("error-fd-history-list-400-data-not-found.json")
const hash: string = one.transactionHash
const sender = "0x9154cc66c18fd04632d6daf98af8de0a99801c6d"

const run = <A>(test: ReturnType<typeof testClient>, f: (c: WalletClient.Service) => Effect.Effect<A, WalletError.WalletError>) =>
  withClient(test, Effect.flatMap(WalletClient.WalletClient, f))

const query = (u: URL) => [...u.searchParams.entries()]

describe("the fee-delegation history on the wire", () => {
  it.effect("getFeeDelegationRecord: GET /v2/history/fd/tx/{hash}, x-chain-id only; the example decodes to typed amounts", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, one))
      const r = yield* withClient(test, WalletClient.getFeeDelegationRecord(hash.toUpperCase().replace("0X", "0x"), { chainId: 8217 }))
      const [sent] = test.requests
      expect([sent!.method, sent!.url.pathname, sent!.url.search]).toEqual(["GET", `/v2/history/fd/tx/${hash}`, ""])
      expect(sent!.headers["x-chain-id"]).toBe("8217")
      expect(sent!.headers["x-krn"]).toBeUndefined()
      expect(r.chargedByPeb).toBe(3877775000000000n)
      expect(r.chargedByKlay).toBe(3877775000000000n)
      expect(r.gasPrice).toBe(750_000_000_000n)
      expect(r.gasUsed).toBe(0x25de7)
      expect([r.chargedByKrw, r.chargedByUsd, r.krw, r.usd]).toEqual(["4.3", "0.00374", 1109.6, 0.96567])
      expect([r.chainId, r.typeInt, r.timestamp, r.status]).toEqual([8217, 41, 1627012095, "0x1"])
      expect(FeeHistory.succeeded(r)).toBe(true)
      expect(r.from.toLowerCase()).toBe(sender)
      expect(r.from).not.toBe(sender) // checksummed
      expect(r.transactionHash).toBe(hash)
      // Encodes back to the example as it came.
      expect(Schema.encodeSync(FeeHistory.FeeDelegationRecord)(r)).toEqual(one)
    }))

  it.effect("listFeeDelegationHistory: GET /v2/history/fd/tx with from (lower case), size and cursor only when given; the example decodes", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, listed))
      const page = yield* run(test, (c) => c.listFeeDelegationHistory())
      expect(page.cursor).toBe("")
      expect(page.items.map((i) => i.transactionHash)).toEqual(listed.items.map((i: { transactionHash: string }) => i.transactionHash))
      yield* run(test, (c) => c.listFeeDelegationHistory({ from: sender.toUpperCase().replace("0X", "0x"), pageSize: 2, cursor: "abc=" }))
      const [plain, filtered] = test.requests
      expect([plain!.method, plain!.url.pathname, query(plain!.url)]).toEqual(["GET", "/v2/history/fd/tx", []])
      expect(plain!.headers["x-chain-id"]).toBe("1001")
      expect(plain!.headers["x-krn"]).toBeUndefined()
      expect(query(filtered!.url)).toEqual([["size", "2"], ["cursor", "abc="], ["from", sender]])
    }))

  it.effect("feeDelegationHistory streams over pages, each asked for at the previous page's cursor, with the filter kept", () =>
    Effect.gen(function*() {
      const [a, b] = listed.items
      const pages: Record<string, unknown> = {
        "": { items: [a], cursor: "p2" },
        p2: { items: [b], cursor: "p3" },
        p3: { items: [a], cursor: "" }
      }
      const test = testClient((r) => json(200, pages[r.url.searchParams.get("cursor") ?? ""]))
      const all = yield* WalletClient.feeDelegationHistory({ from: sender }).pipe(Stream.runCollect, (s) => withClient(test, s))
      expect(Chunk.toReadonlyArray(all).map((r) => r.transactionHash)).toEqual([a.transactionHash, b.transactionHash, a.transactionHash])
      expect(test.requests.map((r) => [r.url.searchParams.get("cursor"), r.url.searchParams.get("from")])).toEqual([
        [null, sender],
        ["p2", sender],
        ["p3", sender]
      ])
      const count = yield* WalletClient.feeDelegationHistoryPages().pipe(Stream.runCount, (s) => withClient(test, s))
      expect(count).toBe(3)
    }))

  it.effect("\"data don't exist\" (400 1061010): an empty history for a listing's first page, the typed error (AccountNotFound, code kept) for one record or a later page", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(400, notFound))
      const empty = yield* WalletClient.feeDelegationHistory().pipe(Stream.runCollect, (s) => withClient(test, s))
      expect(Chunk.size(empty)).toBe(0)
      const later = yield* Effect.flip(run(test, (c) => c.listFeeDelegationHistory({ cursor: "p2" })))
      expect(later._tag === "AccountNotFound" && later.code).toBe(1061010)
      const missing = yield* Effect.flip(withClient(test, WalletClient.getFeeDelegationRecord(hash)))
      expect(missing._tag === "AccountNotFound" && missing.code).toBe(1061010)
      // Another refusal of a first page stays a failure.
      const other = testClient(() => json(400, { ...notFound, code: 1061011 }))
      const failed = yield* Stream.runDrain(WalletClient.feeDelegationHistory()).pipe(Effect.flip, (e) => withClient(other, e))
      expect(failed._tag === "InvalidRequest" && failed.code).toBe(1061011)
    }))

  it.effect("arguments are refused before sending, naming the field", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(200, listed))
      const refused = yield* Effect.all([
        Effect.flip(withClient(test, WalletClient.getFeeDelegationRecord("0x1234"))),
        Effect.flip(run(test, (c) => c.listFeeDelegationHistory({ from: "0xnot-an-address" }))),
        // A time bound where the sender goes (the other listings' `from`).
        Effect.flip(run(test, (c) => c.listFeeDelegationHistory({ from: 1627012095 as unknown as string }))),
        Effect.flip(run(test, (c) => c.listFeeDelegationHistory({ to: 1627012095 } as never))),
        Effect.flip(run(test, (c) => c.listFeeDelegationHistory({ pageSize: 0 }))),
        Stream.runDrain(WalletClient.feeDelegationHistory({ from: "0x12" })).pipe(Effect.flip, (e) => withClient(test, e))
      ])
      expect(refused.map((e) => e._tag === "InvalidArgument" && e.argument)).toEqual(["hash", "from", "from", "to", "pageSize", "from"])
      expect(test.requests).toHaveLength(0)
    }))

  it.effect("a record the schema refuses is a ResponseDecodeError, not a record: a type that delegates no fee, a non-decimal peb", () =>
    Effect.gen(function*() {
      const decode = Schema.decodeUnknownEither(FeeHistory.FeeDelegationRecord)
      expect(Either.isRight(decode(one))).toBe(true)
      expect(Either.isLeft(decode({ ...one, typeInt: 8 }))).toBe(true)
      expect(Either.isLeft(decode({ ...one, chargedByPeb: "0x3" }))).toBe(true)
      expect(Either.isLeft(decode({ ...one, chargedByKrw: 4.3 }))).toBe(true)
      const test = testClient(() => json(200, { ...one, gasPrice: "750" }))
      const e = yield* Effect.flip(withClient(test, WalletClient.getFeeDelegationRecord(hash)))
      expect(e._tag).toBe("ResponseDecodeError")
    }))

  it.effect("reads are retried (503, then the answer)", () =>
    Effect.gen(function*() {
      let calls = 0
      const test = testClient(() => (++calls % 2 === 1 ? json(503, { code: 1, message: "unavailable" }) : json(200, calls > 2 ? listed : one)))
      const fiber = yield* Effect.fork(Effect.zip(
        withClient(test, WalletClient.getFeeDelegationRecord(hash)),
        run(test, (c) => c.listFeeDelegationHistory())
      ))
      yield* TestClock.adjust("1 minute")
      const [r, page] = yield* Fiber.join(fiber)
      expect(r.transactionHash).toBe(hash)
      expect(page.items).toHaveLength(2)
      expect(test.requests.map((q) => q.url.pathname)).toEqual([
        `/v2/history/fd/tx/${hash}`,
        `/v2/history/fd/tx/${hash}`,
        "/v2/history/fd/tx",
        "/v2/history/fd/tx"
      ])
    }))
})
