/**
 * Recovering signers (internal/secp256k1Wasm, libsecp256k1 in WebAssembly): the key recovered
 * agrees with @noble/curves' recovery, for signatures made and for arbitrary ones (which may
 * recover nothing); Klaytn's checks give the same answers with @noble/curves alone, as where
 * WebAssembly cannot be compiled; errors still name who signed.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import { afterEach, vi } from "vitest"
import { prepare, recoverer } from "../../src/internal/secp256k1Wasm.js"
import { base64 } from "../../src/internal/secp256k1WasmBytes.js"
import * as Klaytn from "../../src/Klaytn.js"

const CHAIN = 1001
const N = secp256k1.Point.Fn.ORDER
const P = secp256k1.Point.Fp.ORDER
const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k))
const hash = fc.uint8Array({ minLength: 32, maxLength: 32 })
// Values where the library's limbs and reductions turn, and any in range.
const scalar = fc.oneof(
  fc.bigInt({ min: 1n, max: N - 1n }),
  fc.constantFrom(1n, 2n, 2n ** 32n, 2n ** 128n, N >> 1n, (N >> 1n) + 1n, N - 1n, P - N, 2n ** 255n)
)

const noble = (h: Uint8Array, r: bigint, s: bigint, recoveryId: number): Uint8Array | undefined => {
  try {
    return new secp256k1.Signature(r, s, recoveryId).recoverPublicKey(h).toBytes(false)
  } catch {
    return undefined
  }
}

describe("libsecp256k1's recovery", () => {
  const recover = recoverer()!

  it("the module is the one its build recorded: size and SHA-256 as the generated file states them", () => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    const header = readFileSync(new URL("../../src/internal/secp256k1WasmBytes.ts", import.meta.url), "utf8")
    const [, size, digest] = /\((\d+) bytes, SHA-256\n \* ([0-9a-f]{64})\)/.exec(header) ?? []
    expect(bytes.length).toBe(Number(size))
    expect(Array.from(sha256(bytes), (b) => b.toString(16).padStart(2, "0")).join("")).toBe(digest)
    // Nothing imported: the module reaches nothing of its host.
    expect(WebAssembly.Module.imports(new WebAssembly.Module(bytes))).toStrictEqual([])
  })

  it("compiles here", () => expect(recover).toBeDefined())

  it.prop("a signature made recovers its key, and with the other recovery id what @noble/curves recovers", [key, hash], ([k, h]) => {
    const sig = secp256k1.Signature.fromBytes(secp256k1.sign(h, k, { prehash: false, format: "recovered" }), "recovered")
    expect(recover(h, sig.r, sig.s, sig.recovery!)).toStrictEqual(secp256k1.getPublicKey(k, false))
    const other = 1 - sig.recovery!
    expect(recover(h, sig.r, sig.s, other)).toStrictEqual(noble(h, sig.r, sig.s, other))
  }, { fastCheck: { numRuns: 100 } })

  it.prop("any (r, s) in range recovers what @noble/curves recovers, or nothing when it recovers nothing", [hash, scalar, scalar, fc.constantFrom(0, 1)], ([h, r, s, id]) => {
    expect(recover(h, r, s, id)).toStrictEqual(noble(h, r, s, id))
  }, { fastCheck: { numRuns: 300 } })

  it("an r that is no point's x recovers nothing; a hash above the order is taken modulo it", () => {
    // 5 is not the x of a point of secp256k1 (5³ + 7 is not a square modulo p).
    expect(noble(new Uint8Array(32), 5n, 1n, 0)).toBeUndefined()
    expect(recover(new Uint8Array(32), 5n, 1n, 0)).toBeUndefined()
    const k = new Uint8Array(32).fill(3)
    const high = new Uint8Array(32).fill(0xff)
    const sig = secp256k1.Signature.fromBytes(secp256k1.sign(high, k, { prehash: false, format: "recovered" }), "recovered")
    expect(recover(high, sig.r, sig.s, sig.recovery!)).toStrictEqual(secp256k1.getPublicKey(k, false))
  })

  it("prepare compiles ahead and keeps the same recovery", async () => {
    await prepare()
    expect(recoverer()).toBe(recover)
  })
})

const addressOf = (k: Uint8Array) => Either.getOrThrow(Klaytn.addressOfKey(k))

// A transaction signed by `sender`, and the same with a signature of `intruder` instead.
const signed = (sender: Uint8Array, intruder: Uint8Array, codec: typeof Klaytn) => {
  const from = addressOf(sender)
  const tx = Either.getOrThrow(codec.makeTransaction({ kind: "value", from, to: from, value: 1n, nonce: 0, gas: 21_000, gasPrice: 25_000_000_000n }))
  const good = Either.getOrThrow(codec.signTransaction(tx, { chainId: CHAIN, sender }))
  const forged = Either.getOrThrow(codec.sign(codec.senderSigningHash(tx, CHAIN), intruder, CHAIN))
  return { from, good, forged: { ...good, signatures: [forged] } }
}

describe("Klaytn's signer checks", () => {
  afterEach(() => {
    vi.doUnmock("../../src/internal/secp256k1Wasm.js")
    vi.resetModules()
  })

  // The codec imported afresh with the WebAssembly recovery unavailable: @noble/curves alone.
  const withoutWasm = async (): Promise<typeof Klaytn> => {
    vi.resetModules()
    vi.doMock("../../src/internal/secp256k1Wasm.js", () => ({ recoverer: () => undefined, prepare: () => Promise.resolve() }))
    return await import("../../src/Klaytn.js")
  }

  it("verifySigners names who signed, with and without WebAssembly", async () => {
    const sender = new Uint8Array(32).fill(7)
    const intruder = new Uint8Array(32).fill(8)
    for (const codec of [Klaytn, await withoutWasm()]) {
      const { forged, from, good } = signed(sender, intruder, codec)
      expect(Either.isRight(codec.verifySigners(good, CHAIN))).toBe(true)
      const result = codec.verifySigners(forged, CHAIN)
      expect(Either.isLeft(result) && result.left.reason).toBe(`a sender signature recovers ${addressOf(intruder)}, not ${from}`)
    }
  })

  it("recover and recoverPublicKey give the signer's address and compressed key, with and without WebAssembly", async () => {
    const codecs = [Klaytn, await withoutWasm()]
    fc.assert(
      fc.property(key, hash, (k, h) => {
        const sig = Either.getOrThrow(Klaytn.sign(h, k, CHAIN))
        for (const codec of codecs) {
          expect(Either.getOrThrow(codec.recover(h, sig, CHAIN))).toBe(addressOf(k))
          expect(Either.getOrThrow(codec.recoverPublicKey(h, sig, CHAIN))).toStrictEqual(secp256k1.getPublicKey(k, true))
        }
      }),
      { numRuns: 50 }
    )
  })
})
