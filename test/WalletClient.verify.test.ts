/**
 * Verified results: every signed result is checked against the request and its own RLP before it
 * is returned (UnverifiedResult otherwise); the new kinds on the wire (raw RLP, cancel, anchor,
 * account update, legacy) and their arguments, checked before anything is sent.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, Schema } from "effect"
import { readFileSync } from "node:fs"
import { signAsFeePayer } from "../packages/emulator/src/chain/FeePayerSigning.js"
import * as Receipts from "../packages/emulator/src/chain/Receipts.js"
import * as Klaytn from "../src/Klaytn.js"
import { AccountKey, Address, FeeDelegation, Transaction, TransactionKind, WalletClient, type WalletConfig, type WalletError } from "../src/index.js"
import { secret, testClient, withClient } from "./support/client.js"
import { json } from "./support/recordingClient.js"

const toRlp = (key: AccountKey.AccountKey): string =>
  `0x${Buffer.from(Either.getOrThrow(Klaytn.encodeAccountKey(AccountKey.toKlaytn(key)))).toString("hex")}`

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/tx/${name}`, import.meta.url), "utf8"))

const key = (n: number) => new Uint8Array(32).fill(n)
const [sender, payer, other] = [key(1), key(2), key(3)].map((k) => Either.getOrThrow(Klaytn.addressOfKey(k))) as unknown as [string, string, string]
const to = Option.getOrThrow(Address.checksum("0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"))

/** A transfer signed by its sender (and fee payer), as the service would answer it: JSON and raw. */
const signed = (options: { feePayer?: boolean; feeRatio?: number; chainId?: number; value?: bigint; nonce?: number } = {}) => {
  const tx = Either.getOrThrow(Klaytn.makeTransaction({
    kind: "value",
    from: sender as any,
    to,
    value: options.value ?? 5n,
    nonce: options.nonce ?? 7,
    gas: 50_000,
    gasPrice: 25_000_000_000n,
    feeDelegated: options.feePayer,
    feeRatio: options.feeRatio
  }))
  const s = Either.getOrThrow(Klaytn.signTransaction(tx, { chainId: options.chainId ?? 1001, sender: key(1), feePayer: options.feePayer ? key(2) : undefined }))
  return { tx: s, body: Schema.encodeSync(Transaction.TransactionResult)(Receipts.toResult(s, "Submitted")) as Record<string, any> }
}

const answering = (body: unknown, extra: Partial<WalletConfig.Options> = {}) => {
  const bodies: Array<any> = []
  const test = testClient(() => json(200, body), {
    ...extra,
    transformClient: HttpClient.tapRequest((request) =>
      Effect.sync(() => {
        if (request.body._tag === "Uint8Array") bodies.push(JSON.parse(new TextDecoder().decode(request.body.body)))
      }))
  })
  return { test, bodies }
}

const transfer = { from: sender, to, value: 5n }

/** The field an UnverifiedResult names (or the tag of another outcome). */
const verdict = (
  body: unknown,
  run: Effect.Effect<unknown, WalletError.WalletError, WalletClient.WalletClient>,
  options?: Partial<WalletConfig.Options>
) =>
  withClient(answering(body, options).test, run).pipe(
    Effect.match({ onFailure: (e) => (e._tag === "UnverifiedResult" ? e.field : e._tag), onSuccess: () => "verified" })
  )

