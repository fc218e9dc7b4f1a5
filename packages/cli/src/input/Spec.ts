/**
 * What a command table is made of: flags, positional arguments, flag groups and commands, with
 * the makers the commands' specs are written with and the lookups `Argv` and `Help` use. The table
 * itself is assembled in `commands/Spec.ts` from each command group's spec
 * (`commands/<group>/Spec.ts`), beside the group's handlers.
 *
 * Plain data with no runtime import, so that `--help` and `--version` answer without loading
 * effect, the client or the emulator.
 *
 * @since 0.1.0
 */

/**
 * A flag: `--name VALUE`, or `--name` alone when it has no `value`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Flag {
  /** Without the leading `--`. */
  readonly name: string
  /** The placeholder of its value; absent for a switch. */
  readonly value?: string
  /** The environment variable read when the flag is absent. */
  readonly env?: string
  /** The default, in words. */
  readonly default?: string
  readonly description: string
  /** A use of the flag, as typed. */
  readonly example: string
  /** A secret: never printed; on the command line it is visible in the process list. */
  readonly secret?: boolean
  /** For a secret: the flag that reads it from a file instead. */
  readonly alternative?: string
  /** The values the completion offers. */
  readonly choices?: ReadonlyArray<string>
  /** Whether the completion offers file names. */
  readonly files?: boolean
  /**
   * Takes one or more values: every word after it up to the next option (`--args 0x50... 1000`);
   * `Argv` gives them as a list.
   */
  readonly many?: boolean
}

/**
 * A positional argument.
 *
 * @since 0.1.0
 * @category models
 */
export interface Positional {
  readonly name: string
  readonly description: string
  /** May be left out (only the last ones): the usage shows it as `[<name>]`. */
  readonly optional?: boolean
}

/**
 * Flags shown under one heading.
 *
 * @since 0.1.0
 * @category models
 */
export interface Group {
  readonly title: string
  readonly flags: ReadonlyArray<Flag>
  /**
   * Rarely changed flags (the connection, the emulator's storage and faults): the help lists
   * them on a few "more flags" lines, each with its variable, and docs/cli.md describes them, so
   * that every help fits a screen.
   */
  readonly more?: boolean
}

/**
 * A command of the table.
 *
 * @since 0.1.0
 * @category models
 */
export interface Command {
  /** The words after `kas-wallet` (empty for the root). */
  readonly path: ReadonlyArray<string>
  /** One line, for the list of commands. */
  readonly summary: string
  /** A paragraph for its own help. */
  readonly description: ReadonlyArray<string>
  readonly positionals: ReadonlyArray<Positional>
  readonly groups: ReadonlyArray<Group>
  readonly subcommands: ReadonlyArray<Command>
  /** Whether it does something itself; a command that does not shows its help. */
  readonly runs: boolean
  readonly examples: ReadonlyArray<string>
}

/**
 * The program's name.
 *
 * @since 0.1.0
 * @category constants
 */
export const program = "kas-wallet"

/**
 * The exit codes, one line, for help texts (the codes themselves live in `ExitCode`).
 *
 * @since 0.1.0
 * @category constants
 */
export const exitCodes =
  "Exit codes: 0 ok, 1 unexpected, 2 invalid argument, 3 unauthorized, 4 not found, 5 rate limited, 6 server error, 7 transport, 8 refused by the node."

/**
 * A command that runs and has no subcommands, its words (`P`) known to the type checker.
 *
 * @since 0.9.0
 * @category models
 */
export interface Leaf<P extends ReadonlyArray<string>> extends Omit<Command, "path" | "runs" | "subcommands"> {
  readonly path: P
  readonly runs: true
  readonly subcommands: readonly []
}

/**
 * A command with subcommands (`S`), its words (`P`) and whether it runs itself (`R`) known to the
 * type checker.
 *
 * @since 0.9.0
 * @category models
 */
export interface Parent<P extends ReadonlyArray<string>, S extends ReadonlyArray<Command>, R extends boolean>
  extends Omit<Command, "path" | "runs" | "subcommands">
{
  readonly path: P
  readonly runs: R
  readonly subcommands: S
}

