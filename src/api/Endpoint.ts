/**
 * The shape of one operation of the wire, as the operation table (`WalletApi`) declares it: its name,
 * method and path template, the schemas of its path and query parameters, the pool it takes in
 * `x-krn`, its request body and its result, whether it may be retried, and the KAS codes it
 * documents. Shaped like Effect's `HttpApiEndpoint` (name, method, path, `pathSchema`,
 * `urlParamsSchema`, `payloadSchema`, `successSchema`), so that moving the table onto `HttpApi`
 * later is mechanical; docs/design.md says why the table is not an `HttpApi` today.
 *
 * Everything else is derived from it: the client's requests (path, headers, body, decoder, span,
 * retry class), the emulator's router and OpenAPI document, the CLI's wire references and the
 * route tables of the docs.
 *
 * @since 0.10.0
 */
import { Schema } from "effect"

const { Struct } = Schema

/**
 * The methods of the wire.
 *
 * @since 0.10.0
 * @category models
 */
export type Method = "GET" | "POST" | "PUT" | "DELETE"

/**
 * The pool an operation takes in `x-krn` (every operation takes `x-chain-id`):
 *
 * - `accountPool`: an account pool; absent, the member's default one.
 * - `memberWide`: an account pool, checked when sent as on every account route, though the operation
 *   spans the member's pools (counts, look-ups by public key, multisig listings).
 * - `feePayerPool`: a fee-payer pool; absent, the member's default one.
 * - `sender`: the sender's account pool (transactions the sender or the global fee payer pays).
 * - `senderAndFeePayer`: the sender's account pool and a fee-payer pool, comma-separated
 *   (transactions the member's fee-payer account pays); either absent is the default one.
 * - `senderAndNamedFeePayer`: an account pool and a fee-payer pool, each checked when named, though
 *   the operation uses neither (receipts, read-only calls): the client names none.
 * - `keyPool`: a key pool (the keys' creation).
 * - `member`: none, the member and chain only (the key service, the fee-delegation history,
 *   signatures made elsewhere).
 *
 * @since 0.10.0
 * @category models
 */
export type Access =
  | "accountPool"
  | "memberWide"
  | "feePayerPool"
  | "sender"
  | "senderAndFeePayer"
  | "senderAndNamedFeePayer"
  | "keyPool"
  | "member"

/**
 * The names of the parameters of a path template: `"/v2/key/{key-id}/sign"` gives `"key-id"`.
 *
 * @since 0.10.0
 * @category models
 */
