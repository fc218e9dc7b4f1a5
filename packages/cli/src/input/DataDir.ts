/**
 * The data directory of `kas-wallet emulator`: where the emulator keeps its database, its master
 * key, and the member and API key it created on its first run, so that a restart finds the same
 * accounts, at the same key.
 *
 * | file | holds | mode |
 * | --- | --- | --- |
 * | `emulator.db` (+ `-wal`, `-shm`) | the database | 0600 |
 * | `emulator.db.key` | the master key sealing the accounts' private keys | 0600 |
 * | `member.json` | the member's account id and AccessKey ID | 0600 |
 * | `secret-access-key` | that key's Secret AccessKey, alone, for `$(cat ...)` and `--secret-access-key-file` | 0600 |
 * | `env` | the shell settings printed at start (`kas-wallet emulator env`) | 0600 |
 *
 * The directory itself is created with mode 0700.
 *
 * @since 0.1.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { Effect, Either, Option, Redacted, Schema } from "effect"
import * as os from "node:os"
import * as path from "node:path"
import * as ExitCode from "../output/ExitCode.js"

/**
 * The default data directory: `$XDG_DATA_HOME/kas-wallet/emulator` when `XDG_DATA_HOME` is set,
 * else `~/.kas-wallet/emulator`.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultDirectory = (env: Readonly<Record<string, string | undefined>>, home?: string | undefined): string =>
  env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== ""
    ? path.join(env.XDG_DATA_HOME, "kas-wallet", "emulator")
    : path.join(home !== undefined && home !== "" ? home : os.homedir(), ".kas-wallet", "emulator")

/**
 * The files of a data directory.
 *
 * @since 0.1.0
 * @category constants
 */
export const files = (directory: string) => ({
  database: path.join(directory, "emulator.db"),
  /** The master key file when the database is not a file of its own (a libSQL server). */
  masterKey: path.join(directory, "emulator.key"),
  member: path.join(directory, "member.json"),
  secret: path.join(directory, "secret-access-key"),
  env: path.join(directory, "env")
})

/**
 * The member and key stored in a data directory.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredMember {
  readonly accountId: string
  readonly accessKeyId: string
  readonly secretAccessKey: Redacted.Redacted<string>
}

const MemberFile = Schema.parseJson(Schema.Struct({ accountId: Schema.NonEmptyString, accessKeyId: Schema.NonEmptyString }))
const decodeMember = Schema.decodeUnknownEither(MemberFile)

const failure = (what: string) => (e: { readonly message: string }) => ExitCode.invalid(`${what} (${e.message.replace(/\s+/g, " ")})`)

/**
 * Creates the directory (mode 0700) if it does not exist.
 *
 * @since 0.1.0
 * @category operations
 */
export const ensure = (directory: string): Effect.Effect<void, ExitCode.Failure, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.makeDirectory(directory, { recursive: true, mode: 0o700 })).pipe(
    Effect.mapError(failure(`cannot create the data directory ${directory}`))
  )

/**
 * The stored member and key, if the emulator created them in an earlier run.
 *
 * @since 0.1.0
 * @category operations
 */
export const readMember = (
  directory: string
): Effect.Effect<Option.Option<StoredMember>, ExitCode.Failure, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const f = files(directory)
    const exists = yield* fs.exists(f.member).pipe(Effect.mapError(failure(`cannot read ${f.member}`)))
    if (!exists) return Option.none()
    const text = yield* fs.readFileString(f.member).pipe(Effect.mapError(failure(`cannot read ${f.member}`)))
    const member = decodeMember(text)
    if (Either.isLeft(member)) {
      return yield* ExitCode.invalid(`${f.member} is damaged: remove it (and ${f.secret}) to start with a new member`)
    }
    const secret = yield* fs.readFileString(f.secret).pipe(
      Effect.mapError(failure(`cannot read ${f.secret}, the secret of the stored key: remove ${f.member} to start with a new member`))
    )
    return Option.some({ ...member.right, secretAccessKey: Redacted.make(secret.replace(/\r?\n$/, "")) })
  })

const writePrivate = (file: string, text: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    // chmod as well: the mode given at creation does not apply to a file that exists already.
    Effect.zipRight(fs.writeFileString(file, text, { mode: 0o600 }), fs.chmod(file, 0o600))).pipe(
      Effect.mapError(failure(`cannot write ${file}`))
    )

