/**
 * Multisig accounts: the update of an account to a weighted set of its member's keys, and the
 * life of its transactions — made `Pending` by the ledger (its sender cannot sign alone), signed
 * by the signers (the member's accounts holding the keys, or signatures made elsewhere), sent to
 * the chain when the weights that signed reach the threshold.
 *
 * Rules (docs/emulator.md, "Multisig accounts"):
 *
 * - A transaction's signers are the account's weighted keys when it was made; a signature is over
 *   its sender signing hash on its chain, each key signs once, and its weight counts once.
 * - Reaching the threshold sends it through the ledger as a raw transaction carrying the
 *   signatures (the ledger checks them against the account's key on the chain, and its fee payer
 *   signs then). A refusal of the node (funds, ...) is answered and changes nothing: the signature
 *   is not kept, so signing again once it can pass sends it. One whose nonce comes after another
 *   transaction still waiting keeps its signatures and waits (`status` 3 in listings); it is sent
 *   right after the one before it. One whose nonce was taken meanwhile is dropped.
 * - Changes are compare-and-set on the transaction's version, and serialized in this process.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.8.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Clock, Context, Effect, Either, Layer, Option, Schema } from "effect"
import { AccountKey, Address, type ChainId, Krn, Multisig, Transaction } from "effect-kas-wallet"
import * as AccountKeys from "../chain/AccountKeys.js"
import * as Klaytn from "../chain/Klaytn.js"
import * as Ledger from "../chain/Ledger.js"
import type * as Requests from "../chain/Requests.js"
import * as Refusal from "../Refusal.js"
import * as LedgerStore from "../store/LedgerStore.js"
import * as MultisigStore from "../store/MultisigStore.js"
import * as Accounts from "./Accounts.js"
import * as Cursors from "./Cursors.js"
import type * as Keys from "./Keys.js"

/**
 * A listing of pending transactions, its values read.
 *
 * @since 0.8.0
 * @category models
 */
export interface ListRequest {
  readonly size: number
  readonly cursor: string
  readonly from: number | undefined
  readonly to: number | undefined
}

/**
 * A page of pending transactions: at least one; `cursor` is `""` on the last page.
 *
 * @since 0.10.0
 * @category models
 */
export interface Page {
  readonly items: ReadonlyArray<Multisig.PendingTransaction>
  readonly cursor: string
}

/**
 * The multisig operations; each answers the client's record of its answer.
 *
 * @since 0.8.0
 * @category models
 */
export interface Service {
  /** `PUT /v2/account/{address}/multisig`: the account (lower case) of the pool becomes multisig. */
  readonly update: (
    pool: Accounts.SelectedPool,
    address: string,
    body: { readonly request: Multisig.UpdateRequest; readonly key: Uint8Array }
  ) => Effect.Effect<Multisig.MultisigAccount, Refusal.Refusal | SqlError.SqlError>
  /** `GET /v2/multisig/account/{address}/tx`: the waiting transactions of a multisig account or a signer (lower case). */
  readonly list: (caller: Keys.KeyCaller, address: string, request: ListRequest) => Effect.Effect<Page, Refusal.Refusal | SqlError.SqlError>
  /** `POST /v2/multisig/account/{address}/tx/{transaction-id}/sign`: a signer of the pool signs. */
  readonly sign: (
    pool: Accounts.SelectedPool,
    signer: string,
    id: string
  ) => Effect.Effect<Multisig.SignatureStatus, Refusal.Refusal | SqlError.SqlError>
  /** `POST /v2/multisig/tx/{transaction-id}/sign`: signatures made elsewhere are added. */
  readonly append: (
    caller: Keys.KeyCaller,
    id: string,
    signatures: ReadonlyArray<Transaction.Signature>
  ) => Effect.Effect<Multisig.SignatureStatus, Refusal.Refusal | SqlError.SqlError>
  /** `POST /v2/account/{address}/tx/{transaction-id}/sign`: an account of the pool signs, and the signature is answered, not kept. */
  readonly signatureOf: (
    pool: Accounts.SelectedPool,
    address: string,
    id: string
  ) => Effect.Effect<Transaction.Signature, Refusal.Refusal | SqlError.SqlError>
}

/**
 * The multisig operations of an emulator.
 *
 * @since 0.8.0
 * @category tags
 */
