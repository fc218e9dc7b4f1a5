/**
 * Options of an emulator, and reading them from the environment (Effect `Config`).
 *
 * One table, `fields`, lists every option: its environment variable, its `kas-wallet emulator`
 * flag, its default, a description and whether it is a secret. `config` (the environment) and the
 * command line's flags are both derived from it, so they cannot drift apart.
 *
 * @since 0.1.0
 */
// Deep imports, and no runtime import of the other emulator modules: `kas-wallet emulator --help`
// renders its options from `fields` without loading the emulator, its database or all of effect.
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import type * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type * as Faults from "./http/Faults.js"

/**
 * A member key to register at start (if not registered yet).
 *
 * @since 0.1.0
 * @category models
 */
export interface MemberKey {
  readonly accessKeyId: string
  readonly secretAccessKey: Redacted.Redacted<string>
  /**
   * The member to register it for: created with this account id when it does not exist. A new
   * member with a fresh UUID when absent.
   */
  readonly accountId?: string | undefined
}

/**
 * Options of an emulator. Every one is optional.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Interface to listen on. Default `127.0.0.1`. */
  readonly host?: string | undefined
  /** Port to listen on; 0 picks a free one. Default 0. */
  readonly port?: number | undefined
  /**
   * Where the data lives: `":memory:"` (default: a private database removed on shutdown), a file
   * path or `file:` URL, `file::memory:?cache=shared`, or a `libsql://` / `http(s)://` / `ws(s)://`
   * URL of a libSQL server. See `Database`.
   */
  readonly database?: string | undefined
  /** Auth token of a `libsql://` server. */
  readonly authToken?: Redacted.Redacted<string> | undefined
  /**
   * Master key encrypting account private keys at rest (any string; a key is derived from it with
   * scrypt). Default: the key file.
   */
  readonly masterKey?: Redacted.Redacted<string> | undefined
  /**
   * File holding the master key, created (mode 0600) with a random key when absent. Default:
   * `<database file>.key` for a file database, `.kas-wallet/emulator.key` for a remote one; an
   * in-memory database uses a key living as long as the process.
   */
  readonly masterKeyFile?: string | undefined
  /** A member key to make sure of at start. Default: a new member and key are created. */
  readonly member?: MemberKey | undefined
  /** Fault injection. Default: off. */
  readonly faults?: Faults.Options | undefined
  /**
   * Time between two blocks of the ledger: a transaction is committed (its receipt leaves
   * `Pending`) when the next block is made. At least 1 millisecond. Default 1 second.
   */
  readonly blockInterval?: Duration.DurationInput | undefined
  /**
   * How blocks are made, as anvil's mining modes: `"interval"` (default), one every
   * `blockInterval`, a transaction waiting in the pending pool until then (where a cancel or a
   * replacement of its nonce takes its place); `"instant"`, a block per transaction, made before
   * the send answers (its receipt is `Committed` at once); `"manual"`, only when `mine` is called
   * (`Emulator.mine`, the console route, `kas-wallet emulator mine`), a transaction waiting in the
   * pending pool until then.
   *
   * @since 0.5.0
   */
  readonly mining?: Mining | undefined
  /**
   * The bounds of the EVM's runs (contract transactions, `contract/call`, the node's `eth_call` and
   * gas estimates). Default: go-ethereum's (50,000,000 gas, 5 seconds) and two worker threads.
   *
   * @since 0.11.0
   */
  readonly evm?: EvmOptions | undefined
}

/**
 * The bounds of the EVM's runs. Every one is optional.
 *
 * @since 0.11.0
 * @category models
 */
export interface EvmOptions {
  /**
   * The most gas a call may give the EVM (go-ethereum's `--rpc.gascap`): a call asking more, or
   * none, runs with this much; a contract transaction may give at most this or the block gas limit
   * (30,000,000), the lower. At least 21,000. Default 50,000,000.
   */
  readonly gasCap?: number | undefined
  /**
   * How long a run may take (go-ethereum's `--rpc.evmtimeout`): a call past it is stopped and
   * answered `execution aborted (timeout = 5s)`, a transaction past it is refused before it is
   * accepted. A gas estimate's runs share one such budget, and so do the calls of a JSON-RPC
   * batch. Default 5 seconds.
   */
  readonly timeout?: Duration.DurationInput | undefined
  /**
   * How many runs may go at once, each in its own worker thread, off the event loop. 1 to 64;
   * default one less than the machine's cores, at least 1 and at most 2 (a core is left to the
   * event loop).
   */
  readonly workers?: number | undefined
}

