/**
 * Where a deployment puts its contract: keccak256(`rlp([sender, nonce])`)[12:], as in Klaytn (and
 * Ethereum). The chain's rule, not the client's: the client only reads the address off a receipt.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.9.0
 * @internal
 */
import { keccak_256 as keccak256 } from "@noble/hashes/sha3.js"
import { Option } from "effect"
import { Address } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"

// An integer as RLP holds it: minimal big-endian bytes (zero is the empty string).
const uint = (n: number): Uint8Array => {
  const bytes: Array<number> = []
  for (let v = BigInt(n); v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn))
  return Uint8Array.from(bytes)
}

/**
 * The address of the contract a deployment from `sender` with `nonce` creates:
 * keccak256(`rlp([sender, nonce])`)[12:], as in Klaytn (and Ethereum).
 *
 * @since 0.4.0
 * @category encoding
 */
export const contractAddress = (sender: Address.Address, nonce: number): Address.Address => {
  const hash = keccak256(Klaytn.encodeRlp([new Uint8Array(Buffer.from(sender.slice(2), "hex")), uint(nonce)]))
  // 20 bytes always make an address: the checksum cannot fail.
  return Option.getOrThrow(Address.checksum(`0x${Buffer.from(hash.subarray(12)).toString("hex")}`))
}
