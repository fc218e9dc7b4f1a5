/**
 * A route of the emulated API, as one entry of the route table: its method and path template,
 * the operation it is (id, summary, description), the headers it reads (its `Caller.Access`), its
 * query parameters, request body and responses — and its handler.
 *
 * The table is the one description of the API: the router dispatches on it (`Router`), and the
 * OpenAPI document is derived from it (`OpenApi`).
 *
 * Running a route follows the gateway's order: path and method (the router), then the headers the
 * route declares (`Caller.select`), then its body when it declares one (`RequestBody.read`), then
 * the handler with the operation's own parameters.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as SqlError from "@effect/sql/SqlError"
import { Effect, Option, type Schema, SchemaAST } from "effect"
import type * as Endpoint from "effect-kas-wallet/Endpoint"
import type * as ApiError from "./ApiError.js"
import * as Caller from "./Caller.js"
import type * as ChainControl from "../console/ChainControl.js"
import type * as EmulatorConsole from "../console/EmulatorConsole.js"
import * as Description from "./Description.js"
import type * as Ledger from "../chain/Ledger.js"
import type * as Node from "../chain/Node.js"
import type * as Refusal from "../Refusal.js"
import type * as Accounts from "../services/Accounts.js"
import type * as History from "../services/History.js"
import type * as Keys from "../services/Keys.js"
import type * as Multisig from "../services/Multisig.js"
import type * as Registration from "../services/Registration.js"
import * as RequestInput from "./Input.js"
import * as PathPattern from "./PathPattern.js"
import * as Render from "./Render.js"
import * as RequestBody from "./RequestBody.js"

/**
 * The methods the table uses.
 *
 * @since 0.3.0
 * @category models
 */
export type Method = "GET" | "POST" | "PUT" | "DELETE"

/**
 * What handlers work with.
 *
 * @since 0.3.0
 * @category models
 */
export interface Services {
  /**
   * Accounts and fee-payer accounts, and the members and pools behind every request.
   *
   * @since 0.10.0
   */
  readonly accounts: Accounts.Service
  /**
   * The key service (`/v2/key`).
   *
   * @since 0.10.0
   */
  readonly keys: Keys.Service
  /**
   * The fee-delegation history (`/v2/history/fd/tx`).
   *
   * @since 0.10.0
   */
  readonly history: History.Service
  /** The chain of the transaction routes. */
  readonly ledger: Ledger.Service
  /**
   * Multisig accounts and their pending transactions.
   *
   * @since 0.8.0
   */
  readonly multisig: Multisig.Service
  /**
   * The registration of existing accounts (`POST /v2/registration/account`).
   *
   * @since 0.8.0
   */
  readonly registration: Registration.Service
  /**
   * The chain as a Klaytn node shows it (`/v1/klaytn`).
   *
   * @since 0.5.0
   */
  readonly node: Node.Service
  /** The console of the emulator's database, for its own routes (`ConsolePrefix`). */
  readonly console: EmulatorConsole.Service
  /**
   * Snapshots, reverts and the chain's time, for the console routes.
   *
   * @since 0.12.0
   */
  readonly control: ChainControl.Service
  /** The OpenAPI document, serialized (it is derived from the table, so it cannot be in it). */
  readonly openApi: string
}

/**
 * Where the emulator's own console routes live (fund, balance, bills): a prefix the KAS API never
 * uses, and that faults never touch.
 *
 * @since 0.3.0
 * @category constants
 */
export const ConsolePrefix = "/_emulator/"

/**
 * What a handler is given: its path parameters (raw, percent-encoded, as sent: the handler's
 * parsers decode them), the raw query, what its access selected and, when it declares a body,
 * the body's text.
 *
 * @since 0.3.0
 * @category models
 */
export interface Input<P extends `/${string}`, A extends Caller.Access, B extends Description.Body | undefined> {
  readonly services: Services
  readonly request: HttpServerRequest.HttpServerRequest
  readonly params: { readonly [K in PathPattern.ParameterNames<P>]: string }
  readonly query: string
  readonly caller: Caller.Selections[A]
  readonly body: B extends Description.Body ? string : undefined
}

