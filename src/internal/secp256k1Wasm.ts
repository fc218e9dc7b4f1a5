/**
 * ECDSA on secp256k1 by libsecp256k1 (bitcoin-core's library, release 0.8.0) compiled to
 * WebAssembly: public-key recovery, recoverable signing and public-key derivation. The module's
 * bytes are `secp256k1WasmBytes`, built by wasm/libsecp256k1/build.sh from the library's sources
 * and a small binding (`binding.c` beside it).
 *
 * - Recovery costs the same whoever signed: no table per signer, no state but the module's
 *   buffers (docs/design.md, "Recovering signers"; docs/benchmarks.md).
 * - Signing and derivation are the library's constant-time code, with its RFC 6979 nonces and low
 *   s: the same bytes as @noble/curves', about ten times faster. Their context is blinded once
 *   with 32 bytes of the platform's secure random source; the binding clears every private key it
 *   is handed once it has used it.
 *
 * Compiled on first use, never at import (the package is `sideEffects: false`), or ahead of it
 * with `prepare` (asynchronously: a browser's main thread compiles only small modules
 * synchronously). Where WebAssembly cannot be compiled, `recoverer` and `signer` are `undefined`
 * and klaytn/Signatures uses @noble/curves; `signer` is also `undefined` where there is no secure
 * random source to blind its context with.
 *
 * @internal
 */
import { hexOfBytes } from "./hex.js"
import { base64 } from "./secp256k1WasmBytes.js"

interface Exports {
  readonly memory: WebAssembly.Memory
  readonly recover: (recoveryId: number) => number
  readonly init: () => number
  readonly sign: () => number
  readonly public_key: (compressed: number) => number
  readonly io_hash: WebAssembly.Global
  readonly io_signature: WebAssembly.Global
  readonly io_key: WebAssembly.Global
  readonly io_secret: WebAssembly.Global
  readonly io_seed: WebAssembly.Global
}

/**
 * The public key that signed `hash` with (r, s) and the recovery id, 65 bytes uncompressed
 * (0x04 ‖ x ‖ y); `undefined` when the signature recovers none. `r` and `s` must be from 1 to the
 * order - 1.
 *
 * @internal
 */
export type Recover = (hash: Uint8Array, r: bigint, s: bigint, recoveryId: number) => Uint8Array | undefined

/**
 * A recoverable signature of `hash` by a private key: RFC 6979 nonce, low `s`, and the recovery
 * id (0 or 1); `undefined` when the 32 bytes are not a key (0, or not below the order).
 *
 * @internal
 */
export type Sign = (hash: Uint8Array, privateKey: Uint8Array) => { readonly r: bigint; readonly s: bigint; readonly recovery: number } | undefined

/**
 * The public key of a private key, 33 bytes compressed or 65 uncompressed (0x04 ‖ x ‖ y);
 * `undefined` when the 32 bytes are not a key.
 *
 * @internal
 */
export type PublicKey = (privateKey: Uint8Array, compressed: boolean) => Uint8Array | undefined

/**
 * Signing and key derivation by the module.
 *
 * @internal
 */
export interface Signer {
  readonly sign: Sign
  readonly publicKey: PublicKey
}

interface Library {
  readonly recover: Recover
  readonly signer: Signer | undefined
}

const bytes = (): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))

// `undefined` until compiled; `null` where it cannot be.
let library_: Library | null | undefined

const wrap = (exports: Exports): Library => {
  const hashAt = exports.io_hash.value as number
  const signatureAt = exports.io_signature.value as number
  const keyAt = exports.io_key.value as number
  const secretAt = exports.io_secret.value as number
  // The module's memory never grows (the binding allocates nothing): one view serves every call.
  const memory = new Uint8Array(exports.memory.buffer)
  const view = new DataView(exports.memory.buffer)
  const put = (at: number, v: bigint) => {
    const hex = v.toString(16).padStart(64, "0")
    for (let i = 0; i < 8; i++) view.setUint32(at + 4 * i, parseInt(hex.slice(8 * i, 8 * i + 8), 16))
  }
  const scalarAt = (at: number) => BigInt(hexOfBytes(memory.subarray(at, at + 32)))
  const recover: Recover = (hash, r, s, recoveryId) => {
    memory.set(hash, hashAt)
    put(signatureAt, r)
    put(signatureAt + 32, s)
    return exports.recover(recoveryId) === 1 ? memory.slice(keyAt, keyAt + 65) : undefined
  }
  // Runs `f` with the private key in the module's buffer, which the binding clears; if the module
  // ever trapped before that, the buffer is cleared here.
  const withSecret = <A>(privateKey: Uint8Array, f: () => A): A => {
    memory.set(privateKey, secretAt)
    try {
      return f()
    } catch (e) {
      memory.fill(0, secretAt, secretAt + 32)
      throw e
    }
  }
  const sign: Sign = (hash, privateKey) => {
    // A hash at or above the order is taken modulo it, by the nonce function too (RFC 6979's
    // bits2octets), as @noble/curves does.
    memory.set(hash, hashAt)
    const made = withSecret(privateKey, () => exports.sign())
    if (made === 0) return undefined
    return { r: scalarAt(signatureAt), s: scalarAt(signatureAt + 32), recovery: made - 1 }
  }
  const publicKey: PublicKey = (privateKey, compressed) =>
    withSecret(privateKey, () => exports.public_key(compressed ? 1 : 0)) === 1
      ? memory.slice(keyAt, keyAt + (compressed ? 33 : 65))
      : undefined
  return { recover, signer: blind(exports, memory) ? { sign, publicKey } : undefined }
}

// Makes the signing context, blinded with 32 bytes of the platform's secure random source; false
// where there is none (or the binding refuses).
const blind = (exports: Exports, memory: Uint8Array): boolean => {
  if (typeof globalThis.crypto?.getRandomValues !== "function") return false
  memory.set(globalThis.crypto.getRandomValues(new Uint8Array(32)), exports.io_seed.value as number)
  return exports.init() === 1
}

const library = (): Library | undefined => {
  if (library_ === undefined) {
    try {
      library_ = typeof WebAssembly === "undefined"
        ? null
        : wrap(new WebAssembly.Instance(new WebAssembly.Module(bytes())).exports as unknown as Exports)
    } catch {
      library_ = null
    }
  }
  return library_ ?? undefined
}

/**
 * The recovery, compiled on the first call; `undefined` where WebAssembly cannot be compiled.
 *
 * @internal
 */
export const recoverer = (): Recover | undefined => library()?.recover

/**
 * Signing and key derivation, compiled on the first call; `undefined` where WebAssembly cannot be
 * compiled or there is no secure random source.
 *
 * @internal
 */
export const signer = (): Signer | undefined => library()?.signer

/**
 * Compiles the module asynchronously ahead of the first call of `recoverer` or `signer`; resolves
 * either way (where it cannot be compiled, they try once more, then give `undefined`).
 *
 * @internal
 */
export const prepare = async (): Promise<void> => {
  if (library_ !== undefined || typeof WebAssembly === "undefined") return
  try {
    const { instance } = await WebAssembly.instantiate(bytes())
    library_ ??= wrap(instance.exports as unknown as Exports)
  } catch {
    // `recoverer` and `signer` decide.
  }
}
