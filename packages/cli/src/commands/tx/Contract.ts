/**
 * What `kas-wallet tx deploy | execute | call | receipt --event` need of the ABI, over the
 * client's opt-in ABI entry (`effect-kas-wallet/Abi`, on ox): signatures read from the command
 * line, argument words turned into values of their ABI types, the deployment's input and the
 * calldata, and call results and logs decoded and shown.
 *
 * Loaded only by the commands that use it (`import()`), so that `tx send` and `tx receipt` load no
 * ABI coder. Every refusal is one line in the command line's terms (naming the flag and, for an
 * argument, its position and type), for exit code 2 before anything is sent.
 *
 * @since 0.4.0
 */
import { Either, Option } from "effect"
import { Address, type Transaction } from "effect-kas-wallet"
import * as Abi from "effect-kas-wallet/Abi"
import * as AbiConstructor from "ox/AbiConstructor"
import * as fs from "node:fs"
import * as Flags from "../../input/Flags.js"
import * as Output from "../../output/Output.js"

/**
 * An ABI parameter, as ox parses it from a signature.
 *
 * @since 0.4.0
 * @category models
 */
export interface Parameter {
  readonly type: string
  readonly name?: string | undefined
  readonly components?: ReadonlyArray<Parameter> | undefined
}

/** A refusal: the whole line after `kas-wallet: `. */
type Refusal = string

// ---------------------------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------------------------

/**
 * A parameter's type as written, tuples spelled out: `(uint256,address)[]`.
 *
 * @since 0.4.0
 * @category formatting
 */
export const typeOf = (p: Parameter): string =>
  p.type.startsWith("tuple") ? `(${(p.components ?? []).map(typeOf).join(",")})${p.type.slice("tuple".length)}` : p.type

const labelOf = (p: Parameter) => (p.name !== undefined && p.name !== "" ? `${typeOf(p)} ${p.name}` : typeOf(p))

/**
 * A function's canonical signature, `transfer(address,uint256)`: its selector's preimage.
 *
 * @since 0.4.0
 * @category formatting
 */
export const signatureOf = (name: string, inputs: ReadonlyArray<Parameter>): string => `${name}(${inputs.map(typeOf).join(",")})`

const unreadable = (flag: string, raw: string, what: string, example: string, reason: string): Refusal =>
  `${flag} is not ${what} (${reason.replace(/\.$/, "")}; got ${Flags.show(raw)}): write it as ${example}`

/**
 * Reads `--method`: `transfer(address,uint256)`, with names and `returns (...)` if wished.
 *
 * @since 0.4.0
 * @category parsing
 */
export const parseFunction = (flag: string, raw: string): Either.Either<Abi.Function, Refusal> =>
  Either.mapLeft(
    raw.includes("(") ? Abi.fn(raw) : Either.left({ description: "no parameter list" }),
    (e) =>
      unreadable(flag, raw, "a function's signature", "name(type,...), e.g. \"transfer(address,uint256)\" or \"balanceOf(address) returns (uint256)\"", e.description)
  )

/**
 * Reads `--constructor`: `constructor(uint256 supply)` (the keyword may be left out: `(uint256)`).
 *
 * @since 0.4.0
 * @category parsing
 */
export const parseConstructor = (flag: string, raw: string): Either.Either<{ readonly signature: string; readonly inputs: ReadonlyArray<Parameter> }, Refusal> => {
  const trimmed = raw.trim()
  const signature = trimmed.startsWith("constructor") ? trimmed : `constructor${trimmed.startsWith("(") ? "" : " "}${trimmed}`
  return Either.mapBoth(
    Either.try({ try: () => AbiConstructor.from(signature as never) as AbiConstructor.AbiConstructor, catch: (e) => reason(e) }),
    {
      onLeft: (why) => unreadable(flag, raw, "a constructor's signature", "\"constructor(type,...)\", e.g. \"constructor(uint256 supply)\"", why),
      onRight: (item) => ({ signature, inputs: item.inputs as ReadonlyArray<Parameter> })
    }
  )
}

/**
 * Reads an `--event`: `Transfer(address indexed from,address indexed to,uint256 value)`.
 *
 * @since 0.4.0
 * @category parsing
 */
