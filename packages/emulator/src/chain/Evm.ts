/**
 * The emulator's EVM: runs a contract deployment, a contract execution or a read-only call over the
 * ledger's state and reports what the run read and what it changes, for the ledger to apply in its
 * one atomic write (LedgerStore.ts) together with the fees and the receipt.
 *
 * The engine is @ethereumjs/evm 10 (MPL-2.0, used unmodified; pure JavaScript on @noble), at
 * hardfork **Shanghai**: PUSH0 and the init-code limit of EIP-3860 are there; Cancun's MCOPY,
 * TLOAD/TSTORE and BLOBHASH are not, and SELFDESTRUCT still removes a contract (its code, storage,
 * balance and nonce) at the end of the transaction. Compile for it with `evmVersion: "shanghai"`
 * (solc 0.8.25 and later default to Cancun).
 *
 * It is loaded on the first contract run (a dynamic `import()`, ~0.3 s the first time), so an
 * emulator that never sees a contract never pays for it; `preload` loads it ahead.
 *
 * How a run maps onto Klaytn:
 *
 * - The sender's nonce and the fees are the ledger's: the run sees the sender's state as the
 *   reader gives it (before the transaction, its nonce the transaction's) and reports value moved
 *   and contracts' own nonces, never the sender's nonce bump or a fee.
 * - A deployment creates the contract at keccak256(rlp([sender, nonce]))[12:], as Klaytn (and
 *   Ethereum) do.
 * - An execution whose `to` has no code is refused (`EvmError` "NotAProgramAccount"): Klaytn
 *   rejects it before running ("not a program account"), with no receipt and no fee.
 * - A value the sender does not hold is refused (`EvmError` "InsufficientFunds"), as Klaytn's
 *   transaction pool refuses it; the ledger checks value plus fee first anyway.
 * - `gasLimit` is the gas left after Klaytn's intrinsic gas; `gasUsed` is the EVM's on top of it
 *   (all of it on an exceptional halt), and `totalGas` adds the two and the refund (EIP-3529).
 * - Block context: the number and time given, coinbase and PREVRANDAO zero, BASEFEE the gas
 *   price, GASLIMIT a fixed large value (Klaytn blocks have no gas limit), BLOCKHASH zero.
 * - Not emulated: Klaytn's own precompiles (0x3fd vmLog, 0x3fe feePayer, 0x3ff validateSender)
 *   and its limit on opcode computation cost.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.4.0
 * @internal
 */
import type { SqlError } from "@effect/sql"
import type * as EvmEngine from "@ethereumjs/evm"
import type * as CommonModule from "@ethereumjs/common"
import type * as UtilModule from "@ethereumjs/util"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { type Cause, Data, Effect, Either, Exit, Option, Runtime } from "effect"
import * as LedgerStore from "../store/LedgerStore.js"
import * as ChainState from "../store/ChainState.js"

/**
 * The ledger's state as a run reads it, supplied by the caller (usually the store, read inside
 * the ledger's attempt: `storeReader`). Addresses are lower-case `0x` hex; what it answers must be
 * the state before the transaction.
 *
 * @since 0.4.0
 * @category models
 */
export interface StateReader<E> {
  /** Balance, nonce and code (`None` without); `ChainState.Empty` without code for an address never seen. */
  readonly account: (address: string) => Effect.Effect<ChainState.AccountState, E>
  /** A storage slot (`0x` + 64 hex digits); `ChainState.ZeroWord` when unset. */
  readonly storage: (address: string, slot: string) => Effect.Effect<string, E>
}

/**
 * The fields every run takes.
 *
 * @since 0.4.0
 * @category models
 */
export interface MessageFields {
  /** The sender (`msg.sender`, `tx.origin`), lower-case `0x` hex. */
  readonly from: string
  /** Peb the sender sends to the callee or the new contract. */
  readonly value: bigint
  /** Creation code with its constructor arguments (deploy), or calldata. */
  readonly input: Uint8Array
  /** The gas the EVM may use: the transaction's gas limit less Klaytn's intrinsic gas. */
  readonly gasLimit: bigint
  readonly blockNumber: number
  /** The block's time, Unix seconds. */
  readonly timestamp: number
  /** CHAINID. */
  readonly chainId: number
  /** GASPRICE, and BASEFEE (a fixed-price chain). */
  readonly gasPrice: bigint
}

/**
 * What to run: a deployment (`SmartContractDeploy`), an execution (`SmartContractExecution`) or a
 * read-only call (`contract/call`: run against the latest state, nothing kept).
 *
 * @since 0.4.0
 * @category models
 */
