/**
 * KAS resource names: `krn:<chain-id>:<service>:<account-id>:<resource-type>:<resource-id>`.
 *
 * A KRN decodes into a value with its five fields and encodes back to the exact same string.
 * `AccountPoolKrn` narrows it to the wallet service's account pools (the value of `x-krn`),
 * `FeePayerPoolKrn` to its fee-payer pools and `KeyPoolKrn` to the pools of its key service.
 *
 * @since 0.1.0
 */
import { type Either, type FastCheck, Inspectable, ParseResult, Schema } from "effect"
import { SEGMENT } from "./internal/segment.js"
import { show } from "./internal/show.js"
import * as ChainId from "./ChainId.js"

/**
 * Services that name resources with KRNs.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Service = Schema.Literal("node", "th", "wallet", "anchor").annotations({
  identifier: "KrnService",
  message: (issue) => ({
    message: `service must be one of node, th, wallet, anchor, got ${show(issue.actual)}`,
    override: true
  })
})

/**
 * @since 0.1.0
 * @category models
 */
export type Service = typeof Service.Type


/**
 * One KRN segment (account id, resource type or resource id): non-empty visible ASCII, without
 * `:` or `,`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Segment = Schema.String.pipe(
  Schema.nonEmptyString({ message: () => "segment must not be empty" }),
  Schema.pattern(SEGMENT, { message: () => "segment must be visible ASCII without ':' or ','" })
).annotations({ identifier: "KrnSegment" })

/**
 * The decoded KRN: a value holding its five fields. `String(krn)` and `JSON.stringify` give the
 * wire form; values compare with `Equal.equals`.
 *
 * @since 0.1.0
 * @category schemas
 */
export class KrnFromSelf extends Schema.Class<KrnFromSelf>("Krn")({
  chainId: ChainId.ChainId,
  service: Service,
  accountId: Segment,
  resourceType: Segment,
  resourceId: Segment
}) {
  /** The wire form, `krn:<chain-id>:<service>:<account-id>:<resource-type>:<resource-id>`. */
  override toString(): string {
    return `krn:${this.chainId}:${this.service}:${this.accountId}:${this.resourceType}:${this.resourceId}`
  }

  /** The wire form, so that records holding a KRN serialize as the service expects. */
  toJSON(): string {
    return this.toString()
  }

  /** The wire form, for `console.log` and `util.inspect`. */
  [Inspectable.NodeInspectSymbol](): string {
    return this.toString()
  }
}

/**
 * A decoded KRN.
 *
 * @since 0.1.0
 * @category models
 */
export type Krn = KrnFromSelf

const Parts = Schema.Struct({
  chainId: ChainId.FromHeader,
  service: Service,
  accountId: Segment,
  resourceType: Segment,
  resourceId: Segment
})
const decodeParts = ParseResult.decodeUnknownEither(Parts)

// A page of accounts repeats one pool KRN in every `krn` and `keyId`: decoding each distinct
// string once keeps page decoding cheap. Values are immutable, so sharing them is safe.
const cache = new Map<string, Krn>()
const CACHE_LIMIT = 256

const FORMAT = "krn:<chain-id>:<service>:<account-id>:<resource-type>:<resource-id>"

/**
 * Decodes KRN strings into `Krn` values and encodes them back.
 *
 * Rules: six colon-separated parts, the first `krn`; chain id exactly `8217` or `1001`; service one
 * of node, th, wallet, anchor; other segments non-empty visible ASCII without `,`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Krn: Schema.Schema<Krn, string> = Schema.transformOrFail(
  Schema.String,
  Schema.typeSchema(KrnFromSelf),
  {
    strict: true,
    decode: (s, _, ast) => {
      const cached = cache.get(s)
      if (cached !== undefined) return ParseResult.succeed(cached)
      const parts = s.split(":")
      if (parts.length !== 6 || parts[0] !== "krn") {
        return ParseResult.fail(
          new ParseResult.Type(ast, s, `KRN must have the form ${FORMAT} (6 colon-separated parts)`)
        )
      }
      const decoded = decodeParts({
        chainId: parts[1],
        service: parts[2],
        accountId: parts[3],
        resourceType: parts[4],
        resourceId: parts[5]
      })
      if (decoded._tag === "Left") return ParseResult.fail(decoded.left)
      const krn = new KrnFromSelf(decoded.right, true)
      if (cache.size >= CACHE_LIMIT) cache.clear()
      cache.set(s, krn)
      return ParseResult.succeed(krn)
    },
    encode: (krn) => ParseResult.succeed(krn.toString())
  }
).annotations({ identifier: "Krn", description: `a KRN, ${FORMAT}` })

/**
 * Resource type of an account pool of the wallet service.
 *
 * @since 0.1.0
 * @category constants
 */
