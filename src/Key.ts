/**
 * The key service of the wallet (`/v2/key`): keys held in key pools, created in batches, listed by
 * pool, and signing 32-byte hashes. The results of its operations, as the public specification
 * (2021-09-29) writes them.
 *
 * @since 0.6.0
 */
import { Schema } from "effect"
import * as Refusal from "./api/Refusal.js"
import { HexBytes } from "./internal/hexBytes.js"
import * as Shapes from "./internal/shapes.js"
import { show } from "./internal/show.js"
import * as KeyId from "./KeyId.js"
import * as Krn from "./Krn.js"
import * as PublicKey from "./PublicKey.js"

/**
 * The most keys one `POST /v2/key` creates: 100.
 *
 * @since 0.6.0
 * @category constants
 */
export const MaxCreateSize = 100

// The key id names the key's pool: the cross-field rule the specification's examples follow.
const keyInItsPool = (k: { readonly keyId: KeyId.KeyId; readonly krn: Krn.PoolKrn }) =>
  Krn.equals(k.keyId.poolKrn, k.krn)
    ? undefined
    : { path: ["keyId"], message: `key id must belong to the key's pool ${k.krn.toString()}` }

// What a listing says of a key; a key read alone adds its `blob`.
const SummaryFields = { keyId: KeyId.KeyId, krn: Krn.PoolKrn, publicKey: PublicKey.PublicKey }

/**
 * One key of a listing (`GET /v2/key?krn=`): its id, the pool holding it and its public key. The
 * pool is a key pool for keys the key service created, an account or fee-payer pool for the keys
 * of accounts.
 *
 * @since 0.6.0
 * @category schemas
 */
export const KeySummary = Schema.Struct(SummaryFields).pipe(Schema.filter(keyInItsPool)).annotations({ identifier: "KeySummary" })

/**
 * @since 0.6.0
 * @category models
 */
export interface KeySummary extends Schema.Schema.Type<typeof KeySummary> {}

/**
 * A key (`GET /v2/key/{key-id}`, and each created key): its id, pool and public key, and `blob`,
 * the secret key as the service stores it, encrypted (hex bytes, kept as received; it is not the
 * private key).
 *
 * @since 0.6.0
 * @category schemas
 */
export const Key = Schema.Struct({ blob: HexBytes, ...SummaryFields }).pipe(Schema.filter(keyInItsPool)).annotations({ identifier: "Key" })

/**
 * @since 0.6.0
 * @category models
 */
export interface Key extends Schema.Schema.Type<typeof Key> {}

/**
 * The keys `POST /v2/key` created: `{ items: [Key] }`.
 *
 * @since 0.6.0
 * @category schemas
 */
export const CreatedKeys = Schema.Struct({
  items: Schema.Array(Key)
}).annotations({ identifier: "CreatedKeys" })

/**
 * @since 0.6.0
 * @category models
 */
export interface CreatedKeys extends Schema.Schema.Type<typeof CreatedKeys> {}

/**
 * One page of the key listing: its keys and the cursor of the next page (`""` on the last).
 *
 * @since 0.6.0
 * @category schemas
 */
export const KeyPage = Shapes.page(KeySummary, "KeyPage")

/**
 * @since 0.6.0
 * @category models
 */
export interface KeyPage extends Schema.Schema.Type<typeof KeyPage> {}

/**
 * What deleting a key returns: `{ status: "deleted" }`.
 *
 * @since 0.6.0
 * @category schemas
 */
export const KeyStatus = Shapes.deleted("KeyStatus")

/**
 * @since 0.6.0
 * @category models
 */
export interface KeyStatus extends Schema.Schema.Type<typeof KeyStatus> {}

const HASH = /^0x[0-9a-fA-F]{64}$/
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/

/**
 * What a key signs (`POST /v2/key/{key-id}/sign`, the body's `data`): 32 bytes, `0x` + 64 hex
 * digits — a hash, since the service limits the data to 32 bytes.
 *
 * @since 0.6.0
 * @category schemas
 */
