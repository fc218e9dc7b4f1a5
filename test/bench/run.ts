/**
 * `npm run bench`: runs every benchmark, each in its own process (so that one's heap does not
 * weigh on another's figures), and writes docs/benchmarks.md. `npm run bench -- <name>...` runs
 * only the named ones and prints them.
 */
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import { fileURLToPath } from "node:url"

const self = fileURLToPath(import.meta.url)
const benches: Record<string, () => Promise<{ readonly run: () => Promise<ReadonlyArray<string>> }>> = {
  install: () => import("./install.js"),
  decode: () => import("./decode.js"),
  decodelistings: () => import("./decodeListings.js"),
  client: () => import("./client.js"),
  readahead: () => import("./readahead.js"),
  memory: () => import("./memory.js"),
  httpapi: () => import("./httpApi.js"),
  emulator: () => import("../../packages/emulator/test/bench/emulator.js"),
  keys: () => import("../../packages/emulator/test/bench/keys.js"),
  contracts: () => import("../../packages/emulator/test/bench/contracts.js"),
  bounded: () => import("../../packages/emulator/test/bench/bounded.js"),
  testkit: () => import("../../packages/emulator/test/bench/testkit.js"),
  cli: () => import("../../packages/cli/test/bench/cli.js"),
  transactions: () => import("./transactions.js"),
  caver: () => import("../../packages/emulator/test/bench/caver.js"),
  mining: () => import("../../packages/emulator/test/bench/mining.js")
}
const [flag, name] = process.argv.slice(2)

if (flag === "--one" && name !== undefined) {
  console.log((await (await benches[name]!()).run()).join("\n"))
} else {
  const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(benches)
  const sections: Array<string> = []
  for (const bench of names) {
    console.error(`running ${bench}...`)
    const out = execFileSync(process.execPath, [...process.execArgv, self, "--one", bench], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    console.log(out)
    sections.push(out.trimEnd())
  }
  if (process.argv.slice(2).length === 0) {
    const header = [
      "# Benchmarks",
      "",
      "Produced by `npm run bench` (test/bench/). Candidates run interleaved in one process and are",
      "compared as ratios within each run, over several runs for their spread: absolute times on",
      "shared machines are noisy, ratios much less so.",
      "",
      `Last run: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores.`,
      ""
    ]
    const notes = readFileSync(new URL("./notes.md", import.meta.url), "utf8").trimEnd()
    writeFileSync(new URL("../../docs/benchmarks.md", import.meta.url), [header.join("\n"), ...sections, notes].join("\n\n") + "\n")
    console.error("wrote docs/benchmarks.md")
  }
}
