/**
 * The Authorization header of the WalletClient, and the scrubber that keeps every form of the
 * credentials out of what the client lets out (errors, span attributes).
 *
 * @internal
 */
import { type Cause, Either, Exit, Option, Redacted, Tracer } from "effect"
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

const invalid = (field: string, description: string) =>
  new WalletError.InvalidArgument({ argument: `credentials${field === "" ? "" : `.${field}`}`, description })

const FORMS = "give credentials: { accessKeyId, secretAccessKey: Redacted.make(secret) } or { authorization: Redacted.make(\"Basic ...\") } (from the environment: KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY)"

/** The text inside a `Redacted`, when it is a `Redacted` holding a string. */
const redactedText = (u: unknown): string | undefined => {
  if (!Redacted.isRedacted(u)) return undefined
  const value: unknown = Redacted.value(u as Redacted.Redacted<unknown>)
  return typeof value === "string" ? value : undefined
}

const base64 = (s: string): string => {
  const bytes = new TextEncoder().encode(s)
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

const REDACTED = "<redacted>"

const hex2 = (n: number): string => {
  const h = n.toString(16).padStart(2, "0")
  // Either case: `%2f` and `%2F` are the same byte to every decoder.
  return [...h].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join("")
}

const regexLiteral = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")

/**
 * One character of a secret in any of the spellings a server may echo it in: itself, its UTF-8
 * bytes percent-encoded (URL or form encoding, hex in either case; `+` for a space), or a JSON
 * string escape (`\uXXXX`, `\/`, `\"`, `\\`).
 */
const charPattern = (c: string): string => {
  const alternatives = [regexLiteral(c)]
  alternatives.push([...new TextEncoder().encode(c)].map((b) => `%${hex2(b)}`).join(""))
  if (c === " ") alternatives.push("\\+")
  if (c === "/" || c === "\"" || c === "\\") alternatives.push(`\\\\${regexLiteral(c)}`)
  const units = c.length === 1 ? [c.charCodeAt(0)] : [c.charCodeAt(0), c.charCodeAt(1)]
  alternatives.push(units.map((u) => `\\\\u${hex2(u >> 8)}${hex2(u & 0xff)}`).join(""))
  return `(?:${alternatives.join("|")})`
}

const jsonUnescape = (s: string): string =>
  s.replace(/\\u([0-9a-fA-F]{4})|\\([/"\\])/g, (_, h: string | undefined, c: string | undefined) =>
    h !== undefined ? String.fromCharCode(parseInt(h, 16)) : c!)

const percentDecode = (s: string): string =>
  s.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })

/**
 * Whether `found` holds for `s` with some layers of JSON string escapes and percent-encoding
 * undone (a secret URL-encoded, then JSON-escaped, is the secret again two steps down). Each step
 * is checked: undoing one layer too many could turn a secret that contains `\"` or `%41` into
 * something else.
 */
const hiddenIn = (s: string, found: (s: string) => boolean): boolean => {
  let out = s
  let unchanged = 0
  for (let step = 0; step < 8 && unchanged < 2; step++) {
    const next = step % 2 === 0 ? jsonUnescape(out) : percentDecode(out)
    if (next === out) {
      unchanged++
      continue
    }
    if (found(next)) return true
    unchanged = 0
    out = next
  }
  return false
}

/**
 * `Basic base64(accessKeyId:secret)`: the one builder of the header (`Credentials.authorization`).
 *
 * @internal
 */
export const basic = (accessKeyId: string, secretAccessKey: Redacted.Redacted<string>): Redacted.Redacted<string> =>
  Redacted.make(`Basic ${base64(`${accessKeyId}:${Redacted.value(secretAccessKey)}`)}`)

/**
 * The scrubber over a list of secret strings. Each secret is matched however a server may have
 * echoed it back: verbatim, URL- or form-encoded (a cursor or a Location), or JSON-escaped (a
 * body), in any mix; a string hiding one under several layers of these is replaced whole.
 *
 * @internal
 */
export const scrubberOf = (secrets: ReadonlyArray<string>): Pick<Auth, "scrub" | "leaks"> => {
  const plain = [...new Set(secrets.filter((s) => s.length > 0))]
    // Longest first: the Basic value contains the secret's neighbours, never the other way round.
    .sort((a, b) => b.length - a.length)
  if (plain.length === 0) return { leaks: () => false, scrub: (s) => s }
  const source = plain.map((s) => Array.from(s, charPattern).join("")).join("|")
  const any = new RegExp(source)
  const all = new RegExp(source, "g")
  const verbatim = (s: string): boolean => {
    for (const form of plain) if (s.includes(form)) return true
    return false
  }
  // Only a `%`, a `\` or, when a secret has a space, a `+` (form encoding) can spell a secret
  // other than verbatim: text without them (nearly every body) is checked with `includes` alone.
  // (`includes` of one character is a memchr: a hundredth of a character-class regex on a page.)
  const spaced = plain.some((s) => s.includes(" "))
  const escaped = (s: string): boolean => s.includes("%") || s.includes("\\") || (spaced && s.includes("+"))
  const leaks = (s: string): boolean => verbatim(s) || (escaped(s) && (any.test(s) || hiddenIn(s, verbatim)))
  return {
    leaks,
    scrub: (s) => {
      if (!leaks(s)) return s
      const out = s.replace(all, REDACTED)
      return leaks(out) ? REDACTED : out
    }
  }
}

/**
 * Validates the credentials and derives the header and the scrubber: the secret, base64(id:secret)
 * and `Basic <base64>` never leave the client.
 *
 * @internal
 */
export const make = (given: unknown): Either.Either<Auth, WalletError.InvalidArgument> => {
  // `unknown`, not `Credentials`: a JavaScript caller, or `process.env.X!`, can hand over anything.
  if (typeof given !== "object" || given === null) return Either.left(invalid("", `missing: ${FORMS}`))
  if ("authorization" in given) {
    const text = redactedText(given.authorization)
    if (text === undefined) return Either.left(invalid("authorization", "must be a Redacted string: Redacted.make(\"Basic ...\")"))
    const value = text.trim()
    const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(value)
    if (match === null) return Either.left(invalid("authorization", "must be \"Basic <base64(id:secret)>\""))
    const encoded = match[1]!
    let decoded: string
    try {
      decoded = new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)))
    } catch {
      return Either.left(invalid("authorization", "is not valid base64"))
    }
    const colon = decoded.indexOf(":")
    if (colon <= 0) return Either.left(invalid("authorization", "must encode \"id:secret\""))
    return Either.right({
      header: Redacted.make(`Basic ${encoded}`),
      ...scrubberOf([encoded, decoded.slice(colon + 1)])
    })
  }
  const id: unknown = "accessKeyId" in given ? given.accessKeyId : undefined
  if (typeof id !== "string" || id === "") {
    return Either.left(invalid("accessKeyId", `${id === "" ? "is empty" : "is missing"}: set it to the AccessKey ID of your KAS key (KAS_ACCESS_KEY_ID)`))
  }
  if (id.includes(":")) return Either.left(invalid("accessKeyId", "must not contain ':' (HTTP Basic splits the key at the first colon)"))
  const raw: unknown = "secretAccessKey" in given ? given.secretAccessKey : undefined
  const secret = redactedText(raw)
  if (secret === undefined) {
    // `Redacted.make(process.env.SECRET!)` with the variable unset holds `undefined`: the secret
    // is missing, not of the wrong kind.
    const missing = raw === undefined || (Redacted.isRedacted(raw) && Redacted.value(raw as Redacted.Redacted<unknown>) == null)
    return Either.left(invalid(
      "secretAccessKey",
      missing ? "is missing: set it to Redacted.make(<Secret AccessKey>) (KAS_SECRET_ACCESS_KEY)" : "must be a Redacted string: Redacted.make(<Secret AccessKey>)"
    ))
  }
  if (secret === "") return Either.left(invalid("secretAccessKey", "is empty: set it to the Secret AccessKey of your KAS key (KAS_SECRET_ACCESS_KEY)"))
  const encoded = base64(`${id}:${secret}`)
  return Either.right({ header: Redacted.make(`Basic ${encoded}`), ...scrubberOf([encoded, secret]) })
}

