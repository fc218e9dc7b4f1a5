/**
 * The node route, `POST /v1/klaytn` (the KAS Node API's path, where caver-js-ext-kas's
 * `initNodeAPI` points caver): the Klaytn JSON-RPC methods wallets and the official client's
 * migration and `caver.wallet` flows call, answered from the emulator's ledger (`Node`, and the
 * ledger's EVM for calls and gas estimates), in the `klay_` namespace and, where Kaia has them,
 * the `eth_` one.
 *
 * The gateway's checks come first, as on every route: `Authorization` (a member's API key) and
 * `x-chain-id` (the chain the methods read), answered with the service's `{code, message,
 * requestId}` errors; then the body (at most 64 KiB, `RequestBody.read`) is JSON-RPC 2.0
 * (`JsonRpc.serve`).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Effect, Either, Option } from "effect"
import * as Klaytn from "../../chain/Klaytn.js"
import * as Wire from "effect-kas-wallet/Wire"
import * as Budget from "../../chain/evm/Budget.js"
import type * as Evm from "../../chain/Evm.js"
import * as Ledger from "../../chain/Ledger.js"
import type * as Node from "../../chain/Node.js"
import * as RpcFormat from "../RpcFormat.js"
import * as Refusal from "../../Refusal.js"
import { version } from "../../version.js"
import * as Description from "../Description.js"
import * as JsonRpc from "../JsonRpc.js"
import * as Route from "../Route.js"
import * as RpcParams from "../RpcParams.js"
import type * as Accounts from "../../services/Accounts.js"

/**
 * What a method runs with: the request's chain, the caller's default pool, the node and ledger, and
 * the time budget of the EVM runs of the whole body (a batch's calls share one call's budget).
 */
interface Context {
  readonly chainId: number
  readonly pool: Accounts.SelectedPool
  readonly node: Node.Service
  readonly ledger: Ledger.Service
  readonly batch: Budget.Budget
}

type Outcome = Effect.Effect<RpcFormat.Json, JsonRpc.RpcError | SqlError.SqlError>

type Method = (context: Context, params: ReadonlyArray<unknown>) => Outcome

const method = <const Ps extends ReadonlyArray<RpcParams.Param<any>>>(
  specs: Ps,
  run: (context: Context, values: RpcParams.Values<Ps>) => Outcome
): Method =>
(context, params) => Either.match(RpcParams.decode(params, specs), { onLeft: Effect.fail, onRight: (values) => run(context, values) })

const ZeroAddress = `0x${"0".repeat(40)}`

// The state a read is of: the latest only (the ledger keeps no history). A block number or hash
// other than the latest block's is refused as a node refuses state it does not hold.
const latestState = (context: Context, ref: RpcParams.BlockRef) =>
  Effect.gen(function*() {
    if (ref._tag === "Latest") return
    const { blockNumber } = yield* context.node.head(context.chainId)
    if (ref._tag === "Number") {
      if (ref.blockNumber > blockNumber) return yield* JsonRpc.refused("header not found")
      if (ref.blockNumber === blockNumber) return
    } else {
      const block = yield* context.node.block(context.chainId, blockNumber)
      if (Option.isSome(block) && block.value.hash === ref.hash) return
    }
    return yield* JsonRpc.refused("historical state is not available: the emulator keeps the latest state only")
  })

const balance = method([RpcParams.required(RpcParams.address), RpcParams.optional(RpcParams.block, RpcParams.Latest)], (context, [address, ref]) =>
  Effect.zipRight(latestState(context, ref), Effect.map(context.node.account(context.chainId, address), (a) => RpcFormat.quantity(a.balance))))

const transactionCount = method(
  [RpcParams.required(RpcParams.address), RpcParams.optional(RpcParams.block, RpcParams.Latest)],
  (context, [address, ref]) =>
    // "pending" counts the pending pool, as a node asks its pool for the nonce.
    ref._tag === "Latest" && ref.pending
      ? Effect.map(context.node.poolNonce(context.chainId, address), RpcFormat.quantity)
      : Effect.zipRight(latestState(context, ref), Effect.map(context.node.account(context.chainId, address), (a) => RpcFormat.quantity(a.nonce)))
)

const code = method([RpcParams.required(RpcParams.address), RpcParams.optional(RpcParams.block, RpcParams.Latest)], (context, [address, ref]) =>
  Effect.zipRight(
    latestState(context, ref),
    Effect.map(context.node.account(context.chainId, address), (a) => Option.match(a.code, { onNone: () => "0x", onSome: RpcFormat.data }))
  ))

