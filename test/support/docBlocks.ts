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
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
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

/** Where a block's module lives for the compiler: beside the repository's sources, so that its `paths` and node_modules apply. */
export const moduleOf = (root: string, block: Block): string =>
  join(root, ".docs-blocks", `${block.doc.replace(/[/\\.]/g, "_")}_${block.line}.ts`)

/** The text the compiler reads for a block: the imports taken from above, then the block. */
export const sourceOf = (block: Block): string => (block.prelude === "" ? block.code : `${block.prelude}\n${block.code}`)

/**
 * Type-checks the blocks (all but `nocheck`) as one program with the repository's tsconfig.json,
 * every block a module of its own. Unused names are allowed (an example binds what it shows).
 */
export const check = (root: string, blocks: ReadonlyArray<Block>): ReadonlyArray<Problem> => {
  const configPath = join(root, "tsconfig.json")
  const config = ts.readConfigFile(configPath, ts.sys.readFile)
  if (config.error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, "\n"))
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath)
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    noUnusedLocals: false,
    noUnusedParameters: false,
    moduleDetection: ts.ModuleDetectionKind.Force
  }
  const checked = blocks.filter((b) => !b.flags.has("nocheck"))
  const files = new Map(checked.map((b) => [moduleOf(root, b), b]))
  const host = ts.createCompilerHost(options)
  // As tsc reads them (its default since TypeScript 5.3): JSDoc comments of .ts and .d.ts files
  // are parsed only where they bear on type errors (@see, @link). effect's declarations are mostly
  // JSDoc: parsing this program took 2.6-2.7 s rather than 3.9 s, the whole check ~1.5 s less of
  // CPU, with the same diagnostics.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors
  const getSourceFile = host.getSourceFile
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const block = files.get(fileName)
    return block !== undefined
      ? ts.createSourceFile(fileName, sourceOf(block), languageVersion, true, ts.ScriptKind.TS)
      : getSourceFile.call(host, fileName, languageVersion, onError, shouldCreate)
  }
  const fileExists = host.fileExists
  host.fileExists = (fileName) => files.has(fileName) || fileExists.call(host, fileName)
  const readFile = host.readFile
  host.readFile = (fileName) => {
    const block = files.get(fileName)
    return block !== undefined ? sourceOf(block) : readFile.call(host, fileName)
  }
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host })
  const problems: Array<Problem> = []
  for (const [fileName, block] of files) {
    const source = program.getSourceFile(fileName)!
    const preludeLines = block.prelude === "" ? 0 : block.prelude.split("\n").length
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const at = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line
      problems.push({
        doc: block.doc,
        block: block.line,
        line: at < preludeLines ? block.line : block.line + 1 + at - preludeLines,
        message: `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}${at < preludeLines ? " (in the imports taken from the blocks above)" : ""}`
      })
    }
  }
  return problems
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
  hash.update(ts.version)
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
 * blocks against the same sources and packages are not checked again (a full check is ~10 s of
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
