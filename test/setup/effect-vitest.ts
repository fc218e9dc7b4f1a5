/**
 * Vitest setup file, run before each test file. The test files share one module registry per
 * worker (`isolate: false` in vitest.config.ts), and @effect/vitest's `layer(...)` assigns its own
 * `effect` / `scoped` testers onto the shared `it` (`Object.assign(it, ...)`): a file that used
 * `layer(..., { excludeTestServices: true })` would leave the next file's `it.effect` without the
 * TestClock. The original testers are kept from the first load and put back before every file.
 */
import { it } from "@effect/vitest"
import { chai } from "vitest"

// chai wraps each assertion in a Proxy that turns a misspelt property into an error with a
// suggestion: ~0.6 s of the suite's CPU (the property tests assert thousands of times), for what
// the type check already refuses (a misspelt matcher is no property of `Assertion`).
chai.config.useProxy = false

const key = Symbol.for("effect-kas-wallet/test/effect-vitest-testers")
const store = globalThis as { [key]?: Pick<typeof it, "effect" | "scoped" | "live" | "scopedLive" | "prop" | "flakyTest" | "layer"> }
store[key] ??= {
  effect: it.effect,
  scoped: it.scoped,
  live: it.live,
  scopedLive: it.scopedLive,
  prop: it.prop,
  flakyTest: it.flakyTest,
  layer: it.layer
}
Object.assign(it, store[key])
