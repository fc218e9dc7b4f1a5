/**
 * `WalletClient.migrateAccounts`: existing Klaytn accounts brought under keys of the key service
 * in one call — every argument checked, what the caller did not give read from the node (the chain
 * id checked, the gas price, each account's pending nonce and its key on the chain, against which
 * the keys given are checked), one key created per account, each account's fee-delegated account
 * update to its key built and signed here, then one registration.
 *
 * The private keys never leave this module: they are copied into byte arrays that sign and are
 * then zeroed; no error, outcome or span attribute is made from them (only from the address they
 * give, which is public).
 *
 * Loaded on the first migration (with the Klaytn codec): an application that never migrates never
 * downloads it.
 *
 * @internal
 */
import { Effect, Either, Option, Redacted, Schema } from "effect"
import * as Address from "../Address.js"
import * as AccountKey from "../AccountKey.js"
import type * as Key from "../Key.js"
import * as Klaytn from "../Klaytn.js"
import * as Migration from "../Migration.js"
import * as Registration from "../Registration.js"
import type * as Transaction from "../Transaction.js"
import type * as WalletError from "../WalletError.js"
import { bytesOfHex, hexOfBytes } from "./hex.js"
import * as Node from "./node.js"
import { invalid } from "./options.js"

/**
 * What a migration needs from the client: the chain, the node, and the two operations it calls.
 *
 * @internal
 */
export interface Dependencies {
  readonly chainId: number
  readonly node: Node.Node
  readonly createKeys: (size: number) => Effect.Effect<Key.CreatedKeys, WalletError.WalletError>
  readonly register: (items: ReadonlyArray<Registration.RegistrationItem>) => Effect.Effect<Registration.RegistrationResult, WalletError.WalletError>
}

/** An account checked: its address, signing keys (copies, zeroed after use), nonce and gas price if given. */
interface Checked {
  readonly index: number
  readonly address: Address.Address
  readonly keys: ReadonlyArray<Uint8Array>
  /** Whether the keys are the account's own (`privateKey`), the address they give being its. */
  readonly own: boolean
  readonly nonce: number | undefined
  readonly gasPrice: bigint | undefined
}

const decodeAddress = Schema.decodeUnknownEither(Address.Address)
const KEY_HEX = /^(?:0[xX])?[0-9a-fA-F]{64}$/

/**
 * A private key from a `Redacted` value: a copy of its 32 bytes, checked against the curve. No
 * message says anything of the value.
 */
const privateKeyOf = (u: unknown, argument: string): Either.Either<Uint8Array, WalletError.InvalidArgument> => {
  if (!Redacted.isRedacted(u)) {
    return Either.left(invalid(argument, "must be Redacted (Redacted.make(key)): a plain value shows wherever it is printed"))
  }
  const value: unknown = Redacted.value(u as Redacted.Redacted<unknown>)
  let bytes: Uint8Array | undefined
  if (value instanceof Uint8Array) {
    if (value.length === 32) bytes = Uint8Array.from(value)
  } else if (typeof value === "string" && KEY_HEX.test(value)) {
    bytes = bytesOfHex(value.length === 66 ? `0x${value.slice(2)}` : `0x${value}`)
  }
  if (bytes === undefined) return Either.left(invalid(argument, "not a private key: 32 bytes, or 0x and 64 hex digits"))
  const key = bytes
  return Either.match(Klaytn.addressOfKey(key), {
    onLeft: () => {
      key.fill(0)
      return Either.left(invalid(argument, "not a secp256k1 private key (0, or not below the curve's order)"))
    },
    onRight: () => Either.right(key)
  })
}

const safeNonce = (u: unknown, argument: string): Either.Either<number | undefined, WalletError.InvalidArgument> =>
  u === undefined || (typeof u === "number" && Number.isSafeInteger(u) && u >= 0)
    ? Either.right(u as number | undefined)
    : Either.left(invalid(argument, `must be an integer from 0, got ${typeof u === "number" ? String(u) : typeof u}`))

const gasPriceOf = (u: unknown, argument: string): Either.Either<bigint | undefined, WalletError.InvalidArgument> =>
  u === undefined || (typeof u === "bigint" && u > 0n && u < 2n ** 256n)
    ? Either.right(u as bigint | undefined)
    : Either.left(invalid(argument, "must be a positive bigint of peb (25 ston: 25_000_000_000n)"))

