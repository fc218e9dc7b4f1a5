/**
 * The checks of the client's arguments, each naming the argument it refuses (`InvalidArgument`),
 * made before anything is sent; and the shape of an operation on one checked argument.
 *
 * @internal
 */
import { Effect, Either } from "effect"
import * as Account from "../Account.js"
import * as Address from "../Address.js"
import * as Amount from "../Amount.js"
import type * as Endpoint from "../api/Endpoint.js"
import * as FeeDelegation from "../FeeDelegation.js"
import * as Options from "../internal/options.js"
import * as Spans from "../internal/spans.js"
import * as Key from "../Key.js"
import * as KeyId from "../KeyId.js"
import * as Krn from "../Krn.js"
import * as PublicKey from "../PublicKey.js"
import * as Transaction from "../Transaction.js"
import type * as WalletError from "../WalletError.js"
import type * as Requests from "./Requests.js"

/** @internal */
export const validAddress = Options.argument("address", Address.Address)
/** @internal */
export const validPublicKey = Options.argument("publicKey", PublicKey.PublicKey)
/** @internal */
export const validStatus = Options.argument("status", Account.StatusFilterFromString)
/** @internal */
export const validHash = Options.argument("hash", Transaction.TxHash)
/** @internal */
export const validValue = Options.argument("value", Amount.PebFromSelf)
/** @internal */
export const validFeePayer = Options.argument("feePayer", FeeDelegation.FeePayer)
/** @internal */
export const validFeeRatio = Options.argument("feeRatio", FeeDelegation.FeeRatio)
/** @internal */
export const validFrom = Options.argument("from", Address.Address)
/** @internal */
export const validKeyIdString = Options.argument("keyId", KeyId.KeyId)
/**
 * A key id value (from a result) as it is; a string decoded.
 *
 * @internal
 */
export const validKeyId = (u: unknown): Either.Either<KeyId.KeyId, WalletError.InvalidArgument> =>
  KeyId.isKeyId(u) ? Either.right(u) : validKeyIdString(u)
/** @internal */
export const validSignable = Options.argument("hash", Key.SignableHash)
/** @internal */
export const validListKrn = Options.argument("krn", Krn.PoolKrn)
/** @internal */
export const validTransactionId = Options.argument("transactionId", Transaction.TransactionId)
/** @internal */
export const validSigner = Options.argument("signer", Address.Address)

/**
 * An operation on one address: the address checked first, then the operation run on the call's
 * target with the address in its path.
 *
 * @internal
 */
export const onAddress = <E extends Endpoint.Endpoint<string, `/${string}{address}${string}`>>(
  requests: Requests.Requests,
  endpoint: E,
  address: unknown,
  call: Options.Selection | undefined
): Effect.Effect<Endpoint.Success<E>, WalletError.WalletError> =>
  Effect.flatMap(Effect.zip(validAddress(address), requests.target(call)), ([checked, t]) =>
    requests.run(endpoint, t, { path: { address: checked } as never }, { attributes: { [Spans.SpanAttributes.address]: checked } }))
