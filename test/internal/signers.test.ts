/**
 * Known signers (internal/signers): a signer checked against its remembered point must agree with
 * recovery, in both directions, including once its point has a table in the WebAssembly engine;
 * the engine (internal/secp256k1Wasm) agrees with @noble/curves, field and points.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as Klaytn from "../../src/Klaytn.js"
import * as Secp256k1Wasm from "../../src/internal/secp256k1Wasm.js"
import * as Signers from "../../src/internal/signers.js"

const CHAIN = 1001
const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k))
const hash = fc.uint8Array({ minLength: 32, maxLength: 32 })
const sign = (h: Uint8Array, k: Uint8Array) => Either.getOrThrow(Klaytn.sign(h, k, CHAIN))
const recoveryId = (sig: Klaytn.SignatureValues) => sig.v - (2 * CHAIN + 35)
const addressOf = (k: Uint8Array) => Either.getOrThrow(Klaytn.addressOfKey(k))

describe("known signers", () => {
  it("a remembered signer's check agrees with recovery: its own signatures pass, another key's, another hash's and the other recovery id fail", () =>
    fc.assert(
      fc.property(key, key, hash, hash, (k1, k2, h1, h2) => {
        fc.pre(addressOf(k1) !== addressOf(k2))
        const id = `test:${addressOf(k1)}`
        Signers.remember(id, secp256k1.Point.fromBytes(secp256k1.getPublicKey(k1, false)))
        // Enough checks to pass the table's threshold: both paths (@noble/curves, the engine) are exercised.
        for (let i = 0; i < 10; i++) {
          const own = sign(h1, k1)
          expect(Signers.signedBy(id, h1, own.r, own.s, recoveryId(own))).toBe(true)
          expect(Signers.signedBy(id, h1, own.r, own.s, 1 - recoveryId(own))).toBe(false)
          const other = sign(h1, k2)
          expect(Signers.signedBy(id, h1, other.r, other.s, recoveryId(other))).toBe(false)
          const elsewhere = sign(h2, k1)
          expect(Signers.signedBy(id, h1, elsewhere.r, elsewhere.s, recoveryId(elsewhere))).toBe(h1.every((b, j) => b === h2[j]))
        }
        expect(Signers.signedBy("test:unknown", h1, 1n, 1n, 0)).toBeUndefined()
      }),
      // No shrinking: each run signs and checks dozens of times, and a failure is clear unshrunk.
      { numRuns: 4, endOnFailure: true }
    ))

  it("verifySigners still names who signed when the expected signer is remembered", () => {
    const sender = new Uint8Array(32).fill(7)
    const intruder = new Uint8Array(32).fill(8)
    const from = addressOf(sender)
    const tx = Either.getOrThrow(Klaytn.makeTransaction({ kind: "value", from, to: from, value: 1n, nonce: 0, gas: 21_000, gasPrice: 25_000_000_000n }))
    const good = Either.getOrThrow(Klaytn.signTransaction(tx, { chainId: CHAIN, sender }))
    // Twice: the second check runs against the remembered point.
    expect(Either.isRight(Klaytn.verifySigners(good, CHAIN))).toBe(true)
    expect(Either.isRight(Klaytn.verifySigners(good, CHAIN))).toBe(true)
    const forged = sign(Klaytn.senderSigningHash(tx, CHAIN), intruder)
    const result = Klaytn.verifySigners({ ...good, signatures: [forged] }, CHAIN)
    expect(Either.isLeft(result) && result.left.reason).toBe(`a sender signature recovers ${addressOf(intruder)}, not ${from}`)
  })
})

const { Point } = secp256k1
const p = Point.Fp.ORDER
const n = Point.Fn.ORDER
const uint256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n })
// The values where carries and reductions turn: around 0, p, 2^256 and the 2^32 + 977 of the fold.
const edge = fc.constantFrom(0n, 1n, 2n, p - 1n, p, p + 1n, 2n ** 256n - 1n, 2n ** 256n - 2n, 2n ** 32n + 977n, 2n ** 255n, 2n ** 224n - 1n)
const element = fc.oneof(uint256, edge)
const scalar = fc.oneof(fc.bigInt({ min: 0n, max: n - 1n }), fc.constantFrom(0n, 1n, 127n, 128n, 129n, 255n, 256n, n - 1n, n - 128n, 2n ** 255n, 0x80808080n))

describe("the secp256k1 engine", () => {
  const module = new WebAssembly.Instance(new WebAssembly.Module(Secp256k1Wasm.assemble())).exports as {
    readonly mul: (out: number, a: number, b: number) => void
    readonly add: (out: number, a: number, b: number) => void
    readonly sub: (out: number, a: number, b: number) => void
    readonly memory: WebAssembly.Memory
  }
  const limbs = new Uint32Array(module.memory.buffer)
  const put = (at: number, v: bigint) => {
    for (let i = 0; i < 8; i++) limbs[at / 4 + i] = Number((v >> BigInt(32 * i)) & 0xffffffffn)
  }
  const get = (at: number) => limbs.slice(at / 4, at / 4 + 8).reduceRight((v, limb) => (v << 32n) | BigInt(limb), 0n)

  it("the module is under 4096 bytes (what Chrome before 114 compiled synchronously on the main thread)", () => {
    const bytes = Secp256k1Wasm.assemble()
    expect(bytes.length).toBeLessThan(4096)
    expect(WebAssembly.validate(bytes)).toBe(true)
  })

  it.prop("field multiplication, addition and subtraction agree with BigInt modulo p, their results below 2^256", [element, element], ([a, b]) => {
    put(32, a)
    put(64, b)
    for (const [f, expected] of [[module.mul, a * b], [module.add, a + b], [module.sub, a - b]] as const) {
      f(0, 32, 64)
      const r = get(0)
      expect(r < 2n ** 256n).toBe(true)
      expect(((r - expected) % p + p) % p).toBe(0n)
    }
  }, { fastCheck: { numRuns: 2000 } })

  const engine = Secp256k1Wasm.load()!
  const G = Point.BASE
  const Q = G.multiply(0x1234567890abcdefn)
  engine.tabulate(1, Q)
  // G in a second place: u1·G + u2·G meets the same point (a doubling) or its opposite (infinity).
  engine.tabulate(2, G)

  it.prop("u1·G + u2·Q agrees with @noble/curves, the point at infinity included", [scalar, scalar], ([u1, u2]) => {
    const expected = G.multiplyUnsafe(u1).add(Q.multiplyUnsafe(u2))
    expect(engine.mulAdd(u1, 1, u2)).toStrictEqual(expected.is0() ? undefined : expected.toAffine())
    const same = G.multiplyUnsafe((u1 + u2) % n)
    expect(engine.mulAdd(u1, 2, u2)).toStrictEqual(same.is0() ? undefined : same.toAffine())
  }, { fastCheck: { numRuns: 200 } })

  it("the doubling and the opposite point: u·G + u·G and u·G + (n - u)·G", () => {
    for (const u of [1n, 5n, 128n, n - 1n, 2n ** 200n + 77n]) {
      expect(engine.mulAdd(u, 2, u)).toStrictEqual(G.multiply((2n * u) % n).toAffine())
      expect(engine.mulAdd(u, 2, n - u)).toBeUndefined()
    }
  })
})
