/**
 * The `kas-wallet` executable users install: its bundle (built once per run by test/setup/dist.ts,
 * as packages/cli/build.ts makes it) run as a child process.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { Emulator } from "effect-kas-wallet-emulator"
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { awaitDist, cliBin } from "../../../test/setup/dist.js"

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))

// The global setup builds the bundle in the background: wait for it before this file's tests.
beforeAll(() => awaitDist(), 180_000)

describe("the package", () => {
  it("the kas-wallet bin is the bundle, an executable script", () => {
    expect(manifest.bin["kas-wallet"]).toBe("dist/kas-wallet.js")
    expect(readFileSync(cliBin, "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/)
  })
})

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const cli = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<Run> =>
  new Promise((resolve) => {
    execFile(process.execPath, [cliBin, ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
      encoding: "utf8"
    }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : (error as { code?: number }).code ?? 1, stdout, stderr })
    })
  })

describe("the built CLI as a child process", () => {
  it.effect("--version and --help answer from the build, without colour when piped", () =>
    Effect.gen(function*() {
      // Three processes at once: each only waits for its own.
      const [version, help, usage] = yield* Effect.promise(() =>
        Promise.all([cli(["--version"], {}), cli(["accounts", "list", "--help"], { TERM: "xterm-256color" }), cli(["accounts", "list", "--siz", "3"], {})])
      )
      expect(version).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" })
      expect(help.code).toBe(0)
      expect(help.stdout).toMatch(/^Usage: kas-wallet accounts list \[options\]$/m)
      expect(help.stdout).not.toContain("\x1b[")
      expect(help.stdout.trimEnd().split("\n").length).toBeLessThanOrEqual(40)
      expect(usage.code).toBe(2)
      expect(usage.stderr).toBe("kas-wallet: unknown option --siz for kas-wallet accounts list; see 'kas-wallet accounts list --help'\n")
    }))

  it.scoped("create against an emulator, and an exit code", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.make({ port: 0 })
      const env = {
        KAS_ACCESS_KEY_ID: emulator.member.accessKeyId,
        KAS_SECRET_ACCESS_KEY: Redacted.value(emulator.member.secretAccessKey),
        KAS_WALLET_URL: emulator.url
      }
      const run = (...args: Array<string>) => Effect.promise(() => cli(args, env))

      // Listing, and the other exit codes, are tested in process (test/cli/): here, that a failure's
      // exit code is the process's. Both at once: neither needs the other.
      const [created, notFound] = yield* Effect.all([run("accounts", "create", "--json"), run("accounts", "get", `0x${"12".repeat(20)}`)], {
        concurrency: 2
      })
      expect(created.code, created.stderr).toBe(0)
      const account = JSON.parse(created.stdout) as { address: string; krn: string }
      expect(account.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
      expect(notFound.code).toBe(4)
      expect(notFound.stderr).toMatch(/^kas-wallet: no account 0x(12){20} in the default pool on chain 1001 .*\n$/)
      for (const output of [created, notFound]) {
        expect(output.stdout + output.stderr).not.toContain(env.KAS_SECRET_ACCESS_KEY)
      }
    }), 60_000)
})
