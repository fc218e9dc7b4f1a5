/**
 * The multisig routes: the update of an account to a weighted multisig key, the listing of the
 * transactions waiting for signers, the signatures of a member's signer or made elsewhere, and an
 * account's signature of a pending transaction (answered, not kept).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.8.0
 * @internal
 */
import { Effect, Either } from "effect"
import { Multisig, Transaction } from "effect-kas-wallet"
import * as ApiError from "../ApiError.js"
import * as Description from "../Description.js"
import * as Listing from "../Listing.js"
import * as PathValues from "../PathValues.js"
import * as Render from "../Render.js"
import * as RequestBody from "../RequestBody.js"
import * as Route from "../Route.js"
import * as MultisigOperations from "../../services/Multisig.js"

const C = ApiError.Code
const badHeader = `bad header: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.DataNotExist} (x-krn)`
const idErrors = `the transaction id not hex: ${C.NotHex}; not a transaction of the member on the chain waiting for signers (unknown, another member's or chain's, dropped): ${C.DataNotExist}; already sent: ${C.AlreadySubmitted} "already submitted transaction. Confirm transaction hash; <hash>"`

const both = <A, B>(a: Either.Either<A, ApiError.ApiError>, b: Either.Either<B, ApiError.ApiError>) => Either.all([a, b])

// An account (lower case) and a pending transaction's id, both from the path.
const accountAndId = (params: { readonly address: string; readonly "transaction-id": string }) =>
  Either.map(
    both(PathValues.parseAddress(params.address), PathValues.parseTransactionId(params["transaction-id"])),
    ([address, id]) => [address.toLowerCase(), id] as const
  )

const renderPending = Render.json(Multisig.PendingTransaction)
const renderStatus = Render.json(Multisig.SignatureStatus)

