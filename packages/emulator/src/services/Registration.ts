/**
 * Registration of existing Klaytn accounts under keys of the key service (`POST
 * /v2/registration/account`, the spec's `RegisterAccount`): each item's key and address are
 * checked, its account update (when it has one) verified and sent with the global fee payer paying,
 * and the account taken into the selected pool, its private key the key service's key.
 *
 * Rules (docs/emulator.md, "Registration"):
 *
 * - **Request-level refusals** change nothing: a body that is not 1 to 100 items, one per address
 *   (`1061608`, `1061609`, `1061607`, `1061615`), or a key id that is not the caller's key on the
 *   request's chain (`1061010 data don't exist; <keyId>`, the first one).
 * - **Per item**, in order, each failure leaving that item's state as it was: the address must not
 *   be an account or fee-payer account of the emulator already; with `rlp`, the RLP must be a
 *   signed `TxTypeFeeDelegatedAccountUpdate` (0x21; 0x22 is the spec's "partialFeeDelegation …"),
 *   from the address, whose new key makes the key the one that signs the account's transactions
 *   (`AccountKeyPublic` of it, or a role-based key whose transaction role it is), whose sender
 *   signatures validate against the address's key on the ledger (the spec's "invalid transaction v,
 *   r, s values of the sender"), with no fee payer but the global one; it then goes through the
 *   ledger as every fee-delegated raw transaction does (the global fee payer signs, pays and bills
 *   the member; the node's checks: nonce, gas, …); without `rlp`, the address's key on the ledger
 *   must already be such a key. Then the account joins the pool.
 * - The key stays in the key service: the account holds its own sealed copy.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.8.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Context, Effect, Either, Layer, Option } from "effect"
import { Registration } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Wire from "effect-kas-wallet/Wire"
import * as AccountKeys from "../chain/AccountKeys.js"
import * as Ledger from "../chain/Ledger.js"
import * as Refusal from "../Refusal.js"
import * as Accounts from "./Accounts.js"
import * as Keys from "./Keys.js"

/**
 * The registration operation.
 *
 * @since 0.8.0
 * @category models
 */
export interface Service {
  /**
   * Registers the items of a request (its body, decoded) into the selected pool: the result, or a
   * request-level refusal (a key id that is not the caller's key on the request's chain).
   */
  readonly register: (
    pool: Accounts.SelectedPool,
    items: ReadonlyArray<Registration.RegistrationItem>
  ) => Effect.Effect<Registration.RegistrationResult, Refusal.Refusal | SqlError.SqlError>
}

/**
 * The registration of an emulator.
 *
 * @since 0.10.0
 * @category tags
 */
export class RegistrationService
  extends Context.Tag("effect-kas-wallet-emulator/Registration")<RegistrationService, Service>()
{}

/**
 * The reason of an item whose signatures do not validate against the account's key: the spec's
 * example's.
 *
 * @since 0.8.0
 * @category constants
 */
export const InvalidSenderSignature = "failed to send a raw transaction to klaytn node; -32000::invalid transaction v, r, s values of the sender"

const bytesOf = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.slice(2), "hex"))

/** Why an item failed; the item's state is as it was. */
type Failure = string

