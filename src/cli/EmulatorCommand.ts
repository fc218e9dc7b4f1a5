/**
 * `kas-wallet emulator`: serves the emulator (the default action) and manages its members, keys and
 * pools (`member`, `key`, `pool` subcommands) directly in its database.
 *
 * @since 0.1.0
 */
import { Command, Options } from "@effect/cli"
import type { SqlError } from "@effect/sql"
import { Config, Console, Effect, Option, Redacted } from "effect"
import * as ChainId from "../ChainId.js"
import * as EmulatorConsole from "../emulator/Console.js"
import * as Database from "../emulator/Database.js"
import * as Emulator from "../emulator/Emulator.js"
import type * as EmulatorConfig from "../emulator/EmulatorConfig.js"
import * as Faults from "../emulator/Faults.js"
import * as EnvOption from "./EnvOption.js"
import * as ExitCode from "./ExitCode.js"

const db = Options.text("db").pipe(
  Options.withFallbackConfig(Config.string("KAS_EMULATOR_DB")),
  Options.withDefault(Database.DefaultFile),
  Options.withDescription(
    `Database: a file path, a file: URL, ":memory:", or a libsql:// / http(s):// URL of a libSQL server (env KAS_EMULATOR_DB; default ${Database.DefaultFile})`
  )
)

const accountIdRequired = Options.text("account-id").pipe(
  Options.withDescription("Account id of the member (a UUID, as printed by `member create`)")
)

const chainId = Options.choice("chain-id", ["8217", "1001"]).pipe(
  Options.map((s) => (s === "8217" ? ChainId.Mainnet : ChainId.Testnet)),
  Options.withDescription("Chain: 8217 (mainnet) or 1001 (testnet)")
)

const optionalValue = <A>(o: Option.Option<A>): A | undefined => Option.getOrUndefined(o)

