/**
 * The TypeScript blocks of the documentation, extracted and type-checked as one program.
 *
 * A block is a fence whose info string starts with `ts` or `typescript`. The words after it:
 * - none: a module of its own, type-checked with the repository's tsconfig.json (strict, its
 *   `paths`: `effect-kas-wallet` and `effect-kas-wallet-emulator` resolve to the sources);
 * - `runnable`: type-checked, and run against an in-process emulator (test/docs.blocks.test.ts);
 *   its last statement runs the program (`Effect.runPromise(program)`), which the test awaits;
 * - `nocheck`: not checked at all, for what is no program (a signature listing, a shape). Rare.
 *
 * A block with no `import` of its own is checked with the imports of the blocks above it in the
 * same document, so that a document can import once and show fragments after; its free names
 * must still be declared (`declare const from: Address.Address`) or be parameters.
 */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, relative } from "node:path"
import ts from "typescript"

/** One TypeScript block of a document. */
export interface Block {
  /** The document, relative to the repository. */
  readonly doc: string
  /** The line of the opening fence (1-based). */
  readonly line: number
  readonly flags: ReadonlySet<string>
  /** The block's code, its fence's indentation removed. */
  readonly code: string
  /** The imports taken from the blocks above (empty when the block has imports of its own). */
  readonly prelude: string
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)\s*(.*)$/

/**
 * The imports of a block's code, one statement per name bound (`import { A } from "m"`,
 * `import * as B from "m"`, `import C from "m"`), so that names bound by several blocks are taken
 * once.
 */
const importsOf = (code: string): ReadonlyArray<{ readonly name: string; readonly statement: string }> => {
  const source = ts.createSourceFile("block.ts", code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS)
  return source.statements.filter(ts.isImportDeclaration).flatMap((s) => {
    const from = s.moduleSpecifier.getText(source)
    const clause = s.importClause
    if (clause === undefined) return [{ name: `side effect ${from}`, statement: `import ${from}` }]
    const type = clause.isTypeOnly ? "type " : ""
    const bound: Array<{ name: string; statement: string }> = []
    if (clause.name !== undefined) bound.push({ name: clause.name.text, statement: `import ${type}${clause.name.text} from ${from}` })
    const named = clause.namedBindings
    if (named !== undefined && ts.isNamespaceImport(named)) {
      bound.push({ name: named.name.text, statement: `import ${type}* as ${named.name.text} from ${from}` })
    } else if (named !== undefined) {
      for (const e of named.elements) {
        bound.push({ name: e.name.text, statement: `import ${type}{ ${e.getText(source)} } from ${from}` })
      }
    }
    return bound
  })
}

/** The TypeScript blocks of one document's text. */
export const blocksOf = (doc: string, text: string): ReadonlyArray<Block> => {
  const lines = text.split("\n")
  const blocks: Array<Block> = []
  // The names the blocks above import, each with its statement: the first block to import a name wins.
  const imports = new Map<string, string>()
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i]!)
    if (open === null) continue
    const [, indent, marks, language, rest] = open
    // The closing fence: the same characters, at least as many, nothing after them.
    let end = i + 1
    while (end < lines.length && !new RegExp(`^\\s*${marks![0] === "`" ? "`" : "~"}{${marks!.length},}\\s*$`).test(lines[end]!)) end++
    const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l.trimStart()))
    if (language === "ts" || language === "typescript") {
      const code = body.join("\n")
      const own = importsOf(code)
      const flags = new Set(rest!.split(/[\s,]+/).filter((w) => w !== ""))
      blocks.push({ doc, line: i + 1, flags, code, prelude: own.length === 0 ? [...imports.values()].join("\n") : "" })
      if (!flags.has("nocheck")) for (const { name, statement } of own) if (!imports.has(name)) imports.set(name, statement)
    }
    i = end
  }
  return blocks
}

