/**
 * libsecp256k1 in WebAssembly (internal/secp256k1Wasm). Recovering signers: the key recovered
 * agrees with @noble/curves' recovery, for signatures made and for arbitrary ones (which may
 * recover nothing). Signing and public keys: the same bytes as @noble/curves' (both RFC 6979,
 * low s) over random keys and hashes and at the edges (keys 1 and n - 1, hashes at and above n),
 * the same refusals, and no private key left in the module's memory. Klaytn's signing and checks
 * give the same answers with @noble/curves alone, as where WebAssembly cannot be compiled; errors
 * still name who signed.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import { afterEach, vi } from "vitest"
import { prepare, recoverer, signer } from "../../src/internal/secp256k1Wasm.js"
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

const bytes32 = (v: bigint) => Uint8Array.from(v.toString(16).padStart(64, "0").match(/../g)!, (b) => parseInt(b, 16))

const nobleSign = (h: Uint8Array, k: Uint8Array) => {
  const sig = secp256k1.Signature.fromBytes(secp256k1.sign(h, k, { prehash: false, format: "recovered" }), "recovered")
  return { r: sig.r, s: sig.s, recovery: sig.recovery! }
}

describe("libsecp256k1's signing and public keys", () => {
  const wasm = signer()!
  // Keys where the scalar's limbs turn, the ends of the range, and any; hashes likewise, with those
  // at and above the order (taken modulo it).
  const edgeKey = fc.oneof(key, fc.constantFrom(1n, 2n, 2n ** 32n, 2n ** 128n, N >> 1n, N - 2n, N - 1n).map(bytes32))
  const edgeHash = fc.oneof(hash, fc.constantFrom(0n, 1n, N - 1n, N, N + 1n, 2n ** 256n - 1n).map(bytes32))

  it("is there (WebAssembly and a secure random source)", () => expect(wasm).toBeDefined())

  it.prop("a signature has @noble/curves' bytes and recovery id", [edgeKey, edgeHash], ([k, h]) => {
    expect(wasm.sign(h, k)).toStrictEqual(nobleSign(h, k))
  }, { fastCheck: { numRuns: 300 } })

  it.prop("a public key is @noble/curves', compressed and not", [edgeKey], ([k]) => {
    expect(wasm.publicKey(k, true)).toStrictEqual(secp256k1.getPublicKey(k, true))
    expect(wasm.publicKey(k, false)).toStrictEqual(secp256k1.getPublicKey(k, false))
  }, { fastCheck: { numRuns: 100 } })

  it("the hashes at and above the order are signed as @noble/curves signs them", () => {
    const k = bytes32(N - 1n)
    for (const h of [N, N + 1n, 2n ** 256n - 1n]) expect(wasm.sign(bytes32(h), k)).toStrictEqual(nobleSign(bytes32(h), k))
  })

  it("0 and numbers from the order on are no keys: nothing signed, no public key", () => {
    for (const k of [0n, N, N + 1n, 2n ** 256n - 1n]) {
      expect(wasm.sign(new Uint8Array(32).fill(1), bytes32(k))).toBeUndefined()
      expect(wasm.publicKey(bytes32(k), true)).toBeUndefined()
    }
  })

  it("the module keeps no private key once it has used it", () => {
    const exports = new WebAssembly.Instance(new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)))).exports
    const at = (name: string) => (exports[name] as WebAssembly.Global).value as number
    const memory = new Uint8Array((exports.memory as WebAssembly.Memory).buffer)
    const call = (name: string, ...args: Array<number>) => (exports[name] as (...a: Array<number>) => number)(...args)
    memory.fill(9, at("io_seed"), at("io_seed") + 32)
    expect(call("init")).toBe(1)
    expect(memory.subarray(at("io_seed"), at("io_seed") + 32).every((b) => b === 0)).toBe(true)
    for (const [name, ...args] of [["sign"], ["public_key", 1], ["public_key", 0]] as const) {
      memory.fill(7, at("io_secret"), at("io_secret") + 32)
      expect(call(name, ...args)).toBeGreaterThan(0)
      expect(memory.subarray(at("io_secret"), at("io_secret") + 32).every((b) => b === 0)).toBe(true)
    }
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

  // The codec imported afresh with the WebAssembly module unavailable: @noble/curves alone.
  const withoutWasm = async (): Promise<typeof Klaytn> => {
    vi.resetModules()
    vi.doMock("../../src/internal/secp256k1Wasm.js", () => ({ recoverer: () => undefined, signer: () => undefined, prepare: () => Promise.resolve() }))
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

  it("sign, publicKeyOfKey and addressOfKey give the same with and without WebAssembly, and refuse the same keys", async () => {
    const codecs = [Klaytn, await withoutWasm()]
    fc.assert(
      fc.property(key, hash, (k, h) => {
        const [wasm, noble] = codecs.map((codec): ReadonlyArray<unknown> => [
          codec.sign(h, k, CHAIN),
          codec.publicKeyOfKey(k),
          codec.publicKeyOfKey(k, { compressed: false }),
          codec.addressOfKey(k)
        ])
        expect(wasm).toStrictEqual(noble)
      }),
      { numRuns: 50 }
    )
    for (const codec of codecs) {
      for (const bad of [0n, N, 2n ** 256n - 1n].map(bytes32).concat([new Uint8Array(31)])) {
        const refusals: ReadonlyArray<Either.Either<unknown, Klaytn.KlaytnError>> = [
          codec.sign(new Uint8Array(32), bad, CHAIN),
          codec.publicKeyOfKey(bad),
          codec.addressOfKey(bad)
        ]
        for (const refused of refusals) {
          expect(Either.isLeft(refused) && refused.left).toMatchObject({ _tag: "KlaytnError", reason: "invalid secp256k1 private key" })
        }
      }
    }
  })
})
