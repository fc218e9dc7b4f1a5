/**
 * The chain as a Klaytn node shows it to its JSON-RPC clients (`POST /v1/klaytn`): the latest
 * block, blocks by number, accounts (balance, nonce, code, account key, a contract's storage root),
 * transactions pending or in a block, and raw transactions signed elsewhere, sent into the same
 * pending pool and mining as the wallet's (`Ledger.send` with the payer `Signed`).
 *
 * Everything is read from the ledger's store and decoded from the signed bytes it keeps: the node
 * and the wallet routes show one chain.
 *
 * - **Blocks**: by interval, block n is made at genesis + n × interval (block 0 at genesis, or at 0
 *   before the chain's first transaction); in manual mining, at the time `mine` gave its
 *   transactions — an empty block made by `mine` takes the time of the last block before it that
 *   holds transactions (the store keeps no empty blocks). Its hash is `Blocks.blockHash` of its
 *   number and time, the hash receipts show.
 * - **In a block**: a transaction written by the ledger is in its block once that block is made
 *   (`Blocks.inBlock`); until then it is pending, as one in the pool.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.5.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Context, Duration, Effect, Either, Layer, Option } from "effect"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Wire from "effect-kas-wallet/Wire"
import * as Refusal from "../Refusal.js"
import * as LedgerStore from "../store/LedgerStore.js"
import * as ChainState from "../store/ChainState.js"
import * as Ledger from "./Ledger.js"
import * as Blocks from "./Blocks.js"
import * as Trie from "./Trie.js"
import type * as Store from "../store/Store.js"

/**
 * The hash that stands for no block (a pending transaction's block, block 0's parent).
 *
 * @since 0.5.0
 * @category constants
 */
export const ZeroHash = `0x${"0".repeat(64)}`

/**
 * An address on a chain as the node sees it. `exists` once the chain has a balance row for it
 * (funded, sent from or to, paid a fee) or code.
 *
 * @since 0.5.0
 * @category models
 */
export interface AccountView {
  readonly exists: boolean
  readonly balance: bigint
  readonly nonce: number
  /** A contract's code. */
  readonly code: Option.Option<Uint8Array>
  /** The account key: the one an account update set, else legacy; a contract's is the fail key, as Klaytn's. */
  readonly key: Klaytn.AccountKey
  /** A contract's storage root (`Trie.storageRoot`); `undefined` for an account without code. */
  readonly storageRoot: string | undefined
}

/**
 * Where a transaction is: `pending` (in the pool, or written into a block not made yet), or in a
 * block, with its row (gas used, outcome, logs) and the block's hash.
 *
 * @since 0.5.0
 * @category models
 */
export type Found =
  | { readonly status: "pending"; readonly signed: Klaytn.SignedTx }
  | {
    readonly status: "committed"
    readonly signed: Klaytn.SignedTx
    readonly row: ChainState.TransactionRow
    readonly blockHash: string
  }

/**
 * A block made: number, hash, parent's hash, time (Unix milliseconds) and transactions in order.
 *
 * @since 0.5.0
 * @category models
 */
export interface Block {
  readonly number: number
  readonly hash: string
  readonly parentHash: string
  readonly timeMs: number
  readonly transactions: ReadonlyArray<Extract<Found, { readonly status: "committed" }>>
}

/**
 * The node's reads and its `sendRawTransaction`.
 *
 * @since 0.5.0
 * @category models
 */
