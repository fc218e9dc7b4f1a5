/**
 * Path templates of the route table, such as `/v2/account/{address}`: their segments, their
 * parameters (in the types too), and how a raw request path matches them.
 *
 * Matching works on the raw path, segment by segment, and decodes nothing: a parameter's value is
 * handed over percent-encoded, as the client sent it, and only the route's own parser (after
 * authentication) decodes it. So a hostile path never reaches a decoder outside a route, and
 * `%61ccount` is no `account`: the service's gateway does not decode paths either.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Option } from "effect"

/**
 * One segment of a template: a literal, matched exactly (case included), or a parameter, which
 * matches any non-empty segment.
 *
 * @since 0.3.0
 * @category models
 */
export type Segment =
  | { readonly _tag: "Literal"; readonly value: string }
  | { readonly _tag: "Parameter"; readonly name: string }

/**
 * A parsed path template.
 *
 * @since 0.3.0
 * @category models
 */
export interface PathPattern {
  /** The template as written, for example `/v2/pubkey/{public-key}/account`: also the OpenAPI path. */
  readonly template: `/${string}`
  readonly segments: ReadonlyArray<Segment>
  /** The parameters' names, in the order of the path. */
  readonly parameters: ReadonlyArray<string>
}

// Split at the type level as at run time: only a whole segment `{name}` is a parameter, so the
// types never promise a parameter the matcher does not give.
type Segments<P extends string> = P extends `${infer Head}/${infer Tail}` ? Head | Segments<Tail> : P
type ParameterOf<S> = S extends `{${infer Name}}` ? Name : never

/**
 * The parameter names of a template, as a union of string literals.
 *
 * @since 0.3.0
 * @category models
 */
export type ParameterNames<P extends string> = ParameterOf<Segments<P>>

const PARAMETER = /^\{(.+)\}$/

/**
 * Parses a template: `/`, then segments separated by `/`; a segment written `{name}` is a
 * parameter, any other a literal.
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = (template: `/${string}`): PathPattern => {
  const segments = template.slice(1).split("/").map((part): Segment => {
    const parameter = PARAMETER.exec(part)
    return parameter === null ? { _tag: "Literal", value: part } : { _tag: "Parameter", name: parameter[1]! }
  })
  return {
    template,
    segments,
    parameters: segments.flatMap((s) => (s._tag === "Parameter" ? [s.name] : []))
  }
}

/**
 * The segments of a raw path (the part of the request target before `?`), or `None` when it does
 * not begin with `/` (an authority-form `CONNECT host:port`, an absolute URL): no route's path.
 *
 * @since 0.3.0
 * @category matching
 */
export const splitPath = (path: string): Option.Option<ReadonlyArray<string>> =>
  path.startsWith("/") ? Option.some(path.slice(1).split("/")) : Option.none()

/**
 * The raw values of the pattern's parameters when the segments match it: as many segments,
 * literals equal, parameters non-empty (`/v2/account/` is no account's path).
 *
 * @since 0.3.0
 * @category matching
 */
export const match = (
  pattern: PathPattern,
  segments: ReadonlyArray<string>
): Option.Option<Readonly<Record<string, string>>> => {
  if (segments.length !== pattern.segments.length) return Option.none()
  const values: Record<string, string> = {}
  for (let i = 0; i < segments.length; i++) {
    const expected = pattern.segments[i]!
    const actual = segments[i]!
    if (expected._tag === "Literal") {
      if (actual !== expected.value) return Option.none()
    } else {
      if (actual === "") return Option.none()
      values[expected.name] = actual
    }
  }
  return Option.some(values)
}

/**
 * Orders patterns most specific first: at the first segment where two differ in kind, the
 * literal comes first. Where several patterns match a path, the first in this order is the
 * path's: `/v2/tx/value` before `/v2/tx/{transaction-hash}`, as a gateway routes.
 *
 * @since 0.3.0
 * @category matching
 */
export const bySpecificity = (a: PathPattern, b: PathPattern): number => {
  const n = Math.min(a.segments.length, b.segments.length)
  for (let i = 0; i < n; i++) {
    const ka = a.segments[i]!._tag
    const kb = b.segments[i]!._tag
    if (ka !== kb) return ka === "Literal" ? -1 : 1
  }
  return a.segments.length - b.segments.length
}

/**
 * The template with its parameter names left out (`/v2/account/{}`): two templates with one shape
 * match exactly the same paths, so a table must not hold both.
 *
 * @since 0.3.0
 * @category matching
 */
export const shape = (pattern: PathPattern): string =>
  "/" + pattern.segments.map((s) => (s._tag === "Literal" ? s.value : "{}")).join("/")