export const parseEvent = (flag: string, raw: string): Either.Either<Abi.Event, Refusal> =>
  Either.mapLeft(
    raw.includes("(") ? Abi.event(raw) : Either.left({ description: "no parameter list" }),
    (e) =>
      unreadable(flag, raw, "an event's signature", "Name(type [indexed] [name],...), e.g. \"Transfer(address indexed from,address indexed to,uint256 value)\"", e.description)
  )

const reason = (error: unknown): string => {
  const e = error as { shortMessage?: unknown; message?: unknown }
  const text = typeof e?.shortMessage === "string" ? e.shortMessage : typeof e?.message === "string" ? e.message : String(error)
  return text.split("\n")[0]!.trim()
}

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/

const arrayType = (type: string) => {
  const m = /^(.*)\[(\d*)\]$/.exec(type)
  return m === null ? undefined : { element: m[1]!, length: m[2] === "" ? undefined : Number(m[2]) }
}

const isComposite = (type: string) => arrayType(type) !== undefined || type === "tuple"

const describe = (type: string): string => {
  if (/^u?int\d*$/.test(type)) return "an integer, decimal or 0x"
  if (type === "address") return "an address, 0x and 40 hex digits"
  if (type === "bool") return "true or false"
  if (type === "bytes") return "0x and an even number of hex digits"
  if (/^bytes\d+$/.test(type)) return `0x and ${2 * Number(type.slice(5))} hex digits`
  return "a JSON array, e.g. [1,2]"
}

/** A value of a scalar type from its text; a problem reads after the argument's name. */
const scalar = (type: string, text: string): Either.Either<unknown, string> => {
  const got = ` (got ${Flags.show(text)})`
  const int = /^(u?)int(\d*)$/.exec(type)
  if (int !== null) {
    const m = /^(-)?(0x[0-9a-fA-F]+|\d+)$/.exec(text)
    if (m === null) return Either.left(`must be ${describe(type)}${got}`)
    const value = (m[1] === "-" ? -1n : 1n) * BigInt(m[2]!)
    const bits = BigInt(int[2] === "" ? 256 : Number(int[2]))
    const [min, max, range] = int[1] === "u"
      ? [0n, 2n ** bits - 1n, `0 to 2^${bits}-1`]
      : [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n, `-2^${bits - 1n} to 2^${bits - 1n}-1`]
    return value < min || value > max ? Either.left(`must be an integer from ${range}${got}`) : Either.right(value)
  }
  switch (type) {
    case "address":
      return Option.match(Address.checksum(text), {
        onNone: () => Either.left(`must be ${describe(type)}${got}`),
        onSome: (checksummed) =>
          Address.isValid(text)
            ? Either.right(checksummed)
            : Either.left(`has a wrong EIP-55 checksum: give it all in lower case, or with its checksum${got}`)
      })
    case "bool":
      return text === "true" ? Either.right(true) : text === "false" ? Either.right(false) : Either.left(`must be true or false${got}`)
    case "string":
      return Either.right(text)
    case "bytes":
      return HEX_BYTES.test(text) ? Either.right(text.toLowerCase()) : Either.left(`must be ${describe(type)}${got}`)
  }
  const fixed = /^bytes(\d+)$/.exec(type)
  if (fixed !== null && Number(fixed[1]) >= 1 && Number(fixed[1]) <= 32) {
    return HEX_BYTES.test(text) && text.length === 2 + 2 * Number(fixed[1])
      ? Either.right(text.toLowerCase())
      : Either.left(`must be ${describe(type)}${got}`)
  }
  return Either.left(`has the type ${type}, which the command line cannot write`)
}

