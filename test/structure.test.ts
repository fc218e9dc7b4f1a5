/**
 * The shape of the sources: the relative-import graph of each package's `src` is a DAG. A circle
 * (type-only imports, re-exports and dynamic imports count: each is an edge between two modules)
 * means two modules that cannot be understood, tested or loaded one without the other; at run
 * time, one of them sees the other half-initialized.
 *
 * Imports are read by TypeScript's own scanner (`preProcessFile`: comments and strings are not
 * imports); `./x.js` is the module `./x.ts`, as NodeNext resolution has it.
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

const repository = fileURLToPath(new URL("..", import.meta.url))

// Every package's sources: the roots whose import graph must have no circle.
const ROOTS = ["src", "packages/emulator/src", "packages/cli/src"] as const

const sourcesUnder = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sourcesUnder(path) : path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : []
  })

// Each module's relative imports, resolved to the files under the root they name.
const importGraph = (root: string): ReadonlyMap<string, ReadonlyArray<string>> =>
  new Map(sourcesUnder(root).map((file) => [
    file,
    ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith("./") || name.startsWith("../"))
      .map((name) => resolve(dirname(file), name).replace(/\.js$/, ".ts"))
      .filter((target) => existsSync(target))
  ]))

/**
 * The circles of a graph, each as the modules around it (the first one repeated at the end),
 * relative to `root`: one per edge that closes a circle in a depth-first walk, so none is missed
 * and the list is empty exactly when the graph is a DAG.
 */
const circlesIn = (root: string): Array<string> => {
  const graph = importGraph(root)
  const state = new Map<string, "open" | "done">()
  const path: Array<string> = []
  const circles: Array<string> = []
  const visit = (file: string): void => {
    state.set(file, "open")
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") {
        circles.push([...path.slice(path.indexOf(next)), next].map((f) => relative(root, f)).join(" -> "))
      } else if (state.get(next) === undefined) {
        visit(next)
      }
    }
    path.pop()
    state.set(file, "done")
  }
  for (const file of [...graph.keys()].sort()) if (state.get(file) === undefined) visit(file)
  return circles
}

// Effect's other packages are imported by module path (`@effect/platform/HttpClient`), never by
// their index: an index loads every module of its package, and an application or a test file
// pays for that on each start. Importing the emulator took 1.15-1.5 s by the indexes (after
// effect), 0.56-0.79 s by path, and its start to first answer ~0.5 s less CPU. `effect` itself is
// imported by its index, as every Effect program does. Read by the same scanner as the graph
// below: every `import`, `export ... from` and `import()`, comments and strings left out.
const effectPackageIndex = /^@effect\/[a-z0-9-]+$/
const indexImportsOf = (text: string): Array<string> =>
  ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName).filter((name) => effectPackageIndex.test(name))

describe("imports of Effect's packages", () => {
  for (const root of ROOTS) {
    it(`in ${root} name a module of the package, not its index`, () => {
      const found = sourcesUnder(join(repository, root)).flatMap((file) =>
        indexImportsOf(readFileSync(file, "utf8")).map((name) => `${relative(repository, file)}: ${name}`)
      )
      expect(found).toEqual([])
    })
  }

  it("an index import of any form is found; a module path, a comment's example and effect itself are not", () => {
    const text = [
      "import { HttpClient } from \"@effect/platform\"",
      "import type {",
      "  SqlError",
      "} from '@effect/sql'",
      "export * from \"@effect/sql-libsql\"",
      "const lazy = () => import(\"@effect/platform-node\")",
      "import * as NodeHttpServer from \"@effect/platform-node/NodeHttpServer\"",
      "/** import { FetchHttpClient } from \"@effect/platform\" */",
      "import { Effect } from \"effect\""
    ].join("\n")
    expect(indexImportsOf(text)).toEqual(["@effect/platform", "@effect/sql", "@effect/sql-libsql", "@effect/platform-node"])
  })
})

describe("the import graph", () => {
  for (const root of ROOTS) {
    it(`of ${root} has no circle (type-only imports, re-exports and dynamic imports included)`, () => {
      const dir = join(repository, root)
      expect(sourcesUnder(dir).length).toBeGreaterThan(0)
      expect(circlesIn(dir)).toEqual([])
    })
  }

  it("a circle of any kind of import is found and named", () => {
    const dir = mkdtempSync(join(tmpdir(), "kas-structure-"))
    try {
      const write = (name: string, text: string) => writeFileSync(join(dir, name), text)
      // a -> b by a type-only import, b -> c by a re-export, c -> a by a dynamic import; other -> a is
      // no circle. A commented import is no edge.
      write("a.ts", "import type { B } from \"./b.js\"\nexport type A = B\n")
      write("b.ts", "export * from \"./c.js\"\nexport type B = number\n")
      write("c.ts", "// import \"./d.js\"\nexport const load = () => import(\"./a.js\")\n")
      write("other.ts", "import { type A } from \"./a.js\"\nexport const d: A | undefined = undefined\n")
      expect(circlesIn(dir)).toEqual(["a.ts -> b.ts -> c.ts -> a.ts"])
      write("c.ts", "export const c = 1\n")
      expect(circlesIn(dir)).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
