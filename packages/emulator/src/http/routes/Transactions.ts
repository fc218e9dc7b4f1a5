/**
 * The transaction routes: every kind (value transfer, contract deployment and execution, raw RLP,
 * cancel, anchoring, account update, legacy) by every payer route it has (the sender, the global
 * fee payer, the member's fee-payer account); the read-only contract call; and receipts. Each is an
 * operation of the client's table (`WalletApi.transactionRoutes`, `WalletApi.transactions`): this
 * module holds what the emulator adds, its handlers.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Effect, Either, Option } from "effect"
import type { Address, Amount } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as WalletApi from "effect-kas-wallet/WalletApi"
import * as Wire from "effect-kas-wallet/Wire"
import * as ApiError from "../ApiError.js"
import type * as Caller from "../Caller.js"
import type * as Ledger from "../../chain/Ledger.js"
import type * as Requests from "../../chain/Requests.js"
import * as RequestBody from "../RequestBody.js"
import * as Route from "../Route.js"

const bytesOf = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.slice(2), "hex"))

// A contract transaction without `value` sends none.
const NoValue = 0n as Amount.Peb

/** What a route's handler knows besides the body: the route, the chain, the ledger. */
interface Context {
  readonly route: Wire.PayerRoute
  readonly chainId: number
  readonly ledger: Ledger.Service
}

/** The part of a send request a kind's body gives: what it does, and its sender, nonce and gas. */
type Request = Requests.Action & Pick<Requests.SendRequest, "from" | "nonce" | "gas" | "replace">

/**
 * What the emulator says of a kind (the operation table says the rest): what its summary says it
 * does, the fields its body requires and what its refusals name, the refusals of its own, and the
 * ledger's request of its body.
 */
interface KindSpec<K extends Wire.Kind> {
  readonly does: string
  readonly required: string
  readonly hex: string
  readonly recipient: string
  /** The refusals only this kind has, for the document. */
  readonly own?: string
  readonly request: (body: Wire.Body<K>, context: Context) => Effect.Effect<Request, ApiError.ApiError | SqlError.SqlError>
}

// The common fields of a body with a sender.
const sender = (body: { readonly from: Address.Address; readonly nonce?: number | undefined; readonly gas?: number | undefined }) => ({
  from: body.from,
  nonce: body.nonce,
  gas: body.gas
})

// A cancel names its target by hash or by nonce: a hash the chain does not know is 1065000, one
// already in a block "nonce too low"; a pending one gives its nonce. By nonce, 0 is the sender's
// next to be mined: its lowest pending transaction (none pending: its next nonce, a cancel that
// replaces nothing).
const cancelTarget = (body: Wire.Body<"cancel">, context: Context) =>
  Effect.gen(function*() {
    if (body.transactionHash === undefined) {
      if (body.nonce !== 0) return body.nonce
      const pending = yield* context.ledger.pendingBySender(context.chainId, body.from.toLowerCase())
      return pending[0]?.nonce
    }
    const known = yield* context.ledger.lookup(context.chainId, body.transactionHash.toLowerCase())
    if (Option.isNone(known) || known.value.sender !== body.from.toLowerCase()) return yield* ApiError.transactionNotFound()
    if (known.value.status === "committed") return yield* ApiError.sendFailed("nonce too low")
    return known.value.nonce
  })

