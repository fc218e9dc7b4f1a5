/**
 * The emulator's variable-time signing (chain/Ecdsa.ts) against @noble/curves' constant-time one,
 * which the client signs with: the same signatures, public keys and refusals.
 */
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { FastCheck as fc } from "effect"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Ecdsa from "../src/chain/Ecdsa.js"

const N = secp256k1.Point.CURVE().n
const bytes32 = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, "0"), "hex"))

// Private keys over the whole range, the edges included.
const privateKey = fc.oneof(
  fc.bigInt({ min: 1n, max: N - 1n }),
  fc.constantFrom(1n, 2n, N - 1n, N - 2n, N >> 1n, (N >> 1n) + 1n)
).map(bytes32)
const hash = fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom(new Uint8Array(32), new Uint8Array(32).fill(255), bytes32(N), bytes32(N - 1n)))

describe("Ecdsa", () => {
  it("signs as the client does, byte for byte (RFC 6979 nonces, low S, V by chain)", () => {
    fc.assert(
      fc.property(privateKey, hash, fc.constantFrom(1001, 8217, 1), (key, h, chainId) => {
        expect(Ecdsa.sign(h, key, chainId)).toStrictEqual(Klaytn.sign(h, key, chainId))
      }),
      { numRuns: 300 }
    )
  })

  it("derives the public keys @noble/curves does, compressed and not", () => {
    fc.assert(
      fc.property(privateKey, (key) => {
        expect(Ecdsa.publicKey(key, false)).toStrictEqual(secp256k1.getPublicKey(key, false))
        expect(Ecdsa.publicKey(key, true)).toStrictEqual(secp256k1.getPublicKey(key, true))
      }),
      { numRuns: 200 }
    )
  })

  it("refuses what the client refuses, in its words", () => {
    const key = bytes32(12345n)
    for (const [h, k] of [[new Uint8Array(31), key], [new Uint8Array(33), key], [new Uint8Array(32), new Uint8Array(32)], [new Uint8Array(32), bytes32(N)], [
      new Uint8Array(32),
      new Uint8Array(31).fill(1)
    ]] as const) {
      const ours = Ecdsa.sign(h, k, 1001)
      expect(ours._tag).toBe("Left")
      expect(ours).toStrictEqual(Klaytn.sign(h, k, 1001))
    }
    expect(() => Ecdsa.publicKey(new Uint8Array(32), false)).toThrow()
  })
})
