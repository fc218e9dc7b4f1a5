/**
 * The command table and what is derived from it: `--help` (readable, short, colour only on a
 * terminal), the one reading of a command line (`Argv`), the bash completions, and a handler for
 * every command.
 */
import { describe, expect, it } from "@effect/vitest"
import { expectTypeOf, onTestFinished } from "vitest"
import { Effect } from "effect"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Argv from "../src/input/Argv.js"
import { ExitCode } from "../src/output/ExitCode.js"
import * as Help from "../src/output/Help.js"
import * as Value from "../src/input/Value.js"
import { WalletConfig } from "effect-kas-wallet"
import type * as AccountsSpec from "../src/commands/accounts/Spec.js"
import type * as EmulatorSpec from "../src/commands/emulator/Spec.js"
import * as Shared from "../src/commands/shared/Spec.js"
import * as Tree from "../src/commands/Spec.js"
import { modules } from "../src/main.js"
import * as Spec from "../src/input/Spec.js"
import { EmulatorConfig, Faults } from "effect-kas-wallet-emulator"
import { version } from "../src/version.js"

const root = Tree.tree(EmulatorConfig.fields)
const commands = Spec.all(root)

/**
 * The environment variable an unwrapped help text names for `--flag`: in the flag's own line
 * ("env X"), beside it in a run of flags ("--flag VALUE (X)"), or by its group's heading
 * ("(env PREFIX<FLAG>)"); `undefined` when it names none.
 */
const envShown = (help: string, flag: string): string | undefined => {
  let prefix: string | undefined
  const label = new RegExp(`(?:^  |, )--${flag}(?: [^ ,(]+)?(?: \\*)?(?: \\(([A-Z0-9_]+)\\))?(?=,|  |$)`)
  for (const line of help.split("\n")) {
    // A heading (or a paragraph) starts at the margin: the flags below it take its prefix, if any.
    if (!line.startsWith("  ")) {
      if (line !== "") prefix = /\(env ([A-Z0-9_]+)<FLAG>\)/.exec(line)?.[1]
      continue
    }
    const found = label.exec(line)
    if (found === null) continue
    const own = found[1] ?? /\(env ([A-Z0-9_]+)[;)]/.exec(line.slice(found.index + found[0].length))?.[1]
    return own ?? (prefix !== undefined ? `${prefix}${flag.toUpperCase().replace(/-/g, "_")}` : undefined)
  }
  return undefined
}

const helpOf = (command: Spec.Command, style: Help.Style = Help.plain) =>
  command === root ? Help.renderRoot(root, version, style) : Help.render(command, style)

/** The words of a command line as a shell splits them (double quotes only), up to a comment or redirection. */
const words = (line: string): Array<string> => {
  const out: Array<string> = []
  for (const m of line.matchAll(/"([^"]*)"|(\S+)/g)) {
    const word = m[1] ?? m[2]!
    if (m[2] !== undefined && ["#", ">", "|", "&&"].includes(word)) break
    out.push(word)
  }
  return out
}

/** A command's examples, each a whole command line: a line ending in ` \\` goes on with the next. */
const examples = (command: Spec.Command): Array<string> =>
  command.examples.reduce<Array<string>>((lines, line) => {
    const previous = lines[lines.length - 1]
    if (previous?.endsWith(" \\")) lines[lines.length - 1] = `${previous.slice(0, -2)} ${line.trim()}`
    else lines.push(line)
    return lines
  }, [])

