/**
 * The node route, `POST /v1/klaytn`: Klaytn JSON-RPC over loopback HTTP against a real emulator
 * (manual mining: each block is made when the test mines). Transactions are built and signed here
 * independently of the emulator's codec (@ethereumjs/rlp, @noble/curves, @noble/hashes, and the
 * field layouts of test/support/klaytn.ts, written from Klaytn's documentation), sent with
 * `klay_sendRawTransaction`, and read back through the RPC and the wallet route; contracts are the
 * fixtures of test/fixtures/contracts.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import { createMPT } from "@ethereumjs/mpt"
import { RLP } from "@ethereumjs/rlp"
import { expect, layer } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Effect, FastCheck as fc, Layer, Redacted, TestClock } from "effect"
import * as Emulator from "../src/Emulator.js"
import { GasPrice, memberTx } from "./_ledger.js"
import { clientLayer } from "./_support.js"
import artifacts from "./fixtures/contracts/artifacts.json" with { type: "json" }
import { addressOfKey, createdAddress, encodeKey, type Fields, hex, type KeySpec, klaytnFields, minimal, unhex } from "./support/klaytn.js"

const KLAY = 10n ** 18n
const CHAIN = 1001
const EMPTY = new Uint8Array(0)

const q = (n: bigint | number) => `0x${n.toString(16)}`

/** A key of a wallet outside KAS. */
const outsider = () => {
  const key = secp256k1.utils.randomSecretKey()
  return { key, address: addressOfKey(key) }
}

/** Signs a 32-byte hash for a chain: V = 2·chainId + 35 + recovery id. */
const sign = (hash: Uint8Array, key: Uint8Array, chainId: number) => {
  const sig = secp256k1.Signature.fromBytes(secp256k1.sign(hash, key, { prehash: false, format: "recovered" }), "recovered")
  return { v: 2 * chainId + 35 + sig.recovery!, r: sig.r, s: sig.s }
}
const sigItem = (s: { v: number; r: bigint; s: bigint }) => [minimal(s.v), minimal(s.r), minimal(s.s)]

/**
 * A Klaytn typed transaction signed as Klaytn's documentation says: the sender signs
 * keccak256(rlp([rlp([type, ...fields]), chainId, 0, 0])), a fee payer keccak256(rlp([rlp([type,
 * ...fields]), feePayer, chainId, 0, 0])); raw = type ‖ rlp([...fields, [sig], feePayer?,
 * [feePayerSig]?]).
 */
const signTyped = (
  type: number,
  fields: Fields,
  sender: Uint8Array,
  options: { readonly chainId?: number; readonly feePayer?: { readonly address: string; readonly key: Uint8Array } | "unsigned" } = {}
) => {
  const chainId = options.chainId ?? CHAIN
  const items = klaytnFields(type, fields)
  const typed = RLP.encode([minimal(type), ...items])
  const senderSig = sign(keccak_256(RLP.encode([typed, minimal(chainId), EMPTY, EMPTY])), sender, chainId)
  const payer = options.feePayer
  const tail = payer === undefined
    ? []
    : payer === "unsigned"
    ? [EMPTY, [[minimal(1), EMPTY, EMPTY]]]
    : [unhex(payer.address), [sigItem(sign(keccak_256(RLP.encode([typed, unhex(payer.address), minimal(chainId), EMPTY, EMPTY])), payer.key, chainId))]]
  const raw = Uint8Array.from([type, ...RLP.encode([...items, [sigItem(senderSig)], ...tail])])
  return { raw: hex(raw), hash: hex(keccak_256(raw)), senderSig }
}

/** An EIP-155 legacy transaction: rlp([nonce, gasPrice, gas, to, value, data, V, R, S]). */
const signLegacy = (f: { nonce: number; gas: number; to: string; value: bigint }, key: Uint8Array, chainId = CHAIN) => {
  const items = [minimal(f.nonce), minimal(GasPrice), minimal(f.gas), unhex(f.to), minimal(f.value), EMPTY]
  const sig = sign(keccak_256(RLP.encode([...items, minimal(chainId), EMPTY, EMPTY])), key, chainId)
  const raw = RLP.encode([...items, ...sigItem(sig)])
  return { raw: hex(raw), hash: hex(keccak_256(raw)) }
}

const transfer = (from: string, nonce: number, to: string, value: bigint, gas = 21_000): Fields => ({ nonce, gasPrice: GasPrice, gas, to, value, from })

