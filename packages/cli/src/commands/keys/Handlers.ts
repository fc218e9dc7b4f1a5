/**
 * `kas-wallet keys create | list | get | delete | sign`: the key service of the wallet API
 * (`createKeys`, `listKeys`, `getKey`, `deleteKey`, `signWithKey`) from the command line, over the
 * WalletClient; their table is `Spec`. The key pool is `--key-pool` or `KAS_KEY_POOL` (the `x-krn` of a creation, the pool
 * a listing lists), else the member's default key pool; a key id names its own pool.
 *
 * Every argument is checked before anything is sent: a key id by the client's `KeyId`, a hash by
 * `Key.SignableHash`, a pool by `Krn.PoolKrn`, a size by `Key.MaxCreateSize`.
 *
 * @since 0.8.0
 */
import { Effect, Option, Schema, Stream } from "effect"
import { Key, KeyId, Krn, WalletClient } from "effect-kas-wallet"
import type * as Argv from "../../input/Argv.js"
import * as Flags from "../../input/Flags.js"
import type * as ExitCode from "../../output/ExitCode.js"
import * as Output from "../../output/Output.js"
import type { Handler, Handlers } from "../Handler.js"
import * as Client from "../shared/Client.js"
import * as Table from "../Spec.js"

const K = { ...Table.Keys.flags, keyPool: Table.Shared.flags.keyPool }
const uses = { pool: false, feePayerPool: false, keyPool: true }

const encodeSignature = Schema.encodeSync(Key.KeySignature)


/**
 * Checks a key id argument with the client's `KeyId`: `<pool-krn>:0x<hex>`.
 *
 * @since 0.8.0
 * @category parsing
 */
export const parseKeyId: Flags.Parser<KeyId.KeyId> = Flags.decoded(
  KeyId.KeyId,
  "must be a key id, krn:<chain-id>:wallet:<account-id>:key-pool:<pool-name>:0x and 64 hex digits"
)

/**
 * Checks the hash a key signs: 32 bytes, `0x` and 64 hex digits (`Key.SignableHash`).
 *
 * @since 0.8.0
 * @category parsing
 */
export const parseHash: Flags.Parser<Key.SignableHash> = Flags.decoded(
  Key.SignableHash,
  "must be 32 bytes, 0x followed by 64 hex digits: a hash of what to sign"
)

const parsePool = Flags.decoded(Krn.PoolKrn, "must be a key pool KRN, krn:<chain-id>:wallet:<account-id>:key-pool:<pool-name>")

const parseSize = Flags.integer(1, Key.MaxCreateSize)

/**
 * Column titles of `keyRow`.
 *
 * @since 0.8.0
 * @category formatting
 */
export const keyHeader = ["KEY ID", "PUBLIC KEY"] as const

/**
 * One key as table cells: its whole id (to give to `keys get | sign | delete`) and its public key
 * shortened.
 *
 * @since 0.8.0
 * @category formatting
 */
export const keyRow = (key: Key.KeySummary): ReadonlyArray<string> => [key.keyId.toString(), Output.short(key.publicKey, 12, 6)]

const keyDetails = (key: Key.Key, layout: Output.Layout): string =>
  Output.table(["FIELD", "VALUE"], [
    ["keyId", key.keyId.toString()],
    ["krn", key.krn.toString()],
    ["publicKey", key.publicKey],
    ["blob", Output.hex(key.blob, 32)]
  ], "", layout)

/** The key id argument, checked before anything is sent; a bad one is exit code 2. */
const withKeyId = (run: Argv.Run, f: (keyId: KeyId.KeyId) => Effect.Effect<void, ExitCode.Failure>) =>
  Effect.flatMap(Flags.argument(run, "key-id", parseKeyId), f)

const list: Handler = (run) =>
  Effect.gen(function*() {
    const paging = yield* Client.pageAndCursor(run)
    const krn = yield* Flags.read(K.krn, Flags.given(run, K.krn), parsePool)
    // --krn, else the selected key pool (the client's keyPool), else the member's default key
    // pool: its KRN needs the member's account id, which the service's count gives.
    const selected = Option.isSome(krn) || Option.isSome(yield* Flags.raw(K.keyPool, Flags.given(run, K.keyPool)))
    const params = (s: Client.Settings) =>
      selected
        ? Effect.succeed<WalletClient.KeyListParams>({ ...paging, krn: Option.getOrUndefined(krn) })
        : Effect.map(WalletClient.accountCount(), (c): WalletClient.KeyListParams => ({
          ...paging,
          krn: `krn:${s.chainId}:wallet:${c.accountId}:${Krn.KeyPoolType}:${Krn.DefaultPoolName}`
        }))
    yield* Client.list(run, uses, {
      kind: "key",
      pool: Option.getOrUndefined(Option.map(krn, (k) => k.toString())),
      one: (s) => Effect.flatMap(params(s), WalletClient.listKeys),
      pages: (s) => Stream.unwrap(Effect.map(params(s), WalletClient.keyPages)),
      item: Key.KeySummary,
      page: Key.KeyPage,
      header: keyHeader,
      row: keyRow,
      empty: "(no keys)",
      noun: "key"
    })
  })

/**
 * The `keys` commands, by their words after `keys`.
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = {
  create: (run) =>
    Effect.flatMap(Flags.read(K.size, Flags.given(run, K.size), parseSize), (size) =>
      Client.withClient(run, uses, { operation: "create", kind: "key" }, (print, s) =>
        Effect.flatMap(
          WalletClient.createKeys(Option.getOrElse(size, () => 1)),
          Client.printer(Key.CreatedKeys, (created, layout) => Output.table(keyHeader, created.items.map(keyRow), "", layout))(print, s)
        ))),
  list,
  get: (run) =>
    withKeyId(run, (keyId) =>
      Client.withClient(run, uses, { operation: "get", kind: "key", keyId: keyId.toString() }, (print, s) =>
        Effect.flatMap(WalletClient.getKey(keyId), Client.printer(Key.Key, keyDetails)(print, s)))),
  delete: (run) =>
    withKeyId(run, (keyId) =>
      Client.withClient(run, uses, { operation: "delete", kind: "key", keyId: keyId.toString() }, (print, s) =>
        Effect.flatMap(WalletClient.deleteKey(keyId), Client.printer(Key.KeyStatus, () => `deleted ${keyId.toString()}`)(print, s)))),
  sign: (run) =>
    withKeyId(run, (keyId) =>
      Effect.flatMap(Flags.argument(run, "hash", parseHash), (hash) =>
        Client.withClient(run, uses, { operation: "sign", kind: "key", keyId: keyId.toString() }, (print, s) =>
          Effect.flatMap(WalletClient.signWithKey(keyId, hash), (signature) => {
            const { r, s: sPart, v } = Key.signatureParts(signature.signedData)
            return print(
              s.json
                ? JSON.stringify(encodeSignature(signature))
                : Output.table(["FIELD", "VALUE"], [
                  ["keyId", keyId.toString()],
                  ["hash", hash],
                  ["signedData", signature.signedData],
                  ["r", r],
                  ["s", sPart],
                  ["v", String(v)]
                ], "", s)
            )
          }))))
} satisfies Handlers<typeof Table.Keys.spec>
