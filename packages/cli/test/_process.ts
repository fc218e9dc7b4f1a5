/**
 * Runs the built `kas-wallet` (`node packages/cli/dist/kas-wallet.js`, built once by test/setup/dist.ts) as a child
 * process for the process tests: start, wait for `listening on`, signal, collect output.
 */
import { beforeAll } from "@effect/vitest"
import { Deferred, Duration, Effect, type Scope } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { awaitDist, cliBin } from "../../../test/setup/dist.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

/** The built executable. */
export const bin = cliBin

// The global setup builds dist/ in the background: wait for it before this file's tests.
beforeAll(() => awaitDist(), 180_000)

// Without --data-dir, the emulator would keep its data in the user's home: point the default at a
// throwaway directory.
const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "kas-cli-home-"))

/** The environment of a child: this one's PATH, no KAS_* variable of the user, and `extra`. */
export const childEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  HOME: sandbox,
  XDG_DATA_HOME: path.join(sandbox, "data"),
  ...extra
})

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
  runCommand(process.execPath, [bin, ...args], env)

/** Runs a command to completion: its exit code and output. */
export const runCommand = (command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.async<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resume) => {
    const child = spawn(command, args, { cwd: root, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] })
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
      Effect.sync(() => spawn(process.execPath, [bin, "emulator", ...args], { cwd: root, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] })),
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
    // Only a bound against a hang: readiness is the `listening on` line.
    const url = yield* Deferred.await(listening).pipe(
      Effect.timeoutFail({ duration: Duration.seconds(60), onTimeout: () => new Error(`emulator did not start:\n${stdout}\n${stderr}`) })
    )
    return { child, url, stdout: () => stdout, stderr: () => stderr, exited: Deferred.await(exit) }
  })
