/**
 * The check of a transaction result against its request: the fields the request fixed, then the
 * signed transaction itself (decoded from its RLP, its hash recomputed, its JSON fields compared
 * with the RLP's, its signatures recovered). One module, so that what "verified" means is written
 * once.
 *
 * The Klaytn codec (with its elliptic curve and the WebAssembly recovery of signers) is imported
 * on the first signed result, not with the client: bundlers split it off, and an application that
 * never sends a transaction never downloads it.
 *
 * @internal
 */
import { Effect, Either } from "effect"
import * as AccountKey from "../AccountKey.js"
import type * as Address from "../Address.js"
import type * as Klaytn from "../Klaytn.js"
import * as Transaction from "../Transaction.js"
import * as Wire from "../Wire.js"
import { bytesOfHex, hexOfBytes } from "./hex.js"
import { lazyModule } from "./lazyModule.js"

/**
 * What disagrees: a field, what the request (or the RLP) says, what the result says.
 *
 * @internal
 */
export interface Mismatch {
  readonly field: string
  readonly expected: string
  readonly actual: string
}

/**
 * What a request fixed, as a result must show it. Absent fields were left to the service.
 *
 * @internal
 */
export interface Expected {
  readonly chainId: number
  readonly route: Wire.PayerRoute
  /** The types the result may have (kind × payer × ratio; a raw transaction's own). */
  readonly types: ReadonlyArray<number>
  readonly from?: Address.Address | undefined
  readonly to?: Address.Address | undefined
  /** A legacy deployment: the result has no recipient. */
  readonly noRecipient?: boolean | undefined
  readonly value?: bigint | undefined
  /** Lower-case hex. */
  readonly input?: string | undefined
  /** Given non-zero only (0 asks the service to choose). */
  readonly nonce?: number | undefined
  readonly gas?: number | undefined
  /** The user fee payer asked for (`fd-user`). */
  readonly feePayer?: Address.Address | undefined
  readonly feeRatio?: number | undefined
  /** The new account key (compared in Klaytn's RLP form, which the codec gives). */
  readonly accountKey?: AccountKey.AccountKey | undefined
  /** A raw transaction's request: the transaction sent, decoded. */
  readonly sent?: Klaytn.SignedParts | undefined
  /**
   * The public key (compressed) KAS holds for the sender when it is not its address's own (an
   * account registered under a key of the key service): the service's sender signatures are
   * checked against it rather than recovered to the address.
   */
  readonly senderKey?: Uint8Array | undefined
}

const show = (v: unknown): string =>
  v === undefined ? "absent" : typeof v === "bigint" ? `${v} peb` : typeof v === "string" ? v : JSON.stringify(v)

const differ = (field: string, expected: unknown, actual: unknown): Either.Either<never, Mismatch> =>
  Either.left({ field, expected: show(expected), actual: show(actual) })

const ok = Either.void
const lower = (s: string | undefined) => s?.toLowerCase()
const same = (a: string | undefined, b: string | undefined) => lower(a) === lower(b)

/**
 * The fields a request fixed, as the result shows them (a multisig pending result has nothing
 * else to check).
 *
 * @internal
 */
export const checkFields = (e: Expected, r: Transaction.TransactionResult): Either.Either<void, Mismatch> =>
  Either.gen(function*() {
    if (!e.types.includes(r.typeInt)) {
      return yield* differ("typeInt", e.types.map(Wire.typeName).join(" or "), `${Wire.typeName(r.typeInt)} (${r.typeInt})`)
    }
    if (e.from !== undefined && !same(e.from, r.from)) return yield* differ("from", e.from, r.from)
    if (e.to !== undefined && !same(e.to, r.to)) return yield* differ("to", e.to, r.to)
    if (e.noRecipient === true && r.to !== undefined) return yield* differ("to", undefined, r.to)
    if (e.value !== undefined && (r.value ?? 0n) !== e.value) return yield* differ("value", e.value, r.value)
    if (e.input !== undefined && !same(r.input ?? "0x", e.input)) return yield* differ("input", e.input, r.input)
    if (e.nonce !== undefined && r.nonce !== e.nonce) return yield* differ("nonce", e.nonce, r.nonce)
    if (e.gas !== undefined && r.gas !== e.gas) return yield* differ("gas", e.gas, r.gas)
    const feePayer = "feePayer" in r ? r.feePayer : undefined
    if (e.route === "fd-user" && !same(feePayer, e.feePayer)) return yield* differ("feePayer", e.feePayer, feePayer)
    if (e.route === "fd" && feePayer === undefined) return yield* differ("feePayer", "the service's fee payer", feePayer)
    if (e.route === "tx" && e.sent === undefined && feePayer !== undefined) return yield* differ("feePayer", undefined, feePayer)
    const ratio = "feeRatio" in r && r.feeRatio !== 0 ? r.feeRatio : undefined
    if (e.route !== "tx" && ratio !== e.feeRatio) return yield* differ("feeRatio", e.feeRatio, ratio)
  })

