/**
 * Encryption at rest of account private keys: AES-256-GCM under a key derived from the master key.
 *
 * The master key comes from configuration, or from a key file next to the database (created on
 * first start with mode 0600, so that only its owner can read it), or — for in-memory databases —
 * is generated for the life of the process. The database keeps a check value sealed under the
 * derived key: starting with another master key fails at once instead of storing keys that could
 * never be opened alongside ones that can.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scrypt } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import * as Database from "./Database.js"
import { EmulatorError } from "../EmulatorError.js"
import * as Store from "./Store.js"

/**
 * Where the master key comes from.
 *
 * @since 0.1.0
 * @category models
 */
export type MasterKeySource =
  | { readonly _tag: "Configured"; readonly key: Redacted.Redacted<string> }
  | { readonly _tag: "File"; readonly path: string }
  | { readonly _tag: "Ephemeral" }

/**
 * Sealing and opening of private keys.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Where the master key came from (the file path when from a file). */
  readonly source: MasterKeySource
  /** Seals a secret: 12-byte nonce, 16-byte tag, ciphertext. `context` is authenticated, not stored. */
  readonly seal: (secret: Redacted.Redacted<Uint8Array>, context: string) => Uint8Array
  /** Opens a sealed secret; `None` when it was not sealed under this key and context. */
  readonly open: (sealed: Uint8Array, context: string) => Option.Option<Redacted.Redacted<Uint8Array>>
}

/**
 * The key vault of an emulator.
 *
 * @since 0.1.0
 * @category tags
 */
export class KeyVault extends Context.Tag("effect-kas-wallet-emulator/KeyVault")<KeyVault, Service>() {}

const NONCE = 12
const TAG = 16
const CHECK_PLAINTEXT = new TextEncoder().encode("effect-kas-wallet emulator master key check v1")

const sealWith = (key: Uint8Array, secret: Uint8Array, context: string): Uint8Array => {
  const nonce = randomBytes(NONCE)
  const cipher = createCipheriv("aes-256-gcm", key, nonce)
  cipher.setAAD(Buffer.from(context, "utf8"))
  const body = Buffer.concat([cipher.update(secret), cipher.final()])
  return new Uint8Array(Buffer.concat([nonce, cipher.getAuthTag(), body]))
}

const openWith = (key: Uint8Array, sealed: Uint8Array, context: string): Option.Option<Uint8Array> => {
  if (sealed.length < NONCE + TAG) return Option.none()
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, NONCE))
    decipher.setAAD(Buffer.from(context, "utf8"))
    decipher.setAuthTag(sealed.subarray(NONCE, NONCE + TAG))
    return Option.some(new Uint8Array(Buffer.concat([decipher.update(sealed.subarray(NONCE + TAG)), decipher.final()])))
  } catch {
    return Option.none()
  }
}

/**
 * Builds a vault from a 32-byte key (no database check). For tests and tools.
 *
 * @since 0.1.0
 * @category constructors
 */
export const unsafeFromKey = (key: Redacted.Redacted<Uint8Array>, source: MasterKeySource): Service => ({
  source,
  seal: (secret, context) => sealWith(Redacted.value(key), Redacted.value(secret), context),
  open: (sealed, context) => Option.map(openWith(Redacted.value(key), sealed, context), Redacted.make)
})

const masterKeyError = (message: string) => (cause: unknown) =>
  new EmulatorError({ reason: "MasterKey", message, cause })

// One ephemeral key per process: every emulator of the process that opens the shared in-memory
// database must agree on it.
let processEphemeralKey: Redacted.Redacted<string> | undefined

const ephemeralMaterial = (): Redacted.Redacted<string> => Redacted.make(randomBytes(32).toString("hex"))

/**
 * The key file of a remote database when no master key or key file is configured, relative to the
 * working directory.
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultRemoteKeyFile = ".kas-wallet/emulator.key"

/**
 * The master key file of a database file: `<database>.key`.
 *
 * @since 0.1.0
 * @category utils
 */
export const keyFileOf = (databaseFile: string): string => `${databaseFile}.key`

/**
 * Reads a key file, creating it (mode 0600, exclusively) with a fresh random key when absent.
 *
 * @since 0.1.0
 * @category constructors
 */
