/**
 * The route table of the emulated API: every route, in the document's order. The router
 * (`Router.make`) and the OpenAPI document (`OpenApi.document`) are both derived from it.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import * as Accounts from "./routes/Accounts.js"
import * as Console from "./routes/Console.js"
import * as FeePayers from "./routes/FeePayers.js"
import * as History from "./routes/History.js"
import * as Keys from "./routes/Keys.js"
import * as Multisig from "./routes/Multisig.js"
import * as Registration from "./routes/Registration.js"
import * as Node from "./routes/Node.js"
import type * as Route from "./Route.js"
import * as Service from "./routes/Service.js"
import * as Transactions from "./routes/Transactions.js"

/**
 * Every route of the emulator.
 *
 * @since 0.3.0
 * @category routes
 */
export const table: ReadonlyArray<Route.Route> = [
  ...Accounts.routes,
  ...Multisig.routes,
  ...FeePayers.routes,
  ...Transactions.routes,
  ...Keys.routes,
  ...Registration.routes,
  ...History.routes,
  ...Node.routes,
  ...Service.routes,
  ...Console.routes
]
