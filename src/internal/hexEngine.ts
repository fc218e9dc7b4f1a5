/**
 * The checks on the decoding hot path: hex-digit scans and EIP-55 address checksums.
 *
 * Two keccak engines behind one interface: WebAssembly (`keccakWasm.ts`, compiled on the first
 * address checked, never at import) where it can be compiled, @noble/hashes elsewhere (runtimes
 * that forbid compiling code at run time, such as Cloudflare Workers). Both are property-tested
 * against a reference EIP-55 and against each other; the decode benchmark (docs/benchmarks.md)
 * shows what the WebAssembly engine buys.
 *
 * @internal
 */
import { keccak_256 } from "@noble/hashes/sha3.js"
import { INPUT, type KeccakWasm, load } from "./keccakWasm.js"

/** `normalizeAddress` result: not `0x` + 40 hex digits. @internal */
export const BadShape = 1
/** `normalizeAddress` result: mixed case that is not the EIP-55 checksum. @internal */
export const BadChecksum = 2

/**
 * Hex scans and EIP-55, on one engine.
 *
 * @internal
 */
export interface HexEngine {
  readonly engine: "wasm" | "noble"
  /**
   * -1 when `s[start, end)` is empty or holds a non-hex character; otherwise bit 0 is set when a
   * lower-case a-f occurs and bit 1 when an upper-case A-F occurs.
   */
  readonly hexClass: (s: string, start: number, end: number) => number
  /** The EIP-55 checksummed form of an address, or why it is not one. */
  readonly normalizeAddress: (s: string) => string | typeof BadShape | typeof BadChecksum
}

const HEX = new Int8Array(128).fill(-1)
for (const c of "0123456789") HEX[c.charCodeAt(0)] = 0
for (const c of "abcdef") HEX[c.charCodeAt(0)] = 1
for (const c of "ABCDEF") HEX[c.charCodeAt(0)] = 2

const jsHexClass = (s: string, start: number, end: number): number => {
  if (end <= start || end > s.length) return -1
  let flags = 0
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i)
    const k = c < 128 ? HEX[c]! : -1
    if (k < 0) return -1
    flags |= k
  }
  return flags
}

const has0x = (s: string): boolean => s.charCodeAt(0) === 0x30 && s.charCodeAt(1) === 0x78

/**
 * Builds an engine over a digest and a way to hash the 40 address characters at index 2 of `s`
 * (case-folded with `| 0x20`; only meaningful when they are hex digits).
 */
const makeEngine = (
  engine: HexEngine["engine"],
  digest: Int32Array,
  hexClass: HexEngine["hexClass"],
  hashAddress: (s: string) => void
): HexEngine => {
  const codes = new Array<number>(40)
  // The checksummed form of an address whose digits the scan below found valid and single-case.
  const checksummed = (s: string): string => {
    for (let w = 0, i = 2; w < 5; w++) {
      const d = digest[w]!
      for (let j = 0; j < 8; j++, i++) {
        const c = s.charCodeAt(i) | 0x20
        // A letter (>= "a" once lower-cased) is upper-cased when its nibble's top bit is set.
        codes[i - 2] = c - (((d >>> (((j >> 1) << 3) + 7 - ((j & 1) << 2))) & (c >> 6)) << 5)
      }
    }
    return `0x${String.fromCharCode.apply(null, codes)}`
  }
  return {
    engine,
    hexClass,
    normalizeAddress: (s) => {
      if (s.length !== 42 || !has0x(s)) return BadShape
      // Hash first, then one pass that both validates the digits and compares their case with
      // the checksum: the digest of a non-hex input is computed for nothing, but valid input (the
      // common case) is read once.
      hashAddress(s)
      let flags = 0
      let mismatch = 0
      for (let w = 0, i = 2; w < 5; w++) {
        const d = digest[w]!
        // Byte j>>1 of word w holds digits i, i+1: the high nibble's top bit is bit 8(j>>1)+7.
        for (let j = 0; j < 8; j++, i++) {
          const c = s.charCodeAt(i)
          const k = c < 128 ? HEX[c]! : -1
          if (k < 0) return BadShape
          flags |= k
          // Branch-free on purpose: digits and letters alternate unpredictably in random hex.
          // letter = k is 1 or 2; upper = k is 2; the case must equal the nibble's top bit.
          const bit = (d >>> (((j >> 1) << 3) + 7 - ((j & 1) << 2))) & 1
          mismatch |= ((k >> 1) ^ bit) & (k | (k >> 1)) & 1
        }
      }
      if (flags === 3) return mismatch === 0 ? s : BadChecksum
      return mismatch === 0 ? s : checksummed(s)
    }
  }
}