/**
 * Every argument, checked before anything is sent: 1 to `Registration.MaxItems` accounts, each
 * with an address, exactly one of `privateKey` (the address's own key) and `privateKeys` (1 to 10
 * distinct keys), a nonce and a gas price when given; no address twice. The keys made so far are
 * zeroed on a failure.
 */
const check = (accounts: unknown): Either.Either<ReadonlyArray<Checked>, WalletError.InvalidArgument> => {
  const made: Array<Uint8Array> = []
  const result = Either.gen(function*() {
    if (!Array.isArray(accounts)) return yield* Either.left(invalid("accounts", "must be an array of { address, privateKey | privateKeys, nonce?, gasPrice? }"))
    if (accounts.length === 0 || accounts.length > Registration.MaxItems) {
      return yield* Either.left(invalid("accounts", `migrate 1 to ${Registration.MaxItems} accounts per call, got ${accounts.length}`))
    }
    const seen = new Map<string, number>()
    const checked: Array<Checked> = []
    for (const [index, raw] of (accounts as ReadonlyArray<unknown>).entries()) {
      const at = `accounts[${index}]`
      if (typeof raw !== "object" || raw === null) return yield* Either.left(invalid(at, "must be { address, privateKey | privateKeys, nonce?, gasPrice? }"))
      const a = raw as Record<string, unknown>
      for (const field of Object.keys(a)) {
        if (!["address", "privateKey", "privateKeys", "nonce", "gasPrice"].includes(field)) {
          return yield* Either.left(invalid(`${at}.${field}`, "is not a field of an account to migrate (address, privateKey, privateKeys, nonce, gasPrice)"))
        }
      }
      const address = yield* Either.mapLeft(decodeAddress(a.address), () => invalid(`${at}.address`, "expected 0x and 40 hex digits (EIP-55 when mixed case)"))
      const first = seen.get(address)
      if (first !== undefined) return yield* Either.left(invalid(`${at}.address`, `${address} is also accounts[${first}]: one entry per account`))
      seen.set(address, index)
      const nonce = yield* safeNonce(a.nonce, `${at}.nonce`)
      const gasPrice = yield* gasPriceOf(a.gasPrice, `${at}.gasPrice`)
      if ((a.privateKey === undefined) === (a.privateKeys === undefined)) {
        return yield* Either.left(invalid(
          `${at}.privateKey`,
          "give exactly one of privateKey (the account's own key) and privateKeys (the keys that sign its updates)"
        ))
      }
      if (a.privateKey !== undefined) {
        const key = yield* privateKeyOf(a.privateKey, `${at}.privateKey`)
        made.push(key)
        const of = Either.getOrThrow(Klaytn.addressOfKey(key))
        if (of !== address) {
          return yield* Either.left(invalid(
            `${at}.privateKey`,
            `is not the key of ${address}: for an account whose key is no longer its own, give the keys that sign its updates as privateKeys`
          ))
        }
        checked.push({ index, address, keys: [key], own: true, nonce, gasPrice })
        continue
      }
      const list = a.privateKeys
      if (!Array.isArray(list) || list.length === 0 || list.length > Klaytn.MaxMultiSigKeys) {
        return yield* Either.left(invalid(`${at}.privateKeys`, `must be 1 to ${Klaytn.MaxMultiSigKeys} Redacted private keys`))
      }
      const keys: Array<Uint8Array> = []
      const signers = new Set<string>()
      for (const [k, secret] of (list as ReadonlyArray<unknown>).entries()) {
        const key = yield* privateKeyOf(secret, `${at}.privateKeys[${k}]`)
        made.push(key)
        const signer = Either.getOrThrow(Klaytn.addressOfKey(key))
        if (signers.has(signer)) return yield* Either.left(invalid(`${at}.privateKeys[${k}]`, "is given twice"))
        signers.add(signer)
        keys.push(key)
      }
      checked.push({ index, address, keys, own: false, nonce, gasPrice })
    }
    return checked
  })
  if (Either.isLeft(result)) for (const key of made) key.fill(0)
  return result
}

