/**
 * Fast decoding of accounts and pages. The schemas of `Account` are the contract; decoding a
 * 1000-account page with them costs about 30x `JSON.parse` (docs/benchmarks.md). These decoders
 * apply the very same rules through the same predicates, straight over the parsed JSON, and fall
 * back to the schema whenever anything is off, so failures always carry the schema's path-named
 * ParseError. Property tests (test/Account.test.ts) prove both paths agree on valid and broken
 * input.
 *
 * @internal
 */
import { Either, type ParseResult, Schema } from "effect"
import * as Account from "../Account.js"
import type * as Address from "../Address.js"
import * as Krn from "../Krn.js"
import * as PublicKey from "../PublicKey.js"
import * as Timestamp from "../Timestamp.js"
import { isHexRange, normalizeAddress } from "./hexEngine.js"
import { has, isInt, oneDecoder, pageDecoder } from "./fastPage.js"
import { make as makeKeyId } from "./keyId.js"

type HeldAccount = Account.Account | Account.FeePayerAccount
type MultiSigKey = Account.MultiSigKey

interface PoolMemo<K> {
  text: string | undefined
  krn: K | undefined
}


const fastMultiSigKeys = (u: unknown): ReadonlyArray<MultiSigKey> | undefined => {
  if (!Array.isArray(u)) return undefined
  const out = new Array<MultiSigKey>(u.length)
  for (let i = 0; i < u.length; i++) {
    const k: unknown = u[i]
    if (typeof k !== "object" || k === null) return undefined
    const { publicKey, weight } = k as Record<string, unknown>
    if (typeof publicKey !== "string" || !PublicKey.isPublicKey(publicKey)) return undefined
    if (!isInt(weight) || weight <= 0) return undefined
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
      keyId: makeKeyId(poolKrn, keyHex),
      krn: poolKrn as unknown as Krn.AccountPoolKrn,
      publicKey: publicKey as PublicKey.PublicKey
    }
    if (has(o, "multiSigKeys")) {
      const keys = o.multiSigKeys
      if (keys === null) result.multiSigKeys = null
      else {
        const decoded = fastMultiSigKeys(keys)
        if (decoded === undefined) return undefined
        result.multiSigKeys = decoded
      }
    }
    if (has(o, "threshold")) {
      const threshold = o.threshold
      if (threshold === null) result.threshold = null
      else if (isInt(threshold) && threshold >= 0) result.threshold = threshold
      else return undefined
    }
    return result as A
  }

  const memo = (): PoolMemo<K> => ({ text: undefined, krn: undefined })
  return {
    decodeOne: oneDecoder({ item: fastAccount, memo, schema: decodeAccountSlow }),
    decodePage: pageDecoder({ item: fastAccount, memo, schema: decodePageSlow, itemsOptional: true })
  }
}

const accountDecoders = fastDecoders(Krn.AccountPoolKrn, Account.Account, Account.AccountPage)
const feePayerDecoders = fastDecoders(Krn.FeePayerPoolKrn, Account.FeePayerAccount, Account.FeePayerAccountPage)

/**
 * Decodes one account from parsed JSON: the `Account.Account` schema's result, computed faster.
 *
 * @internal
 */
export const decodeAccount: (u: unknown) => Either.Either<Account.Account, ParseResult.ParseError> = accountDecoders.decodeOne

/**
 * Decodes a list page from parsed JSON: the `AccountPage` schema's result, computed about ten
 * times faster (every rule still applies, EIP-55 checksums included).
 *
 * @internal
 */
export const decodePage: (u: unknown) => Either.Either<Account.AccountPage, ParseResult.ParseError> = accountDecoders.decodePage

/**
 * Decodes one fee-payer account from parsed JSON: the `FeePayerAccount` schema's result, computed
 * as `decodeAccount` does.
 *
 * @internal
 */
export const decodeFeePayer: (u: unknown) => Either.Either<Account.FeePayerAccount, ParseResult.ParseError> =
  feePayerDecoders.decodeOne

/**
 * Decodes a page of fee-payer accounts from parsed JSON: the `FeePayerAccountPage` schema's
 * result, computed as `decodePage` does.
 *
 * @internal
 */
export const decodeFeePayerPage: (u: unknown) => Either.Either<Account.FeePayerAccountPage, ParseResult.ParseError> =
  feePayerDecoders.decodePage
