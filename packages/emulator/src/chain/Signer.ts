/**
 * Key opening and signing: the sealed keys of the wallet's accounts and fee payers opened (each
 * bound to its address), the chains' global fee payers (made on first start), the account key an
 * address has on a chain, and transactions signed by a sender and its fee payer.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Effect, Either, Option, Redacted } from "effect"
import { Address } from "effect-kas-wallet"
import * as Klaytn from "./Klaytn.js"
import * as Wire from "effect-kas-wallet/Wire"
import { EmulatorError } from "../EmulatorError.js"
import * as Refusal from "../Refusal.js"
import type * as KeyVault from "../store/KeyVault.js"
import type * as LedgerStore from "../store/LedgerStore.js"
import * as Senders from "../store/Senders.js"
import type * as Store from "../store/Store.js"
import * as AccountKeys from "./AccountKeys.js"
import * as Blocks from "./Blocks.js"

const globalContext = (chainId: number) => `global-fee-payer:${chainId}`

const internalFailure = (what: string) => Effect.die(new Error(`ledger: ${what}`))

/**
 * A party that signs here, its address known: the fee payer of a transaction.
 *
 * @since 0.10.0
 * @category models
 */
export interface Party {
  readonly address: Address.Address
  readonly key: Uint8Array
}

/**
 * A transaction with its sender's signatures, signed by its fee payer (for a fee-delegated type),
 * sealed with its raw form and hashes. Not `Klaytn.signTransaction` / `signAsFeePayer`: they derive
 * each signer's address from its key again, a scalar multiplication as costly as a signature,
 * where the ledger knows both (the vault opens a key only under its own address, its associated
 * data; the global fee payer's was checked at start). Signed the same way, the same bytes.
 *
 * @since 0.9.0
 * @category signing
 */
export const signKnown = (
  tx: Klaytn.Tx,
  chainId: number,
  signatures: ReadonlyArray<Klaytn.SignatureValues>,
  feePayer: Party | undefined
): Either.Either<Klaytn.SignedTx, Klaytn.KlaytnError> => {
  // Only a fee-delegated type has a fee payer to sign: signAsFeePayer refuses the mismatch.
  if (feePayer === undefined || !Wire.isFeeDelegatedType(tx.type)) return Klaytn.signAsFeePayer(tx, signatures, { chainId, feePayer: feePayer?.key })
  return Either.map(Klaytn.sign(Klaytn.feePayerSigningHash(tx, feePayer.address, chainId), feePayer.key, chainId), (payerSignature) => {
    const parts: Klaytn.SignedParts = { tx, signatures, feePayer: { address: feePayer.address, signatures: [payerSignature] } }
    const raw = Klaytn.encodeRaw(parts)
    return { ...parts, chainId, raw, transactionHash: Klaytn.transactionHash(raw), senderTxHash: Klaytn.senderTxHash(parts) }
  })
}


/**
 * The keys of the ledger.
 *
 * @since 0.10.0
 * @category models
 */
export interface Signer {
  /** The global fee payer of a chain, its key opened. */
  readonly globalPayer: (chainId: number) => Party
  /** The key of a wallet account or fee payer, opened; one that does not open is a defect. */
  readonly openKey: (row: Senders.KeyRow) => Effect.Effect<Uint8Array>
  /** A stored (checksummed) address as the codec takes it. */
  readonly rowAddress: (row: Senders.KeyRow) => Effect.Effect<Address.Address>
  /** A stored account key (`None`: the legacy key, the address's own), decoded. */
  readonly storedKey: (address: string, stored: Option.Option<Uint8Array>) => Effect.Effect<Klaytn.AccountKey>
  /** The account key of an address on a chain (any case). */
  readonly keyOf: (chainId: number, address: string) => Effect.Effect<Klaytn.AccountKey, SqlError.SqlError>
  /**
   * Signs a 32-byte hash with the key KAS holds for an account of a pool: its signature on the
   * pool's chain and its public key (compressed); `None` when the pool holds no such account.
   */
  readonly signAs: (
    pool: Store.SelectedPool,
    address: string,
    hash: Uint8Array
  ) => Effect.Effect<
    Option.Option<{ readonly signature: Klaytn.SignatureValues; readonly publicKey: Uint8Array }>,
    Refusal.Refusal | SqlError.SqlError
  >
}

