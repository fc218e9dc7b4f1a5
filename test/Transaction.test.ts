import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, Option, Schema } from "effect"
import { readFileSync } from "node:fs"
import * as Address from "../src/Address.js"
import * as ErrorBody from "../src/ErrorBody.js"
import * as FeeDelegation from "../src/FeeDelegation.js"
import * as Transaction from "../src/Transaction.js"
import * as Wire from "../src/Wire.js"

// Verbatim copies of the reference examples of the transfer endpoints.
const example = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/tx/${name}`, import.meta.url), "utf8"))

const MINIMAL_HEX = /^0x(?:0|[1-9a-f][0-9a-f]*)$/

const rejected = (result: Either.Either<unknown, { readonly message: string }>): string => {
  expect(Either.isLeft(result)).toBe(true)
  return Either.isLeft(result) ? result.left.message : ""
}


describe("the service's example bodies", () => {
  it("cancel, anchoring and account-update results decode with the fields of their type only", () => {
    const cancel = Schema.decodeUnknownSync(Transaction.TransactionResult)(example("fd-cancel-200-cancel-with-nonce.json"))
    expect([cancel.typeInt, cancel.to, cancel.value, cancel.input]).toEqual([Wire.TxType.FeeDelegatedCancel, undefined, undefined, undefined])
    const anchor = Schema.decodeUnknownSync(Transaction.TransactionResult)(example("fd-user-anchor-200-success.json"))
    expect([anchor.typeInt, anchor.input]).toEqual([Wire.TxType.FeeDelegatedChainDataAnchoring, "0x"])
    const update = Schema.decodeUnknownSync(Transaction.TransactionResult)(example("fd-account-update-200-success.json"))
    expect([update.typeInt, update.accountKey]).toEqual([Wire.TxType.FeeDelegatedAccountUpdate, "0x01c0"])
    // A field the type does not have, or lacks one it has, is refused.
    const decode = Schema.decodeUnknownEither(Transaction.TransactionResult)
    expect(rejected(decode({ ...(example("fd-cancel-200-cancel-with-nonce.json") as object), to: "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa" }))).toMatch(/has no to/)
    const { accountKey: _, ...keyless } = example("fd-account-update-200-success.json") as Record<string, unknown>
    expect(rejected(decode(keyless))).toMatch(/accountKey/)
  })

  it("tx-value-200-success.json decodes as a basic result and re-encodes to the same JSON", () => {
    const json = example("tx-value-200-success.json")
    const result = Schema.decodeUnknownSync(Transaction.TransactionResult)(json)
    expect(Transaction.isFeeDelegatedResult(result)).toBe(false)
    expect(result.typeInt).toBe(Wire.TxType.ValueTransferMemo)
    // lower-case on the wire, checksummed once decoded
    expect(result.from).toBe(Option.getOrThrow(Address.checksum("0x60d0902c428d0e197f97a756011fd4893c1e57b0")))
    expect(result.from).not.toBe(result.from.toLowerCase())
    expect(result.value).toBe(0n)
    expect(result.gasPrice).toBe(0xae9f7bcc00n)
    expect(result.input).toBe(Wire.memoInput("0x123"))
    expect(Schema.encodeSync(Transaction.TransactionResult)(result)).toStrictEqual(json)
  })

  it("fd-value-200-with-fee-ratio.json decodes as a fee-delegated result with ratio 30", () => {
    const json = example("fd-value-200-with-fee-ratio.json")
    const result = Schema.decodeUnknownSync(Transaction.TransactionResult)(json)
    expect(Transaction.isFeeDelegatedResult(result)).toBe(true)
    if (!Transaction.isFeeDelegatedResult(result)) return
    expect(result.typeInt).toBe(Wire.TxType.FeeDelegatedValueTransferMemoWithRatio)
    expect(result.feeRatio).toBe(30)
    expect(result.feePayer.toLowerCase()).toBe("0x1b71a63903e35371e2fc41c6012effb99b9a2c0f")
    // the 63-digit S is kept as received
    expect(result.signatures[0]!.S).toBe("0x5b9e73967f51cf2acee22f369bbb123cc8d28d7f62fa6feec63e1ebb0b0c9c5")
    expect(Schema.encodeSync(Transaction.TransactionResult)(result)).toStrictEqual(json)
  })

  it("tx-receipt-200-success.json decodes as a committed receipt and re-encodes to the same JSON", () => {
    const json = example("tx-receipt-200-success.json")
    const receipt = Schema.decodeUnknownSync(Transaction.TransactionReceipt)(json)
    expect(Transaction.isFinal(receipt)).toBe(true)
    if (!Transaction.isFinal(receipt)) return
    expect(receipt.status).toBe("Committed")
    expect(receipt.blockNumber).toBe(0xba)
    expect(receipt.gas).toBe(1_000_000)
    expect(receipt.gasUsed).toBe(0x5398)
    expect(receipt.nonce).toBe(1)
    expect(receipt.transactionIndex).toBe(0)
    expect(receipt.value).toBe(0x100n)
    expect(receipt.contractAddress).toBe("")
    expect(receipt.input).toBe(Wire.memoInput("memo"))
    expect(receipt.type).toBe(Wire.typeName(Wire.TxType.ValueTransferMemo))
    expect(receipt.senderTxHash).toBe(receipt.transactionHash)
    expect(Schema.encodeSync(Transaction.TransactionReceipt)(receipt)).toStrictEqual(json)
  })

  it("error-tx-value-400-insufficient-funds-of-the-sender.json decodes as an error body", () => {
    const body = Schema.decodeUnknownSync(ErrorBody.ErrorBody)(example("error-tx-value-400-insufficient-funds-of-the-sender.json"))
    expect(body.code).toBe(1065001)
  })

  it("a pending receipt decodes without block fields", () => {
    const json = example("tx-receipt-200-success.json") as Record<string, unknown>
    const { blockHash: _h, blockNumber: _n, contractAddress: _c, gasUsed: _g, logs: _l, logsBloom: _b, transactionIndex: _i, ...rest } = json
    const pending = Schema.decodeUnknownSync(Transaction.TransactionReceipt)({ ...rest, status: "Pending", blockNumber: null })
    expect(Transaction.isFinal(pending)).toBe(false)
    // a committed receipt needs its block
    expect(rejected(Schema.decodeUnknownEither(Transaction.TransactionReceipt)({ ...rest, status: "Committed" }))).toContain("blockHash")
  })
})

describe("FeeRatio", () => {
  it.prop("decodes exactly the integers 1..99", [fc.oneof(fc.integer({ min: -200, max: 200 }), fc.double())], ([n]) => {
    const ok = Number.isInteger(n) && n >= 1 && n <= 99
    expect(Either.isRight(Schema.decodeUnknownEither(FeeDelegation.FeeRatio)(n))).toBe(ok)
    // a request may also say 0: the whole fee
    expect(Either.isRight(Schema.decodeUnknownEither(Wire.RequestFeeRatio)(n))).toBe(ok || n === 0)
  }, { fastCheck: { numRuns: 300 } })

  it.prop("generated ratios are in range", [FeeDelegation.FeeRatio], ([n]) => {
    expect(n >= 1 && n <= 99 && Number.isInteger(n)).toBe(true)
  })
})

describe("TxHash", () => {
  const decode = Schema.decodeUnknownEither(Transaction.TxHash)

  it.prop("any case decodes to the lower-case hash, which encodes unchanged", [Transaction.TxHashFromSelf, fc.boolean()], ([hash, upper]) => {
    const input = upper ? `0x${hash.slice(2).toUpperCase()}` : hash
    expect(decode(input)).toStrictEqual(Either.right(hash))
    expect(Schema.encodeSync(Transaction.TxHash)(hash)).toBe(hash)
  })

  it.prop("other lengths are refused", [fc.stringMatching(/^[0-9a-f]{0,70}$/).filter((s) => s.length !== 64)], ([digits]) => {
    expect(rejected(decode(`0x${digits}`))).toContain("expected 0x followed by 64 hex digits")
  })
})

describe("results, receipts and bodies", () => {
  it.prop("TransactionResult: encode then decode is the identity", [Transaction.TransactionResult], ([result]) => {
    const json = Schema.encodeSync(Transaction.TransactionResult)(result)
    expect(json.from).toBe(json.from.toLowerCase())
    expect(Schema.decodeUnknownSync(Transaction.TransactionResult)(json)).toStrictEqual(result)
  }, { fastCheck: { numRuns: 50 } })

  it.prop("TransactionReceipt: encode then decode is the identity", [Transaction.TransactionReceipt], ([receipt]) => {
    const json = Schema.encodeSync(Transaction.TransactionReceipt)(receipt)
    expect(Schema.decodeUnknownSync(Transaction.TransactionReceipt)(json)).toStrictEqual(receipt)
  }, { fastCheck: { numRuns: 50 } })

  it.prop("TransferBody: encode then decode is the identity", [Wire.TransferBody], ([body]) => {
    const json = Schema.encodeSync(Wire.TransferBody)(body)
    expect(Schema.decodeUnknownSync(Wire.TransferBody)(json)).toStrictEqual(body)
  }, { fastCheck: { numRuns: 100 } })

  it("a fee ratio must match the fee-delegated type", () => {
    const json = example("fd-value-200-with-fee-ratio.json") as Record<string, unknown>
    const decode = Schema.decodeUnknownEither(Transaction.TransactionResult)
    const { feeRatio: _, ...withoutRatio } = json
    expect(rejected(decode(withoutRatio))).toContain("type 18 needs a fee ratio from 1 to 99")
    expect(rejected(decode({ ...json, typeInt: 17 }))).toContain("type 17 delegates the whole fee")
    expect(Either.isRight(decode({ ...withoutRatio, typeInt: 17 }))).toBe(true)
    expect(Either.isRight(decode({ ...json, typeInt: 17, feeRatio: 0 }))).toBe(true)
    // a basic type with a fee payer is not a fee-delegated result, and a basic result ignores it
    expect(Transaction.isFeeDelegatedResult(Either.getOrThrow(decode({ ...withoutRatio, typeInt: 16 })))).toBe(false)
  })

  const body = {
    from: "0x60d0902c428d0e197f97a756011fd4893c1e57b0",
    to: "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa",
    value: "0x0"
  }

  it("transfer bodies refuse unknown fields under their own name", () => {
    const message = rejected(Schema.decodeUnknownEither(Wire.TransferBody)({ ...body, fee_ratio: 30 }))
    expect(message).toContain("[\"fee_ratio\"]")
    expect(message).toContain("is unexpected")
    expect(rejected(Schema.decodeUnknownEither(Wire.ValueTransferBody)({ ...body, feeRatio: 30 }))).toContain("[\"feeRatio\"]")
    expect(rejected(Schema.decodeUnknownEither(Wire.FeeDelegatedTransferBody)({ ...body, feePayer: body.from }))).toContain("[\"feePayer\"]")
    expect(rejected(Schema.decodeUnknownEither(Wire.UserFeeDelegatedTransferBody)(body))).toContain("[\"feePayer\"]")
  })

  it("transfer bodies name the invalid field", () => {
    const decode = Schema.decodeUnknownEither(Wire.TransferBody)
    const at = (patch: Record<string, unknown>) => rejected(decode({ ...body, ...patch }))
    expect(at({ to: "" })).toMatch(/\["to"\][\s\S]*expected 0x followed by 40 hex digits/)
    expect(at({ to: "0x0000000000000000000000000000000000000000" })).toMatch(/\["to"\][\s\S]*cannot be the zero address/)
    expect(at({ value: "12" })).toMatch(/\["value"\][\s\S]*expected 0x followed by hex digits/)
    expect(at({ feeRatio: 100 })).toMatch(/\["feeRatio"\][\s\S]*fee ratio must be an integer from 1 to 99 \(or 0: the whole fee\), got 100/)
    expect(at({ nonce: -1 })).toContain("[\"nonce\"]")
    expect(at({ gas: 1.5 })).toContain("[\"gas\"]")
    expect(at({ memo: 5 })).toContain("[\"memo\"]")
    const full = Either.getOrThrow(decode({ ...body, memo: "0x123", nonce: 0, gas: 0, submit: false, feePayer: body.to, feeRatio: 0 }))
    expect(full.value).toBe(0n)
    expect(full.feeRatio).toBe(0)
    expect(full.to).toBe(Option.getOrThrow(Address.checksum(body.to)))
  })

  it("the six types: selection, names and flags", () => {
    const T = Wire.TxType
    const table: Array<[boolean, boolean, number | undefined, Wire.TxType, string]> = [
      [false, false, undefined, T.ValueTransfer, "TxTypeValueTransfer"],
      [false, true, undefined, T.FeeDelegatedValueTransfer, "TxTypeFeeDelegatedValueTransfer"],
      [false, true, 0, T.FeeDelegatedValueTransfer, "TxTypeFeeDelegatedValueTransfer"],
      [false, true, 30, T.FeeDelegatedValueTransferWithRatio, "TxTypeFeeDelegatedValueTransferWithRatio"],
      [true, false, undefined, T.ValueTransferMemo, "TxTypeValueTransferMemo"],
      [true, true, undefined, T.FeeDelegatedValueTransferMemo, "TxTypeFeeDelegatedValueTransferMemo"],
      [true, true, 99, T.FeeDelegatedValueTransferMemoWithRatio, "TxTypeFeeDelegatedValueTransferMemoWithRatio"]
    ]
    for (const [memo, feeDelegated, feeRatio, type, name] of table) {
      expect(Wire.transferType({ memo, feeDelegated, feeRatio })).toBe(type)
      expect(Wire.typeName(type)).toBe(name)
      expect(Wire.hasMemo(type)).toBe(memo)
      expect(Wire.isFeeDelegatedType(type)).toBe(feeDelegated)
      expect(Wire.hasFeeRatio(type)).toBe(feeRatio !== undefined && feeRatio !== 0)
    }
    expect([T.ValueTransfer, T.FeeDelegatedValueTransfer, T.FeeDelegatedValueTransferWithRatio, T.ValueTransferMemo, T.FeeDelegatedValueTransferMemo, T.FeeDelegatedValueTransferMemoWithRatio]).toStrictEqual([8, 9, 10, 16, 17, 18])
  })

  it("memoInput is the UTF-8 bytes of the memo", () => {
    expect(Wire.memoInput("memo")).toBe("0x6d656d6f")
    expect(Wire.memoInput("0x123")).toBe("0x3078313233")
    expect(Wire.memoInput("")).toBe("0x")
    expect(Wire.memoInput("é")).toBe("0xc3a9")
  })

  it.prop("decoders never throw, whatever the input", [fc.anything()], ([u]) => {
    for (const schema of [Transaction.TransactionResult, Transaction.TransactionReceipt, Wire.TransferBody] as const) {
      expect(Either.isLeft(Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown>)(u))).toBe(true)
    }
  }, { fastCheck: { numRuns: 200 } })

  it("schemas of the module all have arbitraries", () => {
    for (const schema of [Transaction.Signature, Transaction.HexBytes, Wire.Recipient, Transaction.CommittedReceipt, Transaction.PendingReceipt]) {
      expect(fc.sample(Arbitrary.make(schema as Schema.Schema<unknown, unknown>), 5)).toHaveLength(5)
    }
  })
})

describe("NumberFromHex", () => {
  const decode = Schema.decodeUnknownEither(Transaction.NumberFromHex)

  it.prop("round-trips every safe non-negative integer through minimal hex", [fc.maxSafeNat()], ([n]) => {
    const hex = Schema.encodeSync(Transaction.NumberFromHex)(n)
    expect(hex).toMatch(MINIMAL_HEX)
    expect(decode(hex)).toStrictEqual(Either.right(n))
  })

  it("refuses quantities beyond 2^53 - 1 and non-hex", () => {
    expect(decode("0x1fffffffffffff")).toStrictEqual(Either.right(Number.MAX_SAFE_INTEGER))
    expect(rejected(decode("0x20000000000000"))).toContain("exceeds 2^53 - 1")
    expect(rejected(decode("186"))).toContain("expected 0x followed by hex digits")
  })
})