export class MultisigService extends Context.Tag("effect-kas-wallet-emulator/Multisig")<MultisigService, Service>() {}

/**
 * `status` of a listed transaction: no signature yet, some below the threshold, the threshold
 * reached but waiting for an earlier transaction of its account.
 *
 * @since 0.8.0
 * @category constants
 */
export const ListedStatus = { Unsigned: 1, Signed: 2, Waiting: 3 } as const

// The hash of a transaction sent (one made pending for multisig signers has none yet).
const hashOf = (result: Transaction.TransactionResult): Transaction.TxHash | undefined =>
  "transactionHash" in result ? result.transactionHash : undefined

/** A change that lost a compare-and-set: read again and retry. */
const Conflict = Symbol("Conflict")
const MaxAttempts = 50

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")
const checksummed = (lower: string): Address.Address =>
  // Stored from addresses the ledger or the accounts checked.
  Option.getOrThrow(Address.checksum(lower))
const seconds = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))
const decodePoolKrn = Schema.decodeEither(Krn.PoolKrn)
const internal = (what: string) => Effect.die(new Error(`multisig: ${what}`))

// The node's refusal of a transaction whose nonce is not the next one (yet, or any more).
const nonceRefused = (e: Refusal.Refusal | SqlError.SqlError, words: "nonce too high" | "nonce too low") =>
  e._tag === "NodeRefused" && e.during === "send" && e.reason === words

/**
 * Builds the multisig operations over the ledger, the accounts, the cursors and their stores.
 *
 * @since 0.8.0
 * @category constructors
 */
export const make: Effect.Effect<
  Service,
  never,
  Ledger.Ledger | Accounts.Accounts | Cursors.Cursors | MultisigStore.MultisigStore | LedgerStore.LedgerStore
