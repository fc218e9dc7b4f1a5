/**
 * `kas-wallet migrate <file|->` and `kas-wallet accounts register <file|->`: existing Klaytn
 * accounts brought under keys of the key service, over the WalletClient (`migrateAccounts`,
 * `registerAccounts`). Their table is `Spec` (and `accounts/Spec` for `register`).
 *
 * The private keys of a migration are read from a file or stdin only — never a flag, which the
 * process list and the shell's history show — and made `Redacted` as they are read. Nothing read
 * from the file is ever printed: a malformed file is described by its entry's index and field
 * and the rule, never by a value (a file given by mistake may hold any secret). What is printed
 * are the outcomes, each the account's address, its new key and why it failed if it did.
 *
 * @since 0.8.0
 */
import { Effect, Either, Option, Redacted } from "effect"
import { type Amount, type Migration, type Registration, WalletClient, WalletConfig, type WalletError } from "effect-kas-wallet"
import * as Flags from "../../input/Flags.js"
import * as Payload from "../../input/Payload.js"
import * as Value from "../../input/Value.js"
import * as ExitCode from "../../output/ExitCode.js"
import * as Json from "../../output/Json.js"
import * as Output from "../../output/Output.js"
import type { Handler, Handlers } from "../Handler.js"
import * as Client from "../shared/Client.js"
import * as Table from "../Spec.js"

const M = { ...Table.Migrate.flags, nodeUrl: Table.Shared.flags.nodeUrl }

/**
 * The text of a document as JSON, or what is wrong with it — its position at most, never a piece
 * of it (V8's messages quote the text around the mistake).
 */
const parseJson = (document: Payload.Document): Either.Either<unknown, string> => {
  try {
    return Either.right(JSON.parse(document.text))
  } catch (error) {
    const at = /position (\d+)/.exec(error instanceof Error ? error.message : "")
    return Either.left(`${document.source} is not JSON${at !== null ? ` (at character ${at[1]})` : ""}`)
  }
}

/** The entries of a document: a JSON array, or `{ "accounts": [...] }`. */
const entriesOf = (document: Payload.Document, json: unknown): Either.Either<ReadonlyArray<unknown>, string> => {
  const list = Array.isArray(json)
    ? json
    : typeof json === "object" && json !== null && Array.isArray((json as { accounts?: unknown }).accounts)
    ? (json as { accounts: ReadonlyArray<unknown> }).accounts
    : undefined
  return list === undefined
    ? Either.left(`${document.source} must hold a JSON array of accounts (or {"accounts": [...]})`)
    : list.length === 0
    ? Either.left(`${document.source} holds no account`)
    : Either.right(list)
}

const MIGRATION_FIELDS = ["address", "privateKey", "privateKeys", "key", "nonce", "gasPrice"]

const secret = (value: unknown, at: string): Either.Either<Migration.PrivateKey, string> =>
  typeof value === "string" && value !== ""
    ? Either.right(Redacted.make(value))
    : Either.left(`${at} must be a private key as a string: 0x and 64 hex digits`)

const secrets = (value: unknown, at: string): Either.Either<ReadonlyArray<Migration.PrivateKey>, string> =>
  Array.isArray(value) && value.length > 0
    ? Either.all(value.map((v, i) => secret(v, `${at}[${i}]`)))
    : Either.left(`${at} must be a non-empty list of private keys`)

/**
 * The keys of an entry: `privateKey` (the account's own key), `privateKeys` (the keys that sign
 * its updates), or the official client's `key` — a key, a list of keys, or a role-based account's
 * three lists (transaction, account update, fee payer), of which the account-update role's signs.
 */
const keysOf = (entry: Record<string, unknown>, at: string): Either.Either<Pick<Migration.MigrationAccount, "privateKey" | "privateKeys">, string> => {
  const given = ["privateKey", "privateKeys", "key"].filter((f) => entry[f] !== undefined)
  if (given.length !== 1) return Either.left(`${at} must have exactly one of privateKey, privateKeys and key`)
  if (entry.privateKey !== undefined) return Either.map(secret(entry.privateKey, `${at}.privateKey`), (privateKey) => ({ privateKey }))
  if (entry.privateKeys !== undefined) return Either.map(secrets(entry.privateKeys, `${at}.privateKeys`), (privateKeys) => ({ privateKeys }))
  const key = entry.key
  if (typeof key === "string") return Either.map(secret(key, `${at}.key`), (privateKey) => ({ privateKey }))
  if (Array.isArray(key) && key.some(Array.isArray)) {
    if (!key.every(Array.isArray) || key.length !== 3) return Either.left(`${at}.key must be a key, a list of keys, or three lists of keys (by role)`)
    return Either.map(secrets(key[1], `${at}.key[1] (the account-update role)`), (privateKeys) => ({ privateKeys }))
  }
  return Either.map(secrets(key, `${at}.key`), (privateKeys) => ({ privateKeys }))
}

