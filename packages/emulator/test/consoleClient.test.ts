/**
 * The console client (`ConsoleClient`) against a real emulator listening on 127.0.0.1 (a free
 * port): its answers decoded as the in-process `Emulator` service gives them, its refusals typed,
 * the key never in an error; and against answers no emulator gives (a fake transport).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Layer, Redacted } from "effect"
import { ChainId, FeeDelegation, Transaction, WalletClient } from "effect-kas-wallet"
import { inspect } from "node:util"
import * as ConsoleClient from "../src/ConsoleClient.js"
import * as Emulator from "../src/Emulator.js"
import * as EmulatorTest from "../src/EmulatorTest.js"

const address = "0xa809284c83b901ed106aba4ccda14628af128e14"
const checksummed = "0xa809284C83b901eD106Aba4Ccda14628Af128e14"
const unfunded = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"

/** The console client of the kit's emulator, with its member's key. */
const consoleOf = (emulator: Emulator.Service, secret = emulator.member.secretAccessKey) =>
  ConsoleClient.make({ url: emulator.url, credentials: { accessKeyId: emulator.member.accessKeyId, secretAccessKey: secret } }).pipe(
    Effect.provide(FetchHttpClient.layer)
  )

/** An HttpClient that answers every request with `status` and `body`. */
const answering = (status: number, body: string) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response(body, { status }))))
  )

const fake = (status: number, body: string) =>
  ConsoleClient.make({ url: "http://127.0.0.1:1", credentials: { authorization: Redacted.make("Basic c2VjcmV0") } }).pipe(
    Effect.provide(answering(status, body))
  )

layer(EmulatorTest.layer({ mining: "manual" }))("the console client against a running emulator", (it) => {
  it.effect("fund and balance: decoded as the in-process service answers them", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const console = yield* consoleOf(emulator)
      expect(console.url).toBe(emulator.url)
      const funded = yield* console.fund(ChainId.Mainnet, address, 10n ** 18n)
      expect(funded).toEqual({ chainId: 8217, address: checksummed, balance: 10n ** 18n, nonce: 0 })
      expect(yield* console.balance(ChainId.Mainnet, address)).toEqual(yield* emulator.balance(ChainId.Mainnet, address))
      expect(yield* console.balance(ChainId.Testnet, address)).toEqual({ chainId: 1001, address: checksummed, balance: 0n, nonce: 0 })
    }))

  it.effect("mine: the pending transfer's block, on one chain or both; bills of the global fee payer", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const console = yield* consoleOf(emulator)
      const from = yield* WalletClient.createAccount()
      yield* console.fund(ChainId.Testnet, from.address, 10n ** 18n)
      const sent = yield* WalletClient.transferValue({ from: from.address, to: address, value: 7n, feePayer: FeeDelegation.global }).pipe(
        Effect.filterOrDieMessage(Transaction.isSigned, "the emulator signs at once")
      )
      const [block] = yield* console.mine(ChainId.Testnet)
      expect(block).toMatchObject({ chainId: 1001, transactions: [sent.transactionHash] })
      expect((yield* WalletClient.getTransactionReceipt(sent.transactionHash)).status).toBe("Committed")
      const both = yield* console.mine(undefined, 2)
      expect(both.map((b) => [b.chainId, b.transactions.length])).toEqual([[8217, 0], [8217, 0], [1001, 0], [1001, 0]])

      const bills = yield* console.feeBills({ accountId: emulator.member.accountId })
      expect(bills).toEqual(yield* emulator.feeBills({ accountId: emulator.member.accountId }))
      expect(bills).toMatchObject([{ chainId: 1001, feePayer: emulator.globalFeePayer(1001), transactions: 1 }])
      expect(bills[0]!.fees).toBeGreaterThan(0n)
      expect(yield* console.feeBills({ chainId: ChainId.Mainnet })).toEqual([])
    }))

  it.effect("refusals are typed, with the emulator's code and message, and never hold the key", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const console = yield* consoleOf(emulator)
      const badAddress = yield* Effect.flip(console.fund(ChainId.Testnet, "0x12", 1n))
      expect(badAddress).toMatchObject({ _tag: "ConsoleClientError", reason: "InvalidInput", status: 400, code: 1061609 })
      const unknownMember = yield* Effect.flip(console.feeBills({ accountId: "nobody" }))
      expect(unknownMember).toMatchObject({ reason: "InvalidInput", status: 400, code: 1061010 })

      const secret = "not-the-secret-of-this-member"
      const wrong = yield* consoleOf(emulator, Redacted.make(secret))
      const refused = yield* Effect.flip(wrong.fund(ChainId.Testnet, unfunded, 1n))
      expect(refused).toMatchObject({ reason: "Unauthorized", status: 401 })
      expect(refused.message).toContain(emulator.url)
      const basic = Buffer.from(`${emulator.member.accessKeyId}:${secret}`).toString("base64")
      for (const shown of [inspect(refused, { depth: 10 }), JSON.stringify(refused), String(refused), refused.message]) {
        expect(shown).not.toContain(secret)
        expect(shown).not.toContain(basic)
      }
      // Nothing was credited.
      expect((yield* emulator.balance(ChainId.Testnet, unfunded)).balance).toBe(0n)
    }))

  it.effect("snapshot and revert the whole emulator; a revert of a reverted id and a time backwards are InvalidInput, nothing changed", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const console = yield* consoleOf(emulator)
      const holder = "0x1111111111111111111111111111111111111111"
      yield* console.fund(ChainId.Testnet, holder, 5n)
      const id = yield* console.snapshot
      expect(id).toMatch(/^0x[0-9a-f]+$/)
      const account = yield* WalletClient.createAccount()
      yield* console.fund(ChainId.Testnet, holder, 7n)
      expect((yield* console.balance(ChainId.Testnet, holder)).balance).toBe(12n)

      yield* console.revert(id)
      expect((yield* console.balance(ChainId.Testnet, holder)).balance).toBe(5n)
      const gone = yield* Effect.flip(WalletClient.getAccount(account.address))
      expect(gone._tag).toBe("AccountNotFound")
      const again = yield* Effect.flip(console.revert(id))
      expect(again).toMatchObject({ reason: "InvalidInput", status: 400 })
      expect(again.message).toContain(id)

      const now = Math.floor(Date.now() / 1000)
      yield* console.setNextBlockTime(now + 3600)
      const from = yield* WalletClient.createAccount()
      yield* console.fund(ChainId.Testnet, from.address, 10n ** 18n)
      yield* WalletClient.transferValue({ from: from.address, to: holder, value: 1n })
      const [block] = yield* console.mine(ChainId.Testnet)
      expect(block!.blockTimeMs).toBe((now + 3600) * 1000)
      const backwards = yield* Effect.flip(console.setNextBlockTime(now))
      expect(backwards).toMatchObject({ reason: "InvalidInput", status: 400 })
    }))

  it.effect("a mine the mining mode does not take is InvalidInput (interval mining)", () =>
    Effect.gen(function*() {
      const interval = yield* Emulator.make({ mining: "interval" })
      const refused = yield* Effect.flip((yield* consoleOf(interval)).mine(ChainId.Testnet))
      expect(refused).toMatchObject({ reason: "InvalidInput", status: 400, code: 1061615 })
    }).pipe(Effect.scoped))
})

