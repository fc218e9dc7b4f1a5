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
import { Either, Option, Redacted } from "effect"
import { createHash } from "node:crypto"
import { Address } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"

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
  const publicKey = Either.getOrThrow(Klaytn.publicKeyOfKey(Redacted.value(privateKey), { compressed: false }))
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
export const generate = (): AccountKey => fromPrivateKey(Redacted.make(Klaytn.randomPrivateKey()))

/**
 * The state a wallet account takes after an account update to this key, by the key that signs its
 * transactions (a role-based key's transaction role): a weighted multisig key makes it a multisig
 * account (`enabled`: its transactions wait for its signers); the key KAS holds for it (`enabled`,
 * `kasSigns`); a fail key signs for nothing (`disabled`, as the service does); any other key is
 * not KAS's (`corrupted`: KAS can no longer sign for it).
 *
 * @since 0.5.0
 * @category keys
 */
export const statusAfterUpdate = (
  address: string,
  key: Klaytn.AccountKey,
  held?: Uint8Array | undefined
): "enabled" | "disabled" | "corrupted" => {
  // What signs its transactions decides (a role-based key's transaction role). KAS's key of an
  // account is the one it holds: for an account KAS made, the one its address comes from.
  const signing = key._tag === "RoleBased" ? key.roles[Klaytn.Role.Transaction]! : key
  if (key._tag === "WeightedMultiSig") return "enabled"
  if (signing._tag === "Fail") return "disabled"
  return kasSigns(address, key, held) ? "enabled" : "corrupted"
}

/**
 * Whether the key KAS holds for an account signs its transactions under this account key (a
 * role-based key's transaction role): a legacy key or a public key of its own address for an
 * account KAS made; the public key of its key for an account registered under a key of the key
 * service (`held`: that key's public key, uncompressed, whose address is then not the account's).
 *
 * @since 0.8.0
 * @category keys
 */
export const kasSigns = (address: string, key: Klaytn.AccountKey, held?: Uint8Array | undefined): boolean => {
  const signing = key._tag === "RoleBased" ? key.roles[Klaytn.Role.Transaction]! : key
  const kas = held !== undefined ? addressOf(held).toLowerCase() : address.toLowerCase()
  const signer = signing._tag === "Legacy"
    ? address.toLowerCase()
    : signing._tag === "Public"
    ? Either.getOrUndefined(Klaytn.addressOfPublicKey(signing.publicKey))?.toLowerCase()
    : undefined
  return signer === kas
}

/**
 * A stored public key (`0x04` + 128 hex digits) as bytes.
 *
 * @since 0.10.0
 * @category keys
 */
export const publicKeyBytes = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.slice(2), "hex"))

const hexOf = (bytes: Uint8Array): string => `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`

/**
 * A public key (compressed, as account keys hold it) in the form accounts show it: uncompressed,
 * `0x04` + 128 lower-case hex digits.
 *
 * @since 0.8.0
 * @category keys
 */
export const uncompressedHex = (publicKey: Uint8Array): string => hexOf(secp256k1.Point.fromBytes(publicKey).toBytes(false))

/**
 * What a wallet account's JSON shows of a weighted multisig key: `{"multiSigKeys":[{"publicKey",
 * "weight"}],"threshold"}` (keys uncompressed, in the key's order); nothing for another key.
 *
 * @since 0.8.0
 * @category keys
 */
export const multisigJson = (key: Klaytn.AccountKey): string | undefined =>
  key._tag === "WeightedMultiSig"
    ? JSON.stringify({
      multiSigKeys: key.keys.map((k) => ({ publicKey: uncompressedHex(k.publicKey), weight: k.weight })),
      threshold: key.threshold
    })
    : undefined
