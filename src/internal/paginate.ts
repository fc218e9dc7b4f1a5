/**
 * Cursor pagination as Streams of pages and of items, for every listing of the API.
 *
 * @internal
 */
import { Chunk, Effect, Exit, Option, Queue, type Scope, Stream } from "effect"
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
 * The pages of a listing, in order, until the empty cursor: one request a page, none after the last,
 * none before the consumer's pull or its `ahead` allows it.
 * - A failure carries the cursor of the page that failed: a listing started from it resumes there.
 * - A cursor the listing has already seen would loop forever: the next page is `RepeatedCursor`
 *   (sent by no request).
 * - The fetching fiber lives in the stream's scope: a stream that ends (or is interrupted)
 *   interrupts the request in flight.
 * Credits bound what is fetched: one for each page pulled, `readAhead` more past the page held
 * once the consumer calls `ahead`; no more than `readAhead` pages wait in the queue.
 */
const pager = <P extends { readonly cursor: string }>(paging: Paging<P>): Effect.Effect<Pager<P>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const credits = yield* Queue.unbounded<void>()
    const fetched = yield* Queue.unbounded<Exit.Exit<P, WalletError.WalletError>>()
    const seen = new Set<string>(paging.start === "" ? [] : [paging.start])
    const fetchFrom = (at: string): Effect.Effect<void> =>
      Queue.take(credits).pipe(
        // `exit` keeps a defect of the fetch for the consumer, which would otherwise wait forever.
        Effect.zipRight(Effect.exit(Effect.mapError(paging.fetch(at), (error) => withCursor(error, at)))),
        Effect.flatMap((exit) => {
          const offered = Queue.offer(fetched, exit)
          if (Exit.isFailure(exit) || exit.value.cursor === "") return offered
          const next = exit.value.cursor
          if (seen.has(next)) {
            return Effect.zipRight(offered, Queue.offer(fetched, Exit.fail(new WalletError.RepeatedCursor({ method: "GET", path: paging.path, cursor: next }))))
          }
          seen.add(next)
          return Effect.zipRight(offered, fetchFrom(next))
        })
      )
    yield* Effect.forkScoped(fetchFrom(paging.start))
    let granted = 0
    let taken = 0
    const grant = (upTo: number): Effect.Effect<void> => {
      if (upTo <= granted) return Effect.void
      const more = upTo - granted
      granted = upTo
      return Queue.offerAll(credits, Array.from({ length: more }, () => undefined))
    }
    return {
      next: Effect.suspend(() => Effect.zipRight(grant(++taken), Effect.flatten(Queue.take(fetched)))),
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
        return at < queued.length || last ? Effect.succeed(chunk) : Effect.as(pager.ahead, chunk)
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
