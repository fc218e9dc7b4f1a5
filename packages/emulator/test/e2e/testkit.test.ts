/**
 * The test kit (`EmulatorTest`): one layer, a client on a private emulator, under `it.effect`
 * (the TestClock, which never moves unless the test moves it) and `it.live`, shared across a file
 * with `layer(...)`. Each test here would wait forever if anything of the kit's client or emulator
 * slept on the TestClock: a receipt awaited, retries' backoff,
 * a listing's pages fetched through faults, injected latency.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Chunk, Clock, Deferred, Effect, Either, Fiber, Option, Schedule, Stream, TestClock } from "effect"
import { ChainId, Transaction, WalletClient } from "effect-kas-wallet"
import * as Emulator from "../../src/Emulator.js"
import * as EmulatorTest from "../../src/EmulatorTest.js"

// A test that would hang fails within this, not at the suite's 60 s.
const Limit = 15_000

/**
 * Two accounts, the first funded, and a transfer awaited in manual mining: the receipt is read
 * Pending, the block made only then, so that the wait for the next poll is certain.
 */
const transferAwaited = Effect.gen(function*() {
  const emulator = yield* Emulator.Emulator
  const alice = yield* WalletClient.createAccount()
  const bob = yield* WalletClient.createAccount()
  yield* emulator.fund(ChainId.Testnet, alice.address, 10n ** 18n)
  const sent = yield* WalletClient.transferValue({ from: alice.address, to: bob.address, value: 5n }).pipe(
    Effect.filterOrDieMessage(Transaction.isSigned, "the emulator signs at once")
  )
  const polled = yield* Deferred.make<void>()
  const schedule = Schedule.spaced("10 millis").pipe(Schedule.tapInput(() => Deferred.succeed(polled, undefined)))
  const waiting = yield* Effect.fork(WalletClient.awaitReceipt(sent.transactionHash, { schedule }))
  yield* Deferred.await(polled) // read Pending: the next poll waits on the schedule's clock
  yield* emulator.mine(ChainId.Testnet)
  const receipt = yield* Fiber.join(waiting)
  expect(receipt.status).toBe("Committed")
  expect((yield* emulator.balance(ChainId.Testnet, bob.address)).balance).toBe(5n)
  return { alice, bob }
})

layer(EmulatorTest.layer({ mining: "manual" }))("the kit shared across a file", (it) => {
  it.effect("under it.effect: a receipt awaited, polled on the schedule", () => transferAwaited, Limit)

  it.effect("the test's own clock stays the TestClock; the emulator's is the live one", () =>
    Effect.gen(function*() {
      yield* TestClock.adjust("1 hour")
      expect(yield* Clock.currentTimeMillis).toBe(3_600_000)
      const before = Date.now()
      const account = yield* WalletClient.createAccount()
      expect(account.createdAt * 1000).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
      expect(account.createdAt * 1000).toBeLessThanOrEqual(Date.now())
    }), Limit)

  it.effect("a listing's stream and the emulator's in-process operations", () =>
    Effect.gen(function*() {
      const { alice, bob } = yield* transferAwaited
      const listed = Chunk.toReadonlyArray(yield* Stream.runCollect(WalletClient.accounts({ pageSize: 1 })))
      expect(listed.map((a) => a.address)).toEqual(expect.arrayContaining([alice.address, bob.address]))
      const emulator = yield* Emulator.Emulator
      expect((yield* emulator.listMembers).length).toBe(1)
      // Its plain values and functions answering plain values stay as they are.
      expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(emulator.globalFeePayer(1001)).toMatch(/^0x[0-9a-fA-F]{40}$/)
    }), Limit)
})

