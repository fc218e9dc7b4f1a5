/**
 * What the `tx` commands read besides flags: a document from a file or stdin (an RLP for
 * `tx relay`, an account key for `tx update-key`), bounded so that a wrong file (a disk image, a
 * log) is refused rather than read whole; hex data; and an account key in the service's JSON,
 * checked by the client's one description of it (`AccountKey.Json`) with the field of each
 * mistake named.
 *
 * @since 0.5.0
 */
import { Effect, Either, ParseResult, Schema } from "effect"
import { AccountKey } from "effect-kas-wallet"
import * as fs from "node:fs"
import type { Readable } from "node:stream"
import * as ExitCode from "../output/ExitCode.js"
import * as Flags from "./Flags.js"

/**
 * The most a document may hold, in bytes (64 KiB): well above any transaction the service takes.
 *
 * @since 0.5.0
 * @category constants
 */
export const MaxBytes = 64 * 1024

/**
 * Reads a stream to its end as UTF-8, refusing it once it holds more than `MaxBytes`; `what`
 * names it in the refusals.
 */
const readBounded = (stream: Readable, what: string, release: () => void): Effect.Effect<string, ExitCode.Failure> =>
  Effect.async<string, ExitCode.Failure>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const done = () => {
      stream.off("data", onData)
      stream.off("end", onEnd)
      stream.off("error", onError)
      release()
    }
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk
      size += bytes.length
      if (size > MaxBytes) {
        done()
        resume(Effect.fail(ExitCode.invalid(`${what} holds more than ${MaxBytes} bytes (64 KiB): not read; is it the right file?`)))
        return
      }
      chunks.push(bytes)
    }
    const onEnd = () => {
      done()
      resume(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
    }
    const onError = (error: Error) => {
      done()
      resume(Effect.fail(ExitCode.invalid(`${what} cannot be read: ${(error as { code?: string }).code ?? error.message}`)))
    }
    stream.on("data", onData)
    stream.on("end", onEnd)
    stream.on("error", onError)
    // Interrupted: stop reading.
    return Effect.sync(done)
  })

/**
 * A document read from a file or stdin, and its name for messages (`<file> signed.rlp`,
 * `the RLP (stdin)`).
 *
 * @since 0.5.0
 * @category models
 */
export interface Document {
  readonly text: string
  readonly source: string
}

/**
 * Reads a document of at most `MaxBytes`: the file at `path`, or stdin for `-` (and for `""`, an
 * optional argument left out); `file` and `what` name it in messages, as a file and as stdin.
 * Stdin that is a terminal is refused: nobody types an RLP, and waiting for it would look like a
 * hang.
 *
 * @since 0.5.0
 * @category reading
 */
export const readDocument = (path: string, names: { readonly file: string; readonly what: string }): Effect.Effect<Document, ExitCode.Failure> =>
  Effect.suspend(() => {
    if (path === "-" || path === "") {
      const source = `${names.what} (stdin)`
      const stdin = process.stdin
      if (stdin.isTTY === true) {
        return Effect.fail(ExitCode.invalid(`${source}: stdin is a terminal; give a file, or pipe it in`))
      }
      // Stdin is not ours to close: it is only paused once read.
      return Effect.map(readBounded(stdin, source, () => stdin.pause()), (text) => ({ text, source }))
    }
    const source = `${names.file} ${path}`
    const file = fs.createReadStream(path)
    return Effect.map(readBounded(file, source, () => file.destroy()), (text) => ({ text, source }))
  })

const HexBytes = /^0x(?:[0-9a-fA-F]{2})+$/

/**
 * Checks hex data: `0x` and a non-empty, even number of hex digits (any case).
 *
 * @since 0.5.0
 * @category parsers
 */
export const parseHexData: Flags.Parser<string> = (raw) =>
  HexBytes.test(raw)
    ? Either.right(raw.toLowerCase())
    : Either.left(`must be 0x followed by an even, non-zero number of hex digits (got ${Flags.show(raw)})`)

/**
 * An RLP-encoded transaction as read from a file or stdin: surrounding whitespace trimmed, then
 * checked as hex data (the client decodes it as a Klaytn transaction before sending).
 *
 * @since 0.5.0
 * @category parsers
 */
export const parseRlp = (document: Document): Either.Either<string, string> => {
  const text = document.text.trim()
  if (HexBytes.test(text)) return Either.right(text)
  // What is there is not shown: a file given by mistake may hold a secret (a private key is 64 hex
  // digits without 0x). Only its shape is.
  const shape = text.length === 0 ? "it is empty" : !text.startsWith("0x") ? `it does not start with 0x (${text.length} characters)` : `${text.length} characters, not all hex digits in pairs`
  return Either.left(`${document.source} must hold an RLP: 0x followed by an even, non-zero number of hex digits (${shape})`)
}

const decodeKey = Schema.decodeUnknownEither(AccountKey.Json)

/** A schema's first issue as `field: what is wrong` (`key.weightedKeys.0.weight: must be ...`). */
const firstIssue = (error: ParseResult.ParseError): string => {
  const [issue] = ParseResult.ArrayFormatter.formatErrorSync(error)
  if (issue === undefined || issue.path.length === 0) return "must be a JSON object {keyType, key?}"
  const field = issue.path.join(".")
  // "is missing", "is unexpected": the field is the sentence's subject.
  return issue.message.startsWith("is ") ? `${field} ${issue.message}` : `${field}: ${issue.message}`
}

/**
 * An account key in the service's JSON (`{"keyType":2,"key":"0x04..."}`), checked by
 * `AccountKey.Json`: every rule of the service, the first mistake named by its field. `source`
 * names where the text came from (`--key`, `--key FILE`).
 *
 * @since 0.5.0
 * @category parsers
 */
export const parseAccountKey = (text: string, source: string): Either.Either<AccountKey.AccountKey, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return Either.left(`${source} is not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  return Either.mapBoth(decodeKey(json), {
    onLeft: (error) => `${source} ${firstIssue(error)}`,
    onRight: AccountKey.fromJson
  })
}