// A raw transaction: a SigRLP (unsigned: a pool account signs it) or a signed one (TxHashRLP); its
// type against the route's, its fee fields against the body's.
const rawRequest = (body: Wire.Body<"rlp">, context: Context): Effect.Effect<Request, ApiError.ApiError> =>
  Effect.gen(function*() {
    const bytes = bytesOf(body.rlp)
    const unsigned = Klaytn.decodeSigRlp(bytes)
    const decoded = Either.isRight(unsigned)
      ? { tx: unsigned.right.tx, signatures: undefined, feePayer: undefined, chainId: unsigned.right.chainId }
      : yield* Either.match(Klaytn.decodeRaw(bytes), {
        onLeft: (e) => ApiError.refused(ApiError.Code.OutOfRange, `its value is out of range; rlp (${e.reason})`),
        // A wallet's transaction to be signed here carries a placeholder where the signature goes.
        onRight: (parts) =>
          Effect.succeed({
            tx: parts.tx,
            signatures: Klaytn.isUnsigned(parts.signatures) ? undefined : parts.signatures,
            feePayer: parts.feePayer?.address,
            chainId: context.chainId
          })
      })
    // An unsigned legacy transaction names no sender: the body's `from` does.
    // (Only the sender's route's body has one.)
    const bodyFrom = (body as { readonly from?: Address.Address | undefined }).from
    const legacyFrom = decoded.signatures === undefined && decoded.tx.type === Wire.TxType.LegacyTransaction
    if (legacyFrom && bodyFrom === undefined) return yield* ApiError.missing("from")
    const tx = legacyFrom ? { ...decoded.tx, from: bodyFrom! } : decoded.tx
    if (decoded.chainId !== context.chainId) return yield* ApiError.sendFailed("invalid chain id")
    const delegated = Wire.isFeeDelegatedType(tx.type)
    const ratio = body.feeRatio ?? 0
    if (context.route === "tx") {
      if (delegated) return yield* ApiError.refused(ApiError.Code.NotBasicType, "it just allow Basic transaction type")
    } else {
      if (!delegated) return yield* ApiError.refused(ApiError.Code.BasicTypeOnFeeDelegatedRoute, "it just allow fee delegation transaction type")
      if (Wire.hasFeeRatio(tx.type) && ratio === 0) {
        return yield* ApiError.refused(ApiError.Code.PartialFeeDelegationWithoutRatio, "partial fee delegation transaction type needs a fee ratio; feeRatio")
      }
      if (!Wire.hasFeeRatio(tx.type) && ratio !== 0) {
        return yield* ApiError.refused(ApiError.Code.FeeRatioOnFullDelegation, "fee delegation transaction type cannot have a fee ratio; feeRatio")
      }
      if (Wire.hasFeeRatio(tx.type) && tx.feeRatio !== ratio) {
        return yield* ApiError.refused(ApiError.Code.FeeFieldsDifferFromRlp, "feeRatio is different between rlp value and request value")
      }
      const payer = context.route === "fd" ? context.ledger.globalFeePayer(context.chainId) : (body.feePayer as Address.Address)
      if (decoded.feePayer !== undefined && decoded.feePayer.toLowerCase() !== payer.toLowerCase()) {
        return yield* ApiError.refused(ApiError.Code.FeeFieldsDifferFromRlp, "feePayer is different between rlp value and request value")
      }
    }
    // A cancel replaces the pending transaction of its nonce, relayed or not (Klaytn's pool lets
    // a cancel type take a pending nonce).
    return {
      kind: "rlp" as const,
      tx,
      signatures: decoded.signatures,
      from: tx.from,
      nonce: tx.nonce,
      gas: tx.gas,
      replace: Klaytn.kindOf(tx.type) === "cancel"
    }
  })

