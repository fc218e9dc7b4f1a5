/**
 * The dispatcher derived from the route table: a raw path finds its resource (the routes of one
 * path template), and the method its route.
 *
 * Answers as the service's gateway does: a path no template matches is 404 and a method the
 * matched template does not serve is 405 with `Allow`, both with the service's code 1010007. The
 * most specific template wins where several match (`/v2/tx/value` over
 * `/v2/tx/{transaction-hash}`), so `GET /v2/tx/value` is a 405, not a receipt lookup.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Either, Option } from "effect"
import * as ApiError from "./ApiError.js"
import * as PathPattern from "./PathPattern.js"
import * as Route from "./Route.js"

/**
 * The routes of one path template, and the values of its parameters in a matched path.
 *
 * @since 0.3.0
 * @category models
 */
export interface Match {
  readonly pattern: PathPattern.PathPattern
  readonly params: Readonly<Record<string, string>>
  /** Whether faults may be injected: not on the emulator's own anonymous routes. */
  readonly faulted: boolean
  /** The route of a method, or 405 with the methods of the path in `Allow`. */
  readonly route: (method: string) => Either.Either<Route.Route, ApiError.ApiError>
}

/**
 * A compiled table.
 *
 * @since 0.3.0
 * @category models
 */
export interface Router {
  /** The resource of a raw path (no query), or `None`: a 404. */
  readonly find: (path: string) => Option.Option<Match>
}

// Allow lists the methods in one fixed order, whatever the table's: GET first, as the service does.
const METHOD_ORDER: ReadonlyArray<Route.Method> = ["GET", "POST", "PUT", "DELETE"]

interface Resource {
  readonly pattern: PathPattern.PathPattern
  readonly routes: ReadonlyMap<string, Route.Route>
  readonly faulted: boolean
  /** The `Allow` of a 405. */
  readonly allow: string
}

/**
 * Compiles a table. Routes of one template are one resource; a path is tried against the
 * templates most specific first (`PathPattern.bySpecificity`).
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = (table: ReadonlyArray<Route.Route>): Router => {
  const byTemplate = new Map<string, Array<Route.Route>>()
  for (const route of table) {
    const routes = byTemplate.get(route.path.template) ?? []
    routes.push(route)
    byTemplate.set(route.path.template, routes)
  }
  const resources: Array<Resource> = [...byTemplate.values()].map((routes) => {
    const methods = METHOD_ORDER.filter((m) => routes.some((r) => r.method === m))
    return {
      pattern: routes[0]!.path,
      routes: new Map(routes.map((r) => [r.method, r])),
      // A path is exempt only when every route on it is: one faulted route makes the path faulted.
      // The console's routes set up a test's ledger: a fault there would only fail the setup.
      faulted: routes.some((r) => r.access !== "anonymous" && !r.path.template.startsWith(Route.ConsolePrefix)),
      allow: methods.join(", ")
    }
  })
  resources.sort((a, b) => PathPattern.bySpecificity(a.pattern, b.pattern))

  return {
    find: (path) =>
      Option.flatMap(PathPattern.splitPath(path), (segments) => {
        for (const resource of resources) {
          const params = PathPattern.match(resource.pattern, segments)
          if (Option.isSome(params)) {
            return Option.some({
              pattern: resource.pattern,
              params: params.value,
              faulted: resource.faulted,
              route: (method: string) =>
                Option.match(Option.fromNullable(resource.routes.get(method)), {
                  onNone: () => Either.left(ApiError.methodNotAllowed(resource.allow)),
                  onSome: Either.right
                })
            })
          }
        }
        return Option.none()
      })
  }
}
