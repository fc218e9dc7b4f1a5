/**
 * Contracts on the emulator's wire, over loopback HTTP with raw JSON bodies: the KIP-7 token of the
 * tour deployed with each payer route, executed and read back through `contract/call`, its logs
 * and bloom in receipts, reverts and halts committed as CommitError with their fee, the service's
 * refusals changing nothing, state across a restart, and chains kept apart.
 *
 * What the emulator answers is checked against values computed here without its code: the
 * contract address (keccak256 of rlp([sender, nonce])), calldata (selector and padded words), the
 * Transfer log's topics, the logs bloom, Klaytn's intrinsic gas, and the fee split.
 */
import { describe, expect, it } from "@effect/vitest"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Effect, FastCheck as fc, Runtime, Schema, TestClock } from "effect"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { Transaction } from "effect-kas-wallet"
import * as Emulator from "../src/Emulator.js"
import { GasPrice, memberTx, type TxApi, unhex } from "./_ledger.js"
import { clientLayer, expectError } from "./_support.js"
import { createdAddress, hex } from "./support/klaytn.js"
import * as KasToken from "../../cli/src/tour/KasToken.js"

const KLAY = 10n ** 18n
const SUPPLY = 1_000_000n * 10n ** 18n
const OUTSIDER = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"
const NOT_A_PROGRAM = "failed to send a raw transaction to klaytn node; -32000::not a program account (e.g., an account having code and storage)"

// ABI words, written out: a uint256 or an address left-padded to 32 bytes.
const word = (n: bigint | string) => (typeof n === "bigint" ? n.toString(16) : n.slice(2).toLowerCase()).padStart(64, "0")
const selector = (signature: string) => hex(keccak_256(new TextEncoder().encode(signature)).subarray(0, 4))
const topic = (signature: string) => hex(keccak_256(new TextEncoder().encode(signature)))
const TRANSFER_EVENT = topic("Transfer(address,address,uint256)")
// The creation code with its constructor's argument, the initial supply.
const DEPLOY_INPUT = `${KasToken.bytecode}${word(SUPPLY)}`
const transferInput = (to: string, amount: bigint) => `${selector("transfer(address,uint256)")}${word(to)}${word(amount)}`

/** Klaytn's intrinsic gas, from its parameters: 53000 a deployment, 21000 an execution, + fee delegation, + 100 per input byte. */
const intrinsic = (kind: "deploy" | "execute", route: "tx" | "fd" | "fd-user", ratio: number, input: string) =>
  (kind === "deploy" ? 53_000 : 21_000) + (route === "tx" ? 0 : ratio > 0 ? 15_000 : 10_000) + 100 * unhex(input).length

/** Ethereum's logs bloom, written out: three bits per address and topic from their keccak256. */
const bloomOf = (logs: ReadonlyArray<{ readonly address: string; readonly topics: ReadonlyArray<string> }>) => {
  const bloom = new Uint8Array(256)
  for (const item of logs.flatMap((l) => [l.address, ...l.topics])) {
    const h = keccak_256(unhex(item))
    for (const i of [0, 2, 4]) {
      const bit = ((h[i]! << 8) | h[i + 1]!) % 2048
      bloom[255 - Math.floor(bit / 8)]! |= 1 << (bit % 8)
    }
  }
  return hex(bloom)
}

const routePath = (route: "tx" | "fd" | "fd-user", kind: "contract/deploy" | "contract/execute") =>
  route === "tx" ? `/v2/tx/${kind}` : `/v2/tx/${route}/${kind}`

const scopedEmulator = (options: Parameters<typeof Emulator.make>[0] = {}) => Emulator.make({ port: 0, ...options }).pipe(Effect.orDie)

/** The member's contract routes, and what the tests read back. */
const contracts = (e: Emulator.Service, api: TxApi = memberTx(e)) => {
  const ok = <A>(reply: { readonly status: number; readonly text: string; readonly body: A }) => {
    expect(reply.status, reply.text).toBe(200)
    return reply.body
  }
  const self = {
    api,
    deploy: (route: "tx" | "fd" | "fd-user", body: Record<string, unknown>, chainId = 1001) =>
      api.post(routePath(route, "contract/deploy"), { input: DEPLOY_INPUT, ...body }, { chainId }),
    execute: (route: "tx" | "fd" | "fd-user", body: Record<string, unknown>, chainId = 1001) =>
      api.post(routePath(route, "contract/execute"), body, { chainId }),
    call: (body: unknown, chainId = 1001) => api.post("/v2/tx/contract/call", body, { chainId }),
    balanceOf: (token: string, owner: string, chainId = 1001) =>
      Effect.map(
        self.call({ to: token, data: { methodName: "balanceOf", arguments: [{ type: "address", value: owner }] } }, chainId),
        (reply) => BigInt(ok(reply).result)
      ),
    /** The committed receipt (after the next block). */
    receipt: (hash: string, chainId = 1001) =>
      Effect.gen(function*() {
        yield* TestClock.adjust("1 second")
        const receipt = ok(yield* api.receipt(hash, { chainId }))
        // Every receipt decodes with the client's schema and encodes back to the same JSON.
        expect(Schema.encodeSync(Transaction.TransactionReceipt)(Schema.decodeUnknownSync(Transaction.TransactionReceipt)(receipt))).toEqual(receipt)
        return receipt
      }),
    /** The balance and nonce of an address on testnet. */
    account: (address: string) => Effect.orDie(Effect.map(e.balance(1001, address), (b) => [b.balance, b.nonce] as const)),

    state: (addresses: ReadonlyArray<string>) => Effect.forEach(addresses, (a) => self.account(a)),
    ok
  }
  return self
}

