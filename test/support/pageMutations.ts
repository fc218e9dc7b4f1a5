/**
 * Broken and reshuffled pages for the property tests that prove a fast page decoder and its schema
 * agree (test/FeeHistory.test.ts, test/Multisig.test.ts; `expectSameOutcome` also for the fee-payer
 * decoders of test/Account.lifecycle.test.ts): one change at a time to a page of
 * encoded items, at a field named by its path in an item, with junk, nothing, another item's
 * value, or an address of the page in another spelling (the decoders memoize a page's addresses:
 * the same text must give the same answer, another spelling its own).
 */
import { expect } from "@effect/vitest"
import { Either, FastCheck as fc, type ParseResult } from "effect"
import { isDeepStrictEqual } from "node:util"
import * as Address from "../../src/Address.js"

export type Json = Record<string, unknown>

/** A field of an item: property names, and array indices (taken modulo the array's length). */
export type Path = ReadonlyArray<string | number>

/** A deep copy through JSON text, as the client sees a response body. */
export const viaJson = <A>(a: A): Json => JSON.parse(JSON.stringify(a)) as Json

const bigints = (_: string, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)

// What `expectSameOutcome` asserts, as a boolean: deep strict equality (which the `toStrictEqual`
// it stands for accepts: decoded items keep no state outside their own fields, as a Redacted
// would) and the same JSON text, or the same message.
const agree = <A>(fast: Either.Either<A, ParseResult.ParseError>, slow: Either.Either<A, ParseResult.ParseError>): boolean =>
  Either.isRight(slow)
    ? Either.isRight(fast) && isDeepStrictEqual(fast.right, slow.right) && JSON.stringify(fast.right, bigints) === JSON.stringify(slow.right, bigints)
    : Either.isLeft(fast) && fast.left.message === slow.left.message

/**
 * Fast decoder and schema: both Right with deep-equal values whose fields come in the same order,
 * or both Left with the same message.
 */
export const expectSameOutcome = <A>(
  fast: Either.Either<A, ParseResult.ParseError>,
  slow: Either.Either<A, ParseResult.ParseError>
): void => {
  // Vitest's `expect` only for what differs (see `agree`): these properties compare thousands of
  // outcomes, and each `expect` costs vitest its bookkeeping.
  if (agree(fast, slow)) return
  if (Either.isRight(slow)) {
    expect(Either.isRight(fast)).toBe(true)
    if (Either.isRight(fast)) {
      expect(fast.right).toStrictEqual(slow.right)
      expect(JSON.stringify(fast.right, bigints)).toBe(JSON.stringify(slow.right, bigints))
    }
  } else {
    expect(Either.isLeft(fast)).toBe(true)
    if (Either.isLeft(fast)) expect(fast.left.message).toBe(slow.left.message)
  }
}

const flipCaseAt = (s: string, i: number): string => {
  const c = s[i]!
  return s.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + s.slice(i + 1)
}

/** A mixed-case spelling of an address that is not its checksum (`undefined`: none exists). */
const breakChecksum = (address: string): string | undefined => {
  for (let i = 2; i < address.length; i++) {
    if (!/[a-fA-F]/.test(address[i]!)) continue
    const digits = flipCaseAt(address, i).slice(2)
    if (digits !== digits.toLowerCase() && digits !== digits.toUpperCase()) return flipCaseAt(address, i)
  }
  return undefined
}

const spell = (text: string, variant: "same" | "lower" | "upper" | "checksummed" | "broken"): string | undefined => {
  const checksummed = Address.checksum(text)
  switch (variant) {
    case "same":
      return text
    case "lower":
      return `0x${text.slice(2).toLowerCase()}`
    case "upper":
      return `0x${text.slice(2).toUpperCase()}`
    case "checksummed":
      return checksummed._tag === "Some" ? checksummed.value : undefined
    case "broken":
      return checksummed._tag === "Some" ? breakChecksum(checksummed.value) : undefined
  }
}