const transaction = (format: (found: Node.Found) => RpcFormat.Json) =>
  method([RpcParams.required(RpcParams.hash)], (context, [hash]) =>
    Effect.map(context.node.transaction(context.chainId, hash), Option.match({ onNone: () => null, onSome: format })))

// A receipt exists once the transaction is in a block: null while pending, as a node answers.
const receipt = (format: (found: Extract<Node.Found, { readonly status: "committed" }>, context: Context) => Effect.Effect<RpcFormat.Json, SqlError.SqlError>) =>
  method([RpcParams.required(RpcParams.hash)], (context, [hash]) =>
    Effect.flatMap(context.node.transaction(context.chainId, hash), (found) =>
      Option.isSome(found) && found.value.status === "committed" ? format(found.value, context) : Effect.succeed(null)))

const ethReceipt = (found: Extract<Node.Found, { readonly status: "committed" }>, context: Context) =>
  Effect.map(context.node.block(context.chainId, found.row.blockNumber), (block) => {
    const upTo = Option.match(block, {
      onNone: () => [found],
      onSome: (b) => b.transactions.filter((t) => t.row.transactionIndex <= found.row.transactionIndex)
    })
    return RpcFormat.ethReceipt(found, upTo.reduce((gas, t) => gas + t.row.gasUsed, 0))
  })

const block = (format: (block: Node.Block, fullTx: boolean) => RpcFormat.Json) =>
  method([RpcParams.required(RpcParams.block), RpcParams.optional(RpcParams.boolean, false)], (context, [ref, fullTx]) =>
    Effect.gen(function*() {
      if (ref._tag === "Hash") return yield* JsonRpc.invalidArgument(0, "a block number or tag, not a hash")
      const number = ref._tag === "Number" ? ref.blockNumber : (yield* context.node.head(context.chainId)).blockNumber
      return Option.match(yield* context.node.block(context.chainId, number), { onNone: () => null, onSome: (b) => format(b, fullTx) })
    }))

// ---------------------------------------------------------------------------------------------
// Calls and gas estimates, on the ledger's EVM
// ---------------------------------------------------------------------------------------------

// Klaytn's intrinsic gas of the call as a transaction (a legacy one: the call object has no type).
const intrinsicOf = (call: RpcParams.CallObject) =>
  Klaytn.intrinsicGas(Wire.TxType.LegacyTransaction, call.input.length, { creates: call.to === undefined })

// One run at a gas limit: its outcome, or `undefined` when the limit does not cover the intrinsic gas.
const runAt = (context: Context, call: RpcParams.CallObject, gas: number) => {
  const intrinsic = intrinsicOf(call)
  if (gas < intrinsic) return Effect.succeed(undefined)
  return context.ledger.simulate({
    chainId: context.chainId,
    from: call.from ?? ZeroAddress,
    to: call.to,
    value: call.value,
    input: call.input,
    gasLimit: BigInt(gas - intrinsic)
  }).pipe(
    Effect.catchTags({
      EvmError: () => JsonRpc.refused("insufficient balance for transfer"),
      // The call's own budget: the node's words; the batch's: what go-ethereum answers the calls
      // of a batch whose time ran out.
      EvmTimeout: (e) => (e.budget === context.batch ? JsonRpc.timedOut() : JsonRpc.refused(e.message))
    }),
    Effect.map((outcome) => ({ outcome, intrinsic }))
  )
}

// A run that did not succeed, as a node answers it: a revert with code 3 and its data, a halt
// with the EVM's word.
const failed = (outcome: Evm.Outcome): JsonRpc.RpcError =>
  outcome.status === "reverted"
    ? new JsonRpc.RpcError({
      code: JsonRpc.Code.Reverted,
      message: outcome.revertReason !== undefined ? `execution reverted: ${outcome.revertReason}` : "execution reverted",
      data: RpcFormat.data(outcome.returnData)
    })
    : JsonRpc.refused(outcome.error ?? "VM error occurs while running smart contract")

// The gas of a call: its own, at most the EVM's gas cap (go-ethereum's `--rpc.gascap`), the cap
// when it gives none.
const gasOf = (context: Context, call: RpcParams.CallObject) => {
  const cap = context.ledger.limits.gasCap
  return call.gas === undefined || call.gas > BigInt(cap) ? cap : Number(call.gas)
}

