/**
 * Klaytn's intrinsic gas (its `params`): what a transaction costs before any contract code runs.
 * 21000 per value transfer or contract execution (TxGasValueTransfer, TxGasContractExecution),
 * 53000 per deployment (TxGasContractCreation), plus 10000 when fee-delegated or 15000 when
 * fee-delegated with a ratio, plus 100 per byte of input (21000 for an account update, a cancel,
 * an anchoring and a legacy transaction, 53000 for a legacy deployment; an account update adds
 * 20000 per public key it registers, TxAccountCreationGasPerKey) (TxDataGas: Klaytn's flat rate
 * before its Istanbul fork; Istanbul moved to 4 per zero byte and 16 per other, and Shanghai added
 * 2 per 32-byte word of deployment code: neither is modelled).
 *
 * The chain's rule, not the client's: the client only reads `gasUsed` off a receipt.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.9.0
 * @internal
 */
import { Either } from "effect"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Wire from "effect-kas-wallet/Wire"

/**
 * Gas of every value transfer.
 *
 * @since 0.1.0
 * @category gas
 */
export const TxGasValueTransfer = 21000
/**
 * Gas of every contract execution.
 *
 * @since 0.4.0
 * @category gas
 */
export const TxGasContractExecution = 21000
/**
 * Gas of every contract deployment.
 *
 * @since 0.4.0
 * @category gas
 */
export const TxGasContractCreation = 53000
/**
 * Extra gas of a fee-delegated transaction.
 *
 * @since 0.1.0
 * @category gas
 */
export const TxGasFeeDelegated = 10000
/**
 * Extra gas of a fee-delegated transaction with a fee ratio (instead of `TxGasFeeDelegated`).
 *
 * @since 0.1.0
 * @category gas
 */
export const TxGasFeeDelegatedWithRatio = 15000
/**
 * Gas per byte of input.
 *
 * @since 0.1.0
 * @category gas
 */
export const TxDataGas = 100

/**
 * Gas of every account update, cancel and chain-data anchoring (TxGasAccountUpdate, TxGasCancel,
 * TxGasChainDataAnchoring) and of a legacy transaction that creates no contract (TxGas).
 *
 * @since 0.5.0
 * @category gas
 */
export const TxGas = 21000
/**
 * Gas per public key an account update registers (TxAccountCreationGasPerKey).
 *
 * @since 0.5.0
 * @category gas
 */
export const TxAccountCreationGasPerKey = 20000

const KIND_GAS: { readonly [L in Klaytn.Layout]: number } = {
  value: TxGasValueTransfer,
  "contract/deploy": TxGasContractCreation,
  "contract/execute": TxGasContractExecution,
  account: TxGas,
  cancel: TxGas,
  anchor: TxGas,
  legacy: TxGas
}

// The public keys an account update registers: what TxAccountCreationGasPerKey is paid for.
const publicKeyCount = (key: Klaytn.AccountKey): number =>
  key._tag === "Public" ? 1 : key._tag === "WeightedMultiSig" ? key.keys.length : key._tag === "RoleBased" ? key.roles.reduce((n, r) => n + publicKeyCount(r), 0) : 0

/**
 * Klaytn's intrinsic gas of a transaction of this type with `inputBytes` bytes of input (memo,
 * creation code or calldata): what it costs before any contract code runs.
 *
 * @since 0.1.0
 * @category gas
 */
export const intrinsicGas = (
  type: Wire.TxType,
  inputBytes: number,
  extra?: { readonly key?: Klaytn.AccountKey | undefined; readonly creates?: boolean | undefined }
): number =>
  (extra?.creates === true ? TxGasContractCreation : KIND_GAS[Klaytn.kindOf(type)]) +
  (Wire.hasFeeRatio(type) ? TxGasFeeDelegatedWithRatio : Wire.isFeeDelegatedType(type) ? TxGasFeeDelegated : 0) +
  TxDataGas * inputBytes +
  (extra?.key !== undefined ? TxAccountCreationGasPerKey * publicKeyCount(extra.key) : 0)

/**
 * Klaytn's intrinsic gas of a transaction: `intrinsicGas` with its own input, key and creation. A
 * key that does not decode (a transaction not built by `makeTransaction` or `decodeRaw`) is a
 * `KlaytnError`.
 *
 * @since 0.5.0
 * @category gas
 */
export const intrinsicGasOf = (t: Klaytn.Tx): Either.Either<number, Klaytn.KlaytnError> =>
  Either.map(
    t.key === undefined ? Either.right(undefined) : Klaytn.decodeAccountKey(t.key),
    (key) => intrinsicGas(t.type, t.input?.length ?? 0, { key, creates: Klaytn.kindOf(t.type) === "legacy" && t.to === undefined })
  )
