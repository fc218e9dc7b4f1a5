/**
 * Known signers (internal/signers): a signer checked against its remembered point must agree with
 * recovery, in both directions, including once its point has precomputed multiples.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as Klaytn from "../../src/Klaytn.js"
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
        // Enough checks to pass the precomputation threshold: both paths are exercised.
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
      { numRuns: 4 }
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
