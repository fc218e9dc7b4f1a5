/**
 * The EVM's worker threads, on the ledger's side: a pool of at most `size` workers
 * (`EvmWorker`), each running one run at a time, so that a contract that loops never holds up
 * the event loop that answers every other request. A run is given the time its budgets leave; past
 * it, its worker is terminated (the EVM cannot be interrupted from inside) and a new one takes its
 * place when a run needs it. A run abandoned by its caller (an interrupted fiber: a client gone)
 * is stopped the same way.
 *
 * Workers start on demand, each loading the engine (~0.4 s, in its own thread), and stay for the
 * process once started; an idle worker does not keep the process alive. Pools are per size and
 * per process (emulators of one size share theirs), as the engine's import was before workers.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.11.0
 * @internal
 */
import { Effect } from "effect"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"
import type { Budget } from "./Budget.js"
import type { Account, Ran } from "./Engine.js"
import type { Message } from "./Messages.js"
import type { FromWorker, Read, ToWorker } from "./Protocol.js"

// The worker's entry beside this module: built (`.js`: the package, and the CLI's bundle, which
// emits it next to its chunks), or the source (`.ts`: tests, tsx). A worker's own entry is loaded
// before any loader its options name, so the source's worker is bundled first, once per process,
// by esbuild (a development dependency, as tsx is, present wherever the sources run): a bundled
// worker is ready in about 130 ms, where one registering tsx and transforming the engine's
// modules took 750–920 ms, and a worker is started again after each run stopped by its budget.
let sourceBundle: string | undefined
const entry = (): { readonly script: URL | string } => {
  const built = new URL("./EvmWorker.js", import.meta.url)
  if (built.protocol !== "file:" || existsSync(fileURLToPath(built))) return { script: built }
  if (sourceBundle === undefined) {
    const require = createRequire(import.meta.url)
    const esbuild = require("esbuild") as typeof import("esbuild")
    const dir = mkdtempSync(path.join(os.tmpdir(), "kas-evm-worker-"))
    const outfile = path.join(dir, "EvmWorker.mjs")
    esbuild.buildSync({
      entryPoints: [fileURLToPath(new URL("./EvmWorker.ts", import.meta.url))],
      outfile,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "silent",
      // CommonJS dependencies of the bundle call `require`.
      banner: { js: "import { createRequire as __kasCreateRequire } from \"node:module\"; const require = __kasCreateRequire(import.meta.url);" }
    })
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }))
    sourceBundle = outfile
  }
  return { script: pathToFileURL(sourceBundle) }
}

interface Slot {
  readonly worker: Worker
  onMessage: ((message: FromWorker) => void) | undefined
  onExit: ((error: Error) => void) | undefined
  gone: boolean
}

/**
 * At most `size` workers, handed out one run at a time in the order asked.
 *
 * @since 0.11.0
 * @category models
 */
export class Pool {
  private readonly idle: Array<Slot> = []
  private readonly waiting: Array<(got: Slot | Error) => void> = []
  private live = 0
  constructor(readonly size: number) {}

  /** Gives a ready worker to `give` when one is free (starting one if the pool may); answers how to stop waiting. */
  acquire(give: (got: Slot | Error) => void): () => void {
    const slot = this.idle.pop()
    if (slot !== undefined) {
      give(slot)
      return () => {}
    }
    this.waiting.push(give)
    if (this.live < this.size) this.spawn()
    return () => {
      const at = this.waiting.indexOf(give)
      if (at >= 0) this.waiting.splice(at, 1)
    }
  }

  /** A worker whose run ended: to the next waiting, else idle. */
  release(slot: Slot): void {
    slot.onMessage = undefined
    slot.onExit = undefined
    if (slot.gone) return
    const next = this.waiting.shift()
    if (next !== undefined) return next(slot)
    slot.worker.unref()
    this.idle.push(slot)
  }

  /** A worker whose run must stop: terminated, and replaced if a run waits. */
  discard(slot: Slot): void {
    slot.onMessage = undefined
    slot.onExit = undefined
    if (!slot.gone) {
      void slot.worker.terminate()
      this.lost(slot)
    }
  }

  private lost(slot: Slot): void {
    slot.gone = true
    this.live--
    const at = this.idle.indexOf(slot)
    if (at >= 0) this.idle.splice(at, 1)
    if (this.waiting.length > 0 && this.live < this.size) this.spawn()
  }

