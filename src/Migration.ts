/**
 * Migration of existing Klaytn accounts into KAS (`WalletClient.migrateAccounts`, the official
 * client's `migrateAccounts`): what the caller gives for each account (its address, the private
 * key or keys that sign its account updates, optionally its nonce and the gas price), and what
 * became of each.
 *
 * The private keys are `Redacted` and never leave the process: they sign each account's
 * fee-delegated account update locally, and only the signed transaction is sent. No error,
 * outcome, span or log holds them, nor any text derived from them (docs/migration.md).
 *
 * @since 0.8.0
 */
import { Data, type Redacted } from "effect"
import type * as Address from "./Address.js"
import type * as Amount from "./Amount.js"
import type * as KeyId from "./KeyId.js"
import type * as PublicKey from "./PublicKey.js"
import type * as Registration from "./Registration.js"
import type * as Transaction from "./Transaction.js"
import type * as WalletError from "./WalletError.js"

/**
 * A private key: 32 bytes, or their hex (`0x` and 64 hex digits, or the 64 digits alone), always
 * `Redacted` (a plain string would show wherever the value is printed).
 *
 * @since 0.8.0
 * @category models
 */
export type PrivateKey = Redacted.Redacted<string> | Redacted.Redacted<Uint8Array>

/**
 * The gas limit of each account update the migration signs: what the official client's
 * `migrateAccounts` gives (the update uses about 51000; the global fee payer pays for the gas used,
 * not the limit).
 *
 * @since 0.8.0
 * @category constants
 */
export const UpdateGas = 1_000_000

/**
 * One account to migrate. Exactly one of:
 *
 * - `privateKey`: the account's own key, the one its address comes from (an account whose key was
 *   never changed: Klaytn's legacy key). Checked before anything is sent: a key of another
 *   address is an `InvalidArgument`.
 * - `privateKeys`: the keys that sign the account's updates when its key is no longer its own —
 *   the one key of an `AccountKeyPublic` of another address, keys of an `AccountKeyWeightedMultiSig`
 *   whose weights reach its threshold, the account-update role's keys of an
 *   `AccountKeyRoleBased` (1 to 10 distinct keys). Their address cannot tell whether they belong
 *   to the account: the chain's key can. When the node is read (no `nonce` given), they are
 *   checked against the account's key on the chain before any key is created; otherwise the
 *   service's node checks them.
 *
 * `nonce`: the account's next nonce; absent, the node's (`klay_getTransactionCount`, pending).
 * `gasPrice` (peb): the chain's unit price; absent, the node's (`klay_gasPrice`).
 *
 * @since 0.8.0
 * @category models
 */
export type MigrationAccount =
  & {
    readonly address: Address.Address | string
    readonly nonce?: number | undefined
    readonly gasPrice?: Amount.Peb | bigint | undefined
  }
  & (
    | { readonly privateKey: PrivateKey; readonly privateKeys?: undefined }
    | { readonly privateKeys: ReadonlyArray<PrivateKey>; readonly privateKey?: undefined }
  )

/**
 * What became of one account:
 *
 * - `Migrated`: it is an account of the selected pool; its key on the chain is (or, once the
 *   update is in a block, will be) `AccountKeyPublic` of `publicKey`, the key service's key
 *   `keyId`. `senderTxHash` is the hash of the update as the account signed it (the service adds
 *   the fee payer's signature: `klay_getTransactionBySenderTxHash` finds it on a node); `nonce`
 *   the nonce it used.
 * - `Failed`: it is not migrated, and `reason` says why: the service's or its node's reason
 *   (`failed to send a raw transaction to klaytn node; -32000::nonce too low`), or, before anything
 *   was sent for it, the check of its keys against its key on the chain. `keyId` and `publicKey`
 *   name the key created for it when one was (it stays in the key service: delete it, or register
 *   the account with it later). `error` is the failure of the registration request itself when
 *   that is what failed: a `TransportError`, `ServerError` or `RateLimited` leaves the outcome
 *   unknown — look the account up (`getAccount`) before trying again.
 *
 * @since 0.8.0
 * @category models
 */
export type Outcome = Data.TaggedEnum<{
  Migrated: {
    readonly address: Address.Address
    readonly keyId: KeyId.KeyId
    readonly publicKey: PublicKey.PublicKey
    readonly nonce: number
    readonly senderTxHash: Transaction.TxHash
  }
  Failed: {
    readonly address: Address.Address
    readonly reason: string
    readonly keyId?: KeyId.KeyId | undefined
    readonly publicKey?: PublicKey.PublicKey | undefined
    readonly error?: WalletError.WalletError | undefined
  }
}>

/**
 * The constructors and matchers of `Outcome`.
 *
 * @since 0.8.0
 * @category constructors
 */
export const { $is, $match, Failed, Migrated } = Data.taggedEnum<Outcome>()

/**
 * The result of a migration: the status of the whole (`ok` when every account is migrated,
 * `partially failed`, `all failed`, as the registration's) and each account's outcome, in the
 * order given.
 *
 * @since 0.8.0
 * @category models
 */
export interface MigrationResult {
  readonly status: Registration.Status
  readonly accounts: ReadonlyArray<Outcome>
}
