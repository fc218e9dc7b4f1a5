/**
 * The route table, the dispatcher and the OpenAPI document agree: every operation of the document
 * is answered (never 404 or 405) on a running emulator, every other method of a documented path is
 * a 405 whose `Allow` lists exactly the documented methods, and paths the document does not have
 * are 404. The table itself has no two routes one request could mean.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Emulator from "../src/Emulator.js"
import * as PathPattern from "../src/http/PathPattern.js"
import * as Routes from "../src/http/Routes.js"
import * as WalletApi from "effect-kas-wallet/WalletApi"
import { clientLayer, expectError, send } from "./_support.js"
import { official } from "../../../test/support/officialSpec.js"

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"] as const
const ALLOW_ORDER = ["GET", "POST", "PUT", "DELETE"]

/** A documented path, written independently of the emulator's matcher: a parameter is any non-empty segment. */
interface Documented {
  readonly template: string
  readonly methods: ReadonlyArray<string>
  readonly regex: RegExp
  readonly literals: number
}

const documented = (doc: any): ReadonlyArray<Documented> =>
  Object.entries(doc.paths as Record<string, Record<string, unknown>>).map(([template, operations]) => ({
    template,
    methods: Object.keys(operations).map((m) => m.toUpperCase()),
    regex: new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^/]+\}/g, "[^/]+")}$`),
    literals: template.split("/").filter((s) => s !== "" && !s.startsWith("{")).length
  }))

/** The documented path a request path means: where several match, the one with the most literal segments. */
const meant = (paths: ReadonlyArray<Documented>, path: string): Documented | undefined =>
  paths.filter((p) => p.regex.test(path)).sort((a, b) => b.literals - a.literals)[0]

const instantiate = (template: string) => template.replace(/\{[^/]+\}/g, "x")

/**
 * Every operation of the public spec (caver-js-ext-kas 1.12's
 * yamls/wallet/2021-09-29-openapi-versioned.yaml, extracted in test/fixtures/spec, which the root's
 * tests compare with the operation table and `npm run conformance` with the document), in its order.
 */
const SPEC_OPERATIONS: ReadonlyArray<readonly [method: string, template: string]> = official().map((o) => [o.method, o.path] as const)

describe("the route table", () => {
  it("no two routes share an operation id, a method and path, or a path shape", () => {
    const ids = Routes.table.map((r) => r.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    const routes = Routes.table.map((r) => `${r.method} ${r.path.template}`)
    expect(new Set(routes).size).toBe(routes.length)
    // Two templates of one shape (`/a/{x}`, `/a/{y}`) would match the same paths.
    const templates = [...new Set(Routes.table.map((r) => r.path.template))]
    const shapes = templates.map((t) => PathPattern.shape(PathPattern.make(t)))
    expect(new Set(shapes).size).toBe(templates.length)
  })

  it("every operation of the client's table is a route of it, with the table's method, path and operation id", () => {
    const routes = new Set(Routes.table.map((r) => `${r.method} ${r.path.template} ${r.operationId}`))
    expect(WalletApi.all.map((e) => `${e.method} ${e.path} ${e.operationId}`).filter((r) => !routes.has(r))).toEqual([])
  })

  it("every path parameter is described, in the order of the path", () => {
    for (const route of Routes.table) {
      expect(route.pathParameters.map((p) => p.name), route.operationId).toEqual(route.path.parameters)
      for (const p of route.pathParameters) expect(p.description, `${route.operationId} ${p.name}`).not.toBe("")
    }
  })
})

layer(Layer.merge(Emulator.layer(), clientLayer))("dispatcher and document", (it) => {
  it.effect("every operation of the public spec is a route, answered (401 without credentials); one not served yet is 404 1010007 without Allow, as docs/emulator.md says", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      expect(SPEC_OPERATIONS).toHaveLength(50)
      const served = new Set(Routes.table.map((r) => `${r.method} ${r.path.template}`))
      for (const [method, template] of SPEC_OPERATIONS) {
        const reply = yield* send(method as any, `${e.url}${instantiate(template)}`)
        const what = `${method} ${template} -> ${reply.status} ${reply.text}`
        if (served.has(`${method} ${template}`)) {
          expectError(reply, 401, 1010008)
        } else {
          // Not a 405 of a neighbouring route's path (POST /v2/tx/legacy under GET /v2/tx/{hash}).
          expectError(reply, 404, 1010007)
          expect(reply.headers.allow, what).toBeUndefined()
        }
      }
    }))

  it.effect("every documented operation is answered: never 404 or 405", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const paths = documented(e.openApi)
      expect(paths.length).toBeGreaterThan(10)
      for (const { methods, template } of paths) {
        for (const method of methods) {
          const reply = yield* send(method as any, `${e.url}${instantiate(template)}`)
          expect([404, 405], `${method} ${template} -> ${reply.status} ${reply.text}`).not.toContain(reply.status)
          // Without credentials: the emulator's own routes answer, every other one asks for them.
          expect(reply.status, `${method} ${template}`).toBe(template === "/health" || template === "/openapi.json" ? 200 : 401)
        }
      }
    }))

  it.effect("around every documented path and every route of the table: undocumented methods are 405 with the documented Allow, undocumented paths 404", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const paths = documented(e.openApi)
      const candidates = new Set(["/", "/v2", "/v2/", "/v1/account", "//v2/account", "/v2/tx", "/v2/tx/fd", "/v2/stat"])
      // The table's templates too: a route the dispatcher serves but the document lacks is then
      // answered where this test expects a 404.
      const templates = new Set([...paths.map((p) => p.template), ...Routes.table.map((r) => r.path.template)])
      for (const template of templates) {
        const path = instantiate(template)
        const segments = path.split("/")
        candidates.add(path)
        candidates.add(`${path}/`)
        candidates.add(`${path}/x`)
        candidates.add(path.toUpperCase())
        candidates.add(segments.slice(0, -1).join("/"))
        candidates.add([...segments.slice(0, -1), "x"].join("/"))
      }
      let notFound = 0
      let notAllowed = 0
      for (const path of candidates) {
        const target = meant(paths, path)
        for (const method of METHODS) {
          const reply = yield* send(method, `${e.url}${path}`)
          const what = `${method} ${path} (${target?.template ?? "undocumented"}) -> ${reply.status} ${reply.text}`
          if (target === undefined) {
            expect(reply.status, what).toBe(404)
            expectError(reply, 404, 1010007)
            notFound++
          } else if (!target.methods.includes(method)) {
            expect(reply.status, what).toBe(405)
            expectError(reply, 405, 1010007)
            expect(reply.headers.allow, what).toBe(ALLOW_ORDER.filter((m) => target.methods.includes(m)).join(", "))
            notAllowed++
          } else {
            expect([404, 405], what).not.toContain(reply.status)
          }
        }
      }
      expect(notFound).toBeGreaterThan(50)
      expect(notAllowed).toBeGreaterThan(50)
    }))
})
