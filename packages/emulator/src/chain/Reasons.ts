/**
 * The node's own words for what it refuses, as Klaytn's node (and its transaction pool) writes them:
 * the reasons of `Refusal.NodeRefused`, which the wallet API wraps in its message and the node API
 * answers as they are.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */

/**
 * The sender cannot pay the value and its part of the most the transaction may cost.
 *
 * @since 0.10.0
 * @category reasons
 */
export const SenderFunds = "insufficient funds of the sender for value "

/**
 * A user fee payer cannot pay its part of the most the transaction may cost.
 *
 * @since 0.10.0
 * @category reasons
 */
export const FeePayerFunds = "insufficient funds of the fee payer for gas * price"

/**
 * go-ethereum's word for a transaction the pool holds already, which the client's reliable send
 * recognises.
 *
 * @since 0.10.0
 * @category reasons
 */
export const AlreadyKnown = "already known"

/**
 * Klaytn's ErrAlreadyNonceExistInPool: only a replacement (a cancel) may take a pending nonce.
 *
 * @since 0.10.0
 * @category reasons
 */
export const NonceInPool = "there is another tx which has the same nonce in the tx pool"

/**
 * The EVM's refusal of an execution of an address without code (`Evm.ts`), checked at acceptance
 * in manual mode.
 *
 * @since 0.10.0
 * @category reasons
 */
export const NotAProgramAccount = "not a program account (e.g., an account having code and storage)"

/**
 * Klaytn's refusal of a value transfer to a contract.
 *
 * @since 0.10.0
 * @category reasons
 */
export const NotForProgramAccount = "this type transaction cannot be sent to contract addresses"
