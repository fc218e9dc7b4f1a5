/**
 * The conformance checks of the node route, `POST /v1/klaytn`: caver-js (inside the official
 * client, its node set with `initNodeAPI(1001, id, secret, true, url + "/v1/klaytn")`) reads the
 * emulator's chain through `caver.rpc.klay` and sends transactions it signs with its own keyring,
 * unmodified. The emulator mines by hand: a check mines once caver has the transaction's hash, and
 * caver's own polling then finds the receipt.
 */
import assert from "node:assert/strict"
import artifacts from "../fixtures/contracts/artifacts.json" with { type: "json" }
import type { KindsBackstage } from "./kinds.js"

interface Check {
  readonly method: string
  readonly run: () => Promise<void>
}

const KLAY = 10n ** 18n
const GasPrice = 25_000_000_000n

/**
 * Sends a signed transaction with `caver.rpc.klay.sendRawTransaction` and mines once caver has
 * its hash: caver resolves with the receipt it polls for.
 */
const sendAndMine = async (caver: any, backstage: KindsBackstage, tx: unknown) => {
  const sent = caver.rpc.klay.sendRawTransaction(tx)
  const hash: string = await new Promise((resolve, reject) => {
    sent.on("transactionHash", resolve)
    sent.on("error", reject)
  })
  await backstage.mine()
  const receipt = await sent
  assert.equal(receipt.transactionHash, hash)
  return receipt
}

/**
 * The checks, in order: each may use what the previous ones made. `wallet` is the official
 * client's wallet on the same emulator (its receipt of a transaction caver sent through the node).
 */
