/**
 * The one place where the domain's failures become answers: each refusal of the domain
 * (`Refusal`) and each refusal of the console (`ConsoleError`), with the HTTP status and KAS code
 * the service answers it with, and its message.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import type * as EmulatorConsole from "../console/EmulatorConsole.js"
import * as Refusal from "../Refusal.js"
import * as ApiErrors from "./ApiError.js"
import { ApiError, Code } from "./ApiError.js"

/**
 * The KAS code of each refusal of the domain. Where the reference is silent, the code is the
 * emulator's choice, documented at the refusal's routes.
 *
 * @since 0.10.0
 * @category mapping
 */
export const codes: { readonly [T in Refusal.Refusal["_tag"]]: number } = {
  Missing: Code.EmptyOrZero,
  OutOfRange: Code.OutOfRange,
  NotFound: Code.DataNotExist,
  FeePayerNotFound: Code.FeePayerNotFound,
  AlreadyDisabled: Code.AlreadyDisabled,
  AlreadyEnabled: Code.AlreadyEnabled,
  NotMemberAccount: Code.CannotSignForAccount,
  AccountCorrupted: Code.CannotSignForAccount,
  CannotSign: Code.AccountCannotSign,
  NodeRefused: Code.SendFailed,
  TransactionNotFound: Code.TransactionNotFound,
  AlreadySubmitted: Code.AlreadySubmitted,
  NotLegacyAccount: Code.NotLegacyAccount,
  IntervalMining: Code.OutOfRange,
  InstantMining: Code.OutOfRange,
  TimeBeforeBlock: Code.OutOfRange
}

/**
 * The answer to a failure of the domain: every refusal is the caller's (400), with its code and
 * the service's words; a corrupted account read is `1065102`, where signing for it is `1065100`.
 * A console refusal is `1061010` for an unknown member, `1061615` otherwise, with the console's
 * message.
 *
 * @since 0.10.0
 * @category mapping
 */
export const toApiError = (failure: Refusal.Refusal | EmulatorConsole.ConsoleError): ApiError => {
  switch (failure._tag) {
    case "ConsoleError":
      return new ApiError({
        status: 400,
        code: failure.reason === "MemberNotFound" ? Code.DataNotExist : Code.OutOfRange,
        message: failure.message
      })
    case "NodeRefused":
      // The node's own words go along: the node route answers them in its JSON-RPC error.
      return new ApiError({ status: 400, code: codes.NodeRefused, message: failure.message, reason: failure.reason })
    case "AccountCorrupted":
      return new ApiError({
        status: 400,
        code: failure.use === "read" ? Code.CorruptedAccount : codes.AccountCorrupted,
        message: failure.message
      })
    default:
      return new ApiError({ status: 400, code: codes[failure._tag], message: failure.message })
  }
}

/**
 * The answer to a value of a request the operation table's schemas refused (`Input`): the code the
 * value's `Refusal` declares, for the field it names, with the service's message for that code
 * (`detail`: what the schema said, for the codes whose message carries it).
 *
 * @since 0.10.0
 * @category mapping
 */
export const ofCode = (code: number, field: string, detail?: string): ApiError => {
  switch (code) {
    case Code.EmptyOrZero:
      return ApiErrors.missing(field)
    case Code.NotHex:
      return ApiErrors.notHex(field)
    case Code.NotKlaytnAddress:
      return ApiErrors.notAddress(field)
    case Code.FeeRatioOutOfRange:
      return ApiErrors.feeRatioOutOfRange()
    case Code.DataNotExist:
      return ApiErrors.dataNotExist()
    case Code.TransactionNotFound:
      return ApiErrors.transactionNotFound()
    case Code.InvalidAccountKey:
      return ApiErrors.refused(code, `failed to decode account keys; ${detail ?? field}`)
    case Code.LegacyKeyInRoleBased:
      return ApiErrors.refused(code, "AccountKeyLegacy type is not supported in AccountKeyRoleBased type")
    default:
      return ApiErrors.outOfRange(field)
  }
}