/**
 * The accounts of a migration file, the keys `Redacted` at once; `gasPrice` is the price of the
 * entries that give none. What is wrong is said by entry and field, never by value.
 *
 * @since 0.8.0
 * @category parsing
 */
export const parseMigration = (
  document: Payload.Document,
  gasPrice: Amount.Peb | undefined
): Either.Either<ReadonlyArray<Migration.MigrationAccount>, string> =>
  Either.gen(function*() {
    const entries = yield* entriesOf(document, yield* parseJson(document))
    const accounts: Array<Migration.MigrationAccount> = []
    for (const [i, raw] of entries.entries()) {
      const at = `accounts[${i}]`
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
        return yield* Either.left(`${document.source}: ${at} must be an object {address, privateKey | privateKeys, nonce?, gasPrice?}`)
      }
      const entry = raw as Record<string, unknown>
      // The name of an unknown field is not shown either: it could be a secret typed in the wrong place.
      if (Object.keys(entry).some((f) => !MIGRATION_FIELDS.includes(f))) {
        return yield* Either.left(`${document.source}: ${at} has a field other than ${MIGRATION_FIELDS.join(", ")}`)
      }
      if (typeof entry.address !== "string") return yield* Either.left(`${document.source}: ${at}.address must be a string: 0x and 40 hex digits`)
      const keys = yield* Either.mapLeft(keysOf(entry, at), (problem) => `${document.source}: ${problem}`)
      if (entry.nonce !== undefined && !(typeof entry.nonce === "number" && Number.isSafeInteger(entry.nonce) && entry.nonce >= 0)) {
        return yield* Either.left(`${document.source}: ${at}.nonce must be an integer from 0`)
      }
      let price = gasPrice
      if (entry.gasPrice !== undefined) {
        const parsed = typeof entry.gasPrice === "string" ? Value.parseAmount(entry.gasPrice) : Either.left("")
        if (Either.isLeft(parsed) || parsed.right === 0n) {
          return yield* Either.left(`${document.source}: ${at}.gasPrice must be an amount with its unit, such as "25ston"`)
        }
        price = parsed.right
      }
      accounts.push({
        address: entry.address,
        ...keys,
        ...(entry.nonce !== undefined ? { nonce: entry.nonce as number } : {}),
        ...(price !== undefined ? { gasPrice: price } : {})
      } as Migration.MigrationAccount)
    }
    return accounts
  })

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})+$/
// The form of a key id (the client checks the rest: the KRN's parts, the chain).
const KEY_ID = /^krn:[^:\s]+:wallet:[^:\s]+:[^:\s]+:[^:\s]+:0x[0-9a-fA-F]+$/
const REGISTRATION_FIELDS = ["keyId", "address", "rlp"]

/**
 * The items of a registration file: `[{keyId, address, rlp?}]`, each value a string of its form
 * (the client checks the rest). What is wrong is said by item and field, never by value.
 *
 * @since 0.8.0
 * @category parsing
 */
export const parseRegistration = (document: Payload.Document): Either.Either<ReadonlyArray<WalletClient.RegisterAccountParams>, string> =>
  Either.gen(function*() {
    const json = yield* parseJson(document)
    if (!Array.isArray(json) || json.length === 0) return yield* Either.left(`${document.source} must hold a JSON array of {keyId, address, rlp?}`)
    const items: Array<WalletClient.RegisterAccountParams> = []
    for (const [i, raw] of json.entries()) {
      const at = `${document.source}: items[${i}]`
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return yield* Either.left(`${at} must be an object {keyId, address, rlp?}`)
      const item = raw as Record<string, unknown>
      if (Object.keys(item).some((f) => !REGISTRATION_FIELDS.includes(f))) {
        return yield* Either.left(`${at} has a field other than ${REGISTRATION_FIELDS.join(", ")}`)
      }
      if (typeof item.keyId !== "string" || !KEY_ID.test(item.keyId)) {
        return yield* Either.left(`${at}.keyId must be a key id: krn:<chain-id>:wallet:<account-id>:key-pool:<pool>:0x<hex>`)
      }
      if (typeof item.address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(item.address)) {
        return yield* Either.left(`${at}.address must be 0x and 40 hex digits`)
      }
      if (item.rlp !== undefined && (typeof item.rlp !== "string" || !HEX_BYTES.test(item.rlp))) {
        return yield* Either.left(`${at}.rlp must be 0x and an even, non-zero number of hex digits`)
      }
      items.push({ keyId: item.keyId, address: item.address, ...(item.rlp !== undefined ? { rlp: item.rlp as string } : {}) })
    }
    return items
  })

/** One account's line of the table: address, outcome, key id, and its nonce or why it failed. */
const row = (o: Migration.Outcome): ReadonlyArray<string> =>
  o._tag === "Migrated"
    ? [o.address, "migrated", o.keyId.toString(), `nonce ${o.nonce}`]
    : [o.address, "failed", o.keyId?.toString() ?? "-", o.reason]