// Expected failures end the command with one line on stderr and an exit code of `ExitCode`
// (bad options, configuration, console refusals: 2); anything else (a storage failure, a bug) is 1.
const reportFailure = <A, E extends { readonly _tag: string; readonly message: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchAll(effect, (error) =>
    Console.error(`kas-wallet emulator: ${error.message}`).pipe(
      Effect.zipRight(Effect.sync(() => {
        process.exitCode = exitCodeOf(error)
      }))
    ))

/**
 * The exit code of a failure of the emulator commands: 2 (invalid argument or configuration) for
 * invalid options, database locations, master keys, member keys, ports in use and console
 * refusals; 1 (unexpected) for storage failures and anything else.
 *
 * @since 0.1.0
 * @category errors
 */
export const exitCodeOf = (error: { readonly _tag: string }): number =>
  error._tag === "EmulatorError" || error._tag === "ConsoleError" || error._tag === "InvalidOptions"
    ? ExitCode.ExitCode.InvalidArgument
    : ExitCode.ExitCode.Unexpected

const withConsole = <A>(
  database: string,
  f: (console: EmulatorConsole.Service) => Effect.Effect<A, EmulatorConsole.ConsoleError | SqlError.SqlError>
) => reportFailure(Effect.flatMap(EmulatorConsole.Console, f).pipe(Effect.provide(EmulatorConsole.layerDatabase({ database }))))

const printNewKey = (key: EmulatorConsole.NewApiKey) =>
  Console.log(
    [
      `access key id: ${key.accessKeyId}`,
      `secret access key: ${Redacted.value(key.secretAccessKey)}`,
      `authorization: ${Redacted.value(key.authorization)}`,
      "(the secret is shown this once: only its hash is stored)"
    ].join("\n")
  )

// ---------------------------------------------------------------------------------------------
// member
// ---------------------------------------------------------------------------------------------

const memberCreate = Command.make(
  "create",
  {
    db,
    accountId: Options.text("account-id").pipe(
      Options.optional,
      Options.withDescription("Account id to give the member (default: a fresh UUID)")
    ),
    withKey: Options.boolean("with-key").pipe(Options.withDescription("Also create an API key for it"))
  },
  ({ accountId, db, withKey }) =>
    withConsole(db, (c) =>
      Effect.gen(function*() {
        const member = yield* c.createMember({ accountId: optionalValue(accountId) })
        yield* Console.log(`account id: ${member.accountId}`)
        if (withKey) yield* printNewKey(yield* c.createKey(member.accountId))
      }))
).pipe(Command.withDescription("Create a member, with a default account pool on each chain"))

const memberList = Command.make("list", { db }, ({ db }) =>
  withConsole(db, (c) =>
    Effect.flatMap(c.listMembers, (members) =>
      Effect.forEach(members, (m) => Console.log(`${m.accountId}  created ${new Date(m.createdAt * 1000).toISOString()}`), {
        discard: true
      })))).pipe(Command.withDescription("List the members"))

const member = Command.make("member").pipe(
  Command.withDescription("Members (service accounts) of the emulator"),
  Command.withSubcommands([memberCreate, memberList])
)

// ---------------------------------------------------------------------------------------------
// key
// ---------------------------------------------------------------------------------------------

const keyCreate = Command.make("create", { db, accountId: accountIdRequired }, ({ accountId, db }) =>
  withConsole(db, (c) => Effect.flatMap(c.createKey(accountId), printNewKey))).pipe(
    Command.withDescription(`Create an API key for a member (at most ${EmulatorConsole.MaxKeysPerMember} per member); prints the secret once`)
  )

const keyList = Command.make("list", { db, accountId: accountIdRequired }, ({ accountId, db }) =>
  withConsole(db, (c) =>
    Effect.flatMap(c.listKeys(accountId), (keys) =>
      Effect.forEach(keys, (k) => Console.log(`${k.accessKeyId}  created ${new Date(k.createdAt * 1000).toISOString()}`), {
        discard: true
      })))).pipe(Command.withDescription("List the API keys of a member (never their secrets)"))

const keyDelete = Command.make(
  "delete",
  { db, accountId: accountIdRequired, accessKeyId: Options.text("access-key-id") },
  ({ accessKeyId, accountId, db }) =>
    withConsole(db, (c) => Effect.zipRight(c.deleteKey(accountId, accessKeyId), Console.log(`deleted ${accessKeyId}`)))
).pipe(Command.withDescription("Delete an API key of a member"))

const key = Command.make("key").pipe(
  Command.withDescription("API keys (AccessKey ID + Secret AccessKey) of members"),
  Command.withSubcommands([keyCreate, keyList, keyDelete])
)

// ---------------------------------------------------------------------------------------------
// pool
// ---------------------------------------------------------------------------------------------

const poolCreate = Command.make(
  "create",
  { db, accountId: accountIdRequired, chainId, name: Options.text("name").pipe(Options.withDescription("Pool name")) },
  ({ accountId, chainId, db, name }) =>
    withConsole(db, (c) => Effect.flatMap(c.createPool({ accountId, chainId, name }), (p) => Console.log(p.krn.toString())))
).pipe(Command.withDescription("Create a named account pool of a member on a chain; prints its KRN"))

const poolList = Command.make(
  "list",
  { db, accountId: accountIdRequired, chainId: chainId.pipe(Options.optional) },
  ({ accountId, chainId, db }) =>
    withConsole(db, (c) =>
      Effect.flatMap(c.listPools(accountId, optionalValue(chainId)), (pools) =>
        Effect.forEach(pools, (p) => Console.log(`${p.krn.toString()}${p.isDefault ? "  (default)" : ""}`), {
          discard: true
        })))
).pipe(Command.withDescription("List the account pools of a member"))

const pool = Command.make("pool").pipe(
  Command.withDescription("Account pools of members"),
  Command.withSubcommands([poolCreate, poolList])
)

// ---------------------------------------------------------------------------------------------
// emulator (serve)
// ---------------------------------------------------------------------------------------------

const serveOptions = {
  host: Options.text("host").pipe(
    Options.withFallbackConfig(Config.string("KAS_EMULATOR_HOST")),
    Options.withDefault("127.0.0.1"),
    Options.withDescription("Interface to listen on (env KAS_EMULATOR_HOST)")
  ),
  port: Options.integer("port").pipe(
    Options.withFallbackConfig(Config.integer("KAS_EMULATOR_PORT")),
    Options.withDefault(0),
    Options.withDescription("Port to listen on; 0 picks a free one (env KAS_EMULATOR_PORT; default 0)")
  ),
  db,
  accessKeyId: EnvOption.accessKeyId("AccessKey ID to register at start if absent (env KAS_ACCESS_KEY_ID); with --secret-access-key"),
  secretAccessKey: EnvOption.secretAccessKey("Its Secret AccessKey (env KAS_SECRET_ACCESS_KEY)"),
  accountId: EnvOption.optional(
    Options.text("account-id"),
    Config.string("KAS_ACCOUNT_ID"),
    "Member to register the key for, created if absent (env KAS_ACCOUNT_ID; default: a new member)"
  ),
  masterKey: EnvOption.optional(
    Options.redacted("master-key"),
    Config.redacted("KAS_EMULATOR_MASTER_KEY"),
    "Master key encrypting private keys at rest (env KAS_EMULATOR_MASTER_KEY; default: the key file)"
  ),
  masterKeyFile: EnvOption.optional(
    Options.text("master-key-file"),
    Config.string("KAS_EMULATOR_MASTER_KEY_FILE"),
    "Master key file, created with mode 0600 if absent (default: <db>.key)"
  ),
  faultRate: Options.float("fault-rate").pipe(
    Options.withDefault(0),
    Options.withDescription("Fraction of requests (0 to 1) that get an injected fault (default 0: off)")
  ),
  faultSeed: Options.integer("fault-seed").pipe(
    Options.withDefault(0),
    Options.withDescription("Seed of the fault sequence: same seed, same faults for the same request order")
  ),
  faultKinds: Options.text("fault-kinds").pipe(
    Options.withDefault(Faults.Kinds.join(",")),
    Options.withDescription(`Comma-separated fault kinds among ${Faults.Kinds.join(", ")}`)
  ),
  faultLatency: Options.integer("fault-latency-ms").pipe(
    Options.withDefault(250),
    Options.withDescription("Delay added by a latency fault, in milliseconds")
  ),
  faultRetryAfter: Options.integer("fault-retry-after").pipe(
    Options.withDefault(1),
    Options.withDescription("Retry-After seconds of an injected 429")
  )
}

type ServeOptions = Command.Command.ParseConfig<typeof serveOptions>

/**
 * The emulator options of the serve flags.
 *
 * @since 0.1.0
 * @category options
 */
export const toEmulatorOptions = (o: ServeOptions): Effect.Effect<EmulatorConfig.Options, string> => {
  if (Option.isSome(o.accessKeyId) !== Option.isSome(o.secretAccessKey)) {
    return Effect.fail("--access-key-id and --secret-access-key go together")
  }
  const kinds = o.faultKinds.split(",").map((k) => k.trim()).filter((k) => k !== "")
  const unknown = kinds.filter((k) => !(Faults.Kinds as ReadonlyArray<string>).includes(k))
  if (unknown.length > 0) return Effect.fail(`unknown fault kinds ${unknown.join(", ")} (known: ${Faults.Kinds.join(", ")})`)
  return Effect.succeed({
    host: o.host,
    port: o.port,
    database: o.db,
    masterKey: optionalValue(o.masterKey),
    masterKeyFile: optionalValue(o.masterKeyFile),
    member: Option.isSome(o.accessKeyId) && Option.isSome(o.secretAccessKey)
      ? { accessKeyId: o.accessKeyId.value, secretAccessKey: o.secretAccessKey.value, accountId: optionalValue(o.accountId) }
      : undefined,
    faults: {
      rate: o.faultRate,
      seed: o.faultSeed,
      kinds: kinds as ReadonlyArray<Faults.Kind>,
      latency: `${o.faultLatency} millis`,
      retryAfter: o.faultRetryAfter
    }
  })
}

/**
 * Serves until interrupted (SIGINT / SIGTERM stop it gracefully). Prints the created member and
 * key (the secret this once) when none was given, then `listening on <url>` once requests are
 * accepted.
 *
 * @since 0.1.0
 * @category handlers
 */
export const serve = (options: EmulatorConfig.Options) =>
  reportFailure(
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const m = emulator.member
      if (m.generated) {
        yield* Console.log(
          [
            `created member ${m.accountId}`,
            `access key id: ${m.accessKeyId}`,
            `secret access key: ${Redacted.value(m.secretAccessKey)}`,
            `authorization: ${Redacted.value(m.authorization)}`,
            "(the secret is shown this once: only its hash is stored)"
          ].join("\n")
        )
      } else {
        yield* Console.log(`member ${m.accountId}, access key id ${m.accessKeyId}`)
      }
      yield* Console.log(`database ${emulator.database}`)
      yield* Console.log(`listening on ${emulator.url}`)
      return yield* Effect.never
    }).pipe(Effect.provide(Emulator.layer(options)))
  )

/**
 * `kas-wallet emulator`: serves by default; `member`, `key` and `pool` manage the database.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("emulator", serveOptions, (o) =>
  toEmulatorOptions(o).pipe(
    Effect.mapError((message) => ({ _tag: "InvalidOptions", message })),
    Effect.matchEffect({
      onFailure: (error) => reportFailure(Effect.fail(error)),
      onSuccess: serve
    })
  )).pipe(
    Command.withDescription(
      "Run the local KAS wallet emulator (prints `listening on http://HOST:PORT` when ready), or manage its members, keys and pools"
    ),
    Command.withSubcommands([member, key, pool])
  )
