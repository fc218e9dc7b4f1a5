/**
 * The positional params of the node's JSON-RPC methods, decoded as a Klaytn node decodes them:
 * addresses (any case, no checksum check), hashes, `0x` quantities and data, booleans, block tags
 * and numbers, call objects. A param that does not decode is `-32602` `invalid argument <i>:
 * <reason>`; too many params, or a required one missing, is `-32602` too (go-ethereum's words).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import { Either } from "effect"
import * as JsonRpc from "./JsonRpc.js"

/**
 * How one param decodes: its value, or why not.
 *
 * @since 0.5.0
 * @category models
 */
export type Decoder<A> = (u: unknown) => Either.Either<A, string>

/**
 * A param of a method: required, or optional with the value it takes when absent or null.
 *
 * @since 0.5.0
 * @category models
 */
export interface Param<A> {
  readonly decode: Decoder<A>
  readonly fallback?: { readonly value: A }
}

/**
 * A required param.
 *
 * @since 0.5.0
 * @category constructors
 */
export const required = <A>(decode: Decoder<A>): Param<A> => ({ decode })

/**
 * An optional param, `value` when absent or null.
 *
 * @since 0.5.0
 * @category constructors
 */
export const optional = <A>(decode: Decoder<A>, value: A): Param<A> => ({ decode, fallback: { value } })

/**
 * The values of a method's params.
 *
 * @since 0.5.0
 * @category models
 */
export type Values<Ps extends ReadonlyArray<Param<any>>> = { readonly [K in keyof Ps]: Ps[K] extends Param<infer A> ? A : never }

/**
 * Decodes positional params against their specs.
 *
 * @since 0.5.0
 * @category decoding
 */
export const decode = <const Ps extends ReadonlyArray<Param<any>>>(
  params: ReadonlyArray<unknown>,
  specs: Ps
): Either.Either<Values<Ps>, JsonRpc.RpcError> => {
  if (params.length > specs.length) return Either.left(JsonRpc.invalidParams(`too many arguments, want at most ${specs.length}`))
  const values: Array<unknown> = []
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!
    const given = params[i]
    if (given === undefined || given === null) {
      if (spec.fallback === undefined) return Either.left(JsonRpc.invalidParams(`missing value for required argument ${i}`))
      values.push(spec.fallback.value)
      continue
    }
    const decoded = spec.decode(given)
    if (Either.isLeft(decoded)) return Either.left(JsonRpc.invalidArgument(i, decoded.left))
    values.push(decoded.right)
  }
  return Either.right(values as unknown as Values<Ps>)
}

const string = (u: unknown, what: string): Either.Either<string, string> =>
  typeof u === "string" ? Either.right(u) : Either.left(`${what} must be a string`)

const hexDigits = (s: string): Either.Either<string, string> => {
  if (!s.startsWith("0x") && !s.startsWith("0X")) return Either.left("hex string without 0x prefix")
  return /^[0-9a-fA-F]*$/.test(s.slice(2)) ? Either.right(s.slice(2)) : Either.left("invalid hex string")
}

/**
 * An address: `0x` and 40 hex digits, any case (the checksum is not checked, as a node does not);
 * answered lower case.
 *
 * @since 0.5.0
 * @category decoders
 */
export const address: Decoder<string> = (u) =>
  Either.flatMap(Either.flatMap(string(u, "an address"), hexDigits), (digits) =>
    digits.length === 40 ? Either.right(`0x${digits.toLowerCase()}`) : Either.left(`hex string has length ${digits.length}, want 40 for an address`))

/**
 * A 32-byte hash: `0x` and 64 hex digits; answered lower case.
 *
 * @since 0.5.0
 * @category decoders
 */
export const hash: Decoder<string> = (u) =>
  Either.flatMap(Either.flatMap(string(u, "a hash"), hexDigits), (digits) =>
    digits.length === 64 ? Either.right(`0x${digits.toLowerCase()}`) : Either.left(`hex string has length ${digits.length}, want 64 for a hash`))

/**
 * A quantity: `0x` and at least one hex digit, at most 2^256 - 1.
 *
 * @since 0.5.0
 * @category decoders
 */
export const quantity: Decoder<bigint> = (u) =>
  Either.flatMap(Either.flatMap(string(u, "a quantity"), hexDigits), (digits) => {
    if (digits.length === 0) return Either.left("hex string \"0x\"")
    return digits.length > 64 ? Either.left("hex number > 256 bits") : Either.right(BigInt(`0x${digits}`))
  })

/**
 * Bytes: `0x` and an even number of hex digits.
 *
 * @since 0.5.0
 * @category decoders
 */