export const AccountPoolType = "account-pool"

/**
 * Resource type of a fee-payer pool of the wallet service.
 *
 * @since 0.1.0
 * @category constants
 */
export const FeePayerPoolType = "feepayer-pool"

/**
 * Resource type of a key pool of the wallet's key service (`/v2/key`).
 *
 * @since 0.6.0
 * @category constants
 */
export const KeyPoolType = "key-pool"

/**
 * Name of the pool the service creates for members who made none; used when no `x-krn` is sent.
 *
 * @since 0.1.0
 * @category constants
 */
export const DefaultPoolName = "default"

/**
 * Whether a KRN names an account pool of the wallet service.
 *
 * @since 0.1.0
 * @category guards
 */
export const isAccountPool = (krn: Krn): boolean => krn.service === "wallet" && krn.resourceType === AccountPoolType

/**
 * Whether a KRN names a fee-payer pool of the wallet service.
 *
 * @since 0.2.0
 * @category guards
 */
export const isFeePayerPool = (krn: Krn): boolean => krn.service === "wallet" && krn.resourceType === FeePayerPoolType

/**
 * Whether a KRN names a key pool of the wallet's key service.
 *
 * @since 0.6.0
 * @category guards
 */
export const isKeyPool = (krn: Krn): boolean => krn.service === "wallet" && krn.resourceType === KeyPoolType

/**
 * Whether a KRN names a pool of the wallet service: an account pool, a fee-payer pool or a key
 * pool.
 *
 * @since 0.1.0
 * @category guards
 */
export const isPool = (krn: Krn): boolean =>
  krn.service === "wallet" &&
  (krn.resourceType === AccountPoolType || krn.resourceType === FeePayerPoolType || krn.resourceType === KeyPoolType)

/**
 * A pool KRN of the wallet service with one of `resourceTypes`, on either chain, for the
 * `arbitrary` annotations of the schemas holding one (fast-check as annotations receive it).
 *
 * @since 0.9.0
 * @internal
 */
export const arbitraryPoolKrn = <A>(fc: typeof FastCheck, resourceTypes: ReadonlyArray<string>): FastCheck.Arbitrary<A> =>
  fc.record({
    chainId: fc.constantFrom(ChainId.Mainnet, ChainId.Testnet),
    accountId: fc.oneof(fc.uuid(), fc.stringMatching(SEGMENT)),
    resourceType: fc.constantFrom(...resourceTypes),
    resourceId: fc.oneof(fc.constant(DefaultPoolName), fc.stringMatching(SEGMENT))
  }).map((fields) => new KrnFromSelf({ ...fields, service: "wallet" }, true) as unknown as A)

const arbitraryPool = <A>(resourceTypes: ReadonlyArray<string>) => () => (fc: typeof FastCheck) => arbitraryPoolKrn<A>(fc, resourceTypes)

/**
 * A KRN of a wallet pool: an account pool, a fee-payer pool or a key pool. Key ids name one.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PoolKrn = Krn.pipe(
  Schema.filter(isPool, {
    message: () => "expected a wallet pool KRN (krn:<chain-id>:wallet:<account-id>:account-pool|feepayer-pool|key-pool:<name>)",
    arbitrary: arbitraryPool([AccountPoolType, FeePayerPoolType, KeyPoolType])
  }),
  Schema.brand("PoolKrn")
).annotations({ identifier: "PoolKrn" })

// The pool KRN of one resource type, branded `brand`; `what` names it in the failure message.
const poolOf = <B extends string>(brand: B, resourceType: string, is: (krn: Krn) => boolean, what: string) =>
  PoolKrn.pipe(
    Schema.filter(is, {
      message: () => `expected ${what} KRN (krn:<chain-id>:wallet:<account-id>:${resourceType}:<pool-name>)`,
      arbitrary: arbitraryPool([resourceType])
    }),
    Schema.brand(brand)
  ).annotations({ identifier: brand })

/**
 * @since 0.1.0
 * @category models
 */
export type PoolKrn = typeof PoolKrn.Type

