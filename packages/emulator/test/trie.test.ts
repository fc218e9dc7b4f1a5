/**
 * A contract's storage root (what `klay_getAccount` answers) against @ethereumjs/mpt, an
 * independent Merkle Patricia trie: the same root for any set of slots.
 */
import { describe, expect, it } from "@effect/vitest"
import { createMPT } from "@ethereumjs/mpt"
import { RLP } from "@ethereumjs/rlp"
import { Effect, FastCheck as fc } from "effect"
import * as Trie from "../src/chain/Trie.js"
import { hex, unhex } from "./support/klaytn.js"

const word = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex)
// Values as the store keeps them: 32-byte words, never zero (a zero slot has no row).
const value = fc.tuple(fc.integer({ min: 0, max: 31 }), fc.uint8Array({ minLength: 1, maxLength: 32 })).map(([zeros, bytes]) => {
  const out = new Uint8Array(32)
  out.set(bytes.subarray(0, 32 - zeros), zeros)
  if (out.every((b) => b === 0)) out[31] = 1
  return hex(out)
})

describe("Trie.storageRoot", () => {
  it.effect("no slot: the empty trie's root", () =>
    Effect.gen(function*() {
      const trie = yield* Effect.promise(() => createMPT({ useKeyHashing: true }))
      expect(Trie.storageRoot([])).toBe(hex(trie.root()))
      expect(Trie.EmptyRoot).toBe("0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421")
    }))

  it.effect.prop("any slots: the root @ethereumjs/mpt computes (keys hashed, values RLP without leading zeros)", [fc.uniqueArray(fc.tuple(word, value), { maxLength: 40, selector: ([slot]) => slot })], ([slots]) =>
    Effect.gen(function*() {
      const trie = yield* Effect.promise(() => createMPT({ useKeyHashing: true }))
      for (const [slot, v] of slots) {
        const bytes = unhex(v)
        yield* Effect.promise(() => trie.put(unhex(slot), RLP.encode(bytes.subarray(bytes.findIndex((b) => b !== 0)))))
      }
      expect(Trie.storageRoot(slots.map(([slot, v]) => ({ slot, value: v })))).toBe(hex(trie.root()))
    }), { fastCheck: { numRuns: 20 } })
})
