/**
 * `kas-wallet emulator`: serves the emulator (the default action), prints its shell settings
 * (`env`), and manages its members, keys and pools (`member`, `key`, `pool`) directly in its
 * database.
 *
 * The emulator's own options come from `EmulatorConfig.fields`: each flag is read, with the
 * environment, by `EmulatorConfig.values` itself. Unlike the library's layer (in memory, any free
 * port), the command keeps its data in a data directory (`DataDir`) and listens on a fixed port.
 *
 * The emulator and its database are loaded only when a command runs, so that the rest of the
 * command line starts fast.
 *
 * @since 0.1.0
 */
import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import type { SqlError } from "@effect/sql"
import { Config, ConfigError, ConfigProvider, Console, Effect, Either, Option, Redacted } from "effect"
import { Address, Amount, type ChainId } from "effect-kas-wallet"
import type * as Emulator from "effect-kas-wallet-emulator/Emulator"
import * as EmulatorConfig from "effect-kas-wallet-emulator/EmulatorConfig"
import type * as EmulatorConsole from "effect-kas-wallet-emulator/EmulatorConsole"
import type { EmulatorError } from "effect-kas-wallet-emulator/EmulatorError"
import * as DataDir from "../input/DataDir.js"
import * as ExitCode from "../output/ExitCode.js"
import * as Flags from "../input/Flags.js"
import * as Spec from "../input/Spec.js"

const E = Spec.emulator
const fields = EmulatorConfig.fields
const names = Object.keys(fields) as ReadonlyArray<EmulatorConfig.Name>

const loadEmulator = Effect.promise(() => import("effect-kas-wallet-emulator/Emulator"))
const loadConsole = Effect.promise(() => import("effect-kas-wallet-emulator/EmulatorConsole"))

/**
 * The line and exit code of a failure of the emulator or its console.
 *
 * @since 0.1.0
 * @category errors
 */
export const failureOf = (error: EmulatorError | EmulatorConsole.ConsoleError | SqlError.SqlError): ExitCode.Failure => {
  const cause = "cause" in error && error.cause instanceof Error && error._tag === "EmulatorError" && error.reason === "Database"
    ? ` (${error.cause.message.replace(/\s+/g, " ")})`
    : ""
  const hint = error._tag === "EmulatorError" && error.reason === "Listen"
    ? `; is another emulator running? --port 0 picks a free port`
    : ""
  const message = error._tag === "SqlError" ? `storage failure: ${error.message}` : error.message
  return new ExitCode.Failure({ message: `${message}${cause}${hint}`.replace(/\s*\n\s*/g, " "), code: ExitCode.ofEmulatorError(error) })
}

// ---------------------------------------------------------------------------------------------
// the data directory and the database of the console commands
// ---------------------------------------------------------------------------------------------

const variable = (name: string) =>
  Effect.orElseSucceed(Config.string(name).pipe(Config.option, Config.map(Option.getOrUndefined)), () => undefined)

const dataDirectory = (given: Option.Option<string>) =>
  Effect.flatMap(Flags.raw(E.dataDir, given), (found) =>
    Option.match(found, {
      onSome: (s) => Effect.succeed(s.value),
      // Read through Config, like every other setting, so that a test can give its own.
      onNone: () =>
        Effect.zipWith(variable("XDG_DATA_HOME"), variable("HOME"), (xdg, home) =>
          DataDir.defaultDirectory({ XDG_DATA_HOME: xdg }, home))
    }))

const consoleOptions = { dataDir: Flags.text(E.dataDir), db: Flags.text(E.consoleDb) }

const consoleDatabase = (o: { readonly dataDir: Option.Option<string>; readonly db: Option.Option<string> }) =>
  Effect.flatMap(Flags.raw(E.consoleDb, o.db), (db) =>
    Option.match(db, {
      onSome: (s) => Effect.succeed(s.value),
      onNone: () => Effect.map(dataDirectory(o.dataDir), (dir) => DataDir.files(dir).database)
    }))

