/**
 * The command table of `kas-wallet tour`. Its handler is in `Handlers`.
 *
 * @since 0.9.0
 */
import * as Spec from "../../input/Spec.js"

/**
 * `kas-wallet tour`.
 *
 * @since 0.9.0
 * @category commands
 */
export const spec = Spec.command({
  path: ["tour"],
  summary: "a guided tour of the library against an in-process emulator",
  description: ["A walk through the library against an emulator started in-process: no key, no network."],
  examples: ["kas-wallet tour        # npm start, in a clone"]
})
