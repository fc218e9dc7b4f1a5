/**
 * The entry of an EVM worker thread: loads the engine, says it is ready, then runs what the
 * ledger's thread sends, one run at a time, asking it for each read. A run that never ends is
 * stopped from outside (the worker is terminated and replaced: `Workers`), so nothing here keeps
 * time.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.11.0
 * @internal
 */
import { parentPort } from "node:worker_threads"
import * as Engine from "./Engine.js"
import type { FromWorker, Read, ToWorker } from "./Protocol.js"

const port = parentPort!
const post = (message: FromWorker) => port.postMessage(message)

// The reads waiting for their answer, by id.
const waiting = new Map<number, { readonly resolve: (answer: ToWorker) => void }>()
let nextId = 0

const ask = (read: { readonly type: Read["type"]; readonly address: string; readonly slot?: string }): Promise<ToWorker> =>
  new Promise((resolve) => {
    const id = nextId++
    waiting.set(id, { resolve })
    post(read.type === "account" ? { type: "account", id, address: read.address } : { type: "storage", id, address: read.address, slot: read.slot! })
  })

const runOne = async (engine: Engine.Engine, message: Extract<ToWorker, { readonly type: "run" }>) => {
  const known = new Map(message.known)
  const loader: Engine.Loader = {
    account: async (address) => {
      const given = known.get(address)
      if (given !== undefined) return given
      const answer = await ask({ type: "account", address })
      if (answer.type !== "account") throw new Engine.ReaderFailed()
      return answer.account
    },
    storage: async (address, slot) => {
      const answer = await ask({ type: "storage", address, slot })
      if (answer.type !== "storage") throw new Engine.ReaderFailed()
      return answer.value
    }
  }
  try {
    post({ type: "done", ran: await Engine.run(engine, message.message, loader) })
  } catch (e) {
    waiting.clear()
    post({ type: "failed", defect: e instanceof Engine.ReaderFailed ? undefined : e instanceof Error ? (e.stack ?? e.message) : String(e) })
  }
}

// A failure to load the engine is thrown here: the worker exits and the ledger's thread is told.
const engine = await Engine.load()

port.on("message", (message: ToWorker) => {
  if (message.type === "run") {
    void runOne(engine, message)
    return
  }
  const read = waiting.get(message.id)
  waiting.delete(message.id)
  read?.resolve(message)
})
post({ type: "ready" })
