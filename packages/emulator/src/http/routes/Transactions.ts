/**
 * The transaction routes: value transfers paid by the sender, the global fee payer or the
 * member's fee-payer account, and receipts.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Effect } from "effect"
import { Transaction } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as ApiError from "../ApiError.js"
import type * as Caller from "../Caller.js"
import * as Description from "../Description.js"
import type * as Ledger from "../../chain/Ledger.js"
import * as PathValues from "../PathValues.js"
import * as RequestBody from "../RequestBody.js"
import * as Route from "../Route.js"

const transferErrors = (feeDelegated: boolean) =>
  [
    `${ApiError.Code.EmptyOrZero} (from, to, value${feeDelegated ? ", feePayer" : ""} missing; to zero), ${ApiError.Code.NotKlaytnAddress} (not an address), ${ApiError.Code.NotHex} (value not hex), ${ApiError.Code.OutOfRange} (other fields, unknown fields, body not JSON)`,
    ...(feeDelegated ? [`${ApiError.Code.FeeRatioOutOfRange} (feeRatio not 0..99)`] : []),
    `${ApiError.Code.DataNotExist} (the sender is not in the selected pool${feeDelegated ? "; the fee payer is not the member's, or not in the selected fee-payer pool" : ""})`,
    `${ApiError.Code.AccountCannotSign} (the sender is disabled)`,
    `${ApiError.Code.SendFailed} (insufficient funds of the sender${feeDelegated ? " or of the fee payer" : ""}, nonce too low or too high, intrinsic gas too low; nothing changes)`
  ].join("; ") + "."

const bodyNames: Readonly<Record<RequestBody.TransferKind, string>> = {
  value: "ValueTransferBody",
  fd: "FeeDelegatedTransferBody",
  "fd-user": "UserFeeDelegatedTransferBody"
}

const payer = (kind: RequestBody.TransferKind, body: Wire.TransferBody, pools: Caller.TransactionPools): Ledger.Payer => {
  const feeRatio = body.feeRatio ?? 0
  switch (kind) {
    case "value":
      return { _tag: "Sender" }
    case "fd":
      return { _tag: "Global", feeRatio }
    case "fd-user":
      // The fd-user schema requires feePayer.
      return { _tag: "User", address: body.feePayer!, feeRatio, pool: pools.feePayers }
  }
}

const transfer = (options: {
  readonly kind: RequestBody.TransferKind
  readonly path: "/v2/tx/value" | "/v2/tx/fd/value" | "/v2/tx/fd-user/value"
  readonly operationId: string
  readonly summary: string
  readonly access: "sender" | "senderAndFeePayer"
}) =>
  Route.make({
    method: "POST",
    path: options.path,
    operationId: options.operationId,
    summary: options.summary,
    access: options.access,
    body: {
      required: true,
      schema: Description.domain(bodyNames[options.kind], RequestBody.transferSchemas[options.kind])
    },
    response: {
      description:
        "The signed transaction: status Submitted (sent: committed in the next block), or Pending with submit: false (signed only, nothing changes).",
      schema: Description.domain("TransactionResult", Transaction.TransactionResult)
    },
    errors: { 400: transferErrors(options.kind !== "value") },
    handler: ({ body, caller, services }) =>
      Effect.flatMap(RequestBody.parseTransferBody(options.kind, body), (transfer) =>
        services.ledger.transfer({
          pool: caller.pool,
          from: transfer.from,
          to: transfer.to,
          value: transfer.value,
          memo: transfer.memo,
          nonce: transfer.nonce,
          gas: transfer.gas,
          submit: transfer.submit ?? true,
          payer: payer(options.kind, transfer, caller)
        }))
  })

/**
 * The transaction routes, in the document's order.
 *
 * @since 0.3.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  transfer({
    kind: "value",
    path: "/v2/tx/value",
    operationId: "valueTransfer",
    summary: "Transfer value from an account of the selected pool; the sender pays the fee",
    access: "sender"
  }),
  transfer({
    kind: "fd",
    path: "/v2/tx/fd/value",
    operationId: "feeDelegatedValueTransfer",
    summary: "Transfer value; the global fee payer pays the fee (or its feeRatio share) and bills the member",
    access: "sender"
  }),
  transfer({
    kind: "fd-user",
    path: "/v2/tx/fd-user/value",
    operationId: "userFeeDelegatedValueTransfer",
    summary: "Transfer value; the member's fee-payer account feePayer pays the fee (or its feeRatio share)",
    access: "senderAndFeePayer"
  }),
  Route.make({
    method: "GET",
    path: "/v2/tx/{transaction-hash}",
    operationId: "transactionReceipt",
    summary: "The receipt of a transaction: Pending until its block, then Committed",
    access: "senderAndNamedFeePayer",
    pathParameters: { "transaction-hash": PathValues.transactionHash },
    response: {
      description: "The receipt; the block fields appear once the transaction is committed.",
      schema: Description.domain("TransactionReceipt", Transaction.TransactionReceipt)
    },
    errors: {
      400: `No such transaction on the chain: ${ApiError.Code.TransactionNotFound}; bad header: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.`
    },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(PathValues.parseTransactionHash(params["transaction-hash"]), (hash) =>
        services.ledger.receipt(caller.pool.chainId, hash))
  })
]
