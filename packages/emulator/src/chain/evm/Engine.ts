/**
 * The EVM engine: @ethereumjs/evm over the ledger's state as a loader answers it, one run at a
 * time. It runs in the EVM's worker (`EvmWorker`), where the loader's reads are messages to the
 * ledger's thread; it imports neither effect nor the store, so that a worker starts with the
 * engine alone. What a run means for Klaytn is documented in `Evm`.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.11.0
 * @internal
 */
import type * as EvmEngine from "@ethereumjs/evm"
import type * as CommonModule from "@ethereumjs/common"
import type * as UtilModule from "@ethereumjs/util"
import { keccak_256 } from "@noble/hashes/sha3.js"
import type * as ChainState from "../../store/ChainState.js"
import type * as LedgerStore from "../../store/LedgerStore.js"
import * as StateValues from "../../store/StateValues.js"
import { fromHex, type Message, type Outcome, type RefusalReason, revertReason, type Status, toHex, txError } from "./Messages.js"

/**
 * An address as a run reads it: balance, nonce and code (`undefined` without).
 *
 * @since 0.11.0
 * @category models
 */
export interface Account extends StateValues.Balance {
  readonly code: Uint8Array | undefined
}

/**
 * The ledger's state as a run reads it, before the run: what the EVM awaits.
 *
 * @since 0.11.0
 * @category models
 */
export interface Loader {
  readonly account: (address: string) => Promise<Account>
  readonly storage: (address: string, slot: string) => Promise<string>
}

/**
 * How a run ended: its outcome, or Klaytn's refusal before running it.
 *
 * @since 0.11.0
 * @category models
 */
export type Ran =
  | { readonly _tag: "Ran"; readonly outcome: Outcome }
  | { readonly _tag: "Refused"; readonly reason: RefusalReason; readonly message: string }

/**
 * Thrown into the EVM by a loader whose read failed, to stop the run; the loader keeps the
 * failure itself.
 *
 * @since 0.11.0
 * @category errors
 */
export class ReaderFailed extends Error {}

interface Modules {
  readonly evm: typeof EvmEngine
  readonly common: typeof CommonModule
  readonly util: typeof UtilModule
}

// An EVM is built once per chain (~1 ms: opcode tables, precompiles) and reused, one run at a
// time, over its own LedgerState, which each run resets.
interface Instance {
  readonly evm: EvmEngine.EVM
  readonly state: LedgerState
}

/**
 * The engine's modules and an EVM per chain.
 *
 * @since 0.11.0
 * @category models
 */
export class Engine {
  private readonly instances = new Map<number, Instance>()
  constructor(readonly modules: Modules) {}

  /** Takes the chain's EVM (made on first use): given back by `give`, or dropped after a failure. */
  take = async (chainId: number): Promise<Instance> => {
    const kept = this.instances.get(chainId)
    if (kept !== undefined) {
      this.instances.delete(chainId)
      return kept
    }
    const { common, evm, util } = this.modules
    const state = new LedgerState(util)
    // A Common per instance: each EVM subscribes to its Common's events.
    const chain = common.createCustomCommon({ chainId, name: `klaytn-${chainId}` }, common.Mainnet, {
      hardfork: common.Hardfork.Shanghai
    })
    return { evm: await evm.createEVM({ common: chain, stateManager: state }), state }
  }

  give = (chainId: number, instance: Instance): void => {
    instance.state.reset(undefined)
    this.instances.set(chainId, instance)
  }
}

/**
 * Imports the engine's modules (~0.3–0.4 s) and makes an engine.
 *
 * @since 0.11.0
 * @category constructors
 */
export const load = async (): Promise<Engine> => {
  const [evm, common, util] = await Promise.all([import("@ethereumjs/evm"), import("@ethereumjs/common"), import("@ethereumjs/util")])
  return new Engine({ evm, common, util })
}

const stripZeros = (bytes: Uint8Array): Uint8Array => {
  let i = 0
  while (i < bytes.length && bytes[i] === 0) i++
  return bytes.subarray(i)
}

const word = (bytes: Uint8Array): string => `0x${Buffer.from(stripZeros(bytes)).toString("hex").padStart(64, "0")}`

type EthAccount = UtilModule.Account
type EthAddress = UtilModule.Address

/**
 * The EVM's state manager for one run at a time: reads fall through to the reader once per
 * account, code and slot (remembered: they are the run's reads), writes stay here with an undo
 * log for the EVM's checkpoints, and the difference is the run's outcome.
 */
class LedgerState implements CommonModule.StateManagerInterface {
  constructor(private readonly util: typeof UtilModule) {}