  private spawn(): void {
    this.live++
    const worker = new Worker(entry().script)
    const slot: Slot = { worker, onMessage: undefined, onExit: undefined, gone: false }
    let ready = false
    let error: Error | undefined
    worker.on("message", (message: FromWorker) => {
      if (ready) return slot.onMessage?.(message)
      if (message.type === "ready") {
        ready = true
        this.release(slot)
      }
    })
    worker.on("error", (e) => (error = e))
    worker.on("exit", (code) => {
      // Terminated here: already accounted for.
      if (slot.gone) return
      const why = error ?? new Error(`the EVM worker exited with code ${code}`)
      const listener = slot.onExit
      this.lost(slot)
      if (listener !== undefined) listener(why)
      // A worker that could not start fails the first run waiting for one.
      else if (!ready) this.waiting.shift()?.(why)
    })
  }
}

const pools = new Map<number, Pool>()

/**
 * The process's pool of `size` workers.
 *
 * @since 0.11.0
 * @category constructors
 */
export const pool = (size: number): Pool => {
  const known = pools.get(size)
  if (known !== undefined) return known
  const made = new Pool(size)
  pools.set(size, made)
  return made
}

// The runs under way in this process's workers, and who waits for one to start.
let underWayNow = 0
let onStart: Array<() => void> = []

/**
 * How many runs are under way in this process's workers now.
 *
 * @since 0.11.0
 * @category observability
 */
export const underWay = (): number => underWayNow

/**
 * Resolves once a run is under way in a worker of this process (at once when one is): what a test
 * of "served while a contract runs" waits on.
 *
 * @since 0.11.0
 * @category observability
 */
export const whenUnderWay = (): Promise<void> =>
  underWayNow > 0 ? Promise.resolve() : new Promise((resolve) => onStart.push(resolve))

/**
 * How a run in a worker ended: done (its outcome, or Klaytn's refusal), stopped by a read that
 * failed (the caller knows why), or stopped by `budget`.
 *
 * @since 0.11.0
 * @category models
 */
export type Settled =
  | { readonly _tag: "Done"; readonly ran: Ran }
  | { readonly _tag: "ReadFailed" }
  | { readonly _tag: "TimedOut"; readonly budget: Budget }

/**
 * Runs a message in a worker of `pool`, answering its reads with `read` (which never rejects: a
 * failed read answers `unread`), for at most what `budget` leaves; the time it takes is charged to
 * `budget`. A worker that dies or throws is a defect.
 *
 * @since 0.11.0
 * @category running
 */
export const run = (
  pool: Pool,
  message: Message,
  known: ReadonlyArray<readonly [string, Account]>,
  read: (request: Read) => Promise<ToWorker>,
  budget: Budget
): Effect.Effect<Settled> =>
  Effect.async<Settled>((resume) => {
    let slot: Slot | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let startedAt = 0
    let settled = false
    // The end of a run: its time charged, its worker kept or discarded.
    const end = (keep: boolean) => {
      settled = true
      underWayNow--
      clearTimeout(timer)
      budget.charge(performance.now() - startedAt)
      if (keep) pool.release(slot!)
      else pool.discard(slot!)
    }
    const stopWaiting = pool.acquire((got) => {
      if (got instanceof Error) {
        settled = true
        return resume(Effect.die(got))
      }
      slot = got
      const binding = budget.binding()
      if (binding.leftMs <= 0) {
        settled = true
        pool.release(got)
        return resume(Effect.succeed({ _tag: "TimedOut", budget: binding }))
      }
      got.worker.ref()
      got.onMessage = (message) => {
        switch (message.type) {
          case "done":
            end(true)
            return resume(Effect.succeed({ _tag: "Done", ran: message.ran }))
          case "failed":
            end(true)
            return resume(message.defect === undefined ? Effect.succeed({ _tag: "ReadFailed" }) : Effect.die(new Error(`Evm: ${message.defect}`)))
          case "account":
          case "storage":
            void read(message).then((answer) => {
              if (!settled) got.worker.postMessage(answer)
            })
            return
          case "ready":
            return
        }
      }
      got.onExit = (error) => {
        end(false)
        resume(Effect.die(error))
      }
      startedAt = performance.now()
      underWayNow++
      const waiting = onStart
      onStart = []
      for (const resolve of waiting) resolve()
      timer = setTimeout(() => {
        end(false)
        resume(Effect.succeed({ _tag: "TimedOut", budget: binding }))
      }, binding.leftMs)
      got.worker.postMessage({ type: "run", message, known } satisfies ToWorker)
    })
    // Interrupted: a run not started stops waiting; a run under way is stopped with its worker.
    return Effect.sync(() => {
      if (slot === undefined) stopWaiting()
      else if (!settled) end(false)
    })
  })

/**
 * Starts a worker of `pool` if none runs, and waits until one is ready (benchmarks, a warm start).
 *
 * @since 0.11.0
 * @category running
 */
export const warm = (pool: Pool): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    const stop = pool.acquire((got) => {
      if (got instanceof Error) return resume(Effect.die(got))
      pool.release(got)
      resume(Effect.void)
    })
    return Effect.sync(stop)
  })