const kinds: { readonly [K in Wire.Kind]: KindSpec<K> } = {
  value: {
    does: "Transfer value from an account of the selected pool",
    required: "from, to, value",
    hex: "value",
    recipient: "to a contract: this type transaction cannot be sent to contract addresses",
    request: (body) => Effect.succeed({ ...sender(body), kind: "value", to: body.to, value: body.value, memo: body.memo })
  },
  "contract/deploy": {
    does: "Deploy a contract (input: its creation code and constructor arguments) from an account of the selected pool",
    required: "from, input",
    hex: "value, input",
    recipient: "",
    request: (body) => Effect.succeed({ ...sender(body), kind: "contract/deploy", input: bytesOf(body.input), value: body.value ?? NoValue })
  },
  "contract/execute": {
    does: "Execute a contract (input: the calldata) from an account of the selected pool",
    required: "from, to, input",
    hex: "value, input",
    recipient: "to without code: not a program account (e.g., an account having code and storage)",
    request: (body) => Effect.succeed({ ...sender(body), kind: "contract/execute", to: body.to, input: bytesOf(body.input), value: body.value ?? NoValue })
  },
  rlp: {
    does: "Submit a transaction built elsewhere: a SigRLP (a pool account signs it as its sender) or a signed RLP (its sender's signatures checked against its key on the chain)",
    required: "rlp",
    hex: "rlp",
    recipient: "",
    own: `${ApiError.Code.NotBasicType} (a fee-delegated type on the sender's route), ${ApiError.Code.BasicTypeOnFeeDelegatedRoute} (a type the sender pays on a fee-delegated route), ${ApiError.Code.PartialFeeDelegationWithoutRatio} (a with-ratio type without feeRatio), ${ApiError.Code.FeeRatioOnFullDelegation} (feeRatio with a whole-fee type), ${ApiError.Code.FeeFieldsDifferFromRlp} (feeRatio or feePayer differing from the RLP's), ${ApiError.Code.CannotSignForAccount} (a SigRLP's sender not an account of the member), ${ApiError.Code.OutOfRange} (not a transaction of a known type)`,
    request: rawRequest
  },
  cancel: {
    does: "Cancel the sender's pending transaction (by nonce or transactionHash): a cancel transaction of its nonce replaces it",
    required: "from",
    hex: "transactionHash",
    recipient: "",
    own: `${ApiError.Code.TransactionNotFound} (transactionHash unknown), ${ApiError.Code.SendFailed} "nonce too low" (already in a block)`,
    request: (body, context) =>
      Effect.map(cancelTarget(body, context), (nonce) => ({ ...sender(body), nonce, kind: "cancel" as const, replace: true }))
  },
  anchor: {
    does: "Anchor data (input) on the chain from an account of the selected pool",
    required: "from, input",
    hex: "input",
    recipient: "",
    request: (body) => Effect.succeed({ ...sender(body), kind: "anchor", input: bytesOf(body.input) })
  },
  account: {
    does: "Update the account key of an account of the selected pool (a key KAS does not hold leaves the account corrupted; a fail key disables it)",
    required: "from, accountKey",
    hex: "",
    recipient: "",
    own: `${ApiError.Code.InvalidAccountKey} (accountKey malformed: a key not of the curve, a threshold out of reach), ${ApiError.Code.LegacyKeyInRoleBased} (a legacy key in a role-based key)`,
    request: (body) =>
      Either.match(RequestBody.encodeAccountKey(body.accountKey), {
        onLeft: Effect.fail,
        onRight: (key) => Effect.succeed({ ...sender(body), kind: "account" as const, key })
      })
  },
  legacy: {
    does: "Send an Ethereum-style legacy transaction (to a recipient, or deploying input without one) from an account of the selected pool",
    required: "from",
    hex: "value, input",
    recipient: "",
    request: (body) =>
      Effect.succeed({ ...sender(body), kind: "legacy" as const, to: body.to, value: body.value ?? NoValue, input: body.input !== undefined && body.input !== "0x" ? bytesOf(body.input) : undefined })
  }
}

// What each payer route's summary says of who pays.
const payers: { readonly [R in Wire.PayerRoute]: string } = {
  tx: "the sender pays the fee",
  fd: "the global fee payer pays the fee (or its feeRatio share) and bills the member",
  "fd-user": "the member's fee-payer account feePayer pays the fee (or its feeRatio share)"
}

const errorsOf = (spec: Pick<KindSpec<Wire.Kind>, "required" | "hex" | "recipient" | "own">, route: Wire.PayerRoute): string => {
  const feeDelegated = route !== "tx"
  return [
    `${ApiError.Code.EmptyOrZero} (${spec.required}${route === "fd-user" ? ", feePayer" : ""} missing or empty; to zero), ${ApiError.Code.NotKlaytnAddress} (not an address), ${ApiError.Code.NotHex} (${spec.hex} not hex), ${ApiError.Code.OutOfRange} (other fields, unknown fields, body not JSON)`,
    ...(feeDelegated ? [`${ApiError.Code.FeeRatioOutOfRange} (feeRatio not 0..99)`] : []),
    `${ApiError.Code.DataNotExist} (the sender is not in the selected pool)`,
    ...(route === "fd-user" ? [`${ApiError.Code.FeePayerNotFound} "failed to get feepayer" (feePayer is not a fee-payer account of the member in the selected fee-payer pool)`] : []),
    `${ApiError.Code.AccountCannotSign} (the sender is disabled)`,
    `${ApiError.Code.SendFailed} (insufficient funds of the sender${route === "fd-user" ? " or of the fee payer" : ""}, nonce too low or too high, intrinsic gas too low${spec.recipient === "" ? "" : `, ${spec.recipient}`}; nothing changes)`,
    ...(spec.own !== undefined ? [spec.own] : [])
  ].join("; ") + "."
}

