/**
 * The route tables of the docs against the operation table, so that they cannot drift: every wire
 * reference in a table row of docs/client.md, packages/emulator/docs/emulator.md and
 * packages/cli/docs/cli.md (`` `METHOD /v2/…` ``, and the bare `` `/v2/…` `` paths that follow it in
 * the row, which take its method) names an operation of the table, with its method; docs/client.md
 * and the emulator's route table name every operation; the CLI's docs name every operation its
 * commands call.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type * as Endpoint from "../src/api/Endpoint.js"
import * as WalletApi from "../src/api/WalletApi.js"
import { operations as cliOperations } from "../packages/cli/src/input/Operations.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const read = (path: string) => readFileSync(`${root}${path}`, "utf8")

/** A path as a list of segments, any parameter (`{x}`, `<x>`) as `*`; the query left out. */
const segments = (path: string): ReadonlyArray<string> =>
  path.replace(/[?#].*$/, "").split("/").filter((s) => s !== "").map((s) => (/^[{<].*[}>]$/.test(s) ? "*" : s))

/** The operations a path may name: a template parameter takes any segment; literal segments win. */
const matching = (path: string): ReadonlyArray<Endpoint.Any> => {
  const wanted = segments(path)
  const candidates = WalletApi.all.filter((e) => {
    const template = segments(e.path)
    return template.length === wanted.length && template.every((s, i) => s === "*" || wanted[i] === "*" || s === wanted[i])
  })
  const literals = (e: Endpoint.Any) => segments(e.path).filter((s, i) => s !== "*" && s === wanted[i]).length
  const best = Math.max(...candidates.map(literals))
  return candidates.filter((e) => literals(e) === best)
}

interface Reference {
  readonly line: number
  readonly method: string | undefined
  readonly path: string
}

/** Every wire reference in the table rows of a document. */
const references = (text: string): ReadonlyArray<Reference> =>
  text.split("\n").flatMap((row, i) => {
    if (!row.startsWith("|")) return []
    const found: Array<Reference> = []
    let method: string | undefined
    for (const [, span] of row.matchAll(/`([^`]*)`/g)) {
      const m = /^(?:(GET|POST|PUT|DELETE) )?(\/v2\/\S*)$/.exec(span!.trim())
      if (m === null) continue
      method = m[1] ?? method
      found.push({ line: i + 1, method, path: m[2]! })
    }
    return found
  })

/** The operations a document names; a reference that names none is a failure. */
const named = (path: string): ReadonlySet<string> => {
  const names = new Set<string>()
  for (const ref of references(read(path))) {
    const ops = matching(ref.path).filter((e) => ref.method === undefined || e.method === ref.method)
    expect(ops.length, `${path}:${ref.line}: ${ref.method ?? ""} ${ref.path} is no operation of the table`).toBeGreaterThan(0)
    for (const e of ops) names.add(e.name)
  }
  return names
}

const missing = (names: ReadonlySet<string>, wanted: Iterable<string>) => [...wanted].filter((n) => !names.has(n))

describe("the docs' route tables and the operation table", () => {
  it("docs/client.md names every operation, each with its method and path", () => {
    expect(missing(named("docs/client.md"), WalletApi.byName.keys())).toEqual([])
  })

  it("the emulator's route table names every operation it serves, each with its method and path", () => {
    expect(missing(named("packages/emulator/docs/emulator.md"), WalletApi.byName.keys()).join(" ")).toEqual("")
  })

  it("docs/cli.md names every operation the commands call, each with its method and path", () => {
    expect(missing(named("packages/cli/docs/cli.md"), Object.keys(cliOperations))).toEqual([])
  })

  it("a reference to a path or method the table does not have fails", () => {
    const refs = references("| `x` | `GET /v2/account/<address>/nothing` |\n| `y` | `DELETE /v2/stat/count` |")
    expect(refs.map((r) => matching(r.path).filter((e) => r.method === undefined || e.method === r.method).length)).toEqual([0, 0])
    expect(references("| `a` | `POST /v2/tx/rlp`, `/v2/tx/fd/rlp` |").map((r) => [r.method, matching(r.path)[0]!.name])).toEqual([
      ["POST", "processRlp"],
      ["POST", "feeDelegatedProcessRlp"]
    ])
  })
})
