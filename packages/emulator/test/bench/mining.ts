/**
 * Mining modes and snapshots, measured in process against issue 34's targets:
 *
 * - 50 fee-delegated transfers (`FeeDelegation.global`) sent and awaited through the client
 *   (`transferValue` then `awaitReceipt`, its default polling), side by side in `instant` mode and
 *   in `interval` mode with 1-second blocks: each awaited before the next, and all 50 sent then
 *   awaited together.
 * - `revert` of a snapshot holding 1,000 accounts and 1,000 transactions (instant mode, an
 *   ephemeral database): snapshot, one more transfer, revert; the revert's wall time.
 *
 * Run alone: `node --import tsx packages/emulator/test/bench/mining.ts`, or `npm run bench` in
 * packages/emulator.
 */
import { Effect, Layer } from "effect"
import { FeeDelegation, Transaction, WalletClient } from "effect-kas-wallet"
import { fileURLToPath } from "node:url"
import * as Emulator from "../../src/Emulator.js"
import { clientOf } from "../e2e/support.js"

const KLAY = 10n ** 18n
const OUTSIDER = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const range = (xs: ReadonlyArray<number>, digits: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return `${sorted[0]!.toFixed(digits)}–${sorted[sorted.length - 1]!.toFixed(digits)}`
}

// An emulator and a client on it, for the length of `body`.
const withWallet = <A>(options: Parameters<typeof Emulator.make>[0], body: Effect.Effect<A, unknown, Emulator.Emulator | WalletClient.WalletClient>) =>
  Effect.runPromise(Effect.scoped(Effect.provide(body, clientOf().pipe(Layer.provideMerge(Emulator.layer({ port: 0, ...options })), Layer.orDie))))

const hashOf = (r: Transaction.TransactionResult) => (Transaction.isSigned(r) ? r.transactionHash : "")

// 50 fee-delegated transfers: each awaited before the next (`sequential`), or all sent then all
// awaited (`batch`). Wall milliseconds, from the first send to the last receipt.
const transfers = (mining: "instant" | "interval", sequential: boolean) =>
  withWallet({ mining, blockInterval: "1 second" }, Effect.gen(function*() {
    const emulator = yield* Emulator.Emulator
    const from = yield* WalletClient.createAccount()
    yield* emulator.fund(1001, from.address, KLAY)
    const send = WalletClient.transferValue({ from: from.address, to: OUTSIDER as any, value: 1n, feePayer: FeeDelegation.global })
    const started = performance.now()
    if (sequential) {
      for (let i = 0; i < 50; i++) {
        const sent = yield* send
        const receipt = yield* WalletClient.awaitReceipt(hashOf(sent))
        if (receipt.status !== "Committed") throw new Error(`transfer ${i}: ${receipt.status}`)
      }
    } else {
      const sent = yield* Effect.forEach(Array.from({ length: 50 }), () => send)
      const receipts = yield* Effect.forEach(sent, (r) => WalletClient.awaitReceipt(hashOf(r)), { concurrency: "unbounded" })
      if (receipts.some((r) => r.status !== "Committed")) throw new Error("a transfer did not commit")
    }
    return performance.now() - started
  }))

// The revert of a snapshot holding `accounts` accounts and `transactions` transactions, `rounds`
// times (snapshot, one more transfer, revert): the reverts' wall milliseconds.
const reverts = (accounts: number, transactions: number, rounds: number) =>
  withWallet({ mining: "instant" }, Effect.gen(function*() {
    const emulator = yield* Emulator.Emulator
    const created = yield* Effect.forEach(Array.from({ length: accounts }), () => WalletClient.createAccount(), { concurrency: 8 })
    const senders = created.slice(0, 10)
    for (const s of senders) yield* emulator.fund(1001, s.address, KLAY)
    yield* Effect.forEach(
      Array.from({ length: transactions }, (_, i) => senders[i % senders.length]!),
      (s) => WalletClient.transferValue({ from: s.address, to: OUTSIDER as any, value: 1n }),
      { concurrency: senders.length }
    )
    const times: Array<number> = []
    for (let i = 0; i < rounds; i++) {
      const id = yield* emulator.snapshot
      yield* WalletClient.transferValue({ from: senders[0]!.address, to: OUTSIDER as any, value: 1n })
      const started = performance.now()
      yield* emulator.revert(id)
      times.push(performance.now() - started)
    }
    const nonce = (yield* emulator.balance(1001, senders[0]!.address)).nonce
    if (nonce !== transactions / senders.length) throw new Error(`reverted to nonce ${nonce}`)
    return times
  }))

/**
 * The bench's section of docs/benchmarks.md.
 *
 * @since 0.12.0
 */
export const run = async (): Promise<ReadonlyArray<string>> => {
  const rows: Array<[string, Array<number>]> = [
    ["instant, each awaited", []],
    ["instant, 50 sent then awaited", []],
    ["interval 1 s, 50 sent then awaited", []],
    ["interval 1 s, each awaited (first 5, × 10)", []]
  ]
  for (let round = 0; round < 3; round++) {
    // Interleaved: each round measures every case once.
    rows[0]![1].push(await transfers("instant", true))
    rows[1]![1].push(await transfers("instant", false))
    rows[2]![1].push(await transfers("interval", false))
  }
  // Each awaited with 1-second blocks is about a second per transfer: measured on 5, times 10.
  rows[3]![1].push(
    await withWallet({ mining: "interval", blockInterval: "1 second" }, Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const from = yield* WalletClient.createAccount()
      yield* emulator.fund(1001, from.address, KLAY)
      const started = performance.now()
      for (let i = 0; i < 5; i++) {
        const sent = yield* WalletClient.transferValue({ from: from.address, to: OUTSIDER as any, value: 1n, feePayer: FeeDelegation.global })
        yield* WalletClient.awaitReceipt(hashOf(sent))
      }
      return (performance.now() - started) * 10
    }))
  )
  const base = median(rows[0]![1])
  const revertTimes = await reverts(1000, 1000, 20)
  return [
    "## Mining modes and snapshots (emulator, in process)",
    "",
    "50 fee-delegated transfers (global fee payer) through the client, `transferValue` then `awaitReceipt` with its",
    "default polling; 3 interleaved rounds (target: instant, each awaited, at most 1 s).",
    "",
    "| case | wall (ms), median | range | ratio to instant, each awaited |",
    "|---|---|---|---|",
    ...rows.map(([name, xs]) => `| ${name} | ${median(xs).toFixed(0)} | ${range(xs, 0)} | ${(median(xs) / base).toFixed(1)}x |`),
    "",
    `Revert of a snapshot holding 1,000 accounts and 1,000 transactions (instant mode, ephemeral database), 20 rounds:`,
    `median ${median(revertTimes).toFixed(1)} ms, range ${range(revertTimes, 1)} ms (target: at most 50 ms).`
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  run().then((lines) => console.log(lines.join("\n")), (e) => {
    console.error(e)
    process.exit(1)
  })
}
