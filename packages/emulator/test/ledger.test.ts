/**
 * The emulator's ledger on the wire: transfers of every type checked against an independent decoder
 * and signature recovery, the block clock under the TestClock, the service's refusals (each leaving
 * the ledger as it was), a model of the ledger against random transfers, 100 concurrent transfers
 * from one account, two emulators on one database, and the atomicity of a ledger write.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Either, FastCheck as fc, Layer, Schema, TestClock } from "effect"
import { readFileSync } from "node:fs"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { Amount, Transaction } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as Database from "../src/store/Database.js"
import * as Emulator from "../src/Emulator.js"
import * as Executor from "../src/chain/Executor.js"
import * as LedgerStore from "../src/store/LedgerStore.js"
import * as ChainState from "../src/store/ChainState.js"
import * as WalletApi from "effect-kas-wallet/WalletApi"
import * as Input from "../src/http/Input.js"
import { GasPrice, intrinsic, memberTx, newMemberTx, unhex, verifySigned } from "./_ledger.js"
import { clientLayer, expectError } from "./_support.js"

const KLAY = 10n ** 18n
const ZERO = "0x0000000000000000000000000000000000000000"
const OUTSIDER = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"
const SENDER_FUNDS = "failed to send a raw transaction to klaytn node; -32000::insufficient funds of the sender for value "
const PAYER_FUNDS = "failed to send a raw transaction to klaytn node; -32000::insufficient funds of the fee payer for gas * price"

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../test/fixtures/tx/${name}`, import.meta.url), "utf8"))
const basicExample = fixture("tx-value-200-success.json")
const fdExample = fixture("fd-value-200-with-fee-ratio.json")
const receiptExample = fixture("tx-receipt-200-success.json")

const sorted = (o: object) => Object.keys(o).sort()

/** What the ledger holds for some addresses, and the member's bill: to show a refusal changed nothing. */
const snapshot = (e: Emulator.Service, addresses: ReadonlyArray<string>, accountId: string) =>
  Effect.gen(function*() {
    const balances = yield* Effect.forEach(addresses, (a) => e.balance(1001, a))
    const bills = yield* e.feeBills({ accountId })
    return { balances: balances.map((b) => [b.address, b.balance, b.nonce]), bills }
  }).pipe(Effect.orDie)

const scopedEmulator = (options: Parameters<typeof Emulator.make>[0] = {}) => Emulator.make({ port: 0, ...options }).pipe(Effect.orDie)

