/**
 * `npm run conformance`: the official JavaScript client (caver-js-ext-kas 1.12, installed on
 * demand into a cache folder) against the emulator, unmodified: each of its wallet methods that the
 * emulator serves is called and its result checked. Prints one line per method, then the client's
 * wallet methods left unchecked with the feature each needs (outside the emulator's scope), and
 * exits 1 when any checked method fails (2 when the client cannot be installed).
 *
 * The transaction methods send from accounts funded through the emulator's console, check the
 * result against what was sent, the balances the console reads afterwards, the global fee payer's
 * bill, and the receipts once committed (a 50 ms block interval keeps the wait short).
 *
 * caver-js inside the official client is pointed at the emulator's node route (`POST /v1/klaytn`,
 * `initNodeAPI`): the KASWallet flows read account keys, nonces and the gas price from it, and
 * `caver.rpc.klay` reads balances, receipts, transactions and contract state and sends what caver's
 * own keyring signs (./node.ts).
 *
 * Not part of `npm test`: installing the official client takes minutes and the network.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Option, Redacted } from "effect"
import assert from "node:assert/strict"
import { setTimeout as sleep } from "node:timers/promises"
import { inspect } from "node:util"
import { Emulator } from "../../src/index.js"
import { cacheDir, loadCaver } from "../support/caver.js"
import { operationsOf, official } from "../../../../test/support/officialSpec.js"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import YAML from "yaml"
import artifacts from "../fixtures/contracts/artifacts.json" with { type: "json" }
import { kasWalletChecks, kindChecks } from "./kinds.js"
import { nodeChecks } from "./node.js"
import { registrationChecks } from "./registration.js"

interface Check {
  readonly method: string
  readonly run: () => Promise<void>
}

/** What the checks need of the emulator besides its HTTP interface: its console, in-process. */
interface Backstage {
  /** Credits test value (peb) on chain 1001. */
  readonly fund: (address: string, peb: bigint) => Promise<void>
  /** The balance (peb) of an address on chain 1001. */
  readonly balance: (address: string) => Promise<bigint>
  /** The global fee payer of chain 1001, lower case. */
  readonly globalFeePayer: string
  /** The member's bill from the global fee payer on chain 1001 (zero before the first one). */
  readonly bill: () => Promise<{ readonly fees: bigint; readonly transactions: number }>
}

const codeOf = (e: any): number | undefined => e?._code ?? e?.response?.body?.code ?? e?.body?.code ?? e?.code

const KLAY = 10n ** 18n
/** An address no member holds. */
const Stranger = `0x${"34".repeat(20)}`
/** The emulator's gas price on both chains, 25 ston, as Klaytn's. */
const GasPrice = 25_000_000_000n
const fee = (gas: number) => BigInt(gas) * GasPrice
/** Klaytn's intrinsic gas of a value transfer, from its parameters (not the emulator's code). */
const intrinsic = (delegated: "no" | "full" | "ratio", memoBytes: number) =>
  21_000 + (delegated === "full" ? 10_000 : delegated === "ratio" ? 15_000 : 0) + 100 * memoBytes

/** A transaction sent by a check: what the receipt must show. */
interface Sent {
  readonly method: string
  readonly hash: string
  readonly from: string
  readonly to: string
  readonly value: bigint
  readonly typeInt: number
  readonly feePayer: string | undefined
  readonly gasUsed: number
}

/** A transaction result (TransactionResult / FDTransactionResult) against what was asked. */
const checkResult = (result: any, expected: Omit<Sent, "method" | "hash" | "gasUsed"> & { readonly feeRatio?: number }) => {
  assert.equal(result.status, "Submitted")
  assert.match(result.transactionHash, /^0x[0-9a-f]{64}$/)
  assert.equal(result.from, expected.from.toLowerCase())
  assert.equal(result.to, expected.to.toLowerCase())
  assert.equal(BigInt(result.value), expected.value)
  assert.equal(result.typeInt, expected.typeInt)
  assert.equal(result.nonce, 0)
  assert.equal(BigInt(result.gasPrice), GasPrice)
  assert.equal(result.rlp.slice(0, 4), `0x${expected.typeInt.toString(16).padStart(2, "0")}`)
  assert.equal(result.signatures.length, 1)
  assert.equal(result.feePayer, expected.feePayer?.toLowerCase())
  assert.equal(result.feeRatio, expected.feeRatio)
}

