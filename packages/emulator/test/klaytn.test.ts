/**
 * Klaytn transactions as the emulator builds them, checked against values computed without the
 * code under test: @ethereumjs/rlp decodes and encodes, @noble/hashes hashes, @noble/curves
 * recovers signers; and against the real example bodies of the service.
 */
import { describe, expect, it } from "@effect/vitest"
import { RLP } from "@ethereumjs/rlp"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Arbitrary, Either, FastCheck as fc, Option, Schema } from "effect"
import { readFileSync } from "node:fs"
import { Address, Amount, Transaction } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import { contractAddress } from "../src/chain/ContractAddress.js"
import { intrinsicGas, intrinsicGasOf } from "../src/chain/IntrinsicGas.js"
import * as Receipts from "../src/chain/Receipts.js"
import * as Signer from "../src/chain/Signer.js"
import {
  addressOfKey,
  bytesOf,
  createdAddress,
  encodeKey,
  hex,
  type KeySpec,
  klaytnFields,
  listOf,
  minimal,
  type Nested,
  recover as independentRecover,
  unhex
} from "./support/klaytn.js"

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/tx/${name}`, import.meta.url), "utf8")) as Record<string, unknown>

const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected Right, got ${String(e.left)}`)
  return e.right
}
const leftReason = <A>(e: Either.Either<A, Klaytn.KlaytnError>): string => {
  expect(Either.isLeft(e)).toBe(true)
  return Either.isLeft(e) ? e.left.reason : ""
}

// ---------------------------------------------------------------------------------------------
// RLP
// ---------------------------------------------------------------------------------------------

const rlpItem: fc.Arbitrary<Klaytn.RlpItem> = fc.letrec<{ item: Klaytn.RlpItem }>((tie) => ({
  item: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.uint8Array({ maxLength: 3 }),
    fc.uint8Array({ minLength: 50, maxLength: 70 }),
    fc.array(tie("item"), { maxLength: 5 }),
    fc.array(fc.uint8Array({ minLength: 20, maxLength: 32 }), { minLength: 2, maxLength: 4 })
  )
})).item

describe("RLP", () => {
  it.prop("encodes as @ethereumjs/rlp does, and decodes back", [rlpItem], ([item]) => {
    const encoded = Klaytn.encodeRlp(item)
    expect(hex(encoded)).toBe(hex(RLP.encode(item as Nested as Uint8Array)))
    expect(right(Klaytn.decodeRlp(encoded))).toStrictEqual(item)
  }, { fastCheck: { numRuns: 180 } })

  it.prop(
    "decoding agrees with @ethereumjs/rlp on arbitrary and on mutated bytes",
    [fc.oneof(fc.uint8Array({ maxLength: 80 }), fc.tuple(rlpItem, fc.nat(), fc.nat({ max: 255 })).map(([item, at, byte]) => {
      const bytes = Klaytn.encodeRlp(item)
      if (bytes.length > 0) bytes[at % bytes.length] = byte
      return bytes
    }))],
    ([bytes]) => {
      let theirs: Nested | undefined
      try {
        theirs = RLP.decode(bytes) as Nested
      } catch {
        theirs = undefined
      }
      const ours = Klaytn.decodeRlp(bytes)
      // @ethereumjs/rlp reads an empty input as the empty string; it encodes nothing, so we refuse it
      if (theirs === undefined || bytes.length === 0) expect(Either.isLeft(ours)).toBe(true)
      else expect(ours).toStrictEqual(Either.right(theirs))
    },
    { fastCheck: { numRuns: 300 } }
  )

  it("known encodings, including the 55/56-byte boundary", () => {
    expect(hex(Klaytn.encodeRlp(new Uint8Array()))).toBe("0x80")
    expect(hex(Klaytn.encodeRlp(Uint8Array.of(0x7f)))).toBe("0x7f")
    expect(hex(Klaytn.encodeRlp(Uint8Array.of(0x80)))).toBe("0x8180")
    expect(hex(Klaytn.encodeRlp([]))).toBe("0xc0")
    expect(hex(Klaytn.encodeRlp(new Uint8Array(55))).slice(0, 4)).toBe("0xb7")
    expect(hex(Klaytn.encodeRlp(new Uint8Array(56))).slice(0, 6)).toBe("0xb838")
    expect(hex(Klaytn.encodeRlp(new Uint8Array(1024))).slice(0, 8)).toBe("0xb90400")
    expect(hex(Klaytn.encodeRlp([new Uint8Array(54)])).slice(0, 4)).toBe("0xf7")
    expect(hex(Klaytn.encodeRlp([new Uint8Array(55)])).slice(0, 6)).toBe("0xf838")
  })

  it("refuses non-canonical and truncated encodings", () => {
    const cases: Array<[string, string]> = [
      ["", "unexpected end"],
      ["0x8100", "single byte below 0x80"],
      ["0x817f", "single byte below 0x80"],
      [`0xb801${"00"}`, "long form used for a length below 56"],
      [`0xb90038${"00".repeat(56)}`, "leading zero"],
      ["0x82aa", "past the end"],
      ["0xc2c0", "past the end"],
      ["0x8000", "1 bytes after the value"],
      ["0xc0c0", "1 bytes after the value"],
      ["0xb9", "past the end of the input"]
    ]
    for (const [input, reason] of cases) expect(leftReason(Klaytn.decodeRlp(unhex(input)))).toContain(reason)
    let deep: Klaytn.RlpItem = []
    for (let i = 0; i < 20; i++) deep = [deep]
    expect(leftReason(Klaytn.decodeRlp(Klaytn.encodeRlp(deep)))).toContain("nested too deeply")
  })
})

// ---------------------------------------------------------------------------------------------
// The service's examples
// ---------------------------------------------------------------------------------------------

const TESTNET = 1001

