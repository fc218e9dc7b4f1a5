/**
 * The client against the emulator (manual mining), every result verified (the default): cancel,
 * anchoring, account update, legacy and raw RLP through `send`, each checked against its request
 * and its RLP (hash, fields, signers); and `sendReliably` through a connection that drops the
 * answer after the emulator accepted the transaction: the value moves exactly once and the user
 * gets the transaction.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import { expect, layer } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Either, Layer, Schedule } from "effect"
import { AccountKey, type Address, FeeDelegation, Transaction, TransactionKind, WalletClient } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Emulator from "../../src/Emulator.js"
import { clientOf } from "./support.js"

const KLAY = 10n ** 18n
const CHAIN = 1001

/**
 * A proxy in the client's path: the first `drops` submissions of a signed RLP reach the emulator,
 * which accepts them, and their answers are lost (a connection reset after the service accepted).
 */
const dropping = { drops: 0, submissions: 0 }
const dropAnswersOfSubmissions = (client: HttpClient.HttpClient) =>
  HttpClient.transformResponse(client, (response) =>
    Effect.flatMap(response, (r) => {
      if (!r.request.url.endsWith("/rlp")) return Effect.succeed(r)
      dropping.submissions++
      if (dropping.drops === 0) return Effect.succeed(r)
      dropping.drops--
      return Effect.fail(new HttpClientError.RequestError({ request: r.request, reason: "Transport", description: "connection reset after the request was sent" }))
    }))

const emulatorLayer = Emulator.layer({ port: 0, mining: "manual" })
const stack = clientOf({ transformClient: dropAnswersOfSubmissions }).pipe(Layer.provideMerge(emulatorLayer), Layer.orDie)

layer(stack)("the client's new kinds against the emulator, verified", (it) => {
  const setUp = Effect.gen(function*() {
    const e = yield* Emulator.Emulator
    const account = (peb: bigint) => Effect.tap(Effect.map(WalletClient.createAccount(), (a) => a.address), (a) => (peb > 0n ? e.fund(CHAIN, a, peb) : Effect.void))
    const balance = (a: string) => Effect.map(e.balance(CHAIN, a), (b) => b.balance)
    const mine = Effect.asVoid(e.mine(CHAIN))
    return { e, account, balance, mine }
  }).pipe(Effect.orDie)

  it.effect("cancel, anchor, account update, legacy and a relayed RLP: sent, verified against the request and the RLP, committed when mined", () =>
    Effect.gen(function*() {
      const { account, balance, e, mine } = yield* setUp
      const from = yield* account(KLAY)
      const to = yield* account(0n)
      const pending = yield* WalletClient.transferValue({ from, to, value: 5n })
      const cancel = yield* WalletClient.send(TransactionKind.Cancel({ nonce: (pending as Transaction.SignedResult).nonce }), { from, feePayer: FeeDelegation.global })
      const anchor = yield* WalletClient.send(TransactionKind.Anchor({ input: "0x0102" }), { from })
      const legacy = yield* WalletClient.send(TransactionKind.Legacy({ to, value: 3n }), { from })
      const key = AccountKey.Public({ publicKey: `0x${Buffer.from(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false)).toString("hex")}` })
      const updated = yield* account(KLAY)
      const update = yield* WalletClient.send(TransactionKind.AccountUpdate({ accountKey: key }), { from: updated })
      // A wallet outside KAS signs; the global fee payer pays.
      const outside = secp256k1.utils.randomSecretKey()
      const outsider = Either.getOrThrow(Klaytn.addressOfKey(outside))
      yield* e.fund(CHAIN, outsider, KLAY)
      const rlp = Either.getOrThrow(Klaytn.signAsSender(
        Either.getOrThrow(Klaytn.makeTransaction({ kind: "value", from: outsider, to: to as Address.Address, value: 2n, nonce: 0, gas: 100_000, gasPrice: 25_000_000_000n, feeDelegated: true })),
        { chainId: CHAIN, sender: outside }
      ))
      const relayed = yield* WalletClient.send(TransactionKind.RawTransaction({ rlp: `0x${Buffer.from(rlp).toString("hex")}` }), { feePayer: FeeDelegation.global })
      const results = [cancel, anchor, legacy, update, relayed] as Array<Transaction.SignedResult>
      expect(results.map((r) => r.typeInt)).toEqual([0x39, 0x48, 0x00, 0x20, 0x09])
      yield* mine
      for (const r of results) expect((yield* WalletClient.awaitReceipt(r.transactionHash)).status).toBe("Committed")
      // The cancelled transfer never moved anything; the legacy transfer and the relayed one did.
      expect(yield* balance(to)).toBe(5n)
      expect(yield* Effect.flip(WalletClient.getAccount(updated))).toMatchObject({ code: 1065102 })
    }))

  it.effect("sendReliably from one sender, 8 at once, 3 rounds: every one sent once, the nonces contiguous and in the order asked", () =>
    Effect.gen(function*() {
      const { account, balance, mine } = yield* setUp
      dropping.drops = 0
      const from = yield* account(KLAY)
      const to = yield* account(0n)
      const sent: Array<Transaction.SignedResult> = []
      for (let round = 0; round < 3; round++) {
        const results = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, i) => BigInt(8 * round + i + 1)),
          (value) => WalletClient.sendReliably(TransactionKind.ValueTransfer({ to, value }), { from }),
          { concurrency: 8 }
        )
        for (const r of results) sent.push(r as Transaction.SignedResult)
      }
      // Each took the next nonce, in the order the sends were asked (value n has nonce n - 1).
      expect(sent.map((r) => [r.value, r.nonce])).toEqual(Array.from({ length: 24 }, (_, i) => [BigInt(i + 1), i]))
      yield* mine
      for (const r of sent) expect((yield* WalletClient.awaitReceipt(r.transactionHash)).status).toBe("Committed")
      expect(yield* balance(to)).toBe(300n)
    }))

  it.effect("sendReliably: the answer of the submission is lost after the emulator accepted it: the client finds the hash, the value moves once", () =>
    Effect.gen(function*() {
      const { account, balance, mine } = yield* setUp
      const from = yield* account(KLAY)
      const to = yield* account(0n)
      dropping.drops = 1
      dropping.submissions = 0
      const result = yield* WalletClient.sendReliably(TransactionKind.ValueTransfer({ to, value: 11n }), {
        from,
        feePayer: FeeDelegation.global,
        resubmit: Schedule.recurs(2)
      })
      // One submission reached the emulator: the hash it knew made a second one needless.
      expect(dropping.submissions).toBe(1)
      expect(Transaction.isSigned(result)).toBe(true)
      yield* mine
      expect((yield* WalletClient.awaitReceipt((result as Transaction.SignedResult).transactionHash)).status).toBe("Committed")
      expect(yield* balance(to)).toBe(11n)
    }))
})
