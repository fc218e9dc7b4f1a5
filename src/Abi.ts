/**
 * The opt-in ABI layer: calldata from a method's signature and arguments, decoded call results,
 * decoded receipt logs, and deployment input with constructor arguments. Built on `ox` (an
 * optional peer dependency: `npm install ox` to use this entry), so that applications that only
 * manage accounts and transfer value carry no ABI coder: this module is
 * `effect-kas-wallet/Abi`, not part of the main entry.
 *
 * Every function returns an `Either` (an `Effect` too: `yield*` it in `Effect.gen`): a signature
 * that does not parse, or arguments that do not fit it, are an `InvalidArgument` naming what was
 * wrong, never a thrown error.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { TransactionKind, WalletClient } from "effect-kas-wallet"
 * import * as Abi from "effect-kas-wallet/Abi"
 *
 * const program = Effect.gen(function* () {
 *   const transfer = yield* Abi.fn("transfer(address to, uint256 amount) returns (bool)")
 *   const input = yield* Abi.encodeCall(transfer, ["0x5053e2f0dDe795c423A2b7f551C873f6Ef6F4Daa", 10n ** 18n])
 *   yield* WalletClient.send(TransactionKind.ContractExecution({ to: token, input }), { from })
 *
 *   const balanceOf = yield* Abi.fn("balanceOf(address) view returns (uint256)")
 *   const call = yield* Abi.callArguments(balanceOf, [from])
 *   const { result } = yield* WalletClient.callContract({ to: token, ...call })
 *   const [balance] = yield* Abi.decodeResult(balanceOf, result)
 * })
 * ```
 *
 * @since 0.4.0
 */
import { Either } from "effect"
import * as AbiConstructor from "ox/AbiConstructor"
import * as AbiEvent from "ox/AbiEvent"
import * as AbiFunction from "ox/AbiFunction"
import * as AbiItem from "ox/AbiItem"
import * as AbiParameters from "ox/AbiParameters"
import * as AbiValue from "./internal/abiValue.js"
import { HEX_BYTES } from "./internal/hexBytes.js"
import type * as Transaction from "./Transaction.js"
import * as WalletError from "./WalletError.js"

/**
 * A contract function: its name, its canonical signature (`transfer(address,uint256)`) and the
 * ABI types of its inputs and outputs.
 *
 * @since 0.4.0
 * @category models
 */
export interface Function {
  readonly _tag: "AbiFunction"
  readonly name: string
  readonly signature: string
  readonly inputs: ReadonlyArray<string>
  readonly outputs: ReadonlyArray<string>
  /** The parsed item, for `ox`. */
  readonly item: AbiFunction.AbiFunction
}

/**
 * A contract event: its name, canonical signature and topic (the keccak-256 hash of the
 * signature, a non-anonymous event's first topic).
 *
 * @since 0.4.0
 * @category models
 */
export interface Event {
  readonly _tag: "AbiEvent"
  readonly name: string
  readonly signature: string
  readonly topic: string
  /** The parsed item, for `ox`. */
  readonly item: AbiEvent.AbiEvent
}

// ox's errors carry a short message and then details (docs links, versions): the short one says it.
const reason = (error: unknown): string => {
  const e = error as { shortMessage?: unknown; message?: unknown }
  const text = typeof e?.shortMessage === "string" ? e.shortMessage : typeof e?.message === "string" ? e.message : String(error)
  return text.split("\n")[0]!.trim()
}

const attempt = <A>(argument: string, f: () => A): Either.Either<A, WalletError.InvalidArgument> =>
  Either.try({ try: f, catch: (error) => new WalletError.InvalidArgument({ argument, description: reason(error) }) })

const typesOf = (parameters: ReadonlyArray<{ readonly type: string }>): ReadonlyArray<string> =>
  parameters.map((p) => p.type)

// A bare `transfer(address,uint256)` is written the way the Solidity docs and most tools name a
// method; ox parses human-readable items, which start with the item's keyword.
// A signature as ox reads it, starting with its keyword; a JSON ABI item as it is.
const withKeyword = <Item>(keyword: string, signature: string | Item): string | Item => {
  if (typeof signature !== "string") return signature
  const s = signature.trim()
  return s.startsWith(keyword) ? s : s.startsWith("(") ? `${keyword}${s}` : `${keyword} ${s}`
}

const toFunction = (item: AbiFunction.AbiFunction): Function => ({
  _tag: "AbiFunction",
  name: item.name,
  signature: AbiItem.getSignature(item),
  inputs: typesOf(item.inputs),
  outputs: typesOf(item.outputs),
  item
})

const toEvent = (item: AbiEvent.AbiEvent): Event => ({
  _tag: "AbiEvent",
  name: item.name,
  signature: AbiItem.getSignature(item),
  topic: AbiEvent.getSelector(item),
  item
})

/**
 * A function from its signature (`"transfer(address,uint256)"`, `"function balanceOf(address
 * owner) view returns (uint256)"`: outputs are needed only to decode results) or from a JSON ABI
 * item.
 *
 * @since 0.4.0
 * @category constructors
 */
export const fn = (signature: string | AbiFunction.AbiFunction): Either.Either<Function, WalletError.InvalidArgument> =>
  attempt("signature", () => toFunction(AbiFunction.from(withKeyword("function", signature) as never) as AbiFunction.AbiFunction))

/**
 * A function of a JSON ABI (a compiler's output), by name.
 *
 * @since 0.4.0
 * @category constructors
 */
export const functionOf = (abi: ReadonlyArray<unknown>, name: string): Either.Either<Function, WalletError.InvalidArgument> =>
  attempt("name", () => toFunction(AbiFunction.fromAbi(abi as never, name as never) as AbiFunction.AbiFunction))

