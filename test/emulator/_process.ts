/**
 * Runs `kas-wallet emulator` as a child process (through tsx, as in development) for the process
 * tests: start, wait for `listening on`, signal, collect output.
 */
import { Deferred, Duration, Effect, type Scope } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

/** A running emulator process. */
export interface Running {
  readonly child: ChildProcess
  readonly url: string
  /** Everything written to stdout / stderr so far. */
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves with the exit code (or the signal name) when the process ends. */
  readonly exited: Effect.Effect<number | string>
}

/** Runs `kas-wallet <args>` to completion: its exit code and output. */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.async<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resume) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
  })

/**
 * Starts `kas-wallet emulator <args>` and waits for its `listening on` line. The process is killed
 * (SIGKILL) when the scope closes, if still running.
 */
export const start = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Effect.Effect<Running, Error, Scope.Scope> =>
  Effect.gen(function*() {
    const listening = yield* Deferred.make<string, Error>()
    const exit = yield* Deferred.make<number | string>()
    let stdout = ""
    let stderr = ""
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "emulator", ...args], {
          cwd: root,
          env: { ...process.env, ...env },
          stdio: ["ignore", "pipe", "pipe"]
        })
      ),
      (child) => Effect.sync(() => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"))
    )
    child.stdout!.on("data", (d) => {
      stdout += d
      const match = /^listening on (http:\/\/\S+)$/m.exec(stdout)
      if (match !== null) Deferred.unsafeDone(listening, Effect.succeed(match[1]!))
    })
    child.stderr!.on("data", (d) => (stderr += d))
    child.on("exit", (code, signal) => {
      Deferred.unsafeDone(exit, Effect.succeed(code ?? signal ?? "unknown"))
      Deferred.unsafeDone(listening, Effect.fail(new Error(`emulator exited (${code ?? signal}) before listening:\n${stdout}\n${stderr}`)))
    })
    const url = yield* Deferred.await(listening).pipe(
      Effect.timeoutFail({ duration: Duration.seconds(40), onTimeout: () => new Error(`emulator did not start:\n${stdout}\n${stderr}`) })
    )
    return { child, url, stdout: () => stdout, stderr: () => stderr, exited: Deferred.await(exit) }
  })
