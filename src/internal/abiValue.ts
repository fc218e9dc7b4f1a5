/**
 * ABI types and the JSON values the service takes for them in a contract call (`CallArgument`):
 * checked here, in the core, so that a call is validated before it is sent without loading an ABI
 * coder (the opt-in `effect-kas-wallet/Abi` entry encodes and decodes).
 *
 * @internal
 */
import { Either, Schema } from "effect"
import * as Address from "../Address.js"
import { HEX_BYTES } from "./hexBytes.js"
import { show } from "./show.js"

/** A parsed ABI type: an elementary type, or an array of one (`size` undefined: dynamic). */
export type Parsed =
  | { readonly _tag: "uint" | "int"; readonly bits: number }
  | { readonly _tag: "address" | "bool" | "string" | "bytes" }
  | { readonly _tag: "fixedBytes"; readonly size: number }
  | { readonly _tag: "array"; readonly element: Parsed; readonly size: number | undefined }

const ELEMENTARY = /^(uint|int)(\d*)$|^(address|bool|string)$|^bytes(\d*)$/
const TYPE = /^([a-z]+\d*)((?:\[\d*\])*)$/
const DIMENSION = /\[(\d*)\]/g

/**
 * The most array dimensions of a call argument's type (`uint256[][]` has two): input from a
 * caller is parsed without recursion, and a bound keeps the checks of its values shallow too.
 *
 * @internal
 */
export const MaxDimensions = 8

const elementary = (base: string, type: string): Either.Either<Parsed, string> => {
  const m = ELEMENTARY.exec(base)
  if (m === null) return Either.left(`expected an ABI type (uint256, int8, address, bool, string, bytes, bytes32, T[], T[k]), got ${show(type)}`)
  if (m[1] !== undefined) {
    const bits = m[2] === "" ? 256 : Number(m[2])
    return bits >= 8 && bits <= 256 && bits % 8 === 0 && !/^0/.test(m[2]!)
      ? Either.right({ _tag: m[1] as "uint" | "int", bits })
      : Either.left(`${m[1]}<M> takes M = 8..256, a multiple of 8; got ${show(type)}`)
  }
  if (m[3] !== undefined) return Either.right({ _tag: m[3] as "address" | "bool" | "string" })
  if (m[4] === "") return Either.right({ _tag: "bytes" })
  const size = Number(m[4])
  return size >= 1 && size <= 32 && !/^0/.test(m[4]!)
    ? Either.right({ _tag: "fixedBytes", size })
    : Either.left(`bytes<M> takes M = 1..32, got ${show(type)}`)
}

/**
 * Parses an ABI type of a call argument: `uint<M>`/`int<M>` (M = 8..256, a multiple of 8; bare
 * `uint`/`int` is 256), `address`, `bool`, `string`, `bytes`, `bytes<M>` (M = 1..32), and arrays of
 * those (`T[]`, `T[k]`, at most `MaxDimensions` deep; the last brackets are the outermost array).
 * Tuples are not call arguments of the service.
 *
 * @internal
 */
export const parse = (type: string): Either.Either<Parsed, string> => {
  const m = TYPE.exec(type)
  if (m === null) return elementary(type, type)
  const dimensions = Array.from(m[2]!.matchAll(DIMENSION), (d) => d[1]!)
  if (dimensions.length > MaxDimensions) return Either.left(`an argument's type has at most ${MaxDimensions} array dimensions, got ${dimensions.length}`)
  let parsed = elementary(m[1]!, type)
  for (const d of dimensions) {
    const size = d === "" ? undefined : Number(d)
    if (size !== undefined && (!Number.isSafeInteger(size) || size < 1 || /^0\d/.test(d))) {
      return Either.left(`array size must be a positive integer, got ${show(d)}`)
    }
    parsed = Either.map(parsed, (element) => ({ _tag: "array" as const, element, size }))
  }
  return parsed
}

/**
 * An ABI type string that parses.
 *
 * @internal
 */
export const AbiType = Schema.String.pipe(
  Schema.filter((s) => Either.match(parse(s), { onLeft: (message) => message, onRight: () => true }))
).annotations({ identifier: "AbiType" })

const DECIMAL = /^-?\d+$/
const HEX = /^0x[0-9a-fA-F]+$/

/** An integer as the service takes it: a JSON number (safe integer), a decimal or a `0x` string. */
const integerOf = (value: unknown): bigint | undefined => {
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : undefined
  if (typeof value === "string" && (DECIMAL.test(value) || HEX.test(value))) return BigInt(value)
  return undefined
}

const decodeAddress = Schema.decodeUnknownEither(Address.Address)

const checkParsed = (type: Parsed, value: unknown, where: string): string | undefined => {
  switch (type._tag) {
    case "uint":
    case "int": {
      const n = integerOf(value)
      const name = `${type._tag}${type.bits}`
      if (n === undefined) return `${where}: ${name} takes an integer (a number, or a decimal or 0x string), got ${show(value)}`
      const [min, max] = type._tag === "uint"
        ? [0n, (1n << BigInt(type.bits)) - 1n]
        : [-(1n << BigInt(type.bits - 1)), (1n << BigInt(type.bits - 1)) - 1n]
      return n < min || n > max ? `${where}: ${show(value)} is out of the range of ${name}` : undefined
    }
    case "address":
      return Either.isRight(decodeAddress(value))
        ? undefined
        : `${where}: address takes 0x and 40 hex digits (lower case, or checksummed), got ${show(value)}`
    case "bool":
      return typeof value === "boolean" ? undefined : `${where}: bool takes true or false, got ${show(value)}`
    case "string":
      return typeof value === "string" ? undefined : `${where}: string takes a string, got ${show(value)}`
    case "bytes":
      return typeof value === "string" && HEX_BYTES.test(value)
        ? undefined
        : `${where}: bytes takes 0x and an even number of hex digits, got ${show(value)}`
    case "fixedBytes":
      return typeof value === "string" && HEX_BYTES.test(value) && value.length === 2 + 2 * type.size
        ? undefined
        : `${where}: bytes${type.size} takes 0x and ${2 * type.size} hex digits, got ${show(value)}`
    case "array": {
      if (!Array.isArray(value)) return `${where}: expected an array, got ${show(value)}`
      if (type.size !== undefined && value.length !== type.size) {
        return `${where}: expected ${type.size} elements, got ${value.length}`
      }
      for (let i = 0; i < value.length; i++) {
        const problem = checkParsed(type.element, value[i], `${where}[${i}]`)
        if (problem !== undefined) return problem
      }
      return undefined
    }
  }
}

/**
 * What is wrong with a value for an ABI type, or `undefined` when it fits.
 *
 * @internal
 */
export const check = (type: string, value: unknown): string | undefined =>
  Either.match(parse(type), { onLeft: (message) => message, onRight: (parsed) => checkParsed(parsed, value, type) })

/**
 * A call argument's value as JSON carries it: the service takes integers as numbers or strings,
 * so a `bigint` travels as its decimal digits (in arrays too).
 *
 * @internal
 */
export const jsonValue = (value: unknown): unknown =>
  typeof value === "bigint" ? value.toString() : Array.isArray(value) ? value.map(jsonValue) : value
