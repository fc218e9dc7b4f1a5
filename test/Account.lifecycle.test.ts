/**
 * The records of account lifecycle and fee-payer accounts: the real example bodies decode and come
 * back unchanged, the fee-payer fast decoders agree with their schemas, and fee-payer accounts live
 * in fee-payer pools only.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import * as Account from "../src/Account.js"
import * as DecodeAccounts from "../src/internal/decodeAccounts.js"
import * as ChainId from "../src/ChainId.js"
import * as Krn from "../src/Krn.js"
import { expectSameOutcome } from "./support/pageMutations.js"

type Json = Record<string, unknown>
const fixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`./fixtures/lifecycle/${name}`, import.meta.url), "utf8")) as Json
const viaJson = <A>(a: A): Json => JSON.parse(JSON.stringify(a)) as Json

const decodeFeePayerSchema = Schema.decodeUnknownEither(Account.FeePayerAccount)
const decodeFeePayerPageSchema = Schema.decodeUnknownEither(Account.FeePayerAccountPage)

describe("the real example bodies", () => {
  it("a created fee-payer account decodes, its KRN and key id in a fee-payer pool, and encodes back unchanged", () => {
    const body = fixture("feepayer-create-200-success.json")
    const decoded = Either.getOrThrow(DecodeAccounts.decodeFeePayer(body))
    expectSameOutcome(DecodeAccounts.decodeFeePayer(body), decodeFeePayerSchema(body))
    expect(Krn.isFeePayerPool(decoded.krn)).toBe(true)
    expect(decoded.krn.accountId).toBe("local")
    expect(Krn.equals(decoded.keyId.poolKrn, decoded.krn)).toBe(true)
    expect(viaJson(Schema.encodeSync(Account.FeePayerAccount)(decoded))).toStrictEqual(body)
    // ...and is not an account of an account pool.
    expect(Either.isLeft(DecodeAccounts.decodeAccount(body))).toBe(true)
  })

  it("a disable result decodes as an AccountSummary and encodes back unchanged", () => {
    const body = fixture("account-disable-200-success.json")
    const summary = Schema.decodeUnknownSync(Account.AccountSummary)(body)
    expect(summary.address).toBe(body.address)
    expect(viaJson(Schema.encodeSync(Account.AccountSummary)(summary))).toStrictEqual(body)
  })

  it("delete results, counts and public-key listings", () => {
    expect(Schema.decodeUnknownSync(Account.AccountStatus)({ status: "deleted" })).toStrictEqual({ status: "deleted" })
    expect(Either.isLeft(Schema.decodeUnknownEither(Account.AccountStatus)({ status: "enabled" }))).toBe(true)
    const count = Schema.decodeUnknownSync(Account.PoolAccountCount)({
      accountId: "68ec0e4b-0f61-4e6f-ae35-be865ab23187",
      count: 3,
      krn: "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default"
    })
    expect(count.count).toBe(3)
    expect(Either.isLeft(Schema.decodeUnknownEither(Account.AccountCount)({ accountId: "a", count: -1 }))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(Account.AccountCount)({ accountId: "a", count: 1.5 }))).toBe(true)
    const byKey = Schema.decodeUnknownSync(Account.PublicKeyAccounts)({
      items: [{ address: "0xa809284c83b901ed106aba4ccda14628af128e14", chainId: 1001 }]
    })
    expect(byKey.items[0]!.address).toBe("0xa809284C83b901eD106Aba4Ccda14628Af128e14")
  })

  it("the status filter is exactly the four states the service lists by", () => {
    for (const s of ["enabled", "disabled", "corrupted", "all"]) expect(Schema.is(Account.StatusFilter)(s)).toBe(true)
    for (const s of ["deleted", "", "ALL", 1]) expect(Schema.is(Account.StatusFilter)(s)).toBe(false)
  })
})

describe("fee-payer pools", () => {
  it.prop("FeePayerPoolKrn round-trips and is never an account pool", [Arbitrary.make(Schema.typeSchema(Krn.FeePayerPoolKrn))], ([krn]) => {
    const decoded = Schema.decodeSync(Krn.FeePayerPoolKrn)(String(krn))
    expect(Krn.equals(decoded, krn)).toBe(true)
    expect(Either.isLeft(Schema.decodeEither(Krn.AccountPoolKrn)(String(krn)))).toBe(true)
    expect(Either.isRight(Schema.decodeEither(Krn.PoolKrn)(String(krn)))).toBe(true)
  })

  it("feePayerPool builds the fee-payer pool of a member", () => {
    const pool = Either.getOrThrow(Krn.feePayerPool(ChainId.Testnet, "local"))
    expect(String(pool)).toBe("krn:1001:wallet:local:feepayer-pool:default")
    expect(Either.isLeft(Krn.feePayerPool(ChainId.Testnet, "bad:id"))).toBe(true)
  })
})

describe("fee-payer fast decoders agree with the schemas", () => {
  const feePayer = Arbitrary.make(Account.FeePayerAccount).map((a) => viaJson(Schema.encodeSync(Account.FeePayerAccount)(a)))
  const account = Arbitrary.make(Account.Account).map((a) => viaJson(Schema.encodeSync(Account.Account)(a)))
  // A fee-payer body, a plain account body (wrong pool type), or one field replaced.
  const mutated = fc.oneof(
    feePayer,
    account,
    fc.tuple(feePayer, fc.constantFrom("address", "krn", "keyId", "chainId", "createdAt", "publicKey"), fc.anything()).map(
      ([body, field, value]) => ({ ...body, [field]: value })
    )
  )

  it.prop("decodeFeePayer", [mutated], ([u]) => {
    expectSameOutcome(DecodeAccounts.decodeFeePayer(u), decodeFeePayerSchema(u))
  }, { fastCheck: { numRuns: 200 } })

  it.prop("decodeFeePayerPage", [fc.array(mutated, { maxLength: 4 }), fc.string({ maxLength: 8 })], ([items, cursor]) => {
    const page = { items, cursor }
    expectSameOutcome(DecodeAccounts.decodeFeePayerPage(page), decodeFeePayerPageSchema(page))
  }, { fastCheck: { numRuns: 150 } })
})
