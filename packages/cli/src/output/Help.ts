/**
 * `--help` texts and the bash completion script, rendered from the command table (`Spec`).
 *
 * No runtime dependency: `kas-wallet --help` answers without loading effect.
 *
 * @since 0.1.0
 */
import * as Argv from "../input/Argv.js"
import * as Spec from "../input/Spec.js"

/**
 * How to render: colours (bold headings and flags) and the width to wrap descriptions at.
 *
 * @since 0.1.0
 * @category models
 */
export interface Style {
  readonly color: boolean
  /** Columns to wrap at; `undefined` does not wrap (output that is not a terminal). */
  readonly width: number | undefined
}

/**
 * The style for a stream: colours only on a terminal, and never with `NO_COLOR` set (to anything
 * but the empty string) or `TERM=dumb`; wrapped at the terminal's width.
 *
 * @since 0.1.0
 * @category constructors
 */
export const styleFor = (
  stream: { readonly isTTY?: boolean | undefined; readonly columns?: number | undefined },
  env: Readonly<Record<string, string | undefined>>
): Style => {
  const tty = stream.isTTY === true
  const noColor = (env.NO_COLOR !== undefined && env.NO_COLOR !== "") || env.TERM === "dumb"
  return { color: tty && !noColor, width: tty ? Math.max(60, stream.columns ?? PipedWidth) : PipedWidth }
}

/**
 * The width of help that goes to a pipe or a file: the classic terminal's, which every pager and
 * editor shows without wrapping.
 *
 * @since 0.2.0
 * @category constants
 */
export const PipedWidth = 80

/**
 * Plain text at `PipedWidth` columns: what pipes and files get.
 *
 * @since 0.1.0
 * @category constants
 */
export const plain: Style = { color: false, width: PipedWidth }

const bold = (style: Style, s: string) => (style.color ? `\x1b[1m${s}\x1b[22m` : s)

/** `text` in lines of at most `width` columns, each after the first indented by `indent`. */
const wrap = (text: string, first: number, indent: number, width: number | undefined): Array<string> => {
  if (width === undefined || first + text.length <= width) return [text]
  const lines: Array<string> = []
  let line = ""
  let room = width - first
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > room) {
      lines.push(line)
      line = word
      room = width - indent
    } else {
      line = line === "" ? word : `${line} ${word}`
    }
  }
  lines.push(line)
  return lines.map((l, i) => (i === 0 ? l : `${" ".repeat(indent)}${l}`))
}

const flagLabel = (flag: Spec.Flag) =>
  `${flag.name === "help" ? "-h, " : ""}--${flag.name}${flag.value !== undefined ? ` ${flag.value}` : ""}${flag.secret === true ? " *" : ""}`

const upper = (name: string) => name.toUpperCase().replace(/-/g, "_")

/**
 * The prefix every flag of a group with a value reads from the environment (`KAS_EMULATOR_` for
 * `--port` and `KAS_EMULATOR_PORT`), when they all follow one; their variables then go in the
 * group's heading rather than on each line.
 */
const envPrefix = (group: Spec.Group): string | undefined => {
  const valued = group.flags.filter((f) => f.value !== undefined)
  const prefixes = new Set(valued.map((f) => (f.env?.endsWith(upper(f.name)) ? f.env.slice(0, -upper(f.name).length) : undefined)))
  const [prefix] = prefixes
  return valued.length >= 2 && prefixes.size === 1 && prefix !== undefined ? prefix : undefined
}

/** A flag's description and notes, with its example when that costs no extra line at `room` columns. */
const flagText = (flag: Spec.Flag, inlineEnv: boolean, room: number | undefined): string => {
  const notes = [
    ...(inlineEnv && flag.env !== undefined ? [`env ${flag.env}`] : []),
    ...(flag.default !== undefined ? [`default ${flag.default}`] : [])
  ]
  const example = flag.value !== undefined && flag.example.startsWith(`--${flag.name} `)
    ? flag.example.slice(flag.name.length + 3)
    : flag.example
  const text = `${flag.description}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`
  const withExample = `${text}. E.g. ${example}`
  if (room === undefined) return withExample
  return wrap(withExample, 0, 0, room).length <= wrap(text, 0, 0, room).length ? withExample : text
}

/** The "more flags" lines of a group: each flag's label and variable, run together (docs/cli.md has the rest). */
const moreFlags = (group: Spec.Group, prefix: string | undefined): string =>
  group.flags.map((f) =>
    // A label is not cut across lines: its spaces are non-breaking until the lines are made.
    `${flagLabel(f).replace(/ /g, "\u00a0")}${prefix === undefined && f.env !== undefined ? ` (${f.env})` : ""}`
  ).join(", ")

