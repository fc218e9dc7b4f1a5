import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, ParseResult, Schema } from "effect"
import * as Account from "../src/Account.js"
import * as DecodeAccounts from "../src/internal/decodeAccounts.js"
import * as Address from "../src/Address.js"
import * as ErrorBody from "../src/ErrorBody.js"
import * as KeyId from "../src/KeyId.js"
import * as Krn from "../src/Krn.js"
import { binaryString } from "./support/binaryString.js"

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

type Json = Record<string, unknown>

const fixturesDir = new URL("./fixtures/", import.meta.url)
const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(name, fixturesDir), "utf8")) as Json

const decodeAccountSchema = Schema.decodeUnknownEither(Account.Account)
const decodePageSchema = Schema.decodeUnknownEither(Account.AccountPage)
const encodeAccount = Schema.encodeSync(Account.Account)
const encodePage = Schema.encodeSync(Account.AccountPage)

/** A deep copy through JSON text, as the client sees a response body. */
const viaJson = <A>(a: A): Json => JSON.parse(JSON.stringify(a)) as Json

const messageOf = (result: Either.Either<unknown, ParseResult.ParseError>): string => {
  expect(Either.isLeft(result)).toBe(true)
  if (Either.isRight(result)) return ""
  expect(ParseResult.isParseError(result.left)).toBe(true)
  return result.left.message
}

/** Fast path and schema: both Right with deep-equal values, or both Left with the same message. */
const expectSameOutcome = <A>(
  fast: Either.Either<A, ParseResult.ParseError>,
  slow: Either.Either<A, ParseResult.ParseError>
): void => {
  if (Either.isRight(slow)) {
    expect(Either.isRight(fast)).toBe(true)
    if (Either.isRight(fast)) expect(fast.right).toStrictEqual(slow.right)
  } else {
    expect(Either.isLeft(fast)).toBe(true)
    if (Either.isLeft(fast)) expect(fast.left.message).toBe(slow.left.message)
  }
}

const flipCaseAt = (s: string, i: number): string => {
  const c = s[i]!
  return s.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + s.slice(i + 1)
}

/**
 * Flips the case of one letter of a checksummed address so that it stays mixed-case (a single-case
 * address is valid whatever its checksum).
 */
