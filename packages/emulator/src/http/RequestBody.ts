/**
 * Request bodies: read within the emulator's limit (64 KiB), and decoded into what the routes
 * take (the fee-payer options, a transaction of any kind, a contract call).
 *
 * The limit is one comparison (`fits`), applied to the declared `Content-Length` before anything
 * is read and to the bytes that arrive: a chunked body is held to the same limit as a declared
 * one, byte for byte, and refused the same way.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import type { HttpServerRequest } from "@effect/platform"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Effect, Either, ParseResult, Schema } from "effect"
import { AccountKey, Multisig } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Wire from "effect-kas-wallet/Wire"
import * as ApiError from "./ApiError.js"

/**
 * The largest body read, in bytes: `POST /v2/feepayer` holds one boolean, a transfer a memo of
 * some kilobytes, a deployment its bytecode as hex (a contract at the EIP-170 limit of 24 KiB is
 * 48 KiB of hex).
 *
 * @since 0.3.0
 * @category constants
 */
export const MaxBytes = 64 * 1024

/**
 * Whether a body of that many bytes is within the limit.
 *
 * @since 0.3.0
 * @category reading
 */
export const fits = (bytes: number): boolean => bytes <= MaxBytes

/**
 * Reads the body as UTF-8 text, at most `MaxBytes` bytes: a larger declared `Content-Length` is
 * refused unread, a larger body without one (chunked) once the limit is passed; both are 400
 * `1061615` naming `body`, as is a body the client cut short. Either way the rest of the body is
 * read and dropped and the connection stays open (Node's own handling of a body the handler left
 * unread): closing it under a client still sending would reset the connection, and a client that
 * reads only once it has sent everything would lose the answer.
 *
 * @since 0.3.0
 * @category reading
 */
export const read = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<string, ApiError.ApiError> => {
  const declared: unknown = request.headers["content-length"]
  // Node has already refused a Content-Length that is not a number; NaN would not fit either.
  if (typeof declared === "string" && !fits(Number(declared))) return Effect.fail(ApiError.outOfRange("body"))
  return Effect.async<string, ApiError.ApiError>((resume) => {
    const message = NodeHttpServerRequest.toIncomingMessage(request)
    const chunks: Array<Buffer> = []
    let bytes = 0
    const finish = (outcome: Either.Either<string, ApiError.ApiError>) => {
      // Without listeners the message keeps flowing: what still arrives is dropped.
      stop()
      resume(outcome)
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (fits(bytes)) chunks.push(chunk)
      else {
        chunks.length = 0
        finish(Either.left(ApiError.outOfRange("body")))
        // Keeps the rest flowing, to nowhere, until the body ends.
        message.resume()
      }
    }
    const onEnd = () => finish(Either.right(Buffer.concat(chunks).toString("utf8")))
    const onBroken = () => finish(Either.left(ApiError.outOfRange("body")))
    const stop = () => {
      message.off("data", onData)
      message.off("end", onEnd)
      message.off("error", onBroken)
      message.off("close", onBroken)
    }
    message.on("data", onData)
    message.on("end", onEnd)
    message.on("error", onBroken)
    // `close` without `end`: the client went away mid-body.
    message.on("close", onBroken)
    return Effect.sync(stop)
  })
}

/** A request body that must be a JSON object; anything else → 400 `1061615` naming `body`. */
const jsonObject = (text: string): Either.Either<Record<string, unknown>, ApiError.ApiError> => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return Either.left(ApiError.outOfRange("body"))
  }
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? Either.right(body as Record<string, unknown>)
    : Either.left(ApiError.outOfRange("body"))
}

