/**
 * What runs a command of the table, and the handler maps typed by the table: a group's handlers
 * are declared `satisfies Handlers<typeof spec>`, so that a command of its spec without a handler,
 * or a handler without a command, is a type error.
 *
 * @since 0.9.0
 */
import type { Effect } from "effect"
import type * as Argv from "../input/Argv.js"
import type * as Spec from "../input/Spec.js"
import type * as ExitCode from "../output/ExitCode.js"

/**
 * A command of the table at work: what it does with its reading of the command line.
 *
 * @since 0.9.0
 * @category models
 */
export type Handler<R = never> = (run: Argv.Run) => Effect.Effect<void, ExitCode.Failure, R>

/**
 * A handler for each command of `C` that runs (`C` a command of the table, or a union of them),
 * by its words after the top-level command (`Spec.Verb`).
 *
 * @since 0.9.0
 * @category models
 */
export type Handlers<C, R = never> = { readonly [K in Spec.Verb<C>]: Handler<R> }

/**
 * The handlers of every top-level command (`Top`, a union of them), each loaded only when one of its commands
 * runs (so that a client command loads neither the emulator nor its database).
 *
 * @since 0.9.0
 * @category models
 */
export type Modules<Top extends Spec.Command> = {
  readonly [C in Top as C["path"][0] & string]: () => Promise<{ readonly handlers: Handlers<C> }>
}
