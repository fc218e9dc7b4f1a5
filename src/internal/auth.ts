/**
 * The Authorization header of the WalletClient, and the scrubber that keeps every form of the
 * credentials out of what the client lets out (errors, span attributes).
 *
 * @internal
 */
import { Either, Redacted } from "effect"
import type { Credentials } from "../WalletConfig.js"
import * as WalletError from "../WalletError.js"

/**
 * The header to send, and a function removing every form of the secret from a string.
 *
 * @internal
 */
export interface Auth {
  readonly header: Redacted.Redacted<string>
  /** `s` with every occurrence of the secret, the Basic value or their URL-encoded forms replaced by `<redacted>`. */
  readonly scrub: (s: string) => string
  /** Whether `s` contains any form of the credentials. */
  readonly leaks: (s: string) => boolean
}

const invalid = (description: string) => new WalletError.InvalidArgument({ argument: "credentials", description })

const base64 = (s: string): string => {
  const bytes = new TextEncoder().encode(s)
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

const REDACTED = "<redacted>"

/**
 * The scrubber over a list of secret strings. Each secret is also matched in its URL-encoded
 * form, which is how an echoed secret comes back inside a path or a query string.
 *
 * @internal
 */
export const scrubberOf = (secrets: ReadonlyArray<string>): Pick<Auth, "scrub" | "leaks"> => {
  const forms = [...new Set(secrets.flatMap((s) => [s, encodeURIComponent(s)]).filter((s) => s.length > 0))]
    // Longest first: the Basic value contains the secret's neighbours, never the other way round.
    .sort((a, b) => b.length - a.length)
  const leaks = (s: string): boolean => {
    for (const form of forms) if (s.includes(form)) return true
    return false
  }
  return {
    leaks,
    scrub: (s) => {
      if (!leaks(s)) return s
      let out = s
      for (const form of forms) out = out.split(form).join(REDACTED)
      return out
    }
  }
}

/**
 * Validates the credentials and derives the header and the scrubber: the secret, base64(id:secret)
 * and `Basic <base64>` never leave the client.
 *
 * @internal
 */
export const make = (credentials: Credentials): Either.Either<Auth, WalletError.InvalidArgument> => {
  if ("authorization" in credentials) {
    const value = Redacted.value(credentials.authorization).trim()
    const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(value)
    if (match === null) return Either.left(invalid("authorization must be \"Basic <base64(id:secret)>\""))
    const encoded = match[1]!
    let decoded: string
    try {
      decoded = new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)))
    } catch {
      return Either.left(invalid("authorization is not valid base64"))
    }
    const colon = decoded.indexOf(":")
    if (colon <= 0) return Either.left(invalid("authorization must encode \"id:secret\""))
    return Either.right({
      header: Redacted.make(`Basic ${encoded}`),
      ...scrubberOf([encoded, decoded.slice(colon + 1)])
    })
  }
  const id = credentials.accessKeyId
  const secret = Redacted.value(credentials.secretAccessKey)
  if (id === "" || id.includes(":")) return Either.left(invalid("accessKeyId must be non-empty and contain no ':'"))
  if (secret === "") return Either.left(invalid("secretAccessKey must be non-empty"))
  const encoded = base64(`${id}:${secret}`)
  return Either.right({ header: Redacted.make(`Basic ${encoded}`), ...scrubberOf([encoded, secret]) })
}
