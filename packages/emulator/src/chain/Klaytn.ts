/**
 * Klaytn as the emulator's chain uses it: the client's codec (`effect-kas-wallet/Klaytn`:
 * transactions, RLP, signatures, account keys) and the chain's own rules beside it, which the
 * client has no use for: intrinsic gas, contract addresses, the fee payer's signing, and the
 * results and receipts the service shows.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.9.0
 * @internal
 */
export * from "effect-kas-wallet/Klaytn"
export * from "./ContractAddress.js"
export * from "./FeePayerSigning.js"
export * from "./IntrinsicGas.js"
export * from "./Receipts.js"