describe("the console client's failures", () => {
  it.effect("an emulator that is not there: Transport, naming the URL", () =>
    Effect.gen(function*() {
      // A port that was free a moment ago and is closed now.
      const url = yield* Effect.map(Effect.scoped(Emulator.make()), (e) => e.url)
      const console = yield* ConsoleClient.make({ url, credentials: { authorization: Redacted.make("Basic c2VjcmV0") } }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      const failed = yield* Effect.flip(console.balance(ChainId.Testnet, address))
      expect(failed).toMatchObject({ reason: "Transport" })
      expect(failed.message).toContain(url)
      expect(inspect(failed, { depth: 10 })).not.toContain("c2VjcmV0")
    }))

  it.effect("a server without the console: NoConsole; a 5xx: Server; a 200 of another shape: Decode", () =>
    Effect.gen(function*() {
      expect(yield* Effect.flip((yield* fake(404, "not found")).balance(ChainId.Testnet, address))).toMatchObject({ reason: "NoConsole", status: 404 })
      expect(yield* Effect.flip((yield* fake(503, `{"code":1,"message":"down"}`)).balance(ChainId.Testnet, address))).toMatchObject({
        reason: "Server",
        status: 503,
        code: 1,
        message: "down"
      })
      expect(yield* Effect.flip((yield* fake(200, "<html>")).balance(ChainId.Testnet, address))).toMatchObject({ reason: "Decode" })
      const shape = yield* Effect.flip((yield* fake(200, `{"chainId":1001,"address":"${address}","balance":"-1","nonce":0}`)).balance(1001, address))
      expect(shape).toMatchObject({ reason: "Decode" })
      expect(shape.message).toContain("balance")
    }))

  it.effect("options and settings: a URL that is not http(s), KAS_WALLET_URL missing, each an InvalidArgument naming it", () =>
    Effect.gen(function*() {
      const notHttp = yield* Effect.flip(
        ConsoleClient.make({ url: "ftp://127.0.0.1", credentials: { authorization: Redacted.make("Basic c2VjcmV0") } }).pipe(
          Effect.provide(answering(200, "{}"))
        )
      )
      expect(notHttp).toMatchObject({ _tag: "InvalidArgument", argument: "url" })

      const settings = new Map([["KAS_ACCESS_KEY_ID", "KASKEXAMPLE"], ["KAS_SECRET_ACCESS_KEY", "s3cret"], ["KAS_CHAIN_ID", "1001"]])
      const fromSettings = (entries: Map<string, string>) =>
        Effect.either(Layer.build(ConsoleClient.layerConfig()).pipe(
          Effect.scoped,
          Effect.provide(answering(200, "{}")),
          Effect.withConfigProvider(ConfigProvider.fromMap(entries))
        ))
      const missing = yield* fromSettings(settings)
      expect(Either.isLeft(missing) && missing.left).toMatchObject({ _tag: "InvalidArgument", argument: "KAS_WALLET_URL" })
      const given = yield* fromSettings(new Map([...settings, ["KAS_WALLET_URL", "http://127.0.0.1:8787/"]]))
      expect(Either.isRight(given)).toBe(true)
    }))
})
