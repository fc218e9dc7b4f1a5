/**
 * Klaytn's account keys: what they are, their RLP form (an account update's `key`) with every
 * rule the chain enforces, and whether signatures satisfy one.
 *
 * Part of `effect-kas-wallet/Klaytn` (src/Klaytn.ts), which re-exports its public names.
 *
 * @since 0.9.0
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import type { Either } from "effect"
import type * as Address from "../Address.js"
import { hexOfBytes } from "../internal/hex.js"
import { guard, invalid, type KlaytnError } from "./KlaytnError.js"
import { concat, decodeWhole, encodeRlp, uint } from "./Rlp.js"
import { asBytes, asList, asSafeInt } from "./RlpReader.js"
import { checkSignerUnsafe, recoverKeyUnsafe, type SignatureValues } from "./Signatures.js"

/**
 * A Klaytn account key, as the chain holds it: `Legacy` (the address's own key signs), `Public`
 * (one public key, 33-byte compressed), `Fail` (nothing can sign), `WeightedMultiSig` (signatures
 * whose keys' weights reach the threshold) or `RoleBased` (one key per role: transactions, account
 * updates, fee payment; a missing role falls back to the transaction role).
 *
 * @since 0.5.0
 * @category account keys
 */
export type AccountKey =
  | { readonly _tag: "Legacy" }
  | { readonly _tag: "Public"; readonly publicKey: Uint8Array }
  | { readonly _tag: "Fail" }
  | {
    readonly _tag: "WeightedMultiSig"
    readonly threshold: number
    readonly keys: ReadonlyArray<{ readonly weight: number; readonly publicKey: Uint8Array }>
  }
  | { readonly _tag: "RoleBased"; readonly roles: ReadonlyArray<AccountKey> }

/**
 * The roles of a role-based key, by index.
 *
 * @since 0.5.0
 * @category account keys
 */
export const Role = { Transaction: 0, AccountUpdate: 1, FeePayer: 2 } as const

/**
 * The most keys a weighted multisig key holds (Klaytn's MaxNumKeysForMultiSig).
 *
 * @since 0.5.0
 * @category account keys
 */
export const MaxMultiSigKeys = 10

const KEY_TYPE = { Legacy: 1, Public: 2, Fail: 3, WeightedMultiSig: 4, RoleBased: 5 } as const

const checkPublicKey = (bytes: Uint8Array, field: string): Uint8Array => {
  if (bytes.length !== 33 || (bytes[0] !== 2 && bytes[0] !== 3)) invalid(`${field}: a public key is 33 bytes, compressed`)
  try {
    secp256k1.Point.fromBytes(bytes)
  } catch {
    invalid(`${field}: not a point of secp256k1`)
  }
  return bytes
}

const checkMultiSig = (threshold: number, keys: ReadonlyArray<{ readonly weight: number; readonly publicKey: Uint8Array }>) => {
  if (keys.length === 0 || keys.length > MaxMultiSigKeys) invalid(`a multisig key holds 1 to ${MaxMultiSigKeys} keys, got ${keys.length}`)
  if (!Number.isSafeInteger(threshold) || threshold < 1) invalid("a multisig threshold is at least 1")
  let total = 0
  const seen = new Set<string>()
  for (const k of keys) {
    if (!Number.isSafeInteger(k.weight) || k.weight < 1) invalid("a multisig weight is at least 1")
    total += k.weight
    const id = hexOfBytes(k.publicKey)
    if (seen.has(id)) invalid("a multisig key holds each public key once")
    seen.add(id)
  }
  if (total < threshold) invalid(`the weights (${total}) cannot reach the threshold (${threshold})`)
}

const encodeKeyUnsafe = (key: AccountKey, nested: boolean): Uint8Array => {
  switch (key._tag) {
    case "Legacy":
    case "Fail":
      return concat([Uint8Array.of(KEY_TYPE[key._tag]), encodeRlp([])])
    case "Public":
      return concat([Uint8Array.of(KEY_TYPE.Public), encodeRlp(checkPublicKey(key.publicKey, "publicKey"))])
    case "WeightedMultiSig":
      checkMultiSig(key.threshold, key.keys)
      return concat([
        Uint8Array.of(KEY_TYPE.WeightedMultiSig),
        encodeRlp([uint(key.threshold), key.keys.map((k) => [uint(k.weight), checkPublicKey(k.publicKey, "publicKey")])])
      ])
    case "RoleBased":
      if (nested) invalid("a role-based key cannot hold a role-based key")
      if (key.roles.length === 0 || key.roles.length > 3) invalid("a role-based key has 1 to 3 roles")
      return concat([Uint8Array.of(KEY_TYPE.RoleBased), encodeRlp(key.roles.map((r) => encodeKeyUnsafe(r, true)))])
  }
}

/**
 * The RLP form of an account key (what an account update carries), checking it: compressed points
 * of the curve, 1 to 10 distinct multisig keys whose positive weights reach the threshold, 1 to 3
 * roles none of which is role-based.
 *
 * @since 0.5.0
 * @category account keys
 */
