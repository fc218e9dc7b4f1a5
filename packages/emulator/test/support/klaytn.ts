/**
 * Klaytn transactions checked independently of the emulator's encoder: bytes and integers as RLP
 * writes them, RLP decoded by @ethereumjs/rlp (by the callers), signers recovered by @noble/curves,
 * addresses hashed by @noble/hashes. Shared by the encoder's tests and the ledger's.
 */
import { expect } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { RLP } from "@ethereumjs/rlp"
import { keccak_256 } from "@noble/hashes/sha3.js"

/** An RLP item: bytes, or a list of items. */
export type Nested = Uint8Array | ReadonlyArray<Nested>

/** `0x` and the bytes in lower-case hex. */
export const hex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString("hex")}`
/** The bytes of a hex string, with or without `0x`. */
export const unhex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/^0x/, ""), "hex"))
/** A big-endian integer (empty bytes are 0, as in RLP). */
export const big = (bytes: Uint8Array): bigint => (bytes.length === 0 ? 0n : BigInt(hex(bytes)))
/** Minimal big-endian bytes, as RLP encodes integers. */
export const minimal = (n: bigint | number): Uint8Array => {
  const h = BigInt(n).toString(16)
  return BigInt(n) === 0n ? new Uint8Array() : unhex(h.length % 2 === 0 ? h : `0${h}`)
}
/** An item that must be bytes. */
export const bytesOf = (item: Nested | undefined): Uint8Array => {
  if (!(item instanceof Uint8Array)) throw new Error("expected bytes")
  return item
}
/** An item that must be a list. */
export const listOf = (item: Nested | undefined): ReadonlyArray<Nested> => {
  if (item === undefined || item instanceof Uint8Array) throw new Error("expected a list")
  return item
}
/** The lower-case address of an uncompressed public key. */
export const addressOfPublicKey = (uncompressed: Uint8Array): string => hex(keccak_256(uncompressed.subarray(1)).subarray(12))
/** The lower-case address of a private key. */
export const addressOfKey = (key: Uint8Array): string => addressOfPublicKey(secp256k1.getPublicKey(key, false))
/** The signer of `hash` from an RLP signature `[V, R, S]`, V being 2·chainId + 35 or 36. */
export const recover = (hash: Uint8Array, sig: Nested, chainId: number) => {
  const [v, r, s] = listOf(sig).map(bytesOf) as [Uint8Array, Uint8Array, Uint8Array]
  const vn = Number(big(v))
  expect([2 * chainId + 35, 2 * chainId + 36]).toContain(vn)
  const point = new secp256k1.Signature(big(r), big(s)).addRecoveryBit(vn - 2 * chainId - 35).recoverPublicKey(hash)
  return { address: addressOfPublicKey(point.toBytes(false)), v: vn, r: big(r), s: big(s) }
}

/** What the fields of a transaction hold, for `klaytnFields`. */
export interface Fields {
  readonly nonce: number
  readonly gasPrice: bigint
  readonly gas: number
  /** Lower-case or checksummed; absent for a deployment. */
  readonly to?: string | undefined
  readonly value: bigint
  readonly from: string
  readonly input?: Uint8Array | undefined
  readonly feeRatio?: number | undefined
  /** An account update's key, RLP-encoded. */
  readonly key?: Uint8Array | undefined
}

/**
 * The signed fields of a Klaytn transaction type, in RLP order, as Klaytn's documentation of each
 * type lists them (written here from that documentation, not from the emulator's code):
 *
 * - ValueTransfer 0x08: nonce, gasPrice, gas, to, value, from; ValueTransferMemo 0x10: + input;
 * - SmartContractDeploy 0x28: nonce, gasPrice, gas, to (nil: empty), value, from, input,
 *   humanReadable (false), [feeRatio], codeFormat (0);
 * - SmartContractExecution 0x30: nonce, gasPrice, gas, to, value, from, input;
 * - AccountUpdate 0x20: nonce, gasPrice, gas, from, rlpEncodedKey;
 * - Cancel 0x38: nonce, gasPrice, gas, from;
 * - ChainDataAnchoring 0x48: nonce, gasPrice, gas, from, anchoredData;
 * - the fee-delegated variant is the base + 1; with a ratio, base + 2, feeRatio after input (before
 *   codeFormat for a deployment), last for the others.
 */
export const klaytnFields = (type: number, f: Fields): Array<Uint8Array> => {
  const ratio = (type & 7) === 2 ? [minimal(f.feeRatio!)] : []
  const head = [minimal(f.nonce), minimal(f.gasPrice), minimal(f.gas), f.to !== undefined ? unhex(f.to) : new Uint8Array(), minimal(f.value), unhex(f.from)]
  switch (type & ~7) {
    case 0x08:
      return [...head, ...ratio]
    case 0x10:
    case 0x30:
      return [...head, f.input!, ...ratio]
    case 0x28:
      return [...head, f.input!, new Uint8Array(), ...ratio, new Uint8Array()]
    case 0x20:
      return [minimal(f.nonce), minimal(f.gasPrice), minimal(f.gas), unhex(f.from), f.key!, ...ratio]
    case 0x38:
      return [minimal(f.nonce), minimal(f.gasPrice), minimal(f.gas), unhex(f.from), ...ratio]
    case 0x48:
      return [minimal(f.nonce), minimal(f.gasPrice), minimal(f.gas), unhex(f.from), f.input!, ...ratio]
    default:
      throw new Error(`type 0x${type.toString(16)} is not described here`)
  }
}

/** The address a deployment creates: keccak256(rlp([sender, nonce]))[12:], lower case. */
export const createdAddress = (sender: string, nonce: number): string =>
  hex(keccak_256(RLP.encode([unhex(sender), minimal(nonce)])).subarray(12))

/**
 * Klaytn's RLP form of an account key, written from its documentation: legacy 0x01c0, public
 * 0x02 ‖ rlp(compressed key), fail 0x03c0, weighted multisig 0x04 ‖ rlp([threshold, [[weight, key],
 * …]]), role-based 0x05 ‖ rlp([encoded key, …]).
 */
export type KeySpec =
  | { readonly type: 1 | 3 }
  | { readonly type: 2; readonly key: Uint8Array }
  | { readonly type: 4; readonly threshold: number; readonly keys: ReadonlyArray<readonly [number, Uint8Array]> }
  | { readonly type: 5; readonly roles: ReadonlyArray<KeySpec> }

/** The RLP bytes of an account key, independently of the code under test. */
export const encodeKey = (k: KeySpec): Uint8Array => {
  const body = k.type === 2
    ? RLP.encode(k.key)
    : k.type === 4
    ? RLP.encode([minimal(k.threshold), k.keys.map(([w, key]) => [minimal(w), key])])
    : k.type === 5
    ? RLP.encode(k.roles.map(encodeKey))
    : RLP.encode([])
  return Uint8Array.from([k.type, ...body])
}
