/**
 * The JSON a Klaytn node's RPC answers, in its two namespaces, for what `Node` reads: transactions,
 * receipts, blocks, accounts and account keys.
 *
 * - **`klay_`** (Klaytn's own shapes, as its `MakeRPCOutput`, `RpcOutputReceipt`, `RpcOutputBlock`
 *   and account serializers write them): `typeInt` (a number) and `type` (`TxTypeValueTransfer`,
 *   …), the fields of each type only, `signatures` and `feePayerSignatures` as `[{V, R, S}]`,
 *   `senderTxHash`; quantities as minimal `0x` hex, addresses and hashes lower case. A pending
 *   transaction has the zero block hash and block number 0, as Klaytn's.
 * - **`eth_`** (Kaia's Ethereum-compatible shapes): every Klaytn type shown as a legacy
 *   transaction (`type` `0x0`), `v`, `r`, `s` of the sender's first signature, `to` the sender
 *   itself for an account update, a cancel and an anchoring (Kaia's choice), `input` `0x` where
 *   the type has none; a pending transaction has null block fields.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { AccountKey } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Wire from "effect-kas-wallet/Wire"
import * as Evm from "../chain/Evm.js"
import type * as Node from "../chain/Node.js"

/**
 * A JSON value as answered.
 *
 * @since 0.5.0
 * @category models
 */
export type Json = string | number | boolean | null | ReadonlyArray<Json> | { readonly [key: string]: Json }

/**
 * A quantity as Klaytn writes it (`hexutil.Big`, `hexutil.Uint64`): `0x` and minimal hex.
 *
 * @since 0.5.0
 * @category formatting
 */
export const quantity = (n: bigint | number): string => `0x${n.toString(16)}`

/**
 * Bytes as `0x` and lower-case hex.
 *
 * @since 0.5.0
 * @category formatting
 */
export const data = (bytes: Uint8Array): string => `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`

const ZeroAddress = `0x${"0".repeat(40)}`

// Go's JSON encoding writes a map's keys in order: Klaytn's RPC objects are maps.
const sorted = (fields: Record<string, Json>): { readonly [key: string]: Json } =>
  Object.fromEntries(Object.keys(fields).sort().map((k) => [k, fields[k]!]))

const signatures = (sigs: ReadonlyArray<Klaytn.SignatureValues>): Json => sigs.map((s) => ({ ...Klaytn.toWireSignature(s) }))

const lower = (address: string): string => address.toLowerCase()

/** Where a transaction is, as its RPC object shows it. */
interface Place {
  readonly blockHash: string
  readonly blockNumber: number
  readonly transactionIndex: number
}

const pendingPlace: Place = { blockHash: `0x${"0".repeat(64)}`, blockNumber: 0, transactionIndex: 0 }

const placeOf = (found: Node.Found): Place | undefined =>
  found.status === "committed"
    ? { blockHash: found.blockHash, blockNumber: found.row.blockNumber, transactionIndex: found.row.transactionIndex }
    : undefined

// The fields of a type (Klaytn's MakeRPCOutput): `to`, `value` and `input` where the type has them.
const typeFields = (signed: Klaytn.SignedTx): Record<string, Json> => {
  const t = signed.tx
  const kind = Klaytn.kindOf(t.type)
  const has = (field: Klaytn.Field) => Klaytn.hasField(t.type, field)
  return {
    typeInt: t.type,
    type: Wire.typeName(t.type),
    gas: quantity(t.gas),
    gasPrice: quantity(t.gasPrice),
    nonce: quantity(t.nonce),
    ...(has("to") ? { to: t.to !== undefined ? lower(t.to) : null } : {}),
    ...(has("value") ? { value: quantity(t.value) } : {}),
    ...(has("input") ? { input: data(t.input ?? new Uint8Array(0)) } : {}),
    // Klaytn decodes anchored data of its own format only; the emulator keeps the bytes.
    ...(kind === "anchor" ? { inputJSON: null } : {}),
    ...(kind === "contract/deploy" ? { humanReadable: false, codeFormat: quantity(0) } : {}),
    ...(has("key") ? { key: data(t.key ?? new Uint8Array(0)) } : {}),
    ...(has("feeRatio") ? { feeRatio: quantity(t.feeRatio ?? 0) } : {}),
    signatures: signatures(signed.signatures),
    ...(signed.feePayer !== undefined
      ? { feePayer: lower(signed.feePayer.address), feePayerSignatures: signatures(signed.feePayer.signatures) }
      : {})
  }
}

