/**
 * Registration of existing Klaytn accounts under keys KAS holds (`POST /v2/registration/account`,
 * the specification's `RegisterAccount`; the official client's `registerAccounts`): the request's
 * items and the service's answer, as the public specification (2021-09-29) writes them. Both the
 * client (which encodes the request and decodes the answer) and the emulator (which decodes the
 * request and encodes the answer) use these schemas.
 *
 * An item names a key of the key service (`keyId`, made by `POST /v2/key`), the existing address
 * and, optionally, `rlp`: a fee-delegated account update (`TxTypeFeeDelegatedAccountUpdate`,
 * 0x21) that the account's current key signed and that switches it to `AccountKeyPublic` of the
 * key's public key. The service pays its fee as the global fee payer, sends it, and takes the
 * account into the selected account pool. Without `rlp` no transaction is sent: the account's
 * key must already be that key.
 *
 * @since 0.8.0
 */
import { Schema } from "effect"
import * as Address from "./Address.js"
import * as Refusal from "./api/Refusal.js"
import { HexBytes } from "./internal/hexBytes.js"
import * as KeyId from "./KeyId.js"

/**
 * The most items one registration takes: 100, the most keys one `POST /v2/key` makes (the
 * specification gives no bound of its own; **chosen**).
 *
 * @since 0.8.0
 * @category constants
 */
export const MaxItems = 100

/**
 * The message the service answers a partial fee delegation (0x22) with, as the specification's
 * example shows it.
 *
 * @since 0.8.0
 * @category constants
 */
export const PartialFeeDelegationRefused = "partialFeeDelegation transaction do not supported. use feeDelegation transaction"

/**
 * One account to register (`AccountRegistration`): the key id of a key of the key service, the
 * account's address, and optionally the signed fee-delegated account update (`0x` hex) to send.
 *
 * @since 0.8.0
 * @category schemas
 */
export const RegistrationItem = Schema.Struct({
  keyId: KeyId.KeyId,
  address: Address.Address.pipe(Refusal.annotate(Refusal.listedAddress)),
  rlp: Schema.optionalWith(
    HexBytes.pipe(
      Schema.filter((s) => s.length > 2, { message: () => "cannot be empty: omit rlp to register without a transaction" }),
      Refusal.annotate(Refusal.bytes)
    ),
    { exact: true }
  )
}).annotations({ identifier: "AccountRegistration", parseOptions: { onExcessProperty: "error" } })

/**
 * @since 0.8.0
 * @category models
 */
export interface RegistrationItem extends Schema.Schema.Type<typeof RegistrationItem> {}

// One item per address: the answer's failures are keyed by address, so two items of one address
// could not be told apart.
const distinctAddresses = (items: ReadonlyArray<RegistrationItem>) => {
  const seen = new Map<string, number>()
  for (const [i, item] of items.entries()) {
    const key = item.address.toLowerCase()
    const first = seen.get(key)
    if (first !== undefined) return { path: [i, "address"], message: `${item.address} is also item ${first}: one item per address` }
    seen.set(key, i)
  }
  return undefined
}

/**
 * The body of `POST /v2/registration/account` (`AccountRegistrationRequest`): 1 to `MaxItems`
 * items, one per address.
 *
 * @since 0.8.0
 * @category schemas
 */
export const RegistrationRequest = Schema.Array(RegistrationItem).pipe(
  Schema.minItems(1, { message: () => "register at least one account" }),
  Schema.maxItems(MaxItems, { message: (issue) => `at most ${MaxItems} accounts per registration, got ${(issue.actual as ReadonlyArray<unknown>).length}` }),
  Schema.filter(distinctAddresses),
  // No item at all is a missing body.
  Refusal.annotate({ empty: (raw) => Array.isArray(raw) && raw.length === 0 })
).annotations({ identifier: "AccountRegistrationRequest" })

/**
 * The status of a registration: every item registered (`ok`), some (`partially failed`) or none
 * (`all failed`).
 *
 * @since 0.8.0
 * @category schemas
 */
export const Status = Schema.Literal("ok", "partially failed", "all failed").annotations({ identifier: "RegistrationStatus" })

/**
 * @since 0.8.0
 * @category models
 */
export type Status = typeof Status.Type

/**
 * Why each item that failed failed, by its address as the service writes it (`RegistrationFailure`;
 * every key an address, in any case Klaytn accepts): the service's reason, a node's refusal
 * included (`failed to send a raw transaction to klaytn node; -32000::…`).
 *
 * @since 0.8.0
 * @category schemas
 */
export const Failures = Schema.Record({ key: Schema.String, value: Schema.String }).pipe(
  Schema.filter((failures) => {
    const bad = Object.keys(failures).find((key) => !Address.isValid(key))
    return bad === undefined ? undefined : { path: [bad], message: `a failure is keyed by an address, got ${JSON.stringify(bad.slice(0, 60))}` }
  })
).annotations({ identifier: "RegistrationFailure" })

/**
 * @since 0.8.0
 * @category models
 */
export type Failures = typeof Failures.Type

// `ok` exactly when nothing failed.
const consistent = (r: { readonly status: Status; readonly failures?: Failures | undefined }) => {
  const failed = r.failures !== undefined && Object.keys(r.failures).length > 0
  if (r.status === "ok" && failed) return { path: ["failures"], message: "an ok registration has no failures" }
  if (r.status !== "ok" && !failed) return { path: ["failures"], message: `a registration that ${r.status} names its failures` }
  return undefined
}

/**
 * The answer of a registration (`RegistrationStatusResponse`): `{ status: "ok" }`, or a failed
 * status with the reason of each failure by address.
 *
 * @since 0.8.0
 * @category schemas
 */
export const RegistrationResult = Schema.Struct({
  status: Status,
  failures: Schema.optionalWith(Failures, { exact: true })
}).pipe(Schema.filter(consistent)).annotations({ identifier: "RegistrationStatusResponse" })

/**
 * @since 0.8.0
 * @category models
 */
export interface RegistrationResult extends Schema.Schema.Type<typeof RegistrationResult> {}

/**
 * The status of a registration of `total` items of which `failed` failed.
 *
 * @since 0.8.0
 * @category constructors
 */
export const statusOf = (total: number, failed: number): Status => (failed === 0 ? "ok" : failed < total ? "partially failed" : "all failed")
