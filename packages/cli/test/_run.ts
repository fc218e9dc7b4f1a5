/**
 * Runs `kas-wallet` in process, as tests do: the lines it prints, its exit code, with a given
 * environment (never the tester's own KAS_* variables or home) and terminal.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { ConfigProvider, Console, Effect, Layer, Redacted } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { run } from "../src/main.js"
import * as Output from "../src/output/Output.js"
import { Emulator } from "effect-kas-wallet-emulator"

// Where the emulator's default data directory goes in these runs, rather than the tester's home.
const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "kas-cli-home-"))

/** What a run printed, and its exit code. */
export interface Ran {
  readonly code: number
  readonly out: string
  readonly err: string
}

/** The terminal a run sees, and where its progress writes go. */
export interface Terminal {
  readonly stdoutIsTerminal?: boolean
  readonly stderrIsTerminal?: boolean
  readonly progress?: Array<string>
}

/** A Console that hands each line printed on stdout and stderr to `out` and `err`. */
export const capturing = (out: (line: string) => void, err: (line: string) => void) =>
  Effect.map(Effect.console, (base): Console.Console => ({
    ...base,
    log: (...args) => Effect.sync(() => out(args.join(" "))),
    error: (...args) => Effect.sync(() => err(args.join(" ")))
  }))

/**
 * `kas-wallet <args>` as an effect succeeding with its exit code, with `env` as its whole
 * environment, printing through `console`.
 */
export const running = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  console: Console.Console,
  terminal: Terminal = {}
) =>
  run(args).pipe(
    Console.withConsole(console),
    Effect.provide(
      Layer.merge(
        NodeContext.layer,
        Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries({ HOME: sandbox, XDG_DATA_HOME: sandbox, ...env }))))
      )
    ),
    Effect.provideService(Output.Terminal, {
      stdoutIsTerminal: terminal.stdoutIsTerminal ?? false,
      stderrIsTerminal: terminal.stderrIsTerminal ?? false,
      writeProgress: (text) => void terminal.progress?.push(text)
    })
  )

/** Runs `kas-wallet <args>` to its end with `env` as its whole environment: its exit code and output. */
export const cli = (args: ReadonlyArray<string>, env: Record<string, string> = {}, terminal: Terminal = {}) =>
  Effect.gen(function*() {
    const out: Array<string> = []
    const err: Array<string> = []
    const code = yield* running(args, env, yield* capturing((l) => out.push(l), (l) => err.push(l)), terminal)
    return { code, out: out.join("\n"), err: err.join("\n") } satisfies Ran
  })

/**
 * An emulator in the scope (a temporary database unless `database` is given) and the `KAS_*`
 * settings that point `kas-wallet` at it with its member's key; `secret` is what no output may hold.
 */
export const cliEmulator = (options: { readonly database?: string; readonly mining?: "instant" | "interval" | "manual" } = {}) =>
  Effect.gen(function*() {
    const e = yield* Emulator.make({ port: 0, ...options })
    const secret = Redacted.value(e.member.secretAccessKey)
    const env = {
      KAS_WALLET_URL: e.url,
      KAS_ACCESS_KEY_ID: e.member.accessKeyId,
      KAS_SECRET_ACCESS_KEY: secret,
      // A `--wait` under the TestClock moves the clock while real requests are in flight: on a
      // loaded machine it would reach a request's own timeout (10 s, 30 s) before the request ends.
      KAS_TIMEOUT: "1 hour"
    }
    return { emulator: e, env, secret }
  })
