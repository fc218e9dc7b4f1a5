/**
 * The key of a Klaytn account, as an account update sets it: `Legacy` (the key the address was
 * made from), `Public` (one public key), `Fail` (no transaction is ever valid: the account is
 * disabled for good), `WeightedMultiSig` (weighted keys and a threshold) and `RoleBased` (one key
 * for transactions, one for account updates, one for paying fees).
 *
 * The wire form (`Json`) is the service's `{ keyType, key? }`: 1 legacy, 2 public, 3 fail, 4
 * weighted multisig `{ threshold, weightedKeys: [{ publicKey, weight }] }`, 5 role-based (an array
 * of up to three keys of the other types). Its schema holds every rule the service enforces, so a
 * key is refused, field named, before anything is sent: public keys well-formed and distinct
 * within a multisig key, weights positive, a threshold from 1 to the sum of the weights, 1 to 10
 * weighted keys, no legacy key (1061917) and no role-based key inside a role-based one.
 *
 * `toKlaytn` gives the key as the Klaytn codec takes it; `Klaytn.encodeAccountKey` encodes it as
 * an account-update result's `accountKey` shows it (`0x01c0` for a legacy key), which the client
 * compares with what it asked for.
 *
 * @example
 * ```ts
 * import { AccountKey, TransactionKind } from "effect-kas-wallet"
 *
 * const update = TransactionKind.AccountUpdate({
 *   accountKey: AccountKey.WeightedMultiSig({
 *     threshold: 2,
 *     keys: [{ publicKey: "0x04...", weight: 1 }, { publicKey: "0x04...", weight: 1 }]
 *   })
 * })
 * ```
 *
 * @since 0.5.0
 */
import { Data, Schema } from "effect"
import { bytesOfHex } from "./internal/hex.js"
import type * as Klaytn from "./Klaytn.js"
import * as PublicKey from "./PublicKey.js"

/**
 * One key of a weighted multisig key.
 *
 * @since 0.5.0
 * @category models
 */
export interface WeightedKey {
  readonly publicKey: PublicKey.PublicKey | string
  /** A positive integer. */
  readonly weight: number
}

/**
 * An account key.
 *
 * @since 0.5.0
 * @category models
 */
export type AccountKey = Data.TaggedEnum<{
  Legacy: {}
  Public: { readonly publicKey: PublicKey.PublicKey | string }
  Fail: {}
  WeightedMultiSig: { readonly threshold: number; readonly keys: ReadonlyArray<WeightedKey> }
  RoleBased: {
    /** Signs the account's transactions. */
    readonly transaction: RoleKey
    /** Signs updates of the account's key; absent: not set by this update. */
    readonly accountUpdate?: RoleKey | undefined
    /** Signs as fee payer; absent: not set by this update. */
    readonly feePayer?: RoleKey | undefined
  }
}>

/**
 * A key a role of a role-based key can hold: neither a legacy key (the service refuses it, code
 * 1061917) nor a role-based one.
 *
 * @since 0.5.0
 * @category models
 */
export type RoleKey = Exclude<AccountKey, { readonly _tag: "Legacy" | "RoleBased" }>

const constructors = Data.taggedEnum<AccountKey>()

/**
 * The constructors, guards and matcher of account keys.
 *
 * @since 0.5.0
 * @category constructors
 */
export const { $is, $match, Public, RoleBased, WeightedMultiSig } = constructors

/**
 * The legacy key: the one the address was derived from.
 *
 * @since 0.5.0
 * @category constructors
 */
export const Legacy: AccountKey = constructors.Legacy()

/**
 * The fail key: no signature is ever valid, the account can no longer send.
 *
 * @since 0.5.0
 * @category constructors
 */
export const Fail: AccountKey = constructors.Fail()

/**
 * The largest number of keys of a weighted multisig key.
 *
 * @since 0.5.0
 * @category constants
 */
export const MaxWeightedKeys = 10

/**
 * The `keyType` of each key on the wire.
 *
 * @since 0.5.0
 * @category constants
 */
