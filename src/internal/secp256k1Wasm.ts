/**
 * ECDSA public-key recovery on secp256k1 by libsecp256k1 (bitcoin-core's library, release 0.8.0)
 * compiled to WebAssembly: the module's bytes are `secp256k1WasmBytes`, built by
 * wasm/libsecp256k1/build.sh from the library's sources and a small binding (`binding.c` beside
 * it). Every signature costs the same whoever signed it, about what the hand-written engine it
 * replaces cost for the few signers it kept tables for: no table per signer, no state but the
 * module's buffers (docs/design.md, "Recovering signers"; docs/benchmarks.md).
 *
 * Compiled on first use, never at import (the package is `sideEffects: false`), or ahead of it
 * with `prepare` (asynchronously: a browser's main thread compiles only small modules
 * synchronously). Where WebAssembly cannot be compiled, `recoverer` is `undefined` and signers are
 * recovered with @noble/curves (klaytn/Signatures).
 *
 * @internal
 */
import { base64 } from "./secp256k1WasmBytes.js"

interface Exports {
  readonly memory: WebAssembly.Memory
  readonly recover: (recoveryId: number) => number
  readonly io_hash: WebAssembly.Global
  readonly io_signature: WebAssembly.Global
  readonly io_key: WebAssembly.Global
}

/**
 * The public key that signed `hash` with (r, s) and the recovery id, 65 bytes uncompressed
 * (0x04 ‖ x ‖ y); `undefined` when the signature recovers none. `r` and `s` must be from 1 to the
 * order - 1.
 *
 * @internal
 */
export type Recover = (hash: Uint8Array, r: bigint, s: bigint, recoveryId: number) => Uint8Array | undefined

const bytes = (): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))

// `undefined` until compiled; `null` where it cannot be.
let recoverer_: Recover | null | undefined

const wrap = (exports: Exports): Recover => {
  const hashAt = exports.io_hash.value as number
  const signatureAt = exports.io_signature.value as number
  const keyAt = exports.io_key.value as number
  // The module's memory never grows (the binding allocates nothing): one view serves every call.
  const memory = new Uint8Array(exports.memory.buffer)
  const view = new DataView(exports.memory.buffer)
  const put = (at: number, v: bigint) => {
    const hex = v.toString(16).padStart(64, "0")
    for (let i = 0; i < 8; i++) view.setUint32(at + 4 * i, parseInt(hex.slice(8 * i, 8 * i + 8), 16))
  }
  return (hash, r, s, recoveryId) => {
    memory.set(hash, hashAt)
    put(signatureAt, r)
    put(signatureAt + 32, s)
    return exports.recover(recoveryId) === 1 ? memory.slice(keyAt, keyAt + 65) : undefined
  }
}

/**
 * The recovery, compiled on the first call; `undefined` where WebAssembly cannot be compiled.
 *
 * @internal
 */
export const recoverer = (): Recover | undefined => {
  if (recoverer_ === undefined) {
    try {
      recoverer_ = typeof WebAssembly === "undefined"
        ? null
        : wrap(new WebAssembly.Instance(new WebAssembly.Module(bytes())).exports as unknown as Exports)
    } catch {
      recoverer_ = null
    }
  }
  return recoverer_ ?? undefined
}

/**
 * Compiles the module asynchronously ahead of `recoverer`'s first call; resolves either way (where
 * it cannot be compiled, `recoverer` tries once more, then gives `undefined`).
 *
 * @internal
 */
export const prepare = async (): Promise<void> => {
  if (recoverer_ !== undefined || typeof WebAssembly === "undefined") return
  try {
    const { instance } = await WebAssembly.instantiate(bytes())
    recoverer_ ??= wrap(instance.exports as unknown as Exports)
  } catch {
    // `recoverer` decides.
  }
}