// A point of the JSON-RPC form, compressed as account keys hold it.
const compress = (p: { readonly x: bigint; readonly y: bigint }): Uint8Array =>
  bytesOfHex(`0x${p.y % 2n === 0n ? "02" : "03"}${p.x.toString(16).padStart(64, "0")}`)

/** An account key of `klay_getAccountKey`, as the codec takes it. */
const fromJson = (json: Node.AccountKeyJson | null): Klaytn.AccountKey => {
  if (json === null) return { _tag: "Legacy" }
  switch (json.keyType) {
    case 1:
      return { _tag: "Legacy" }
    case 3:
      return { _tag: "Fail" }
    case 2:
      return { _tag: "Public", publicKey: compress(json.key) }
    case 4:
      return { _tag: "WeightedMultiSig", threshold: json.key.threshold, keys: json.key.keys.map((k) => ({ weight: k.weight, publicKey: compress(k.key) })) }
    case 5:
      return { _tag: "RoleBased", roles: json.key.map(fromJson) }
  }
}

const keyName = (key: Klaytn.AccountKey): string =>
  key._tag === "Legacy" ? "AccountKeyLegacy" : key._tag === "Fail" ? "AccountKeyFail" : key._tag === "Public"
    ? "AccountKeyPublic"
    : key._tag === "WeightedMultiSig" ? "AccountKeyWeightedMultiSig" : "AccountKeyRoleBased"

// The generator point, compressed: any valid key will do for a probe's new key.
const PROBE_KEY = bytesOfHex("0x0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")

/** The account update of an account to `key` (compressed), fee-delegated, as the caller's keys sign it. */
const updateOf = (a: Checked, key: Uint8Array, nonce: number, gasPrice: bigint, chainId: number) =>
  Either.flatMap(Klaytn.encodeAccountKey({ _tag: "Public", publicKey: key }), (encoded) =>
    Either.flatMap(
      Klaytn.makeTransaction({ kind: "account", from: a.address, value: 0n, nonce, gas: Migration.UpdateGas, gasPrice, key: encoded, feeDelegated: true }),
      (tx) => Either.map(Klaytn.signAsSenderWith(tx, { chainId, senders: a.keys }), (raw) => ({ tx, raw }))
    ))

/** Whether the keys given sign an account update for the account's key on the chain: why not, if not. */
const keysSignFor = (a: Checked, chainKey: Klaytn.AccountKey, nonce: number, gasPrice: bigint, chainId: number): Option.Option<string> => {
  const probe = Either.flatMap(updateOf(a, PROBE_KEY, nonce, gasPrice, chainId), ({ raw }) =>
    Either.flatMap(Klaytn.decodeRaw(raw), (parts) => Klaytn.validateSignatures({ tx: parts.tx, signatures: parts.signatures }, chainId, { sender: chainKey })))
  return Either.isRight(probe)
    ? Option.none()
    : Option.some(`the keys given do not sign for ${a.address}'s key on the chain (${keyName(chainKey)}): ${probe.left.reason}`)
}

/** What the node says of an account: its nonce (when not given) and whether the keys sign for its key. */
const readAccount = (deps: Dependencies, a: Checked, gasPrice: bigint) =>
  Effect.gen(function*() {
    const nonce = a.nonce ?? (yield* Node.call(deps.node, "klay_getTransactionCount", [a.address.toLowerCase(), "pending"], Node.SafeQuantity))
    if (a.nonce !== undefined) return { nonce, refused: Option.none<string>() }
    const json = yield* Node.call(deps.node, "klay_getAccountKey", [a.address.toLowerCase(), "latest"], Node.AccountKeyResult)
    return { nonce, refused: keysSignFor(a, fromJson(json), nonce, gasPrice, deps.chainId) }
  })

const describeStatus = (accounts: ReadonlyArray<Migration.Outcome>): Registration.Status =>
  Registration.statusOf(accounts.length, accounts.filter(Migration.$is("Failed")).length)

/**
 * The migration: checks, node reads, keys, signing, registration.
 *
 * @internal
 */