/**
 * How blocks are made (see `Options.mining`).
 *
 * @since 0.5.0
 * @category models
 */
export type Mining = "instant" | "interval" | "manual"

/**
 * The mining modes, in the order of help texts.
 *
 * @since 0.5.0
 * @category constants
 */
export const MiningModes: ReadonlyArray<Mining> = ["instant", "interval", "manual"]

/**
 * Default interface.
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultHost = "127.0.0.1"

/**
 * Default port: any free one.
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultPort = 0

/**
 * Default database of an emulator layer: private and in memory (`Database.Memory`).
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultDatabase = ":memory:"

/**
 * How an option's text is read: the matching `Config` constructor.
 *
 * @since 0.1.0
 * @category models
 */
export type Kind = "string" | "port" | "integer" | "number" | "duration" | "list" | "redacted"

/**
 * One option of the table.
 *
 * @since 0.1.0
 * @category models
 */
export interface Field {
  /** The environment variable. */
  readonly env: string
  /** The command-line flag, without its leading `--`. */
  readonly flag: string
  /** How its text is read. */
  readonly kind: Kind
  /** The placeholder of its value in help texts (`PORT`, `PATH`...). */
  readonly value: string
  /** The default, in words; `undefined` when the option is simply absent by default. */
  readonly default: string | undefined
  /** What it does, in one line. */
  readonly description: string
  /** A sample value. */
  readonly example: string
  /** Whether the value is a secret: read as `Redacted`, never printed, never in a process list. */
  readonly secret: boolean
}

/**
 * Every option of an emulator, in the order of `--help`. The defaults are those of `Emulator.layer`;
 * `kas-wallet emulator` changes two of them (a fixed port and a persistent data directory).
 *
 * @since 0.1.0
 * @category config
 */
