import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, Equal, FastCheck as fc, Schema } from "effect"
import * as ChainId from "../src/ChainId.js"
import * as Krn from "../src/Krn.js"

const decodeKrn = Schema.decodeUnknownEither(Krn.Krn)
const encodeKrn = Schema.encodeSync(Krn.Krn)
const decodeAccountPool = Schema.decodeUnknownEither(Krn.AccountPoolKrn)
const decodePool = Schema.decodeUnknownEither(Krn.PoolKrn)

const SERVICES = ["node", "th", "wallet", "anchor"] as const

// Generators for the parts of a valid KRN.
const segment = fc.stringMatching(/^[\x21-\x2b\x2d-\x39\x3b-\x7e]+$/)
const chainText = fc.constantFrom("8217", "1001")
const service = fc.constantFrom(...SERVICES)
const resourceType = fc.oneof(fc.constantFrom(Krn.AccountPoolType, Krn.FeePayerPoolType, Krn.KeyPoolType), segment)
const parts = fc.record({ chain: chainText, service, accountId: segment, resourceType, resourceId: segment })
type Parts = typeof parts extends fc.Arbitrary<infer A> ? A : never
const render = (p: Parts): string => `krn:${p.chain}:${p.service}:${p.accountId}:${p.resourceType}:${p.resourceId}`

const validKrnString = parts.map(render)

const messageOf = (result: Either.Either<unknown, { readonly message: string }>): string => {
  expect(Either.isLeft(result)).toBe(true)
  return Either.isLeft(result) ? result.left.message : ""
}

const SIX_PARTS = "(6 colon-separated parts)"

