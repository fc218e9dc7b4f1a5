/**
 * Start-up of the built `kas-wallet` (dist/cli/bin.js, built first when missing): the median wall
 * time of whole processes, run interleaved with a bare `node` as the floor. `--version` and `--help`
 * answer from the command table without loading effect; a command that runs loads @effect/cli and
 * the client (or the emulator) as well, for comparison.
 *
 * Run alone: `node --import tsx test/bench/cli.ts`.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../../", import.meta.url))
const bin = `${root}packages/cli/dist/kas-wallet.js`

const ROUNDS = 15
const WARMUP = 2
/** The target of `--version` and `--help` (issue 11), in milliseconds. */
const TARGET_MS = 500

interface Case {
  readonly name: string
  readonly args: ReadonlyArray<string>
  readonly target?: number
  /** The exit code the case ends with. */
  readonly code: number
}

const cases: ReadonlyArray<Case> = [
  { name: "`node -e 0` (the floor)", args: ["-e", "0"], code: 0 },
  { name: "`kas-wallet --version`", args: [bin, "--version"], target: TARGET_MS, code: 0 },
  { name: "`kas-wallet --help`", args: [bin, "--help"], target: TARGET_MS, code: 0 },
  { name: "`kas-wallet accounts list --help`", args: [bin, "accounts", "list", "--help"], code: 0 },
  { name: "`kas-wallet emulator --help` (loads the option table)", args: [bin, "emulator", "--help"], code: 0 },
  { name: "`kas-wallet accounts list` without a key (loads the client)", args: [bin, "accounts", "list"], code: 2 }
]

const median = (xs: ReadonlyArray<number>) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Markdown lines: one row per case, with its median and spread over the rounds. */
export const run = async (): Promise<Array<string>> => {
  if (!existsSync(bin)) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "ignore" })
  const env = { PATH: process.env.PATH ?? "" }
  const samples = cases.map(() => [] as Array<number>)
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (let c = 0; c < cases.length; c++) {
      // Alternate the order, so that no case always follows the same one.
      const i = round % 2 === 0 ? c : cases.length - 1 - c
      const start = performance.now()
      const result = spawnSync(process.execPath, cases[i]!.args, { env, stdio: "ignore" })
      const elapsed = performance.now() - start
      if (result.status !== cases[i]!.code) throw new Error(`${cases[i]!.name} exited ${result.status}`)
      if (round >= WARMUP) samples[i]!.push(elapsed)
    }
  }
  const rows = cases.map((c, i) => {
    const xs = samples[i]!
    const m = median(xs)
    const verdict = c.target === undefined ? "" : m <= c.target ? `met (≤ ${c.target} ms)` : `NOT met (≤ ${c.target} ms)`
    return `| ${c.name} | ${m.toFixed(0)} ms | ${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms | ${verdict} |`
  })
  return [
    "## CLI start-up",
    "",
    `Whole processes of the built CLI (\`node dist/cli/bin.js\`), ${ROUNDS} interleaved rounds after ${WARMUP} untimed ones; wall time.`,
    "",
    "| command | median | range | target |",
    "| --- | ---: | ---: | --- |",
    ...rows
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log((await run()).join("\n"))
