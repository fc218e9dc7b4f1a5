/**
 * Terminal output of the CLI and the tour: aligned tables, shortened hex, account rows, the
 * progress line, and what the command knows of its terminal.
 *
 * @since 0.1.0
 */
import { Context } from "effect"
import type { Account } from "effect-kas-wallet"

/**
 * What a command knows of its terminal.
 *
 * @since 0.1.0
 * @category models
 */
export interface TerminalInfo {
  readonly stdoutIsTerminal: boolean
  readonly stderrIsTerminal: boolean
  /** Writes to stderr, without a newline. */
  readonly writeProgress: (text: string) => void
}

/**
 * The terminal as a command sees it: whether stdout and stderr are terminals, and how to write
 * the progress line (stderr, without a newline). Tests provide their own.
 *
 * @since 0.1.0
 * @category services
 */
export class Terminal extends Context.Reference<Terminal>()("effect-kas-wallet/cli/Output/Terminal", {
  defaultValue: (): TerminalInfo => ({
    stdoutIsTerminal: process.stdout.isTTY === true,
    stderrIsTerminal: process.stderr.isTTY === true,
    writeProgress: (text) => void process.stderr.write(text)
  })
}) {}

/**
 * Whether a listing shows its progress line: only when stderr is a terminal and stdout is not
 * (the rows go to a file or a pipe). Rows printed on the terminal are progress enough, and a
 * progress line between them would garble them.
 *
 * @since 0.1.0
 * @category progress
 */
