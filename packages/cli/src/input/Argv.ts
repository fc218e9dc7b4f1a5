/**
 * The one reading of a command line, against the command table: which command it names, with its
 * flags' values and its arguments, or whether it asks for help, the version or completions, or
 * breaks a rule of the table (an unknown command or flag, a flag without its value, a missing or
 * extra argument). Each problem is one message in the user's terms, naming the flag.
 *
 * No runtime dependency: `kas-wallet` answers `--help`, `--version` and usage errors before it
 * loads effect.
 *
 * @since 0.1.0
 */
import * as Spec from "./Spec.js"

/**
 * What a command line asks for.
 *
 * @since 0.1.0
 * @category models
 */
export type Request =
  | { readonly _tag: "Help"; readonly command: Spec.Command }
  | { readonly _tag: "Version"; readonly json: boolean }
  | { readonly _tag: "Completions" }
  | { readonly _tag: "Usage"; readonly command: Spec.Command; readonly message: string }
  | Run

/**
 * A command to run, with what the command line gave it: the value of each flag given with one,
 * the values of a flag that takes many (`Spec.Flag.many`), `true` for each switch given, and the
 * positional arguments in the table's order.
 *
 * @since 0.2.0
 * @category models
 */
export interface Run {
  readonly _tag: "Run"
  readonly command: Spec.Command
  /** By flag name (without `--`): its value, its values (a flag that takes many), or `true` for a switch. */
  readonly flags: Readonly<Record<string, string | true | ReadonlyArray<string>>>
  readonly positionals: ReadonlyArray<string>
}

const display = (command: Spec.Command) => ["kas-wallet", ...command.path].join(" ")

const lastWord = (command: Spec.Command) => command.path[command.path.length - 1] ?? ""

