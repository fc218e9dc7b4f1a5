/**
 * The pending pool and manual mining (issue 19): in manual mode a transaction accepted waits in the
 * pool, checked against the state plus the pool (nonces continue after the pending ones, funds are
 * reserved), until `mine` makes a block of every pending transaction in acceptance order. A pending
 * transaction can be replaced by nonce; the same signed bytes sent again are refused without
 * changing anything. Ledger-level (the ledger service over an in-memory database), then the client's
 * awaitReceipt over loopback HTTP, returning exactly when a block is mined.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either, Fiber, Layer, Option, Schedule, Schema, TestClock } from "effect"
import { type Address, type Amount, type ChainId, FeeDelegation, Transaction, WalletClient } from "effect-kas-wallet"
import * as Ledger from "../src/chain/Ledger.js"
import type * as Requests from "../src/chain/Requests.js"
import * as EmulatorConsole from "../src/console/EmulatorConsole.js"
import * as Emulator from "../src/Emulator.js"
import * as Database from "../src/store/Database.js"
import * as KeyVault from "../src/store/KeyVault.js"
import * as LedgerStore from "../src/store/LedgerStore.js"
import * as MultisigStore from "../src/store/MultisigStore.js"
import * as Store from "../src/store/Store.js"
import * as Accounts from "../src/services/Accounts.js"
import * as Cursors from "../src/services/Cursors.js"
import { wallet } from "./e2e/support.js"
import { memberTx } from "./_ledger.js"
import { clientLayer } from "./_support.js"
import { untilSleeping, withClockMoving } from "../../../test/support/clock.js"

const KLAY = 10n ** 18n
const GasPrice = 25_000_000_000n
// The most a default transfer may cost in fees: its gas limit (1000000) at the gas price.
const MaxFee = 1_000_000n * GasPrice
const recipient = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa" as Address.Address

// The emulator's services without its HTTP server: what Emulator.make builds, in manual mode.
const services = Layer.mergeAll(EmulatorConsole.layer, Accounts.layer, Ledger.layer({ mining: "manual" })).pipe(
  Layer.provideMerge(Cursors.layer),
  Layer.provideMerge(KeyVault.layer({})),
  Layer.provideMerge(Layer.mergeAll(Store.layer, LedgerStore.layer, MultisigStore.layer)),
  Layer.provideMerge(Database.layer({ database: ":memory:" })),
  Layer.orDie
)

// A member with pools on 1001, and a way to make funded accounts and fee payers.
const setUp = Effect.gen(function*() {
  const console = yield* EmulatorConsole.Console
  const w = yield* Accounts.Accounts
  const member = yield* console.createMember()
  const key = yield* console.createKey(member.accountId)
  const caller = Option.getOrThrow(yield* w.authenticate(key.accessKeyId, key.secretAccessKey))
  const pool = yield* w.selectPool(caller, 1001 as ChainId.ChainId, Option.none(), "account")
  const feePayers = yield* w.selectPool(caller, 1001 as ChainId.ChainId, Option.none(), "feePayer")
  const account = (p: Accounts.SelectedPool, funds: bigint) =>
    Effect.gen(function*() {
      const address = (JSON.parse(yield* w.createAccount(p)) as { address: Address.Address }).address
      if (funds > 0n) yield* console.fund(1001, address, funds)
      return address
    })
  return {
    pool,
    recipient: yield* account(pool, 0n),
    sender: (funds: bigint) => account(pool, funds),
    feePayer: (funds: bigint) => account(feePayers, funds)
  }
}).pipe(Effect.orDie)

const hexOf = (n: number) => `0x${n.toString(16)}`

type Setup = Effect.Effect.Success<typeof setUp>

const transfer = (s: Setup, from: Address.Address, value: bigint, extra: Partial<Requests.SendRequest> = {}) =>
  Effect.flatMap(Ledger.Ledger, (ledger) =>
    ledger.send({
      kind: "value",
      pool: s.pool,
      from,
      to: s.recipient,
      value: value as Amount.Peb,
      memo: undefined,
      nonce: undefined,
      gas: undefined,
      submit: true,
      payer: { _tag: "Sender" },
      ...extra
    } as Requests.SendRequest)).pipe(
      Effect.map((result) => Schema.encodeSync(Transaction.TransactionResult)(result) as { transactionHash: string; nonce: string | number })
    )

// A refusal's message, or a failure of the test.
const refusal = <A, E extends { readonly message: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.either(effect), (e) => (Either.isLeft(e) ? e.left.message : `accepted: ${JSON.stringify(e.right)}`))

const state = (address: string) =>
  Effect.flatMap(EmulatorConsole.Console, (c) => c.balance(1001, address)).pipe(Effect.map(({ balance, nonce }) => ({ balance, nonce })))

const receiptOf = (hash: string) =>
  Effect.flatMap(Ledger.Ledger, (l) => l.receipt(1001, hash)).pipe(
    Effect.map((receipt) => Schema.encodeSync(Transaction.TransactionReceipt)(receipt) as Record<string, unknown>)
  )

layer(services)("pending pool and manual mining (ledger)", (it) => {
  it.effect("pending until mined: nonces continue after the pool, nothing applied before the block, then one block in acceptance order", () =>
    Effect.gen(function*() {
      const s = yield* setUp
      const ledger = yield* Ledger.Ledger
      const from = yield* s.sender(10n * KLAY)
      const sent = yield* Effect.forEach([1n, 2n, 3n], (v) => transfer(s, from, v))
      expect(sent.map((r) => Number(r.nonce))).toEqual([0, 1, 2])
      // Accepted, not applied: the state is untouched, the receipts Pending, the lookup sees them.
      expect(yield* state(from)).toEqual({ balance: 10n * KLAY, nonce: 0 })
      expect((yield* receiptOf(sent[0]!.transactionHash)).status).toBe("Pending")
      expect(Option.map(yield* ledger.lookup(1001, sent[1]!.transactionHash.toUpperCase().replace("0X", "0x")), (k) => [k.status, k.nonce]))
        .toEqual(Option.some(["pending", 1]))
      expect((yield* ledger.pendingBySender(1001, from)).map((k) => k.nonce)).toEqual([0, 1, 2])
      // The next nonce is after the pool's; a pending one is taken, a gap is too high.
      expect(yield* refusal(transfer(s, from, 1n, { nonce: 1 }))).toContain("there is another tx which has the same nonce in the tx pool")
      expect(yield* refusal(transfer(s, from, 1n, { nonce: 4 }))).toContain("nonce too high")

      const [block, empty] = yield* ledger.mine(1001, 2)
      expect(block!.transactions).toEqual(sent.map((r) => r.transactionHash))
      expect(empty!.transactions).toEqual([])
      expect(empty!.blockNumber).toBe(block!.blockNumber + 1)
      for (const [i, r] of sent.entries()) {
        expect(yield* receiptOf(r.transactionHash)).toMatchObject({ status: "Committed", blockNumber: hexOf(block!.blockNumber), transactionIndex: hexOf(i) })
      }
      const fee = 21_000n * GasPrice
      expect(yield* state(from)).toEqual({ balance: 10n * KLAY - 6n - 3n * fee, nonce: 3 })
      expect(yield* ledger.pendingBySender(1001, from)).toEqual([])
      expect(Option.map(yield* ledger.lookup(1001, sent[2]!.transactionHash), (k) => k.status)).toEqual(Option.some("committed"))
      expect(Number((yield* transfer(s, from, 1n)).nonce)).toBe(3)
      yield* ledger.mine(1001, 1)
    }))

  it.effect("funds are reserved: two pending transfers (or two fee-delegated ones of one fee payer) cannot spend more than is held", () =>
    Effect.gen(function*() {
      const s = yield* setUp
      const ledger = yield* Ledger.Ledger
      const value = KLAY / 2n
      // Enough for one transfer's value and most fee, and one peb short of two.
      const from = yield* s.sender(2n * (value + MaxFee) - 1n)
      yield* transfer(s, from, value)
      expect(yield* refusal(transfer(s, from, value))).toContain("insufficient funds of the sender")
      // A fee payer holding one fee limit pays for one pending transaction only.
      const payer = yield* s.feePayer(MaxFee)
      const a = yield* s.sender(KLAY)
      const b = yield* s.sender(KLAY)
      const user = { _tag: "User", address: payer, feeRatio: 0, pool: undefined } as const
      yield* transfer(s, a, 1n, { payer: user })
      expect(yield* refusal(transfer(s, b, 1n, { payer: user }))).toContain("insufficient funds of the fee payer")
      const before = (yield* state(from)).balance + (yield* state(payer)).balance + (yield* state(a)).balance + (yield* state(s.recipient)).balance
      const [block] = yield* ledger.mine(1001, 1)
      expect(block!.transactions.length).toBe(2)
      // Conserved: what left the senders and the fee payer is the value received plus the fees.
      const after = (yield* state(from)).balance + (yield* state(payer)).balance + (yield* state(a)).balance + (yield* state(s.recipient)).balance
      expect(before - after).toBe((21_000n + 31_000n) * GasPrice)
      expect((yield* state(payer)).balance).toBe(MaxFee - 31_000n * GasPrice)
    }))

  it.effect("a pending transaction is replaced by nonce (its place in the block kept); a committed nonce is too low; resubmission is refused and changes nothing", () =>
    Effect.gen(function*() {
      const s = yield* setUp
      const ledger = yield* Ledger.Ledger
      const from = yield* s.sender(KLAY)
      const first = yield* transfer(s, from, 100n, { nonce: 0, replace: true })
      const second = yield* transfer(s, from, 200n)
      // The same request signs the same bytes: already known while pending, and nothing changes.
      expect(yield* refusal(transfer(s, from, 100n, { nonce: 0, replace: true }))).toContain("already known")
      expect(yield* refusal(transfer(s, from, 200n, { nonce: 1 }))).toContain("already known")
      expect((yield* ledger.pendingBySender(1001, from)).map((k) => k.hash)).toEqual([first.transactionHash, second.transactionHash])

      // Replacing nonce 0 (as a cancel will): the first leaves the pool, its hash is unknown.
      const replacement = yield* transfer(s, from, 7n, { nonce: 0, replace: true })
      expect(replacement.transactionHash).not.toBe(first.transactionHash)
      expect(yield* ledger.lookup(1001, first.transactionHash)).toEqual(Option.none())
      expect(yield* refusal(receiptOf(first.transactionHash))).toBe("failed to retrieve a transaction from klaytn node")
      const [block] = yield* ledger.mine(1001, 1)
      // The replacement runs in the place of what it replaced: before nonce 1.
      expect(block!.transactions).toEqual([replacement.transactionHash, second.transactionHash])
      expect(yield* state(from)).toEqual({ balance: KLAY - 207n - 2n * 21_000n * GasPrice, nonce: 2 })

      // Committed now: the same bytes again are a nonce too low, and so is replacing that nonce.
      const committed = yield* state(from)
      expect(yield* refusal(transfer(s, from, 200n, { nonce: 1 }))).toContain("nonce too low")
      expect(yield* refusal(transfer(s, from, 1n, { nonce: 0, replace: true }))).toContain("nonce too low")
      expect(yield* state(from)).toEqual(committed)
      expect(yield* ledger.pendingBySender(1001, from)).toEqual([])
    }))
})

// The same services in another mining mode, fresh for each test.
const servicesIn = (mining: "instant" | "interval") =>
  Layer.mergeAll(EmulatorConsole.layer, Accounts.layer, Ledger.layer({ mining })).pipe(
    Layer.provideMerge(Cursors.layer),
    Layer.provideMerge(KeyVault.layer({})),
    Layer.provideMerge(Layer.mergeAll(Store.layer, LedgerStore.layer, MultisigStore.layer)),
    Layer.provideMerge(Database.layer({ database: ":memory:" })),
    Layer.orDie
  )

const valueSend = (s: Setup, from: Address.Address, value: bigint, nonce?: number, replace?: boolean) =>
  Effect.map(transfer(s, from, value, { nonce, ...(replace === true ? { replace } : {}) }), (r) => r.transactionHash)

const statusOf = (hash: string) => Effect.flatMap(Ledger.Ledger, (l) => Effect.map(l.lookup(1001, hash), Option.map((k) => k.status)))

describe("interval and instant mining (ledger)", () => {
  it.effect("interval mode: mine is refused; a transaction waits in the pool until its block's time, then is applied", () =>
    Effect.gen(function*() {
      const s = yield* setUp
      const interval = yield* Ledger.Ledger
      expect(interval.mining).toBe("interval")
      expect(yield* refusal(interval.mine(1001, 1))).toContain("interval mining")
      const from = yield* s.sender(KLAY)
      const sent = yield* valueSend(s, from, 5n)
      expect(yield* state(from)).toEqual({ balance: KLAY, nonce: 0 })
      expect(yield* statusOf(sent)).toEqual(Option.some("pending"))
      // The block a second after the chain's first transaction.
      yield* TestClock.adjust(999)
      expect(yield* statusOf(sent)).toEqual(Option.some("pending"))
      yield* TestClock.adjust(1)
      expect(yield* statusOf(sent)).toEqual(Option.some("committed"))
      expect(yield* state(from)).toEqual({ balance: KLAY - 5n - 21_000n * GasPrice, nonce: 1 })
    }).pipe(Effect.provide(servicesIn("interval"))))

  it.effect("interval mode: a replacement of a pending nonce takes its place; the one it replaced never applies", () =>
    Effect.gen(function*() {
      const s = yield* setUp
      const from = yield* s.sender(KLAY)
      const first = yield* valueSend(s, from, 5n)
      const second = yield* valueSend(s, from, 6n, 0, true)
      expect(yield* statusOf(first)).toEqual(Option.none())
      yield* TestClock.adjust("1 second")
      expect(yield* statusOf(second)).toEqual(Option.some("committed"))
      expect(yield* statusOf(first)).toEqual(Option.none())
      expect(yield* state(from)).toEqual({ balance: KLAY - 6n - 21_000n * GasPrice, nonce: 1 })
    }).pipe(Effect.provide(servicesIn("interval"))))

  it.effect("instant mode: mine is refused; a transaction is in a block of its own when send answers", () =>
    Effect.gen(function*() {
      const s = yield* setUp
      const instant = yield* Ledger.Ledger
      expect(yield* refusal(instant.mine(1001, 1))).toContain("instant mining")
      const from = yield* s.sender(KLAY)
      const a = yield* valueSend(s, from, 5n)
      const b = yield* valueSend(s, from, 6n)
      // No time passes: each is committed, in consecutive blocks.
      const [ra, rb] = [yield* receiptOf(a), yield* receiptOf(b)]
      expect([ra.status, ra.blockNumber, rb.status, rb.blockNumber]).toEqual(["Committed", "0x1", "Committed", "0x2"])
      expect(yield* state(from)).toEqual({ balance: KLAY - 11n - 2n * 21_000n * GasPrice, nonce: 2 })
      // The console's mine says why, and nothing changes.
      expect(yield* refusal(instant.mine(1001, 1))).toContain("instant mining")
      expect((yield* receiptOf(b)).blockNumber).toBe("0x2")
    }).pipe(Effect.provide(servicesIn("instant"))))
})

describe("manual mining through the client", () => {
  layer(Layer.merge(wallet({ mining: "manual" }), clientLayer))((it) => {
    it.effect("awaitReceipt returns exactly when a block is mined; the console route mines; a bad body is a 400", () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator.Emulator
        expect(emulator.mining).toBe("manual")
        const from = yield* WalletClient.createAccount()
        yield* emulator.fund(1001, from.address, KLAY)
        const sent = yield* WalletClient.transferValue({ from: from.address, to: recipient, value: 7n, feePayer: FeeDelegation.global }).pipe(
          Effect.filterOrDieMessage(Transaction.isSigned, "the emulator signs at once")
        )
        const waiting = yield* Effect.fork(WalletClient.awaitReceipt(sent.transactionHash, { schedule: Schedule.spaced("1 second"), timeout: "1 hour" }))
        // Blocks wait for mine, not for the clock: three seconds of polls (real requests) see Pending,
        // where an interval emulator would have committed it within a second.
        yield* withClockMoving(Effect.sleep("3 seconds"))
        expect(Option.isNone(yield* Fiber.poll(waiting))).toBe(true)
        expect((yield* WalletClient.getTransactionReceipt(sent.transactionHash)).status).toBe("Pending")

        // Mined while the poll waits on its schedule (not in the middle of a request).
        yield* untilSleeping("1 second")
        const [block] = yield* emulator.mine(1001)
        expect(block!.transactions).toEqual([sent.transactionHash])
        // The next poll, within a second, finds it committed: the clock moves by that second only,
        // then either the fiber ends or it waits on its schedule again.
        yield* TestClock.adjust("1 second")
        yield* untilSleeping("1 second", Effect.map(Fiber.poll(waiting), Option.isSome))
        expect(Option.isSome(yield* Fiber.poll(waiting)), "the first poll after the block ended the wait").toBe(true)
        const committed = yield* Fiber.join(waiting)
        expect([committed.status, committed.blockNumber]).toEqual(["Committed", block!.blockNumber])

        // The console route (what `kas-wallet emulator mine --url` calls), and its refusals.
        const tx = memberTx(emulator)
        const mined = yield* tx.post("/_emulator/mine", { blocks: 2 })
        expect(mined.status, mined.text).toBe(200)
        expect((mined.body as ReadonlyArray<{ blockNumber: number }>).map((b) => b.blockNumber)).toEqual([block!.blockNumber + 1, block!.blockNumber + 2])
        for (const bad of [{ blocks: 0 }, { blocks: 1.5 }, { blocks: "2" }, { other: 1 }, [], "{"]) {
          const reply = yield* tx.post("/_emulator/mine", bad)
          expect([reply.status, (reply.body as { code: number }).code], JSON.stringify(bad)).toEqual([400, 1061615])
        }
      }))
  })
})
