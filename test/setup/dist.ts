/**
 * Vitest global setup: builds what users install (see `startDist`) once per run, for the test
 * files that run it: the client's `dist/` (the published package's test) and the CLI's bundle
 * (the CLI as a child process, and what each command loads). The build runs in the background
 * while other files are tested; those files wait for it (`awaitDist`). It is skipped when the
 * build is from the same sources (a hash of every package's `src/`, the tsconfigs and package.json
 * files), and when the run selects no such file.
 */
import { build } from "esbuild"
import { buildCommonJs } from "../../build.js"
import { bundle } from "../../packages/cli/build.js"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject, TestSpecification } from "vitest/node"
import { BaseSequencer, parseCLI } from "vitest/node"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

/** The test files that need the build: `dist/`, the CLI's bundle or the bundle's metafile (migrate: its stdin). */
export const needsDist = /(^|\/)(test\/package|packages\/cli\/test\/(package|process|bundle|migrate))\.test\.ts$/

/** The test files that spend most of their time waiting for the processes they start. */
export const waitsForProcesses = /(^|\/)(test\/package|packages\/cli\/test\/(package|process))\.test\.ts$/

/** Of those, the one that starts first (see `DistApart`), relative to the repository. */
const startsFirst = "test/package.test.ts"

/** The file that runs before every other (see `DistApart`): the documentation's type check. */
const checksFirst = (spec: TestSpecification) => /(^|\/)test\/docs\.blocks\.test\.ts$/.test(spec.moduleId.split(path.sep).join("/"))

// Kept out of dist/: npm would pack it.
const stamp = path.join(root, "node_modules/.cache/effect-kas-wallet/dist-hash")

/**
 * The metafile of the CLI's bundle (esbuild's: which module went into which file), kept by the
 * build for the test of what each command loads. Outside packages/cli/dist/: npm would pack it.
 */
export const cliMetafile = path.join(root, "node_modules/.cache/effect-kas-wallet/cli-metafile.json")

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
  for (const dir of ["src", "packages/emulator/src", "packages/cli/src"]) visit(path.join(root, dir))
  for (const file of ["tsconfig.json", "package.json", "packages/emulator/package.json", "packages/cli/package.json", "packages/cli/build.ts", "build.ts"]) {
    hash.update(fs.readFileSync(path.join(root, file)))
  }
  return hash.digest("hex")
}

// Written when a build started by this run ends: "ok", or why it failed.
const outcome = path.join(root, "node_modules/.cache/effect-kas-wallet/dist-outcome")

// Whole or not at all: a waiting file watches the directory, and could otherwise read the file
// created but still empty.
const writeOutcome = (text: string) => {
  fs.writeFileSync(`${outcome}.tmp`, text)
  fs.renameSync(`${outcome}.tmp`, outcome)
}

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(file) : file.endsWith(".ts") ? [file] : []
  })

/** The CLI's executable, as `npm run build` in packages/cli makes it. */
export const cliBin = path.join(root, "packages/cli/dist/kas-wallet.js")

/**
 * Starts building unless the build is up to date, without waiting: `awaitDist` waits for it.
 *
 * The client: the JavaScript of `npm run build`, module for module, ES modules and CommonJS (build.ts's
 * `buildCommonJs`), by esbuild (~0.3 s of CPU each) rather than tsc
 * (~12 s even with `--noCheck`, a tenth of the whole suite's CPU on this 2-core machine, which
 * held `npm test` near its 60 s budget). The declarations are left out: the type check is
 * `npm run typecheck`'s, and `npm pack` runs the real build (`prepack`). esbuild and tsc agree on
 * this code: `isolatedModules` holds, no decorators, ES2022 class fields for both. The CLI: its
 * bundle, by its own build script (packages/cli/build.ts), and the bundle's metafile
 * (`cliMetafile`).
 */