/** Where each secret flag's value is better given, for the footnote of the secret flags. */
const secretNote = (flags: ReadonlyArray<Spec.Flag>): string | undefined => {
  const secrets = flags.filter((f) => f.secret === true)
  if (secrets.length === 0) return undefined
  const ways = secrets.map((f) =>
    [f.env, f.alternative !== undefined ? `--${f.alternative}` : undefined].filter((w) => w !== undefined).join(" or ")
  )
  return `* A secret: any user can read command lines in the process list; prefer ${ways.join("; ")}.`
}

/** Two columns, labels then texts; a label too wide for the column gets a line of its own. */
const columns = (style: Style, rows: ReadonlyArray<readonly [string, string]>, column: number): Array<string> =>
  rows.flatMap(([label, text]) => {
    const indent = 2 + column + 2
    if (label.length > column) {
      return [`  ${bold(style, label)}`, ...wrap(text, indent, indent, style.width).map((l, i) => (i === 0 ? `${" ".repeat(indent)}${l}` : l))]
    }
    const [head, ...rest] = wrap(text, indent, indent, style.width)
    return [`  ${bold(style, label)}${" ".repeat(column - label.length + 2)}${head}`, ...rest]
  })

// Wider labels go on a line of their own.
const MaxColumn = 25

const name = (command: Spec.Command) => ["kas-wallet", ...command.path].join(" ")

const usage = (command: Spec.Command): string => {
  const positionals = command.positionals.map((p) => (p.optional === true ? ` [<${p.name}>]` : ` <${p.name}>`)).join("")
  if (command.subcommands.length > 0 && !command.runs) return `${name(command)} <command> [options]`
  if (command.subcommands.length > 0) return `${name(command)} [options], or ${name(command)} <command> [options]`
  return `${name(command)}${positionals} [options]`
}

const last = (command: Spec.Command) => command.path[command.path.length - 1]!

/**
 * The rows of a help's command list: each subcommand and its summary. The root lists each group
 * by the names of its commands instead, so that every command shows on a screen of help.
 */
const listed = (command: Spec.Command): ReadonlyArray<readonly [string, string]> =>
  command.subcommands.map((c) =>
    command.path.length === 0 && c.subcommands.length > 0
      ? [last(c), `${c.runs ? `${c.summary}; or ` : ""}${c.subcommands.map(last).join(" | ")}`] as const
      : [c.path.slice(command.path.length).join(" "), c.summary] as const
  )

/**
 * The help of a command.
 *
 * @since 0.1.0
 * @category rendering
 */
export const render = (command: Spec.Command, style: Style = plain): string => {
  const out: Array<string> = []
  const heading = (title: string) => out.push("", bold(style, `${title}:`))
  const labels = [
    ...command.positionals.map((p) => `<${p.name}>`),
    ...listed(command).map(([label]) => label),
    ...Spec.flags(command).map(flagLabel)
  ]
  const column = Math.min(Math.max(0, ...labels.map((l) => l.length)), MaxColumn)
  out.push(`${bold(style, "Usage:")} ${usage(command)}`, "")
  // One paragraph, wrapped here: the table's lines are only where its source breaks.
  out.push(...wrap(command.description.join(" "), 0, 0, style.width))
  if (command.positionals.length > 0) {
    heading("Arguments")
    out.push(...columns(style, command.positionals.map((p) => [`<${p.name}>`, p.description] as const), column))
  }
  if (command.subcommands.length > 0) {
    heading(`Commands (${name(command)} <command> --help for theirs)`)
    out.push(...columns(style, listed(command), column))
  }
  const room = style.width === undefined ? undefined : style.width - (2 + column + 2)
  for (const group of command.groups) {
    if (group.flags.length === 0) continue
    const prefix = envPrefix(group)
    heading(`${group.title}${prefix !== undefined ? ` (env ${prefix}<FLAG>)` : ""}${group.more === true ? "; more in docs/cli.md" : ""}`)
    if (group.more === true) {
      out.push(...wrap(moreFlags(group, prefix), 2, 2, style.width).map((l, i) => `${i === 0 ? "  " : ""}${l.replace(/\u00a0/g, " ")}`))
    }
    else out.push(...columns(style, group.flags.map((f) => [flagLabel(f), flagText(f, prefix === undefined, room)] as const), column))
  }
  const secrets = secretNote(Spec.flags(command))
  if (secrets !== undefined) out.push(...wrap(secrets, 0, 0, style.width))
  heading("Examples")
  for (const example of command.examples) out.push(`  ${example}`)
  if (command.path.length === 0 || command.path[0] === "accounts" || command.path[0] === "tx") {
    out.push("", ...wrap(Spec.exitCodes, 0, 0, style.width))
  }
  return `${out.join("\n")}\n`
}

