/**
 * The operation table's path templates as `HttpApi` and `HttpRouter` paths, apart from the
 * derived `HttpApi` (httpApiDerived.ts) so that a router can use them without building it.
 *
 * Path parameters there are `:name` where `name` is a word: find-my-way ends a parameter's name at
 * `-` or `.` (a static part follows), and `HttpApiClient` fills `:(\w+)`, so `{public-key}`,
 * `{key-id}`, `{transaction-hash}` and `{transaction-id}` become `:publicKey`, `:keyId`, ...
 */

/** A table's parameter name as an `HttpApi` path parameter: `public-key` → `publicKey`. */
export const paramName = (name: string): string => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())

/** A table's path template as an `HttpApi` path: `/v2/pubkey/{public-key}/account` → `/v2/pubkey/:publicKey/account`. */
export const httpApiPath = (path: string): `/${string}` =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => `:${paramName(name)}`) as `/${string}`