export const fields = {
  host: {
    env: "KAS_EMULATOR_HOST",
    flag: "host",
    kind: "string",
    value: "HOST",
    default: DefaultHost,
    description: "interface to listen on",
    example: "0.0.0.0",
    secret: false
  },
  port: {
    env: "KAS_EMULATOR_PORT",
    flag: "port",
    kind: "port",
    value: "PORT",
    default: "0: a free port",
    description: "the port; 0 picks a free one",
    example: "0",
    secret: false
  },
  database: {
    env: "KAS_EMULATOR_DB",
    flag: "db",
    kind: "string",
    value: "PATH|URL",
    default: "in memory",
    description: "a file, :memory:, or a libSQL server's libsql:// or http(s):// URL",
    example: "./emulator.db",
    secret: false
  },
  authToken: {
    env: "KAS_EMULATOR_DB_AUTH_TOKEN",
    flag: "db-auth-token",
    kind: "redacted",
    value: "TOKEN",
    default: undefined,
    description: "auth token of a libsql:// server",
    example: "eyJhbGciOi...",
    secret: true
  },
  masterKey: {
    env: "KAS_EMULATOR_MASTER_KEY",
    flag: "master-key",
    kind: "redacted",
    value: "KEY",
    default: "the key file",
    description: "master key sealing the private keys at rest",
    example: "my-long-passphrase",
    secret: true
  },
  masterKeyFile: {
    env: "KAS_EMULATOR_MASTER_KEY_FILE",
    flag: "master-key-file",
    kind: "string",
    value: "PATH",
    default: "<database file>.key",
    description: "master key file, created with mode 0600 if absent",
    example: "./emulator.key",
    secret: false
  },
  accessKeyId: {
    env: "KAS_ACCESS_KEY_ID",
    flag: "access-key-id",
    kind: "string",
    value: "ID",
    default: undefined,
    description: "AccessKey ID to register at start if absent",
    example: "KASKEXAMPLEKEY0000000001",
    secret: false
  },
  secretAccessKey: {
    env: "KAS_SECRET_ACCESS_KEY",
    flag: "secret-access-key",
    kind: "redacted",
    value: "SECRET",
    default: undefined,
    description: "its Secret AccessKey",
    example: "my-secret",
    secret: true
  },
  accountId: {
    env: "KAS_ACCOUNT_ID",
    flag: "account-id",
    kind: "string",
    value: "ID",
    default: "a new member",
    description: "member to register it for, created if absent",
    example: "team-a",
    secret: false
  },
  faultRate: {
    env: "KAS_EMULATOR_FAULT_RATE",
    flag: "fault-rate",
    kind: "number",
    value: "RATE",
    default: "0: off",
    description: "fraction of requests (0 to 1) that get a fault",
    example: "0.2",
    secret: false
  },
  faultSeed: {
    env: "KAS_EMULATOR_FAULT_SEED",
    flag: "fault-seed",
    kind: "integer",
    value: "N",
    default: "0",
    description: "seed of the fault sequence: same seed, same faults",
    example: "42",
    secret: false
  },
  faultKinds: {
    env: "KAS_EMULATOR_FAULT_KINDS",
    flag: "fault-kinds",
    kind: "list",
    value: "KINDS",
    default: "all",
    description: "comma-separated kinds among latency, 429, 500, 503, drop",
    example: "429,503,drop",
    secret: false
  },
  faultLatency: {
    env: "KAS_EMULATOR_FAULT_LATENCY",
    flag: "fault-latency",
    kind: "duration",
    value: "DURATION",
    default: "250 millis",
    description: "delay a latency fault adds",
    example: "\"2 seconds\"",
    secret: false
  },
  faultRetryAfter: {
    env: "KAS_EMULATOR_FAULT_RETRY_AFTER",
    flag: "fault-retry-after",
    kind: "integer",
    value: "SECONDS",
    default: "1",
    description: "Retry-After of an injected 429, in seconds",
    example: "2",
    secret: false
  },
  blockInterval: {
    env: "KAS_EMULATOR_BLOCK_INTERVAL",
    flag: "block-interval",
    kind: "duration",
    value: "DURATION",
    default: "1 second",
    description: "time between blocks: a transaction commits in the next one",
    example: "\"200 millis\"",
    secret: false
  },
  mining: {
    env: "KAS_EMULATOR_MINING",
    flag: "mining",
    kind: "string",
    value: "MODE",
    default: "interval",
    description: "interval (a block every block interval), instant (a block per transaction) or manual (blocks only when mined)",
    example: "manual",
    secret: false
  },
  evmGasCap: {
    env: "KAS_EMULATOR_EVM_GAS_CAP",
    flag: "evm-gas-cap",
    kind: "integer",
    value: "GAS",
    default: "50000000",
    description: "most gas a contract call may use; contract transactions stay under it too",
    example: "10000000",
    secret: false
  },
  evmTimeout: {
    env: "KAS_EMULATOR_EVM_TIMEOUT",
    flag: "evm-timeout",
    kind: "duration",
    value: "DURATION",
    default: "5 seconds",
    description: "time a contract run may take (and a JSON-RPC batch's runs together)",
    example: "\"2 seconds\"",
    secret: false
  },
  evmWorkers: {
    env: "KAS_EMULATOR_EVM_WORKERS",
    flag: "evm-workers",
    kind: "integer",
    value: "N",
    default: "cores - 1, at most 2",
    description: "worker threads running contracts, off the event loop (1 to 64)",
    example: "1",
    secret: false
  }
} as const satisfies Record<string, Field>

/**
 * The name of an option in the table.
 *
 * @since 0.1.0
 * @category models
 */
export type Name = keyof typeof fields

interface KindValue {
  readonly string: string
  readonly port: number
  readonly integer: number
  readonly number: number
  readonly duration: Duration.Duration
  readonly list: ReadonlyArray<string>
  readonly redacted: Redacted.Redacted<string>
}

/**
 * The options as read, one value per field of the table, before they are checked together and
 * shaped into `Options`.
 *
 * @since 0.1.0
 * @category models
 */
export type Values = { readonly [K in Name]?: KindValue[(typeof fields)[K]["kind"]] | undefined }

const read = (field: Field): Config.Config<unknown> => {
  switch (field.kind) {
    case "string":
      return Config.string(field.env)
    case "port":
      // Not `Config.port`, which refuses 0: here 0 asks for any free port.
      return Config.integer(field.env).pipe(
        Config.validate({ message: "Expected a port number from 0 to 65535", validation: (n) => n >= 0 && n <= 65535 })
      )
    case "integer":
      return Config.integer(field.env)
    case "number":
      return Config.number(field.env)
    case "duration":
      return Config.duration(field.env)
    case "list":
      return Config.map(Config.array(Config.string(), field.env), (items) => items.filter((item) => item !== ""))
    case "redacted":
      return Config.redacted(field.env)
  }
}

/**
 * Every option of the table read from configuration (by default the environment), absent when
 * unset.
 *
 * @since 0.1.0
 * @category config
 */
