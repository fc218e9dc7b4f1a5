/**
 * Effect's `HttpApi` side by side with the project's own table-driven client and emulator router
 * (issue 32): the `HttpApi` is derived from the operation table (httpApiDerived.ts), so both sides
 * declare the same 50 operations from the same schemas.
 *
 * - Bundle: the browser bundle (as test/support/bundle.ts measures the gate) of an application
 *   using an `HttpApiClient` of that `HttpApi`, beside the client's, the table alone and the
 *   `HttpApi` declaration alone; all over the baseline with `Stream`.
 * - Client CPU per call: `getAccount` and `listAccounts` (a page of 100) through `HttpApiClient`
 *   and through `WalletClient`, over one in-process fake `HttpClient` answering fixed bodies (no
 *   network), interleaved slices, ratios within each run.
 * - Server: the emulator's own dispatch (`App`, `Router`), `HttpRouter` and `HttpApiBuilder`, each
 *   serving the table's 44 templates with a trivial handler in a child process of its own
 *   (httpApiServers.ts): what each answers to a few requests (404, 405, the most specific
 *   template, paths the emulator refuses), requests/s and server CPU per request under the same
 *   load (a route mix, from this process over keep-alive connections, candidates interleaved),
 *   and the start (spawn to first answer).
 *
 * Run alone: `node --expose-gc --import tsx test/bench/run.ts --one httpapi` (or
 * `npm run bench -- httpapi`).
 */
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as OpenApi from "@effect/platform/OpenApi"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { Pool } from "undici"
import * as WalletApi from "../../src/api/WalletApi.js"
import { ChainId, WalletClient } from "../../src/index.js"
import { entries, measureWith } from "../support/bundle.js"
import { pageText } from "./fixtures.js"
import { cpuMs, median, spread } from "./harness.js"
import { api, groups } from "./httpApiDerived.js"
import { body as accountBody, bundle, type Kind, type Server, start } from "./httpApiServers.js"

const RUNS = 5
const root = fileURLToPath(new URL("../..", import.meta.url))
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

// ---------------------------------------------------------------------------------------------
// Bundle
// ---------------------------------------------------------------------------------------------