describe("--help", () => {
  it("every command's help has its full usage, fits one screen (40 lines at 80 columns) and has no colour when piped", () => {
    for (const command of commands) {
      const text = helpOf(command, Help.styleFor({ isTTY: false }, {}))
      for (const line of text.split("\n")) expect(line.length, `${command.path.join(" ")}: ${line}`).toBeLessThanOrEqual(80)
      const name = ["kas-wallet", ...command.path].join(" ")
      expect(text, name).toContain(`Usage: ${name}`)
      expect(text.trimEnd().split("\n").length, name).toBeLessThanOrEqual(40)
      expect(text, name).not.toContain("\x1b")
      expect(text, name).not.toMatch(/\S {30,}\S/)
    }
  })

  it("the top level lists the commands, not the emulator's options", () => {
    // A row wrapped at 80 columns, as one line.
    const text = helpOf(root).replace(/\n {3,}/g, " ")
    expect(text.startsWith(`kas-wallet ${version}: `)).toBe(true)
    // Each group on one line, by the names of its commands.
    expect(text).toMatch(/^  accounts +create \| get \| list \| count \| by-public-key \| disable \| enable \| delete \| multisig \| register$/m)
    expect(text).toMatch(/^  migrate +bring existing Klaytn accounts under KAS custody/m)
    expect(text).toMatch(/^  tx +send \| deploy \| execute \| relay \| cancel \| anchor \| update-key \| call \| receipt \| sign$/m)
    expect(text).toMatch(/^  emulator +run a local emulator.*; or env \| member \| key \| pool \| fund \| balance \| bill \| mine \| snapshot \| revert \| time$/m)
    expect(text).toMatch(/^  keys +create \| list \| get \| delete \| sign$/m)
    expect(text).toMatch(/^  history +list \| get$/m)
    expect(text).toMatch(/^  tour +a guided tour/m)
    expect(text).not.toContain("--fault-rate")
    expect(text).not.toContain("--db")
    expect(text).toContain("-h, --help")
    expect(text).toContain("Exit codes: 0 ok, 1 unexpected, 2 invalid argument")
  })

  it("every command and flag has a description and an example; every example is a valid command line", () => {
    for (const command of commands) {
      const name = ["kas-wallet", ...command.path].join(" ")
      expect(command.summary.length, name).toBeGreaterThan(10)
      expect(command.description.join(" ").length, name).toBeGreaterThan(20)
      expect(command.examples.length, name).toBeGreaterThan(0)
      for (const flag of Spec.flags(command)) {
        expect(flag.description.length, `${name} --${flag.name}`).toBeGreaterThan(5)
        expect(flag.example, `${name} --${flag.name}`).toContain(`--${flag.name}`)
        // The example, after the command, is read as it: a command to run, never a usage error.
        const own = /kas-wallet ([^)]*)/.exec(flag.example)
        const line = own !== null ? words(own[1]!) : [
          ...command.path,
          ...command.positionals.map(() => "0xa809284c83b901ed106aba4ccda14628af128e14"),
          ...words(flag.example)
        ]
        expect(Argv.read(root, line)._tag, `${name}: ${flag.example}`).not.toBe("Usage")
      }
      for (const example of examples(command).filter((e) => e.startsWith("kas-wallet "))) {
        expect(Argv.read(root, words(example).slice(1))._tag, example).toBe("Run")
      }
    }
  })

  it("the emulator's help lists every option of EmulatorConfig's table, with its variable", () => {
    const text = helpOf(Spec.find(root, ["emulator"]))
    const unwrapped = helpOf(Spec.find(root, ["emulator"]), { color: false, width: undefined })
    for (const field of Object.values(EmulatorConfig.fields)) {
      expect(text).toContain(`--${field.flag} ${field.value}`)
      // The variable the help names is the one the emulator reads.
      expect(envShown(unwrapped, field.flag), `--${field.flag}`).toBe(field.env)
    }
    for (const kind of Faults.Kinds) expect(EmulatorConfig.fields.faultKinds.description).toContain(kind)
    expect(text).toMatch(/^\* A secret: [\s\S]*prefer\s[\s\S]*KAS_SECRET_ACCESS_KEY\s+or\s+--secret-access-key-file/m)
  })

  it("colour only on a terminal, never with NO_COLOR or TERM=dumb", () => {
    expect(Help.styleFor({ isTTY: true, columns: 100 }, {})).toEqual({ color: true, width: 100 })
    expect(Help.styleFor({ isTTY: true }, { NO_COLOR: "1" }).color).toBe(false)
    expect(Help.styleFor({ isTTY: true }, { NO_COLOR: "" }).color).toBe(true)
    expect(Help.styleFor({ isTTY: true }, { TERM: "dumb" }).color).toBe(false)
    expect(Help.styleFor({ isTTY: false }, {})).toEqual({ color: false, width: 80 })
    expect(Help.styleFor({}, {})).toEqual(Help.plain)
    expect(helpOf(root, { color: true, width: 100 })).toContain("\x1b[1mUsage:\x1b[22m")
    for (const command of commands) {
      for (const line of helpOf(command, { color: false, width: 80 }).split("\n")) expect(line.length, line).toBeLessThanOrEqual(80)
    }
  })

  it("the help names the route a command calls, from the table of operations, placeholders as the command's arguments", () => {
    const helpOfPath = (...path: Array<string>) => helpOf(Spec.find(root, path)).replace(/\n/g, " ")
    expect(helpOfPath("accounts", "multisig", "sign")).toContain("(POST /v2/multisig/account/<signer>/tx/<transaction-id>/sign)")
    expect(helpOfPath("tx", "receipt")).toContain("(GET /v2/tx/<hash>)")
    expect(helpOfPath("tx", "send")).toContain("(POST /v2/tx/value, /v2/tx/fd/value or /v2/tx/fd-user/value)")
    for (const command of commands) expect(helpOf(command), command.path.join(" ")).not.toMatch(/\{[a-z-]+\}/)
  })

  it("the exit codes of the help are ExitCode's", () => {
    const listed = Object.fromEntries([...Spec.exitCodes.matchAll(/(\d) ([a-z ]+?)[,.]/g)].map((m) => [Number(m[1]), m[2]]))
    expect(Object.keys(listed).map(Number).sort()).toEqual(Object.values(ExitCode).sort())
  })
})

