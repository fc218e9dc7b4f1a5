/**
 * Accounts of the wallet service and pages of them.
 *
 * @since 0.1.0
 */
import { type FastCheck, Schema } from "effect"
import * as Address from "./Address.js"
import * as ChainId from "./ChainId.js"
import * as Shapes from "./internal/shapes.js"
import * as KeyId from "./KeyId.js"
import * as Krn from "./Krn.js"
import * as PublicKey from "./PublicKey.js"
import * as Timestamp from "./Timestamp.js"

/**
 * One key of a multisig account: its public key and weight (a positive integer).
 *
 * @since 0.1.0
 * @category schemas
 */
export const MultiSigKey = Schema.Struct({
  publicKey: PublicKey.PublicKey,
  weight: Schema.Int.pipe(Schema.positive({ message: () => "weight must be a positive integer" }))
}).annotations({ identifier: "MultiSigKey" })

/**
 * @since 0.1.0
 * @category models
 */
export interface MultiSigKey extends Schema.Schema.Type<typeof MultiSigKey> {}

// The fields of an account held in a pool of type K (an account pool or a fee-payer pool).
const fieldsIn = <K extends Krn.PoolKrn>(krn: Schema.Schema<K, string>) =>
  Schema.Struct({
    address: Address.Address,
    chainId: ChainId.ChainId,
    createdAt: Timestamp.Timestamp,
    updatedAt: Timestamp.Timestamp,
    keyId: KeyId.KeyId,
    krn,
    publicKey: PublicKey.PublicKey,
    multiSigKeys: Schema.optionalWith(Schema.NullOr(Schema.Array(MultiSigKey)), { exact: true }),
    threshold: Schema.optionalWith(
      Schema.NullOr(Schema.Int.pipe(Schema.nonNegative({ message: () => "threshold must be a non-negative integer" }))),
      { exact: true }
    )
  })

const AccountFields = fieldsIn(Krn.AccountPoolKrn)
const FeePayerFields = fieldsIn(Krn.FeePayerPoolKrn)

type AccountType = typeof AccountFields.Type
type HeldAccount = AccountType | typeof FeePayerFields.Type

/**
 * The cross-field rules the specification implies, as path-named issues: the key id names the
 * account's pool, and the pool is on the account's chain.
 */
const consistency = (a: HeldAccount) => {
  const issues: Array<{ path: ReadonlyArray<PropertyKey>; message: string }> = []
  if (!Krn.equals(a.keyId.poolKrn, a.krn)) {
    issues.push({ path: ["keyId"], message: `key id must belong to the account's pool ${a.krn.toString()}` })
  }
  if (a.krn.chainId !== a.chainId) {
    issues.push({ path: ["krn"], message: `pool KRN is on chain ${a.krn.chainId}, the account on chain ${a.chainId}` })
  }
  return issues
}

const arbitraryIn = (resourceType: string) => (fc: typeof FastCheck) =>
  fc.record({
    keyId: KeyId.arbitraryKeyId(fc, [resourceType]),
    address: Address.arbitraryAddress(fc),
    publicKey: PublicKey.arbitraryPublicKey(fc),
    createdAt: Timestamp.arbitraryTimestamp(fc),
    age: fc.nat({ max: 10_000_000 }),
    multiSigKeys: fc.option(
      fc.option(fc.array(fc.record({ publicKey: PublicKey.arbitraryPublicKey(fc), weight: fc.integer({ min: 1, max: 10 }) }), { maxLength: 3 }), { nil: null }),
      { nil: undefined }
    ),
    threshold: fc.option(fc.option(fc.nat({ max: 10 }), { nil: null }), { nil: undefined })
  }).map(({ address, age, createdAt, keyId, multiSigKeys, publicKey, threshold }) => ({
    address,
    chainId: keyId.poolKrn.chainId,
    createdAt,
    updatedAt: Math.min(createdAt + age, Timestamp.Max),
    keyId,
    krn: keyId.poolKrn,
    publicKey,
    ...(multiSigKeys !== undefined ? { multiSigKeys } : {}),
    ...(threshold !== undefined ? { threshold } : {})
  }) as any)

