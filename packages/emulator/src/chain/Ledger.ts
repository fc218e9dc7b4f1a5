/**
 * The chain behind the transaction routes: value transfers from the accounts of a pool, signed as
 * real Klaytn transactions, applied to a ledger of balances and nonces per chain, committed by a
 * block clock, with their fee paid by the sender, the member's fee-payer account or the global fee
 * payer.
 *
 * Rules (docs/emulator.md, "Ledger and transfers"):
 *
 * - **Type**: a memo makes a memo type, a fee payer a fee-delegated one, a fee ratio 1..99 a
 *   with-ratio one (Wire.transferType). Signed with the sender's sealed key, and the fee
 *   payer's: the member's fee-payer account (`fd-user`) or the chain's global fee payer (`fd`).
 * - **Gas**: `gas` absent or 0 is 100000; it must cover Klaytn's intrinsic gas of the type, which
 *   is what the transaction uses. The gas price is the chain's (25 ston).
 * - **Fee** = gas used × gas price. The fee payer's part is ⌊fee × ratio / 100⌋ (all of it without
 *   a ratio, nothing when the sender pays), the sender's the rest: the parts always sum to the fee,
 *   as in Klaytn. Fees leave circulation (there is no block producer to receive them): the sum of
 *   the balances drops by exactly the fees the ledger's accounts paid. The global fee payer holds
 *   no balance: what it pays goes on the member's bill.
 * - **Nonce**: absent or 0 is the sender's next; another one must be the next (400 1065001, "nonce
 *   too low" / "nonce too high").
 * - **Funds**, checked as Klaytn's transaction pool does, against the most the transaction may
 *   cost (its gas limit × price, split the same way): the sender needs value + its part, a user
 *   fee payer its part; otherwise 400 1065001 and nothing changes. Then the gas limit must cover
 *   the intrinsic gas (400 1065001, "intrinsic gas too low").
 * - **Blocks**: block n is made at genesis + n × interval, genesis being the chain's first
 *   transaction. A transaction goes in the next block to be made; its receipt is `Pending` until
 *   then, `Committed` after.
 * - `submit: false` signs and answers (status `Pending`) without the node's checks (nonce, gas,
 *   funds) and changes nothing.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.2.0
 * @internal
 */
import type { SqlError } from "@effect/sql"
import { keccak_256 as keccak256 } from "@noble/hashes/sha3.js"
import { Clock, Context, Duration, Effect, Either, Layer, Option, Redacted, Schema } from "effect"
import { type Address, Amount, Transaction } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as AccountKeys from "./AccountKeys.js"
import * as ApiError from "../http/ApiError.js"
import { EmulatorError } from "../EmulatorError.js"
import * as KeyVault from "../store/KeyVault.js"
import * as Klaytn from "./Klaytn.js"
import * as LedgerStore from "../store/LedgerStore.js"
import type * as Wallet from "../Wallet.js"

/**
 * The gas limit of a transfer that gives none (or 0), as the specification says.
 *
 * @since 0.2.0
 * @category constants
 */
export const DefaultGas = 100_000

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
 * Who pays the fee of a transfer: the sender (`/v2/tx/value`), the global fee payer
 * (`/v2/tx/fd/value`) or a fee-payer account of the member (`/v2/tx/fd-user/value`), in the
 * selected fee-payer pool when one is. `feeRatio` is the fee payer's percentage, 0 for all of it.
 *
 * @since 0.2.0
 * @category models
 */
export type Payer =
  | { readonly _tag: "Sender" }
  | { readonly _tag: "Global"; readonly feeRatio: number }
  | {
    readonly _tag: "User"
    readonly address: Address.Address
    readonly feeRatio: number
    readonly pool: Wallet.SelectedPool | undefined
  }

/**
 * A transfer request, its body decoded.
 *
 * @since 0.2.0
 * @category models
 */
export interface TransferRequest {
  /** The selected account pool: the sender must be one of its accounts. */
  readonly pool: Wallet.SelectedPool
  readonly from: Address.Address
  readonly to: Address.Address
  readonly value: Amount.Peb
  /** Free text; its UTF-8 bytes are the input. Empty counts as absent. */
  readonly memo: string | undefined
  /** Absent or 0: the sender's next nonce. */
  readonly nonce: number | undefined
  /** Absent or 0: `DefaultGas`. */
  readonly gas: number | undefined
  readonly submit: boolean
  readonly payer: Payer
}

/**
 * The ledger's operations on the wire.
 *
 * @since 0.2.0
 * @category models
 */