/**
 * A raw request's pending result (a multisig sender's: no RLP yet) against the transaction sent:
 * its recipient, value, input, nonce, gas and key.
 *
 * @internal
 */
export const checkPendingAgainstSent = (e: Expected, r: Transaction.TransactionResult): Either.Either<void, Mismatch> =>
  Either.gen(function*() {
    const sent = e.sent?.tx
    if (sent === undefined || Transaction.isSigned(r)) return
    if (!same(sent.to, r.to)) return yield* differ("to", `the RLP's ${show(sent.to)}`, r.to)
    if (sent.value !== (r.value ?? 0n)) return yield* differ("value", sent.value, r.value)
    const input = hexOf(sent.input) ?? "0x"
    if (!same(input, r.input ?? "0x")) return yield* differ("input", `the RLP's ${input}`, r.input)
    if (sent.nonce !== r.nonce) return yield* differ("nonce", `the RLP's ${sent.nonce}`, r.nonce)
    if (sent.gas !== r.gas) return yield* differ("gas", `the RLP's ${sent.gas}`, r.gas)
    const key = hexOf(sent.key)
    if (!same(key, r.accountKey)) return yield* differ("accountKey", `the RLP's ${show(key)}`, r.accountKey)
  })

/**
 * The new key of an account update, as the result must show it: Klaytn's RLP form of the key
 * asked for.
 *
 * @internal
 */
export const checkAccountKey = (klaytn: typeof Klaytn, e: Expected, r: Transaction.TransactionResult): Either.Either<void, Mismatch> => {
  if (e.accountKey === undefined) return ok
  const encoded = klaytn.encodeAccountKey(AccountKey.toKlaytn(e.accountKey))
  // The key was checked before it was sent: one the codec refuses is the client's own defect.
  if (Either.isLeft(encoded)) return differ("accountKey", `an account key (${encoded.left.reason})`, r.accountKey)
  const expected = hexOfBytes(encoded.right)
  return same(r.accountKey, expected) ? ok : differ("accountKey", expected, r.accountKey)
}

const hexOf = (v: unknown): string | undefined =>
  v instanceof Uint8Array ? hexOfBytes(v) : typeof v === "string" ? v.toLowerCase() : undefined

const sameSignatures = (
  a: ReadonlyArray<Klaytn.SignatureValues>,
  b: ReadonlyArray<Klaytn.SignatureValues>
) => a.length === b.length && a.every((s, i) => s.v === b[i]!.v && s.r === b[i]!.r && s.s === b[i]!.s)

const showSignatures = (sigs: ReadonlyArray<Klaytn.SignatureValues>) =>
  sigs.map((s) => `[0x${s.v.toString(16)}, 0x${s.r.toString(16)}, 0x${s.s.toString(16)}]`).join(", ")

// The signed fields of one transaction compared with another's (a raw request's with its result's).
const sameTransaction = (sent: Klaytn.Tx, got: Klaytn.Tx): Either.Either<void, Mismatch> => {
  for (const field of ["type", "nonce", "gasPrice", "gas", "to", "value", "from", "feeRatio"] as const) {
    const a = sent[field]
    const b = got[field]
    if (typeof a === "string" || typeof b === "string" ? !same(a as string, b as string) : a !== b) {
      return differ(`rlp.${field}`, a, b)
    }
  }
  for (const field of ["input", "key"] as const) {
    const a = hexOf((sent as unknown as Record<string, unknown>)[field])
    const b = hexOf((got as unknown as Record<string, unknown>)[field])
    if (a !== b) return differ(`rlp.${field}`, a, b)
  }
  return ok
}

/**
 * The signed transaction of a result: its RLP decodes to the transaction its JSON describes, its
 * hash is keccak256 of the RLP, every signature recovers its signer on the chain; for a raw
 * request, it is the transaction sent (with the sender's signatures, when they were there).
 *
 * @internal
 */