/** A value of a type from JSON (an element of an array or a tuple). */
const fromJson = (p: Parameter, json: unknown): Either.Either<unknown, string> => {
  const array = arrayType(p.type)
  if (array !== undefined || p.type === "tuple") {
    if (p.type === "tuple" && json !== null && typeof json === "object" && !Array.isArray(json)) {
      // A tuple with named components may be an object.
      const record = json as Record<string, unknown>
      const components = p.components ?? []
      const missing = components.find((c) => c.name === undefined || !(c.name in record))
      if (missing !== undefined) return Either.left(`must be a JSON array of ${components.length} elements, or an object of its components' names`)
      return Either.all(components.map((c) => Either.mapLeft(fromJson(c, record[c.name!]), (problem) => `.${c.name} ${problem}`)))
    }
    if (!Array.isArray(json)) return Either.left(`must be a JSON array (got ${Flags.show(JSON.stringify(json))})`)
    const element = (i: number): Parameter => (array !== undefined ? { ...p, type: array.element } : p.components![i]!)
    const length = array !== undefined ? array.length : (p.components ?? []).length
    if (length !== undefined && json.length !== length) return Either.left(`must have ${length} elements (got ${json.length})`)
    return Either.all(json.map((e, i) => Either.mapLeft(fromJson(element(i), e), (problem) => `[${i}] ${problem}`)))
  }
  if (typeof json === "string") return scalar(p.type, json)
  if (typeof json === "number" && /^u?int\d*$/.test(p.type)) {
    return Number.isSafeInteger(json)
      ? scalar(p.type, String(json))
      : Either.left(`is a JSON number beyond 2^53, which JSON cannot hold exactly: write large integers as strings ("123...")`)
  }
  if (typeof json === "boolean" && p.type === "bool") return Either.right(json)
  return Either.left(`must be ${describe(p.type)} (got ${Flags.show(JSON.stringify(json))})`)
}

/** A value of a type from an argument's word: a JSON array for an array or a tuple. */
const fromWord = (p: Parameter, word: string): Either.Either<unknown, string> => {
  if (!isComposite(p.type)) return scalar(p.type, word)
  let json: unknown
  try {
    json = JSON.parse(word)
  } catch {
    return Either.left(`must be a JSON array, e.g. ${p.type === "tuple" ? "[1,\"0x...\"]" : "[1,2]"} (got ${Flags.show(word)})`)
  }
  return fromJson(p, json)
}

/**
 * The values of `--args` for the parameters of `what` (`transfer(address,uint256)`): as many words
 * as parameters, each read as its type: integers decimal or `0x` (any size, exactly), addresses (a
 * mixed-case one with its EIP-55 checksum), `true`/`false`, text as is, bytes as `0x` hex, arrays
 * and tuples as JSON (`'[1,2]'`, large integers as strings).
 *
 * @since 0.4.0
 * @category parsing
 */
export const values = (
  flag: string,
  what: string,
  parameters: ReadonlyArray<Parameter>,
  words: ReadonlyArray<string>
): Either.Either<ReadonlyArray<unknown>, Refusal> => {
  if (words.length !== parameters.length) {
    return Either.left(
      parameters.length === 0
        ? `${flag}: ${what} takes no arguments (got ${words.length})`
        : `${flag}: ${what} takes ${parameters.length} argument${parameters.length === 1 ? "" : "s"} (${parameters.map(labelOf).join(", ")}), got ${words.length}`
    )
  }
  return Either.all(parameters.map((p, i) =>
    Either.mapLeft(fromWord(p, words[i]!), (problem) => `${flag}: argument ${i + 1} (${labelOf(p)}) ${problem}`)
  ))
}

// ---------------------------------------------------------------------------------------------
// Bytecode and calldata
// ---------------------------------------------------------------------------------------------

/**
 * Checks hex given on the command line (`--bytecode`, `--input`): `0x` and an even number of hex
 * digits; `empty` says whether `0x` alone will do.
 *
 * @since 0.4.0
 * @category parsing
 */
export const parseHex = (empty: boolean): Flags.Parser<string> => (raw) =>
  HEX_BYTES.test(raw) && (empty || raw.length > 2)
    ? Either.right(raw.toLowerCase())
    : Either.left(`must be 0x followed by ${empty ? "an" : "a non-empty,"} even number of hex digits (got ${Flags.show(raw)})`)

/**
 * Reads `--bytecode-file`: a file of hex (as `solc --bin` writes it, `0x` optional, spaces and line
 * breaks ignored), or a JSON artifact with the creation bytecode (Hardhat's `bytecode`,
 * Foundry's `bytecode.object`, solc's `evm.bytecode.object`).
 *
 * @since 0.4.0
 * @category parsing
 */
