/**
 * What the fast page decoders share: the page around the items, with its fall-back to the schema
 * (accounts, `decodeAccounts.ts`; the history, `decodeHistory.ts`; a multisig account's pending
 * transactions, `decodePending.ts`), and the memo of a page's checksummed addresses (the latter
 * two).
 *
 * A page of one listing repeats its addresses: a multisig account's pending transactions all name
 * the account (checksummed, and again in lower case as `txData.from`) and the same signers; a
 * member's history names its one global fee payer on every record. EIP-55 costs a keccak-256 of
 * each address, most of what decoding such a page costs beyond `JSON.parse` (measured in
 * docs/benchmarks.md): the memo hashes each distinct address text once per page.
 *
 * @internal
 */
import { Either, type ParseResult } from "effect"
import type * as Address from "../Address.js"
import type * as Pagination from "../Pagination.js"
import { normalizeAddress } from "./hexEngine.js"

// Two ways per slot, a slot per value of the last two characters, the newer text first. A miss
// costs a comparison that fails at the first differing character; a page's few repeated addresses
// stay in their slots between the recipients that pass through. Two ways, because the same address
// checksummed and in lower case (a multisig account and its `txData.from`) share their slot.
const SLOTS = 256

/**
 * The checksummed addresses of the address texts seen on one page.
 *
 * @internal
 */
export interface AddressMemo {
  readonly texts: Array<string | undefined>
  readonly addresses: Array<Address.Address | undefined>
}

/**
 * An empty memo, for one page (or one record).
 *
 * @internal
 */
export const addressMemo = (): AddressMemo => ({ texts: new Array(2 * SLOTS), addresses: new Array(2 * SLOTS) })

/**
 * What `Address.Address` and `Address.LowerCase` decode a text to (its EIP-55 checksummed form,
 * through hexEngine's `normalizeAddress`, as the schemas do), or `undefined` when they refuse it.
 * `normalizeAddress` is a function of the text alone, so a text seen before on the page gives the
 * address it gave then.
 *
 * @internal
 */
export const checksummed = (u: unknown, memo: AddressMemo): Address.Address | undefined => {
  if (typeof u !== "string" || u.length !== 42) return undefined
  const { addresses, texts } = memo
  const slot = ((u.charCodeAt(40) * 31 + u.charCodeAt(41)) & (SLOTS - 1)) << 1
  if (texts[slot] === u) return addresses[slot]
  if (texts[slot + 1] === u) return addresses[slot + 1]
  const result = normalizeAddress(u)
  if (typeof result !== "string") return undefined
  texts[slot + 1] = texts[slot]
  addresses[slot + 1] = addresses[slot]
  texts[slot] = u
  addresses[slot] = result as Address.Address
  return result as Address.Address
}

const hasOwn = Object.prototype.hasOwnProperty

/**
 * Whether an object has a field of its own (an `exact` optional field of a schema is decoded when
 * it is present, whatever its value).
 *
 * @internal
 */
export const has = (o: object, field: string): boolean => hasOwn.call(o, field)

/**
 * Whether a value is a safe integer (Effect's `Schema.Int`).
 *
 * @internal
 */
export const isInt = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u)

/**
 * The decoder of a page `{ items, cursor }` whose items `item` decodes: the page's schema's result,
 * computed item by item with one `memo` for the page, or, at the first item `item` does not vouch
 * for, the schema's own answer (its path-named ParseError, or its value where `item` was only
 * unsure). `itemsOptional`: the schema reads a page without `items` as an empty one.
 *
 * @internal
 */
export const pageDecoder = <A, P, M>(options: {
  readonly item: (u: unknown, memo: M) => A | undefined
  readonly memo: () => M
  readonly schema: (u: unknown) => Either.Either<P, ParseResult.ParseError>
  readonly itemsOptional?: boolean
}) => {
  const { item, memo, schema } = options
  const itemsOptional = options.itemsOptional === true
  return (u: unknown): Either.Either<P, ParseResult.ParseError> => {
    if (typeof u === "object" && u !== null && !Array.isArray(u)) {
      const { cursor } = u as Record<string, unknown>
      const items: unknown = itemsOptional && !has(u, "items") ? [] : (u as Record<string, unknown>).items
      if (typeof cursor === "string" && Array.isArray(items)) {
        const source: ReadonlyArray<unknown> = items
        const seen = memo()
        const out = new Array<A>(source.length)
        let i = 0
        for (; i < source.length; i++) {
          const one = item(source[i], seen)
          if (one === undefined) break
          out[i] = one
        }
        if (i === source.length) return Either.right({ items: out, cursor: cursor as Pagination.Cursor } as unknown as P)
      }
    }
    return schema(u)
  }
}

/**
 * The decoder of one item: `item`'s result (with a memo of its own), or the schema's answer.
 *
 * @internal
 */
export const oneDecoder = <A, M>(options: {
  readonly item: (u: unknown, memo: M) => A | undefined
  readonly memo: () => M
  readonly schema: (u: unknown) => Either.Either<A, ParseResult.ParseError>
}) => {
  const { item, memo, schema } = options
  return (u: unknown): Either.Either<A, ParseResult.ParseError> => {
    const one = item(u, memo())
    return one !== undefined ? Either.right(one) : schema(u)
  }
}
