/**
 * Request bodies: read within the emulator's limit (64 KiB), and decoded into what the routes
 * take (the fee-payer options, a transfer).
 *
 * The limit is one comparison (`fits`), applied to the declared `Content-Length` before anything
 * is read and to the bytes that arrive: a chunked body is held to the same limit as a declared
 * one, byte for byte.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Either, ParseResult, Schema } from "effect"
import type {  } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as ApiError from "./ApiError.js"

/**
 * The largest body read, in bytes: `POST /v2/feepayer` holds one boolean, a transfer a memo of
 * some kilobytes.
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

// Refused mid-stream, the rest of the body is still on the connection: it cannot carry another
// request, so the answer closes it (Node reads and drops the rest until then).
const cutOff = (): ApiError.ApiError => {
  const error = ApiError.outOfRange("body")
  return new ApiError.ApiError({ status: error.status, code: error.code, message: error.message, headers: { connection: "close" } })
}

/**
 * Reads the body as UTF-8 text, at most `MaxBytes` bytes: a larger declared `Content-Length` is
 * refused unread (Node then drops the body and the connection stays open), a larger body without
 * one (chunked) is refused once the limit is passed, closing the connection with the answer. Both
 * are 400 `1061615` naming `body`, as is a body the client cut short.
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
      else finish(Either.left(cutOff()))
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

/**
 * Which transfer endpoint: `/v2/tx/value` (the sender pays), `/v2/tx/fd/value` (the global fee
 * payer) or `/v2/tx/fd-user/value` (the member's fee-payer account).
 *
 * @since 0.2.0
 * @category models
 */
export type TransferKind = "value" | "fd" | "fd-user"

/**
 * The client's schema of each transfer endpoint's body: the emulator decodes what the client
 * encodes, and the document describes the same schema.
 *
 * @since 0.3.0
 * @category schemas
 */
export const transferSchemas = {
  value: Wire.ValueTransferBody,
  fd: Wire.FeeDelegatedTransferBody,
  "fd-user": Wire.UserFeeDelegatedTransferBody
} as const

const decodeTransfer = {
  value: Schema.decodeUnknownEither(transferSchemas.value),
  fd: Schema.decodeUnknownEither(transferSchemas.fd),
  "fd-user": Schema.decodeUnknownEither(transferSchemas["fd-user"])
}

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/
const ZERO_ADDRESS = /^0x0{40}$/i

/**
 * The service's error for a transfer body its schema refused, by the first field the failure
 * names: an address (`from`, `to`, `feePayer`) missing, empty or (for `to`) zero → 1061608, else
 * 1061609; `value` missing → 1061608, not `0x` hex → 1061607, too large → 1061615; `feeRatio` →
 * 1061616; a field the endpoint does not take, or anything else (`nonce`, `gas`, `memo`, `submit`
 * of the wrong type) → 1061615 naming it.
 *
 * @since 0.2.0
 * @category parsing
 */
export const transferBodyError = (body: Readonly<Record<string, unknown>>, error: ParseResult.ParseError): ApiError.ApiError => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  const field = issue !== undefined && issue.path.length > 0 ? String(issue.path[0]) : "body"
  // A field the endpoint does not take (`feeRatio` on /v2/tx/value, a misspelt `fee_payer`).
  if (issue?._tag === "Unexpected") return ApiError.outOfRange(field)
  const raw = body[field]
  const absent = raw === undefined || raw === null || raw === ""
  switch (field) {
    case "from":
    case "to":
    case "feePayer":
      return absent || (typeof raw === "string" && ZERO_ADDRESS.test(raw)) ? ApiError.missing(field) : ApiError.notAddress(field)
    case "value":
      if (absent) return ApiError.missing(field)
      return typeof raw === "string" && HEX_QUANTITY.test(raw) ? ApiError.outOfRange(field) : ApiError.notHex(field)
    case "feeRatio":
      return ApiError.feeRatioOutOfRange()
    default:
      return ApiError.outOfRange(field)
  }
}

/**
 * Reads a transfer body: a JSON object decoded by the endpoint's schema (`ValueTransferBody`,
 * `FeeDelegatedTransferBody`, `UserFeeDelegatedTransferBody`). Not JSON, or not an object → 400
 * 1061615 naming `body`; a field the schema refuses → see `transferBodyError`.
 *
 * @since 0.2.0
 * @category parsing
 */
export const parseTransferBody = (
  kind: TransferKind,
  text: string
): Either.Either<Wire.TransferBody, ApiError.ApiError> =>
  Either.flatMap(
    jsonObject(text),
    (object) => Either.mapLeft(decodeTransfer[kind](object), (error) => transferBodyError(object, error))
  )
