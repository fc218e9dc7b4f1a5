/**
 * The `--json` of every command, in one form: amounts in peb as decimal strings
 * (`"value":"1000000000000000000"`), counts (block numbers, nonces, gas, indexes) as numbers
 * (`"blockNumber":35`), whatever form the service's record has them in (a receipt's are `0x` hex,
 * a result's `value` too); addresses in their EIP-55 checksummed form (`Address.checksum`), as
 * the accounts have them, where the service's transaction results have them in lower case.
 * Everything else is the record's JSON as the client encodes it.
 *
 * @since 0.11.0
 */
import { Option } from "effect"
import { Address } from "effect-kas-wallet"

// Amounts in peb: decimal strings (a number would lose digits past 2^53).
const AMOUNTS = new Set(["value", "gasPrice", "balance", "fee", "fees", "chargedByPeb", "effectiveGasPrice"])
// Counts: numbers.
const COUNTS = new Set(["blockNumber", "nonce", "gas", "gasUsed", "cumulativeGasUsed", "transactionIndex", "logIndex"])
// What a contract's ABI gives (its own values, named by the contract) or a signed transaction holds: as it is.
const OPAQUE = new Set(["events", "outputs", "args", "input", "rlp", "signatures", "feePayerSignatures"])

// Hex that is data, not an address, however long (a log's data may be 20 bytes).
const DATA = new Set(["data", "result", "topics", "blob", "signedData", "publicKey"])

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

const quantity = (key: string, value: unknown): unknown => {
  const n = typeof value === "bigint"
    ? value
    : typeof value === "string" && HEX_QUANTITY.test(value)
    ? BigInt(value)
    : typeof value === "number" && Number.isSafeInteger(value) && AMOUNTS.has(key)
    ? BigInt(value)
    : undefined
  if (n === undefined) return value
  if (AMOUNTS.has(key)) return n.toString()
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString()
}

/**
 * A value with its amounts and counts in the CLI's JSON form (see the module's description).
 *
 * @since 0.11.0
 * @category formatting
 */
export const normalize = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value === "bigint") return value.toString()
  if (typeof value === "string" && ADDRESS.test(value)) return Option.getOrElse(Address.checksum(value), () => value)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    out[key] = OPAQUE.has(key) || DATA.has(key) ? v : AMOUNTS.has(key) || COUNTS.has(key) ? quantity(key, v) : normalize(v)
  }
  return out
}

/**
 * One JSON document (one line) of a command's output, normalized.
 *
 * @since 0.11.0
 * @category formatting
 */
export const stringify = (value: unknown): string => JSON.stringify(normalize(value))