/**
 * The KRN of an account pool: `krn:<chain-id>:wallet:<account-id>:account-pool:<pool-name>`. This
 * is what `x-krn` carries to select a pool, and the `krn` of every account.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountPoolKrn = poolOf("AccountPoolKrn", AccountPoolType, isAccountPool, "an account pool")

/**
 * @since 0.1.0
 * @category models
 */
export type AccountPoolKrn = typeof AccountPoolKrn.Type

/**
 * The KRN of a fee-payer pool: `krn:<chain-id>:wallet:<account-id>:feepayer-pool:<pool-name>`. The
 * `krn` of every fee-payer account, and the second KRN of `x-krn` in a transfer whose fee a
 * fee-payer account of the member pays.
 *
 * @since 0.2.0
 * @category schemas
 */
export const FeePayerPoolKrn = poolOf("FeePayerPoolKrn", FeePayerPoolType, isFeePayerPool, "a fee-payer pool")

/**
 * @since 0.2.0
 * @category models
 */
export type FeePayerPoolKrn = typeof FeePayerPoolKrn.Type

/**
 * The KRN of a key pool: `krn:<chain-id>:wallet:<account-id>:key-pool:<pool-name>`. The `krn` of
 * every key the key service creates (`POST /v2/key`), and what `GET /v2/key?krn=` lists.
 *
 * @since 0.6.0
 * @category schemas
 */
export const KeyPoolKrn = poolOf("KeyPoolKrn", KeyPoolType, isKeyPool, "a key pool")

/**
 * @since 0.6.0
 * @category models
 */
export type KeyPoolKrn = typeof KeyPoolKrn.Type

// From the fields (validated one by one) to a pool KRN of either type.
const poolBuilder = <K extends KrnFromSelf>(resourceType: string, schema: Schema.Schema<K, string>) => {
  const decode = Schema.decodeUnknownEither(Schema.compose(KrnFromSelf, Schema.typeSchema(schema) as unknown as Schema.Schema<K, KrnFromSelf>))
  return (chainId: ChainId.ChainId, accountId: string, poolName: string = DefaultPoolName): Either.Either<K, ParseResult.ParseError> =>
    decode({ chainId, service: "wallet", accountId, resourceType, resourceId: poolName })
}

/**
 * Builds the KRN of a member's account pool from its parts, validating each. The pool name
 * defaults to `default`.
 *
 * @example
 * ```ts
 * import { ChainId, Krn } from "effect-kas-wallet"
 * import { Either } from "effect"
 *
 * const pool = Either.getOrThrow(
 *   Krn.accountPool(ChainId.Testnet, "68ec0e4b-0f61-4e6f-ae35-be865ab23187", "payroll")
 * )
 * String(pool) // "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:payroll"
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const accountPool: (
  chainId: ChainId.ChainId,
  accountId: string,
  poolName?: string
) => Either.Either<AccountPoolKrn, ParseResult.ParseError> = poolBuilder(AccountPoolType, AccountPoolKrn)

/**
 * Builds the KRN of a member's fee-payer pool from its parts, validating each. The pool name
 * defaults to `default`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const feePayerPool: (
  chainId: ChainId.ChainId,
  accountId: string,
  poolName?: string
) => Either.Either<FeePayerPoolKrn, ParseResult.ParseError> = poolBuilder(FeePayerPoolType, FeePayerPoolKrn)

/**
 * Builds the KRN of a member's key pool from its parts, validating each. The pool name defaults
 * to `default`.
 *
 * @since 0.6.0
 * @category constructors
 */
export const keyPool: (
  chainId: ChainId.ChainId,
  accountId: string,
  poolName?: string
) => Either.Either<KeyPoolKrn, ParseResult.ParseError> = poolBuilder(KeyPoolType, KeyPoolKrn)

/**
 * Decodes a KRN string, typed failure included.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode: (s: string) => Either.Either<Krn, ParseResult.ParseError> = Schema.decodeEither(Krn)

/**
 * The same KRN on another chain (pools exist per chain).
 *
 * @since 0.1.0
 * @category combinators
 */
export const withChainId = <K extends Krn>(krn: K, chainId: ChainId.ChainId): K =>
  (krn.chainId === chainId ? krn : new KrnFromSelf({ ...krn, chainId }, true)) as K

/**
 * Field-by-field equality of two KRNs (the same resource).
 *
 * @since 0.1.0
 * @category equivalence
 */
export const equals = (a: Krn, b: Krn): boolean =>
  a === b ||
  (a.chainId === b.chainId && a.service === b.service && a.accountId === b.accountId &&
    a.resourceType === b.resourceType && a.resourceId === b.resourceId)
