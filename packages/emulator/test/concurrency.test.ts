/**
 * Concurrency: 250 concurrent creates give 250 distinct accounts, and a full listing returns each
 * exactly once, also while creates keep arriving.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import * as Emulator from "../src/Emulator.js"
import { clientLayer, newMemberApi } from "./_support.js"

// Wall-clock time: the creates spread over real seconds, as they would in use.
layer(Layer.merge(Emulator.layer(), clientLayer), { excludeTestServices: true })("emulator concurrency", (it) => {
  it.effect("250 concurrent creates: 250 distinct accounts, each listed exactly once", () =>
    Effect.gen(function*() {
      const a = yield* newMemberApi
      const replies = yield* Effect.forEach(Array.from({ length: 250 }), () => a.create(1001), { concurrency: "unbounded" })
      expect(replies.every((r) => r.status === 200)).toBe(true)
      const addresses = replies.map((r) => r.body.address)
      expect(new Set(addresses).size).toBe(250)
      expect(new Set(replies.map((r) => r.body.publicKey)).size).toBe(250)
      for (const size of [1000, 100, 37]) {
        const { items, pages } = yield* a.listAll(1001, { size })
        expect(pages.length).toBe(Math.ceil(250 / size))
        const listed = items.map((i: any) => i.address)
        expect(listed.length).toBe(250)
        expect(new Set(listed)).toEqual(new Set(addresses))
        // newest first
        for (let i = 1; i < items.length; i++) expect(items[i - 1].createdAt).toBeGreaterThanOrEqual(items[i].createdAt)
      }
    }), { timeout: 60_000 })

  it.effect("listing while 120 creates run concurrently returns exactly the accounts that existed when it began", () =>
    Effect.gen(function*() {
      const a = yield* newMemberApi
      const existing = yield* Effect.forEach(Array.from({ length: 100 }), () => a.create(8217), { concurrency: 16 })
      const expected = new Set(existing.map((r) => r.body.address))
      const first = yield* a.list(8217, { size: 7 })
      const writers = yield* Effect.fork(
        Effect.forEach(Array.from({ length: 120 }), () => a.create(8217), { concurrency: 16 })
      )
      const seen: Array<string> = first.body.items.map((i: any) => i.address)
      let cursor: string = first.body.cursor
      while (cursor !== "") {
        const page = yield* a.list(8217, { size: 7, cursor })
        expect(page.status).toBe(200)
        seen.push(...page.body.items.map((i: any) => i.address))
        cursor = page.body.cursor
      }
      yield* Fiber.join(writers)
      expect(seen.length).toBe(100)
      expect(new Set(seen)).toEqual(expected)
      expect((yield* a.listAll(8217, { size: 1000 })).items.length).toBe(220)
    }), { timeout: 60_000 })
})