/** A sender with 10 KLAY that deployed the token (its nonce 0), and a fee payer with 1 KLAY. */
const withToken = (e: Emulator.Service, c: ReturnType<typeof contracts>) =>
  Effect.gen(function*() {
    const from = yield* c.api.account()
    const payer = yield* c.api.feePayer()
    yield* Effect.orDie(e.fund(1001, from, 10n * KLAY))
    yield* Effect.orDie(e.fund(1001, payer, KLAY))
    c.ok(yield* c.deploy("tx", { from }))
    // Interval mining: the contract exists once the deployment's block is made.
    yield* TestClock.adjust("1 second")
    return { from, payer, token: createdAddress(from, 0) }
  })

describe("contracts on the wire", () => {
  it.scoped("deploy with each payer route: types 40/41/42, the contract at keccak256(rlp([sender, nonce]))[12:], its code runs, fees split exactly", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      const c = contracts(e)
      const from = yield* c.api.account()
      const payer = yield* c.api.feePayer()
      yield* Effect.orDie(e.fund(1001, from, 10n * KLAY))
      yield* Effect.orDie(e.fund(1001, payer, KLAY))
      const cases = [
        { route: "tx", body: {}, type: 0x28, ratio: 0 },
        { route: "fd", body: { feeRatio: 0 }, type: 0x29, ratio: 0 },
        { route: "fd-user", body: { feePayer: payer, feeRatio: 25 }, type: 0x2a, ratio: 25 }
      ] as const
      for (const [nonce, k] of cases.entries()) {
        const senderBefore = yield* c.account(from)
        const payerBefore = yield* c.account(payer)
        const result = c.ok(yield* c.deploy(k.route, { from, ...k.body }))
        expect(result.typeInt).toBe(k.type)
        expect(result.status).toBe("Submitted")
        expect(result).not.toHaveProperty("to")
        expect(result.input).toBe(DEPLOY_INPUT)
        expect(result.gas).toBe(9_000_000)
        expect(result.nonce).toBe(nonce)
        expect(Schema.decodeUnknownSync(Transaction.TransactionResult)(result)).toMatchObject({ typeInt: k.type })

        const receipt = yield* c.receipt(result.transactionHash)
        const token = createdAddress(from, nonce)
        expect(receipt).toMatchObject({ status: "Committed", contractAddress: token, to: null, logs: expect.any(Array) })
        expect(receipt).not.toHaveProperty("txError")
        // The intrinsic gas and at least the code deposit (200 per byte of the code it stores).
        const least = intrinsic("deploy", k.route, k.ratio, DEPLOY_INPUT) + 200 * unhex(KasToken.deployedBytecode).length
        const gasUsed = Number(receipt.gasUsed)
        expect(gasUsed).toBeGreaterThan(least)
        // What a fresh @ethereumjs/evm gives the constructor, code deposit included (pinned).
        expect(gasUsed - intrinsic("deploy", k.route, k.ratio, DEPLOY_INPUT)).toBe(329_152)
        // The constructor's Transfer from the zero address, and the contract's state through a call.
        expect(receipt.logs.map((l: any) => [l.address, l.topics, l.data])).toEqual([
          [token, [TRANSFER_EVENT, `0x${word("0x0000000000000000000000000000000000000000")}`, `0x${word(from)}`], `0x${word(SUPPLY)}`]
        ])
        expect(yield* c.balanceOf(token, from)).toBe(SUPPLY)

        const fee = BigInt(gasUsed) * GasPrice
        const payerPart = k.route === "tx" ? 0n : k.ratio === 0 ? fee : (fee * BigInt(k.ratio)) / 100n
        const senderAfter = yield* c.account(from)
        const payerAfter = yield* c.account(payer)
        expect(senderAfter).toEqual([senderBefore[0] - (fee - payerPart), senderBefore[1] + 1])
        expect(payerAfter[0]).toBe(payerBefore[0] - (k.route === "fd-user" ? payerPart : 0n))
      }
      // The global fee payer's part is on the member's bill.
      const bills = yield* Effect.orDie(e.feeBills())
      expect(bills[0]?.transactions).toBe(1)
    }).pipe(Effect.provide(clientLayer)))

  it.scoped("execute transfer(address,uint256): balances through contract/call, the Transfer log with its block fields, and the logs bloom", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      const c = contracts(e)
      const { from, payer, token } = yield* withToken(e, c)

      const input = transferInput(OUTSIDER, 1234n)
      const [senderBefore, payerBefore] = [yield* c.account(from), yield* c.account(payer)]
      const sent = c.ok(yield* c.execute("fd-user", { from, to: token, input, feePayer: payer, feeRatio: 40 }))
      expect(sent).toMatchObject({ typeInt: 0x32, to: token, input, feeRatio: 40, feePayer: payer.toLowerCase() })
      // In the pool until its block: nothing is paid before it.
      expect([yield* c.account(from), yield* c.account(payer)]).toEqual([senderBefore, payerBefore])
      const receipt = yield* c.receipt(sent.transactionHash)
      const [senderSent, payerSent] = [yield* c.account(from), yield* c.account(payer)]
      expect(receipt.status).toBe("Committed")
      expect(receipt.contractAddress).toBeNull()
      expect(receipt.type).toBe("TxTypeFeeDelegatedSmartContractExecutionWithRatio")
      expect(receipt.logs).toEqual([{
        address: token,
        topics: [TRANSFER_EVENT, `0x${word(from)}`, `0x${word(OUTSIDER)}`],
        data: `0x${word(1234n)}`,
        blockHash: receipt.blockHash,
        blockNumber: receipt.blockNumber,
        // Alone in its block (the deployment's is an earlier one): its log is the block's first.
        logIndex: "0x0",
        removed: false,
        transactionHash: sent.transactionHash,
        transactionIndex: receipt.transactionIndex
      }])
      expect(receipt.logsBloom).toBe(bloomOf(receipt.logs))
      expect(receipt.logsBloom).not.toBe(`0x${"00".repeat(256)}`)
      expect(Number(receipt.gasUsed)).toBeGreaterThan(intrinsic("execute", "fd-user", 40, input))
      // Paid at its block: the fee payer ⌊40%⌋, the sender the rest.
      const fee = BigInt(receipt.gasUsed) * GasPrice
      expect(payerSent).toEqual([payerBefore[0] - (fee * 40n) / 100n, payerBefore[1]])
      expect(senderSent).toEqual([senderBefore[0] - (fee - (fee * 40n) / 100n), senderBefore[1] + 1])
      expect([yield* c.account(from), yield* c.account(payer)]).toEqual([senderSent, payerSent])
      expect(yield* c.balanceOf(token, OUTSIDER)).toBe(1234n)
      expect(yield* c.balanceOf(token, from)).toBe(SUPPLY - 1234n)

      // Two executions in one block: the second's logIndex follows the first's logs.
      const a = c.ok(yield* c.execute("tx", { from, to: token, input: transferInput(OUTSIDER, 1n) }))
      const b = c.ok(yield* c.execute("fd", { from, to: token, input: transferInput(OUTSIDER, 2n) }))
      const ra = yield* c.receipt(a.transactionHash)
      const rb = yield* c.receipt(b.transactionHash)
      expect(rb.blockNumber).toBe(ra.blockNumber)
      expect([ra.transactionIndex, ra.logs[0].logIndex, rb.transactionIndex, rb.logs[0].logIndex]).toEqual(["0x0", "0x0", "0x1", "0x1"])
      expect(yield* c.balanceOf(token, OUTSIDER)).toBe(1237n)

      // Each transaction starts cold (EIP-2929): the same transfer costs the same EVM gas in the same
      // block as in the next, and what a fresh @ethereumjs/evm gives it for each transaction (pinned:
      // the token's bytecode is fixed). Slots a run left warm would make the next one 2000 cheaper each.
      const evmGas = (r: any) => Number(r.gasUsed) - intrinsic("execute", "tx", 0, transferInput(OUTSIDER, 3n))
      const same = () => c.execute("tx", { from, to: token, input: transferInput(OUTSIDER, 3n) })
      const first = c.ok(yield* same())
      const second = c.ok(yield* same())
      const inBlock = [evmGas(yield* c.receipt(first.transactionHash)), evmGas(yield* c.receipt(second.transactionHash))]
      const third = c.ok(yield* same())
      expect([...inBlock, evmGas(yield* c.receipt(third.transactionHash))]).toEqual([12_663, 12_663, 12_663])
      // The first transfer to an empty balance (a zero slot set: 20000 instead of 2900).
      expect(Number(receipt.gasUsed) - intrinsic("execute", "fd-user", 40, input)).toBe(29_763)
    }).pipe(Effect.provide(clientLayer)))

  it.scoped("a revert or a halt is committed: CommitError with txError, the nonce moves on, the fee is charged, nothing else changes", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      const c = contracts(e)
      const from = yield* c.api.account()
      yield* Effect.orDie(e.fund(1001, from, 10n * KLAY))
      c.ok(yield* c.deploy("tx", { from }))
      const token = createdAddress(from, 0)
      // Interval mining: the contract exists once the deployment's block is made.
      yield* TestClock.adjust("1 second")

      // More than the sender holds: `require(balance >= value, "insufficient balance")` reverts.
      const before = yield* c.account(from)
      const input = transferInput(OUTSIDER, SUPPLY + 1n)
      const reverted = c.ok(yield* c.execute("tx", { from, to: token, input, value: "0x0" }))
      const receipt = yield* c.receipt(reverted.transactionHash)
      expect(receipt).toMatchObject({ status: "CommitError", txError: "0x9", logs: [], logsBloom: `0x${"00".repeat(256)}`, contractAddress: null })
      const gasUsed = Number(receipt.gasUsed)
      expect(gasUsed).toBeGreaterThan(intrinsic("execute", "tx", 0, input))
      expect(gasUsed).toBeLessThan(1_000_000)
      const after = yield* c.account(from)
      expect(after).toEqual([before[0] - BigInt(gasUsed) * GasPrice, before[1] + 1])
      expect(yield* c.balanceOf(token, from)).toBe(SUPPLY)
      expect(yield* c.balanceOf(token, OUTSIDER)).toBe(0n)

      // Out of gas: the gas limit barely covers the intrinsic gas. All of it is used and paid.
      const small = intrinsic("execute", "tx", 0, transferInput(OUTSIDER, 1n)) + 100
      const halted = c.ok(yield* c.execute("tx", { from, to: token, input: transferInput(OUTSIDER, 1n), gas: small }))
      const haltedReceipt = yield* c.receipt(halted.transactionHash)
      expect(haltedReceipt).toMatchObject({ status: "CommitError", txError: "0x7", gasUsed: `0x${small.toString(16)}` })
      const afterHalt = yield* c.account(from)
      expect(afterHalt).toEqual([after[0] - BigInt(small) * GasPrice, after[1] + 1])
      expect(yield* c.balanceOf(token, OUTSIDER)).toBe(0n)

      // Value sent to a function that is not payable: reverted, the value stays with the sender.
      const paid = c.ok(yield* c.execute("tx", { from, to: token, input: transferInput(OUTSIDER, 1n), value: "0x64" }))
      expect((yield* c.receipt(paid.transactionHash)).status).toBe("CommitError")
      const afterPaid = yield* c.account(from)
      expect(afterPaid[1]).toBe(afterHalt[1] + 1)
      expect((yield* Effect.orDie(e.balance(1001, token))).balance).toBe(0n)

      // A deployment whose constructor reverts (creation code that is just REVERT): CommitError, no code.
      const failed = c.ok(yield* c.deploy("tx", { from, input: "0x60006000fd" }))
      const failedReceipt = yield* c.receipt(failed.transactionHash)
      expect(failedReceipt).toMatchObject({ status: "CommitError", txError: "0x9", contractAddress: createdAddress(from, failed.nonce) })
      const probe = c.ok(yield* c.call({ to: failedReceipt.contractAddress, data: { methodName: "balanceOf", arguments: [{ type: "address", value: from }] } }))
      expect(probe.result).toBe("0x")
    }).pipe(Effect.provide(clientLayer)))

  it.scoped("the service's refusals: codes for bad bodies; not a program account, a transfer to a contract: 1065001; nothing changes", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      const c = contracts(e)
      const { from, payer, token } = yield* withToken(e, c)
      yield* TestClock.adjust("1 second")
      const watched = [from, payer, token, OUTSIDER]
      const before = yield* c.state(watched)

      const refusals: ReadonlyArray<readonly [path: string, body: unknown, code: number, message?: string]> = [
        ["/v2/tx/contract/deploy", { from }, 1061608, "cannot be empty or zero value; input"],
        ["/v2/tx/contract/deploy", { from, input: "0x" }, 1061608],
        ["/v2/tx/contract/deploy", { from, input: "6080" }, 1061607, "must start with 0x and be hex; input"],
        ["/v2/tx/contract/deploy", { from, input: "0x608" }, 1061607],
        ["/v2/tx/contract/deploy", { from, input: "0x6080", value: "12" }, 1061607, "must start with 0x and be hex; value"],
        ["/v2/tx/contract/deploy", { from, input: "0x6080", to: token }, 1061615, "its value is out of range; to"],
        ["/v2/tx/contract/deploy", { input: "0x6080" }, 1061608, "cannot be empty or zero value; from"],
        ["/v2/tx/contract/execute", { from, input: "0x" }, 1061608, "cannot be empty or zero value; to"],
        ["/v2/tx/contract/execute", { from, to: "0x12", input: "0x" }, 1061609, "it just allow Klaytn address form; to"],
        ["/v2/tx/contract/execute", { from, to: token, input: "0xzz" }, 1061607],
        ["/v2/tx/contract/execute", { from, to: token }, 1061608],
        ["/v2/tx/contract/execute", { from, to: token, input: "0x", memo: "hi" }, 1061615, "its value is out of range; memo"],
        ["/v2/tx/contract/execute", { from, to: token, input: "0x", feeRatio: 10 }, 1061615],
        ["/v2/tx/fd/contract/execute", { from, to: token, input: "0x", feeRatio: 100 }, 1061616],
        ["/v2/tx/fd-user/contract/deploy", { from, input: "0x6080" }, 1061608, "cannot be empty or zero value; feePayer"],
        ["/v2/tx/fd-user/contract/deploy", { from, input: "0x6080", feePayer: payer, feeRatio: -1 }, 1061616],
        ["/v2/tx/contract/execute", "{", 1061615, "its value is out of range; body"],
        // The node: the address has no code, a value transfer cannot go to a contract, gas, funds.
        ["/v2/tx/contract/execute", { from, to: OUTSIDER, input: transferInput(OUTSIDER, 1n) }, 1065001, NOT_A_PROGRAM],
        ["/v2/tx/fd-user/contract/execute", { from, to: OUTSIDER, input: "0x", feePayer: payer }, 1065001, NOT_A_PROGRAM],
        ["/v2/tx/value", { from, to: token, value: "0x1" }, 1065001, "failed to send a raw transaction to klaytn node; -32000::this type transaction cannot be sent to contract addresses"],
        ["/v2/tx/contract/execute", { from, to: token, input: "0x", gas: 20_999 }, 1065001, "failed to send a raw transaction to klaytn node; -32000::intrinsic gas too low"],
        ["/v2/tx/contract/deploy", { from, input: DEPLOY_INPUT, gas: intrinsic("deploy", "tx", 0, DEPLOY_INPUT) - 1 }, 1065001],
        ["/v2/tx/contract/deploy", { from, input: DEPLOY_INPUT, value: "0x1", gas: 999_999_999 }, 1065001, "failed to send a raw transaction to klaytn node; -32000::insufficient funds of the sender for value "],
        ["/v2/tx/contract/execute", { from, to: token, input: "0x", nonce: 7 }, 1065001],
        // Calls.
        ["/v2/tx/contract/call", { data: { methodName: "totalSupply" } }, 1061608, "cannot be empty or zero value; to"],
        ["/v2/tx/contract/call", { to: token }, 1061608, "cannot be empty or zero value; data"],
        ["/v2/tx/contract/call", { to: token, data: {} }, 1061608, "cannot be empty or zero value; data.methodName"],
        ["/v2/tx/contract/call", { to: token, data: { methodName: "1x" } }, 1061615, "its value is out of range; data.methodName"],
        ["/v2/tx/contract/call", { to: token, data: { methodName: "balanceOf", arguments: [{ type: "address", value: "0x12" }] } }, 1061615, "its value is out of range; data.arguments"],
        ["/v2/tx/contract/call", { to: token, data: { methodName: "balanceOf", arguments: [{ type: "uint7", value: 1 }] } }, 1061615],
        ["/v2/tx/contract/call", { to: "0x12", data: { methodName: "totalSupply" } }, 1061609],
        ["/v2/tx/contract/call", { to: token, value: "1", data: { methodName: "totalSupply" } }, 1061607],
        ["/v2/tx/contract/call", { to: token, data: { methodName: "totalSupply" }, extra: 1 }, 1061615, "its value is out of range; extra"],
        // A revert on the node: the reason in the message.
        ["/v2/tx/contract/call", {
          from: OUTSIDER,
          to: token,
          data: { methodName: "transfer", arguments: [{ type: "address", value: from }, { type: "uint256", value: "1" }] }
        }, 1065001, "failed to call a contract on klaytn node; -32000::execution reverted: insufficient balance"],
        ["/v2/tx/contract/call", { to: token, gas: 21_500, data: { methodName: "totalSupply" } }, 1065001, "failed to call a contract on klaytn node; -32000::out of gas"]
      ]
      for (const [path, body, code, message] of refusals) {
        const reply = yield* c.api.post(path, body, path.includes("fd-user") ? {} : {})
        expectError(reply, 400, code)
        if (message !== undefined) expect(reply.body.message, `${path} ${JSON.stringify(body)}`).toBe(message)
      }
      expect(yield* c.state(watched)).toEqual(before)
      expect(yield* c.balanceOf(token, OUTSIDER)).toBe(0n)

      // submit: false signs and answers Pending, runs nothing and changes nothing.
      const unsent = c.ok(yield* c.execute("tx", { from, to: token, input: transferInput(OUTSIDER, 5n), submit: false }))
      expect(unsent).toMatchObject({ status: "Pending", typeInt: 0x30, nonce: 1 })
      const unsentDeploy = c.ok(yield* c.deploy("fd", { from, submit: false }))
      expect(unsentDeploy).toMatchObject({ status: "Pending", typeInt: 0x29 })
      expectError(yield* c.api.receipt(unsent.transactionHash), 400, 1065000)
      expect(yield* c.state(watched)).toEqual(before)
    }).pipe(Effect.provide(clientLayer)))

  it.scoped("contract/call: the calldata as the service encodes it, and the raw return data, at the latest state", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      const c = contracts(e)
      const from = yield* c.api.account()
      yield* Effect.orDie(e.fund(1001, from, KLAY))
      c.ok(yield* c.deploy("tx", { from }))
      const token = createdAddress(from, 0)
      // Interval mining: the contract exists once the deployment's block is made.
      yield* TestClock.adjust("1 second")
      const supply = c.ok(yield* c.call({ to: token, data: { methodName: "totalSupply" } }))
      expect(supply).toEqual({ data: selector("totalSupply()"), result: `0x${word(SUPPLY)}` })
      // Checksummed or not, a JSON number, a decimal or a hex string: one encoding.
      for (const value of [from, from.toLowerCase()]) {
        const reply = c.ok(yield* c.call({ from: OUTSIDER, to: token, value: "0x0", gas: 100_000, data: { methodName: "balanceOf", arguments: [{ type: "address", value }] } }))
        expect(reply).toEqual({ data: `${selector("balanceOf(address)")}${word(from)}`, result: `0x${word(SUPPLY)}` })
      }
      for (const amount of [7, "7", "0x7"]) {
        const reply = c.ok(yield* c.call({ from, to: token, data: { methodName: "transfer", arguments: [{ type: "address", value: OUTSIDER }, { type: "uint256", value: amount }] } }))
        expect(reply.data).toBe(transferInput(OUTSIDER, 7n))
        expect(reply.result).toBe(`0x${word(1n)}`)
      }
      // Read only: the transfer the calls ran is not kept.
      expect(yield* c.balanceOf(token, OUTSIDER)).toBe(0n)
      // A string result, ABI-encoded: offset, length, bytes.
      const name = c.ok(yield* c.call({ to: token, data: { methodName: "name", arguments: [] } }))
      expect(name.result).toBe(`0x${word(32n)}${word(9n)}${Buffer.from("Kas Token").toString("hex").padEnd(64, "0")}`)
      // An address without code answers nothing, as Klaytn's call does.
      expect(c.ok(yield* c.call({ to: OUTSIDER, data: { methodName: "totalSupply" } }))).toEqual({ data: selector("totalSupply()"), result: "0x" })
      expect(Schema.decodeUnknownSync(Transaction.ContractCallResult)(supply)).toEqual(supply)
    }).pipe(Effect.provide(clientLayer)))

  it.scoped("state survives a restart on the same database; a contract on 1001 does not exist on 8217", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.acquireRelease(
        Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-contracts-"))),
        (d) => Effect.promise(() => fs.rm(d, { recursive: true, force: true }))
      )
      const database = path.join(dir, "emulator.db")
      const first = yield* Effect.scoped(Effect.gen(function*() {
        const e = yield* scopedEmulator({ database })
        const c = contracts(e)
        const from = yield* c.api.account()
        yield* Effect.orDie(e.fund(1001, from, KLAY))
        yield* Effect.orDie(e.fund(8217, from, KLAY))
        c.ok(yield* c.deploy("tx", { from }))
        yield* TestClock.adjust("1 second")
        const sent = c.ok(yield* c.execute("tx", { from, to: createdAddress(from, 0), input: transferInput(OUTSIDER, 99n) }))
        // Interval mining: the emulator stops once the execution's block is made.
        yield* TestClock.adjust("1 second")
        expect(yield* c.balanceOf(createdAddress(from, 0), OUTSIDER)).toBe(99n)
        return { member: e.member, from, hash: sent.transactionHash as string }
      }))
      const token = createdAddress(first.from, 0)

      const e = yield* scopedEmulator({ database, member: { accessKeyId: first.member.accessKeyId, secretAccessKey: first.member.secretAccessKey } })
      const c = contracts(e)
      expect(yield* c.balanceOf(token, OUTSIDER)).toBe(99n)
      expect(yield* c.balanceOf(token, first.from)).toBe(SUPPLY - 99n)
      const receipt = yield* c.receipt(first.hash)
      expect(receipt.logs[0].topics).toEqual([TRANSFER_EVENT, `0x${word(first.from)}`, `0x${word(OUTSIDER)}`])
      // It goes on from there.
      c.ok(yield* c.execute("tx", { from: first.from, to: token, input: transferInput(OUTSIDER, 1n) }))
      yield* TestClock.adjust("1 second")
      expect(yield* c.balanceOf(token, OUTSIDER)).toBe(100n)

      // Mainnet: the address holds no code there; a contract made there is not on testnet.
      expect(c.ok(yield* c.call({ to: token, data: { methodName: "totalSupply" } }, 8217)).result).toBe("0x")
      const onMainnet = yield* c.api.account({ chainId: 8217 })
      yield* Effect.orDie(e.fund(8217, onMainnet, KLAY))
      const mainnet = yield* c.execute("tx", { from: onMainnet, to: token, input: transferInput(OUTSIDER, 1n) }, 8217)
      expectError(mainnet, 400, 1065001)
      expect(mainnet.body.message).toBe(NOT_A_PROGRAM)
      c.ok(yield* c.deploy("tx", { from: onMainnet }, 8217))
      yield* TestClock.adjust("1 second")
      const mainnetToken = createdAddress(onMainnet, 0)
      expect(yield* c.balanceOf(mainnetToken, onMainnet, 8217)).toBe(SUPPLY)
      expect(c.ok(yield* c.call({ to: mainnetToken, data: { methodName: "totalSupply" } })).result).toBe("0x")
      expect(yield* c.balanceOf(token, OUTSIDER)).toBe(100n)
    }).pipe(Effect.provide(clientLayer)))
})