/** The checks, in order: each may use what the previous ones made. */
const checks = (wallet: any, accountId: string, backstage: Backstage): ReadonlyArray<Check> => {
  const state: { address?: string; publicKey?: string; feePayer?: string; sent: Array<Sent> } = { sent: [] }
  const keys: { created: Array<any> } = { created: [] }
  /** A new account of the default pool holding 1 KLAY, and a new account to send to. */
  const parties = async () => {
    const from: string = (await wallet.createAccount()).address
    const to: string = (await wallet.createAccount()).address
    await backstage.fund(from, KLAY)
    return { from, to }
  }
  return [
    {
      method: "createAccount",
      run: async () => {
        const account = await wallet.createAccount()
        assert.match(account.address, /^0x[0-9a-fA-F]{40}$/)
        assert.equal(account.krn, `krn:1001:wallet:${accountId}:account-pool:default`)
        state.address = account.address
        state.publicKey = account.publicKey
      }
    },
    {
      method: "getAccount",
      run: async () => assert.equal((await wallet.getAccount(state.address)).address, state.address)
    },
    {
      method: "getAccountList",
      run: async () => {
        await wallet.createAccount()
        const page = await wallet.getAccountList({ size: 1 })
        assert.equal(page.items.length, 1)
        assert.notEqual(page.cursor, "")
        const rest = await wallet.getAccountList({ size: 1000, cursor: page.cursor })
        assert.ok(rest.items.some((a: any) => a.address === state.address))
      }
    },
    {
      method: "getAccountListByPublicKey",
      run: async () => {
        const found = await wallet.getAccountListByPublicKey(state.publicKey)
        assert.deepEqual(found.items.map((a: any) => a.address.toLowerCase()), [state.address!.toLowerCase()])
      }
    },
    {
      method: "disableAccount",
      run: async () => {
        const result = await wallet.disableAccount(state.address)
        assert.equal(result.address, state.address)
        const enabled = await wallet.getAccountList({ size: 1000 })
        assert.ok(!enabled.items.some((a: any) => a.address === state.address))
        // An address the service never held, as its live tests expect (kasWalletIntTest INT-124).
        await assert.rejects(wallet.disableAccount(Stranger), (e: any) =>
          codeOf(e) === 1061510 && e.message === "account has been already deleted or disabled")
      }
    },
    {
      method: "enableAccount",
      run: async () => {
        const result = await wallet.enableAccount(state.address)
        assert.equal(result.address, state.address)
        // kasWalletIntTest INT-126.
        await assert.rejects(wallet.enableAccount(Stranger), (e: any) =>
          codeOf(e) === 1061511 && e.message === "account has been already deleted or enabled")
        const enabled = await wallet.getAccountList({ size: 1000 })
        assert.ok(enabled.items.some((a: any) => a.address === state.address))
      }
    },
    {
      method: "getAccountCount",
      run: async () => {
        const result = await wallet.getAccountCount()
        assert.equal(result.count, 2)
      }
    },
    {
      method: "getAccountCountByKRN",
      run: async () => {
        const result = await wallet.getAccountCountByKRN()
        assert.equal(result.count, 2)
      }
    },
    {
      method: "deleteAccount",
      run: async () => {
        const result = await wallet.deleteAccount(state.address)
        assert.equal(result.status, "deleted")
        await assert.rejects(wallet.getAccount(state.address), (e) => codeOf(e) === 1061010)
      }
    },
    {
      method: "createFeePayer",
      run: async () => {
        const payer = await wallet.createFeePayer()
        assert.match(payer.address, /^0x[0-9a-fA-F]{40}$/)
        assert.match(payer.krn, /:feepayer-pool:/)
        state.feePayer = payer.address
      }
    },
    {
      method: "getFeePayerList",
      run: async () => {
        const page = await wallet.getFeePayerList({ size: 10 })
        assert.ok(page.items.some((a: any) => a.address === state.feePayer))
      }
    },
    {
      method: "getFeePayer",
      run: async () => assert.equal((await wallet.getFeePayer(state.feePayer)).address, state.feePayer)
    },
    {
      method: "requestValueTransfer",
      run: async () => {
        const { from, to } = await parties()
        // Above 2^53, as a decimal string: the client turns it into hex itself.
        const value = 10n ** 17n + 12_345n
        const result = await wallet.requestValueTransfer({ from, to, value: value.toString(), memo: "memo", submit: true })
        const expected = { from, to, value, typeInt: 0x10, feePayer: undefined }
        checkResult(result, expected)
        assert.equal(result.input, "0x6d656d6f")
        const gasUsed = intrinsic("no", 4)
        assert.equal(await backstage.balance(from), KLAY - value - fee(gasUsed))
        assert.equal(await backstage.balance(to), value)
        // More than the sender holds: the node's refusal (400 1065001) reaches the client, and
        // nothing moves.
        await assert.rejects(
          wallet.requestValueTransfer({ from, to, value: KLAY.toString(), submit: true }),
          (e) => codeOf(e) === 1065001
        )
        assert.equal(await backstage.balance(from), KLAY - value - fee(gasUsed))
        state.sent.push({ method: "requestValueTransfer", hash: result.transactionHash, ...expected, gasUsed })
      }
    },
    {
      method: "requestFDValueTransferPaidByGlobalFeePayer",
      run: async () => {
        const { from, to } = await parties()
        const before = await backstage.bill()
        const result = await wallet.requestFDValueTransferPaidByGlobalFeePayer({ from, to, value: 7, feeRatio: 30, submit: true })
        const expected = { from, to, value: 7n, typeInt: 0x0a, feePayer: backstage.globalFeePayer }
        checkResult(result, { ...expected, feeRatio: 30 })
        const gasUsed = intrinsic("ratio", 0)
        const payerPart = (fee(gasUsed) * 30n) / 100n
        assert.equal(await backstage.balance(from), KLAY - 7n - (fee(gasUsed) - payerPart))
        assert.equal(await backstage.balance(to), 7n)
        assert.deepEqual(await backstage.bill(), { fees: before.fees + payerPart, transactions: before.transactions + 1 })
        state.sent.push({ method: "requestFDValueTransferPaidByGlobalFeePayer", hash: result.transactionHash, ...expected, gasUsed })
      }
    },
    {
      method: "requestFDValueTransferPaidByUser",
      run: async () => {
        assert.ok(state.feePayer !== undefined, "no fee-payer account (createFeePayer failed)")
        const { from, to } = await parties()
        await backstage.fund(state.feePayer, KLAY)
        const result = await wallet.requestFDValueTransferPaidByUser({ from, to, value: 9, feePayer: state.feePayer, submit: true })
        const expected = { from, to, value: 9n, typeInt: 0x09, feePayer: state.feePayer }
        checkResult(result, expected)
        // No ratio: the fee payer pays all of the fee, the sender only the value.
        const gasUsed = intrinsic("full", 0)
        assert.equal(await backstage.balance(from), KLAY - 9n)
        assert.equal(await backstage.balance(to), 9n)
        assert.equal(await backstage.balance(state.feePayer), KLAY - fee(gasUsed))
        state.sent.push({ method: "requestFDValueTransferPaidByUser", hash: result.transactionHash, ...expected, gasUsed })
      }
    },
    ...contractChecks(wallet, backstage, parties, () => state.feePayer),
    {
      method: "getTransaction",
      run: async () => {
        assert.ok(state.sent.length > 0, "no transaction was sent")
        for (const sent of state.sent) {
          const first = await wallet.getTransaction(sent.hash)
          // Pending until its block is made (at most one block interval), with no block fields.
          if (first.status === "Pending") assert.equal(first.blockNumber, undefined, sent.method)
          else assert.equal(first.status, "Committed", sent.method)
          let receipt = first
          for (let i = 0; receipt.status !== "Committed"; i++) {
            assert.ok(i < 200, `${sent.method}: not committed after 10 s`)
            await sleep(50)
            receipt = await wallet.getTransaction(sent.hash)
          }
          const context = `${sent.method}'s receipt`
          assert.equal(receipt.transactionHash, sent.hash, context)
          assert.equal(receipt.hash, sent.hash, context)
          assert.equal(receipt.from, sent.from.toLowerCase(), context)
          assert.equal(receipt.to, sent.to.toLowerCase(), context)
          assert.equal(BigInt(receipt.value), sent.value, context)
          assert.equal(receipt.typeInt, sent.typeInt, context)
          assert.equal(receipt.feePayer, sent.feePayer?.toLowerCase(), context)
          assert.equal(receipt.feePayerSignatures?.length, sent.feePayer === undefined ? undefined : 1, context)
          assert.equal(Number(receipt.gasUsed), sent.gasUsed, context)
          assert.equal(BigInt(receipt.gasPrice), GasPrice, context)
          assert.equal(BigInt(receipt.nonce), 0n, context)
          assert.ok(Number(receipt.blockNumber) >= 1, context)
          assert.match(receipt.blockHash, /^0x[0-9a-f]{64}$/, context)
          // The sender's hash leaves the fee payer out: the same as the hash only without one.
          assert.equal(receipt.senderTxHash === sent.hash, sent.feePayer === undefined, context)
        }
        await assert.rejects(wallet.getTransaction(`0x${"ab".repeat(32)}`), (e) => codeOf(e) === 1065000)
      }
    },
    {
      method: "deleteFeePayer",
      run: async () => {
        const result = await wallet.deleteFeePayer(state.feePayer)
        assert.equal(result.status, "deleted")
        await assert.rejects(wallet.getFeePayer(state.feePayer), (e) => codeOf(e) === 1061010)
      }
    },
    {
      method: "createKeys",
      run: async () => {
        const created = await wallet.createKeys(3)
        assert.equal(created.items.length, 3)
        for (const key of created.items) {
          assert.equal(key.krn, `krn:1001:wallet:${accountId}:key-pool:default`)
          assert.match(key.keyId, /^krn:1001:wallet:.+:key-pool:default:0x[0-9a-f]{64}$/)
          assert.match(key.publicKey, /^0x04[0-9a-f]{128}$/)
        }
        keys.created = created.items
      }
    },
    {
      method: "getKeyListByKRN",
      run: async () => {
        const krn = `krn:1001:wallet:${accountId}:key-pool:default`
        const page = await wallet.getKeyListByKRN(krn, { size: 1 })
        assert.equal(page.items.length, 1)
        assert.notEqual(page.cursor, "")
        const rest = await wallet.getKeyListByKRN(krn, { size: 1000, cursor: page.cursor })
        const ids = [...page.items, ...rest.items].map((k: any) => k.keyId)
        for (const key of keys.created) assert.ok(ids.includes(key.keyId), key.keyId)
      }
    },
    {
      method: "getKey",
      run: async () => {
        const key = await wallet.getKey(keys.created[0].keyId)
        assert.equal(key.keyId, keys.created[0].keyId)
        assert.equal(key.publicKey, keys.created[0].publicKey)
      }
    },
    {
      method: "signMessage",
      run: async () => {
        const hash = `0x${"5a".repeat(32)}`
        const { signedData } = await wallet.signMessage(keys.created[0].keyId, hash)
        assert.match(signedData, /^0x[0-9a-f]{128}0[01]$/)
        // r, s, v (the recovery id) recovered over the hash as given, to the key's public key.
        const bytes = Buffer.from(signedData.slice(2), "hex")
        const recovered = secp256k1.Signature.fromBytes(Buffer.concat([bytes.subarray(64), bytes.subarray(0, 64)]), "recovered")
          .recoverPublicKey(Buffer.from(hash.slice(2), "hex"))
        assert.equal(`0x${recovered.toHex(false)}`, keys.created[0].publicKey)
      }
    },
    {
      method: "deleteKey",
      run: async () => {
        const result = await wallet.deleteKey(keys.created[0].keyId)
        assert.equal(result.status, "deleted")
        await assert.rejects(wallet.getKey(keys.created[0].keyId), (e) => codeOf(e) === 1061010)
      }
    }
  ]
}

