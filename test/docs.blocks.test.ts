/**
 * The documentation's TypeScript blocks compile, and the runnable ones run: every ```ts block of
 * README.md, docs/*.md and each package's README.md and docs/*.md is type-checked, strict, with the
 * repository's tsconfig.json (its `paths`: `effect-kas-wallet` imports resolve to the sources), all
 * in one program, by TypeScript 7 (test/support/docBlocks.ts's `check`); a ```ts runnable block is then run, in this process, against an in-process
 * emulator whose key and URL are in the KAS_* variables `kas-wallet emulator env` sets: to its
 * end, logging no error. A failure names the document, the line and the TypeScript error.
 * The conventions (```ts nocheck, the imports a fragment takes from the blocks above) are
 * test/support/docBlocks.ts's.
 */
import { describe, expect, it, vi } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { Emulator } from "effect-kas-wallet-emulator"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { allBlocks, type Block, blocksOf, checkCached, documents, type Problem, show, sourceOf } from "./support/docBlocks.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const blocks = allBlocks(root)

// Blocks that must fail, checked in the same program: the checker would otherwise pass whatever
// it failed to see. Each names the error it must report, at the line it must report it.
const selfTest = blocksOf(
  "(self-test).md",
  [
    "```ts",
    "import { Effect } from \"effect\"",
    "export const ok = Effect.succeed(1)",
    "```",
    "```ts",
    "const n: string = Effect.runSync(Effect.succeed(1))", // line 6: imports from above, a type error
    "```",
    "```ts nocheck",
    "this is not TypeScript",
    "```",
    "~~~typescript",
    "import { WalletClient } from \"effect-kas-wallet\"",
    "WalletClient.nothing()", // line 13: the package resolves to the sources, and is checked
    "~~~"
  ].join("\n")
)

let checked: ReadonlyArray<Problem> | undefined
// Kept between runs while nothing it depends on changes (checkCached), outside the package.
const problems = () => (checked ??= checkCached(root, [...blocks, ...selfTest], join(root, "node_modules/.cache/effect-kas-wallet/docs-check.json")))

describe("the documentation's TypeScript blocks", () => {
  it("are found: every document has its blocks, each fence with its flags", () => {
    expect(documents(root)).toContain("README.md")
    expect(documents(root)).toContain("docs/client.md")
    expect(documents(root)).toContain("packages/emulator/docs/emulator.md")
    expect(blocks.filter((b) => b.doc === "README.md").length).toBeGreaterThanOrEqual(3)
    expect(blocks.some((b) => b.flags.has("runnable"))).toBe(true)
    expect(selfTest.map((b) => [b.line, [...b.flags], b.prelude])).toEqual([
      [1, [], ""],
      [5, [], "import { Effect } from \"effect\""],
      [8, ["nocheck"], "import { Effect } from \"effect\""],
      [11, [], ""]
    ])
  })

  it("the checker reports an error with its document, line and TypeScript code", () => {
    expect(problems().filter((p) => p.doc === "(self-test).md").map((p) => `${p.line} TS${p.message.slice(2, 6)}`)).toEqual([
      "6 TS2322",
      "13 TS2339"
    ])
  }, 120_000)

  it("a block is left unchecked (```ts nocheck) only for a reason given here", () => {
    // What is no program of this repository: nothing a reader could compile here.
    const reasons: Record<string, { readonly count: number; readonly why: string }> = {
      "docs/design.md": { count: 2, why: "entries to add inside the operation table and the emulator's routes, for an operation that does not exist" },
      "packages/emulator/docs/emulator.md": { count: 2, why: "caver-js-ext-kas and ethers programs: neither is a dependency of this repository" }
    }
    const unchecked: Record<string, number> = {}
    for (const b of blocks) if (b.flags.has("nocheck")) unchecked[b.doc] = (unchecked[b.doc] ?? 0) + 1
    expect(unchecked, "a new ```ts nocheck block needs its reason in this test").toEqual(
      Object.fromEntries(Object.entries(reasons).map(([doc, r]) => [doc, r.count]))
    )
  })

  for (const doc of documents(root)) {
    it(`${doc}: every TypeScript block type-checks`, () => {
      expect(problems().filter((p) => p.doc === doc).map(show)).toEqual([])
    }, 120_000)
  }
})