describe("the service's example transactions", () => {
  const basic = fixture("tx-value-200-success.json")
  const withRatio = fixture("fd-value-200-with-fee-ratio.json")

  it("tx-value-200-success.json: fields, hash and sender recover from its rlp", () => {
    const raw = unhex(basic.rlp as string)
    const parts = right(Klaytn.decodeRaw(raw))
    const t = parts.tx
    expect(t.type).toBe(Wire.TxType.ValueTransferMemo)
    expect(t.nonce).toBe(basic.nonce)
    expect(t.gas).toBe(basic.gas)
    expect(t.to?.toLowerCase()).toBe(basic.to)
    expect(t.from.toLowerCase()).toBe(basic.from)
    expect(t.value).toBe(BigInt(basic.value as string))
    expect(hex(t.input!)).toBe(basic.input)
    // the JSON's gasPrice (750 ston) is not the signed one (25 ston): the RLP is what was signed
    expect(t.gasPrice).toBe(25_000_000_000n)
    expect(t.gasPrice).not.toBe(BigInt(basic.gasPrice as string))
    expect(parts.signatures.map(Klaytn.toWireSignature)).toStrictEqual(basic.signatures)
    expect(Klaytn.transactionHash(raw)).toBe(basic.transactionHash)
    expect(hex(keccak_256(raw))).toBe(basic.transactionHash)
    expect(right(Klaytn.verifySigners(parts, TESTNET))).toStrictEqual({ sender: t.from })
    expect(hex(Klaytn.encodeRaw(parts))).toBe(basic.rlp)
    // no fee payer: the sender's hash is the transaction hash
    expect(Klaytn.senderTxHash(parts)).toBe(basic.transactionHash)
  })

  it("fd-value-200-with-fee-ratio.json: ratio, fee payer, hash and both signers recover from its rlp", () => {
    const raw = unhex(withRatio.rlp as string)
    const parts = right(Klaytn.decodeRaw(raw))
    expect(parts.tx.type).toBe(Wire.TxType.FeeDelegatedValueTransferMemoWithRatio)
    expect(parts.tx.feeRatio).toBe(withRatio.feeRatio)
    expect(parts.tx.nonce).toBe(withRatio.nonce)
    expect(parts.feePayer?.address.toLowerCase()).toBe(withRatio.feePayer)
    expect(parts.signatures.map(Klaytn.toWireSignature)).toStrictEqual(withRatio.signatures)
    expect(parts.feePayer?.signatures.map((s) => s.v)).toStrictEqual([0x7f6])
    expect(Klaytn.transactionHash(raw)).toBe(withRatio.transactionHash)
    const signers = right(Klaytn.verifySigners(parts, TESTNET))
    expect(signers.sender.toLowerCase()).toBe(withRatio.from)
    expect(signers.feePayer?.toLowerCase()).toBe(withRatio.feePayer)
    expect(hex(Klaytn.encodeRaw(parts))).toBe(withRatio.rlp)
    // senderTxHash: the raw transaction without the fee payer's part, computed independently
    const fields = listOf(RLP.decode(raw.subarray(1)) as Nested)
    const independent = hex(keccak_256(Uint8Array.from([raw[0]!, ...RLP.encode(fields.slice(0, 9) as Array<Uint8Array>)])))
    expect(Klaytn.senderTxHash(parts)).toBe(independent)
    expect(independent).not.toBe(withRatio.transactionHash)
  })

  it("re-encoding the decoded examples as results gives their JSON (with the signed gas price)", () => {
    for (const json of [basic, withRatio]) {
      const raw = unhex(json.rlp as string)
      const signed = right(Klaytn.fromRaw(raw, TESTNET))
      const encoded = Schema.encodeSync(Transaction.TransactionResult)(Receipts.toResult(signed, "Submitted"))
      expect(encoded).toStrictEqual({ ...json, gasPrice: "0x5d21dba00" })
    }
  })

  it("the signatures are chain-bound: on mainnet they do not verify", () => {
    const parts = right(Klaytn.decodeRaw(unhex(basic.rlp as string)))
    expect(leftReason(Klaytn.verifySigners(parts, 8217))).toContain("V must be 16469 or 16470 on chain 8217, got 2037")
  })

  describe("contracts", () => {
    const deploy = fixture("fd-contract-deploy-200-with-fee-ratio.json")
    const execute = fixture("fd-user-contract-execute-200-success.json")

    it("fd-contract-deploy-200-with-fee-ratio.json (0x2a): no recipient, humanReadable false, the ratio before codeFormat, both signers recover", () => {
      const raw = unhex(deploy.rlp as string)
      const parts = right(Klaytn.decodeRaw(raw))
      expect(parts.tx).toStrictEqual({
        type: Wire.TxType.FeeDelegatedSmartContractDeployWithRatio,
        nonce: deploy.nonce,
        gasPrice: 25_000_000_000n,
        gas: deploy.gas,
        value: 0n,
        from: Option.getOrThrow(Address.checksum(deploy.from as string)),
        input: unhex(deploy.input as string),
        feeRatio: 20
      })
      // the fields as Klaytn's documentation lays them out, checked without the module
      const fields = listOf(RLP.decode(raw.subarray(1)) as Nested)
      const expected = klaytnFields(0x2a, { ...parts.tx, from: deploy.from as string })
      expect(fields.slice(0, expected.length).map((f) => hex(bytesOf(f)))).toStrictEqual(expected.map(hex))
      expect(Klaytn.transactionHash(raw)).toBe(deploy.transactionHash)
      const signers = right(Klaytn.verifySigners(parts, TESTNET))
      expect(signers.sender.toLowerCase()).toBe(deploy.from)
      expect(signers.feePayer?.toLowerCase()).toBe(deploy.feePayer)
      expect(hex(Klaytn.encodeRaw(parts))).toBe(deploy.rlp)
      expect(Schema.encodeSync(Transaction.TransactionResult)(Receipts.toResult(right(Klaytn.fromRaw(raw, TESTNET)), "Submitted"))).toStrictEqual({
        ...deploy,
        gasPrice: "0x5d21dba00"
      })
    })

    it("fd-user-contract-execute-200-success.json (0x31): empty calldata, both signers recover", () => {
      const raw = unhex(execute.rlp as string)
      const parts = right(Klaytn.decodeRaw(raw))
      expect(parts.tx.type).toBe(Wire.TxType.FeeDelegatedSmartContractExecution)
      expect(parts.tx.to?.toLowerCase()).toBe(execute.to)
      expect(hex(parts.tx.input!)).toBe("0x")
      expect(parts.tx).not.toHaveProperty("feeRatio")
      const fields = listOf(RLP.decode(raw.subarray(1)) as Nested)
      const expected = klaytnFields(0x31, { ...parts.tx, from: execute.from as string })
      expect(fields.length).toBe(expected.length + 3)
      expect(fields.slice(0, expected.length).map((f) => hex(bytesOf(f)))).toStrictEqual(expected.map(hex))
      expect(hex(keccak_256(raw))).toBe(execute.transactionHash)
      expect(Klaytn.transactionHash(raw)).toBe(execute.transactionHash)
      const signers = right(Klaytn.verifySigners(parts, TESTNET))
      expect(signers.sender.toLowerCase()).toBe(execute.from)
      expect(signers.feePayer?.toLowerCase()).toBe(execute.feePayer)
      expect(hex(Klaytn.encodeRaw(parts))).toBe(execute.rlp)
      expect(Schema.encodeSync(Transaction.TransactionResult)(Receipts.toResult(right(Klaytn.fromRaw(raw, TESTNET)), "Submitted"))).toStrictEqual({
        ...execute,
        gasPrice: "0x5d21dba00"
      })
      // signed for testnet: not valid on mainnet
      expect(Either.isLeft(Klaytn.verifySigners(parts, 8217))).toBe(true)
    })

    it("tx-receipt-200-deploy-contract-receipt.json: the contract address is keccak256(rlp([sender, nonce]))[12:]", () => {
      const receipt = fixture("tx-receipt-200-deploy-contract-receipt.json")
      const from = Option.getOrThrow(Address.checksum(receipt.from as string))
      const nonce = Number(receipt.nonce)
      expect(contractAddress(from, nonce).toLowerCase()).toBe(receipt.contractAddress)
      expect(createdAddress(receipt.from as string, nonce)).toBe(receipt.contractAddress)
      // gasUsed covers the intrinsic gas of its type (41) and 314 bytes of creation code, plus the EVM's
      const intrinsic = intrinsicGas(receipt.typeInt as Wire.TxType, unhex(receipt.input as string).length)
      expect(intrinsic).toBe(53_000 + 10_000 + 314 * 100)
      expect(Number(receipt.gasUsed)).toBeGreaterThan(intrinsic)
    })
  })

  it("tx-receipt-200-success.json: gasUsed is the intrinsic gas of a 4-byte memo transfer", () => {
    const receipt = fixture("tx-receipt-200-success.json")
    expect(intrinsicGas(receipt.typeInt as Wire.TxType, unhex(receipt.input as string).length)).toBe(
      Number(receipt.gasUsed)
    )
  })
})

