/**
 * Cursor pagination as Streams of pages and of items, for every listing of the API.
 *
 * @internal
 */
import { Chunk, Effect, type Fiber, Option, type Scope, Stream } from "effect"
import * as WalletError from "../WalletError.js"
import { withCursor } from "./errors.js"

/**
 * How to page through one listing.
 *
 * @internal
 */
export interface Paging<P extends { readonly cursor: string }> {
  /** The cursor to start from (`""`: the first page). */
  readonly start: string
  /** One page at a cursor. */
  readonly fetch: (cursor: string) => Effect.Effect<P, WalletError.WalletError>
  /** Pages fetched ahead of the consumer once it shows it needs the next one (0: each page only when pulled). */
  readonly readAhead: number
  /** The listing's path, for `RepeatedCursor`. */
  readonly path: string
}

/** One listing's pages as the consumer asks for them; a fiber fetches them as far as it has allowed. */
interface Pager<P> {
  /** The next page, in order; requested now unless it already was. */
  readonly next: Effect.Effect<P, WalletError.WalletError>
  /** The consumer will need the page after the one it holds: `readAhead` pages past it may be fetched. */
  readonly ahead: Effect.Effect<void>
}

/**
 * Where a page allowed waits for the consumer, once fetched, until it is taken. The fiber fetching
 * it ends on the page's cursor, not the page: a fiber outlives the request's wait, which moves it
 * to V8's old generation, and a value an old object holds survives every young-generation
 * collection until a full one finds the holder dead. Fibers holding their pages promoted every
 * page of a stream (docs/benchmarks.md); the slot lets go of its page as it is taken.
 */
interface Slot<P> {
  page: P | undefined
}

/**
 * The pages of a listing, in order, until the empty cursor: one request a page, none after the last,
 * none before the consumer's pull or its `ahead` allows it.
 * - Each page allowed is fetched by a fiber of its own in the stream's scope, after the fiber of
 *   the page before (whose cursor it needs): a stream that ends (or is interrupted) interrupts the
 *   requests in flight. One allowed past the last page sends nothing.
 * - A failure carries the cursor of the page that failed: a listing started from it resumes there.
 * - A cursor the listing has already seen would loop forever: the next page is `RepeatedCursor`
 *   (sent by no request).
 * One page is allowed for each page pulled, `readAhead` more past the page held once the consumer
 * calls `ahead`: no more than `readAhead` pages wait for the consumer.
 */
const pager = <P extends { readonly cursor: string }>(paging: Paging<P>): Effect.Effect<Pager<P>, never, Scope.Scope> =>
  Effect.map(Effect.scope, (scope) => {
    const seen = new Set<string>(paging.start === "" ? [] : [paging.start])
    // The pages allowed and not yet pulled, in order.
    const allowed: Array<{ readonly fiber: Fiber.Fiber<string, WalletError.WalletError>; readonly slot: Slot<P> }> = []
    // The cursor of the page after the last one allowed (`undefined`: there is none).
    let after: Effect.Effect<string | undefined, WalletError.WalletError> = Effect.succeed(paging.start)
    let granted = 0
    let taken = 0
    // Past the last page there is nothing to fetch, and the consumer, which stops at its empty
    // cursor, never waits for it: the fiber waits for the end of the stream.
    const fetchAt = (cursor: string | undefined): Effect.Effect<P, WalletError.WalletError> =>
      cursor === undefined ? Effect.never : Effect.mapError(paging.fetch(cursor), (error) => withCursor(error, cursor))
    const cursorAfter = (cursor: string): Effect.Effect<string | undefined, WalletError.WalletError> => {
      if (cursor === "") return Effect.succeed(undefined)
      if (seen.has(cursor)) return Effect.fail(new WalletError.RepeatedCursor({ method: "GET", path: paging.path, cursor }))
      seen.add(cursor)
      return Effect.succeed(cursor)
    }
    const grant = (upTo: number): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (granted >= upTo) return Effect.void
        const slot: Slot<P> = { page: undefined }
        // The fiber ends on the page's cursor and leaves the page in its slot (see `Slot`).
        const fetch = Effect.flatMap(after, (cursor) =>
          Effect.map(fetchAt(cursor), (page) => {
            slot.page = page
            return page.cursor
          }))
        return Effect.flatMap(Effect.forkIn(fetch, scope), (fiber) => {
          granted++
          allowed.push({ fiber, slot })
          after = Effect.flatMap(Effect.flatten(fiber.await), cursorAfter)
          return grant(upTo)
        })
      })
    const take = ({ fiber, slot }: (typeof allowed)[number]): Effect.Effect<P, WalletError.WalletError> =>
      Effect.map(Effect.flatten(fiber.await), () => {
        const page = slot.page!
        slot.page = undefined
        return page
      })
    return {
      // A defect of the fetch reaches the consumer through the fiber's exit, as its failures do.
      next: Effect.suspend(() => Effect.flatMap(grant(++taken), () => take(allowed.shift()!))),
      ahead: Effect.suspend(() => grant(taken + paging.readAhead))
    }
  })