/** Waits for a transaction's receipt to commit (50 ms blocks), through the official client. */
const committed = async (wallet: any, hash: string) => {
  for (let i = 0; ; i++) {
    const receipt = await wallet.getTransaction(hash).catch((e: unknown) => (codeOf(e) === 1065000 ? undefined : Promise.reject(e)))
    if (receipt !== undefined && receipt.status !== "Pending") return receipt
    assert.ok(i < 200, `${hash}: not committed after 10 s`)
    await sleep(50)
  }
}

/** Klaytn's intrinsic gas of a contract transaction, from its parameters (not the emulator's code). */
const contractIntrinsic = (kind: "deploy" | "execute", delegated: "no" | "full" | "ratio", inputBytes: number) =>
  (kind === "deploy" ? 53_000 : 21_000) + (delegated === "full" ? 10_000 : delegated === "ratio" ? 15_000 : 0) + 100 * inputBytes

/**
 * The contract methods: Counter (test/fixtures/contracts) deployed with each fee payer, its
 * `add`/`increment` executed with each, and its `count` read back through `callContract`; the
 * results, receipts (contract address, status, gas above Klaytn's intrinsic gas), fees and the
 * global fee payer's bill checked.
 */
const contractChecks = (
  wallet: any,
  backstage: Backstage,
  parties: () => Promise<{ from: string; to: string }>,
  feePayer: () => string | undefined
): ReadonlyArray<Check> => {
  const counter = artifacts.contracts.Counter
  // Counter(start): the creation code and the constructor's uint256 argument.
  const deployInput = (start: number) => `${counter.bytecode}${start.toString(16).padStart(64, "0")}`
  const inputBytes = (hex: string) => (hex.length - 2) / 2
  const count = async (address: string) => BigInt((await wallet.callContract(address, "count")).result)
  const contracts: Array<string> = []
  let from = ""

  const deploy = async (
    method: string,
    delegated: "no" | "full" | "ratio",
    extra: Record<string, unknown>,
    expected: { typeInt: number; feePayer?: string; feeRatio?: number }
  ) => {
    if (from === "") from = (await parties()).from
    const before = await backstage.balance(from)
    const start = contracts.length + 5
    const input = deployInput(start)
    const result = await wallet[method]({ from, value: 0, input, gas: 2_000_000, submit: true, ...extra })
    assert.equal(result.status, "Submitted")
    assert.equal(result.typeInt, expected.typeInt)
    assert.equal(result.to, undefined)
    assert.equal(result.input, input.toLowerCase())
    assert.equal(result.feePayer, expected.feePayer)
    assert.equal(result.feeRatio, expected.feeRatio)
    assert.equal(result.rlp.slice(0, 4), `0x${expected.typeInt.toString(16)}`)
    const receipt = await committed(wallet, result.transactionHash)
    assert.equal(receipt.status, "Committed")
    assert.match(receipt.contractAddress, /^0x[0-9a-f]{40}$/)
    assert.ok(Number(receipt.gasUsed) > contractIntrinsic("deploy", delegated, inputBytes(input)), "gas used above the intrinsic gas")
    assert.equal(await count(receipt.contractAddress), BigInt(start))
    contracts.push(receipt.contractAddress)
    return { before, gasUsed: Number(receipt.gasUsed) }
  }

  const execute = async (
    method: string,
    delegated: "no" | "full" | "ratio",
    extra: Record<string, unknown>,
    expected: { typeInt: number; feePayer?: string; feeRatio?: number }
  ) => {
    const contract = contracts.at(-1)
    assert.ok(contract !== undefined, "no contract was deployed")
    const was = await count(contract)
    const before = await backstage.balance(from)
    // add(uint256 7)
    const input = `0x1003e2d2${(7).toString(16).padStart(64, "0")}`
    const result = await wallet[method]({ from, to: contract, value: 0, input, gas: 500_000, submit: true, ...extra })
    assert.equal(result.typeInt, expected.typeInt)
    assert.equal(result.to, contract.toLowerCase())
    assert.equal(result.feePayer, expected.feePayer)
    assert.equal(result.feeRatio, expected.feeRatio)
    const receipt = await committed(wallet, result.transactionHash)
    assert.equal(receipt.status, "Committed")
    assert.ok(Number(receipt.gasUsed) > contractIntrinsic("execute", delegated, inputBytes(input)), "gas used above the intrinsic gas")
    assert.equal(await count(contract), was + 7n)
    return { before, gasUsed: Number(receipt.gasUsed) }
  }

  return [
    {
      method: "requestSmartContractDeploy",
      run: async () => {
        const { before, gasUsed } = await deploy("requestSmartContractDeploy", "no", {}, { typeInt: 0x28 })
        assert.equal(await backstage.balance(from), before - fee(gasUsed))
      }
    },
    {
      method: "requestSmartContractExecution",
      run: async () => {
        const { before, gasUsed } = await execute("requestSmartContractExecution", "no", {}, { typeInt: 0x30 })
        assert.equal(await backstage.balance(from), before - fee(gasUsed))
        // To an address without code: the node's refusal (400 1065001), and nothing changes.
        const { to } = await parties()
        const balance = await backstage.balance(from)
        await assert.rejects(
          wallet.requestSmartContractExecution({ from, to, value: 0, input: "0x1003e2d2", gas: 500_000, submit: true }),
          (e) => codeOf(e) === 1065001
        )
        assert.equal(await backstage.balance(from), balance)
      }
    },
    {
      method: "requestFDSmartContractDeployPaidByGlobalFeePayer",
      run: async () => {
        const bill = await backstage.bill()
        const expected = { typeInt: 0x2a, feePayer: backstage.globalFeePayer, feeRatio: 30 }
        const { before, gasUsed } = await deploy("requestFDSmartContractDeployPaidByGlobalFeePayer", "ratio", { feeRatio: 30 }, expected)
        const payerPart = (fee(gasUsed) * 30n) / 100n
        assert.equal(await backstage.balance(from), before - (fee(gasUsed) - payerPart))
        assert.deepEqual(await backstage.bill(), { fees: bill.fees + payerPart, transactions: bill.transactions + 1 })
      }
    },
    {
      method: "requestFDSmartContractExecutionPaidByGlobalFeePayer",
      run: async () => {
        const bill = await backstage.bill()
        const expected = { typeInt: 0x31, feePayer: backstage.globalFeePayer }
        const { before, gasUsed } = await execute("requestFDSmartContractExecutionPaidByGlobalFeePayer", "full", {}, expected)
        assert.equal(await backstage.balance(from), before)
        assert.deepEqual(await backstage.bill(), { fees: bill.fees + fee(gasUsed), transactions: bill.transactions + 1 })
      }
    },
    {
      method: "requestFDSmartContractDeployPaidByUser",
      run: async () => {
        const payer = feePayer()
        assert.ok(payer !== undefined, "no fee-payer account (createFeePayer failed)")
        await backstage.fund(payer, KLAY)
        const payerBefore = await backstage.balance(payer)
        const expected = { typeInt: 0x29, feePayer: payer.toLowerCase() }
        const { before, gasUsed } = await deploy("requestFDSmartContractDeployPaidByUser", "full", { feePayer: payer }, expected)
        assert.equal(await backstage.balance(from), before)
        assert.equal(await backstage.balance(payer), payerBefore - fee(gasUsed))
      }
    },
    {
      method: "requestFDSmartContractExecutionPaidByUser",
      run: async () => {
        const payer = feePayer()
        assert.ok(payer !== undefined, "no fee-payer account (createFeePayer failed)")
        const payerBefore = await backstage.balance(payer)
        const expected = { typeInt: 0x32, feePayer: payer.toLowerCase(), feeRatio: 40 }
        const { before, gasUsed } = await execute("requestFDSmartContractExecutionPaidByUser", "ratio", { feePayer: payer, feeRatio: 40 }, expected)
        const payerPart = (fee(gasUsed) * 40n) / 100n
        assert.equal(await backstage.balance(from), before - (fee(gasUsed) - payerPart))
        assert.equal(await backstage.balance(payer), payerBefore - payerPart)
      }
    },
    {
      method: "callContract",
      run: async () => {
        const contract = contracts[0]
        assert.ok(contract !== undefined, "no contract was deployed")
        // count(): no arguments; the calldata the service encoded is the selector alone.
        const plain = await wallet.callContract(contract, "count")
        assert.equal(plain.data, "0x06661abd")
        assert.equal(BigInt(plain.result), 12n)
        // With typed arguments and send options: add(uint256) runs read-only, and changes nothing.
        const withArgs = await wallet.callContract(contract, "add", [{ type: "uint256", value: 5 }], { from, gas: 300_000 })
        assert.equal(withArgs.data, `0x1003e2d2${"0".repeat(63)}5`)
        assert.equal(withArgs.result, "0x")
        assert.equal(await count(contract), 12n)
      }
    }
  ]
}

