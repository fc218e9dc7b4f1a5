/**
 * The vocabulary in which the route table describes itself for the OpenAPI document: references
 * to schemas (the client's domain schemas, by the name the document gives them, or plain JSON
 * schemas for what the domain does not model), parameters, request bodies and responses.
 *
 * Kept apart from `Route` so that the modules a route is made of (`Caller`, `Listing`,
 * `PathValues`) can describe their values next to the code that reads them.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import type { Schema } from "effect"

/**
 * A schema in the document: a domain schema, rendered with `JSONSchema` under `name` in the
 * document's components (or under its own identifier when it has one), or a plain JSON schema
 * written in place.
 *
 * @since 0.3.0
 * @category models
 */
export type SchemaRef =
  | { readonly _tag: "Domain"; readonly name: string; readonly schema: Schema.Schema.All }
  | { readonly _tag: "Json"; readonly json: Readonly<Record<string, unknown>> }

/**
 * A domain schema, named in the document's components.
 *
 * @since 0.3.0
 * @category constructors
 */
export const domain = (name: string, schema: Schema.Schema.All): SchemaRef => ({ _tag: "Domain", name, schema })

/**
 * A plain JSON schema, for values the domain has no schema of (query integers, free strings).
 *
 * @since 0.3.0
 * @category constructors
 */
export const json = (json: Readonly<Record<string, unknown>>): SchemaRef => ({ _tag: "Json", json })

/**
 * A path parameter: the name comes from the path template.
 *
 * @since 0.3.0
 * @category models
 */
export interface Parameter {
  readonly description: string
  readonly schema: SchemaRef
}

/**
 * An optional query parameter.
 *
 * @since 0.3.0
 * @category models
 */
export interface QueryParameter extends Parameter {
  readonly name: string
}

/**
 * A request header.
 *
 * @since 0.3.0
 * @category models
 */
export interface Header extends Parameter {
  readonly name: string
  readonly required: boolean
}

/**
 * A JSON request body. Whether a route reads a body at all is this declaration: the router reads
 * it (within the limit) only for routes that declare one.
 *
 * @since 0.3.0
 * @category models
 */
export interface Body {
  readonly required: boolean
  readonly description?: string
  readonly schema: SchemaRef
}

/**
 * The success response (200): a JSON body of that schema, or just a description.
 *
 * @since 0.3.0
 * @category models
 */
export interface Response {
  readonly description: string
  readonly schema?: SchemaRef
}