/**
 * The help of the root: its version, then `render`.
 *
 * @since 0.1.0
 * @category rendering
 */
export const renderRoot = (root: Spec.Command, version: string, style: Style = plain): string =>
  `kas-wallet ${version}: ${root.summary}\n\n${render(root, style)}`

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/**
 * The bash completion script: subcommands where a command name may come, the flags of the command
 * typed so far, the choices of a flag's value (chains) and file names for path flags.
 *
 * @since 0.1.0
 * @category rendering
 */
export const bashCompletions = (root: Spec.Command): string => {
  const commands = (function collect(c: Spec.Command): ReadonlyArray<Spec.Command> {
    return [c, ...c.subcommands.flatMap(collect)]
  })(root)
  const key = (c: Spec.Command) => quote(c.path.join(" "))
  const subcommandCases = commands.flatMap((c) =>
    c.subcommands.map((s) => `    ${quote(`${c.path.join(" ")}|${s.path[s.path.length - 1]}`)}) return 0 ;;`)
  )
  const valueCases: Array<string> = []
  for (const c of commands) {
    const flags = c.groups.flatMap((g) => g.flags)
    for (const f of flags) {
      if (f.value === undefined) continue
      const k = quote(`${c.path.join(" ")}|--${f.name}`)
      const reply = f.choices !== undefined
        ? `COMPREPLY=($(compgen -W ${quote(f.choices.join(" "))} -- "$cur"))`
        : f.files === true
        ? `COMPREPLY=($(compgen -f -- "$cur"))`
        : "COMPREPLY=()"
      valueCases.push(`    ${k}) ${reply}; return ;;`)
    }
  }
  const wordCases = commands.map((c) => {
    const flags = c.groups.flatMap((g) => g.flags).map((f) => `--${f.name}`)
    const subs = c.subcommands.map((s) => s.path[s.path.length - 1]!)
    const help = c.path.length === 0 ? [] : ["--help"]
    return `    ${key(c)}) subs=${quote(subs.join(" "))}; flags=${quote([...flags, ...help].join(" "))} ;;`
  })
  return [
    "# bash completion for kas-wallet. Load it with: source <(kas-wallet --completions bash)",
    "_kas_wallet_is_command() {",
    "  case \"$1|$2\" in",
    ...subcommandCases,
    "  esac",
    "  return 1",
    "}",
    "_kas_wallet() {",
    "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\" path=\"\" more=1 i subs=\"\" flags=\"\"",
    "  for ((i = 1; i < COMP_CWORD; i++)); do",
    "    if [[ $more == 1 ]] && _kas_wallet_is_command \"$path\" \"${COMP_WORDS[i]}\"; then",
    "      path=\"${path:+$path }${COMP_WORDS[i]}\"",
    "    else",
    "      more=0",
    "    fi",
    "  done",
    "  (( COMP_CWORD > 1 )) && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
    "  case \"$path|$prev\" in",
    ...valueCases,
    "  esac",
    "  case \"$path\" in",
    ...wordCases,
    "  esac",
    "  if [[ $more == 1 && -n $subs && $cur != -* ]]; then",
    "    COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))",
    "  else",
    "    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))",
    "  fi",
    "}",
    "complete -F _kas_wallet kas-wallet",
    ""
  ].join("\n")
}

/**
 * What `kas-wallet` prints for a request it answers without running a command (help, version,
 * completions, a usage error), and its exit code; `undefined` for a command to run.
 *
 * @since 0.1.0
 * @category rendering
 */
export const answer = (
  root: Spec.Command,
  request: Argv.Request,
  version: string,
  style: Style
): { readonly stdout: string; readonly stderr: string; readonly code: number } | undefined => {
  switch (request._tag) {
    case "Help":
      return {
        stdout: request.command === root ? renderRoot(root, version, style) : render(request.command, style),
        stderr: "",
        code: 0
      }
    case "Version":
      return { stdout: request.json ? `${JSON.stringify({ version })}\n` : `${version}\n`, stderr: "", code: 0 }
    case "Completions":
      return { stdout: bashCompletions(root), stderr: "", code: 0 }
    case "Usage":
      return { stdout: "", stderr: `${Argv.usageLine(request.command, request.message)}\n`, code: 2 }
    case "Run":
      return undefined
  }
}