// ---------------------------------------------------------------------------------------------
// Every type, signed with random keys
// ---------------------------------------------------------------------------------------------

const privateKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k))
const address = Arbitrary.make(Address.AddressFromSelf)

// Every typed type of the catalog (legacy has its own tests), and its layout, told apart by the base
// type (written here, not imported).
const ALL_TYPES = Object.values(Wire.TxType).filter((t) => t !== Wire.TxType.LegacyTransaction)
const LAYOUT: Record<number, Klaytn.Layout> = {
  0x08: "value",
  0x10: "value",
  0x20: "account",
  0x28: "contract/deploy",
  0x30: "contract/execute",
  0x38: "cancel",
  0x48: "anchor"
}
const kindOfType = (type: number): Klaytn.Layout => LAYOUT[type & ~7]!
const compressedKey = privateKeyArb().map((k) => secp256k1.getPublicKey(k, true))
function privateKeyArb() {
  return fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k))
}
// A key an account update may carry, as its RLP bytes (encoded independently).
const keySpec: fc.Arbitrary<KeySpec> = fc.oneof(
  fc.constantFrom<KeySpec>({ type: 1 }, { type: 3 }),
  compressedKey.map((key): KeySpec => ({ type: 2, key })),
  fc.uniqueArray(compressedKey, { minLength: 1, maxLength: 3, selector: hex }).chain((keys) =>
    fc.tuple(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: keys.length, maxLength: keys.length }), fc.nat()).map(([weights, t]): KeySpec => {
      const total = weights.reduce((a, b) => a + b, 0)
      return { type: 4, threshold: 1 + (t % total), keys: keys.map((k, i) => [weights[i]!, k] as const) }
    })
  )
)

const txCase = (types: ReadonlyArray<Wire.TxType>) => fc.record({
  type: fc.constantFrom(...types),
  senderKey: privateKey,
  feePayerKey: privateKey,
  to: address,
  value: Arbitrary.make(Amount.PebFromSelf),
  gasPrice: fc.oneof(fc.constant(25_000_000_000n), fc.bigInt({ min: 0n, max: (1n << 256n) - 1n })),
  nonce: fc.oneof(fc.nat({ max: 300 }), fc.nat()),
  gas: fc.nat({ max: 10_000_000 }),
  // Memos and calldata are short; creation code crosses the 55- and 256-byte RLP length forms.
  input: fc.oneof(fc.uint8Array({ maxLength: 80 }), fc.uint8Array({ minLength: 250, maxLength: 300 })),
  feeRatio: fc.integer({ min: 1, max: 99 }),
  chainId: fc.constantFrom(1001, 8217),
  key: fc.oneof(keySpec, fc.array(keySpec, { minLength: 1, maxLength: 3 }).map((roles): KeySpec => ({ type: 5, roles })))
})

type TxCase = typeof txCase extends (...args: any) => fc.Arbitrary<infer A> ? A : never

// The case as the module's parameters: the kind's fields only.
const paramsOf = (c: TxCase, from: Address.Address): Klaytn.TxParams => {
  const kind = kindOfType(c.type)
  const moves = kind === "value" || kind === "contract/deploy" || kind === "contract/execute"
  return {
    kind,
    from,
    to: kind === "value" || kind === "contract/execute" ? c.to : undefined,
    value: moves ? c.value : 0n,
    nonce: c.nonce,
    gas: c.gas,
    gasPrice: c.gasPrice,
    input: (kind === "value" && Wire.hasMemo(c.type)) || kind === "contract/deploy" || kind === "contract/execute" || kind === "anchor" ? c.input : undefined,
    key: kind === "account" ? encodeKey(c.key) : undefined,
    feeDelegated: Wire.isFeeDelegatedType(c.type),
    feeRatio: Wire.hasFeeRatio(c.type) ? c.feeRatio : undefined
  }
}

