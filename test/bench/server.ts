/**
 * A loopback HTTP server with fixed bodies for the client benchmarks, run in a child process so
 * that it does not share the benchmark's event loop or core.
 *
 * - GET /v2/account/<address>: one account.
 * - GET /v2/account, /v2/history/fd/tx, /v2/key, /v2/multisig/account/<address>/tx (each listing of
 *   `fixtures.listingItems`), with
 *   `size=1000[&cursor=page-<k>]`: page k of `pages` pages of 1000 items, after `delayMs` (the
 *   service's own time, for the read-ahead benchmark). Other query parameters are ignored.
 * - POST /v2/tx/fd/value: `transferResult`, a real signed transfer (it verifies).
 *
 * Ten page bodies of each listing are rendered before the server listens and cycled, only the
 * cursor changing: serving costs the same for every request and every side, so the comparison
 * measures the clients.
 */
import { spawn } from "node:child_process"
import { createServer } from "node:http"
import { fileURLToPath } from "node:url"
import { accountJson, listingItems, transferResult } from "./fixtures.js"

interface Options {
  readonly pages: number
  readonly delayMs?: number
}

const serve = ({ delayMs = 0, pages }: Options) => {
  const bodies = new Map(
    Object.entries(listingItems).map(([path, item]) => [
      path,
      Array.from({ length: 10 }, () => Buffer.from(`{"items":${JSON.stringify(Array.from({ length: 1000 }, (_, i) => item(i)))},"cursor":`))
    ])
  )
  const pageBody = (items: ReadonlyArray<Buffer>, k: number) =>
    Buffer.concat([items[k % 10]!, Buffer.from(`${JSON.stringify(k + 1 < pages ? `page-${k + 1}` : "")}}`)])
  const one = Buffer.from(JSON.stringify(accountJson(1_700_000_000)))
  const transfer = Buffer.from(JSON.stringify(transferResult.json))
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost")
    const send = (body: Buffer) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length })
      res.end(body)
    }
    if (req.method === "POST" && url.pathname === "/v2/tx/fd/value") return req.resume().on("end", () => send(transfer))
    const items = bodies.get(url.pathname)
    if (items === undefined) return send(one)
    const cursor = url.searchParams.get("cursor")
    const body = pageBody(items, cursor === null ? 0 : Number(cursor.slice(5)))
    if (delayMs > 0) setTimeout(() => send(body), delayMs)
    else send(body)
  })
  server.keepAliveTimeout = 60_000
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${(server.address() as { port: number }).port}\n`)
  })
}

if (process.argv[2] === "--serve") serve({ pages: Number(process.argv[3]), delayMs: Number(process.argv[4] ?? 0) })

/** Starts the server in a child process; resolves with its base URL and a stop function. */
export const start = (options: Options): Promise<{ readonly url: string; readonly stop: () => void }> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(import.meta.url), "--serve", String(options.pages), String(options.delayMs ?? 0)],
      { stdio: ["ignore", "pipe", "inherit"] }
    )
    child.once("error", reject)
    child.stdout.once("data", (data: Buffer) => {
      resolve({ url: `http://127.0.0.1:${Number(String(data).trim())}`, stop: () => child.kill() })
    })
  })
