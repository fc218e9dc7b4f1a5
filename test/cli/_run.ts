/**
 * Runs `kas-wallet` in process, as tests do: the lines it prints, its exit code, with a given
 * environment (never the tester's own KAS_* variables) and terminal.
 */
import { NodeContext } from "@effect/platform-node"
import { vi } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { run } from "../../src/cli/main.js"
import * as Output from "../../src/cli/Output.js"

// Where the emulator's default data directory goes in these runs, rather than the tester's home.
const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "kas-cli-home-"))

/** What a run printed, and its exit code. */
export interface Ran {
  readonly code: number
  readonly out: string
  readonly err: string
}

/** Progress writes of the last runs with a terminal of `terminal`. */
export interface Terminal {
  readonly stdoutIsTerminal?: boolean
  readonly stderrIsTerminal?: boolean
  readonly progress?: Array<string>
}

/**
 * Runs `kas-wallet <args>` with `env` as its whole environment. Console output is captured (the
 * spies are removed after the run).
 */
export const cli = (args: ReadonlyArray<string>, env: Record<string, string> = {}, terminal: Terminal = {}) =>
  Effect.gen(function*() {
    const out: Array<string> = []
    const err: Array<string> = []
    const log = vi.spyOn(console, "log").mockImplementation((...a: Array<unknown>) => void out.push(a.join(" ")))
    const error = vi.spyOn(console, "error").mockImplementation((...a: Array<unknown>) => void err.push(a.join(" ")))
    const code = yield* run(args).pipe(
      Effect.provide(Layer.merge(NodeContext.layer, Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries({ HOME: sandbox, XDG_DATA_HOME: sandbox, ...env })))))),
      Effect.provideService(Output.Terminal, {
        stdoutIsTerminal: terminal.stdoutIsTerminal ?? false,
        stderrIsTerminal: terminal.stderrIsTerminal ?? false,
        writeProgress: (text) => void terminal.progress?.push(text)
      }),
      Effect.ensuring(Effect.sync(() => {
        log.mockRestore()
        error.mockRestore()
      }))
    )
    return { code, out: out.join("\n"), err: err.join("\n") } satisfies Ran
  })
