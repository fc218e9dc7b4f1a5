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

const AccountFields = Schema.Struct({
  address: Address.Address,
  chainId: ChainId.ChainId,
  createdAt: Timestamp.Timestamp,
  updatedAt: Timestamp.Timestamp,
  keyId: KeyId.KeyId,
  krn: Krn.AccountPoolKrn,
  publicKey: PublicKey.PublicKey,
  multiSigKeys: Schema.optionalWith(Schema.NullOr(Schema.Array(MultiSigKey)), { exact: true }),
  threshold: Schema.optionalWith(
    Schema.NullOr(Schema.Int.pipe(Schema.nonNegative({ message: () => "threshold must be a non-negative integer" }))),
    { exact: true }
  )
})

type AccountType = typeof AccountFields.Type

/**
 * The cross-field rules the specification implies, as path-named issues: the key id names the
 * account's pool, and the pool is on the account's chain.
 */
const consistency = (a: AccountType) => {
  const issues: Array<{ path: ReadonlyArray<PropertyKey>; message: string }> = []
  if (!Krn.equals(a.keyId.poolKrn, a.krn)) {
    issues.push({ path: ["keyId"], message: `key id must belong to the account's pool ${a.krn.toString()}` })
  }
  if (a.krn.chainId !== a.chainId) {
    issues.push({ path: ["krn"], message: `pool KRN is on chain ${a.krn.chainId}, the account on chain ${a.chainId}` })
  }
  return issues
}

const arbitraryAccount = (fc: typeof FastCheck): FastCheck.Arbitrary<AccountType> =>
  fc.record({
    krn: Arbitrary.make(Schema.typeSchema(Krn.AccountPoolKrn)),
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

// ---------------------------------------------------------------------------------------------
// Fast decoding. The schemas above are the contract; decoding a 1000-account page with them costs
// about 30x `JSON.parse` (docs/benchmarks.md). `decodePage` / `decodeAccount` apply the very same
// rules through the same predicates, straight over the parsed JSON, and fall back to the schema
// whenever anything is off, so failures always carry the schema's path-named ParseError. Property
// tests (test/Account.test.ts) prove both paths agree on valid and broken input.
// ---------------------------------------------------------------------------------------------

interface PoolMemo {
  text: string | undefined
  krn: Krn.AccountPoolKrn | undefined
}

const decodeAccountPoolKrn = Schema.decodeUnknownEither(Krn.AccountPoolKrn)
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

/** The decoded account, or `undefined` when any rule fails (the schema then says which). */
const fastAccount = (u: unknown, memo: PoolMemo): Account | undefined => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined
  const o = u as Record<string, unknown>
  const { address, chainId, createdAt, keyId, krn, publicKey, updatedAt } = o
  if (typeof krn !== "string" || typeof keyId !== "string" || typeof address !== "string") return undefined
  if (krn !== memo.text) {
    const decoded = decodeAccountPoolKrn(krn)
    if (Either.isLeft(decoded)) return undefined
    memo.text = krn
    memo.krn = decoded.right
  }
  const pool = memo.krn!
  // Covers both the ChainId rule and the krn/chainId rule.
  if (chainId !== pool.chainId) return undefined
  if (typeof createdAt !== "number" || !Timestamp.isTimestamp(createdAt)) return undefined
  if (typeof updatedAt !== "number" || !Timestamp.isTimestamp(updatedAt)) return undefined
  // KRN strings are canonical, so "<krn>:" as a prefix is exactly "the key id's pool is krn".
  const n = krn.length
  if (
    keyId.charCodeAt(n) !== 0x3a || keyId.charCodeAt(n + 1) !== 0x30 || keyId.charCodeAt(n + 2) !== 0x78 ||
    !isHexRange(keyId, n + 3, keyId.length) || !keyId.startsWith(krn)
  ) return undefined
  const keyHex = keyId.slice(n + 1)
  if (typeof publicKey !== "string" || !PublicKey.isPublicKey(publicKey)) return undefined
  const checksummed = normalizeAddress(address)
  if (typeof checksummed !== "string") return undefined
  const account: {
    -readonly [K in keyof Account]: Account[K]
  } = {
    address: checksummed as Address.Address,
    chainId: pool.chainId,
    createdAt: createdAt as Timestamp.Timestamp,
    updatedAt: updatedAt as Timestamp.Timestamp,
    keyId: KeyId.unsafeMake(pool, keyHex),
    krn: pool,
    publicKey: publicKey as PublicKey.PublicKey
  }
  if (hasOwn.call(o, "multiSigKeys")) {
    const keys = o.multiSigKeys
    if (keys === null) account.multiSigKeys = null
    else {
      const decoded = fastMultiSigKeys(keys)
      if (decoded === undefined) return undefined
      account.multiSigKeys = decoded
    }
  }
  if (hasOwn.call(o, "threshold")) {
    const threshold = o.threshold
    if (threshold === null) account.threshold = null
    else if (typeof threshold === "number" && isSafeInt(threshold) && threshold >= 0) account.threshold = threshold
    else return undefined
  }
  return account
}

const decodeAccountSlow = Schema.decodeUnknownEither(Account)
const decodePageSlow = Schema.decodeUnknownEither(AccountPage)

/**
 * Decodes one account from parsed JSON: the `Account` schema's result, computed faster.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeAccount = (u: unknown): Either.Either<Account, ParseResult.ParseError> => {
  const account = fastAccount(u, { text: undefined, krn: undefined })
  return account !== undefined ? Either.right(account) : decodeAccountSlow(u)
}

/**
 * Decodes a list page from parsed JSON: the `AccountPage` schema's result, computed about ten
 * times faster (every rule still applies, EIP-55 checksums included).
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodePage = (u: unknown): Either.Either<AccountPage, ParseResult.ParseError> => {
  if (typeof u === "object" && u !== null && !Array.isArray(u)) {
    const { cursor } = u as Record<string, unknown>
    const items: unknown = hasOwn.call(u, "items") ? (u as Record<string, unknown>).items : []
    if (typeof cursor === "string" && Array.isArray(items)) {
      const memo: PoolMemo = { text: undefined, krn: undefined }
      const source: ReadonlyArray<unknown> = items
      const out = new Array<Account>(source.length)
      let i = 0
      for (; i < source.length; i++) {
        const account = fastAccount(source[i], memo)
        if (account === undefined) break
        out[i] = account
      }
      if (i === source.length) return Either.right({ items: out, cursor: cursor as Pagination.Cursor })
    }
  }
  return decodePageSlow(u)
}