/** The documents whose blocks are checked: README.md, docs/*.md, and each package's README.md and docs/*.md. */
export const documents = (root: string): ReadonlyArray<string> => {
  const md = (dir: string) => {
    try {
      return readdirSync(join(root, dir)).filter((f) => f.endsWith(".md")).sort().map((f) => join(dir, f))
    } catch {
      return []
    }
  }
  const packages = readdirSync(join(root, "packages")).sort()
  return ["README.md", ...md("docs"), ...packages.flatMap((p) => [join("packages", p, "README.md"), ...md(join("packages", p, "docs"))])]
    .filter((f) => {
      try {
        readFileSync(join(root, f))
        return true
      } catch {
        return false
      }
    })
}

/** A type error of a block, where a reader finds it in the document. */
export interface Problem {
  readonly doc: string
  /** The block's opening fence. */
  readonly block: number
  /** The document's line of the error (the block's when it is in the imports taken from above). */
  readonly line: number
  readonly message: string
}

/** The text the compiler reads for a block: the imports taken from above, then the block. */
export const sourceOf = (block: Block): string => (block.prelude === "" ? block.code : `${block.prelude}\n${block.code}`)

/**
 * The compiler of the check: TypeScript 7 (`typescript-native`, npm's `typescript@7` under another
 * name), as `npm install typescript` gives it to a reader today. The sources are type-checked by
 * `npm run typecheck` with TypeScript 5.9, the compiler of the package's declarations: the blocks
 * a reader copies compile on the newest line, the package on the line before it.
 */
const nativeCompiler = (): { readonly bin: string; readonly version: string } => {
  const require = createRequire(import.meta.url)
  const manifest = require.resolve("typescript-native/package.json")
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { version: string; bin: { tsc: string } }
  return { bin: join(dirname(manifest), pkg.bin.tsc), version: pkg.version }
}

// A diagnostic as `tsc --pretty false` prints it; the lines after it, indented, go on its message.
const diagnosticLine = /^(.+)\((\d+),(\d+)\): error (TS\d+): (.*)$/

/**
 * Type-checks the blocks (all but `nocheck`) as one program with the repository's tsconfig.json,
 * every block a module of its own, written into the repository (.docs-blocks/, ignored by git)
 * where its `paths` and node_modules apply. Unused names are allowed (an example binds what it
 * shows). The native compiler runs on one thread: the suite's other worker has the other core. On
 * this 2-core machine it checks the documentation in ~3 s of CPU, where TypeScript 5.9's API
 * took ~8 s (5.9 still parses the blocks' imports: `blocksOf`).
 */
