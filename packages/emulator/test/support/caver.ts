/**
 * The official JavaScript client (caver-js-ext-kas 1.12), installed on demand into a cache folder
 * (never a dependency of this package) for the conformance check and the side-by-side benchmark.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"

export const CaverVersion = "1.12.0"

/** Where the official client is installed: `KAS_CAVER_CACHE`, else the user's cache folder. */
export const cacheDir = (): string =>
  process.env.KAS_CAVER_CACHE ?? path.join(os.homedir(), ".cache", "effect-kas-wallet", `caver-js-ext-kas-${CaverVersion}`)

/** The CaverExtKAS constructor, installing it first when needed; or why it cannot be had. */
export const loadCaver = (): { readonly CaverExtKAS: any } | { readonly unavailable: string } => {
  const dir = cacheDir()
  const entry = path.join(dir, "node_modules", "caver-js-ext-kas")
  try {
    if (!existsSync(entry)) {
      mkdirSync(dir, { recursive: true })
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "caver-cache", private: true }))
      process.stderr.write(`installing caver-js-ext-kas@${CaverVersion} into ${dir} (once; about two minutes)...\n`)
      // Its install scripts build optional native modules it does not need here.
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", `caver-js-ext-kas@${CaverVersion}`], {
        cwd: dir,
        stdio: ["ignore", "ignore", "inherit"],
        timeout: 15 * 60_000
      })
    }
    return { CaverExtKAS: createRequire(path.join(dir, "package.json"))("caver-js-ext-kas") }
  } catch (e) {
    return { unavailable: e instanceof Error ? e.message.split("\n")[0]! : String(e) }
  }
}