describe("every transaction type, signed with random keys", () => {
  for (const type of ALL_TYPES) {
    it.prop(`${Wire.typeName(type)}: decodes independently to its fields, both signers recover, and the hashes are keccak256 of the bytes`, [txCase([type])], ([c]) => {
      const from = Option.getOrThrow(Address.checksum(addressOfKey(c.senderKey)))
      const params = paramsOf(c, from)
      const delegated = Wire.isFeeDelegatedType(c.type)
      const tx = right(Klaytn.makeTransaction(params))
      expect(tx.type).toBe(c.type)
      const signed = right(Klaytn.signTransaction(tx, { chainId: c.chainId, sender: c.senderKey, feePayer: delegated ? c.feePayerKey : undefined }))
      // The ledger's signing with its signers' addresses known signs the same bytes.
      const feePayer = delegated ? { address: Option.getOrThrow(Address.checksum(addressOfKey(c.feePayerKey))), key: c.feePayerKey } : undefined
      expect(right(Signer.signKnown(tx, c.chainId, [right(Klaytn.sign(Klaytn.senderSigningHash(tx, c.chainId), c.senderKey, c.chainId))], feePayer)))
        .toStrictEqual(signed)

      // independent decoding of the raw transaction
      const raw = signed.raw
      expect(raw[0]).toBe(c.type)
      const fields = listOf(RLP.decode(raw.subarray(1)) as Nested)
      const expected = klaytnFields(c.type, { ...params, from: from.toLowerCase() })
      expect(fields.length).toBe(expected.length + 1 + (delegated ? 2 : 0))
      for (let i = 0; i < expected.length; i++) expect(hex(bytesOf(fields[i]))).toBe(hex(expected[i]!))

      // the sender's signature, recovered independently
      const sigs = listOf(fields[expected.length])
      expect(sigs.length).toBe(1)
      const senderHash = keccak_256(RLP.encode([RLP.encode([Uint8Array.of(c.type), ...expected]), minimal(c.chainId), new Uint8Array(), new Uint8Array()]))
      const sender = independentRecover(senderHash, sigs[0]!, c.chainId)
      expect(sender.address).toBe(from.toLowerCase())
      expect([2 * c.chainId + 35, 2 * c.chainId + 36]).toContain(sender.v)

      // the fee payer's
      if (delegated) {
        const payer = bytesOf(fields[expected.length + 1])
        expect(hex(payer)).toBe(addressOfKey(c.feePayerKey))
        const payerSigs = listOf(fields[expected.length + 2])
        expect(payerSigs.length).toBe(1)
        const payerHash = keccak_256(
          RLP.encode([RLP.encode([Uint8Array.of(c.type), ...expected]), payer, minimal(c.chainId), new Uint8Array(), new Uint8Array()])
        )
        const recovered = independentRecover(payerHash, payerSigs[0]!, c.chainId)
        expect(recovered.address).toBe(hex(payer))
        expect([2 * c.chainId + 35, 2 * c.chainId + 36]).toContain(recovered.v)
      }

      // hashes
      expect(signed.transactionHash).toBe(hex(keccak_256(raw)))
      const senderRaw = Uint8Array.from([c.type, ...RLP.encode(fields.slice(0, expected.length + 1) as Array<Uint8Array>)])
      expect(signed.senderTxHash).toBe(hex(keccak_256(senderRaw)))
      if (!delegated) expect(signed.senderTxHash).toBe(signed.transactionHash)

      // and the module's own decoder and verifier agree
      const parts = right(Klaytn.decodeRaw(raw))
      expect(parts).toStrictEqual({ tx: signed.tx, signatures: signed.signatures, ...(signed.feePayer ? { feePayer: signed.feePayer } : {}) })
      expect(right(Klaytn.fromRaw(raw, c.chainId))).toStrictEqual(signed)
      expect(right(Klaytn.verifySigners(parts, c.chainId)).sender).toBe(from)

      // results and receipts are valid wire bodies
      const result = Receipts.toResult(signed, "Submitted")
      expect(Schema.decodeUnknownSync(Transaction.TransactionResult)(Schema.encodeSync(Transaction.TransactionResult)(result))).toStrictEqual(result)
      expect(result.rlp).toBe(hex(raw))
      expect("to" in result).toBe(params.to !== undefined)
      expect("value" in result).toBe(params.kind === "value" || params.kind === "contract/deploy" || params.kind === "contract/execute")
      expect((result as Record<string, unknown>).accountKey).toBe(params.key !== undefined ? hex(params.key) : undefined)
      const receipt = Receipts.toReceipt(signed, {
        blockHash: hex(keccak_256(Uint8Array.of(1))),
        blockNumber: 7,
        transactionIndex: 0,
        gasUsed: right(intrinsicGasOf(tx)),
        status: "Committed"
      })
      const receiptJson = Schema.encodeSync(Transaction.TransactionReceipt)(receipt)
      expect(Schema.decodeUnknownSync(Transaction.TransactionReceipt)(receiptJson)).toStrictEqual(receipt)
      expect(receiptJson.type).toBe(Wire.typeName(c.type))
      expect((receiptJson as Record<string, unknown>).contractAddress).toBe(
        params.kind === "contract/deploy" ? createdAddress(from, c.nonce) : params.kind === "value" ? "" : null
      )
      // and the account key decodes to what was encoded, and encodes back to the same bytes
      if (params.key !== undefined) expect(hex(right(Klaytn.encodeAccountKey(right(Klaytn.decodeAccountKey(params.key)))))).toBe(hex(params.key))
      expect(right(Klaytn.validateSignatures(parts, c.chainId, { sender: { _tag: "Legacy" } }))).toBeUndefined()
      expect(Either.isLeft(Klaytn.validateSignatures(parts, c.chainId === 1001 ? 8217 : 1001, { sender: { _tag: "Legacy" } }))).toBe(true
      )
    }, { fastCheck: { numRuns: 5 } })
  }

  it.prop("a changed byte in the signed fields no longer verifies", [txCase(ALL_TYPES), fc.nat()], ([c, at]) => {
    const from = Option.getOrThrow(Address.checksum(addressOfKey(c.senderKey)))
    const tx = right(Klaytn.makeTransaction({ ...paramsOf(c, from), feeDelegated: false, feeRatio: undefined }))
    const signed = right(Klaytn.signTransaction(tx, { chainId: c.chainId, sender: c.senderKey }))
    const tampered = { ...signed, tx: { ...tx, nonce: tx.nonce + 1 + (at % 5) } }
    expect(Either.isLeft(Klaytn.verifySigners(tampered, c.chainId))).toBe(true)
  }, { fastCheck: { numRuns: 20 } })
})

// ---------------------------------------------------------------------------------------------
// Refusals, gas, keys
// ---------------------------------------------------------------------------------------------

