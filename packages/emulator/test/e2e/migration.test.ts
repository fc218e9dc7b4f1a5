/**
 * The client's migration against the emulator: accounts whose private keys only this test holds —
 * one with its own (legacy) key, one already updated to a key of another address — migrated in one
 * call; each account update the client signed is read back independently (@ethereumjs/rlp,
 * @noble/curves); the accounts are then ordinary accounts of the pool, their key on the chain the
 * key service's key, and send through the wallet API with the client verifying every result.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { RLP } from "@ethereumjs/rlp"
import { expect, layer } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Effect, Either, Redacted, Stream, TestClock } from "effect"
import { Amount, ChainId, FeeDelegation, Migration, Transaction, TransactionKind, WalletClient } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Emulator from "../../src/Emulator.js"
import { addressOfKey, bytesOf, encodeKey, hex, listOf, minimal, type Nested, recover, unhex } from "../support/klaytn.js"
import { wallet } from "./support.js"

const GAS_PRICE = 25_000_000_000n
const KLAY = 10n ** 18n

// The registration requests the client sends, as they went on the wire.
const sent: Array<unknown> = []
const recording = (client: HttpClient.HttpClient) =>
  HttpClient.mapRequestEffect(client, (request) =>
    Effect.sync(() => {
      if (request.url.endsWith("/v2/registration/account") && request.body._tag === "Uint8Array") {
        sent.push(JSON.parse(new TextDecoder().decode(request.body.body)))
      }
      return request
    }))

const outsider = () => {
  const key = secp256k1.utils.randomSecretKey()
  return { key, address: Either.getOrThrow(Klaytn.addressOfKey(key)) }
}

layer(wallet({}, { transformClient: recording }))("the client's migration against the emulator", (it) => {
  it.effect("migrate a legacy account and an account already on a key of another address; their updates read back independently; afterwards they send as any account", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const client = yield* WalletClient.WalletClient
      const legacy = outsider()
      const moved = outsider()
      const movedKey = secp256k1.utils.randomSecretKey()
      const late = outsider()
      // `moved` switches to a key of its own choosing first (a fee-delegated raw transaction).
      const toMovedKey = Either.getOrThrow(Klaytn.makeTransaction({
        kind: "account",
        from: moved.address,
        value: 0n,
        nonce: 0,
        gas: 100_000,
        gasPrice: GAS_PRICE,
        feeDelegated: true,
        key: Either.getOrThrow(Klaytn.encodeAccountKey({ _tag: "Public", publicKey: secp256k1.getPublicKey(movedKey, true) }))
      }))
      yield* client.send(TransactionKind.RawTransaction({ rlp: hex(Either.getOrThrow(Klaytn.signAsSender(toMovedKey, { chainId: 1001, sender: moved.key }))) }), { feePayer: FeeDelegation.global })
      // Interval mining: its key is on the chain once its block is made.
      yield* TestClock.adjust("1 second")

      const result = yield* client.migrateAccounts([
        { address: legacy.address, privateKey: Redacted.make(hex(legacy.key)), nonce: 0, gasPrice: GAS_PRICE },
        { address: moved.address, privateKeys: [Redacted.make(movedKey)], nonce: 1, gasPrice: GAS_PRICE },
        // A nonce ahead of the chain's: the emulator's node refuses it, nothing changes for it.
        { address: late.address, privateKey: Redacted.make(late.key), nonce: 5, gasPrice: GAS_PRICE }
      ])
      expect(result.status).toBe("partially failed")
      // Interval mining: the updates hold once their block is made.
      yield* TestClock.adjust("1 second")
      const [a, b, c] = result.accounts as [Migration.Outcome, Migration.Outcome, Migration.Outcome]
      expect([a._tag, b._tag, c._tag]).toEqual(["Migrated", "Migrated", "Failed"])
      expect(c).toMatchObject({ reason: "failed to send a raw transaction to klaytn node; -32000::nonce too high" })
      expect(Migration.$is("Failed")(c) && c.keyId).toBeDefined()

      // What went on the wire, read independently: an 0x21 from the account, to AccountKeyPublic of
      // its new key, signed by the key the account had; no fee payer yet.
      const items = sent[0] as Array<{ keyId: string; address: string; rlp: string }>
      for (const [i, signer] of [[0, legacy.key], [1, movedKey]] as const) {
        const outcome = result.accounts[i]!
        if (!Migration.$is("Migrated")(outcome)) throw new Error("not migrated")
        const raw = unhex(items[i]!.rlp)
        expect(raw[0]).toBe(0x21)
        const fields = listOf(RLP.decode(raw.subarray(1)) as Nested)
        const [nonce, gasPrice, gas, from, key] = fields.slice(0, 5).map((f) => hex(bytesOf(f)))
        expect(from).toBe(outcome.address.toLowerCase())
        expect(BigInt(nonce === "0x" ? 0 : nonce!)).toBe(BigInt(i))
        expect(BigInt(gasPrice!)).toBe(GAS_PRICE)
        expect(Number(BigInt(gas!))).toBe(Migration.UpdateGas)
        const compressed = secp256k1.Point.fromHex(outcome.publicKey.slice(2)).toBytes(true)
        expect(key).toBe(hex(encodeKey({ type: 2, key: compressed })))
        expect(bytesOf(fields[6])).toHaveLength(0) // the fee payer: left to the service
        const hash = keccak_256(RLP.encode([RLP.encode([minimal(0x21), ...fields.slice(0, 5)] as Array<Uint8Array>), minimal(1001), new Uint8Array(), new Uint8Array()]))
        expect(recover(hash, listOf(fields[5])[0]!, 1001).address).toBe(addressOfKey(signer))
        // The sender's hash the outcome gives is keccak256 of the update without the fee payer's part.
        expect(outcome.senderTxHash).toBe(hex(keccak_256(Uint8Array.from([0x21, ...RLP.encode(fields.slice(0, 6) as Array<Uint8Array>)]))))
      }

      // Accounts of the pool now, under their keys; the failed one is not.
      for (const outcome of [a, b]) {
        if (!Migration.$is("Migrated")(outcome)) continue
        const account = yield* client.getAccount(outcome.address)
        expect(account.publicKey.toLowerCase()).toBe(outcome.publicKey.toLowerCase())
        expect(account.keyId.toString().endsWith(outcome.keyId.toString().split(":").at(-1)!)).toBe(true)
      }
      expect(yield* Effect.flip(client.getAccount(late.address))).toMatchObject({ code: 1061010 })
      expect((yield* e.balance(1001, late.address)).nonce).toBe(0)

      // They send through the wallet API as any account; the client verifies each result.
      const to = (yield* client.createAccount()).address
      yield* e.fund(1001, legacy.address, KLAY)
      const hashOf = (r: Transaction.TransactionResult) => (Transaction.isSigned(r) ? r.transactionHash : "none")
      const transfer = yield* client.transferValue({ from: legacy.address, to, value: Either.getOrThrow(Amount.fromKlay("0.5")) })
      expect(transfer.from).toBe(legacy.address)
      const paid = yield* client.transferValue({ from: moved.address, to, value: 0n, feePayer: FeeDelegation.global })
      yield* TestClock.adjust("2 seconds")
      expect((yield* client.getTransactionReceipt(hashOf(transfer))).status).toBe("Committed")
      expect((yield* client.getTransactionReceipt(hashOf(paid))).status).toBe("Committed")
      expect((yield* e.balance(1001, to)).balance).toBe(KLAY / 2n)
    }))

  it.effect("with the emulator's node (/v1/klaytn): nonces, the gas price and each account's key read from it; keys that do not sign for the chain's key fail before any key is created", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const client = yield* WalletClient.make({
        credentials: { accessKeyId: e.member.accessKeyId, secretAccessKey: e.member.secretAccessKey },
        chainId: ChainId.Testnet,
        baseUrl: e.url,
        nodeUrl: `${e.url}/v1/klaytn`
      }).pipe(Effect.provide(FetchHttpClient.layer))
      const busy = outsider()
      const moved = outsider()
      const movedKey = secp256k1.utils.randomSecretKey()
      // `busy` has sent a transaction already (nonce 1 is next); `moved` is on a key of its own choosing.
      for (const [w, key] of [[busy, { _tag: "Legacy" as const }], [moved, { _tag: "Public" as const, publicKey: secp256k1.getPublicKey(movedKey, true) }]] as const) {
        const tx = Either.getOrThrow(Klaytn.makeTransaction({
          kind: "account", from: w.address, value: 0n, nonce: 0, gas: 100_000, gasPrice: GAS_PRICE, feeDelegated: true,
          key: Either.getOrThrow(Klaytn.encodeAccountKey(key))
        }))
        yield* client.send(TransactionKind.RawTransaction({ rlp: hex(Either.getOrThrow(Klaytn.signAsSender(tx, { chainId: 1001, sender: w.key }))) }), { feePayer: FeeDelegation.global })
      }
      // Interval mining: their nonces and keys are on the chain once their block is made.
      yield* TestClock.adjust("1 second")
      const keysBefore = (yield* Stream.runCollect(client.keys({ krn: `krn:1001:wallet:${e.member.accountId}:key-pool:default` }))).length
      // `moved`'s own key no longer signs for it: refused before anything is created or sent.
      const stale = yield* client.migrateAccounts([{ address: moved.address, privateKey: Redacted.make(moved.key) }])
      expect(stale.status).toBe("all failed")
      expect(stale.accounts[0]).toMatchObject({ _tag: "Failed", reason: expect.stringContaining("key on the chain (AccountKeyPublic)") })
      expect(Migration.$is("Failed")(stale.accounts[0]!) && stale.accounts[0].keyId).toBeUndefined()
      const result = yield* client.migrateAccounts([
        { address: busy.address, privateKey: Redacted.make(busy.key) },
        { address: moved.address, privateKeys: [Redacted.make(movedKey)] }
      ])
      expect(result.status).toBe("ok")
      yield* TestClock.adjust("1 second")
      expect(result.accounts.map((o) => Migration.$is("Migrated")(o) && o.nonce)).toEqual([1, 1])
      // The chain's key now: AccountKeyPublic of each new key, as the node tells it.
      for (const outcome of result.accounts) {
        if (!Migration.$is("Migrated")(outcome)) continue
        const answer = yield* Effect.promise(() =>
          fetch(`${e.url}/v1/klaytn`, {
            method: "POST",
            headers: { authorization: Redacted.value(e.member.authorization), "x-chain-id": "1001", "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "klay_getAccountKey", params: [outcome.address, "latest"] })
          }).then((r) => r.json() as Promise<{ result: { keyType: number; key: { x: string; y: string } } }>)
        )
        expect(answer.result.keyType).toBe(2)
        const point = secp256k1.Point.fromHex(outcome.publicKey.slice(2))
        expect([BigInt(answer.result.key.x), BigInt(answer.result.key.y)]).toEqual([point.x, point.y])
      }
      // Two keys for the two migrated accounts, none for the refused one.
      expect((yield* Stream.runCollect(client.keys({ krn: `krn:1001:wallet:${e.member.accountId}:key-pool:default` }))).length).toBe(keysBefore + 2)
    }))
})
