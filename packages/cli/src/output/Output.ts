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
 * Rows as aligned columns (the last column is not padded), with a header row.
 *
 * @since 0.1.0
 * @category formatting
 */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>, indent = ""): string => {
  const all = [header, ...rows]
  const widths = header.map((_, c) => Math.max(...all.map((row) => [...(row[c] ?? "")].length)))
  return all
    .map((row) => indent + row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  ").trimEnd())
    .join("\n")
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
export const accountDetails = (account: Account.Account | Account.FeePayerAccount, indent = ""): string =>
  table(["FIELD", "VALUE"], [
    ["address", account.address],
    ["chainId", String(account.chainId)],
    ["createdAt", `${account.createdAt} (${time(account.createdAt)} UTC)`],
    ["updatedAt", `${account.updatedAt} (${time(account.updatedAt)} UTC)`],
    ["krn", account.krn.toString()],
    ["keyId", `…:${short(account.keyId.keyHex, 10, 6)}`],
    ["publicKey", short(account.publicKey, 12, 6)]
  ], indent)

/**
 * What disabling or enabling an account answered, as `field: value` lines.
 *
 * @since 0.2.0
 * @category formatting
 */
export const summaryDetails = (summary: Account.AccountSummary, state: "disabled" | "enabled"): string =>
  table(["FIELD", "VALUE"], [
    ["address", summary.address],
    ["state", state],
    ["krn", summary.krn.toString()],
    ["updatedAt", `${summary.updatedAt} (${time(summary.updatedAt)} UTC)`]
  ])