/** Values a field should not hold, and some it may. */
export const JUNK: ReadonlyArray<unknown> = [
  "", null, 0, -0, -1, 1, 1.5, 99, 100, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 - 1, 1001, 8217, "1001", 1599187293000,
  253402300800, "0x", "0x0", "0x1", "0X1", "0xg", "0.5", "1.", ".5", "01", "1e3", "99", "100", [], {}, true, undefined,
  `0x${"ab".repeat(32)}`, `0x${"AB".repeat(32)}`, "0x0000000000000000000000000000000000000000", [{}], [null]
]

/** Values a field should not hold, and some it may. */
export const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.integer({ min: -3, max: 120 }),
  fc.double(),
  fc.constantFrom<unknown>(...JUNK)
)

export const EDITS = [
  "upper", "lower", "appendZero", "appendG", "appendDot", "dropLast", "drop0x", "prependZero", "prependMinus", "leadingZeros",
  "negate", "addHalf", "times1000", "minusZero", "plusOne", "minusOne", "huge"
] as const

/** A near miss (or a near hit) of a field's value: the same text or number, slightly changed. */
const edit = (value: unknown, how: typeof EDITS[number]): unknown => {
  if (typeof value === "string") {
    switch (how) {
      case "upper":
        return value.startsWith("0x") ? `0x${value.slice(2).toUpperCase()}` : value.toUpperCase()
      case "lower":
        return value.toLowerCase()
      case "appendZero":
        return `${value}0`
      case "appendG":
        return `${value}g`
      case "appendDot":
        return `${value}.`
      case "dropLast":
        return value.slice(0, -1)
      case "drop0x":
        return value.startsWith("0x") ? value.slice(2) : `0x${value}`
      case "prependZero":
        return `0${value}`
      case "prependMinus":
        return `-${value}`
      case "leadingZeros":
        return value.startsWith("0x") ? `0x000${value.slice(2)}` : `000${value}`
      case "huge":
        return value.startsWith("0x") ? `0x1${"0".repeat(64)}` : `1${"0".repeat(78)}`
      default:
        return `${value} `
    }
  }
  if (typeof value === "number") {
    switch (how) {
      case "negate":
        return -value
      case "addHalf":
        return value + 0.5
      case "times1000":
        return value * 1000
      case "minusZero":
        return -0
      case "plusOne":
        return value + 1
      case "minusOne":
        return value - 1
      case "huge":
        return 2 ** 53 + value
      default:
        return String(value)
    }
  }
  return value
}

/**
 * One change to a page; indices are taken modulo the actual sizes. `paths` are an item's fields,
 * `addressPaths` those holding addresses, `objectPaths` the objects of an item (`[]`: the item
 * itself), `other` generates encoded items to take values from.
 */
export const mutation = (options: {
  readonly paths: ReadonlyArray<Path>
  readonly addressPaths: ReadonlyArray<Path>
  readonly objectPaths: ReadonlyArray<Path>
  readonly other: fc.Arbitrary<Json>
}) =>
  fc.oneof(
    fc.record({ kind: fc.constant("junk" as const), item: fc.nat(), path: fc.constantFrom(...options.paths), value: junk }),
    {
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant("edit" as const), item: fc.nat(), path: fc.constantFrom(...options.paths), how: fc.constantFrom(...EDITS) })
    },
    fc.record({ kind: fc.constant("swap" as const), item: fc.nat(), path: fc.constantFrom(...options.paths), other: options.other }),
    fc.record({ kind: fc.constant("delete" as const), item: fc.nat(), path: fc.constantFrom(...options.paths) }),
    fc.record({
      kind: fc.constant("address" as const),
      item: fc.nat(),
      path: fc.constantFrom(...options.addressPaths),
      source: fc.nat(),
      variant: fc.constantFrom("same" as const, "lower" as const, "upper" as const, "checksummed" as const, "broken" as const)
    }),
    fc.record({
      kind: fc.constant("unknownField" as const),
      item: fc.nat(),
      path: fc.constantFrom(...options.objectPaths),
      key: fc.oneof(fc.string(), fc.constant("__proto__")),
      value: junk
    }),
    fc.record({ kind: fc.constant("pageUnknownField" as const), key: fc.oneof(fc.string(), fc.constant("__proto__")), value: junk }),
    fc.record({ kind: fc.constant("pageDelete" as const), field: fc.constantFrom("items", "cursor") }),
    fc.record({ kind: fc.constant("pageJunk" as const), field: fc.constantFrom("items", "cursor"), value: junk }),
    fc.record({ kind: fc.constant("itemJunk" as const), item: fc.nat(), value: junk })
  )