const withConsole = <A>(
  o: { readonly dataDir: Option.Option<string>; readonly db: Option.Option<string> },
  f: (console: EmulatorConsole.Service) => Effect.Effect<A, EmulatorConsole.ConsoleError | SqlError.SqlError>
): Effect.Effect<void, ExitCode.Failure> =>
  Effect.gen(function*() {
    const database = yield* consoleDatabase(o)
    const C = yield* loadConsole
    yield* Effect.flatMap(C.Console, f).pipe(Effect.provide(C.layerDatabase({ database })), Effect.mapError(failureOf))
  })

const printNewKey = (key: EmulatorConsole.NewApiKey) =>
  Console.log(
    [
      `access key id: ${key.accessKeyId}`,
      `secret access key: ${Redacted.value(key.secretAccessKey)}`,
      `authorization: ${Redacted.value(key.authorization)}`,
      "(the secret is shown this once: only its hash is stored)"
    ].join("\n")
  )

const chainOf = (flag: Spec.Flag, given: Option.Option<string>) =>
  Effect.map(Flags.read(flag, given, Flags.choice(["8217", "1001"], "8217 (mainnet) or 1001 (testnet)")), Option.map((s) => Number(s) as ChainId.ChainId))

const required = <A>(flag: Spec.Flag, value: Effect.Effect<Option.Option<A>, ExitCode.Failure>) =>
  Effect.flatMap(value, Option.match({
    onNone: () => Effect.fail(ExitCode.invalid(`--${flag.name} is required, e.g. ${flag.example}`)),
    onSome: Effect.succeed
  }))

const text = (flag: Spec.Flag, given: Option.Option<string>) => Flags.read(flag, given, Flags.nonEmpty)

// ---------------------------------------------------------------------------------------------
// member, key, pool, env
// ---------------------------------------------------------------------------------------------

const memberCreate = Command.make(
  "create",
  { ...consoleOptions, accountId: Flags.text(E.newAccountId), withKey: Flags.toggle(E.withKey) },
  (o) =>
    Effect.flatMap(text(E.newAccountId, o.accountId), (accountId) =>
      withConsole(o, (c) =>
        Effect.gen(function*() {
          const member = yield* c.createMember({ accountId: Option.getOrUndefined(accountId) })
          yield* Console.log(`account id: ${member.accountId}`)
          if (o.withKey) yield* printNewKey(yield* c.createKey(member.accountId))
        })))
)

const memberList = Command.make("list", consoleOptions, (o) =>
  withConsole(o, (c) =>
    Effect.flatMap(c.listMembers, (members) =>
      Effect.forEach(members, (m) => Console.log(`${m.accountId}  created ${new Date(m.createdAt * 1000).toISOString()}`), {
        discard: true
      }))))

const keyCreate = Command.make("create", { ...consoleOptions, accountId: Flags.text(E.accountId) }, (o) =>
  Effect.flatMap(required(E.accountId, text(E.accountId, o.accountId)), (accountId) =>
    withConsole(o, (c) => Effect.flatMap(c.createKey(accountId), printNewKey))))

const keyList = Command.make("list", { ...consoleOptions, accountId: Flags.text(E.accountId) }, (o) =>
  Effect.flatMap(required(E.accountId, text(E.accountId, o.accountId)), (accountId) =>
    withConsole(o, (c) =>
      Effect.flatMap(c.listKeys(accountId), (keys) =>
        Effect.forEach(keys, (k) => Console.log(`${k.accessKeyId}  created ${new Date(k.createdAt * 1000).toISOString()}`), {
          discard: true
        })))))

const keyDelete = Command.make(
  "delete",
  { ...consoleOptions, accountId: Flags.text(E.accountId), accessKeyId: Flags.text(E.keyId) },
  (o) =>
    Effect.gen(function*() {
      const accountId = yield* required(E.accountId, text(E.accountId, o.accountId))
      const accessKeyId = yield* required(E.keyId, text(E.keyId, o.accessKeyId))
      yield* withConsole(o, (c) => Effect.zipRight(c.deleteKey(accountId, accessKeyId), Console.log(`deleted ${accessKeyId}`)))
    })
)

