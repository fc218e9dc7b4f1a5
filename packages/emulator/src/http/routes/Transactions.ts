/**
 * The transaction routes: every kind (value transfer, contract deployment, contract execution) by
 * every payer route (the sender, the global fee payer, the member's fee-payer account), from one
 * table; the read-only contract call; and receipts.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Effect, Option, SchemaAST } from "effect"
import { type Amount, Transaction } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as ApiError from "../ApiError.js"
import type * as Caller from "../Caller.js"
import * as Description from "../Description.js"
import type * as Ledger from "../../chain/Ledger.js"
import * as PathValues from "../PathValues.js"
import * as RequestBody from "../RequestBody.js"
import * as Route from "../Route.js"

const bytesOf = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.slice(2), "hex"))

// A contract transaction without `value` sends none.
const NoValue = 0n as Amount.Peb

/**
 * What the table says of a kind: the name of its operations, what its summary says it does, the
 * fields its body requires and what its refusals name, and the ledger's action of its body.
 */
interface KindSpec<K extends Wire.Kind> {
  readonly operation: string
  readonly does: string
  readonly required: string
  readonly hex: string
  readonly recipient: string
  readonly action: (body: Wire.Body<K>) => Ledger.Action
}

const kinds: { readonly [K in Wire.Kind]: KindSpec<K> } = {
  value: {
    operation: "ValueTransfer",
    does: "Transfer value from an account of the selected pool",
    required: "from, to, value",
    hex: "value",
    recipient: "to a contract: this type transaction cannot be sent to contract addresses",
    action: (body) => ({ kind: "value", to: body.to, value: body.value, memo: body.memo })
  },
  "contract/deploy": {
    operation: "ContractDeploy",
    does: "Deploy a contract (input: its creation code and constructor arguments) from an account of the selected pool",
    required: "from, input",
    hex: "value, input",
    recipient: "",
    action: (body) => ({ kind: "contract/deploy", input: bytesOf(body.input), value: body.value ?? NoValue })
  },
  "contract/execute": {
    operation: "ContractExecution",
    does: "Execute a contract (input: the calldata) from an account of the selected pool",
    required: "from, to, input",
    hex: "value, input",
    recipient: "to without code: not a program account (e.g., an account having code and storage)",
    action: (body) => ({ kind: "contract/execute", to: body.to, input: bytesOf(body.input), value: body.value ?? NoValue })
  }
}

const payers: { readonly [R in Wire.PayerRoute]: { readonly operation: (name: string) => string; readonly pays: string; readonly access: "sender" | "senderAndFeePayer" } } = {
  tx: {
    operation: (name) => name.charAt(0).toLowerCase() + name.slice(1),
    pays: "the sender pays the fee",
    access: "sender"
  },
  fd: {
    operation: (name) => `feeDelegated${name}`,
    pays: "the global fee payer pays the fee (or its feeRatio share) and bills the member",
    access: "sender"
  },
  "fd-user": {
    operation: (name) => `userFeeDelegated${name}`,
    pays: "the member's fee-payer account feePayer pays the fee (or its feeRatio share)",
    // Both pools in x-krn, the account pool's and the fee-payer pool's.
    access: "senderAndFeePayer"
  }
}

const errorsOf = (spec: Pick<KindSpec<Wire.Kind>, "required" | "hex" | "recipient">, route: Wire.PayerRoute): string => {
  const feeDelegated = route !== "tx"
  return [
    `${ApiError.Code.EmptyOrZero} (${spec.required}${route === "fd-user" ? ", feePayer" : ""} missing or empty; to zero), ${ApiError.Code.NotKlaytnAddress} (not an address), ${ApiError.Code.NotHex} (${spec.hex} not hex), ${ApiError.Code.OutOfRange} (other fields, unknown fields, body not JSON)`,
    ...(feeDelegated ? [`${ApiError.Code.FeeRatioOutOfRange} (feeRatio not 0..99)`] : []),
    `${ApiError.Code.DataNotExist} (the sender is not in the selected pool${route === "fd-user" ? "; the fee payer is not the member's, or not in the selected fee-payer pool" : ""})`,
    `${ApiError.Code.AccountCannotSign} (the sender is disabled)`,
    `${ApiError.Code.SendFailed} (insufficient funds of the sender${route === "fd-user" ? " or of the fee payer" : ""}, nonce too low or too high, intrinsic gas too low${spec.recipient === "" ? "" : `, ${spec.recipient}`}; nothing changes)`
  ].join("; ") + "."
}