const call = method([RpcParams.required(RpcParams.callObject), RpcParams.optional(RpcParams.block, RpcParams.Latest)], (context, [object, ref]) =>
  Effect.gen(function*() {
    yield* latestState(context, ref)
    const ran = yield* runAt(context, object, gasOf(context, object))
    if (ran === undefined) return yield* JsonRpc.refused("intrinsic gas too low")
    if (ran.outcome.status !== "success") return yield* failed(ran.outcome)
    return RpcFormat.data(ran.outcome.returnData)
  }))

// The least gas limit at which the call succeeds, as Klaytn's DoEstimateGas searches it: between
// 21000 - 1 and the cap (the given gas, at most the EVM's gas cap; capped by what the sender's
// balance pays at the given gas price). Its runs share one time budget, as one call's.
const estimate = (context: Context, object: RpcParams.CallObject) =>
  Effect.flatMap(Budget.make(context.ledger.limits.timeoutMs, Budget.aborted(context.ledger.limits.timeoutMs)), (budget) =>
    Budget.within(budget)(searchGas(context, object)))

const searchGas = (context: Context, object: RpcParams.CallObject) =>
  Effect.gen(function*() {
    const cap = context.ledger.limits.gasCap
    let hi = object.gas !== undefined && object.gas >= BigInt(Klaytn.TxGas) ? Math.min(Number(object.gas), cap) : cap
    if (object.gasPrice !== undefined && object.gasPrice > 0n) {
      const { balance } = yield* context.node.account(context.chainId, object.from ?? ZeroAddress)
      if (object.value >= balance) return yield* JsonRpc.refused("insufficient funds for transfer")
      const allowance = (balance - object.value) / object.gasPrice
      if (allowance < BigInt(hi)) hi = Number(allowance)
    }
    const succeeds = (gas: number) => Effect.map(runAt(context, object, gas), (ran) => ran !== undefined && ran.outcome.status === "success")
    const top = yield* runAt(context, object, hi)
    if (top === undefined) return yield* JsonRpc.refused(`gas required exceeds allowance (${hi})`)
    if (top.outcome.status !== "success") {
      if (top.outcome.error === "out of gas") return yield* JsonRpc.refused(`gas required exceeds allowance (${hi})`)
      return yield* failed(top.outcome)
    }
    // Below the gas it used before its refund it cannot succeed; it mostly succeeds just above.
    let lo = Math.max(Klaytn.TxGas - 1, top.intrinsic + Number(top.outcome.gasUsed) - 1)
    if (lo + 1 < hi && (yield* succeeds(lo + 1))) return RpcFormat.quantity(lo + 1)
    if (lo + 1 < hi) lo = lo + 1
    while (lo + 1 < hi) {
      const mid = Math.floor((lo + hi) / 2)
      if (yield* succeeds(mid)) hi = mid
      else lo = mid
    }
    return RpcFormat.quantity(hi)
  })

const sendRaw = (accept: (raw: Uint8Array) => Either.Either<Uint8Array, JsonRpc.RpcError>) =>
  method([RpcParams.required(RpcParams.bytes)], (context, [raw]) =>
    Effect.flatMap(accept(raw), (bytes) =>
      context.node.submit(context.pool, bytes).pipe(
        // The node's words (`nonce too low`, …) where the wallet API wraps them in its message.
        Effect.catchIf(Refusal.isRefusal, (e) => JsonRpc.refused(e._tag === "NodeRefused" ? e.reason : e.message))
      )))

// Kaia's eth_sendRawTransaction passes an Ethereum typed envelope (first byte below 0x7f) on as
// one: this chain takes none, so only legacy transactions (an RLP list) go through.
const ethRaw = (raw: Uint8Array): Either.Either<Uint8Array, JsonRpc.RpcError> =>
  raw.length > 0 && raw[0]! < 0x7f ? Either.left(JsonRpc.refused("transaction type not supported")) : Either.right(raw)

const chainId = method([], (context) => Effect.succeed(RpcFormat.quantity(context.chainId)))
const gasPrice = method([], (context) => Effect.map(context.node.head(context.chainId), (h) => RpcFormat.quantity(h.gasPrice)))
const blockNumber = method([], (context) => Effect.map(context.node.head(context.chainId), (h) => RpcFormat.quantity(h.blockNumber)))
const clientVersion = method([], () => Effect.succeed(`effect-kas-wallet-emulator/v${version}`))

const addressAndBlock = [RpcParams.required(RpcParams.address), RpcParams.optional(RpcParams.block, RpcParams.Latest)] as const

/**
 * The methods answered, by name.
 *
 * @since 0.5.0
 * @category methods
 */
