/**
 * What the client checks of an answer against what it asked: a transaction result against its
 * request (`internal/verifyResult`, with the key of a sender registered under another key learnt
 * from its account), and the `UnverifiedResult` of any answer that does not say what was asked,
 * its body scrubbed.
 *
 * @internal
 */
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect, Either, type ParseResult, Schema } from "effect"
import * as AccountKey from "../AccountKey.js"
import type * as Address from "../Address.js"
import * as WalletApi from "../api/WalletApi.js"
import type * as Options from "../internal/options.js"
import * as Request from "../internal/request.js"
import * as Spans from "../internal/spans.js"
import * as Verify from "../internal/verifyResult.js"
import * as Transaction from "../Transaction.js"
import * as WalletError from "../WalletError.js"
import type * as Requests from "./Requests.js"

/**
 * A decoder that keeps the body beside the result: a result that fails its check is shown as it
 * came.
 *
 * @internal
 */
export const withBody = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema)
  return (body: unknown): Either.Either<{ readonly body: unknown; readonly result: A }, ParseResult.ParseError> =>
    Either.map(decode(body), (result) => ({ body, result }))
}

/**
 * The checks of one client.
 *
 * @internal
 */
export interface Verification {
  /** An answer that does not say what the request asked: UnverifiedResult, the body scrubbed. */
  readonly mismatch: (
    request: HttpClientRequest.HttpClientRequest,
    body: unknown,
    field: string,
    expected: string,
    actual: string,
    transactionHash?: Transaction.TxHash
  ) => WalletError.UnverifiedResult
  /**
   * A transaction result's check, when the client verifies them; a mismatch is UnverifiedResult
   * naming the request (made only then) and the body.
   */
  readonly transaction: (
    request: () => HttpClientRequest.HttpClientRequest,
    body: unknown,
    expected: Verify.Expected,
    result: Transaction.TransactionResult,
    t: Options.Target
  ) => Effect.Effect<Transaction.TransactionResult, WalletError.WalletError>
}

/**
 * The checks over the client's requests.
 *
 * @internal
 */
export const make = (requests: Requests.Requests): Verification => {
  const { settings } = requests
  const mismatch: Verification["mismatch"] = (request, body, field, expected, actual, transactionHash) =>
    new WalletError.UnverifiedResult({
      method: request.method,
      path: requests.scrub(Request.pathOf(request)),
      field,
      expected,
      actual,
      body: requests.scrub(JSON.stringify(body)),
      ...(transactionHash !== undefined ? { transactionHash } : {})
    })

  // The keys of senders whose key is not their address's own (accounts registered under a key of
  // the key service), by chain and lower-case address: learnt from the account when a result's sender
  // signature does not recover to its address; bounded, the oldest forgotten first.
  const senderKeys = new Map<string, Uint8Array>()
  const senderKeyOf = (from: Address.Address, t: Options.Target) => {
    // By chain too: one address may be registered on both chains under two keys.
    const id = `${t.chainId}:${from.toLowerCase()}`
    const known = senderKeys.get(id)
    if (known !== undefined) return Effect.succeed(known)
    return Effect.map(
      requests.run(WalletApi.accounts.getAccount, t, { path: { address: from } }, { attributes: { [Spans.SpanAttributes.address]: from } }),
      (account) => {
        const key = (AccountKey.toKlaytn(AccountKey.Public({ publicKey: account.publicKey })) as { readonly publicKey: Uint8Array }).publicKey
        if (senderKeys.size >= 1024) senderKeys.delete(senderKeys.keys().next().value!)
        senderKeys.set(id, key)
        return key
      }
    )
  }

  /**
   * A result's check: the request's, and when the sender's signature the service made does not
   * recover to its address, once more against the key the sender's account holds — an account
   * registered under a key of the key service signs with a key of another address. The account is
   * read once (GET /v2/account/{from}); a failure there leaves the first mismatch.
   */
  const verified = (expected: Verify.Expected, result: Transaction.TransactionResult, t: Options.Target) => {
    const once = (e: Verify.Expected) => Verify.verify(e, result, settings.verifyResults === "all")
    return Effect.catchAll(once(expected), (m) =>
      m.field !== "rlp.signatures" || expected.sent !== undefined || expected.from === undefined || settings.verifyResults !== "all"
        ? Effect.fail(m)
        : senderKeyOf(expected.from, t).pipe(
          Effect.matchEffect({
            onFailure: () => Effect.fail(m),
            onSuccess: (senderKey) => once({ ...expected, senderKey })
          })
        ))
  }

  return {
    mismatch,
    transaction: (request, body, expected, result, t) =>
      settings.verifyResults === "off"
        ? Effect.succeed(result)
        : Effect.as(
          Effect.mapError(verified(expected, result, t), (m) =>
            mismatch(request(), body, m.field, m.expected, m.actual, Transaction.isSigned(result) ? result.transactionHash : undefined)),
          result
        )
  }
}
