/**
 * The operations the CLI's help names (input/Operations.ts, plain data so that help loads no
 * effect) are the client's table of the wire (src/api/WalletApi.ts): the same names, methods and
 * paths, every one of them.
 */
import { describe, expect, it } from "@effect/vitest"
import * as WalletApi from "../../../src/api/WalletApi.js"
import { operations } from "../src/input/Operations.js"

describe("the CLI's operations", () => {
  it("are the client's table: each operation's method and path", () => {
    const table = Object.fromEntries(WalletApi.all.map((e) => [e.name, { method: e.method, path: e.path }]))
    expect(operations).toEqual(table)
  })
})