describe("verified results", () => {
  it.effect("the service's own examples verify: a memo transfer, a fee-delegated one with a ratio, a multisig pending one", () =>
    Effect.gen(function*() {
      const from = "0x60d0902c428d0e197f97a756011fd4893c1e57b0"
      expect(yield* verdict(fixture("tx-value-200-success.json"), WalletClient.transferValue({ from, to, value: 0n, memo: "0x123" }))).toBe("verified")
      expect(yield* verdict(
        fixture("fd-value-200-with-fee-ratio.json"),
        WalletClient.transferValue({ from, to, value: 0n, memo: "0x123", feePayer: FeeDelegation.global, feeRatio: 30 })
      )).toBe("verified")
      const pending = fixture("tx-value-200-multisig-account-pending.json")
      const multisig = { from: pending.from, to: pending.to as string, value: 0n, memo: "0x123" }
      expect(yield* verdict(pending, WalletClient.transferValue(multisig))).toBe("verified")
      expect(yield* verdict(pending, WalletClient.transferValue({ ...multisig, to: sender }))).toBe("to")
    }))

  it.effect("a result that is not the transaction asked for, or whose RLP does not back it, is UnverifiedResult naming the field", () =>
    Effect.gen(function*() {
      const { body } = signed()
      expect(yield* verdict(body, WalletClient.transferValue(transfer))).toBe("verified")
      // What the request fixed.
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, to: other }))).toBe("to")
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, value: 6n }))).toBe("value")
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, from: other }))).toBe("from")
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, nonce: 8 }))).toBe("nonce")
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, memo: "x" }))).toBe("typeInt")
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, feePayer: FeeDelegation.global }))).toBe("typeInt")
      // The JSON against its own RLP, hash and signatures.
      expect(yield* verdict({ ...body, gas: 60_000 }, WalletClient.transferValue(transfer))).toBe("gas")
      expect(yield* verdict({ ...body, transactionHash: `0x${"ab".repeat(32)}` }, WalletClient.transferValue(transfer))).toBe("transactionHash")
      expect(yield* verdict({ ...body, signatures: [{ ...body.signatures[0], S: "0x1" }] }, WalletClient.transferValue(transfer))).toBe("signatures")
      expect(yield* verdict({ ...body, rlp: "0x08c0" }, WalletClient.transferValue(transfer))).toBe("rlp")
      // Signed for another chain: the signature does not recover the sender on this one.
      const mainnet = signed({ chainId: 8217 }).body
      expect(yield* verdict(mainnet, WalletClient.transferValue(transfer))).toBe("rlp.signatures")
      expect(yield* verdict(mainnet, WalletClient.transferValue({ ...transfer, chainId: 8217 }))).toBe("verified")
    }))

  it.effect("a sender whose key is not its address's (an account registered under a key of the key service): its signature is checked against its account's key, read once", () =>
    Effect.gen(function*() {
      const tx = Either.getOrThrow(Klaytn.makeTransaction({ kind: "value", from: sender as any, to, value: 5n, nonce: 7, gas: 50_000, gasPrice: 25_000_000_000n }))
      const byOther = Either.getOrThrow(signAsFeePayer(tx, [Either.getOrThrow(Klaytn.sign(Klaytn.senderSigningHash(tx, 1001), key(3), 1001))], { chainId: 1001 }))
      const body = Schema.encodeSync(Transaction.TransactionResult)(Receipts.toResult(byOther, "Submitted"))
      const account = (publicKeyOf: Uint8Array) => ({
        address: sender,
        chainId: 1001,
        createdAt: 1,
        updatedAt: 1,
        keyId: `krn:1001:wallet:acc:account-pool:default:0x${"ab".repeat(32)}`,
        krn: "krn:1001:wallet:acc:account-pool:default",
        publicKey: `0x${Buffer.from(secp256k1.getPublicKey(publicKeyOf, false)).toString("hex")}`
      })
      const service = (held: Uint8Array) => testClient((r) => json(200, r.method === "GET" ? account(held) : body))
      const test = service(key(3))
      expect(yield* withClient(test, Effect.as(Effect.zipRight(WalletClient.transferValue(transfer), WalletClient.transferValue(transfer)), "verified"))).toBe("verified")
      // The account read once, in the call's pool; the second result checked with what it gave.
      expect(test.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual(["POST /v2/tx/value", `GET /v2/account/${sender}`, "POST /v2/tx/value"])
      // An account whose key is yet another: not the transaction's signer.
      const wrong = service(key(2))
      const refused = yield* Effect.flip(withClient(wrong, WalletClient.transferValue(transfer)))
      expect(refused._tag === "UnverifiedResult" && refused.field).toBe("rlp.signatures")
      // "fields" recovers nothing, so reads nothing.
      const fields = testClient((r) => json(200, r.method === "GET" ? account(key(2)) : body), { verifyResults: "fields" })
      yield* withClient(fields, WalletClient.transferValue(transfer))
      expect(fields.requests.map((r) => r.method)).toEqual(["POST"])
    }))

  it.effect("fee payers: the one asked for (fd-user), one at all (fd), the ratio asked for", () =>
    Effect.gen(function*() {
      const { body } = signed({ feePayer: true, feeRatio: 30 })
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, feePayer: FeeDelegation.user(payer), feeRatio: 30 }))).toBe("verified")
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, feePayer: FeeDelegation.user(other), feeRatio: 30 }))).toBe("feePayer")
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, feePayer: FeeDelegation.global, feeRatio: 20 }))).toBe("feeRatio")
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, feePayer: FeeDelegation.global }))).toBe("typeInt")
      // The JSON says another fee payer than the RLP (the fields check passes: fd asks for any).
      expect(yield* verdict({ ...body, feePayer: other.toLowerCase() }, WalletClient.transferValue({ ...transfer, feePayer: FeeDelegation.global, feeRatio: 30 })))
        .toBe("feePayer")
    }))

  it.effect("the error carries what was asked, what came back and the body, scrubbed; verifyResults: false returns it as decoded", () =>
    Effect.gen(function*() {
      const { body } = signed()
      const error = yield* Effect.flip(withClient(answering(body).test, WalletClient.transferValue({ ...transfer, value: 6n })))
      expect(error._tag).toBe("UnverifiedResult")
      if (error._tag !== "UnverifiedResult") return
      expect({ field: error.field, expected: error.expected, actual: error.actual, hash: error.transactionHash, path: error.path }).toEqual({
        field: "value",
        expected: "6 peb",
        actual: "5 peb",
        hash: body.transactionHash,
        path: "/v2/tx/value"
      })
      expect(JSON.parse(error.body)).toEqual(body)
      expect(String(error) + JSON.stringify(error)).not.toContain(secret)
      const unchecked = answering(body, { verifyResults: false })
      expect((yield* withClient(unchecked.test, WalletClient.transferValue({ ...transfer, value: 6n }))).value).toBe(5n)
    }))

  it.effect("verifyResults: \"fields\" checks everything but the signers' recovery", () =>
    Effect.gen(function*() {
      const { body } = signed()
      const fields = { verifyResults: "fields" as const }
      expect(yield* verdict({ ...body, transactionHash: `0x${"ab".repeat(32)}` }, WalletClient.transferValue(transfer), fields)).toBe("transactionHash")
      expect(yield* verdict(body, WalletClient.transferValue({ ...transfer, value: 6n }), fields)).toBe("value")
      // Signed for another chain: only the recovery tells, which "fields" leaves to the chain.
      const mainnet = signed({ chainId: 8217 }).body
      expect(yield* verdict(mainnet, WalletClient.transferValue(transfer), fields)).toBe("verified")
      expect(yield* verdict(mainnet, WalletClient.transferValue(transfer))).toBe("rlp.signatures")
    }))
})

