/**
 * The servers of the `HttpApi` benchmark (httpApi.ts), each run in a child process of its own so
 * that its CPU, heap and start are its own. Each serves every route template of the operation
 * table (`WalletApi.all`: 50 operations on 44 templates) with one trivial handler answering a
 * fixed account JSON, over loopback HTTP with `NodeHttpServer.makeHandler` on a Node server:
 *
 * - `emulator`: the emulator's own dispatch, `App.make` over `Router` and `PathPattern` (a request
 *   id, the fault check, 404/405 with code 1010007 and `Allow`, the most specific template first),
 *   with each route's `run` replaced by the trivial handler (no caller selection, no body read);
 * - `emulator-decoding`: the same, each handler first decoding the request's path parameters,
 *   query and body with the operation's schemas from the table (what `HttpApiBuilder` does before
 *   its handlers; a failure is a 400 with one code here, the table's refusals being the emulator's);
 * - `router`: @effect/platform's `HttpRouter` with the same routes (`:name` parameters), configured
 *   as close to the emulator's matching as find-my-way allows (case-sensitive, no trailing-slash or
 *   duplicate-slash folding, long parameters), a 405 route with `Allow` on every template for each
 *   method it does not serve, a KAS 404, and the same request id and fault check around it;
 * - `httpapi`: `HttpApiBuilder` serving the `HttpApi` derived from the table (httpApiDerived.ts),
 *   each handler returning the fixed response, with the same 405 routes added to its router, the
 *   same router configuration, KAS 404, request id and fault check. Unlike the two above, it
 *   decodes each request's path, query, headers and body with the table's schemas before the
 *   handler (what the emulator's handlers do today, after routing: not measured there);
 * - `httpapi-bare`: the same `HttpApi` as derived, with the platform's defaults and nothing added
 *   (only for the table of answers: what `HttpApi` says by itself);
 * - `floor`: no routing at all, one handler answering every request with the fixed body through
 *   the same `NodeHttpServer` handler: what serving costs before any router.
 *
 * The servers run from one esbuild bundle of this file for Node, its dynamic imports split into
 * chunks loaded on demand (as the CLI ships: `bundle`), so that a start measures loading and
 * building what the candidate needs, not transpiling sources. Modules are imported after the
 * process starts, timed: the child reports its import time, its build-and-listen time and its port
 * over IPC, then its CPU time whenever asked.
 */
import { fork } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export type Kind = "floor" | "emulator" | "emulator-decoding" | "router" | "httpapi" | "httpapi-bare"

/** What a child reports once listening. */
export interface Ready {
  readonly port: number
  /** Milliseconds spent importing the candidate's modules (after the process and tsx started). */
  readonly importMs: number
  /** Milliseconds from the imports' end to listening (building the routes, the layers). */
  readonly buildMs: number
  /** Milliseconds from the process's start to listening. */
  readonly readyMs: number
}

/** The one body every handler answers: an account, as the service writes one. */
export const body = JSON.stringify({
  address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  chainId: 1001,
  createdAt: 1700000000,
  keyId: `krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default:0x${"ab".repeat(32)}`,
  krn: "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default",
  publicKey: `0x04${"cd".repeat(64)}`,
  updatedAt: 1700000000
})

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"] as const
const ALLOW_ORDER = ["GET", "POST", "PUT", "DELETE"]

