/**
 * The gas rules of the emulated chain: the gas limit of a transaction or call that gives none, and
 * the most gas one may give the EVM.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import type * as Wire from "effect-kas-wallet/Wire"

/**
 * The gas limit of a transaction that gives none (or 0), by kind, as the service's examples show
 * (their requests give `gas: 0`, their results 0x895440 and 0x0f4240, in the body and in the RLP):
 * 9000000 for a deployment, 1000000 for every other kind — a value transfer too, where the
 * specification's text says 100000 (tx-value-200-success shows 0x0f4240). A raw transaction has
 * its own.
 *
 * @since 0.2.0
 * @category constants
 */
export const DefaultGas: { readonly [K in Wire.TypedKind]: number } = {
  value: 1_000_000,
  "contract/deploy": 9_000_000,
  "contract/execute": 1_000_000,
  // The service's examples of these kinds, with `gas: 0`, all show 1000000 (0x0f4240).
  cancel: 1_000_000,
  anchor: 1_000_000,
  account: 1_000_000,
  legacy: 1_000_000
}

/**
 * The gas limit of a contract call that gives none: enough for any read a wallet makes, and a
 * bound on a call that loops.
 *
 * @since 0.4.0
 * @category constants
 */
export const DefaultCallGas = 10_000_000

/**
 * The most gas a contract transaction or call may give the EVM: Ethereum's block gas limit. The EVM
 * runs on the emulator's one thread, so a request's gas is the time it may hold every other
 * request up (a loop burns about 25 million gas a second here): a transaction asking for more is
 * refused as a node refuses one above its block's gas limit (400 1065001 "exceeds block gas
 * limit"), a call is capped to it as a node's RPC gas cap does.
 *
 * @since 0.4.0
 * @category constants
 */
export const MaxGas = 30_000_000
