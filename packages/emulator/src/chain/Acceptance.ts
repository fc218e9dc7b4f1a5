/**
 * Acceptance: the one pipeline every transaction goes through, whatever its kind — its parties and
 * keys, its nonce, its signatures, then the node's checks against the state plus the pending pool;
 * then, by mining mode, its entry into the pool (interval, manual) or its run and write in a block
 * of its own (instant).
 * A multisig sender's transaction waits for its signers instead (`MultisigPending`).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Effect, Either, Option } from "effect"
import type { Address, Transaction } from "effect-kas-wallet"
import * as Klaytn from "./Klaytn.js"
import * as Wire from "effect-kas-wallet/Wire"
import * as Refusal from "../Refusal.js"
import type * as LedgerStore from "../store/LedgerStore.js"
import * as ChainState from "../store/ChainState.js"
import type * as MultisigStore from "../store/MultisigStore.js"
import * as AccountKeys from "./AccountKeys.js"
import type * as Blocks from "./Blocks.js"
import type * as ChainClock from "./ChainClock.js"
import * as Executor from "./Executor.js"
import * as Gas from "./Gas.js"
import type * as MultisigPending from "./MultisigPending.js"
import * as Reasons from "./Reasons.js"
import type * as Requests from "./Requests.js"
import * as Retry from "./Retry.js"
import * as Signer from "./Signer.js"

const internalFailure = (what: string) => Effect.die(new Error(`ledger: ${what}`))

// The input of a transaction: a memo's UTF-8 bytes (an empty memo is none), or the contract's,
// the anchored data, a legacy transaction's data.
const inputOf = (action: Requests.Action): Uint8Array | undefined => {
  switch (action.kind) {
    case "value":
      return action.memo !== undefined && action.memo !== "" ? new TextEncoder().encode(action.memo) : undefined
    case "contract/deploy":
    case "contract/execute":
    case "anchor":
    case "legacy":
      return action.input
    case "rlp":
      return action.tx.input
    case "cancel":
    case "account":
      return undefined
  }
}

// The recipient of a transaction, by kind.
const recipientOf = (action: Requests.Action): Address.Address | undefined =>
  action.kind === "value" || action.kind === "contract/execute" || action.kind === "legacy" ? action.to : action.kind === "rlp" ? action.tx.to : undefined

// The value a transaction moves, by kind.
const valueOf = (action: Requests.Action): bigint =>
  action.kind === "value" || action.kind === "contract/deploy" || action.kind === "contract/execute" || action.kind === "legacy"
    ? action.value
    : action.kind === "rlp"
    ? action.tx.value
    : 0n

// The gas a transaction gives: a raw transaction's own, else the request's (absent or 0: the
// kind's default).
const gasOf = (request: Requests.SendRequest): number =>
  request.kind === "rlp"
    ? request.tx.gas
    : request.gas === undefined || request.gas === 0
    ? Gas.DefaultGas[request.kind as Wire.TypedKind]
    : request.gas

// What a transaction would run on the EVM, as a read-only run of it on the latest state, with its
// gas (acceptance has refused one over the block gas limit by then), or `undefined` when it runs no
// contract code. It may, as the executor runs it: a deployment, an execution, or a legacy
// transaction (a deployment without a recipient, else its recipient's code, if any, runs, with or
// without data); a raw one by its type's kind. An anchoring's data or a memo is never run.
const contractRun = (request: Requests.SendRequest): Requests.SimulateRequest | undefined => {
  const kind = request.kind === "rlp" ? Klaytn.kindOf(request.tx.type) : request.kind
  if (kind !== "contract/deploy" && kind !== "contract/execute" && kind !== "legacy") return undefined
  return {
    chainId: request.pool.chainId,
    from: request.from.toLowerCase(),
    to: recipientOf(request)?.toLowerCase(),
    value: valueOf(request),
    input: inputOf(request) ?? new Uint8Array(),
    gasLimit: BigInt(gasOf(request))
  }
}

// What the first pass of acceptance answers for a transaction that must run before it enters the
// pool (`Dependencies.runBeforePool`): every other check passed, nothing written.
class RunFirst {
  constructor(readonly run: Requests.SimulateRequest) {}
}

/**
 * What acceptance works with: the ledger's stores and keys, the executor, the multisig pending,
 * the mining mode, and the chains' settings.
 *
 * @since 0.10.0
 * @category models
 */
