/**
 * The `kas-wallet` command line: its @effect/cli commands, and running a command line.
 *
 * A command line is first read against the command table (`Spec`, `Argv`): help, the version,
 * completions and usage errors are answered from it. Otherwise @effect/cli parses it into the
 * command's options and runs the command. Every failure ends as one line on stderr,
 * `kas-wallet: <what went wrong>`, and an exit code of `ExitCode`.
 *
 * @since 0.1.0
 */
import { CliConfig, Command, CommandDescriptor, type HelpDoc, type ValidationError } from "@effect/cli"
import type { CliApp } from "@effect/cli"
import type { FileSystem } from "@effect/platform"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Console, Effect } from "effect"
import * as EmulatorConfig from "effect-kas-wallet-emulator/EmulatorConfig"
import { version } from "./version.js"
import * as Argv from "./input/Argv.js"
import * as ExitCode from "./output/ExitCode.js"
import * as Help from "./output/Help.js"
import * as Spec from "./input/Spec.js"

/**
 * The @effect/cli command of each top-level command, loaded when it runs: the emulator and its
 * database are not loaded to list accounts, nor the client to serve the emulator.
 *
 * @since 0.1.0
 * @category commands
 */
export const commands: Record<
  "accounts" | "fee-payers" | "tx" | "emulator" | "tour",
  // Each command has its own name and parses into its own shape.
  () => Effect.Effect<Command.Command<any, FileSystem.FileSystem, ExitCode.Failure, any>>
> = {
  accounts: () => Effect.promise(() => import("./commands/AccountsCommand.js")).pipe(Effect.map((m) => m.command)),
  "fee-payers": () => Effect.promise(() => import("./commands/FeePayersCommand.js")).pipe(Effect.map((m) => m.command)),
  tx: () => Effect.promise(() => import("./commands/TxCommand.js")).pipe(Effect.map((m) => m.command)),
  emulator: () => Effect.promise(() => import("./commands/EmulatorCommand.js")).pipe(Effect.map((m) => m.command)),
  tour: () =>
    Effect.succeed(
      // The tour starts an emulator in-process.
      Command.make("tour", {}, () =>
        Effect.flatMap(Effect.promise(() => import("./commands/Tour.js")), (t) => t.run).pipe(
          Effect.mapError((e) => new ExitCode.Failure({ message: `the tour failed: ${e.message}`, code: ExitCode.ExitCode.Unexpected }))
        ))
    )
}

/**
 * The command table, the emulator's options included.
 *
 * @since 0.1.0
 * @category commands
 */
export const table: Spec.Command = Spec.tree(EmulatorConfig.fields)

/**
 * How @effect/cli parses: exact names only, since the table has already refused anything else,
 * with its own messages.
 *
 * @since 0.1.0
 * @category running
 */
export const cliConfig = CliConfig.make({ isCaseSensitive: true, autoCorrectLimit: 0, finalCheckBuiltIn: false, showBuiltIns: false })

/**
 * `kas-wallet` with one of its top-level commands, as @effect/cli parses it.
 *
 * @since 0.1.0
 * @category commands
 */
export const rootFor = (name: keyof typeof commands) =>
  Effect.map(commands[name](), (command) => Command.make("kas-wallet").pipe(Command.withSubcommands([command])))

/** The words of an @effect/cli message, on one line. */
const textOf = (doc: HelpDoc.HelpDoc): string => {
  const words: Array<string> = []
  const visit = (node: unknown): void => {
    if (typeof node === "string") words.push(node)
    else if (Array.isArray(node)) node.forEach(visit)
    else if (typeof node === "object" && node !== null) {
      const n = node as Record<string, unknown>
      if (typeof n.value === "string") words.push(n.value)
      else for (const key of ["value", "left", "right", "elements", "definitions"]) if (key in n) visit(n[key])
    }
  }
  visit(doc)
  return words.join(" ").replace(/\s+/g, " ").trim()
}

const report = (failure: ExitCode.Failure) => Effect.as(Console.error(`kas-wallet: ${failure.message}`), failure.code)

/**
 * Runs a command line (the arguments after the program's name); succeeds with the exit code.
 *
 * @since 0.1.0
 * @category running
 */
export const run = (args: ReadonlyArray<string>): Effect.Effect<ExitCode.ExitCode, never, CliApp.CliApp.Environment> =>
  Effect.gen(function*() {
    const request = Argv.read(table, args)
    const answered = Help.answer(table, request, version, Help.styleFor(process.stdout, process.env))
    if (answered !== undefined || request._tag !== "Run") {
      if (answered?.stdout) yield* Console.log(answered.stdout.replace(/\n$/, ""))
      if (answered?.stderr) yield* Console.error(answered.stderr.replace(/\n$/, ""))
      return (answered?.code ?? ExitCode.ExitCode.Unexpected) as ExitCode.ExitCode
    }
    const command = yield* rootFor(request.command.path[0] as keyof typeof commands)
    const directive = yield* CommandDescriptor.parse(command.descriptor, ["kas-wallet", ...args], cliConfig).pipe(
      Effect.mapError((e: ValidationError.ValidationError) => ExitCode.invalid(textOf(e.error)))
    )
    if (directive._tag === "BuiltIn" || directive.leftover.length > 0) {
      // The table and @effect/cli disagree: a bug of the table.
      return yield* ExitCode.invalid(`cannot read this command line (${args.join(" ")})`)
    }
    yield* command.transform(command.handler(directive.value), directive.value)
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
 * Runs a command line as the process: SIGINT and SIGTERM interrupt it (a running emulator stops
 * accepting connections, finishes in-flight requests and closes its database), and the exit code
 * becomes the process's.
 *
 * @since 0.1.0
 * @category running
 */
export const main = (args: ReadonlyArray<string>): void =>
  run(args).pipe(
    Effect.map((code) => {
      process.exitCode = code
    }),
    Effect.provide(NodeContext.layer),
    NodeRuntime.runMain
  )
