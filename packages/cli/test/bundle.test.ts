/**
 * What each command loads, from the bundle's metafile: `--help` the command table alone (the specs,
 * no handler, nothing of effect), a client command (accounts, fee-payers, tx, keys, history)
 * neither the emulator nor SQL nor libSQL, the ABI coder only where a contract is coded, and
 * nothing of @effect/cli is anywhere. The metafile is the one of the bundle the global
 * setup builds (test/setup/dist.ts, by packages/cli/build.ts), the bundle the process tests run.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import type { Metafile } from "esbuild"
import * as fs from "node:fs"
import * as path from "node:path"
import { awaitDist, cliMetafile } from "../../../test/setup/dist.js"

// The global setup builds the bundle in the background: wait for it before this file's tests.
beforeAll(() => awaitDist(), 180_000)

describe("the bundle", () => {
  it("help loads the table alone; the chunks a client command loads hold no emulator, @effect/sql or libSQL code", () => {
    const metafile = JSON.parse(fs.readFileSync(cliMetafile, "utf8")) as Metafile
    const outputs = metafile.outputs
    const key = (file: string) => Object.keys(outputs).find((k) => path.resolve(k) === path.resolve(file))!
    const byEntry = (entry: string) => Object.keys(outputs).find((k) => outputs[k]!.entryPoint?.endsWith(entry))!
    /** The files a chunk loads before it runs: itself and its static imports, transitively. */
    const loaded = (start: ReadonlyArray<string>): Set<string> => {
      const seen = new Set<string>()
      const visit = (file: string) => {
        if (seen.has(file)) return
        seen.add(file)
        for (const i of outputs[file]!.imports) {
          if (i.kind === "import-statement" && !i.external) visit(key(path.join(path.dirname(file), path.relative(path.dirname(file), i.path))))
        }
      }
      start.forEach(visit)
      return seen
    }
    const main = byEntry("src/main.ts")
    const bin = byEntry("src/bin.ts")
    // --help, --version, completions and usage errors: the reading of the command line, the help,
    // and the table's specs (commands/**/Spec.ts), plain data.
    const helpFiles = loaded([bin])
    const help = [...helpFiles].flatMap((f) => Object.keys(outputs[f]!.inputs))
    // The table in one chunk (the handlers read their specs through commands/Spec.ts): a spec in a
    // chunk of its own is one more file to load at every start.
    expect(helpFiles.size, [...helpFiles].join(", ")).toBeLessThanOrEqual(4)
    expect(help.filter((i) => !/packages\/cli\/src\/(bin|version|input\/\w+|output\/Help|commands\/([\w-]+\/)*Spec)\.ts$/.test(i))).toEqual([])
    expect(help.filter((i) => /commands\/([\w-]+\/)*Spec\.ts$/.test(i)).length).toBeGreaterThan(10)
    for (const command of ["accounts", "fee-payers", "tx", "keys", "history"]) {
      const files = loaded([bin, main, byEntry(`src/commands/${command}/Handlers.ts`)])
      const inputs = [...files].flatMap((f) => Object.keys(outputs[f]!.inputs))
      expect(inputs.length, command).toBeGreaterThan(10)
      expect(inputs.filter((i) => /@effect\/sql|libsql|packages\/emulator|emulator\/src|\/@effect\/cli\//.test(i)), command).toEqual([])
    }
    // The ABI coder (ox) loads with the commands that use it (Contract: tx deploy, execute, call,
    // receipt --event), not with every tx command.
    const inputsOf = (files: Set<string>) => [...files].flatMap((f) => Object.keys(outputs[f]!.inputs))
    const tx = inputsOf(loaded([bin, main, byEntry("src/commands/tx/Handlers.ts")]))
    expect(tx.filter((i) => /node_modules\/ox\//.test(i))).toEqual([])
    expect(inputsOf(loaded([byEntry("src/commands/tx/Contract.ts")])).some((i) => /node_modules\/ox\//.test(i))).toBe(true)
    // The emulator's command does load them: the check above can see them.
    const emulator = [...loaded([main, byEntry("src/commands/emulator/Handlers.ts")])].flatMap((f) => Object.keys(outputs[f]!.inputs))
    expect(emulator.some((i) => /emulator\/src/.test(i))).toBe(true)
    expect(Object.keys(metafile.inputs).filter((i) => i.includes("@effect/cli"))).toEqual([])
    // The EVM's worker is an entry of its own, beside the chunk that starts it (which looks for
    // `./EvmWorker.js` next to itself).
    const worker = byEntry("chain/evm/EvmWorker.ts")
    const starter = Object.keys(outputs).find((k) => Object.keys(outputs[k]!.inputs).some((i) => i.endsWith("chain/evm/Workers.ts")))!
    expect(path.resolve(worker)).toBe(path.resolve(path.dirname(starter), "EvmWorker.js"))
  })
})
