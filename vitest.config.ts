import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/ once, for the tests that run the built package and CLI.
    globalSetup: ["test/setup/dist.ts"],
    // Property tests and loopback servers are CPU-bound on a 2-core machine:
    // two workers keep the suite fast without starving the emulator.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