export const nodeChecks = (caver: any, wallet: any, backstage: KindsBackstage): ReadonlyArray<Check> => {
  const state: { keyring?: any; to?: string; hash?: string; receipt?: any; contract?: string } = {}
  const keyring = () => {
    assert.ok(state.keyring !== undefined, "no keyring (sendRawTransaction failed)")
    return state.keyring
  }
  return [
    {
      method: "caver.rpc.klay.getChainId, getGasPrice, getBlockNumber",
      run: async () => {
        assert.equal(await caver.rpc.klay.getChainId(), "0x3e9")
        assert.equal(BigInt(await caver.rpc.klay.getGasPrice()), GasPrice)
        const before = BigInt(await caver.rpc.klay.getBlockNumber())
        await backstage.mine()
        assert.equal(BigInt(await caver.rpc.klay.getBlockNumber()), before + 1n)
      }
    },
    {
      method: "caver.rpc.klay.sendRawTransaction",
      run: async () => {
        // A wallet outside KAS: caver's keyring signs; caver fills nonce, gas price and chain id from the node.
        state.keyring = caver.wallet.keyring.generate()
        state.to = caver.wallet.keyring.generate().address
        await backstage.fund(state.keyring.address, KLAY)
        const tx = caver.transaction.valueTransfer.create({ from: state.keyring.address, to: state.to, value: 7, gas: 25_000 })
        await tx.sign(state.keyring)
        assert.equal(BigInt(tx.nonce), 0n)
        assert.equal(BigInt(tx.gasPrice), GasPrice)
        const receipt = await sendAndMine(caver, backstage, tx)
        assert.equal(receipt.status, "0x1")
        assert.equal(receipt.transactionHash, tx.getTransactionHash())
        state.hash = receipt.transactionHash
      }
    },
    {
      method: "caver.rpc.klay.getTransactionReceipt",
      run: async () => {
        assert.ok(state.hash !== undefined, "no transaction (sendRawTransaction failed)")
        const receipt = await caver.rpc.klay.getTransactionReceipt(state.hash)
        assert.equal(receipt.status, "0x1")
        assert.equal(receipt.type, "TxTypeValueTransfer")
        assert.equal(receipt.typeInt, 8)
        assert.equal(receipt.from, keyring().address.toLowerCase())
        assert.equal(receipt.to, state.to!.toLowerCase())
        assert.equal(BigInt(receipt.value), 7n)
        assert.equal(Number(receipt.gasUsed), 21_000)
        assert.equal(receipt.senderTxHash, state.hash)
        // The official client's wallet API reads the same transaction in the same block.
        const kas = await wallet.getTransaction(state.hash)
        assert.equal(kas.status, "Committed")
        assert.equal(kas.blockHash, receipt.blockHash)
        assert.equal(BigInt(kas.blockNumber), BigInt(receipt.blockNumber))
        state.receipt = receipt
      }
    },
    {
      method: "caver.rpc.klay.getTransactionByHash",
      run: async () => {
        assert.ok(state.receipt !== undefined, "no receipt (getTransactionReceipt failed)")
        const tx = await caver.rpc.klay.getTransactionByHash(state.hash)
        assert.equal(tx.hash, state.hash)
        assert.equal(tx.blockHash, state.receipt.blockHash)
        assert.equal(tx.from, keyring().address.toLowerCase())
        assert.deepEqual(tx.signatures, state.receipt.signatures)
        // caver decodes the transaction it signed back from what the node answers.
        const rebuilt = caver.transaction.valueTransfer.create({ ...tx, signatures: tx.signatures.map((s: any) => [s.V, s.R, s.S]) })
        assert.equal(rebuilt.getTransactionHash(), state.hash)
      }
    },
    {
      method: "caver.rpc.klay.getBalance",
      run: async () => {
        const fee = 21_000n * GasPrice
        assert.equal(BigInt(await caver.rpc.klay.getBalance(keyring().address)), KLAY - 7n - fee)
        assert.equal(BigInt(await caver.rpc.klay.getBalance(state.to, "latest")), 7n)
        assert.equal((await backstage.account(keyring().address)).balance, KLAY - 7n - fee)
      }
    },
    {
      method: "caver.rpc.klay.getTransactionCount",
      run: async () => {
        assert.equal(BigInt(await caver.rpc.klay.getTransactionCount(keyring().address)), 1n)
        assert.equal(BigInt(await caver.rpc.klay.getTransactionCount(keyring().address, "pending")), 1n)
        assert.equal(BigInt(await caver.rpc.klay.getTransactionCount(state.to)), 0n)
      }
    },
    {
      method: "caver.rpc.klay.getAccountKey",
      run: async () => {
        assert.deepEqual(await caver.rpc.klay.getAccountKey(keyring().address), { keyType: 1, key: {} })
        assert.equal(await caver.rpc.klay.getAccountKey(caver.wallet.keyring.generate().address), null)
        // An account update caver builds and signs: the key on the chain is then the new public key.
        const next = caver.wallet.keyring.generate()
        const account = caver.account.createWithAccountKeyPublic(keyring().address, next.getPublicKey())
        const update = caver.transaction.accountUpdate.create({ from: keyring().address, account, gas: 100_000 })
        await update.sign(keyring())
        assert.equal((await sendAndMine(caver, backstage, update)).status, "0x1")
        const key = await caver.rpc.klay.getAccountKey(keyring().address)
        assert.equal(key.keyType, 2)
        const [x, y] = caver.utils.xyPointFromPublicKey(next.getPublicKey())
        assert.deepEqual([BigInt(key.key.x), BigInt(key.key.y)], [BigInt(x), BigInt(y)])
        const found = await caver.rpc.klay.getAccount(keyring().address)
        assert.equal(found.accType, 1)
        assert.deepEqual(found.account.key, key)
        // From now on the new key signs for the account.
        state.keyring = caver.wallet.keyring.createWithSingleKey(keyring().address, next.key.privateKey)
      }
    },
    {
      method: "caver.rpc.klay.call",
      run: async () => {
        // Counter(41), deployed by a transaction caver signs with the account's new key.
        const counter = artifacts.contracts.Counter
        const deploy = caver.transaction.smartContractDeploy.create({
          from: keyring().address,
          input: `${counter.bytecode}${(41).toString(16).padStart(64, "0")}`,
          gas: 1_000_000
        })
        await deploy.sign(keyring())
        const receipt = await sendAndMine(caver, backstage, deploy)
        assert.equal(receipt.status, "0x1")
        assert.match(receipt.contractAddress, /^0x[0-9a-f]{40}$/)
        state.contract = receipt.contractAddress
        assert.equal(await caver.rpc.klay.getCode(receipt.contractAddress), counter.deployedBytecode.toLowerCase())
        // count(), read through the node, and through caver's contract object.
        assert.equal(BigInt(await caver.rpc.klay.call({ to: receipt.contractAddress, data: "0x06661abd" })), 41n)
        const contract = new caver.contract(counter.abi, receipt.contractAddress)
        assert.equal(String(await contract.methods.count().call()), "41")
        // increment(), estimated and sent by caver; the state the node then shows has moved.
        const data = contract.methods.increment().encodeABI()
        const estimate = Number(await caver.rpc.klay.estimateGas({ from: keyring().address, to: receipt.contractAddress, data }))
        // caver takes a receipt that used all of its gas for one that ran out: a margin, as its users give.
        const execute = caver.transaction.smartContractExecution.create({ from: keyring().address, to: receipt.contractAddress, input: data, gas: estimate + 10_000 })
        await execute.sign(keyring())
        const executed = await sendAndMine(caver, backstage, execute)
        assert.equal(executed.status, "0x1")
        assert.equal(Number(executed.gasUsed), estimate)
        assert.equal(BigInt(await caver.rpc.klay.call({ to: receipt.contractAddress, data: "0x06661abd" }, "latest")), 42n)
      }
    }
  ]
}