describe("docs/cli.md", () => {
  it("every command line it shows is one the table reads as a command or a help", () => {
    const doc = fs.readFileSync(new URL("../docs/cli.md", import.meta.url), "utf8")
    const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!)
    const lines = blocks.flatMap((b) => b.split("\n")).flatMap((l) => [...l.matchAll(/kas-wallet ([^;&|)"]*)/g)].map((m) => m[1]!))
    expect(lines.length).toBeGreaterThan(8)
    for (const line of lines) expect(Argv.read(root, words(line))._tag, line).not.toBe("Usage")
  })
})

describe("reading a command line against the table", () => {
  const read = (line: string) => Argv.read(root, line === "" ? [] : line.split(" "))
  const usage = (line: string) => {
    const r = read(line)
    return r._tag === "Usage" ? Argv.usageLine(r.command, r.message) : r._tag
  }

  it("help, version and completions are answered from the table", () => {
    expect(read("")).toEqual({ _tag: "Help", command: root })
    expect(read("accounts")).toEqual({ _tag: "Help", command: Spec.find(root, ["accounts"]) })
    expect(read("accounts list --page-size 5 --help")).toEqual({ _tag: "Help", command: Spec.find(root, ["accounts", "list"]) })
    expect(read("emulator member -h")).toEqual({ _tag: "Help", command: Spec.find(root, ["emulator", "member"]) })
    expect(read("--version")).toEqual({ _tag: "Version", json: false })
    // --version takes --json, on either side; any other option is named.
    expect(read("--version --json")).toEqual({ _tag: "Version", json: true })
    expect(read("--json --version")).toEqual({ _tag: "Version", json: true })
    expect(Help.answer(root, read("--version --json"), version, Help.plain)).toEqual({ stdout: `${JSON.stringify({ version })}\n`, stderr: "", code: 0 })
    expect(usage("--version --wide")).toBe("kas-wallet: --version takes no other option than --json (got --wide); see 'kas-wallet --help'")
    expect(usage("--version --json=1")).toBe("kas-wallet: --json takes no value; see 'kas-wallet --help'")
    expect(read("--completions bash")._tag).toBe("Completions")
    expect(read("--completions=bash")._tag).toBe("Completions")
    expect(read("emulator")._tag).toBe("Run")
  })

  it("usage errors name the flag or command, in one line", () => {
    expect(usage("accounts list --siz 3")).toBe("kas-wallet: unknown option --siz for kas-wallet accounts list; see 'kas-wallet accounts list --help'")
    expect(usage("accounts list --size=3")).toContain("unknown option --size for kas-wallet accounts list (did you mean --page-size?)")
    expect(usage("accounts list --secret-acess-key=hunter2")).not.toContain("hunter2")
    expect(usage("accounts list --cursor")).toBe(
      "kas-wallet: --cursor needs a value, e.g. --cursor eyJhZGRyZXNzIjoi...; see 'kas-wallet accounts list --help'"
    )
    expect(usage("accounts list --cursor --json")).toContain("--cursor needs a value")
    expect(usage("accounts list --json --json")).toContain("--json is given twice")
    expect(usage("accounts list --json=yes")).toContain("--json takes no value")
    expect(usage("accounts get")).toContain("kas-wallet accounts get needs <address>: 0x followed by 40 hex digits")
    expect(usage("accounts get 0x1 0x2")).toContain("unexpected argument \"0x2\" for kas-wallet accounts get")
    expect(usage("accounts lst")).toContain(
      "unknown command \"lst\" for kas-wallet accounts (did you mean list? commands: create, get, list, count, by-public-key, disable, enable, delete, multisig or register)"
    )
    expect(usage("fee-payers lst")).toContain("unknown command \"lst\" for kas-wallet fee-payers (did you mean list? commands: create, get, list or delete)")
    // A mistyped command, as a mistyped flag, gets what it may have meant; a word far from every
    // command gets the list alone.
    expect(usage("acounts list")).toBe(
      "kas-wallet: unknown command \"acounts\" for kas-wallet (did you mean accounts? commands: accounts, fee-payers, tx, keys, history, migrate, emulator or tour); see 'kas-wallet --help'"
    )
    expect(usage("emulator membr list")).toContain("unknown command \"membr\" for kas-wallet emulator (did you mean member? commands:")
    expect(usage("tx snd")).toContain("(did you mean send? commands:")
    // Two letters swapped are one edit, for commands and flags alike.
    expect(usage("tx sned")).toContain("unknown command \"sned\" for kas-wallet tx (did you mean send? commands:")
    expect(usage("accuonts list")).toContain("(did you mean accounts? commands:")
    expect(usage("accounts list --jsno")).toContain("unknown option --jsno for kas-wallet accounts list (did you mean --json?)")
    expect(usage("accounts frobnicate")).toContain("unknown command \"frobnicate\" for kas-wallet accounts (commands:")
    expect(usage("fee-payers get")).toContain("kas-wallet fee-payers get needs <address>: 0x followed by 40 hex digits")
    expect(usage("accounts by-public-key")).toContain("kas-wallet accounts by-public-key needs <public-key>")
    expect(usage("keys lst")).toContain("unknown command \"lst\" for kas-wallet keys (did you mean list? commands: create, list, get, delete or sign)")
    expect(usage("keys sign 0xab")).toContain("kas-wallet keys sign needs <hash>: 0x followed by 64 hex digits (32 bytes)")
    expect(usage("keys list --pool x")).toContain("unknown option --pool for kas-wallet keys list")
    expect(usage("history list --to 5")).toContain("unknown option --to for kas-wallet history list")
    expect(usage("fee-payers list --pool x")).toContain("unknown option --pool for kas-wallet fee-payers list (did you mean --fee-payer-pool?)")
    expect(usage("accounts --json")).toContain("unknown option --json for kas-wallet accounts: give a command first")
    expect(usage("emulator serve")).toContain("unknown command \"serve\" for kas-wallet emulator (commands: env, member, key, pool, fund, balance, bill, mine, snapshot, revert or time)")
    expect(usage("accounts list --version")).toContain("unknown option --version")
    expect(usage("accounts list -x")).toContain("unknown option -x")
    expect(usage("--completions zsh")).toContain("only bash completions exist")
    expect(read("accounts list --from -5")._tag).toBe("Run")
  })

  it("options may come before the command's words, read as the command's own", () => {
    const address = "0xa809284c83b901ed106aba4ccda14628af128e14"
    expect(Argv.read(root, ["--timeout", "5s", "accounts", "get", address])).toEqual(
      Argv.read(root, ["accounts", "get", address, "--timeout", "5s"])
    )
    expect(Argv.read(root, ["--timeout=5s", "--json", "accounts", "--chain", "8217", "get", address])).toMatchObject({
      _tag: "Run",
      command: Spec.find(root, ["accounts", "get"]),
      flags: { timeout: "5s", json: true, chain: "8217" },
      positionals: [address]
    })
    expect(read("--timeout 5s accounts get --help")).toEqual({ _tag: "Help", command: Spec.find(root, ["accounts", "get"]) })
    // Still the command's: one it does not take is refused by name, as after the words.
    expect(usage("--timeout 5s emulator")).toBe("kas-wallet: unknown option --timeout for kas-wallet emulator (did you mean --evm-timeout?); see 'kas-wallet emulator --help'")
    expect(usage("--timeout 5s accounts get 0x1 --timeout 6s")).toContain("--timeout is given twice")
    expect(usage("--timeout 5s")).toContain("unknown option --timeout for kas-wallet: give a command first")
    // Not an option of any command: left for the top level's reading.
    expect(usage("--jsno accounts list")).toContain("unknown option --jsno for kas-wallet: give a command first")
  })

  it("a flag that takes many values (--args, --event) takes every word up to the next option", () => {
    const words = ["tx", "execute", "--method", "f(int256,string,uint8[])", "--args", "-5", "two words", "[1,2]", "--wait", "--from", "0xab"]
    expect(Argv.read(root, words)).toMatchObject({ _tag: "Run", flags: { args: ["-5", "two words", "[1,2]"], wait: true, from: "0xab" } })
    expect(Argv.read(root, ["tx", "call", "--args=1", "2"])).toMatchObject({ _tag: "Run", flags: { args: ["1", "2"] } })
    expect(Argv.read(root, ["tx", "call", "--args", ""])).toMatchObject({ _tag: "Run", flags: { args: [""] } })
    expect(usage("tx call --args --json")).toBe("kas-wallet: --args needs a value, e.g. --args 0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa 1000; see 'kas-wallet tx call --help'")
    expect(usage("tx call --args")).toContain("--args needs a value")
    expect(usage("tx call --args 1 --args 2")).toContain("--args is given twice")
    // `--` ends the values: what follows are arguments, and tx call takes none.
    expect(usage("tx call --args 1 -- 2")).toContain("unexpected argument \"2\" for kas-wallet tx call")
    // A typo after the values is still an unknown option, not a value.
    expect(usage("tx call --args 1 --jsn")).toContain("unknown option --jsn for kas-wallet tx call (did you mean --json?)")
  })
})

describe("the table and the commands", () => {
  it("--chain is accepted wherever a chain is chosen", () => {
    for (const command of commands) {
      const names = Spec.flags(command).map((f) => f.name)
      if (names.some((n) => n.startsWith("chain"))) expect(names, command.path.join(" ")).toContain("chain")
    }
  })

  it("no example invites a unit-less amount: every --value and <amount> of the table and docs/cli.md has its unit", () => {
    const doc = fs.readFileSync(new URL("../docs/cli.md", import.meta.url), "utf8")
    const lines = [
      ...commands.flatMap((c) => [...examples(c), ...Spec.flags(c).map((f) => f.example)]),
      ...doc.split("\n").filter((l) => l.includes("kas-wallet "))
    ]
    const amounts = lines.flatMap((l) => [
      ...[...l.matchAll(/--value (\S+)/g)].map((m) => m[1]!),
      ...[...l.matchAll(/emulator fund \S+ (\S+)/g)].map((m) => m[1]!)
    ]).filter((a) => !a.startsWith("AMOUNT") && !a.startsWith("<"))
    expect(amounts.length).toBeGreaterThan(5)
    for (const amount of amounts) expect(Value.parseAmount(amount)._tag, amount).toBe("Right")
  })

  it("the connection flags read the client's variables, WalletConfig.EnvironmentVariables", () => {
    const S = Shared.flags
    const connection = [S.url, S.chain, S.pool, S.feePayerPool, S.keyPool, S.accessKeyId, S.secretAccessKey, S.nodeUrl, S.timeout]
    expect(connection.map((f) => f.env).sort()).toEqual(Object.values(WalletConfig.EnvironmentVariables).sort())
    // Every flag of the table that reads one of them is one of these.
    const names = new Set<string>(Object.values(WalletConfig.EnvironmentVariables))
    for (const command of commands) {
      for (const flag of Spec.flags(command).filter((f) => f.env !== undefined && names.has(f.env))) {
        expect(connection.some((c) => c.name === flag.name && c.env === flag.env), `${command.path.join(" ")} --${flag.name}`).toBe(true)
      }
    }
  })

  it.effect("every command of the table that runs has its handler, and every handler its command", () =>
    Effect.gen(function*() {
      const runs = commands.filter((c) => c.runs && c.path.length > 0).map((c) => c.path.join(" ")).sort()
      const handled: Array<string> = []
      for (const [top, load] of Object.entries(modules)) {
        const { handlers } = yield* Effect.promise(load)
        for (const name of Object.keys(handlers)) handled.push(name === "" ? top : `${top} ${name}`)
      }
      expect(handled.sort()).toEqual(runs)
    }))

  it("the handler maps are typed by the table: each group's commands by their words, never any string", () => {
    // Checked by the type checker (npm run typecheck): a spec whose words lost their literal types
    // would let a handler map miss a command, or hold one the table does not have.
    expectTypeOf<keyof typeof modules>().toEqualTypeOf<Tree.TopLevel["path"][0]>()
    expectTypeOf<Tree.TopLevel["path"][0]>().toEqualTypeOf<"accounts" | "fee-payers" | "tx" | "keys" | "history" | "migrate" | "emulator" | "tour">()
    type Widened = { readonly [C in Tree.TopLevel as C["path"][0]]: string extends Spec.Verb<C> ? C["path"][0] : never }
    expectTypeOf<Widened[keyof Widened]>().toEqualTypeOf<never>()
    expectTypeOf<Spec.Verb<typeof AccountsSpec.spec>>().toEqualTypeOf<
      | "create" | "get" | "list" | "count" | "by-public-key" | "disable" | "enable" | "delete" | "register"
      | "multisig update" | "multisig pending" | "multisig sign" | "multisig append"
    >()
    expectTypeOf<Spec.Verb<ReturnType<typeof EmulatorSpec.spec>>>().toEqualTypeOf<
      | "" | "env" | "member create" | "member list" | "key create" | "key list" | "key delete" | "pool create" | "pool list"
      | "fund" | "balance" | "bill" | "mine" | "snapshot" | "revert" | "time"
    >()
  })

  it("a command to run gets its flags' values and its arguments from the one reading", () => {
    const read = Argv.read(root, ["accounts", "list", "--page-size=5", "--cursor", "c", "--all", "--", "--json"])
    expect(read._tag).toBe("Usage")
    const run = Argv.read(root, ["tx", "receipt", "--wait", "0xab", "--url", "http://x"])
    expect(run).toMatchObject({ _tag: "Run", flags: { wait: true, url: "http://x" }, positionals: ["0xab"] })
    const list = Argv.read(root, ["accounts", "list", "--page-size=5", "--all"])
    expect(list).toMatchObject({ _tag: "Run", flags: { "page-size": "5", all: true }, positionals: [] })
  })
})

describe("bash completions", () => {
  const bash = spawnSync("bash", ["--version"]).status === 0
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kas-completion-")), "kas-wallet.bash")
  fs.writeFileSync(script, Help.bashCompletions(root))
  /**
   * One bash for the test, the script sourced once (a bash for each completion took 40-60 ms to
   * start and source): each completion runs in a subshell of its own, so none sees what another
   * set. What a completion writes on stderr comes back marked, and fails it.
   */
  const shell = () => {
    const child = spawn("bash", [], { stdio: ["pipe", "pipe", "pipe"] })
    const end = "\u0000end\n"
    let out = ""
    let err = ""
    const waiting: Array<(text: string) => void> = []
    child.stdout.setEncoding("utf8")
    child.stderr.setEncoding("utf8")
    child.stdout.on("data", (data: string) => {
      out += data
      for (let at = out.indexOf(end); at >= 0; at = out.indexOf(end)) {
        waiting.shift()!(out.slice(0, at))
        out = out.slice(at + end.length)
      }
    })
    child.stderr.on("data", (data: string) => (err += data))
    const exited = new Promise<number | null>((resolve) =>
      child.on("close", (code) => {
        for (const answer of waiting.splice(0)) answer(`\u0001bash exited (${code}): ${err}`)
        resolve(code)
      })
    )
    child.stdin.write(`source '${script}'\n`)
    return {
      /** What bash offers after `line` (the last word, possibly empty, is being completed). */
      complete: (line: string) => {
        const typed = line.split(" ")
        const answer = new Promise<Array<string>>((resolve) =>
          waiting.push((text) => {
            const lines = text.split("\n").filter((w) => w !== "")
            expect(lines.filter((l) => l.startsWith("\u0001")), `stderr of ${JSON.stringify(line)}`).toEqual([])
            resolve(lines.sort())
          })
        )
        const words = `COMP_WORDS=(${typed.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${typed.length - 1}`
        // The subshell's stdout goes to fd 3 (bash's stdout); its stderr is kept, then written with
        // each line marked (bash builtins only: no process started but the subshells).
        child.stdin.write(
          `{ e=$( { ( ${words}; _kas_wallet; printf '%s\\n' "\${COMPREPLY[@]}" ) 1>&3 3>&-; } 2>&1 ); } 3>&1; ` +
            `[ -n "$e" ] && printf '\\001%s\\n' "\${e//$'\\n'/$'\\n\\001'}"; printf '\\0end\\n'\n`
        )
        return answer
      },
      /** Ends the shell: its exit code and what it wrote on stderr outside the completions. */
      close: () => {
        child.stdin.end()
        return exited.then((code) => ({ code, stderr: err }))
      },
      kill: () => void child.kill()
    }
  }

  it.runIf(bash)("complete commands where a command comes, then the flags of the command typed, and flag values", async () => {
    const { close, complete, kill } = shell()
    onTestFinished(kill)
    expect(await complete("kas-wallet ")).toEqual(["accounts", "emulator", "fee-payers", "history", "keys", "migrate", "tour", "tx"])
    expect(await complete("kas-wallet keys ")).toEqual(["create", "delete", "get", "list", "sign"])
    expect(await complete("kas-wallet history ")).toEqual(["get", "list"])
    expect(await complete("kas-wallet keys list --k")).toEqual(["--key-pool", "--krn"])
    expect(await complete("kas-wallet --")).toEqual(["--completions", "--help", "--version"])
    expect(await complete("kas-wallet accounts ")).toEqual(["by-public-key", "count", "create", "delete", "disable", "enable", "get", "list", "multisig", "register"])
    expect(await complete("kas-wallet fee-payers ")).toEqual(["create", "delete", "get", "list"])
    expect(await complete("kas-wallet accounts list --status ")).toEqual(["all", "corrupted", "disabled", "enabled"])
    expect(await complete("kas-wallet accounts l")).toEqual(["list"])
    const list = await complete("kas-wallet accounts list --")
    expect(list).toEqual([...Spec.flags(Spec.find(root, ["accounts", "list"])).map((f) => `--${f.name}`), "--help"].sort())
    expect(await complete("kas-wallet accounts list --pa")).toEqual(["--page-size"])
    expect(await complete("kas-wallet accounts list --chain ")).toEqual(["1001", "8217"])
    expect(await complete("kas-wallet accounts list --page-size ")).toEqual([])
    expect(await complete("kas-wallet emulator ")).toEqual(["balance", "bill", "env", "fund", "key", "member", "mine", "pool", "revert", "snapshot", "time"])
    expect(await complete("kas-wallet tx ")).toEqual(["anchor", "call", "cancel", "deploy", "execute", "receipt", "relay", "send", "sign", "update-key"])
    expect(await complete("kas-wallet tx deploy --bytecode-f")).toEqual(["--bytecode-file"])
    expect(await complete("kas-wallet emulator --fault-r")).toEqual(["--fault-rate", "--fault-retry-after"])
    // After a flag, the command is settled: its flags, never its subcommands.
    const afterFlag = await complete("kas-wallet emulator --port 0 ")
    expect(afterFlag).toContain("--host")
    expect(afterFlag).not.toContain("member")
    expect(await complete("kas-wallet emulator --port 0 --e")).toEqual(["--ephemeral", "--evm-gas-cap", "--evm-timeout", "--evm-workers"])
    expect(await complete("kas-wallet emulator pool create --chain-id ")).toEqual(["1001", "8217"])
    expect(await complete("kas-wallet emulator member ")).toEqual(["create", "list"])
    expect(await complete(`kas-wallet emulator --data-dir ${path.dirname(script)}/kas`)).toEqual([script])
    expect(await close()).toEqual({ code: 0, stderr: "" })
  })
})