export interface Dependencies {
  readonly store: LedgerStore.Service
  readonly multisigs: MultisigStore.Service
  readonly signer: Signer.Signer
  readonly execute: Executor.Execute
  readonly pend: (pending: MultisigPending.Pending) => Effect.Effect<Transaction.TransactionResult, Refusal.Refusal | SqlError.SqlError>
  /**
   * How blocks are made.
   *
   * @since 0.12.0
   */
  readonly mining: Blocks.Mining
  /**
   * The chain's clock.
   *
   * @since 0.12.0
   */
  readonly clock: ChainClock.ChainClock
  /**
   * Told of each transaction put in the pool: its chain, the start of the chain's block clock and
   * when it was accepted (interval mining: when its block is due).
   *
   * @since 0.12.0
   */
  readonly pooled?: ((chainId: number, genesisMs: number, acceptedMs: number) => void) | undefined
  /** A chain's settings (its gas price, the start of its block clock, its pool's version). */
  readonly chainRow: (chainId: number) => Effect.Effect<ChainState.ChainRow, SqlError.SqlError>
  /**
   * The most gas a contract transaction may give: the block gas limit (`Gas.MaxGas`), or the EVM's
   * gas cap when it is lower.
   *
   * @since 0.11.0
   */
  readonly gasLimit: number
  /**
   * Interval and manual mining: the run of a transaction that runs contract code before it enters
   * the pool, off the ledger's lock, failing with the refusal of a run past the EVM's time budget. It comes after every other check of acceptance (a transaction refused for
   * its nonce, its funds or its signatures is refused at once, without running), and those checks
   * are made again after it, on the state it leaves.
   *
   * @since 0.12.0
   */
  readonly runBeforePool?: ((run: Requests.SimulateRequest) => Effect.Effect<void, Refusal.Refusal | SqlError.SqlError>) | undefined
}

