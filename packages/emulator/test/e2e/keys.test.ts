/**
 * The client's key operations against the emulator: keys created in the member's default key
 * pool, streamed page by page, fetched, used to sign a hash (the signature recovered independently
 * to the key's public key) and deleted — the client's schemas decode every answer of the emulator.
 */
import { expect, layer } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Chunk, Effect, Stream } from "effect"
import { Key, Krn, WalletClient } from "effect-kas-wallet"
import { wallet } from "./support.js"

layer(wallet())("the client's key operations against the emulator", (it) => {
  it.effect("create, stream, get, sign (the signer recovered independently), delete", () =>
    Effect.gen(function*() {
      const created = yield* WalletClient.createKeys(3)
      expect(created.items).toHaveLength(3)
      const pool = created.items[0]!.krn
      expect(Krn.isKeyPool(pool)).toBe(true)
      const listed = Chunk.toReadonlyArray(yield* Stream.runCollect(WalletClient.keys({ krn: pool, pageSize: 2 })))
      expect(new Set(listed.map((k) => k.keyId.toString()))).toEqual(new Set(created.items.map((k) => k.keyId.toString())))
      const key = yield* WalletClient.getKey(created.items[1]!.keyId)
      expect(key.publicKey.toLowerCase()).toBe(created.items[1]!.publicKey.toLowerCase())

      const hash = `0x${"5a".repeat(32)}`
      const { signedData } = yield* WalletClient.signWithKey(key.keyId, hash)
      const { r, s, v } = Key.signatureParts(signedData)
      const point = new secp256k1.Signature(BigInt(r), BigInt(s), v).recoverPublicKey(Buffer.from(hash.slice(2), "hex"))
      expect(`0x${point.toHex(false)}`).toBe(key.publicKey.toLowerCase())

      expect((yield* WalletClient.deleteKey(key.keyId)).status).toBe("deleted")
      const gone = yield* Effect.flip(WalletClient.getKey(key.keyId))
      expect(gone).toMatchObject({ code: 1061010 })
    }))
})