const bundleSection = async (): Promise<Array<string>> => {
  const dir = mkdtempSync(join(tmpdir(), "kas-httpapi-bundle-"))
  try {
    // Each an application over the same baseline as the client's gate: what it adds is over that.
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, `${name}.ts`), entries.streams + text)
      return join(dir, `${name}.ts`)
    }
    const table = JSON.stringify(`${root}src/api/WalletApi.ts`)
    const derived = JSON.stringify(`${root}test/bench/httpApiDerived.ts`)
    const others = [
      file("table", `import { all } from ${table}\nconsole.log(all)\n`),
      file("httpapi", `import { api } from ${derived}\nconsole.log(api)\n`),
      file("httpapiclient", `import { HttpApiClient } from "@effect/platform"\nimport { api } from ${derived}\nconsole.log(HttpApiClient.make(api, { baseUrl: "https://wallet-api.klaytnapi.com" }))\n`),
      file("client", entries.client)
    ]
    const { others: [tableOnly, declared, withClient, clientApp], sizes } = await measureWith(["streams", "client"], others)
    const size = (text: string) => ({ raw: Buffer.byteLength(text), gzip: gzipSync(text, { level: 9 }).byteLength })
    const streams = sizes.streams
    const rows = [
      ["the baseline + `Stream`, `Schedule`, `Config` (test/support/bundle.ts)", streams],
      ["that + the operation table (`WalletApi.all`: its schemas)", size(tableOnly!.text)],
      ["that + the table as an `HttpApi` (httpApiDerived.ts)", size(declared!.text)],
      ["that + `HttpApiClient.make(api)`", size(withClient!.text)],
      ["that + `WalletClient` + `ChainId`", size(clientApp!.text)],
      ["`WalletClient` + `ChainId` alone (the gate's entry)", sizes.client]
    ] as const
    const over = (s: { readonly raw: number; readonly gzip: number }) => `${kb(s.raw - streams.raw)} | ${kb(s.gzip - streams.gzip)}`
    const httpApiClient = size(withClient!.text)
    const tableSize = size(tableOnly!.text)
    const client = size(clientApp!.text)
    const platformModules = (inputs: ReadonlyArray<string>) =>
      new Set(inputs.filter((p) => p.includes("@effect/platform/")).map((p) => p.replace(/^.*@effect\/platform\/dist\/esm\//, "").replace(/\.js$/, "")))
    const ours = platformModules(clientApp!.inputs)
    const added = [...platformModules(withClient!.inputs)].filter((m) => !ours.has(m) && !m.startsWith("internal/")).sort()
    return [
      "### HttpApi side by side: browser bundle",
      "",
      "esbuild `--bundle --platform=browser --minify` of one file each, in the same run (test/support/bundle.ts, `measureWith`); the `HttpApi` is derived from the operation table, so both sides hold the same schemas.",
      "",
      "| entry | raw | gzip | raw over the baseline with Stream | gzip over it |",
      "| --- | ---: | ---: | ---: | ---: |",
      ...rows.map(([name, s]) => `| ${name} | ${kb(s.raw)} | ${kb(s.gzip)} | ${over(s)} |`),
      "",
      `Over the table alone, \`HttpApi\` + \`HttpApiClient\` add ${kb(httpApiClient.raw - tableSize.raw)} raw (${kb(httpApiClient.gzip - tableSize.gzip)} gzip) and the client ${kb(client.raw - tableSize.raw)} raw (${kb(client.gzip - tableSize.gzip)} gzip). ` +
      `The gate (test/package.test.ts: the client at most 137 KB over the baseline with Stream): the client ${kb(sizes.client.raw - streams.raw)}, the \`HttpApiClient\` application ${kb(httpApiClient.raw - streams.raw)} (it builds the requests and decodes the answers, nothing more: see the next section). ` +
      `Platform modules the \`HttpApiClient\` application holds that the client's bundle does not: ${added.map((m) => `\`${m}\``).join(", ")}.`,
      ""
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------------------------------------
// Client CPU per call
// ---------------------------------------------------------------------------------------------

const address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
const baseUrl = "https://wallet-api.klaytnapi.com"
const authorization = `Basic ${Buffer.from("bench:secret").toString("base64")}`

/**
 * An `HttpClient` answering every request at once with a fixed body: a page on `/v2/account`, an
 * account otherwise. With its length, as the service sends it: without one the client counts the
 * body as it streams (its size limit), which through a `Response`'s web stream costs it ~0.7 ms.
 */
const fakeClient = (page: string) =>
  HttpClient.make((request, url) =>
    Effect.sync(() => {
      const text = url.pathname === "/v2/account" ? page : accountBody
      return HttpClientResponse.fromWeb(
        request,
        new Response(text, { status: 200, headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) } })
      )
    })
  )

const clientSection = async (): Promise<Array<string>> => {
  const page = pageText(100, "")
  const ours = ManagedRuntime.make(
    WalletClient.layer({ credentials: { accessKeyId: "bench", secretAccessKey: Redacted.make("secret") }, chainId: ChainId.Testnet, baseUrl }).pipe(
      Layer.provide(Layer.succeed(HttpClient.HttpClient, fakeClient(page))),
      Layer.orDie
    )
  )
  const wallet = await ours.runPromise(WalletClient.WalletClient)
  // The headers the client sends, added as an application would: one mapRequest.
  const headersOf = HttpClient.mapRequest(HttpClientRequest.setHeaders({ authorization, accept: "application/json", "user-agent": "bench" }))
  const httpApiClient = (spans: boolean) =>
    Effect.runPromise(
      HttpApiClient.makeWith(api, {
        httpClient: fakeClient(page).pipe(headersOf, spans ? (c) => c : HttpClient.withTracerDisabledWhen(() => true)),
        baseUrl
      }) as Effect.Effect<any>
    )
  const [withSpan, noSpan] = [await httpApiClient(true), await httpApiClient(false)]
  const headers = { "x-chain-id": "1001" }
  const candidates = {
    getAccount: [
      ["`WalletClient.getAccount`", () => wallet.getAccount(address)],
      ["`HttpApiClient` getAccount, platform client span off (as the client's)", () => noSpan.accounts.getAccount({ path: { address }, headers })],
      ["`HttpApiClient` getAccount, platform client span on (its default)", () => withSpan.accounts.getAccount({ path: { address }, headers })]
    ],
    listAccounts: [
      ["`WalletClient.listAccounts`", () => wallet.listAccounts({ pageSize: 100 })],
      ["`HttpApiClient` listAccounts, span off", () => noSpan.accounts.listAccounts({ urlParams: { size: 100 }, headers })],
      ["`HttpApiClient` listAccounts, span on", () => withSpan.accounts.listAccounts({ urlParams: { size: 100 }, headers })]
    ]
  } as const
  // Both sides answer the same values.
  const a = (await ours.runPromise(wallet.getAccount(address))) as any
  const b = await Effect.runPromise(noSpan.accounts.getAccount({ path: { address }, headers }) as Effect.Effect<any>)
  const p = (await ours.runPromise(wallet.listAccounts({ pageSize: 100 }))) as any
  const q = await Effect.runPromise(noSpan.accounts.listAccounts({ urlParams: { size: 100 }, headers }) as Effect.Effect<any>)
  if (a.address !== b.address || p.items.length !== 100 || q.items.length !== 100 || p.items[99].address !== q.items[99].address) {
    throw new Error("the two clients do not answer the same values")
  }

  const cpuPer = (make: () => Effect.Effect<unknown, unknown>, n: number) =>
    ours.runPromise(Effect.suspend(() => {
      const before = cpuMs()
      return Effect.map(Effect.repeatN(Effect.suspend(make), n - 1), () => ((cpuMs() - before) / n) * 1000)
    }) as Effect.Effect<number>)

  const lines: Array<string> = [
    "### HttpApi side by side: client CPU per call (in-process fake `HttpClient`, fixed bodies)",
    "",
    `Process CPU per call (µs), median of 10 interleaved slices in each of ${RUNS} runs; ratios within each run. The page is 100 accounts (test/bench/fixtures.ts).`,
    "",
    "| operation | candidate | µs per call | ratio to `WalletClient` (spread) |",
    "| --- | --- | ---: | ---: |"
  ]
  for (const [operation, list] of Object.entries(candidates)) {
    const n = operation === "getAccount" ? 200 : 40
    for (const [, make] of list) await cpuPer(make as never, n)
    const per = list.map(() => [] as Array<number>)
    const ratios = list.map(() => [] as Array<number>)
    for (let run = 0; run < RUNS; run++) {
      const slices = list.map(() => [] as Array<number>)
      for (let s = 0; s < 10; s++) {
        for (let c = 0; c < list.length; c++) {
          const i = (c + s) % list.length
          slices[i]!.push(await cpuPer(list[i]![1] as never, n))
        }
      }
      const medians = slices.map(median)
      medians.forEach((m, i) => {
        per[i]!.push(m)
        ratios[i]!.push(m / medians[0]!)
      })
    }
    list.forEach(([name], i) => lines.push(`| ${operation} | ${name} | ${median(per[i]!).toFixed(0)} | ${i === 0 ? "1.00x" : spread(ratios[i]!)} |`))
  }
  await ours.dispose()
  lines.push(
    "",
    "Not the same work: per call the client also checks its arguments (the address's EIP-55 checksum), picks the chain and pool of the scope, " +
    "runs the request under its timeout (one forked fiber) and its retry schedule (reads only: the operation's `idempotent`), bounds the body, " +
    "decodes with the fast decoders (the page), scrubs the credentials from errors and maps every failure to one tagged `WalletError` " +
    "(a KAS body to its typed error by code), in a span of its own. `HttpApiClient` encodes the path, query and headers with the table's schemas, " +
    "decodes the body with the result's `Schema` and fails with the decoded KAS body or the platform's errors: no timeout, retry, body limit, scrubbing or checks of its own.",
    ""
  )
  return lines
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

const names: Record<Kind, string> = {
  floor: "no router: `NodeHttpServer` and one handler (the floor)",
  emulator: "the emulator's `App` + `Router`",
  "emulator-decoding": "the same, its handlers decoding with the table's schemas",
  router: "`HttpRouter` (+ 405 routes, KAS 404)",
  httpapi: "`HttpApiBuilder` (+ 405 routes, KAS 404)",
  "httpapi-bare": "`HttpApiBuilder` as derived (platform defaults)"
}
const measured: ReadonlyArray<Kind> = ["emulator", "router", "httpapi"]
const loaded: ReadonlyArray<Kind> = ["floor", "emulator", "emulator-decoding", "router", "httpapi"]

const txHash = `0x${"ab".repeat(32)}`
const keyId = `krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:key-pool:default:0x${"ef".repeat(32)}`
const transfer = JSON.stringify({ from: address, to: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", value: "0x1", submit: true })
const json = { "content-type": "application/json" }

interface Probe {
  readonly label: string
  readonly method: string
  readonly path: string
  readonly body?: string
}

/** The route mix of the load: three operations, a 404 and a 405, in turn. */
const mix: ReadonlyArray<Probe> = [
  { label: "GET /v2/account/{address}", method: "GET", path: `/v2/account/${address}` },
  { label: "GET /v2/tx/{transaction-hash}", method: "GET", path: `/v2/tx/${txHash}` },
  { label: "POST /v2/tx/value", method: "POST", path: "/v2/tx/value", body: transfer },
  { label: "GET /v2/nothing (404)", method: "GET", path: "/v2/nothing" },
  { label: "GET /v2/tx/value (405: the most specific template)", method: "GET", path: "/v2/tx/value" }
]
const probes: ReadonlyArray<Probe> = [
  ...mix,
  { label: "PATCH /v2/account/{address}", method: "PATCH", path: `/v2/account/${address}` },
  { label: "GET /v2/key/{key-id}, percent-encoded (135 characters)", method: "GET", path: `/v2/key/${encodeURIComponent(keyId)}` },
  { label: "GET /V2/ACCOUNT/{address}", method: "GET", path: `/V2/ACCOUNT/${address}` },
  { label: "GET /v2/%61ccount/{address}", method: "GET", path: `/v2/%61ccount/${address}` },
  { label: "GET /v2/account/ (empty address)", method: "GET", path: "/v2/account/" },
  { label: "GET /v2/account//{address}", method: "GET", path: `/v2/account//${address}` },
  { label: "POST /v2/tx/value, body `{`", method: "POST", path: "/v2/tx/value", body: "{" }
]

const requestOf = (probe: Probe) => ({
  method: probe.method as "GET",
  path: probe.path,
  headers: probe.body === undefined ? { "x-chain-id": "1001", authorization } : { "x-chain-id": "1001", authorization, ...json },
  ...(probe.body === undefined ? {} : { body: probe.body })
})

const send = async (pool: Pool, probe: Probe) => {
  const response = await pool.request(requestOf(probe))
  const text = await response.body.text()
  return { status: response.statusCode, text, allow: response.headers.allow as string | undefined }
}

const answer = async (pool: Pool, probe: Probe) => {
  const { allow, status, text } = await send(pool, probe)
  let code = ""
  try {
    const parsed = JSON.parse(text)
    code = typeof parsed.code === "number" ? ` ${parsed.code}` : typeof parsed._tag === "string" ? ` ${parsed._tag}` : ""
  } catch {
    code = text === "" ? " (empty)" : " (not JSON)"
  }
  return `${status}${code}${allow === undefined ? "" : `, Allow: ${allow}`}`
}

/** Closed-loop load: `connections` workers sending the mix in turn for `ms`; the requests answered. */
const load = async (pool: Pool, connections: number, ms: number): Promise<number> => {
  const end = performance.now() + ms
  let done = 0
  await Promise.all(Array.from({ length: connections }, async (_, w) => {
    for (let i = w; performance.now() < end; i++) {
      const response = await pool.request(requestOf(mix[i % mix.length]!))
      await response.body.dump()
      done++
    }
  }))
  return done
}

const CONNECTIONS = 4
const LOAD_MS = 2000
const SLICES = 8
const START_RUNS = 9

const serverSection = async (): Promise<Array<string>> => {
  const lines: Array<string> = []
  const dir = mkdtempSync(join(tmpdir(), "kas-httpapi-servers-"))
  try {
    return await serversFrom(await bundle(dir), lines)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const serversFrom = async (script: string, lines: Array<string>): Promise<Array<string>> => {
  const servers = new Map<Kind, Server>()
  for (const kind of [...loaded, "httpapi-bare"] as const) servers.set(kind, await start(kind, script))
  const pools = new Map([...servers].map(([kind, s]) => [kind, new Pool(`http://127.0.0.1:${s.port}`, { connections: CONNECTIONS, pipelining: 1 })]))

  // What each answers.
  const kinds = [...servers.keys()].filter((k) => k !== "floor")
  const answers: Array<string> = []
  for (const probe of probes) {
    answers.push(`| ${probe.label} | ${(await Promise.all(kinds.map((k) => answer(pools.get(k)!, probe)))).join(" | ")} |`)
  }
  servers.get("httpapi-bare")!.stop()
  await pools.get("httpapi-bare")!.close()
  lines.push(
    `### HttpApi side by side: the server (the table's ${new Set(WalletApi.all.map((e) => e.path)).size} templates, a trivial handler, loopback HTTP, each server in a child process)`,
    "",
    "What each answers (status, then the body's KAS `code` or `_tag`). The emulator's and `HttpRouter`'s trivial handlers read no body; `HttpApiBuilder` decodes the path, query, headers and body with the table's schemas before its handler, and so does the emulator's second row's.",
    "",
    `| request | ${kinds.map((k) => names[k]).join(" | ")} |`,
    `| --- | ${kinds.map(() => "---").join(" | ")} |`,
    ...answers,
    ""
  )

  // Requests/s and CPU per request: in each run every server takes the load in turn, in short
  // slices, so that what else the machine does falls on all of them alike.
  const rps = new Map(loaded.map((k) => [k, [] as Array<number>]))
  const cpu = new Map(loaded.map((k) => [k, [] as Array<number>]))
  const loaderCpu: Array<number> = []
  for (const kind of loaded) await load(pools.get(kind)!, CONNECTIONS, 500)
  for (let run = 0; run < RUNS; run++) {
    const totals = new Map(loaded.map((k) => [k, { done: 0, ms: 0, cpu: 0, own: 0 }]))
    for (let slice = 0; slice < SLICES; slice++) {
      for (let c = 0; c < loaded.length; c++) {
        const kind = loaded[(c + slice + run) % loaded.length]!
        const server = servers.get(kind)!
        const pool = pools.get(kind)!
        await load(pool, CONNECTIONS, 50)
        const cpu0 = await server.cpuMs()
        const own0 = cpuMs()
        const t0 = performance.now()
        const done = await load(pool, CONNECTIONS, LOAD_MS / SLICES)
        const total = totals.get(kind)!
        total.ms += performance.now() - t0
        total.own += cpuMs() - own0
        total.cpu += (await server.cpuMs()) - cpu0
        total.done += done
      }
    }
    for (const [kind, total] of totals) {
      rps.get(kind)!.push(total.done / (total.ms / 1000))
      cpu.get(kind)!.push((total.cpu / total.done) * 1000)
      if (kind === "emulator") loaderCpu.push((total.own / total.done) * 1000)
    }
  }
  const ratio = (series: Map<Kind, Array<number>>, kind: Kind) => series.get(kind)!.map((x, i) => x / series.get("emulator")![i]!)
  lines.push(
    `#### Requests/s and server CPU per request (${CONNECTIONS} keep-alive connections, the mix of the first five requests above in turn, ${LOAD_MS / 1000} s per server in ${SLICES} interleaved slices, ${RUNS} runs)`,
    "",
    "| server | requests/s | ratio to the emulator's (spread) | server CPU µs/request | ratio to the emulator's (spread) |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...loaded.map((k) =>
      `| ${names[k]} | ${median(rps.get(k)!).toFixed(0)} | ${k === "emulator" ? "1.00x" : spread(ratio(rps, k))} | ${median(cpu.get(k)!).toFixed(0)} | ${k === "emulator" ? "1.00x" : spread(ratio(cpu, k))} |`
    ),
    "",
    `The load generator (undici, in the bench's process) used ${median(loaderCpu).toFixed(0)} µs of CPU per request against the emulator's dispatch; it and the server share the machine's cores, so requests/s moves with whatever else runs, CPU per request much less.`,
    ""
  )
  for (const kind of loaded) {
    servers.get(kind)!.stop()
    await pools.get(kind)!.close()
  }

  // Start: spawn to first answer, interleaved.
  const first = new Map(measured.map((k) => [k, [] as Array<number>]))
  const imports = new Map(measured.map((k) => [k, [] as Array<number>]))
  const builds = new Map(measured.map((k) => [k, [] as Array<number>]))
  const startOnce = async (kind: Kind) => {
    const t0 = performance.now()
    const server = await start(kind, script)
    const pool = new Pool(`http://127.0.0.1:${server.port}`, { connections: 1 })
    const { status } = await send(pool, mix[0]!)
    const ms = performance.now() - t0
    if (status !== 200) throw new Error(`${kind} answered ${status}`)
    await pool.close()
    server.stop()
    return { ms, server }
  }
  for (const kind of measured) await startOnce(kind)
  for (let run = 0; run < START_RUNS; run++) {
    for (let c = 0; c < measured.length; c++) {
      const kind = measured[(c + run) % measured.length]!
      const { ms, server } = await startOnce(kind)
      first.get(kind)!.push(ms)
      imports.get(kind)!.push(server.importMs)
      builds.get(kind)!.push(server.buildMs)
    }
  }
  lines.push(
    `#### Start: a new process to its first answer (${START_RUNS} interleaved runs; the servers bundled, each candidate's modules in chunks of their own)`,
    "",
    "| server | spawn to first answer, ms | ratio to the emulator's (spread) | of which importing its modules, ms | building the routes and listening, ms | ratio to the emulator's (spread) |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...measured.map((k) =>
      `| ${names[k]} | ${median(first.get(k)!).toFixed(0)} | ${k === "emulator" ? "1.00x" : spread(ratio(first, k))} | ${median(imports.get(k)!).toFixed(0)} | ${
        median(builds.get(k)!).toFixed(0)
      } | ${k === "emulator" ? "1.00x" : spread(ratio(builds, k))} |`
    ),
    "",
    "Every process imports effect, the platform, its Node server and the operation table (the emulator's dispatch its own `App`, `Router`, `PathPattern`; the others the platform's router and, for `HttpApiBuilder`, the derived `HttpApi` and its layers); the emulator's real start also opens its database, not counted here."
  )
  return lines
}

export const run = async (): Promise<ReadonlyArray<string>> => [
  "## Effect's HttpApi side by side (issue 32)",
  "",
  `The \`HttpApi\` derived from the operation table (test/bench/httpApiDerived.ts): ${groups.reduce((n, [, e]) => n + e.length, 0)} operations (the table: ${WalletApi.all.length}) in ${groups.length} groups; \`OpenApi.fromApi\` documents ${
    Object.keys(OpenApi.fromApi(api).paths).length
  } paths.`,
  "",
  ...(await bundleSection()),
  ...(await clientSection()),
  ...(await serverSection())
]
