/**
 * The configuration of a client command, through the client's one path: the command line's flags
 * and the environment's variables become one `ConfigProvider` (a flag over its variable), and
 * `WalletConfig.load(WalletConfig.fromEnv)` reads it; `WalletClient.make` then checks the options as for any program. The CLI adds only
 * what the client does not know: its default chain (1001), the secret read from a file
 * (`--secret-access-key-file`, `KAS_SECRET_ACCESS_KEY_FILE`), and the pool variables a command
 * ignores. Every mistake is one line naming the flag or variable, exit code 2.
 *
 * @since 0.2.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import { Config, ConfigProvider, Effect, Either, Option } from "effect"
import { Credentials, WalletClient, WalletConfig, type WalletError } from "effect-kas-wallet"
import { readFile } from "node:fs/promises"
import * as ExitCode from "../../output/ExitCode.js"
import type * as Argv from "../../input/Argv.js"
import * as Flags from "../../input/Flags.js"
import type * as Spec from "../../input/Spec.js"
import * as Shared from "./Spec.js"

const S = Shared.flags
const V = WalletConfig.EnvironmentVariables

/**
 * The chain of a command when neither `--chain` nor `KAS_CHAIN_ID` chooses one: the testnet,
 * where a mistake costs nothing.
 *
 * @since 0.2.0
 * @category constants
 */
export const DefaultChain = "1001"

/**
 * Which pools a command reads: an `accounts` command its account pool, a `fee-payers` command its
 * fee-payer pool, a transfer both, a `keys` command its key pool (`keyPool`, absent: not read).
 * The variable of a pool a command does not use is not read, so that a stale one cannot fail it.
 *
 * @since 0.2.0
 * @category models
 */
export interface Uses {
  readonly pool: boolean
  readonly feePayerPool: boolean
  readonly keyPool?: boolean
}

/**
 * A command's configuration: the client's options, their scrubber, and where each setting came
 * from (for messages).
 *
 * @since 0.2.0
 * @category models
 */
export interface Configured {
  readonly options: WalletConfig.Options
  readonly scrubber: Credentials.Scrubber
  /** The flag or variable each variable's value came from (`--pool`, `KAS_ACCOUNT_POOL`). */
  readonly sourceOf: (variable: string) => string
  /** The variables given by the command line (a flag, or a secret file), with their source. */
  readonly sources: ReadonlyMap<string, string>
}

/** The connection flags, by the variable each one sets. */
const byVariable: ReadonlyArray<readonly [string, Spec.Flag]> = [
  [V.baseUrl, S.url],
  [V.nodeUrl, S.nodeUrl],
  [V.chainId, S.chain],
  [V.pool, S.pool],
  [V.feePayerPool, S.feePayerPool],
  [V.keyPool, S.keyPool],
  [V.accessKeyId, S.accessKeyId],
  [V.secretAccessKey, S.secretAccessKey],
  [V.deadline, S.timeout]
]

const NoKey =
  "no API key: set KAS_ACCESS_KEY_ID and KAS_SECRET_ACCESS_KEY (or --secret-access-key-file); for a local emulator, run `kas-wallet emulator`, then `eval \"$(kas-wallet emulator env)\"`"

/** How to fix each setting, for the mistakes the client finds in the options themselves. */
const fixes: Readonly<Record<string, string>> = {
  [V.baseUrl]: "give an http(s) URL such as http://127.0.0.1:8787, without a user or password",
  [V.nodeUrl]: "give the node's http(s) URL, path included, such as http://127.0.0.1:8787/v1/klaytn",
  [V.chainId]: "give 8217 (mainnet) or 1001 (testnet)",
  [V.pool]: "give an account pool KRN of the chain (--chain / KAS_CHAIN_ID)",
  [V.feePayerPool]: "give a fee-payer pool KRN of the chain (--chain / KAS_CHAIN_ID)",
  [V.keyPool]: "give a key pool KRN of the chain (--chain / KAS_CHAIN_ID)",
  [V.accessKeyId]: "give the AccessKey ID of your KAS key",
  [V.secretAccessKey]: "give the Secret AccessKey of your KAS key",
  [V.deadline]: "give a duration with its unit, such as 5s, 500ms or 2m"
}

const readSecretFile = (path: string, source: string) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (e) =>
      ExitCode.invalid(
        `${source}: cannot read ${path} (${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message})`
      )
  }).pipe(
    // The file's trailing newline is not part of the secret.
    Effect.map((text) => text.replace(/\r?\n$/, "")),
    Effect.filterOrFail((secret) => secret !== "", () => ExitCode.invalid(`${source}: ${path} is empty`))
  )