describe("refusals", () => {
  const key = Uint8Array.from({ length: 32 }, (_, i) => i + 1)
  const other = Uint8Array.from({ length: 32 }, (_, i) => 32 - i)
  const from = Option.getOrThrow(Address.checksum(addressOfKey(key)))
  const to = Option.getOrThrow(Address.checksum(addressOfKey(other)))
  const base = { kind: "value" as const, from, to, value: 1n, nonce: 0, gas: 100_000, gasPrice: 25_000_000_000n }

  it("makeTransaction checks ranges and the fee-ratio rules", () => {
    expect(leftReason(Klaytn.makeTransaction({ ...base, nonce: -1 }))).toContain("nonce")
    expect(leftReason(Klaytn.makeTransaction({ ...base, gas: 1.5 }))).toContain("gas")
    expect(leftReason(Klaytn.makeTransaction({ ...base, value: -1n }))).toContain("value")
    expect(leftReason(Klaytn.makeTransaction({ ...base, gasPrice: 1n << 256n }))).toContain("gasPrice")
    expect(leftReason(Klaytn.makeTransaction({ ...base, feeDelegated: true, feeRatio: 100 }))).toContain("feeRatio")
    expect(leftReason(Klaytn.makeTransaction({ ...base, feeRatio: 30 }))).toContain("fee-delegated")
    // ratio 0 is the whole fee: no ratio field
    const whole = right(Klaytn.makeTransaction({ ...base, feeDelegated: true, feeRatio: 0 }))
    expect(whole.type).toBe(Wire.TxType.FeeDelegatedValueTransfer)
    expect(whole).not.toHaveProperty("feeRatio")
    // an empty memo still makes a memo transfer
    expect(right(Klaytn.makeTransaction({ ...base, input: new Uint8Array() })).type).toBe(Wire.TxType.ValueTransferMemo)
  })

  it("makeTransaction gives each kind the fields it needs", () => {
    const code = Uint8Array.of(0x60, 0x00)
    expect(leftReason(Klaytn.makeTransaction({ ...base, kind: "contract/deploy", input: code }))).toContain("a contract/deploy transaction has no recipient")
    expect(leftReason(Klaytn.makeTransaction({ ...base, kind: "contract/deploy", to: undefined }))).toContain("needs an input")
    expect(leftReason(Klaytn.makeTransaction({ ...base, kind: "contract/execute" }))).toContain("needs an input")
    expect(leftReason(Klaytn.makeTransaction({ ...base, to: undefined }))).toContain("needs a recipient")
    const deploy = right(Klaytn.makeTransaction({ ...base, kind: "contract/deploy", to: undefined, input: code, feeDelegated: true, feeRatio: 20 }))
    expect(deploy.type).toBe(Wire.TxType.FeeDelegatedSmartContractDeployWithRatio)
    expect(deploy).not.toHaveProperty("to")
    // empty calldata is an execution all the same (the contract's receive or fallback function)
    const execute = right(Klaytn.makeTransaction({ ...base, kind: "contract/execute", input: new Uint8Array(), feeDelegated: true }))
    expect(execute.type).toBe(Wire.TxType.FeeDelegatedSmartContractExecution)
  })

  it("signTransaction needs the right keys for the right parties", () => {
    const plain = right(Klaytn.makeTransaction(base))
    const delegated = right(Klaytn.makeTransaction({ ...base, feeDelegated: true }))
    expect(leftReason(Klaytn.signTransaction(plain, { chainId: TESTNET, sender: other }))).toContain("does not belong to `from`")
    expect(leftReason(Klaytn.signTransaction(plain, { chainId: TESTNET, sender: key, feePayer: other }))).toContain("takes no fee payer")
    expect(leftReason(Klaytn.signTransaction(delegated, { chainId: TESTNET, sender: key }))).toContain("needs the fee payer's key")
    expect(leftReason(Klaytn.signTransaction(plain, { chainId: 0, sender: key }))).toContain("chain id")
  })

  it("invalid private keys are refused without showing them", () => {
    const hash = keccak_256(Uint8Array.of(1))
    const n = unhex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")
    for (const bad of [new Uint8Array(32), n, new Uint8Array(31).fill(7), Uint8Array.from({ length: 32 }, () => 0xab)]) {
      const result = Klaytn.sign(hash, bad, TESTNET)
      if (Either.isRight(result)) continue // 0xabab… is a valid key
      expect(result.left.reason).toBe("invalid secp256k1 private key")
      expect(String(result.left)).not.toContain(Buffer.from(bad).toString("hex"))
    }
    expect(Either.isLeft(Klaytn.sign(hash, new Uint8Array(32), TESTNET))).toBe(true)
    expect(Either.isLeft(Klaytn.addressOfKey(n))).toBe(true)
    expect(leftReason(Klaytn.sign(new Uint8Array(31), key, TESTNET))).toContain("32 bytes")
  })

  it.prop("sign and recover: low S, V for the chain, the key's address", [privateKey, fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom(1001, 8217)], ([k, hash, chainId]) => {
    const sig = right(Klaytn.sign(hash, k, chainId))
    expect(sig.s <= 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n).toBe(true)
    expect([2 * chainId + 35, 2 * chainId + 36]).toContain(sig.v)
    expect(right(Klaytn.recover(hash, sig, chainId)).toLowerCase()).toBe(addressOfKey(k))
    expect(right(Klaytn.addressOfKey(k)).toLowerCase()).toBe(addressOfKey(k))
    // the high-S twin of a valid signature is refused, as Klaytn refuses it
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    expect(leftReason(Klaytn.recover(hash, { ...sig, s: N - sig.s, v: 4 * chainId + 71 - sig.v }, chainId))).toContain("lower half")
    expect(leftReason(Klaytn.recover(hash, { ...sig, r: 0n }, chainId))).toContain("R and S")
  }, { fastCheck: { numRuns: 40 } })

  it("decodeRaw refuses other types, wrong field counts and wrong sizes", () => {
    const signed = right(Klaytn.signTransaction(right(Klaytn.makeTransaction(base)), { chainId: TESTNET, sender: key }))
    const fields = listOf(RLP.decode(signed.raw.subarray(1)) as Nested) as Array<Nested>
    const rebuild = (type: number, list: ReadonlyArray<Nested>) => Uint8Array.from([type, ...RLP.encode(list as Array<Uint8Array>)])
    expect(leftReason(Klaytn.decodeRaw(new Uint8Array()))).toContain("empty")
    expect(leftReason(Klaytn.decodeRaw(rebuild(0x02, fields)))).toContain("not a transaction type of the catalog")
    expect(leftReason(Klaytn.decodeRaw(rebuild(0x10, fields)))).toContain("type 0x10 has 8 fields, got 7")
    expect(leftReason(Klaytn.decodeRaw(rebuild(0x08, [...fields.slice(0, 3), new Uint8Array(19), ...fields.slice(4)])))).toContain("to: an address has 20 bytes")
    expect(leftReason(Klaytn.decodeRaw(rebuild(0x08, [Uint8Array.of(0, 1), ...fields.slice(1)])))).toContain("leading zero")
    expect(leftReason(Klaytn.decodeRaw(rebuild(0x08, [...fields.slice(0, 6), []])))).toContain("no signature")
    expect(leftReason(Klaytn.decodeRaw(rebuild(0x08, [...fields.slice(0, 4), new Uint8Array(33), ...fields.slice(5)])))).toContain("more than 256 bits")
    expect(hex(rebuild(0x08, fields))).toBe(hex(signed.raw))
  })

  it("decodeRaw refuses what Klaytn refuses in a deployment: a recipient, a human-readable address, another code format", () => {
    const deploy = right(Klaytn.makeTransaction({ ...base, kind: "contract/deploy", to: undefined, input: Uint8Array.of(0x60, 0x00) }))
    const signed = right(Klaytn.signTransaction(deploy, { chainId: TESTNET, sender: key }))
    const fields = listOf(RLP.decode(signed.raw.subarray(1)) as Nested) as Array<Nested>
    const rebuild = (list: ReadonlyArray<Nested>) => Uint8Array.from([0x28, ...RLP.encode(list as Array<Uint8Array>)])
    const at = (i: number, item: Nested) => rebuild([...fields.slice(0, i), item, ...fields.slice(i + 1)])
    expect(hex(rebuild(fields))).toBe(hex(signed.raw))
    expect(leftReason(Klaytn.decodeRaw(at(3, unhex(to))))).toContain("a deployment has no recipient")
    expect(leftReason(Klaytn.decodeRaw(at(7, Uint8Array.of(1))))).toContain("human-readable")
    expect(leftReason(Klaytn.decodeRaw(at(8, Uint8Array.of(1))))).toContain("codeFormat")
    expect(leftReason(Klaytn.decodeRaw(rebuild(fields.slice(0, 8))))).toContain("type 0x28 has 10 fields, got 8")
  })

  it("intrinsic gas: 21000 (transfer, execution) or 53000 (deployment), +10000 fee-delegated, +15000 with a ratio, +100 per input byte", () => {
    const T = Wire.TxType
    expect(intrinsicGas(T.ValueTransfer, 0)).toBe(21000)
    expect(intrinsicGas(T.FeeDelegatedValueTransfer, 0)).toBe(31000)
    expect(intrinsicGas(T.FeeDelegatedValueTransferWithRatio, 0)).toBe(36000)
    expect(intrinsicGas(T.ValueTransferMemo, 5)).toBe(21500)
    expect(intrinsicGas(T.FeeDelegatedValueTransferMemo, 5)).toBe(31500)
    expect(intrinsicGas(T.FeeDelegatedValueTransferMemoWithRatio, 5)).toBe(36500)
    expect(intrinsicGas(T.SmartContractDeploy, 10)).toBe(54000)
    expect(intrinsicGas(T.FeeDelegatedSmartContractDeploy, 10)).toBe(64000)
    expect(intrinsicGas(T.FeeDelegatedSmartContractDeployWithRatio, 10)).toBe(69000)
    expect(intrinsicGas(T.SmartContractExecution, 68)).toBe(27800)
    expect(intrinsicGas(T.FeeDelegatedSmartContractExecution, 0)).toBe(31000)
    expect(intrinsicGas(T.FeeDelegatedSmartContractExecutionWithRatio, 4)).toBe(36400)
  })
})

