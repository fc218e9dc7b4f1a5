/**
 * effect-kas-wallet-emulator: a local, stateful, persistent emulator of the KAS wallet account API,
 * for the tests of applications using it.
 *
 * Every module is exported as a namespace, Effect style:
 * `import { Emulator, Faults } from "effect-kas-wallet-emulator"`. The emulator's machinery
 * (routes, queries, storage, cursors, key sealing) is internal.
 *
 * @since 0.1.0
 */

/**
 * The errors answered on the wire, and the codes used.
 *
 * @since 0.1.0
 */
export * as ApiError from "./http/ApiError.js"

/**
 * A typed client of a running emulator's console routes (fund, balance, mine, bills).
 *
 * @since 0.12.0
 */
export * as ConsoleClient from "./ConsoleClient.js"

/**
 * Members, API keys and account pools (the console's part).
 *
 * @since 0.1.0
 */
export * as EmulatorConsole from "./console/EmulatorConsole.js"

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
 * The test kit: a WalletClient on a private in-process emulator, in one layer.
 *
 * @since 0.12.0
 */
export * as EmulatorTest from "./EmulatorTest.js"

/**
 * Fault injection.
 *
 * @since 0.1.0
 */
export * as Faults from "./http/Faults.js"
