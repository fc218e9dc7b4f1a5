/**
 * A short, single-line rendering of an offending value for validation messages.
 *
 * @internal
 */
export const show = (u: unknown): string => {
  if (typeof u === "string") return JSON.stringify(u.length > 80 ? `${u.slice(0, 77)}...` : u)
  if (typeof u === "number" || typeof u === "boolean" || typeof u === "bigint" || u == null) return String(u)
  if (u instanceof Date) return Number.isNaN(u.getTime()) ? "Invalid Date" : u.toISOString()
  return Array.isArray(u) ? "an array" : `a ${typeof u}`
}