const serve = async (kind: Kind): Promise<void> => {
  const t0 = performance.now()
  const [{ HttpApiBuilder, HttpMiddleware, HttpRouter, HttpServerResponse }, NodeHttpServer, { Cause, Effect, Layer, ManagedRuntime, Option }, http, { randomUUID }, WalletApi, Faults] =
    await Promise.all([
      import("@effect/platform"),
      import("@effect/platform-node/NodeHttpServer"),
      import("effect"),
      import("node:http"),
      import("node:crypto"),
      import("../../src/api/WalletApi.js"),
      import("../../packages/emulator/src/http/Faults.js")
    ])
  const emulator = kind.startsWith("emulator")
  const App = emulator ? await import("../../packages/emulator/src/http/App.js") : undefined
  const PathPattern = emulator ? await import("../../packages/emulator/src/http/PathPattern.js") : undefined
  const ApiError = emulator ? await import("../../packages/emulator/src/http/ApiError.js") : undefined
  const { Schema } = await import("effect")
  const Derived = kind.startsWith("httpapi") ? await import("./httpApiDerived.js") : undefined
  const { httpApiPath } = await import("./httpApiPaths.js")
  const t1 = performance.now()

  const bytes = Buffer.from(body)
  const faults = Faults.makeInjector(Faults.off)
  const fixed = Effect.sync(() => HttpServerResponse.uint8Array(bytes, { contentType: "application/json" }))
  const kas = (status: number, message: string, requestId: string, headers: Record<string, string> = {}) =>
    HttpServerResponse.uint8Array(Buffer.from(JSON.stringify({ code: 1010007, message, requestId })), {
      status,
      contentType: "application/json",
      headers: { ...headers, "x-request-id": requestId }
    })
  // Every template, and the methods it serves in the order `Allow` lists them.
  const templates = new Map<string, Array<string>>()
  for (const e of WalletApi.all) templates.set(e.path, [...(templates.get(e.path) ?? []), e.method])
  const notAllowed = (allow: string) => Effect.sync(() => kas(405, "method not allowed", "", { allow }))
  const allowOf = (methods: ReadonlyArray<string>) => ALLOW_ORDER.filter((m) => methods.includes(m)).join(", ")
  // The request id and fault check the emulator's App does, around a router: the id is set on
  // every answer (and in a KAS body), the 404 of a path no template matches is the service's.
  const edge = <E, R>(app: import("@effect/platform").HttpApp.Default<E, R>) =>
    Effect.gen(function*() {
      const requestId = randomUUID()
      const fault = yield* faults.next
      if (Option.isSome(fault)) return kas(503, "injected fault", requestId)
      return yield* app.pipe(
        Effect.map((response) => HttpServerResponse.setHeader(response, "x-request-id", requestId)),
        Effect.catchAllCause((cause) => {
          const failure = Cause.failureOption(cause)
          const tag = Option.isSome(failure) ? (failure.value as { readonly _tag?: string })._tag : undefined
          return tag === "RouteNotFound" ? Effect.succeed(kas(404, "not found", requestId)) : Effect.failCause(cause)
        })
      )
    })
  // As close to the emulator's matching as find-my-way goes: it still percent-decodes the path.
  const routerConfig = { caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, maxParamLength: 1024 }

  const runtime: import("effect").ManagedRuntime.ManagedRuntime<any, never> = ManagedRuntime.make(
    kind.startsWith("httpapi")
      ? (() => {
        const { api, groups } = Derived!
        const handled = groups.map(([name, endpoints]) =>
          HttpApiBuilder.group(api, name as never, (handlers: any) => endpoints.reduce((h, e) => h.handle(e.name, () => fixed), handlers))
        )
        const apiLayer = HttpApiBuilder.api(api).pipe(Layer.provide(handled as any))
        const extra = kind === "httpapi"
          ? HttpApiBuilder.Router.use((router) =>
            Effect.forEach(
              [...templates].flatMap(([path, served]) =>
                METHODS.filter((m) => !served.includes(m)).map((m) => HttpRouter.makeRoute(m, httpApiPath(path), notAllowed(allowOf(served))))
              ),
              (route) => router.addRoute(route)
            )
          )
          : Layer.empty
        return Layer.mergeAll(apiLayer, extra, HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer, NodeHttpServer.layerContext) as import("effect").Layer.Layer<any>
      })()
      : NodeHttpServer.layerContext
  )

  // A handler decoding what `HttpApiBuilder` decodes before its own: the path parameters (after
  // percent-decoding, as find-my-way gives them), the query, the body.
  const decoding = (e: (typeof WalletApi.all)[number]) => {
    const path = Schema.decodeUnknown(e.pathSchema)
    const query = Object.keys(e.urlParamsSchema.fields).length > 0 ? Schema.decodeUnknown(e.urlParamsSchema) : undefined
    const payload = e.payload === undefined ? undefined : Schema.decodeUnknown(e.payload.schema as import("effect").Schema.Schema<unknown, unknown>)
    return (_: unknown, request: import("@effect/platform").HttpServerRequest.HttpServerRequest, params: Readonly<Record<string, string>>, queryText: string) =>
      Effect.gen(function*() {
        const values = yield* Effect.try(() => Object.fromEntries(Object.entries(params).map(([k, v]) => [k, decodeURIComponent(v)])))
        yield* path(values)
        if (query !== undefined) yield* query(Object.fromEntries(new URLSearchParams(queryText)))
        if (payload !== undefined) {
          const text = yield* request.text
          yield* payload(yield* Effect.try(() => JSON.parse(text)))
        }
        return bytes
      }).pipe(Effect.catchAll(() => Effect.fail(ApiError!.refused(1061615, "invalid request"))))
  }
  const app: import("@effect/platform").HttpApp.Default<any, any> = await runtime.runPromise(
    kind === "floor"
      ? Effect.succeed(fixed)
      : emulator
      ? Effect.sync(() =>
        App!.make({
          // Only what the dispatch reads: each route's method, template, access and run.
          table: WalletApi.all.map((e) => ({
            method: e.method,
            path: PathPattern!.make(e.path),
            access: e.access,
            run: kind === "emulator" ? () => Effect.succeed(bytes) : decoding(e)
          })),
          faults
        } as never)
      )
      : kind === "router"
      ? Effect.gen(function*() {
        let router: import("@effect/platform").HttpRouter.HttpRouter<any, any> = HttpRouter.empty
        for (const e of WalletApi.all) router = HttpRouter.route(e.method)(router, httpApiPath(e.path), fixed)
        for (const [path, served] of templates) {
          for (const m of METHODS) if (!served.includes(m)) router = HttpRouter.route(m)(router, httpApiPath(path), notAllowed(allowOf(served)))
        }
        return edge(yield* HttpRouter.toHttpApp(router))
      }).pipe(Effect.locally(HttpRouter.currentRouterConfig, routerConfig))
      : kind === "httpapi"
      ? Effect.map(HttpApiBuilder.httpApp, edge).pipe(Effect.locally(HttpRouter.currentRouterConfig, routerConfig))
      : HttpApiBuilder.httpApp
  )
  const handler = await runtime.runPromise(
    // No tracing spans, as the emulator's listener.
    NodeHttpServer.makeHandler(app).pipe(Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true))
  )
  const server = http.createServer(handler)
  server.keepAliveTimeout = 60_000
  server.listen(0, "127.0.0.1", () => {
    const t2 = performance.now()
    const ready: Ready = { port: (server.address() as { port: number }).port, importMs: t1 - t0, buildMs: t2 - t1, readyMs: t2 }
    process.send!(ready)
  })
  process.on("message", () => process.send!(process.cpuUsage()))
  process.on("disconnect", () => process.exit(0))
}

