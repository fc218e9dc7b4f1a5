/**
 * The command table of `kas-wallet`: the root command, its options, and each command group's
 * spec (`<group>/Spec.ts`, beside the group's handlers). `--help`, the bash completions and the one
 * reading of the command line (`Argv`) are derived from it; the commands read their flags' values
 * from that reading.
 *
 * Plain data with no runtime import but the specs, so that `--help` and `--version` answer
 * without loading effect, the client or the emulator.
 *
 * @since 0.9.0
 */
import type { EmulatorConfig } from "effect-kas-wallet-emulator"
import * as Route from "../input/Route.js"
import * as Spec from "../input/Spec.js"
import * as Multisig from "./accounts/multisig/Spec.js"
import * as Accounts from "./accounts/Spec.js"
import * as Console from "./emulator/console/Spec.js"
import * as Ledger from "./emulator/ledger/Spec.js"
import * as Emulator from "./emulator/Spec.js"
import * as FeePayers from "./fee-payers/Spec.js"
import * as History from "./history/Spec.js"
import * as Keys from "./keys/Spec.js"
import * as Migrate from "./migrate/Spec.js"
import * as Shared from "./shared/Spec.js"
import * as Tour from "./tour/Spec.js"
import * as Tx from "./tx/Spec.js"

/**
 * Each group's spec, and the routes of the help, for the handlers: they read their flags through
 * the table, so that the bundle keeps the whole table in one chunk, the one `--help` loads (a spec
 * a handler imported directly would be reached by other entries than the rest of the table: a
 * chunk of its own, one more file to load at every start; test/bundle.test.ts counts them).
 *
 * @since 0.9.0
 * @category specs
 */
export { Accounts, Console, Emulator, FeePayers, History, Keys, Ledger, Migrate, Multisig, Route, Shared, Tour, Tx }

/**
 * The root's own flags.
 *
 * @since 0.1.0
 * @category flags
 */
export const flags = {
  help: { name: "help", description: "show help; after a command, its own help", example: "kas-wallet accounts list --help" },
  version: { name: "version", description: "print the version (with --json: {\"version\"})", example: "kas-wallet --version" },
  completions: {
    name: "completions",
    value: "bash",
    description: "print a bash completion script",
    example: "source <(kas-wallet --completions bash)",
    choices: ["bash"]
  }
} as const satisfies Record<string, Spec.Flag>

/**
 * The whole table. Without `emulatorFields` (`EmulatorConfig.fields`) the emulator's own flags are
 * left out: only `kas-wallet emulator --help` and the completions need them, and loading them costs
 * part of effect.
 *
 * @since 0.1.0
 * @category constructors
 */
export const tree = (emulatorFields?: typeof EmulatorConfig.fields) =>
  Spec.parent({
    path: [],
    summary: "the KAS wallet API from the command line",
    description: [
      "The KAS wallet API from the command line: accounts, fee-payer accounts, transfers, keys and",
      "the fee-delegation history of the service or of a local emulator, the emulator itself, and a",
      "tour of the effect-kas-wallet library."
    ],
    groups: [{ title: "Options", flags: [flags.help, flags.version, flags.completions] }],
    subcommands: [Accounts.spec, FeePayers.spec, Tx.spec, Keys.spec, History.spec, Migrate.spec, Emulator.spec(emulatorFields), Tour.spec],
    examples: [
      "kas-wallet emulator                  # a local emulator that keeps its data",
      "eval \"$(kas-wallet emulator env)\"    # in another shell: use it",
      "kas-wallet accounts list --all --json > accounts.ndjson"
    ]
  })

/**
 * The top-level commands of the table, each a group of commands or a command that runs.
 *
 * @since 0.9.0
 * @category models
 */
export type TopLevel = ReturnType<typeof tree>["subcommands"][number]

/**
 * Whether the emulator's option table is needed for this command line (help or completions of the
 * `emulator` command itself).
 *
 * @since 0.1.0
 * @category utils
 */
export const needsEmulatorFields = (args: ReadonlyArray<string>): boolean =>
  args[0] === "emulator" || args.includes("--completions")
