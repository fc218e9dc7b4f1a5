/**
 * Request bodies: read within the emulator's limit (64 KiB), as text for `Input` to decode by the
 * operation table's schemas; and an account key of a body as the chain encodes it.
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
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Effect, Either } from "effect"
import { AccountKey } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
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

