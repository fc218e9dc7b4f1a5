/**
 * Who pays a transaction's fee when the service sends it.
 *
 * - `UserFeePayer`: the member's own fee-payer account pays. On the wire, its address travels in
 *   the body field `feePayer`.
 * - `GlobalFeePayer`: the service pays first and bills the member later. On the wire, no fee-payer
 *   field is sent.
 *
 * The fee ratio of partial delegation (`FeeRatio`, 1..99 percent) goes with either choice.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import type * as Address from "./Address.js"
import { show } from "./internal/show.js"

/**
 * Fees paid by the member's own fee-payer account at `address`.
 *
 * @since 0.1.0
 * @category models
 */
export class UserFeePayer extends Schema.TaggedClass<UserFeePayer>()("UserFeePayer", {
  /** The fee-payer account's address, as given: checked (any case, or EIP-55) when a transfer is made. */
  address: Schema.String
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
export const user = (address: Address.Address | string): FeePayer => new UserFeePayer({ address })

/**
 * The service pays the fee first and bills the member later (GlobalFeePayer).
 *
 * @since 0.2.0
 * @category constructors
 */
export const global: FeePayer = new GlobalFeePayer()
