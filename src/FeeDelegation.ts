/**
 * Who pays a transaction's fee when the service sends it.
 *
 * - `UserFeePayer`: the member's own fee-payer account pays. On the wire, its address travels in
 *   the body field `feePayer`.
 * - `GlobalFeePayer`: the service pays first and bills the member later. On the wire, no fee-payer
 *   field is sent.
 *
 * Spelling: the specification writes the field `fee_payer` in one place and `feePayer` in
 * another; the public KAS API reference uses `feePayer` (camelCase, like every other body field).
 * We encode `feePayer` only, and decode either spelling (both present must agree), so that a
 * request written either way is understood.
 *
 * @since 0.1.0
 */
import { ParseResult, Schema } from "effect"
import * as Address from "./Address.js"
import { show } from "./internal/show.js"

/**
 * Fees paid by the member's own fee-payer account at `address`.
 *
 * @since 0.1.0
 * @category models
 */
export class UserFeePayer extends Schema.TaggedClass<UserFeePayer>()("UserFeePayer", {
  address: Schema.typeSchema(Address.AddressFromSelf)
}) {}

/**
 * Fees paid by the service, billed to the member afterwards.
 *
 * @since 0.1.0
 * @category models
 */
export class GlobalFeePayer extends Schema.TaggedClass<GlobalFeePayer>()("GlobalFeePayer", {}) {}

/**
 * The fee-delegation choice.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FeePayer = Schema.Union(UserFeePayer, GlobalFeePayer).annotations({ identifier: "FeePayer" })

/**
 * @since 0.1.0
 * @category models
 */
export type FeePayer = typeof FeePayer.Type

/**
 * The body fields that carry the choice: `{ feePayer }` for a user fee payer, nothing for the
 * global fee payer.
 *
 * @since 0.1.0
 * @category models
 */
export interface FeeDelegationBody {
  readonly feePayer?: string
  readonly fee_payer?: string
}

const WireFields = Schema.Struct({
  feePayer: Schema.optionalWith(Schema.String, { exact: true }),
  fee_payer: Schema.optionalWith(Schema.String, { exact: true })
})
const decodeAddress = ParseResult.decodeUnknownEither(Address.Address)

/**
 * The wire codec between body fields and `FeePayer` (see the module notes for the spelling).
 *
 * @since 0.1.0
 * @category schemas
 */
export const FeeDelegation: Schema.Schema<FeePayer, FeeDelegationBody> = Schema.transformOrFail(
  WireFields,
  Schema.typeSchema(FeePayer),
  {
    strict: true,
    decode: (body, _, ast) => {
      const decodeField = (field: "feePayer" | "fee_payer") => {
        const raw = body[field]
        if (raw === undefined) return undefined
        const address = decodeAddress(raw)
        return address._tag === "Left" ? new ParseResult.Pointer(field, body, address.left) : address.right
      }
      const camel = decodeField("feePayer")
      const snake = decodeField("fee_payer")
      if (camel instanceof ParseResult.Pointer) return ParseResult.fail(camel)
      if (snake instanceof ParseResult.Pointer) return ParseResult.fail(snake)
      if (camel !== undefined && snake !== undefined && camel !== snake) {
        return ParseResult.fail(new ParseResult.Type(ast, body, "feePayer and fee_payer name different accounts"))
      }
      const address = camel ?? snake
      return ParseResult.succeed(address === undefined ? new GlobalFeePayer() : new UserFeePayer({ address }))
    },
    encode: (payer) => ParseResult.succeed(payer._tag === "UserFeePayer" ? { feePayer: payer.address } : {})
  }
).annotations({ identifier: "FeeDelegation" })

/**
 * The value-transfer path of the service for a fee-delegation choice (`undefined`: the sender pays).
 *
 * @since 0.1.0
 * @category utils
 */
export const valueTransferPath = (payer: FeePayer | undefined): string =>
  payer === undefined ? "/v2/tx/value" : payer._tag === "GlobalFeePayer" ? "/v2/tx/fd/value" : "/v2/tx/fd-user/value"

/**
 * The smallest fee ratio of partial delegation, in percent.
 *
 * @since 0.2.0
 * @category constants
 */
export const MinFeeRatio = 1

/**
 * The largest fee ratio of partial delegation, in percent (100 is written as no ratio at all).
 *
 * @since 0.2.0
 * @category constants
 */
export const MaxFeeRatio = 99

/**
 * The rule of a fee ratio, in the words every message about one uses.
 *
 * @since 0.2.0
 * @category constants
 */
export const FeeRatioRule = `fee ratio must be an integer from ${MinFeeRatio} to ${MaxFeeRatio}`

/**
 * Share of the fee the fee payer covers in partial delegation, in percent: an integer from
 * `MinFeeRatio` to `MaxFeeRatio` (absent means 100%).
 *
 * @since 0.1.0
 * @category schemas
 */
export const FeeRatio = Schema.Int.pipe(
  Schema.between(MinFeeRatio, MaxFeeRatio, { message: (issue) => `${FeeRatioRule}, got ${show(issue.actual)}` }),
  Schema.brand("FeeRatio")
).annotations({ identifier: "FeeRatio" })

/**
 * @since 0.1.0
 * @category models
 */
export type FeeRatio = typeof FeeRatio.Type

/**
 * The member's own fee-payer account at `address` pays the fee (UserFeePayer).
 *
 * @since 0.2.0
 * @category constructors
 */
export const user = (address: Address.Address): FeePayer => new UserFeePayer({ address })

/**
 * The service pays the fee first and bills the member later (GlobalFeePayer).
 *
 * @since 0.2.0
 * @category constructors
 */
export const global: FeePayer = new GlobalFeePayer()
