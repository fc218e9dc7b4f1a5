/**
 * JSON-RPC 2.0 over one HTTP request body: a call or a batch of calls, notifications (no `id`:
 * run, never answered), and the standard errors — `-32700` for a body that is not JSON, `-32600`
 * for what is not a request (an empty or too large batch, a request without a `method`, a wrong
 * `jsonrpc`, an `id` that is neither a string, a number nor null), `-32601` for an unknown method,
 * `-32602` for bad params; the methods' own refusals (`-32000`, `3` for a revert) come from the
 * methods. Messages follow go-ethereum's (whose code Klaytn's node runs).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import { Data, Effect, Either } from "effect"

/**
 * The error codes answered.
 *
 * @since 0.5.0
 * @category constants
 */
export const Code = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  /** A node's refusal: `nonce too low`, `insufficient funds …`, `header not found`, … */
  ServerError: -32000,
  /** A call or gas estimate that reverted; `data` holds the revert data. */
  Reverted: 3,
  /** go-ethereum's: the calls of a batch left when the batch's time ran out. */
  Timeout: -32002
} as const

/**
 * The most calls one batch may hold (go-ethereum's default limit is 1000; a call may run the EVM
 * for its whole gas, so fewer here). What they may run together is bounded too: by one call's time
 * budget (http/routes/Node.ts).
 *
 * @since 0.5.0
 * @category constants
 */
export const MaxBatch = 100

/**
 * A JSON-RPC error answered for one call.
 *
 * @since 0.5.0
 * @category errors
 */
export class RpcError extends Data.TaggedError("RpcError")<{
  readonly code: number
  readonly message: string
  readonly data?: unknown
}> {}

/**
 * `-32602` for the argument at `index` (from 0), go-ethereum's `invalid argument <i>: <reason>`.
 *
 * @since 0.5.0
 * @category constructors
 */
export const invalidArgument = (index: number, reason: string): RpcError =>
  new RpcError({ code: Code.InvalidParams, message: `invalid argument ${index}: ${reason}` })

/**
 * `-32602` for the params as a whole (too many, missing).
 *
 * @since 0.5.0
 * @category constructors
 */
export const invalidParams = (message: string): RpcError => new RpcError({ code: Code.InvalidParams, message })

/**
 * `-32000`: the node refused the call, in its words.
 *
 * @since 0.5.0
 * @category constructors
 */
export const refused = (message: string, data?: unknown): RpcError =>
  new RpcError({ code: Code.ServerError, message, ...(data !== undefined ? { data } : {}) })

/**
 * `-32002 request timed out`: go-ethereum's answer to the calls of a batch its time ran out on.
 *
 * @since 0.11.0
 * @category constructors
 */
export const timedOut = (): RpcError => new RpcError({ code: Code.Timeout, message: "request timed out" })

/**
 * A request id: a string, a number or null.
 *
 * @since 0.5.0
 * @category models
 */
export type Id = string | number | null

/**
 * One call of a body: its method and positional params (absent params: none). `id` is absent for a
 * notification.
 *
 * @since 0.5.0
 * @category models
 */
export interface Call {
  readonly id?: Id
  readonly method: string
  readonly params: ReadonlyArray<unknown>
}

const respond = (id: Id, outcome: Either.Either<unknown, RpcError>): Record<string, unknown> =>
  Either.match(outcome, {
    onRight: (result) => ({ jsonrpc: "2.0", id, result: result === undefined ? null : result }),
    onLeft: (e) => ({
      jsonrpc: "2.0",
      id,
      error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) }
    })
  })

const failure = (code: number, message: string) => respond(null, Either.left(new RpcError({ code, message })))

const isId = (u: unknown): u is Id => typeof u === "string" || (typeof u === "number" && Number.isFinite(u)) || u === null

/**
 * A call from one request object, or the error to answer for it (with its id when it has a valid
 * one, else null).
 *
 * @since 0.5.0
 * @category parsing
 */
export const callOf = (item: unknown): Either.Either<Call, { readonly id: Id; readonly error: RpcError }> => {
  const invalid = (id: Id, message: string) => Either.left({ id, error: new RpcError({ code: Code.InvalidRequest, message }) })
  if (typeof item !== "object" || item === null || Array.isArray(item)) return invalid(null, "invalid request")
  const request = item as Record<string, unknown>
  const hasId = "id" in request
  if (hasId && !isId(request.id)) return invalid(null, "invalid request")
  const id = hasId ? (request.id as Id) : null
  if (request.jsonrpc !== "2.0") return invalid(id, "invalid request")
  if (typeof request.method !== "string" || request.method === "") return invalid(id, "invalid request")
  const params = request.params
  // By-name params: the Klaytn node takes positional ones only.
  if (params !== undefined && params !== null && !Array.isArray(params)) {
    return Either.left({ id, error: invalidParams("non-array args") })
  }
  return Either.right({ ...(hasId ? { id } : {}), method: request.method, params: params ?? [] })
}

/**
 * Answers a request body: parses it, runs each call (in order, a batch's one after the other) with
 * `run`, and renders the responses — one object, an array for a batch, or nothing (`""`) when
 * every call was a notification. Only what `run` fails with other than `RpcError` (storage
 * failures) fails the whole body.
 *
 * @since 0.5.0
 * @category serving
 */
export const serve = <E, R>(
  body: string,
  run: (call: Call) => Effect.Effect<unknown, RpcError | E, R>
): Effect.Effect<string, E, R> =>
  Effect.gen(function*() {
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      return JSON.stringify(failure(Code.ParseError, "parse error"))
    }
    const one = (item: unknown) =>
      Either.match(callOf(item), {
        onLeft: ({ error, id }) => Effect.succeed<Record<string, unknown> | undefined>(respond(id, Either.left(error))),
        onRight: (call) =>
          run(call).pipe(
            Effect.map((result): Either.Either<unknown, RpcError> => Either.right(result)),
            Effect.catchIf((e): e is RpcError => e instanceof RpcError, (e) => Effect.succeed(Either.left(e))),
            Effect.map((outcome) => (call.id === undefined ? undefined : respond(call.id, outcome)))
          )
      })
    if (!Array.isArray(parsed)) {
      const response = yield* one(parsed)
      return response === undefined ? "" : JSON.stringify(response)
    }
    if (parsed.length === 0) return JSON.stringify(failure(Code.InvalidRequest, "empty batch"))
    if (parsed.length > MaxBatch) return JSON.stringify(failure(Code.InvalidRequest, `batch too large: at most ${MaxBatch} calls`))
    const responses: Array<Record<string, unknown>> = []
    for (const item of parsed) {
      const response = yield* one(item)
      if (response !== undefined) responses.push(response)
    }
    return responses.length === 0 ? "" : JSON.stringify(responses)
  })