export const check = (root: string, blocks: ReadonlyArray<Block>): ReadonlyArray<Problem> => {
  mkdirSync(join(root, ".docs-blocks"), { recursive: true })
  // A directory of its own: the runnable blocks' modules are written beside it.
  const dir = mkdtempSync(join(root, ".docs-blocks", "check-"))
  try {
    const files = new Map(
      blocks.filter((b) => !b.flags.has("nocheck")).map((b) => [`${b.doc.replace(/[/\\.() ]/g, "_")}_${b.line}.ts`, b])
    )
    for (const [name, block] of files) writeFileSync(join(dir, name), sourceOf(block))
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: relative(dir, join(root, "tsconfig.json")),
        compilerOptions: { noEmit: true, noUnusedLocals: false, noUnusedParameters: false, moduleDetection: "force" },
        include: ["./*.ts"]
      })
    )
    const ran = spawnSync(process.execPath, [nativeCompiler().bin, "-p", ".", "--pretty", "false", "--singleThreaded"], {
      cwd: dir,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024
    })
    // 0: no error; 1 and 2: errors reported (outputs skipped or not). Anything else: no check.
    if (ran.error !== undefined || (ran.status !== 0 && ran.status !== 1 && ran.status !== 2)) {
      throw new Error(`the TypeScript 7 compiler did not run (${ran.error ?? `status ${ran.status}, signal ${ran.signal}`}): ${ran.stderr}`)
    }
    const problems: Array<Problem> = []
    const elsewhere: Array<string> = []
    // Where the lines that go on a diagnostic's message go: the last diagnostic's list.
    let last: "problem" | "elsewhere" | undefined
    for (const text of ran.stdout.split("\n")) {
      const d = diagnosticLine.exec(text)
      if (d === null) {
        if (text.startsWith(" ") && last === "problem") {
          const p = problems[problems.length - 1]!
          problems[problems.length - 1] = { ...p, message: `${p.message}\n${text.trimEnd()}` }
        } else if (text.trim() !== "") {
          elsewhere.push(text)
          if (!text.startsWith(" ")) last = "elsewhere"
        }
        continue
      }
      const [, file, line, , code, message] = d
      const block = files.get(file!)
      // An error outside the blocks (in the sources they import, or in the configuration) is no
      // block's: the check stops rather than leave it unreported. The sources the blocks import
      // thus compile with TypeScript 7 too.
      if (block === undefined) {
        elsewhere.push(text)
        last = "elsewhere"
        continue
      }
      const preludeLines = block.prelude === "" ? 0 : block.prelude.split("\n").length
      const at = Number(line) - 1
      problems.push({
        doc: block.doc,
        block: block.line,
        line: at < preludeLines ? block.line : block.line + 1 + at - preludeLines,
        message: `${code}: ${message}${at < preludeLines ? " (in the imports taken from the blocks above)" : ""}`
      })
      last = "problem"
    }
    if (elsewhere.length > 0) throw new Error(`the TypeScript 7 compiler reports what is no block's:\n${elsewhere.join("\n")}`)
    // In the documents' order, as a reader goes through them (the compiler reports files in its own).
    return problems.sort((a, b) => a.doc.localeCompare(b.doc) || a.line - b.line)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A problem as a reader wants it: `docs/client.md:312 (block at line 307): TS2304: Cannot find name 'Amount'.` */
export const show = (p: Problem): string => `${p.doc}:${p.line} (block at line ${p.block}): ${p.message}`

/** Every block of the documents of the repository at `root`. */
export const allBlocks = (root: string): ReadonlyArray<Block> =>
  documents(root).flatMap((doc) => blocksOf(relative(root, join(root, doc)), readFileSync(join(root, doc), "utf8")))

/**
 * What a check's outcome depends on: the blocks, the sources their imports reach (every package's
 * src/), the compiler options, the installed packages (package-lock.json), the compiler and this
 * checker.
 */
const inputsOf = (root: string, blocks: ReadonlyArray<Block>): string => {
  const hash = createHash("sha256")
  hash.update(nativeCompiler().version)
  hash.update(JSON.stringify(blocks.map((b) => [b.doc, b.line, [...b.flags], b.code, b.prelude])))
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = join(dir, entry.name)
      if (entry.isDirectory()) visit(file)
      else {
        hash.update(relative(root, file))
        hash.update(readFileSync(file))
      }
    }
  }
  for (const dir of ["src", ...readdirSync(join(root, "packages")).sort().map((p) => join("packages", p, "src"))]) {
    if (existsSync(join(root, dir))) visit(join(root, dir))
  }
  for (const file of ["tsconfig.json", "package-lock.json", "test/support/docBlocks.ts"]) hash.update(readFileSync(join(root, file)))
  return hash.digest("hex")
}

/**
 * `check`, its outcome kept in `cacheFile` with the hash of its inputs (`inputsOf`): the same
 * blocks against the same sources and packages are not checked again (a full check is ~3 s of
 * CPU: the program reaches effect's, the platform's and Node's declarations and the sources).
 */
export const checkCached = (root: string, blocks: ReadonlyArray<Block>, cacheFile: string): ReadonlyArray<Problem> => {
  const inputs = inputsOf(root, blocks)
  if (existsSync(cacheFile)) {
    const kept = JSON.parse(readFileSync(cacheFile, "utf8")) as { inputs: string; problems: ReadonlyArray<Problem> }
    if (kept.inputs === inputs) return kept.problems
  }
  const problems = check(root, blocks)
  mkdirSync(dirname(cacheFile), { recursive: true })
  writeFileSync(cacheFile, JSON.stringify({ inputs, problems }))
  return problems
}