> = Effect.gen(function*() {
  const ledger = yield* Ledger.Ledger
  const accounts = yield* Accounts.Accounts
  const cursors = yield* Cursors.Cursors
  const store = yield* MultisigStore.MultisigStore
  const ledgerStore = yield* LedgerStore.LedgerStore
  const lock = yield* Effect.makeSemaphore(1)

  // Serialized here, and tried again while another process wins the compare-and-set.
  const changing = <A>(attempt: Effect.Effect<A, Refusal.Refusal | SqlError.SqlError | typeof Conflict>) => {
    const loop = (n: number): Effect.Effect<A, Refusal.Refusal | SqlError.SqlError> =>
      Effect.catchIf(attempt, (e): e is typeof Conflict => e === Conflict, () =>
        n + 1 < MaxAttempts ? loop(n + 1) : internal("other writers keep changing the transaction"))
    return lock.withPermits(1)(loop(0))
  }

  const decodeTx = (row: MultisigStore.Row) =>
    Either.match(Klaytn.decodeSigRlp(row.tx), {
      onLeft: (e) => internal(`stored transaction ${row.id}: ${e.reason}`),
      onRight: (d) => Effect.succeed(d.tx)
    })

  // A transaction of the member on the chain still waiting: unknown or dropped ones are not
  // there, a sent one says so with its hash.
  const waitingTransaction = (memberId: number, chainId: number, id: string) =>
    Effect.flatMap(store.find(memberId, chainId, id), (found): Effect.Effect<MultisigStore.Row, Refusal.Refusal> => {
      if (Option.isNone(found) || found.value.state === "dropped") return Effect.fail(new Refusal.NotFound({}))
      if (found.value.state === "submitted") return Effect.fail(new Refusal.AlreadySubmitted({ transactionHash: found.value.transactionHash ?? "" }))
      return Effect.succeed(found.value)
    })

  const weightOf = (row: MultisigStore.Row, signatures: ReadonlyArray<MultisigStore.Collected>) =>
    signatures.reduce((sum, c) => sum + (row.signers.find((s) => s.publicKey === c.publicKey)?.weight ?? 0), 0)

  const feePayerOf = (row: MultisigStore.Row): string | undefined =>
    row.payerKind === "global" ? ledger.globalFeePayer(row.chainId).toLowerCase() : row.payerKind === "user" ? row.feePayer : undefined

  // The pools of the request that made it: the sender's, and the fee payer's when it named one.
  const poolOf = (memberId: number, chainId: number, krnText: string, kind: "account" | "feePayer") =>
    Effect.flatMap(
      Either.match(decodePoolKrn(krnText), { onLeft: () => internal(`stored pool ${krnText}`), onRight: Effect.succeed }),
      (krn) => Effect.mapError(accounts.selectPool({ memberId, accountId: krn.accountId }, chainId as ChainId.ChainId, Option.some(krn), kind), () => new Refusal.NotFound({}))
    )

  // Sends a transaction whose signatures reached its threshold: the ledger checks them against the
  // account's key and its fee payer signs. Its hash, or `undefined` while an earlier transaction of
  // the account waits (its nonce is not the next yet).
  const submit = (row: MultisigStore.Row, tx: Klaytn.Tx, signatures: ReadonlyArray<MultisigStore.Collected>) =>
    Effect.gen(function*() {
      const pool = yield* poolOf(row.memberId, row.chainId, row.poolKrn, "account")
      const feeRatio = tx.feeRatio ?? 0
      const payer: Requests.Payer = row.payerKind === "sender"
        ? { _tag: "Sender" }
        : row.payerKind === "global"
        ? { _tag: "Global", feeRatio }
        : {
          _tag: "User",
          address: checksummed(row.feePayer!),
          feeRatio,
          pool: row.feePayerPoolKrn === undefined ? undefined : yield* poolOf(row.memberId, row.chainId, row.feePayerPoolKrn, "feePayer")
        }
      const sent = yield* ledger.send({
        kind: "rlp",
        tx,
        signatures: signatures.map((c) => ({ v: c.v, r: BigInt(c.r), s: BigInt(c.s) })),
        pool,
        from: tx.from,
        nonce: tx.nonce,
        gas: tx.gas,
        submit: true,
        payer,
        replace: Klaytn.kindOf(tx.type) === "cancel"
      }).pipe(
        Effect.map((result): string | undefined => hashOf(result)),
        Effect.catchIf((e) => nonceRefused(e, "nonce too high"), () => Effect.succeed(undefined))
      )
      return sent
    })

  // A change of a waiting transaction: written if no one changed it since it was read.
  const write = (row: MultisigStore.Row, change: Parameters<MultisigStore.Service["update"]>[2]) =>
    Effect.flatMap(store.update(row.seq, row.version, change), (ok) => (ok ? Effect.void : Effect.fail(Conflict)))

  // After one of an account's transactions is sent, those after it whose signers have signed
  // enough follow, in nonce order, as a node takes a queued transaction once the gap closes.
  const sendFollowing = (chainId: number, sender: string) =>
    Effect.gen(function*() {
      for (const next of yield* store.waiting(chainId, sender)) {
        if (weightOf(next, next.signatures) < next.threshold) return
        const hash = yield* Effect.catchIf(submit(next, yield* decodeTx(next), next.signatures), Refusal.isRefusal, (e) =>
          // Its nonce is gone (another transaction of that nonce was sent): it can never be sent.
          nonceRefused(e, "nonce too low")
            ? Effect.as(write(next, { signatures: next.signatures, state: "dropped", transactionHash: undefined, updatedAt: next.updatedAt }), "dropped")
            : Effect.succeed(undefined))
        if (hash === undefined) return
        if (hash !== "dropped") yield* write(next, { signatures: next.signatures, state: "submitted", transactionHash: hash, updatedAt: yield* seconds })
      }
    }).pipe(Effect.catchIf((e): e is typeof Conflict => e === Conflict, () => Effect.void))

  // New signatures (each checked already: one of the signers, not signed before) join the
  // transaction; reaching the threshold sends it. The answer: where it stands.
  const collect = (row: MultisigStore.Row, tx: Klaytn.Tx, added: ReadonlyArray<MultisigStore.Collected>) =>
    Effect.gen(function*() {
      const signatures = [...row.signatures, ...added]
      const signedWeight = weightOf(row, signatures)
      const now = yield* seconds
      const hash = signedWeight >= row.threshold
        ? yield* Effect.catchIf(submit(row, tx, signatures), Refusal.isRefusal, (e) =>
          nonceRefused(e, "nonce too low")
            ? Effect.zipRight(write(row, { signatures: row.signatures, state: "dropped", transactionHash: undefined, updatedAt: now }), Effect.fail(e))
            : Effect.fail(e))
        : undefined
      yield* write(row, { signatures, state: hash === undefined ? "pending" : "submitted", transactionHash: hash, updatedAt: now })
      if (hash !== undefined) yield* sendFollowing(row.chainId, row.sender)
      const signed = new Set(signatures.map((c) => c.publicKey))
      const status: Multisig.SignatureStatus = {
        signedWeight,
        status: hash === undefined ? "Signed" : "Submitted",
        threshold: row.threshold,
        ...(hash !== undefined ? { transactionHash: hash as Transaction.TxHash } : {}),
        transactionId: row.id as Transaction.TransactionId,
        weight: weightOf(row, added),
        ...(hash === undefined ? { reminders: row.signers.filter((s) => !signed.has(s.publicKey)).map((s) => checksummed(s.address)) } : {})
      }
      return status
    })

  const collected = (publicKey: Uint8Array, signature: Klaytn.SignatureValues): MultisigStore.Collected => ({
    publicKey: hex(publicKey),
    v: signature.v,
    r: signature.r.toString(),
    s: signature.s.toString()
  })

  const listed = (row: MultisigStore.Row) =>
    Effect.gen(function*() {
      const tx = yield* decodeTx(row)
      const feePayer = feePayerOf(row)
      const weight = weightOf(row, row.signatures)
      const item: Multisig.PendingTransaction = {
        address: checksummed(row.sender),
        chainId: row.chainId as ChainId.ChainId,
        createdAt: row.createdAt as Multisig.PendingTransaction["createdAt"],
        multiSigKeys: row.signers.map((s) => ({ address: checksummed(s.address), weight: s.weight })),
        status: row.signatures.length === 0 ? ListedStatus.Unsigned : weight < row.threshold ? ListedStatus.Signed : ListedStatus.Waiting,
        threshold: row.threshold,
        transactionId: row.id as Transaction.TransactionId,
        txData: Klaytn.toPendingTxData(tx, feePayer === undefined ? undefined : checksummed(feePayer)),
        type: "TX",
        updatedAt: row.updatedAt as Multisig.PendingTransaction["updatedAt"]
      }
      return item
    })

  return {
    update: (pool, address, { key, request }) =>
      Effect.gen(function*() {
        const account = yield* ledgerStore.account(pool.id, address)
        // Not an account of the pool: the spec's answer for "not your own account".
        if (Option.isNone(account)) return yield* new Refusal.NotMemberAccount({ address: address })
        if (account.value.status === "corrupted") return yield* new Refusal.AccountCorrupted({ address: account.value.address, use: "sign" })
        if (account.value.status !== "enabled") return yield* new Refusal.CannotSign({ address: account.value.address })
        // Its key must still be its own (legacy, or the public key KAS holds): not multisig already.
        const current = yield* ledger.accountKey(pool.chainId, address)
        const own = AccountKeys.kasSigns(address, current, Option.getOrUndefined(yield* ledgerStore.heldPublicKey(address)))
        if (!own) {
          return yield* new Refusal.NotLegacyAccount()
        }
        // The keys must be the member's own: the public keys of its accounts on the chain.
        const klaytnKey = AccountKey.toKlaytn(AccountKey.WeightedMultiSig({ threshold: request.threshold, keys: request.weightedKeys }))
        const keys = klaytnKey._tag === "WeightedMultiSig" ? klaytnKey.keys.map((k) => AccountKeys.uncompressedHex(k.publicKey)) : []
        const holders = yield* store.accountsOfKeys(pool.memberId, pool.chainId, keys)
        if (keys.some((k) => !holders.has(k))) return yield* new Refusal.NotFound({})
        const sent = yield* ledger.send({
          kind: "account",
          key,
          pool,
          from: checksummed(address),
          nonce: undefined,
          gas: undefined,
          submit: true,
          payer: { _tag: "Sender" }
        })
        const result: Multisig.MultisigAccount = {
          address: checksummed(address),
          krn: pool.krn as Krn.AccountPoolKrn,
          multiSigKeys: request.weightedKeys.map((w, i) => ({ publicKey: keys[i]! as Multisig.MultisigAccount["multiSigKeys"][number]["publicKey"], weight: w.weight })),
          threshold: request.threshold,
          transactionHash: hashOf(sent)!,
          updatedAt: (yield* seconds) as Multisig.MultisigAccount["updatedAt"]
        }
        return result
      }),

    list: (caller, address, request) =>
      Effect.gen(function*() {
        const binding: Cursors.Binding = { memberId: caller.memberId, chainId: caller.chainId, poolId: 0, kind: "multisig", scope: address }
        const before: MultisigStore.ListQuery["before"] = Option.getOrUndefined(
          Option.map(yield* cursors.resume(binding, request.cursor), (state) => state.after)
        )
        // One row ahead: the cursor is "" exactly when this page is the last.
        const rows = yield* store.list({
          memberId: caller.memberId,
          chainId: caller.chainId,
          address,
          from: request.from,
          to: request.to,
          before,
          limit: request.size + 1
        })
        // Nothing waiting: the spec's "No content", as the fee-delegation history answers.
        if (rows.length === 0 && before === undefined) return yield* new Refusal.NotFound({})
        const page = rows.slice(0, request.size)
        const items = yield* Effect.forEach(page, listed)
        const last = page[page.length - 1]
        const cursor = rows.length > request.size && last !== undefined
          ? cursors.encode(binding, { after: { createdAt: last.createdAt, seq: last.seq }, snapshot: last.seq })
          : ""
        return { items, cursor }
      }),

    sign: (pool, signer, id) =>
      changing(Effect.gen(function*() {
        const row = yield* waitingTransaction(pool.memberId, pool.chainId, id)
        const tx = yield* decodeTx(row)
        const signed = yield* ledger.signAs(pool, signer, Klaytn.senderSigningHash(tx, row.chainId))
        if (Option.isNone(signed)) return yield* new Refusal.NotFound({})
        const publicKey = hex(signed.value.publicKey)
        // A key not among the signers, or one that signed already.
        if (!row.signers.some((s) => s.publicKey === publicKey) || row.signatures.some((c) => c.publicKey === publicKey)) {
          return yield* new Refusal.CannotSign({ address: checksummed(signer) })
        }
        return yield* collect(row, tx, [collected(signed.value.publicKey, signed.value.signature)])
      })),

    append: (caller, id, signatures) =>
      changing(Effect.gen(function*() {
        const row = yield* waitingTransaction(caller.memberId, caller.chainId, id)
        const tx = yield* decodeTx(row)
        const hash = Klaytn.senderSigningHash(tx, row.chainId)
        const added: Array<MultisigStore.Collected> = []
        for (const wire of signatures) {
          const values = Klaytn.fromWireSignature(wire)
          const key = Klaytn.recoverPublicKey(hash, values, row.chainId)
          // Not a signature of this transaction on this chain (V of another chain, S high, ...).
          if (Either.isLeft(key)) return yield* new Refusal.OutOfRange({ field: "signatures" })
          const publicKey = hex(key.right)
          if (
            !row.signers.some((s) => s.publicKey === publicKey) ||
            row.signatures.some((c) => c.publicKey === publicKey) ||
            added.some((c) => c.publicKey === publicKey)
          ) {
            return yield* new Refusal.CannotSign({ address: Either.getOrThrow(Klaytn.addressOfPublicKey(key.right)) })
          }
          added.push(collected(key.right, values))
        }
        return yield* collect(row, tx, added)
      })),

    signatureOf: (pool, address, id) =>
      Effect.gen(function*() {
        const row = yield* waitingTransaction(pool.memberId, pool.chainId, id)
        const tx = yield* decodeTx(row)
        const signed = yield* ledger.signAs(pool, address, Klaytn.senderSigningHash(tx, row.chainId))
        if (Option.isNone(signed)) return yield* new Refusal.NotFound({})
        return Klaytn.toWireSignature(signed.value.signature)
      })
  }
})

/**
 * The multisig operations over the ledger, accounts, cursors and stores of the context.
 *
 * @since 0.8.0
 * @category layers
 */
export const layer: Layer.Layer<
  MultisigService,
  never,
  Ledger.Ledger | Accounts.Accounts | Cursors.Cursors | MultisigStore.MultisigStore | LedgerStore.LedgerStore
> = Layer.effect(MultisigService, make)
