/**
 * Cursor pagination as a Stream of pages, for every listing of the API.
 *
 * @internal
 */
import { Chunk, Effect, Option, Stream } from "effect"
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
  /** Pages fetched ahead of the consumer (0: each page only when pulled). */
  readonly readAhead: number
  /** The listing's path, for `RepeatedCursor`. */
  readonly path: string
}

type State = { readonly at: string } | { readonly repeated: string }

/**
 * Every page, in order, until the empty cursor: one request a page, none after the last.
 * - A failure carries the cursor of the page that failed: a listing started from it resumes there.
 * - A cursor the listing has already seen would loop forever: the stream fails with
 *   `RepeatedCursor` after the page that returned it.
 * - `readAhead` pages are fetched while the consumer works (`bufferChunks` of `readAhead - 1`:
 *   its producer holds one more page, blocked on the full buffer).
 *
 * @internal
 */
export const pages = <P extends { readonly cursor: string }>(paging: Paging<P>): Stream.Stream<P, WalletError.WalletError> => {
  const stream = Stream.suspend(() => {
    const seen = new Set<string>(paging.start === "" ? [] : [paging.start])
    return Stream.paginateChunkEffect<State, P, WalletError.WalletError, never>({ at: paging.start }, (state) => {
      if ("repeated" in state) {
        return Effect.fail(new WalletError.RepeatedCursor({ method: "GET", path: paging.path, cursor: state.repeated }))
      }
      return paging.fetch(state.at).pipe(
        Effect.mapError((error) => withCursor(error, state.at)),
        Effect.map((page): readonly [Chunk.Chunk<P>, Option.Option<State>] => {
          const next = page.cursor
          if (next === "") return [Chunk.of(page), Option.none()]
          if (seen.has(next)) return [Chunk.of(page), Option.some({ repeated: next })]
          seen.add(next)
          return [Chunk.of(page), Option.some({ at: next })]
        })
      )
    })
  })
  return paging.readAhead > 0 ? Stream.bufferChunks(stream, { capacity: paging.readAhead - 1 }) : stream
}
