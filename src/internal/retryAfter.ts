/**
 * `Retry-After` (RFC 9110 §10.2.3), the one rule: delay-seconds or an HTTP date, never negative,
 * never longer than the policy's `maxRetryAfter`.
 *
 * @internal
 */
import { Duration } from "effect"
import { DefaultRetryPolicy, type RetryPolicy } from "../WalletConfig.js"

/**
 * Milliseconds to wait, or `undefined` when the header is absent or unreadable. A date in the
 * past gives 0. A hostile or broken server may ask for years: the wait is clamped to `maxRetryAfter`
 * of the policy (of the default policy when retries are off), so no error carries, and no retry
 * waits, longer.
 *
 * @internal
 */
export const retryAfterMillis = (
  value: string | undefined,
  nowMillis: number,
  policy: Pick<RetryPolicy, "maxRetryAfter"> | undefined
): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  const date = /^\d+$/.test(trimmed) ? undefined : Date.parse(trimmed)
  const wait = date === undefined ? Number(trimmed) * 1000 : Number.isNaN(date) ? undefined : Math.max(0, date - nowMillis)
  if (wait === undefined) return undefined
  return Math.min(wait, Duration.toMillis((policy ?? DefaultRetryPolicy).maxRetryAfter))
}