export const methods: Readonly<Record<string, Method>> = {
  klay_chainID: chainId,
  eth_chainId: chainId,
  net_version: method([], (context) => Effect.succeed(String(context.chainId))),
  klay_clientVersion: clientVersion,
  web3_clientVersion: clientVersion,
  klay_gasPrice: gasPrice,
  eth_gasPrice: gasPrice,
  klay_blockNumber: blockNumber,
  eth_blockNumber: blockNumber,
  klay_getBalance: balance,
  eth_getBalance: balance,
  klay_getTransactionCount: transactionCount,
  eth_getTransactionCount: transactionCount,
  klay_getCode: code,
  eth_getCode: code,
  klay_getAccount: method(addressAndBlock, (context, [address, ref]) =>
    Effect.zipRight(latestState(context, ref), Effect.map(context.node.account(context.chainId, address), RpcFormat.account))),
  // An address the chain does not hold has no key: null, as Klaytn answers.
  klay_getAccountKey: method(addressAndBlock, (context, [address, ref]) =>
    Effect.zipRight(
      latestState(context, ref),
      Effect.map(context.node.account(context.chainId, address), (a) => (a.exists ? RpcFormat.accountKey(a.key) : null))
    )),
  klay_getTransactionByHash: transaction(RpcFormat.klayTransaction),
  eth_getTransactionByHash: transaction(RpcFormat.ethTransaction),
  klay_getTransactionReceipt: receipt((found) => Effect.succeed(RpcFormat.klayReceipt(found))),
  eth_getTransactionReceipt: receipt(ethReceipt),
  klay_getBlockByNumber: block(RpcFormat.klayBlock),
  eth_getBlockByNumber: block(RpcFormat.ethBlock),
  klay_call: call,
  eth_call: call,
  // Klaytn's klay_estimateGas takes the call object only; eth_estimateGas a block too (the latest).
  klay_estimateGas: method([RpcParams.required(RpcParams.callObject)], (context, [object]) => estimate(context, object)),
  eth_estimateGas: method([RpcParams.required(RpcParams.callObject), RpcParams.optional(RpcParams.block, RpcParams.Latest)], (context, [object, ref]) =>
    Effect.zipRight(latestState(context, ref), estimate(context, object))),
  klay_sendRawTransaction: sendRaw(Either.right),
  eth_sendRawTransaction: sendRaw(ethRaw)
}

const dispatch = (context: Context) => (request: JsonRpc.Call): Outcome => {
  // Once a batch's budget is spent, its other calls are answered as go-ethereum answers them.
  if (context.batch.leftMs <= 0) return Effect.fail(JsonRpc.timedOut())
  const run = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined
  if (run === undefined) {
    return Effect.fail(new JsonRpc.RpcError({ code: JsonRpc.Code.MethodNotFound, message: `the method ${request.method} does not exist/is not available` }))
  }
  return run(context, request.params)
}

/**
 * The node route.
 *
 * @since 0.5.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.make({
    method: "POST",
    path: "/v1/klaytn",
    operationId: "klaytnJsonRpc",
    summary: "Klaytn JSON-RPC 2.0 (the KAS Node API): klay_ and eth_ methods answered from the emulator's chain",
    description: `Methods: ${Object.keys(methods).join(", ")}. A call or a batch (at most ${JsonRpc.MaxBatch} calls); notifications are run and not answered. JSON-RPC errors are answered 200: -32700 (not JSON), -32600 (not a request), -32601 (unknown method), -32602 (bad params), -32000 (the node's refusals: nonce too low, insufficient funds, ...), 3 (a call that reverted, with its data). See docs/emulator.md, "A chain others can read".`,
    access: "node",
    body: {
      required: true,
      description: "A JSON-RPC 2.0 request object ({jsonrpc: \"2.0\", id, method, params: [...]}), or an array of them; at most 64 KiB.",
      schema: Description.json({ oneOf: [{ type: "object" }, { type: "array", items: { type: "object" } }] })
    },
    response: {
      description: "The JSON-RPC response (an array for a batch), or an empty body when every call was a notification.",
      schema: Description.json({ oneOf: [{ type: "object" }, { type: "array", items: { type: "object" } }] })
    },
    errors: { 400: "A body over 64 KiB (1061615, before any JSON-RPC), or a bad x-chain-id (1061608, 1061615)." },
    handler: ({ body, caller, services }) =>
      Effect.flatMap(Budget.make(services.ledger.limits.timeoutMs, "request timed out"), (batch) =>
        JsonRpc.serve(body, dispatch({ chainId: caller.chainId, pool: caller, node: services.node, ledger: services.ledger, batch })).pipe(
          // The runs of transactions sent in the body fall within it too.
          Budget.within(batch)
        ))
  })
]