export interface Service {
  /** The number of the latest block made, and the chain's gas price. */
  readonly head: (chainId: number) => Effect.Effect<{ readonly blockNumber: number; readonly gasPrice: bigint }, SqlError.SqlError>
  readonly account: (chainId: number, address: string) => Effect.Effect<AccountView, SqlError.SqlError>
  /** The next nonce counting the pending pool: the state's nonce plus the sender's pending transactions. */
  readonly poolNonce: (chainId: number, address: string) => Effect.Effect<number, SqlError.SqlError>
  /** A transaction by lower-case hash. */
  readonly transaction: (chainId: number, hash: string) => Effect.Effect<Option.Option<Found>, SqlError.SqlError>
  /** A block made by number; `None` above the latest. */
  readonly block: (chainId: number, blockNumber: number) => Effect.Effect<Option.Option<Block>, SqlError.SqlError>
  /**
   * Sends a raw transaction signed whole elsewhere (any kind, fee-delegated ones with their fee
   * payer's signatures) from any address: checked against the sender's (and fee payer's) account
   * key on the chain, then through the ledger's one acceptance (nonce, funds, gas) into the pool or
   * block, the caller's member recorded as the one who sent it. Answers the transaction hash;
   * refusals are the node's (`NodeRefused`), in its words.
   */
  readonly submit: (pool: Store.SelectedPool, raw: Uint8Array) => Effect.Effect<string, Refusal.Refusal | SqlError.SqlError>
}

/**
 * The node of an emulator.
 *
 * @since 0.5.0
 * @category tags
 */
export class Node extends Context.Tag("effect-kas-wallet-emulator/Node")<Node, Service>() {}

const broken = (what: string) => Effect.die(new Error(`node: ${what}`))

// A signature for another chain: its V is 2 × its chain id + 35 or + 36.
const otherChain = (signatures: ReadonlyArray<Klaytn.SignatureValues>, chainId: number) =>
  signatures.some((sig) => !Klaytn.isUnsigned([sig]) && (sig.v - 35) >> 1 !== chainId)