// The fee fields of a body (a legacy body has neither).
type Fees = { readonly feeRatio?: number | undefined; readonly feePayer?: Address.Address | undefined }

const payerOf = (route: Wire.PayerRoute, body: Fees, pools: Caller.TransactionPools): Requests.Payer => {
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

const txRoute = <K extends Wire.Kind>(kind: K, route: Wire.PayerRoute): Route.Route => {
  const spec: KindSpec<K> = kinds[kind]
  return Route.operation(WalletApi.transaction(kind, route)!, {
    summary: `${spec.does}; ${payers[route]}`,
    response: kind === "value"
      ? "The signed transaction: status Submitted (sent: committed in the next block), or Pending with submit: false (signed only, nothing changes)."
      : "The signed transaction: status Submitted (sent: run and committed in the next block; a revert or a halt is committed too, its receipt CommitError with txError), or Pending with submit: false (signed only, nothing runs or changes).",
    errors: errorsOf(spec, route),
    handler: ({ caller, payload, services }) => {
      // The table's body of this kind on this route, decoded.
      const decoded = payload as Wire.Body<K>
      return Effect.flatMap(spec.request(decoded, { route, chainId: caller.pool.chainId, ledger: services.ledger }), (request) =>
        services.ledger.send({
          ...request,
          pool: caller.pool,
          submit: decoded.submit ?? true,
          // A raw transaction's ratio is its own (the body's was checked against it).
          payer: payerOf(route, request.kind === "rlp" ? { ...decoded, feeRatio: request.tx.feeRatio ?? 0 } : decoded as Fees, caller)
        }))
    }
  })
}

const KINDS: ReadonlyArray<Wire.Kind> = ["value", "contract/deploy", "contract/execute", "rlp", "cancel", "anchor", "account", "legacy"]

/**
 * The transaction routes, in the document's order: each kind by each payer route, the contract
 * call, the receipt.
 *
 * @since 0.3.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  ...KINDS.flatMap((kind) => Wire.payerRoutes[kind].map((route) => txRoute(kind, route))),
  Route.operation(WalletApi.transactions.callContract, {
    summary: "Call a contract method read-only on the latest state: nothing is signed, sent or changed (x-krn, when sent, must name the member's pools)",
    response: "data: the calldata encoded from the method and its arguments; result: what the method returned (its ABI-encoded return data).",
    errors:
      `${ApiError.Code.EmptyOrZero} (to, data or data.methodName missing; to zero), ${ApiError.Code.NotKlaytnAddress} (not an address), ${ApiError.Code.NotHex} (value not hex), ${ApiError.Code.OutOfRange} (a method name that is not an identifier, an argument that does not fit its type, other fields, body not JSON); ${ApiError.Code.SendFailed} (the call reverted or halted on the node: "execution reverted: <reason>", "out of gas", ...; an emulator choice: the reference documents no error of this route).`,
    handler: ({ caller, payload, services }) =>
      services.ledger.call({
        chainId: caller.pool.chainId,
        from: payload.from,
        to: payload.to,
        value: payload.value,
        gas: payload.gas,
        methodName: payload.data.methodName,
        arguments: payload.data.arguments ?? []
      })
  }),
  Route.operation(WalletApi.transactions.getTransactionReceipt, {
    summary: "The receipt of a transaction: Pending until its block, then Committed (or CommitError when its contract failed)",
    response: "The receipt; the block fields appear once the transaction is committed.",
    errors: `No such transaction on the chain: ${ApiError.Code.TransactionNotFound}; bad header: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.`,
    handler: ({ caller, path, services }) => services.ledger.receipt(caller.pool.chainId, path["transaction-hash"])
  })
]
