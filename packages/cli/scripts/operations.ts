/**
 * Writes src/input/Operations.ts from the client's table of the wire (src/api/WalletApi.ts): the
 * command line's help names operations, and reads their methods and paths from that plain-data copy
 * so that `--help` loads no effect. `npm run generate -w effect-kas-wallet-cli` after a change of the
 * table; test/operations.test.ts fails while the file is not what this writes.
 */
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as WalletApi from "../../../src/api/WalletApi.js"

/** The file, as this script writes it. */
export const render = (): string =>
  `/**
 * The operations of the KAS wallet API, each one's method and path in the service's template form
 * (\`/v2/account/{address}\`): what the command line's help names. The one place of the command line
 * that writes the wire's paths; \`Route\` renders them for help.
 *
 * Generated from the client's table of the wire (src/api/WalletApi.ts) by scripts/operations.ts
 * (\`npm run generate -w effect-kas-wallet-cli\`): do not edit. Plain data with no import, so that
 * \`--help\` stays free of effect.
 *
 * @since 0.9.0
 */

/**
 * The operations, by name.
 *
 * @since 0.9.0
 * @category operations
 */
export const operations = {
${WalletApi.all.map((e) => `  ${/^[A-Za-z_$][\w$]*$/.test(e.name) ? e.name : JSON.stringify(e.name)}: { method: ${JSON.stringify(e.method)}, path: ${JSON.stringify(e.path)} }`).join(",\n")}
} as const
`

/** Where it goes. */
export const target = fileURLToPath(new URL("../src/input/Operations.ts", import.meta.url))

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(target, render())