layer(Layer.merge(Emulator.layer({ port: 0, mining: "manual" }), clientLayer))("the node route, POST /v1/klaytn", (it) => {
  const setUp = Effect.gen(function*() {
    const e = yield* Emulator.Emulator
    const api = memberTx(e)
    let id = 0
    /** The whole JSON-RPC response of one call. */
    const call = (method: string, params: ReadonlyArray<unknown> = [], chainId = CHAIN) => {
      const sent = ++id
      return Effect.map(api.post("/v1/klaytn", { jsonrpc: "2.0", id: sent, method, params }, { chainId }), (reply) => {
        expect(reply.status, reply.text).toBe(200)
        expect(reply.body.jsonrpc).toBe("2.0")
        expect(reply.body.id).toBe(sent)
        return reply.body as { readonly result?: any; readonly error?: { readonly code: number; readonly message: string; readonly data?: string } }
      })
    }
    /** The result of a call that must succeed. */
    const rpc = (method: string, params: ReadonlyArray<unknown> = [], chainId = CHAIN) =>
      Effect.map(call(method, params, chainId), (body) => {
        expect(body.error, `${method} ${JSON.stringify(body.error)}`).toBeUndefined()
        return body.result
      })
    /** The error of a call that must fail. */
    const refused = (method: string, params: ReadonlyArray<unknown>, code: number, message?: string | RegExp) =>
      Effect.map(call(method, params), (body) => {
        expect(body.error?.code, `${method}: ${JSON.stringify(body)}`).toBe(code)
        if (typeof message === "string") expect(body.error?.message).toBe(message)
        else if (message !== undefined) expect(body.error?.message).toMatch(message)
        return body.error!
      })
    const mine = Effect.asVoid(e.mine(CHAIN))
    const nonces = (address: string) => Effect.all([rpc("klay_getTransactionCount", [address, "latest"]), rpc("klay_getTransactionCount", [address, "pending"])])
    return { e, api, call, rpc, refused, mine, nonces }
  }).pipe(Effect.orDie)

  /** A wallet outside KAS holding `peb`. */
  const fundedOutsider = (e: Emulator.Service, peb: bigint) => Effect.orDie(Effect.flatMap(Effect.sync(outsider), (o) => Effect.as(e.fund(CHAIN, o.address, peb), o)))

  it.effect("the chain: its id, gas price, latest block and client, on each chain of x-chain-id; blocks by number, their hashes the receipts'", () =>
    Effect.gen(function*() {
      const { e, mine, rpc } = yield* setUp
      for (const [chainId, hexId] of [[1001, "0x3e9"], [8217, "0x2019"]] as const) {
        expect(yield* rpc("klay_chainID", [], chainId)).toBe(hexId)
        expect(yield* rpc("eth_chainId", [], chainId)).toBe(hexId)
        expect(yield* rpc("net_version", [], chainId)).toBe(String(chainId))
        expect(yield* rpc("klay_gasPrice", [], chainId)).toBe("0x5d21dba00")
        expect(yield* rpc("eth_gasPrice", [], chainId)).toBe("0x5d21dba00")
      }
      expect(yield* rpc("web3_clientVersion")).toMatch(/^effect-kas-wallet-emulator\/v\d/)
      const before = Number(yield* rpc("klay_blockNumber"))
      yield* mine
      expect(yield* rpc("klay_blockNumber")).toBe(q(before + 1))
      expect(yield* rpc("eth_blockNumber")).toBe(q(before + 1))
      const latest = yield* rpc("eth_getBlockByNumber", ["latest", false])
      expect(latest).toMatchObject({ number: q(before + 1), transactions: [], uncles: [], gasUsed: "0x0", difficulty: "0x1" })
      // No base fee: Ethereum clients send legacy transactions at eth_gasPrice.
      expect(latest).not.toHaveProperty("baseFeePerGas")
      const klay = yield* rpc("klay_getBlockByNumber", [q(before + 1), false])
      expect(klay).toMatchObject({ number: q(before + 1), hash: latest.hash, blockScore: "0x1", transactions: [] })
      expect((yield* rpc("klay_getBlockByNumber", ["earliest", false])).number).toBe("0x0")
      expect(klay.parentHash).toBe((yield* rpc("klay_getBlockByNumber", [q(before), false])).hash)
      expect(yield* rpc("eth_getBlockByNumber", [q(before + 2), false])).toBeNull()
      expect(e.openApi.paths).toHaveProperty(["/v1/klaytn", "post", "operationId"], "klaytnJsonRpc")
    }))

  it.effect("a value transfer signed outside the emulator: klay_sendRawTransaction into the pool, pending then mined, read back by the RPC and the wallet route", () =>
    Effect.gen(function*() {
      const { api, e, mine, nonces, refused, rpc } = yield* setUp
      const sender = yield* fundedOutsider(e, KLAY)
      const to = outsider().address
      expect(yield* rpc("klay_estimateGas", [{ from: sender.address, to, value: q(7) }])).toBe("0x5208")
      expect(yield* nonces(sender.address)).toEqual(["0x0", "0x0"])
      const tx = signTyped(0x08, transfer(sender.address, 0, to, 7n), sender.key)
      expect(yield* rpc("klay_sendRawTransaction", [tx.raw])).toBe(tx.hash)
      // Pending: the pool counts for "pending" only; no receipt yet; the transaction with Klaytn's pending block fields.
      expect(yield* nonces(sender.address)).toEqual(["0x0", "0x1"])
      expect(yield* rpc("klay_getTransactionReceipt", [tx.hash])).toBeNull()
      const pending = yield* rpc("klay_getTransactionByHash", [tx.hash])
      expect(pending).toMatchObject({ hash: tx.hash, blockHash: `0x${"0".repeat(64)}`, blockNumber: "0x0", typeInt: 8, from: sender.address })
      expect(yield* rpc("eth_getTransactionByHash", [tx.hash])).toMatchObject({ hash: tx.hash, blockHash: null, blockNumber: null })
      expect((yield* api.receipt(tx.hash)).body.status).toBe("Pending")
      // The same bytes again, while pending.
      yield* refused("klay_sendRawTransaction", [tx.raw], -32000, "already known")

      yield* mine
      const head = yield* rpc("klay_blockNumber")
      const receipt = yield* rpc("klay_getTransactionReceipt", [tx.hash])
      const fee = 21_000n * GasPrice
      expect(receipt).toEqual({
        blockHash: receipt.blockHash,
        blockNumber: head,
        contractAddress: null,
        effectiveGasPrice: "0x5d21dba00",
        from: sender.address,
        gas: "0x5208",
        gasPrice: "0x5d21dba00",
        gasUsed: "0x5208",
        logs: [],
        logsBloom: `0x${"0".repeat(512)}`,
        nonce: "0x0",
        senderTxHash: tx.hash,
        signatures: [{ V: q(tx.senderSig.v), R: q(tx.senderSig.r), S: q(tx.senderSig.s) }],
        status: "0x1",
        to,
        transactionHash: tx.hash,
        transactionIndex: "0x0",
        type: "TxTypeValueTransfer",
        typeInt: 8,
        value: "0x7"
      })
      // The wallet route reads the same transaction in the same block.
      const wallet = (yield* api.receipt(tx.hash)).body
      expect(wallet).toMatchObject({ status: "Committed", transactionHash: tx.hash, blockHash: receipt.blockHash, blockNumber: head, from: sender.address })
      const { blockHash: _h, contractAddress: _c, effectiveGasPrice: _g, gasUsed: _u, logs: _l, logsBloom: _b, status: _s, transactionHash: _t, ...fields } = receipt
      expect(yield* rpc("klay_getTransactionByHash", [tx.hash])).toEqual({ ...fields, blockHash: receipt.blockHash, hash: tx.hash })
      expect(yield* rpc("eth_getTransactionReceipt", [tx.hash])).toMatchObject({
        blockHash: receipt.blockHash,
        status: "0x1",
        type: "0x0",
        gasUsed: "0x5208",
        cumulativeGasUsed: "0x5208",
        to
      })
      expect(yield* rpc("eth_getTransactionByHash", [tx.hash])).toMatchObject({ v: q(tx.senderSig.v), r: q(tx.senderSig.r), type: "0x0", input: "0x" })
      const block = yield* rpc("klay_getBlockByNumber", [head, true])
      expect(block.hash).toBe(receipt.blockHash)
      expect(block.transactions).toEqual([yield* rpc("klay_getTransactionByHash", [tx.hash])])
      expect((yield* rpc("eth_getBlockByNumber", [head, false])).transactions).toEqual([tx.hash])
      expect(yield* rpc("klay_getBalance", [sender.address, "latest"])).toBe(q(KLAY - 7n - fee))
      expect(yield* rpc("eth_getBalance", [to, head])).toBe("0x7")
      expect(yield* nonces(sender.address)).toEqual(["0x1", "0x1"])
      // Once in a block, the same bytes are a stale nonce; an unknown hash has no transaction.
      yield* refused("klay_sendRawTransaction", [tx.raw], -32000, "nonce too low")
      expect(yield* rpc("klay_getTransactionReceipt", [`0x${"ab".repeat(32)}`])).toBeNull()
      expect(yield* rpc("eth_getTransactionByHash", [`0x${"ab".repeat(32)}`])).toBeNull()
      // A legacy transaction through eth_sendRawTransaction; a typed envelope there is not taken.
      const legacy = signLegacy({ nonce: 1, gas: 21_000, to, value: 3n }, sender.key)
      expect(yield* rpc("eth_sendRawTransaction", [legacy.raw])).toBe(legacy.hash)
      yield* refused("eth_sendRawTransaction", [signTyped(0x08, transfer(sender.address, 2, to, 1n), sender.key).raw], -32000, "transaction type not supported")
      yield* mine
      expect(yield* rpc("klay_getTransactionReceipt", [legacy.hash])).toMatchObject({ status: "0x1", typeInt: 0, type: "TxTypeLegacyTransaction", input: "0x" })
      expect(yield* rpc("eth_getBalance", [to, "latest"])).toBe("0xa")
    }))

  it.effect("fee-delegated, signed whole by a sender and a fee payer outside KAS: the fee payer pays; the node's refusals change nothing", () =>
    Effect.gen(function*() {
      const { e, mine, nonces, refused, rpc } = yield* setUp
      const sender = yield* fundedOutsider(e, KLAY)
      const payer = yield* fundedOutsider(e, KLAY)
      const stranger = outsider()
      const to = outsider().address
      const gas = 31_000
      const fields = transfer(sender.address, 0, to, 5n, gas)
      const unchanged = Effect.gen(function*() {
        expect(yield* nonces(sender.address)).toEqual(["0x0", "0x0"])
        expect(yield* rpc("klay_getBalance", [sender.address])).toBe(q(KLAY))
        expect(yield* rpc("klay_getBalance", [payer.address])).toBe(q(KLAY))
      })
      // The node's refusals, in Klaytn's words.
      const refusals: ReadonlyArray<readonly [string, string]> = [
        [signTyped(0x09, fields, sender.key, { feePayer: "unsigned" }).raw, "invalid fee payer"],
        [signTyped(0x09, fields, sender.key, { feePayer: { address: payer.address, key: stranger.key } }).raw, "invalid fee payer"],
        [signTyped(0x09, fields, stranger.key, { feePayer: payer }).raw, "invalid sender"],
        [signTyped(0x09, fields, sender.key, { feePayer: payer, chainId: 8217 }).raw, "invalid chain id"],
        [signTyped(0x09, { ...fields, nonce: 1 }, sender.key, { feePayer: payer }).raw, "nonce too high"],
        [signTyped(0x09, { ...fields, gas: 30_999 }, sender.key, { feePayer: payer }).raw, "intrinsic gas too low"],
        [signTyped(0x09, { ...fields, gasPrice: GasPrice + 1n }, sender.key, { feePayer: payer }).raw, "invalid unit price"],
        [signTyped(0x09, { ...fields, value: KLAY + 1n }, sender.key, { feePayer: payer }).raw, "insufficient funds of the sender for value "],
        [signTyped(0x08, { ...fields, value: KLAY }, sender.key).raw, "insufficient funds of the sender for value "]
      ]
      for (const [raw, message] of refusals) yield* refused("klay_sendRawTransaction", [raw], -32000, message)
      // A wallet's unsigned legacy transaction (V, R and S empty) names no sender.
      const unsigned = RLP.encode([minimal(0), minimal(GasPrice), minimal(21_000), unhex(to), minimal(1), EMPTY, EMPTY, EMPTY, EMPTY])
      yield* refused("eth_sendRawTransaction", [hex(unsigned)], -32000, "invalid sender")
      yield* refused("klay_sendRawTransaction", ["0x4c"], -32000, "transaction type not supported")
      yield* refused("klay_sendRawTransaction", ["0x08c3010203"], -32000)
      yield* unchanged

      const tx = signTyped(0x09, fields, sender.key, { feePayer: payer })
      expect(yield* rpc("klay_sendRawTransaction", [tx.raw])).toBe(tx.hash)
      yield* mine
      const receipt = yield* rpc("klay_getTransactionReceipt", [tx.hash])
      expect(receipt).toMatchObject({ status: "0x1", typeInt: 9, type: "TxTypeFeeDelegatedValueTransfer", feePayer: payer.address, gasUsed: q(gas) })
      expect(receipt.feePayerSignatures).toHaveLength(1)
      // The sender's hash leaves the fee payer's part out.
      const items = RLP.decode(unhex(tx.raw).subarray(1)) as Array<any>
      expect(receipt.senderTxHash).toBe(hex(keccak_256(Uint8Array.from([0x09, ...RLP.encode(items.slice(0, 7))]))))
      expect(receipt.senderTxHash).not.toBe(tx.hash)
      expect(yield* rpc("klay_getBalance", [sender.address])).toBe(q(KLAY - 5n))
      expect(yield* rpc("klay_getBalance", [payer.address])).toBe(q(KLAY - BigInt(gas) * GasPrice))
    }))

  it.effect("account keys as Klaytn's RPC shows them: legacy, public, weighted multisig, role-based, fail; a transaction checked against the key on the chain", () =>
    Effect.gen(function*() {
      const { e, mine, refused, rpc } = yield* setUp
      const point = (key: Uint8Array) => secp256k1.Point.fromBytes(secp256k1.getPublicKey(key, true))
      const xy = (key: Uint8Array) => ({ x: q(point(key).x), y: q(point(key).y) })
      const compressed = (key: Uint8Array) => secp256k1.getPublicKey(key, true)
      const [k1, k2, k3] = [outsider(), outsider(), outsider()]
      const cases: ReadonlyArray<{ readonly spec: KeySpec; readonly json: unknown }> = [
        { spec: { type: 2, key: compressed(k1.key) }, json: { keyType: 2, key: xy(k1.key) } },
        {
          spec: { type: 4, threshold: 2, keys: [[1, compressed(k1.key)], [1, compressed(k2.key)]] },
          json: { keyType: 4, key: { threshold: 2, keys: [{ weight: 1, key: xy(k1.key) }, { weight: 1, key: xy(k2.key) }] } }
        },
        {
          spec: { type: 5, roles: [{ type: 2, key: compressed(k1.key) }, { type: 2, key: compressed(k2.key) }, { type: 2, key: compressed(k3.key) }] },
          json: { keyType: 5, key: [{ keyType: 2, key: xy(k1.key) }, { keyType: 2, key: xy(k2.key) }, { keyType: 2, key: xy(k3.key) }] }
        },
        { spec: { type: 3 }, json: { keyType: 3, key: {} } }
      ]
      const accounts: Array<{ readonly address: string; readonly key: Uint8Array }> = []
      for (const { spec } of cases) {
        const account = yield* fundedOutsider(e, KLAY)
        expect(yield* rpc("klay_getAccountKey", [account.address, "latest"])).toEqual({ keyType: 1, key: {} })
        const update = signTyped(0x20, { nonce: 0, gasPrice: GasPrice, gas: 200_000, value: 0n, from: account.address, key: encodeKey(spec) }, account.key)
        expect(yield* rpc("klay_sendRawTransaction", [update.raw])).toBe(update.hash)
        accounts.push(account)
      }
      yield* mine
      for (const [i, { json }] of cases.entries()) {
        const address = accounts[i]!.address
        expect(yield* rpc("klay_getAccountKey", [address])).toEqual(json)
        const account = yield* rpc("klay_getAccount", [address, "latest"])
        expect(account).toEqual({
          accType: 1,
          account: { nonce: 1, balance: account.account.balance, humanReadable: false, key: json }
        })
      }
      const update = yield* rpc("klay_getTransactionByHash", [
        signTyped(0x20, { nonce: 0, gasPrice: GasPrice, gas: 200_000, value: 0n, from: accounts[0]!.address, key: encodeKey(cases[0]!.spec) }, accounts[0]!.key).hash
      ])
      expect(update).toMatchObject({ typeInt: 0x20, type: "TxTypeAccountUpdate", key: hex(encodeKey(cases[0]!.spec)) })
      expect(update).not.toHaveProperty("to")
      // The first account's key is now k1's public key: its old key no longer signs for it, k1 does.
      const to = outsider().address
      yield* refused("klay_sendRawTransaction", [signTyped(0x08, transfer(accounts[0]!.address, 1, to, 1n), accounts[0]!.key).raw], -32000, "invalid sender")
      const signed = signTyped(0x08, transfer(accounts[0]!.address, 1, to, 1n), k1.key)
      expect(yield* rpc("klay_sendRawTransaction", [signed.raw])).toBe(signed.hash)
      // An address the chain does not hold: no account, no key.
      expect(yield* rpc("klay_getAccount", [outsider().address, "latest"])).toBeNull()
      expect(yield* rpc("klay_getAccountKey", [outsider().address, "latest"])).toBeNull()
      yield* mine
    }))

  it.effect("contracts: a deployment signed outside KAS, klay_call/eth_call of its state, klay_getCode, klay_getAccount, gas estimates that suffice, reverts with their data", () =>
    Effect.gen(function*() {
      const { e, mine, refused, rpc } = yield* setUp
      const deployer = yield* fundedOutsider(e, 10n * KLAY)
      const counter = artifacts.contracts.Counter
      const input = unhex(`${counter.bytecode}${(41).toString(16).padStart(64, "0")}`)
      const deployGas = Number(yield* rpc("eth_estimateGas", [{ from: deployer.address, data: hex(input) }]))
      expect(deployGas).toBeGreaterThan(53_000 + 100 * input.length)
      const deploy = signTyped(0x28, { nonce: 0, gasPrice: GasPrice, gas: deployGas, value: 0n, from: deployer.address, input }, deployer.key)
      expect(yield* rpc("klay_sendRawTransaction", [deploy.raw])).toBe(deploy.hash)
      yield* mine
      const contract = createdAddress(deployer.address, 0)
      const deployed = yield* rpc("klay_getTransactionReceipt", [deploy.hash])
      expect(deployed).toMatchObject({ status: "0x1", contractAddress: contract, to: null, humanReadable: false, codeFormat: "0x0", gasUsed: q(deployGas) })
      expect(yield* rpc("klay_getCode", [contract, "latest"])).toBe(counter.deployedBytecode.toLowerCase())
      expect(yield* rpc("eth_getCode", [deployer.address])).toBe("0x")

      const count = { to: contract, data: "0x06661abd" }
      expect(yield* rpc("klay_call", [count, "latest"])).toBe(`0x${(41).toString(16).padStart(64, "0")}`)
      expect(BigInt(yield* rpc("eth_call", [{ ...count, input: count.data }]))).toBe(41n)
      // add(7): the estimate is the least gas it runs with; sent with it, it succeeds.
      const add = `0x1003e2d2${(7).toString(16).padStart(64, "0")}`
      const gas = Number(yield* rpc("klay_estimateGas", [{ from: deployer.address, to: contract, data: add }]))
      expect(gas).toBeGreaterThan(21_000 + 100 * 36)
      const execute = signTyped(0x30, { nonce: 1, gasPrice: GasPrice, gas, to: contract, value: 0n, from: deployer.address, input: unhex(add) }, deployer.key)
      expect(yield* rpc("klay_sendRawTransaction", [execute.raw])).toBe(execute.hash)
      const tight = signTyped(0x30, { nonce: 2, gasPrice: GasPrice, gas: gas - 1, to: contract, value: 0n, from: deployer.address, input: unhex(add) }, deployer.key)
      expect(yield* rpc("klay_sendRawTransaction", [tight.raw])).toBe(tight.hash)
      yield* mine
      expect(yield* rpc("klay_getTransactionReceipt", [execute.hash])).toMatchObject({ status: "0x1", typeInt: 0x30, input: add })
      expect(yield* rpc("klay_getTransactionReceipt", [tight.hash])).toMatchObject({ status: "0x0", txError: "0x7" })
      expect(BigInt(yield* rpc("klay_call", [count]))).toBe(48n)

      // A contract account: the fail key, its code hash (base64) and storage root.
      const account = yield* rpc("klay_getAccount", [contract])
      expect(account).toMatchObject({
        accType: 2,
        account: { nonce: 1, balance: "0x0", humanReadable: false, key: { keyType: 3, key: {} }, codeFormat: 0, vmVersion: 1 }
      })
      expect(account.account.codeHash).toBe(Buffer.from(keccak_256(unhex(counter.deployedBytecode))).toString("base64"))
      // Its storage (slot 0 holds 48), in a trie built by @ethereumjs/mpt: the same root.
      const trie = yield* Effect.promise(() => createMPT({ useKeyHashing: true }))
      yield* Effect.promise(() => trie.put(new Uint8Array(32), RLP.encode(minimal(48))))
      expect(account.account.storageRoot).toBe(hex(trie.root()))

      // A revert: code 3, the reason in the message, the revert data in data; the estimate refuses it too.
      const reverter = yield* rpc("klay_sendRawTransaction", [
        signTyped(0x28, { nonce: 3, gasPrice: GasPrice, gas: 2_000_000, value: 0n, from: deployer.address, input: unhex(artifacts.contracts.Reverter.bytecode) }, deployer.key).raw
      ])
      yield* mine
      const reverterAt = (yield* rpc("klay_getTransactionReceipt", [reverter])).contractAddress
      const fail = { to: reverterAt, data: `0x${Buffer.from(keccak_256(new TextEncoder().encode("fail(uint256)"))).subarray(0, 4).toString("hex")}${"0".repeat(63)}1` }
      const error = yield* refused("eth_call", [fail, "latest"], 3, "execution reverted: Reverter: value must be zero")
      expect(error.data).toMatch(/^0x08c379a0/)
      yield* refused("klay_estimateGas", [{ ...fail, from: deployer.address }], 3, "execution reverted: Reverter: value must be zero")
      yield* refused("eth_estimateGas", [{ to: contract, data: add, gas: "0x5300" }], -32000, "gas required exceeds allowance (21248)")
    }))

  it.effect("JSON-RPC 2.0: batches in order, notifications unanswered, and the standard errors; never a 5xx", () =>
    Effect.gen(function*() {
      const { api, call, e, mine, refused } = yield* setUp
      yield* mine
      const post = (body: unknown) => api.post("/v1/klaytn", typeof body === "string" ? body : JSON.stringify(body))
      const ok = (reply: { readonly status: number; readonly text: string; readonly body: any }) => {
        expect(reply.status, reply.text).toBe(200)
        return reply.body
      }
      expect(ok(yield* post("{not json"))).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } })
      expect(ok(yield* post([])).error.code).toBe(-32600)
      expect(ok(yield* post(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "klay_chainID" })))).error.code).toBe(-32600)
      for (const bad of [5, "x", null, { id: 1, method: "klay_chainID" }, { jsonrpc: "1.0", id: 1, method: "klay_chainID" }, { jsonrpc: "2.0", id: 1 }, { jsonrpc: "2.0", id: {}, method: "klay_chainID" }]) {
        expect(ok(yield* post(JSON.stringify(bad))).error.code, JSON.stringify(bad)).toBe(-32600)
      }
      const batch = ok(yield* post([
        { jsonrpc: "2.0", id: "a", method: "klay_chainID" },
        { jsonrpc: "2.0", method: "klay_chainID" },
        7,
        { jsonrpc: "2.0", id: 2, method: "klay_nope", params: [] },
        { jsonrpc: "2.0", id: 3, method: "eth_getBalance", params: { address: "0x" } }
      ]))
      expect(batch).toEqual([
        { jsonrpc: "2.0", id: "a", result: "0x3e9" },
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request" } },
        { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "the method klay_nope does not exist/is not available" } },
        { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "non-array args" } }
      ])
      // Notifications only: nothing to answer.
      const silent = yield* post([{ jsonrpc: "2.0", method: "klay_chainID" }, { jsonrpc: "2.0", method: "klay_blockNumber" }])
      expect([silent.status, silent.text]).toEqual([200, ""])
      expect((yield* post({ jsonrpc: "2.0", method: "klay_nope" })).text).toBe("")
      // Bad params.
      const address = outsider().address
      yield* refused("klay_getBalance", ["0x1234"], -32602, "invalid argument 0: hex string has length 4, want 40 for an address")
      yield* refused("klay_getBalance", [address.slice(2)], -32602, "invalid argument 0: hex string without 0x prefix")
      yield* refused("klay_getBalance", [address, "newest"], -32602, /^invalid argument 1: /)
      yield* refused("klay_getBalance", [address, "latest", true], -32602, "too many arguments, want at most 2")
      yield* refused("klay_getBalance", [], -32602, "missing value for required argument 0")
      yield* refused("klay_sendRawTransaction", ["0x123"], -32602, "invalid argument 0: hex string of odd length")
      yield* refused("klay_call", [{ to: address, data: "0x00", input: "0x01" }], -32602, /both "data" and "input"/)
      yield* refused("klay_getTransactionReceipt", ["0x12"], -32602)
      // State of another block than the latest: the emulator keeps the latest only.
      yield* refused("klay_getBalance", [address, "0x0"], -32000, /^historical state is not available/)
      yield* refused("klay_getBalance", [address, "0xffffff"], -32000, "header not found")
      expect((yield* call("klay_getBalance", [address, "pending"])).result).toBe("0x0")
      // EIP-1898: the latest block by hash reads the latest state; a blockNumber is never an object.
      const latest = (yield* call("klay_getBlockByNumber", ["latest", false])).result
      expect((yield* call("klay_getBalance", [address, { blockHash: latest.hash }])).result).toBe("0x0")
      yield* refused("klay_getBalance", [address, { blockNumber: { blockNumber: "latest" } }], -32602)
      yield* refused("klay_getBlockByNumber", [{ blockHash: latest.hash }, false], -32602)

      // The gateway's checks come first: credentials, the chain, the body's size.
      const raw = (headers: Record<string, string>, body: string) =>
        Effect.orDie(Effect.tryPromise(() => fetch(`${e.url}/v1/klaytn`, { method: "POST", headers, body }).then(async (r) => ({ status: r.status, body: await r.json() }))))
      const good = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "klay_chainID" })
      expect(yield* raw({ "x-chain-id": "1001" }, good)).toMatchObject({ status: 401, body: { code: 1010008 } })
      expect(yield* raw({ authorization: Redacted.value(e.member.authorization), "x-chain-id": "1" }, good)).toMatchObject({ status: 400, body: { code: 1061615 } })
      expect(yield* raw({ authorization: Redacted.value(e.member.authorization) }, good)).toMatchObject({ status: 400, body: { code: 1061608 } })
      expect(yield* raw({ authorization: Redacted.value(e.member.authorization), "x-chain-id": "1001" }, " ".repeat(65 * 1024) + good)).toMatchObject({
        status: 400,
        body: { code: 1061615 }
      })

      // Whatever the body and params: a 200 with a JSON-RPC answer (or none), never a 5xx.
      const names = ["klay_getBalance", "eth_call", "klay_estimateGas", "klay_sendRawTransaction", "klay_getAccount", "eth_getBlockByNumber", "klay_getTransactionReceipt", "klay_getTransactionCount"]
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.oneof(fc.json(), fc.record({ jsonrpc: fc.constant("2.0"), id: fc.nat(), method: fc.constantFrom(...names), params: fc.array(fc.jsonValue(), { maxLength: 3 }) }).map((o) => JSON.stringify(o))), async (body) => {
            const reply = await fetch(`${e.url}/v1/klaytn`, { method: "POST", headers: { authorization: Redacted.value(e.member.authorization), "x-chain-id": "1001" }, body })
            const text = await reply.text()
            expect(reply.status, text).toBe(200)
            if (text !== "") {
              const parsed = JSON.parse(text)
              for (const r of Array.isArray(parsed) ? parsed : [parsed]) {
                expect(r.jsonrpc).toBe("2.0")
                if (r.error !== undefined) expect([-32700, -32600, -32601, -32602, -32000, 3]).toContain(r.error.code)
              }
            }
          }),
          { numRuns: 30 }
        )
      )
    }))
})