export type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer R}` ? N | ParamNames<R> : never

/**
 * A request body: its schema, and whether it may be left out.
 *
 * @since 0.10.0
 * @category models
 */
export interface Payload<S extends Schema.Schema.Any = Schema.Schema.Any> {
  readonly schema: S
  readonly required: boolean
}

/**
 * One operation of the wire.
 *
 * @since 0.10.0
 * @category models
 */
export interface Endpoint<
  Name extends string = string,
  Path extends `/${string}` = `/${string}`,
  PathFields extends { readonly [K in ParamNames<Path>]: Schema.Schema<any, string> } = any,
  UrlFields extends Schema.Struct.Fields = any,
  P extends Payload | undefined = Payload | undefined,
  Success extends Schema.Schema.Any = Schema.Schema.Any,
  A extends Access = Access
> {
  /** The operation's name: the client's method where the client has one, the table's key. */
  readonly name: Name
  /** The operation's id in the service's public OpenAPI document. */
  readonly operationId: string
  readonly method: Method
  /** The path template, parameters in braces as the service's document writes them. */
  readonly path: Path
  /** The path parameters, each a schema from its segment's (percent-decoded) text. */
  readonly pathSchema: Schema.Struct<PathFields>
  /** The query parameters, each a schema from its text. */
  readonly urlParamsSchema: Schema.Struct<UrlFields>
  readonly access: A
  readonly payload: P
  /** The body of a 200. */
  readonly successSchema: Success
  /**
   * Whether asking again cannot do anything twice: reads, and operations that change nothing. The
   * client retries only these after the request may have reached the service.
   */
  readonly idempotent: boolean
  /** The KAS codes the service documents for the operation's 400s. */
  readonly errors: ReadonlyArray<number>
  /**
   * The largest body of its answer the client reads, when the operation's answers may be larger
   * than most (a receipt with many logs); absent, the client's default.
   */
  readonly maxResponseBytes: number | undefined
}

/**
 * Any operation, its types erased.
 *
 * @since 0.10.0
 * @category models
 */
export type Any = Endpoint<string, `/${string}`, any, any, Payload | undefined, Schema.Schema.Any>

/**
 * The value an operation answers.
 *
 * @since 0.10.0
 * @category models
 */
export type Success<E extends Any> = Schema.Schema.Type<E["successSchema"]>

/**
 * The path parameters of an operation, as the client gives them (decoded values).
 *
 * @since 0.10.0
 * @category models
 */
export type PathValues<E extends Any> = Schema.Schema.Type<E["pathSchema"]>

/**
 * The query of an operation, as the client gives it (decoded values).
 *
 * @since 0.10.0
 * @category models
 */
export type UrlValues<E extends Any> = Schema.Schema.Type<E["urlParamsSchema"]>

/**
 * The request body of an operation, in its JSON form.
 *
 * @since 0.10.0
 * @category models
 */
export type PayloadJson<E extends Any> = E["payload"] extends Payload<infer S> ? Schema.Schema.Encoded<S> : never

/**
 * Declares an operation; the types check that every parameter of the path template has a schema.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = <
  const Name extends string,
  const Path extends `/${string}`,
  PathFields extends { readonly [K in ParamNames<Path>]: Schema.Schema<any, string> },
  UrlFields extends Schema.Struct.Fields,
  P extends Payload | undefined,
  Success extends Schema.Schema.Any
>(endpoint: Endpoint<Name, Path, PathFields, UrlFields, P, Success>): Endpoint<Name, Path, PathFields, UrlFields, P, Success> =>
  endpoint

/**
 * An operation as the table writes it, with the method and path given apart: only what differs
 * from the defaults (no path or query parameters, no body, retried only when it is a `GET`, no
 * documented codes).
 *
 * @since 0.10.0
 * @category models
 */
export interface Spec<
  Path extends `/${string}`,
  PathFields extends { readonly [K in ParamNames<Path>]: Schema.Schema<any, string> },
  UrlFields extends Schema.Struct.Fields,
  P extends Schema.Schema.Any | undefined,
  Success extends Schema.Schema.Any,
  A extends Access
> {
  /** The operation's id in the service's public OpenAPI document. */
  readonly id: string
  readonly access: A
  readonly path?: PathFields
  readonly query?: UrlFields
  readonly payload?: P
  /** Whether the body may be left out; default `false`. */
  readonly payloadOptional?: boolean
  readonly success: Success
  /** Default: a `GET` is, nothing else. */
  readonly idempotent?: boolean
  readonly errors?: ReadonlyArray<number>
  readonly maxResponseBytes?: number
}

const NO_FIELDS = {}

const declare = (method: Method) =>
<
  const Name extends string,
  const Path extends `/${string}`,
  Success extends Schema.Schema.Any,
  const A extends Access,
  PathFields extends { readonly [K in ParamNames<Path>]: Schema.Schema<any, string> } = { readonly [K in ParamNames<Path>]: Schema.Schema<any, string> },
  UrlFields extends Schema.Struct.Fields = {},
  P extends Schema.Schema.Any | undefined = undefined
>(
  name: Name,
  path: Path,
  spec: Spec<Path, PathFields, UrlFields, P, Success, A>
): Endpoint<Name, Path, PathFields, UrlFields, P extends Schema.Schema.Any ? Payload<P> : undefined, Success, A> => ({
  name,
  operationId: spec.id,
  method,
  path,
  pathSchema: Struct(spec.path ?? (NO_FIELDS as PathFields)),
  urlParamsSchema: Struct(spec.query ?? (NO_FIELDS as UrlFields)),
  access: spec.access,
  payload: (spec.payload === undefined ? undefined : { schema: spec.payload, required: spec.payloadOptional !== true }) as never,
  successSchema: spec.success,
  idempotent: spec.idempotent ?? method === "GET",
  errors: spec.errors ?? [],
  maxResponseBytes: spec.maxResponseBytes
})

/**
 * Declares a `GET` operation (retried: a read).
 *
 * @since 0.10.0
 * @category constructors
 */
export const get = declare("GET")

/**
 * Declares a `POST` operation (not retried unless said).
 *
 * @since 0.10.0
 * @category constructors
 */
export const post = declare("POST")

/**
 * Declares a `PUT` operation (not retried unless said).
 *
 * @since 0.10.0
 * @category constructors
 */
export const put = declare("PUT")

/**
 * Declares a `DELETE` operation (not retried unless said).
 *
 * @since 0.10.0
 * @category constructors
 */
export const del = declare("DELETE")

/**
 * A group of operations, by name: what `group` makes of a list.
 *
 * @since 0.10.0
 * @category models
 */
export type Group<T extends ReadonlyArray<Any>> = { readonly [E in T[number] as E["name"]]: E }

/**
 * A group of operations (like `HttpApiGroup`), by name.
 *
 * @since 0.10.0
 * @category constructors
 */
export const group = <const T extends ReadonlyArray<Any>>(endpoints: T): Group<T> =>
  Object.fromEntries(endpoints.map((e) => [e.name, e])) as Group<T>

const PARAMETER = /\{([^}]+)\}/g

/**
 * The parameters of a path template, in their order.
 *
 * @since 0.10.0
 * @category paths
 */
export const parameters = (path: string): ReadonlyArray<string> => [...path.matchAll(PARAMETER)].map((m) => m[1]!)

/**
 * A path of a template with its parameters' texts in place, each percent-encoded (a key id's
 * colons as `%3A`, as the official client sends them).
 *
 * @since 0.10.0
 * @category paths
 */
export const fill = (path: string, values: Readonly<Record<string, string>>): string =>
  path.replace(PARAMETER, (_, name: string) => encodeURIComponent(values[name]!))

/**
 * A path template as people read it in help texts and prose: `/v2/account/<address>`.
 *
 * @since 0.10.0
 * @category paths
 */
export const readable = (path: string): string => path.replace(PARAMETER, "<$1>")