export const showsProgress = (terminal: TerminalInfo): boolean =>
  terminal.stderrIsTerminal && !terminal.stdoutIsTerminal

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`

/**
 * The progress line of a listing: `1000 accounts, 1 page…` (or keys, records: `noun`), then `.`
 * when done.
 *
 * @since 0.1.0
 * @category progress
 */
export const progress = (items: number, pages: number, done: boolean, noun = "account"): string =>
  `${count(items, noun)}, ${count(pages, "page")}${done ? "." : "…"}`

/**
 * `0xa809…8e14`: the head and tail of a long hex string (or any string), joined by an ellipsis.
 *
 * @since 0.1.0
 * @category formatting
 */
export const short = (s: string, head = 6, tail = 4): string =>
  s.length <= head + tail + 1 ? s : `${s.slice(0, head)}…${s.slice(-tail)}`

/**
 * Hex data in a line: in full up to `keep` bytes, else its first 32 bytes and its size
 * (`0x6080...  (1601 bytes)`); `--json` has it in full.
 *
 * @since 0.4.0
 * @category formatting
 */
export const hex = (data: string, keep = 100): string =>
  data.length <= 2 + 2 * keep ? data : `${data.slice(0, 66)}... (${(data.length - 2) / 2} bytes)`

/**
 * How a command lays out its tables: `wide` (`--wide`) prints every address, hash and id in full;
 * otherwise a table wider than `Width` shortens them, as the tour prints them (`0xa809…8e14`).
 *
 * @since 0.11.0
 * @category models
 */
export interface Layout {
  readonly wide: boolean
}

/**
 * The width tables fit without `--wide`.
 *
 * @since 0.11.0
 * @category formatting
 */
export const Width = 80

// An address or key (40 hex digits), a hash (64), a KRN's member id (a UUID): what `fit` shortens.
// Longer hex (a signed transaction, call data) is already cut by `hex` (its head then `...`), or
// must print whole.
const IDS = /\b0x(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{40})\b(?!\.\.\.)|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g

// The head of long hex that `hex` cut (64 digits, then `... (1601 bytes)`): shorter still.
const HEAD = /\b0x[0-9a-fA-F]{64}(?=\.\.\.)/g

// Long data not cut yet (a signature, 65 bytes): its head, as `hex` then `HEAD` would give it.
const LONG = /\b0x(?:[0-9a-fA-F]{2}){33,}\b(?!\.\.\.)/g

/**
 * A text with its addresses, hashes and member ids shortened as the tour prints them: an address
 * (and a key id's key) `0xa809…8e14`, a hash `0xa51376ff…6fa66a`, a member id `063e…ef87`, the
 * head of long data (more than 32 bytes, or cut by `hex`) to 16 digits (`0x6080604052610100... (1601 bytes)`).
 *
 * @since 0.11.0
 * @category formatting
 */
export const fit = (text: string): string =>
  text.replace(HEAD, (head) => head.slice(0, 18)).replace(LONG, (data) => `${data.slice(0, 18)}... (${(data.length - 2) / 2} bytes)`).replace(IDS, (id, at: number) =>
    !id.startsWith("0x")
      ? short(id, 4, 4)
      // An address, or a key id's key (after its pool, a colon), as an account's KEY column has it.
      : id.length === 42 || text[at - 1] === ":"
      ? short(id)
      : short(id, 10, 6))

const render = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>, indent: string): Array<string> => {
  const all = [header, ...rows]
  const widths = header.map((_, c) => Math.max(...all.map((row) => [...(row[c] ?? "")].length)))
  return all.map((row) => indent + row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  ").trimEnd())
}

const tooWide = (lines: ReadonlyArray<string>) => lines.some((line) => [...line].length > Width)

/**
 * Lines of text (a message), each wider than `Width` shortened by `fit`, unless `layout` is wide;
 * the others as they are. A listing (a record a line, `listing`) is shortened throughout when one
 * of its lines is too wide, as a table's column keeps one form.
 *
 * @since 0.13.0
 * @category formatting
 */
export const lines = (text: string, layout: Layout = { wide: false }, listing = false): string => {
  if (layout.wide) return text
  const all = text.split("\n")
  const shorten = listing && tooWide(all)
  return all.map((line) => (shorten || tooWide([line]) ? fit(line) : line)).join("\n")
}

/**
 * Rows as aligned columns (the last column is not padded), with a header row. Unless `layout` is
 * wide, a table wider than `Width` shortens its ids (`fit`): a `FIELD VALUE` table only in its
 * rows that are too wide, any other in every row, so that a column keeps one form.
 *
 * @since 0.1.0
 * @category formatting
 */
export const table = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  indent = "",
  layout: Layout = { wide: false }
): string => {
  const rendered = render(header, rows, indent)
  if (layout.wide || !tooWide(rendered)) return rendered.join("\n")
  const fitted = header[0] === "FIELD"
    ? rows.map((row, i) => (tooWide([rendered[i + 1]!]) ? row.map(fit) : row))
    : rows.map((row) => row.map(fit))
  return render(header, fitted, indent).join("\n")
}

/**
 * A Unix time as `YYYY-MM-DD HH:MM:SS` (UTC).
 *
 * @since 0.1.0
 * @category formatting
 */
export const time = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ")

/**
 * Column titles of `accountRow`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const accountHeader = ["ADDRESS", "CREATED (UTC)", "CHAIN", "POOL", "KEY"] as const

/**
 * One account (or fee-payer account) as table cells; `compact` shortens the address too.
 *
 * @since 0.1.0
 * @category formatting
 */
export const accountRow = (account: Account.Account | Account.FeePayerAccount, compact = false): ReadonlyArray<string> => [
  compact ? short(account.address) : account.address,
  time(account.createdAt),
  String(account.chainId),
  account.krn.resourceId,
  short(account.keyId.keyHex)
]

/**
 * One account (or fee-payer account) as `field: value` lines.
 *
 * @since 0.1.0
 * @category formatting
 */
export const accountDetails = (account: Account.Account | Account.FeePayerAccount, layout?: Layout, indent = ""): string =>
  table(["FIELD", "VALUE"], [
    ["address", account.address],
    ["chainId", String(account.chainId)],
    ["createdAt", `${account.createdAt} (${time(account.createdAt)} UTC)`],
    ["updatedAt", `${account.updatedAt} (${time(account.updatedAt)} UTC)`],
    ["krn", account.krn.toString()],
    ["keyId", `…:${short(account.keyId.keyHex, 10, 6)}`],
    ["publicKey", short(account.publicKey, 12, 6)]
  ], indent, layout)

/**
 * What disabling or enabling an account answered, as `field: value` lines.
 *
 * @since 0.2.0
 * @category formatting
 */
export const summaryDetails = (summary: Account.AccountSummary, state: "disabled" | "enabled", layout?: Layout): string =>
  table(["FIELD", "VALUE"], [
    ["address", summary.address],
    ["state", state],
    ["krn", summary.krn.toString()],
    ["updatedAt", `${summary.updatedAt} (${time(summary.updatedAt)} UTC)`]
  ], "", layout)