export const encodeAccountKey = (key: AccountKey): Either.Either<Uint8Array, KlaytnError> => guard(() => encodeKeyUnsafe(key, false))

const decodeKeyAt = (bytes: Uint8Array, nested: boolean): AccountKey => {
  if (bytes.length === 0) invalid("account key: empty")
  const body = decodeWhole(bytes.subarray(1))
  switch (bytes[0]) {
    case KEY_TYPE.Legacy:
    case KEY_TYPE.Fail:
      if (asList(body, "account key").length !== 0) invalid("account key: a legacy or fail key has no content")
      return { _tag: bytes[0] === KEY_TYPE.Legacy ? "Legacy" : "Fail" }
    case KEY_TYPE.Public:
      return { _tag: "Public", publicKey: checkPublicKey(asBytes(body, "account key"), "account key") }
    case KEY_TYPE.WeightedMultiSig: {
      const [threshold, keys, ...rest] = asList(body, "account key")
      if (rest.length > 0) invalid("account key: a multisig key is [threshold, keys]")
      const weighted = asList(keys, "account key keys").map((entry, i) => {
        const pair = asList(entry, `account key keys[${i}]`)
        if (pair.length !== 2) invalid(`account key keys[${i}]: [weight, public key]`)
        return { weight: asSafeInt(pair[0], "weight"), publicKey: checkPublicKey(asBytes(pair[1], "publicKey"), `keys[${i}]`) }
      })
      const t = asSafeInt(threshold, "threshold")
      checkMultiSig(t, weighted)
      return { _tag: "WeightedMultiSig", threshold: t, keys: weighted }
    }
    case KEY_TYPE.RoleBased: {
      if (nested) invalid("account key: a role-based key cannot hold a role-based key")
      const roles = asList(body, "account key roles")
      if (roles.length === 0 || roles.length > 3) invalid("account key: a role-based key has 1 to 3 roles")
      return { _tag: "RoleBased", roles: roles.map((r, i) => decodeKeyAt(asBytes(r, `roles[${i}]`), true)) }
    }
    default:
      return invalid(`account key: unknown key type ${bytes[0]}`)
  }
}

/**
 * Decodes and checks an account key (`decodeAccountKey`), refused with `invalid`.
 *
 * @internal
 */
export const decodeAccountKeyUnsafe = (bytes: Uint8Array): AccountKey => decodeKeyAt(bytes, false)

/**
 * Decodes and checks an account key from its RLP form (the rules of `encodeAccountKey`).
 *
 * @since 0.5.0
 * @category account keys
 */
export const decodeAccountKey = (bytes: Uint8Array): Either.Either<AccountKey, KlaytnError> => guard(() => decodeAccountKeyUnsafe(bytes))

/**
 * The key of a role: a missing role is the transaction role's, as Klaytn's.
 *
 * @internal
 */
export const roleKey = (key: AccountKey, role: number): AccountKey =>
  key._tag !== "RoleBased" ? key : key.roles[role] ?? key.roles[Role.Transaction]!

/**
 * Checks that signatures of `hash` satisfy `address`'s key (one of its roles' keys, never a
 * role-based one): the address itself signed for a legacy key, the public key for a public key,
 * distinct keys reaching the threshold for a multisig key; `who` names the party in the refusal.
 *
 * @internal
 */
export const validateUnsafe = (address: Address.Address, key: AccountKey, hash: Uint8Array, sigs: ReadonlyArray<SignatureValues>, chainId: number, who: string) => {
  // No signature proves nothing, whatever the key (a legacy or public key would check none).
  if (sigs.length === 0) invalid(`no ${who} signature`)
  switch (key._tag) {
    case "Legacy":
      for (const sig of sigs) checkSignerUnsafe(hash, sig, chainId, address, (signer) => `a ${who} signature recovers ${signer}, not ${address}`)
      return
    case "Fail":
      return invalid(`${address}'s key is a fail key: nothing can sign for it`)
    case "Public": {
      const expected = hexOfBytes(key.publicKey)
      for (const sig of sigs) {
        if (hexOfBytes(recoverKeyUnsafe(hash, sig, chainId)) !== expected) invalid(`a ${who} signature is not from ${address}'s public key`)
      }
      return
    }
    case "WeightedMultiSig": {
      const weights = new Map(key.keys.map((k) => [hexOfBytes(k.publicKey), k.weight]))
      const signed = new Set<string>()
      let total = 0
      for (const sig of sigs) {
        const signer = hexOfBytes(recoverKeyUnsafe(hash, sig, chainId))
        const weight = weights.get(signer)
        if (weight === undefined) invalid(`a ${who} signature is from no key of ${address}'s multisig key`)
        if (signed.has(signer)) invalid(`two ${who} signatures from one key of ${address}'s multisig key`)
        signed.add(signer)
        total += weight!
      }
      if (total < key.threshold) invalid(`the ${who} signatures weigh ${total}, below ${address}'s threshold ${key.threshold}`)
      return
    }
    case "RoleBased":
      return invalid("a role-based key has no key of its own: validate its role's")
  }
}
