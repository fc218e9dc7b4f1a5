/**
 * `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
 *
 * @internal
 */

/**
 * Milliseconds to wait, or `undefined` when the header is absent or unreadable. A date in the
 * past gives 0.
 *
 * @internal
 */
export const parseRetryAfter = (value: string | undefined, nowMillis: number): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMillis)
}
