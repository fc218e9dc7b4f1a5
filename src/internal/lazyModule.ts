/**
 * A module imported on first use rather than with the client: bundlers split it off, and an
 * application that never needs it never downloads it.
 *
 * @internal
 */
import { Effect } from "effect"

/**
 * The module `load` imports, once; after that at hand without waiting on a promise (an
 * asynchronous step per call measurably adds to a call's cost). A failed import is tried again on
 * the next use.
 *
 * @internal
 */
export const lazyModule = <M>(load: () => Promise<M>): Effect.Effect<M, unknown> => {
  let loading: Promise<M> | undefined
  let loaded: M | undefined
  return Effect.suspend(() =>
    loaded !== undefined
      ? Effect.succeed(loaded)
      : Effect.tryPromise({
        try: () => (loading ??= load()).then((module) => (loaded = module)),
        catch: (error) => {
          loading = undefined
          return error
        }
      })
  )
}
