/**
 * Options of an emulator, and reading them from the environment (Effect `Config`).
 *
 * @since 0.1.0
 */
import { Config, Option, type Redacted } from "effect"
import * as Database from "./Database.js"
import * as Faults from "./Faults.js"

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
}

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
 * Default database of an emulator layer: private and in memory.
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultDatabase = Database.Memory

const optional = <A>(config: Config.Config<A>): Config.Config<A | undefined> =>
  Config.map(Config.option(config), Option.getOrUndefined)

const kinds = Config.array(Config.literal(...Faults.Kinds)(), "KAS_EMULATOR_FAULT_KINDS")

/**
 * The options from the environment:
 *
 * | variable | option |
 * |---|---|
 * | `KAS_EMULATOR_HOST`, `KAS_EMULATOR_PORT` | `host`, `port` |
 * | `KAS_EMULATOR_DB`, `KAS_EMULATOR_DB_AUTH_TOKEN` | `database`, `authToken` |
 * | `KAS_EMULATOR_MASTER_KEY`, `KAS_EMULATOR_MASTER_KEY_FILE` | `masterKey`, `masterKeyFile` |
 * | `KAS_ACCESS_KEY_ID` + `KAS_SECRET_ACCESS_KEY` (+ `KAS_ACCOUNT_ID`) | `member` |
 * | `KAS_EMULATOR_FAULT_RATE`, `_SEED`, `_KINDS` (comma-separated), `_LATENCY` (e.g. `200 millis`), `_RETRY_AFTER` | `faults` |
 *
 * The access key id and secret go together: one without the other is a configuration error.
 *
 * @since 0.1.0
 * @category config
 */
export const config: Config.Config<Options> = Config.all({
  host: optional(Config.string("KAS_EMULATOR_HOST")),
  port: optional(Config.port("KAS_EMULATOR_PORT")),
  database: optional(Config.string("KAS_EMULATOR_DB")),
  authToken: optional(Config.redacted("KAS_EMULATOR_DB_AUTH_TOKEN")),
  masterKey: optional(Config.redacted("KAS_EMULATOR_MASTER_KEY")),
  masterKeyFile: optional(Config.string("KAS_EMULATOR_MASTER_KEY_FILE")),
  accessKeyId: optional(Config.string("KAS_ACCESS_KEY_ID")),
  secretAccessKey: optional(Config.redacted("KAS_SECRET_ACCESS_KEY")),
  accountId: optional(Config.string("KAS_ACCOUNT_ID")),
  rate: optional(Config.number("KAS_EMULATOR_FAULT_RATE")),
  seed: optional(Config.integer("KAS_EMULATOR_FAULT_SEED")),
  kinds: optional(kinds),
  latency: optional(Config.duration("KAS_EMULATOR_FAULT_LATENCY")),
  retryAfter: optional(Config.integer("KAS_EMULATOR_FAULT_RETRY_AFTER"))
}).pipe(
  Config.validate({
    message: "KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY must be set together",
    validation: (c) => (c.accessKeyId === undefined) === (c.secretAccessKey === undefined)
  }),
  Config.map((c): Options => ({
    host: c.host,
    port: c.port,
    database: c.database,
    authToken: c.authToken,
    masterKey: c.masterKey,
    masterKeyFile: c.masterKeyFile,
    member: c.accessKeyId !== undefined && c.secretAccessKey !== undefined
      ? { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, accountId: c.accountId }
      : undefined,
    faults: c.rate !== undefined
      ? {
        rate: c.rate,
        seed: c.seed,
        kinds: c.kinds,
        latency: c.latency,
        retryAfter: c.retryAfter
      }
      : undefined
  }))
)

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