describe("transfers on the wire", () => {
  it.scoped("every type: results shaped as the service's, their rlp decodes independently, both signers recover, hashes are keccak256 of the bytes", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      const api = memberTx(e)
      const from = yield* api.account()
      const payer = yield* api.feePayer()
      yield* e.fund(1001, from, 100n * KLAY)
      yield* e.fund(1001, payer, KLAY)
      const cases: ReadonlyArray<{ kind: "value" | "fd" | "fd-user"; body: Record<string, unknown>; type: number }> = [
        { kind: "value", body: {}, type: 0x08 },
        { kind: "value", body: { memo: "0x123" }, type: 0x10 },
        { kind: "fd", body: {}, type: 0x09 },
        { kind: "fd", body: { feeRatio: 30, memo: "memo" }, type: 0x12 },
        { kind: "fd-user", body: { feePayer: payer, feeRatio: 0, memo: "héllo 👋" }, type: 0x11 },
        { kind: "fd-user", body: { feePayer: payer.toLowerCase(), feeRatio: 99 }, type: 0x0a }
      ]
      const sent: Array<{ result: any; type: number }> = []
      for (const c of cases) {
        const reply = yield* api.transfer(c.kind, { from, to: OUTSIDER, value: "0x2a", ...c.body })
        expect(reply.status, reply.text).toBe(200)
        const result = reply.body
        expect(result.typeInt).toBe(c.type)
        expect(result.status).toBe("Submitted")
        expect(result.from).toBe(from.toLowerCase())
        expect(result.to).toBe(OUTSIDER)
        expect(result.gasPrice).toBe("0x5d21dba00")
        // gas 0 or absent: 1000000, as the service's examples show (0x0f4240 in their RLP).
        expect(result.gas).toBe(1_000_000)
        // The examples' fields: no input without a memo, feePayer on fee-delegated results, feeRatio on the with-ratio ones.
        const expected = new Set(sorted(c.kind === "value" ? basicExample : fdExample))
        if (c.type < 0x10) expected.delete("input")
        if (c.type !== 0x0a && c.type !== 0x12) expected.delete("feeRatio")
        expect(sorted(result)).toEqual([...expected].sort())
        if (c.kind === "fd-user") expect(result.feePayer).toBe(payer.toLowerCase())
        if (c.kind === "fd") expect(result.feePayer).toBe(e.globalFeePayer(1001).toLowerCase())
        if (typeof c.body.memo === "string") expect(result.input).toBe(Wire.memoInput(c.body.memo))
        verifySigned(result, unhex(result.rlp), 1001)
        // It decodes with the client's schema and encodes back to the same JSON.
        expect(Schema.encodeSync(Transaction.TransactionResult)(Schema.decodeUnknownSync(Transaction.TransactionResult)(result))).toEqual(result)
        sent.push({ result, type: c.type })
      }
      expect(sent.map((s) => s.result.nonce)).toEqual([0, 1, 2, 3, 4, 5])

      yield* TestClock.adjust("1 second")
      for (const { result, type } of sent) {
        const reply = yield* api.receipt(result.transactionHash)
        expect(reply.status, reply.text).toBe(200)
        const receipt = reply.body
        const expected = new Set(sorted(receiptExample))
        if (type < 0x10) expected.delete("input")
        if (type !== 0x08 && type !== 0x10) for (const k of ["feePayer", "feePayerSignatures"]) expected.add(k)
        if (type === 0x0a || type === 0x12) expected.add("feeRatio")
        expect(sorted(receipt)).toEqual([...expected].sort())
        expect(receipt.status).toBe("Committed")
        expect(receipt.type).toBe(Wire.typeName(type as Wire.TxType))
        expect(receipt.hash).toBe(result.transactionHash)
        const { senderTxHash } = verifySigned(receipt, unhex(result.rlp), 1001)
        expect(receipt.senderTxHash).toBe(senderTxHash)
        if (type === 0x08 || type === 0x10) expect(senderTxHash).toBe(result.transactionHash)
        else expect(senderTxHash).not.toBe(result.transactionHash)
        const memoBytes = result.input === undefined ? 0 : unhex(result.input).length
        const payer = type === 0x08 || type === 0x10 ? "sender" : "user"
        expect(Number(receipt.gasUsed)).toBe(intrinsic(payer, type === 0x0a || type === 0x12 ? 1 : 0, memoBytes))
        expect(receipt.blockNumber).toBe("0x1")
        expect(Schema.encodeSync(Transaction.TransactionReceipt)(Schema.decodeUnknownSync(Transaction.TransactionReceipt)(receipt))).toEqual(receipt)
      }
      expect(new Set(yield* Effect.forEach(sent, ({ result }) => Effect.map(api.receipt(result.transactionHash), (r) => r.body.transactionIndex)))).toEqual(
        new Set(["0x0", "0x1", "0x2", "0x3", "0x4", "0x5"])
      )
    }).pipe(Effect.provide(clientLayer)))

  it.scoped("the block clock: Pending without block fields until the next block, then Committed in it; blocks never go back", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator({ blockInterval: "1 second" })
      const api = memberTx(e)
      const from = yield* api.account()
      yield* e.fund(1001, from, KLAY)
      yield* TestClock.setTime(10_000)
      const send = Effect.map(api.transfer("value", { from, to: OUTSIDER, value: "0x1" }), (r) => {
        expect(r.status, r.text).toBe(200)
        return r.body.transactionHash as string
      })
      const status = (hash: string) => Effect.map(api.receipt(hash), (r) => r.body)
      const first = yield* send
      yield* TestClock.adjust(500)
      const second = yield* send
      const pending = yield* status(first)
      expect(pending.status).toBe("Pending")
      // The pending receipt is the committed one without its block: the shape the client decodes.
      for (const field of ["blockHash", "blockNumber", "transactionIndex", "gasUsed", "contractAddress", "logs", "logsBloom"]) {
        expect(pending).not.toHaveProperty(field)
      }
      expect(Schema.decodeUnknownSync(Transaction.PendingReceipt)(pending).transactionHash).toBe(first)
      yield* TestClock.adjust(499)
      expect((yield* status(second)).status).toBe("Pending")
      yield* TestClock.adjust(1)
      const [a, b] = [yield* status(first), yield* status(second)]
      expect([a.status, a.blockNumber, a.transactionIndex]).toEqual(["Committed", "0x1", "0x0"])
      expect([b.status, b.blockNumber, b.transactionIndex]).toEqual(["Committed", "0x1", "0x1"])
      expect(a.blockHash).toBe(b.blockHash)
      expect(a.blockHash).toMatch(/^0x[0-9a-f]{64}$/)
      // At 11 000 ms block 1 is made: the next transaction goes in block 2.
      const third = yield* send
      expect((yield* status(third)).status).toBe("Pending")
      // The clock goes back: a transaction still goes in the last block or after it, never before.
      yield* TestClock.setTime(5_000)
      const fourth = yield* send
      yield* TestClock.setTime(12_000)
      const [c, d] = [yield* status(third), yield* status(fourth)]
      expect([c.status, c.blockNumber, c.transactionIndex]).toEqual(["Committed", "0x2", "0x0"])
      expect([d.status, d.blockNumber, d.transactionIndex]).toEqual(["Committed", "0x2", "0x1"])
      expect(c.blockHash).not.toBe(a.blockHash)

      // Unknown hashes, and hashes of the other chain.
      expectError(yield* api.receipt(`0x${"ab".repeat(32)}`), 400, 1065000)
      expectError(yield* api.receipt(first, { chainId: 8217 }), 400, 1065000)
      expectError(yield* api.receipt(`0x${"ab".repeat(31)}`), 400, 1065000)
      expectError(yield* api.receipt("0xnothex"), 400, 1061607)
      // Any case.
      expect((yield* api.receipt(`0x${first.slice(2).toUpperCase()}`)).body.transactionHash).toBe(first)
    }).pipe(Effect.provide(clientLayer)))
})

