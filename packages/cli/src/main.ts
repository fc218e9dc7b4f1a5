/**
 * Running a `kas-wallet` command line.
 *
 * The command line is read once, by `Argv.read` against the command table (`Spec`): help, the
 * version, completions and usage errors are answered from it; a command to run gets its flags'
 * values and its arguments from the same reading. Its module is loaded only then, so that a
 * client command loads neither the emulator nor its database, and the emulator does not load the
 * client's commands. Every failure ends as one line on stderr, `kas-wallet: <what went wrong>`, and
 * an exit code of `ExitCode`.
 *
 * @since 0.1.0
 */
import { Cause, Console, Effect, Exit } from "effect"
import { version } from "./version.js"
import * as Argv from "./input/Argv.js"
import * as ExitCode from "./output/ExitCode.js"
import * as Help from "./output/Help.js"
import * as Spec from "./input/Spec.js"

/**
 * A command of a module: what it does with its reading of the command line.
 *
 * @since 0.2.0
 * @category models
 */
export type Handler = (run: Argv.Run) => Effect.Effect<void, ExitCode.Failure>

/**
 * The commands of each top-level command, loaded when one runs, by the words after it (`""` for
 * the top-level command itself).
 *
 * @since 0.1.0
 * @category commands
 */
export const modules: Readonly<Record<string, () => Promise<{ readonly commands: Readonly<Record<string, Handler>> }>>> = {
  accounts: () => import("./commands/AccountsCommand.js"),
  "fee-payers": () => import("./commands/FeePayersCommand.js"),
  tx: () => import("./commands/TxCommand.js"),
  keys: () => import("./commands/KeysCommand.js"),
  history: () => import("./commands/HistoryCommand.js"),
  migrate: () => import("./commands/MigrateCommand.js"),
  emulator: () => import("./commands/EmulatorCommand.js"),
  tour: () => import("./commands/Tour.js")
}

/**
 * The command table of a command line: with the emulator's options only where they are needed.
 *
 * @since 0.2.0
 * @category commands
 */
export const tableFor = (args: ReadonlyArray<string>): Effect.Effect<Spec.Command> =>
  Spec.needsEmulatorFields(args)
    ? Effect.map(Effect.promise(() => import("effect-kas-wallet-emulator/EmulatorConfig")), (m) => Spec.tree(m.fields))
    : Effect.succeed(Spec.tree())

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
    const [top = "", ...rest] = request.command.path
    const { commands } = yield* Effect.promise(() => modules[top]!())
    const handler = commands[rest.join(" ")]
    // The table names a command no module runs: a bug of the table.
    if (handler === undefined) return yield* Effect.dieMessage(`no handler for ${request.command.path.join(" ")}`)
    yield* handler(request)
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