export type Mutation = ReturnType<typeof mutation> extends fc.Arbitrary<infer A> ? A : never

const defineOwn = (o: object, key: string, value: unknown): void => {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true })
}

const isObject = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

/** The object holding the field at `path` and the field's key, or nothing where the path leads nowhere. */
const locate = (root: unknown, path: Path): { readonly holder: Json | Array<unknown>; readonly key: string | number } | undefined => {
  let at: unknown = root
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!
    let key: string | number
    if (typeof step === "number") {
      if (!Array.isArray(at) || at.length === 0) return undefined
      key = step % at.length
    } else {
      if (!isObject(at)) return undefined
      key = step
    }
    if (i === path.length - 1) return { holder: at as Json | Array<unknown>, key }
    at = (at as Record<string | number, unknown>)[key]
  }
  return undefined
}

const valueAt = (root: unknown, path: Path): unknown => {
  const place = locate(root, path)
  return place === undefined ? undefined : (place.holder as Record<string | number, unknown>)[place.key]
}

/** The address texts of a page's items, at `addressPaths`. */
const addressesOf = (items: ReadonlyArray<unknown>, addressPaths: ReadonlyArray<Path>): ReadonlyArray<string> =>
  items.flatMap((item) =>
    addressPaths.flatMap((path) => {
      // Every element of an array on the way, not only one.
      const expand = (prefix: Path, rest: Path): Array<Path> => {
        const at = rest.findIndex((step) => typeof step === "number")
        if (at === -1) return [[...prefix, ...rest]]
        const array = valueAt(item, [...prefix, ...rest.slice(0, at)])
        if (!Array.isArray(array)) return []
        return array.flatMap((_, k) => expand([...prefix, ...rest.slice(0, at), k], rest.slice(at + 1)))
      }
      return expand([], path).map((p) => valueAt(item, p)).filter((v): v is string => typeof v === "string" && v.length === 42)
    })
  )

/** Applies a change in place to a page (its items are JSON objects until an itemJunk replaces one). */
export const applyToPage = (page: Json, m: Mutation, addressPaths: ReadonlyArray<Path>): void => {
  switch (m.kind) {
    case "pageUnknownField":
      return defineOwn(page, m.key, m.value)
    case "pageDelete":
      delete page[m.field]
      return
    case "pageJunk":
      page[m.field] = m.value
      return
  }
  const items = page.items
  if (!Array.isArray(items) || items.length === 0) return
  const i = m.item % items.length
  if (m.kind === "itemJunk") {
    items[i] = m.value
    return
  }
  if (m.kind === "address") {
    const addresses = addressesOf(items, addressPaths)
    if (addresses.length === 0) return
    const text = spell(addresses[m.source % addresses.length]!, m.variant)
    if (text === undefined) return
    return applyToItem(items[i], { kind: "junk", item: m.item, path: m.path, value: text })
  }
  applyToItem(items[i], m)
}

