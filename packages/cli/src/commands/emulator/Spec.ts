/**
 * The command table of `kas-wallet emulator`: serving the emulator (its own options come from the
 * emulator's `EmulatorConfig.fields`), and its commands, `console/Spec` (`env`, `member`, `key`,
 * `pool`) and `ledger/Spec` (`fund`, `balance`, `bill`, `mine`). The handlers are in `Handlers`.
 *
 * Plain data with no runtime import but the table's own (help stays free of effect): the
 * emulator's option table is given to `spec` by whoever loaded it.
 *
 * @since 0.9.0
 */
import type { EmulatorConfig } from "effect-kas-wallet-emulator"
import * as Spec from "../../input/Spec.js"
import * as ConsoleSpec from "./console/Spec.js"
import * as LedgerSpec from "./ledger/Spec.js"

/**
 * The port `kas-wallet emulator` listens on by default (the library's layer picks a free one).
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultEmulatorPort = 8787

/**
 * The flags of `kas-wallet emulator` that are not options of the emulator itself, by key.
 *
 * @since 0.1.0
 * @category flags
 */
export const flags = {
  dataDir: ConsoleSpec.flags.dataDir,
  ephemeral: {
    name: "ephemeral",
    description: "a throwaway run in memory: nothing kept",
    example: "--ephemeral --port 0"
  },
  secretAccessKeyFile: {
    name: "secret-access-key-file",
    value: "PATH",
    env: "KAS_SECRET_ACCESS_KEY_FILE",
    description: "file holding that Secret AccessKey",
    example: "--secret-access-key-file ./secret",
    files: true
  }
} as const satisfies Record<string, Spec.Flag>

/**
 * The flag of an emulator option of `EmulatorConfig.fields`, with the defaults of
 * `kas-wallet emulator` where they differ from the library's layer.
 *
 * @since 0.1.0
 * @category flags
 */
export const emulatorFlag = (field: EmulatorConfig.Field): Spec.Flag => {
  const defaults: Record<string, string> = {
    port: String(DefaultEmulatorPort),
    db: "<data dir>/emulator.db"
  }
  // Where a secret can be read from a file instead of the command line.
  const alternatives: Record<string, string> = {
    "master-key": "master-key-file",
    "secret-access-key": "secret-access-key-file"
  }
  const fallback = defaults[field.flag] ?? field.default
  return {
    name: field.flag,
    value: field.value,
    env: field.env,
    ...(fallback !== undefined ? { default: fallback } : {}),
    description: field.description,
    example: `--${field.flag} ${field.example}`,
    ...(field.secret ? { secret: true } : {}),
    ...(alternatives[field.flag] !== undefined ? { alternative: alternatives[field.flag] } : {}),
    ...(field.kind === "string" && (field.flag === "db" || field.flag.endsWith("-file")) ? { files: true } : {})
  }
}

/**
 * `kas-wallet emulator` and its commands. Without `fields` (`EmulatorConfig.fields`) the
 * emulator's own flags are left out: only its help and the completions need them.
 *
 * @since 0.9.0
 * @category commands
 */
export const spec = (fields: typeof EmulatorConfig.fields | undefined) => {
  const options = (...names: ReadonlyArray<EmulatorConfig.Name>): ReadonlyArray<Spec.Flag> =>
    fields !== undefined ? names.map((name) => emulatorFlag(fields[name])) : []
  return Spec.parent({
    path: ["emulator"],
    summary: "run a local emulator of the wallet API, which keeps its data",
    description: ["Serve a local KAS wallet API; print its KAS_* settings, then `listening on URL`."],
    groups: [
      {
        title: "Server and data",
        flags: [...options("host", "port"), flags.dataDir, flags.ephemeral]
      },
      {
        title: "Storage, mining, EVM and faults",
        flags: options(
          "database",
          "authToken",
          "masterKey",
          "masterKeyFile",
          "mining",
          "blockInterval",
          "evmGasCap",
          "evmTimeout",
          "evmWorkers",
          "faultRate",
          "faultSeed",
          "faultKinds",
          "faultLatency",
          "faultRetryAfter"
        ),
        more: true
      },
      {
        title: "Member key (default: the stored one)",
        flags: [...options("accessKeyId"), flags.secretAccessKeyFile, ...options("secretAccessKey", "accountId")],
        more: true
      }
    ],
    subcommands: [...ConsoleSpec.commands, ...LedgerSpec.commands],
    runs: true,
    examples: [
      "kas-wallet emulator   # then elsewhere: eval \"$(kas-wallet emulator env)\""
    ]
  })
}