const list = (words: ReadonlyArray<string>) =>
  words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`

// Edit distance, to suggest the command or flag a typo meant: optimal string alignment, where two
// letters swapped are one edit (`sned` for `send`), as an insertion or a deletion is.
const distance = (a: string, b: string): number => {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}

// A typo of `word`: within an edit for a short word, two for a longer one (`--jsn`, `acounts`;
// not `--size` for `--wide`).
const near = (word: string, name: string) => distance(word, name) <= Math.max(1, Math.min(2, Math.floor(word.length / 3)))

const suggest = (name: string, flags: ReadonlyArray<Spec.Flag>): string => {
  const close = flags.filter((f) => near(name, f.name) || f.name.endsWith(`-${name}`) || name.endsWith(f.name))
  return close.length > 0 ? ` (did you mean ${list(close.map((f) => `--${f.name}`))}?)` : ""
}

// The commands a mistyped one may have meant: its typos, or those it begins (`acc`).
const suggestCommand = (word: string, commands: ReadonlyArray<string>): string => {
  const close = commands.filter((c) => near(word, c) || (word.length >= 3 && c.startsWith(word)))
  return close.length > 0 ? `did you mean ${list(close)}? ` : ""
}

/** The usage line of a word that is no command of `command`. */
const unknownCommand = (word: string, command: Spec.Command, commands: ReadonlyArray<string>) =>
  `unknown command ${JSON.stringify(word)} for ${display(command)} (${suggestCommand(word, commands)}commands: ${list(commands)})`

/**
 * How many words the option at `args[i]` takes when it comes before the rest of the command's
 * words: 1 for a switch or `--name=value`, 2 for `--name value`, 0 when it is no option of a
 * command below `command` (`--help`, `--version`), or one whose words could not be told from the
 * command's (a flag of many values, or one taking a value in one command and none in another).
 */
const leadingOption = (command: Spec.Command, args: ReadonlyArray<string>, i: number): number => {
  const arg = args[i]!
  if (!arg.startsWith("--") || arg === "--") return 0
  const eq = arg.indexOf("=")
  const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
  const defined = Spec.all(command).flatMap((c) => Spec.flags(c).filter((f) => f.name === name))
  if (defined.length === 0 || defined.some((f) => f.many === true)) return 0
  const takesValue = defined[0]!.value !== undefined
  if (defined.some((f) => (f.value !== undefined) !== takesValue)) return 0
  return takesValue && eq === -1 && args[i + 1] !== undefined && !args[i + 1]!.startsWith("--") ? 2 : 1
}

/**
 * Reads a command line (the arguments after the program's name) against the table. Options may
 * come before the command's words too: they are read as if written after them.
 *
 * @since 0.1.0
 * @category parsing
 */
export const read = (root: Spec.Command, args: ReadonlyArray<string>): Request => {
  let command = root
  let i = 0
  // Options written before the command's words (`kas-wallet --timeout 5s accounts get ...`),
  // read with the command's own once it is known. Once a command that runs is named, the line
  // is read as it always was.
  const leading: Array<string> = []
  for (; i < args.length; i++) {
    const taken = command.runs ? 0 : leadingOption(command, args, i)
    if (taken > 0) {
      leading.push(...args.slice(i, i + taken))
      i += taken - 1
      continue
    }
    const next = command.subcommands.find((c) => lastWord(c) === args[i])
    if (next === undefined) break
    command = next
  }
  const rest = [...leading, ...args.slice(i)]
  const end = rest.indexOf("--")
  const options = end === -1 ? rest : rest.slice(0, end)
  if (options.includes("--help") || options.includes("-h")) return { _tag: "Help", command }
  const usage = (message: string): Request => ({ _tag: "Usage", command, message })

  if (command === root) {
    if (rest.length === 0) return { _tag: "Help", command }
    if (rest.includes("--version")) {
      const other = rest.find((arg) => arg !== "--version" && arg !== "--json")
      if (other !== undefined) {
        return usage(other.startsWith("--json=") ? "--json takes no value" : `--version takes no other option than --json (got ${other.split("=")[0]})`)
      }
      return { _tag: "Version", json: rest.includes("--json") }
    }
    if (rest[0] === "--completions" || rest[0]?.startsWith("--completions=")) {
      const shell = rest[0] === "--completions" ? rest[1] : rest[0].slice("--completions=".length)
      if (shell === "bash" && rest.length === (rest[0] === "--completions" ? 2 : 1)) return { _tag: "Completions" }
      return usage(
        shell === undefined
          ? "--completions needs a shell: bash (zsh: run `autoload bashcompinit && bashcompinit` first)"
          : `--completions: only bash completions exist (got ${JSON.stringify(shell)}); zsh can load them after \`autoload bashcompinit && bashcompinit\``
      )
    }
  }
  const commands = command.subcommands.map(lastWord)
  if (!command.runs) {
    if (rest.length === 0) return { _tag: "Help", command }
    const first = rest[0]!
    return first.startsWith("-")
      ? usage(`unknown option ${first.split("=")[0]} for ${display(command)}: give a command first (${list(commands)})`)
      : usage(unknownCommand(first, command, commands))
  }

  const flags = Spec.flags(command)
  const given: Record<string, string | true | ReadonlyArray<string>> = {}
  const positionals: Array<string> = []
  for (let j = 0; j < rest.length; j++) {
    const arg = rest[j]!
    if (j === end) {
      positionals.push(...rest.slice(j + 1))
      break
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=")
      // Only the name: what follows `=` may be a secret.
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
      const flag = flags.find((f) => f.name === name)
      if (flag === undefined) return usage(`unknown option --${name} for ${display(command)}${suggest(name, flags)}`)
      // Own properties only: `--constructor` is a flag, not Object.prototype's.
      if (Object.hasOwn(given, name)) return usage(`--${name} is given twice`)
      if (flag.value === undefined) {
        if (eq !== -1) return usage(`--${name} takes no value`)
        given[name] = true
        continue
      }
      if (flag.many === true) {
        // Every word up to the next option (or `--`): values such as -5 are words, not options.
        const values = eq !== -1 && arg.length > eq + 1 ? [arg.slice(eq + 1)] : []
        while (j + 1 < rest.length && j + 1 !== end && !rest[j + 1]!.startsWith("--")) values.push(rest[++j]!)
        if (values.length === 0) return usage(`--${name} needs a value, e.g. ${flag.example}`)
        given[name] = values
        continue
      }
      if (eq !== -1) {
        if (arg.length === eq + 1) return usage(`--${name} needs a value, e.g. ${flag.example}`)
        given[name] = arg.slice(eq + 1)
        continue
      }
      const value = rest[j + 1]
      if (value === undefined || j + 1 === end || (value.startsWith("--") && flags.some((f) => value.split("=")[0] === `--${f.name}`))) {
        return usage(`--${name} needs a value, e.g. ${flag.example}`)
      }
      given[name] = value
      j++
      continue
    }
    if (arg.startsWith("-") && arg.length > 1) return usage(`unknown option ${arg} for ${display(command)}`)
    positionals.push(arg)
  }
  if (positionals.length > command.positionals.length) {
    const extra = positionals[command.positionals.length]!
    return commands.length > 0 && command.positionals.length === 0
      ? usage(unknownCommand(extra, command, commands))
      : usage(`unexpected argument ${JSON.stringify(extra)} for ${display(command)}`)
  }
  // An optional argument left out is absent from `positionals` (`Flags.positional` gives "").
  if (positionals.length < command.positionals.filter((p) => p.optional !== true).length) {
    const missing = command.positionals[positionals.length]!
    return usage(`${display(command)} needs <${missing.name}>: ${missing.description}`)
  }
  return { _tag: "Run", command, flags: given, positionals }
}

/**
 * The usage error's line, with where to read more.
 *
 * @since 0.1.0
 * @category rendering
 */
export const usageLine = (command: Spec.Command, message: string): string =>
  `kas-wallet: ${message}; see '${display(command)} --help'`