describe("the service's rules", () => {
  it.scoped("refusals answer the service's codes and change nothing; the boundaries pass", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      const api = memberTx(e)
      const other = yield* newMemberTx(e)
      const from = yield* api.account()
      const to = yield* api.account()
      const payer = yield* api.feePayer()
      const foreignPayer = yield* other.feePayer()
      const foreignAccount = yield* other.account()
      const side = yield* Effect.orDie(e.createPool({ accountId: api.accountId, chainId: 1001 as any, name: "side" }))
      const inSide = yield* api.account({ krn: side.krn.toString() })
      const ops = yield* Effect.orDie(e.createFeePayerPool({ accountId: api.accountId, chainId: 1001 as any, name: "ops" }))
      const payerInOps = yield* api.feePayer({ krn: ops.krn.toString() })
      // The most a default transfer may cost: the default gas limit at the gas price.
      const maxFee = 1_000_000n * GasPrice
      yield* Effect.orDie(e.fund(1001, from, KLAY))
      yield* Effect.orDie(e.fund(1001, payer, maxFee - 1n))
      yield* Effect.orDie(e.fund(1001, payerInOps, KLAY))
      yield* Effect.orDie(e.fund(1001, inSide, KLAY))
      const defaultPool = `krn:1001:wallet:${api.accountId}:account-pool:default`
      // The address with one letter's case flipped: a broken EIP-55 checksum.
      const letter = /[a-fA-F]/.exec(from.slice(2))!
      const at = letter.index + 2
      const badChecksum = from.slice(0, at) + (from[at] === from[at]!.toUpperCase() ? from[at]!.toLowerCase() : from[at]!.toUpperCase()) + from.slice(at + 1)
      const ok = { from, to, value: "0x1" }
      const watched = [from, to, payer, payerInOps, inSide]
      const before = yield* snapshot(e, watched, api.accountId)

      type Refusal = readonly [kind: "value" | "fd" | "fd-user", body: unknown, krn: string | undefined, code: number, message?: string]
      const refusals: ReadonlyArray<Refusal> = [
        ["value", { from, value: "0x1" }, undefined, 1061608, "cannot be empty or zero value; to"],
        ["value", { from, to: "", value: "0x1" }, undefined, 1061608],
        ["value", { from, to: ZERO, value: "0x1" }, undefined, 1061608],
        ["value", { from, to: "0x1234", value: "0x1" }, undefined, 1061609, "it just allow Klaytn address form; to"],
        ["value", { from, to: badChecksum, value: "0x1" }, undefined, 1061609],
        ["value", { to, value: "0x1" }, undefined, 1061608, "cannot be empty or zero value; from"],
        ["value", { from, to }, undefined, 1061608, "cannot be empty or zero value; value"],
        ["value", { from, to, value: "1" }, undefined, 1061607],
        ["value", { from, to, value: `0x1${"0".repeat(64)}` }, undefined, 1061615],
        ["value", { ...ok, nonce: -1 }, undefined, 1061615, "its value is out of range; nonce"],
        ["value", { ...ok, gas: 1.5 }, undefined, 1061615, "its value is out of range; gas"],
        ["value", { ...ok, submit: "yes" }, undefined, 1061615],
        ["value", { ...ok, memo: 5 }, undefined, 1061615],
        ["value", { ...ok, feeRatio: 30 }, undefined, 1061615, "its value is out of range; feeRatio"],
        ["fd", { ...ok, fee_payer: payer }, undefined, 1061615, "its value is out of range; fee_payer"],
        ["value", "{", undefined, 1061615, "its value is out of range; body"],
        ["value", "[1]", undefined, 1061615, "its value is out of range; body"],
        ["fd", { ...ok, feeRatio: 100 }, undefined, 1061616, "fee ratio must be between 1 and 99; feeRatio"],
        ["fd", { ...ok, feeRatio: -1 }, undefined, 1061616],
        ["fd", { ...ok, feeRatio: 1.5 }, undefined, 1061616],
        ["fd-user", { ...ok, feePayer: payer, feeRatio: "30" }, undefined, 1061616],
        ["fd-user", ok, undefined, 1061608, "cannot be empty or zero value; feePayer"],
        ["fd-user", { ...ok, feePayer: "0x12" }, undefined, 1061609, "it just allow Klaytn address form; feePayer"],
        // Not the member's fee payer; not in the selected fee-payer pool; an account, not a fee
        // payer; no one's: the service's "failed to get feepayer" (the spec's fd-user example).
        ["fd-user", { ...ok, feePayer: foreignPayer }, undefined, 1061905, "failed to get feepayer"],
        ["fd-user", { ...ok, feePayer: payer }, `${defaultPool},${ops.krn}`, 1061905],
        // Without x-krn the fee-payer pool is the default one, where payerInOps is not.
        ["fd-user", { ...ok, feePayer: payerInOps }, undefined, 1061905],
        ["fd-user", { ...ok, feePayer: to }, undefined, 1061905],
        ["fd-user", { ...ok, feePayer: ZERO }, undefined, 1061905],
        // A sender of another member, or of another pool than the selected one.
        ["value", { ...ok, from: foreignAccount }, undefined, 1061010, "data don't exist; from"],
        ["value", { ...ok, from: inSide }, undefined, 1061010],
        ["value", ok, side.krn.toString(), 1061010],
        // x-krn: a fee-payer pool where only an account pool goes, two of a kind, an empty part.
        ["value", ok, ops.krn.toString(), 1061010],
        ["fd", ok, `${defaultPool},${ops.krn}`, 1061010],
        ["fd-user", { ...ok, feePayer: payer }, `${defaultPool},${side.krn}`, 1061010],
        ["fd-user", { ...ok, feePayer: payer }, `${defaultPool},`, 1061010],
        // The node's checks.
        ["value", { ...ok, nonce: 5 }, undefined, 1065001, "failed to send a raw transaction to klaytn node; -32000::nonce too high"],
        ["value", { ...ok, gas: 20_999 }, undefined, 1065001, "failed to send a raw transaction to klaytn node; -32000::intrinsic gas too low"],
        ["value", { ...ok, memo: "x", gas: 21_099 }, undefined, 1065001],
        ["value", { ...ok, value: Amount.toHex((KLAY - maxFee + 1n) as Amount.Peb) }, undefined, 1065001, SENDER_FUNDS],
        ["fd-user", { ...ok, feePayer: payer }, undefined, 1065001, PAYER_FUNDS],
        // The sender's share of a partly delegated fee is checked before the fee payer's.
        ["fd-user", { ...ok, value: Amount.toHex(KLAY as Amount.Peb), feePayer: payer, feeRatio: 30 }, undefined, 1065001, SENDER_FUNDS]
      ]
      for (const [kind, body, krn, code, message] of refusals) {
        const reply = yield* api.transfer(kind, body, krn !== undefined ? { krn } : {})
        expectError(reply, 400, code)
        if (message !== undefined) expect(reply.body.message, JSON.stringify(body)).toBe(message)
      }

      // A disabled sender cannot sign (with or without submit); enabled again, it can.
      expect((yield* api.put(`/v2/account/${from}/disable`)).status).toBe(200)
      for (const submit of [true, false]) {
        const reply = yield* api.transfer("value", { ...ok, submit })
        expectError(reply, 400, 1061512)
        expect(reply.body.message).toBe(`account is invalid to sign the transaction; ${from}`)
      }
      expect((yield* api.put(`/v2/account/${from}/enable`)).status).toBe(200)
      expect(yield* snapshot(e, watched, api.accountId)).toEqual(before)

      // The boundaries: exactly value + the most the fee may be; the fee payer's exact share; both
      // pools in x-krn, in either order; the pool of the sender selected.
      const exact = yield* api.transfer("value", { ...ok, value: Amount.toHex((KLAY - maxFee) as Amount.Peb) })
      expect(exact.status, exact.text).toBe(200)
      // Interval mining: applied when its block is made.
      yield* TestClock.adjust("1 second")
      expect((yield* e.balance(1001, from)).balance).toBe(maxFee - 21_000n * GasPrice)
      const share = yield* api.transfer("fd-user", { ...ok, from: inSide, feePayer: payerInOps, feeRatio: 30 }, { krn: `${ops.krn},${side.krn}` })
      expect(share.status, share.text).toBe(200)
      expect(share.body.typeInt).toBe(0x0a)
      yield* TestClock.adjust("1 second")
      expect((yield* e.balance(1001, payerInOps)).balance).toBe(KLAY - (36_000n * GasPrice * 30n) / 100n)
      expect((yield* e.balance(1001, inSide)).balance).toBe(KLAY - 1n - (36_000n * GasPrice - (36_000n * GasPrice * 30n) / 100n))
      const global = yield* api.transfer("fd", { ...ok, from: inSide, nonce: 1 }, { krn: side.krn.toString() })
      expect(global.status, global.text).toBe(200)
      expect(global.body.nonce).toBe(1)
      expectError(yield* api.transfer("fd", { ...ok, from: inSide, nonce: 1 }, { krn: side.krn.toString() }), 400, 1065001)
      yield* TestClock.adjust("1 second")
      expect(yield* Effect.orDie(e.feeBills({ accountId: api.accountId }))).toEqual([
        { accountId: api.accountId, chainId: 1001, feePayer: e.globalFeePayer(1001), fees: 31_000n * GasPrice, transactions: 1 }
      ])
    }).pipe(Effect.provide(clientLayer)))

  it.scoped("submit: false signs and answers Pending, without the node's checks, and changes nothing", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      const api = memberTx(e)
      const from = yield* api.account()
      const payer = yield* api.feePayer()
      const to = yield* api.account()
      const before = yield* snapshot(e, [from, payer, to], api.accountId)
      for (const [kind, body] of [
        ["value", { from, to, value: "0xde0b6b3a7640000", submit: false }],
        ["fd", { from, to, value: "0x1", feeRatio: 50, memo: "later", nonce: 7, gas: 1, submit: false }],
        ["fd-user", { from, to, value: "0x1", feePayer: payer, submit: false }]
      ] as const) {
        const reply = yield* api.transfer(kind, body)
        expect(reply.status, reply.text).toBe(200)
        expect(reply.body.status).toBe("Pending")
        expect(reply.body.nonce).toBe(("nonce" in body ? body.nonce : undefined) ?? 0)
        verifySigned(reply.body, unhex(reply.body.rlp), 1001)
        expectError(yield* api.receipt(reply.body.transactionHash), 400, 1065000)
      }
      expect(yield* snapshot(e, [from, payer, to], api.accountId)).toEqual(before)
    }).pipe(Effect.provide(clientLayer)))

  it("the request bodies of the reference's examples decode with the endpoints' schemas", () => {
    // The request examples of the public KAS reference (as the official client documents them,
    // amounts already as the hex it sends).
    const examples: ReadonlyArray<readonly [Wire.PayerRoute, Record<string, unknown>]> = [
      ["tx", { from: "0x13a9f77304cE84bb4EecA9E7d56AeE644bdd71bd", to: "0x76c6b1f34562ed7a843786e1d7f57d0d7948a6f1", value: "0x1", gas: 750000, memo: "memo", submit: true }],
      ["fd", { from: "0xd2061D4bdbee433Dd2f99C28E25d301593f544e0", to: "0x76c6b1f34562ed7a843786e1d7f57d0d7948a6f1", value: "0x1", gas: 50000, memo: "memo", feeRatio: 99, submit: true }],
      ["fd-user", {
        from: "0xd2061D4bdbee433Dd2f99C28E25d301593f544e0",
        to: "0x76c6b1f34562ed7a843786e1d7f57d0d7948a6f1",
        value: "0x1",
        gas: 50000,
        memo: "memo",
        feeRatio: 99,
        feePayer: "0x44Ee3906a7a2007762E9d706dF6E4eF63FA1edA8",
        submit: true
      }],
      // The fields of the result examples, as a request.
      ["tx", { from: basicExample.from, to: basicExample.to, value: basicExample.value, nonce: basicExample.nonce, gas: basicExample.gas, memo: "0x123", submit: true }],
      ["fd", { from: fdExample.from, to: fdExample.to, value: fdExample.value, nonce: fdExample.nonce, gas: fdExample.gas, memo: "0x123", feeRatio: fdExample.feeRatio, submit: true }],
      ["fd-user", { from: fdExample.from, to: fdExample.to, value: fdExample.value, feePayer: fdExample.feePayer, feeRatio: fdExample.feeRatio, submit: false }]
    ]
    for (const [route, body] of examples) {
      const decoded = Either.map(Input.payload(WalletApi.transaction("value", route)!.payload, JSON.stringify(body)), (b) => b as Wire.Body<"value">)
      expect(Either.isRight(decoded), JSON.stringify(body)).toBe(true)
      if (Either.isRight(decoded)) {
        expect(decoded.right.from.toLowerCase()).toBe(String(body.from).toLowerCase())
        expect(decoded.right.value).toBe(BigInt(body.value as string))
      }
    }
  })

  it.prop("the fee payer's part is ⌊fee × ratio / 100⌋ (all of it with ratio 0), never more than the fee", [
    fc.bigInt({ min: 0n, max: 1n << 200n }),
    fc.integer({ min: 0, max: 99 })
  ], ([fee, ratio]) => {
    const part = Executor.feePayerPart(fee, ratio)
    if (ratio === 0) expect(part).toBe(fee)
    else {
      expect(part * 100n <= fee * BigInt(ratio)).toBe(true)
      expect((part + 1n) * 100n > fee * BigInt(ratio)).toBe(true)
    }
    expect(part >= 0n && part <= fee).toBe(true)
  }, { fastCheck: { numRuns: 300 } })
})

