/**
 * The operation table against the service's public OpenAPI document (test/support/officialSpec.ts):
 * every operation of the document is in the table with the same method, path, path and query
 * parameters (and whether each is required), headers and body, and the codes the document shows
 * are among those the table declares; the table has no operation the document does not. Where the
 * table departs from the document on purpose, `departures` says so and why.
 */
import { describe, expect, it } from "@effect/vitest"
import { SchemaAST } from "effect"
import * as Endpoint from "../src/api/Endpoint.js"
import * as WalletApi from "../src/api/WalletApi.js"
import { official } from "./support/officialSpec.js"

/** What the table takes beyond the document, by operation id, and why. */
const departures: Readonly<Record<string, { readonly query: ReadonlyArray<string>; readonly why: string }>> = {
  "get-v2-history-fd-tx": {
    query: ["size", "cursor"],
    why: "the document lists only `from`, but its answer carries a cursor: the history pages as every listing does (docs/emulator.md, \"Fee-delegation history\")"
  }
}

const queryOf = (endpoint: Endpoint.Any) =>
  (endpoint.urlParamsSchema.ast as SchemaAST.TypeLiteral).propertySignatures.map((p) => ({ name: String(p.name), required: !p.isOptional }))

const sorted = <A>(items: ReadonlyArray<A>, key: (a: A) => string = String) => [...items].sort((a, b) => key(a).localeCompare(key(b)))

const byId = new Map(WalletApi.all.map((e) => [e.operationId, e]))

describe("the operation table and the service's document", () => {
  const operations = official()

  it("the document has 50 operations, each once", () => {
    expect(operations).toHaveLength(50)
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(50)
  })

  it("every operation of the document is in the table: method, path, parameters, body, codes", () => {
    for (const op of operations) {
      const endpoint = byId.get(op.operationId)
      expect(endpoint, op.operationId).toBeDefined()
      const e = endpoint!
      expect([e.method, e.path], op.operationId).toEqual([op.method, op.path])
      const path = op.parameters.filter((p) => p.in === "path").map((p) => p.name)
      expect(sorted(Endpoint.parameters(e.path)), op.operationId).toEqual(sorted(path))
      expect(sorted(Object.keys(e.pathSchema.fields)), op.operationId).toEqual(sorted(path))
      const extra = departures[op.operationId]?.query ?? []
      const query = op.parameters.filter((p) => p.in === "query").map(({ name, required }) => ({ name, required }))
      const declared = queryOf(e).filter((q) => !extra.includes(q.name))
      expect(sorted(declared, (q) => q.name), op.operationId).toEqual(sorted(query, (q) => q.name))
      // The only header the document lists is the chain, which every request of the client sends.
      expect(op.parameters.filter((p) => p.in === "header"), op.operationId).toEqual([{ in: "header", name: "x-chain-id", required: true }])
      expect(e.payload !== undefined, op.operationId).toBe(op.body)
      for (const code of op.codes) expect(e.errors, `${op.operationId} documents ${code}`).toContain(code)
    }
  })

  it("the table has no operation the document does not, and names each once", () => {
    const documented = new Set(operations.map((o) => o.operationId))
    expect(WalletApi.all.filter((e) => !documented.has(e.operationId)).map((e) => e.name)).toEqual([])
    expect(new Set(WalletApi.all.map((e) => e.name)).size).toBe(WalletApi.all.length)
    expect(WalletApi.byName.size).toBe(50)
  })

  it("every departure is used: a query parameter the table takes and the document does not", () => {
    for (const [id, departure] of Object.entries(departures)) {
      const names = queryOf(byId.get(id)!).map((q) => q.name)
      const documented = operations.find((o) => o.operationId === id)!.parameters.map((p) => p.name)
      for (const name of departure.query) {
        expect(names, `${id} takes ${name}`).toContain(name)
        expect(documented, `${id}: the document does not list ${name}`).not.toContain(name)
      }
    }
  })
})
