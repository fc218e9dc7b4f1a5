/**
 * The block clock of the emulated chain: how blocks are made (by transaction, by interval, or by
 * `mine`), which block is the latest at a time, and a block's hash.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import { keccak_256 as keccak256 } from "@noble/hashes/sha3.js"
import { Duration } from "effect"
import type * as ChainState from "../store/ChainState.js"

/**
 * The time between two blocks when none is configured.
 *
 * @since 0.2.0
 * @category constants
 */
export const DefaultBlockInterval: Duration.Duration = Duration.seconds(1)

/**
 * The chains the ledger keeps.
 *
 * @since 0.2.0
 * @category constants
 */
export const Chains: ReadonlyArray<number> = [8217, 1001]

/**
 * How blocks are made: `instant`, a block per accepted transaction, made before the send answers;
 * `interval`, one every block interval by the clock, a transaction waiting in the chain's pending
 * pool until then; `manual`, only when `mine` is called, a transaction waiting in the pool until
 * then.
 *
 * @since 0.5.0
 * @category models
 */
export type Mining = "instant" | "interval" | "manual"

/**
 * Whether blocks are counted (instant and manual mining: block n is the n-th block made, at the
 * time it was made) rather than given by the clock (interval: block n at genesis + n × interval).
 *
 * @since 0.12.0
 * @category blocks
 */
export const counted = (mining: Mining): boolean => mining !== "interval"

/**
 * A block `mine` made: its number, hash and time, and the hashes of its transactions in order.
 *
 * @since 0.5.0
 * @category models
 */
export interface MinedBlock {
  readonly chainId: number
  readonly blockNumber: number
  readonly blockHash: string
  readonly blockTimeMs: number
  readonly transactions: ReadonlyArray<string>
}

/**
 * The hash of a block: keccak256 of the chain, the number and the time of the block. The emulator
 * makes no block bodies; the hash only needs to be stable and distinct per block.
 *
 * @since 0.2.0
 * @category blocks
 */
export const blockHash = (chainId: number, blockNumber: number, blockTimeMs: number): string =>
  `0x${Buffer.from(keccak256(new TextEncoder().encode(`effect-kas-wallet emulator block ${chainId}:${blockNumber}:${blockTimeMs}`))).toString("hex")}`

/**
 * The most blocks one `mine` makes.
 *
 * @since 0.5.0
 * @category constants
 */
export const MaxBlocksPerMine = 1000

/**
 * The latest block made at `now` (0 before the chain's first transaction) and its time: the state
 * a contract call reads.
 *
 * @since 0.4.0
 * @category blocks
 */
export const latestBlock = (
  now: number,
  genesisMs: number | undefined,
  intervalMs: number
): { readonly blockNumber: number; readonly blockTimeMs: number } => {
  if (genesisMs === undefined) return { blockNumber: 0, blockTimeMs: now }
  const blockNumber = Math.max(0, Math.floor((now - genesisMs) / intervalMs))
  return { blockNumber, blockTimeMs: genesisMs + blockNumber * intervalMs }
}

/**
 * The latest block of a chain at `now`: in instant and manual mining the last block made (its context,
 * for a run, at the clock's time); by interval, the last block the clock has made (`latestBlock`).
 * What a read-only run and a node's `blockNumber` see.
 *
 * @since 0.5.0
 * @category blocks
 */
export const head = (
  chain: Pick<ChainState.ChainRow, "genesisMs" | "minedBlock">,
  now: number,
  mining: Mining,
  intervalMs: number
): { readonly blockNumber: number; readonly blockTimeMs: number } =>
  counted(mining) ? { blockNumber: chain.minedBlock, blockTimeMs: now } : latestBlock(now, chain.genesisMs, intervalMs)

/**
 * Whether a transaction written in a block at `blockTimeMs` is in a block at `now`: by interval,
 * once its block's time has come (until then it is pending); in instant and manual mining, as
 * soon as it is written (its block was made).
 *
 * @since 0.5.0
 * @category blocks
 */
export const inBlock = (mining: Mining, blockTimeMs: number, now: number): boolean => counted(mining) || now >= blockTimeMs
