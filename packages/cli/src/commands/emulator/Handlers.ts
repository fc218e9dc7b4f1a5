/**
 * `kas-wallet emulator`: serves the emulator (the default action); its other commands are
 * `console/Handlers`' (`env`, `member`, `key`, `pool`) and `ledger/Handlers`' (`fund`, `balance`,
 * `bill`, `mine`). Their table is `Spec`.
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
import * as FileSystem from "@effect/platform/FileSystem"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Config, ConfigError, ConfigProvider, Console, Effect, Either, Option, Redacted } from "effect"
import type * as Emulator from "effect-kas-wallet-emulator/Emulator"
import * as EmulatorConfig from "effect-kas-wallet-emulator/EmulatorConfig"
import type * as Argv from "../../input/Argv.js"
import * as DataDir from "../../input/DataDir.js"
import * as Flags from "../../input/Flags.js"
import * as ExitCode from "../../output/ExitCode.js"
import type { Handler, Handlers } from "../Handler.js"
import * as Table from "../Spec.js"
import * as ConsoleHandlers from "./console/Handlers.js"
import * as LedgerHandlers from "./ledger/Handlers.js"
import * as path from "node:path"

const E = Table.Emulator.flags
const fields = EmulatorConfig.fields
const names = Object.keys(fields) as ReadonlyArray<EmulatorConfig.Name>

const loadEmulator = Effect.promise(() => import("effect-kas-wallet-emulator/Emulator"))

/**
 * The line and exit code of a failure of the emulator or its console.
 *
 * @since 0.1.0
 * @category errors
 */
export const failureOf = ConsoleHandlers.failureOf

// ---------------------------------------------------------------------------------------------
// serve
// ---------------------------------------------------------------------------------------------

/**
 * The serve flags, as given: one text per option of the table, and the command's own.
 *
 * @since 0.1.0
 * @category options
 */
export type ServeFlags =
  & { readonly [K in EmulatorConfig.Name]: Option.Option<string> }
  & {
    readonly dataDir: Option.Option<string>
    readonly ephemeral: boolean
    readonly secretAccessKeyFile: Option.Option<string>
  }

/**
 * The serve flags of a command line.
 *
 * @since 0.2.0
 * @category options
 */
export const serveFlags = (run: Argv.Run): ServeFlags => ({
  ...Object.fromEntries(names.map((name) => [name, Flags.given(run, Table.Emulator.emulatorFlag(fields[name]))])) as {
    readonly [K in EmulatorConfig.Name]: Option.Option<string>
  },
  dataDir: Flags.given(run, E.dataDir),
  ephemeral: Flags.isSet(run, E.ephemeral),
  secretAccessKeyFile: Flags.given(run, E.secretAccessKeyFile)
})

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
      // Absolute: the settings are evaluated in other directories.
      given = { _tag: "File", path: path.resolve(o.secretAccessKeyFile.value) }
    } else if (flagged.has(secretEnv)) {
      given = { _tag: "Given", how: `the secret given with --${fields.secretAccessKey.flag}` }
    } else {
      const fromEnv = yield* Flags.raw(Table.Emulator.emulatorFlag(fields.secretAccessKey), Option.none())
      const file = yield* Flags.raw(E.secretAccessKeyFile, Option.none())
      if (Option.isSome(fromEnv)) given = { _tag: "Given", how: `as set in ${secretEnv}` }
      else if (Option.isSome(file)) {
        flagged.set(secretEnv, yield* readSecretFile(file.value.value, file.value.source))
        given = { _tag: "File", path: path.resolve(file.value.value) }
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
          port: options.port ?? Table.Emulator.DefaultEmulatorPort,
          database: EmulatorConfig.DefaultDatabase,
          masterKeyFile: undefined
        },
        directory: undefined,
        given,
        stored: false
      }
    }

    const directory = yield* ConsoleHandlers.dataDirectory(o.dataDir)
    yield* DataDir.ensure(directory)
    const database = options.database ?? DataDir.files(directory).database
    const remote = (yield* ConsoleHandlers.databaseLocation(database))._tag === "Remote"
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
        port: options.port ?? Table.Emulator.DefaultEmulatorPort,
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

/**
 * Where the settings point the console commands (`emulator pool`, ...): the data directory, and the
 * database when it is not the directory's own (a file by its absolute path, a server by its URL).
 * A database they cannot reach from the settings (in memory, or a server whose URL holds
 * credentials, which the settings never print) gets neither, so that no directory's other database
 * stands in for it.
 */
const databaseSettings = (plan: Plan): Effect.Effect<{ readonly dataDir?: string; readonly database?: string }> =>
  Effect.map(ConsoleHandlers.databaseLocation(plan.options.database ?? EmulatorConfig.DefaultDatabase), (location) => {
    if (plan.directory === undefined) return {}
    if (location._tag === "File") {
      return location.path === DataDir.files(plan.directory).database ? { dataDir: plan.directory } : { dataDir: plan.directory, database: location.path }
    }
    return location._tag === "Remote" && location.url !== undefined ? { dataDir: plan.directory, database: location.url } : {}
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
    const settings = DataDir.envLines({ url: emulator.url, accountId: m.accountId, accessKeyId: m.accessKeyId, secret, ...(yield* databaseSettings(plan)) })
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

/** The handlers, each given the platform's FileSystem. */
const provided = <K extends string>(handlers: { readonly [V in K]: Handler<FileSystem.FileSystem> }) =>
  Object.fromEntries(
    Object.entries<Handler<FileSystem.FileSystem>>(handlers).map((
      [verb, handler]
    ) => [verb, (run: Argv.Run) => Effect.provide(handler(run), NodeFileSystem.layer)])
  ) as { readonly [V in K]: Handler }

/**
 * `kas-wallet emulator` and its commands, by the words after `emulator` (`""` serves). The
 * emulator's files are read and written through the platform's FileSystem, provided here.
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = provided({
  "": (run: Argv.Run) => Effect.flatMap(plan(serveFlags(run)), serve),
  ...ConsoleHandlers.handlers,
  ...LedgerHandlers.handlers
} satisfies Handlers<ReturnType<typeof Table.Emulator.spec>, FileSystem.FileSystem>)
