/**
 * A run of the EVM as data: the message it is given and the outcome it answers, as they cross
 * between the ledger's thread and the EVM's worker (structured clones: bigints, maps and bytes,
 * no classes), and the pure readings of an outcome the worker makes (a revert's reason, Klaytn's
 * receipt error code). `Evm` re-exports them.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.11.0
 * @internal
 */
import type * as ChainState from "../../store/ChainState.js"
import type * as LedgerStore from "../../store/LedgerStore.js"

/**
 * The fields every run takes.
 *
 * @since 0.4.0
 * @category models
 */
export interface MessageFields {
  /** The sender (`msg.sender`, `tx.origin`), lower-case `0x` hex. */
  readonly from: string
  /** Peb the sender sends to the callee or the new contract. */
  readonly value: bigint
  /** Creation code with its constructor arguments (deploy), or calldata. */
  readonly input: Uint8Array
  /** The gas the EVM may use: the transaction's gas limit less Klaytn's intrinsic gas. */
  readonly gasLimit: bigint
  readonly blockNumber: number
  /** The block's time, Unix seconds. */
  readonly timestamp: number
  /** CHAINID. */
  readonly chainId: number
  /** GASPRICE, and BASEFEE (a fixed-price chain). */
  readonly gasPrice: bigint
}

/**
 * What to run: a deployment (`SmartContractDeploy`), an execution (`SmartContractExecution`) or a
 * read-only call (`contract/call`: run against the latest state, nothing kept).
 *
 * @since 0.4.0
 * @category models
 */
export type Message =
  | MessageFields & { readonly kind: "deploy" }
  | MessageFields & { readonly kind: "execute" | "call"; readonly to: string }

/**
 * A log of a run, lower-case hex (as the store keeps it with its transaction).
 *
 * @since 0.4.0
 * @category models
 */
export type Log = ChainState.Log

/**
 * How a run ended: `success`; `reverted` by the REVERT opcode (the rest of the gas returns);
 * `failed` on an exceptional halt (out of gas, invalid opcode, bad jump, stack error, collision:
 * all the gas is used).
 *
 * @since 0.4.0
 * @category models
 */
export type Status = "success" | "reverted" | "failed"

/**
 * What a run did. The state effects (`balanceChanges`, `nonces`, `contracts`) are empty unless
 * the status is `success` and the kind is not `call`: a failed transaction changes only its
 * sender's nonce and the fees, which the ledger applies.
 *
 * @since 0.4.0
 * @category models
 */
export interface Outcome {
  readonly status: Status
  /** The EVM's gas, without the intrinsic gas nor the refund (see `totalGas`). */
  readonly gasUsed: bigint
  /** The gas refund the run earned (slots cleared; EIP-3529 rules); 0 unless `success`. See `totalGas`. */
  readonly gasRefund: bigint
  /** What the run returned: the result of a call, the revert data, the deployed code of a deployment. */
  readonly returnData: Uint8Array
  /** The message of a revert with `Error(string)` data. */
  readonly revertReason?: string | undefined
  /** Klaytn's receipt error code (`txError`) of a run that did not succeed: 0x09 reverted, 0x07 out of gas, ... */
  readonly txError?: number | undefined
  /** The EVM's own word for the failure ("out of gas", "invalid opcode", ...), for diagnostics. */
  readonly error?: string | undefined
  /** The address of the contract a deployment creates, or would have created when it did not succeed. */
  readonly createdAddress?: string | undefined
  /** The logs, in order; none unless `success`. */
  readonly logs: ReadonlyArray<Log>
  /**
   * Peb moved by the run, by lower-case address (value in, minus value out; the sender's `value`
   * included, fees never). Each address here must be in the ledger's balance write.
   */
  readonly balanceChanges: ReadonlyMap<string, bigint>
  /**
   * Nonces the run set, other than the sender's own bump (the ledger's): 1 for a contract
   * created, one more for each contract a contract creates, 0 for a destroyed one.
   */
  readonly nonces: ReadonlyMap<string, number>
  /** Code, storage and destructions, for `LedgerStore.Write.contracts`. */
  readonly contracts: LedgerStore.Contracts
  /** What the run read, for `LedgerStore.Write.reads`: whatever the status, the outcome depends on it. */
  readonly reads: LedgerStore.Reads
}

/**

/**
 * Why Klaytn refuses a run before running it (`Evm.EvmError`): `NotAProgramAccount`, an execution
 * whose `to` has no code; `InsufficientFunds`, the sender does not hold `value`.
 *
 * @since 0.11.0
 * @category models
 */
export type RefusalReason = "NotAProgramAccount" | "InsufficientFunds"

/**
 * Bytes as `0x` and lower-case hex.
 *
 * @since 0.11.0
 * @category encoding
 */
export const toHex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`

/**
 * `0x` hex as bytes.
 *
 * @since 0.11.0
 * @category encoding
 */
export const fromHex = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.slice(2), "hex"))

// Error(string): selector, then the ABI encoding of one string (offset, length, bytes).
const ErrorSelector = "08c379a0"

/**
 * The message of revert data that is `Error(string)` (what `revert("...")` and `require(..., "...")`
 * give); `undefined` for anything else (a custom error, `Panic(uint256)`, nothing).
 *
 * @since 0.4.0
 * @category receipts
 */
export const revertReason = (data: Uint8Array): string | undefined => {
  if (data.length < 4 + 64 || Buffer.from(data.subarray(0, 4)).toString("hex") !== ErrorSelector) return undefined
  const body = data.subarray(4)
  const uint = (at: number) => BigInt(toHex(body.subarray(at, at + 32)))
  const offset = uint(0)
  if (offset + 32n > BigInt(body.length)) return undefined
  const length = uint(Number(offset))
  const start = Number(offset) + 32
  if (BigInt(start) + length > BigInt(body.length)) return undefined
  return new TextDecoder().decode(body.subarray(start, start + Number(length)))
}

// Klaytn's receipt error codes (its "Transaction Error Codes"), by the EVM's error words.
const TxErrors: ReadonlyMap<string, number> = new Map([
  ["revert", 0x09],
  ["out of gas", 0x07],
  ["code store out of gas", 0x05],
  ["code size to deposit exceeds maximum code size", 0x06],
  ["create collision", 0x04],
  ["static state change", 0x08]
])
// "VM error occurs while running smart contract": Klaytn's code for every other halt.
const TxErrorDefault = 0x02

/**
 * Klaytn's receipt error code (`txError`) for an EVM failure word.
 *
 * @since 0.4.0
 * @category receipts
 */
export const txError = (error: string): number => TxErrors.get(error) ?? TxErrorDefault
