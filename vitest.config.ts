import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { DistApart } from "./test/setup/dist.js"

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

export default defineConfig({
  // The package's own name resolves to its sources (as tsconfig.json's `paths` do for tsc and
  // tsx): examples and tests import "effect-kas-wallet" with no build.
  resolve: {
    alias: [
      { find: /^effect-kas-wallet\/emulator$/, replacement: src("emulator/index.ts") },
      { find: /^effect-kas-wallet$/, replacement: src("index.ts") }
    ]
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/ once, for the tests that run the built package and CLI.
    globalSetup: ["test/setup/dist.ts"],
    sequence: { sequencer: DistApart },
    // Property tests and loopback servers are CPU-bound on a 2-core machine:
    // two workers keep the suite fast without starving the emulator.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Test files share each worker's modules: loading effect, the platform and the emulator once
    // per worker instead of once per file halves the suite's time (collection went from ~80 s to
    // ~10 s of worker time). Files keep no global state; the one library that does is reset per
    // file by test/setup/effect-vitest.ts.
    isolate: false,
    setupFiles: ["test/setup/effect-vitest.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
