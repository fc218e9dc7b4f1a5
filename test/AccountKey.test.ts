/**
 * Account keys: their RLP encoding through the Klaytn codec (as account-update results show it) and
 * their wire form.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { AccountKey } from "../src/index.js"
import * as Klaytn from "../src/Klaytn.js"

// Klaytn's documentation of AccountKeyPublic: x and y of a key, and its RLP (compressed: 0x02, y even).
const x = "dbac81e8486d68eac4e6ef9db617f7fbd79a04a3b323c982a09cdfc61f0ae0e8"
const y = "906d7170ba349c86879fb8006134cbf57bda9db9214a90b607b6b4ab57fc026e"

// The RLP form of a key: the Klaytn codec's encoding of `toKlaytn`.
const toRlp = (key: AccountKey.AccountKey): string =>
  `0x${Buffer.from(Either.getOrThrow(Klaytn.encodeAccountKey(AccountKey.toKlaytn(key)))).toString("hex")}`

describe("AccountKey", () => {
  it("toKlaytn, encoded: legacy and fail as the service shows them, a public key compressed, whatever its form", () => {
    expect(toRlp(AccountKey.Legacy)).toBe("0x01c0")
    expect(toRlp(AccountKey.Fail)).toBe("0x03c0")
    const rlp = `0x02a102${x}`
    for (const publicKey of [`0x04${x}${y}`, `0x${x}${y}`, `0x02${x}`]) expect(toRlp(AccountKey.Public({ publicKey }))).toBe(rlp)
    const multisig = AccountKey.WeightedMultiSig({ threshold: 2, keys: [{ publicKey: `0x02${x}`, weight: 2 }] })
    // 0x04 ‖ rlp([0x02, [[0x02, key]]])
    expect(toRlp(multisig)).toBe(`0x04e602e4e302a102${x}`)
    // 0x05 ‖ rlp([encoding of each role])
    expect(toRlp(AccountKey.RoleBased({ transaction: AccountKey.Fail as AccountKey.RoleKey }))).toBe("0x05c38203c0")
  })

  it("the wire form round-trips through Json, and fromJson gives the key back", () => {
    const key = AccountKey.RoleBased({
      transaction: AccountKey.Public({ publicKey: `0x02${x}` }) as AccountKey.RoleKey,
      feePayer: AccountKey.WeightedMultiSig({ threshold: 1, keys: [{ publicKey: `0x02${x}`, weight: 1 }] }) as AccountKey.RoleKey
    })
    const json = AccountKey.toJson(key)
    expect(json).toEqual({ keyType: 5, key: [{ keyType: 2, key: `0x02${x}` }, { keyType: 4, key: { threshold: 1, weightedKeys: [{ publicKey: `0x02${x}`, weight: 1 }] } }] })
    const decoded = Either.getOrThrow(Schema.decodeUnknownEither(AccountKey.Json)(json))
    expect(toRlp(AccountKey.fromJson(decoded))).toBe(toRlp(key))
    expect(Either.isLeft(Schema.decodeUnknownEither(AccountKey.Json)({ keyType: 1, key: "0x" }))).toBe(true)
  })
})