export const readBytecodeFile = (flag: string, path: string): Either.Either<string, Refusal> => {
  let text: string
  try {
    text = fs.readFileSync(path, "utf8")
  } catch (error) {
    return Either.left(`${flag} cannot be read: ${(error as { code?: string }).code ?? reason(error)} (${path})`)
  }
  let hex = text.replace(/\s+/g, "")
  if (hex.startsWith("{")) {
    let artifact: { bytecode?: unknown; evm?: { bytecode?: { object?: unknown } } }
    try {
      artifact = JSON.parse(text)
    } catch (error) {
      return Either.left(`${flag} ${path} is neither hex nor JSON (${reason(error)})`)
    }
    const code = typeof artifact.bytecode === "string"
      ? artifact.bytecode
      : (artifact.bytecode as { object?: unknown } | undefined)?.object ?? artifact.evm?.bytecode?.object
    if (typeof code !== "string") return Either.left(`${flag} ${path} has no bytecode (a JSON artifact has bytecode, bytecode.object or evm.bytecode.object)`)
    hex = code
  }
  if (!hex.startsWith("0x")) hex = `0x${hex}`
  if (/__\$[0-9a-fA-F]{34}\$__/.test(hex)) return Either.left(`${flag} ${path} has unlinked library placeholders (__$...$__): link the libraries first`)
  return HEX_BYTES.test(hex) && hex.length > 2
    ? Either.right(hex.toLowerCase())
    : Either.left(`${flag} ${path} must hold the bytecode as an even number of hex digits, 0x optional`)
}

const invalid = (e: { readonly description: string }): Refusal => e.description

/**
 * A deployment's input: the bytecode, with the constructor's arguments encoded after it.
 *
 * @since 0.4.0
 * @category encoding
 */
export const deployInput = (
  bytecode: string,
  constructor: { readonly signature: string } | undefined,
  args: ReadonlyArray<unknown>
): Either.Either<string, Refusal> => Either.mapLeft(Abi.deployInput(bytecode, constructor?.signature, args), invalid)

/**
 * A call's calldata: the function's selector and its encoded arguments.
 *
 * @since 0.4.0
 * @category encoding
 */
export const calldata = (f: Abi.Function, args: ReadonlyArray<unknown>): Either.Either<string, Refusal> =>
  Either.mapLeft(Abi.encodeCall(f, args), invalid)

/**
 * `WalletClient.callContract`'s method and typed arguments.
 *
 * @since 0.4.0
 * @category encoding
 */
export const callArguments = (f: Abi.Function, args: ReadonlyArray<unknown>) =>
  Either.mapLeft(Abi.callArguments(f, args), invalid)

// ---------------------------------------------------------------------------------------------
// Results and logs
// ---------------------------------------------------------------------------------------------

/**
 * A decoded value as JSON: integers as decimal strings (exact), the rest as it is.
 *
 * @since 0.4.0
 * @category formatting
 */
export const toJson = (value: unknown): unknown =>
  typeof value === "bigint"
    ? value.toString()
    : Array.isArray(value)
    ? value.map(toJson)
    : value !== null && typeof value === "object"
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]))
    : value

/**
 * A decoded value in one line: integers in decimal, text as it is, the rest as JSON.
 *
 * @since 0.4.0
 * @category formatting
 */
export const show = (value: unknown): string =>
  typeof value === "bigint" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : typeof value === "string"
    // A contract's strings are the endpoint's to choose: one with control characters (a terminal
    // escape sequence) is shown quoted and escaped, never written raw to the terminal.
    ? CONTROL.test(value) ? quoted(value) : value
    : quoted(toJson(value))

// C0 and C1 control characters, DEL, and the line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

// JSON's quoting escapes C0 only: the rest are written as \uXXXX too.
const quoted = (value: unknown) =>
  JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/**
 * A call's outputs, decoded by the function's `returns (...)`.
 *
 * @since 0.4.0
 * @category models
 */
export interface Returned {
  readonly name: string | undefined
  readonly type: string
  readonly value: unknown
}