/**
 * The @noble/hashes engine: pure JavaScript, for runtimes where WebAssembly cannot be compiled.
 *
 * @internal
 */
export const makeNobleEngine = (): HexEngine => {
  const digest = new Int32Array(6)
  const digestBytes = new Uint8Array(digest.buffer)
  const input = new Uint8Array(40)
  return makeEngine("noble", digest, jsHexClass, (s) => {
    // `| 0x20` lower-cases A-F and leaves the digits (0x30-0x39) unchanged.
    for (let i = 0; i < 40; i++) input[i] = s.charCodeAt(i + 2) | 0x20
    digestBytes.set(keccak_256(input).subarray(0, 24))
  })
}

/**
 * The WebAssembly engine over a loaded module.
 *
 * @internal
 */
export const makeWasmEngine = (wasm: KeccakWasm): HexEngine => {
  const encoder = new TextEncoder()
  return makeEngine("wasm", wasm.digest, jsHexClass, (s) => {
    // A non-ASCII character would shift the bytes after it; the hash is then meaningless, but
    // such an address is rejected by the character scan that follows anyway.
    encoder.encodeInto(s, wasm.input)
    wasm.hashAt(INPUT + 2)
  })
}

let current: HexEngine | undefined

/**
 * The engine in use, chosen on first use: WebAssembly where it can be compiled, @noble/hashes
 * elsewhere.
 *
 * @internal
 */
export const engine = (): HexEngine => {
  if (current === undefined) {
    const wasm = load()
    current = wasm !== undefined ? makeWasmEngine(wasm) : makeNobleEngine()
  }
  return current
}

// For every UTF-16 code unit: 0 for a hex digit, 1 otherwise. OR-ing eight entries at a time,
// with no branch per character, checks the 128 digits of a public key in 0.15 µs against 0.23 µs
// for a loop that exits at the first bad digit (1000 keys, interleaved runs): on a page of 1000
// accounts that is a tenth of the decoding beyond JSON.parse.
const NOT_HEX = new Uint8Array(65536).fill(1)
for (const c of "0123456789abcdefABCDEF") NOT_HEX[c.charCodeAt(0)] = 0

/**
 * Whether `s[start, end)` is non-empty and only hex digits.
 *
 * @internal
 */
export const isHexRange = (s: string, start: number, end: number): boolean => {
  if (end <= start || end > s.length) return false
  const t = NOT_HEX
  let bad = 0
  let i = start
  for (; i + 7 < end; i += 8) {
    bad |= t[s.charCodeAt(i)]! | t[s.charCodeAt(i + 1)]! | t[s.charCodeAt(i + 2)]! | t[s.charCodeAt(i + 3)]! |
      t[s.charCodeAt(i + 4)]! | t[s.charCodeAt(i + 5)]! | t[s.charCodeAt(i + 6)]! | t[s.charCodeAt(i + 7)]!
  }
  for (; i < end; i++) bad |= t[s.charCodeAt(i)]!
  return bad === 0
}

/**
 * Whether `s` starts with `0x`.
 *
 * @internal
 */
export { has0x }

/**
 * The checksummed form of an address, or why it is not one (`BadShape`, `BadChecksum`).
 *
 * @internal
 */
export const normalizeAddress: HexEngine["normalizeAddress"] = (s) => engine().normalizeAddress(s)

/**
 * Puts an engine in use (benchmarks compare them on the same decoding path).
 *
 * @internal
 */
export const useEngine = (e: HexEngine): void => {
  current = e
}
