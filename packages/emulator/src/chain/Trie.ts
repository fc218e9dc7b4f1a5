/**
 * The root of a contract's storage trie, as Klaytn (and Ethereum) compute it: a Merkle Patricia
 * trie keyed by keccak256 of each 32-byte slot, each value the RLP of the slot's value without
 * leading zero bytes. What `klay_getAccount` answers as a contract's `storageRoot`; the emulator
 * keeps slots, not tries, so the root is computed from the slots when asked.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import { keccak_256 } from "@noble/hashes/sha3.js"
import * as Klaytn from "effect-kas-wallet/Klaytn"

const fromHex = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.slice(2), "hex"))

const toHex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString("hex")}`

/**
 * The root of an empty trie: keccak256 of the RLP of the empty string.
 *
 * @since 0.5.0
 * @category constants
 */
export const EmptyRoot = toHex(keccak_256(Klaytn.encodeRlp(new Uint8Array(0))))

interface Entry {
  /** The key as nibbles (half-bytes). */
  readonly path: Uint8Array
  readonly value: Uint8Array
}

const nibbles = (bytes: Uint8Array): Uint8Array => {
  const out = new Uint8Array(bytes.length * 2)
  bytes.forEach((b, i) => {
    out[2 * i] = b >> 4
    out[2 * i + 1] = b & 0x0f
  })
  return out
}

// The hex-prefix encoding of a path: a flag nibble (2 for a leaf, plus 1 when the path is odd),
// then the path, padded with a zero nibble when even.
const hexPrefix = (path: Uint8Array, leaf: boolean): Uint8Array => {
  const odd = path.length % 2 === 1
  const flag = (leaf ? 2 : 0) + (odd ? 1 : 0)
  const all = odd ? [flag, ...path] : [flag, 0, ...path]
  const out = new Uint8Array(all.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = (all[2 * i]! << 4) | all[2 * i + 1]!
  return out
}

// A child as its parent holds it: the node itself when its RLP is under 32 bytes, else its hash.
const reference = (node: Klaytn.RlpItem): Klaytn.RlpItem => {
  const encoded = Klaytn.encodeRlp(node)
  return encoded.length < 32 ? node : keccak_256(encoded)
}

// The node of the entries below `depth`. The keys all have the same length (hashes), so no value
// ends at a branch.
const node = (entries: ReadonlyArray<Entry>, depth: number): Klaytn.RlpItem => {
  if (entries.length === 1) return [hexPrefix(entries[0]!.path.subarray(depth), true), entries[0]!.value]
  const first = entries[0]!.path
  let shared = 0
  while (depth + shared < first.length && entries.every((e) => e.path[depth + shared] === first[depth + shared])) shared++
  if (shared > 0) return [hexPrefix(first.subarray(depth, depth + shared), false), reference(node(entries, depth + shared))]
  const branch: Array<Klaytn.RlpItem> = []
  for (let nibble = 0; nibble < 16; nibble++) {
    const group = entries.filter((e) => e.path[depth] === nibble)
    branch.push(group.length === 0 ? new Uint8Array(0) : reference(node(group, depth + 1)))
  }
  branch.push(new Uint8Array(0))
  return branch
}

/**
 * The storage root of a contract from its slots (`0x` + 64 hex digits each, slot and value; zero
 * values are absent, as the store keeps them).
 *
 * @since 0.5.0
 * @category tries
 */
export const storageRoot = (slots: ReadonlyArray<{ readonly slot: string; readonly value: string }>): string => {
  const entries: Array<Entry> = slots.map(({ slot, value }) => {
    const bytes = fromHex(value)
    const start = bytes.findIndex((b) => b !== 0)
    return { path: nibbles(keccak_256(fromHex(slot))), value: Klaytn.encodeRlp(start < 0 ? new Uint8Array(0) : bytes.subarray(start)) }
  })
  return entries.length === 0 ? EmptyRoot : toHex(keccak_256(Klaytn.encodeRlp(node(entries, 0))))
}
