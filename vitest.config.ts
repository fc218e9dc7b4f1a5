import { readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { DistApart } from "./test/setup/dist.js"

const repository = fileURLToPath(new URL(".", import.meta.url))

// The packages' names resolve to their sources, as tsconfig.json's `paths` (the one table) say
// for tsc and tsx: tests and examples import "effect-kas-wallet" and "effect-kas-wallet-emulator"
// with no build.
const { compilerOptions } = JSON.parse(readFileSync(new URL("./tsconfig.json", import.meta.url), "utf8")) as {
  compilerOptions: { paths: Record<string, ReadonlyArray<string>> }
}
const alias = Object.entries(compilerOptions.paths)
  // Longest first: a package's subpaths before the package itself.
  .sort(([a], [b]) => b.length - a.length)
  .map(([name, [target]]) => ({
    find: new RegExp(`^${name.replace(/[/-]/g, "\\$&")}$`),
    replacement: fileURLToPath(new URL(target!, import.meta.url))
  }))

// The suite's time. The rule: `npm test` under 60 s on an idle 2-core machine. Its CPU (user + sys,
// children included, `/usr/bin/time`) is the figure to watch: on 2 cores the wall is at least half
// of it, and this machine's speed itself drifts by a third within an hour (a fixed JS loop took
// 170-400 ms on 2026-11-29), so figures are compared in pairs run back to back. On 2026-11-29:
// warm (the docs check and the build kept), four pairs against the code of that morning, 46.7,
// 54.9, 58.9 and 57.1 s against 53.4, 53.4, 62.8 and 65.3 s (0.87-1.03x, median 0.9x); cold, as
// CI runs it (a fresh clone, `npm ci`, nothing kept), 59.3, 63.9 and 69.4 s in three clones (104-121
// s of CPU): at the limit, not under it with room. What changed that
// day: the workers' collector on their own thread (below), the documentation checked by TypeScript
// 7 (~3 s of CPU, where 5.9's API took ~8 s cold: test/support/docBlocks.ts), vitest's `expect` only
// for what fails in the hottest property checks. Where it goes, per file (warm, CPU of the worker): the emulator's
// bounded, ledger and contract tests 2-5 s each (EVM runs to their 200 ms budgets and worker
// restarts, signing), the client's stream and hostile size tests 3.4-4.2 s, the property tests of
// the decoders 1.4-3 s each; in child processes, the CLI's process test ~5 s (two emulator
// processes and a CLI) and test/package.test.ts ~5 s (npm pack, esbuild bundles, a CommonJS
// application); the 154 in-process emulators the tests start, ~30-45 ms of CPU each. The
// emulator's tests send through undici: a request costs the worker ~1.4 ms of CPU against ~2.7 ms
// over fetch.

/**
 * The test configuration of a package of this repository: its test files, run as the root runs
 * them. The root's own configuration runs every package's tests in one run.
 */
export const configFor = (root: string, include: ReadonlyArray<string>) =>
  defineConfig({
    root,
    resolve: { alias },
    // The sources the tests import, transformed by the main process while the workers start and
    // load effect and the platform, rather than when a worker first imports them (then ~0.9 s each
    // for the client's and the emulator's modules, the worker waiting). On a quiet 2-core machine,
    // three runs each: 43.1-45.9 s for the suite against 49.7-51.8 s; interleaved on a busier one,
    // 49.6-53.0 s against 48.9-57.6 s.
    server: {
      warmup: {
        ssrFiles: ["src", "packages/emulator/src", "packages/cli/src"].map((dir) => `${relative(root, join(repository, dir)) || "."}/**/*.ts`)
      }
    },
    test: {
      include: [...include],
      // Builds the client's dist/ and the CLI's bundle once, for the tests that run them.
      globalSetup: [`${repository}test/setup/dist.ts`],
      sequence: { sequencer: DistApart },
      // Property tests and loopback servers are CPU-bound on a 2-core machine:
      // two workers keep the suite fast without starving the emulator. Three, to fill the time a
      // worker waits for the processes it starts: 63.7 and 67.7 s against 59.7 and 56.2 s for two,
      // paired, and tinypool's "Terminating worker thread" rejection at the end (2026-11-29).
      pool: "forks",
      // A young generation of up to 64 MB rather than 16: the streams and the emulator's pages keep
      // many objects alive across a collection, and each scavenge copies them. Measured over the
      // suite (--trace-gc): 756 scavenges, 6.9 s of pauses at 16 MB; 215, 4.3 s at 64 MB (128 MB:
      // 4.7 s).
      // The collector on each worker's own thread: two workers already keep both cores busy, and
      // V8's helper threads (parallel scavenges, concurrent marking) then only add their handing over
      // to the work. Measured over the suite, paired runs on an idle 2-core machine: 62.1 and 63.1 s
      // of wall for 111 and 113 s of CPU, against 72.3 and 73.1 s for 129 and 127 s with the helpers
      // (`--single-threaded`, compiling on the same thread too, measured no different: 58.3 and 62.8 s
      // against 64.2 and 53.4 s for this flag, in the same pairs).
      poolOptions: { forks: { maxForks: 2, minForks: 1, execArgv: ["--max-semi-space-size=64", "--single-threaded-gc"] } },
      // Test files share each worker's modules: loading effect, the platform and the emulator once
      // per worker instead of once per file halves the suite's time (collection went from ~80 s to
      // ~10 s of worker time). Files keep no global state; the one library that does is reset per
      // file by test/setup/effect-vitest.ts.
      isolate: false,
      setupFiles: [`${repository}test/setup/effect-vitest.ts`],
      testTimeout: 60_000,
      hookTimeout: 60_000
    }
  })

export default configFor(repository, ["test/**/*.test.ts", "packages/*/test/**/*.test.ts"])