/**
 * Reads the body of `POST /v2/feepayer`: empty (or only white space), or a JSON object whose
 * `withoutAccountUpdate`, when present and not `null`, is a boolean. Anything else → 400
 * `1061615` naming `body` or the field.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseFeePayerBody = (text: string): Either.Either<{ readonly withoutAccountUpdate: boolean }, ApiError.ApiError> => {
  if (text.trim() === "") return Either.right({ withoutAccountUpdate: false })
  return Either.flatMap(jsonObject(text), (body) => {
    const value: unknown = body.withoutAccountUpdate
    if (value === undefined || value === null) return Either.right({ withoutAccountUpdate: false })
    return typeof value === "boolean"
      ? Either.right({ withoutAccountUpdate: value })
      : Either.left(ApiError.outOfRange("withoutAccountUpdate"))
  })
}

type Decode = (u: unknown) => Either.Either<unknown, ParseResult.ParseError>

const ROUTES: ReadonlyArray<Wire.PayerRoute> = ["tx", "fd", "fd-user"]

// One decoder per endpoint, from the one table of bodies.
const decoders = Object.fromEntries(
  (Object.keys(Wire.Bodies) as Array<Wire.Kind>).map((kind) => [
    kind,
    Object.fromEntries(ROUTES.map((route) => [route, Schema.decodeUnknownEither(Wire.Bodies[kind][route] as Schema.Schema<unknown, unknown>)]))
  ])
) as Readonly<Record<Wire.Kind, Readonly<Record<Wire.PayerRoute, Decode>>>>

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/

// `{ keyType: 5, key: [..., { keyType: 1 }, ...] }`
const legacyInRoles = (raw: unknown): boolean => {
  const key = raw as { readonly keyType?: unknown; readonly key?: unknown } | null
  return typeof key === "object" && key !== null && key.keyType === 5 && Array.isArray(key.key) &&
    key.key.some((role: unknown) => typeof role === "object" && role !== null && (role as { readonly keyType?: unknown }).keyType === 1)
}
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/
const ZERO_ADDRESS = /^0x0{40}$/i

// Where a schema's first failure is, as the service names the field (the top-level field, or the
// path under `data` for a contract call: `data.methodName`, `data.arguments`), and the value there.
const failure = (body: Readonly<Record<string, unknown>>, error: ParseResult.ParseError) => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  const path = (issue?.path ?? []).slice(0, 2).map(String)
  if (path.length === 0) return { issue, field: "body", raw: body }
  const nested = path[0] === "data" && path.length > 1
  const data = body.data
  const raw = !nested ? body[path[0]!] : typeof data === "object" && data !== null ? (data as Record<string, unknown>)[path[1]!] : undefined
  return { issue, field: nested ? path.join(".") : path[0]!, raw }
}

/**
 * The service's error for a transaction body its schema refused, by the first field the failure
 * names: an address (`from`, `to`, `feePayer`) missing, empty or (for `to`) zero → 1061608, else
 * 1061609; `value` missing → 1061608, not `0x` hex → 1061607, too large → 1061615; `input` missing
 * or empty (a deployment's bytecode) → 1061608, not `0x` and an even number of hex digits →
 * 1061607; `rlp` as `input`; `transactionHash` not hex → 1061607; `accountKey` → 1061903 (1061917 for a
 * legacy key in a role-based key); `feeRatio` → 1061616; a call's `data` or `data.methodName` missing → 1061608; a field
 * the endpoint does not take, or anything else (`nonce`, `gas`, `memo`, `submit` of the wrong type;
 * a method name that is not an identifier, an argument that does not fit its ABI type) → 1061615
 * naming it (`data.methodName`, `data.arguments`).
 *
 * @since 0.4.0
 * @category parsing
 */
export const bodyError = (body: Readonly<Record<string, unknown>>, error: ParseResult.ParseError): ApiError.ApiError => {
  const { field, issue, raw } = failure(body, error)
  // A field the endpoint does not take (`feeRatio` on /v2/tx/value, a misspelt `fee_payer`).
  if (issue?._tag === "Unexpected") return ApiError.outOfRange(field)
  const absent = raw === undefined || raw === null || raw === ""
  switch (field) {
    case "from":
    case "to":
    case "feePayer":
      return absent || (typeof raw === "string" && ZERO_ADDRESS.test(raw)) ? ApiError.missing(field) : ApiError.notAddress(field)
    case "value":
      if (absent) return ApiError.missing(field)
      return typeof raw === "string" && HEX_QUANTITY.test(raw) ? ApiError.outOfRange(field) : ApiError.notHex(field)
    case "input":
      if (absent || raw === "0x") return ApiError.missing(field)
      return typeof raw === "string" && HEX_BYTES.test(raw) ? ApiError.outOfRange(field) : ApiError.notHex(field)
    case "rlp":
      if (absent || raw === "0x") return ApiError.missing(field)
      return typeof raw === "string" && HEX_BYTES.test(raw) ? ApiError.outOfRange(field) : ApiError.notHex(field)
    case "transactionHash":
      return typeof raw === "string" && !HEX_BYTES.test(raw) ? ApiError.notHex(field) : ApiError.outOfRange(field)
    case "accountKey":
      // A legacy key in a role-based key has a code of its own; any other mistake is a bad key.
      if (absent) return ApiError.missing(field)
      return legacyInRoles(raw)
        ? ApiError.refused(ApiError.Code.LegacyKeyInRoleBased, "AccountKeyLegacy type is not supported in AccountKeyRoleBased type")
        : ApiError.refused(ApiError.Code.InvalidAccountKey, `failed to decode account keys; ${issue?.message ?? "accountKey"}`)
    case "feeRatio":
      return ApiError.feeRatioOutOfRange()
    case "data":
    case "data.methodName":
      return absent ? ApiError.missing(field) : ApiError.outOfRange(field)
    default:
      return ApiError.outOfRange(field)
  }
}