/**
 * An event from its signature (`"Transfer(address indexed from, address indexed to, uint256
 * value)"`: `indexed` says which arguments are topics) or from a JSON ABI item.
 *
 * @since 0.4.0
 * @category constructors
 */
export const event = (signature: string | AbiEvent.AbiEvent): Either.Either<Event, WalletError.InvalidArgument> =>
  attempt("signature", () => toEvent(AbiEvent.from(withKeyword("event", signature) as never) as AbiEvent.AbiEvent))

/**
 * An event of a JSON ABI, by name.
 *
 * @since 0.4.0
 * @category constructors
 */
export const eventOf = (abi: ReadonlyArray<unknown>, name: string): Either.Either<Event, WalletError.InvalidArgument> =>
  attempt("name", () => toEvent(AbiEvent.fromAbi(abi as never, name as never) as AbiEvent.AbiEvent))

const checkArity = (what: string, expected: ReadonlyArray<string>, args: ReadonlyArray<unknown>) =>
  args.length === expected.length
    ? Either.right(args)
    : Either.left(
      new WalletError.InvalidArgument({
        argument: "args",
        description: `${what} takes ${expected.length} argument${expected.length === 1 ? "" : "s"} (${expected.join(", ")}), got ${args.length}`
      })
    )

/**
 * The calldata of a function call: its selector and the ABI-encoded arguments (integers as
 * `bigint` or number, addresses and bytes as `0x` strings, arrays as arrays), the `input` of a
 * `TransactionKind.ContractExecution`.
 *
 * @since 0.4.0
 * @category encoding
 */
export const encodeCall = (f: Function, args: ReadonlyArray<unknown> = []): Either.Either<string, WalletError.InvalidArgument> =>
  Either.flatMap(checkArity(f.signature, f.inputs, args), () =>
    attempt("args", () => AbiFunction.encodeData(f.item, args as never)))

/**
 * The method and typed arguments of `WalletClient.callContract` (the service encodes them), after
 * checking the arguments encode for the function.
 *
 * @since 0.4.0
 * @category encoding
 */
export const callArguments = (
  f: Function,
  args: ReadonlyArray<unknown> = []
): Either.Either<{ readonly method: string; readonly arguments: ReadonlyArray<{ readonly type: string; readonly value: unknown }> }, WalletError.InvalidArgument> =>
  Either.map(encodeCall(f, args), () => ({
    method: f.name,
    arguments: f.inputs.map((type, i) => ({ type, value: AbiValue.jsonValue(args[i]) }))
  }))

/**
 * The outputs of a call, decoded from its raw return data (`ContractCallResult.result`) by the
 * function's outputs: always an array, one element per output.
 *
 * @since 0.4.0
 * @category decoding
 */
export const decodeResult = (f: Function, data: string): Either.Either<ReadonlyArray<unknown>, WalletError.InvalidArgument> =>
  attempt("data", () => AbiParameters.decode(f.item.outputs, data as `0x${string}`) as ReadonlyArray<unknown>)

/**
 * One decoded log: the contract that emitted it, its index in the receipt, and the event's
 * arguments by name (by position when unnamed).
 *
 * @since 0.4.0
 * @category models
 */
export interface DecodedLog {
  readonly address: string
  readonly index: number
  readonly args: Readonly<Record<string, unknown>> | ReadonlyArray<unknown>
}

/**
 * The logs of a receipt that the event emitted (first topic equal to its topic), decoded. Logs of
 * other events are skipped; a matching log that does not decode is an `InvalidArgument`.
 *
 * @since 0.4.0
 * @category decoding
 */
export const decodeLogs = (
  e: Event,
  logs: ReadonlyArray<Pick<Transaction.Log, "address" | "topics" | "data">>
): Either.Either<ReadonlyArray<DecodedLog>, WalletError.InvalidArgument> =>
  Either.all(
    logs.flatMap((log, index) =>
      log.topics[0]?.toLowerCase() === e.topic
        ? [attempt(`logs[${index}]`, () => ({
          address: log.address,
          index,
          args: AbiEvent.decode(e.item, { topics: log.topics as never, data: log.data as `0x${string}` }) as DecodedLog["args"]
        }))]
        : []
    )
  )

/**
 * The `input` of a `TransactionKind.ContractDeploy`: the creation bytecode followed by the
 * ABI-encoded constructor arguments (`constructor` is its signature, e.g.
 * `"constructor(uint256 supply)"`; absent: none).
 *
 * @since 0.4.0
 * @category encoding
 */
export const deployInput = (
  bytecode: string,
  constructor?: string,
  args: ReadonlyArray<unknown> = []
): Either.Either<string, WalletError.InvalidArgument> => {
  if (!HEX_BYTES.test(bytecode) || bytecode.length === 2) {
    return Either.left(new WalletError.InvalidArgument({ argument: "bytecode", description: "expected 0x followed by a non-empty, even number of hex digits" }))
  }
  if (constructor === undefined) {
    return args.length === 0 ? Either.right(bytecode) : Either.left(new WalletError.InvalidArgument({ argument: "args", description: "constructor arguments need the constructor's signature" }))
  }
  return Either.flatMap(
    attempt("constructor", () => AbiConstructor.from(withKeyword("constructor", constructor) as never) as AbiConstructor.AbiConstructor),
    (item) =>
      Either.flatMap(checkArity("the constructor", typesOf(item.inputs), args), () =>
        attempt("args", () => AbiConstructor.encode(item, { bytecode: bytecode as `0x${string}`, args: args as never })))
  )
}
