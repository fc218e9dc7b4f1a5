/**
 * Existing accounts brought under the wallet in the client: their registration under keys of the
 * key service, and the whole migration from private keys (`internal/migrate`, loaded on first use).
 *
 * @since 0.10.0
 */
import { Effect, Either } from "effect"
import type * as Address from "../Address.js"
import * as WalletApi from "../api/WalletApi.js"
import type * as Node from "../internal/node.js"
import * as Options from "../internal/options.js"
import * as Spans from "../internal/spans.js"
import * as KeyId from "../KeyId.js"
import type * as Migration from "../Migration.js"
import * as Registration from "../Registration.js"
import type * as WalletConfig from "../WalletConfig.js"
import { validKeyIdString } from "./Arguments.js"
import type { CallOptions } from "./CallOptions.js"
import type * as Keys from "./Keys.js"
import type { Op } from "./Operation.js"
import type * as Requests from "./Requests.js"
import { roundTrip } from "./TransactionRequest.js"

/**
 * Options of `migrateAccounts`: the chain, the account pool the accounts join (`x-krn` of the
 * registration), and the key pool their keys are created in (`x-krn` of `createKeys`). Unset
 * fields fall back to the scope, then to the layer's options.
 *
 * @since 0.8.0
 * @category models
 */
export interface MigrateOptions extends CallOptions {
  /** Key pool of the keys created for the accounts; `null` for the member's default key pool. */
  readonly keyPool?: WalletConfig.KeyPoolSelection | undefined
}

/**
 * One account to register (`registerAccounts`): a key of the key service, the account's address,
 * and optionally its signed fee-delegated account update (`0x` hex) to that key.
 *
 * @since 0.8.0
 * @category models
 */
export interface RegisterAccountParams {
  readonly keyId: KeyId.KeyId | string
  readonly address: Address.Address | string
  readonly rlp?: string | undefined
}

/**
 * The registration operations.
 *
 * @since 0.10.0
 * @category models
 */
export interface Service {
  /**
   * Registers existing Klaytn accounts in the selected pool under keys of the key service (POST
   * /v2/registration/account): each item's `rlp`, when given, is a fee-delegated account update
   * (0x21) its current key signed, switching it to `AccountKeyPublic` of the key; the service
   * pays its fee and sends it. 1 to 100 items, one per address, each key id on the call's chain:
   * checked before anything is sent. The answer says which items failed and why
   * (`Registration.RegistrationResult`); a key id that is not the member's refuses the whole
   * request (`AccountNotFound`, code 1061010). Not retried once sent. `migrateAccounts` builds
   * the items from private keys.
   */
  readonly registerAccounts: Op<[items: ReadonlyArray<RegisterAccountParams>, options?: CallOptions], Registration.RegistrationResult>
  /**
   * Brings existing Klaytn accounts under KAS custody in one call (the official client's
   * `migrateAccounts`): checks every account (`Migration.MigrationAccount`: its address and the
   * `Redacted` private key or keys that sign its updates) before anything is sent; reads what was
   * not given from the KAS Node API (`nodeUrl`: the chain id, checked; the gas price; each
   * account's pending nonce and its key on the chain, against which the keys are checked); creates
   * one key per account (`createKeys`, in `keyPool`); signs each account's fee-delegated update to
   * its key here, with the private keys, which never leave the process; and registers them
   * (`registerAccounts`, in `pool`). Each account's outcome says whether it was migrated, with its
   * key, or why not (`Migration.Outcome`). A failure of a node read or of the key creation fails
   * the call (nothing was registered); a failure of the registration request is each account's
   * outcome, with the key created for it. docs/migration.md.
   */
  readonly migrateAccounts: Op<[accounts: ReadonlyArray<Migration.MigrationAccount>, options?: MigrateOptions], Migration.MigrationResult>
}

const registrationBody = roundTrip(Registration.RegistrationRequest)

/**
 * A registration's body, checked and encoded: key ids as strings (a `KeyId` value or a string),
 * each on the call's chain.
 */
const registrationItems = (items: unknown, chainId: number) =>
  Either.gen(function*() {
    if (!Array.isArray(items)) return yield* Either.left(Options.invalid("items", "must be an array of { keyId, address, rlp? }"))
    const raw = (items as ReadonlyArray<unknown>).map((item) => {
      if (typeof item !== "object" || item === null) return item
      const i = item as Record<string, unknown>
      return KeyId.isKeyId(i.keyId) ? { ...i, keyId: i.keyId.toString() } : i
    })
    const body = yield* Either.mapLeft(registrationBody(raw), (error) => {
      const e = Options.fromParseError("items")(error)
      return Options.invalid(e.argument === "items" ? "items" : `items[${e.argument}]`, e.description)
    })
    for (const [i, item] of body.entries()) {
      const keyId = Either.getOrThrow(validKeyIdString(item.keyId))
      if (keyId.poolKrn.chainId !== chainId) {
        return yield* Either.left(Options.invalid(`items[${i}].keyId`, `key ${item.keyId} is on chain ${keyId.poolKrn.chainId}, the request on chain ${chainId}`))
      }
    }
    return body
  })

/**
 * The registration operations over the client's requests; the migration creates its keys with the
 * key service's `createKeys`.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make = (requests: Requests.Requests, keys: Pick<Keys.Service, "createKeys">): Service => {
  const registerAccounts = (items: unknown, call: CallOptions | undefined) =>
    Effect.flatMap(requests.target(call), (t) =>
      Effect.flatMap(registrationItems(items, t.chainId), (body) =>
        requests.run(WalletApi.registration.registerAccounts, t, { payload: body }, { attributes: { "kas.accounts": body.length } })))
  return {
    registerAccounts,
    migrateAccounts: (accounts, call) =>
      Effect.flatMap(requests.target(call), (t) => {
        const node: Node.Node = {
          path: requests.settings.node.path,
          chainId: t.chainId,
          send: (name, nodeCall, attributes) => requests.sendToNode(name, t, nodeCall, attributes)
        }
        return Effect.flatMap(Effect.promise(() => import("../internal/migrate.js")), (module) =>
          module.migrate({
            chainId: t.chainId,
            node,
            createKeys: (size) => keys.createKeys(size, call),
            register: (items) => registerAccounts(items, call)
          }, accounts)).pipe(
            Spans.withSpan("WalletClient.migrateAccounts", {
              attributes: {
                [Spans.SpanAttributes.chainId]: t.chainId,
                [Spans.SpanAttributes.pool]: t.pool?.toString() ?? "default",
                "kas.accounts": Array.isArray(accounts) ? accounts.length : 0
              },
              captureStackTrace: false
            })
          )
      })
  }
}
