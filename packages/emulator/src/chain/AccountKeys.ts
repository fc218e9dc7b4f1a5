/**
 * Key pairs of emulated accounts: a fresh secp256k1 key per account, and the values the service
 * derives from it (public key, address, key identifier).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Option, Redacted } from "effect"
import { createHash } from "node:crypto"
import { Address } from "effect-kas-wallet"

/**
 * A generated account key. The private key stays `Redacted`: it is only ever encrypted and stored.
 *
 * @since 0.1.0
 * @category models
 */
export interface AccountKey {
  /** The 32-byte secret scalar. */
  readonly privateKey: Redacted.Redacted<Uint8Array>
  /** Uncompressed public key, `0x04` + 128 hex digits. */
  readonly publicKey: string
  /** EIP-55 checksummed address: the last 20 bytes of keccak-256 of the 64 coordinate bytes. */
  readonly address: Address.Address
  /** Key identifier, `0x` + 64 hex digits (the part of `keyId` after the pool KRN). */
  readonly keyHex: string
}

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")

/**
 * The address of an uncompressed (65-byte, `0x04`-prefixed) public key.
 *
 * @since 0.1.0
 * @category derivation
 */
export const addressOf = (uncompressed: Uint8Array): Address.Address =>
  Option.getOrThrow(Address.checksum(`0x${toHex(keccak_256(uncompressed.subarray(1)).subarray(12))}`))

/**
 * Derives the public values of a private key.
 *
 * @since 0.1.0
 * @category derivation
 */
export const fromPrivateKey = (privateKey: Redacted.Redacted<Uint8Array>): AccountKey => {
  const publicKey = secp256k1.getPublicKey(Redacted.value(privateKey), false)
  return {
    privateKey,
    publicKey: `0x${toHex(publicKey)}`,
    address: addressOf(publicKey),
    // The real service's key identifiers are opaque 32-byte values; a digest of the public key is
    // unique per key and needs no extra state.
    keyHex: `0x${createHash("sha256").update(publicKey).digest("hex")}`
  }
}

/**
 * A fresh key pair from the system's secure random source.
 *
 * @since 0.1.0
 * @category constructors
 */
export const generate = (): AccountKey => {
  precompute()
  return fromPrivateKey(Redacted.make(secp256k1.utils.randomSecretKey()))
}

let precomputed = false

// A wider table of base-point multiples than @noble/curves' default (8-bit windows instead of 6):
// a key generation costs about a quarter less, for ~130 ms and ~3 MB once. Done on first use, not
// at import: importing the module has no side effect.
const precompute = () => {
  if (precomputed) return
  secp256k1.Point.BASE.precompute(8, false)
  precomputed = true
}
