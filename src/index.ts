/**
 * effect-kas-wallet: a typed, streaming Effect client for the KAS wallet account API.
 *
 * Every module is exported as a namespace, Effect style:
 * `import { Account, Address, Krn } from "effect-kas-wallet"`.
 *
 * @since 0.1.0
 */

/**
 * Accounts and pages of accounts.
 *
 * @since 0.1.0
 */
export * as Account from "./Account.js"

/**
 * Account keys, as an account update sets them: legacy, public, fail, weighted multisig,
 * role-based; their wire form and RLP encoding.
 *
 * @since 0.5.0
 */
export * as AccountKey from "./AccountKey.js"

/**
 * Amounts in peb: exact `bigint`s, their hex wire form, KLAY and ston decimals.
 *
 * @since 0.2.0
 */
export * as Amount from "./Amount.js"

/**
 * EIP-55 checksummed addresses.
 *
 * @since 0.1.0
 */
export * as Address from "./Address.js"

/**
 * Chain ids: mainnet 8217, testnet 1001.
 *
 * @since 0.1.0
 */
export * as ChainId from "./ChainId.js"

/**
 * The API key, its Authorization header, and the scrubber of its secret.
 *
 * @since 0.2.0
 */
export * as Credentials from "./Credentials.js"

/**
 * The service's error body and codes.
 *
 * @since 0.1.0
 */
export * as ErrorBody from "./ErrorBody.js"

/**
 * Fee delegation: user or global fee payer.
 *
 * @since 0.1.0
 */
export * as FeeDelegation from "./FeeDelegation.js"

/**
 * The fee-delegation history: what the global fee payer spent per transaction, in peb, KLAY, KRW
 * and USD.
 *
 * @since 0.7.0
 */
export * as FeeHistory from "./FeeHistory.js"

/**
 * The key service: keys in key pools, their pages and signatures.
 *
 * @since 0.6.0
 */
export * as Key from "./Key.js"

/**
 * Key ids: pool KRN plus key identifier.
 *
 * @since 0.1.0
 */
export * as KeyId from "./KeyId.js"

/**
 * KAS resource names and account pool KRNs.
 *
 * @since 0.1.0
 */
export * as Krn from "./Krn.js"

/**
 * Migration of existing Klaytn accounts into KAS: the accounts given and what became of each.
 *
 * @since 0.8.0
 */
export * as Migration from "./Migration.js"

/**
 * Multisig accounts: the update to weighted keys, transactions pending their signers, signature
 * statuses.
 *
 * @since 0.8.0
 */
export * as Multisig from "./Multisig.js"

/**
 * Page size, cursor and time range.
 *
 * @since 0.1.0
 */
export * as Pagination from "./Pagination.js"

/**
 * secp256k1 public keys.
 *
 * @since 0.1.0
 */
export * as PublicKey from "./PublicKey.js"

/**
 * Why the node refused a transaction: the tagged `reason` of `WalletError.NodeRefusal`.
 *
 * @since 0.11.0
 */
export * as RefusalReason from "./RefusalReason.js"

/**
 * Registration of existing Klaytn accounts under keys KAS holds: the request and its answer.
 *
 * @since 0.8.0
 */
export * as Registration from "./Registration.js"

/**
 * Unix seconds.
 *
 * @since 0.1.0
 */
export * as Timestamp from "./Timestamp.js"

/**
 * Transactions: hashes, signatures, the results of sending and their receipts.
 *
 * @since 0.1.0
 */
export * as Transaction from "./Transaction.js"
export * as TransactionKind from "./TransactionKind.js"

/**
 * The WalletClient service: operations, streams, layers.
 *
 * @since 0.1.0
 */
export * as WalletClient from "./WalletClient.js"

/**
 * WalletClient options, configuration from the environment, per-scope pool and chain.
 *
 * @since 0.1.0
 */
export * as WalletConfig from "./WalletConfig.js"

/**
 * The WalletClient's errors, one tagged union.
 *
 * @since 0.1.0
 */
export * as WalletError from "./WalletError.js"
