/**
 * What users install: the root entry point bundles for the browser without any Node built-in, the
 * tarball holds only what users need, and the built CLI works as a child process.
 *
 * dist/ is built once per run by test/setup/dist.ts: the JavaScript of `npm run build`, by esbuild.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { awaitDist } from "./setup/dist.js"
import { Effect, Redacted } from "effect"
import { build } from "esbuild"
import { execFile, execFileSync } from "node:child_process"
import { builtinModules } from "node:module"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
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
      // Evaluated in a process of its own: a second copy of effect loaded into this one would share
      // effect's global registry with the test files that run after this one.
      const dir = mkdtempSync(join(tmpdir(), "kas-bundle-"))
      writeFileSync(join(dir, "bundle.mjs"), code)
      const probe = `const mod = await import(${JSON.stringify(join(dir, "bundle.mjs"))});` +
        `console.log(typeof mod.WalletClient.layer, mod.Address.isValid("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"))`
      const out = execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" })
      rmSync(dir, { recursive: true, force: true })
      expect(out.trim()).toBe("function true")
    }), 60_000)
})



const pack = () => {
  if (!existsSync(`${root}/dist/index.js`)) throw new Error("dist/ is missing: run the tests with vitest (its global setup builds it)")
  // The build is test/setup/dist.ts's: npm's `prepack` would build again.
  return JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"]
    })
  ) as Array<{ files: Array<{ path: string }> }>
}

// The global setup builds dist/ in the background: wait for it before this file's tests.
beforeAll(() => awaitDist(), 180_000)

describe("the published package", () => {
  it("npm pack ships the build, the sources, README and docs, and nothing else", () => {
    const files = pack()[0]!.files.map((f) => f.path).sort()
    expect(files).toContain("package.json")
    expect(files).toContain("README.md")
    expect(files).toContain("LICENSE")
    expect(files).toContain("dist/index.js")
    expect(files).toContain("dist/emulator/index.js")
    expect(files).toContain("dist/cli/bin.js")
    expect(files).toContain("docs/client.md")
    expect(files).toContain("docs/cli.md")
    const unexpected = files.filter((f) =>
      !(f === "package.json" || f === "README.md" || f === "LICENSE" || f.startsWith("dist/") || f.startsWith("src/") || /^docs\/[^/]+\.md$/.test(f))
    )
    expect(unexpected).toEqual([])
    expect(files.some((f) => f.startsWith("test/") || f.startsWith(".ci/") || f.includes("node_modules") || f.startsWith("docs/api/"))).toBe(false)
    expect(files).not.toContain("src/tsconfig.json")
    // Every module of the build comes from a source: nothing stale is shipped.
    const sources = new Set(files.filter((f) => f.startsWith("src/") && f.endsWith(".ts")).map((f) => f.slice(4, -3)))
    expect(files.filter((f) => f.startsWith("dist/") && f.endsWith(".js")).filter((f) => !sources.has(f.slice(5, -3)))).toEqual([])
  }, 60_000)

  it("exports map: root and ./emulator with types, the kas-wallet bin", () => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, "utf8"))
    // The types the map names are the real build's (`prepack`: tsc -p src), which the test build
    // leaves out (test/setup/dist.ts): its configuration must emit them next to the JavaScript.
    const build = JSON.parse(readFileSync(`${root}/src/tsconfig.json`, "utf8").replace(/^\s*\/\/.*$/gm, ""))
    expect(build.compilerOptions).toMatchObject({ declaration: true, outDir: "../dist", rootDir: "." })
    expect(pkg.scripts.prepack).toBe("npm run build")
    expect(pkg.scripts.build).toBe("tsc -p src")
    expect(pkg.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" })
    expect(pkg.exports["./emulator"]).toEqual({ types: "./dist/emulator/index.d.ts", import: "./dist/emulator/index.js" })
    expect(pkg.bin["kas-wallet"]).toBe("dist/cli/bin.js")
    expect(readFileSync(`${root}/dist/cli/bin.js`, "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/)
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

describe("the built CLI as a child process", () => {
  it.effect("--version and --help answer from the build, without colour when piped", () =>
    Effect.gen(function*() {
      const version = yield* Effect.promise(() => cli(["--version"], {}))
      expect(version).toEqual({ code: 0, stdout: `${JSON.parse(readFileSync(`${root}/package.json`, "utf8")).version}\n`, stderr: "" })
      const help = yield* Effect.promise(() => cli(["accounts", "list", "--help"], { TERM: "xterm-256color" }))
      expect(help.code).toBe(0)
      expect(help.stdout).toMatch(/^Usage: kas-wallet accounts list \[options\]$/m)
      expect(help.stdout).not.toContain("\x1b[")
      expect(help.stdout.trimEnd().split("\n").length).toBeLessThanOrEqual(40)
      const usage = yield* Effect.promise(() => cli(["accounts", "list", "--siz", "3"], {}))
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

      const created = yield* run("accounts", "create", "--json")
      expect(created.code, created.stderr).toBe(0)
      const account = JSON.parse(created.stdout) as { address: string; krn: string }
      expect(account.address).toMatch(/^0x[0-9a-fA-F]{40}$/)

      // Listing, and the other exit codes, are tested in process (test/cli/): here, that a failure's
      // exit code is the process's.
      const notFound = yield* run("accounts", "get", `0x${"12".repeat(20)}`)
      expect(notFound.code).toBe(4)
      expect(notFound.stderr).toMatch(/^kas-wallet: no account 0x(12){20} in the default pool on chain 1001 .*\n$/)
      for (const output of [created, notFound]) {
        expect(output.stdout + output.stderr).not.toContain(env.KAS_SECRET_ACCESS_KEY)
      }
    }), 60_000)
})