// ---------------------------------------------------------------------------------------------
// The service's examples of the other kinds, and legacy transactions and account keys
// ---------------------------------------------------------------------------------------------

describe("the spec's results of every other kind (legacy, cancel, anchor, account update, relayed RLP)", () => {
  const examples = Object.entries(fixture("spec-results.json") as Record<string, any>)

  it("each decodes from its rlp to its JSON fields; its hash is keccak256 of the rlp; every signer recovers on testnet", () => {
    expect(examples.length).toBe(27)
    for (const [name, r] of examples) {
      const raw = unhex(r.rlp)
      const parts = right(Klaytn.decodeRaw(raw))
      const t = parts.tx
      expect(t.type, name).toBe(r.typeInt)
      expect(t.from.toLowerCase(), name).toBe(r.from)
      expect(t.nonce, name).toBe(r.nonce)
      expect(t.gas, name).toBe(r.gas)
      if (r.to !== undefined) expect(t.to?.toLowerCase(), name).toBe(r.to)
      if (r.accountKey !== undefined) expect(hex(t.key!), name).toBe(r.accountKey)
      if (r.feeRatio !== undefined && r.feeRatio !== 0) expect(t.feeRatio, name).toBe(r.feeRatio)
      if (r.feePayer !== undefined) expect(parts.feePayer?.address.toLowerCase(), name).toBe(r.feePayer)
      expect(Klaytn.transactionHash(raw), name).toBe(r.transactionHash)
      // Independently: the hash is keccak256 of the bytes.
      expect(hex(keccak_256(raw)), name).toBe(r.transactionHash)
      expect(right(Klaytn.verifySigners(parts, 1001)).sender.toLowerCase(), name).toBe(r.from)
      expect(parts.signatures.map(Klaytn.toWireSignature).map((s) => s.R), name).toEqual(r.signatures.map((s: any) => s.R))
      // Re-encoding gives the same bytes.
      expect(hex(Klaytn.encodeRaw(parts)), name).toBe(r.rlp)
    }
  })

  it("the account keys of the examples decode to their types and encode back to the same bytes", () => {
    const keys = examples.filter(([, r]) => r.accountKey !== undefined).map(([name, r]) => [name, r.accountKey as string] as const)
    const tags = keys.map(([, k]) => right(Klaytn.decodeAccountKey(unhex(k)))._tag)
    expect(new Set(tags)).toEqual(new Set(["Legacy", "Public", "Fail", "WeightedMultiSig", "RoleBased"]))
    for (const [name, k] of keys) expect(hex(right(Klaytn.encodeAccountKey(right(Klaytn.decodeAccountKey(unhex(k)))))), name).toBe(k)
    const multisig = right(Klaytn.decodeAccountKey(unhex(keys.find(([n]) => n.includes("Key type 4"))![1])))
    expect(multisig).toMatchObject({ _tag: "WeightedMultiSig", threshold: 2 })
  })

  it("a legacy transaction: EIP-155, nine fields, no type byte, its sender the signer; a deployment has no recipient", () => {
    const [, deploy] = examples.find(([n]) => n.includes("legacy 200 - Deploy"))!
    const parts = right(Klaytn.decodeRaw(unhex(deploy.rlp)))
    expect(parts.tx.to).toBeUndefined()
    const items = listOf(RLP.decode(unhex(deploy.rlp)) as Nested)
    expect(items.length).toBe(9)
    // EIP-155 independently: keccak256(rlp([nonce, gasPrice, gas, to, value, data, chainId, 0, 0])).
    const hash = keccak_256(RLP.encode([...items.slice(0, 6) as Array<Uint8Array>, minimal(1001), new Uint8Array(), new Uint8Array()]))
    expect(independentRecover(hash, items.slice(6) as Nested, 1001).address).toBe(deploy.from)
  })
})

