/**
 * Accounts of the wallet service and pages of them.
 *
 * @since 0.1.0
 */
import { Arbitrary, Either, type FastCheck, type ParseResult, Schema } from "effect"
import * as Address from "./Address.js"
import { isHexRange, normalizeAddress } from "./internal/hexEngine.js"
import * as ChainId from "./ChainId.js"
import * as KeyId from "./KeyId.js"
import * as Krn from "./Krn.js"
import * as Pagination from "./Pagination.js"
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

const arbitraryIn = <K extends Krn.PoolKrn>(pool: Schema.Schema<K, string>) => (fc: typeof FastCheck) =>
  fc.record({
    krn: Arbitrary.make(Schema.typeSchema(pool)),
    address: Arbitrary.make(Address.AddressFromSelf),
    publicKey: Arbitrary.make(PublicKey.PublicKey),
    keyHex: Arbitrary.make(KeyId.KeyHex),
    createdAt: Arbitrary.make(Timestamp.Timestamp),
    age: fc.nat({ max: 10_000_000 }),
    multiSigKeys: fc.option(fc.option(fc.array(Arbitrary.make(MultiSigKey), { maxLength: 3 }), { nil: null }), {
      nil: undefined
    }),
    threshold: fc.option(fc.option(fc.nat({ max: 10 }), { nil: null }), { nil: undefined })
  }).map(({ address, age, createdAt, keyHex, krn, multiSigKeys, publicKey, threshold }) => ({
    address,
    chainId: krn.chainId,
    createdAt,
    updatedAt: Timestamp.Timestamp.make(Math.min(createdAt + age, Timestamp.Max)),
    keyId: KeyId.unsafeMake(krn, keyHex),
    krn,
    publicKey,
    ...(multiSigKeys !== undefined ? { multiSigKeys } : {}),
    ...(threshold !== undefined ? { threshold } : {})
  }))

const arbitraryAccount = arbitraryIn(Krn.AccountPoolKrn)
const arbitraryFeePayer = arbitraryIn(Krn.FeePayerPoolKrn)

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
export const AccountPage = Schema.Struct({
  // `exact`: without it the encoded side is `Array | undefined`, and a failing item made the
  // message also print "Expected undefined, actual <the whole items array>" (~500 KB for a full page).
  items: Schema.optionalWith(Schema.Array(Account), { default: () => [], exact: true }),
  cursor: Pagination.Cursor
}).annotations({ identifier: "AccountPage" })

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
export const FeePayerAccountPage = Schema.Struct({
  items: Schema.optionalWith(Schema.Array(FeePayerAccount), { default: () => [], exact: true }),
  cursor: Pagination.Cursor
}).annotations({ identifier: "FeePayerAccountPage" })

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
export const AccountStatus = Schema.Struct({
  status: Schema.Literal("deleted")
}).annotations({ identifier: "AccountStatus" })

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
  accountId: Schema.String,
  count: Count,
  krn: Krn.AccountPoolKrn
}).annotations({ identifier: "PoolAccountCount" })

/**
 * @since 0.2.0
 * @category models
 */
export interface PoolAccountCount extends Schema.Schema.Type<typeof PoolAccountCount> {}

// ---------------------------------------------------------------------------------------------
// Fast decoding. The schemas above are the contract; decoding a 1000-account page with them costs
// about 30x `JSON.parse` (docs/benchmarks.md). `decodePage` / `decodeAccount` apply the very same
// rules through the same predicates, straight over the parsed JSON, and fall back to the schema
// whenever anything is off, so failures always carry the schema's path-named ParseError. Property
// tests (test/Account.test.ts) prove both paths agree on valid and broken input.
// ---------------------------------------------------------------------------------------------

interface PoolMemo<K> {
  text: string | undefined
  krn: K | undefined
}

const isSafeInt = Number.isSafeInteger
const hasOwn = Object.prototype.hasOwnProperty

const fastMultiSigKeys = (u: unknown): ReadonlyArray<MultiSigKey> | undefined => {
  if (!Array.isArray(u)) return undefined
  const out = new Array<MultiSigKey>(u.length)
  for (let i = 0; i < u.length; i++) {
    const k: unknown = u[i]
    if (typeof k !== "object" || k === null) return undefined
    const { publicKey, weight } = k as Record<string, unknown>
    if (typeof publicKey !== "string" || !PublicKey.isPublicKey(publicKey)) return undefined
    if (typeof weight !== "number" || !isSafeInt(weight) || weight <= 0) return undefined
    out[i] = { publicKey: publicKey as PublicKey.PublicKey, weight }
  }
  return out
}

/**
 * The fast decoders of accounts held in pools of type K: the schemas' result, computed over the
 * parsed JSON, falling back to the schemas for the error.
 */
