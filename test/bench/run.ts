/**
 * `npm run bench`: runs every benchmark side by side and writes docs/benchmarks.md.
 */
import { writeFileSync } from "node:fs"
import * as os from "node:os"
import * as client from "./client.js"
import * as decode from "./decode.js"

const sections: Array<ReadonlyArray<string>> = []
for (const [name, bench] of [["decode", decode], ["client", client]] as const) {
  console.error(`running ${name}...`)
  const lines = await bench.run()
  console.log(lines.join("\n") + "\n")
  sections.push(lines)
}

const header = [
  "# Benchmarks",
  "",
  "Produced by `npm run bench` (test/bench/). Candidates run interleaved in one process and are",
  "compared as ratios: absolute times on shared machines are noisy, ratios much less so.",
  "",
  `Last run: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores.`,
  ""
]
writeFileSync(new URL("../../docs/benchmarks.md", import.meta.url), [...header, ...sections.map((s) => s.join("\n"))].join("\n") + "\n")
console.error("wrote docs/benchmarks.md")
