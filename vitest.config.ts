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

// The suite's time. The rule: `npm test` under 60 s on an idle 2-core machine, warm and cold (CI:
// a fresh clone, `npm ci`, no node_modules/.cache, nothing built). Its CPU (user + sys, children
// included, `/usr/bin/time`) is the figure to watch: on 2 cores the wall is at least half of it.
// 2026-11-29, on a machine shared with other work (load 3-4.5), each pair run one after the other:
// - whole suite, main (a34308c) against the changes below: cold 119-127 s of CPU against 124-126
//   (wall 72-75 s against 70-73), warm 110-133 against 110-113 (61-76 s against 62-63): the
//   differences are within what the load moves a run;
// - the files the changes touch (packages/emulator/test, the CLI's process and package tests,
//   test/hostile/size.test.ts), three runs each: 67-74 s of CPU against 58-64 (wall 37-41 s
//   against 32-36); test/docs.blocks.test.ts without its cache: 20-22 s against 18-22.
// What changed: the emulator's tests send through undici (a request: ~2.7 ms of the worker's CPU
// over fetch, ~1.4 over undici; routes.test.ts 4.3 -> 2.8 s, concurrency.test.ts 6.0 -> 2.4);
// the process test's writers stop running ahead of the slowest kind, and its two commands that wait
// out a 1 s deadline run at once; the docs check parses JSDoc as tsc does (its parse 3.9 -> 2.6 s);
// a receipt of 24 MB over NodeHttpClient.layer is no longer read by the platform's quadratic
// arrayBuffer (src/internal/request.ts: 1.4-5.8 s -> 0.3 s). Where the rest goes, per file (warm,
// run alone less vitest's ~5 s): the CLI's process test ~6 s (two emulator processes, ~0.8 s
// each to start, and a CLI process), test/package.test.ts ~5 s (effect's CommonJS and ES builds
// loaded by one child, npm pack, three esbuild bundles), the emulator's ledger, bounded and
// contract tests 3-6 s each (signing, EVM runs to their 200 ms budgets, worker restarts), the
// property tests of the decoders 2-3 s each; cold adds the docs check (~10 s) and the build (~2 s).
// Each vitest worker also bundles the EVM worker once with esbuild (~0.5 s, blocking its first
// contract run: packages/emulator/src/chain/evm/Workers.ts).

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
      // two workers keep the suite fast without starving the emulator.
      pool: "forks",
      // A young generation of up to 64 MB rather than 16: the streams and the emulator's pages keep
      // many objects alive across a collection, and each scavenge copies them. Measured over the
      // suite (--trace-gc): 756 scavenges, 6.9 s of pauses at 16 MB; 215, 4.3 s at 64 MB (128 MB:
      // 4.7 s).
      poolOptions: { forks: { maxForks: 2, minForks: 1, execArgv: ["--max-semi-space-size=64"] } },
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