// ---------------------------------------------------------------------------------------------
// A model of the ledger
// ---------------------------------------------------------------------------------------------

type Payer = "sender" | "global" | "user"

const operation = fc.oneof(
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("fund" as const), who: fc.nat(4), amount: fc.bigInt({ min: 0n, max: KLAY }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      _tag: fc.constant("transfer" as const),
      from: fc.nat(2),
      // 0-2 the member's accounts, 3 its fee payer, 4 an address of no one's.
      to: fc.nat(4),
      value: fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 16n }), fc.bigInt({ min: 0n, max: 2n * KLAY })),
      payer: fc.constantFrom<Payer>("sender", "global", "user"),
      ratio: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 99 })),
      memo: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
      gas: fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 20_000, max: 40_000 })), { nil: undefined })
    })
  }
)

const initialBalance = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 16n }), fc.bigInt({ min: 0n, max: 2n * KLAY }))

// What the model's runs exercised, checked once they are done.
const outcomes = new Map<string, number>()
const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)

layer(Layer.merge(Emulator.layer(), clientLayer))("a model of the ledger", (it) => {
  it.effect.prop(
    "random transfers: each applies fully as the model says or is refused and changes nothing; the sum of balances drops by exactly the fees the ledger's accounts paid; nonces count up; the fee splits exactly",
    [fc.array(initialBalance, { minLength: 4, maxLength: 4 }), fc.array(operation, { minLength: 1, maxLength: 10 })],
    ([initial, operations]) =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const api = yield* newMemberTx(e)
        const accounts = [yield* api.account(), yield* api.account(), yield* api.account()]
        const payer = yield* api.feePayer()
        const nobody = yield* api.account({ chainId: 8217 }) // on 1001 it is no one's account
        const addresses = [...accounts, payer, nobody]
        const model = new Map<string, { balance: bigint; nonce: number }>(addresses.map((a) => [a, { balance: 0n, nonce: 0 }]))
        let bill = 0n
        let billed = 0
        let funded = 0n
        let burnt = 0n
        const fund = (who: number, amount: bigint) =>
          Effect.gen(function*() {
            yield* Effect.orDie(e.fund(1001, addresses[who]!, amount))
            model.get(addresses[who]!)!.balance += amount
            funded += amount
          })
        for (let i = 0; i < 4; i++) yield* fund(i, initial[i]!)

        const check = Effect.gen(function*() {
          let sum = 0n
          for (const address of addresses) {
            const actual = yield* Effect.orDie(e.balance(1001, address))
            expect({ address, balance: actual.balance, nonce: actual.nonce }).toEqual({ address, ...model.get(address)! })
            sum += actual.balance
          }
          expect(sum).toBe(funded - burnt)
          const bills = yield* Effect.orDie(e.feeBills({ accountId: api.accountId }))
          expect(bills.map((b) => [b.fees, b.transactions])).toEqual(billed === 0 ? [] : [[bill, billed]])
        })

        for (const op of operations) {
          if (op._tag === "fund") {
            yield* fund(op.who, op.amount)
            yield* check
            continue
          }
          const from = accounts[op.from]!
          const to = addresses[op.to]!
          const ratio = op.payer === "sender" ? 0 : op.ratio
          const memoBytes = op.memo === undefined ? 0 : new TextEncoder().encode(op.memo).length
          const gasLimit = op.gas === undefined || op.gas === 0 ? 1_000_000 : op.gas
          const used = intrinsic(op.payer, ratio, memoBytes)
          // The model's split, written here from the rule, not from the emulator's code.
          const payerShare = (fee: bigint) => (op.payer === "sender" ? 0n : ratio === 0 ? fee : (fee * BigInt(ratio)) / 100n)
          const maxFee = BigInt(gasLimit) * GasPrice
          const sender = model.get(from)!
          const refusal = sender.balance < op.value + maxFee - payerShare(maxFee)
            ? SENDER_FUNDS
            : op.payer === "user" && model.get(payer)!.balance < payerShare(maxFee)
            ? PAYER_FUNDS
            : gasLimit < used
            ? "failed to send a raw transaction to klaytn node; -32000::intrinsic gas too low"
            : undefined
          const body = {
            from,
            to,
            value: Amount.toHex(op.value as Amount.Peb),
            ...(op.memo !== undefined ? { memo: op.memo } : {}),
            ...(op.gas !== undefined ? { gas: op.gas } : {}),
            ...(op.payer !== "sender" ? { feeRatio: ratio } : {}),
            ...(op.payer === "user" ? { feePayer: payer } : {})
          }
          const reply = yield* api.transfer(op.payer === "sender" ? "value" : op.payer === "global" ? "fd" : "fd-user", body)
          count(refusal === undefined ? `applied, ${op.payer} pays${ratio > 0 ? " part" : ""}` : `refused: ${refusal.split("::")[1]}`)
          if (to === from) count("applied or refused, to the sender itself")
          if (refusal !== undefined) {
            expectError(reply, 400, 1065001)
            expect(reply.body.message).toBe(refusal)
          } else {
            expect(reply.status, reply.text).toBe(200)
            expect(reply.body.nonce).toBe(sender.nonce)
            const fee = BigInt(used) * GasPrice
            const part = payerShare(fee)
            // The parts of the fee sum to the fee.
            expect(part + (fee - part)).toBe(BigInt(used) * GasPrice)
            sender.balance -= op.value + fee - part
            sender.nonce += 1
            model.get(to)!.balance += op.value
            if (op.payer === "user") model.get(payer)!.balance -= part
            if (op.payer === "global") {
              bill += part
              billed += 1
            }
            // Fees leave circulation, but the global fee payer's part is billed, not taken from a balance.
            burnt += op.payer === "global" ? fee - part : fee
            // Interval mining: applied when its block is made.
            yield* TestClock.adjust("1 second")
          }
          yield* check
        }
      }),
    {
      fastCheck: {
        numRuns: 9,
        // One run that surely meets every outcome the next test asks for; the random runs explore.
        examples: [[[2n * KLAY, 2n * KLAY, 0n, 10n ** 15n], [
          { _tag: "transfer", from: 0, to: 1, value: 1n, payer: "sender", ratio: 0, memo: "a", gas: undefined },
          { _tag: "transfer", from: 0, to: 4, value: 2n, payer: "global", ratio: 0, memo: undefined, gas: 0 },
          { _tag: "transfer", from: 0, to: 1, value: 3n, payer: "global", ratio: 30, memo: undefined, gas: undefined },
          { _tag: "transfer", from: 0, to: 1, value: 4n, payer: "user", ratio: 0, memo: undefined, gas: undefined },
          { _tag: "fund", who: 3, amount: KLAY },
          { _tag: "transfer", from: 1, to: 0, value: 5n, payer: "user", ratio: 0, memo: undefined, gas: undefined },
          { _tag: "transfer", from: 1, to: 2, value: 1n, payer: "user", ratio: 50, memo: "€", gas: 40_000 },
          { _tag: "transfer", from: 2, to: 0, value: 1n, payer: "sender", ratio: 0, memo: undefined, gas: undefined },
          { _tag: "transfer", from: 0, to: 1, value: 1n, payer: "sender", ratio: 0, memo: undefined, gas: 20_000 },
          { _tag: "transfer", from: 0, to: 0, value: 5n, payer: "global", ratio: 99, memo: "self", gas: undefined }
        ]]]
      }
    }
  )

  it("the runs applied transfers of every kind of payer and refused them for every reason", () => {
    for (
      const outcome of [
        "applied, sender pays",
        "applied, global pays",
        "applied, global pays part",
        "applied, user pays",
        "applied, user pays part",
        "refused: insufficient funds of the sender for value ",
        "refused: insufficient funds of the fee payer for gas * price",
        "refused: intrinsic gas too low",
        "applied or refused, to the sender itself"
      ]
    ) expect(outcomes.get(outcome) ?? 0, `${outcome} in ${JSON.stringify([...outcomes])}`).toBeGreaterThan(0)
  })

  it.effect("100 concurrent transfers from one account: nonces 0 to 99, each once, and an exact balance", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const api = yield* newMemberTx(e)
      const from = yield* api.account()
      const to = yield* api.account()
      yield* Effect.orDie(e.fund(1001, from, 10n * KLAY))
      const replies = yield* Effect.forEach(
        Array.from({ length: 100 }, (_, i) => i + 1),
        (i) => api.transfer("value", { from, to, value: Amount.toHex(BigInt(i) as Amount.Peb) }),
        { concurrency: "unbounded" }
      )
      for (const r of replies) expect(r.status, r.text).toBe(200)
      expect(replies.map((r) => r.body.nonce).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i))
      // Interval mining: applied when their block is made.
      yield* TestClock.adjust("1 second")
      const sent = (100n * 101n) / 2n
      expect((yield* Effect.orDie(e.balance(1001, from)))).toMatchObject({ balance: 10n * KLAY - sent - 100n * 21_000n * GasPrice, nonce: 100 })
      expect((yield* Effect.orDie(e.balance(1001, to))).balance).toBe(sent)
    }))
})

