/**
 * The one error of the Klaytn codec, and how its helpers refuse: they throw, and each exported
 * function turns the refusal into a `KlaytnError` at its boundary, so that nothing the codec
 * exports throws.
 *
 * Part of `effect-kas-wallet/Klaytn` (src/Klaytn.ts), which re-exports its public names.
 *
 * @since 0.9.0
 */
import { Data, Either } from "effect"

/**
 * Why a transaction, an RLP value or a signature was refused.
 *
 * @since 0.1.0
 * @category errors
 */
export class KlaytnError extends Data.TaggedError("KlaytnError")<{ readonly reason: string }> {
  /** @since 0.1.0 */
  override get message(): string {
    return this.reason
  }
}

// The codec's helpers throw `Invalid`; every exported function catches it at its boundary (`guard`).
class Invalid extends Error {}

/**
 * Refuses, from inside a helper: throws what `guard` turns into a `KlaytnError`.
 *
 * @internal
 */
export const invalid = (reason: string): never => {
  throw new Invalid(reason)
}

/**
 * Runs a helper that may refuse (`invalid`), giving its refusal as a `KlaytnError`.
 *
 * @internal
 */
export const guard = <A>(f: () => A): Either.Either<A, KlaytnError> => {
  try {
    return Either.right(f())
  } catch (e) {
    if (e instanceof Invalid) return Either.left(new KlaytnError({ reason: e.message }))
    throw e
  }
}
