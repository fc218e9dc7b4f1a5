/**
 * The plain values of the chain's state that the EVM's worker shares with the store: an address's
 * balance and nonce, what stands for nothing (an address never seen, a slot never written), and a
 * code's hash. A leaf module, free of effect and SQL, so that the worker (chain/evm/EvmWorker.ts)
 * loads neither; `ChainState` re-exports them.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.11.0
 * @internal
 */
import { keccak_256 } from "@noble/hashes/sha3.js"

/**
 * What the ledger holds for an address: its balance in peb and its next nonce. An address never
 * seen holds 0 with nonce 0.
 *
 * @since 0.2.0
 * @category models
 */
export interface Balance {
  readonly balance: bigint
  readonly nonce: number
}

/**
 * Nothing: the state of an address the ledger has never seen.
 *
 * @since 0.2.0
 * @category constants
 */
export const Empty: Balance = { balance: 0n, nonce: 0 }

/**
 * The value of a storage slot never written (or cleared): 32 zero bytes as `0x` + 64 hex digits.
 *
 * @since 0.4.0
 * @category constants
 */
export const ZeroWord = `0x${"0".repeat(64)}`

/**
 * The hash by which the ledger knows a contract's code: keccak256 as `0x` + 64 lower-case hex
 * digits (the EVM's code hash).
 *
 * @since 0.4.0
 * @category contracts
 */
export const codeHash = (code: Uint8Array): string => `0x${Buffer.from(keccak_256(code)).toString("hex")}`