// An object (a request, a response, an error holding one) becomes its scrubbed JSON: an attribute
// or an event's value is read by exporters, and a platform object holds the request's headers.
const scrubValue = (value: unknown, scrub: (s: string) => string): unknown =>
  typeof value === "string"
    ? scrub(value)
    : Array.isArray(value)
    ? value.map((v) => scrubValue(v, scrub))
    : typeof value === "object" && value !== null
    ? scrub(safeJson(value))
    : value

const safeJson = (value: object): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}

/**
 * A failure or defect as a span may keep it: its tag and scrubbed message, nothing it holds (the
 * platform's errors hold the request, `Authorization` included).
 */
class ScrubbedFailure extends Error {
  constructor(readonly _tag: string, message: string) {
    super(message)
    this.name = _tag
  }
}

const scrubbedFailure = (error: unknown, scrub: (s: string) => string): ScrubbedFailure => {
  const e = error as { readonly _tag?: unknown; readonly message?: unknown } | null
  const tag = typeof e?._tag === "string" ? e._tag : error instanceof Error ? error.name : typeof error
  const message = typeof e?.message === "string" ? e.message : typeof error === "string" ? error : tag
  return new ScrubbedFailure(tag, scrub(message))
}

// The first error or defect of a cause, read from its shape (the Cause module's walkers would
// weigh more in a browser bundle than this).
const firstFailure = (cause: Cause.Cause<unknown>): { readonly error: unknown } | undefined => {
  switch (cause._tag) {
    case "Fail":
      return { error: cause.error }
    case "Die":
      return { error: cause.defect }
    case "Sequential":
    case "Parallel":
      return firstFailure(cause.left) ?? firstFailure(cause.right)
    default:
      return undefined
  }
}