export const bytes: Decoder<Uint8Array> = (u) =>
  Either.flatMap(Either.flatMap(string(u, "data"), hexDigits), (digits) =>
    digits.length % 2 === 0 ? Either.right(new Uint8Array(Buffer.from(digits, "hex"))) : Either.left("hex string of odd length"))

/**
 * A boolean.
 *
 * @since 0.5.0
 * @category decoders
 */
export const boolean: Decoder<boolean> = (u) => (typeof u === "boolean" ? Either.right(u) : Either.left("must be a boolean"))

/**
 * Which state a read is of: the latest (`latest`, `pending`, `safe`, `finalized`: the emulator's
 * chain is final at once, and its pending state is its latest), a block by number (`earliest` is
 * block 0), or a block by hash (EIP-1898 objects).
 *
 * @since 0.5.0
 * @category models
 */
export type BlockRef =
  | { readonly _tag: "Latest"; readonly pending: boolean }
  | { readonly _tag: "Number"; readonly blockNumber: number }
  | { readonly _tag: "Hash"; readonly hash: string }

/**
 * `latest`, the default block of a read.
 *
 * @since 0.5.0
 * @category constants
 */
export const Latest: BlockRef = { _tag: "Latest", pending: false }

const blockNumberOf = (u: unknown): Either.Either<BlockRef, string> =>
  Either.flatMap(quantity(u), (n) =>
    n > BigInt(Number.MAX_SAFE_INTEGER) ? Either.left("block number too large") : Either.right({ _tag: "Number", blockNumber: Number(n) }))

/**
 * A block tag, a block number, or an object with `blockNumber` or `blockHash`.
 *
 * @since 0.5.0
 * @category decoders
 */
export const block: Decoder<BlockRef> = (u) => {
  if (typeof u === "object" && u !== null && !Array.isArray(u)) {
    const o = u as Record<string, unknown>
    if (o.blockHash !== undefined && o.blockNumber !== undefined) return Either.left("cannot specify both blockHash and blockNumber")
    if (o.blockHash !== undefined) return Either.map(hash(o.blockHash), (h) => ({ _tag: "Hash", hash: h }))
    // A tag or a number inside: never another object (a body can nest them deep).
    if (o.blockNumber !== undefined) return typeof o.blockNumber === "string" ? block(o.blockNumber) : Either.left("blockNumber must be a tag or a number")
    return Either.left("neither blockHash nor blockNumber")
  }
  switch (u) {
    case "latest":
    case "safe":
    case "finalized":
      return Either.right(Latest)
    case "pending":
      return Either.right({ _tag: "Latest", pending: true })
    case "earliest":
      return Either.right({ _tag: "Number", blockNumber: 0 })
    default:
      return typeof u === "string" ? blockNumberOf(u) : Either.left("a block must be a tag, a number or an object")
  }
}

/**
 * A call or gas estimate's transaction (`CallArgs`): every field optional; `data` and `input` are
 * one (both given, they must agree). Fields a node ignores here (`nonce`, `type`, `chainId`,
 * `accessList`, fee caps) are ignored.
 *
 * @since 0.5.0
 * @category models
 */
export interface CallObject {
  readonly from: string | undefined
  readonly to: string | undefined
  readonly gas: bigint | undefined
  readonly gasPrice: bigint | undefined
  readonly value: bigint
  readonly input: Uint8Array
}

const field = <A>(o: Record<string, unknown>, name: string, decode: Decoder<A>): Either.Either<A | undefined, string> => {
  const value = o[name]
  if (value === undefined || value === null) return Either.right(undefined)
  return Either.mapLeft(decode(value), (reason) => `${name}: ${reason}`)
}

/**
 * A call object.
 *
 * @since 0.5.0
 * @category decoders
 */
export const callObject: Decoder<CallObject> = (u) => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return Either.left("a transaction call object must be an object")
  const o = u as Record<string, unknown>
  return Either.gen(function*() {
    const from = yield* field(o, "from", address)
    const to = yield* field(o, "to", address)
    const gas = yield* field(o, "gas", quantity)
    const gasPrice = yield* field(o, "gasPrice", quantity)
    const value = yield* field(o, "value", quantity)
    const data = yield* field(o, "data", bytes)
    const input = yield* field(o, "input", bytes)
    if (data !== undefined && input !== undefined && Buffer.compare(data, input) !== 0) {
      return yield* Either.left("both \"data\" and \"input\" are set and not equal. Please use \"input\" to pass transaction call data")
    }
    return { from, to, gas, gasPrice, value: value ?? 0n, input: input ?? data ?? new Uint8Array(0) }
  })
}