describe("more than one writer", () => {
  it.scoped("two emulators on one database file: concurrent transfers from one account through both take each nonce once", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.acquireRelease(
        Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-ledger-"))),
        (d) => Effect.promise(() => fs.rm(d, { recursive: true, force: true }))
      )
      const database = path.join(dir, "emulator.db")
      const first = yield* scopedEmulator({ database })
      const second = yield* scopedEmulator({
        database,
        member: { accessKeyId: first.member.accessKeyId, secretAccessKey: first.member.secretAccessKey }
      })
      // One global fee payer per chain: the first emulator made it, the second uses it.
      expect(second.globalFeePayer(1001)).toBe(first.globalFeePayer(1001))
      const a = memberTx(first)
      const b = memberTx(second)
      const from = yield* a.account()
      const to = yield* b.account()
      yield* Effect.orDie(second.fund(1001, from, KLAY))
      const replies = yield* Effect.forEach(
        Array.from({ length: 40 }, (_, i) => i),
        (i) => (i % 2 === 0 ? a : b).transfer(i % 4 < 2 ? "value" : "fd", { from, to, value: "0x1" }),
        { concurrency: "unbounded" }
      )
      for (const r of replies) expect(r.status, r.text).toBe(200)
      expect(replies.map((r) => r.body.nonce).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i))
      // Interval mining: applied when their block is made (by whichever emulator reads first).
      yield* TestClock.adjust("1 second")
      const fees = 20n * 21_000n * GasPrice // the other 20 were paid by the global fee payer
      expect(yield* Effect.orDie(first.balance(1001, from))).toMatchObject({ balance: KLAY - 40n - fees, nonce: 40 })
      expect((yield* Effect.orDie(second.feeBills()))[0]).toMatchObject({ fees: 20n * 31_000n * GasPrice, transactions: 20 })
    }).pipe(Effect.provide(clientLayer)), { timeout: 60_000 })

  it.effect.prop(
    "a ledger write with any one of its reads stale writes nothing, and succeeds once read again",
    [fc.array(fc.bigInt({ min: 0n, max: 1n << 100n }), { minLength: 6, maxLength: 6 }), fc.nat(4)],
    ([amounts, stale]) =>
      Effect.gen(function*() {
        const store = yield* LedgerStore.LedgerStore
        // Bills and transactions belong to a member (foreign keys are enforced).
        yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO members (account_id, created_at) VALUES ('m', 0)`)
        const suffix = amounts.map((a) => a.toString(36)).join("").slice(0, 30).padEnd(30, "0")
        const addresses = ["a", "b", "c"].map((c) => `0x${c}${suffix}${"0".repeat(9)}`)
        const chainId = 1001
        const state = Effect.all([
          store.balances(chainId, addresses),
          store.bill(1, chainId),
          store.transaction(chainId, `0x${suffix.padEnd(64, "f")}`)
        ])
        const seed = addresses.map((address, i) => ({ address, read: ChainState.Empty, write: { balance: amounts[i]!, nonce: i } }))
        yield* store.write({ chainId, balances: seed })
        const tx = (nonce: number): ChainState.TransactionRow => ({
          chainId,
          hash: `0x${suffix.padEnd(64, nonce === 0 ? "f" : "e")}`,
          sender: addresses[0]!,
          nonce,
          memberId: 1,
          raw: Uint8Array.of(8, nonce),
          blockNumber: 1,
          blockTimeMs: 1000,
          transactionIndex: nonce,
          gasUsed: 21_000,
          feePayer: undefined,
          payerKind: "sender",
          senderFee: 1n,
          feePayerFee: 0n,
          acceptedMs: 0
        })
        const read = yield* store.balances(chainId, addresses)
        const bill = yield* store.bill(1, chainId)
        const write: LedgerStore.Write = {
          chainId,
          balances: addresses.map((address, i) => ({ address, read: read.get(address)!, write: { balance: amounts[i + 3]!, nonce: i + 1 } })),
          bill: { memberId: 1, read: bill, write: { fees: bill.fees + 5n, transactions: bill.transactions + 1 } },
          transaction: tx(0)
        }
        // Another writer changes one thing the write read (or takes its nonce) in between.
        if (stale < 3) {
          const address = addresses[stale]!
          const was = read.get(address)!
          yield* store.write({ chainId, balances: [{ address, read: was, write: { balance: was.balance + 1n, nonce: was.nonce } }] })
        } else if (stale === 3) {
          yield* store.write({ chainId, balances: [], bill: { memberId: 1, read: bill, write: { fees: bill.fees + 1n, transactions: bill.transactions } } })
        } else {
          yield* store.write({ chainId, balances: [], transaction: { ...tx(0), hash: `0x${suffix.padEnd(64, "d")}` } })
        }
        const between = yield* state
        expect(yield* store.write(write)).toBe(false)
        expect(yield* state).toEqual(between)
        // Read again: it applies.
        const again = yield* store.balances(chainId, addresses)
        const billAgain = yield* store.bill(1, chainId)
        const retried: LedgerStore.Write = {
          ...write,
          balances: write.balances.map((b) => ({ ...b, read: again.get(b.address)! })),
          bill: { memberId: 1, read: billAgain, write: { fees: billAgain.fees + 5n, transactions: billAgain.transactions + 1 } },
          transaction: stale === 4 ? tx(1) : tx(0)
        }
        expect(yield* store.write(retried)).toBe(true)
        const [balances] = yield* state
        expect(addresses.map((a) => balances.get(a))).toEqual(addresses.map((_, i) => ({ balance: amounts[i + 3]!, nonce: i + 1 })))
      }).pipe(
        Effect.provide(LedgerStore.layer.pipe(Layer.provideMerge(Database.layer({ database: ":memory:" })))),
        Effect.orDie
      ),
    { fastCheck: { numRuns: 15 } }
  )
})
