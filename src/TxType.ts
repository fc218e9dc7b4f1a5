/**
 * The catalog of Klaytn transaction types: each type by name, the guards that read a type (who
 * pays, whether it has a ratio or a memo, its base type), and the kinds of transaction the
 * service sends with the types each one has. Klaytn's codec, the results' schemas and the
 * request bodies all read it; it depends on nothing of theirs.
 *
 * Not exported from the package's main entry: `effect-kas-wallet/Wire` re-exports it under the
 * same names (`Wire.TxType`, `Wire.typeOf`, ...).
 *
 * @since 0.9.0
 */

/**
 * The Klaytn transaction types the service sends, by name. Each kind has a base type (a multiple
 * of 8); the fee-delegated variant is the base + 1, the fee-delegated variant with a fee ratio the
 * base + 2. The legacy (Ethereum-style) type 0 has no fee-delegated variant.
 *
 * @since 0.1.0
 * @category constants
 */
export const TxType = {
  LegacyTransaction: 0x00,
  ValueTransfer: 0x08,
  FeeDelegatedValueTransfer: 0x09,
  FeeDelegatedValueTransferWithRatio: 0x0a,
  ValueTransferMemo: 0x10,
  FeeDelegatedValueTransferMemo: 0x11,
  FeeDelegatedValueTransferMemoWithRatio: 0x12,
  AccountUpdate: 0x20,
  FeeDelegatedAccountUpdate: 0x21,
  FeeDelegatedAccountUpdateWithRatio: 0x22,
  SmartContractDeploy: 0x28,
  FeeDelegatedSmartContractDeploy: 0x29,
  FeeDelegatedSmartContractDeployWithRatio: 0x2a,
  SmartContractExecution: 0x30,
  FeeDelegatedSmartContractExecution: 0x31,
  FeeDelegatedSmartContractExecutionWithRatio: 0x32,
  Cancel: 0x38,
  FeeDelegatedCancel: 0x39,
  FeeDelegatedCancelWithRatio: 0x3a,
  ChainDataAnchoring: 0x48,
  FeeDelegatedChainDataAnchoring: 0x49,
  FeeDelegatedChainDataAnchoringWithRatio: 0x4a
} as const

/**
 * One of the transaction types of the catalog (the `typeInt` of results).
 *
 * @since 0.1.0
 * @category models
 */
export type TxType = typeof TxType[keyof typeof TxType]

const TYPE_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(TxType).map(([name, type]) => [type, `TxType${name}`]))

/**
 * The `type` string Klaytn reports for a type, e.g. `"TxTypeValueTransferMemo"`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const typeName = (type: number): string => TYPE_NAMES.get(type) ?? "TxTypeUnknown"

/**
 * Whether a number is a type of the catalog.
 *
 * @since 0.4.0
 * @category guards
 */
export const isTxType = (type: number): type is TxType => TYPE_NAMES.has(type)

/**
 * Whether a type is fee-delegated (has a fee payer).
 *
 * @since 0.1.0
 * @category guards
 */
export const isFeeDelegatedType = (type: TxType): boolean => (type & 7) !== 0

/**
 * Whether a type carries a fee ratio (partial delegation).
 *
 * @since 0.1.0
 * @category guards
 */
export const hasFeeRatio = (type: TxType): boolean => (type & 7) === 2

/**
 * Whether a type is a value transfer with a memo (`input`).
 *
 * @since 0.1.0
 * @category guards
 */
export const hasMemo = (type: TxType): boolean => (type & ~7) === TxType.ValueTransferMemo

/**
 * The base type of a type (its kind, whoever pays): e.g. 0x28 for 0x28, 0x29 and 0x2a.
 *
 * @since 0.4.0
 * @category formatting
 */
export const baseType = (type: TxType): number => type & ~7

/**
 * The kinds of transaction the service sends, by the last segment(s) of their route: `rlp` is a
 * raw transaction of any type, `cancel` the bare route (`DELETE /v2/tx`), `account` an account
 * update.
 *
 * @since 0.4.0
 * @category models
 */
export type Kind = "value" | "contract/deploy" | "contract/execute" | "rlp" | "cancel" | "anchor" | "account" | "legacy"

/**
 * The kinds whose type follows from the kind (every kind but `rlp`, whose type is the RLP's).
 *
 * @since 0.5.0
 * @category models
 */
export type TypedKind = Exclude<Kind, "rlp">

/**
 * The types of a kind, by base type. A value transfer has two (with a memo or not); a raw
 * transaction (`rlp`) none of its own: it is whatever its RLP says.
 *
 * @since 0.4.0
 * @category constants
 */
export const kindTypes: { readonly [K in Kind]: ReadonlyArray<number> } = {
  value: [TxType.ValueTransfer, TxType.ValueTransferMemo],
  "contract/deploy": [TxType.SmartContractDeploy],
  "contract/execute": [TxType.SmartContractExecution],
  rlp: [],
  cancel: [TxType.Cancel],
  anchor: [TxType.ChainDataAnchoring],
  account: [TxType.AccountUpdate],
  legacy: [TxType.LegacyTransaction]
}

/**
 * The type the service uses for a transaction of a kind: the kind's base type (a value transfer
 * with a memo: 0x10, without: 0x08), then fee-delegated or not, with a fee ratio (1..99) or the
 * whole fee delegated (no ratio, or 0). A raw transaction (`rlp`) has no type of its own (its
 * RLP's is the one): the result type says so (`never`).
 *
 * @since 0.4.0
 * @category constructors
 */
export const typeOf = <K extends Kind>(kind: K, options: {
  readonly memo?: boolean | undefined
  readonly feeDelegated: boolean
  readonly feeRatio?: number | undefined
}): K extends "rlp" ? never : TxType => {
  const types = kindTypes[kind]
  const base = options.memo === true && types.length > 1 ? types[1]! : types[0]!
  const ratio = options.feeDelegated && options.feeRatio !== undefined && options.feeRatio !== 0
  return (base + (!options.feeDelegated ? 0 : ratio ? 2 : 1)) as K extends "rlp" ? never : TxType
}

/**
 * The type the service uses for a transfer: with a memo or not, fee-delegated or not, with a
 * fee ratio (1..99) or the whole fee delegated (no ratio, or 0).
 *
 * @since 0.1.0
 * @category constructors
 */
export const transferType = (options: {
  readonly memo: boolean
  readonly feeDelegated: boolean
  readonly feeRatio?: number | undefined
}): TxType => typeOf("value", options)