const end = Effect.fail(Option.none())

/**
 * A listing's pages as chunks: `parts` cuts each page (the `index`th, from 0) into the chunks the
 * consumer pulls. The consumer that pulls the last chunk of a page has taken the whole page in hand:
 * it is the sign that it goes on, and the `readAhead` pages past it are requested then, while the
 * consumer works on that chunk. No chunk, no sign: a page that gives none goes straight on to the
 * next.
 */
const chunked = <P extends { readonly cursor: string }, A>(
  paging: Paging<P>,
  parts: (page: P, index: number) => ReadonlyArray<Chunk.Chunk<A>>
): Stream.Stream<A, WalletError.WalletError> =>
  Stream.fromPull(Effect.map(pager(paging), (pager) => {
    let index = 0
    let last = false
    let queued: ReadonlyArray<Chunk.Chunk<A>> = []
    let at = 0
    const pull: Effect.Effect<Chunk.Chunk<A>, Option.Option<WalletError.WalletError>> = Effect.suspend(() => {
      if (at < queued.length) {
        const chunk = queued[at++]!
        if (at < queued.length) return Effect.succeed(chunk)
        // The last chunk of the page is handed on: nothing here holds the page any longer while
        // the next one is awaited (see `Slot`).
        queued = []
        at = 0
        return last ? Effect.succeed(chunk) : Effect.as(pager.ahead, chunk)
      }
      if (last) return end
      return Effect.flatMap(Effect.mapError(pager.next, Option.some), (page) => {
        last = page.cursor === ""
        queued = parts(page, index++)
        at = 0
        return pull
      })
    })
    return pull
  }))

/**
 * Every page, in order (see `pager`), each a chunk of its own: pulling page n requests page n + 1.
 *
 * @internal
 */
export const pages = <P extends { readonly cursor: string }>(paging: Paging<P>): Stream.Stream<P, WalletError.WalletError> =>
  chunked(paging, (page) => [Chunk.of(page)])

/** How many pages of an item stream come in halves, before the consumer has shown that it goes on. */
const halvedPages = 2

/**
 * Every item of every page, in order (see `pager`). The first two pages come in halves: the next
 * page is requested when the consumer pulls the second half, so a `Stream.take` ending in the first
 * half of one of them sends no request past it (`take(3)` from pages of 100 is one request,
 * `take(150)` two). A consumer that pulls the second half of page 2 goes through the listing: the
 * pages after come whole, the next requested as the consumer starts on each, as a page stream does.
 *
 * @internal
 */
export const items = <A, P extends { readonly cursor: string; readonly items: ReadonlyArray<A> }>(
  paging: Paging<P>
): Stream.Stream<A, WalletError.WalletError> =>
  chunked(paging, (page, index): ReadonlyArray<Chunk.Chunk<A>> => {
    const all = page.items
    if (all.length === 0) return []
    if (index >= halvedPages || all.length < 2) return [Chunk.unsafeFromArray(all)]
    const half = Math.ceil(all.length / 2)
    return [Chunk.unsafeFromArray(all.slice(0, half)), Chunk.unsafeFromArray(all.slice(half))]
  })