/** Applies an item-level change in place to one item. */
export const applyToItem = (item: unknown, m: Mutation): void => {
  switch (m.kind) {
    case "edit": {
      const place = locate(item, m.path)
      if (place === undefined) return
      const holder = place.holder as Record<string | number, unknown>
      if (Object.prototype.hasOwnProperty.call(holder, place.key)) holder[place.key] = edit(holder[place.key], m.how)
      return
    }
    case "junk":
    case "delete":
    case "swap": {
      const place = locate(item, m.path)
      if (place === undefined) return
      const holder = place.holder as Record<string | number, unknown>
      if (m.kind === "junk") holder[place.key] = m.value
      else if (m.kind === "delete" || locate(m.other, m.path) === undefined) delete holder[place.key]
      else {
        const from = locate(m.other, m.path)!
        const source = from.holder as Record<string | number, unknown>
        if (Object.prototype.hasOwnProperty.call(source, from.key)) holder[place.key] = source[from.key]
        else delete holder[place.key]
      }
      return
    }
    case "unknownField": {
      const target = m.path.length === 0 ? item : valueAt(item, m.path)
      if (isObject(target)) defineOwn(target, m.key, m.value)
      return
    }
  }
}

const DELETED = Symbol("deleted")

/**
 * Every page with one change to one field of one of its items: each edit of `EDITS`, each value of
 * `JUNK`, and the field deleted, at each of `paths` (array indices as given), in turn; a change that
 * leaves the field as it was, or repeats a value already tried there, is left out.
 */
export const singleChanges = function*(page: Json, item: number, paths: ReadonlyArray<Path>): Generator<Json> {
  for (const path of paths) {
    const original = valueAt((page.items as Array<unknown>)[item], path)
    const tried = new Set<unknown>([original])
    const changes: Array<Mutation> = [
      ...EDITS.map((how) => ({ kind: "edit" as const, item, path, how })),
      ...JUNK.map((value) => ({ kind: "junk" as const, item, path, value })),
      { kind: "delete" as const, item, path }
    ]
    for (const m of changes) {
      const value = m.kind === "edit" ? edit(original, m.how) : m.kind === "junk" ? m.value : DELETED
      // Primitives by value (`-0` apart from `0`), objects and arrays each once.
      const key = typeof value === "object" && value !== null ? value : Object.is(value, -0) ? "-0" : `${typeof value}:${String(value)}`
      if (tried.has(key)) continue
      tried.add(key)
      const copy = viaJson(page)
      applyToItem((copy.items as Array<unknown>)[item], m)
      yield copy
    }
  }
}

const A = "0x68311224a5d693e93b64e5b9b9935bafa0a1b916"
// Another address ending as A does: the two share the memo's slot.
const C = "0x9154cc66c18fd04632d6daf98af8de0a99801c16"
const SPELLINGS = ["same", "lower", "upper", "checksummed", "broken"] as const

/**
 * Pages of two copies of `template` whose addresses (at `addressPaths`, fixed indices) repeat one
 * address in every spelling: in the first item, the address in one spelling at one path and
 * another address sharing its memo slot at the others; in the second, the address in any spelling
 * at any path. The decoders memoize a page's addresses: each spelling must decode as it would
 * alone (a broken checksum fails even after the address was seen spelled right).
 */
export const repeatedAddressPages = function*(template: Json, addressPaths: ReadonlyArray<Path>): Generator<Json> {
  const set = (item: unknown, path: Path, value: string) => applyToItem(item, { kind: "junk", item: 0, path, value })
  for (const first of addressPaths) {
    for (const firstSpelling of SPELLINGS) {
      for (const second of addressPaths) {
        for (const secondSpelling of SPELLINGS) {
          const items = [viaJson(template), viaJson(template)]
          for (const path of addressPaths) set(items[0], path, C)
          for (const path of addressPaths) set(items[1], path, spell(C, "checksummed")!)
          set(items[0], first, spell(A, firstSpelling)!)
          set(items[1], second, spell(A, secondSpelling)!)
          yield { items, cursor: "" }
        }
      }
    }
  }
}

/**
 * How often the decoder decodes the samples (Right) and refuses them (Left): the generators must
 * reach both often, or equivalence on them proves little.
 */
export const outcomes = (samples: ReadonlyArray<unknown>, decode: (u: unknown) => Either.Either<unknown, unknown>) => {
  const rights = samples.filter((u) => Either.isRight(decode(u))).length
  return { rights, lefts: samples.length - rights }
}