export const startDist = (): Promise<void> | undefined => {
  const hash = sourcesHash()
  const built = fs.existsSync(stamp) ? fs.readFileSync(stamp, "utf8") : ""
  fs.mkdirSync(path.dirname(stamp), { recursive: true })
  if (built === hash && fs.existsSync(path.join(root, "dist/index.js")) && fs.existsSync(path.join(root, "dist/cjs/index.js")) && fs.existsSync(cliBin) && fs.existsSync(cliMetafile)) {
    writeOutcome("ok")
    return undefined
  }
  // The stamp goes first: a build that fails half-way must not pass for the sources it had.
  fs.rmSync(stamp, { force: true })
  fs.rmSync(outcome, { force: true })
  // A clean build: a file left from a deleted source would otherwise be packed and run.
  fs.rmSync(path.join(root, "dist"), { recursive: true, force: true })
  fs.rmSync(path.join(root, "packages/cli/dist"), { recursive: true, force: true })
  fs.rmSync(cliMetafile, { force: true })
  // The ES modules, the CommonJS and the CLI's bundle at once: none reads what another writes.
  const client = build({
    entryPoints: sourceFiles(path.join(root, "src")),
    outdir: path.join(root, "dist"),
    outbase: path.join(root, "src"),
    format: "esm",
    platform: "node",
    target: "es2022",
    sourcemap: true,
    logLevel: "silent"
  })
  const cli = bundle().then((result) => fs.writeFileSync(cliMetafile, JSON.stringify(result.metafile)))
  return Promise.all([client, buildCommonJs(), cli]).then(
    () => {
      fs.writeFileSync(stamp, hash)
      writeOutcome("ok")
    },
    (error: unknown) => writeOutcome(`the build of dist/ failed: ${String(error)}`)
  )
}

/**
 * Waits until the build started by the global setup has ended (its outcome file appears), and
 * fails with the build's error if it failed. For the test files that run dist/.
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
  const building = testFiles.some((file) => needsDist.test(file.split(path.sep).join("/"))) ? startDist() : undefined
  // Teardown: never leave a build running after the run.
  return async () => {
    await building
  }
}

/**
 * Vitest's order (longest first, by the last run's durations), with the files that wait for the
 * processes they start (`waitsForProcesses`) spread out: the first second, the others at even
 * intervals. Each must run beside a worker that keeps a core busy: in vitest's own order they ran
 * side by side, both workers mostly idle (a profile: ~90% idle for 15 s). Measured on this 2-core
 * machine, fresh build each time: 55-56 s in vitest's order, 47-48 s in this one. Every file is
 * kept: the order only moves them.
 *
 * The first of them is the root package's test whatever the last run's durations: it loads no
 * emulator, so its bundler, npm and node children work while the other worker loads the emulator
 * (~5 s). When the process test came first instead, both workers spent their first 5-6 s loading
 * the same modules, nothing else running: 53-54 s against 50 s, on a quiet machine.
 *
 * The documentation's type check (`checksFirst`) comes before everything: a second when its
 * outcome is kept, ~10 s of one worker when it is not (a fresh clone, as CI runs; any change to
 * the sources). Last runs' durations put it late, when it was kept: then it ran alone at the end,
 * the other worker done (a run with the sources changed: 67 s, 10 s of it that tail).
 */
export class DistApart extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    const name = (spec: TestSpecification) => spec.moduleId.split(path.sep).join("/")
    const waits = (spec: TestSpecification) => waitsForProcesses.test(name(spec))
    const others = sorted.filter((spec) => !waits(spec))
    const first = (spec: TestSpecification) => path.relative(root, spec.moduleId).split(path.sep).join("/") === startsFirst
    const apart = [...sorted.filter((spec) => waits(spec) && first(spec)), ...sorted.filter((spec) => waits(spec) && !first(spec))]
    // apart[k] goes before others[at(k)]: 1, then every others.length / apart.length files.
    const at = (k: number) => k === 0 ? 1 : Math.round((k * others.length) / apart.length)
    const ordered: Array<TestSpecification> = others.filter(checksFirst)
    others.filter((spec) => !checksFirst(spec)).forEach((spec, i) => {
      apart.forEach((a, k) => at(k) === i && ordered.push(a))
      ordered.push(spec)
    })
    apart.forEach((a, k) => at(k) >= others.length && ordered.push(a))
    return ordered
  }
}
