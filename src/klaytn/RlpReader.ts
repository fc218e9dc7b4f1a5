/**
 * Reading decoded RLP items as the fields of a transaction or a key: byte strings, lists, integers
 * and addresses, each refused (the field named) when it is not what Klaytn takes.
 *
 * @since 0.9.0
 * @internal
 */
import type * as Address from "../Address.js"
import { addressOfBytes } from "./AddressBytes.js"
import { invalid } from "./KlaytnError.js"
import type { RlpItem } from "./Rlp.js"

// A big-endian integer as RLP holds it: minimal, no leading zero byte.
const toBigInt = (bytes: Uint8Array, field: string): bigint => {
  if (bytes.length > 0 && bytes[0] === 0) invalid(`${field}: integer with a leading zero byte`)
  let v = 0n
  for (const b of bytes) v = (v << 8n) | BigInt(b)
  return v
}

/**
 * An RLP item that must be a byte string; `field` names it in the refusal.
 *
 * @internal
 */
export const asBytes = (item: RlpItem | undefined, field: string): Uint8Array =>
  item instanceof Uint8Array ? item : invalid(`${field}: expected a byte string`)

/**
 * An RLP item that must be a list; `field` names it in the refusal.
 *
 * @internal
 */
export const asList = (item: RlpItem | undefined, field: string): ReadonlyArray<RlpItem> =>
  item !== undefined && !(item instanceof Uint8Array) ? item : invalid(`${field}: expected a list`)

/**
 * An RLP integer (no leading zero byte) that must be a safe integer.
 *
 * @internal
 */
export const asSafeInt = (item: RlpItem | undefined, field: string): number => {
  const v = toBigInt(asBytes(item, field), field)
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) invalid(`${field}: ${v} is too large`)
  return Number(v)
}

/**
 * An RLP integer (no leading zero byte) of at most 256 bits.
 *
 * @internal
 */
export const asUint256 = (item: RlpItem | undefined, field: string): bigint => {
  const bytes = asBytes(item, field)
  if (bytes.length > 32) invalid(`${field}: more than 256 bits`)
  return toBigInt(bytes, field)
}

/**
 * An RLP item that must be the 20 bytes of an address.
 *
 * @internal
 */
export const asAddress = (item: RlpItem | undefined, field: string): Address.Address => {
  const bytes = asBytes(item, field)
  if (bytes.length !== 20) invalid(`${field}: an address has 20 bytes, got ${bytes.length}`)
  return addressOfBytes(bytes)
}
