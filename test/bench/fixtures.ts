/**
 * Realistic bodies for benchmarks: one pool, distinct random addresses (EIP-55 checksummed, as the
 * service returns them), public keys and key ids, newest first.
 */
import { Either, Option, Schema } from "effect"
import { randomBytes } from "node:crypto"
import * as Address from "../../src/Address.js"
import * as Receipts from "../../packages/emulator/src/chain/Receipts.js"
import * as Klaytn from "../../src/Klaytn.js"
import * as Transaction from "../../src/Transaction.js"

const hex = (bytes: number): string => randomBytes(bytes).toString("hex")

export const poolKrn = "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default"

export const accountJson = (createdAt: number) => ({
  address: Option.getOrThrow(Address.checksum(`0x${hex(20)}`)),
  chainId: 1001,
  createdAt,
  keyId: `${poolKrn}:0x${hex(32)}`,
  krn: poolKrn,
  publicKey: `0x04${hex(64)}`,
  updatedAt: createdAt
})

/** The JSON text of a list page of `size` accounts. */
export const pageText = (size: number, cursor = "eyJjcmVhdGVkQXQiOjE1OTkxODcyOTN9"): string =>
  JSON.stringify({ cursor, items: Array.from({ length: size }, (_, i) => accountJson(1_700_000_000 - i)) })

export const keyPoolKrn = "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:key-pool:default"

/** One key of a key listing (`GET /v2/key`): its id in the pool, the pool, its public key. */
export const keyJson = () => ({
  keyId: `${keyPoolKrn}:0x${hex(32)}`,
  krn: keyPoolKrn,
  publicKey: `0x04${hex(64)}`
})

/**
 * One record of the fee-delegation history (`GET /v2/history/fd/tx`), as the emulator writes a
 * fee-delegated value transfer's: lower-case addresses, decimal and hex amounts, no exchange rate.
 */
export const historyRecordJson = (timestamp: number) => ({
  chainId: 1001,
  chargedByKlay: "0.000775",
  chargedByKrw: "0",
  chargedByPeb: "775000000000000",
  chargedByUsd: "0",
  feePayer: "0x85b98485444c89880cd9c48807cef727c296f2da",
  from: `0x${hex(20)}`,
  gasPrice: "0x5d21dba00",
  gasUsed: "0x7918",
  krw: 0,
  status: "0x1",
  timestamp,
  to: `0x${hex(20)}`,
  transactionHash: `0x${hex(32)}`,
  typeInt: 9,
  usd: 0
})

/** The multisig account whose pending transactions the benchmarks list, and its three signers. */
export const multisigAddress = Option.getOrThrow(Address.checksum("0x68311224a5d693e93b64e5b9b9935bafa0a1b916"))
const signers = [
  { address: Option.getOrThrow(Address.checksum("0x9ca7c95b1e032480485c7c67a671ef8c8b1376e7")), weight: 2 },
  { address: Option.getOrThrow(Address.checksum("0x19047fb2fbe07fda0672f454760e94703337c9a1")), weight: 1 },
  { address: Option.getOrThrow(Address.checksum("0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa")), weight: 1 }
]

/**
 * One pending transaction of a multisig account's listing (`GET /v2/multisig/account/{address}/tx`),
 * as the emulator writes it: the account and its three signers checksummed, a value transfer to a
 * random recipient in `txData` (lower-case addresses, hex amounts), unsigned (`status` 1).
 */
export const pendingTransactionJson = (createdAt: number) => ({
  address: multisigAddress,
  chainId: 1001,
  createdAt,
  multiSigKeys: signers,
  status: 1,
  threshold: 3,
  transactionId: `0x${hex(32)}`,
  txData: {
    typeInt: 8,
    from: multisigAddress.toLowerCase(),
    to: `0x${hex(20)}`,
    value: "0xde0b6b3a7640000",
    gas: 100000,
    gasPrice: "0x5d21dba00",
    nonce: 12
  },
  type: "TX",
  updatedAt: createdAt
})

/** The path of the multisig account's pending listing. */
export const multisigPath = `/v2/multisig/account/${multisigAddress}/tx`

/**
 * The item of each paged listing the benchmarks stream, by its path: what a page of the fixed-body
 * server (server.ts) holds. `i` is the item's place in its page (newest first).
 */
export const listingItems: Readonly<Record<string, (i: number) => unknown>> = {
  "/v2/account": (i) => accountJson(1_700_000_000 - i),
  "/v2/history/fd/tx": (i) => historyRecordJson(1_700_000_000 - i),
  "/v2/key": () => keyJson(),
  [multisigPath]: (i) => pendingTransactionJson(1_700_000_000 - i)
}

/**
 * A real signed fee-delegated transfer (fixed keys, so every process signs the same bytes) and the
 * request it answers: its result verifies against the request.
 */
export const transferResult = (() => {
  const sender = new Uint8Array(32).fill(7)
  const feePayer = new Uint8Array(32).fill(9)
  const from = Either.getOrThrow(Klaytn.addressOfKey(sender))
  const to = Option.getOrThrow(Address.checksum("0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"))
  const tx = Either.getOrThrow(Klaytn.makeTransaction({ kind: "value", from, to, value: 1000n, nonce: 3, gas: 100_000, gasPrice: 25_000_000_000n, feeDelegated: true }))
  const signed = Either.getOrThrow(Klaytn.signTransaction(tx, { chainId: 1001, sender, feePayer }))
  return { from, to, value: 1000n, json: Schema.encodeSync(Transaction.TransactionResult)(Receipts.toResult(signed, "Submitted")) }
})()