export const migrate = (deps: Dependencies, accounts: unknown): Effect.Effect<Migration.MigrationResult, WalletError.WalletError> =>
  Effect.flatMap(check(accounts), (checked) => {
    const wipe = Effect.sync(() => {
      for (const a of checked) for (const key of a.keys) key.fill(0)
    })
    return Effect.ensuring(run(deps, checked), wipe)
  })

const run = (deps: Dependencies, checked: ReadonlyArray<Checked>) =>
  Effect.gen(function*() {
    const outcomes = new Array<Migration.Outcome>(checked.length)
    const reading = checked.some((a) => a.nonce === undefined || a.gasPrice === undefined)
    let nodePrice: bigint | undefined
    if (reading) {
      const chain = yield* Node.call(deps.node, "klay_chainID", [], Node.SafeQuantity)
      if (chain !== deps.chainId) {
        return yield* Effect.fail(invalid("nodeUrl", `the node serves chain ${chain}, the migration is on chain ${deps.chainId}`))
      }
      if (checked.some((a) => a.gasPrice === undefined)) nodePrice = yield* Node.call(deps.node, "klay_gasPrice", [], Node.Quantity)
    }
    const read = yield* Effect.forEach(checked, (a) => {
      const gasPrice = a.gasPrice ?? nodePrice!
      return a.nonce !== undefined
        ? Effect.succeed({ a, gasPrice, nonce: a.nonce, refused: Option.none<string>() })
        : Effect.map(readAccount(deps, a, gasPrice), (r) => ({ a, gasPrice, ...r }))
    }, { concurrency: 4 })
    for (const r of read) {
      if (Option.isSome(r.refused)) outcomes[r.a.index] = Migration.Failed({ address: r.a.address, reason: r.refused.value })
    }
    const going = read.filter((r) => Option.isNone(r.refused))
    if (going.length > 0) {
      const created = (yield* deps.createKeys(going.length)).items
      const items: Array<Registration.RegistrationItem> = []
      const sent: Array<{ readonly a: Checked; readonly key: Key.Key; readonly nonce: number; readonly senderTxHash: Transaction.TxHash }> = []
      for (const [i, r] of going.entries()) {
        const key = created[i]
        if (key === undefined) {
          outcomes[r.a.index] = Migration.Failed({ address: r.a.address, reason: `the key service created ${created.length} keys for ${going.length} accounts` })
          continue
        }
        const publicKey = AccountKey.toKlaytn(AccountKey.Public({ publicKey: key.publicKey })) as { readonly publicKey: Uint8Array }
        const update = updateOf(r.a, publicKey.publicKey, r.nonce, r.gasPrice, deps.chainId)
        if (Either.isLeft(update)) {
          // The arguments were checked: the codec refusing them is a defect, never the keys' text.
          outcomes[r.a.index] = Migration.Failed({ address: r.a.address, reason: `the account update could not be built: ${update.left.reason}`, keyId: key.keyId, publicKey: key.publicKey })
          continue
        }
        const parts = Either.getOrThrow(Klaytn.decodeRaw(update.right.raw))
        items.push({ keyId: key.keyId, address: r.a.address, rlp: hexOfBytes(update.right.raw) })
        sent.push({ a: r.a, key, nonce: r.nonce, senderTxHash: Klaytn.senderTxHash(parts) })
      }
      if (items.length > 0) {
        const registered = yield* Effect.either(deps.register(items))
        const reasons = new Map<string, string>()
        if (Either.isRight(registered)) {
          for (const [address, reason] of Object.entries(registered.right.failures ?? {})) reasons.set(address.toLowerCase(), reason)
        }
        for (const s of sent) {
          const base = { address: s.a.address, keyId: s.key.keyId, publicKey: s.key.publicKey }
          if (Either.isLeft(registered)) {
            outcomes[s.a.index] = Migration.Failed({ ...base, reason: `the registration request failed: ${registered.left.message}`, error: registered.left })
            continue
          }
          const reason = reasons.get(s.a.address.toLowerCase())
          outcomes[s.a.index] = reason !== undefined
            ? Migration.Failed({ ...base, reason })
            : Migration.Migrated({ ...base, nonce: s.nonce, senderTxHash: s.senderTxHash })
        }
      }
    }
    return { status: describeStatus(outcomes), accounts: outcomes }
  })
