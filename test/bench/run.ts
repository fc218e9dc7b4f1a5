/**
 * `npm run bench`: runs every benchmark, each in its own process (so that one's heap does not
 * weigh on another's memory figures), and writes docs/benchmarks.md.
 */
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import * as os from "node:os"
import { fileURLToPath } from "node:url"

const self = fileURLToPath(import.meta.url)
const name = process.argv[2]

if (name !== undefined) {
  const lines = name === "decode"
    ? await (await import("./decode.js")).run()
    : name === "memory" || name === "memory-raw"
    ? await (await import("./client.js")).runMemory(name === "memory" ? "client" : "raw")
    : await (await import("./client.js")).run()
  console.log(lines.join("\n"))
} else {
  const sections: Array<string> = []
  for (const bench of ["decode", "client", "memory", "memory-raw"]) {
    console.error(`running ${bench}...`)
    const out = execFileSync(process.execPath, [...process.execArgv, self, bench], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    console.log(out)
    sections.push(out.trimEnd())
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
  const notes = new URL("./notes.md", import.meta.url)
  const { readFileSync } = await import("node:fs")
  writeFileSync(new URL("../../docs/benchmarks.md", import.meta.url), [header.join("\n"), ...sections, readFileSync(notes, "utf8").trimEnd()].join("\n\n") + "\n")
  console.error("wrote docs/benchmarks.md")
}
