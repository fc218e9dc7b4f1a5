/**
 * What users install: the root entry point bundles for the browser without any Node built-in, the
 * tarball holds only what users need, and the built CLI works as a child process.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { build } from "esbuild"
import { execFile, execFileSync } from "node:child_process"
import { builtinModules } from "node:module"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Emulator from "../src/emulator/Emulator.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))

describe("the root entry point runs outside Node", () => {
  it.effect("bundles for the browser with no Node built-in, no emulator and no CLI", () =>
    Effect.gen(function*() {
      const offending: Array<string> = []
      const result = yield* Effect.promise(() =>
        build({
          entryPoints: [`${root}/src/index.ts`],
          bundle: true,
          platform: "browser",
          format: "esm",
          write: false,
          metafile: true,
          logLevel: "silent",
          plugins: [{
            name: "no-node-builtins",
            setup(b) {
              b.onResolve({ filter: /.*/ }, (args) => {
                if (builtins.has(args.path) || args.path.startsWith("node:")) {
                  offending.push(`${args.path} (from ${args.importer})`)
                  return { path: args.path, external: true }
                }
                return undefined
              })
            }
          }]
        })
      )
      expect(offending).toEqual([])
      const inputs = Object.keys(result.metafile.inputs)
      expect(inputs.some((p) => p.includes("src/emulator/"))).toBe(false)
      expect(inputs.some((p) => p.includes("src/cli/"))).toBe(false)
      expect(inputs.some((p) => p.includes("@effect/platform-node") || p.includes("@effect/sql") || p.includes("@noble/curves"))).toBe(false)
      expect(inputs.some((p) => p.endsWith("src/WalletClient.ts"))).toBe(true)
      // and the bundle evaluates without Node globals other than the web platform's
      const code = result.outputFiles[0]!.text
      expect(code).not.toMatch(/\brequire\(["']node:/)
      const mod = yield* Effect.promise(() => import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`))
      expect(typeof mod.WalletClient.layer).toBe("function")
      expect(mod.Address.isValid("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toBe(true)
    }), 60_000)
})

// npm pack runs the `prepack` build: the CLI group below reuses it.
let built = false
const pack = () => {
  built = true
  return JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as Array<{
    files: Array<{ path: string }>
  }>
}

describe("the published package", () => {
  it("npm pack ships the build, the sources, README and docs, and nothing else", () => {
    const files = pack()[0]!.files.map((f) => f.path).sort()
    expect(files).toContain("package.json")
    expect(files).toContain("README.md")
    expect(files).toContain("LICENSE")
    expect(files).toContain("dist/index.js")
    expect(files).toContain("dist/index.d.ts")
    expect(files).toContain("dist/emulator/index.js")
    expect(files).toContain("dist/emulator/index.d.ts")
    expect(files).toContain("dist/cli/bin.js")
    expect(files).toContain("docs/client.md")
    const unexpected = files.filter((f) =>
      !(f === "package.json" || f === "README.md" || f === "LICENSE" || f.startsWith("dist/") || f.startsWith("src/") || /^docs\/[^/]+\.md$/.test(f))
    )
    expect(unexpected).toEqual([])
    expect(files.some((f) => f.startsWith("test/") || f.startsWith(".ci/") || f.includes("node_modules") || f.startsWith("docs/api/"))).toBe(false)
    expect(files).not.toContain("src/tsconfig.json")
  }, 120_000)

  it("exports map: root and ./emulator with types, the kas-wallet bin", () => {
    const pkg = JSON.parse(execFileSync("cat", [`${root}/package.json`], { encoding: "utf8" }))
    expect(pkg.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" })
    expect(pkg.exports["./emulator"]).toEqual({ types: "./dist/emulator/index.d.ts", import: "./dist/emulator/index.js" })
    expect(pkg.bin["kas-wallet"]).toBe("dist/cli/bin.js")
    expect(pkg.sideEffects).toBe(false)
    expect(pkg.type).toBe("module")
  })

  it("effect and @effect/platform are peers (one copy in an application), and every dependency is imported", () => {
    const pkg = JSON.parse(execFileSync("cat", [`${root}/package.json`], { encoding: "utf8" }))
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(["@effect/platform", "effect"])
    expect(pkg.dependencies.effect).toBeUndefined()
    expect(pkg.dependencies["@effect/platform"]).toBeUndefined()
    expect(pkg.license).toBe("MIT")
    const sources = execFileSync("grep", ["-rhoE", "from \"(@[a-z0-9-]+/[a-z0-9-]+|[a-z0-9-]+)", `${root}/src`], { encoding: "utf8" })
    for (const dependency of Object.keys(pkg.dependencies)) expect(sources, dependency).toContain(`from "${dependency}`)
  })
})

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const cli = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<Run> =>
  new Promise((resolve) => {
    execFile(process.execPath, [`${root}/dist/cli/bin.js`, ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
      encoding: "utf8"
    }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : (error as { code?: number }).code ?? 1, stdout, stderr })
    })
  })

