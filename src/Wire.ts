/**
 * The wire contract of the transaction routes, shared by the client (which encodes requests) and
 * the emulator (which decodes them): the Klaytn transaction types (`TxType`), the request bodies of
 * the transaction routes and the route of each fee-delegation choice (`api/TransactionBodies`), and
 * their paths (the operation table, `WalletApi`).
 *
 * Not exported from the package's main entry: applications use `WalletClient`; this module is
 * `effect-kas-wallet/Wire`, for emulators and tools that speak the wire themselves.
 *
 * @since 0.2.0
 */
import type * as FeeDelegation from "./FeeDelegation.js"
import { payerRoute, type PayerRoute } from "./api/TransactionBodies.js"
import * as WalletApi from "./api/WalletApi.js"
import type { Kind } from "./TxType.js"

export * from "./api/TransactionBodies.js"
export * from "./TxType.js"

/**
 * The path of a kind of transaction with a fee-delegation route, e.g. `/v2/tx/fd/contract/deploy`;
 * a cancellation's is the bare route (`/v2/tx`, `/v2/tx/fd`, `/v2/tx/fd-user`).
 *
 * @deprecated the operation table has it: `WalletApi.txPath`, or the path of
 * `WalletApi.transaction(kind, route)`.
 * @since 0.4.0
 * @category routes
 */
export const txPath = (kind: Kind, route: PayerRoute): string => WalletApi.txPath(kind, route)

/**
 * The value-transfer path of the service for a fee-delegation choice (`undefined`: the sender pays).
 *
 * @deprecated the operation table has it: `WalletApi.txPath("value", Wire.payerRoute(payer))`.
 * @since 0.1.0
 * @category routes
 */
export const valueTransferPath = (payer: FeeDelegation.FeePayer | undefined): string => WalletApi.txPath("value", payerRoute(payer))

/**
 * The path of a read-only contract call.
 *
 * @deprecated the operation table has it: `WalletApi.transactions.callContract.path`.
 * @since 0.4.0
 * @category routes
 */
export const contractCallPath: string = WalletApi.transactions.callContract.path
