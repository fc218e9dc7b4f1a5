/**
 * The wire's routes as help names them (`updateToMultisig` as `PUT` and its path with `<address>`
 * for `{address}`), from `Operations`: a help text names the operation a command calls, never its
 * path.
 *
 * No runtime dependency but `Operations`: `--help` answers without loading effect.
 *
 * @since 0.9.0
 */
import { operations } from "./Operations.js"

/**
 * An operation's name.
 *
 * @since 0.9.0
 * @category models
 */
export type Operation = keyof typeof operations

/**
 * The path of an operation as help shows it: each `{parameter}` as `<parameter>`, or as the
 * argument of the command that fills it (`{ "transaction-hash": "hash" }` shows `<hash>`).
 *
 * @since 0.9.0
 * @category rendering
 */
export const path = (operation: Operation, argumentOf: Readonly<Record<string, string>> = {}): string =>
  operations[operation].path.replace(/\{([^}]+)\}/g, (_, parameter: string) => `<${argumentOf[parameter] ?? parameter}>`)

/**
 * An operation's method.
 *
 * @since 0.9.0
 * @category rendering
 */
export const method = (operation: Operation): string => operations[operation].method

/**
 * An operation's method and path, as help shows them: `route("getAccount")` is `GET`, a space, and
 * `path("getAccount")`.
 *
 * @since 0.9.0
 * @category rendering
 */
export const route = (operation: Operation, argumentOf?: Readonly<Record<string, string>>): string =>
  `${method(operation)} ${path(operation, argumentOf)}`
