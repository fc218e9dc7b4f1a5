/**
 * The API key of the KAS wallet API, the `Authorization` header made from it, and the scrubber
 * that keeps every form of the secret out of what a program prints.
 *
 * The client applies the scrubber itself to everything it lets out (errors, span attributes);
 * a program that prints other text it received (a command line echoing a server's answer, a log
 * line) can apply the same one with `scrubber`.
 *
 * @example
 * ```ts
 * import { Either, Redacted } from "effect"
 * import { Credentials } from "effect-kas-wallet"
 *
 * const key = { accessKeyId: "KASKEXAMPLE", secretAccessKey: Redacted.make("s3cret") }
 * const { scrub } = Either.getOrThrow(Credentials.scrubber(key))
 * scrub("the server said: s3cret") // "the server said: <redacted>"
 * ```
 *
 * @since 0.2.0
 */
import type { Either, Redacted } from "effect"
import * as Auth from "./internal/auth.js"
import type * as WalletError from "./WalletError.js"

/**
 * The API key, in either of the two forms the service accepts (they produce the same header):
 * the AccessKey ID and Secret AccessKey, or a ready `Basic <base64(id:secret)>` Authorization value.
 * Secrets are `Redacted` so that they never print.
 *
 * @since 0.1.0
 * @category models
 */
export type Credentials =
  | { readonly accessKeyId: string; readonly secretAccessKey: Redacted.Redacted<string> }
  | { readonly authorization: Redacted.Redacted<string> }

/**
 * Removes every form of a secret from text: the secret, the `Authorization` value and
 * base64(id:secret), verbatim, URL- or form-encoded, or JSON-escaped, in any mix.
 *
 * @since 0.2.0
 * @category models
 */
export interface Scrubber {
  /** `s` with every form of the secret replaced by `<redacted>`. */
  readonly scrub: (s: string) => string
  /** Whether `s` contains any form of the secret. */
  readonly leaks: (s: string) => boolean
}

/**
 * The `Authorization` header value of a key: `Basic base64(accessKeyId:secret)` (RFC 7617, UTF-8).
 * The one place the header is made: the client sends it, the emulator checks it.
 *
 * @since 0.2.0
 * @category encoding
 */
export const authorization: (accessKeyId: string, secretAccessKey: Redacted.Redacted<string>) => Redacted.Redacted<string> =
  Auth.basic

/**
 * Checks a key (any value: a missing or empty id or secret, an id with a colon, a malformed
 * `Authorization` value are each an `InvalidArgument` naming the field) and gives its scrubber.
 *
 * @since 0.2.0
 * @category constructors
 */
export const scrubber = (credentials: Credentials): Either.Either<Scrubber, WalletError.InvalidArgument> => Auth.make(credentials)
