/**
 * secp256k1 signatures as Klaytn makes them: keys and their addresses, signing with `V` bound to
 * the chain (2·chainId + 35 + recovery id) and low `S`, recovery, and the service's `{ V, R, S }`
 * form. Signing, public keys and recovery (which checks every signed result) are libsecp256k1's in
 * WebAssembly (internal/secp256k1Wasm): constant-time signing with the same RFC 6979 bytes as
 * @noble/curves', about ten times faster, and recovery at the same cost for every signer.
 * @noble/curves does them where WebAssembly cannot be compiled, and makes random keys.
 *
 * Part of `effect-kas-wallet/Klaytn` (src/Klaytn.ts), which re-exports its public names.
 *
 * @since 0.9.0
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 as keccak256 } from "@noble/hashes/sha3.js"
import type { Either } from "effect"
import type * as Address from "../Address.js"
import { hexOfBytes } from "../internal/hex.js"
import { recoverer, signer } from "../internal/secp256k1Wasm.js"
import type * as Transaction from "../Transaction.js"
import { addressOfBytes } from "./AddressBytes.js"
import { guard, invalid, type KlaytnError } from "./KlaytnError.js"

/**
 * One signature: `v` = 2·chainId + 35 + recovery id, `r` and `s` as integers.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignatureValues {
  readonly v: number
  readonly r: bigint
  readonly s: bigint
}

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

const checkHash = (hash: Uint8Array) => {
  if (hash.length !== 32) invalid(`a signing hash has 32 bytes, got ${hash.length}`)
}

// The message never shows the key.
const invalidKey = () => invalid("invalid secp256k1 private key")

const checkKey = (privateKey: Uint8Array) => {
  if (privateKey.length !== 32 || !secp256k1.utils.isValidSecretKey(privateKey)) invalidKey()
}

/**
 * The address of a private key, checked (`invalid` when it is not one; the refusal never shows it).
 *
 * @internal
 */
export const addressOfKeyUnsafe = (privateKey: Uint8Array): Address.Address => addressOfUncompressed(publicKeyUnsafe(privateKey, false))

// The public key of a private key, checked (`invalid` when it is not one).
const publicKeyUnsafe = (privateKey: Uint8Array, compressed: boolean): Uint8Array => {
  checkKey(privateKey)
  return signer()?.publicKey(privateKey, compressed) ?? secp256k1.getPublicKey(privateKey, compressed)
}

// The 20 bytes of the address of an uncompressed key (0x04 ‖ x ‖ y).
const signerBytes = (uncompressed: Uint8Array): Uint8Array => keccak256(uncompressed.subarray(1)).subarray(12)

const addressOfUncompressed = (uncompressed: Uint8Array): Address.Address => addressOfBytes(signerBytes(uncompressed))

/**
 * A fresh random secp256k1 private key (32 bytes, from the platform's secure random source): a
 * wallet's own key, for tools and tests that sign outside KAS. Keep it secret: nothing here prints
 * it.
 *
 * @since 0.5.0
 * @category signing
 */
export const randomPrivateKey = (): Uint8Array => secp256k1.utils.randomSecretKey()

/**
 * The address of a secp256k1 public key (33 bytes compressed or 65 uncompressed): the last 20
 * bytes of keccak256 of its coordinates.
 *
 * @since 0.5.0
 * @category signing
 */
export const addressOfPublicKey = (publicKey: Uint8Array): Either.Either<Address.Address, KlaytnError> =>
  guard(() => {
    try {
      return addressOfUncompressed(secp256k1.Point.fromBytes(publicKey).toBytes(false))
    } catch {
      return invalid("not a public key of secp256k1")
    }
  })

/**
 * The public key of a 32-byte secp256k1 private key: 33 bytes compressed (what account keys hold;
 * the default), or 65 uncompressed (0x04 ‖ x ‖ y). The refusal never shows the key.
 *
 * @since 0.12.0
 * @category signing
 */
export const publicKeyOfKey = (
  privateKey: Uint8Array,
  options?: { readonly compressed?: boolean }
): Either.Either<Uint8Array, KlaytnError> => guard(() => publicKeyUnsafe(privateKey, options?.compressed ?? true))

/**
 * The address of a 32-byte secp256k1 private key.
 *
 * @since 0.1.0
 * @category signing
 */
export const addressOfKey = (privateKey: Uint8Array): Either.Either<Address.Address, KlaytnError> =>
  guard(() => addressOfKeyUnsafe(privateKey))

const nobleSign = (hash: Uint8Array, privateKey: Uint8Array) => {
  const sig = secp256k1.Signature.fromBytes(secp256k1.sign(hash, privateKey, { prehash: false, format: "recovered" }), "recovered")
  return { r: sig.r, s: sig.s, recovery: sig.recovery! }
}

/**
 * Signs a 32-byte hash with a private key for a chain (`sign`), refused with `invalid`.
 *
 * @internal
 */