export const readOrCreateKeyFile = (file: string): Effect.Effect<Redacted.Redacted<string>, EmulatorError> =>
  Effect.tryPromise({
    try: async () => {
      await Database.makeDirectory(path.dirname(file))
      try {
        // "wx": two processes starting together never overwrite each other's key.
        await fs.writeFile(file, `${randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 })
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
      }
      const text = (await fs.readFile(file, "utf8")).trim()
      if (text === "") throw new Error("the key file is empty")
      return Redacted.make(text)
    },
    catch: (cause) =>
      masterKeyError(
        `cannot read or create the master key file ${file}: ${cause instanceof Error ? cause.message : String(cause)}`
      )(cause)
  })

// A master key a person may have chosen (configured, or in a key file) is stretched with scrypt
// against guessing; the process's ephemeral key is 32 random bytes, for which HKDF is as strong
// (there is nothing to guess) and costs microseconds instead of tens of milliseconds per emulator.
const deriveKey = (material: Redacted.Redacted<string>, salt: Uint8Array, stretch: boolean) =>
  stretch ? stretched(material, salt) : Effect.sync(() => Redacted.make(new Uint8Array(hkdfSync("sha256", Redacted.value(material), salt, "effect-kas-wallet emulator master key", 32))))

const stretched = (material: Redacted.Redacted<string>, salt: Uint8Array) =>
  Effect.async<Redacted.Redacted<Uint8Array>, EmulatorError>((resume) => {
    scrypt(Redacted.value(material), salt, 32, { N: 1 << 14, r: 8, p: 1 }, (error, key) =>
      resume(
        error !== null
          ? Effect.fail(masterKeyError("cannot derive the master key")(error))
          : Effect.succeed(Redacted.make(new Uint8Array(key)))
      ))
  })

/**
 * Opens the vault of a database: resolves the master key, derives the encryption key with scrypt
 * (HKDF for the process's random ephemeral key) and a salt kept in the database, and checks it
 * against the database's check value.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  source: MasterKeySource
): Effect.Effect<Service, EmulatorError, Store.Store> =>
  Effect.gen(function*() {
    const store = yield* Store.Store
    const material = source._tag === "Configured"
      ? source.key
      : source._tag === "File"
      ? yield* readOrCreateKeyFile(source.path)
      : (processEphemeralKey ??= ephemeralMaterial())
    const dbError = masterKeyError("cannot read the master key settings of the database")
    const salt = yield* Effect.mapError(store.setting("master_key_salt", new Uint8Array(randomBytes(16))), dbError)
    const key = yield* deriveKey(material, salt, source._tag !== "Ephemeral")
    const vault = unsafeFromKey(key, source)
    const check = yield* Effect.mapError(
      store.setting("master_key_check", vault.seal(Redacted.make(CHECK_PLAINTEXT), "master-key-check")),
      dbError
    )
    if (Option.isNone(vault.open(check, "master-key-check"))) {
      return yield* new EmulatorError({
        reason: "MasterKey",
        message: source._tag === "File"
          ? `the master key in ${source.path} does not match this database (it was created with another key)`
          : source._tag === "Configured"
          ? "the configured master key does not match this database (it was created with another key)"
          : "this database was created with a master key that is not configured here"
      })
    }
    return vault
  })

/**
 * Where the master key of a database comes from, given the configured key and key file (either may
 * be absent): the configured key, else the key file, else `<database file>.key` for a file
 * database, `DefaultRemoteKeyFile` for a remote one, and an ephemeral key of the process for an
 * in-memory one. Emulators sharing a remote database must all use the same master key.
 *
 * @since 0.1.0
 * @category constructors
 */
export const resolveSource = (
  database: Database.Service,
  masterKey: Redacted.Redacted<string> | undefined,
  masterKeyFile: string | undefined
): MasterKeySource => {
  if (masterKey !== undefined) return { _tag: "Configured", key: masterKey }
  if (masterKeyFile !== undefined) return { _tag: "File", path: path.resolve(masterKeyFile) }
  if (database.location._tag === "File") return { _tag: "File", path: keyFileOf(database.location.path) }
  // A remote database outlives the process: its key must too.
  if (database.location._tag === "Remote") return { _tag: "File", path: path.resolve(DefaultRemoteKeyFile) }
  return { _tag: "Ephemeral" }
}

/**
 * The vault of the `Database` of the context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: {
  readonly masterKey?: Redacted.Redacted<string> | undefined
  readonly masterKeyFile?: string | undefined
}): Layer.Layer<KeyVault, EmulatorError, Store.Store | Database.Database> =>
  Layer.effect(
    KeyVault,
    Effect.flatMap(Database.Database, (database) =>
      make(resolveSource(database, options.masterKey, options.masterKeyFile)))
  )