/**
 * Builds the node over the ledger and its store.
 *
 * @since 0.5.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, LedgerStore.LedgerStore | Ledger.Ledger> = Effect.gen(function*() {
  const store = yield* LedgerStore.LedgerStore
  const ledger = yield* Ledger.Ledger
  const intervalMs = Duration.toMillis(ledger.blockInterval)

  const latest = (chainId: number) =>
    Effect.gen(function*() {
      const chain = yield* store.chain(chainId)
      const now = yield* ledger.now
      return { chain, now, blockNumber: Blocks.head(chain, now, ledger.mining, intervalMs).blockNumber }
    })

  // The time of a block made: by interval, from the block clock; in manual mining, from its
  // transactions (or the last earlier block's).
  const blockTimeOf = (chain: ChainState.ChainRow, blockNumber: number) =>
    Blocks.counted(ledger.mining)
      ? Effect.map(store.blockTime(chain.chainId, blockNumber), Option.getOrElse(() => 0))
      : Effect.succeed(chain.genesisMs === undefined ? 0 : chain.genesisMs + blockNumber * intervalMs)

  const hashOf = (chain: ChainState.ChainRow, blockNumber: number) =>
    Effect.map(blockTimeOf(chain, blockNumber), (time) => Blocks.blockHash(chain.chainId, blockNumber, time))

  const decode = (raw: Uint8Array, chainId: number, hash: string) =>
    Either.match(Klaytn.fromRaw(raw, chainId), {
      onLeft: (e) => broken(`stored transaction ${hash}: ${e.reason}`),
      onRight: Effect.succeed
    })

  const committed = (chainId: number, row: ChainState.TransactionRow) =>
    Effect.map(decode(row.raw, chainId, row.hash), (signed) => ({
      status: "committed" as const,
      signed,
      row,
      blockHash: Blocks.blockHash(chainId, row.blockNumber, row.blockTimeMs)
    }))

  const account: Service["account"] = (chainId, address) =>
    Effect.gen(function*() {
      const state = yield* store.state(chainId, address)
      const exists = yield* store.exists(chainId, address)
      if (Option.isSome(state.code)) {
        const slots = yield* store.storageOf(chainId, address)
        return { exists, ...state, key: { _tag: "Fail" }, storageRoot: Trie.storageRoot(slots) } satisfies AccountView
      }
      const stored = yield* store.accountKey(chainId, address)
      const key = Option.isNone(stored)
        ? Either.right<Klaytn.AccountKey>({ _tag: "Legacy" })
        : Klaytn.decodeAccountKey(stored.value)
      // The ledger wrote the key after decoding it: one that does not decode is a broken row.
      if (Either.isLeft(key)) return yield* broken(`the stored key of ${address}: ${key.left.reason}`)
      return { exists, ...state, key: key.right, storageRoot: undefined } satisfies AccountView
    })

  const transaction: Service["transaction"] = (chainId, hash) =>
    Effect.gen(function*() {
      const row = yield* store.transaction(chainId, hash)
      if (Option.isSome(row)) {
        if (Blocks.inBlock(ledger.mining, row.value.blockTimeMs, yield* ledger.now)) {
          return Option.some<Found>(yield* committed(chainId, row.value))
        }
        return Option.some<Found>({ status: "pending", signed: yield* decode(row.value.raw, chainId, hash) })
      }
      const pending = yield* store.pendingTransaction(chainId, hash)
      if (Option.isNone(pending)) return Option.none()
      return Option.some<Found>({ status: "pending", signed: yield* decode(pending.value.raw, chainId, hash) })
    })

  const block: Service["block"] = (chainId, blockNumber) =>
    Effect.gen(function*() {
      const { chain, blockNumber: head } = yield* latest(chainId)
      if (blockNumber > head) return Option.none()
      const timeMs = yield* blockTimeOf(chain, blockNumber)
      const rows = yield* store.blockTransactions(chainId, blockNumber)
      return Option.some<Block>({
        number: blockNumber,
        hash: Blocks.blockHash(chainId, blockNumber, timeMs),
        parentHash: blockNumber === 0 ? ZeroHash : yield* hashOf(chain, blockNumber - 1),
        timeMs,
        transactions: yield* Effect.forEach(rows, (row) => committed(chainId, row))
      })
    })

  const submit: Service["submit"] = (pool, raw) =>
    Effect.gen(function*() {
      const chainId = pool.chainId
      const decoded = Klaytn.decodeRaw(raw)
      if (Either.isLeft(decoded)) {
        return yield* new Refusal.NodeRefused({
          reason: raw.length > 0 && raw[0]! < 0xc0 && !Wire.isTxType(raw[0]!) ? "transaction type not supported" : decoded.left.reason,
          during: "send"
        })
      }
      const parts = decoded.right
      if (otherChain([...parts.signatures, ...(parts.feePayer?.signatures ?? [])], chainId)) {
        return yield* new Refusal.NodeRefused({ reason: "invalid chain id", during: "send" })
      }
      // Not signed yet (a wallet's placeholder, or none): what a node takes needs its signatures.
      if (Klaytn.isUnsigned(parts.signatures)) return yield* new Refusal.NodeRefused({ reason: "invalid sender", during: "send" })
      if (parts.feePayer !== undefined && Klaytn.isUnsigned(parts.feePayer.signatures)) return yield* new Refusal.NodeRefused({ reason: "invalid fee payer", during: "send" })
      const tx = parts.tx
      yield* ledger.send({
        kind: "rlp",
        tx,
        signatures: parts.signatures,
        feePayer: parts.feePayer,
        from: tx.from,
        nonce: tx.nonce,
        gas: tx.gas,
        pool,
        submit: true,
        payer: { _tag: "Signed", feeRatio: tx.feeRatio ?? 0 },
        // A cancel replaces the pending transaction of its nonce, as Klaytn's pool lets it.
        replace: Klaytn.kindOf(tx.type) === "cancel"
      })
      return Klaytn.transactionHash(Klaytn.encodeRaw(parts))
    })

  return {
    head: (chainId) =>
      Effect.map(latest(chainId), ({ blockNumber, chain }) => ({ blockNumber, gasPrice: chain.gasPrice })),
    account,
    poolNonce: (chainId, address) =>
      Effect.zipWith(store.state(chainId, address), ledger.pendingBySender(chainId, address), (state, pending) => state.nonce + pending.length),
    transaction,
    block,
    submit
  }
})

/**
 * The node over the ledger and its store of the context.
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<Node, never, LedgerStore.LedgerStore | Ledger.Ledger> = Layer.effect(Node, make)
