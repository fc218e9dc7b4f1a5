/**
 * RLP, Klaytn's (and Ethereum's) serialization: encoding, and decoding that refuses what Klaytn
 * refuses (non-canonical encodings, trailing bytes, lists nested past any transaction's depth).
 *
 * Part of `effect-kas-wallet/Klaytn` (src/Klaytn.ts), which re-exports its public names.
 *
 * @since 0.9.0
 */
import type { Either } from "effect"
import { guard, invalid, type KlaytnError } from "./KlaytnError.js"

/**
 * An RLP value: a byte string or a list of RLP values.
 *
 * @since 0.1.0
 * @category rlp
 */
export type RlpItem = Uint8Array | ReadonlyArray<RlpItem>

/**
 * The bytes of `parts`, one after the other.
 *
 * @internal
 */
export const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  let length = 0
  for (const p of parts) length += p.length
  const out = new Uint8Array(length)
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}

const lengthBytes = (n: number): Uint8Array => {
  const bytes: Array<number> = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256)
  return Uint8Array.from(bytes)
}

const withPrefix = (short: number, payload: Uint8Array): Uint8Array => {
  if (payload.length <= 55) return concat([Uint8Array.of(short + payload.length), payload])
  const length = lengthBytes(payload.length)
  return concat([Uint8Array.of(short + 55 + length.length), length, payload])
}

/**
 * The RLP encoding of a value.
 *
 * @since 0.1.0
 * @category rlp
 */
export const encodeRlp = (item: RlpItem): Uint8Array =>
  item instanceof Uint8Array
    ? item.length === 1 && item[0]! < 0x80 ? item.slice() : withPrefix(0x80, item)
    : withPrefix(0xc0, concat(item.map(encodeRlp)))

// Lists nest only two levels in a transaction; the limit keeps hostile input off the stack.
const MAX_DEPTH = 16

const readLength = (bytes: Uint8Array, start: number, size: number): number => {
  if (start + size > bytes.length) invalid("RLP: length runs past the end of the input")
  if (bytes[start] === 0) invalid("RLP: length with a leading zero byte")
  let n = 0
  for (let i = 0; i < size; i++) n = n * 256 + bytes[start + i]!
  if (n <= 55) invalid("RLP: long form used for a length below 56")
  return n
}

// Decodes the item at `offset`; returns it and the offset after it. Canonical encodings only.
const decodeAt = (bytes: Uint8Array, offset: number, depth: number): [RlpItem, number] => {
  if (offset >= bytes.length) invalid("RLP: unexpected end of input")
  const b = bytes[offset]!
  if (b < 0x80) return [bytes.slice(offset, offset + 1), offset + 1]
  let start: number
  let length: number
  const isList = b >= 0xc0
  const short = b - (isList ? 0xc0 : 0x80)
  if (short <= 55) {
    start = offset + 1
    length = short
  } else {
    const size = short - 55
    length = readLength(bytes, offset + 1, size)
    start = offset + 1 + size
  }
  const end = start + length
  if (end > bytes.length) invalid("RLP: item runs past the end of the input")
  if (!isList) {
    if (length === 1 && bytes[start]! < 0x80) invalid("RLP: single byte below 0x80 must encode itself")
    return [bytes.slice(start, end), end]
  }
  if (depth >= MAX_DEPTH) invalid("RLP: lists nested too deeply")
  const items: Array<RlpItem> = []
  let at = start
  while (at < end) {
    const [item, next] = decodeAt(bytes, at, depth + 1)
    if (next > end) invalid("RLP: list item runs past the end of its list")
    items.push(item)
    at = next
  }
  return [items, end]
}

/**
 * The one RLP value spanning the whole input (`decodeRlp`), refused with `invalid`.
 *
 * @internal
 */
export const decodeWhole = (bytes: Uint8Array): RlpItem => {
  const [item, end] = decodeAt(bytes, 0, 0)
  if (end !== bytes.length) invalid(`RLP: ${bytes.length - end} bytes after the value`)
  return item
}

/**
 * Decodes exactly one RLP value spanning the whole input. Non-canonical encodings (a long form
 * where the short one fits, a length with leading zeros, a single byte below 0x80 wrapped in a
 * prefix) are refused, as Klaytn refuses them.
 *
 * @since 0.1.0
 * @category rlp
 */
export const decodeRlp = (bytes: Uint8Array): Either.Either<RlpItem, KlaytnError> => guard(() => decodeWhole(bytes))

/**
 * Minimal big-endian bytes of a non-negative integer (zero is the empty string).
 *
 * @internal
 */
export const uint = (n: bigint | number): Uint8Array => {
  let v = BigInt(n)
  if (v < 0n) invalid("negative integer")
  const bytes: Array<number> = []
  for (; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn))
  return Uint8Array.from(bytes)
}
