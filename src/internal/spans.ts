/**
 * The attributes the client sets on its spans, by name: one list for the client that sets them
 * and for any tool that reads them (the command line's `--verbose` follows retries through them).
 *
 * @internal
 */
export const SpanAttributes = {
  /** The chain of the request. */
  chainId: "kas.chain_id",
  /** The `x-krn` sent, or `default`. */
  pool: "kas.pool",
  /** The account an operation is about. */
  address: "kas.address",
  /** The page size of a listing's request. */
  pageSize: "kas.page_size",
  /** The transaction a receipt is about. */
  txHash: "kas.tx_hash",
  /** Who pays a transaction's fee: `sender`, `GlobalFeePayer` or `UserFeePayer`. */
  feePayer: "kas.fee_payer",
  /** The kind of a transaction sent: `ValueTransfer`, `ContractDeploy`, `ContractExecution`. */
  txKind: "kas.tx_kind",
  /** The key (its key id) a key-service operation is about. */
  keyId: "kas.key_id",
  /** The multisig transaction (its transaction id) an operation is about. */
  transactionId: "kas.transaction_id",
  /** The contract a call is about. */
  contract: "kas.contract",
  /** Set before a retry: the attempt about to be made (2, 3, ...). */
  retryAttempt: "kas.retry.attempt",
  /** Set before a retry: the tag of the error that caused it. */
  retryAfterError: "kas.retry.after_error",
  /** Set before a retry: how long the client waits first, in milliseconds. */
  retryDelayMillis: "kas.retry.delay_ms"
} as const