/**
 * Stores a member and key created by the emulator: the secret alone in its file, then the rest.
 *
 * @since 0.1.0
 * @category operations
 */
export const writeMember = (directory: string, member: StoredMember): Effect.Effect<void, ExitCode.Failure, FileSystem.FileSystem> => {
  const f = files(directory)
  return Effect.zipRight(
    writePrivate(f.secret, `${Redacted.value(member.secretAccessKey)}\n`),
    writePrivate(f.member, `${JSON.stringify({ accountId: member.accountId, accessKeyId: member.accessKeyId }, null, 2)}\n`)
  )
}

/**
 * Stores the shell settings, for `kas-wallet emulator env`.
 *
 * @since 0.1.0
 * @category operations
 */
export const writeEnv = (directory: string, text: string): Effect.Effect<void, ExitCode.Failure, FileSystem.FileSystem> =>
  writePrivate(files(directory).env, text)

/**
 * The stored shell settings.
 *
 * @since 0.1.0
 * @category operations
 */
export const readEnv = (directory: string): Effect.Effect<string, ExitCode.Failure, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(files(directory).env)).pipe(
    Effect.mapError(() =>
      ExitCode.invalid(`no emulator settings in ${directory} yet: start it once with \`kas-wallet emulator --data-dir ${shellQuote(directory)}\``)
    )
  )

/**
 * A word quoted for a POSIX shell (bare when it needs no quoting).
 *
 * @since 0.1.0
 * @category formatting
 */
export const shellQuote = (s: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)

/**
 * Where the settings take the secret from: a file (read by the shell, so it is never printed), the
 * secret itself (a throwaway key, printed this once), or nowhere (the user gave it and has it).
 *
 * @since 0.1.0
 * @category models
 */
export type SecretSource =
  | { readonly _tag: "File"; readonly path: string }
  | { readonly _tag: "Value"; readonly secret: Redacted.Redacted<string> }
  | { readonly _tag: "Given"; readonly how: string }

/**
 * The shell settings for an emulator: `export` lines a shell can `eval`, so that
 * `kas-wallet accounts ...` and programs reading `WalletConfig.fromEnv` use it.
 *
 * @since 0.1.0
 * @category formatting
 */
export const envLines = (options: {
  readonly url: string
  /** The member's account id, which the console commands (`emulator pool create`, ...) read. */
  readonly accountId: string
  readonly accessKeyId: string
  readonly secret: SecretSource
  /** The data directory (absolute), for the commands that work in its database (`emulator pool`, ...). */
  readonly dataDir?: string | undefined
  /** The database (absolute path or URL), when it is not the data directory's own. */
  readonly database?: string | undefined
}): string =>
  [
    `export KAS_WALLET_URL=${shellQuote(options.url)}`,
    // Its Klaytn JSON-RPC, which `kas-wallet migrate` reads nonces and the gas price from.
    `export KAS_NODE_URL=${shellQuote(`${options.url}/v1/klaytn`)}`,
    "export KAS_CHAIN_ID=1001",
    `export KAS_ACCOUNT_ID=${shellQuote(options.accountId)}`,
    `export KAS_ACCESS_KEY_ID=${shellQuote(options.accessKeyId)}`,
    ...(options.dataDir !== undefined ? [`export KAS_EMULATOR_DATA_DIR=${shellQuote(options.dataDir)}`] : []),
    ...(options.database !== undefined ? [`export KAS_EMULATOR_DB=${shellQuote(options.database)}`] : []),
    options.secret._tag === "File"
      ? `export KAS_SECRET_ACCESS_KEY="$(cat ${shellQuote(options.secret.path)})"`
      : options.secret._tag === "Value"
      ? `export KAS_SECRET_ACCESS_KEY=${shellQuote(Redacted.value(options.secret.secret))}`
      : `# and KAS_SECRET_ACCESS_KEY: ${options.secret.how}`,
    // Pools of the real service are unknown to the emulator; a database setting left in the shell
    // by another emulator's settings would send the console commands to that one's database.
    ["unset KAS_ACCOUNT_POOL KAS_FEEPAYER_POOL", ...(options.dataDir === undefined ? ["KAS_EMULATOR_DATA_DIR"] : []), ...(options.database === undefined ? ["KAS_EMULATOR_DB"] : [])].join(" ")
  ].join("\n")