export const SignableHash = Schema.String.pipe(
  Schema.filter((s) => HASH.test(s), {
    message: (issue) => `expected 32 bytes, 0x followed by 64 hex digits, got ${show(issue.actual)}`
  }),
  Schema.brand("SignableHash")
).annotations({ identifier: "SignableHash" })

/**
 * @since 0.6.0
 * @category models
 */
export type SignableHash = typeof SignableHash.Type

/**
 * A signature of the key service: 65 bytes, `R` (32) `S` (32) and the recovery id `V` (1: `00` or
 * `01`), as `0x` + 130 hex digits, kept as received.
 *
 * @since 0.6.0
 * @category schemas
 */
export const SignedData = Schema.String.pipe(
  Schema.filter((s) => SIGNATURE.test(s), {
    message: (issue) => `expected a 65-byte signature, 0x followed by 130 hex digits, got ${show(issue.actual)}`
  }),
  Schema.brand("SignedData")
).annotations({ identifier: "SignedData" })

/**
 * @since 0.6.0
 * @category models
 */
export type SignedData = typeof SignedData.Type

/**
 * What signing with a key returns: `{ signedData }`.
 *
 * @since 0.6.0
 * @category schemas
 */
export const KeySignature = Schema.Struct({
  signedData: SignedData
}).annotations({ identifier: "KeySignature" })

/**
 * @since 0.6.0
 * @category models
 */
export interface KeySignature extends Schema.Schema.Type<typeof KeySignature> {}

/**
 * A signature's parts: `r` and `s` (`0x` + 64 hex digits each) and the recovery id `v` (0 or 1
 * in the service's examples; the byte as it came).
 *
 * @since 0.6.0
 * @category utils
 */
export const signatureParts = (signedData: SignedData): { readonly r: string; readonly s: string; readonly v: number } => ({
  r: `0x${signedData.slice(2, 66)}`,
  s: `0x${signedData.slice(66, 130)}`,
  v: parseInt(signedData.slice(130, 132), 16)
})

const Digits = Schema.String.pipe(Schema.pattern(/^[0-9]+$/))

/**
 * The number of keys to create: an integer from 1 to `MaxCreateSize`, given as a number or as
 * decimal text (the service takes both); 0 counts as missing (1061608).
 *
 * @since 0.10.0
 * @category schemas
 */
export const CreateSize = Schema.Union(
  Schema.Number,
  Schema.transform(Digits, Schema.Number, { strict: true, decode: Number, encode: String })
).pipe(
  Schema.compose(Schema.Int),
  Schema.between(1, MaxCreateSize, { message: (issue) => `must be an integer from 1 to ${MaxCreateSize}, got ${show(issue.actual)}` }),
  Refusal.annotate({ empty: (raw) => raw === 0 || (typeof raw === "string" && /^0+$/.test(raw)) })
).annotations({ identifier: "KeyCreateSize" })

/**
 * The body of `POST /v2/key`: `{ size }`; absent or `null`, one key. Other fields are ignored.
 *
 * @since 0.10.0
 * @category schemas
 */
export const CreateRequest = Schema.Struct({
  size: Schema.optionalWith(Schema.NullOr(CreateSize), { exact: true })
}).annotations({ identifier: "KeyCreateRequest" })

/**
 * @since 0.10.0
 * @category models
 */
export interface CreateRequest extends Schema.Schema.Type<typeof CreateRequest> {}

/**
 * The body of `POST /v2/key/{key-id}/sign`: `{ data }`, the hash to sign. Not `0x` hex is 1061607,
 * hex of another length 1061615.
 *
 * @since 0.10.0
 * @category schemas
 */
export const SignRequest = Schema.Struct({
  data: SignableHash.pipe(Refusal.annotate(Refusal.hex()))
}).annotations({ identifier: "KeySignRequest" })

/**
 * @since 0.10.0
 * @category models
 */
export interface SignRequest extends Schema.Schema.Type<typeof SignRequest> {}