describe("legacy transactions and account keys, with random keys", () => {
  const TESTNET = 1001
  it.prop("a legacy transaction signs, encodes as Ethereum's EIP-155 transaction and decodes back, its sender recovered", [
    privateKey,
    fc.option(address, { nil: undefined }),
    fc.bigInt({ min: 0n, max: 10n ** 24n }),
    fc.uint8Array({ maxLength: 64 }),
    fc.nat({ max: 1000 })
  ], ([key, to, value, input, nonce]) => {
    const from = Option.getOrThrow(Address.checksum(addressOfKey(key)))
    const tx = right(Klaytn.makeTransaction({ kind: "legacy", from, to, value, nonce, gas: 100_000, gasPrice: 25_000_000_000n, input }))
    expect(tx.type).toBe(0)
    const signed = right(Klaytn.signTransaction(tx, { chainId: TESTNET, sender: key }))
    const items = listOf(RLP.decode(signed.raw) as Nested)
    expect(items.map((i) => hex(bytesOf(i))).slice(0, 6)).toEqual([
      hex(minimal(nonce)), hex(minimal(25_000_000_000n)), hex(minimal(100_000)), to !== undefined ? to.toLowerCase() : "0x", hex(minimal(value)), hex(input)
    ])
    const hash = keccak_256(RLP.encode([...items.slice(0, 6) as Array<Uint8Array>, minimal(TESTNET), new Uint8Array(), new Uint8Array()]))
    expect(independentRecover(hash, items.slice(6) as Nested, TESTNET).address).toBe(from.toLowerCase())
    expect(signed.transactionHash).toBe(hex(keccak_256(signed.raw)))
    expect(signed.senderTxHash).toBe(signed.transactionHash)
    expect(right(Klaytn.decodeRaw(signed.raw))).toStrictEqual({ tx: { ...tx, ...(input.length === 0 ? {} : {}) }, signatures: signed.signatures })
    expect(Either.isLeft(Klaytn.makeTransaction({ kind: "legacy", from, to, value, nonce, gas: 1, gasPrice: 1n, feeDelegated: true }))).toBe(true)
  }, { fastCheck: { numRuns: 8 } })

  it.prop("signatures are checked against the sender's account key: public, weighted multisig (weights reach the threshold), role-based (the account-update role), fail", [
    fc.uniqueArray(privateKey, { minLength: 3, maxLength: 3, selector: hex })
  ], ([[a, b, c]]) => {
    const owner = Option.getOrThrow(Address.checksum(addressOfKey(a!)))
    const pub = (k: Uint8Array) => secp256k1.getPublicKey(k, true)
    const sign = (kind: "value" | "account", signers: ReadonlyArray<Uint8Array>) => {
      const tx = right(Klaytn.makeTransaction(kind === "value"
        ? { kind, from: owner, to: owner, value: 1n, nonce: 0, gas: 100_000, gasPrice: 1n }
        : { kind, from: owner, value: 0n, nonce: 0, gas: 100_000, gasPrice: 1n, key: encodeKey({ type: 1 }) }))
      const hash = Klaytn.senderSigningHash(tx, TESTNET)
      return { tx, signatures: signers.map((k) => right(Klaytn.sign(hash, k, TESTNET))) }
    }
    const ok = (p: Klaytn.SignedParts, key: Klaytn.AccountKey) => Either.isRight(Klaytn.validateSignatures(p, TESTNET, { sender: key }))
    // legacy: the address's own key only
    expect(ok(sign("value", [a!]), { _tag: "Legacy" })).toBe(true)
    expect(ok(sign("value", [b!]), { _tag: "Legacy" })).toBe(false)
    // public: the registered key, not the address's
    expect(ok(sign("value", [b!]), { _tag: "Public", publicKey: pub(b!) })).toBe(true)
    expect(ok(sign("value", [a!]), { _tag: "Public", publicKey: pub(b!) })).toBe(false)
    // multisig 2 of (1, 1, 2)
    const multi: Klaytn.AccountKey = { _tag: "WeightedMultiSig", threshold: 2, keys: [{ weight: 1, publicKey: pub(a!) }, { weight: 1, publicKey: pub(b!) }, { weight: 2, publicKey: pub(c!) }] }
    expect(ok(sign("value", [a!]), multi)).toBe(false)
    expect(ok(sign("value", [a!, b!]), multi)).toBe(true)
    expect(ok(sign("value", [c!]), multi)).toBe(true)
    expect(ok(sign("value", [a!, a!]), multi)).toBe(false)
    // role-based: transactions by a, account updates by b
    const roles: Klaytn.AccountKey = { _tag: "RoleBased", roles: [{ _tag: "Public", publicKey: pub(a!) }, { _tag: "Public", publicKey: pub(b!) }] }
    expect(ok(sign("value", [a!]), roles)).toBe(true)
    expect(ok(sign("account", [a!]), roles)).toBe(false)
    expect(ok(sign("account", [b!]), roles)).toBe(true)
    // fail: nothing signs
    expect(ok(sign("value", [a!]), { _tag: "Fail" })).toBe(false)
    // no signature proves nothing, whatever the key (a raw transaction sent unsigned)
    expect(ok(sign("value", []), { _tag: "Legacy" })).toBe(false)
    expect(ok(sign("value", []), { _tag: "Public", publicKey: pub(b!) })).toBe(false)
  }, { fastCheck: { numRuns: 5 } })

  it("account keys are checked: points of the curve, reachable thresholds, distinct keys, no role-based inside role-based", () => {
    const k = secp256k1.getPublicKey(Uint8Array.from({ length: 32 }, (_, i) => i + 1), true)
    expect(leftReason(Klaytn.encodeAccountKey({ _tag: "Public", publicKey: k.subarray(1) }))).toContain("33 bytes")
    expect(leftReason(Klaytn.encodeAccountKey({ _tag: "Public", publicKey: Uint8Array.from([2, ...new Uint8Array(32).fill(0xff)]) }))).toContain("not a point")
    expect(leftReason(Klaytn.encodeAccountKey({ _tag: "WeightedMultiSig", threshold: 3, keys: [{ weight: 2, publicKey: k }] }))).toContain("cannot reach")
    expect(leftReason(Klaytn.encodeAccountKey({ _tag: "WeightedMultiSig", threshold: 1, keys: [{ weight: 1, publicKey: k }, { weight: 1, publicKey: k }] }))).toContain("once")
    expect(leftReason(Klaytn.encodeAccountKey({ _tag: "WeightedMultiSig", threshold: 1, keys: [{ weight: 0, publicKey: k }] }))).toContain("weight")
    expect(leftReason(Klaytn.encodeAccountKey({ _tag: "RoleBased", roles: [{ _tag: "RoleBased", roles: [{ _tag: "Legacy" }] }] }))).toContain("role-based")
    expect(leftReason(Klaytn.decodeAccountKey(Uint8Array.of(0x06, 0xc0)))).toContain("unknown key type")
    expect(leftReason(Klaytn.decodeAccountKey(Uint8Array.of(0x01, 0xc1, 0x01)))).toContain("no content")
    expect(hex(right(Klaytn.encodeAccountKey({ _tag: "Public", publicKey: k })))).toBe(hex(encodeKey({ type: 2, key: k })))
  })

  it("a SigRLP decodes to its unsigned transaction and chain; a relayed fee-delegated transaction may leave its fee payer empty", () => {
    // The spec's "Not your own account" SigRLP of /v2/tx/rlp: a value transfer on chain 1.
    const sig = right(Klaytn.decodeSigRlp(unhex("0xf839b5f4088204d219830f4240947b65b75d204abed71587c9e519a89277766ee1d00a94a94f5374fce5edbc8e2a8697c15331677e6ebf0b018080")))
    expect(sig).toMatchObject({ chainId: 1, tx: { type: 8, nonce: 1234, gasPrice: 25n, gas: 1_000_000, value: 10n } })
    expect(leftReason(Klaytn.decodeSigRlp(unhex("0xc3010203")))).toContain("SigRLP")
    // A sender-signed fee-delegated transfer handed over with an empty fee payer, as caver builds it.
    const key = Uint8Array.from({ length: 32 }, (_, i) => i + 7)
    const from = Option.getOrThrow(Address.checksum(addressOfKey(key)))
    const tx = right(Klaytn.makeTransaction({ kind: "value", from, to: from, value: 1n, nonce: 0, gas: 100_000, gasPrice: 1n, feeDelegated: true }))
    const senderSig = right(Klaytn.sign(Klaytn.senderSigningHash(tx, TESTNET), key, TESTNET))
    const items = [...klaytnFields(tx.type, { ...tx, from: from.toLowerCase() }), [[minimal(senderSig.v), minimal(senderSig.r), minimal(senderSig.s)]], new Uint8Array(), [[Uint8Array.of(1), new Uint8Array(), new Uint8Array()]]]
    const parts = right(Klaytn.decodeRaw(Uint8Array.from([tx.type, ...RLP.encode(items as Array<Uint8Array>)])))
    expect(parts.feePayer).toBeUndefined()
    expect(right(Klaytn.verifySigners(parts, TESTNET)).sender).toBe(from)
  })
})