const klayTransactionFields = (signed: Klaytn.SignedTx, place: Place | undefined): Record<string, Json> => {
  const at = place ?? pendingPlace
  return {
    ...typeFields(signed),
    senderTxHash: signed.senderTxHash,
    blockHash: at.blockHash,
    blockNumber: quantity(at.blockNumber),
    from: lower(signed.tx.from),
    hash: signed.transactionHash,
    transactionIndex: quantity(at.transactionIndex)
  }
}

/**
 * `klay_getTransactionByHash`: the transaction, with its block when in one.
 *
 * @since 0.5.0
 * @category transactions
 */
export const klayTransaction = (found: Node.Found): Json => sorted(klayTransactionFields(found.signed, placeOf(found)))

const logsOf = (found: Extract<Node.Found, { readonly status: "committed" }>): ReadonlyArray<Json> => {
  const { row } = found
  return (row.logs ?? []).map((log, i) => ({
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: quantity(row.blockNumber),
    transactionHash: found.signed.transactionHash,
    transactionIndex: quantity(row.transactionIndex),
    blockHash: found.blockHash,
    logIndex: quantity((row.logIndex ?? 0) + i),
    removed: false
  }))
}

/**
 * `klay_getTransactionReceipt`: the transaction's fields and its outcome (`status` `0x1` or `0x0`
 * with Klaytn's `txError`), gas used, logs and bloom, the contract a deployment created.
 *
 * @since 0.5.0
 * @category transactions
 */
export const klayReceipt = (found: Extract<Node.Found, { readonly status: "committed" }>): Json => {
  const { row } = found
  const { hash: _hash, ...fields } = klayTransactionFields(found.signed, placeOf(found))
  return sorted({
    ...fields,
    status: quantity(row.txError === undefined ? 1 : 0),
    ...(row.txError !== undefined ? { txError: quantity(row.txError) } : {}),
    logsBloom: Evm.logsBloom(row.logs ?? []),
    gasUsed: quantity(row.gasUsed),
    effectiveGasPrice: quantity(found.signed.tx.gasPrice),
    logs: logsOf(found),
    contractAddress: row.contractAddress ?? null,
    transactionHash: found.signed.transactionHash
  })
}

// Kaia's eth namespace: these kinds have no recipient, and show the sender as one.
const ethTo = (tx: Klaytn.Tx): string | null => {
  switch (Klaytn.kindOf(tx.type)) {
    case "account":
    case "cancel":
    case "anchor":
      return lower(tx.from)
    default:
      return tx.to !== undefined ? lower(tx.to) : null
  }
}

/**
 * `eth_getTransactionByHash`: Kaia's Ethereum form of any transaction.
 *
 * @since 0.5.0
 * @category transactions
 */
export const ethTransaction = (found: Node.Found): Json => {
  const t = found.signed.tx
  const place = placeOf(found)
  const sig = found.signed.signatures[0]!
  return {
    blockHash: place?.blockHash ?? null,
    blockNumber: place !== undefined ? quantity(place.blockNumber) : null,
    from: lower(t.from),
    gas: quantity(t.gas),
    gasPrice: quantity(t.gasPrice),
    hash: found.signed.transactionHash,
    input: data(t.input ?? new Uint8Array(0)),
    nonce: quantity(t.nonce),
    to: ethTo(t),
    transactionIndex: place !== undefined ? quantity(place.transactionIndex) : null,
    value: quantity(t.value),
    type: quantity(0),
    v: quantity(sig.v),
    r: quantity(sig.r),
    s: quantity(sig.s)
  }
}

/**
 * `eth_getTransactionReceipt`: Kaia's Ethereum form of a receipt (`cumulativeGasUsed`: the gas of
 * the block's transactions up to this one).
 *
 * @since 0.5.0
 * @category transactions
 */
export const ethReceipt = (found: Extract<Node.Found, { readonly status: "committed" }>, cumulativeGasUsed: number): Json => {
  const { row } = found
  return {
    blockHash: found.blockHash,
    blockNumber: quantity(row.blockNumber),
    transactionHash: found.signed.transactionHash,
    transactionIndex: quantity(row.transactionIndex),
    from: lower(found.signed.tx.from),
    to: ethTo(found.signed.tx),
    gasUsed: quantity(row.gasUsed),
    cumulativeGasUsed: quantity(cumulativeGasUsed),
    contractAddress: row.contractAddress ?? null,
    logs: logsOf(found),
    logsBloom: Evm.logsBloom(row.logs ?? []),
    type: quantity(0),
    effectiveGasPrice: quantity(found.signed.tx.gasPrice),
    status: quantity(row.txError === undefined ? 1 : 0)
  }
}

// keccak256(rlp([])): the hash of no uncles.
const EmptyUncles = data(keccak_256(Klaytn.encodeRlp([])))
// Kaia's gasLimit of a block (params.UpperGasLimit): Klaytn blocks have no gas limit.
const UpperGasLimit = 999_999_999_999