/**
 * Reads the body of a transaction endpoint: a JSON object decoded by the endpoint's schema
 * (`Wire.Bodies[kind][route]`, e.g. `Bodies["contract/deploy"].fd` for
 * `/v2/tx/fd/contract/deploy`). Not JSON, or not an object → 400 1061615 naming `body`; a field
 * the schema refuses → see `bodyError`.
 *
 * @since 0.4.0
 * @category parsing
 */
export const parseTxBody = <K extends Wire.Kind>(
  kind: K,
  route: Wire.PayerRoute,
  text: string
): Either.Either<Wire.Body<K>, ApiError.ApiError> =>
  Either.flatMap(
    jsonObject(text),
    // Every route's body of a kind is a `Body<K>`: the route schemas only leave fields out of `any`.
    (object) => Either.mapLeft(decoders[kind][route](object) as Either.Either<Wire.Body<K>, ParseResult.ParseError>, (error) => bodyError(object, error))
  )

const decodeCall = Schema.decodeUnknownEither(Wire.ContractCallBody)

/**
 * Reads the body of `POST /v2/tx/contract/call` (`Wire.ContractCallBody`), its errors as
 * `bodyError` says.
 *
 * @since 0.4.0
 * @category parsing
 */
export const parseCallBody = (text: string): Either.Either<Wire.ContractCallBody, ApiError.ApiError> =>
  Either.flatMap(jsonObject(text), (object) => Either.mapLeft(decodeCall(object), (error) => bodyError(object, error)))

/**
 * An account key as the chain encodes it (its RLP form), checked as Klaytn checks it: a key the
 * chain refuses (not a point of the curve, ...) is the service's 1061903.
 *
 * @since 0.8.0
 * @category parsing
 */
export const encodeAccountKey = (json: AccountKey.Json): Either.Either<Uint8Array, ApiError.ApiError> =>
  Either.mapLeft(
    Klaytn.encodeAccountKey(AccountKey.toKlaytn(AccountKey.fromJson(json))),
    (e) => ApiError.refused(ApiError.Code.InvalidAccountKey, `failed to decode account keys; ${e.reason}`)
  )

const strictly = { onExcessProperty: "error" } as const
const decodeMultisigUpdate = Schema.decodeUnknownEither(Multisig.UpdateRequest, strictly)
const decodeAppend = Schema.decodeUnknownEither(Multisig.AppendRequest, strictly)

// The first failure of a multisig body: a field it does not take → 1061615; `field` missing →
// 1061608; anything else wrong in it → `wrong(field, message)`.
const multisigBodyError = (wrong: (field: string, message: string) => ApiError.ApiError) =>
(body: Readonly<Record<string, unknown>>) =>
(error: ParseResult.ParseError): ApiError.ApiError => {
  const { field, issue, raw } = failure(body, error)
  if (issue?._tag === "Unexpected") return ApiError.outOfRange(field)
  if (raw === undefined || raw === null) return ApiError.missing(field)
  return wrong(field, issue?.message ?? field)
}

/**
 * Reads the body of `PUT /v2/account/{address}/multisig`, `{ threshold, weightedKeys }`
 * (`Multisig.UpdateRequest`), and encodes its weighted multisig key as the chain takes it. A field
 * missing → 1061608; a weight, threshold or public key the rules refuse (a threshold the weights
 * cannot reach, a key twice, more than 10 keys, a key not of the curve) → 1061903, as an account
 * update's key; another field → 1061615.
 *
 * @since 0.8.0
 * @category parsing
 */
export const parseMultisigUpdateBody = (
  text: string
): Either.Either<{ readonly request: Multisig.UpdateRequest; readonly key: Uint8Array }, ApiError.ApiError> =>
  Either.flatMap(jsonObject(text), (object) =>
    Either.flatMap(
      Either.mapLeft(
        decodeMultisigUpdate(object),
        multisigBodyError((_, message) => ApiError.refused(ApiError.Code.InvalidAccountKey, `failed to decode account keys; ${message}`))(object)
      ),
      (request) =>
        Either.map(
          encodeAccountKey({ keyType: AccountKey.KeyType.WeightedMultiSig, key: request }),
          (key) => ({ request, key })
        )
    ))

/**
 * Reads the body of `POST /v2/multisig/tx/{transaction-id}/sign`, `{ signatures: [{ V, R, S }] }`
 * (`Multisig.AppendRequest`, 1 to 10): missing → 1061608; malformed → 1061615.
 *
 * @since 0.8.0
 * @category parsing
 */
export const parseAppendBody = (text: string): Either.Either<Multisig.AppendRequest, ApiError.ApiError> =>
  Either.flatMap(jsonObject(text), (object) =>
    Either.mapLeft(decodeAppend(object), multisigBodyError((field) => ApiError.outOfRange(field))(object)))