describe("Krn", () => {
  it("decodes the fixture's pool KRN into its fields", () => {
    const krn = Schema.decodeSync(Krn.Krn)("krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default")
    expect(krn.chainId).toBe(1001)
    expect(krn.service).toBe("wallet")
    expect(krn.accountId).toBe("68ec0e4b-0f61-4e6f-ae35-be865ab23187")
    expect(krn.resourceType).toBe("account-pool")
    expect(krn.resourceId).toBe("default")
    expect(Krn.isAccountPool(krn)).toBe(true)
    expect(Krn.isPool(krn)).toBe(true)
  })

  it.prop("decode ∘ encode is the identity on generated values", [Krn.KrnFromSelf], ([krn]) => {
    const decoded = Schema.decodeSync(Krn.Krn)(encodeKrn(krn))
    expect(Krn.equals(decoded, krn)).toBe(true)
    expect(decoded).toStrictEqual(krn)
  })

  it.prop("encode ∘ decode is the identity on valid strings", [parts], ([p]) => {
    const s = render(p)
    const krn = Schema.decodeSync(Krn.Krn)(s)
    expect(encodeKrn(krn)).toBe(s)
    expect(krn.chainId).toBe(Number(p.chain))
    expect(krn.service).toBe(p.service)
    expect(krn.accountId).toBe(p.accountId)
    expect(krn.resourceType).toBe(p.resourceType)
    expect(krn.resourceId).toBe(p.resourceId)
  })

  it.prop(
    "a wrong number of parts is rejected",
    [fc.array(segment, { maxLength: 10 }).filter((rest) => rest.length !== 5)],
    ([rest]) => {
      // "krn" followed by a valid-looking chain id, service and then the wrong number of parts.
      const filled = rest.map((x, i) => (i === 0 ? "1001" : i === 1 ? "wallet" : x))
      const s = ["krn", ...filled].join(":")
      expect(messageOf(decodeKrn(s))).toContain(SIX_PARTS)
    }
  )

  it.prop(
    "a first part other than \"krn\" is rejected",
    [parts, fc.oneof(segment, fc.constantFrom("", "KRN", "Krn", " krn", "krn ", "urn", "arn"))],
    ([p, head]) => {
      fc.pre(head !== "krn")
      // A function: a head such as "$&" would be read as a replacement pattern (giving back "krn").
      const s = render(p).replace(/^krn/, () => head)
      expect(messageOf(decodeKrn(s))).toContain(SIX_PARTS)
    }
  )

  it.prop(
    "a chain id other than 8217 / 1001 is rejected",
    [parts, fc.oneof(fc.string(), fc.integer().map(String), fc.constantFrom("08217", "8217.0", "1002", "", " 1001", "+1001", "1e3"))],
    ([p, chain]) => {
      fc.pre(chain !== "8217" && chain !== "1001" && !chain.includes(":"))
      const message = messageOf(decodeKrn(render({ ...p, chain })))
      expect(message).toContain("[\"chainId\"]")
      expect(message).toContain("chain id must be \"8217\" (mainnet) or \"1001\" (testnet)")
    }
  )

  it.prop("an unknown service is rejected", [parts, fc.oneof(segment, fc.constantFrom("", "Wallet", "WALLET", "kas", "wallet "))], ([p, svc]) => {
    fc.pre(!(SERVICES as ReadonlyArray<string>).includes(svc))
    const message = messageOf(decodeKrn(render({ ...p, service: svc as Parts["service"] })))
    expect(message).toContain("[\"service\"]")
    expect(message).toContain("service must be one of node, th, wallet, anchor")
  })

  const segmentField = fc.constantFrom("accountId" as const, "resourceType" as const, "resourceId" as const)

  it.prop("an empty segment is rejected, naming the segment", [parts, segmentField], ([p, field]) => {
    const message = messageOf(decodeKrn(render({ ...p, [field]: "" })))
    expect(message).toContain(`["${field}"]`)
    expect(message).toContain("segment must not be empty")
  })

  it.prop(
    "a colon inside a segment is rejected (the part count is then wrong)",
    [parts, segmentField, fc.nat(), fc.constantFrom(":", "::")],
    ([p, field, at, colon]) => {
      const s = p[field]
      const i = at % (s.length + 1)
      const message = messageOf(decodeKrn(render({ ...p, [field]: s.slice(0, i) + colon + s.slice(i) })))
      expect(message).toContain(SIX_PARTS)
    }
  )

  it.prop(
    "a comma or whitespace inside a segment is rejected, naming the segment",
    [parts, segmentField, fc.nat(), fc.constantFrom(",", " ", "\t", "\n", "\r", "\u00a0", "\u3000", "é")],
    ([p, field, at, bad]) => {
      const s = p[field]
      const i = at % (s.length + 1)
      const message = messageOf(decodeKrn(render({ ...p, [field]: s.slice(0, i) + bad + s.slice(i) })))
      expect(message).toContain(`["${field}"]`)
      expect(message).toContain("segment must be visible ASCII without ':' or ','")
    }
  )

  it("rejects non-strings", () => {
    for (const bad of [undefined, null, 1001, {}, ["krn"]]) expect(Either.isLeft(decodeKrn(bad))).toBe(true)
  })

  it.prop("equals and Equal.equals hold exactly for the same wire form", [validKrnString, validKrnString], ([s, t]) => {
    const a = Schema.decodeSync(Krn.Krn)(s)
    const b = Schema.decodeSync(Krn.Krn)(t)
    // A fresh instance with the same fields, not the decoder's cached one.
    const a2 = new Krn.KrnFromSelf({ ...a })
    expect(a2).not.toBe(a)
    expect(Krn.equals(a, a2)).toBe(true)
    expect(Equal.equals(a, a2)).toBe(true)
    expect(Krn.equals(a, b)).toBe(s === t)
    expect(Equal.equals(a, b)).toBe(s === t)
  })

  it.prop("String and JSON.stringify give the wire form", [validKrnString], ([s]) => {
    const krn = Schema.decodeSync(Krn.Krn)(s)
    expect(String(krn)).toBe(s)
    expect(`${krn}`).toBe(s)
    expect(JSON.stringify(krn)).toBe(JSON.stringify(s))
    expect(JSON.parse(JSON.stringify({ krn }))).toStrictEqual({ krn: s })
  })

  it("Krn.decode returns an Either", () => {
    expect(Either.isRight(Krn.decode("krn:8217:node:a:b:c"))).toBe(true)
    expect(Either.isLeft(Krn.decode("krn:8217:node:a:b"))).toBe(true)
  })

  it.prop("withChainId moves a KRN to another chain, keeping the other fields", [Krn.KrnFromSelf, ChainId.ChainId], ([krn, chainId]) => {
    const moved = Krn.withChainId(krn, chainId)
    expect(moved.chainId).toBe(chainId)
    expect(String(moved)).toBe(String(krn).replace(/^krn:\d+:/, `krn:${chainId}:`))
  })
})

