/**
 * Reads of a Klaytn node's JSON-RPC (the KAS Node API): one request per call, through the client's
 * request pipeline (timeout, retries of reads, bounded bodies, scrubbed errors). A JSON-RPC error
 * answered with a 2xx is an `InvalidRequest` carrying the node's code and message.
 *
 * @internal
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect, Either, ParseResult, Schema } from "effect"
import * as WalletError from "../WalletError.js"
import type * as Request from "./request.js"

/**
 * What a node call needs from the client: its path and the function that sends a call through
 * the node's pipeline, under a span named after the method.
 *
 * @internal
 */
export interface Node {
  readonly path: string
  readonly chainId: number
  readonly send: <A>(name: string, call: Request.Call<A>, attributes: Record<string, unknown>) => Effect.Effect<A, WalletError.WalletError>
}

// A refusal first: `result` is `unknown`, which an answer without one would satisfy too.
const Envelope = Schema.Union(
  Schema.Struct({ error: Schema.Struct({ code: Schema.Number, message: Schema.String }) }),
  Schema.Struct({ result: Schema.Unknown })
)
const decodeEnvelope = Schema.decodeUnknownEither(Envelope)

/**
 * One JSON-RPC call: `method(params)`, its `result` decoded by `result` (a failure names the method).
 *
 * @internal
 */
export const call = <A, I>(
  node: Node,
  method: string,
  params: ReadonlyArray<unknown>,
  result: Schema.Schema<A, I>
): Effect.Effect<A, WalletError.WalletError> => {
  const decodeResult = Schema.decodeUnknownEither(result)
  type Answer = { readonly _tag: "Result"; readonly value: A } | { readonly _tag: "Refused"; readonly code: number; readonly message: string }
  const request = HttpClientRequest.post(node.path, { headers: { "x-chain-id": String(node.chainId) } }).pipe(
    HttpClientRequest.bodyUnsafeJson({ jsonrpc: "2.0", id: 1, method, params })
  )
  return Effect.flatMap(
    node.send(`node.${method}`, {
      request,
      // Reads: asking again changes nothing.
      idempotent: true,
      decode: (body) =>
        Either.flatMap(decodeEnvelope(body), (envelope): Either.Either<Answer, ParseResult.ParseError> =>
          "error" in envelope
            ? Either.right({ _tag: "Refused", ...envelope.error })
            : Either.map(decodeResult(envelope.result), (value) => ({ _tag: "Result", value })))
    }, { "rpc.method": method }),
    (answer) =>
      answer._tag === "Result" ? Effect.succeed(answer.value) : Effect.fail(
        new WalletError.InvalidRequest({
          method: "POST",
          path: `${node.path} (${method})`,
          status: 200,
          code: answer.code,
          serviceMessage: answer.message
        })
      )
  )
}

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/

/**
 * A JSON-RPC quantity (`0x` hex, no leading zeros required) as a bigint.
 *
 * @internal
 */
export const Quantity: Schema.Schema<bigint, string> = Schema.transformOrFail(Schema.String, Schema.BigIntFromSelf, {
  strict: true,
  decode: (s, _, ast) =>
    HEX_QUANTITY.test(s) ? ParseResult.succeed(BigInt(s)) : ParseResult.fail(new ParseResult.Type(ast, s, `expected a 0x hex quantity, got ${JSON.stringify(s.slice(0, 40))}`)),
  encode: (n) => ParseResult.succeed(`0x${n.toString(16)}`)
})

/**
 * A JSON-RPC quantity that fits a safe integer (a nonce, a chain id).
 *
 * @internal
 */
export const SafeQuantity: Schema.Schema<number, string> = Schema.transformOrFail(Quantity, Schema.Number, {
  strict: true,
  decode: (n, _, ast) =>
    n <= BigInt(Number.MAX_SAFE_INTEGER) ? ParseResult.succeed(Number(n)) : ParseResult.fail(new ParseResult.Type(ast, n, "too large")),
  encode: (n) => ParseResult.succeed(BigInt(n))
})

const Point = Schema.Struct({ x: Quantity, y: Quantity })

/**
 * An account key as `klay_getAccountKey` answers it (Klaytn's JSON form: `{keyType: 1, key: {}}`
 * legacy, `{keyType: 2, key: {x, y}}` public, `{keyType: 3}` fail, `{keyType: 4, key: {threshold,
 * keys: [{weight, key: {x, y}}]}}` weighted multisig, `{keyType: 5, key: [role keys]}` role-based),
 * or `null` for an account the chain has never seen (its key: legacy).
 *
 * @internal
 */
export type AccountKeyJson =
  | { readonly keyType: 1 | 3 }
  | { readonly keyType: 2; readonly key: typeof Point.Type }
  | {
    readonly keyType: 4
    readonly key: { readonly threshold: number; readonly keys: ReadonlyArray<{ readonly weight: number; readonly key: typeof Point.Type }> }
  }
  | { readonly keyType: 5; readonly key: ReadonlyArray<AccountKeyJson> }

const RoleKeyJson = Schema.Union(
  Schema.Struct({ keyType: Schema.Literal(1, 3) }),
  Schema.Struct({ keyType: Schema.Literal(2), key: Point }),
  Schema.Struct({
    keyType: Schema.Literal(4),
    key: Schema.Struct({ threshold: Schema.Number, keys: Schema.Array(Schema.Struct({ weight: Schema.Number, key: Point })) })
  })
)

/**
 * The result of `klay_getAccountKey`.
 *
 * @internal
 */
export const AccountKeyResult = Schema.NullOr(
  Schema.Union(RoleKeyJson, Schema.Struct({ keyType: Schema.Literal(5), key: Schema.Array(RoleKeyJson) }))
) as unknown as Schema.Schema<AccountKeyJson | null, unknown>