/** One account's JSON: what became of it. */
const outcomeJson = (o: Migration.Outcome) =>
  o._tag === "Migrated"
    ? { address: o.address, outcome: "migrated", keyId: o.keyId.toString(), publicKey: o.publicKey, nonce: o.nonce, senderTxHash: o.senderTxHash }
    : {
      address: o.address,
      outcome: "failed",
      reason: o.reason,
      ...(o.keyId !== undefined ? { keyId: o.keyId.toString(), publicKey: o.publicKey } : {}),
      ...(o.error !== undefined ? { error: o.error._tag } : {})
    }

/**
 * The exit of a migration or registration that did not take every account: 2 (the service or its
 * node refused them), or the code of the request's own failure when that is what failed them.
 */
const notAll = (failed: number, total: number, error: WalletError.WalletError | undefined, what: string) =>
  new ExitCode.Failure({
    message: `${failed} of ${total} ${total === 1 ? "account" : "accounts"} not ${what}${error !== undefined ? ` (the request failed: ${error._tag})` : ""}`,
    code: error !== undefined ? ExitCode.ofWalletError(error) : ExitCode.ExitCode.InvalidArgument
  })

const where = (pool: string | undefined, chainId: number) => `${pool ?? "the default pool"} on chain ${chainId}`

/**
 * `kas-wallet migrate <file|->`.
 *
 * @since 0.8.0
 * @category commands
 */
export const migrate: Handler = (run) =>
  Effect.gen(function*() {
    const gasPrice = Option.getOrUndefined(yield* Flags.read(M.gasPrice, Flags.given(run, M.gasPrice), Value.parseAmount))
    const document = yield* Payload.readDocument(Flags.positional(run, "file"), { file: "<file>", what: "the accounts" })
    const accounts = yield* Either.mapLeft(parseMigration(document, gasPrice), ExitCode.invalid)
    const nodeUrl = Option.getOrUndefined(yield* Flags.raw(M.nodeUrl, Flags.given(run, M.nodeUrl)))?.value ?? WalletConfig.DefaultNodeUrl
    const node = { url: nodeUrl, path: URL.canParse(nodeUrl) ? new URL(nodeUrl).pathname.replace(/\/+$/, "") : "/v1/klaytn" }
    const result = yield* Client.withClient(run, { pool: true, feePayerPool: false }, { operation: "migrate", node }, (print, s) =>
      Effect.tap(WalletClient.migrateAccounts(accounts), (result) =>
        print(
          s.json
            ? Json.stringify({ status: result.status, accounts: result.accounts.map(outcomeJson) })
            : [
              Output.table(["ADDRESS", "OUTCOME", "KEY ID", "DETAIL"], result.accounts.map(row), "", s),
              `${result.accounts.length - failedOf(result)} of ${result.accounts.length} migrated into ${where(s.pool, s.chainId)}`
            ].join("\n")
        )))
    const failed = result.accounts.filter((o): o is Extract<Migration.Outcome, { _tag: "Failed" }> => o._tag === "Failed")
    if (failed.length > 0) return yield* notAll(failed.length, result.accounts.length, failed.find((o) => o.error !== undefined)?.error, "migrated")
  })

const failedOf = (result: Migration.MigrationResult) => result.accounts.filter((o) => o._tag === "Failed").length

/**
 * `kas-wallet accounts register <file|->`.
 *
 * @since 0.8.0
 * @category commands
 */
export const register: Handler = (run) =>
  Effect.gen(function*() {
    const document = yield* Payload.readDocument(Flags.positional(run, "file"), { file: "<file>", what: "the registrations" })
    const items = yield* Either.mapLeft(parseRegistration(document), ExitCode.invalid)
    const result: Registration.RegistrationResult = yield* Client.withClient(run, { pool: true, feePayerPool: false }, { operation: "register" }, (print, s) =>
      Effect.tap(WalletClient.registerAccounts(items), (result) => {
        const failures = new Map(Object.entries(result.failures ?? {}).map(([a, r]) => [a.toLowerCase(), r]))
        return print(
          s.json
            ? JSON.stringify(result)
            : [
              Output.table(["ADDRESS", "OUTCOME", "KEY ID", "DETAIL"], items.map((i) => {
                const reason = failures.get(i.address.toLowerCase())
                return [i.address, reason === undefined ? "registered" : "failed", i.keyId.toString(), reason ?? (i.rlp !== undefined ? "updated" : "")]
              }), "", s),
              `${items.length - failures.size} of ${items.length} registered into ${where(s.pool, s.chainId)}`
            ].join("\n")
        )
      }))
    const failed = Object.keys(result.failures ?? {}).length
    if (failed > 0) return yield* notAll(failed, items.length, undefined, "registered")
  })

/**
 * The `migrate` command (the top-level command itself).
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = { "": migrate } satisfies Handlers<typeof Table.Migrate.spec>