// Half the requests faulted (503s, 500s, injected latency): the client's retries back off on the
// clock, the emulator's latency sleeps on it.
layer(EmulatorTest.layer({
  faults: { rate: 0.5, seed: 7, kinds: ["500", "503", "latency"], latency: "20 millis" },
  client: { retry: { maxAttempts: 20, baseDelay: "5 millis", maxDelay: "20 millis" } }
}))("the kit with faults", (it) => {
  it.effect("retries and latency on the live clock, a listing paged through them", () =>
    Effect.gen(function*() {
      const created = yield* Effect.forEach([1, 2, 3, 4], () => WalletClient.createAccount().pipe(Effect.retry({ times: 20 })))
      const listed = Chunk.toReadonlyArray(yield* Stream.runCollect(WalletClient.accounts({ pageSize: 1 })))
      expect(listed.map((a) => a.address).sort()).toEqual(created.map((a) => a.address).sort())
      yield* Effect.forEach(created, (a) => WalletClient.getAccount(a.address))
    }), Limit)
})

// The defaults: instant mining, a block per transaction committed when the send answers.
layer(EmulatorTest.layer())("the kit's defaults", (it) => {
  it.effect("instant mining: 20 transfers, each receipt awaited with awaitReceipt's defaults", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      expect(emulator.mining).toBe("instant")
      const alice = yield* WalletClient.createAccount()
      const bob = yield* WalletClient.createAccount()
      yield* emulator.fund(ChainId.Testnet, alice.address, 10n ** 18n)
      for (let i = 0; i < 20; i++) {
        const sent = yield* WalletClient.transferValue({ from: alice.address, to: bob.address, value: 1n }).pipe(
          Effect.filterOrDieMessage(Transaction.isSigned, "the emulator signs at once")
        )
        expect((yield* WalletClient.awaitReceipt(sent.transactionHash)).status).toBe("Committed")
      }
      expect((yield* emulator.balance(ChainId.Testnet, bob.address)).balance).toBe(20n)
    }), Limit)

  it.effect("isolated: the test's changes are reverted when it ends, whatever its outcome", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const before = (yield* emulator.listMembers).length
      const created = yield* EmulatorTest.isolated(Effect.gen(function*() {
        yield* emulator.createMember()
        return yield* WalletClient.createAccount()
      }))
      expect((yield* emulator.listMembers).length).toBe(before)
      expect((yield* Effect.flip(WalletClient.getAccount(created.address)))._tag).toBe("AccountNotFound")

      const failed = yield* Effect.flip(EmulatorTest.isolated(Effect.zipRight(emulator.createMember(), Effect.fail("boom" as const))))
      expect(failed).toBe("boom")
      expect((yield* emulator.listMembers).length).toBe(before)
    }), Limit)
})

describe("onLiveClock", () => {
  it.effect("an Effect, an Effect answered, a Stream answered: each sleeps on the live clock; values stay values", () =>
    Effect.gen(function*() {
      const nap = Effect.as(Effect.sleep("5 millis"), "woke")
      const service = EmulatorTest.onLiveClock({
        nap,
        napOf: (s: string) => Effect.as(Effect.sleep("5 millis"), s),
        naps: (n: number) => Stream.repeatEffect(nap).pipe(Stream.take(n)),
        some: Option.some(1),
        none: () => Option.none<number>(),
        right: Either.right(2),
        name: "kit"
      })
      expect(yield* service.nap).toBe("woke")
      expect(yield* service.napOf("again")).toBe("again")
      expect(Chunk.toReadonlyArray(yield* Stream.runCollect(service.naps(3)))).toEqual(["woke", "woke", "woke"])
      expect(Option.isOption(service.some) && service.some).toEqual(Option.some(1))
      expect(service.none()).toEqual(Option.none())
      expect(Either.isEither(service.right)).toBe(true)
      expect(service.name).toBe("kit")
      // The caller's clock is still the TestClock.
      expect(yield* Clock.currentTimeMillis).toBe(0)
    }), Limit)
})

describe("the kit per test", () => {
  it.effect("provided to one it.effect", () =>
    transferAwaited.pipe(Effect.provide(EmulatorTest.layer({ mining: "manual" }))), Limit)

  it.live("provided to one it.live", () =>
    transferAwaited.pipe(Effect.provide(EmulatorTest.layer({ mining: "manual" }))), Limit)
})
