import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, FastCheck as fc, Stream } from "effect"
import { WalletClient, WalletError } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { accountsJson, listHandler } from "./support/fakeWallet.js"
import { json, type Recorded } from "./support/recordingClient.js"

const size = fc.integer({ min: 1, max: 1000 })
// Small sizes exercise many pages; the full range exercises the bounds.
const pageSize = fc.oneof(fc.integer({ min: 1, max: 20 }), size)

const addresses = (items: ReadonlyArray<{ readonly address: string }>) => items.map((a) => a.address)

describe("WalletClient streams", () => {
  const readAhead = fc.constantFrom(0, 1, 2)
  // At most ~60 pages a run: small page sizes come with small listings; at most 1200 accounts
  // (past a full page of the largest size) keeps the property quick to run.
  const listing = size.chain((s) => fc.tuple(fc.integer({ min: 0, max: Math.min(1200, 60 * s) }), fc.constant(s)))
  const smallPages = pageSize.chain((s) => fc.tuple(fc.integer({ min: 0, max: Math.min(1200, 60 * s) }), fc.constant(s)))

  it.effect.prop(
    "accounts({ pageSize }) yields every account once, newest first, in ceil(N/s) requests; pages but the last are full",
    [fc.oneof(listing, smallPages), readAhead],
    ([[n, s], ahead]) =>
      Effect.gen(function*() {
        const all = accountsJson(n)
        const test = testClient(listHandler(all), { readAhead: ahead })
        const pages = yield* withClient(test, WalletClient.accountPages({ pageSize: s }).pipe(Stream.runCollect))
        const items = Chunk.toReadonlyArray(pages).flatMap((p) => p.items)
        expect(addresses(items)).toEqual(addresses(all))
        expect(test.requests).toHaveLength(Math.max(1, Math.ceil(n / s)))
        const sizes = Chunk.toReadonlyArray(pages).map((p) => p.items.length)
        expect(sizes.slice(0, -1).every((k) => k === s)).toBe(true)
        expect(test.requests.every((r) => r.url.searchParams.get("size") === String(s))).toBe(true)
        const flat = yield* withClient(test, WalletClient.accounts({ pageSize: s }).pipe(Stream.runCollect))
        expect(addresses(Chunk.toReadonlyArray(flat))).toEqual(addresses(all))
        const times = Chunk.toReadonlyArray(flat).map((a) => a.createdAt)
        expect(times.every((t, i) => i === 0 || times[i - 1]! >= t)).toBe(true)
      }),
    { fastCheck: { numRuns: 12 } }
  )

  it.effect.prop(
    "Stream.take(n) sends the requests it needs, and at most readAhead more once it pulls the last part of a page",
    [smallPages, fc.integer({ min: 0, max: 1300 }), readAhead],
    ([[n, s], k, ahead]) =>
      Effect.gen(function*() {
        const all = accountsJson(n)
        const test = testClient(listHandler(all), { readAhead: ahead })
        const taken = yield* withClient(test, WalletClient.accounts({ pageSize: s }).pipe(Stream.take(k), Stream.runCollect))
        expect(addresses(Chunk.toReadonlyArray(taken))).toEqual(addresses(all.slice(0, k)))
        const needed = k === 0 ? 0 : Math.max(1, Math.ceil(Math.min(k, n) / s))
        const total = Math.max(1, Math.ceil(n / s))
        // Pages 1 and 2 (of two items or more) come in halves, the pages after whole: read-ahead
        // only once the last part of a page is pulled.
        const inLast = Math.min(k, n) - (needed - 1) * s
        const size = Math.min(s, n - (needed - 1) * s)
        const lastPart = k > 0 && (needed > 2 || size < 2 || inLast > Math.ceil(size / 2))
        // The last part of every page before the last one needed was pulled too: page j's allows
        // `ahead` pages past j. Whether those requests go out before the stream ends and interrupts
        // them is up to the scheduler (under load they did: 3 requests for take(5) of 9 in pages
        // of 4 with readAhead 2), so the bound is what the pulls allowed.
        const pulledLast = lastPart ? needed : needed - 1
        expect(test.requests.length).toBeGreaterThanOrEqual(needed)
        expect(test.requests.length).toBeLessThanOrEqual(pulledLast > 0 ? Math.min(total, Math.max(needed, pulledLast + ahead)) : needed)
      }),
    { fastCheck: { numRuns: 14 } }
  )

  it.effect("read-ahead costs no request the consumer did not need: take(3) of pages of 100 is one request, take(150) two", () =>
    Effect.gen(function*() {
      const all = accountsJson(1000)
      for (const ahead of [1, 2]) {
        const test = testClient(listHandler(all), { readAhead: ahead })
        const take = (k: number) =>
          Effect.sync(() => test.requests.splice(0)).pipe(
            Effect.zipRight(withClient(test, WalletClient.accounts({ pageSize: 100 }).pipe(Stream.take(k), Stream.runCount))),
            Effect.map((count) => [count, test.requests.length] as const)
          )
        expect(yield* take(3)).toEqual([3, 1])
        expect(yield* take(50)).toEqual([50, 1])
        // Past the second half of page 1, `readAhead` pages are requested: one by default.
        const [taken, requests] = yield* take(150)
        expect(taken).toBe(150)
        expect(ahead === 1 ? requests === 2 : requests >= 2 && requests <= 1 + ahead).toBe(true)
        expect(yield* take(2000)).toEqual([1000, 10])
        expect(new Set(test.requests.map((r) => r.url.searchParams.get("cursor"))).size).toBe(10)
        // The read-ahead still happens: from the second half of pages 1 and 2, then from the
        // first item of each page.
        test.requests.splice(0)
        const seen: Array<number> = []
        let i = 0
        yield* withClient(
          test,
          WalletClient.accounts({ pageSize: 100 }).pipe(
            Stream.tap(() => {
              const at = i++
              return ![49, 50, 149, 150, 200].includes(at) ? Effect.void : Effect.zipRight(
                // No clock, no I/O (the recording client answers at once): let every other fiber
                // run as far as it can, then count the requests.
                Effect.forEach(Array.from({ length: 200 }), () => Effect.yieldNow(), { discard: true }),
                Effect.sync(() => seen.push(test.requests.length))
              )
            }),
            Stream.take(250),
            Stream.runDrain
          )
        )
        expect(seen).toEqual([1, 1 + ahead, Math.max(2, 1 + ahead), 2 + ahead, 3 + ahead])
      }
    }))

  it.effect("a defect while fetching a page fails the stream instead of hanging it", () =>
    Effect.gen(function*() {
      const serve = listHandler(accountsJson(20))
      const test = testClient((request: Recorded) =>
        request.url.searchParams.has("cursor") ? Effect.die(new Error("handler bug")) : serve(request)
      )
      const exit = yield* withClient(test, WalletClient.accounts({ pageSize: 10 }).pipe(Stream.runCollect, Effect.exit))
      expect(exit._tag === "Failure" && exit.cause._tag).toBe("Die")
    }))

  it.effect("a stream that ends interrupts the page it was reading ahead", () =>
    Effect.gen(function*() {
      const serve = listHandler(accountsJson(20))
      let interrupted = false
      const test = testClient((request: Recorded) =>
        request.url.searchParams.has("cursor")
          ? Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => (interrupted = true))))
          : serve(request)
      )
      let i = 0
      const taken = yield* withClient(
        test,
        WalletClient.accounts({ pageSize: 10 }).pipe(
          // On the second half of page 1: the request of page 2 goes out, and never answers.
          Stream.tap(() => i++ === 5 ? Effect.forEach(Array.from({ length: 50 }), () => Effect.yieldNow(), { discard: true }) : Effect.void),
          Stream.take(8),
          Stream.runCount
        )
      )
      expect(taken).toBe(8)
      expect(test.requests).toHaveLength(2)
      expect(interrupted).toBe(true)
    }))

  it.effect.prop("a time range streams exactly the filtered listing", [smallPages, fc.nat({ max: 1100 }), fc.nat({ max: 1100 })], ([[n, s], a, b]) =>
    Effect.gen(function*() {
      const all = accountsJson(n)
      const from = 1_700_000_000 - Math.max(a, b)
      const to = 1_700_000_000 - Math.min(a, b)
      const test = testClient(listHandler(all))
      const got = yield* withClient(test, WalletClient.accounts({ pageSize: s, from, to }).pipe(Stream.runCollect))
      expect(addresses(Chunk.toReadonlyArray(got))).toEqual(addresses(all.filter((x) => x.createdAt >= from && x.createdAt <= to)))
      expect(test.requests.every((r) => r.url.searchParams.get("from-timestamp") === String(from))).toBe(true)
    }), { fastCheck: { numRuns: 16 } })

  it.effect.prop(
    "a failure mid-stream carries the cursor that resumes exactly the rest",
    [fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 50 }), fc.nat(), readAhead],
    ([n, s, seed, ahead]) =>
      Effect.gen(function*() {
        const all = accountsJson(n)
        const pages = Math.ceil(n / s)
        const failAt = 1 + (seed % pages) // the request that fails (1-based)
        const serve = listHandler(all)
        let count = 0
        const test = testClient((request: Recorded) => {
          count++
          return count === failAt ? json(500, { code: 1, message: "boom" }) : serve(request)
        }, { retry: false, readAhead: ahead })
        const first = yield* withClient(test, WalletClient.accounts({ pageSize: s }).pipe(Stream.either, Stream.runCollect))
        const elements = Chunk.toReadonlyArray(first)
        const last = elements[elements.length - 1]!
        expect(Either.isLeft(last)).toBe(true)
        const error = (last as Either.Left<WalletError.WalletError, unknown>).left
        expect(error._tag).toBe("ServerError")
        const before = elements.slice(0, -1).map((e) => Either.getOrThrow(e))
        expect(before).toHaveLength((failAt - 1) * s)
        const cursor = (error as WalletError.ServerError).cursor
        expect(cursor).toBe(test.requests[failAt - 1]!.url.searchParams.get("cursor") ?? "")
        const rest = yield* withClient(test, WalletClient.accounts({ pageSize: s, cursor: cursor! }).pipe(Stream.runCollect))
        expect([...addresses(before), ...addresses(Chunk.toReadonlyArray(rest))]).toEqual(addresses(all))
      }),
    { fastCheck: { numRuns: 10 } }
  )

  it.effect("a repeated cursor stops the listing with RepeatedCursor instead of looping", () =>
    Effect.gen(function*() {
      const all = accountsJson(6)
      let i = 0
      const test = testClient(() => {
        const page = all.slice(2 * (i % 2), 2 * (i % 2) + 2)
        i++
        return json(200, { items: page, cursor: i % 2 === 1 ? "A" : "B" })
      })
      const result = yield* withClient(test, WalletClient.accounts({ pageSize: 2 }).pipe(Stream.either, Stream.runCollect))
      const last = Chunk.last(result)
      expect(last._tag === "Some" && Either.isLeft(last.value) && last.value.left._tag).toBe("RepeatedCursor")
      // cursors: (start) → A → B → A again: the third response repeats A, which is not followed
      expect(test.requests.map((r) => r.url.searchParams.get("cursor"))).toEqual([null, "A", "B"])
      expect(Chunk.size(result)).toBe(2 * 3 + 1)
    }))

  it.effect("page streams read readAhead pages ahead of the page held, and no more", () =>
    Effect.gen(function*() {
      for (const ahead of [0, 1, 2, 3]) {
        const test = testClient(listHandler(accountsJson(60)), { readAhead: ahead })
        const seen: Array<number> = []
        yield* withClient(
          test,
          WalletClient.accountPages({ pageSize: 10 }).pipe(
            Stream.tap(() =>
              // Holding each page: let every other fiber run as far as it can (no clock, no I/O:
              // the recording client answers at once), then count the requests.
              Effect.zipRight(
                Effect.forEach(Array.from({ length: 200 }), () => Effect.yieldNow(), { discard: true }),
                Effect.sync(() => seen.push(test.requests.length))
              )
            ),
            Stream.runDrain
          )
        )
        expect(seen).toEqual([1, 2, 3, 4, 5, 6].map((k) => Math.min(6, k + ahead)))
        expect(test.requests).toHaveLength(6)
      }
    }))

  it.effect("a page that does not decode fails with the cursor of that page, after the pages before it", () =>
    Effect.gen(function*() {
      const all = accountsJson(9)
      const serve = listHandler(all)
      let count = 0
      const test = testClient((request: Recorded) => {
        count++
        if (count !== 2) return serve(request)
        const response = serve(request)
        return Effect.promise(async () => {
          const body = await response.json() as { items: Array<{ address: string }>; cursor: string }
          body.items[1]!.address = "0xnot-an-address"
          return json(200, body)
        })
      }, { retry: false })
      const result = yield* withClient(test, WalletClient.accounts({ pageSize: 3 }).pipe(Stream.either, Stream.runCollect))
      const elements = Chunk.toReadonlyArray(result)
      const last = elements[elements.length - 1]!
      expect(elements.slice(0, -1)).toHaveLength(3)
      const error = Either.flip(last).pipe(Either.getOrThrow) as WalletError.ResponseDecodeError
      expect(error._tag).toBe("ResponseDecodeError")
      expect(error.issue).toMatch(/^items\.1\.address: /)
      expect(error.cursor).toBe(test.requests[1]!.url.searchParams.get("cursor"))
    }))

  it.effect("listAccounts fetches one page and returns its cursor", () =>
    Effect.gen(function*() {
      const test = testClient(listHandler(accountsJson(5)))
      const page = yield* withClient(test, WalletClient.listAccounts({ pageSize: 2 }))
      expect(page.items).toHaveLength(2)
      expect(page.cursor).not.toBe("")
      const next = yield* withClient(test, WalletClient.listAccounts({ pageSize: 2, cursor: page.cursor }))
      expect(next.items[0]!.address).toBe(accountsJson(5)[2]!.address)
    }))
})
