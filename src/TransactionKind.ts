/**
 * What a transaction does, as data: a value transfer, a contract deployment or a contract
 * execution. Who pays the fee is not part of the kind: it is an option of `WalletClient.send`
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
import type * as Address from "./Address.js"
import type * as Amount from "./Amount.js"
import type * as Wire from "./Wire.js"

/**
 * The kinds of transaction, by tag:
 *
 * - `ValueTransfer`: `value` peb to `to` (not the zero address), with an optional free-text
 *   `memo` (its UTF-8 bytes become the transaction's input).
 * - `ContractDeploy`: `input` is the creation bytecode followed by the ABI-encoded constructor
 *   arguments (`Abi.deployInput` builds it); `value` peb goes to a payable constructor.
 * - `ContractExecution`: runs `input` (the calldata: `Abi.encodeCall` builds it) on the contract at
 *   `to`; `value` peb goes to a payable function.
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
}>

/**
 * The constructors, guards (`$is`) and exhaustive matcher (`$match`) of the kinds.
 *
 * @since 0.4.0
 * @category constructors
 */
export const { $is, $match, ContractDeploy, ContractExecution, ValueTransfer } = Data.taggedEnum<TransactionKind>()

/**
 * The wire's name of a kind: the last segments of its route.
 *
 * @since 0.4.0
 * @category routes
 */
export const wireKind: (kind: TransactionKind) => Wire.Kind = $match({
  ValueTransfer: () => "value" as const,
  ContractDeploy: () => "contract/deploy" as const,
  ContractExecution: () => "contract/execute" as const
})
