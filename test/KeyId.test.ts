import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, Equal, FastCheck as fc, Hash, Schema } from "effect"
import * as Account from "../src/Account.js"
import * as KeyId from "../src/KeyId.js"
import { make as makeKeyId } from "../src/internal/keyId.js"
import * as Krn from "../src/Krn.js"

const decodeKeyId = Schema.decodeUnknownEither(KeyId.KeyId)
const encodeKeyId = Schema.encodeSync(KeyId.KeyId)

const FIXTURE_POOL = "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default"
const FIXTURE_HEX = "0x4cbbcb974e32a7960e1b356edf60087613101919ed83199f12e872cba068a50f"
const FIXTURE = `${FIXTURE_POOL}:${FIXTURE_HEX}`

const segment = fc.oneof(
  fc.stringMatching(/^[\x21-\x2b\x2d-\x39\x3b-\x7e]+$/),
  // Segments that look like key hex: the key part is only the one after the last colon.
  fc.stringMatching(/^0x[0-9a-fA-F]{1,8}$/)
)
const keyHex = fc.tuple(fc.constantFrom("0x"), fc.stringMatching(/^[0-9a-fA-F]{1,80}$/)).map(([p, h]) => p + h)
const poolKrnString = fc
  .record({
    chain: fc.constantFrom("8217", "1001"),
    accountId: fc.oneof(fc.uuid(), segment),
    type: fc.constantFrom("account-pool", "feepayer-pool"),
    name: segment
  })
  .map(({ accountId, chain, name, type }) => `krn:${chain}:wallet:${accountId}:${type}:${name}`)

const messageOf = (result: Either.Either<unknown, { readonly message: string }>): string => {
  expect(Either.isLeft(result)).toBe(true)
  return Either.isLeft(result) ? result.left.message : ""
}

