/**
 * The `kas-wallet` command line: the root command and its runner.
 *
 * @since 0.1.0
 */
import { Command } from "@effect/cli"
import * as AccountsCommand from "./AccountsCommand.js"
import * as EmulatorCommand from "./EmulatorCommand.js"
import * as ExitCode from "./ExitCode.js"
import * as Tour from "./Tour.js"

/**
 * The subcommands of `kas-wallet`. Extend the CLI by building a root with more of them
 * (`Command.withSubcommands([...subcommands, more])`) and running it with `runWith`.
 *
 * @since 0.1.0
 * @category commands
 */
export const subcommands = [AccountsCommand.command, EmulatorCommand.command, Tour.command] as const

/**
 * `kas-wallet`, with its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("kas-wallet").pipe(
  Command.withDescription([
    "The KAS wallet API from the command line: accounts (create, get, list), a local emulator of the",
    "API, and a guided tour of the effect-kas-wallet library.",
    "Examples:",
    "  kas-wallet tour",
    "  kas-wallet emulator --port 8080",
    "  KAS_ACCESS_KEY_ID=... KAS_SECRET_ACCESS_KEY=... kas-wallet accounts list --all --json",
    ExitCode.helpText
  ].join("\n")),
  Command.withSubcommands(subcommands)
)

/**
 * Runs a root command as `kas-wallet` on the given argv (`process.argv`: node and script first).
 *
 * @since 0.1.0
 * @category running
 */
export const runWith = <Name extends string, R, E, A>(root: Command.Command<Name, R, E, A>) =>
  Command.run(root, { name: "kas-wallet", version: "0.1.0" })

/**
 * Runs `kas-wallet` on the given argv (`process.argv`: node and script first).
 *
 * @since 0.1.0
 * @category running
 */
export const run = runWith(command)
