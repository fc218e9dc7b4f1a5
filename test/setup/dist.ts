/**
 * Vitest global setup: builds `dist/` (with `tsc -p src`, as `npm run build` does) once per run, for
 * the test files that run the built package: the published package's test and the CLI run as a
 * child process. The build is skipped when `dist/` was built from the same sources (a hash of
 * `src/`, the tsconfigs and package.json), and when the run selects no such file.
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"
import { parseCLI } from "vitest/node"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

/** The test files that need `dist/`. */
const needsDist = /test\/(package|emulator\/process)\.test\.ts$/

// Kept out of dist/: npm would pack it.
const stamp = path.join(root, "node_modules/.cache/effect-kas-wallet/dist-hash")

const sourcesHash = (): string => {
  const hash = createHash("sha256")
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) visit(file)
      else {
        hash.update(path.relative(root, file))
        hash.update(fs.readFileSync(file))
      }
    }
  }
  visit(path.join(root, "src"))
  for (const file of ["tsconfig.json", "package.json"]) hash.update(fs.readFileSync(path.join(root, file)))
  return hash.digest("hex")
}

/** Builds dist/ unless it is up to date. */
export const ensureDist = (): void => {
  const hash = sourcesHash()
  const built = fs.existsSync(stamp) ? fs.readFileSync(stamp, "utf8") : ""
  if (built === hash && fs.existsSync(path.join(root, "dist/cli/bin.js"))) return
  // The stamp goes first: a build that fails half-way must not pass for the sources it had.
  fs.rmSync(stamp, { force: true })
  // A clean build: a file left from a deleted source would otherwise be packed and run.
  fs.rmSync(path.join(root, "dist"), { recursive: true, force: true })
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "src"], { cwd: root, stdio: "inherit" })
  fs.mkdirSync(path.dirname(stamp), { recursive: true })
  fs.writeFileSync(stamp, hash)
}

export default async function setup(project: TestProject): Promise<void> {
  const { filter } = parseCLI(["vitest", ...process.argv.slice(2)], { allowUnknownOptions: true })
  const { testFiles } = await project.globTestFiles(filter)
  if (testFiles.some((file) => needsDist.test(file.split(path.sep).join("/")))) ensureDist()
}
