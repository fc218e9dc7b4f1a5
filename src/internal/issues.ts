/**
 * Compact, path-named renderings of schema failures: `items.3.address: invalid EIP-55 checksum`.
 *
 * @internal
 */
import { ParseResult } from "effect"

/**
 * The failures of a ParseError as `path: message` lines (at most `limit`), and the first path
 * segment (the argument or field that failed).
 *
 * @internal
 */
export const describeParseError = (
  error: ParseResult.ParseError,
  limit = 3
): { readonly text: string; readonly head: string | undefined } => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const lines = issues.slice(0, limit).map((issue) =>
    issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message
  )
  const more = issues.length > limit ? ` (and ${issues.length - limit} more)` : ""
  const first = issues[0]?.path[0]
  return { text: lines.join("; ") + more, head: first === undefined ? undefined : String(first) }
}