const breakChecksum = (address: string): string => {
  for (let i = 2; i < address.length; i++) {
    if (!/[a-fA-F]/.test(address[i]!)) continue
    const digits = flipCaseAt(address, i).slice(2)
    if (digits !== digits.toLowerCase() && digits !== digits.toUpperCase()) return flipCaseAt(address, i)
  }
  throw new Error(`no letter of ${address} can be flipped into a mixed-case address`)
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

describe("fixtures", () => {
  const names = readdirSync(fixturesDir).filter((n) => n.endsWith(".json")).sort()
  const dataFixtures = names.filter((n) => !n.startsWith("error-"))

  it("the data fixtures are the account and the page", () => {
    expect(dataFixtures).toStrictEqual(["account-create-200-success.json", "accounts-list-200-success.json"])
  })

  it.each(dataFixtures)("%s decodes with the schema and the fast decoder, identically", (name) => {
    const body = fixture(name)
    if ("items" in body) {
      const slow = decodePageSchema(body)
      const fast = DecodeAccounts.decodePage(body)
      expect(Either.isRight(slow)).toBe(true)
      expectSameOutcome(fast, slow)
      if (Either.isRight(slow)) {
        const items = body.items as ReadonlyArray<Json>
        expect(slow.right.items.length).toBe(items.length)
        expect(slow.right.cursor).toBe(body.cursor)
        // Real addresses are already checksummed: decoding keeps them as they are.
        expect(slow.right.items.map((a) => a.address)).toStrictEqual(items.map((a) => a.address))
        // The wire form comes back exactly.
        expect(viaJson(encodePage(slow.right))).toStrictEqual(body)
      }
    } else {
      const slow = decodeAccountSchema(body)
      const fast = DecodeAccounts.decodeAccount(body)
      expect(Either.isRight(slow)).toBe(true)
      expectSameOutcome(fast, slow)
      if (Either.isRight(slow)) {
        const account = slow.right
        expect(account.address).toBe(body.address)
        expect(account.chainId).toBe(1001)
        expect(account.createdAt).toBe(account.updatedAt)
        expect(String(account.krn)).toBe(body.krn)
        expect(String(account.keyId)).toBe(body.keyId)
        expect(Krn.equals(account.keyId.poolKrn, account.krn)).toBe(true)
        expect(account.krn.resourceId).toBe(Krn.DefaultPoolName)
        expect(account).not.toHaveProperty("multiSigKeys")
        expect(account).not.toHaveProperty("threshold")
        expect(viaJson(encodeAccount(account))).toStrictEqual(body)
      }
    }
  })

  it("the page fixture is the last page, newest first", () => {
    const page = Either.getOrThrow(DecodeAccounts.decodePage(fixture("accounts-list-200-success.json")))
    expect(Account.isLastPage(page)).toBe(true)
    const created = page.items.map((a) => a.createdAt)
    expect(created).toStrictEqual([...created].sort((a, b) => b - a))
  })
})

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------

describe("round trips", () => {
  it.prop("Account: decode(encode(x)) equals x, also through JSON text", [Account.Account], ([account]) => {
    const encoded = encodeAccount(account)
    expect(typeof encoded.keyId).toBe("string")
    expect(typeof encoded.krn).toBe("string")
    expect(Schema.decodeSync(Account.Account)(encoded)).toStrictEqual(account)
    expect(Schema.decodeUnknownSync(Account.Account)(viaJson(encoded))).toStrictEqual(account)
    expect(Either.getOrThrow(DecodeAccounts.decodeAccount(viaJson(encoded)))).toStrictEqual(account)
  })

  it.prop("AccountPage: decode(encode(x)) equals x, also through JSON text", [Account.AccountPage], ([page]) => {
    const encoded = encodePage(page)
    expect(Schema.decodeSync(Account.AccountPage)(encoded)).toStrictEqual(page)
    expect(Schema.decodeUnknownSync(Account.AccountPage)(viaJson(encoded))).toStrictEqual(page)
    expect(Either.getOrThrow(DecodeAccounts.decodePage(viaJson(encoded)))).toStrictEqual(page)
  }, { fastCheck: { numRuns: 50 } })

  it.prop("Schema.equivalence agrees after a round trip", [Account.Account], ([account]) => {
    const equivalent = Schema.equivalence(Account.Account)
    const back = Schema.decodeUnknownSync(Account.Account)(viaJson(encodeAccount(account)))
    expect(equivalent(back, account)).toBe(true)
  }, { fastCheck: { numRuns: 50 } })
})

// ---------------------------------------------------------------------------------------------
// Optional and defaulted fields, cross-field rules
// ---------------------------------------------------------------------------------------------

const baseAccount = fixture("account-create-200-success.json")
const basePage = fixture("accounts-list-200-success.json")

const bothAccount = (u: unknown) => {
  const slow = decodeAccountSchema(u)
  expectSameOutcome(DecodeAccounts.decodeAccount(u), slow)
  return slow
}
const bothPage = (u: unknown) => {
  const slow = decodePageSchema(u)
  expectSameOutcome(DecodeAccounts.decodePage(u), slow)
  return slow
}

describe("Account fields", () => {
  it("a page without items decodes as an empty page", () => {
    expect(bothPage({ cursor: "" })).toStrictEqual(Either.right({ items: [], cursor: "" }))
    expect(bothPage({ cursor: "abc" })).toStrictEqual(Either.right({ items: [], cursor: "abc" }))
    expect(bothPage({ cursor: "", items: [] })).toStrictEqual(Either.right({ items: [], cursor: "" }))
    // ... but items must be an array when present, and the cursor is required.
    expect(Either.isLeft(bothPage({ cursor: "", items: null }))).toBe(true)
    expect(Either.isLeft(bothPage({ cursor: "", items: {} }))).toBe(true)
    expect(messageOf(bothPage({ items: [] }))).toContain("[\"cursor\"]")
    expect(messageOf(bothPage({ cursor: 1 }))).toContain("[\"cursor\"]")
  })

  it("an encoded page always carries items", () => {
    expect(encodePage({ items: [], cursor: "" as never })).toStrictEqual({ items: [], cursor: "" })
  })

  const multiSigKeys = [
    { publicKey: baseAccount.publicKey, weight: 1 },
    { publicKey: `0x02${"ab".repeat(32)}`, weight: 2 }
  ]

  it.each([
    ["absent", {}],
    ["null", { multiSigKeys: null, threshold: null }],
    ["set", { multiSigKeys, threshold: 2 }],
    ["mixed", { multiSigKeys: null, threshold: 0 }],
    ["only multiSigKeys", { multiSigKeys: [] }]
  ])("multiSigKeys / threshold %s: accepted and preserved", (_, extra) => {
    const input = { ...baseAccount, ...extra }
    const result = bothAccount(input)
    expect(Either.isRight(result)).toBe(true)
    if (Either.isRight(result)) {
      for (const key of ["multiSigKeys", "threshold"] as const) {
        if (key in extra) expect(result.right[key]).toStrictEqual((extra as Json)[key])
        else expect(result.right).not.toHaveProperty(key)
      }
      expect(viaJson(encodeAccount(result.right))).toStrictEqual(input)
    }
  })

  it.each([
    ["multiSigKeys not an array", { multiSigKeys: {} }, "[\"multiSigKeys\"]"],
    ["a weight of 0", { multiSigKeys: [{ publicKey: baseAccount.publicKey, weight: 0 }] }, "weight must be a positive integer"],
    ["a fractional weight", { multiSigKeys: [{ publicKey: baseAccount.publicKey, weight: 1.5 }] }, "[\"weight\"]"],
    ["a bad multisig public key", { multiSigKeys: [{ publicKey: "0x04", weight: 1 }] }, "public key must be"],
    ["a negative threshold", { threshold: -1 }, "threshold must be a non-negative integer"],
    ["a string threshold", { threshold: "1" }, "[\"threshold\"]"]
  ])("rejects %s", (_, extra, expected) => {
    expect(messageOf(bothAccount({ ...baseAccount, ...extra }))).toContain(expected)
  })

  it("a key id of another pool is rejected, naming keyId", () => {
    const keyId = String(baseAccount.keyId).replace(":account-pool:default:", ":account-pool:other:")
    const message = messageOf(bothAccount({ ...baseAccount, keyId }))
    expect(message).toContain("[\"keyId\"]")
    expect(message).toContain("key id must belong to the account's pool")
    // Also a fee-payer pool of the same name, or a key id on the other chain.
    expect(messageOf(bothAccount({ ...baseAccount, keyId: keyId.replace(":account-pool:other:", ":feepayer-pool:default:") })))
      .toContain("[\"keyId\"]")
    expect(messageOf(bothAccount({ ...baseAccount, keyId: String(baseAccount.keyId).replace("krn:1001:", "krn:8217:") })))
      .toContain("[\"keyId\"]")
  })

  it("a pool KRN on another chain than chainId is rejected, naming krn", () => {
    const krn = String(baseAccount.krn).replace("krn:1001:", "krn:8217:")
    const keyId = String(baseAccount.keyId).replace("krn:1001:", "krn:8217:")
    const message = messageOf(bothAccount({ ...baseAccount, krn, keyId }))
    expect(message).toContain("[\"krn\"]")
    expect(message).toContain("pool KRN is on chain 8217, the account on chain 1001")
  })

  it("krn must be an account pool", () => {
    const krn = String(baseAccount.krn).replace(":account-pool:", ":feepayer-pool:")
    const keyId = String(baseAccount.keyId).replace(":account-pool:", ":feepayer-pool:")
    const message = messageOf(bothAccount({ ...baseAccount, krn, keyId }))
    expect(message).toContain("[\"krn\"]")
    expect(message).toContain("expected an account pool KRN")
  })

  it("single-case addresses are accepted and checksummed", () => {
    const address = String(baseAccount.address)
    for (const variant of [address.toLowerCase(), `0x${address.slice(2).toUpperCase()}`]) {
      const result = bothAccount({ ...baseAccount, address: variant })
      expect(Either.map(result, (a) => a.address)).toStrictEqual(Either.right(address))
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Error messages name the field, the item and the rule
// ---------------------------------------------------------------------------------------------

describe("error messages", () => {
  const items = basePage.items as ReadonlyArray<Json>
  const pageWith = (index: number, patch: Json): Json => ({
    ...basePage,
    items: items.map((item, i) => (i === index ? { ...item, ...patch } : item))
  })

  it.each(items.map((_, i) => i))("a bad address in item %i names the item, the field and the rule", (i) => {
    const u = pageWith(i, { address: breakChecksum(String(items[i]!.address)) })
    const message = messageOf(DecodeAccounts.decodePage(u))
    expect(message).toContain(`[${i}]`)
    expect(message).toContain("[\"items\"]")
    expect(message).toContain("[\"address\"]")
    expect(message).toContain("invalid EIP-55 checksum")
    expect(message).toBe(messageOf(decodePageSchema(u)))
  })

  it("a malformed address names the shape rule", () => {
    const message = messageOf(DecodeAccounts.decodePage(pageWith(3, { address: "0x1234" })))
    expect(message).toContain("[3]")
    expect(message).toContain("[\"address\"]")
    expect(message).toContain("expected 0x followed by 40 hex digits, got \"0x1234\"")
  })

  it("a bad chainId names the field and the rule", () => {
    const message = messageOf(DecodeAccounts.decodePage(pageWith(5, { chainId: 1002 })))
    expect(message).toContain("[5]")
    expect(message).toContain("[\"chainId\"]")
    expect(message).toContain("chain id must be 8217 (mainnet) or 1001 (testnet), got 1002")
    // A valid chain id that is not the pool's: the krn rule.
    const other = messageOf(DecodeAccounts.decodePage(pageWith(5, { chainId: 8217 })))
    expect(other).toContain("[5]")
    expect(other).toContain("[\"krn\"]")
    expect(other).toContain("the account on chain 8217")
  })

  it("a bad keyId names the field and the rule", () => {
    const malformed = messageOf(DecodeAccounts.decodePage(pageWith(2, { keyId: `${String(items[2]!.krn)}:abc` })))
    expect(malformed).toContain("[2]")
    expect(malformed).toContain("[\"keyId\"]")
    expect(malformed).toContain("must be 0x followed by hex digits")
    const otherPool = messageOf(DecodeAccounts.decodePage(pageWith(2, { keyId: String(items[2]!.keyId).replace(":default:", ":payroll:") })))
    expect(otherPool).toContain("[2]")
    expect(otherPool).toContain("[\"keyId\"]")
    expect(otherPool).toContain("key id must belong to the account's pool")
  })

  it("bad timestamps and public keys name their field", () => {
    const ms = messageOf(DecodeAccounts.decodePage(pageWith(1, { createdAt: 1599187293000 })))
    expect(ms).toContain("[\"createdAt\"]")
    expect(ms).toContain("milliseconds")
    const key = messageOf(DecodeAccounts.decodePage(pageWith(1, { publicKey: "0x05" })))
    expect(key).toContain("[\"publicKey\"]")
    expect(key).toContain("public key must be")
    expect(messageOf(DecodeAccounts.decodePage(pageWith(1, { updatedAt: undefined })))).toContain("[\"updatedAt\"]")
  })

  it("a failure in a full page does not print the page", () => {
    const item = items[0]!
    const big = { cursor: "", items: Array.from({ length: 1000 }, (_, i) => (i === 999 ? { ...item, createdAt: -1 } : item)) }
    const message = messageOf(DecodeAccounts.decodePage(big))
    expect(message).toContain("[999]")
    expect(message).toContain("[\"createdAt\"]")
    expect(message.length).toBeLessThan(2000)
  })
})

// ---------------------------------------------------------------------------------------------
// The fast path is the schema: equivalence on generated and mutated input
// ---------------------------------------------------------------------------------------------

const ACCOUNT_FIELDS = [
  "address", "chainId", "createdAt", "updatedAt", "keyId", "krn", "publicKey", "multiSigKeys", "threshold"
] as const

/** Encoded accounts as JSON objects. */
const accountJson = Arbitrary.make(Account.Account).map((a) => viaJson(encodeAccount(a)))

/** Encoded pages as JSON objects; half of them with all items in one pool, as real pages are. */
const pageJson = fc
  .tuple(Arbitrary.make(Account.AccountPage), fc.boolean())
  .map(([page, onePool]) => {
    const json = viaJson(encodePage(page))
    const items = json.items as Array<Json>
    if (onePool && items.length > 0) {
      const { chainId, krn } = items[0]!
      for (const item of items) {
        item.keyId = `${String(krn)}:${String(item.keyId).slice(String(item.krn).length + 1)}`
        item.krn = krn
        item.chainId = chainId
      }
    }
    return json
  })

const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom<unknown>(
    "", null, 0, -1, 1.5, NaN, Infinity, 1001, 8217, "1001", 1599187293000, "0x", [], {}, true, undefined,
    "krn:1001:wallet:x:account-pool:default", `0x04${"0".repeat(128)}`, "0x0000000000000000000000000000000000000000"
  )
)

/** One change to an item or page; the indices are taken modulo the actual sizes. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant("junk" as const), item: fc.nat(), field: fc.constantFrom(...ACCOUNT_FIELDS), value: junk }),
  fc.record({ kind: fc.constant("swap" as const), item: fc.nat(), field: fc.constantFrom(...ACCOUNT_FIELDS), other: accountJson }),
  fc.record({ kind: fc.constant("delete" as const), item: fc.nat(), field: fc.constantFrom(...ACCOUNT_FIELDS) }),
  fc.record({ kind: fc.constant("null" as const), item: fc.nat(), field: fc.constantFrom(...ACCOUNT_FIELDS), value: fc.constantFrom(null, undefined) }),
  fc.record({ kind: fc.constant("flipAddress" as const), item: fc.nat(), at: fc.integer({ min: 0, max: 41 }) }),
  fc.record({ kind: fc.constant("caseAddress" as const), item: fc.nat(), upper: fc.boolean() }),
  fc.record({ kind: fc.constant("otherChain" as const), item: fc.nat() }),
  fc.record({ kind: fc.constant("keyId" as const), item: fc.nat(), edit: fc.constantFrom("pool", "0X", "tail", "empty", "colon", "chain") }),
  fc.record({
    kind: fc.constant("multiSig" as const),
    item: fc.nat(),
    keys: fc.array(fc.record({ publicKey: fc.oneof(fc.constant(`0x03${"cd".repeat(32)}`), junk), weight: fc.oneof(fc.integer({ min: -1, max: 3 }), junk) }), { maxLength: 3 }),
    threshold: fc.oneof(fc.integer({ min: -1, max: 3 }), junk)
  }),
  fc.record({ kind: fc.constant("unknownField" as const), item: fc.nat(), key: fc.oneof(fc.string(), fc.constant("__proto__")), value: junk }),
  fc.record({ kind: fc.constant("pageUnknownField" as const), key: fc.oneof(fc.string(), fc.constant("__proto__")), value: junk }),
  fc.record({ kind: fc.constant("pageDelete" as const), field: fc.constantFrom("items", "cursor") }),
  fc.record({ kind: fc.constant("pageJunk" as const), field: fc.constantFrom("items", "cursor"), value: junk }),
  fc.record({ kind: fc.constant("itemJunk" as const), item: fc.nat(), value: junk })
)
type Mutation = typeof mutation extends fc.Arbitrary<infer A> ? A : never

const defineOwn = (o: object, key: string, value: unknown): void => {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Applies a change in place to a page (items are JSON objects until an itemJunk replaces one). */
const applyToPage = (page: Json, m: Mutation): void => {
  switch (m.kind) {
    case "pageUnknownField":
      return defineOwn(page, m.key, m.value)
    case "pageDelete":
      delete page[m.field]
      return
    case "pageJunk":
      page[m.field] = m.value
      return
  }
  const items = page.items
  if (!Array.isArray(items) || items.length === 0) return
  const i = m.item % items.length
  if (m.kind === "itemJunk") {
    items[i] = m.value
    return
  }
  const item: unknown = items[i]
  if (typeof item === "object" && item !== null && !Array.isArray(item)) applyToAccount(item as Json, m)
}

/** Applies an item-level change in place to one account. */
const applyToAccount = (a: Json, m: Mutation): void => {
  switch (m.kind) {
    case "junk":
      a[m.field] = m.value
      return
    case "swap":
      if (m.field in m.other) a[m.field] = m.other[m.field]
      else delete a[m.field]
      return
    case "delete":
      delete a[m.field]
      return
    case "null":
      a[m.field] = m.value
      return
    case "flipAddress":
      if (typeof a.address === "string" && a.address.length > m.at) a.address = flipCaseAt(a.address, m.at)
      return
    case "caseAddress":
      if (typeof a.address === "string") a.address = `0x${m.upper ? a.address.slice(2).toUpperCase() : a.address.slice(2).toLowerCase()}`
      return
    case "otherChain":
      a.chainId = a.chainId === 1001 ? 8217 : 1001
      return
    case "keyId": {
      const keyId = String(a.keyId)
      const at = keyId.lastIndexOf(":")
      a.keyId = m.edit === "pool"
        ? `${keyId.slice(0, at)}x${keyId.slice(at)}`
        : m.edit === "0X"
        ? keyId.replace(/:0x([0-9a-fA-F]+)$/, ":0X$1")
        : m.edit === "tail"
        ? `${keyId}g`
        : m.edit === "empty"
        ? `${keyId.slice(0, at)}:0x`
        : m.edit === "colon"
        ? `${keyId}:0x12`
        : keyId.replace(/^krn:(8217|1001):/, (_, c) => `krn:${c === "1001" ? "8217" : "1001"}:`)
      return
    }
    case "multiSig":
      a.multiSigKeys = m.keys
      a.threshold = m.threshold
      return
    case "unknownField":
      return defineOwn(a, m.key, m.value)
  }
}

const mutatedPage = fc.tuple(pageJson, fc.array(mutation, { maxLength: 3 })).map(([page, ms]) => {
  for (const m of ms) applyToPage(page, m)
  return page
})

const mutatedAccount = fc.tuple(accountJson, fc.array(mutation, { maxLength: 2 })).map(([account, ms]) => {
  for (const m of ms) applyToAccount(account, m)
  return account
})

describe("fast decoding is equivalent to the schema", () => {
  it.prop("decodePage on generated and mutated pages", [mutatedPage], ([u]) => {
    expectSameOutcome(DecodeAccounts.decodePage(u), decodePageSchema(u))
  }, { fastCheck: { numRuns: 250 } })

  it.prop("decodeAccount on generated and mutated accounts", [mutatedAccount], ([u]) => {
    expectSameOutcome(DecodeAccounts.decodeAccount(u), decodeAccountSchema(u))
  }, { fastCheck: { numRuns: 250 } })

  it.prop("decodePage on mutated fixture pages", [fc.array(mutation, { minLength: 1, maxLength: 3 })], ([ms]) => {
    const page = viaJson(basePage)
    for (const m of ms) applyToPage(page, m)
    expectSameOutcome(DecodeAccounts.decodePage(page), decodePageSchema(page))
  }, { fastCheck: { numRuns: 180 } })

  it("the generators reach both outcomes often", () => {
    const outcomes = (samples: ReadonlyArray<unknown>, decode: (u: unknown) => Either.Either<unknown, unknown>) => {
      const rights = samples.filter((u) => Either.isRight(decode(u))).length
      return { rights, lefts: samples.length - rights }
    }
    const pages = outcomes(fc.sample(mutatedPage, { numRuns: 300, seed: 42 }), DecodeAccounts.decodePage)
    const accounts = outcomes(fc.sample(mutatedAccount, { numRuns: 300, seed: 42 }), DecodeAccounts.decodeAccount)
    for (const { lefts, rights } of [pages, accounts]) {
      expect(rights).toBeGreaterThan(40)
      expect(lefts).toBeGreaterThan(40)
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Nothing throws
// ---------------------------------------------------------------------------------------------

describe("nothing throws", () => {
  const decoders: ReadonlyArray<readonly [string, (u: unknown) => Either.Either<unknown, ParseResult.ParseError>]> = [
    ["Account", decodeAccountSchema],
    ["AccountPage", decodePageSchema],
    ["Krn", Schema.decodeUnknownEither(Krn.Krn)],
    ["AccountPoolKrn", Schema.decodeUnknownEither(Krn.AccountPoolKrn)],
    ["KeyId", Schema.decodeUnknownEither(KeyId.KeyId)],
    ["Address", Schema.decodeUnknownEither(Address.Address)],
    ["ErrorBody", Schema.decodeUnknownEither(ErrorBody.ErrorBody)],
    ["decodePage", DecodeAccounts.decodePage],
    ["decodeAccount", DecodeAccounts.decodeAccount]
  ]

  // Vitest's `expect` only for a decoder that misbehaves: each `expect` costs vitest its
  // bookkeeping, and these properties run every decoder on hundreds of values.
  const runAll = (u: unknown): void => {
    for (const [name, decode] of decoders) {
      let result: Either.Either<unknown, ParseResult.ParseError> | undefined
      try {
        result = decode(u)
      } catch (thrown) {
        expect(() => {
          throw thrown
        }, name).not.toThrow()
      }
      // Failures are ParseErrors whose message can be rendered.
      if (result !== undefined && Either.isLeft(result) && !(ParseResult.isParseError(result.left) && typeof result.left.message === "string")) {
        expect(ParseResult.isParseError(result.left), name).toBe(true)
        expect(typeof result.left.message).toBe("string")
      }
    }
  }

  it.prop("on fc.anything()", [fc.anything()], ([u]) => runAll(u), { fastCheck: { numRuns: 180 } })

  it.prop("on fc.jsonValue()", [fc.jsonValue()], ([u]) => runAll(u), { fastCheck: { numRuns: 180 } })

  it.prop(
    "on page-shaped values with arbitrary items",
    [fc.record({ cursor: fc.oneof(fc.string(), fc.anything()), items: fc.array(fc.oneof(fc.anything(), fc.dictionary(fc.constantFrom(...ACCOUNT_FIELDS), fc.anything()))) }, { requiredKeys: [] })],
    ([u]) => runAll(u),
    { fastCheck: { numRuns: 180 } }
  )

  it.prop("on strings", [fc.oneof(fc.string(), binaryString())], ([u]) => runAll(u), { fastCheck: { numRuns: 180 } })
})