const arbitraryAccount = arbitraryIn(Krn.AccountPoolType)
const arbitraryFeePayer = arbitraryIn(Krn.FeePayerPoolType)

/**
 * An account as every account operation returns it, decoded from the service's JSON.
 *
 * Rules beyond each field's own: `keyId`'s pool KRN is `krn`, and `krn` is on `chainId`.
 * `multiSigKeys` and `threshold` are absent or `null` unless the account was made multisig.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Account = AccountFields.pipe(
  Schema.filter(consistency, { arbitrary: () => arbitraryAccount })
).annotations({ identifier: "Account" })

/**
 * @since 0.1.0
 * @category models
 */
export interface Account extends Schema.Schema.Type<typeof Account> {}

/**
 * The JSON form of an account, as the service sends it.
 *
 * @since 0.1.0
 * @category models
 */
export interface AccountJson extends Schema.Schema.Encoded<typeof Account> {}

/**
 * One page of a listing: its accounts, newest first, and the cursor of the next page (`""` on
 * the last page). A body without `items` decodes as an empty page.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountPage = Shapes.pageOrEmpty(Account, "AccountPage")

/**
 * @since 0.1.0
 * @category models
 */
export interface AccountPage extends Schema.Schema.Type<typeof AccountPage> {}

/**
 * Whether this is the last page of a listing (its cursor is empty).
 *
 * @since 0.1.0
 * @category utils
 */
export const isLastPage = (page: AccountPage): boolean => page.cursor === ""

/**
 * A fee-payer account: the same fields as an account, its KRN and key id in a fee-payer pool
 * (`krn:<chain>:wallet:<account-id>:feepayer-pool:<name>`). It pays transaction fees for the
 * member's other accounts.
 *
 * @since 0.2.0
 * @category schemas
 */
export const FeePayerAccount = FeePayerFields.pipe(
  Schema.filter(consistency, { arbitrary: () => arbitraryFeePayer })
).annotations({ identifier: "FeePayerAccount" })

/**
 * @since 0.2.0
 * @category models
 */
export interface FeePayerAccount extends Schema.Schema.Type<typeof FeePayerAccount> {}

/**
 * One page of the fee-payer listing, as `AccountPage` is for accounts.
 *
 * @since 0.2.0
 * @category schemas
 */
export const FeePayerAccountPage = Shapes.pageOrEmpty(FeePayerAccount, "FeePayerAccountPage")

/**
 * @since 0.2.0
 * @category models
 */
export interface FeePayerAccountPage extends Schema.Schema.Type<typeof FeePayerAccountPage> {}

/**
 * What disabling or enabling an account returns: the account, its pool and the time of the
 * change (`PUT /v2/account/{address}/disable|enable`).
 *
 * @since 0.2.0
 * @category schemas
 */
export const AccountSummary = Schema.Struct({
  address: Address.Address,
  krn: Krn.AccountPoolKrn,
  updatedAt: Timestamp.Timestamp
}).annotations({ identifier: "AccountSummary" })

/**
 * @since 0.2.0
 * @category models
 */
export interface AccountSummary extends Schema.Schema.Type<typeof AccountSummary> {}

/**
 * What deleting an account or a fee-payer account returns: `{ status: "deleted" }`.
 *
 * @since 0.2.0
 * @category schemas
 */
export const AccountStatus = Shapes.deleted("AccountStatus")

/**
 * @since 0.2.0
 * @category models
 */
export interface AccountStatus extends Schema.Schema.Type<typeof AccountStatus> {}

/**
 * Which accounts a listing returns, by state (the wire's `status` query parameter): `enabled`
 * (the service's default), `disabled`, `corrupted` or `all`. Deleted accounts are never listed.
 *
 * @since 0.2.0
 * @category schemas
 */
export const StatusFilter = Schema.Literal("enabled", "disabled", "corrupted", "all").annotations({
  identifier: "StatusFilter"
})