export type Message =
  | MessageFields & { readonly kind: "deploy" }
  | MessageFields & { readonly kind: "execute" | "call"; readonly to: string }

/**
 * A log of a run, lower-case hex (as the store keeps it with its transaction).
 *
 * @since 0.4.0
 * @category models
 */
export type Log = ChainState.Log

/**
 * How a run ended: `success`; `reverted` by the REVERT opcode (the rest of the gas returns);
 * `failed` on an exceptional halt (out of gas, invalid opcode, bad jump, stack error, collision:
 * all the gas is used).
 *
 * @since 0.4.0
 * @category models
 */
export type Status = "success" | "reverted" | "failed"

/**
 * What a run did. The state effects (`balanceChanges`, `nonces`, `contracts`) are empty unless
 * the status is `success` and the kind is not `call`: a failed transaction changes only its
 * sender's nonce and the fees, which the ledger applies.
 *
 * @since 0.4.0
 * @category models
 */
export interface Outcome {
  readonly status: Status
  /** The EVM's gas, without the intrinsic gas nor the refund (see `totalGas`). */
  readonly gasUsed: bigint
  /** The gas refund the run earned (slots cleared; EIP-3529 rules); 0 unless `success`. See `totalGas`. */
  readonly gasRefund: bigint
  /** What the run returned: the result of a call, the revert data, the deployed code of a deployment. */
  readonly returnData: Uint8Array
  /** The message of a revert with `Error(string)` data. */
  readonly revertReason?: string | undefined
  /** Klaytn's receipt error code (`txError`) of a run that did not succeed: 0x09 reverted, 0x07 out of gas, ... */
  readonly txError?: number | undefined
  /** The EVM's own word for the failure ("out of gas", "invalid opcode", ...), for diagnostics. */
  readonly error?: string | undefined
  /** The address of the contract a deployment creates, or would have created when it did not succeed. */
  readonly createdAddress?: string | undefined
  /** The logs, in order; none unless `success`. */
  readonly logs: ReadonlyArray<Log>
  /**
   * Peb moved by the run, by lower-case address (value in, minus value out; the sender's `value`
   * included, fees never). Each address here must be in the ledger's balance write.
   */
  readonly balanceChanges: ReadonlyMap<string, bigint>
  /**
   * Nonces the run set, other than the sender's own bump (the ledger's): 1 for a contract
   * created, one more for each contract a contract creates, 0 for a destroyed one.
   */
  readonly nonces: ReadonlyMap<string, number>
  /** Code, storage and destructions, for `LedgerStore.Write.contracts`. */
  readonly contracts: LedgerStore.Contracts
  /** What the run read, for `LedgerStore.Write.reads`: whatever the status, the outcome depends on it. */
  readonly reads: LedgerStore.Reads
}

/**
 * A run Klaytn refuses before running it: nothing happens, no receipt, no fee.
 *
 * - `NotAProgramAccount`: an execution whose `to` has no code.
 * - `InsufficientFunds`: the sender does not hold `value`.
 *
 * @since 0.4.0
 * @category errors
 */
export class EvmError extends Data.TaggedError("EvmError")<{
  readonly reason: "NotAProgramAccount" | "InsufficientFunds"
  readonly message: string
}> {}

// ---------------------------------------------------------------------------------------------
// Pure helpers
// ---------------------------------------------------------------------------------------------

