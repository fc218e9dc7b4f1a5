/**
 * Rebuilding an error of the client with other fields: the resume cursor of a listing, and the
 * scrubbing of every string.
 *
 * @internal
 */
import type { WalletError } from "../WalletError.js"

/**
 * The same error with the cursor that resumes a listing at the failed page.
 *
 * @internal
 */
export const withCursor = <E extends WalletError>(error: E, cursor: string): E => {
  if (
    error._tag === "InvalidArgument" || error._tag === "ReceiptTimeout" || error._tag === "SubmissionFailed" ||
    error.cursor === cursor
  ) return error
  const Ctor = error.constructor as new(props: object) => E
  const { _tag, ...fields } = error as E & { readonly cursor?: string }
  return new Ctor({ ...fields, cursor })
}

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && Object.getPrototypeOf(u) === Object.prototype

/** `record` with `f` applied to every value; `record` itself when nothing changes. */
const mapValues = (record: Record<string, unknown>, f: (u: unknown) => unknown): Record<string, unknown> => {
  let changed = false
  const mapped: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) {
    const next = f(value)
    if (next !== value) changed = true
    mapped[key] = next
  }
  return changed ? mapped : record
}

/**
 * The same error with `f` applied to every string field (a message, a path, a body excerpt, the
 * node's words of a refusal's reason); the error itself when nothing changes.
 *
 * @internal
 */
export const mapStrings = <E extends WalletError>(error: E, f: (s: string) => string): E => {
  const { _tag, ...fields } = error as E & Record<string, unknown>
  const string = (u: unknown) => (typeof u === "string" ? f(u) : u)
  const mapped = mapValues(fields, (u) => (isRecord(u) ? mapValues(u, string) : string(u)))
  if (mapped === fields) return error
  const Ctor = error.constructor as new(props: object) => E
  return new Ctor(mapped)
}