const fastDecoders = <K extends Krn.PoolKrn, A extends HeldAccount, P>(
  pool: Schema.Schema<K, string>,
  account: Schema.Schema<A, any>,
  page: Schema.Schema<P, any>
) => {
  const decodePool = Schema.decodeUnknownEither(pool)
  const decodeAccountSlow = Schema.decodeUnknownEither(account)
  const decodePageSlow = Schema.decodeUnknownEither(page)

  /** The decoded account, or `undefined` when any rule fails (the schema then says which). */
  const fastAccount = (u: unknown, memo: PoolMemo<K>): A | undefined => {
    if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined
    const o = u as Record<string, unknown>
    const { address, chainId, createdAt, keyId, krn, publicKey, updatedAt } = o
    if (typeof krn !== "string" || typeof keyId !== "string" || typeof address !== "string") return undefined
    if (krn !== memo.text) {
      const decoded = decodePool(krn)
      if (Either.isLeft(decoded)) return undefined
      memo.text = krn
      memo.krn = decoded.right
    }
    const poolKrn = memo.krn!
    // Covers both the ChainId rule and the krn/chainId rule.
    if (chainId !== poolKrn.chainId) return undefined
    if (typeof createdAt !== "number" || !Timestamp.isTimestamp(createdAt)) return undefined
    if (typeof updatedAt !== "number" || !Timestamp.isTimestamp(updatedAt)) return undefined
    // KRN strings are canonical, so "<krn>:" as a prefix is exactly "the key id's pool is krn".
    // (`slice` + `===` compares the bytes at once; `startsWith` took a third of a page's decoding.)
    const n = krn.length
    if (
      keyId.charCodeAt(n) !== 0x3a || keyId.charCodeAt(n + 1) !== 0x30 || keyId.charCodeAt(n + 2) !== 0x78 ||
      !isHexRange(keyId, n + 3, keyId.length) || keyId.slice(0, n) !== krn
    ) return undefined
    const keyHex = keyId.slice(n + 1)
    if (typeof publicKey !== "string" || !PublicKey.isPublicKey(publicKey)) return undefined
    const checksummed = normalizeAddress(address)
    if (typeof checksummed !== "string") return undefined
    const result: { -readonly [F in keyof HeldAccount]: HeldAccount[F] } = {
      address: checksummed as Address.Address,
      chainId: poolKrn.chainId,
      createdAt: createdAt as Timestamp.Timestamp,
      updatedAt: updatedAt as Timestamp.Timestamp,
      keyId: KeyId.unsafeMake(poolKrn, keyHex),
      krn: poolKrn as unknown as Krn.AccountPoolKrn,
      publicKey: publicKey as PublicKey.PublicKey
    }
    if (hasOwn.call(o, "multiSigKeys")) {
      const keys = o.multiSigKeys
      if (keys === null) result.multiSigKeys = null
      else {
        const decoded = fastMultiSigKeys(keys)
        if (decoded === undefined) return undefined
        result.multiSigKeys = decoded
      }
    }
    if (hasOwn.call(o, "threshold")) {
      const threshold = o.threshold
      if (threshold === null) result.threshold = null
      else if (typeof threshold === "number" && isSafeInt(threshold) && threshold >= 0) result.threshold = threshold
      else return undefined
    }
    return result as A
  }

  return {
    decodeOne: (u: unknown): Either.Either<A, ParseResult.ParseError> => {
      const one = fastAccount(u, { text: undefined, krn: undefined })
      return one !== undefined ? Either.right(one) : decodeAccountSlow(u)
    },
    decodePage: (u: unknown): Either.Either<P, ParseResult.ParseError> => {
      if (typeof u === "object" && u !== null && !Array.isArray(u)) {
        const { cursor } = u as Record<string, unknown>
        const items: unknown = hasOwn.call(u, "items") ? (u as Record<string, unknown>).items : []
        if (typeof cursor === "string" && Array.isArray(items)) {
          const memo: PoolMemo<K> = { text: undefined, krn: undefined }
          const source: ReadonlyArray<unknown> = items
          const out = new Array<A>(source.length)
          let i = 0
          for (; i < source.length; i++) {
            const one = fastAccount(source[i], memo)
            if (one === undefined) break
            out[i] = one
          }
          if (i === source.length) return Either.right({ items: out, cursor: cursor as Pagination.Cursor } as P)
        }
      }
      return decodePageSlow(u)
    }
  }
}

const accountDecoders = fastDecoders(Krn.AccountPoolKrn, Account, AccountPage)
const feePayerDecoders = fastDecoders(Krn.FeePayerPoolKrn, FeePayerAccount, FeePayerAccountPage)

/**
 * Decodes one account from parsed JSON: the `Account` schema's result, computed faster.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeAccount: (u: unknown) => Either.Either<Account, ParseResult.ParseError> = accountDecoders.decodeOne

/**
 * Decodes a list page from parsed JSON: the `AccountPage` schema's result, computed about ten
 * times faster (every rule still applies, EIP-55 checksums included).
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodePage: (u: unknown) => Either.Either<AccountPage, ParseResult.ParseError> = accountDecoders.decodePage

/**
 * Decodes one fee-payer account from parsed JSON: the `FeePayerAccount` schema's result, computed
 * as `decodeAccount` does.
 *
 * @since 0.2.0
 * @category decoding
 */
export const decodeFeePayer: (u: unknown) => Either.Either<FeePayerAccount, ParseResult.ParseError> =
  feePayerDecoders.decodeOne

/**
 * Decodes a page of fee-payer accounts from parsed JSON: the `FeePayerAccountPage` schema's
 * result, computed as `decodePage` does.
 *
 * @since 0.2.0
 * @category decoding
 */
export const decodeFeePayerPage: (u: unknown) => Either.Either<FeePayerAccountPage, ParseResult.ParseError> =
  feePayerDecoders.decodePage