/**
 * Builds the acceptance of transactions: `send`.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = ({ chainRow, clock, execute, gasLimit, mining, multisigs, pend, pooled: onPooled, runBeforePool, signer, store }: Dependencies) => {
  // Interval and manual mining put a transaction in the pool; instant mining makes its block.
  const pooled = mining !== "instant"
  const { keyOf, openKey, rowAddress, storedKey } = signer
  // A transaction signed whole elsewhere, its sender's signatures already checked: a type with a
  // fee payer needs its signatures, checked against the fee payer's key on the chain (its
  // fee-payer role), as a node does.
  const signedWhole = (chainId: number, parts: Klaytn.SignedParts, senderKey: Klaytn.AccountKey) =>
    Effect.gen(function*() {
      if (Wire.isFeeDelegatedType(parts.tx.type)) {
        if (parts.feePayer === undefined) return yield* new Refusal.NodeRefused({ reason: "invalid fee payer", during: "send" })
        const payerKey = yield* keyOf(chainId, parts.feePayer.address)
        if (Either.isLeft(Klaytn.validateSignatures(parts, chainId, { sender: senderKey, feePayer: payerKey }))) {
          return yield* new Refusal.NodeRefused({ reason: "invalid fee payer", during: "send" })
        }
      }
      return Klaytn.fromRaw(Klaytn.encodeRaw(parts), chainId)
    })

  // Acceptance, one pipeline for every kind: the request's parties and keys, the nonce, the
  // signed transaction, then the node's checks against the state plus the pool; then, by mining
  // mode, the entry into the pool (interval, manual) or the run and write in a block of its own
  // (instant).
  const send = (request: Requests.SendRequest): Effect.Effect<Transaction.TransactionResult, Refusal.Refusal | SqlError.SqlError> =>
    Effect.gen(function*() {
      const chainId = request.pool.chainId
      const input = inputOf(request)
      const raw = request.kind === "rlp" ? request : undefined
      const feeRatio = request.payer._tag === "Sender" ? undefined : request.payer.feeRatio
      const gas = gasOf(request)
      if (!Number.isSafeInteger(gas)) return yield* new Refusal.OutOfRange({ field: "gas" })
      if (request.nonce !== undefined && !Number.isSafeInteger(request.nonce)) return yield* new Refusal.OutOfRange({ field: "nonce" })
      const from = request.from.toLowerCase()
      const recipient = recipientOf(request)
      const to = recipient?.toLowerCase()
      // A raw transaction its sender signed may come from anywhere on the fee-delegated routes: its
      // signatures are checked against the sender's key on the chain, no pool account is needed.
      const signedElsewhere = raw?.signatures !== undefined && request.payer._tag !== "Sender"
      // A transaction signed whole pays as a user fee payer would: from the fee payer's balance.
      const payerKind: ChainState.PayerKind = request.payer._tag === "Sender" || (request.payer._tag === "Signed" && raw?.feePayer === undefined)
        ? "sender"
        : request.payer._tag === "Global"
        ? "global"
        : "user"

      // One attempt: read, check, sign, then run and write (or pool). `None` when another process
      // wrote in between. `ran`: the run before the pool is done (`runBeforePool`); before it, a
      // transaction that passes every check answers `RunFirst` and writes nothing.
      const attempt = (ran: boolean) => Effect.gen(function*() {
        // With its account key on the chain when that is needed below (one query).
        const sender = signedElsewhere ? Option.none() : yield* store.account(request.pool.id, from, raw?.signatures === undefined ? chainId : undefined)
        let senderKey: Uint8Array | undefined
        if (!signedElsewhere) {
          // A raw transaction names an account the member does not hold: the service's 1065100.
          if (Option.isNone(sender)) return yield* (raw !== undefined ? new Refusal.NotMemberAccount({ address: request.from }) : new Refusal.NotFound({ detail: "from" }))
          if (sender.value.status === "corrupted") return yield* new Refusal.AccountCorrupted({ address: sender.value.address, use: "sign" })
          if (sender.value.status !== "enabled") {
            // The raw routes: the service's live tests (INT-123) get 1065100 for a disabled
            // sender's SigRLP; the other routes' answer is not known (1061512, its error table's
            // "account is invalid to sign the transaction").
            return yield* (raw !== undefined ? new Refusal.NotMemberAccount({ address: sender.value.address }) : new Refusal.CannotSign({ address: sender.value.address }))
          }
          senderKey = yield* openKey(sender.value)
        }
        // An account registered under a key of the key service: KAS's key is not its address's own.
        const registered = Option.isSome(sender) && sender.value.publicKey !== undefined &&
          AccountKeys.addressOf(AccountKeys.publicKeyBytes(sender.value.publicKey)).toLowerCase() !== from

        const payer = request.payer
        let payerKey: Signer.Party | undefined
        let userPayer: string | undefined
        if (payer._tag === "User") {
          const row = yield* store.feePayer(request.pool.memberId, chainId, payer.address.toLowerCase(), payer.pool?.id)
          // The service's "Wrong fee payer address" (the spec's fd-user example).
          if (Option.isNone(row)) return yield* new Refusal.FeePayerNotFound()
          payerKey = { address: yield* rowAddress(row.value), key: yield* openKey(row.value) }
          userPayer = row.value.address.toLowerCase()
        } else if (payer._tag === "Global") {
          payerKey = signer.globalPayer(chainId)
        } else if (payer._tag === "Signed" && raw?.feePayer !== undefined) {
          userPayer = raw.feePayer.address.toLowerCase()
        }

        // A multisig sender (a weighted multisig key on the chain) does not sign alone: its
        // transaction waits for its signers. A legacy transaction or a raw one it cannot make.
        // (Read once: what KAS signs is checked against the same key below.)
        const chainKey = raw?.signatures === undefined
          ? yield* (Option.isSome(sender) && sender.value.chainKey !== undefined ? storedKey(from, sender.value.chainKey) : keyOf(chainId, from))
          : undefined
        const multisigKey = raw === undefined && request.kind !== "legacy" && chainKey?._tag === "WeightedMultiSig" ? chainKey : undefined

        const now = yield* clock.now
        const chain = yield* chainRow(chainId)
        const parties = yield* store.parties(chainId, [from, ...(to !== undefined ? [to] : []), ...(userPayer !== undefined ? [userPayer] : [])])
        const read = new Map(parties.balances)
        const senderState = read.get(from)!
        // The sender's pending transactions (none in instant mode: the pool stays empty), nonces
        // senderState.nonce, +1, ... in order; a multisig sender's next nonce also follows its
        // transactions waiting for signers.
        const queued = pooled ? yield* store.pendingCount(chainId, from) : 0
        const waiting = multisigKey !== undefined ? yield* multisigs.waiting(chainId, from) : []
        const next = Math.max(senderState.nonce + queued, ...waiting.map((w) => w.nonce + 1))
        // A raw transaction has its own nonce; a replacement names its nonce, 0 included;
        // otherwise absent or 0 is the next one.
        const nonce = raw !== undefined
          ? raw.tx.nonce
          : request.replace === true
          ? request.nonce ?? next
          : request.nonce === undefined || request.nonce === 0
          ? next
          : request.nonce

        const made = request.kind === "rlp"
          ? Either.right(request.tx)
          : Klaytn.makeTransaction({
            kind: request.kind,
            from: request.from,
            to: recipient,
            value: valueOf(request),
            nonce,
            gas,
            gasPrice: chain.gasPrice,
            input,
            key: request.kind === "account" ? request.key : undefined,
            feeDelegated: feeRatio !== undefined,
            feeRatio
          })
        if (Either.isLeft(made)) return yield* internalFailure(made.left.reason)
        const tx = made.right
        // Klaytn's typed transactions pay the chain's unit price, no other.
        if (tx.gasPrice !== chain.gasPrice) return yield* new Refusal.NodeRefused({ reason: "invalid unit price", during: "send" })
        if (multisigKey !== undefined) {
          const pendingResult = yield* pend({
            tx,
            key: multisigKey,
            pool: request.pool,
            payerKind,
            feePayer: payer._tag === "Global" ? signer.globalPayer(chainId).address : userPayer,
            feePayerPool: payer._tag === "User" ? payer.pool : undefined
          })
          return Option.some<Transaction.TransactionResult>(pendingResult)
        }
        const signed = raw?.signatures !== undefined
          ? yield* Effect.flatMap(keyOf(chainId, from), (key) => {
            // The sender's signatures as they came, checked against its key on the chain (absent:
            // the legacy key, its own address); the fee payer signs here.
            const valid = Klaytn.validateSignatures({ tx, signatures: raw.signatures! }, chainId, { sender: key })
            if (Either.isLeft(valid)) return new Refusal.NodeRefused({ reason: "invalid sender", during: "send" })
            return request.payer._tag === "Signed"
              ? signedWhole(chainId, { tx, signatures: raw.signatures!, ...(raw.feePayer !== undefined ? { feePayer: raw.feePayer } : {}) }, key)
              : Effect.succeed(Signer.signKnown(tx, chainId, raw.signatures!, payerKey))
          })
          : Either.flatMap(Klaytn.sign(Klaytn.senderSigningHash(tx, chainId), senderKey!, chainId), (signature) =>
            Signer.signKnown(tx, chainId, [signature], payerKey))
        if (Either.isLeft(signed)) return yield* internalFailure(signed.left.reason)
        // Signed here with the key KAS holds: valid as long as the account's key on the chain is
        // still the legacy one (no row) or KAS's own public key; anything else (a legacy
        // transaction of an account whose key is no longer legacy, say) a node refuses. The key
        // of a registered account is not its address's: its legacy key is its old owner's.
        if (chainKey !== undefined) {
          const key = chainKey
          if ((key._tag !== "Legacy" || registered) && Either.isLeft(Klaytn.validateSignatures(signed.right, chainId, { sender: key }))) {
            return yield* new Refusal.NodeRefused({ reason: "invalid sender", during: "send" })
          }
        }
        const layout = Klaytn.kindOf(tx.type)
        // makeTransaction and decodeRaw checked the key: one that does not decode is a defect here.
        const intrinsic = yield* Either.match(Klaytn.intrinsicGasOf(tx), { onLeft: (e) => internalFailure(e.reason), onRight: Effect.succeed })
        const result: Transaction.TransactionResult = Klaytn.toResult(signed.right, request.submit ? "Submitted" : "Pending")
        if (!request.submit) return Option.some(result)
        const hash = signed.right.transactionHash.toLowerCase()

        // The node's checks, in the order of Klaytn's transaction pool: the transaction known
        // already (signing is deterministic: the same request signs the same bytes), the nonce,
        // the funds for the most the transaction may cost (its gas limit at the gas price) with
        // what the pool already reserves, the intrinsic gas, then the recipient.
        if (pooled) {
          if (Option.isSome(yield* store.pendingTransaction(chainId, hash))) return yield* new Refusal.NodeRefused({ reason: Reasons.AlreadyKnown, during: "send" })
          if (Option.isSome(yield* store.transaction(chainId, hash))) return yield* new Refusal.NodeRefused({ reason: "nonce too low", during: "send" })
        }
        if (nonce < senderState.nonce) return yield* new Refusal.NodeRefused({ reason: "nonce too low", during: "send" })
        const replaced = request.replace === true && pooled ? Option.getOrUndefined(yield* store.pendingAt(chainId, from, nonce)) : undefined
        if (replaced === undefined && nonce < next) return yield* new Refusal.NodeRefused({ reason: Reasons.NonceInPool, during: "send" })
        if (nonce > next) return yield* new Refusal.NodeRefused({ reason: "nonce too high", during: "send" })
        const reserved = pooled ? yield* store.reserved(chainId, [from, ...(userPayer !== undefined ? [userPayer] : [])]) : new Map<string, bigint>()
        const reservedBy = (address: string) =>
          (reserved.get(address) ?? 0n) -
          (replaced === undefined ? 0n : (replaced.sender === address ? replaced.senderReserve : 0n) +
            (replaced.payerKind === "user" && replaced.feePayer === address ? replaced.feePayerReserve : 0n))
        const maxFee = BigInt(gas) * chain.gasPrice
        const payerReserve = Executor.share(maxFee, payerKind, feeRatio)
        const senderReserve = tx.value + maxFee - payerReserve
        if (senderState.balance < senderReserve + reservedBy(from)) return yield* new Refusal.NodeRefused({ reason: Reasons.SenderFunds, during: "send" })
        if (userPayer !== undefined && read.get(userPayer)!.balance < payerReserve + reservedBy(userPayer)) {
          return yield* new Refusal.NodeRefused({ reason: Reasons.FeePayerFunds, during: "send" })
        }
        if (gas < intrinsic) return yield* new Refusal.NodeRefused({ reason: "intrinsic gas too low", during: "send" })
        if (gas > gasLimit && (layout === "contract/deploy" || layout === "contract/execute" || layout === "legacy")) {
          return yield* new Refusal.NodeRefused({ reason: "exceeds block gas limit", during: "send" })
        }

        const accepted: Executor.Accepted = { chainId, memberId: request.pool.memberId, signed: signed.right, payerKind, userPayer, acceptedMs: now }
        if (pooled) {
          // Into the pool: the recipient is checked now as Klaytn's pool does (the run comes at
          // mining); nothing else changes until then.
          if (to !== undefined) {
            const hasCode = parties.codeHashes.get(to) !== undefined
            if (layout === "value" && hasCode) return yield* new Refusal.NodeRefused({ reason: Reasons.NotForProgramAccount, during: "send" })
            if (layout === "contract/execute" && !hasCode) return yield* new Refusal.NodeRefused({ reason: Reasons.NotAProgramAccount, during: "send" })
          }
          const run = ran || runBeforePool === undefined ? undefined : contractRun(request)
          if (run !== undefined) return Option.some(new RunFirst(run))
          const written = yield* store.write({
            chainId,
            balances: [],
            // Interval mining: the chain's first transaction starts its block clock.
            genesisMs: mining === "interval" && chain.genesisMs === undefined ? now : undefined,
            pool: {
              version: chain.poolVersion,
              remove: replaced !== undefined ? [replaced.hash] : undefined,
              add: {
                // A replacement takes the place of the transaction it replaces in the block.
                seq: replaced?.seq,
                chainId,
                hash,
                sender: from,
                nonce,
                memberId: request.pool.memberId,
                raw: signed.right.raw,
                payerKind,
                feePayer: signed.right.feePayer?.address.toLowerCase(),
                senderReserve,
                feePayerReserve: userPayer !== undefined ? payerReserve : 0n,
                acceptedMs: now
              }
            }
          })
          if (written) onPooled?.(chainId, chain.genesisMs ?? now, now)
          return written ? Option.some(result) : Option.none()
        }

        // Instant mining: a block of its own, made now (the chain's block count moves with it).
        const last = Option.getOrUndefined(yield* store.tip(chainId))
        const blockNumber = chain.minedBlock + 1
        const applied = yield* execute(
          accepted,
          read,
          chain.gasPrice,
          { blockNumber, blockTimeMs: yield* clock.blockTime(last?.blockTimeMs ?? 0), transactionIndex: 0, logIndex: 0 },
          { minedBlock: { read: chain.minedBlock, write: blockNumber } },
          false,
          parties.codeHashes
        )
        if (applied) clock.blockMade()
        return applied ? Option.some(result) : Option.none()
      })

      const accept = (ran: boolean) => store.serialize(Retry.retrying<Transaction.TransactionResult | RunFirst, Refusal.Refusal | SqlError.SqlError>(attempt(ran)))
      const first = yield* accept(false)
      if (!(first instanceof RunFirst)) return first
      yield* runBeforePool!(first.run)
      const second = yield* accept(true)
      return second instanceof RunFirst ? yield* internalFailure("a transaction already run was asked to run again") : second
    })
  return send
}