describe("KeyId", () => {
  it("decodes the fixture's key id and exposes its parts", () => {
    const keyId = Schema.decodeSync(KeyId.KeyId)(FIXTURE)
    expect(String(keyId.poolKrn)).toBe(FIXTURE_POOL)
    expect(keyId.poolKrn.resourceId).toBe("default")
    expect(keyId.keyHex).toBe(FIXTURE_HEX)
    expect(KeyId.isKeyId(keyId)).toBe(true)
    expect(KeyId.isKeyId(FIXTURE)).toBe(false)
  })

  it.prop("decode ∘ encode is the identity on generated key ids", [KeyId.KeyIdFromSelf], ([keyId]) => {
    const decoded = Schema.decodeSync(KeyId.KeyId)(encodeKeyId(keyId))
    expect(Equal.equals(decoded, keyId)).toBe(true)
    expect(decoded.keyHex).toBe(keyId.keyHex)
    expect(Krn.equals(decoded.poolKrn, keyId.poolKrn)).toBe(true)
  })

  it.prop("encode ∘ decode is the identity on valid strings, and the parts are exposed", [poolKrnString, keyHex], ([pool, hex]) => {
    const s = `${pool}:${hex}`
    const keyId = Schema.decodeSync(KeyId.KeyId)(s)
    expect(encodeKeyId(keyId)).toBe(s)
    expect(String(keyId.poolKrn)).toBe(pool)
    expect(keyId.keyHex).toBe(hex)
  })

  it.prop("String and JSON.stringify give the wire form", [poolKrnString, keyHex], ([pool, hex]) => {
    const s = `${pool}:${hex}`
    const keyId = Schema.decodeSync(KeyId.KeyId)(s)
    expect(String(keyId)).toBe(s)
    expect(JSON.stringify({ keyId })).toBe(JSON.stringify({ keyId: s }))
  })

  it.prop("Equal.equals and Hash agree with the wire form", [poolKrnString, keyHex, poolKrnString, keyHex], ([p1, h1, p2, h2]) => {
    const a = Schema.decodeSync(KeyId.KeyId)(`${p1}:${h1}`)
    const a2 = makeKeyId(Schema.decodeSync(Krn.PoolKrn)(p1), h1)
    const b = Schema.decodeSync(KeyId.KeyId)(`${p2}:${h2}`)
    expect(Equal.equals(a, a2)).toBe(true)
    expect(Hash.hash(a)).toBe(Hash.hash(a2))
    expect(Equal.equals(a, b)).toBe(`${p1}:${h1}` === `${p2}:${h2}`)
  })

  it("splits at the last colon, even when pool segments look like key hex", () => {
    const pool = "krn:8217:wallet:0xabc:account-pool:0x12"
    const keyId = Schema.decodeSync(KeyId.KeyId)(`${pool}:0xff`)
    expect(String(keyId.poolKrn)).toBe(pool)
    expect(keyId.poolKrn.accountId).toBe("0xabc")
    expect(keyId.keyHex).toBe("0xff")
  })

  it.each([
    ["no key part", FIXTURE_POOL],
    ["an empty key part", `${FIXTURE_POOL}:`],
    ["only 0x", `${FIXTURE_POOL}:0x`],
    ["no 0x prefix", `${FIXTURE_POOL}:${FIXTURE_HEX.slice(2)}`],
    ["an upper-case 0X prefix", `${FIXTURE_POOL}:0X${FIXTURE_HEX.slice(2)}`],
    ["a non-hex digit", `${FIXTURE_POOL}:${FIXTURE_HEX.slice(0, -1)}g`],
    ["a space", `${FIXTURE_POOL}:${FIXTURE_HEX} `],
    ["no colon at all", "0x1234"],
    ["the empty string", ""]
  ])("rejects a key id with %s", (_, s) => {
    expect(messageOf(decodeKeyId(s))).toContain("the part after the last ':' must be 0x followed by hex digits")
  })

  it.each([
    ["a non-wallet service", `krn:1001:node:abc:account-pool:default:${FIXTURE_HEX}`],
    ["a non-pool resource type", `krn:1001:wallet:abc:account:default:${FIXTURE_HEX}`]
  ])("rejects a key id whose prefix is %s", (_, s) => {
    const message = messageOf(decodeKeyId(s))
    expect(message).toContain("[\"poolKrn\"]")
    expect(message).toContain("expected a wallet pool KRN")
  })

  it.each([
    ["a bad chain id", `krn:1002:wallet:abc:account-pool:default:${FIXTURE_HEX}`, "chain id must be"],
    ["too few parts", `krn:1001:wallet:account-pool:default:${FIXTURE_HEX}`, "6 colon-separated parts"],
    ["too many parts", `krn:1001:wallet:x:abc:account-pool:default:${FIXTURE_HEX}`, "6 colon-separated parts"]
  ])("rejects a key id whose prefix has %s", (_, s, rule) => {
    const message = messageOf(decodeKeyId(s))
    expect(message).toContain("[\"poolKrn\"]")
    expect(message).toContain(rule)
  })

  it.prop("rejects a pool KRN followed by a key part that is not 0x + hex", [poolKrnString, fc.string()], ([pool, tail]) => {
    fc.pre(!/^0x[0-9a-fA-F]+$/.test(tail))
    // A tail with a colon moves the split point; either way the key id must be rejected.
    expect(Either.isLeft(decodeKeyId(`${pool}:${tail}`))).toBe(true)
  })

  it("make validates the key hex", () => {
    const pool = Schema.decodeSync(Krn.PoolKrn)(FIXTURE_POOL)
    expect(Either.map(KeyId.make(pool, FIXTURE_HEX), String)).toStrictEqual(Either.right(FIXTURE))
    expect(Either.isLeft(KeyId.make(pool, "1234"))).toBe(true)
    expect(Either.isLeft(KeyId.make(pool, "0x"))).toBe(true)
    expect(KeyId.isKeyHex("0xAbC")).toBe(true)
    expect(KeyId.isKeyHex("0x")).toBe(false)
  })

  it.prop(
    "in generated accounts the key id's pool KRN is the account's krn, on the account's chain",
    [Arbitrary.make(Account.Account)],
    ([account]) => {
      expect(Krn.equals(account.keyId.poolKrn, account.krn)).toBe(true)
      expect(account.krn.chainId).toBe(account.chainId)
      expect(String(account.keyId).startsWith(`${String(account.krn)}:0x`)).toBe(true)
    },
    { fastCheck: { numRuns: 50 } }
  )
})