/**
 * The multisig routes, in the document's order.
 *
 * @since 0.8.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.make({
    method: "PUT",
    path: "/v2/account/{address}/multisig",
    operationId: "MultisigAccountUpdate",
    summary:
      "Update an account of the selected pool to a weighted multisig key of its member's keys: an account update it signs and pays for; its transactions then wait for its signers",
    access: "accountPool",
    pathParameters: { address: PathValues.address },
    body: {
      required: true,
      description:
        `{threshold, weightedKeys: [{publicKey, weight}]}: 1 to 10 distinct public keys of the member's accounts on the chain, positive weights, a threshold they reach.`,
      schema: Description.domain("MultisigUpdateRequest", Multisig.UpdateRequest)
    },
    response: {
      description: "The account, its weighted keys (uncompressed, in the order given), the threshold, and the hash of the account update.",
      schema: Description.domain("MultisigAccount", Multisig.MultisigAccount)
    },
    errors: {
      400: `Not an account of the selected pool: ${C.CannotSignForAccount} "failed to get an account" (the spec's answer); corrupted: ${C.CannotSignForAccount}; disabled: ${C.AccountCannotSign}; already multisig (its key not its own): ${C.NotLegacyAccount}; a public key not of the member's accounts on the chain: ${C.DataNotExist}; threshold or weightedKeys missing: ${C.EmptyOrZero}; a key, weight or threshold the rules refuse: ${C.InvalidAccountKey}; insufficient funds for the fee: ${C.SendFailed}; ${badHeader}.`
    },
    handler: ({ body, caller, params, services }) =>
      Effect.flatMap(
        both(PathValues.parseAddress(params.address), RequestBody.parseMultisigUpdateBody(body)),
        ([address, update]) => Effect.flatMap(services.multisig.update(caller, address.toLowerCase(), update), Render.json(Multisig.MultisigAccount))
      )
  }),
  Route.make({
    method: "GET",
    path: "/v2/multisig/account/{address}/tx",
    operationId: "RetrieveMultisigTransactions",
    summary: "List the member's transactions waiting for signers whose sender, or one of whose signers, is the address, newest first",
    access: "memberWide",
    pathParameters: { address: PathValues.address },
    query: Listing.parameters("feePayer"),
    response: {
      description:
        `A page of at least one transaction; cursor is "" exactly when none remains after it. status: ${MultisigOperations.ListedStatus.Unsigned} before the first signature, ${MultisigOperations.ListedStatus.Signed} below the threshold, ${MultisigOperations.ListedStatus.Waiting} at it while an earlier transaction of the account waits.`,
      schema: Description.domain("PendingTransactionPage", Multisig.PendingTransactionPage)
    },
    errors: {
      400: `Nothing waiting: ${C.DataNotExist} (the spec's "No content"); a bad query value: ${C.OutOfRange} (size, cursor, from-timestamp, to-timestamp); a bad address: ${C.NotKlaytnAddress}; ${badHeader}.`
    },
    handler: ({ caller, params, query, services }) =>
      Effect.flatMap(
        both(PathValues.parseAddress(params.address), Listing.parseQuery(query, "feePayer")),
        ([address, request]) =>
          Effect.flatMap(
            services.multisig.list(
              { memberId: caller.memberId, accountId: caller.accountId, chainId: caller.chainId },
              address.toLowerCase(),
              request
            ),
            (page) => Effect.map(Effect.forEach(page.items, renderPending), (items) => Render.itemsThenCursor(items, page.cursor))
          )
      )
  }),
  Route.make({
    method: "POST",
    path: "/v2/multisig/account/{address}/tx/{transaction-id}/sign",
    operationId: "SignPendingTransaction",
    summary:
      "A signer (an account of the selected pool holding one of the transaction's keys) signs a pending transaction; its weight reaching the threshold sends it",
    access: "accountPool",
    pathParameters: { address: PathValues.address, "transaction-id": PathValues.transactionId },
    response: {
      description: "Signed (below the threshold, with the signers yet to sign in reminders) or Submitted (with the transaction's hash).",
      schema: Description.domain("SignatureStatus", Multisig.SignatureStatus)
    },
    errors: {
      400: `${idErrors}; the signer not an account of the selected pool: ${C.DataNotExist}; not one of the transaction's signers, or signed already: ${C.AccountCannotSign}; the signer corrupted: ${C.CannotSignForAccount}; sending refused by the node (funds, ...): ${C.SendFailed}, the signature not kept; ${badHeader}.`
    },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(accountAndId(params), ([signer, id]) => Effect.flatMap(services.multisig.sign(caller, signer, id), renderStatus))
  }),
  Route.make({
    method: "POST",
    path: "/v2/multisig/tx/{transaction-id}/sign",
    operationId: "SignPendingTransactionBySig",
    summary:
      "Add signatures made elsewhere to a pending transaction (each recovers one of its keys); their weight reaching the threshold sends it",
    access: "keyService",
    pathParameters: { "transaction-id": PathValues.transactionId },
    body: {
      required: true,
      description: "{signatures: [{V, R, S}]}: 1 to 10 signatures of the transaction's sender signing hash on the request's chain.",
      schema: Description.domain("AppendSignaturesRequest", Multisig.AppendRequest)
    },
    response: {
      description: "Signed (below the threshold) or Submitted (with the transaction's hash); weight: what these signatures added.",
      schema: Description.domain("SignatureStatus", Multisig.SignatureStatus)
    },
    errors: {
      400: `${idErrors}; signatures missing: ${C.EmptyOrZero}; malformed, or one that recovers no key on this chain: ${C.OutOfRange}; one from a key not among the signers, or signed already: ${C.AccountCannotSign} (naming its address); sending refused by the node: ${C.SendFailed}, nothing kept; bad header: ${C.EmptyOrZero}, ${C.OutOfRange} (x-chain-id).`
    },
    handler: ({ body, caller, params, services }) =>
      Effect.flatMap(
        both(PathValues.parseTransactionId(params["transaction-id"]), RequestBody.parseAppendBody(body)),
        ([id, request]) => Effect.flatMap(services.multisig.append(caller, id, request.signatures), renderStatus)
      )
  }),
  Route.make({
    method: "POST",
    path: "/v2/account/{address}/tx/{transaction-id}/sign",
    operationId: "SignTransactionIDResponse",
    summary: "An account of the selected pool signs a pending transaction: its signature, to add with POST /v2/multisig/tx/{transaction-id}/sign (nothing is kept)",
    access: "accountPool",
    pathParameters: { address: PathValues.address, "transaction-id": PathValues.transactionId },
    response: {
      description: "{R, S, V}: the account's signature of the transaction's sender signing hash on the request's chain.",
      schema: Description.domain("Signature", Transaction.Signature)
    },
    errors: {
      400: `${idErrors}; the account not in the selected pool: ${C.DataNotExist}; corrupted: ${C.CannotSignForAccount}; disabled: ${C.AccountCannotSign}; ${badHeader}.`
    },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(accountAndId(params), ([address, id]) => Effect.flatMap(services.multisig.signatureOf(caller, address, id), Render.json(Transaction.Signature)))
  })
]