const payerOf = (route: Wire.PayerRoute, body: Wire.Body, pools: Caller.TransactionPools): Ledger.Payer => {
  const feeRatio = body.feeRatio ?? 0
  switch (route) {
    case "tx":
      return { _tag: "Sender" }
    case "fd":
      return { _tag: "Global", feeRatio }
    case "fd-user":
      // The fd-user schemas require feePayer.
      return { _tag: "User", address: body.feePayer!, feeRatio, pool: pools.feePayers }
  }
}

// The name of a body in the document: its schema's identifier (Wire names every one).
const identifier = (schema: { readonly ast: SchemaAST.AST }): string =>
  Option.getOrElse(SchemaAST.getIdentifierAnnotation(schema.ast), () => "TransactionBody")

const txRoute = <K extends Wire.Kind>(kind: K, route: Wire.PayerRoute): Route.Route => {
  const spec: KindSpec<K> = kinds[kind]
  const schema = Wire.Bodies[kind][route]
  return Route.make({
    method: "POST",
    path: Wire.txPath(kind, route) as `/v2/tx/${string}`,
    operationId: payers[route].operation(spec.operation),
    summary: `${spec.does}; ${payers[route].pays}`,
    access: payers[route].access,
    body: { required: true, schema: Description.domain(identifier(schema), schema) },
    response: {
      description: kind === "value"
        ? "The signed transaction: status Submitted (sent: committed in the next block), or Pending with submit: false (signed only, nothing changes)."
        : "The signed transaction: status Submitted (sent: run and committed in the next block; a revert or a halt is committed too, its receipt CommitError with txError), or Pending with submit: false (signed only, nothing runs or changes).",
      schema: Description.domain("TransactionResult", Transaction.TransactionResult)
    },
    errors: { 400: errorsOf(spec, route) },
    handler: ({ body, caller, services }) =>
      Effect.flatMap(RequestBody.parseTxBody(kind, route, body), (decoded) =>
        services.ledger.send({
          ...spec.action(decoded),
          pool: caller.pool,
          from: decoded.from,
          nonce: decoded.nonce,
          gas: decoded.gas,
          submit: decoded.submit ?? true,
          payer: payerOf(route, decoded, caller)
        }))
  })
}

const KINDS: ReadonlyArray<Wire.Kind> = ["value", "contract/deploy", "contract/execute"]
const ROUTES: ReadonlyArray<Wire.PayerRoute> = ["tx", "fd", "fd-user"]

/**
 * The transaction routes, in the document's order: each kind by each payer route, the contract
 * call, the receipt.
 *
 * @since 0.3.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  ...KINDS.flatMap((kind) => ROUTES.map((route) => txRoute(kind, route))),
  Route.make({
    method: "POST",
    path: "/v2/tx/contract/call",
    operationId: "contractCall",
    summary: "Call a contract method read-only on the latest state: nothing is signed, sent or changed",
    // No pool is used; x-krn, when sent, must still name the member's pools.
    access: "senderAndNamedFeePayer",
    body: { required: true, schema: Description.domain("ContractCallBody", Wire.ContractCallBody) },
    response: {
      description: "data: the calldata encoded from the method and its arguments; result: what the method returned (its ABI-encoded return data).",
      schema: Description.domain("ContractCallResult", Transaction.ContractCallResult)
    },
    errors: {
      400: `${ApiError.Code.EmptyOrZero} (to, data or data.methodName missing; to zero), ${ApiError.Code.NotKlaytnAddress} (not an address), ${ApiError.Code.NotHex} (value not hex), ${ApiError.Code.OutOfRange} (a method name that is not an identifier, an argument that does not fit its type, other fields, body not JSON); ${ApiError.Code.SendFailed} (the call reverted or halted on the node: "execution reverted: <reason>", "out of gas", ...; an emulator choice: the reference documents no error of this route).`
    },
    handler: ({ body, caller, services }) =>
      Effect.flatMap(RequestBody.parseCallBody(body), (decoded) =>
        services.ledger.call({
          chainId: caller.pool.chainId,
          from: decoded.from,
          to: decoded.to,
          value: decoded.value,
          gas: decoded.gas,
          methodName: decoded.data.methodName,
          arguments: decoded.data.arguments ?? []
        }))
  }),
  Route.make({
    method: "GET",
    path: "/v2/tx/{transaction-hash}",
    operationId: "transactionReceipt",
    summary: "The receipt of a transaction: Pending until its block, then Committed (or CommitError when its contract failed)",
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