/**
 * A runnable block's module: the block, its last statement (the run of its program:
 * `Effect.runPromise(program)` or `program.pipe(..., Effect.runPromise)`) exported as the
 * module's default, so that the run can be awaited.
 */
const runnableSource = (block: Block): string => {
  const source = sourceOf(block)
  const file = ts.createSourceFile("block.ts", source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
  const last = file.statements[file.statements.length - 1]
  if (last === undefined || !ts.isExpressionStatement(last)) {
    throw new Error(`${block.doc}:${block.line}: a runnable block ends with the run of its program (Effect.runPromise(program))`)
  }
  return `${source.slice(0, last.getStart(file))}export default ${source.slice(last.getStart(file))}`
}

let runs = 0

/**
 * Runs a block as a program, in this process (effect, the client and the emulator are loaded
 * already: a process of its own would load them again, seconds each), with the environment given
 * (a variable given as `undefined` is unset) and what it logs captured. The module is written into
 * the repository (.docs-blocks/, ignored by git), where tsconfig.json's `paths` and vitest's
 * aliases resolve the packages.
 */
const run = (block: Block, env: Record<string, string | undefined>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]))
      for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k]
      else process.env[k] = v
      const logged: Array<string> = []
      const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
        vi.spyOn(console, level).mockImplementation((...args: Array<unknown>) => void logged.push(args.map(String).join(" ")))
      )
      const dir = join(root, ".docs-blocks")
      mkdirSync(dir, { recursive: true })
      // A new name each run: a module is evaluated once.
      const file = join(dir, `${block.doc.replace(/[/\\.]/g, "_")}_${block.line}_${runs++}.ts`)
      writeFileSync(file, runnableSource(block))
      return { saved, logged, spies, file }
    }),
    ({ file, logged }) =>
      Effect.promise(() =>
        import(file).then(
          (module: { default?: unknown }) => Promise.resolve(module.default).then(() => ({ failure: undefined, logged })),
          (error: unknown) => ({ failure: `the module failed: ${String(error)}`, logged })
        ).then((r) => r, (error: unknown) => ({ failure: `the program failed: ${String(error)}`, logged }))
      ),
    ({ file, saved, spies }) =>
      Effect.sync(() => {
        for (const spy of spies) spy.mockRestore()
        for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]
        else process.env[k] = v
        rmSync(file, { force: true })
      })
  )

const errorLines = (logged: ReadonlyArray<string>) => logged.filter((l) => /level=(ERROR|WARN|FATAL)|Error\b|FiberFailure/.test(l))

describe("the documentation's runnable blocks", () => {
  const runnable = blocks.filter((b) => b.flags.has("runnable"))
  for (const block of runnable) {
    it.live(`${block.doc}:${block.line} runs against an emulator to the end, logging no error`, () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        const ran = yield* run(block, {
          KAS_WALLET_URL: emulator.url,
          KAS_NODE_URL: `${emulator.url}/v1/klaytn`,
          KAS_CHAIN_ID: "1001",
          KAS_ACCESS_KEY_ID: emulator.member.accessKeyId,
          KAS_SECRET_ACCESS_KEY: Redacted.value(emulator.member.secretAccessKey)
        })
        expect({ failure: ran.failure, errors: errorLines(ran.logged) }).toEqual({ failure: undefined, errors: [] })
        // It ran to its end: its last log line is there.
        expect(ran.logged.length).toBeGreaterThan(0)
      }).pipe(Effect.provide(Emulator.layer({ port: 0 }))), 60_000)
  }

  it.live("README.md's first program, its key unset, logs the typed error its comment promises: no defect, no stack trace", () =>
    Effect.gen(function*() {
      const first = runnable.find((b) => b.doc === "README.md")!
      const unset = Object.fromEntries(Object.keys(process.env).filter((k) => k.startsWith("KAS_")).map((k) => [k, undefined]))
      const ran = yield* run(first, { ...unset, KAS_ACCESS_KEY_ID: undefined, KAS_SECRET_ACCESS_KEY: undefined, KAS_WALLET_URL: "http://127.0.0.1:9" })
      expect({ failure: ran.failure, errors: errorLines(ran.logged).map((l) => l.replace(/^.*message="?/, "").replace(/"$/, "")) }).toEqual({
        failure: undefined,
        errors: ["invalid credentials.accessKeyId: is missing: set it to the AccessKey ID of your KAS key (KAS_ACCESS_KEY_ID)"]
      })
    }), 60_000)
})
