/**
 * The multisig routes: the update of an account to a weighted multisig key, the listing of the
 * transactions waiting for signers, the signatures of a member's signer or made elsewhere, and an
 * account's signature of a pending transaction (answered, not kept). Each is an operation of the
 * client's table (`WalletApi.multisig`): this module holds what the emulator adds, its handlers.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.8.0
 * @internal
 */
import { Effect } from "effect"
import { AccountKey, Pagination } from "effect-kas-wallet"
import * as WalletApi from "effect-kas-wallet/WalletApi"
import * as ApiError from "../ApiError.js"
import * as Listing from "../Listing.js"
import * as RequestBody from "../RequestBody.js"
import * as Route from "../Route.js"
import * as MultisigOperations from "../../services/Multisig.js"

const C = ApiError.Code
const api = WalletApi.multisig
const badHeader = `bad header: ${C.EmptyOrZero}, ${C.OutOfRange}, ${C.DataNotExist} (x-krn)`
const idErrors = `the transaction id not hex: ${C.NotHex}; not a transaction of the member on the chain waiting for signers (unknown, another member's or chain's, dropped): ${C.DataNotExist}; already sent: ${C.AlreadySubmitted} "already submitted transaction. Confirm transaction hash; <hash>"`

/**
 * The multisig routes, in the document's order.
 *
 * @since 0.8.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.operation(api.updateToMultisig, {
    summary:
      "Update an account of the selected pool to a weighted multisig key of its member's keys: an account update it signs and pays for; its transactions then wait for its signers",
    response: "The account, its weighted keys (uncompressed, in the order given), the threshold, and the hash of the account update.",
    errors: `Not an account of the selected pool: ${C.CannotSignForAccount} "failed to get an account" (the spec's answer); corrupted: ${C.CannotSignForAccount}; disabled: ${C.AccountCannotSign}; already multisig (its key not its own): ${C.NotLegacyAccount}; a public key not of the member's accounts on the chain: ${C.DataNotExist}; threshold or weightedKeys missing: ${C.EmptyOrZero}; a key, weight or threshold the rules refuse: ${C.InvalidAccountKey}; insufficient funds for the fee: ${C.SendFailed}; ${badHeader}.`,
    handler: ({ caller, path, payload, services }) =>
      Effect.flatMap(
        // The key as the chain encodes it: one it refuses (a key off the curve) is a key the service cannot decode.
        RequestBody.encodeAccountKey({ keyType: AccountKey.KeyType.WeightedMultiSig, key: payload }),
        (key) => services.multisig.update(caller, path.address.toLowerCase(), { request: payload, key })
      )
  }),
  Route.operation(api.listMultisigTransactions, {
    summary: "List the member's transactions waiting for signers whose sender, or one of whose signers, is the address, newest first",
    response: `A page of at least one transaction; cursor is "" exactly when none remains after it. status: ${MultisigOperations.ListedStatus.Unsigned} before the first signature, ${MultisigOperations.ListedStatus.Signed} below the threshold, ${MultisigOperations.ListedStatus.Waiting} at it while an earlier transaction of the account waits.`,
    errors: `Nothing waiting: ${C.DataNotExist} (the spec's "No content"); a bad query value: ${C.OutOfRange} (size, cursor, from-timestamp, to-timestamp); a bad address: ${C.NotKlaytnAddress}; ${badHeader}.`,
    handler: ({ caller, path, query, services }) =>
      Effect.map(
        services.multisig.list(
          { memberId: caller.memberId, accountId: caller.accountId, chainId: caller.chainId },
          path.address.toLowerCase(),
          Listing.request(query, "all")
        ),
        (page) => ({ items: page.items, cursor: Pagination.Cursor.make(page.cursor) })
      )
  }),
  Route.operation(api.signMultisigTransaction, {
    summary:
      "A signer (an account of the selected pool holding one of the transaction's keys) signs a pending transaction; its weight reaching the threshold sends it",
    response: "Signed (below the threshold, with the signers yet to sign in reminders) or Submitted (with the transaction's hash).",
    errors: `${idErrors}; the signer not an account of the selected pool: ${C.DataNotExist}; not one of the transaction's signers, or signed already: ${C.AccountCannotSign}; the signer corrupted: ${C.CannotSignForAccount}; sending refused by the node (funds, ...): ${C.SendFailed}, the signature not kept; ${badHeader}.`,
    handler: ({ caller, path, services }) => services.multisig.sign(caller, path.address.toLowerCase(), path["transaction-id"])
  }),
  Route.operation(api.appendSignatures, {
    summary:
      "Add signatures made elsewhere to a pending transaction (each recovers one of its keys); their weight reaching the threshold sends it",
    response: "Signed (below the threshold) or Submitted (with the transaction's hash); weight: what these signatures added.",
    errors: `${idErrors}; signatures missing: ${C.EmptyOrZero}; malformed, or one that recovers no key on this chain: ${C.OutOfRange}; one from a key not among the signers, or signed already: ${C.AccountCannotSign} (naming its address); sending refused by the node: ${C.SendFailed}, nothing kept; bad header: ${C.EmptyOrZero}, ${C.OutOfRange} (x-chain-id).`,
    handler: ({ caller, path, payload, services }) => services.multisig.append(caller, path["transaction-id"], payload.signatures)
  }),
  Route.operation(api.signTransactionById, {
    summary: `An account of the selected pool signs a pending transaction: its signature, to add with ${api.appendSignatures.method} ${api.appendSignatures.path} (nothing is kept)`,
    response: "{R, S, V}: the account's signature of the transaction's sender signing hash on the request's chain.",
    errors: `${idErrors}; the account not in the selected pool: ${C.DataNotExist}; corrupted: ${C.CannotSignForAccount}; disabled: ${C.AccountCannotSign}; ${badHeader}.`,
    handler: ({ caller, path, services }) => services.multisig.signatureOf(caller, path.address.toLowerCase(), path["transaction-id"])
  })
]