export interface Service {
  /** Signs (and unless `submit` is false, applies) a transfer; answers the result's JSON. */
  readonly transfer: (request: TransferRequest) => Effect.Effect<string, ApiError.ApiError | SqlError.SqlError>
  /** The receipt's JSON of a transaction by lower-case hash; 400 1065000 when the chain has none. */
  readonly receipt: (chainId: number, hash: string) => Effect.Effect<string, ApiError.ApiError | SqlError.SqlError>
  /** The global fee payer of a chain (made when the ledger starts). */
  readonly globalFeePayer: (chainId: number) => Address.Address
  /** The time between two blocks. */
  readonly blockInterval: Duration.Duration
}

/**
 * The ledger of an emulator.
 *
 * @since 0.2.0
 * @category tags
 */
export class Ledger extends Context.Tag("effect-kas-wallet-emulator/Ledger")<Ledger, Service>() {}

/**
 * The fee payer's part of a fee: ⌊fee × ratio / 100⌋ with a ratio 1..99, all of it with 0 (the
 * whole fee delegated). The sender pays `fee - part`, so the parts always sum to the fee.
 *
 * @since 0.2.0
 * @category fees
 */
export const feePayerPart = (fee: bigint, feeRatio: number): bigint => (feeRatio === 0 ? fee : (fee * BigInt(feeRatio)) / 100n)

/**
 * Where a transaction goes: the next block to be made at `now`, never before the last block that
 * holds transactions (the clock may go backwards), and its position in that block.
 *
 * @since 0.2.0
 * @category blocks
 */