/**
 * The fee-delegation history, on chain 8217: the official client calls it on Cypress only. A
 * transfer the global fee payer pays (30 %), then its record by hash (once its block's time has
 * come) and in the listing, filtered by its sender.
 */
/**
 * The multisig methods, in the order of the official client's live tests: an account made
 * multisig (threshold 3 of three signers of weight 1), a transfer from it pending, one signer's
 * signature made by id (not kept), the pending listing, a signer signing, the signature made by id
 * appended, the last signer sending it; the balances show it moved.
 */
const multisigChecks = (wallet: any, backstage: Pick<Backstage, "fund" | "balance">): ReadonlyArray<Check> => {
  const state: { account?: string; signers: Array<any>; to?: string; pending?: any; signature?: any } = { signers: [] }
  const pending = () => {
    assert.ok(state.pending !== undefined, "no pending transaction (updateToMultiSigAccount or signTransaction failed)")
    return state.pending
  }
  return [
    {
      method: "updateToMultiSigAccount",
      run: async () => {
        const account = await wallet.createAccount()
        await backstage.fund(account.address, KLAY)
        for (let i = 0; i < 3; i++) state.signers.push(await wallet.createAccount())
        state.to = (await wallet.createAccount()).address
        const weightedMultisig = { threshold: 3, weightedKeys: state.signers.map((s) => ({ weight: 1, publicKey: s.publicKey })) }
        const result = await wallet.updateToMultiSigAccount(account.address, weightedMultisig)
        assert.equal(result.address, account.address)
        assert.equal(result.krn, account.krn)
        assert.equal(result.threshold, 3)
        assert.match(result.transactionHash, /^0x[0-9a-f]{64}$/)
        assert.deepEqual(JSON.parse(JSON.stringify(result.multiSigKeys)), weightedMultisig.weightedKeys)
        const shown = await wallet.getAccount(account.address)
        assert.equal(shown.threshold, 3)
        state.account = account.address
      }
    },
    {
      method: "signTransaction",
      run: async () => {
        assert.ok(state.account !== undefined, "no multisig account (updateToMultiSigAccount failed)")
        const tx = await wallet.requestValueTransfer({ from: state.account, to: state.to, value: 1, gas: 750000, submit: true })
        assert.equal(tx.status, "Pending")
        assert.equal(tx.nonce, 1)
        assert.equal(tx.rlp, undefined)
        state.pending = tx
        const signature = await wallet.signTransaction(state.signers[2].address, tx.transactionId)
        for (const part of ["V", "R", "S"]) assert.match(signature[part], /^0x[0-9a-f]+$/)
        state.signature = signature
      }
    },
    {
      method: "getMultiSigTransactionList",
      run: async () => {
        const list = await wallet.getMultiSigTransactionList(state.account)
        assert.equal(list.items.length, 1)
        assert.equal(list.items[0].transactionId, pending().transactionId)
        assert.equal(list.items[0].multiSigKeys.length, 3)
        assert.equal(list.items[0].txData.from.toLowerCase(), state.account!.toLowerCase())
      }
    },
    {
      method: "signMultiSigTransction",
      run: async () => {
        const result = await wallet.signMultiSigTransction(state.signers[0].address, pending().transactionId)
        assert.equal(result.signedWeight, 1)
        assert.equal(result.status, "Signed")
        assert.equal(result.transactionId, pending().transactionId)
        assert.equal(result.weight, 1)
        assert.equal(result.reminders.length, 2)
      }
    },
    {
      method: "appendSignatures",
      run: async () => {
        const result = await wallet.appendSignatures(pending().transactionId, state.signature)
        assert.equal(result.signedWeight, 2)
        assert.equal(result.status, "Signed")
        assert.equal(result.weight, 1)
        assert.equal(result.reminders.length, 1)
        // The last signer reaches the threshold: sent, and the value moves.
        const sent = await wallet.signMultiSigTransction(state.signers[1].address, pending().transactionId)
        assert.equal(sent.status, "Submitted")
        assert.match(sent.transactionHash, /^0x[0-9a-f]{64}$/)
        assert.equal(await backstage.balance(state.to!), 1n)
      }
    }
  ]
}

