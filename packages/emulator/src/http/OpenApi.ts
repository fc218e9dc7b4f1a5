/**
 * The OpenAPI 3.1 document of the emulated API, served at `/openapi.json`: derived from the route
 * table, the one description of the routes the router dispatches on. Each route gives its path,
 * method, operation, parameters (the headers of its `Caller.Access`, its path and query
 * parameters), body and responses; the document adds what every route shares — the 401 of the
 * authenticated routes, the injected faults' 429, 500 and 503, the request id.
 *
 * Its JSON schemas are derived from the domain schemas the routes name (`Account.Account`,
 * `Account.AccountPage`, `Transaction.TransactionResult`, `ErrorBody.ErrorBody`, `Krn.AccountPoolKrn`,
 * `ChainId.FromHeader`, …) with `JSONSchema.fromAST`: the document cannot drift from the contract
 * the client decodes.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import { JSONSchema } from "effect"
import { ErrorBody } from "effect-kas-wallet"
import { version } from "../version.js"
import * as ApiError from "./ApiError.js"
import * as Caller from "./Caller.js"
import * as Description from "./Description.js"
import type * as Route from "./Route.js"

/**
 * An OpenAPI document, as plain JSON.
 *
 * @since 0.1.0
 * @category models
 */
export type Document = Record<string, unknown>

const requestIdHeader = { "x-request-id": { $ref: "#/components/headers/RequestId" } }

// The document's components: each domain schema rendered once, under its identifier when it has
// one (JSONSchema files it there by itself) or else under the name the route gives it.
const makeComponents = () => {
  const schemas: Record<string, JSONSchema.JsonSchema7> = {}
  const refs = new Map<string, unknown>()
  const schemaOf = (ref: Description.SchemaRef): unknown => {
    if (ref._tag === "Json") return ref.json
    const known = refs.get(ref.name)
    if (known !== undefined) return known
    const json = JSONSchema.fromAST(ref.schema.ast, {
      definitions: schemas,
      definitionPath: "#/components/schemas/",
      target: "openApi3.1"
    })
    const rendered = "$ref" in json ? { $ref: json.$ref } : (schemas[ref.name] = json, { $ref: `#/components/schemas/${ref.name}` })
    refs.set(ref.name, rendered)
    return rendered
  }
  return { schemas, schemaOf }
}

// The document of a table without servers.
const build = (table: ReadonlyArray<Route.Route>): Document => {
  const { schemaOf, schemas } = makeComponents()
  const errorBody = schemaOf(Description.domain("ErrorBody", ErrorBody.ErrorBody))
  const error = (description: string) => ({
    description,
    headers: requestIdHeader,
    content: { "application/json": { schema: errorBody } }
  })
  const commonErrors = {
    "401": error(
      `Authentication failed: ${ApiError.Code.InvalidAuthorization} (Authorization missing or not Basic), ${ApiError.Code.CredentialMismatch} (unknown key or wrong secret).`
    ),
    "429": error(`Injected fault only (${ApiError.Code.EmulatorFaultTooManyRequests}), with Retry-After.`),
    "500": error(`Injected fault (${ApiError.Code.EmulatorFaultInternal}) or emulator failure (${ApiError.Code.EmulatorInternal}).`),
    "503": error(`Injected fault only (${ApiError.Code.EmulatorFaultUnavailable}).`)
  }
  const parameter = (location: "header" | "path" | "query", name: string, required: boolean, p: Description.Parameter) => ({
    name,
    in: location,
    required,
    description: p.description,
    schema: schemaOf(p.schema)
  })

  const operation = (route: Route.Route) => {
    const anonymous = route.access === "anonymous"
    const parameters = [
      ...Caller.headers(route.access).map((h) => parameter("header", h.name, h.required, h)),
      ...route.pathParameters.map((p) => parameter("path", p.name, true, p)),
      ...route.query.map((p) => parameter("query", p.name, false, p))
    ]
    const success = route.response.schema === undefined
      ? { description: route.response.description }
      : {
        description: route.response.description,
        headers: requestIdHeader,
        content: { "application/json": { schema: schemaOf(route.response.schema) } }
      }
    const own = Object.fromEntries(Object.entries(route.errors).map(([status, description]) => [status, error(description)]))
    return {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description !== undefined ? { description: route.description } : {}),
      // The emulator's own routes need no credentials; the others take the document's Basic scheme.
      ...(anonymous ? { security: [] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body !== undefined
        ? {
          requestBody: {
            required: route.body.required,
            ...(route.body.description !== undefined ? { description: route.body.description } : {}),
            content: { "application/json": { schema: schemaOf(route.body.schema) } }
          }
        }
        : {}),
      responses: { "200": success, ...own, ...(anonymous ? {} : commonErrors) }
    }
  }

  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of table) {
    const item = paths[route.path.template] ?? {}
    item[route.method.toLowerCase()] = operation(route)
    paths[route.path.template] = item
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "KAS Wallet API v2 — local emulator (effect-kas-wallet)",
      version,
      description:
        "The account, fee-payer account and value-transfer operations of the KAS wallet interface as the effect-kas-wallet emulator serves them. Every error body is {code, message, requestId}; every response carries x-request-id. Unknown paths: 404, unknown methods: 405, both with code 1010007. See docs/emulator.md."
    },
    security: [{ basic: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        basic: { type: "http", scheme: "basic", description: "AccessKey ID as user, Secret AccessKey as password." }
      },
      headers: {
        RequestId: { description: "Id of the request, also in error bodies.", schema: { type: "string" } }
      }
    }
  }
}

const deepFreeze = <A>(value: A): A => {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

interface Built {
  readonly document: Document
  /** The document's JSON up to where `servers` goes (without the closing brace), and after it (without the opening one). */
  readonly head: string
  readonly tail: string
}

// A table's document is the same for every emulator of the process but for its server: built once
// per table (rendering the JSON schemas of every route cost some 4 ms of CPU, and its JSON 1–2 ms,
// per emulator), frozen, and shared.
const built = new WeakMap<ReadonlyArray<Route.Route>, Built>()

const builtOf = (table: ReadonlyArray<Route.Route>): Built => {
  const known = built.get(table)
  if (known !== undefined) return known
  const document = deepFreeze(build(table))
  const { info, openapi, ...rest } = document
  const made: Built = {
    document,
    head: JSON.stringify({ openapi, info }).slice(0, -1),
    tail: JSON.stringify(rest).slice(1)
  }
  built.set(table, made)
  return made
}

const withServer = (document: Document, serverUrl: string): Document => {
  const { info, openapi, ...rest } = document
  return deepFreeze({ openapi, info, servers: [{ url: serverUrl }], ...rest })
}

/**
 * The document of a route table, listing `serverUrl` as the server when given. Frozen: its parts
 * are shared by every document of the table.
 *
 * @since 0.1.0
 * @category constructors
 */
export const document = (table: ReadonlyArray<Route.Route>, serverUrl?: string): Document => {
  const { document } = builtOf(table)
  return serverUrl === undefined ? document : withServer(document, serverUrl)
}

/**
 * The document a server serves (`document(table, serverUrl)`) and its JSON text, equal to
 * `JSON.stringify` of the document.
 *
 * @since 0.9.0
 * @category constructors
 */
export const served = (
  table: ReadonlyArray<Route.Route>,
  serverUrl: string
): { readonly document: Document; readonly json: string } => {
  const { document, head, tail } = builtOf(table)
  const own = withServer(document, serverUrl)
  return { document: own, json: `${head},"servers":${JSON.stringify(own.servers)},${tail}` }
}
