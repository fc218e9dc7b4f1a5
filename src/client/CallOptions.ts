/**
 * The per-call selections of chain and pool the operations take. Unset fields fall back to the
 * scope (`WalletConfig.withChain`, `withPool`, `withFeePayerPool`, `withKeyPool`), then to the
 * layer's options.
 *
 * @since 0.10.0
 */
import type * as ChainId from "../ChainId.js"
import type * as WalletConfig from "../WalletConfig.js"

/**
 * Per-call selection of chain and pool. Unset fields fall back to the scope (`withChain`,
 * `withPool`), then to the layer's options.
 *
 * @since 0.1.0
 * @category models
 */
export interface CallOptions {
  /** Chain of this call (`x-chain-id`). */
  readonly chainId?: ChainId.ChainId | number | undefined
  /** Pool of this call (`x-krn`); `null` for the member's default pool. */
  readonly pool?: WalletConfig.PoolSelection | undefined
}

/**
 * Per-call selection of chain and fee-payer pool, for fee-payer operations. Unset fields fall back
 * to the scope's chain, then to the layer's options.
 *
 * @since 0.2.0
 * @category models
 */
export interface FeePayerCallOptions {
  /** Chain of this call (`x-chain-id`). */
  readonly chainId?: ChainId.ChainId | number | undefined
  /** Fee-payer pool of this call (`x-krn`); `null` for the member's default fee-payer pool. */
  readonly feePayerPool?: WalletConfig.FeePayerPoolSelection | undefined
}

/**
 * Per-call selection of chain and key pool, for the key service's operations. Unset fields fall
 * back to the scope (`withChain`, `withKeyPool`), then to the layer's options.
 *
 * @since 0.6.0
 * @category models
 */
export interface KeyCallOptions {
  /** Chain of this call (`x-chain-id`). */
  readonly chainId?: ChainId.ChainId | number | undefined
  /**
   * Key pool of `createKeys` (`x-krn`) and of `listKeys` without a `krn`; `null` for the member's
   * default key pool.
   */
  readonly keyPool?: WalletConfig.KeyPoolSelection | undefined
}

/**
 * Per-call selection of the chain alone, for the member-wide operations that take no pool (the
 * fee-delegation history, signatures made elsewhere).
 *
 * @since 0.7.0
 * @category models
 */
export interface HistoryCallOptions {
  /** Chain of this call (`x-chain-id`). */
  readonly chainId?: ChainId.ChainId | number | undefined
}