const historyChecks = (
  wallet: any,
  backstage: Pick<Backstage, "fund" | "globalFeePayer">
): ReadonlyArray<Check> => {
  const state: { hash?: string; from?: string } = {}
  const expectRecord = (item: any) => {
    assert.equal(item.chainId, 8217)
    assert.equal(item.transactionHash, state.hash)
    assert.equal(item.from, state.from!.toLowerCase())
    assert.equal(item.feePayer, backstage.globalFeePayer)
    const peb = (fee(intrinsic("ratio", 0)) * 30n) / 100n
    assert.equal(item.chargedByPeb, peb.toString())
    assert.equal(BigInt(Math.round(Number(item.chargedByKlay) * 1e18)), peb)
    assert.equal(item.gasPrice, `0x${GasPrice.toString(16)}`)
    assert.equal(Number(item.gasUsed), intrinsic("ratio", 0))
    assert.equal(item.typeInt, 0x0a)
    assert.equal(item.status, "0x1")
    // No exchange rate in the emulator.
    assert.deepEqual([item.krw, item.usd, item.chargedByKrw, item.chargedByUsd], [0, 0, "0", "0"])
  }
  return [
    {
      method: "getFDTransaction",
      run: async () => {
        const from: string = (await wallet.createAccount()).address
        const to: string = (await wallet.createAccount()).address
        await backstage.fund(from, KLAY)
        const sent = await wallet.requestFDValueTransferPaidByGlobalFeePayer({ from, to, value: 1, feeRatio: 30, submit: true })
        state.hash = sent.transactionHash
        state.from = from
        // In the history once in a block (50 ms blocks): until then, the spec's 1061010.
        let record: any
        for (let i = 0; record === undefined; i++) {
          record = await wallet.getFDTransaction(sent.transactionHash).catch((e: any) => {
            if (codeOf(e) !== 1061010 || i >= 40) throw e
            return sleep(25).then(() => undefined)
          })
        }
        expectRecord(record)
        await assert.rejects(wallet.getFDTransaction(`0x${"ab".repeat(32)}`), (e) => codeOf(e) === 1061010)
      }
    },
    {
      method: "getFDTransactionList",
      run: async () => {
        assert.ok(state.hash !== undefined, "no transaction (getFDTransaction failed)")
        const all = await wallet.getFDTransactionList()
        assert.equal(all.items.length, 1)
        assert.equal(all.cursor, "")
        expectRecord(all.items[0])
        const mine = await wallet.getFDTransactionList(state.from)
        assert.equal(mine.items.length, 1)
        expectRecord(mine.items[0])
        // Another sender has no record: the spec's 1061010.
        await assert.rejects(wallet.getFDTransactionList(`0x${"12".repeat(20)}`), (e) => codeOf(e) === 1061010)
      }
    }
  ]
}

