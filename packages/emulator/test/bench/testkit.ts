/**
 * A user's test, timed as a user's test runner would see it: build the layer, create 2 accounts,
 * fund the first, 20 transfers from it each awaited, close the layer. Side by side in one run:
 *
 * - the test kit (`EmulatorTest.layer()`, its defaults);
 * - the emulator as the README wired it before the kit (`Emulator.layer` and a `WalletClient`,
 *   1-second interval mining, `awaitReceipt`'s default schedule), under the live clock;
 * - a running anvil (automine): 2 of its dev accounts, `anvil_setBalance`, `eth_sendTransaction`
 *   and `eth_getTransactionReceipt` polled every 10 ms until it is there, over `fetch` with no
 *   client library (anvil's best case). Anvil is started once, before the runs: the test uses a
 *   node that is already there.
 *
 * Modules are loaded and each candidate run once before the timed runs. Run alone:
 * `node --import tsx packages/emulator/test/bench/testkit.ts` (`KAS_BENCH_RUNS`, default 5;
 * `KAS_BENCH_INTERVAL_RUNS`, default 3: the interval emulator's take 20 s each).
 */
import { Effect, type Layer } from "effect"
import { ChainId, Transaction, WalletClient } from "effect-kas-wallet"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Emulator from "../../src/Emulator.js"
import * as EmulatorTest from "../../src/EmulatorTest.js"
import { wallet } from "../e2e/support.js"
import * as Anvil from "./anvil.js"

const TRANSFERS = 20
const RUNS = Number(process.env.KAS_BENCH_RUNS ?? 5)
const INTERVAL_RUNS = Number(process.env.KAS_BENCH_INTERVAL_RUNS ?? 3)

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const range = (xs: ReadonlyArray<number>, digits = 0) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return `${sorted[0]!.toFixed(digits)}–${sorted[sorted.length - 1]!.toFixed(digits)}`
}

/** The user's test, as written against the kit and against the emulator before it. */
const userTest = Effect.gen(function*() {
  const emulator = yield* Emulator.Emulator
  const alice = yield* WalletClient.createAccount()
  const bob = yield* WalletClient.createAccount()
  yield* emulator.fund(ChainId.Testnet, alice.address, 10n ** 18n)
  for (let i = 0; i < TRANSFERS; i++) {
    const sent = yield* WalletClient.transferValue({ from: alice.address, to: bob.address, value: 1n }).pipe(
      Effect.filterOrDieMessage(Transaction.isSigned, "the emulator signs at once")
    )
    const receipt = yield* WalletClient.awaitReceipt(sent.transactionHash)
    if (receipt.status !== "Committed") throw new Error(`transfer ${i}: ${receipt.status}`)
  }
})

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

/** Wall time of `run`; its process CPU (the emulator's and the client's, every thread) into `cpu`. */
const wall = async (run: () => Promise<unknown>, cpu?: Array<number>) => {
  const started = performance.now()
  const used = process.cpuUsage()
  await run()
  const ms = performance.now() - started
  cpu?.push(cpuMs(used))
  return ms
}

const onEmulator = (layer: Layer.Layer<Emulator.Emulator | WalletClient.WalletClient, unknown>) => (cpu?: Array<number>) =>
  wall(() => Effect.runPromise(Effect.provide(userTest, layer)), cpu)

const kit = onEmulator(EmulatorTest.layer())
const before = onEmulator(wallet())

const onAnvil = (anvil: Anvil.Anvil) => () =>
  wall(async () => {
    const [alice, bob] = (await anvil.rpc("eth_accounts")) as Array<string>
    await anvil.rpc("anvil_setBalance", [alice, "0xde0b6b3a7640000"])
    for (let i = 0; i < TRANSFERS; i++) {
      const hash = await anvil.rpc("eth_sendTransaction", [{ from: alice, to: bob, value: "0x1" }])
      while ((await anvil.rpc("eth_getTransactionReceipt", [hash])) === null) await new Promise((r) => setTimeout(r, 10))
    }
  })

/**
 * @since 0.12.0
 */
export const run = async (): Promise<Array<string>> => {
  const binary = Anvil.find()
  const anvil = binary !== undefined ? await Anvil.start(binary) : undefined
  const version = anvil !== undefined ? String(await anvil.rpc("web3_clientVersion")) : ""
  const load = os.loadavg()[0]!
  const kits: Array<number> = []
  const anvils: Array<number> = []
  const befores: Array<number> = []
  const kitCpu: Array<number> = []
  try {
    await kit()
    if (anvil !== undefined) await onAnvil(anvil)()
    for (let i = 0; i < RUNS; i++) {
      kits.push(await kit(kitCpu))
      if (anvil !== undefined) anvils.push(await onAnvil(anvil)())
      if (i < INTERVAL_RUNS) befores.push(await before())
    }
  } finally {
    await anvil?.stop()
  }
  const ratios = anvils.map((a, i) => kits[i]! / a)
  const slower = befores.map((b, i) => b / kits[i]!)
  const kitMs = median(kits)
  return [
    "## A user's test on the test kit (issue 34)",
    "",
    `Build the layer, create 2 accounts, fund the first, ${TRANSFERS} transfers from it each awaited with`,
    "`awaitReceipt`'s defaults, close the layer: wall time in one process, modules loaded and each",
    `candidate run once first; ${RUNS} interleaved runs (the interval emulator in the first ${INTERVAL_RUNS}), median and range,`,
    "ratios within each run. Anvil (automine) is started once before the runs and driven by plain",
    "JSON-RPC over `fetch` (its dev accounts, `anvil_setBalance`, `eth_sendTransaction`, the receipt",
    `polled every 10 ms): its best case. Load average at the start: ${load.toFixed(1)} on ${os.cpus().length} cores.`,
    "",
    "| candidate | wall ms | range | ratio |",
    "| --- | ---: | ---: | ---: |",
    `| the kit, \`EmulatorTest.layer()\` (instant mining) | ${kitMs.toFixed(0)} | ${range(kits)} | 1.00x |`,
    `| the kit's process CPU (client and emulator, every thread) | ${median(kitCpu).toFixed(0)} | ${range(kitCpu)} | |`,
    anvil !== undefined
      ? `| ${version}, running, automine | ${median(anvils).toFixed(0)} | ${range(anvils)} | kit / anvil ${median(ratios).toFixed(2)}x (${range(ratios, 2)}) |`
      : "| anvil | not measured: it could not be found or installed | | |",
    `| the emulator before the kit (1-second interval, the README's old layer) | ${median(befores).toFixed(0)} | ${range(befores)} | ${median(slower).toFixed(1)}x the kit's time |`,
    "",
    `Target: at most 500 ms on an idle machine: ${kitMs <= 500 ? "**met**" : "**not met**"} here (median ${kitMs.toFixed(0)} ms, best ${Math.min(...kits).toFixed(0)} ms,`,
    `at a load average of ${load.toFixed(1)}); the kit's client and emulator share one process, so its CPU (median ${median(kitCpu).toFixed(0)} ms) is what an idle`,
    "machine's wall time would be, give or take the waits of loopback I/O."
  ]
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log((await run()).join("\n"))
}
