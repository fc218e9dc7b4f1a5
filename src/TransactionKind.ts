/**
 * What a transaction does, as data: a value transfer, a contract deployment, a contract
 * execution, a raw (already encoded) transaction, the cancellation of a pending one, an anchoring
 * of data, an account-key update, or an Ethereum-style legacy transaction. Who pays the fee is not part of the kind: it is an option of `WalletClient.send`
 * (the sender, `FeeDelegation.global`, `FeeDelegation.user(address)`, with an optional ratio), so
 * every kind goes with every fee payer, and `send` picks the route (`/v2/tx/...`,
 * `/v2/tx/fd/...`, `/v2/tx/fd-user/...`).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { FeeDelegation, TransactionKind, WalletClient } from "effect-kas-wallet"
 *
 * const deployed = WalletClient.send(
 *   TransactionKind.ContractDeploy({ input: "0x6080..." }),
 *   { from: "0x60d0902c428D0E197F97a756011Fd4893C1E57B0", feePayer: FeeDelegation.global }
 * )
 * ```
 *
 * @since 0.4.0
 */
import { Data } from "effect"
import type * as AccountKey from "./AccountKey.js"
import type * as Address from "./Address.js"
import type * as Amount from "./Amount.js"
import type { Kind } from "./TxType.js"

/**
 * The kinds of transaction, by tag:
 *
 * - `ValueTransfer`: `value` peb to `to` (not the zero address), with an optional free-text
 *   `memo` (its UTF-8 bytes become the transaction's input).
 * - `ContractDeploy`: `input` is the creation bytecode followed by the ABI-encoded constructor
 *   arguments (`Abi.deployInput` builds it); `value` peb goes to a payable constructor.
 * - `ContractExecution`: runs `input` (the calldata: `Abi.encodeCall` builds it) on the contract at
 *   `to`; `value` peb goes to a payable function.
 * - `RawTransaction`: an RLP-encoded transaction (`0x` hex): on `/v2/tx/rlp` one of a pool
 *   account, which the service signs as the sender; on the fee-delegated routes a fee-delegated
 *   one its sender already signed, which the fee payer signs. Its sender, nonce and gas are the
 *   RLP's own (`send` takes no `nonce` or `gas` for it; a `from` is checked against it).
 * - `Cancel`: replaces the sender's pending transaction of `nonce`, or of `transactionHash`
 *   (exactly one of them), by a cancel transaction.
 * - `Anchor`: records `input` (non-empty data) on the chain (chain data anchoring).
 * - `AccountUpdate`: sets the sender's account key (`AccountKey`). A key the service does not
 *   hold leaves the account unusable through the service.
 * - `Legacy`: an Ethereum-style transaction (type 0): a transfer, a call (`input` to a contract
 *   at `to`) or, without `to`, a deployment of `input`. The sender always pays: no fee payer.
 *
 * @since 0.4.0
 * @category models
 */
export type TransactionKind = Data.TaggedEnum<{
  ValueTransfer: {
    readonly to: Address.Address | string
    readonly value: Amount.Peb | bigint
    readonly memo?: string | undefined
  }
  ContractDeploy: {
    readonly input: string
    readonly value?: Amount.Peb | bigint | undefined
  }
  ContractExecution: {
    readonly to: Address.Address | string
    readonly input: string
    readonly value?: Amount.Peb | bigint | undefined
  }
  RawTransaction: {
    readonly rlp: string
  }
  Cancel: CancelTarget
  Anchor: {
    readonly input: string
  }
  AccountUpdate: {
    readonly accountKey: AccountKey.AccountKey
  }
  Legacy: {
    readonly to?: Address.Address | string | undefined
    readonly value?: Amount.Peb | bigint | undefined
    readonly input?: string | undefined
  }
}>

/**
 * Which pending transaction a `Cancel` replaces: the one of `nonce`, or the one of
 * `transactionHash`. Giving both, or neither, is a type error (and an `InvalidArgument` for
 * JavaScript callers).
 *
 * @since 0.5.0
 * @category models
 */
export type CancelTarget =
  | { readonly nonce: number; readonly transactionHash?: undefined }
  | { readonly transactionHash: string; readonly nonce?: undefined }

/**
 * The constructors, guards (`$is`) and exhaustive matcher (`$match`) of the kinds.
 *
 * @since 0.4.0
 * @category constructors
 */
export const { $is, $match, AccountUpdate, Anchor, ContractDeploy, ContractExecution, Legacy, RawTransaction, ValueTransfer } = Data
  .taggedEnum<TransactionKind>()

/**
 * A cancellation of the sender's pending transaction of `nonce`, or of `transactionHash`.
 *
 * @since 0.5.0
 * @category constructors
 */
export const Cancel = (target: CancelTarget): Extract<TransactionKind, { readonly _tag: "Cancel" }> =>
  Data.tagged<Extract<TransactionKind, { readonly _tag: "Cancel" }>>("Cancel")(target as any)

/**
 * The wire's name of a kind: the last segments of its route.
 *
 * @since 0.4.0
 * @category routes
 */
export const wireKind: (kind: TransactionKind) => Kind = $match({
  ValueTransfer: () => "value" as const,
  ContractDeploy: () => "contract/deploy" as const,
  ContractExecution: () => "contract/execute" as const,
  RawTransaction: () => "rlp" as const,
  Cancel: () => "cancel" as const,
  Anchor: () => "anchor" as const,
  AccountUpdate: () => "account" as const,
  Legacy: () => "legacy" as const
})