/** The client's wallet methods the emulator does not serve, by the feature (and routes) each needs. */
// None left: every wallet method of the client is checked (a new one would be listed here).
const outOfScope: Readonly<Record<string, string>> = {}

/** A failure in one line: an assertion's message with what it compared, an error's message, or the body the client rejected with. */
const describe = (e: unknown): string => {
  if (e instanceof assert.AssertionError) {
    const compared = e.operator === "strictEqual" || e.operator === "deepStrictEqual"
      ? ` (got ${inspect(e.actual, { breakLength: Infinity })}, expected ${inspect(e.expected, { breakLength: Infinity })})`
      : ""
    return `${e.generatedMessage ? e.message.split("\n")[0]!.replace(/:$/, "") : e.message}${compared}`
  }
  return e instanceof Error ? e.message.split("\n")[0]! : JSON.stringify(e)
}

const main = Effect.scoped(Effect.gen(function*() {
  const loaded = loadCaver()
  if ("unavailable" in loaded) {
    process.stderr.write(`conformance: the official client could not be installed: ${loaded.unavailable}\n`)
    process.exitCode = 2
    return
  }
  // The document the operation table is checked against in `npm test`, through its fixture: the
  // fixture must be what the installed package's document says.
  const document = YAML.parse(
    readFileSync(join(cacheDir(), "node_modules", "caver-js-ext-kas", "yamls", "wallet", "2021-09-29-openapi-versioned.yaml"), "utf8")
  )
  const fixtureHolds = JSON.stringify(operationsOf(document)) === JSON.stringify(official())
  process.stdout.write(`the service's OpenAPI document: ${fixtureHolds ? "the same 50 operations as test/fixtures/spec/official-wallet-operations.json" : "FAILED: it differs from test/fixtures/spec/official-wallet-operations.json"}\n\n`)
  if (!fixtureHolds) process.exitCode = 1
  // A short block interval: receipts commit within 50 ms.
  const emulator = yield* Emulator.make({ port: 0, blockInterval: "50 millis" })
  const caver = new loaded.CaverExtKAS()
  caver.initWalletAPI(1001, emulator.member.accessKeyId, Redacted.value(emulator.member.secretAccessKey), emulator.url)
  const accountId = emulator.member.accountId
  const backstage: Backstage = {
    fund: (address, peb) => Effect.runPromise(Effect.asVoid(emulator.fund(1001, address, peb))),
    balance: (address) => Effect.runPromise(Effect.map(emulator.balance(1001, address), (b) => b.balance)),
    globalFeePayer: emulator.globalFeePayer(1001).toLowerCase(),
    bill: () =>
      Effect.runPromise(Effect.map(emulator.feeBills({ accountId, chainId: 1001 }), (bills) =>
        Option.match(Option.fromNullable(bills[0]), {
          onNone: () => ({ fees: 0n, transactions: 0 }),
          onSome: (b) => ({ fees: b.fees, transactions: b.transactions })
        })))
  }
  const wallet = caver.kas.wallet
  // The fee-delegation history: the official client serves it on Cypress (8217) only. Made before
  // the client below sets its node: a new client resets the provider caver's modules share.
  const cypressCaver = new loaded.CaverExtKAS()
  cypressCaver.initWalletAPI(8217, emulator.member.accessKeyId, Redacted.value(emulator.member.secretAccessKey), emulator.url)
  const cypress = {
    fund: (address: string, peb: bigint) => Effect.runPromise(Effect.asVoid(emulator.fund(8217, address, peb))),
    globalFeePayer: emulator.globalFeePayer(8217).toLowerCase()
  }
  // The other kinds on a second emulator mining by hand: a cancel meets its pending transaction
  // every time, and each receipt commits exactly when the check mines.
  const manual = yield* Emulator.make({ port: 0, mining: "manual" })
  const manualCaver = new loaded.CaverExtKAS()
  manualCaver.initWalletAPI(1001, manual.member.accessKeyId, Redacted.value(manual.member.secretAccessKey), manual.url)
  const manualWallet = manualCaver.kas.wallet
  let manualFeePayer: string | undefined
  const kindsBackstage = {
    fund: (address: string, peb: bigint) => Effect.runPromise(Effect.asVoid(manual.fund(1001, address, peb))),
    account: (address: string) => Effect.runPromise(Effect.map(manual.balance(1001, address), (b) => ({ balance: b.balance, nonce: b.nonce }))),
    mine: () => Effect.runPromise(Effect.asVoid(manual.mine(1001))),
    globalFeePayer: manual.globalFeePayer(1001).toLowerCase()
  }
  const kindParties = async () => {
    const from: string = (await manualWallet.createAccount()).address
    const to: string = (await manualWallet.createAccount()).address
    await kindsBackstage.fund(from, KLAY)
    if (manualFeePayer === undefined) {
      manualFeePayer = (await manualWallet.createFeePayer()).address as string
      await kindsBackstage.fund(manualFeePayer, KLAY)
    }
    return { from, to }
  }
  // What KASWallet asks a Klaytn node (account keys, nonces, the gas price), and what caver reads
  // and sends through caver.rpc.klay: the emulator's own node route, the KAS Node API's path.
  manualCaver.initNodeAPI(1001, manual.member.accessKeyId, Redacted.value(manual.member.secretAccessKey), true, `${manual.url}/v1/klaytn`)
  const list = [
    ...checks(wallet, accountId, backstage),
    ...multisigChecks(wallet, backstage),
    ...historyChecks(cypressCaver.kas.wallet, cypress),
    ...kindChecks(manualWallet, kindsBackstage, kindParties, () => manualFeePayer),
    ...registrationChecks(manualCaver, kindsBackstage)
  ]
  const flows = kasWalletChecks(manualCaver, kindsBackstage, kindParties, () => manualFeePayer)
  const node = nodeChecks(manualCaver, manualWallet, kindsBackstage)
  const width = Math.max(...[...list, ...flows, ...node].map((c) => c.method.length)) + 1
  const run = (checks: ReadonlyArray<Check>) =>
    Effect.reduce(checks, 0, (failures, check) =>
      Effect.map(Effect.promise(() => check.run().then(() => "ok", (e) => `FAILED: ${describe(e)}`)), (outcome) => {
        process.stdout.write(`${check.method.padEnd(width)} ${outcome}\n`)
        return failures + (outcome === "ok" ? 0 : 1)
      }))
  const failed = yield* run(list)
  process.stdout.write("\ncaver.wallet (KASWallet), signing through the raw-RLP routes:\n")
  const flowsFailed = yield* run(flows)
  process.stdout.write("\ncaver-js through the node route (POST /v1/klaytn, initNodeAPI), its own keyring signing:\n")
  const nodeFailed = yield* run(node)

  // The client's other wallet methods, and what each would need of the emulator.
  const checked = new Set(list.map((c) => c.method))
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(wallet)).filter((name) => {
    const descriptor = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(wallet), name)!
    return name !== "constructor" && typeof descriptor.value === "function"
  })
  const unchecked = methods.filter((m) => !checked.has(m))
  const byFeature = new Map<string, Array<string>>()
  for (const m of unchecked) {
    const feature = outOfScope[m] ?? "not classified"
    byFeature.set(feature, [...(byFeature.get(feature) ?? []), m])
  }
  process.stdout.write(`\nnot checked: ${unchecked.length} method(s) whose feature the emulator does not serve\n`)
  for (const [feature, names] of byFeature) process.stdout.write(`  ${feature}: ${names.join(", ")}\n`)

  const works = list.length - failed
  process.stdout.write(
    `\n${works} of ${methods.length} wallet methods of caver-js-ext-kas work against the emulator` +
      `${failed === 0 ? ` (all ${list.length} checked)` : `; ${failed} of the ${list.length} checked failed`}\n`
  )
  process.stdout.write(`caver.wallet flows: ${flows.length - flowsFailed} of ${flows.length} work\n`)
  process.stdout.write(`caver.rpc.klay through /v1/klaytn: ${node.length - nodeFailed} of ${node.length} work\n`)
  if (failed > 0 || flowsFailed > 0 || nodeFailed > 0) process.exitCode = 1
}))

Effect.runPromise(main)