  private loader: Loader | undefined
  // What the reader answered: the run's reads.
  readonly readAccounts = new Map<string, StateValues.Balance>()
  readonly readCode = new Map<string, Uint8Array | undefined>()
  readonly readStorage = new Map<string, Map<string, string>>()
  private readonly baseAccounts = new Map<string, EthAccount | undefined>()
  // The run's state over it. `null`: deleted.
  readonly accounts = new Map<string, EthAccount | null>()
  readonly code = new Map<string, Uint8Array>()
  readonly storage = new Map<string, Map<string, Uint8Array>>()
  // Addresses whose storage a creation cleared: their slots do not fall through to the reader.
  readonly cleared = new Set<string>()
  private undo: Array<() => void> = []
  private marks: Array<number> = []

  reset(loader: Loader | undefined): void {
    this.loader = loader
    for (const m of [this.readAccounts, this.readCode, this.readStorage, this.baseAccounts, this.accounts, this.code, this.storage]) m.clear()
    this.cleared.clear()
    this.undo = []
    this.marks = []
  }

  private get read(): Loader {
    if (this.loader === undefined) throw new Error("Evm: state used outside a run")
    return this.loader
  }

  private copy(a: EthAccount): EthAccount {
    return new this.util.Account(a.nonce, a.balance, a.storageRoot, a.codeHash, a.codeSize)
  }

  // Records how to restore a map entry as it is now, for `revert`.
  private remember<K, V>(map: Map<K, V>, key: K): void {
    const had = map.has(key)
    const was = map.get(key)
    this.undo.push(() => (had ? map.set(key, was as V) : map.delete(key)))
  }

  private async baseCode(key: string): Promise<Uint8Array | undefined> {
    await this.baseAccount(key)
    return this.readCode.get(key)
  }

  // The account before the run, as the EVM models it: absent when it holds nothing (EIP-161).
  // One read gives balance, nonce and code: the EVM wants the code's hash with the account.
  async baseAccount(key: string): Promise<EthAccount | undefined> {
    if (this.baseAccounts.has(key)) return this.baseAccounts.get(key)
    const state = await this.read.account(key)
    const code = state.code !== undefined && state.code.length > 0 ? state.code : undefined
    this.readAccounts.set(key, { balance: state.balance, nonce: state.nonce })
    this.readCode.set(key, code)
    const account = state.balance === 0n && state.nonce === 0 && code === undefined
      ? undefined
      : new this.util.Account(
        BigInt(state.nonce),
        state.balance,
        this.util.KECCAK256_RLP,
        code !== undefined ? keccak_256(code) : this.util.KECCAK256_NULL,
        code?.length ?? 0
      )
    this.baseAccounts.set(key, account)
    return account
  }

  async getAccount(address: EthAddress): Promise<EthAccount | undefined> {
    const key = address.toString()
    const current = this.accounts.has(key) ? this.accounts.get(key) : await this.baseAccount(key)
    // A copy: the EVM changes the object it gets before it puts it back.
    return current === undefined || current === null ? undefined : this.copy(current)
  }

  async putAccount(address: EthAddress, account?: EthAccount): Promise<void> {
    const key = address.toString()
    // Its state before the run is what the outcome's changes are measured from.
    await this.baseAccount(key)
    this.remember(this.accounts, key)
    this.accounts.set(key, account === undefined ? null : this.copy(account))
  }

  async deleteAccount(address: EthAddress): Promise<void> {
    await this.putAccount(address, undefined)
  }

  async modifyAccountFields(address: EthAddress, fields: CommonModule.AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new this.util.Account()
    if (fields.nonce !== undefined) account.nonce = fields.nonce
    if (fields.balance !== undefined) account.balance = fields.balance
    if (fields.storageRoot !== undefined) account.storageRoot = fields.storageRoot
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash
    if (fields.codeSize !== undefined) account.codeSize = fields.codeSize
    await this.putAccount(address, account)
  }

  async putCode(address: EthAddress, value: Uint8Array): Promise<void> {
    const key = address.toString()
    this.remember(this.code, key)
    this.code.set(key, value)
    await this.modifyAccountFields(address, { codeHash: keccak_256(value), codeSize: value.length })
  }

  async getCode(address: EthAddress): Promise<Uint8Array> {
    const key = address.toString()
    return this.code.get(key) ?? (await this.baseCode(key)) ?? new Uint8Array(0)
  }

  async getCodeSize(address: EthAddress): Promise<number> {
    return (await this.getCode(address)).length
  }

  private async baseSlot(key: string, slot: string): Promise<string> {
    const known = this.readStorage.get(key)?.get(slot)
    if (known !== undefined) return known
    const value = await this.read.storage(key, slot)
    const slots = this.readStorage.get(key) ?? new Map<string, string>()
    slots.set(slot, value)
    this.readStorage.set(key, slots)
    return value
  }