/** The secret from a file, when no secret is given otherwise: its flag's, else its variable's. */
const secretFromFile = (run: Argv.Run) =>
  Effect.gen(function*() {
    const flag = Flags.given(run, S.secretAccessKey)
    const file = Flags.given(run, S.secretAccessKeyFile)
    if (Option.isSome(flag) && Option.isSome(file)) {
      return yield* ExitCode.invalid(`give --${S.secretAccessKey.name} or --${S.secretAccessKeyFile.name}, not both`)
    }
    if (Option.isSome(flag)) return Option.none()
    const source = `--${S.secretAccessKeyFile.name}`
    if (Option.isSome(file)) return Option.some({ secret: yield* readSecretFile(file.value, source), source })
    if (Option.isSome(yield* Flags.raw(S.secretAccessKey, Option.none()))) return Option.none()
    const fromEnv = yield* Flags.raw(S.secretAccessKeyFile, Option.none())
    if (Option.isNone(fromEnv)) return Option.none()
    return Option.some({ secret: yield* readSecretFile(fromEnv.value.value, fromEnv.value.source), source: fromEnv.value.source })
  })

/** The `InvalidArgument`'s description without the schema's tree of nested types. */
const tidy = (description: string): string => {
  const leaf = description.lastIndexOf("└─ ")
  return leaf === -1 ? description : `is invalid: ${description.slice(leaf + 3)}`
}

/** The variable of a client option (`pool`, `credentials.accessKeyId`), or of a configuration setting. */
const variableOf = (argument: string): string | undefined => {
  const option = argument.replace(/^credentials\./, "")
  return (V as Record<string, string>)[option] ?? (Object.values(V) as ReadonlyArray<string>).find((v) => v === argument)
}

/**
 * The line of a configuration mistake the client found: the flag or variable it came from, what
 * is wrong, and how to fix it (the client's own hint, else ours); a key missing from everywhere
 * says how to get one.
 */
const mistake = (error: WalletError.InvalidArgument, sources: ReadonlyMap<string, string>): ExitCode.Failure => {
  const variable = variableOf(error.argument)
  if (variable === undefined) return ExitCode.invalid(`${error.argument} ${error.description}`)
  const missing = error.description.startsWith("is not set") && !sources.has(variable)
  if (missing && (variable === V.accessKeyId || variable === V.secretAccessKey)) return ExitCode.invalid(NoKey)
  // The first mistake only: one line, and fixing it shows the next.
  const description = tidy(error.description).split("; ")[0]!
  const fix = description.includes("set it to") || fixes[variable] === undefined ? "" : `: ${fixes[variable]}`
  const separator = /^(is|must) /.test(description) ? " " : ": "
  return ExitCode.invalid(`${sources.get(variable) ?? variable}${separator}${description}${fix}`)
}

/**
 * Reads a client command's configuration: its flags over the environment, through
 * `WalletConfig.load`, then the key checked by `Credentials.scrubber`.
 *
 * @since 0.2.0
 * @category configuration
 */
export const configure = (run: Argv.Run, uses: Uses): Effect.Effect<Configured, ExitCode.Failure> =>
  Effect.gen(function*() {
    const values = new Map<string, string>()
    const sources = new Map<string, string>()
    for (const [variable, flag] of byVariable) {
      const value = Flags.given(run, flag)
      if (Option.isSome(value)) {
        values.set(variable, value.value)
        sources.set(variable, `--${flag.name}`)
      }
    }
    const file = yield* secretFromFile(run)
    if (Option.isSome(file)) {
      values.set(V.secretAccessKey, file.value.secret)
      sources.set(V.secretAccessKey, file.value.source)
    }
    if (!values.has(V.chainId) && Option.isNone(yield* Flags.raw(S.chain, Option.none()))) values.set(V.chainId, DefaultChain)
    // An empty variable is unset for WalletConfig: the pool a command does not use.
    if (!uses.pool) values.set(V.pool, "")
    if (!uses.feePayerPool) values.set(V.feePayerPool, "")
    if (uses.keyPool !== true) values.set(V.keyPool, "")

    // The environment's value of each variable the flags leave: one map, so that a flag's value is
    // the value, never a fallback to the variable when the flag's is wrong.
    for (const variable of Object.values(V)) {
      if (values.has(variable)) continue
      const value = yield* Effect.orElseSucceed(Config.option(Config.string(variable)), () => Option.none<string>())
      if (Option.isSome(value)) values.set(variable, value.value)
    }
    const options = yield* Effect.withConfigProvider(WalletConfig.load(WalletConfig.fromEnv), ConfigProvider.fromMap(values)).pipe(
      Effect.mapError((error) => mistake(error, sources))
    )
    const scrubber = yield* Either.mapLeft(Credentials.scrubber(options.credentials), (error) => mistake(error, sources))
    return { options, scrubber, sourceOf: (variable: string) => sources.get(variable) ?? variable, sources }
  })

/**
 * Makes the client of a configuration. The options' own rules (a URL's scheme, a pool on another
 * chain) are the client's, checked by `WalletClient.make` and named by option; a mistake is a
 * configuration failure (exit code 2) naming the flag or variable.
 *
 * @since 0.2.0
 * @category configuration
 */
export const client = (
  configured: Configured,
  extra: Pick<WalletConfig.Options, "transformClient">
): Effect.Effect<WalletClient.Service, ExitCode.Failure, HttpClient.HttpClient> =>
  Effect.mapError(WalletClient.make({ ...configured.options, ...extra }), (error) => mistake(error, configured.sources))
