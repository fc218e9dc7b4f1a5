/**
 * A WebAssembly keccak-f[1600] for 40-character addresses, assembled and compiled by `load` (on
 * the first address checked, never at import).
 *
 * WebAssembly has native 64-bit rotations, which JavaScript lacks: 1000 EIP-55 checks cost about a
 * tenth of @noble/hashes' (docs/benchmarks.md). Character scans stay in JavaScript: on random hex
 * their branches cost as much in WebAssembly. The module is emitted here with the small assembler
 * of `internal/wasm` rather than shipped as an opaque blob, so every instruction is reviewable. It
 * stays well under 4 KB, which every browser compiles synchronously on the main thread (Chrome
 * allowed no more before version 114). Where WebAssembly is unavailable or code generation is
 * forbidden (Cloudflare Workers and other edge runtimes), `load` returns `undefined` and callers
 * use @noble/hashes.
 *
 * Memory: digest prefix at [0, 24), round constants at [64, 256), input bytes from `INPUT` on.
 * - `hashAt(offset)`: keccak-256 of the 40 bytes at `offset`, case-folded (`| 0x20`, so the bytes
 *   must be hex digits), padded for a 40-byte message; stores the first 24 digest bytes at 0.
 *
 * @internal
 */
import * as W from "./wasm.js"

// Rotation offsets r[x][y] and the lane index x + 5y, as in the Keccak reference.
const ROT = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61], [28, 55, 25, 21, 56], [27, 20, 39, 8, 14]]

const ROUND_CONSTANTS = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808An, 0x8000000080008000n,
  0x000000000000808Bn, 0x0000000080000001n, 0x8000000080008081n, 0x8000000000008009n,
  0x000000000000008An, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000An,
  0x000000008000808Bn, 0x800000000000008Bn, 0x8000000000008089n, 0x8000000000008003n,
  0x8000000000008002n, 0x8000000000000080n, 0x000000000000800An, 0x800000008000000An,
  0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n
]

const RC_OFFSET = 64

/** Where callers write input bytes. @internal */
export const INPUT = 256

/** The code of `hashAt`. */
const hashAtCode = (): Array<number> => {
  // Locals: param 0 input offset, 1 round pointer (i32), then i64 lanes a, b, c, d.
  const OFFSET = 0
  const ROUND = 1
  const A = 2
  const B = A + 25
  const C = B + 25
  const D = C + 5
  const body: Array<number> = []
  const emit = (...parts: Array<Array<number>>) => {
    for (const p of parts) body.push(...p)
  }
  for (let lane = 0; lane < 5; lane++) {
    emit(W.get(OFFSET), W.i64Load(lane * 8), W.i64(0x2020202020202020n), W.or, W.set(A + lane))
  }
  emit(W.i64(1n), W.set(A + 5))
  emit(W.i64(-0x8000000000000000n), W.set(A + 16))
  emit(W.i32(RC_OFFSET), W.set(ROUND))
  emit(W.loop)
  for (let x = 0; x < 5; x++) {
    emit(W.get(A + x))
    for (let y = 1; y < 5; y++) emit(W.get(A + x + 5 * y), W.xor)
    emit(W.set(C + x))
  }
  for (let x = 0; x < 5; x++) {
    emit(W.get(C + ((x + 4) % 5)), W.get(C + ((x + 1) % 5)), W.i64(1n), W.rotl, W.xor, W.set(D + x))
  }
  for (let x = 0; x < 5; x++) {
    for (let y = 0; y < 5; y++) {
      const target = B + y + 5 * ((2 * x + 3 * y) % 5)
      const r = ROT[x]![y]!
      emit(W.get(A + x + 5 * y), W.get(D + x), W.xor)
      if (r !== 0) emit(W.i64(BigInt(r)), W.rotl)
      emit(W.set(target))
    }
  }
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      emit(
        W.get(B + ((x + 1) % 5) + 5 * y), W.i64(-1n), W.xor,
        W.get(B + ((x + 2) % 5) + 5 * y), W.and,
        W.get(B + x + 5 * y), W.xor,
        W.set(A + x + 5 * y)
      )
    }
  }
  emit(W.get(A), W.get(ROUND), W.i64Load(0), W.xor, W.set(A))
  emit(W.get(ROUND), W.i32(8), W.i32Add, W.set(ROUND))
  emit(W.get(ROUND), W.i32(RC_OFFSET + 8 * 24), W.i32Ne)
  emit(W.brIf(0), W.end) // continue the loop, then its end
  for (let lane = 0; lane < 3; lane++) emit(W.i32(0), W.get(A + lane), W.i64Store(lane * 8))
  return body
}

/** Emits the bytes of the module described in the header comment. */
export const assemble = (): Uint8Array<ArrayBuffer> => {
  const rcBytes: Array<number> = []
  for (const rc of ROUND_CONSTANTS) for (let i = 0n; i < 8n; i++) rcBytes.push(Number((rc >> (8n * i)) & 0xffn))
  // Locals after the input offset: the round pointer (i32), then the i64 lanes a, b, c, d.
  return W.assemble(
    [{ name: "hashAt", params: 1, locals: [[1, W.I32], [25 + 25 + 5 + 5, W.I64]], code: hashAtCode() }],
    { pages: 1, dataOffset: RC_OFFSET, data: rcBytes }
  )
}

/** The loaded module: its functions, a view of the digest words and the input bytes. @internal */
export interface KeccakWasm {
  readonly hashAt: (offset: number) => void
  readonly digest: Int32Array
  readonly input: Uint8Array
}

/** Compiles and instantiates the module, or `undefined` where WebAssembly cannot run. @internal */
export const load = (): KeccakWasm | undefined => {
  try {
    if (typeof WebAssembly === "undefined") return undefined
    const instance = new WebAssembly.Instance(new WebAssembly.Module(assemble()))
    const exports = instance.exports as unknown as {
      hashAt: KeccakWasm["hashAt"]
      memory: WebAssembly.Memory
    }
    return {
      hashAt: exports.hashAt,
      digest: new Int32Array(exports.memory.buffer, 0, 6),
      input: new Uint8Array(exports.memory.buffer, INPUT)
    }
  } catch {
    return undefined
  }
}