  // The value before the run (what SSTORE's gas and refunds compare with).
  private async original(address: EthAddress, key: Uint8Array): Promise<Uint8Array> {
    const at = address.toString()
    if (this.cleared.has(at)) return new Uint8Array(0)
    return stripZeros(fromHex(await this.baseSlot(at, word(key))))
  }

  async getStorage(address: EthAddress, key: Uint8Array): Promise<Uint8Array> {
    const at = address.toString()
    const written = this.storage.get(at)?.get(word(key))
    if (written !== undefined) return written
    return this.original(address, key)
  }

  async putStorage(address: EthAddress, key: Uint8Array, value: Uint8Array): Promise<void> {
    const at = address.toString()
    const slots = this.storage.get(at) ?? new Map<string, Uint8Array>()
    this.storage.set(at, slots)
    this.remember(slots, word(key))
    // Zero is the empty value, as the EVM compares it.
    slots.set(word(key), stripZeros(value))
  }

  async clearStorage(address: EthAddress): Promise<void> {
    const at = address.toString()
    this.remember(this.storage, at)
    const wasCleared = this.cleared.has(at)
    this.undo.push(() => (wasCleared ? this.cleared.add(at) : this.cleared.delete(at)))
    this.storage.delete(at)
    this.cleared.add(at)
  }

  async checkpoint(): Promise<void> {
    this.marks.push(this.undo.length)
  }

  async commit(): Promise<void> {
    this.marks.pop()
  }

  async revert(): Promise<void> {
    const mark = this.marks.pop() ?? 0
    while (this.undo.length > mark) this.undo.pop()!()
  }

  readonly originalStorageCache = {
    get: (address: EthAddress, key: Uint8Array) => this.original(address, key),
    clear: () => {}
  }

  // No state roots: the ledger keeps no trie.
  async getStateRoot(): Promise<Uint8Array> {
    throw new Error("Evm: no state root")
  }
  async setStateRoot(): Promise<void> {
    throw new Error("Evm: no state root")
  }
  async hasStateRoot(): Promise<boolean> {
    throw new Error("Evm: no state root")
  }
  clearCaches(): void {}
  shallowCopy(): CommonModule.StateManagerInterface {
    throw new Error("Evm: the ledger state is not copied")
  }

  /** What the run read, as the store checks it. */
  reads(): LedgerStore.Reads {
    return {
      accounts: [...this.readAccounts].map(([address, state]) => ({ address, state })),
      code: [...this.readCode].map(([address, code]) => ({ address, codeHash: code !== undefined ? StateValues.codeHash(code) : undefined })),
      storage: [...this.readStorage].flatMap(([address, slots]) => [...slots].map(([slot, value]) => ({ address, slot, value })))
    }
  }

  /**
   * What the run changed, once it succeeded: balances against what was read, nonces other than
   * the sender's, created code and written slots, except those of `destroyed` contracts.
   */
  changes(sender: string, destroyed: ReadonlySet<string>): Pick<Outcome, "balanceChanges" | "nonces" | "contracts"> {
    const balanceChanges = new Map<string, bigint>()
    const nonces = new Map<string, number>()
    const final = new Map(this.accounts)
    // Shanghai: SELFDESTRUCT removes the account at the end of the transaction.
    for (const address of destroyed) final.set(address, null)
    for (const [address, account] of final) {
      const before = this.readAccounts.get(address) ?? StateValues.Empty
      const balance = account?.balance ?? 0n
      const nonce = Number(account?.nonce ?? 0n)
      if (balance !== before.balance) balanceChanges.set(address, balance - before.balance)
      if (address !== sender && nonce !== before.nonce) nonces.set(address, nonce)
    }
    const code = [...this.code].filter(([address]) => !destroyed.has(address)).map(([address, c]) => ({ address, code: c.slice() }))
    const storage: Array<ChainState.Slot> = []
    for (const [address, slots] of this.storage) {
      if (destroyed.has(address)) continue
      for (const [slot, raw] of slots) {
        const value = word(raw)
        const before = this.readStorage.get(address)?.get(slot) ?? (this.cleared.has(address) ? StateValues.ZeroWord : undefined)
        if (value !== before) storage.push({ address, slot, value })
      }
    }
    return { balanceChanges, nonces, contracts: { code, storage, destroyed: [...destroyed] } }
  }
}

// ---------------------------------------------------------------------------------------------
// A run
// ---------------------------------------------------------------------------------------------

