/**
 * Vitest global setup: builds `dist/` (with `tsc -p src`, as `npm run build` does) once per run, for
 * the test files that run the built package: the published package's test and the CLI run as a
 * child process. The build runs in the background while other files are tested; those two wait
 * for it (`awaitDist`). It is skipped when `dist/` was built from the same sources (a hash of
 * `src/`, the tsconfigs and package.json), and when the run selects no such file.
 */
import { type ChildProcess, spawn } from "node:child_process"
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

// Written when a build started by this run ends: "ok", or why it failed.
const outcome = path.join(root, "node_modules/.cache/effect-kas-wallet/dist-outcome")

/**
 * Starts building dist/ unless it is up to date, without waiting: the build (one core, ~15 s)
 * overlaps with the test files that do not need it. `awaitDist` waits for it.
 */
export const startDist = (): ChildProcess | undefined => {
  const hash = sourcesHash()
  const built = fs.existsSync(stamp) ? fs.readFileSync(stamp, "utf8") : ""
  fs.mkdirSync(path.dirname(stamp), { recursive: true })
  if (built === hash && fs.existsSync(path.join(root, "dist/cli/bin.js"))) {
    fs.writeFileSync(outcome, "ok")
    return undefined
  }
  // The stamp goes first: a build that fails half-way must not pass for the sources it had.
  fs.rmSync(stamp, { force: true })
  fs.rmSync(outcome, { force: true })
  // A clean build: a file left from a deleted source would otherwise be packed and run.
  fs.rmSync(path.join(root, "dist"), { recursive: true, force: true })
  const child = spawn(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "src"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (d: Buffer) => (output += String(d)))
  child.stderr.on("data", (d: Buffer) => (output += String(d)))
  child.on("exit", (code) => {
    if (code === 0) fs.writeFileSync(stamp, hash)
    fs.writeFileSync(outcome, code === 0 ? "ok" : `tsc -p src exited with ${code}:\n${output}`)
  })
  return child
}

/**
 * Waits until the build started by the global setup has ended (its outcome file appears), and
 * fails with tsc's output if it failed. For the test files that run dist/.
 */
export const awaitDist = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const check = () => {
      if (!fs.existsSync(outcome)) return false
      const text = fs.readFileSync(outcome, "utf8")
      watcher.close()
      if (text === "ok") resolve()
      else reject(new Error(text))
      return true
    }
    fs.mkdirSync(path.dirname(outcome), { recursive: true })
    const watcher = fs.watch(path.dirname(outcome), () => void check())
    check()
  })

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { filter } = parseCLI(["vitest", ...process.argv.slice(2)], { allowUnknownOptions: true })
  const { testFiles } = await project.globTestFiles(filter)
  const child = testFiles.some((file) => needsDist.test(file.split(path.sep).join("/"))) ? startDist() : undefined
  // Teardown: never leave a build running after the run.
  return async () => {
    if (child !== undefined && child.exitCode === null) child.kill()
  }
}