export const signUnsafe = (hash: Uint8Array, privateKey: Uint8Array, chainId: number): SignatureValues => {
  checkHash(hash)
  checkKey(privateKey)
  // RFC 6979 deterministic nonces; low-S, as Klaytn requires. Both make the same bytes.
  const wasm = signer()
  const sig = wasm !== undefined
    ? wasm.sign(hash, privateKey) ?? invalidKey()
    : nobleSign(hash, privateKey)
  return { v: 2 * chainId + 35 + sig.recovery, r: sig.r, s: sig.s }
}

/**
 * Signs a 32-byte hash with a 32-byte private key for a chain: `v` = 2·chainId + 35 + recovery
 * id, low `s`.
 *
 * @since 0.1.0
 * @category signing
 */
export const sign = (hash: Uint8Array, privateKey: Uint8Array, chainId: number): Either.Either<SignatureValues, KlaytnError> =>
  guard(() => signUnsafe(hash, privateKey, chainId))

// The recovery id of a signature, checking V against the chain, R and S in range and S low.
const recoveryIdUnsafe = (hash: Uint8Array, signature: SignatureValues, chainId: number): number => {
  checkHash(hash)
  const recovery = signature.v - (2 * chainId + 35)
  if (recovery !== 0 && recovery !== 1) {
    invalid(`V must be ${2 * chainId + 35} or ${2 * chainId + 36} on chain ${chainId}, got ${signature.v}`)
  }
  const { r, s } = signature
  if (r < 1n || r >= N || s < 1n || s >= N) invalid("R and S must be from 1 to the curve order - 1")
  if (s > N >> 1n) invalid("S must be in the lower half of the curve order")
  return recovery
}

const unrecovered = () => invalid("the signature does not recover a public key")

// The public key that signed `hash` (the checks of `recoveryIdUnsafe` first): 65 bytes, uncompressed.
const recoverUncompressedUnsafe = (hash: Uint8Array, signature: SignatureValues, chainId: number): Uint8Array => {
  const recovery = recoveryIdUnsafe(hash, signature, chainId)
  const recover = recoverer()
  if (recover !== undefined) return recover(hash, signature.r, signature.s, recovery) ?? unrecovered()
  try {
    return new secp256k1.Signature(signature.r, signature.s, recovery).recoverPublicKey(hash).toBytes(false)
  } catch {
    return unrecovered()
  }
}

// The compressed form (33 bytes) of an uncompressed key: the parity of y, then x.
const compress = (uncompressed: Uint8Array): Uint8Array => {
  const key = uncompressed.slice(0, 33)
  key[0] = 2 + (uncompressed[64]! & 1)
  return key
}

/**
 * That `address` signed `hash`: the signer is recovered and compared; `mismatch` words the error
 * with who did sign.
 *
 * @internal
 */
export const checkSignerUnsafe = (
  hash: Uint8Array,
  signature: SignatureValues,
  chainId: number,
  address: Address.Address,
  mismatch: (signer: Address.Address) => string
): void => {
  // Compared in lower case: the signer's checksum is only worked out for the error.
  const signer = signerBytes(recoverUncompressedUnsafe(hash, signature, chainId))
  if (hexOfBytes(signer) !== address.toLowerCase()) invalid(mismatch(addressOfBytes(signer)))
}

/**
 * The compressed public key (33 bytes) that signed `hash`: what account keys hold.
 *
 * @internal
 */
export const recoverKeyUnsafe = (hash: Uint8Array, signature: SignatureValues, chainId: number): Uint8Array =>
  compress(recoverUncompressedUnsafe(hash, signature, chainId))

/**
 * The address that signed `hash` (`recover`), refused with `invalid`.
 *
 * @internal
 */
export const recoverUnsafe = (hash: Uint8Array, signature: SignatureValues, chainId: number): Address.Address =>
  addressOfUncompressed(recoverUncompressedUnsafe(hash, signature, chainId))

/**
 * The address that signed `hash`, checking `v` against the chain and `s` for low-S.
 *
 * @since 0.1.0
 * @category signing
 */
export const recover = (hash: Uint8Array, signature: SignatureValues, chainId: number): Either.Either<Address.Address, KlaytnError> =>
  guard(() => recoverUnsafe(hash, signature, chainId))

/**
 * The public key (compressed, 33 bytes: what account keys hold) that signed `hash`, checking `v`
 * against the chain and `s` for low-S.
 *
 * @since 0.8.0
 * @category signing
 */
export const recoverPublicKey = (hash: Uint8Array, signature: SignatureValues, chainId: number): Either.Either<Uint8Array, KlaytnError> =>
  guard(() => recoverKeyUnsafe(hash, signature, chainId))

/**
 * A signature of the service's `{ V, R, S }` form as values (the inverse of `toWireSignature`).
 *
 * @since 0.8.0
 * @category formatting
 */
export const fromWireSignature = (sig: Transaction.Signature): SignatureValues => ({
  v: Number(BigInt(sig.V)),
  r: BigInt(sig.R),
  s: BigInt(sig.S)
})

/**
 * A signature as the service writes it: `{ V, R, S }`, minimal lower-case hex.
 *
 * @since 0.1.0
 * @category formatting
 */
export const toWireSignature = (sig: SignatureValues): Transaction.Signature => ({
  V: `0x${sig.v.toString(16)}`,
  R: `0x${sig.r.toString(16)}`,
  S: `0x${sig.s.toString(16)}`
})