/**
 * Decodes a call's raw result by the function's outputs: a problem says the result does not fit
 * them (a wrong `returns (...)`, or `--to` is no such contract).
 *
 * @since 0.4.0
 * @category decoding
 */
export const decodeOutputs = (f: Abi.Function, result: string): Either.Either<ReadonlyArray<Returned>, string> => {
  const outputs = f.item.outputs as ReadonlyArray<Parameter>
  return Either.mapBoth(Abi.decodeResult(f, result), {
    onLeft: (e) =>
      `the result ${Output.hex(result)} does not decode as (${outputs.map(typeOf).join(",")}), the returns of --method (${
        e.description.replace(/\.$/, "")
      }): is --to a contract with ${f.signature}?`,
    onRight: (decoded) => outputs.map((p, i) => ({ name: p.name === "" ? undefined : p.name, type: typeOf(p), value: decoded[i] }))
  })
}

/**
 * Rows for a call's outputs: each by its name (`output` when unnamed), with its type.
 *
 * @since 0.4.0
 * @category formatting
 */
export const outputRows = (outputs: ReadonlyArray<Returned>): ReadonlyArray<readonly [string, string]> =>
  outputs.map((o, i) => [o.name ?? (outputs.length === 1 ? "output" : `output ${i + 1}`), `${show(o.value)} (${o.type})`] as const)

/**
 * One decoded log: the position of the log in the receipt, the contract that emitted it, the event
 * and its arguments.
 *
 * @since 0.4.0
 * @category models
 */
export interface Decoded {
  readonly index: number
  readonly address: string
  readonly event: Abi.Event
  readonly args: Readonly<Record<string, unknown>> | ReadonlyArray<unknown>
}

/**
 * The logs of a receipt that any of `events` emitted, decoded, in the receipt's order. A log whose
 * first topic is an event's but which does not decode by it (other arguments `indexed`, say) is a
 * problem.
 *
 * @since 0.4.0
 * @category decoding
 */
export const decodeLogs = (
  events: ReadonlyArray<Abi.Event>,
  logs: ReadonlyArray<Pick<Transaction.Log, "address" | "topics" | "data">>
): Either.Either<ReadonlyArray<Decoded>, string> =>
  Either.map(
    Either.all(events.map((event) =>
      Either.mapBoth(Abi.decodeLogs(event, logs), {
        onLeft: (e) =>
          `${e.argument.replace(/^logs\[(\d+)\]$/, "log $1")} has the topic of ${event.name} but does not decode as ${event.item.inputs.length > 0 ? eventLabel(event) : event.name}: ${e.description.replace(/\.$/, "")}; check which arguments are indexed`,
        onRight: (decoded) => decoded.map((d) => ({ ...d, event }))
      })
    )),
    (lists) => lists.flat().sort((a, b) => a.index - b.index)
  )

const eventLabel = (event: Abi.Event) =>
  `${event.name}(${(event.item.inputs as ReadonlyArray<Parameter & { indexed?: boolean }>).map((p) => `${typeOf(p)}${p.indexed === true ? " indexed" : ""}`).join(",")})`

/**
 * A decoded log in one line: `Transfer(from: 0x..., to: 0x..., value: 1000)`.
 *
 * @since 0.4.0
 * @category formatting
 */
export const showLog = (d: Decoded): string => {
  const inputs = d.event.item.inputs as ReadonlyArray<Parameter>
  const args = Array.isArray(d.args) ? d.args : inputs.map((p) => (d.args as Record<string, unknown>)[p.name ?? ""])
  return `${d.event.name}(${inputs.map((p, i) => `${p.name !== undefined && p.name !== "" ? `${p.name}: ` : ""}${show(args[i])}`).join(", ")})`
}

/**
 * A decoded log as JSON: `{index, address, event, args}` (args by name, or by position when
 * unnamed; integers as decimal strings).
 *
 * @since 0.4.0
 * @category formatting
 */
export const logJson = (d: Decoded) => ({
  index: d.index,
  address: d.address,
  event: d.event.name,
  signature: eventLabel(d.event),
  args: toJson(d.args)
})
