/**
 * What outlives a request must not hold its value. A fiber or a span lives through the request's
 * wait, long enough for V8 to move it to its old generation; a value it still holds then survives
 * every young-generation collection until a full one finds the holder dead. Fibers and spans that
 * ended on their pages promoted every page of a stream (docs/benchmarks.md): these tests keep them
 * from holding one again.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, type Fiber, Stream, Supervisor, Tracer } from "effect"
import { WalletClient } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { accountsJson, listHandler } from "./support/fakeWallet.js"

/** The values fibers ended on, in the order they ended. */
class Ends extends Supervisor.AbstractSupervisor<ReadonlyArray<unknown>> {
  readonly ended: Array<unknown> = []
  get value() {
    return Effect.sync(() => this.ended)
  }
  override onEnd<A, E>(exit: Exit.Exit<A, E>, _fiber: Fiber.RuntimeFiber<A, E>): void {
    if (Exit.isSuccess(exit)) this.ended.push(exit.value)
  }
}

/** A page (of any listing: they all carry `items`). */
const isPage = (value: unknown): boolean => typeof value === "object" && value !== null && "items" in value

/** Runs `effect` recording the values its fibers ended on and the exits its spans ended with. */
const recording = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const native = yield* Effect.tracer
    const spans: Array<Tracer.Span> = []
    const tracer = Tracer.make({
      span: (...args) => {
        const span = native.span(...args)
        spans.push(span)
        return span
      },
      context: native.context
    })
    const ends = new Ends()
    const result = yield* effect.pipe(Effect.supervised(ends), Effect.withTracer(tracer))
    const spanValues = spans.flatMap((span) =>
      span.status._tag === "Ended" && Exit.isSuccess(span.status.exit) ? [{ name: span.name, value: span.status.exit.value }] : []
    )
    return { result, fiberValues: ends.ended, spanValues }
  })

describe("WalletClient: what outlives a request holds none of its value", () => {
  it.effect("a listing's span ends on no value; the page is the caller's alone", () =>
    Effect.gen(function*() {
      const test = testClient(listHandler(accountsJson(30)))
      const { fiberValues, result, spanValues } = yield* recording(withClient(test, WalletClient.listAccounts({ size: 10 })))
      expect(result.items).toHaveLength(10)
      expect(spanValues.map((s) => s.name)).toContain("WalletClient.listAccounts")
      expect(spanValues.filter((s) => s.value !== undefined)).toEqual([])
      expect(fiberValues.filter(isPage)).toEqual([])
    }))

  it.effect("a stream's page fibers end on their cursors, its spans on no value, at every read-ahead", () =>
    Effect.gen(function*() {
      const all = accountsJson(250)
      for (const readAhead of [0, 1, 2]) {
        const test = testClient(listHandler(all), { readAhead })
        const pages = yield* recording(withClient(test, WalletClient.accountPages({ pageSize: 50 }).pipe(Stream.runCollect)))
        expect([...pages.result].map((p) => p.items.length)).toEqual([50, 50, 50, 50, 50])
        const items = yield* recording(withClient(test, WalletClient.accounts({ pageSize: 50 }).pipe(Stream.runCount)))
        expect(items.result).toBe(250)
        for (const run of [pages, items]) {
          expect(run.spanValues.filter((s) => s.value !== undefined)).toEqual([])
          expect(run.fiberValues.filter(isPage)).toEqual([])
          // The page fibers ended on the cursors of the pages they fetched, and nothing else did.
          expect(run.fiberValues.filter((v) => typeof v === "string")).toEqual([...pages.result].map((p) => p.cursor))
        }
      }
    }))
})