describe("the EVM's gas budget", () => {
  // Runtime code that returns the gas left when it starts (GAS PUSH1 0 MSTORE PUSH1 32 PUSH1 0
  // RETURN), behind creation code that returns it (PUSH9 <runtime> PUSH1 0 MSTORE PUSH1 9 PUSH1 23 RETURN).
  const GAS_LEFT = "0x685a60005260206000f3600052600960" + "17f3"

  /** A transaction asking one gas more than `limit` is refused with 1065001 and changes nothing; at `limit` it is sent. */
  const limitHolds = (e: Emulator.Service, from: string, to: string, limit: number) =>
    Effect.gen(function*() {
      const c = contracts(e)
      const before = yield* c.state([from, e.globalFeePayer(1001)])
      const refused = yield* c.execute("fd", { from, to, input: "0x", gas: limit + 1 })
      expectError(refused, 400, 1065001)
      expect(refused.text).toContain("exceeds block gas limit")
      expect(yield* c.state([from, e.globalFeePayer(1001)])).toEqual(before)
      c.ok(yield* c.execute("fd", { from, to, input: "0x", gas: limit }))
    })

  it.scoped("a call's gas is capped at the EVM's gas cap (50,000,000); a transaction asking more than the block gas limit (30,000,000) is refused with 1065001 and changes nothing", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      expect(e.evm.gasCap).toBe(50_000_000)
      const c = contracts(e)
      const from = yield* c.api.account()
      c.ok(yield* c.deploy("fd", { from, input: GAS_LEFT }))
      yield* TestClock.adjust("1 second")
      const probe = createdAddress(from, 0)
      const left = (gas: number) =>
        Effect.map(c.call({ to: probe, gas, data: { methodName: "gasLeft" } }), (reply) => BigInt(c.ok(reply).result))
      const small = yield* left(100_000)
      expect(small).toBeGreaterThan(0n)
      expect(small).toBeLessThan(100_000n)
      // Far above the cap: the EVM starts with the cap less the intrinsic gas, not with 10^12.
      const huge = yield* left(10 ** 12)
      expect(huge).toBeGreaterThan(49_000_000n)
      expect(huge).toBeLessThan(50_000_000n)

      yield* limitHolds(e, from, probe, 30_000_000)
    }).pipe(Effect.provide(clientLayer)))

  it.scoped("a lower gas cap caps calls and transactions alike", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator({ evm: { gasCap: 1_000_000 } })
      const c = contracts(e)
      const from = yield* c.api.account()
      c.ok(yield* c.deploy("fd", { from, input: GAS_LEFT, gas: 200_000 }))
      yield* TestClock.adjust("1 second")
      const probe = createdAddress(from, 0)
      const huge = BigInt(c.ok(yield* c.call({ to: probe, gas: 10 ** 12, data: { methodName: "gasLeft" } })).result)
      expect(huge).toBeGreaterThan(900_000n)
      expect(huge).toBeLessThan(1_000_000n)
      // Without a gas: the default call gas (10,000,000) is above the cap, so the cap.
      const unset = BigInt(c.ok(yield* c.call({ to: probe, data: { methodName: "gasLeft" } })).result)
      expect(unset).toBe(huge)
      yield* limitHolds(e, from, probe, 1_000_000)
    }).pipe(Effect.provide(clientLayer)))

  it.live("limits out of range fail the layer with a configuration error naming them", () =>
    Effect.gen(function*() {
      for (const evm of [{ gasCap: 20_999 }, { gasCap: 1_000_000.5 }, { timeout: 0 }, { timeout: "30 days" as const }, { workers: 0 }, { workers: 65 }]) {
        const failed = yield* Effect.flip(Effect.scoped(Emulator.make({ port: 0, evm })))
        expect(failed.reason, JSON.stringify(evm)).toBe("Config")
        expect(failed.message).toMatch(/the EVM's (gas cap|timeout|workers)/)
      }
    }))
})