/** Interval mining: a receipt exists once its block's time has come, in the block the clock made. */
layer(clientLayer)("the node route, mining by interval", (it) => {
  it.scoped("a transaction's receipt is null until its block is made, then in the block eth_getBlockByNumber shows at that number", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.make({ port: 0, blockInterval: "1 second" }).pipe(Effect.orDie)
      const api = memberTx(e)
      const rpc = (method: string, params: ReadonlyArray<unknown> = []): Effect.Effect<any, never, HttpClient.HttpClient> =>
        Effect.map(api.post("/v1/klaytn", { jsonrpc: "2.0", id: 1, method, params }), (r) => {
          expect(r.body.error, r.text).toBeUndefined()
          return r.body.result
        })
      yield* TestClock.setTime(10_000)
      const sender = outsider()
      yield* Effect.orDie(e.fund(CHAIN, sender.address, KLAY))
      const tx = signTyped(0x08, transfer(sender.address, 0, outsider().address, 1n), sender.key)
      expect(yield* rpc("klay_sendRawTransaction", [tx.raw])).toBe(tx.hash)
      // In the pool until the next block (interval mining), not made yet: the latest state is
      // without it, the pending one with it.
      expect(yield* rpc("klay_getTransactionCount", [sender.address, "latest"])).toBe("0x0")
      expect(yield* rpc("klay_getTransactionCount", [sender.address, "pending"])).toBe("0x1")
      expect(yield* rpc("klay_getTransactionReceipt", [tx.hash])).toBeNull()
      expect((yield* rpc("klay_getTransactionByHash", [tx.hash])).blockNumber).toBe("0x0")
      expect(yield* rpc("klay_blockNumber")).toBe("0x0")
      yield* TestClock.adjust("1 second")
      expect(yield* rpc("klay_blockNumber")).toBe("0x1")
      expect(yield* rpc("klay_getTransactionCount", [sender.address, "latest"])).toBe("0x1")
      const receipt = yield* rpc("klay_getTransactionReceipt", [tx.hash])
      expect(receipt).toMatchObject({ status: "0x1", blockNumber: "0x1" })
      expect((yield* api.receipt(tx.hash)).body).toMatchObject({ status: "Committed", blockHash: receipt.blockHash })
      const block = yield* rpc("eth_getBlockByNumber", ["0x1", false])
      expect(block).toMatchObject({ hash: receipt.blockHash, transactions: [tx.hash], timestamp: q(11) })
      expect(block.parentHash).toBe((yield* rpc("eth_getBlockByNumber", ["0x0", false])).hash)
    }))
})
