/**
 * The wallet's accounts and fee-payer accounts as the ledger sees them: who may send or pay for a
 * transaction, their state and sealed keys; and how an account update changes the state of the
 * wallet account at its address. Part of the accounts' store (`Store`): the same tables.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import { bytes, type Client, type Statement } from "./LedgerClient.js"
import type * as Store from "./Store.js"

/**
 * An account of the wallet that may send: its checksummed address, state and sealed key.
 *
 * @since 0.2.0
 * @category models
 */
export interface KeyRow {
  readonly address: string
  readonly status: Store.Status
  readonly sealedKey: Uint8Array
  /**
   * Its public key (`0x04` + 128 hex digits), for an account: the address's own, or for an
   * account registered under a key of the key service that key's.
   *
   * @since 0.8.0
   */
  readonly publicKey?: string | undefined
  /**
   * Its account key on the chain `account` was asked about (Klaytn's RLP form; `None`: the legacy
   * key), read with the row.
   *
   * @since 0.9.0
   */
  readonly chainKey?: Option.Option<Uint8Array> | undefined
}

/**
 * An account update's effect on the wallet account at its address (the member's account there, if
 * any): `corrupted` when the key KAS holds can no longer sign, `disabled` for a fail key, `enabled`
 * when a legacy key gives it back.
 *
 * @since 0.10.0
 * @category models
 */
export interface AccountKeyChange {
  readonly address: string
  /** The new account key, in Klaytn's RLP form. */
  readonly key: Uint8Array
  readonly status: "enabled" | "disabled" | "corrupted"
  /**
   * A weighted multisig key's `{"multiSigKeys":[…],"threshold":n}`, which the wallet account's
   * JSON shows from now on; `undefined` for any other key (the account is no longer multisig).
   */
  readonly multisig?: string | undefined
  /**
   * When the update was accepted (Unix seconds): the wallet account's `updatedAt` moves to it
   * (never backwards).
   */
  readonly updatedAt: number
}

/**
 * The statements that make the wallet account follow its key, in the batch that writes the key:
 * a deleted account stays deleted; an account disabled by its owner is not enabled by a legacy
 * key; only the account of this chain changes (the other chain's ledger knows the address too).
 *
 * @since 0.10.0
 * @category writing
 */
export const accountStatusStatements = (chainId: number, k: AccountKeyChange): ReadonlyArray<Statement> => {
  const onChain = "pool_id IN (SELECT id FROM pools WHERE chain_id = ?)"
  return [
    {
      sql: k.status === "enabled"
        ? `UPDATE accounts SET status = 'enabled' WHERE address_lc = ? AND ${onChain} AND status = 'corrupted'`
        : `UPDATE accounts SET status = '${k.status}' WHERE address_lc = ? AND ${onChain} AND status IN ('enabled', 'disabled', 'corrupted')`,
      args: [k.address, chainId]
    },
    {
      sql: `UPDATE accounts SET multisig = ?, updated_at = max(updated_at, ?) WHERE address_lc = ? AND ${onChain} AND status != 'deleted'`,
      args: [k.multisig ?? null, k.updatedAt, k.address, chainId]
    }
  ]
}

/**
 * The wallet's senders and fee payers.
 *
 * @since 0.10.0
 * @category models
 */
export interface Queries {
  /**
   * An account of a pool that is not deleted, by lower-case address; with its account key on
   * `chainId` (`chainKey`) when given.
   */
  readonly account: (poolId: number, address: string, chainId?: number | undefined) => Effect.Effect<Option.Option<KeyRow>, SqlError.SqlError>
  /**
   * A fee-payer account of the member on the chain that is not deleted, by lower-case address; in
   * that fee-payer pool only when `poolId` is given.
   */
  readonly feePayer: (
    memberId: number,
    chainId: number,
    address: string,
    poolId: number | undefined
  ) => Effect.Effect<Option.Option<KeyRow>, SqlError.SqlError>
  /**
   * The public key of the wallet account at a (lower-case) address that is not deleted, as bytes
   * (uncompressed): the key KAS holds for it.
   *
   * @since 0.8.0
   */
  readonly heldPublicKey: (address: string) => Effect.Effect<Option.Option<Uint8Array>, SqlError.SqlError>
}

/**
 * The senders' queries over the ledger's clients.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = ({ read, sql }: Client): Queries => {
  const keyRow = (
    rows: ReadonlyArray<
      { readonly address: string; readonly status: Store.Status; readonly key: unknown; readonly publicKey?: string; readonly chainKey?: unknown }
    >
  ) =>
    Option.map(Option.fromNullable(rows[0]), (r): KeyRow => ({
      address: r.address,
      status: r.status,
      sealedKey: bytes(r.key),
      ...(r.publicKey !== undefined ? { publicKey: r.publicKey } : {}),
      ...(r.chainKey !== undefined ? { chainKey: r.chainKey === null ? Option.none() : Option.some(bytes(r.chainKey)) } : {})
    }))

  return {
    account: (poolId, address, chainId) =>
      read<
        { readonly address: string; readonly status: Store.Status; readonly key: unknown; readonly publicKey: string; readonly chainKey?: unknown }
      >(
        `SELECT address, status, private_key AS key, public_key AS "publicKey"${
          chainId !== undefined ? `, (SELECT key FROM account_keys WHERE chain_id = ? AND address = ?) AS "chainKey"` : ""
        } FROM accounts WHERE pool_id = ? AND address_lc = ? AND status != 'deleted'`,
        [...(chainId !== undefined ? [chainId, address] : []), poolId, address]
      ).pipe(Effect.map(keyRow)),

    feePayer: (memberId, chainId, address, poolId) =>
      sql<{ readonly address: string; readonly status: Store.Status; readonly key: unknown }>`SELECT f.address, f.status,
          f.private_key AS key FROM feepayers f JOIN feepayer_pools p ON p.id = f.pool_id
          WHERE f.address_lc = ${address} AND f.status != 'deleted' AND p.member_id = ${memberId}
            AND p.chain_id = ${chainId} ${poolId !== undefined ? sql`AND p.id = ${poolId}` : sql``}`.pipe(Effect.map(keyRow)),

    heldPublicKey: (address) =>
      sql<{ readonly publicKey: string }>`SELECT public_key AS "publicKey" FROM accounts
          WHERE address_lc = ${address} AND status != 'deleted'`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (r) => new Uint8Array(Buffer.from(r.publicKey.slice(2), "hex"))))
      )
  }
}
