/**
 * What the ledger is asked to do: a transaction of any kind (what it does, who pays its fee, from
 * which pool), a read-only call or run, and what the ledger knows of a transaction by hash.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import type { Address, Amount } from "effect-kas-wallet"
import type * as Klaytn from "effect-kas-wallet/Klaytn"
import type * as Wire from "effect-kas-wallet/Wire"
import type * as Store from "../store/Store.js"

/**
 * Who pays the fee of a transaction: the sender (`/v2/tx/...`), the global fee payer
 * (`/v2/tx/fd/...`) or a fee-payer account of the member (`/v2/tx/fd-user/...`), in the selected
 * fee-payer pool when one is. `feeRatio` is the fee payer's percentage, 0 for all of it.
 *
 * @since 0.2.0
 * @category models
 */
export type Payer =
  | { readonly _tag: "Sender" }
  | { readonly _tag: "Global"; readonly feeRatio: number }
  /**
   * A raw transaction signed whole elsewhere (a node's `sendRawTransaction`): its fee payer, when
   * its type has one, is the one in the transaction (any address: it pays from its balance on the
   * chain), its signatures as they came, checked against its account key; `feeRatio` is the
   * transaction's own.
   *
   * @since 0.5.0
   */
  | { readonly _tag: "Signed"; readonly feeRatio: number }
  | {
    readonly _tag: "User"
    readonly address: Address.Address
    readonly feeRatio: number
    readonly pool: Store.SelectedPool | undefined
  }

/**
 * What a transaction does, by kind: a value transfer (`memo`: free text, its UTF-8 bytes the input;
 * empty counts as absent), a deployment (`input`: the creation code with its constructor
 * arguments), an execution (`input`: the calldata), a cancel (of the sender's pending transaction
 * of the request's nonce: `replace`), an anchoring (`input`: the data), an account update (`key`:
 * the new key in Klaytn's RLP form, checked), a legacy transaction (to a recipient, or deploying
 * its input), or a raw transaction built elsewhere (`rlp`: its transaction, and its sender's
 * signatures when they came with it). `value` is peb sent along.
 *
 * @since 0.4.0
 * @category models
 */
export type Action =
  | { readonly kind: "cancel" }
  | { readonly kind: "anchor"; readonly input: Uint8Array }
  | { readonly kind: "account"; readonly key: Uint8Array }
  | {
    readonly kind: "legacy"
    readonly to: Address.Address | undefined
    readonly value: Amount.Peb
    readonly input: Uint8Array | undefined
  }
  | {
    readonly kind: "rlp"
    readonly tx: Klaytn.Tx
    /** The sender's signatures (a TxHashRLP); absent: a SigRLP, which a pool account signs. */
    readonly signatures: ReadonlyArray<Klaytn.SignatureValues> | undefined
    /**
     * The fee payer's address and signatures, when they came with the transaction (payer
     * `Signed`).
     *
     * @since 0.5.0
     */
    readonly feePayer?: Klaytn.SignedParts["feePayer"] | undefined
  }
  | {
    readonly kind: "value"
    readonly to: Address.Address
    readonly value: Amount.Peb
    readonly memo: string | undefined
  }
  | { readonly kind: "contract/deploy"; readonly input: Uint8Array; readonly value: Amount.Peb }
  | {
    readonly kind: "contract/execute"
    readonly to: Address.Address
    readonly input: Uint8Array
    readonly value: Amount.Peb
  }

/**
 * A transaction request of any kind, its body decoded.
 *
 * @since 0.4.0
 * @category models
 */
export type SendRequest = Action & {
  /** The selected account pool: the sender must be one of its accounts. */
  readonly pool: Store.SelectedPool
  readonly from: Address.Address
  /** Absent or 0: the sender's next nonce. */
  readonly nonce: number | undefined
  /** Absent or 0: the kind's `DefaultGas`. */
  readonly gas: number | undefined
  readonly submit: boolean
  readonly payer: Payer
  /**
   * Replace the sender's pending transaction of `nonce` (manual mining), as a cancel does; `nonce`
   * is then taken as given, 0 included. Without a pending transaction of that nonce the request
   * is an ordinary one (a committed nonce is "nonce too low").
   *
   * @since 0.5.0
   */
  readonly replace?: boolean | undefined
}

/**
 * A read-only contract call, its body decoded: the method and its typed arguments, run on the
 * latest state of the chain as `from` (the zero address when absent).
 *
 * @since 0.4.0
 * @category models
 */
export interface CallRequest {
  readonly chainId: number
  readonly from: Address.Address | undefined
  readonly to: Address.Address
  readonly value: Amount.Peb | undefined
  /** Absent or 0: `DefaultCallGas`. */
  readonly gas: number | undefined
  readonly methodName: string
  readonly arguments: ReadonlyArray<Wire.CallArgument>
}

/**
 * A read-only run (`Service.simulate`): from, to (absent: the input is creation code) and the gas
 * the EVM may use, Klaytn's intrinsic gas already taken off. Addresses lower case.
 *
 * @since 0.5.0
 * @category models
 */
export interface SimulateRequest {
  readonly chainId: number
  readonly from: string
  readonly to: string | undefined
  readonly value: bigint
  readonly input: Uint8Array
  readonly gasLimit: bigint
}

/**
 * A transaction the ledger knows by hash: `pending` in the pool (manual mining), or `committed`
 * (in a block; in interval mode that includes one applied and waiting for its block's time). The
 * signed raw bytes, sender and nonce (lower case) are what a cancel or a resubmission needs.
 *
 * @since 0.5.0
 * @category models
 */
export interface Known {
  readonly status: "pending" | "committed"
  readonly hash: string
  readonly sender: string
  readonly nonce: number
  readonly memberId: number
  readonly raw: Uint8Array
}