describe("raw transactions", () => {
  it.effect("an RLP its sender signed goes to /v2/tx/fd/rlp as { rlp }; the result must be that transaction, signed by the fee payer", () =>
    Effect.gen(function*() {
      const full = signed({ feePayer: true })
      // What the sender sends: its own signature, the fee payer's part still empty.
      const rlp = Klaytn.encodeRaw({ tx: full.tx.tx, signatures: full.tx.signatures, feePayer: { address: "0x0000000000000000000000000000000000000000" as any, signatures: [{ v: 1, r: 0n, s: 0n }] } })
      const raw = TransactionKind.RawTransaction({ rlp: `0x${Buffer.from(rlp).toString("hex")}` })
      const ok = answering(full.body)
      yield* withClient(ok.test, WalletClient.send(raw, { feePayer: FeeDelegation.global, from: sender }))
      expect(ok.test.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual(["POST /v2/tx/fd/rlp"])
      expect(ok.bodies).toEqual([{ rlp: raw.rlp }])
      // Another transaction back (another nonce), or the sender's signature replaced.
      expect(yield* verdict(signed({ feePayer: true, nonce: 8 }).body, WalletClient.send(raw, { feePayer: FeeDelegation.global }))).toBe("rlp.nonce")
      const resigned = signed({ feePayer: true, chainId: 8217 })
      expect(yield* verdict(resigned.body, WalletClient.send(raw, { feePayer: FeeDelegation.global }))).toBe("rlp.signatures")
      // A pending answer (no RLP yet) must still be the transaction sent.
      const { input: _input, rlp: _rlp, signatures: _signatures, transactionHash: _hash, ...fields } = full.body
      const pendingAnswer = { ...fields, status: "Pending", transactionId: `0x${"12".repeat(32)}` }
      expect(yield* verdict(pendingAnswer, WalletClient.send(raw, { feePayer: FeeDelegation.global }))).toBe("verified")
      expect(yield* verdict({ ...pendingAnswer, to: other.toLowerCase() }, WalletClient.send(raw, { feePayer: FeeDelegation.global }))).toBe("to")
      expect(yield* verdict({ ...pendingAnswer, value: "0x1" }, WalletClient.send(raw, { feePayer: FeeDelegation.global }))).toBe("value")
    }))

  it.effect("refused before sending: another sender than from, a basic type on a fee-delegated route, a nonce or gas option, a ratio the RLP does not have", () =>
    Effect.gen(function*() {
      const basic = TransactionKind.RawTransaction({ rlp: signed().body.rlp })
      const delegated = TransactionKind.RawTransaction({ rlp: signed({ feePayer: true }).body.rlp })
      const test = testClient(() => json(500, {}))
      const argument = (run: Effect.Effect<unknown, WalletError.WalletError, WalletClient.WalletClient>) =>
        withClient(test, run).pipe(Effect.flip, Effect.map((e) => (e._tag === "InvalidArgument" ? e.argument : e._tag)))
      expect(yield* argument(WalletClient.send(basic, { from: other }))).toBe("from")
      expect(yield* argument(WalletClient.send(basic, { feePayer: FeeDelegation.global }))).toBe("rlp")
      expect(yield* argument(WalletClient.send(delegated, { feePayer: FeeDelegation.global, feeRatio: 30 }))).toBe("feeRatio")
      // @ts-expect-error a raw transaction's nonce is its RLP's
      expect(yield* argument(WalletClient.send(basic, { nonce: 3 }))).toBe("nonce")
      expect(yield* argument(WalletClient.send(TransactionKind.RawTransaction({ rlp: "0x12" }), {}))).toBe("rlp")
      expect(test.requests).toHaveLength(0)
    }))
})

describe("cancel, anchor, account update and legacy on the wire", () => {
  // Points of the curve: the codec that encodes the key for the check refuses anything else.
  const publicKeys = [1, 2].map((k) => `0x${Buffer.from(secp256k1.getPublicKey(new Uint8Array(32).fill(k), false)).toString("hex")}`)

  it.effect("method, path and body of each kind; the result is checked on its fields", () =>
    Effect.gen(function*() {
      const pending = (extra: Record<string, unknown>) => ({
        from: sender.toLowerCase(),
        gas: 1000000,
        gasPrice: "0x5d21dba00",
        nonce: 3,
        status: "Pending",
        transactionId: `0x${"12".repeat(32)}`,
        ...extra
      })
      const cases = [
        [TransactionKind.Cancel({ nonce: 3 }), { feePayer: FeeDelegation.user(payer) }, pending({ typeInt: 0x39, feePayer: payer.toLowerCase() }), "DELETE /v2/tx/fd-user", { nonce: 3, feePayer: payer }],
        [TransactionKind.Cancel({ transactionHash: `0x${"AB".repeat(32)}` }), {}, pending({ typeInt: 0x38 }), "DELETE /v2/tx", { transactionHash: `0x${"AB".repeat(32)}` }],
        [TransactionKind.Anchor({ input: "0x1234" }), { feePayer: FeeDelegation.global }, pending({ typeInt: 0x49, input: "0x1234", feePayer: payer.toLowerCase() }), "POST /v2/tx/fd/anchor", { input: "0x1234" }],
        [
          TransactionKind.AccountUpdate({ accountKey: AccountKey.WeightedMultiSig({ threshold: 2, keys: publicKeys.map((publicKey) => ({ publicKey, weight: 1 })) }) }),
          {},
          pending({ typeInt: 0x20, accountKey: toRlp(AccountKey.WeightedMultiSig({ threshold: 2, keys: publicKeys.map((publicKey) => ({ publicKey, weight: 1 })) })) }),
          "PUT /v2/tx/account",
          { accountKey: { keyType: 4, key: { threshold: 2, weightedKeys: publicKeys.map((publicKey) => ({ publicKey, weight: 1 })) } } }
        ],
        [TransactionKind.Legacy({ to, value: 1n }), {}, pending({ typeInt: 0, to: to.toLowerCase(), value: "0x1" }), "POST /v2/tx/legacy", { to, value: "0x1" }]
      ] as const
      for (const [kind, options, result, route, fields] of cases) {
        const { bodies, test } = answering(result)
        yield* withClient(test, WalletClient.send(kind, { from: sender, ...options } as any))
        expect(test.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([route])
        expect(bodies).toEqual([{ from: sender, ...fields }])
      }
      // An account update whose result shows another key than the one asked for.
      expect(yield* verdict(pending({ typeInt: 0x20, accountKey: "0x03c0" }), WalletClient.send(TransactionKind.AccountUpdate({ accountKey: AccountKey.Legacy }), { from: sender })))
        .toBe("accountKey")
      // A cancellation takes the nonce of the transaction it replaces.
      expect(yield* verdict(pending({ typeInt: 0x38 }), WalletClient.send(TransactionKind.Cancel({ nonce: 4 }), { from: sender }))).toBe("nonce")
    }))

  it.effect("refused before sending, naming the field: both or neither cancel targets, a fee payer for legacy, bad keys, odd input", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(500, {}))
      const argument = (kind: TransactionKind.TransactionKind, options: Record<string, unknown> = {}) =>
        withClient(test, WalletClient.send(kind, { from: sender, ...options } as any)).pipe(
          Effect.flip,
          Effect.map((e) => (e._tag === "InvalidArgument" ? `${e.argument}: ${e.description}` : e._tag))
        )
      // @ts-expect-error exactly one of nonce and transactionHash
      const both = TransactionKind.Cancel({ nonce: 1, transactionHash: `0x${"ab".repeat(32)}` })
      expect(yield* argument(both)).toMatch(/^transactionHash: .*exactly one/)
      // @ts-expect-error exactly one of nonce and transactionHash
      expect(yield* argument(TransactionKind.Cancel({}))).toMatch(/^nonce: /)
      // @ts-expect-error a legacy transaction has no fee payer
      yield* Effect.ignore(WalletClient.send(TransactionKind.Legacy({ to }), { from: sender, feePayer: FeeDelegation.global }).pipe(Effect.provide(test.client)))
      expect(yield* argument(TransactionKind.Legacy({ to }), { feePayer: FeeDelegation.global })).toMatch(/^feePayer: /)
      expect(yield* argument(TransactionKind.Legacy({}))).toMatch(/^input: /)
      expect(yield* argument(TransactionKind.Anchor({ input: "0x123" }))).toMatch(/^input: /)
      expect(yield* argument(TransactionKind.Anchor({ input: "0x" }))).toMatch(/^input: cannot be empty/)
      const multisig = (threshold: number, weights: ReadonlyArray<number>, keys: ReadonlyArray<string> = publicKeys) =>
        TransactionKind.AccountUpdate({ accountKey: AccountKey.WeightedMultiSig({ threshold, keys: weights.map((weight, i) => ({ publicKey: keys[i]!, weight })) }) })
      expect(yield* argument(multisig(3, [1, 1]))).toMatch(/^accountKey: key\.threshold: .*cannot be reached/)
      expect(yield* argument(multisig(1, [1, 0]))).toMatch(/^accountKey: key\.weightedKeys\.1\.weight: /)
      // The same key twice, once compressed: 0x02 or 0x03 (the parity of y) + x.
      const first = publicKeys[0]!
      const compressedFirst = `0x0${parseInt(first.slice(-1), 16) % 2 === 0 ? 2 : 3}${first.slice(4, 68)}`
      expect(yield* argument(multisig(1, [1, 1], [first, compressedFirst]))).toMatch(/^accountKey: key\.weightedKeys\.1\.publicKey: .*twice/)
      expect(yield* argument(multisig(1, Array(11).fill(1), Array.from({ length: 11 }, (_, i) => `0x04${i.toString(16).padStart(128, "a")}`))))
        .toMatch(/^accountKey: key\.weightedKeys: .*at most 10/)
      const legacyRole = AccountKey.RoleBased({ transaction: AccountKey.Legacy as any })
      expect(yield* argument(TransactionKind.AccountUpdate({ accountKey: legacyRole }))).toMatch(/^accountKey: key\.0: .*1061917/)
      expect(yield* argument(TransactionKind.AccountUpdate({ accountKey: { _tag: "Nope" } as any }))).toMatch(/^accountKey/)
      expect(test.requests).toHaveLength(0)
    }))
})
