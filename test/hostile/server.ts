/**
 * A hostile HTTP server on loopback for the client's tests: each case installs a handler that may
 * answer normally, write raw bytes on the socket (statuses node:http refuses to send, informational
 * responses, resets), stall, echo what it received, or stream huge bodies with backpressure.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { type Layer, Redacted } from "effect"
import * as http from "node:http"
import type { Socket } from "node:net"
import { ChainId, type WalletConfig } from "../../src/index.js"

/** What the server saw of one request. */
export interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: http.IncomingHttpHeaders
}

/** Answers one request; `n` counts the requests of the current handler, from 0. */
export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void

/** A server on 127.0.0.1 with a replaceable handler. */
export interface Server {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** Requests since the last `handle`. */
  readonly seen: Array<Seen>
  /** Replaces the handler and forgets the requests seen so far. */
  readonly handle: (handler: Handler) => void
  readonly close: () => Promise<void>
}

/** Starts a server; `close` destroys every open connection (some cases leave them hanging). */
export const start = (): Promise<Server> =>
  new Promise((resolve, reject) => {
    const seen: Array<Seen> = []
    let handler: Handler = (_req, res) => res.writeHead(500).end()
    const server = http.createServer((req, res) => {
      const s: Seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers }
      const n = seen.length
      seen.push(s)
      // A client that gives up mid-response resets the socket: not the test's failure.
      req.socket.on("error", () => {})
      handler(req, res, n)
    })
    // Idle keep-alive sockets left by earlier cases close soon; the handler in place when a request
    // arrives answers it, whichever socket it came on.
    server.keepAliveTimeout = 1000
    server.on("clientError", (_e, socket) => socket.destroy())
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      resolve({
        url: `http://127.0.0.1:${port}`,
        seen,
        handle: (h) => {
          handler = h
          seen.length = 0
        },
        close: () =>
          new Promise((r) => {
            server.closeAllConnections()
            server.close(() => r())
          })
      })
    })
  })

/** Writes raw bytes as the whole response and closes the connection (statuses node:http refuses). */
export const raw = (res: http.ServerResponse, text: string | Buffer, end = true): Socket => {
  const socket = res.socket!
  // The ServerResponse must not write its own headers after ours.
  res.detachSocket(socket)
  socket.write(text)
  if (end) socket.end()
  return socket
}

/**
 * Writes `total` bytes of `chunk` repeated (the last chunk cut to fit), respecting backpressure,
 * and stops when the client goes away: a huge body costs the server one chunk of memory.
 */
export const pump = (res: http.ServerResponse | Socket, chunk: Buffer, total: number, onDone?: () => void): void => {
  let sent = 0
  let stopped = false
  const stop = () => {
    stopped = true
  }
  res.on("close", stop)
  res.on("error", stop)
  const write = (): void => {
    while (!stopped && sent < total) {
      const n = Math.min(chunk.length, total - sent)
      sent += n
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        res.once("drain", write)
        return
      }
    }
    if (!stopped) {
      if (onDone) onDone()
      else res.end()
    }
  }
  write()
}

/** A transport: the HttpClient layer the WalletClient runs over. */
export type Transport = Layer.Layer<HttpClient.HttpClient>

/** The three transports every case runs on. */
export const transports: ReadonlyArray<readonly [string, Transport]> = [
  ["fetch", FetchHttpClient.layer],
  ["node", NodeHttpClient.layer],
  ["undici", NodeHttpClient.layerUndici]
]

export const accessKeyId = "KASKHOSTILEACCESSKEY0001"
// Characters that change under base64, URL and JSON encoding, so every form differs from the others.
export const secret = "hostile/Secret+Key=with:colon~and!bang"
export const base64 = Buffer.from(`${accessKeyId}:${secret}`).toString("base64")

/** The client options of a case, against `url`. */
export const options = (url: string, extra: Partial<WalletConfig.Options> = {}): WalletConfig.Options => ({
  credentials: { accessKeyId, secretAccessKey: Redacted.make(secret) },
  chainId: ChainId.Testnet,
  baseUrl: url,
  retry: false,
  timeout: "10 seconds",
  ...extra
})

