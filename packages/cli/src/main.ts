/**
 * Running a `kas-wallet` command line.
 *
 * The command line is read once, by `Argv.read` against the command table (`commands/Spec`):
 * help, the version, completions and usage errors are answered from it; a command to run gets its
 * flags' values and its arguments from the same reading. Its module is loaded only then, so that a
 * client command loads neither the emulator nor its database, and the emulator does not load the
 * client's commands. Every failure ends as one line on stderr, `kas-wallet: <what went wrong>`, and
 * an exit code of `ExitCode`.
 *
 * @since 0.1.0
 */
import { Cause, Console, Effect, Exit } from "effect"
import type * as Handler from "./commands/Handler.js"
import * as Tree from "./commands/Spec.js"
import * as Argv from "./input/Argv.js"
import type * as Spec from "./input/Spec.js"
import * as ExitCode from "./output/ExitCode.js"
import * as Help from "./output/Help.js"
import { version } from "./version.js"

/**
 * The handlers of each top-level command, loaded when one of its commands runs, by the words after
 * it (`""` for the top-level command itself). Typed by the table: a top-level command without its
 * module, or a command of a group without its handler, is a type error.
 *
 * @since 0.1.0
 * @category commands
 */
export const modules: Handler.Modules<Tree.TopLevel> = {
  accounts: () => import("./commands/accounts/Handlers.js"),
  "fee-payers": () => import("./commands/fee-payers/Handlers.js"),
  tx: () => import("./commands/tx/Handlers.js"),
  keys: () => import("./commands/keys/Handlers.js"),
  history: () => import("./commands/history/Handlers.js"),
  migrate: () => import("./commands/migrate/Handlers.js"),
  emulator: () => import("./commands/emulator/Handlers.js"),
  tour: () => import("./commands/tour/Handlers.js")
}

/**
 * The command table of a command line: with the emulator's options only where they are needed.
 *
 * @since 0.2.0
 * @category commands
 */
export const tableFor = (args: ReadonlyArray<string>): Effect.Effect<Spec.Command> =>
  Tree.needsEmulatorFields(args)
    ? Effect.map(Effect.promise(() => import("effect-kas-wallet-emulator/EmulatorConfig")), (m) => Tree.tree(m.fields))
    : Effect.succeed(Tree.tree())

const report = (failure: ExitCode.Failure) => Effect.as(Console.error(`kas-wallet: ${failure.message}`), failure.code)

/**
 * Runs a command line (the arguments after the program's name); succeeds with the exit code.
 *
 * @since 0.1.0
 * @category running
 */
export const run = (args: ReadonlyArray<string>): Effect.Effect<ExitCode.ExitCode> =>
  Effect.flatMap(tableFor(args), (table) => runRequest(table, Argv.read(table, args)))

/**
 * Runs what a command line asks for, as `Argv.read` read it against `table`; succeeds with the
 * exit code.
 *
 * @since 0.2.0
 * @category running
 */
export const runRequest = (table: Spec.Command, request: Argv.Request): Effect.Effect<ExitCode.ExitCode> =>
  Effect.gen(function*() {
    if (request._tag !== "Run") {
      const answered = Help.answer(table, request, version, Help.styleFor(process.stdout, process.env))!
      if (answered.stdout) yield* Console.log(answered.stdout.replace(/\n$/, ""))
      if (answered.stderr) yield* Console.error(answered.stderr.replace(/\n$/, ""))
      return answered.code as ExitCode.ExitCode
    }
    const [top, ...rest] = request.command.path
    // `Argv.read` runs only a command of the table that runs, and `modules` holds a handler for
    // each (by type): the words index them.
    const { handlers } = yield* Effect.promise(() => modules[top as keyof typeof modules]())
    yield* (handlers as Readonly<Record<string, Handler.Handler>>)[rest.join(" ")]!(request)
    return ExitCode.ExitCode.Ok
  }).pipe(
    Effect.catchAll(report),
    Effect.catchAllDefect((defect) =>
      Effect.as(
        Console.error(`kas-wallet: unexpected failure (a bug: please report it): ${Cause.pretty(Cause.die(defect)).split("\n")[0]}`),
        ExitCode.ExitCode.Unexpected
      )
    )
  )

/**
 * Ends the process with `code` once stdout and stderr have taken everything written to them: a
 * client command is done when its output is, whatever connection the HTTP client keeps open.
 */
const exitWhenFlushed = (code: number) =>
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)))

/**
 * Runs a command line as the process: SIGINT and SIGTERM interrupt it (a running emulator stops
 * accepting connections, finishes in-flight requests and closes its database, then the process
 * exits 0), and the exit code becomes the process's as soon as the output is flushed.
 *
 * @since 0.1.0
 * @category running
 */
export const main = (table: Spec.Command, request: Argv.Request): void => {
  // The fiber may wait on nothing Node counts as pending (an interrupted wait, say): hold the
  // process until it ends.
  const alive = setInterval(() => {}, 2 ** 31 - 1)
  const fiber = Effect.runFork(runRequest(table, request))
  const interrupt = () => fiber.unsafeInterruptAsFork(fiber.id())
  process.once("SIGINT", interrupt)
  process.once("SIGTERM", interrupt)
  fiber.addObserver((exit) => {
    clearInterval(alive)
    const code = Exit.isSuccess(exit) ? exit.value : Exit.isInterrupted(exit) ? ExitCode.ExitCode.Ok : ExitCode.ExitCode.Unexpected
    process.exitCode = code
    exitWhenFlushed(code)
  })
}