const poolCreate = Command.make(
  "create",
  {
    ...consoleOptions,
    accountId: Flags.text(E.accountId),
    chainId: Flags.text(E.chainId),
    name: Flags.text(E.name),
    feePayer: Flags.toggle(E.feePayer)
  },
  (o) =>
    Effect.gen(function*() {
      const accountId = yield* required(E.accountId, text(E.accountId, o.accountId))
      const chainId = yield* required(E.chainId, chainOf(E.chainId, o.chainId))
      const name = yield* required(E.name, text(E.name, o.name))
      yield* withConsole(o, (c) =>
        Effect.flatMap(
          o.feePayer
            ? Effect.map(c.createFeePayerPool({ accountId, chainId, name }), (p) => p.krn.toString())
            : Effect.map(c.createPool({ accountId, chainId, name }), (p) => p.krn.toString()),
          (krn) => Console.log(krn)
        ))
    })
)

const poolList = Command.make(
  "list",
  { ...consoleOptions, accountId: Flags.text(E.accountId), chainId: Flags.text(E.optionalChainId), feePayer: Flags.toggle(E.feePayer) },
  (o) =>
    Effect.gen(function*() {
      const accountId = yield* required(E.accountId, text(E.accountId, o.accountId))
      const chainId = Option.getOrUndefined(yield* chainOf(E.optionalChainId, o.chainId))
      yield* withConsole(o, (c) =>
        Effect.flatMap(
          o.feePayer
            ? Effect.map(c.listFeePayerPools(accountId, chainId), (pools) => pools.map((p) => ({ krn: p.krn.toString(), isDefault: p.isDefault })))
            : Effect.map(c.listPools(accountId, chainId), (pools) => pools.map((p) => ({ krn: p.krn.toString(), isDefault: p.isDefault }))),
          (pools) => Effect.forEach(pools, (p) => Console.log(`${p.krn}${p.isDefault ? "  (default)" : ""}`), { discard: true })
        ))
    })
)

const env = Command.make("env", { dataDir: Flags.text(E.dataDir) }, (o) =>
  Effect.gen(function*() {
    const directory = yield* dataDirectory(o.dataDir)
    yield* Console.log((yield* DataDir.readEnv(directory)).trimEnd())
  }))

// ---------------------------------------------------------------------------------------------
// fund, balance, bill: the ledger
// ---------------------------------------------------------------------------------------------

const L = Spec.ledger

const klay = (peb: bigint) => `${Amount.formatKlay(peb as Amount.Peb)} KLAY (${peb} peb)`

const addressArgument = (raw: string) =>
  Option.isNone(Address.checksum(raw))
    ? Effect.fail(ExitCode.invalid(`<address> must be 0x followed by 40 hex digits (got ${Flags.show(raw)})`))
    : Address.isValid(raw)
    ? Effect.succeed(raw)
    : Effect.fail(ExitCode.invalid(`<address> ${raw} has a wrong EIP-55 checksum: give it all in lower case, or with its checksum`))

/** The chain of `fund` and `balance`: --chain, else KAS_CHAIN_ID, else 1001 (as the accounts commands). */
const ledgerChain = (given: Option.Option<string>) =>
  Effect.map(chainOf(Spec.accounts.chain, given), Option.getOrElse(() => 1001 as ChainId.ChainId))

const balanceJson = (b: EmulatorConsole.LedgerBalance) =>
  JSON.stringify({ chainId: b.chainId, address: b.address, balance: b.balance.toString(), nonce: b.nonce })

const fund = Command.make("fund", {
  ...consoleOptions,
  chain: Flags.text(Spec.accounts.chain),
  json: Flags.toggle(L.json),
  address: Args.text({ name: "address" }),
  amount: Args.text({ name: "amount" })
}, (o) =>
  Effect.gen(function*() {
    const address = yield* addressArgument(o.address)
    const amount = yield* Either.match(Amount.parseAmount(o.amount), {
      onLeft: (e) => Effect.fail(ExitCode.invalid(`<amount> ${e.reason} (got ${Flags.show(o.amount)})`)),
      onRight: Effect.succeed
    })
    const chainId = yield* ledgerChain(o.chain)
    yield* withConsole(o, (c) =>
      Effect.flatMap(c.fund(chainId, address, amount), (b) =>
        Console.log(o.json ? balanceJson(b) : `funded ${b.address} on chain ${b.chainId} with ${klay(amount)}: it holds ${klay(b.balance)}`)))
  }))