/**
 * The exit a span ends with, as a tracer may keep it: a success without its value (the platform's
 * `http.client` span ends on the response, which holds the request), a failure as its first error
 * or defect's tag and scrubbed message; an interruption as it was (it holds nothing).
 */
const scrubbedExit = (exit: Exit.Exit<unknown, unknown>, scrub: (s: string) => string): Exit.Exit<unknown, unknown> => {
  if (Exit.isSuccess(exit)) return Exit.void
  const failure = firstFailure(exit.cause)
  return failure === undefined ? exit : Exit.fail(scrubbedFailure(failure.error, scrub))
}

const scrubRecord = (record: Record<string, unknown>, scrub: (s: string) => string): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(record)) out[key] = scrubValue(record[key], scrub)
  return out
}

/** The span a `ScrubbedSpan` wraps: the tracer below sees its own spans as parents and links. */
const inner = new WeakMap<Tracer.AnySpan, Tracer.Span>()
const unwrap = (span: Tracer.AnySpan): Tracer.AnySpan => inner.get(span) ?? span

// What a `ScrubbedSpan` reads from the span it wraps, when asked: `status` and `attributes` change
// while the span runs.
const forwarded = ["name", "spanId", "traceId", "parent", "context", "status", "attributes", "links", "sampled", "kind"] as const

interface ScrubbedSpan extends Pick<Tracer.Span, typeof forwarded[number]> {}

class ScrubbedSpan implements Tracer.Span {
  readonly _tag = "Span"
  constructor(readonly span: Tracer.Span, readonly scrub: (s: string) => string) {
    inner.set(this, span)
  }
  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    this.span.end(endTime, scrubbedExit(exit, this.scrub))
  }
  attribute(key: string, value: unknown): void {
    this.span.attribute(key, scrubValue(value, this.scrub))
  }
  event(name: string, startTime: bigint, attributes?: Record<string, unknown>): void {
    this.span.event(this.scrub(name), startTime, attributes === undefined ? undefined : scrubRecord(attributes, this.scrub))
  }
  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    this.span.addLinks(links.map((link) => ({ ...link, span: unwrap(link.span) })))
  }
}
for (const key of forwarded) {
  Object.defineProperty(ScrubbedSpan.prototype, key, {
    get(this: ScrubbedSpan) {
      return this.span[key]
    }
  })
}

/**
 * `tracer` with every attribute, event and exit of the spans it makes scrubbed: the platform's
 * `http.client` spans record the response headers, where a server may echo the credentials, and
 * end on the response or error, which hold the request with its `Authorization`.
 *
 * @internal
 */
export const scrubbingTracer = (tracer: Tracer.Tracer, scrub: (s: string) => string): Tracer.Tracer =>
  Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) =>
      new ScrubbedSpan(
        tracer.span(
          name,
          Option.map(parent, unwrap),
          context,
          links.map((link) => ({ ...link, span: unwrap(link.span) })),
          startTime,
          kind,
          options?.attributes === undefined ? options : { ...options, attributes: scrubRecord(options.attributes, scrub) }
        ),
        scrub
      ),
    context: (f, fiber) => tracer.context(f, fiber)
  })
