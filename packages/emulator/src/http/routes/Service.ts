/**
 * The emulator's own routes: liveness and the OpenAPI document. Anonymous, and never faulted:
 * a test injecting faults can still wait for the emulator and read its document.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Effect } from "effect"
import * as Route from "../Route.js"

/**
 * The emulator's own routes, in the document's order.
 *
 * @since 0.3.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.make({
    method: "GET",
    path: "/health",
    operationId: "health",
    summary: "Liveness (no authentication, never faulted)",
    access: "anonymous",
    response: { description: "{\"status\":\"ok\"}" },
    handler: () => Effect.succeed("{\"status\":\"ok\"}")
  }),
  Route.make({
    method: "GET",
    path: "/openapi.json",
    operationId: "openApi",
    summary: "This document (no authentication, never faulted)",
    access: "anonymous",
    response: { description: "The OpenAPI document." },
    handler: ({ services }) => Effect.succeed(services.openApi)
  })
]