describe("call arguments from a hostile client", () => {
  it.scoped("a type nested 20,000 arrays deep is refused with 1061615, not a 500", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      const c = contracts(e)
      const reply = yield* c.call({ to: OUTSIDER, data: { methodName: "f", arguments: [{ type: `uint8${"[]".repeat(20_000)}`, value: [] }] } })
      expectError(reply, 400, 1061615)
    }).pipe(Effect.provide(clientLayer)))
})

describe("contract routes under random bodies", () => {
  it.scoped("every contract route answers a random body with 200 or a 4xx KAS error body, never a 5xx; a refused one changes nothing", () =>
    Effect.gen(function*() {
      const e = yield* scopedEmulator()
      const c = contracts(e)
      const { from, payer, token } = yield* withToken(e, c)
      const watched = [from, payer, token, OUTSIDER]
      const runtime = yield* Effect.runtime<HttpClient.HttpClient>()
      const run = <A>(effect: Effect.Effect<A, never, HttpClient.HttpClient>) => Runtime.runPromise(runtime)(effect)

      const value = fc.oneof(
        fc.constantFrom<unknown>(from, token, payer, OUTSIDER, from.toUpperCase(), "0x", "0x0", "0x123", "0xzz", "", null, -1, 0, 1.5, 2 ** 60, true, [], {}, "0x" + "0".repeat(40)),
        fc.constantFrom(DEPLOY_INPUT, transferInput(OUTSIDER, 1n), "0xa9059cbb"),
        fc.record({ methodName: fc.constantFrom("balanceOf", "totalSupply", "transfer", "", "1x", "a b"), arguments: fc.array(fc.record({ type: fc.constantFrom("address", "uint256", "uint7", "bool", "bytes32", "string[]"), value: fc.constantFrom<unknown>(from, 1, "1", -1, true, "0x00", [], "x") }), { maxLength: 2 }) }),
        fc.string({ maxLength: 12 }),
        fc.integer()
      )
      const body = fc.dictionary(
        fc.constantFrom("from", "to", "input", "value", "nonce", "gas", "submit", "feeRatio", "feePayer", "data", "fee_payer", "memo"),
        value,
        { maxKeys: 6 }
      )
      const route = fc.constantFrom(
        "/v2/tx/contract/deploy",
        "/v2/tx/fd/contract/deploy",
        "/v2/tx/fd-user/contract/deploy",
        "/v2/tx/contract/execute",
        "/v2/tx/fd/contract/execute",
        "/v2/tx/fd-user/contract/execute",
        "/v2/tx/contract/call"
      )
      let answered = 0
      let refused = 0
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(route, body, async (path, b) => {
            const before = await run(c.state(watched))
            const reply = await run(c.api.post(path, b))
            answered++
            expect(reply.status, `${path} ${JSON.stringify(b)}: ${reply.text}`).toBeLessThan(500)
            if (reply.status === 200) return
            refused++
            expect(reply.status).toBeGreaterThanOrEqual(400)
            const error = reply.body as { readonly code?: unknown; readonly message?: unknown }
            expect(typeof error.code, reply.text).toBe("number")
            expect(typeof error.message, reply.text).toBe("string")
            expect(await run(c.state(watched))).toEqual(before)
          }),
          { numRuns: 50 }
        )
      )
      // Most random bodies are refused: the property is about refusals, not a vacuous pass.
      expect(refused).toBeGreaterThan(answered / 2)
    }).pipe(Effect.provide(clientLayer)))
})

