/**
 * What users of the client install: the root entry point bundles for the browser without any Node
 * built-in, the tarball holds only what users need, and the package depends on nothing but what
 * the client runs.
 *
 * dist/ is built once per run by test/setup/dist.ts: the JavaScript of `npm run build`, by esbuild.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { awaitDist } from "./setup/dist.js"
import { measureWith } from "./support/bundle.js"
import { Effect } from "effect"
import type { Plugin } from "esbuild"
import { execFileSync } from "node:child_process"
import { builtinModules } from "node:module"
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))
// The import paths that name a built-in, for esbuild's filter: only these reach the plugin (a
// plugin seeing every import costs a round trip to JavaScript for each of thousands).
const builtinPaths = new RegExp(`^(?:node:.*|${builtinModules.map((m) => m.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})$`)

// The browser check of the root entry and the size gate, from one esbuild run (effect and the
// platform are read and parsed once for both; each output is still its entry's bundle alone).
// A Node built-in is recorded with the module importing it, and left external.
const offending: Array<{ readonly path: string; readonly importer: string }> = []
const noNodeBuiltins: Plugin = {
  name: "no-node-builtins",
  setup(b) {
    b.onResolve({ filter: builtinPaths }, (args) => {
      if (builtins.has(args.path) || args.path.startsWith("node:")) {
        offending.push({ path: args.path, importer: args.importer })
        return { path: args.path, external: true }
      }
      return undefined
    })
  }
}
let bundled: ReturnType<typeof measureWith<"baseline" | "streams" | "client">> | undefined
// The Klaytn codec (with @noble/curves) is imported on the first signed result, in a chunk of its
// own (measureWith keeps such chunks apart): not part of what loads with the client.
const bundles = () => (bundled ??= measureWith(["baseline", "streams", "client"], [`${root}/src/index.ts`], [noNodeBuiltins]))

describe("the root entry point runs outside Node", () => {
  it.effect("bundles for the browser with no Node built-in, no emulator and no CLI", () =>
    Effect.gen(function*() {
      const { others: [rootEntry] } = yield* Effect.promise(bundles)
      const inputs = rootEntry!.inputs
      // No built-in anywhere in the run: the root entry's modules, and the size gate's entries
      // (effect and the platform as an application's browser bundle has them).
      expect(offending).toEqual([])
      expect(inputs.some((p) => p.includes("packages/"))).toBe(false)
      expect(inputs.some((p) => p.includes("@effect/platform-node") || p.includes("@effect/sql") || p.includes("@noble/curves"))).toBe(false)
      expect(inputs.some((p) => p.endsWith("src/WalletClient.ts"))).toBe(true)
      // and the bundle evaluates without Node globals other than the web platform's
      const code = rootEntry!.text
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



describe("the browser bundle of an application using the client", () => {
  it.effect("adds at most 143 KB to the effect modules its API needs (the Klaytn codec and the large-body parser apart, loaded on first use), and no fast-check of its own", () =>
    Effect.gen(function*() {
      const { sizes } = yield* Effect.promise(bundles)
      // The client's own code, @noble/hashes and the effect modules only it uses (docs/benchmarks.md):
      // 79 KB before contracts, whose kinds, bodies and call-argument checks may add at most 10 KB
      // (issue 18; 9 KB measured). The ABI coder is the opt-in entry's, not in this bundle.
      // Issue 19 (five more kinds and their bodies, account keys, result verification,
      // sendReliably) may add at most 18 KB more (17.7 KB measured); the Klaytn codec the results
      // are verified with (48 KB with its curve) loads on the first signed result, apart.
      // Issue 20's key service (the Key schemas, seven operations, the key pool option) may add at
      // most 5 KB more (4.9 KB measured: 109.9 KB). The fee-delegation history (FeeHistory's schemas,
      // four operations) 2.8 KB more: 112.7 KB measured. Multisig accounts (the Multisig schemas,
      // seven operations, the update's checks and verification) 5.6 KB more: 118.3 KB measured.
      // Registration and migration (Registration's schemas, registerAccounts, migrateAccounts'
      // entry, the node setting, the check of a registered sender's signature) 4.2 KB more; the
      // migration itself (its checks, the node's JSON-RPC, the signing) is a chunk loaded on the
      // first migration, with the codec.
      // The fast decoders of the history and of the pending multisig listing (issue 20's streaming
      // target: with the schemas, decoding a page took most of what read-ahead gains) 4.1 KB more:
      // 126.9 KB measured with all of issue 20 (and issue 22's status read in any case).
      // Issue 21's timeout (one forked fiber and a plain timer on the live clock, `timeoutFail`
      // under any other clock) 0.4 KB more, its read-ahead on demand (a fiber per page allowed by
      // the consumer's pulls, the item streams' halved pages) 0.6 KB more: 127.9 KB measured. Its
      // large bodies read as bytes and parsed in pieces (the memory of a long stream: 1.1 GB at
      // its peak for a million accounts, 0.37 GB after) 0.5 KB more, the parser (2.1 KB) loading
      // on the first body over 64 KB, apart: 128.4 KB measured. Spans and page fibers that end
      // on no page (a page they held was promoted with them, ~0.5 ms of collection a page) 0.25 KB
      // more: 128.7 KB measured. Issue 32's operation table, the one description of the wire the
      // client's requests are built from (each operation's name, method and path, the service's
      // operation id and documented codes, the schemas of the query and path values and of the
      // bodies the service reads) 9.5 KB, the client's own request code 1.7 KB less than when it
      // spelt each request out: 136.0 KB measured (an HttpApi of the same operations: docs/design.md).
      // Issue 32's cleanup of repeated code 1.7 KB less: 135.1 KB. Issue 33: no credential in a
      // span's exit (0.7 KB), each operation's own body limit (0.2 KB), reliable sends of one sender
      // in one lane (0.5 KB, and 1.2 KB of effect's Semaphore), the timeouts (a deadline per call,
      // a shorter first attempt for reads, errors that say which operation, attempt and limit
      // timed out, KAS_TIMEOUT's durations; 2.3 KB): 140.7 KB measured. Issue 34's typed refusals
      // (RefusalReason's six reasons and the one classifier of the node's words, NodeRefusal,
      // PoolNotFound) 1.5 KB: 142.2 KB measured.
      expect(sizes.client.raw - sizes.streams.raw).toBeLessThanOrEqual(143 * 1024)
      // The only fast-check is what effect's Schema module imports: the same in the baseline.
      expect(sizes.client.fastCheck).toBeLessThanOrEqual(sizes.baseline.fastCheck + 512)
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
    expect(files).toContain("docs/client.md")
    const unexpected = files.filter((f) =>
      !(f === "package.json" || f === "README.md" || f === "LICENSE" || f.startsWith("dist/") || f.startsWith("src/") || /^docs\/[^/]+\.md$/.test(f))
    )
    expect(unexpected).toEqual([])
    expect(files.some((f) => f.startsWith("test/") || f.startsWith("packages/") || f.startsWith(".ci/") || f.includes("node_modules") || f.startsWith("docs/api/"))).toBe(false)
    expect(files).not.toContain("src/tsconfig.json")
    // Every module of the build comes from a source: nothing stale is shipped.
    const sources = new Set(files.filter((f) => f.startsWith("src/") && f.endsWith(".ts")).map((f) => f.slice(4, -3)))
    const module = (f: string) => f.replace(/^dist\/(cjs\/)?/, "").slice(0, -3)
    expect(files.filter((f) => f.startsWith("dist/") && f.endsWith(".js")).filter((f) => !sources.has(module(f)))).toEqual([])
    // Both builds, each module in each.
    expect(files).toContain("dist/cjs/index.js")
    expect(files).toContain("dist/cjs/package.json")
    expect(files.filter((f) => f.startsWith("dist/") && !f.startsWith("dist/cjs/") && f.endsWith(".js")).length).toBe(files.filter((f) => f.startsWith("dist/cjs/") && f.endsWith(".js")).length)
  }, 60_000)

  it("exports map: the root entry, the wire contract, the opt-in ABI layer, the Klaytn codec and the operation table, as ES modules and CommonJS with their types, and no bin", () => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, "utf8"))
    // The types the map names are the real build's (`prepack`: tsc -p src), which the test build
    // leaves out (test/setup/dist.ts): its configuration must emit them next to the JavaScript.
    const build = JSON.parse(readFileSync(`${root}/src/tsconfig.json`, "utf8").replace(/^\s*\/\/.*$/gm, ""))
    expect(build.compilerOptions).toMatchObject({ declaration: true, outDir: "../dist", rootDir: "." })
    // build.ts: `tsc -p src`, then the CommonJS build and its copy of the declarations.
    expect(pkg.scripts.prepack).toBe("tsx build.ts")
    const both = (module: string) => ({
      import: { types: `./dist/${module}.d.ts`, default: `./dist/${module}.js` },
      require: { types: `./dist/cjs/${module}.d.ts`, default: `./dist/cjs/${module}.js` }
    })
    expect(pkg.exports).toEqual({
      ".": both("index"),
      "./Wire": both("Wire"),
      "./Abi": both("Abi"),
      "./Klaytn": both("Klaytn"),
      "./WalletApi": both("api/WalletApi"),
      "./Endpoint": both("api/Endpoint"),
      "./Refusal": both("api/Refusal"),
      "./package.json": "./package.json"
    })
    expect(pkg.main).toBe("./dist/cjs/index.js")
    expect(pkg.bin).toBeUndefined()
    expect(pkg.sideEffects).toBe(false)
    expect(pkg.type).toBe("module")
  })

  it("effect and @effect/platform are peers (one copy in an application), ox an optional one (the ABI entry), and every dependency is imported", () => {
    const pkg = JSON.parse(execFileSync("cat", [`${root}/package.json`], { encoding: "utf8" }))
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(["@effect/platform", "effect", "ox"])
    expect(pkg.peerDependenciesMeta).toEqual({ ox: { optional: true } })
    expect(pkg.dependencies.effect).toBeUndefined()
    expect(pkg.dependencies["@effect/platform"]).toBeUndefined()
    expect(pkg.license).toBe("MIT")
    const sources = execFileSync("grep", ["-rhoE", "from \"(@[a-z0-9-]+/[a-z0-9-]+|[a-z0-9-]+)", `${root}/src`], { encoding: "utf8" })
    for (const dependency of Object.keys(pkg.dependencies)) expect(sources, dependency).toContain(`from "${dependency}`)
    // ...and nothing else: the client imports only its peers, its dependencies and itself.
    const allowed = new Set([pkg.name, ...Object.keys(pkg.peerDependencies), ...Object.keys(pkg.dependencies)])
    const imported = new Set(sources.split("\n").filter((line) => line !== "").map((line) => line.slice("from \"".length)))
    expect([...imported].filter((name) => !allowed.has(name))).toEqual([])
  })
})

// An application as npm 11's `npm init -y` makes it: `"type": "commonjs"`, its code `require`s.
// The packages are linked as `file:` dependencies would be (a link to the folder).
const cjsApp = `
const { Effect, Layer, Redacted } = require("effect")
const { FetchHttpClient } = require("@effect/platform")
const { ChainId, WalletClient } = require("effect-kas-wallet")
const Wire = require("effect-kas-wallet/Wire")

const Wallet = WalletClient.layer({
  credentials: { accessKeyId: "KASKCJS", secretAccessKey: Redacted.make("not a secret") },
  chainId: ChainId.Testnet,
  baseUrl: process.argv[2]
}).pipe(Layer.provide(FetchHttpClient.layer))

WalletClient.getAccount("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed").pipe(
  Effect.flip,
  Effect.provide(Wallet),
  Effect.runPromise
).then(async (error) => {
  const esm = await import("effect-kas-wallet")
  console.log(JSON.stringify({
    tag: error._tag,
    code: error.code,
    resolved: require.resolve("effect-kas-wallet").slice(${JSON.stringify(root.length)}),
    wire: typeof Wire.txPath,
    esm: typeof esm.WalletClient.layer
  }))
})
`

describe("a CommonJS application", () => {
  it("requires the package (its CommonJS build, the one copy of effect it requires itself) and calls the service with it; import() still gets the ES modules", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kas-cjs-"))
    // A service that knows no account: the client's typed error, through the CommonJS build.
    const server = createServer((_, response) => {
      response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ code: 1061010, message: "data don't exist" }))
    })
    try {
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "cjs-app", version: "1.0.0", type: "commonjs", private: true }))
      mkdirSync(join(dir, "node_modules/@effect"), { recursive: true })
      symlinkSync(root, join(dir, "node_modules/effect-kas-wallet"), "dir")
      symlinkSync(join(root, "node_modules/effect"), join(dir, "node_modules/effect"), "dir")
      symlinkSync(join(root, "node_modules/@effect/platform"), join(dir, "node_modules/@effect/platform"), "dir")
      writeFileSync(join(dir, "app.js"), cjsApp)
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const { port } = server.address() as { port: number }
      const out = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ["app.js", `http://127.0.0.1:${port}`], { cwd: dir, encoding: "utf8", timeout: 30_000 }, (error, stdout, stderr) =>
          error === null ? resolve(stdout) : reject(new Error(`${error.message}\n${stderr}`)))
      )
      expect(JSON.parse(out)).toEqual({ tag: "AccountNotFound", code: 1061010, resolved: "dist/cjs/index.js", wire: "function", esm: "function" })
    } finally {
      server.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

// The Effect family's names on npm's `latest` are Effect 4's (effect, @effect/platform-node,
// @effect/vitest; vitest 4 beside them): an install line that names one bare installs what this
// library does not run on. docs/benchmarks.md is left out: it records the commands a measurement ran.
describe("the install lines of the documentation", () => {
  const installed = (name: string) => JSON.parse(readFileSync(`${root}/node_modules/${name}/package.json`, "utf8")).version as string
  /** Whether `version` is in the range of `spec`: `N` (major N), `^A.B[.C]` (npm's caret), `~A.B[.C]`. */
  const satisfies = (version: string, spec: string): boolean => {
    const [major, minor, patch] = version.split(".").map(Number) as [number, number, number]
    const m = /^([\^~]?)(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(spec)
    if (m === null) return false
    const [a, b, c] = [Number(m[2]), m[3] === undefined ? undefined : Number(m[3]), m[4] === undefined ? 0 : Number(m[4])]
    if (major !== a) return false
    if (b === undefined) return true
    const atLeast = minor > b || (minor === b && patch >= c)
    return m[1] === "~" || a === 0 ? minor === b && patch >= c : atLeast
  }

  it("name every package of the Effect family with a version this repository installs and tests with", () => {
    const docs = [
      "README.md",
      ...readdirSync(`${root}/docs`).filter((f) => f.endsWith(".md") && f !== "benchmarks.md").map((f) => `docs/${f}`),
      ...readdirSync(`${root}/packages`).flatMap((p) => [`packages/${p}/README.md`, `packages/${p}/docs/${p === "cli" ? "cli" : "emulator"}.md`])
    ].filter((f) => existsSync(`${root}/${f}`))
    const found: Array<string> = []
    const wrong: Array<string> = []
    for (const doc of docs) {
      readFileSync(`${root}/${doc}`, "utf8").split("\n").forEach((text, i) => {
        for (const [command] of text.matchAll(/npm (?:install|i) [^`#\n]*/g)) {
          for (const word of command.split(/\s+/)) {
            const m = /^((?:@effect\/[a-z-]+)|effect|vitest)(?:@(.+))?$/.exec(word)
            if (m === null) continue
            found.push(word)
            const [, name, spec] = m
            if (spec === undefined || !satisfies(installed(name!), spec)) wrong.push(`${doc}:${i + 1}: ${word} (installed here: ${installed(name!)})`)
          }
        }
      })
    }
    expect(wrong).toEqual([])
    expect(found).toEqual(expect.arrayContaining(["effect@3", "@effect/platform@^0.97", "@effect/platform-node@^0.108", "@effect/vitest@^0.30", "vitest@3"]))
    // and the check refuses what it should
    expect([satisfies("3.22.4", "3"), satisfies("0.97.2", "^0.97"), satisfies("0.98.0", "^0.97"), satisfies("4.1.0", "3"), satisfies("3.2.7", "~3.2")]).toEqual([true, true, false, false, true])
  })

  it("peer ranges take every later effect 3 minor (npm's ^3.22.4), never Effect 4", () => {
    for (const manifest of ["package.json", "packages/emulator/package.json"]) {
      expect(JSON.parse(readFileSync(`${root}/${manifest}`, "utf8")).peerDependencies.effect, manifest).toBe("^3.22.4")
    }
    expect([satisfies("3.23.0", "^3.22.4"), satisfies("3.22.3", "^3.22.4"), satisfies("4.0.0", "^3.22.4")]).toEqual([true, false, false])
  })
})