/**
 * A handler's answer: the JSON body of a 200. Failures are `ApiError`s (answered with their
 * status and code), the domain's refusals and the console's (answered as `Refusals.toApiError`
 * says), or storage failures (answered 500).
 *
 * @since 0.3.0
 * @category models
 */
export type Answer = Effect.Effect<
  string | Uint8Array,
  ApiError.ApiError | Refusal.Refusal | EmulatorConsole.ConsoleError | SqlError.SqlError
>

/**
 * A route as written in the table. Every parameter of the path template must be described
 * (`pathParameters`), which the types check.
 *
 * @since 0.3.0
 * @category models
 */
export type Spec<P extends `/${string}`, A extends Caller.Access, B extends Description.Body | undefined> =
  & {
    readonly method: Method
    readonly path: P
    readonly operationId: string
    readonly summary: string
    readonly description?: string
    readonly access: A
    readonly query?: ReadonlyArray<Description.QueryParameter>
    readonly body?: B
    readonly response: Description.Response
    /** The route's own error responses, by status; the router and the document add the common ones. */
    readonly errors?: Readonly<Record<number, string>>
    readonly handler: (input: Input<P, A, B>) => Answer
  }
  & ([PathPattern.ParameterNames<P>] extends [never] ? {}
    : { readonly pathParameters: { readonly [K in PathPattern.ParameterNames<P>]: Description.Parameter } })

/**
 * A route of the table, its types erased: what the router and the document use.
 *
 * @since 0.3.0
 * @category models
 */
export interface Route {
  readonly method: Method
  readonly path: PathPattern.PathPattern
  readonly operationId: string
  readonly summary: string
  readonly description: string | undefined
  readonly access: Caller.Access
  /** The path parameters in the order of the path, with their descriptions. */
  readonly pathParameters: ReadonlyArray<Description.Parameter & { readonly name: string }>
  readonly query: ReadonlyArray<Description.QueryParameter>
  readonly body: Description.Body | undefined
  readonly response: Description.Response
  readonly errors: Readonly<Record<number, string>>
  /** Runs the route on a request whose path matched, with the raw values of its path parameters. */
  readonly run: (
    services: Services,
    request: HttpServerRequest.HttpServerRequest,
    params: Readonly<Record<string, string>>,
    query: string
  ) => Answer
}

/**
 * Makes a table entry from its spec.
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = <const P extends `/${string}`, A extends Caller.Access, B extends Description.Body | undefined = undefined>(
  spec: Spec<P, A, B>
): Route => {
  const path = PathPattern.make(spec.path)
  const described: Readonly<Record<string, Description.Parameter>> = "pathParameters" in spec ? spec.pathParameters : {}
  return {
    method: spec.method,
    path,
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    access: spec.access,
    pathParameters: path.parameters.map((name) => ({ name, ...described[name]! })),
    query: spec.query ?? [],
    body: spec.body,
    response: spec.response,
    errors: spec.errors ?? {},
    run: (services, request, params, query) =>
      Effect.gen(function*() {
        const caller = yield* Caller.select(spec.access, services.accounts, request)
        const body = spec.body === undefined ? undefined : yield* RequestBody.read(request)
        return yield* spec.handler({
          services,
          request,
          // The router matched this route's template: it gives exactly these parameters.
          params: params as Input<P, A, B>["params"],
          query,
          caller,
          body: body as Input<P, A, B>["body"]
        })
      })
  }
}

/**
 * What the handler of an operation of the table is given: what its access selected, and its path,
 * query and body decoded by the table's schemas.
 *
 * @since 0.10.0
 * @category models
 */
export interface OperationInput<E extends Endpoint.Any> {
  readonly services: Services
  readonly request: HttpServerRequest.HttpServerRequest
  readonly caller: Caller.Selections[E["access"]]
  readonly path: Endpoint.PathValues<E>
  readonly query: Endpoint.UrlValues<E>
  readonly payload: E["payload"] extends Endpoint.Payload<infer S> ? Schema.Schema.Type<S> : undefined
}

/**
 * A handler's answer: the operation's result, which its schema encodes, or its JSON already made
 * (what the store keeps of an account, passed through).
 *
 * @since 0.10.0
 * @category models
 */
export type OperationAnswer<E extends Endpoint.Any> = Effect.Effect<
  Endpoint.Success<E> | string | Uint8Array,
  ApiError.ApiError | Refusal.Refusal | EmulatorConsole.ConsoleError | SqlError.SqlError