const balance = Command.make("balance", {
  ...consoleOptions,
  chain: Flags.text(Spec.accounts.chain),
  json: Flags.toggle(L.json),
  address: Args.text({ name: "address" })
}, (o) =>
  Effect.gen(function*() {
    const address = yield* addressArgument(o.address)
    const chainId = yield* ledgerChain(o.chain)
    yield* withConsole(o, (c) =>
      Effect.flatMap(c.balance(chainId, address), (b) =>
        Console.log(o.json ? balanceJson(b) : `${b.address} on chain ${b.chainId}: ${klay(b.balance)}, next nonce ${b.nonce}`)))
  }))

const bill = Command.make("bill", {
  ...consoleOptions,
  chain: Flags.text(L.billChain),
  accountId: Flags.text(L.accountId),
  json: Flags.toggle(L.json)
}, (o) =>
  Effect.gen(function*() {
    const chainId = Option.getOrUndefined(yield* chainOf(L.billChain, o.chain))
    const accountId = Option.getOrUndefined(yield* text(L.accountId, o.accountId))
    yield* withConsole(o, (c) =>
      Effect.flatMap(c.feeBills({ accountId, chainId }), (bills) =>
        Console.log(
          o.json
            ? JSON.stringify(bills.map((b) => ({ ...b, fees: b.fees.toString() })))
            : bills.length === 0
            ? "no bills: the global fee payer has paid no fee"
            : bills.map((b) =>
              `${b.accountId}  chain ${b.chainId}  ${b.transactions} transaction${b.transactions === 1 ? "" : "s"}  ${klay(b.fees)}  paid by ${b.feePayer}`
            ).join("\n")
        )))
  }))

// ---------------------------------------------------------------------------------------------
// serve
// ---------------------------------------------------------------------------------------------

type TableOptions = { readonly [K in EmulatorConfig.Name]: Options.Options<Option.Option<string>> }

const tableOptions = Object.fromEntries(
  names.map((name) => [name, Options.optional(Options.text(fields[name].flag))])
) as unknown as TableOptions

const serveOptions = {
  ...tableOptions,
  dataDir: Flags.text(E.dataDir),
  ephemeral: Flags.toggle(E.ephemeral),
  secretAccessKeyFile: Flags.text(E.secretAccessKeyFile)
}

/**
 * The serve flags, as parsed: one text per option of the table, and the command's own.
 *
 * @since 0.1.0
 * @category options
 */
export type ServeFlags = Command.Command.ParseConfig<typeof serveOptions>

const kindProblem: Record<EmulatorConfig.Kind, string> = {
  string: "must be text",
  port: "must be a port number from 0 to 65535",
  integer: "must be an integer",
  number: "must be a number",
  duration: "must be a duration such as 250 millis or 2 seconds",
  list: "must be a comma-separated list",
  redacted: "must be text"
}

/** The env variable a Config error is about, and its message. */
const firstProblem = (error: ConfigError.ConfigError): { readonly path: ReadonlyArray<string>; readonly message: string } => {
  switch (error._op) {
    case "And":
    case "Or":
      return firstProblem(error.left)
    default:
      return { path: error.path, message: error.message }
  }
}

const readSecretFile = (file: string, source: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(file)).pipe(
    Effect.mapError(() => ExitCode.invalid(`${source}: cannot read ${file}`)),
    Effect.map((s) => s.replace(/\r?\n$/, "")),
    Effect.filterOrFail((s) => s !== "", () => ExitCode.invalid(`${source}: ${file} is empty`))
  )

/**
 * What the serve flags and the environment ask for.
 *
 * @since 0.1.0
 * @category models
 */
export interface Plan {
  /** The emulator's options, the command's defaults applied (port, database, stored member). */
  readonly options: EmulatorConfig.Options
  /** The data directory; `undefined` for an ephemeral run. */
  readonly directory: string | undefined
  /** Where the given key's secret came from, when a key was given. */
  readonly given: DataDir.SecretSource | undefined
  /** Whether `options.member` is the one stored in the data directory. */
  readonly stored: boolean
}