export const KeyType = { Legacy: 1, Public: 2, Fail: 3, WeightedMultiSig: 4, RoleBased: 5 } as const

// ---------------------------------------------------------------------------------------------
// Wire form
// ---------------------------------------------------------------------------------------------

const Positive = Schema.Int.pipe(Schema.positive({ message: () => "must be a positive integer" }))

// A public key's identity, whatever its form: its compressed encoding (x and the parity of y).
const compressed = (key: string): string => {
  const hex = key.slice(2).toLowerCase()
  if (hex.length === 66) return hex
  const xy = hex.length === 130 ? hex.slice(2) : hex
  return (parseInt(xy.slice(127), 16) % 2 === 0 ? "02" : "03") + xy.slice(0, 64)
}

const WeightedKeyJson = Schema.Struct({ publicKey: PublicKey.PublicKey, weight: Positive })

/**
 * The `key` of a weighted multisig key on the wire, `{ threshold, weightedKeys: [{ publicKey,
 * weight }] }`: 1 to 10 distinct public keys (in any form `PublicKey` accepts), positive weights,
 * a threshold from 1 to their sum. It is also the body of `PUT /v2/account/{address}/multisig`.
 *
 * @since 0.8.0
 * @category schemas
 */
export const MultiSigJson = Schema.Struct({
  threshold: Positive,
  weightedKeys: Schema.Array(WeightedKeyJson).pipe(
    Schema.minItems(1, { message: () => "at least one weighted key" }),
    Schema.maxItems(MaxWeightedKeys, { message: () => `at most ${MaxWeightedKeys} weighted keys` })
  )
}).pipe(Schema.filter((k) => {
  const total = k.weightedKeys.reduce((sum, w) => sum + w.weight, 0)
  if (k.threshold > total) {
    return { path: ["threshold"], message: `threshold ${k.threshold} cannot be reached: the weights sum to ${total}` }
  }
  const seen = new Set<string>()
  for (const [i, w] of k.weightedKeys.entries()) {
    const id = compressed(w.publicKey)
    if (seen.has(id)) return { path: ["weightedKeys", i, "publicKey"], message: "the same public key appears twice" }
    seen.add(id)
  }
  return true
})).annotations({ identifier: "WeightedMultiSig" })

/**
 * @since 0.8.0
 * @category models
 */
export type MultiSigJson = typeof MultiSigJson.Type

const strict = { parseOptions: { onExcessProperty: "error" } } as const

const LegacyJson = Schema.Struct({ keyType: Schema.Literal(KeyType.Legacy) }).annotations(strict)
const PublicJson = Schema.Struct({ keyType: Schema.Literal(KeyType.Public), key: PublicKey.PublicKey }).annotations(strict)
const FailJson = Schema.Struct({ keyType: Schema.Literal(KeyType.Fail) }).annotations(strict)
const WeightedMultiSigJson = Schema.Struct({ keyType: Schema.Literal(KeyType.WeightedMultiSig), key: MultiSigJson }).annotations(strict)

// Listed so that a legacy role is refused with the service's reason rather than "expected 2, 3 or 4".
const LegacyRole = LegacyJson.pipe(
  Schema.filter(() => "a role-based key cannot hold a legacy key (the service refuses it with 1061917)")
)

const RoleBasedJson = Schema.Struct({
  keyType: Schema.Literal(KeyType.RoleBased),
  key: Schema.Array(Schema.Union(PublicJson, FailJson, WeightedMultiSigJson, LegacyRole)).pipe(
    Schema.minItems(1, { message: () => "a role-based key has 1 to 3 roles (transaction, account update, fee payer)" }),
    Schema.maxItems(3, { message: () => "a role-based key has 1 to 3 roles (transaction, account update, fee payer)" })
  )
}).annotations(strict)

/**
 * The wire form of an account key, `{ keyType, key? }`, with every rule of the service (see the
 * module's documentation). Members are told apart by `keyType`, so a mistake names the field of
 * the key it is in (`key.threshold`, `key.weightedKeys.1.publicKey`, `key.0`).
 *
 * @since 0.5.0
 * @category schemas
 */