if (process.argv[2] === "--serve") {
  serve(process.argv[3] as Kind).catch((e) => {
    console.error(e)
    process.exit(1)
  })
}

/** A server running in a child process. */
export interface Server extends Ready {
  readonly kind: Kind
  /** Milliseconds from spawning the process to its `Ready` message. */
  readonly spawnToReadyMs: number
  /** The child's CPU time so far (user + system), in milliseconds. */
  readonly cpuMs: () => Promise<number>
  readonly stop: () => void
}

/**
 * Bundles this file into `dir` (ESM for Node, code splitting: each candidate's modules in chunks
 * of their own, loaded by its dynamic imports); resolves with the entry's path.
 */
export const bundle = async (dir: string): Promise<string> => {
  // Imported here, so that a server's process never loads it.
  const { build } = await import("esbuild")
  await build({
    entryPoints: [fileURLToPath(import.meta.url)],
    outdir: dir,
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    // The workspace's packages resolve to their sources, as in the tests.
    tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)),
    external: ["esbuild"],
    // Some dependencies `require` Node's modules: give the ESM bundle a `require`.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: "warning"
  })
  return join(dir, "httpApiServers.js")
}

/** Starts a server of `kind` in a child process running `script` (what `bundle` made). */
export const start = (kind: Kind, script: string): Promise<Server> =>
  new Promise((resolve, reject) => {
    const spawned = performance.now()
    const child = fork(script, ["--serve", kind], { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] })
    child.once("error", reject)
    child.once("exit", (code) => reject(new Error(`the ${kind} server exited (${code})`)))
    child.once("message", (ready: Ready) => {
      const spawnToReadyMs = performance.now() - spawned
      resolve({
        ...ready,
        kind,
        spawnToReadyMs,
        cpuMs: () =>
          new Promise((answer) => {
            child.once("message", (usage: NodeJS.CpuUsage) => answer((usage.user + usage.system) / 1000))
            child.send("cpu")
          }),
        stop: () => {
          child.removeAllListeners("exit")
          child.kill()
        }
      })
    })
  })
