/**
 * Builds what the client's package ships, as effect and @effect/platform ship theirs: ES modules
 * and CommonJS, each with its types.
 *
 * - dist/: ES modules, their declarations and source maps (`tsc -p src`);
 * - dist/cjs/: the same modules as CommonJS (esbuild, file for file, nothing bundled), with a
 *   package.json that says so, and the same declarations (read as CommonJS there).
 *
 * package.json's `exports` send `import` to dist/ and `require` to dist/cjs/. Both load the same
 * dependencies' builds an application of that kind loads: an application that `require`s effect
 * gets this package's CommonJS, which `require`s effect too (one copy of effect, not two).
 *
 * `npx tsx build.ts` (the package's `build` and `prepack`); test/setup/dist.ts builds the
 * JavaScript of both (no declarations) for the tests with `buildCommonJs`.
 */
import { build } from "esbuild"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.dirname(fileURLToPath(import.meta.url))

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(file) : file.endsWith(".ts") ? [file] : []
  })

/** The CommonJS build of src/ into `dist/cjs/`: one file per module, imports turned into `require`s. */
export const buildCommonJs = async (): Promise<void> => {
  const outdir = path.join(root, "dist/cjs")
  await build({
    entryPoints: sourceFiles(path.join(root, "src")),
    outdir,
    outbase: path.join(root, "src"),
    format: "cjs",
    platform: "node",
    target: "es2022",
    // The modules loaded on first use (the Klaytn codec, the migration, the large-body parser)
    // are `require`d then too: a CommonJS `import()` would load a second, ES-module copy of effect.
    supported: { "dynamic-import": false },
    sourcemap: true,
    logLevel: "silent"
  })
  fs.writeFileSync(path.join(outdir, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`)
}

/** The declarations of dist/ copied into dist/cjs/, where the package.json makes them CommonJS's. */
const copyDeclarations = (): void => {
  const from = path.join(root, "dist")
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (file !== path.join(from, "cjs")) visit(file)
      } else if (entry.name.endsWith(".d.ts")) {
        const target = path.join(from, "cjs", path.relative(from, file))
        fs.mkdirSync(path.dirname(target), { recursive: true })
        // The declaration map is dist/'s: its relative paths do not hold one folder down.
        fs.writeFileSync(target, fs.readFileSync(file, "utf8").replace(/\n\/\/# sourceMappingURL=.*\n?$/, "\n"))
      }
    }
  }
  visit(from)
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // A clean build: a file left from a deleted source would otherwise be packed.
  fs.rmSync(path.join(root, "dist"), { recursive: true, force: true })
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "src")], { stdio: "inherit" })
  await buildCommonJs()
  copyDeclarations()
}