const toHex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`

const fromHex = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.slice(2), "hex"))

const AddressPattern = /^0x[0-9a-f]{40}$/

/**
 * Ethereum's logs bloom of a receipt: 2048 bits where each log's address and each of its topics
 * set three bits, taken from the first three pairs of bytes of their keccak256 (11 bits each).
 * Answers `0x` + 512 hex digits.
 *
 * @since 0.4.0
 * @category receipts
 */
export const logsBloom = (logs: ReadonlyArray<{ readonly address: string; readonly topics: ReadonlyArray<string> }>): string => {
  const bloom = new Uint8Array(256)
  const add = (hex: string) => {
    const h = keccak_256(fromHex(hex))
    for (let i = 0; i < 6; i += 2) {
      const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
      // Bit 0 is the lowest bit of the last byte: the bloom is a big-endian 2048-bit number.
      bloom[255 - (bit >> 3)]! |= 1 << (bit & 7)
    }
  }
  for (const log of logs) {
    add(log.address)
    for (const topic of log.topics) add(topic)
  }
  return toHex(bloom)
}

/**
 * The gas a contract transaction uses, as its receipt says: Klaytn's intrinsic gas plus the EVM's,
 * less the refund, which is at most a fifth of that sum (EIP-3529's cap, as in Ethereum since
 * London).
 *
 * @since 0.4.0
 * @category gas
 */
export const totalGas = (intrinsic: bigint, outcome: Pick<Outcome, "gasUsed" | "gasRefund">): bigint => {
  const used = intrinsic + outcome.gasUsed
  const refund = outcome.gasRefund < used / 5n ? outcome.gasRefund : used / 5n
  return used - refund
}

// Error(string): selector, then the ABI encoding of one string (offset, length, bytes).
const ErrorSelector = "08c379a0"

/**
 * The message of revert data that is `Error(string)` (what `revert("...")` and `require(..., "...")`
 * give); `undefined` for anything else (a custom error, `Panic(uint256)`, nothing).
 *
 * @since 0.4.0
 * @category receipts
 */
export const revertReason = (data: Uint8Array): string | undefined => {
  if (data.length < 4 + 64 || Buffer.from(data.subarray(0, 4)).toString("hex") !== ErrorSelector) return undefined
  const body = data.subarray(4)
  const uint = (at: number) => BigInt(toHex(body.subarray(at, at + 32)))
  const offset = uint(0)
  if (offset + 32n > BigInt(body.length)) return undefined
  const length = uint(Number(offset))
  const start = Number(offset) + 32
  if (BigInt(start) + length > BigInt(body.length)) return undefined
  return new TextDecoder().decode(body.subarray(start, start + Number(length)))
}

// Klaytn's receipt error codes (its "Transaction Error Codes"), by the EVM's error words.
const TxErrors: ReadonlyMap<string, number> = new Map([
  ["revert", 0x09],
  ["out of gas", 0x07],
  ["code store out of gas", 0x05],
  ["code size to deposit exceeds maximum code size", 0x06],
  ["create collision", 0x04],
  ["static state change", 0x08]
])
// "VM error occurs while running smart contract": Klaytn's code for every other halt.
const TxErrorDefault = 0x02

/**
 * Klaytn's receipt error code (`txError`) for an EVM failure word.
 *
 * @since 0.4.0
 * @category receipts
 */
export const txError = (error: string): number => TxErrors.get(error) ?? TxErrorDefault

// ---------------------------------------------------------------------------------------------
// The engine, loaded on first use
// ---------------------------------------------------------------------------------------------

interface Modules {
  readonly evm: typeof EvmEngine
  readonly common: typeof CommonModule
  readonly util: typeof UtilModule
}

// An EVM is built once (~1 ms: opcode tables, precompiles) and reused, one run at a time, over
// its own LedgerState, which each run resets.
interface Instance {
  readonly evm: EvmEngine.EVM
  readonly state: LedgerState
}

// Instances kept per chain between runs; more are made when runs overlap and dropped after.
const PoolSize = 4

class Engine {
  private readonly pools = new Map<number, Array<Instance>>()
  constructor(readonly modules: Modules) {}

  take = async (chainId: number): Promise<Instance> => {
    const kept = this.pools.get(chainId)?.pop()
    if (kept !== undefined) return kept
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
    const pool = this.pools.get(chainId) ?? []
    if (pool.length < PoolSize) pool.push(instance)
    this.pools.set(chainId, pool)
  }
}

let engine: Promise<Engine> | undefined

const importEngine = async (): Promise<Engine> => {
  const [evm, common, util] = await Promise.all([import("@ethereumjs/evm"), import("@ethereumjs/common"), import("@ethereumjs/util")])
  return new Engine({ evm, common, util })
}

// Module-wide on purpose: the import is process-wide anyway, and so is what it costs.
const loadEngine: Effect.Effect<Engine> = Effect.promise(() => (engine ??= importEngine()))

/**
 * Loads the EVM now rather than on the first contract run (benchmarks, a warm start).
 *
 * @since 0.4.0
 * @category constructors
 */
export const preload: Effect.Effect<void> = Effect.asVoid(loadEngine)

// ---------------------------------------------------------------------------------------------
// The EVM's state over the reader
// ---------------------------------------------------------------------------------------------

// The reader, bridged to the promises the EVM awaits.
interface Loader {
  readonly account: (address: string) => Promise<ChainState.AccountState>
  readonly storage: (address: string, slot: string) => Promise<string>
}

// Thrown into the EVM when the reader fails, to stop the run; the reader's own failure is kept
// aside and becomes the run's.
class ReaderFailed extends Error {}

const stripZeros = (bytes: Uint8Array): Uint8Array => {
  let i = 0
  while (i < bytes.length && bytes[i] === 0) i++
  return bytes.subarray(i)
}

const word = (bytes: Uint8Array): string => `0x${Buffer.from(stripZeros(bytes)).toString("hex").padStart(64, "0")}`

type Account = UtilModule.Account
type Address = UtilModule.Address

/**
 * The EVM's state manager for one run at a time: reads fall through to the reader once per
 * account, code and slot (remembered: they are the run's reads), writes stay here with an undo
 * log for the EVM's checkpoints, and the difference is the run's outcome.
 */
class LedgerState implements CommonModule.StateManagerInterface {
  constructor(private readonly util: typeof UtilModule) {}

  private loader: Loader | undefined
  // What the reader answered: the run's reads.
  readonly readAccounts = new Map<string, ChainState.Balance>()
  readonly readCode = new Map<string, Uint8Array | undefined>()
  readonly readStorage = new Map<string, Map<string, string>>()
  private readonly baseAccounts = new Map<string, Account | undefined>()
  // The run's state over it. `null`: deleted.
  readonly accounts = new Map<string, Account | null>()
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

  private copy(a: Account): Account {
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
  async baseAccount(key: string): Promise<Account | undefined> {
    if (this.baseAccounts.has(key)) return this.baseAccounts.get(key)
    const state = await this.read.account(key)
    const code = Option.getOrUndefined(Option.filter(state.code, (c) => c.length > 0))
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

  async getAccount(address: Address): Promise<Account | undefined> {
    const key = address.toString()
    const current = this.accounts.has(key) ? this.accounts.get(key) : await this.baseAccount(key)
    // A copy: the EVM changes the object it gets before it puts it back.
    return current === undefined || current === null ? undefined : this.copy(current)
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    const key = address.toString()
    // Its state before the run is what the outcome's changes are measured from.
    await this.baseAccount(key)
    this.remember(this.accounts, key)
    this.accounts.set(key, account === undefined ? null : this.copy(account))
  }

  async deleteAccount(address: Address): Promise<void> {
    await this.putAccount(address, undefined)
  }

  async modifyAccountFields(address: Address, fields: CommonModule.AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new this.util.Account()
    if (fields.nonce !== undefined) account.nonce = fields.nonce
    if (fields.balance !== undefined) account.balance = fields.balance
    if (fields.storageRoot !== undefined) account.storageRoot = fields.storageRoot
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash
    if (fields.codeSize !== undefined) account.codeSize = fields.codeSize
    await this.putAccount(address, account)
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const key = address.toString()
    this.remember(this.code, key)
    this.code.set(key, value)
    await this.modifyAccountFields(address, { codeHash: keccak_256(value), codeSize: value.length })
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = address.toString()
    return this.code.get(key) ?? (await this.baseCode(key)) ?? new Uint8Array(0)
  }

  async getCodeSize(address: Address): Promise<number> {
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
  private async original(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const at = address.toString()
    if (this.cleared.has(at)) return new Uint8Array(0)
    return stripZeros(fromHex(await this.baseSlot(at, word(key))))
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const at = address.toString()
    const written = this.storage.get(at)?.get(word(key))
    if (written !== undefined) return written
    return this.original(address, key)
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const at = address.toString()
    const slots = this.storage.get(at) ?? new Map<string, Uint8Array>()
    this.storage.set(at, slots)
    this.remember(slots, word(key))
    // Zero is the empty value, as the EVM compares it.
    slots.set(word(key), stripZeros(value))
  }

  async clearStorage(address: Address): Promise<void> {
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
    get: (address: Address, key: Uint8Array) => this.original(address, key),
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
      code: [...this.readCode].map(([address, code]) => ({ address, codeHash: code !== undefined ? ChainState.codeHash(code) : undefined })),
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
      const before = this.readAccounts.get(address) ?? ChainState.Empty
      const balance = account?.balance ?? 0n
      const nonce = Number(account?.nonce ?? 0n)
      if (balance !== before.balance) balanceChanges.set(address, balance - before.balance)
      if (address !== sender && nonce !== before.nonce) nonces.set(address, nonce)
    }
    const code = [...this.code].filter(([address]) => !destroyed.has(address)).map(([address, c]) => ({ address, code: c }))
    const storage: Array<ChainState.Slot> = []
    for (const [address, slots] of this.storage) {
      if (destroyed.has(address)) continue
      for (const [slot, raw] of slots) {
        const value = word(raw)
        const before = this.readStorage.get(address)?.get(slot) ?? (this.cleared.has(address) ? ChainState.ZeroWord : undefined)
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

type Ran = { readonly _tag: "Ran"; readonly outcome: Outcome } | { readonly _tag: "Refused"; readonly error: EvmError }

const NoChanges: Pick<Outcome, "balanceChanges" | "nonces" | "contracts"> = {
  balanceChanges: new Map(),
  nonces: new Map(),
  contracts: { code: [], storage: [], destroyed: [] }
}

const execute = async (modules: Modules, { evm, state }: Instance, message: Message): Promise<Ran> => {
  const { Address } = modules.util
  const caller = new Address(fromHex(message.from))
  const to = message.kind === "deploy" ? undefined : new Address(fromHex(message.to))
  const refuse = (reason: EvmError["reason"], text: string): Ran => ({ _tag: "Refused", error: new EvmError({ reason, message: text }) })

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
    returnData: exec.returnValue,
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
 * Fails with the reader's error when the reader fails, and with `EvmError` when Klaytn would refuse
 * the transaction before running it (no receipt, no fee). A malformed address is a defect (the
 * caller validates).
 *
 * @since 0.4.0
 * @category running
 */
export const run = <E>(message: Message, reader: StateReader<E>): Effect.Effect<Outcome, E | EvmError> =>
  Effect.gen(function*() {
    const addresses = [message.from, ...(message.kind === "deploy" ? [] : [message.to])]
    const malformed = addresses.find((a) => !AddressPattern.test(a))
    if (malformed !== undefined) return yield* Effect.die(new Error(`Evm: not a lower-case address: ${malformed}`))
    const engine = yield* loadEngine
    const runtime = yield* Effect.runtime<never>()
    let failure: Cause.Cause<E> | undefined
    const bridge = <A>(effect: Effect.Effect<A, E>): Promise<A> =>
      Runtime.runPromiseExit(runtime)(effect).then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        failure ??= exit.cause
        throw new ReaderFailed()
      })
    const instance = yield* Effect.promise(() => engine.take(message.chainId))
    instance.state.reset({
      account: (address) => bridge(reader.account(address)),
      storage: (address, slot) => bridge(reader.storage(address, slot))
    })
    const settled = yield* Effect.promise(() => execute(engine.modules, instance, message).then(Either.right, Either.left))
    // After a failure the instance's journal may be mid-run: it is dropped, not reused.
    if (failure !== undefined) return yield* Effect.failCause(failure)
    if (Either.isLeft(settled)) return yield* Effect.die(settled.left)
    engine.give(message.chainId, instance)
    if (settled.right._tag === "Refused") return yield* settled.right.error
    return settled.right.outcome
  })

/**
 * The addresses whose balance or nonce an outcome changes: the ledger reads them, with the sender
 * and the fee payer, for its balance write.
 *
 * @since 0.4.0
 * @category applying
 */
export const changedAccounts = (outcome: Pick<Outcome, "balanceChanges" | "nonces">): ReadonlyArray<string> => [
  ...new Set([...outcome.balanceChanges.keys(), ...outcome.nonces.keys()])
]

/**
 * Balances and nonces after a run: `read` (by lower-case address) with the outcome's
 * `balanceChanges` added and its `nonces` set; an address missing from `read` counts as
 * `ChainState.Empty`. The sender's nonce bump and the fees are not in it: the ledger applies them
 * to the result, whatever the status.
 *
 * @since 0.4.0
 * @category applying
 */
export const applyChanges = (
  read: ReadonlyMap<string, ChainState.Balance>,
  outcome: Pick<Outcome, "balanceChanges" | "nonces">
): Map<string, ChainState.Balance> => {
  const after = new Map(read)
  const get = (address: string) => after.get(address) ?? ChainState.Empty
  for (const [address, delta] of outcome.balanceChanges) after.set(address, { ...get(address), balance: get(address).balance + delta })
  for (const [address, nonce] of outcome.nonces) after.set(address, { ...get(address), nonce })
  return after
}

/**
 * A reader over the ledger's store for one chain: every read is a query, made inside the caller's
 * attempt (the ledger's `serialize`d read-compute-write).
 *
 * @since 0.4.0
 * @category constructors
 */
export const storeReader = (store: LedgerStore.Service, chainId: number): StateReader<SqlError.SqlError> => ({
  account: (address) => store.state(chainId, address),
  storage: (address, slot) => store.storage(chainId, address, slot)
})
