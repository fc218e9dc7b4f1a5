/**
 * Compact, path-named renderings of schema failures: `items.3.address: invalid EIP-55 checksum`.
 *
 * @internal
 */
import { ParseResult } from "effect"

/**
 * The failures of a ParseError as `path: message` lines (at most `limit`, default 3), and the
 * first path segment (the argument or field that failed). `under`: the name the message is
 * already given (`""`: that first segment), which its paths then do not repeat.
 *
 * @internal
 */
export const describeParseError = (
  error: ParseResult.ParseError,
  options: { readonly limit?: number; readonly under?: string } = {}
): { readonly text: string; readonly head: string | undefined } => {
  const limit = options.limit ?? 3
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]?.path[0]
  const head = first === undefined ? undefined : String(first)
  // Each thing once: an issue of the field the error is named after does not repeat its name.
  const lines = issues.slice(0, limit).map((issue) => {
    const under = options.under === "" ? head : options.under
    const path = under !== undefined && issue.path.length > 0 && String(issue.path[0]) === under ? issue.path.slice(1) : issue.path
    return path.length > 0 ? `${path.map(String).join(".")}: ${issue.message}` : issue.message
  })
  const more = issues.length > limit ? ` (and ${issues.length - limit} more)` : ""
  return { text: [...new Set(lines)].join("; ") + more, head }
}