describe("PoolKrn and AccountPoolKrn", () => {
  it.prop(
    "AccountPoolKrn accepts only service wallet with resource type account-pool; PoolKrn also feepayer-pool and key-pool",
    [parts],
    ([p]) => {
      const s = render(p)
      const isWallet = p.service === "wallet"
      expect(Either.isRight(decodeAccountPool(s))).toBe(isWallet && p.resourceType === "account-pool")
      const isPool = isWallet && ["account-pool", "feepayer-pool", "key-pool"].includes(p.resourceType)
      expect(Either.isRight(decodePool(s))).toBe(isPool)
      expect(Either.isRight(Schema.decodeUnknownEither(Krn.KeyPoolKrn)(s))).toBe(isWallet && p.resourceType === "key-pool")
      const krn = Schema.decodeSync(Krn.Krn)(s)
      expect(Krn.isAccountPool(krn)).toBe(isWallet && p.resourceType === "account-pool")
      expect(Krn.isPool(krn)).toBe(isPool)
      expect(Krn.isKeyPool(krn)).toBe(isWallet && p.resourceType === "key-pool")
    }
  )

  it("failures say what is expected", () => {
    expect(messageOf(decodeAccountPool("krn:1001:wallet:abc:feepayer-pool:fp"))).toContain("expected an account pool KRN")
    expect(messageOf(decodeAccountPool("krn:1001:node:abc:account-pool:default"))).toContain("expected a wallet pool KRN")
    expect(messageOf(decodePool("krn:1001:wallet:abc:other:default"))).toContain("expected a wallet pool KRN")
    expect(messageOf(Schema.decodeUnknownEither(Krn.KeyPoolKrn)("krn:1001:wallet:abc:account-pool:default"))).toContain("expected a key pool KRN")
  })

  it("keyPool builds a key pool KRN, default pool by default", () => {
    const built = Either.getOrThrow(Krn.keyPool(ChainId.Testnet, "676de94a-9ca9-45e2-a67b-ed72178cdbcc"))
    expect(String(built)).toBe("krn:1001:wallet:676de94a-9ca9-45e2-a67b-ed72178cdbcc:key-pool:default")
    expect(Krn.isKeyPool(built)).toBe(true)
  })

  it.prop("generated AccountPoolKrn values are account pools and round-trip", [Schema.typeSchema(Krn.AccountPoolKrn)], ([krn]) => {
    expect(Krn.isAccountPool(krn)).toBe(true)
    const decoded = Schema.decodeSync(Krn.AccountPoolKrn)(Schema.encodeSync(Krn.AccountPoolKrn)(krn))
    expect(Krn.equals(decoded, krn)).toBe(true)
  })

  it.prop("generated PoolKrn values are pools", [Arbitrary.make(Schema.typeSchema(Krn.PoolKrn))], ([krn]) => {
    expect(Krn.isPool(krn)).toBe(true)
    expect(Either.isRight(decodePool(String(krn)))).toBe(true)
  })

  it.prop("accountPool builds the expected KRN", [ChainId.ChainId, segment, segment], ([chainId, accountId, pool]) => {
    const built = Krn.accountPool(chainId, accountId, pool)
    expect(Either.isRight(built)).toBe(true)
    if (Either.isRight(built)) {
      expect(String(built.right)).toBe(`krn:${chainId}:wallet:${accountId}:account-pool:${pool}`)
      expect(Krn.isAccountPool(built.right)).toBe(true)
      expect(Krn.equals(built.right, Schema.decodeSync(Krn.AccountPoolKrn)(String(built.right)))).toBe(true)
    }
  })

  it("accountPool defaults to the default pool", () => {
    const built = Krn.accountPool(ChainId.Testnet, "68ec0e4b-0f61-4e6f-ae35-be865ab23187")
    expect(Either.map(built, String)).toStrictEqual(
      Either.right("krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default")
    )
  })

  it.prop(
    "accountPool returns Left for an empty, colon- or comma-bearing pool name",
    [ChainId.ChainId, segment, fc.oneof(fc.constant(""), fc.tuple(segment, fc.constantFrom(":", ","), fc.string()).map(([a, b, c]) => a + b + c))],
    ([chainId, accountId, pool]) => {
      const message = messageOf(Krn.accountPool(chainId, accountId, pool))
      expect(message).toContain("[\"resourceId\"]")
    }
  )

  it("accountPool returns Left for a bad account id", () => {
    expect(messageOf(Krn.accountPool(ChainId.Mainnet, "a:b"))).toContain("[\"accountId\"]")
    expect(messageOf(Krn.accountPool(ChainId.Mainnet, ""))).toContain("[\"accountId\"]")
  })
})
