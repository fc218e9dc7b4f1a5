/**
 * The public surface of `effect-kas-wallet-emulator`: what a user's tests need, nothing of the
 * emulator's machinery; each public module also a subpath, resolved in this repository as users'
 * installs resolve it.
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import * as Public from "../src/index.js"

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  exports: Record<string, { types: string; import: string } | string>
  peerDependencies: Record<string, string>
  dependencies: Record<string, string>
}
const tsconfig = JSON.parse(readFileSync(new URL("../../../tsconfig.json", import.meta.url), "utf8")) as {
  compilerOptions: { paths: Record<string, ReadonlyArray<string>> }
}

describe("effect-kas-wallet-emulator", () => {
  it("exports exactly the service, its config, errors, faults, console, test kit and console client", () => {
    expect(Object.keys(Public).sort()).toEqual(["ApiError", "ConsoleClient", "Emulator", "EmulatorConfig", "EmulatorConsole", "EmulatorError", "EmulatorTest", "Faults"])
  })

  it("every entry of the exports map is a module of src/, and tsconfig's paths map the same names to it", () => {
    const subpaths = Object.entries(manifest.exports).filter(([name]) => name !== "./package.json")
    // The main entry and one subpath per public namespace.
    expect(subpaths.map(([name]) => name).sort()).toEqual([".", ...Object.keys(Public).map((n) => `./${n}`)].sort())
    for (const [name, target] of subpaths) {
      if (typeof target === "string") throw new Error(`${name}: no conditions`)
      const source = target.import.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")
      expect(target.types, name).toBe(target.import.replace(/\.js$/, ".d.ts"))
      expect(existsSync(new URL(`../${source}`, import.meta.url)), source).toBe(true)
      const alias = name === "." ? "effect-kas-wallet-emulator" : `effect-kas-wallet-emulator/${name.slice(2)}`
      expect(tsconfig.compilerOptions.paths[alias], alias).toEqual([`./packages/emulator/${source}`])
    }
  })

  it("the client and every effect package are peers: one copy of each in an application", () => {
    expect(manifest.peerDependencies["effect-kas-wallet"]).toBeDefined()
    expect(Object.keys(manifest.dependencies).filter((d) => d === "effect" || d.startsWith("@effect/") || d === "effect-kas-wallet")).toEqual([])
  })
})
