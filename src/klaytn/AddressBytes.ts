/**
 * An address as the codec handles it: its 20 bytes, and back.
 *
 * @since 0.9.0
 * @internal
 */
import { Option } from "effect"
import * as Address from "../Address.js"
import { bytesOfHex, hexOfBytes } from "../internal/hex.js"

/**
 * The 20 bytes of an address, as RLP and hashes take them.
 *
 * @internal
 */
export const addressBytes = (address: Address.Address): Uint8Array => bytesOfHex(address)

/**
 * The checksummed address of 20 bytes (20 bytes always make an address: the checksum cannot fail).
 *
 * @internal
 */
export const addressOfBytes = (bytes: Uint8Array): Address.Address => Option.getOrThrow(Address.checksum(hexOfBytes(bytes)))