/**
 * Builds the registration over the accounts, keys and ledger of the context. Registrations run one
 * at a time in the process: an item's checks, its transaction and its account are then never
 * interleaved with another registration of the same address.
 *
 * @since 0.8.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, Accounts.Accounts | Keys.Keys | Ledger.Ledger> = Effect.gen(function*() {
  const accounts = yield* Accounts.Accounts
  const keyService = yield* Keys.Keys
  const ledger = yield* Ledger.Ledger
  const lock = yield* Effect.makeSemaphore(1)
  // Whether the key on the chain (or the one an update sets) makes the KAS key the signer of the
  // account's transactions: what KAS needs to sign for it.
  const kasSigns = (address: string, key: Klaytn.AccountKey, kas: Keys.OpenedKey) =>
    AccountKeys.kasSigns(address, key, bytesOf(kas.publicKey))

  // The account update of an item, checked, then sent with the global fee payer paying.
  const sendUpdate = (pool: Accounts.SelectedPool, item: Registration.RegistrationItem, rlp: string, kas: Keys.OpenedKey) =>
    Effect.gen(function*() {
      const decoded = Klaytn.decodeRaw(bytesOf(rlp))
      if (Either.isLeft(decoded)) return Option.some<Failure>(`its value is out of range; rlp (${decoded.left.reason})`)
      const { feePayer, signatures, tx } = decoded.right
      if (tx.type === Wire.TxType.FeeDelegatedAccountUpdateWithRatio) return Option.some(Registration.PartialFeeDelegationRefused)
      if (tx.type !== Wire.TxType.FeeDelegatedAccountUpdate) {
        return Option.some(`it just allow TxTypeFeeDelegatedAccountUpdate; rlp is ${Wire.typeName(tx.type)}`)
      }
      if (tx.from !== item.address) return Option.some(`the rlp's sender ${tx.from} is not the account; address`)
      if (Klaytn.isUnsigned(signatures)) return Option.some("the rlp is not signed by the account; rlp")
      // decodeRaw checked the key (a key the chain refuses does not decode).
      const key = Either.getOrUndefined(Klaytn.decodeAccountKey(tx.key!))
      if (key === undefined || !kasSigns(item.address, key, kas)) {
        return Option.some(`the rlp's account key must be AccountKeyPublic of the key's public key; ${item.keyId.toString()}`)
      }
      const global = ledger.globalFeePayer(pool.chainId)
      if (feePayer !== undefined && feePayer.address !== global) {
        return Option.some(`feePayer is different between rlp value and the global fee payer ${global}`)
      }
      const current = yield* ledger.accountKey(pool.chainId, item.address)
      if (Either.isLeft(Klaytn.validateSignatures({ tx, signatures }, pool.chainId, { sender: current }))) {
        return Option.some(InvalidSenderSignature)
      }
      return yield* ledger.send({
        kind: "rlp",
        tx,
        signatures,
        pool,
        from: tx.from,
        nonce: tx.nonce,
        gas: tx.gas,
        submit: true,
        payer: { _tag: "Global", feeRatio: 0 }
      }).pipe(
        Effect.as(Option.none<Failure>()),
        Effect.catchIf(Refusal.isRefusal, (e) => Effect.succeed(Option.some<Failure>(e.message)))
      )
    })

  const registerOne = (pool: Accounts.SelectedPool, item: Registration.RegistrationItem, kas: Keys.OpenedKey) =>
    Effect.gen(function*() {
      if (yield* accounts.addressTaken(item.address)) return Option.some<Failure>(`the account is already registered; ${item.address}`)
      if (item.rlp !== undefined) {
        const failed = yield* sendUpdate(pool, item, item.rlp, kas)
        if (Option.isSome(failed)) return failed
      } else if (!kasSigns(item.address, yield* ledger.accountKey(pool.chainId, item.address), kas)) {
        return Option.some<Failure>(
          `the account key of ${item.address} on the chain is not AccountKeyPublic of the key's public key: give the rlp that updates it`
        )
      }
      // Only another process registering the same address meanwhile can take it now.
      const joined = yield* accounts.registerAccount(pool, { address: item.address, key: kas })
      return Option.isSome(joined) ? Option.none<Failure>() : Option.some<Failure>(`the account is already registered; ${item.address}`)
    })

  return {
    register: (pool, items) =>
      lock.withPermits(1)(Effect.gen(function*() {
        const caller: Keys.KeyCaller = { memberId: pool.memberId, accountId: pool.accountId, chainId: pool.chainId }
        // Every key first: an unknown one refuses the whole request, before anything changes.
        const keys: Array<Keys.OpenedKey> = []
        for (const item of items) {
          const opened = yield* keyService.openKey(caller, item.keyId.toString())
          if (Option.isNone(opened)) return yield* new Refusal.NotFound({ detail: item.keyId.toString() })
          keys.push(opened.value)
        }
        const failures: Record<string, string> = {}
        for (const [i, item] of items.entries()) {
          const failed = yield* registerOne(pool, item, keys[i]!)
          if (Option.isSome(failed)) failures[item.address] = failed.value
        }
        const failed = Object.keys(failures).length
        const status = Registration.statusOf(items.length, failed)
        return failed === 0 ? { status } : { status, failures: failures as Registration.Failures }
      }))
  }
})

/**
 * The registration over the accounts, keys and ledger of the context.
 *
 * @since 0.10.0
 * @category layers
 */
export const layer: Layer.Layer<RegistrationService, never, Accounts.Accounts | Keys.Keys | Ledger.Ledger> = Layer.effect(
  RegistrationService,
  make
)
