/**
 * The operations the CLI's help names (input/Operations.ts, plain data so that help loads no
 * effect) are generated from the client's table of the wire (src/api/WalletApi.ts): the file is
 * what scripts/operations.ts writes, and so the same names, methods and paths, every one of them.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as WalletApi from "../../../src/api/WalletApi.js"
import { render, target } from "../scripts/operations.js"
import { operations } from "../src/input/Operations.js"

describe("the CLI's operations", () => {
  it("are the file the generator writes from the client's table (npm run generate -w effect-kas-wallet-cli)", () => {
    expect(readFileSync(target, "utf8")).toBe(render())
  })

  it("are the client's table: each operation's method and path", () => {
    const table = Object.fromEntries(WalletApi.all.map((e) => [e.name, { method: e.method, path: e.path }]))
    expect(operations).toEqual(table)
  })
})