describe("what a wallet hands over to be relayed", () => {
  it.prop("signAsSender: the sender's signature, an empty fee payer with the placeholder signature; encodeSigRlp decodes back to the transaction", [
    privateKey,
    fc.constantFrom(0x09, 0x0a, 0x31, 0x08)
  ], ([key, type]) => {
    const from = Option.getOrThrow(Address.checksum(addressOfKey(key)))
    const kind = kindOfType(type)
    const tx = right(Klaytn.makeTransaction({
      kind, from, to: from, value: 5n, nonce: 3, gas: 100_000, gasPrice: 25n,
      input: kind === "contract/execute" ? Uint8Array.of(1, 2) : undefined,
      feeDelegated: Wire.isFeeDelegatedType(type as Wire.TxType), feeRatio: Wire.hasFeeRatio(type as Wire.TxType) ? 30 : undefined
    }))
    const raw = right(Klaytn.signAsSender(tx, { chainId: 1001, sender: key }))
    const items = listOf(RLP.decode(raw.subarray(1)) as Nested)
    const n = klaytnFields(type, { ...tx, from: from.toLowerCase() }).length
    if (Wire.isFeeDelegatedType(type as Wire.TxType)) {
      expect(items.length).toBe(n + 3)
      expect(hex(bytesOf(items[n + 1]))).toBe("0x")
      expect(listOf(items[n + 2]).map((s) => listOf(s).map((b) => hex(bytesOf(b))))).toEqual([["0x01", "0x", "0x"]])
    } else {
      expect(items.length).toBe(n + 1)
    }
    const parts = right(Klaytn.decodeRaw(raw))
    expect(parts.feePayer).toBeUndefined()
    expect(right(Klaytn.verifySigners(parts, 1001)).sender).toBe(from)
    const sigRlp = right(Klaytn.encodeSigRlp(tx, 1001))
    // Independently: rlp([rlp([type, ...fields]), chainId, 0, 0]).
    expect(hex(sigRlp)).toBe(hex(RLP.encode([RLP.encode([minimal(type), ...klaytnFields(type, { ...tx, from: from.toLowerCase() })]), minimal(1001), new Uint8Array(), new Uint8Array()])))
    expect(right(Klaytn.decodeSigRlp(sigRlp))).toStrictEqual({ tx, chainId: 1001 })
  }, { fastCheck: { numRuns: 6 } })
})