// Klaytn blocks have no gas limit; GASLIMIT answers a large constant.
const BlockGasLimit = 999_999_999_999n

const NoChanges: Pick<Outcome, "balanceChanges" | "nonces" | "contracts"> = {
  balanceChanges: new Map(),
  nonces: new Map(),
  contracts: { code: [], storage: [], destroyed: [] }
}

const execute = async (modules: Modules, { evm, state }: Instance, message: Message): Promise<Ran> => {
  const { Address } = modules.util
  const caller = new Address(fromHex(message.from))
  const to = message.kind === "deploy" ? undefined : new Address(fromHex(message.to))
  const refuse = (reason: RefusalReason, message: string): Ran => ({ _tag: "Refused", reason, message })

  const sender = await state.getAccount(caller)
  if ((sender?.balance ?? 0n) < message.value) return refuse("InsufficientFunds", `${message.from} holds less than ${message.value} peb`)
  if (message.kind === "execute" && to !== undefined && (await state.getCodeSize(to)) === 0) {
    return refuse("NotAProgramAccount", "not a program account (e.g., an account having code and storage)")
  }

  // What a transaction warms before it runs (EIP-2929: sender, target, precompiles; EIP-3651:
  // the coinbase), as the EVM's own VM does.
  const coinbase = modules.util.createZeroAddress()
  for (const warm of [caller, ...(to !== undefined ? [to] : []), coinbase]) evm.journal.addAlwaysWarmAddress(warm.toString())
  for (const precompile of evm.precompiles.keys()) evm.journal.addAlwaysWarmAddress(precompile)

  const result = await evm.runCall({
    caller,
    origin: caller,
    ...(to !== undefined ? { to } : {}),
    value: message.value,
    data: message.input,
    gasLimit: message.gasLimit,
    gasPrice: message.gasPrice,
    block: {
      header: {
        number: BigInt(message.blockNumber),
        coinbase,
        timestamp: BigInt(message.timestamp),
        difficulty: 0n,
        prevRandao: new Uint8Array(32),
        gasLimit: BlockGasLimit,
        baseFeePerGas: message.gasPrice,
        getBlobGasPrice: () => undefined
      }
    }
  })
  // The end of the transaction: EIP-161 removes the empty accounts it touched; the journal starts
  // clean for the next run.
  await evm.journal.cleanup()

  const exec = result.execResult
  const error = exec.exceptionError?.error
  const status: Status = error === undefined ? "success" : error === "revert" ? "reverted" : "failed"
  const keeps = status === "success" && message.kind !== "call"
  const destroyed = new Set([...(exec.selfdestruct?.keys() ?? [])].map((a) => a.toLowerCase()))
  const outcome: Outcome = {
    status,
    gasUsed: exec.executionGasUsed,
    gasRefund: status === "success" ? (exec.gasRefund ?? 0n) : 0n,
    // A copy: the EVM's value may be a view of its whole memory, which a message would carry.
    returnData: exec.returnValue.slice(),
    revertReason: status === "reverted" ? revertReason(exec.returnValue) : undefined,
    txError: error !== undefined ? txError(error) : undefined,
    error,
    createdAddress: message.kind === "deploy" ? result.createdAddress?.toString() : undefined,
    logs: status === "success"
      ? (exec.logs ?? []).map(([address, topics, data]) => ({ address: toHex(address), topics: topics.map(toHex), data: toHex(data) }))
      : [],
    ...(keeps ? state.changes(message.from, destroyed) : NoChanges),
    reads: state.reads()
  }
  return { _tag: "Ran", outcome }
}

/**
 * Runs a message over the state the reader gives and reports the outcome; changes nothing itself.
 * The ledger applies an outcome in one `LedgerStore.write`, inside its serialized attempt:
 *
 * 1. `read` = `store.balances` of the sender, the fee payer and `changedAccounts(outcome)`;
 * 2. `after` = `applyChanges(read, outcome)`, then the sender's nonce + 1 and the fees;
 * 3. `write({ balances: after against read, reads: outcome.reads, contracts: outcome.contracts,
 *    transaction, bill, ... })`; `false` means another writer changed something the run or the
 *    ledger read: run again.
 *

/**
 * Runs a message on the engine over the loader's state. A run that throws (the loader's
 * `ReaderFailed`, a defect) leaves its EVM mid-run: it is dropped, not reused.
 *
 * @since 0.11.0
 * @category running
 */
export const run = async (engine: Engine, message: Message, loader: Loader): Promise<Ran> => {
  const instance = await engine.take(message.chainId)
  instance.state.reset(loader)
  const ran = await execute(engine.modules, instance, message)
  engine.give(message.chainId, instance)
  return ran
}