/**
 * Reads the serve flags over the environment through `EmulatorConfig.values` (one parser for
 * both), then applies the command's defaults: a fixed port, the data directory's database and
 * stored member, unless `--ephemeral`.
 *
 * @since 0.1.0
 * @category options
 */
export const plan = (o: ServeFlags): Effect.Effect<Plan, ExitCode.Failure, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const flagged = new Map<string, string>()
    for (const name of names) {
      const value = o[name]
      if (Option.isSome(value)) flagged.set(fields[name].env, value.value)
    }
    const secretEnv = fields.secretAccessKey.env
    let given: DataDir.SecretSource | undefined
    if (Option.isSome(o.secretAccessKeyFile)) {
      if (flagged.has(secretEnv)) {
        return yield* ExitCode.invalid(`give --${fields.secretAccessKey.flag} or --${E.secretAccessKeyFile.name}, not both`)
      }
      flagged.set(secretEnv, yield* readSecretFile(o.secretAccessKeyFile.value, `--${E.secretAccessKeyFile.name}`))
      given = { _tag: "File", path: o.secretAccessKeyFile.value }
    } else if (flagged.has(secretEnv)) {
      given = { _tag: "Given", how: `the secret given with --${fields.secretAccessKey.flag}` }
    } else {
      const fromEnv = yield* Flags.raw(Spec.emulatorFlag(fields.secretAccessKey), Option.none())
      const file = yield* Flags.raw(E.secretAccessKeyFile, Option.none())
      if (Option.isSome(fromEnv)) given = { _tag: "Given", how: `as set in ${secretEnv}` }
      else if (Option.isSome(file)) {
        flagged.set(secretEnv, yield* readSecretFile(file.value.value, file.value.source))
        given = { _tag: "File", path: file.value.value }
      }
    }

    const provider = yield* Effect.configProviderWith((current) =>
      Effect.succeed(ConfigProvider.orElse(ConfigProvider.fromMap(flagged), () => current))
    )
    const values = yield* Effect.withConfigProvider(EmulatorConfig.values, provider).pipe(
      Effect.catchAll((error) =>
        Effect.gen(function*() {
          const problem = firstProblem(error)
          const name = names.find((n) => fields[n].env === problem.path[0])
          if (name === undefined) return yield* ExitCode.invalid(problem.message)
          const field = fields[name]
          const raw = flagged.get(field.env)
          const source = raw !== undefined ? `--${field.flag}` : field.env
          const shown = field.secret ? "" : ` (got ${Flags.show(raw ?? (yield* Effect.orElseSucceed(Config.string(field.env), () => "")))})`
          return yield* ExitCode.invalid(`${source} ${kindProblem[field.kind]}${shown}`)
        })
      )
    )
    const options = yield* Either.mapLeft(EmulatorConfig.fromValues(values), ExitCode.invalid)
    if (values.accessKeyId === undefined) given = undefined

    if (o.ephemeral) {
      for (const [flag, set] of [[E.dataDir.name, Option.isSome(o.dataDir)], [fields.database.flag, Option.isSome(o.database)], [
        fields.masterKeyFile.flag,
        Option.isSome(o.masterKeyFile)
      ]] as const) {
        if (set) return yield* ExitCode.invalid(`--ephemeral keeps nothing: leave out --${flag}`)
      }
      return {
        options: {
          ...options,
          port: options.port ?? Spec.DefaultEmulatorPort,
          database: EmulatorConfig.DefaultDatabase,
          masterKeyFile: undefined
        },
        directory: undefined,
        given,
        stored: false
      }
    }

    const directory = yield* dataDirectory(o.dataDir)
    yield* DataDir.ensure(directory)
    const database = options.database ?? DataDir.files(directory).database
    const remote = /^(libsql|https?|wss?):\/\//i.test(database.trim())
    // A given key that is the stored one (the settings of `emulator env` are in this shell) is
    // still the stored one.
    const stored = Option.filter(
      yield* DataDir.readMember(directory),
      (m) =>
        options.member === undefined ||
        (options.member.accessKeyId === m.accessKeyId &&
          Redacted.value(options.member.secretAccessKey) === Redacted.value(m.secretAccessKey))
    )
    return {
      options: {
        ...options,
        port: options.port ?? Spec.DefaultEmulatorPort,
        database,
        // The library's default for a server database is a file in the working directory.
        masterKeyFile: options.masterKeyFile ??
          (remote && options.masterKey === undefined ? DataDir.files(directory).masterKey : undefined),
        member: Option.match(stored, {
          onNone: () => options.member,
          onSome: (m) => ({ accessKeyId: m.accessKeyId, secretAccessKey: m.secretAccessKey, accountId: m.accountId })
        })
      },
      directory,
      given: Option.isSome(stored) ? undefined : given,
      stored: Option.isSome(stored)
    }
  })

