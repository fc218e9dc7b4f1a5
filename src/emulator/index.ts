/**
 * effect-kas-wallet/emulator: a local, stateful, persistent emulator of the KAS wallet account API.
 *
 * Every module is exported as a namespace, Effect style:
 * `import { Emulator, Faults } from "effect-kas-wallet/emulator"`.
 *
 * @since 0.1.0
 */

/**
 * The errors answered on the wire, and the codes used.
 *
 * @since 0.1.0
 */
export * as ApiError from "./ApiError.js"

/**
 * Key pairs of emulated accounts.
 *
 * @since 0.1.0
 */
export * as AccountKeys from "./AccountKeys.js"

/**
 * Members, API keys and account pools (the console's part).
 *
 * @since 0.1.0
 */
export * as Console from "./Console.js"

/**
 * API keys: generation, hashing, Basic credentials.
 *
 * @since 0.1.0
 */
export * as Credentials from "./Credentials.js"

/**
 * List cursors.
 *
 * @since 0.1.0
 */
export * as Cursor from "./Cursor.js"

/**
 * Database locations and opening.
 *
 * @since 0.1.0
 */
export * as Database from "./Database.js"

/**
 * The emulator service and its layers.
 *
 * @since 0.1.0
 */
export * as Emulator from "./Emulator.js"

/**
 * Emulator options and their environment variables.
 *
 * @since 0.1.0
 */
export * as EmulatorConfig from "./EmulatorConfig.js"

/**
 * Start-up and infrastructure errors.
 *
 * @since 0.1.0
 */
export * as EmulatorError from "./EmulatorError.js"

/**
 * Fault injection.
 *
 * @since 0.1.0
 */
export * as Faults from "./Faults.js"

/**
 * Encryption at rest of private keys.
 *
 * @since 0.1.0
 */
export * as KeyVault from "./KeyVault.js"

/**
 * Database migrations.
 *
 * @since 0.1.0
 */
export * as Migrations from "./Migrations.js"

/**
 * The OpenAPI document.
 *
 * @since 0.1.0
 */
export * as OpenApi from "./OpenApi.js"

/**
 * The HTTP routes.
 *
 * @since 0.1.0
 */
export * as Routes from "./Routes.js"

/**
 * The queries.
 *
 * @since 0.1.0
 */
export * as Store from "./Store.js"

/**
 * The wallet operations behind the routes.
 *
 * @since 0.1.0
 */
export * as Wallet from "./Wallet.js"