/**
 * @since 0.2.0
 * @category models
 */
export type StatusFilter = typeof StatusFilter.Type

/**
 * A `status` in any case (`"DISABLED"`, `"Disabled"`, `"disabled"`), decoded to the lower-case
 * `StatusFilter` the service documents. The official client accepts any case (its users write
 * `status: 'DISABLED'`) and the spec is silent, so this client and the emulator accept any case
 * too (**chosen**); the client sends the lower-case form.
 *
 * @since 0.9.0
 * @category schemas
 */
export const StatusFilterFromString = Schema.transform(Schema.String, StatusFilter, {
  strict: false,
  decode: (s) => s.toLowerCase(),
  encode: (s) => s
}).annotations({ identifier: "StatusFilterFromString" })

/**
 * A `status` as a program writes it: lower case (the wire's), upper case (the official client's
 * constants read `DISABLED`) or capitalized. Any other casing is accepted at run time too
 * (`StatusFilterFromString`).
 *
 * @since 0.9.0
 * @category models
 */
export type StatusFilterInput = StatusFilter | Uppercase<StatusFilter> | Capitalize<StatusFilter>

/**
 * One account of a public key (`GET /v2/pubkey/{public-key}/account`): its address and chain.
 *
 * @since 0.2.0
 * @category schemas
 */
export const PublicKeyAccount = Schema.Struct({
  address: Address.Address,
  chainId: ChainId.ChainId
}).annotations({ identifier: "PublicKeyAccount" })

/**
 * @since 0.2.0
 * @category models
 */
export interface PublicKeyAccount extends Schema.Schema.Type<typeof PublicKeyAccount> {}

/**
 * The accounts of a public key: `{ items: [{ address, chainId }] }`.
 *
 * @since 0.2.0
 * @category schemas
 */
export const PublicKeyAccounts = Schema.Struct({
  items: Schema.Array(PublicKeyAccount)
}).annotations({ identifier: "PublicKeyAccounts" })

/**
 * @since 0.2.0
 * @category models
 */
export interface PublicKeyAccounts extends Schema.Schema.Type<typeof PublicKeyAccounts> {}

const Count = Schema.Int.pipe(Schema.nonNegative({ message: () => "count must be a non-negative integer" }))

/**
 * The number of accounts a member holds on a chain (`GET /v2/stat/count`). `accountId` is the
 * member's account id, as in its KRNs.
 *
 * @since 0.2.0
 * @category schemas
 */
export const AccountCount = Schema.Struct({
  accountId: Schema.String,
  count: Count
}).annotations({ identifier: "AccountCount" })

/**
 * @since 0.2.0
 * @category models
 */
export interface AccountCount extends Schema.Schema.Type<typeof AccountCount> {}

/**
 * The number of accounts in one pool (`GET /v2/stat/count/krn`, the pool in `x-krn`).
 *
 * @since 0.2.0
 * @category schemas
 */
export const PoolAccountCount = Schema.Struct({
  ...AccountCount.fields,
  krn: Krn.AccountPoolKrn
}).annotations({ identifier: "PoolAccountCount" })

/**
 * @since 0.2.0
 * @category models
 */
export interface PoolAccountCount extends Schema.Schema.Type<typeof PoolAccountCount> {}

/**
 * The body of `POST /v2/feepayer`: `{ withoutAccountUpdate }`, whether to create the account
 * without the on-chain account update that registers its key (absent or `null`: `false`). Other
 * fields are ignored; the body may be left out.
 *
 * @since 0.10.0
 * @category schemas
 */
export const FeePayerCreateRequest = Schema.Struct({
  withoutAccountUpdate: Schema.optionalWith(Schema.NullOr(Schema.Boolean), { exact: true })
}).annotations({ identifier: "FeePayerCreateRequest" })

/**
 * @since 0.10.0
 * @category models
 */
export interface FeePayerCreateRequest extends Schema.Schema.Type<typeof FeePayerCreateRequest> {}
