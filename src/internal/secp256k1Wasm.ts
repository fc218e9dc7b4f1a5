/**
 * `u1·G + u2·Q` on secp256k1 for the signature checks of known signers (`internal/signers`):
 * the field's multiplication, addition and subtraction modulo p in a WebAssembly module emitted
 * here, the point arithmetic over them in TypeScript, and tables of affine multiples of G and of
 * each tabled Q, so that one check costs 66 mixed additions, no doubling and one inversion.
 *
 * Why: a field multiplication in BigInt arithmetic is a 512-bit product and a division, about
 * 400 ns; the module's, call included, about 50 ns. A signer's check drops from about 0.6 ms to
 * about 0.1 ms (docs/benchmarks.md). Where WebAssembly cannot be compiled, `load` returns
 * `undefined` and the signers are checked with @noble/curves alone.
 *
 * Representation: a field element is 8 little-endian 32-bit limbs, below 2^256 but not always
 * below p; only comparisons and reads reduce fully. Points are Jacobian (x = X/Z², y = Y/Z³).
 *
 * Tables (fixed windows of 8 bits, signed digits): for window j = 0..32 and d = 1..128, the affine
 * point d·2^(8j)·Q, about 20 ms to build. A scalar's digits are its bytes, each over 128 borrowed
 * from the next. The tests check every result against @noble/curves.
 *
 * @internal
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import * as W from "./wasm.js"

type Point = ReturnType<typeof secp256k1.Point.fromBytes>

const P = secp256k1.Point.Fp.ORDER
const MASK = 0xffffffffn
const BYTES = 32

// ---- the module: mul, add and sub of field elements at byte addresses (out, a, b) ----

// Locals after the three i32 parameters.
const L = 3

/** `fold(top)`: adds top·2^256 ≡ top·(2^32 + 977) to the limbs r, leaving the carry out in `top`. */
const fold = (r: number, top: number, carry: number, t: number, mask: number): Array<Array<number>> => {
  const code: Array<Array<number>> = []
  const limb = (i: number, ...addends: Array<Array<number>>) =>
    code.push(W.get(r + i), ...addends, W.tee(t), W.get(mask), W.and, W.set(r + i), W.get(t), W.i64(32n), W.shrU, W.set(carry))
  limb(0, W.get(top), W.i64(977n), W.i64Mul, W.i64Add)
  limb(1, W.get(top), W.i64Add, W.get(carry), W.i64Add)
  for (let i = 2; i < 8; i++) limb(i, W.get(carry), W.i64Add)
  code.push(W.get(carry), W.set(top))
  return code
}

const func = (name: string, locals: number, build: (emit: (...parts: Array<Array<number>>) => void) => void): W.Func => {
  const code: Array<number> = []
  build((...parts) => {
    for (const p of parts) code.push(...p)
  })
  return { name, params: 3, locals: [[locals, W.I64]], code }
}

const store = (r: number) => Array.from({ length: 8 }, (_, i) => [...W.get(0), ...W.get(r + i), ...W.i64Store32(BYTES / 8 * i)])

// Product scanning: column k of a·b is the sum of a_i·b_(k-i), its products split in 32-bit
// halves so that no sum overflows 64 bits; then the 512-bit product is folded twice (p = 2^256 - c).
const mul = func("mul", 40, (emit) => {
  const A = L
  const B = L + 8
  const T = L + 16
  const lo = L + 32
  const hi = L + 33
  const t = L + 34
  const c = L + 35
  const mask = L + 36
  const top = L + 37
  emit(W.i64(MASK), W.set(mask))
  for (let i = 0; i < 8; i++) emit(W.get(1), W.i64Load32U(4 * i), W.set(A + i), W.get(2), W.i64Load32U(4 * i), W.set(B + i))
  // (Locals start at zero: column 0 needs no initialisation.)
  for (let k = 0; k < 15; k++) {
    if (k > 0) emit(W.get(c), W.set(lo), W.i64(0n), W.set(hi))
    for (let i = Math.max(0, k - 7); i <= Math.min(7, k); i++) {
      emit(W.get(A + i), W.get(B + k - i), W.i64Mul, W.tee(t), W.get(mask), W.and, W.get(lo), W.i64Add, W.set(lo),
        W.get(t), W.i64(32n), W.shrU, W.get(hi), W.i64Add, W.set(hi))
    }
    emit(W.get(lo), W.get(mask), W.and, W.set(T + k), W.get(lo), W.i64(32n), W.shrU, W.get(hi), W.i64Add, W.set(c))
  }
  emit(W.get(c), W.set(T + 15))
  // r = low + high·977 + high·2^32, into A's locals.
  for (let i = 0; i < 8; i++) {
    emit(W.get(T + i), W.get(T + 8 + i), W.i64(977n), W.i64Mul, W.i64Add)
    if (i > 0) emit(W.get(T + 7 + i), W.i64Add, W.get(c), W.i64Add)
    emit(W.tee(t), W.get(mask), W.and, W.set(A + i), W.get(t), W.i64(32n), W.shrU, W.set(c))
  }
  emit(W.get(c), W.get(T + 15), W.i64Add, W.set(top))
  emit(...fold(A, top, c, t, mask), ...fold(A, top, c, t, mask), ...store(A))
})