export const values: Config.Config<Values> = Config.all(
  Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [name, Config.map(Config.option(read(field)), Option.getOrUndefined)])
  )
) as Config.Config<Values>

const keyPair = `${fields.accessKeyId.env} (--${fields.accessKeyId.flag}) and ${fields.secretAccessKey.env} (--${fields.secretAccessKey.flag}) must be given together`

/**
 * Checks the values together and shapes them into `Options`: the access key id and its secret go
 * together; fault kinds are checked when the emulator starts (`Faults.resolve`).
 *
 * @since 0.1.0
 * @category config
 */
export const fromValues = (v: Values): Either.Either<Options, string> => {
  if ((v.accessKeyId === undefined) !== (v.secretAccessKey === undefined)) return Either.left(keyPair)
  if (v.mining !== undefined && !(MiningModes as ReadonlyArray<string>).includes(v.mining)) {
    return Either.left(`${fields.mining.env} (--${fields.mining.flag}) must be ${MiningModes.slice(0, -1).join(", ")} or ${MiningModes[MiningModes.length - 1]}, got ${JSON.stringify(v.mining)}`)
  }
  const faults = v.faultRate !== undefined || v.faultSeed !== undefined || v.faultKinds !== undefined ||
    v.faultLatency !== undefined || v.faultRetryAfter !== undefined
  const evm = v.evmGasCap !== undefined || v.evmTimeout !== undefined || v.evmWorkers !== undefined
  return Either.right({
    host: v.host,
    port: v.port,
    database: v.database,
    authToken: v.authToken,
    masterKey: v.masterKey,
    masterKeyFile: v.masterKeyFile,
    member: v.accessKeyId !== undefined && v.secretAccessKey !== undefined
      ? { accessKeyId: v.accessKeyId, secretAccessKey: v.secretAccessKey, accountId: v.accountId }
      : undefined,
    faults: faults
      ? {
        rate: v.faultRate,
        seed: v.faultSeed,
        // Unknown kinds are refused by `Faults.resolve` when the emulator starts, with the list of
        // known ones; reading them as plain strings keeps this module free of the emulator.
        kinds: v.faultKinds as ReadonlyArray<Faults.Kind> | undefined,
        latency: v.faultLatency,
        retryAfter: v.faultRetryAfter
      }
      : undefined,
    blockInterval: v.blockInterval,
    mining: v.mining as Mining | undefined,
    // Their ranges are checked when the emulator starts, as the block interval's.
    evm: evm ? { gasCap: v.evmGasCap, timeout: v.evmTimeout, workers: v.evmWorkers } : undefined
  })
}

/**
 * The options from the environment, one variable per field of `fields`:
 *
 * | variable | option |
 * |---|---|
 * | `KAS_EMULATOR_HOST`, `KAS_EMULATOR_PORT` | `host`, `port` |
 * | `KAS_EMULATOR_DB`, `KAS_EMULATOR_DB_AUTH_TOKEN` | `database`, `authToken` |
 * | `KAS_EMULATOR_MASTER_KEY`, `KAS_EMULATOR_MASTER_KEY_FILE` | `masterKey`, `masterKeyFile` |
 * | `KAS_ACCESS_KEY_ID` + `KAS_SECRET_ACCESS_KEY` (+ `KAS_ACCOUNT_ID`) | `member` |
 * | `KAS_EMULATOR_FAULT_RATE`, `_SEED`, `_KINDS` (comma-separated), `_LATENCY` (e.g. `200 millis`), `_RETRY_AFTER` | `faults` |
 * | `KAS_EMULATOR_BLOCK_INTERVAL` (e.g. `200 millis`) | `blockInterval` |
 * | `KAS_EMULATOR_MINING` (`instant`, `interval` or `manual`) | `mining` |
 * | `KAS_EMULATOR_EVM_GAS_CAP`, `_TIMEOUT` (e.g. `2 seconds`), `_WORKERS` | `evm` |
 *
 * The access key id and secret go together: one without the other is a configuration error; a
 * mining mode other than `instant`, `interval` or `manual` is one too.
 *
 * @since 0.1.0
 * @category config
 */
export const config: Config.Config<Options> = Config.mapOrFail(values, (v) =>
  Either.mapLeft(fromValues(v), (message) => ConfigError.InvalidData([], message)))

/**
 * Options overlaid: every option set in `overrides` wins over `base`.
 *
 * @since 0.1.0
 * @category combinators
 */
export const merge = (base: Options, overrides: Options): Options => {
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) out[key] = value
  return out as Options
}