>

/**
 * What the emulator adds to an operation of the table: what it says of the operation, of its
 * answer and of its refusals (the document lists them with the codes the table declares), and its
 * handler.
 *
 * @since 0.10.0
 * @category models
 */
export interface OperationSpec<E extends Endpoint.Any> {
  readonly summary: string
  readonly description?: string
  /** What the 200 holds. */
  readonly response: string
  /** The refusals of the operation, for the 400 of the document. */
  readonly errors?: string
  readonly handler: (input: OperationInput<E>) => OperationAnswer<E>
}

const identifierOf = (schema: Schema.Schema.Any): string | undefined =>
  Option.getOrUndefined(SchemaAST.getIdentifierAnnotation(schema.ast))

const describedBy = (schema: Schema.Schema.Any, fallback: string): string =>
  Option.getOrElse(SchemaAST.getDescriptionAnnotation(schema.ast), () => fallback)

const parametersOf = (struct: Schema.Struct<Schema.Struct.Fields>, owner: string): ReadonlyArray<Description.QueryParameter> =>
  (struct.ast as SchemaAST.TypeLiteral).propertySignatures.map((p) => {
    const name = String(p.name)
    const schema = struct.fields[name] as Schema.Schema.Any
    const type = "from" in schema && p.isOptional ? (schema as unknown as { readonly from: Schema.Schema.Any }).from : schema
    return {
      name,
      description: describedBy(type, name),
      schema: Description.domain(identifierOf(type) ?? `${owner}${name.replace(/(^|-)(.)/g, (_, __, c: string) => c.toUpperCase())}`, type)
    }
  })

/**
 * Makes the route of an operation of the table: its method, path, access, parameters, body and
 * result from the table, the rest from `spec`. It reads the request in the gateway's order — the
 * headers its access declares, the body's text, the path, the query, the body's value — each
 * refused as `Input` says before the handler runs, and renders the handler's value with the
 * operation's result schema.
 *
 * @since 0.10.0
 * @category constructors
 */
export const operation = <E extends Endpoint.Any>(endpoint: E, spec: OperationSpec<E>): Route => {
  const path = PathPattern.make(endpoint.path)
  const payload = endpoint.payload
  const render = Render.json(endpoint.successSchema as Schema.Schema<unknown, unknown>)
  const codes = endpoint.errors.length === 0 ? "" : ` Documented codes: ${endpoint.errors.join(", ")}.`
  // Components without an identifier are named after the operation: `ListAccountsSize`.
  const owner = `${endpoint.name.charAt(0).toUpperCase()}${endpoint.name.slice(1)}`
  const query = parametersOf(endpoint.urlParamsSchema, owner)
  const pathParameters = parametersOf(endpoint.pathSchema, owner)
  return {
    method: endpoint.method,
    path,
    operationId: endpoint.operationId,
    summary: spec.summary,
    description: spec.description,
    access: endpoint.access,
    pathParameters: path.parameters.map((name) => pathParameters.find((p) => p.name === name)!),
    query,
    body: payload === undefined ? undefined : {
      required: payload.required,
      schema: Description.domain(identifierOf(payload.schema) ?? `${owner}Body`, payload.schema)
    },
    response: {
      description: spec.response,
      schema: Description.domain(identifierOf(endpoint.successSchema) ?? `${owner}Result`, endpoint.successSchema)
    },
    errors: spec.errors === undefined && codes === "" ? {} : { 400: `${spec.errors ?? ""}${codes}`.trim() },
    run: (services, request, params, rawQuery) =>
      Effect.gen(function*() {
        const caller = yield* Caller.select(endpoint.access, services.accounts, request)
        const text = payload === undefined ? undefined : yield* RequestBody.read(request)
        const input = {
          services,
          request,
          caller,
          path: yield* RequestInput.path(endpoint.pathSchema, params),
          query: yield* RequestInput.query(endpoint.urlParamsSchema, rawQuery),
          payload: payload === undefined ? undefined : yield* RequestInput.payload(payload, text!)
        } as unknown as OperationInput<E>
        const answer = yield* spec.handler(input)
        return typeof answer === "string" || answer instanceof Uint8Array ? answer : yield* render(answer)
      })
  }
}