const announce = (plan: Plan, emulator: Emulator.Service) =>
  Effect.gen(function*() {
    const m = emulator.member
    const lines: Array<string> = []
    if (plan.directory !== undefined) lines.push(`data directory ${plan.directory}`)
    else lines.push("ephemeral run: nothing is kept after it stops")
    lines.push(`database ${emulator.database}`)
    let secret: DataDir.SecretSource
    if (m.generated && plan.directory !== undefined) {
      const file = DataDir.files(plan.directory).secret
      yield* DataDir.writeMember(plan.directory, m)
      lines.push(
        `created member ${m.accountId} with access key id ${m.accessKeyId}`,
        `secret access key: ${Redacted.value(m.secretAccessKey)}`,
        `authorization: ${Redacted.value(m.authorization)}`,
        `(shown this once; stored for reuse in ${file}, mode 0600)`
      )
      secret = { _tag: "File", path: file }
    } else if (m.generated) {
      lines.push(`created member ${m.accountId} with access key id ${m.accessKeyId} (the secret is in the settings below, shown this once)`)
      secret = { _tag: "Value", secret: m.secretAccessKey }
    } else if (plan.stored && plan.directory !== undefined) {
      lines.push(`member ${m.accountId}, access key id ${m.accessKeyId} (stored in ${plan.directory})`)
      secret = { _tag: "File", path: DataDir.files(plan.directory).secret }
    } else {
      lines.push(`member ${m.accountId}, access key id ${m.accessKeyId}`)
      secret = plan.given ?? { _tag: "Given", how: "the secret you gave" }
    }
    const settings = DataDir.envLines({ url: emulator.url, accessKeyId: m.accessKeyId, secret })
    if (plan.directory !== undefined && (m.generated || plan.stored)) yield* DataDir.writeEnv(plan.directory, `${settings}\n`)
    lines.push(
      `# shell settings for kas-wallet and your programs${
        plan.directory !== undefined && (m.generated || plan.stored) ? " (later: eval \"$(kas-wallet emulator env)\")" : ""
      }:`,
      settings,
      `listening on ${emulator.url}`
    )
    yield* Console.log(lines.join("\n"))
  })

/**
 * Serves until interrupted (SIGINT / SIGTERM stop it gracefully): starts the emulator, prints what
 * it runs on and the shell settings, then `listening on <url>` once requests are accepted.
 *
 * @since 0.1.0
 * @category handlers
 */
export const serve = (plan: Plan): Effect.Effect<never, ExitCode.Failure, FileSystem.FileSystem> =>
  Effect.scoped(Effect.gen(function*() {
    const { make } = yield* loadEmulator
    const emulator = yield* Effect.mapError(make(plan.options), failureOf)
    yield* announce(plan, emulator)
    return yield* Effect.never
  }))

/**
 * `kas-wallet emulator`: serves by default; `env` prints the settings; `member`, `key` and `pool`
 * manage the database; `fund`, `balance` and `bill` work on its ledger.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("emulator", serveOptions, (o) => Effect.flatMap(plan(o), serve)).pipe(
  Command.withSubcommands([
    env,
    Command.make("member").pipe(Command.withSubcommands([memberCreate, memberList])),
    Command.make("key").pipe(Command.withSubcommands([keyCreate, keyList, keyDelete])),
    Command.make("pool").pipe(Command.withSubcommands([poolCreate, poolList])),
    fund,
    balance,
    bill
  ])
)