export const checkSigned = (
  klaytn: typeof Klaytn,
  e: Expected,
  r: Transaction.SignedResult,
  signatures = true
): Either.Either<void, Mismatch> =>
  Either.gen(function*() {
    const raw = bytesOfHex(r.rlp)
    const parts = yield* Either.mapLeft(klaytn.decodeRaw(raw), (error) => ({
      field: "rlp",
      expected: "a raw transaction of a Klaytn type",
      actual: error.reason
    }))
    const hash = klaytn.transactionHash(raw)
    if (hash !== r.transactionHash) return yield* differ("transactionHash", `keccak256(rlp) = ${hash}`, r.transactionHash)
    const t = parts.tx
    // `gasPrice` is left out: the service's JSON shows another price than the one it signed (its
    // examples: 750 ston in JSON, 25 ston in the RLP); the RLP's is the one that counts.
    if (t.type !== r.typeInt) return yield* differ("typeInt", `the RLP's ${t.type}`, r.typeInt)
    if (!same(t.from, r.from)) return yield* differ("from", `the RLP's ${t.from}`, r.from)
    if (!same(t.to, r.to)) return yield* differ("to", `the RLP's ${show(t.to)}`, r.to)
    if ((t.value ?? 0n) !== (r.value ?? 0n)) return yield* differ("value", t.value, r.value)
    if (t.nonce !== r.nonce) return yield* differ("nonce", `the RLP's ${t.nonce}`, r.nonce)
    if (t.gas !== r.gas) return yield* differ("gas", `the RLP's ${t.gas}`, r.gas)
    const input = hexOf(t.input) ?? "0x"
    if (!same(input, r.input ?? "0x")) return yield* differ("input", `the RLP's ${input}`, r.input)
    const accountKey = hexOf(t.key)
    if (!same(accountKey, r.accountKey)) return yield* differ("accountKey", `the RLP's ${show(accountKey)}`, r.accountKey)
    const feePayer = "feePayer" in r ? r.feePayer : undefined
    if (!same(parts.feePayer?.address, feePayer)) return yield* differ("feePayer", `the RLP's ${show(parts.feePayer?.address)}`, feePayer)
    const ratio = "feeRatio" in r && r.feeRatio !== 0 ? r.feeRatio : undefined
    if (t.feeRatio !== ratio) return yield* differ("feeRatio", `the RLP's ${show(t.feeRatio)}`, ratio)
    const listed = r.signatures.map(klaytn.fromWireSignature)
    if (!sameSignatures(parts.signatures, listed)) {
      return yield* differ("signatures", `the RLP's ${showSignatures(parts.signatures)}`, showSignatures(listed))
    }
    // A request its sender signed keeps those signatures, byte for byte; an unsigned one (a SigRLP,
    // a wallet's placeholder) is signed by the service.
    const kept = e.sent !== undefined && !klaytn.isUnsigned(e.sent.signatures)
    if (e.sent !== undefined) {
      yield* sameTransaction(e.sent.tx, t)
      if (kept && !sameSignatures(e.sent.signatures, parts.signatures)) {
        return yield* differ("rlp.signatures", showSignatures(e.sent.signatures), showSignatures(parts.signatures))
      }
    }
    // Recovering the signers is the one costly part (elliptic-curve arithmetic): `"fields"` skips it.
    if (!signatures) return
    if (e.senderKey !== undefined && !kept) {
      // KAS signed with the account's key, which is not its address's: checked against that key.
      yield* Either.mapLeft(
        klaytn.validateSignatures({ tx: t, signatures: parts.signatures }, e.chainId, { sender: { _tag: "Public", publicKey: e.senderKey } }),
        (error) => ({ field: "rlp.signatures", expected: `signatures of the sender's key ${hexOfBytes(e.senderKey!)} on chain ${e.chainId}`, actual: error.reason })
      )
    }
    // Signatures the caller sent are the caller's, checked against the sender's account key by the
    // chain (it need not be its address's own: a public, multisig or role-based key): only the fee
    // payer's, made by the service, are recovered here.
    yield* Either.mapLeft(klaytn.verifySigners(kept || e.senderKey !== undefined ? { ...parts, signatures: [] } : parts, e.chainId), (error) => ({
      field: "rlp.signatures",
      expected: `signatures of the sender and the fee payer on chain ${e.chainId}`,
      actual: error.reason
    }))
  })

/**
 * The Klaytn codec, imported once, on first use (`lazyModule`), with the WebAssembly recovery it
 * checks signers with compiled asynchronously meanwhile (internal/secp256k1Wasm).
 *
 * @internal
 */
export const loadCodec: Effect.Effect<typeof Klaytn, Mismatch> = Effect.mapError(
  lazyModule(() =>
    Promise.all([import("../Klaytn.js"), import("./secp256k1Wasm.js").then((recovery) => recovery.prepare())]).then(([klaytn]) => klaytn)
  ),
  (error) => ({ field: "rlp", expected: "the Klaytn codec to check it with", actual: `it could not be loaded: ${String(error)}` })
)

/**
 * The whole check of a result: its fields, then, when it is signed, its RLP.
 *
 * @internal
 */
export const verify = (e: Expected, r: Transaction.TransactionResult, signatures = true): Effect.Effect<void, Mismatch> =>
  Either.match(Either.flatMap(checkFields(e, r), () => checkPendingAgainstSent(e, r)), {
    onLeft: Effect.fail,
    onRight: () =>
      Transaction.isSigned(r) || e.accountKey !== undefined
        ? Effect.flatMap(loadCodec, (klaytn) =>
          Either.flatMap(checkAccountKey(klaytn, e, r), () => (Transaction.isSigned(r) ? checkSigned(klaytn, e, r, signatures) : ok)))
        : Effect.void
  })
