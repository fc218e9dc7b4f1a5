/**
 * Start-up of the built `kas-wallet` (packages/cli/dist/kas-wallet.js, built first when missing)
 * against `node -e 0`, the floor: `accounts get <address>` against an emulator this bench starts
 * (`kas-wallet emulator --ephemeral --port 0`, its printed settings as the environment),
 * `--help` and `--version`. Whole processes, run interleaved (each round alternates the order),
 * wall time; each command's ratio to the floor in every round, then their median and spread.
 *
 * Targets (the CLI issue): `accounts get` at most 4 times `node -e 0`, `--help` at most 1.5 times.
 *
 * `npm run bench -- cli` from the repository root; `KAS_BENCH_BIN=path/to/kas-wallet.js` measures
 * another build (a before/after comparison).
 */
import { build } from "esbuild"
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../../", import.meta.url))
const bin = process.env.KAS_BENCH_BIN ?? `${root}packages/cli/dist/kas-wallet.js`

const ROUNDS = 21
const WARMUP = 3

interface Case {
  readonly name: string
  readonly args: (address: string) => ReadonlyArray<string>
  /** The largest ratio to `node -e 0` accepted. */
  readonly target?: number
}

const floor: Case = { name: "`node -e 0`", args: () => ["-e", "0"] }

/**
 * The reference: the least any Effect 3 program that makes one request pays. One GET of the
 * emulator's /health with `FetchHttpClient` and one `Schema` decode, bundled and minified as the
 * CLI is, exiting as soon as it is done.
 */
const reference = `
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { Effect, Schema } from "effect"
const program = Effect.gen(function*() {
  const response = yield* HttpClient.get(process.env.KAS_WALLET_URL + "/health")
  const body = yield* response.json
  console.log(Schema.decodeUnknownSync(Schema.Struct({ status: Schema.String }))(body).status)
}).pipe(Effect.provide(FetchHttpClient.layer))
Effect.runPromise(program).then(() => process.exit(0))
`
const referenceDir = mkdtempSync(join(tmpdir(), "kas-bench-reference-"))
const referenceFile = join(referenceDir, "reference.mjs")

const cases: ReadonlyArray<Case> = [
  { name: "reference: a bundled Effect program, one fetch and one Schema decode", args: () => [referenceFile] },
  { name: "`kas-wallet accounts get <address>`", args: (a) => [bin, "accounts", "get", a], target: 4 },
  { name: "`kas-wallet --help`", args: () => [bin, "--help"], target: 1.5 },
  { name: "`kas-wallet --version`", args: () => [bin, "--version"] }
]

const median = (xs: ReadonlyArray<number>) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Starts an ephemeral emulator; resolves with its settings (the `export` lines) and a stop. */
const startEmulator = (): Promise<{ readonly env: Record<string, string>; readonly stop: () => void }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "emulator", "--ephemeral", "--port", "0"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    child.stdout.on("data", (d) => {
      out += d
      if (!/^listening on /m.test(out)) return
      const env: Record<string, string> = {}
      for (const m of out.matchAll(/^export (\w+)=(.*)$/gm)) env[m[1]!] = m[2]!.replace(/^'(.*)'$/, "$1")
      resolve({ env, stop: () => child.kill("SIGTERM") })
    })
    child.on("exit", (code) => reject(new Error(`the emulator exited (${code}) before listening:\n${out}`)))
  })

const time = (args: ReadonlyArray<string>, env: Record<string, string>): number => {
  const start = performance.now()
  const result = spawnSync(process.execPath, args, { env, stdio: "ignore" })
  const elapsed = performance.now() - start
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}`)
  return elapsed
}

/** Markdown lines: one row per command, its median time and its ratio to the floor (median and range). */
export const run = async (): Promise<Array<string>> => {
  if (!existsSync(bin)) execFileSync("npx", ["tsx", "build.ts"], { cwd: `${root}packages/cli`, stdio: "ignore" })
  writeFileSync(join(referenceDir, "reference.ts"), reference)
  await build({
    entryPoints: [join(referenceDir, "reference.ts")],
    outfile: referenceFile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    minify: true,
    nodePaths: [`${root}node_modules`],
    logLevel: "silent"
  })
  const emulator = await startEmulator()
  try {
    const env = { PATH: process.env.PATH ?? "", ...emulator.env }
    const created = spawnSync(process.execPath, [bin, "accounts", "create", "--json"], { env, encoding: "utf8" })
    const address = (JSON.parse(created.stdout) as { address: string }).address
    const all = [floor, ...cases]
    const samples = all.map(() => [] as Array<number>)
    const ratios = cases.map(() => [] as Array<number>)
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const times = new Array<number>(all.length)
      for (let c = 0; c < all.length; c++) {
        // Alternate the order, so that no command always follows the same one.
        const i = round % 2 === 0 ? c : all.length - 1 - c
        times[i] = time(all[i]!.args(address), env)
      }
      if (round < WARMUP) continue
      times.forEach((t, i) => samples[i]!.push(t))
      cases.forEach((_, i) => ratios[i]!.push(times[i + 1]! / times[0]!))
    }
    const rows = all.map((c, i) => {
      const ms = `${median(samples[i]!).toFixed(0)} ms (${Math.min(...samples[i]!).toFixed(0)}–${Math.max(...samples[i]!).toFixed(0)})`
      if (i === 0) return `| ${c.name} | ${ms} | 1 | |`
      const r = ratios[i - 1]!
      const m = median(r)
      const verdict = c.target === undefined ? "" : m <= c.target ? `met (≤ ${c.target}x)` : `NOT met (≤ ${c.target}x)`
      return `| ${c.name} | ${ms} | ${m.toFixed(2)}x (${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)}) | ${verdict} |`
    })
    return [
      "## CLI start-up",
      "",
      `Whole processes of the built CLI (\`node packages/cli/dist/kas-wallet.js\`) against \`node -e 0\`, ${ROUNDS} interleaved rounds after ${WARMUP} untimed ones; wall time; \`accounts get\` against an ephemeral emulator started by the bench. The ratio is taken in each round, then its median and range. The reference row is the least an Effect 3 program making one request costs here: the floor under any client command.`,
      "",
      "| command | median (range) | ratio to `node -e 0`: median (range) | target |",
      "| --- | ---: | ---: | --- |",
      ...rows
    ]
  } finally {
    emulator.stop()
    rmSync(referenceDir, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log((await run()).join("\n"))
