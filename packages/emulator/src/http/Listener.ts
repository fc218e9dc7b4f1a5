/**
 * The emulator's HTTP listener: a Node server serving the routes, answering CONNECT like any other
 * method, and shutting down quietly.
 *
 * Shutdown, when the scope closes: stop accepting connections; keep serving what arrives on open
 * connections, each answer closing its connection; close connections as they fall idle; and end
 * only once no request is being handled and every connection is closed. The database closes
 * after that (it was opened first), so no request ever meets a closed database.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, type Scope } from "effect"
import * as http from "node:http"
import type { Duplex } from "node:stream"
import { EmulatorError } from "../EmulatorError.js"

/**
 * A server listening, not serving yet: the routes need its URL.
 *
 * @since 0.1.0
 * @category models
 */
export interface Listener {
  /** The port listened on (the chosen one when 0 was asked). */
  readonly port: number
  /** Serves an app until the scope closes, then drains (see the module documentation). */
  readonly serve: (app: HttpApp.Default<never, HttpServerRequest.HttpServerRequest>) => Effect.Effect<void, never, Scope.Scope>
}

/**
 * How long shutdown waits for clients to read their last answers before it closes their
 * connections anyway.
 *
 * @since 0.1.0
 * @category constants
 */
export const DrainGraceMillis = 5_000

const urlHost = (host: string) => (host.includes(":") ? `[${host}]` : host)

/**
 * Listens on a host and port until the scope closes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const listen = (options: { readonly host: string; readonly port: number }): Effect.Effect<Listener, EmulatorError, Scope.Scope> =>
  Effect.gen(function*() {
    const server = http.createServer()
    const listening = yield* NodeHttpServer.make(() => server, options).pipe(
      Effect.mapError((e) =>
        new EmulatorError({ reason: "Listen", message: `cannot listen on ${urlHost(options.host)}:${options.port}`, cause: e.cause })
      )
    )
    const port = listening.address._tag === "TcpAddress" ? listening.address.port : options.port

    const serve: Listener["serve"] = (app) =>
      Effect.gen(function*() {
        let active = 0
        let closing = false
        let onIdle: (() => void) | undefined
        // Counts the app's work (where the database is used), not the writing of its answer: a
        // client that stops reading must not hold the database open.
        const tracked = Effect.acquireUseRelease(
          Effect.sync(() => active++),
          () => Effect.map(app, (response) => (closing ? HttpServerResponse.setHeader(response, "connection", "close") : response)),
          () =>
            Effect.sync(() => {
              active--
              onIdle?.()
            })
        )
        // No tracing spans: nothing consumes them, and request spans would carry header attributes.
        const handler = yield* NodeHttpServer.makeHandler(tracked).pipe(
          Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true)
        )
        // Node hands a CONNECT request over with its raw socket (and destroys the socket when no
        // one listens): answer it as the routes answer any method, then close the connection.
        const onConnect = (request: http.IncomingMessage, socket: Duplex) => {
          socket.on("error", () => socket.destroy())
          const response = new http.ServerResponse(request)
          response.shouldKeepAlive = false
          response.assignSocket(socket as any)
          response.once("finish", () => {
            response.detachSocket(socket as any)
            socket.end()
          })
          handler(request, response)
        }
        server.on("request", handler)
        server.on("connect", onConnect)

        yield* Effect.addFinalizer(() =>
          Effect.async<void>((resume) => {
            closing = true
            let closed = false
            const timer = setInterval(() => server.closeIdleConnections(), 25).unref()
            const grace = setTimeout(() => server.closeAllConnections(), DrainGraceMillis).unref()
            const check = () => {
              if (!closed || active > 0) return
              onIdle = undefined
              clearInterval(timer)
              clearTimeout(grace)
              server.off("request", handler)
              server.off("connect", onConnect)
              resume(Effect.void)
            }
            onIdle = check
            // Stops accepting; the callback comes once every connection has closed.
            server.close(() => {
              closed = true
              check()
            })
            server.closeIdleConnections()
          })
        )
      })

    return { port, serve }
  })
