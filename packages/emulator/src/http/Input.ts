/**
 * An operation's input read from a request by the operation table's schemas (`WalletApi`): its path
 * parameters, its query and its body, each decoded by the schema the client encodes them with. What
 * a schema refuses is answered through one mapper: the failing field's `Refusal` annotation (the
 * code the service gives a value that is missing, and one that is present but wrong), else 1061608
 * for a missing value and 1061615 for anything else; a field the operation does not take is 1061615
 * naming it; a body that is not JSON of the schema's kind (an object, or an array) is 1061615
 * naming `body`. Nothing malformed reaches a handler.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import { Either, Option, ParseResult, Schema, SchemaAST } from "effect"
import * as Refusal from "effect-kas-wallet/Refusal"
import * as ApiError from "./ApiError.js"
import { ofCode } from "./Refusals.js"

type Decode = (u: unknown) => Either.Either<unknown, ParseResult.ParseError>

const decoders = new WeakMap<Schema.Schema.Any, Decode>()
const decoderOf = (schema: Schema.Schema.Any): Decode => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    decode = Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown>)
    decoders.set(schema, decode)
  }
  return decode
}

// The refusal a node declares: on itself, or on what it wraps (a filter, a transformation, a member
// of a union such as `null | X`).
const refusalOf = (ast: SchemaAST.AST): Refusal.Refusal | undefined => {
  const own = Refusal.get(ast)
  if (own !== undefined) return own
  switch (ast._tag) {
    case "Refinement":
      return refusalOf(ast.from)
    case "Transformation":
      return refusalOf(ast.from) ?? refusalOf(ast.to)
    case "Union":
      for (const member of ast.types) {
        const found = refusalOf(member)
        if (found !== undefined) return found
      }
      return undefined
    case "Suspend":
      return refusalOf(ast.f())
    default:
      return undefined
  }
}

// The node of one step down a path: a property of an object, an element of an array, through what
// wraps them.
const childOf = (ast: SchemaAST.AST, key: PropertyKey): SchemaAST.AST | undefined => {
  switch (ast._tag) {
    case "TypeLiteral": {
      const property = ast.propertySignatures.find((p) => p.name === key)
      if (property !== undefined) return property.type
      return ast.indexSignatures[0]?.type
    }
    case "TupleType":
      return typeof key === "number" ? (ast.elements[key]?.type ?? ast.rest[0]?.type) : undefined
    case "Refinement":
      return childOf(ast.from, key)
    case "Transformation":
      return childOf(ast.from, key)
    case "Suspend":
      return childOf(ast.f(), key)
    case "Union":
      for (const member of ast.types) {
        const found = childOf(member, key)
        if (found !== undefined) return found
      }
      return undefined
    default:
      return undefined
  }
}

const valueAt = (value: unknown, key: PropertyKey): unknown =>
  typeof value === "object" && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined

/**
 * The service's answer to a value its schema refused: the first failure, at the field the service
 * names (`from`, `data.methodName`, `keyId` of a registration's item; `body` for the whole), with
 * the code the nearest refusal on the way there declares. `whole` names the whole value.
 *
 * @since 0.10.0
 * @category refusing
 */
export const refused = (schema: Schema.Schema.Any, value: unknown, error: ParseResult.ParseError, whole = "body"): ApiError.ApiError => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  const path = issue?.path ?? []
  let node: SchemaAST.AST | undefined = schema.ast
  let refusal = refusalOf(schema.ast)
  let raw = value
  const field: Array<string> = []
  for (const key of path) {
    // An index after a field ends the field's name (`weightedKeys`); before one, it is an item of
    // the whole (a registration's).
    if (typeof key === "number" && field.length > 0) break
    node = node === undefined ? undefined : childOf(node, key)
    raw = valueAt(raw, key)
    if (typeof key === "number") continue
    field.push(String(key))
    const own = node === undefined ? undefined : refusalOf(node)
    if (own !== undefined) {
      refusal = own
      break
    }
  }
  const name = field.length === 0 ? whole : field.join(".")
  // A field the operation does not take.
  if (issue?._tag === "Unexpected") return ApiError.outOfRange(name)
  const absent = issue?._tag === "Missing" && field.length === path.filter((k) => typeof k === "string").length
  return ofCode(Refusal.codeOf(refusal, raw, absent), name, issue?.message)
}

const decodeWith = (schema: Schema.Schema.Any, value: unknown, whole: string): Either.Either<unknown, ApiError.ApiError> =>
  Either.mapLeft(decoderOf(schema)(value), (error) => refused(schema, value, error, whole))

// What the JSON of a body must be before its fields are looked at: an array for a schema of one, an
// object otherwise.
const expectsArray = (ast: SchemaAST.AST): boolean =>
  ast._tag === "TupleType" ||
  (ast._tag === "Refinement" && expectsArray(ast.from)) ||
  (ast._tag === "Transformation" && expectsArray(ast.from))

/**
 * A body's value: its text parsed and decoded by the operation's payload schema. An empty body is
 * an empty object: the default of a body that may be left out, the first field missing of one that
 * may not.
 *
 * @since 0.10.0
 * @category reading
 */
export const payload = (
  payload: { readonly schema: Schema.Schema.Any; readonly required: boolean },
  text: string
): Either.Either<unknown, ApiError.ApiError> => {
  let value: unknown
  if (text.trim() === "") value = {}
  else {
    try {
      value = JSON.parse(text)
    } catch {
      return Either.left(ApiError.outOfRange("body"))
    }
  }
  const array = expectsArray(payload.schema.ast)
  if (typeof value !== "object" || value === null || Array.isArray(value) !== array) return Either.left(ApiError.outOfRange("body"))
  return decodeWith(payload.schema, value, "body")
}

/**
 * A query's values: each parameter the operation declares, decoded by its schema; one given twice is
 * ambiguous (1061615), one the operation does not declare is ignored.
 *
 * @since 0.10.0
 * @category reading
 */
export const query = (schema: Schema.Struct<Schema.Struct.Fields>, text: string): Either.Either<unknown, ApiError.ApiError> => {
  const names = Object.keys(schema.fields)
  if (names.length === 0) return Either.right({})
  const params = new URLSearchParams(text)
  const given: Record<string, string> = {}
  for (const name of names) {
    const values = params.getAll(name)
    if (values.length > 1) return Either.left(ApiError.outOfRange(name))
    if (values.length === 1) given[name] = values[0]!
  }
  return decodeWith(schema, given, "query")
}

// `decodeURIComponent` throws on a malformed escape (`%zz`): such a segment is taken as it came, and
// refused as the value it is.
const percentDecoded = (raw: string): string =>
  Option.getOrElse(Option.liftThrowable(decodeURIComponent)(raw), () => raw)

/**
 * A path's parameters: each segment percent-decoded and decoded by its schema (the router hands
 * them over as sent).
 *
 * @since 0.10.0
 * @category reading
 */
export const path = (schema: Schema.Struct<Schema.Struct.Fields>, raw: Readonly<Record<string, string>>): Either.Either<unknown, ApiError.ApiError> => {
  const names = Object.keys(schema.fields)
  if (names.length === 0) return Either.right({})
  const given: Record<string, string> = {}
  for (const name of names) given[name] = percentDecoded(raw[name] ?? "")
  return decodeWith(schema, given, "path")
}