export const Json = Schema.Union(LegacyJson, PublicJson, FailJson, WeightedMultiSigJson, RoleBasedJson).annotations({
  identifier: "AccountKey"
})

/**
 * @since 0.5.0
 * @category models
 */
export type Json = typeof Json.Type

/**
 * The JSON the service takes (its `Encoded` form).
 *
 * @since 0.5.0
 * @category models
 */
export type JsonEncoded = typeof Json.Encoded

type RoleJson = Exclude<JsonEncoded, { readonly keyType: 1 | 5 }>

/**
 * The wire form of a key, unchecked: `Json` checks it (the client decodes every body with it
 * before sending). Total: a value that is not a key (from JavaScript) becomes a form `Json`
 * refuses, naming `keyType`.
 *
 * @since 0.5.0
 * @category formatting
 */
export const toJson = (key: AccountKey): JsonEncoded => {
  const k = key as Partial<Record<string, any>> | null | undefined
  switch (k?._tag) {
    case "Legacy":
      return { keyType: KeyType.Legacy }
    case "Public":
      return { keyType: KeyType.Public, key: k.publicKey }
    case "Fail":
      return { keyType: KeyType.Fail }
    case "WeightedMultiSig":
      return {
        keyType: KeyType.WeightedMultiSig,
        key: {
          threshold: k.threshold,
          weightedKeys: Array.isArray(k.keys) ? k.keys.map((w: WeightedKey) => ({ publicKey: w?.publicKey, weight: w?.weight })) : k.keys
        }
      }
    case "RoleBased":
      return {
        keyType: KeyType.RoleBased,
        key: [k.transaction, k.accountUpdate, k.feePayer].filter((r) => r !== undefined).map(toJson) as Array<RoleJson>
      }
    default:
      return { keyType: String(k?._tag ?? k) } as unknown as JsonEncoded
  }
}

/**
 * The key of a (checked) wire form.
 *
 * @since 0.5.0
 * @category constructors
 */
export const fromJson = (json: Json): AccountKey => {
  switch (json.keyType) {
    case KeyType.Legacy:
      return Legacy
    case KeyType.Public:
      return Public({ publicKey: json.key })
    case KeyType.Fail:
      return Fail
    case KeyType.WeightedMultiSig:
      return WeightedMultiSig({ threshold: json.key.threshold, keys: json.key.weightedKeys })
    case KeyType.RoleBased: {
      const [transaction, accountUpdate, feePayer] = json.key.map((k) => fromJson(k as Json) as RoleKey)
      return RoleBased({ transaction: transaction!, accountUpdate, feePayer })
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Klaytn's form
// ---------------------------------------------------------------------------------------------

const klaytnRole = (key: RoleKey): Klaytn.AccountKey => toKlaytn(key)

/**
 * The key as the Klaytn codec takes it (`Klaytn.encodeAccountKey` gives its RLP form, the
 * `accountKey` of an account-update result): public keys compressed, roles in Klaytn's order
 * (transaction, account update, fee payer).
 *
 * @since 0.5.0
 * @category formatting
 */
export const toKlaytn = (key: AccountKey): Klaytn.AccountKey =>
  $match(key, {
    Legacy: (): Klaytn.AccountKey => ({ _tag: "Legacy" }),
    Public: (k): Klaytn.AccountKey => ({ _tag: "Public", publicKey: bytesOfHex(compressed(k.publicKey)) }),
    Fail: (): Klaytn.AccountKey => ({ _tag: "Fail" }),
    WeightedMultiSig: (k): Klaytn.AccountKey => ({
      _tag: "WeightedMultiSig",
      threshold: k.threshold,
      keys: k.keys.map((w) => ({ weight: w.weight, publicKey: bytesOfHex(compressed(w.publicKey)) }))
    }),
    RoleBased: (k): Klaytn.AccountKey => ({
      _tag: "RoleBased",
      roles: [k.transaction, k.accountUpdate, k.feePayer].filter((r): r is RoleKey => r !== undefined).map(klaytnRole)
    })
  })
