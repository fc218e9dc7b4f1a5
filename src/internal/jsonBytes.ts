/**
 * A large JSON body parsed from its bytes in pieces, never as one string.
 *
 * V8 puts a string over its regular object size (128 KB) in the large-object space, which only a
 * full collection frees: a stream of 500 KB pages leaves their texts there, and a process
 * streaming a million accounts saw its heap (and resident memory) grow to 1.1 GB before a
 * collection, against 0.44 GB streaming a hundred thousand (docs/benchmarks.md, "Memory"). Each
 * such string also costs fresh pages (~2.4 ms for a 498 KB page on the benchmark machine, against
 * ~0.02 ms for 120 KB). Here the body's structure is scanned on the bytes, and the pieces, each at
 * most `limit` bytes, are decoded and given to `JSON.parse`: an array's elements in groups, an
 * object's keys and values one by one, as deep as a value is larger than `limit`.
 *
 * The value is the one `JSON.parse` gives of the whole text (the same keys in the same order,
 * `__proto__` as an own property, the last of duplicate keys), and every byte of every token is
 * decoded in exactly one piece, so `refuse` (the credential check) sees every string and number
 * whole. Any doubt declines (`undefined`): a body that is not JSON, or that this scan does not
 * take, is parsed whole as before, with the same errors.
 *
 * @internal
 */

// Pieces at most this long: their strings stay regular objects, two-byte ones included.
const PIECE_BYTES = 32 * 1024

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

// Pieces start after a structural byte: a byte-order mark there is not the body's and must stay
// (JSON.parse refuses it), as it does inside the whole text.
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true })

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09

/** Thrown to decline: the whole text is parsed instead. */
const DECLINE = Symbol("decline")
/** Thrown when `refuse` refused a piece. */
const REFUSED = Symbol("refused")

interface Scan {
  readonly bytes: Uint8Array
  readonly refuse: (text: string) => boolean
  readonly limit: number
}

const skip = (bytes: Uint8Array, p: number, end: number): number => {
  while (p < end && isSpace(bytes[p])) p++
  return p
}

// The end of the string token at `p`; its content is JSON.parse's to check.
const stringEnd = (bytes: Uint8Array, p: number, end: number): number => {
  for (let i = p + 1; i < end; i++) {
    const b = bytes[i]
    if (b === QUOTE) return i + 1
    if (b === BACKSLASH) i++
  }
  throw DECLINE
}

// The end of the value starting at `p`, not past `end`; never empty.
const valueEnd = (bytes: Uint8Array, p: number, end: number): number => {
  if (p >= end) throw DECLINE
  const first = bytes[p]
  if (first === QUOTE) return stringEnd(bytes, p, end)
  if (first === OPEN_ARRAY || first === OPEN_OBJECT) {
    let depth = 0
    for (let i = p; i < end; i++) {
      const b = bytes[i]
      if (b === QUOTE) i = stringEnd(bytes, i, end) - 1
      else if (b === OPEN_ARRAY || b === OPEN_OBJECT) depth++
      else if ((b === CLOSE_ARRAY || b === CLOSE_OBJECT) && --depth === 0) return i + 1
    }
    throw DECLINE
  }
  let i = p
  while (i < end) {
    const b = bytes[i]
    if (b === COMMA || b === CLOSE_ARRAY || b === CLOSE_OBJECT || b === COLON || isSpace(b)) break
    i++
  }
  // An empty element would make an empty group, which parses ("[]").
  if (i === p) throw DECLINE
  return i
}

const text = (scan: Scan, start: number, end: number): string => {
  const piece = utf8.decode(scan.bytes.subarray(start, end))
  if (scan.refuse(piece)) throw REFUSED
  return piece
}

const value = (scan: Scan, start: number, end: number): unknown => {
  if (end - start > scan.limit) {
    const first = scan.bytes[start]
    const last = scan.bytes[end - 1]
    if (first === OPEN_ARRAY && last === CLOSE_ARRAY) return array(scan, start, end - 1)
    if (first === OPEN_OBJECT && last === CLOSE_OBJECT) return object(scan, start, end - 1)
  }
  // Small, or a string or number over `limit` (only whole).
  return JSON.parse(text(scan, start, end))
}

// Consecutive small elements parsed as one array (their commas checked by JSON.parse).
const pushGroup = (scan: Scan, out: Array<unknown>, start: number, end: number) => {
  const group = JSON.parse(`[${text(scan, start, end)}]`) as Array<unknown>
  for (let i = 0; i < group.length; i++) out.push(group[i])
}

// The elements between `[` at `start` and `]` at `close`: small ones in groups, a large one alone.
const array = (scan: Scan, start: number, close: number): Array<unknown> => {
  const { bytes, limit } = scan
  const out: Array<unknown> = []
  let groupStart = -1
  let groupEnd = -1
  let p = skip(bytes, start + 1, close)
  if (p === close) return out
  for (;;) {
    const e = valueEnd(bytes, p, close)
    if (e - p > limit) {
      if (groupStart !== -1) pushGroup(scan, out, groupStart, groupEnd)
      groupStart = -1
      out.push(value(scan, p, e))
    } else {
      if (groupStart !== -1 && e - groupStart > limit) {
        pushGroup(scan, out, groupStart, groupEnd)
        groupStart = -1
      }
      if (groupStart === -1) groupStart = p
      groupEnd = e
    }
    p = skip(bytes, e, close)
    if (p === close) break
    if (bytes[p] !== COMMA) throw DECLINE
    p = skip(bytes, p + 1, close)
  }
  if (groupStart !== -1) pushGroup(scan, out, groupStart, groupEnd)
  return out
}

// The members between `{` at `start` and `}` at `close`, each key and value on its own.
const object = (scan: Scan, start: number, close: number): Record<string, unknown> => {
  const { bytes } = scan
  const out: Record<string, unknown> = {}
  let p = skip(bytes, start + 1, close)
  if (p === close) return out
  for (;;) {
    if (bytes[p] !== QUOTE) throw DECLINE
    const keyEnd = stringEnd(bytes, p, close)
    const key = JSON.parse(text(scan, p, keyEnd)) as string
    p = skip(bytes, keyEnd, close)
    if (bytes[p] !== COLON) throw DECLINE
    p = skip(bytes, p + 1, close)
    const e = valueEnd(bytes, p, close)
    // As JSON.parse: an own property even for `__proto__`; a repeated key keeps its place.
    Object.defineProperty(out, key, { value: value(scan, p, e), writable: true, enumerable: true, configurable: true })
    p = skip(bytes, e, close)
    if (p === close) return out
    if (bytes[p] !== COMMA) throw DECLINE
    p = skip(bytes, p + 1, close)
  }
}

/**
 * The body's value, `"refused"` when `refuse` refused one of its pieces, or `undefined` when the
 * body is better parsed whole (it is not JSON, or not as this scan takes it).
 *
 * @internal
 */
export const parse = (
  bytes: Uint8Array,
  refuse: (text: string) => boolean,
  limit: number = PIECE_BYTES
): { readonly value: unknown } | "refused" | undefined => {
  try {
    // The whole text's decoding drops a leading byte-order mark.
    let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
    let end = bytes.length
    while (end > start && isSpace(bytes[end - 1])) end--
    start = skip(bytes, start, end)
    // Two values, or one with something after it, fail a separator's check or JSON.parse.
    return { value: value({ bytes, refuse, limit }, start, end) }
  } catch (e) {
    if (e === REFUSED) return "refused"
    return undefined
  }
}
