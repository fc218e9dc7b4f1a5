/**
 * The chain a request applies to: Klaytn mainnet (8217, Cypress) or testnet (1001, Baobab).
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { show } from "./internal/show.js"

const IDS = [8217, 1001] as const

/**
 * A chain id the service accepts: `8217` (mainnet) or `1001` (testnet), branded.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ChainId = Schema.Literal(...IDS).pipe(
  Schema.brand("ChainId"),
  Schema.annotations({
    identifier: "ChainId",
    description: "chain id: 8217 (mainnet) or 1001 (testnet)",
    message: (issue) => ({
      message: `chain id must be 8217 (mainnet) or 1001 (testnet), got ${show(issue.actual)}`,
      override: true
    })
  })
)

/**
 * @since 0.1.0
 * @category models
 */
export type ChainId = typeof ChainId.Type

/**
 * Klaytn mainnet (Cypress), chain id 8217.
 *
 * @since 0.1.0
 * @category constants
 */
export const Mainnet: ChainId = ChainId.make(8217)

/**
 * Klaytn testnet (Baobab), chain id 1001.
 *
 * @since 0.1.0
 * @category constants
 */
export const Testnet: ChainId = ChainId.make(1001)

/**
 * The `x-chain-id` header (and KRN segment) codec: exactly the strings `"8217"` and `"1001"`.
 * Anything else — leading zeros, decimals, whitespace, other chains — is rejected, so that
 * encode and decode are inverse on every accepted value.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FromHeader: Schema.Schema<ChainId, "8217" | "1001"> = Schema.transform(
  Schema.Literal("8217", "1001").annotations({
    message: (issue) => ({
      message: `chain id must be "8217" (mainnet) or "1001" (testnet), got ${show(issue.actual)}`,
      override: true
    })
  }),
  ChainId,
  {
    strict: true,
    decode: (s) => (s === "8217" ? 8217 : 1001),
    encode: (n) => (n === 8217 ? "8217" : "1001")
  }
).annotations({ identifier: "ChainIdFromHeader" })

/**
 * Whether a value is a valid chain id (what `ChainId` accepts, tested directly: the client's fast
 * page decoders call it on every item).
 *
 * @since 0.1.0
 * @category guards
 */
export const isChainId = (u: unknown): u is ChainId => u === IDS[0] || u === IDS[1]

/**
 * The network's name, for display.
 *
 * @since 0.1.0
 * @category utils
 */
export const name = (chainId: ChainId): "mainnet" | "testnet" => (chainId === 8217 ? "mainnet" : "testnet")