// What both forms of a block share. The emulator keeps no tries: its roots are the zero hash.
const blockCommon = (block: Node.Block, fullTx: boolean, transaction: (found: Node.Found) => Json) => {
  const rows = block.transactions.map((t) => t.row)
  return {
    number: quantity(block.number),
    hash: block.hash,
    parentHash: block.parentHash,
    logsBloom: Evm.logsBloom(rows.flatMap((r) => r.logs ?? [])),
    stateRoot: pendingPlace.blockHash,
    transactionsRoot: pendingPlace.blockHash,
    receiptsRoot: pendingPlace.blockHash,
    extraData: "0x",
    // The block's transactions' bytes (there is no header to count).
    size: quantity(rows.reduce((n, r) => n + r.raw.length, 0)),
    gasUsed: quantity(rows.reduce((n, r) => n + r.gasUsed, 0)),
    timestamp: quantity(Math.floor(block.timeMs / 1000)),
    transactions: block.transactions.map((t) => (fullTx ? transaction(t) : t.signed.transactionHash))
  }
}

/**
 * `klay_getBlockByNumber`: Klaytn's block (a block score of 1, no reward base or governance data).
 *
 * @since 0.5.0
 * @category blocks
 */
export const klayBlock = (block: Node.Block, fullTx: boolean): Json =>
  sorted({
    ...blockCommon(block, fullTx, klayTransaction),
    reward: ZeroAddress,
    blockScore: quantity(1),
    totalBlockScore: quantity(block.number + 1),
    governanceData: "0x",
    voteData: "0x",
    timestampFoS: quantity(Math.floor(block.timeMs / 10) % 100)
  })

/**
 * `eth_getBlockByNumber`: Kaia's Ethereum form of a block. No `baseFeePerGas`: the chain has one
 * fixed unit price, so Ethereum clients send legacy transactions at `eth_gasPrice`.
 *
 * @since 0.5.0
 * @category blocks
 */
export const ethBlock = (block: Node.Block, fullTx: boolean): Json => ({
  ...blockCommon(block, fullTx, ethTransaction),
  nonce: "0x0000000000000000",
  mixHash: pendingPlace.blockHash,
  sha3Uncles: EmptyUncles,
  miner: ZeroAddress,
  difficulty: quantity(1),
  gasLimit: quantity(UpperGasLimit),
  uncles: []
})

const publicKey = (compressed: Uint8Array): Json => {
  const point = secp256k1.Point.fromBytes(compressed)
  return { x: quantity(point.x), y: quantity(point.y) }
}

/**
 * An account key as Klaytn's RPC serializes it: `{keyType, key}` — `{}` for a legacy or fail key,
 * `{x, y}` for a public key, `{threshold, keys: [{weight, key: {x, y}}]}` for a weighted multisig
 * key, and the role keys in order for a role-based one.
 *
 * @since 0.5.0
 * @category accounts
 */
export const accountKey = (key: Klaytn.AccountKey): Json => {
  switch (key._tag) {
    case "Legacy":
      return { keyType: AccountKey.KeyType.Legacy, key: {} }
    case "Fail":
      return { keyType: AccountKey.KeyType.Fail, key: {} }
    case "Public":
      return { keyType: AccountKey.KeyType.Public, key: publicKey(key.publicKey) }
    case "WeightedMultiSig":
      return {
        keyType: AccountKey.KeyType.WeightedMultiSig,
        key: { threshold: key.threshold, keys: key.keys.map((k) => ({ weight: k.weight, key: publicKey(k.publicKey) })) }
      }
    case "RoleBased":
      return { keyType: AccountKey.KeyType.RoleBased, key: key.roles.map(accountKey) }
  }
}

/**
 * `klay_getAccount`: an externally owned account (`accType` 1) or a smart contract account
 * (`accType` 2: its storage root, code hash (base64, as Go writes bytes), code format 0 (EVM) and
 * VM version 1); `null` for an address the chain does not hold.
 *
 * @since 0.5.0
 * @category accounts
 */
export const account = (view: Node.AccountView): Json => {
  if (!view.exists) return null
  const common = { nonce: view.nonce, balance: quantity(view.balance), humanReadable: false, key: accountKey(view.key) }
  if (view.code._tag === "None") return { accType: 1, account: common }
  return {
    accType: 2,
    account: {
      ...common,
      storageRoot: view.storageRoot ?? null,
      codeHash: Buffer.from(keccak_256(view.code.value)).toString("base64"),
      codeFormat: 0,
      vmVersion: 1
    }
  }
}