/**
 * The keys of the ledger over its store and the key vault: makes each chain's global fee payer on
 * first start (a fresh key, sealed in the database; the first emulator to start on a database
 * makes it, the others use it).
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (store: LedgerStore.Service, vault: KeyVault.Service): Effect.Effect<Signer, EmulatorError> =>
  Effect.gen(function*() {
    const globalPayers = new Map<number, { readonly address: Address.Address; readonly key: Redacted.Redacted<Uint8Array> }>()
    for (const chainId of Blocks.Chains) {
      const made = AccountKeys.generate()
      const stored = yield* store.setGlobalFeePayer(
        chainId,
        made.address.toLowerCase(),
        vault.seal(made.privateKey, globalContext(chainId))
      ).pipe(
        Effect.mapError((cause) => new EmulatorError({ reason: "Database", message: "cannot store the global fee payer", cause }))
      )
      const key = vault.open(stored.sealedKey, globalContext(chainId))
      // The key just made (a new database) opens to the same bytes: its address is known, a second
      // derivation would cost a multiplication (~0.7 ms per chain at every start of an emulator).
      const address = Option.flatMap(key, (k) =>
        Buffer.from(Redacted.value(k)).equals(Redacted.value(made.privateKey))
          ? Option.some(made.address)
          : Option.fromNullable(Either.getOrUndefined(Klaytn.addressOfKey(Redacted.value(k)))))
      if (Option.isNone(key) || Option.isNone(address) || address.value.toLowerCase() !== stored.address) {
        return yield* new EmulatorError({ reason: "MasterKey", message: `the global fee payer of chain ${chainId} does not open with this master key` })
      }
      globalPayers.set(chainId, { address: address.value, key: key.value })
    }

    // An address's account key on a chain: the one its last account update set, else its own
    // (legacy). A stored key is one the ledger wrote after decoding it: one that does not decode
    // is a broken row.
    const storedKey = (address: string, stored: Option.Option<Uint8Array>) =>
      Option.match(stored, {
        onNone: () => Effect.succeed<Klaytn.AccountKey>({ _tag: "Legacy" }),
        onSome: (bytes) =>
          Either.match(Klaytn.decodeAccountKey(bytes), {
            onLeft: (e) => internalFailure(`the stored key of ${address}: ${e.reason}`),
            onRight: Effect.succeed
          })
      })
    const keyOf = (chainId: number, address: string) =>
      Effect.flatMap(store.accountKey(chainId, address.toLowerCase()), (stored) => storedKey(address, stored))

    // A stored address (checksummed when written) as the codec takes it.
    const rowAddress = (row: Senders.KeyRow) =>
      Option.match(Address.checksum(row.address), {
        onNone: () => internalFailure(`the stored address ${row.address}`),
        onSome: Effect.succeed
      })

    const openKey = (row: Senders.KeyRow) =>
      Option.match(vault.open(row.sealedKey, row.address.toLowerCase()), {
        // The vault checked the master key at start: a key that does not open is a broken row.
        onNone: () => internalFailure(`the key of ${row.address} does not open`),
        onSome: (key) => Effect.succeed(Redacted.value(key))
      })

    return {
      globalPayer: (chainId) => {
        const global = globalPayers.get(chainId)!
        return { address: global.address, key: Redacted.value(global.key) }
      },
      openKey,
      rowAddress,
      storedKey,
      keyOf,
      signAs: (pool, address, hash) =>
        Effect.gen(function*() {
          const row = yield* store.account(pool.id, address.toLowerCase())
          if (Option.isNone(row)) return Option.none()
          if (row.value.status === "corrupted") return yield* new Refusal.AccountCorrupted({ address: row.value.address, use: "sign" })
          if (row.value.status !== "enabled") return yield* new Refusal.CannotSign({ address: row.value.address })
          const key = yield* openKey(row.value)
          const signed = Either.all({ signature: Klaytn.sign(hash, key, pool.chainId), publicKey: Klaytn.publicKeyOfKey(key) })
          return Option.some(yield* Either.match(signed, { onLeft: (e) => internalFailure(e.reason), onRight: Effect.succeed }))
        })
    }
  })
