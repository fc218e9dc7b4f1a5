/**
 * What the service shows of a signed transaction: its result when sent (`toResult`), its fields
 * while it waits for a multisig sender's signers (`toPendingTxData`), and its receipt once a block
 * holds it (`toReceipt`), in the shapes of `effect-kas-wallet`'s `Transaction` schemas. The client
 * decodes these; only the emulator makes them.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.9.0
 * @internal
 */
import { Option } from "effect"
import { Address, type Amount, type Transaction } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Wire from "effect-kas-wallet/Wire"
import { contractAddress } from "./ContractAddress.js"

const hexOf = (bytes: Uint8Array): string => `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`

// The fields of the transaction itself, which a result and a receipt both carry.
const txFields = (t: Klaytn.Tx) => ({
  from: t.from,
  ...(t.to !== undefined ? { to: t.to } : {}),
  ...(Klaytn.hasField(t.type, "value") ? { value: t.value as Amount.Peb } : {}),
  gas: t.gas,
  gasPrice: t.gasPrice as Amount.Peb,
  nonce: t.nonce,
  ...(t.input !== undefined ? { input: hexOf(t.input) } : {})
})

/**
 * The service's result for a signed transaction (`status` `"Submitted"` when sent to the chain,
 * `"Pending"` otherwise); encode it with `Transaction.TransactionResult`. A deployment's has no
 * `to`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const toResult = (signed: Klaytn.SignedTx, status: "Submitted" | "Pending"): Transaction.SignedResult => {
  const t = signed.tx
  const common = {
    ...txFields(signed.tx),
    // An account update's result shows its new key, RLP-encoded, as the service's does.
    ...(t.key !== undefined ? { accountKey: hexOf(t.key) } : {}),
    rlp: hexOf(signed.raw),
    signatures: signed.signatures.map(Klaytn.toWireSignature),
    transactionHash: signed.transactionHash,
    status
  }
  if (signed.feePayer === undefined) return { ...common, typeInt: t.type } as Transaction.SignedResult
  return {
    ...common,
    typeInt: t.type,
    feePayer: signed.feePayer.address,
    ...(t.feeRatio !== undefined ? { feeRatio: t.feeRatio } : {})
  } as Transaction.SignedResult
}

/**
 * What a multisig sender's transaction shows while it waits for its signers
 * (`Transaction.PendingTxData`: its fields, no signature): the fee payer named when it is
 * fee-delegated (the fee payer signs once the sender's signers have).
 *
 * @since 0.8.0
 * @category formatting
 */
export const toPendingTxData = (t: Klaytn.Tx, feePayer?: Address.Address | undefined): Transaction.PendingTxData =>
  ({
    typeInt: t.type,
    ...txFields(t),
    ...(t.key !== undefined ? { accountKey: hexOf(t.key) } : {}),
    ...(feePayer !== undefined ? { feePayer } : {}),
    ...(t.feeRatio !== undefined ? { feeRatio: t.feeRatio } : {})
  }) as Transaction.PendingTxData

/**
 * A log of a contract, as the ledger keeps it (lower-case hex).
 *
 * @since 0.4.0
 * @category models
 */
export interface Log {
  readonly address: string
  readonly topics: ReadonlyArray<string>
  readonly data: string
}

/**
 * Where and how a transaction was committed: its block, the gas it used, and what it did
 * (`CommitError` with Klaytn's `txError` code when its contract failed; its logs, the first at
 * block-wide index `logIndex`, and their bloom).
 *
 * @since 0.1.0
 * @category models
 */
export interface BlockPlacement {
  readonly blockHash: string
  readonly blockNumber: number
  readonly transactionIndex: number
  readonly gasUsed: number
  readonly status: "Committed" | "CommitError"
  readonly txError?: number | undefined
  readonly logs?: ReadonlyArray<Log> | undefined
  readonly logIndex?: number | undefined
  /** `0x` + 512 hex digits; absent: no logs (all zeros). */
  readonly logsBloom?: string | undefined
}

const EMPTY_BLOOM = `0x${"00".repeat(256)}`

// What each kind's receipt says of a contract: the service shows `""` for a value transfer and
// Klaytn's `null` for an execution; a deployment names the contract (even when its code failed, as
// Klaytn does) and has no recipient.
const contractFields = (t: Klaytn.Tx) => {
  switch (Klaytn.kindOf(t.type)) {
    case "value":
      return { contractAddress: "" as const }
    case "contract/execute":
      return { contractAddress: null }
    case "contract/deploy":
      return {
        contractAddress: contractAddress(t.from, t.nonce),
        to: null,
        humanReadable: false,
        codeFormat: "0x0"
      }
    case "legacy":
      return t.to === undefined ? { contractAddress: contractAddress(t.from, t.nonce), to: null } : { contractAddress: null }
    case "account":
    case "cancel":
    case "anchor":
      return { contractAddress: null }
  }
}

// A log's address, as the ledger keeps it (lower-case hex of 20 bytes), checksummed: it cannot fail.
const logAddress = (address: string): Address.Address => Option.getOrThrow(Address.checksum(address.toLowerCase()))

/**
 * The receipt of a committed transaction, shaped like the service's; encode it with
 * `Transaction.TransactionReceipt`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const toReceipt = (signed: Klaytn.SignedTx, placement: BlockPlacement): Transaction.CommittedReceipt => {
  const t = signed.tx
  const firstLog = placement.logIndex ?? 0
  return {
    status: placement.status,
    blockHash: placement.blockHash,
    blockNumber: placement.blockNumber,
    transactionIndex: placement.transactionIndex,
    gasUsed: placement.gasUsed,
    ...txFields(signed.tx),
    ...contractFields(t),
    logs: (placement.logs ?? []).map((log, i) => ({
      address: logAddress(log.address),
      topics: log.topics,
      data: log.data,
      blockHash: placement.blockHash,
      blockNumber: placement.blockNumber,
      logIndex: firstLog + i,
      removed: false,
      transactionHash: signed.transactionHash,
      transactionIndex: placement.transactionIndex
    })),
    logsBloom: placement.logsBloom ?? EMPTY_BLOOM,
    ...(placement.txError !== undefined ? { txError: placement.txError } : {}),
    typeInt: t.type,
    type: Wire.typeName(t.type),
    signatures: signed.signatures.map(Klaytn.toWireSignature),
    ...(signed.feePayer !== undefined
      ? { feePayer: signed.feePayer.address, feePayerSignatures: signed.feePayer.signatures.map(Klaytn.toWireSignature) }
      : {}),
    ...(t.feeRatio !== undefined ? { feeRatio: t.feeRatio } : {}),
    hash: signed.transactionHash,
    transactionHash: signed.transactionHash,
    senderTxHash: signed.senderTxHash
  }
}
