/**
 * A loopback HTTP server with fixed bodies for the client benchmarks, run in a child process so
 * that it does not share the benchmark's event loop or core.
 *
 * - GET /v2/account/<address>: one account.
 * - GET /v2/account?size=1000[&cursor=<k>]: page k of `pages` pages of 1000 accounts.
 *
 * Every body is rendered before the server starts listening: serving costs the same for every
 * request and every side, so the comparison measures the clients, not the server.
 */
import { createServer } from "node:http"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { accountJson, pageText } from "./fixtures.js"

interface Options {
  readonly pages: number
}

const serve = ({ pages }: Options) => {
  // Ten distinct page bodies, cycled: decoding cost does not depend on repetition.
  const bodies = Array.from({ length: 10 }, () => JSON.parse(pageText(1000)) as { items: unknown })
  const pageBody = (k: number) =>
    Buffer.from(JSON.stringify({ items: bodies[k % 10]!.items, cursor: k + 1 < pages ? `page-${k + 1}` : "" }))
  const rendered = Array.from({ length: pages }, (_, k) => pageBody(k))
  const one = Buffer.from(JSON.stringify(accountJson(1_700_000_000)))
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost")
    let body: Buffer
    if (url.pathname === "/v2/account") {
      const cursor = url.searchParams.get("cursor")
      const k = cursor === null ? 0 : Number(cursor.slice(5))
      body = rendered[k] ?? one
    } else {
      body = one
    }
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length })
    res.end(body)
  })
  server.keepAliveTimeout = 60_000
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${(server.address() as { port: number }).port}\n`)
  })
}

if (process.argv[2] === "--serve") serve({ pages: Number(process.argv[3]) })

/** Starts the server in a child process; resolves with its base URL and a stop function. */
export const start = (options: Options): Promise<{ readonly url: string; readonly stop: () => void }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--serve", String(options.pages)], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    child.once("error", reject)
    child.stdout.once("data", (data: Buffer) => {
      resolve({ url: `http://127.0.0.1:${Number(String(data).trim())}`, stop: () => child.kill() })
    })
  })