describe("the built CLI as a child process, against an emulator on port 0", () => {
  it.scoped("create, get, list --all --json, and exit codes per error class", () =>
    Effect.gen(function*() {
      if (!built || !existsSync(`${root}/dist/cli/bin.js`)) pack() // builds dist/
      const emulator = yield* Emulator.make({ port: 0 })
      const env = {
        KAS_ACCESS_KEY_ID: emulator.member.accessKeyId,
        KAS_SECRET_ACCESS_KEY: Redacted.value(emulator.member.secretAccessKey),
        KAS_WALLET_URL: emulator.url
      }
      const run = (...args: Array<string>) => Effect.promise(() => cli(args, env))

      const created = yield* run("accounts", "create", "--json")
      expect(created.code).toBe(0)
      const account = JSON.parse(created.stdout) as { address: string; krn: string }
      expect(account.address).toMatch(/^0x[0-9a-fA-F]{40}$/)

      const got = yield* run("accounts", "get", account.address.toLowerCase(), "--json")
      expect(got.code).toBe(0)
      expect(JSON.parse(got.stdout).address).toBe(account.address)

      yield* run("accounts", "create")
      const listed = yield* run("accounts", "list", "--all", "--json", "--size", "1")
      expect(listed.code).toBe(0)
      const lines = listed.stdout.trim().split("\n").map((l) => JSON.parse(l) as { address: string })
      expect(lines).toHaveLength(2)
      expect(lines.map((l) => l.address)).toContain(account.address)

      const table = yield* run("accounts", "list")
      expect(table.code).toBe(0)
      expect(table.stdout).toContain("ADDRESS")
      expect(table.stdout).toContain(account.address)

      const notFound = yield* run("accounts", "get", `0x${"12".repeat(20)}`)
      expect(notFound.code).toBe(4)
      expect(notFound.stderr).toContain("AccountNotFound")
      expect(notFound.stderr.trim().split("\n").length).toBeLessThanOrEqual(2)

      const invalid = yield* run("accounts", "get", "0x1234")
      expect(invalid.code).toBe(2)
      const badSize = yield* run("accounts", "list", "--size", "0")
      expect(badSize.code).toBe(2)
      const usage = yield* run("accounts", "list", "--from", "yesterday")
      expect(usage.code).toBe(2)

      const wrong = yield* Effect.promise(() => cli(["accounts", "list", "--verbose"], { ...env, KAS_SECRET_ACCESS_KEY: "wrong-secret-value" }))
      expect(wrong.code).toBe(3)
      expect(wrong.stderr).toContain("Unauthorized")
      expect(wrong.stderr).not.toContain("wrong-secret-value")
      expect(wrong.stderr).toContain("authorization: <redacted>")

      const transport = yield* Effect.promise(() => cli(["accounts", "list"], { ...env, KAS_WALLET_URL: "http://127.0.0.1:9" }))
      expect(transport.code).toBe(7)

      const none = yield* Effect.promise(() => cli(["accounts", "list"], {}))
      expect(none.code).toBe(2)
      expect(none.stderr).toContain("kas-wallet emulator")

      for (const output of [created, got, listed, table, notFound, invalid]) {
        expect(output.stdout + output.stderr).not.toContain(env.KAS_SECRET_ACCESS_KEY)
      }
    }), 120_000)
})