// a + b; and a - b as a + 2p - b, which is positive for any b below 2^256 (its carries signed);
// then folded.
const P2 = 2n * P
const linear = (name: "add" | "sub") =>
  func(name, 13, (emit) => {
    const r = L
    const top = L + 8
    const c = L + 9
    const t = L + 10
    const mask = L + 11
    const sub = name === "sub"
    emit(W.i64(MASK), W.set(mask))
    for (let i = 0; i < 8; i++) {
      emit(W.get(1), W.i64Load32U(4 * i))
      if (sub) emit(W.i64((P2 >> BigInt(32 * i)) & MASK), W.i64Add)
      emit(W.get(2), W.i64Load32U(4 * i), sub ? W.i64Sub : W.i64Add, W.get(c), W.i64Add,
        W.tee(t), W.get(mask), W.and, W.set(r + i), W.get(t), W.i64(32n), sub ? W.shrS : W.shrU, W.set(c))
    }
    emit(W.get(c))
    if (sub) emit(W.i64(P2 >> 256n), W.i64Add)
    emit(W.set(top), ...fold(r, top, c, t, mask), ...fold(r, top, c, t, mask), ...store(r))
  })

/** The module's bytes. @internal */
export const assemble = (): Uint8Array<ArrayBuffer> => W.assemble([mul, linear("add"), linear("sub")], { pages: 1 })

// ---- memory: temporaries, then tables ----

const P_LIMBS = Array.from({ length: 8 }, (_, i) => Number((P >> BigInt(32 * i)) & MASK))
const at = (i: number) => i * BYTES
// Temporaries: the accumulator (X, Y, Z), constants, the formulas' intermediates.
const X = at(0)
const Y = at(1)
const Z = at(2)
const NEG = at(3)
const ZERO = at(4)
const ONE = at(5)
const Z2 = at(6)
const U2 = at(7)
const S2 = at(8)
const H = at(9)
const R = at(10)
const H2 = at(11)
const H3 = at(12)
const T = at(13)
const T2 = at(14)
const X3 = at(15)
const WX = at(16)
const WY = at(17)
const INV = at(18)
const WINDOWS = 33
const HALF = 128
const ENTRY = 2 * BYTES
const TABLE = WINDOWS * HALF * ENTRY
// Scratch for building a table: its multiples in Jacobian form and the prefix products of their Z's.
const SCRATCH = 1024
const TABLES = SCRATCH + WINDOWS * HALF * 4 * BYTES
const PAGE = 65536

/**
 * The engine: where WebAssembly runs, `u1·G + u2·Q` for points Q tabled in numbered places.
 *
 * @internal
 */
export interface Engine {
  /** Tables `point` in place `place` (1 or more), replacing what was there. */
  readonly tabulate: (place: number, point: Point) => void
  /** `u1·G + u2·Q` for the Q tabled in `place`, affine and fully reduced; `undefined` for the point at infinity. */
  readonly mulAdd: (u1: bigint, place: number, u2: bigint) => { readonly x: bigint; readonly y: bigint } | undefined
}

/** Signed base-256 digits of a scalar below 2^256, least significant first (33 of them). */
const digits = (k: bigint): Int16Array => {
  const hex = k.toString(16).padStart(64, "0")
  const out = new Int16Array(WINDOWS)
  let carry = 0
  for (let j = 0; j < 32; j++) {
    const d = parseInt(hex.slice(62 - 2 * j, 64 - 2 * j), 16) + carry
    carry = d > HALF ? 1 : 0
    out[j] = d - 256 * carry
  }
  out[32] = carry
  return out
}