export const placement = (
  now: number,
  genesisMs: number,
  intervalMs: number,
  tip: Option.Option<LedgerStore.Tip>
): { readonly blockNumber: number; readonly blockTimeMs: number; readonly transactionIndex: number } => {
  const next = Math.max(1, Math.floor((now - genesisMs) / intervalMs) + 1)
  const last = Option.getOrUndefined(tip)
  const blockNumber = last !== undefined ? Math.max(next, last.blockNumber) : next
  return {
    blockNumber,
    blockTimeMs: genesisMs + blockNumber * intervalMs,
    transactionIndex: last !== undefined && last.blockNumber === blockNumber ? last.count : 0
  }
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

const SENDER_FUNDS = "insufficient funds of the sender for value "
const FEE_PAYER_FUNDS = "insufficient funds of the fee payer for gas * price"

const globalContext = (chainId: number) => `global-fee-payer:${chainId}`

// What is answered goes through the domain schemas both ways: what the client decodes is what
// was meant, and a value that does not fit the contract is a defect (500), never a wrong answer.
const render = <A, I>(schema: Schema.Schema<A, I>, value: A): Effect.Effect<string> =>
  Schema.encode(schema)(value).pipe(Effect.map((json) => JSON.stringify(json)), Effect.orDie)

const internalFailure = (what: string) => Effect.die(new Error(`ledger: ${what}`))

// How many times a transfer is read, computed and written again when another process changed what
// it read in between. Each conflict means another writer made progress.
const MaxAttempts = 50

/**
 * Builds the ledger: makes each chain's global fee payer on first start (a fresh key, sealed in the
 * database; the first emulator to start on a database makes it, the others use it).
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (options: {
  readonly blockInterval?: Duration.DurationInput | undefined
}): Effect.Effect<Service, EmulatorError, LedgerStore.LedgerStore | KeyVault.KeyVault> =>
  Effect.gen(function*() {
    const store = yield* LedgerStore.LedgerStore
    const vault = yield* KeyVault.KeyVault
    const interval = Duration.decode(options.blockInterval ?? DefaultBlockInterval)
    const intervalMs = Duration.toMillis(interval)
    if (!Number.isFinite(intervalMs) || intervalMs < 1) {
      return yield* new EmulatorError({ reason: "Config", message: `blockInterval must be at least 1 millisecond, got ${Duration.format(interval)}` })
    }

    const globalPayers = new Map<number, { readonly address: Address.Address; readonly key: Redacted.Redacted<Uint8Array> }>()
    for (const chainId of Chains) {
      const made = AccountKeys.generate()
      const stored = yield* store.setGlobalFeePayer(
        chainId,
        made.address.toLowerCase(),
        vault.seal(made.privateKey, globalContext(chainId))
      ).pipe(
        Effect.mapError((cause) => new EmulatorError({ reason: "Database", message: "cannot store the global fee payer", cause }))
      )
      const key = vault.open(stored.sealedKey, globalContext(chainId))
      const address = Option.flatMap(key, (k) => Option.fromNullable(Either.getOrUndefined(Klaytn.addressOfKey(Redacted.value(k)))))
      if (Option.isNone(key) || Option.isNone(address) || address.value.toLowerCase() !== stored.address) {
        return yield* new EmulatorError({ reason: "MasterKey", message: `the global fee payer of chain ${chainId} does not open with this master key` })
      }
      globalPayers.set(chainId, { address: address.value, key: key.value })
    }

    const openKey = (row: LedgerStore.KeyRow) =>
      Option.match(vault.open(row.sealedKey, row.address.toLowerCase()), {
        // The vault checked the master key at start: a key that does not open is a broken row.
        onNone: () => internalFailure(`the key of ${row.address} does not open`),
        onSome: (key) => Effect.succeed(Redacted.value(key))
      })

    const transfer: Service["transfer"] = (request) =>
      Effect.gen(function*() {
        const chainId = request.pool.chainId
        const memo = request.memo !== undefined && request.memo !== "" ? new TextEncoder().encode(request.memo) : undefined
        const feeRatio = request.payer._tag === "Sender" ? undefined : request.payer.feeRatio
        const type = Wire.transferType({ memo: memo !== undefined, feeDelegated: feeRatio !== undefined, feeRatio })
        const gas = request.gas === undefined || request.gas === 0 ? DefaultGas : request.gas
        if (!Number.isSafeInteger(gas)) return yield* ApiError.outOfRange("gas")
        if (request.nonce !== undefined && !Number.isSafeInteger(request.nonce)) return yield* ApiError.outOfRange("nonce")
        const gasUsed = Klaytn.intrinsicGas(type, memo?.length ?? 0)
        const from = request.from.toLowerCase()
        const to = request.to.toLowerCase()

        // One attempt: read, check, sign, write. `None` when another process wrote in between.
        const attempt = Effect.gen(function*() {
          const sender = yield* store.account(request.pool.id, from)
          if (Option.isNone(sender)) return yield* ApiError.dataNotExist("from")
          if (sender.value.status !== "enabled") return yield* ApiError.cannotSign(sender.value.address)
          const senderKey = yield* openKey(sender.value)

          const payer = request.payer
          let payerKey: Uint8Array | undefined
          let userPayer: string | undefined
          if (payer._tag === "User") {
            const row = yield* store.feePayer(request.pool.memberId, chainId, payer.address.toLowerCase(), payer.pool?.id)
            if (Option.isNone(row)) return yield* ApiError.dataNotExist("feePayer")
            payerKey = yield* openKey(row.value)
            userPayer = row.value.address.toLowerCase()
          } else if (payer._tag === "Global") {
            payerKey = Redacted.value(globalPayers.get(chainId)!.key)
          }

          const now = yield* Clock.currentTimeMillis
          const chain = yield* store.chain(chainId)
          const read = yield* store.balances(chainId, [from, to, ...(userPayer !== undefined ? [userPayer] : [])])
          const senderState = read.get(from)!
          const nonce = request.nonce === undefined || request.nonce === 0 ? senderState.nonce : request.nonce

          const made = Klaytn.makeTransaction({
            kind: "value",
            from: request.from,
            to: request.to,
            value: request.value,
            nonce,
            gas,
            gasPrice: chain.gasPrice,
            input: memo,
            feeDelegated: feeRatio !== undefined,
            feeRatio
          })
          if (Either.isLeft(made)) return yield* internalFailure(made.left.reason)
          const signed = Klaytn.signTransaction(made.right, { chainId, sender: senderKey, feePayer: payerKey })
          if (Either.isLeft(signed)) return yield* internalFailure(signed.left.reason)
          const result = Klaytn.toResult(signed.right, request.submit ? "Submitted" : "Pending")
          if (!request.submit) return Option.some(result)

          // The node's checks, in the order of Klaytn's transaction pool: the nonce, the funds for
          // the most the transaction may cost (its gas limit at the gas price), the intrinsic gas.
          if (nonce < senderState.nonce) return yield* ApiError.sendFailed("nonce too low")
          if (nonce > senderState.nonce) return yield* ApiError.sendFailed("nonce too high")
          const share = (fee: bigint) => (feeRatio === undefined ? 0n : feePayerPart(fee, feeRatio))
          const maxFee = BigInt(gas) * chain.gasPrice
          if (senderState.balance < request.value + maxFee - share(maxFee)) return yield* ApiError.sendFailed(SENDER_FUNDS)
          if (userPayer !== undefined && read.get(userPayer)!.balance < share(maxFee)) {
            return yield* ApiError.sendFailed(FEE_PAYER_FUNDS)
          }
          if (gas < gasUsed) return yield* ApiError.sendFailed("intrinsic gas too low")

          const fee = BigInt(gasUsed) * chain.gasPrice
          const payerFee = share(fee)
          const senderFee = fee - payerFee
          // Deltas by address: the recipient may be the sender or the fee payer.
          const after = new Map<string, LedgerStore.Balance>(read)
          const move = (address: string, delta: bigint, nonceStep = 0) => {
            const b = after.get(address)!
            after.set(address, { balance: b.balance + delta, nonce: b.nonce + nonceStep })
          }
          move(from, -(request.value + senderFee), 1)
          move(to, request.value)
          if (userPayer !== undefined) move(userPayer, -payerFee)
          if (after.get(to)!.balance > Amount.MaxPeb) return yield* ApiError.outOfRange("value")

          const genesisMs = chain.genesisMs ?? now
          const tip = yield* store.tip(chainId)
          const place = placement(now, genesisMs, intervalMs, tip)
          const bill = payer._tag === "Global" ? yield* store.bill(request.pool.memberId, chainId) : undefined
          const applied = yield* store.write({
            chainId,
            genesisMs: chain.genesisMs === undefined ? now : undefined,
            balances: [...after].map(([address, write]) => ({ address, read: read.get(address)!, write })),
            bill: bill !== undefined
              ? {
                memberId: request.pool.memberId,
                read: bill,
                write: { fees: bill.fees + payerFee, transactions: bill.transactions + 1 }
              }
              : undefined,
            transaction: {
              chainId,
              hash: signed.right.transactionHash,
              sender: from,
              nonce,
              memberId: request.pool.memberId,
              raw: signed.right.raw,
              blockNumber: place.blockNumber,
              blockTimeMs: place.blockTimeMs,
              transactionIndex: place.transactionIndex,
              gasUsed,
              feePayer: signed.right.feePayer?.address.toLowerCase(),
              payerKind: payer._tag === "Sender" ? "sender" : payer._tag === "Global" ? "global" : "user",
              senderFee,
              feePayerFee: payerFee,
              acceptedMs: now
            }
          })
          return applied ? Option.some(result) : Option.none()
        })

        const loop = (n: number): Effect.Effect<Transaction.TransactionResult, ApiError.ApiError | SqlError.SqlError> =>
          Effect.flatMap(attempt, Option.match({
            onSome: Effect.succeed,
            onNone: () => (n + 1 < MaxAttempts ? loop(n + 1) : internalFailure("other writers keep changing the ledger"))
          }))
        return yield* Effect.flatMap(store.serialize(loop(0)), (result) => render(Transaction.TransactionResult, result))
      })

    const receipt: Service["receipt"] = (chainId, hash) =>
      Effect.gen(function*() {
        const row = yield* store.transaction(chainId, hash)
        if (Option.isNone(row)) return yield* ApiError.transactionNotFound()
        const t = row.value
        const signed = Klaytn.fromRaw(t.raw, chainId)
        if (Either.isLeft(signed)) return yield* internalFailure(`stored transaction ${hash}: ${signed.left.reason}`)
        const committed = Klaytn.toReceipt(signed.right, {
          blockHash: blockHash(chainId, t.blockNumber, t.blockTimeMs),
          blockNumber: t.blockNumber,
          transactionIndex: t.transactionIndex,
          gasUsed: t.gasUsed,
          status: "Committed"
        })
        if ((yield* Clock.currentTimeMillis) >= t.blockTimeMs) return yield* render(Transaction.TransactionReceipt, committed)
        // Before its block: the transaction as the pool holds it, with no block fields.
        const {
          blockHash: _hash,
          blockNumber: _number,
          contractAddress: _contract,
          gasUsed: _gas,
          logs: _logs,
          logsBloom: _bloom,
          transactionIndex: _index,
          txError: _error,
          ...pending
        } = committed
        return yield* render(Transaction.TransactionReceipt, { ...pending, status: "Pending" })
      })

    return {
      transfer,
      receipt,
      globalFeePayer: (chainId) => globalPayers.get(chainId)!.address,
      blockInterval: interval
    }
  })

/**
 * The ledger over the store and key vault of the context.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (options: {
  readonly blockInterval?: Duration.DurationInput | undefined
}): Layer.Layer<Ledger, EmulatorError, LedgerStore.LedgerStore | KeyVault.KeyVault> => Layer.effect(Ledger, make(options))