/**
 * The words of each command of `C` that runs, `C` itself and its subcommands at any depth.
 *
 * @since 0.9.0
 * @category models
 */
export type Runs<C> = C extends { readonly path: infer P; readonly runs: infer R; readonly subcommands: infer S extends ReadonlyArray<unknown> }
  ? (R extends true ? P : never) | Runs<S[number]>
  : never

type Join<P> = P extends readonly [] ? ""
  : P extends readonly [infer H extends string] ? H
  : P extends readonly [infer H extends string, ...infer T] ? `${H} ${Join<T>}`
  : never

/**
 * How the handlers of a command that runs find it: its words after the top-level command, joined
 * by spaces (`"multisig update"` for `kas-wallet accounts multisig update`; `""` for a top-level
 * command that runs itself), for every command of `C` that runs. A spec that loses its words'
 * literal types (a `path` of `string[]`) makes this `string`; `test/help.test.ts` checks that it
 * does not.
 *
 * @since 0.9.0
 * @category models
 */
export type Verb<C> = Runs<C> extends infer P ? P extends readonly [string, ...infer Rest] ? Join<Rest> : never : never

/**
 * A command that runs, with no subcommands: no arguments and no flags unless given.
 *
 * @since 0.9.0
 * @category constructors
 */
export const command = <const P extends ReadonlyArray<string>>(
  command: Omit<Command, "path" | "runs" | "subcommands" | "positionals" | "groups"> & {
    readonly path: P
    readonly positionals?: ReadonlyArray<Positional>
    readonly groups?: ReadonlyArray<Group>
  }
): Leaf<P> => ({ positionals: [], groups: [], ...command, subcommands: [], runs: true })

/**
 * A command with subcommands, which shows its help unless it `runs` itself.
 *
 * @since 0.9.0
 * @category constructors
 */
export const parent = <const P extends ReadonlyArray<string>, const S extends ReadonlyArray<Command>, const R extends boolean = false>(
  command: Omit<Command, "path" | "runs" | "subcommands" | "positionals" | "groups"> & {
    readonly path: P
    readonly subcommands: S
    readonly runs?: R
    readonly groups?: ReadonlyArray<Group>
  }
): Parent<P, S, R> => ({ positionals: [], groups: [], ...command, runs: (command.runs ?? false) as R })

/**
 * The commands of a group, by verb: the group's words then the verb, the command's own flag groups
 * then those every command of the group shares.
 *
 * @since 0.9.0
 * @category constructors
 */
export const verbsUnder = <const P extends ReadonlyArray<string>>(prefix: P, common: ReadonlyArray<Group>) =>
<const V extends string>(
  verb: V,
  summary: string,
  description: ReadonlyArray<string>,
  positionals: ReadonlyArray<Positional>,
  groups: ReadonlyArray<Group>,
  examples: ReadonlyArray<string>
): Leaf<readonly [...P, V]> =>
  command({ path: [...prefix, verb], summary, description, positionals, groups: [...groups, ...common], examples })

/**
 * A summary as the first sentence of a description: capitalised.
 *
 * @since 0.9.0
 * @category constructors
 */
export const sentence = (summary: string): string => `${summary.slice(0, 1).toUpperCase()}${summary.slice(1)}`

/**
 * Every command of a table, depth first.
 *
 * @since 0.1.0
 * @category utils
 */
export const all = (command: Command): ReadonlyArray<Command> => [command, ...command.subcommands.flatMap(all)]

/**
 * Every flag of a command.
 *
 * @since 0.1.0
 * @category utils
 */
export const flags = (command: Command): ReadonlyArray<Flag> => command.groups.flatMap((g) => g.flags)

/**
 * The command a path of words names, following subcommands as far as they match.
 *
 * @since 0.1.0
 * @category utils
 */
export const find = (command: Command, words: ReadonlyArray<string>): Command => {
  let current = command
  for (const word of words) {
    const next = current.subcommands.find((c) => c.path[c.path.length - 1] === word)
    if (next === undefined) break
    current = next
  }
  return current
}