/**
 * Compiles the module and returns the engine, or `undefined` where WebAssembly cannot run.
 *
 * @internal
 */
export const load = (): Engine | undefined => {
  let exports: {
    readonly mul: (out: number, a: number, b: number) => void
    readonly add: (out: number, a: number, b: number) => void
    readonly sub: (out: number, a: number, b: number) => void
    readonly memory: WebAssembly.Memory
  }
  try {
    if (typeof WebAssembly === "undefined") return undefined
    exports = new WebAssembly.Instance(new WebAssembly.Module(assemble())).exports as typeof exports
  } catch {
    return undefined
  }
  const { add, memory, mul, sub } = exports
  // Views are remade when the memory grows (growing detaches the old buffer).
  let u32 = new Uint32Array(memory.buffer)
  u32[ONE / 4] = 1

  const write = (address: number, v: bigint) => {
    const hex = v.toString(16).padStart(64, "0")
    for (let i = 0; i < 8; i++) u32[address / 4 + i] = parseInt(hex.slice(56 - 8 * i, 64 - 8 * i), 16)
  }
  const read = (address: number): bigint => {
    let hex = "0x"
    for (let i = 7; i >= 0; i--) hex += u32[address / 4 + i]!.toString(16).padStart(8, "0")
    return BigInt(hex) % P
  }
  const copy = (to: number, from: number) => u32.copyWithin(to / 4, from / 4, from / 4 + 8)
  // Zero modulo p: 0 or p itself (elements are below 2^256), compared limb by limb.
  const isZero = (address: number) => {
    const base = address / 4
    let zero = true
    let p = true
    for (let i = 0; i < 8; i++) {
      const limb = u32[base + i]!
      zero &&= limb === 0
      p &&= limb === P_LIMBS[i]
    }
    return zero || p
  }
  const square = (out: number, a: number, times = 1) => {
    mul(out, a, a)
    for (let i = 1; i < times; i++) mul(out, out, out)
  }

  // The accumulator (X, Y, Z) and whether it is the point at infinity.
  let infinite = true

  const double = () => {
    square(T, Y) // Y²
    mul(S2, X, T)
    add(S2, S2, S2)
    add(S2, S2, S2) // S = 4·X·Y²
    square(H, X)
    add(H2, H, H)
    add(H, H2, H) // M = 3·X²
    mul(Z, Y, Z)
    add(Z, Z, Z) // Z3 = 2·Y·Z
    square(X3, H)
    sub(X3, X3, S2)
    sub(X3, X3, S2) // X3 = M² - 2S
    square(T, T) // Y⁴
    add(T, T, T)
    add(T, T, T)
    add(T, T, T) // 8·Y⁴
    sub(T2, S2, X3)
    mul(T2, T2, H)
    sub(Y, T2, T) // Y3 = M·(S - X3) - 8·Y⁴
    copy(X, X3)
  }

  // The accumulator plus the affine point (x, y).
  const addAffine = (x: number, y: number) => {
    if (infinite) {
      copy(X, x)
      copy(Y, y)
      copy(Z, ONE)
      infinite = false
      return
    }
    square(Z2, Z)
    mul(U2, x, Z2)
    mul(S2, y, Z2)
    mul(S2, S2, Z)
    sub(H, U2, X)
    sub(R, S2, Y)
    if (isZero(H)) {
      // The same x: the same point (double it) or its opposite (their sum is infinity).
      if (isZero(R)) double()
      else infinite = true
      return
    }
    square(H2, H)
    mul(H3, H2, H)
    mul(Z, Z, H)
    mul(T, X, H2) // U1·H²
    square(X, R)
    sub(X, X, H3)
    sub(X, X, T)
    sub(X, X, T) // X3 = R² - H³ - 2·U1·H²
    sub(T, T, X)
    mul(T, T, R)
    mul(T2, Y, H3)
    sub(Y, T, T2) // Y3 = R·(U1·H² - X3) - S1·H³
  }

  // a^(p-2), by libsecp256k1's addition chain: 255 squarings, 15 multiplications.
  const invert = (out: number, a: number) => {
    const x2 = at(19)
    const x3 = at(20)
    const x6 = at(21)
    const x22 = at(22)
    const x44 = at(23)
    const t = at(24)
    // Each step: into = from^(2^squarings) · times (x_k is a^(2^k - 1)).
    const steps: ReadonlyArray<readonly [into: number, from: number, squarings: number, times: number]> = [
      [x2, a, 1, a],
      [x3, x2, 1, a],
      [x6, x3, 3, x3],
      [t, x6, 3, x3], // x9
      [t, t, 2, x2], // x11
      [x22, t, 11, t],
      [x44, x22, 22, x22],
      [t, x44, 44, x44], // x88
      [out, t, 88, t], // x176
      [out, out, 44, x44], // x220
      [out, out, 3, x3], // x223
      [out, out, 23, x22],
      [out, out, 5, a],
      [out, out, 3, x2],
      [out, out, 2, a]
    ]
    for (const [into, from, squarings, times] of steps) {
      square(into, from, squarings)
      mul(into, into, times)
    }
  }

  const ensure = (bytes: number) => {
    if (memory.buffer.byteLength >= bytes) return
    memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE))
    u32 = new Uint32Array(memory.buffer)
  }

  const tableAt = (place: number) => TABLES + place * TABLE

  // The window's multiples d·W (d = 1..128) by repeated mixed additions (the first one a
  // doubling), Jacobian in the scratch area; then 2^8·W, made affine, for the next window; then
  // every multiple made affine with one inversion (Montgomery's trick: prefix products of the Z's).
  const tabulate = (place: number, point: Point) => {
    const table = tableAt(place)
    ensure(table + TABLE)
    const { x, y } = point.toAffine()
    write(WX, x)
    write(WY, y)
    const count = WINDOWS * HALF
    const jacobian = (i: number) => SCRATCH + i * 3 * BYTES
    const prefix = (i: number) => SCRATCH + count * 3 * BYTES + i * BYTES
    for (let j = 0; j < WINDOWS; j++) {
      infinite = true
      for (let d = 1; d <= HALF; d++) {
        addAffine(WX, WY)
        const to = jacobian(j * HALF + d - 1)
        copy(to, X)
        copy(to + BYTES, Y)
        copy(to + 2 * BYTES, Z)
      }
      double()
      affine(WX, WY)
    }
    copy(prefix(0), jacobian(0) + 2 * BYTES)
    for (let i = 1; i < count; i++) mul(prefix(i), prefix(i - 1), jacobian(i) + 2 * BYTES)
    invert(INV, prefix(count - 1))
    for (let i = count - 1; i >= 0; i--) {
      // INV is 1/(Z_0···Z_i): times the prefix before i, 1/Z_i; times Z_i, 1/(Z_0···Z_(i-1)).
      if (i > 0) {
        mul(T, INV, prefix(i - 1))
        mul(INV, INV, jacobian(i) + 2 * BYTES)
      } else copy(T, INV)
      square(T2, T)
      mul(table + i * ENTRY, jacobian(i), T2)
      mul(T2, T2, T)
      mul(table + i * ENTRY + BYTES, jacobian(i) + BYTES, T2)
    }
  }

  // The accumulator made affine, into (x, y).
  const affine = (x: number, y: number) => {
    invert(T, Z)
    square(T2, T)
    mul(x, X, T2)
    mul(T2, T2, T)
    mul(y, Y, T2)
  }

  // The accumulator plus d·2^(8j) times the table's point (-d: the entry's opposite, y negated).
  const addDigit = (table: number, j: number, d: number) => {
    if (d === 0) return
    const entry = table + (j * HALF + Math.abs(d) - 1) * ENTRY
    if (d > 0) return addAffine(entry, entry + BYTES)
    sub(NEG, ZERO, entry + BYTES)
    addAffine(entry, NEG)
  }

  let baseTabled = false

  const mulAdd = (u1: bigint, place: number, u2: bigint) => {
    if (!baseTabled) {
      tabulate(0, secp256k1.Point.BASE)
      baseTabled = true
    }
    const d1 = digits(u1)
    const d2 = digits(u2)
    const base = tableAt(0)
    const other = tableAt(place)
    infinite = true
    for (let j = 0; j < WINDOWS; j++) {
      addDigit(base, j, d1[j]!)
      addDigit(other, j, d2[j]!)
    }
    if (infinite) return undefined
    affine(WX, WY)
    return { x: read(WX), y: read(WY) }
  }

  return { tabulate, mulAdd }
}
