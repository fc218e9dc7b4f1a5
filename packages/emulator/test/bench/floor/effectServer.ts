/**
 * The floor of the emulator's start on its stack: the least an Effect 3 HTTP server costs from
 * spawn to first answer. `@effect/platform`'s router with one JSON-RPC route that answers
 * `eth_blockNumber`, served by `@effect/platform-node`'s `NodeHttpServer` on a free loopback port,
 * its body decoded by a `Schema`. No database, no keys, no wallet routes: every start of the
 * emulator pays at least this. Bundled by the bench (floor.ts) as the CLI is bundled, then spawned.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect, Layer, Schema } from "effect"
import { createServer } from "node:http"

const Request = Schema.Struct({ jsonrpc: Schema.Literal("2.0"), id: Schema.Number, method: Schema.String })

const app = HttpRouter.empty.pipe(
  HttpRouter.post(
    "/",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.schemaBodyJson(Request)
      return yield* HttpServerResponse.json({ jsonrpc: "2.0", id: request.id, result: "0x0" })
    }).pipe(Effect.orElse(() => HttpServerResponse.json({ error: "bad request" }, { status: 400 })))
  )
)

const Listening = Layer.effectDiscard(
  Effect.flatMap(HttpServer.HttpServer, (server) =>
    Effect.sync(() => {
      if (server.address._tag === "TcpAddress") console.log(`listening on http://127.0.0.1:${server.address.port}`)
    }))
)

HttpServer.serve(app).pipe(
  Layer.merge(Listening),
  Layer.provide(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 0 })),
  Layer.launch,
  NodeRuntime.runMain
)
