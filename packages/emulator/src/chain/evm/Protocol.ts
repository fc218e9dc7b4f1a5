/**
 * What the ledger's thread and an EVM worker say to each other. The ledger sends a run (with the
 * accounts every run reads first: the sender and the callee) and answers the reads the run makes
 * as it goes; the worker says when it is ready, asks for reads, and ends a run with what it did.
 * Everything is a structured clone: bigints, maps and bytes, no classes.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.11.0
 * @internal
 */
import type { Account, Ran } from "./Engine.js"
import type { Message } from "./Messages.js"

/**
 * A message to a worker: a run, or the answer to one of its reads (`unread`: the read failed, the
 * run must stop).
 *
 * @since 0.11.0
 * @category models
 */
export type ToWorker =
  | { readonly type: "run"; readonly message: Message; readonly known: ReadonlyArray<readonly [string, Account]> }
  | { readonly type: "account"; readonly id: number; readonly account: Account }
  | { readonly type: "storage"; readonly id: number; readonly value: string }
  | { readonly type: "unread"; readonly id: number }

/**
 * A read a run asks for: an address's account, or a storage slot.
 *
 * @since 0.11.0
 * @category models
 */
export type Read =
  | { readonly type: "account"; readonly id: number; readonly address: string }
  | { readonly type: "storage"; readonly id: number; readonly address: string; readonly slot: string }

/**
 * A message from a worker: ready (its engine loaded), a read, a run's end, or a run that threw
 * (`defect` undefined: a read failed, and the ledger's thread knows why).
 *
 * @since 0.11.0
 * @category models
 */
export type FromWorker =
  | { readonly type: "ready" }
  | Read
  | { readonly type: "done"; readonly ran: Ran }
  | { readonly type: "failed"; readonly defect: string | undefined }
