/**
 * The chain behind the transaction routes: transactions of every kind (value transfers, contract
 * deployments, contract executions) from the accounts of a pool, signed as real Klaytn
 * transactions, applied to a ledger of balances, nonces, contract code and storage per chain,
 * committed by a block clock, with their fee paid by the sender, the member's fee-payer account or
 * the global fee payer; and read-only contract calls.
 *
 * Rules (docs/emulator.md, "Ledger and transfers" and "Contracts"):
 *
 * - **Type**: the kind's base type; a memo makes a memo transfer, a fee payer a fee-delegated
 *   type, a fee ratio 1..99 a with-ratio one (`Wire.typeOf`). Signed with the sender's sealed key,
 *   and the fee payer's: the member's fee-payer account (`fd-user`) or the chain's global fee
 *   payer (`fd`).
 * - **Gas**: `gas` absent or 0 is the kind's default (`DefaultGas`); it must cover Klaytn's
 *   intrinsic gas of the type (`Klaytn.intrinsicGas`). A transfer uses its intrinsic gas; a
 *   contract transaction that plus what its code uses in the EVM, which runs with the rest of the
 *   gas limit (`Evm.totalGas`). The gas price is the chain's (25 ston).
 * - **Fee** = gas used × gas price. The fee payer's part is ⌊fee × ratio / 100⌋ (all of it without
 *   a ratio, nothing when the sender pays), the sender's the rest: the parts always sum to the fee,
 *   as in Klaytn. Fees leave circulation (there is no block producer to receive them): the sum of
 *   the balances drops by exactly the fees the ledger's accounts paid. The global fee payer holds
 *   no balance: what it pays goes on the member's bill.
 * - **Nonce**: absent or 0 is the sender's next; another one must be the next (400 1065001, "nonce
 *   too low" / "nonce too high").
 * - **Funds**, checked as Klaytn's transaction pool does, against the most the transaction may
 *   cost (its gas limit × price, split the same way): the sender needs value + its part, a user
 *   fee payer its part; otherwise 400 1065001 and nothing changes. Then the gas limit must cover
 *   the intrinsic gas (400 1065001, "intrinsic gas too low"). Then the recipient, as Klaytn
 *   validates it: a value transfer cannot go to a contract ("this type transaction cannot be sent
 *   to contract addresses"), an execution must ("not a program account ..."); 400 1065001,
 *   nothing changes.
 * - **Contracts**: a deployment creates its contract at keccak256(rlp([sender, nonce]))[12:]; an
 *   execution runs the calldata with the sender as `msg.sender` and `value` sent along. A run that
 *   reverts or halts (out of gas, ...) is still a committed transaction: its receipt says
 *   `CommitError` with Klaytn's `txError` (0x09 reverted, 0x07 out of gas, ...), the sender's nonce
 *   moves on and the fee is charged for the gas used (all of it on a halt), but no value moves and
 *   no contract state changes. A successful run's balances, code and storage are written with the
 *   transaction and its receipt in one atomic write.
 * - **Blocks, interval mining** (the default): block n is made at genesis + n × interval, genesis
 *   being the chain's first transaction. A transaction is run and applied when accepted, into the
 *   next block to be made; its receipt is `Pending` until then, `Committed` (or `CommitError`)
 *   after. There is no pool: a transaction accepted cannot be replaced (`nonce too low`).
 * - **Blocks, manual mining** (docs/emulator.md, "Blocks and the pending pool"): `send` checks and
 *   signs, then puts the transaction in the chain's pending pool (stored: `pending_transactions`);
 *   nothing else changes and its receipt is `Pending`. `mine` makes a block of every pending
 *   transaction in acceptance order, each run and applied then, leaving the pool in the atomic
 *   write of its state and receipt. Acceptance checks the state plus the pool: the next nonce
 *   follows the sender's pending ones, and the funds check adds what the pending transactions of
 *   the sender (and of a user fee payer) reserve, so that what is accepted is affordable when
 *   mined. `replace` takes the place of the sender's pending transaction of that nonce (a cancel).
 * - **Resubmission**: signing is deterministic, so the same request signs the same bytes; sent
 *   again it is refused, changing nothing: "already known" while pending, "nonce too low" once
 *   committed.
 * - **One pipeline** for every kind: acceptance (parties and keys, nonce, signing, the node's
 *   checks) in `send`, then the run and write in `execute` (at once in interval mode, from the pool
 *   at mining in manual mode), which decodes everything it runs from the signed bytes. A new kind
 *   is one entry in each.
 * - `submit: false` signs and answers (status `Pending`) without the node's checks (nonce, gas,
 *   funds, recipient), runs nothing and changes nothing.
 * - **Signed whole elsewhere** (payer `Signed`: the node route's `sendRawTransaction`): any sender,
 *   no pool account; its signatures, and for a fee-delegated type its fee payer's, are checked
 *   against their account keys on the chain, and the fee payer pays from its own balance, as a
 *   member's fee-payer account does.
 * - **Calls** (`contract/call`) run the method on the latest state, read only, and answer the
 *   calldata and the return data; a revert or a halt is 400 1065001 with the node's message.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.2.0
 * @internal
 */
import type { SqlError } from "@effect/sql"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 as keccak256 } from "@noble/hashes/sha3.js"
import { randomBytes } from "node:crypto"
import { Clock, Context, Duration, Effect, Either, Layer, Option, Redacted, Schema } from "effect"
import { Address, Amount, Transaction } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as AccountKeys from "./AccountKeys.js"
import * as Refusal from "../Refusal.js"
import { EmulatorError } from "../EmulatorError.js"
import * as Evm from "./Evm.js"
import * as KeyVault from "../store/KeyVault.js"
import * as Klaytn from "./Klaytn.js"
import * as LedgerStore from "../store/LedgerStore.js"
import * as MultisigStore from "../store/MultisigStore.js"
import type * as Store from "../store/Store.js"

/**
 * The gas limit of a transaction that gives none (or 0), by kind, as the service's examples show
 * (their requests give `gas: 0`, their results 0x895440 and 0x0f4240, in the body and in the RLP):
 * 9000000 for a deployment, 1000000 for every other kind — a value transfer too, where the
 * specification's text says 100000 (tx-value-200-success shows 0x0f4240). A raw transaction has
 * its own.
 *
 * @since 0.2.0
 * @category constants
 */
export const DefaultGas: { readonly [K in Wire.TypedKind]: number } = {
  value: 1_000_000,
  "contract/deploy": 9_000_000,
  "contract/execute": 1_000_000,
  // The service's examples of these kinds, with `gas: 0`, all show 1000000 (0x0f4240).
  cancel: 1_000_000,
  anchor: 1_000_000,
  account: 1_000_000,
  legacy: 1_000_000
}

/**
 * The gas limit of a contract call that gives none: enough for any read a wallet makes, and a
 * bound on a call that loops.
 *
 * @since 0.4.0
 * @category constants
 */
export const DefaultCallGas = 10_000_000

/**
 * The most gas a contract transaction or call may give the EVM: Ethereum's block gas limit. The EVM
 * runs on the emulator's one thread, so a request's gas is the time it may hold every other
 * request up (a loop burns about 25 million gas a second here): a transaction asking for more is
 * refused as a node refuses one above its block's gas limit (400 1065001 "exceeds block gas
 * limit"), a call is capped to it as a node's RPC gas cap does.
 *
 * @since 0.4.0
 * @category constants
 */
export const MaxGas = 30_000_000

/**
 * The time between two blocks when none is configured.
 *
 * @since 0.2.0
 * @category constants
 */
export const DefaultBlockInterval: Duration.Duration = Duration.seconds(1)

/**
 * The chains the ledger keeps.
 *
 * @since 0.2.0
 * @category constants
 */
export const Chains: ReadonlyArray<number> = [8217, 1001]

/**
 * Who pays the fee of a transaction: the sender (`/v2/tx/...`), the global fee payer
 * (`/v2/tx/fd/...`) or a fee-payer account of the member (`/v2/tx/fd-user/...`), in the selected
 * fee-payer pool when one is. `feeRatio` is the fee payer's percentage, 0 for all of it.
 *
 * @since 0.2.0
 * @category models
 */
export type Payer =
  | { readonly _tag: "Sender" }
  | { readonly _tag: "Global"; readonly feeRatio: number }
  /**
   * A raw transaction signed whole elsewhere (a node's `sendRawTransaction`): its fee payer, when
   * its type has one, is the one in the transaction (any address: it pays from its balance on the
   * chain), its signatures as they came, checked against its account key; `feeRatio` is the
   * transaction's own.
   *
   * @since 0.5.0
   */
  | { readonly _tag: "Signed"; readonly feeRatio: number }
  | {
    readonly _tag: "User"
    readonly address: Address.Address
    readonly feeRatio: number
    readonly pool: Store.SelectedPool | undefined
  }

/**
 * What a transaction does, by kind: a value transfer (`memo`: free text, its UTF-8 bytes the input;
 * empty counts as absent), a deployment (`input`: the creation code with its constructor
 * arguments), an execution (`input`: the calldata), a cancel (of the sender's pending transaction
 * of the request's nonce: `replace`), an anchoring (`input`: the data), an account update (`key`:
 * the new key in Klaytn's RLP form, checked), a legacy transaction (to a recipient, or deploying
 * its input), or a raw transaction built elsewhere (`rlp`: its transaction, and its sender's
 * signatures when they came with it). `value` is peb sent along.
 *
 * @since 0.4.0
 * @category models
 */
export type Action =
  | { readonly kind: "cancel" }
  | { readonly kind: "anchor"; readonly input: Uint8Array }
  | { readonly kind: "account"; readonly key: Uint8Array }
  | {
    readonly kind: "legacy"
    readonly to: Address.Address | undefined
    readonly value: Amount.Peb
    readonly input: Uint8Array | undefined
  }
  | {
    readonly kind: "rlp"
    readonly tx: Klaytn.Tx
    /** The sender's signatures (a TxHashRLP); absent: a SigRLP, which a pool account signs. */
    readonly signatures: ReadonlyArray<Klaytn.SignatureValues> | undefined
    /**
     * The fee payer's address and signatures, when they came with the transaction (payer
     * `Signed`).
     *
     * @since 0.5.0
     */
    readonly feePayer?: Klaytn.SignedParts["feePayer"] | undefined
  }
  | {
    readonly kind: "value"
    readonly to: Address.Address
    readonly value: Amount.Peb
    readonly memo: string | undefined
  }
  | { readonly kind: "contract/deploy"; readonly input: Uint8Array; readonly value: Amount.Peb }
  | {
    readonly kind: "contract/execute"
    readonly to: Address.Address
    readonly input: Uint8Array
    readonly value: Amount.Peb
  }

/**
 * A transaction request of any kind, its body decoded.
 *
 * @since 0.4.0
 * @category models
 */
export type SendRequest = Action & {
  /** The selected account pool: the sender must be one of its accounts. */
  readonly pool: Store.SelectedPool
  readonly from: Address.Address
  /** Absent or 0: the sender's next nonce. */
  readonly nonce: number | undefined
  /** Absent or 0: the kind's `DefaultGas`. */
  readonly gas: number | undefined
  readonly submit: boolean
  readonly payer: Payer
  /**
   * Replace the sender's pending transaction of `nonce` (manual mining), as a cancel does; `nonce`
   * is then taken as given, 0 included. Without a pending transaction of that nonce the request
   * is an ordinary one (a committed nonce is "nonce too low").
   *
   * @since 0.5.0
   */
  readonly replace?: boolean | undefined
}

/**
 * A read-only contract call, its body decoded: the method and its typed arguments, run on the
 * latest state of the chain as `from` (the zero address when absent).
 *
 * @since 0.4.0
 * @category models
 */
export interface CallRequest {
  readonly chainId: number
  readonly from: Address.Address | undefined
  readonly to: Address.Address
  readonly value: Amount.Peb | undefined
  /** Absent or 0: `DefaultCallGas`. */
  readonly gas: number | undefined
  readonly methodName: string
  readonly arguments: ReadonlyArray<Wire.CallArgument>
}

/**
 * A read-only run (`Service.simulate`): from, to (absent: the input is creation code) and the gas
 * the EVM may use, Klaytn's intrinsic gas already taken off. Addresses lower case.
 *
 * @since 0.5.0
 * @category models
 */
export interface SimulateRequest {
  readonly chainId: number
  readonly from: string
  readonly to: string | undefined
  readonly value: bigint
  readonly input: Uint8Array
  readonly gasLimit: bigint
}

/**
 * How blocks are made: `interval`, one every block interval by the clock, a transaction run and
 * applied when accepted (its receipt `Pending` until its block's time); `manual`, only when `mine`
 * is called, a transaction waiting in the chain's pending pool until then.
 *
 * @since 0.5.0
 * @category models
 */
export type Mining = "interval" | "manual"

/**
 * A block `mine` made: its number, hash and time, and the hashes of its transactions in order.
 *
 * @since 0.5.0
 * @category models
 */
export interface MinedBlock {
  readonly chainId: number
  readonly blockNumber: number
  readonly blockHash: string
  readonly blockTimeMs: number
  readonly transactions: ReadonlyArray<string>
}

/**
 * A transaction the ledger knows by hash: `pending` in the pool (manual mining), or `committed`
 * (in a block; in interval mode that includes one applied and waiting for its block's time). The
 * signed raw bytes, sender and nonce (lower case) are what a cancel or a resubmission needs.
 *
 * @since 0.5.0
 * @category models
 */
export interface Known {
  readonly status: "pending" | "committed"
  readonly hash: string
  readonly sender: string
  readonly nonce: number
  readonly memberId: number
  readonly raw: Uint8Array
}

/**
 * The ledger's operations on the wire.
 *
 * @since 0.2.0
 * @category models
 */
export interface Service {
  /** Signs (and unless `submit` is false, applies) a transaction of any kind; answers its result. */
  readonly send: (request: SendRequest) => Effect.Effect<Transaction.TransactionResult, Refusal.Refusal | SqlError.SqlError>
  /** Runs a contract method read-only on the latest state; answers the calldata and what it returned. */
  readonly call: (request: CallRequest) => Effect.Effect<Transaction.ContractCallResult, Refusal.Refusal | SqlError.SqlError>
  /**
   * Runs calldata (or, without `to`, creation code) read-only on the latest state, in the latest
   * block's context, changing nothing: what a contract call and a node's `eth_call` and gas
   * estimate run. Fails with `EvmError` where Klaytn refuses before running (value the sender
   * does not hold).
   *
   * @since 0.5.0
   */
  readonly simulate: (request: SimulateRequest) => Effect.Effect<Evm.Outcome, Evm.EvmError | SqlError.SqlError>
  /**
   * The receipt of a transaction by lower-case hash, `Pending` while in the pool;
   * `TransactionNotFound` when the chain has none.
   */
  readonly receipt: (chainId: number, hash: string) => Effect.Effect<Transaction.TransactionReceipt, Refusal.Refusal | SqlError.SqlError>
  /**
   * A transaction by hash (any case), pending or committed.
   *
   * @since 0.5.0
   */
  readonly lookup: (chainId: number, hash: string) => Effect.Effect<Option.Option<Known>, SqlError.SqlError>
  /**
   * The pending transactions of a sender (any case), by nonce.
   *
   * @since 0.5.0
   */
  readonly pendingBySender: (chainId: number, sender: string) => Effect.Effect<ReadonlyArray<Known>, SqlError.SqlError>
  /**
   * Makes `blocks` blocks (1 to `MaxBlocksPerMine`) on a chain, the first holding every pending
   * transaction in acceptance order; manual mining only (400 1065001 otherwise).
   *
   * @since 0.5.0
   */
  readonly mine: (chainId: number, blocks: number) => Effect.Effect<ReadonlyArray<MinedBlock>, Refusal.Refusal | SqlError.SqlError>
  /**
   * How blocks are made.
   *
   * @since 0.5.0
   */
  readonly mining: Mining
  /**
   * The member's transactions on a chain whose fee the global fee payer paid, newest first: those
   * in a block whose time has come (interval mining; every mined one with manual mining), as the
   * receipts show them committed.
   *
   * @since 0.5.0
   */
  readonly feeRecords: (
    query: Omit<LedgerStore.FeeHistoryQuery, "visibleAtMs">
  ) => Effect.Effect<ReadonlyArray<LedgerStore.FeeRecordRow>, SqlError.SqlError>
  /**
   * The account key of an address on a chain (any case): the one its last account update set,
   * else the legacy key (its own).
   *
   * @since 0.8.0
   */
  readonly accountKey: (chainId: number, address: string) => Effect.Effect<Klaytn.AccountKey, SqlError.SqlError>
  /**
   * Signs a 32-byte hash with the key KAS holds for an account of a pool: its signature on the
   * pool's chain and its public key (compressed); `None` when the pool holds no such account. A
   * corrupted account (its key updated away) is 1065100, a disabled one 1061512.
   *
   * @since 0.8.0
   */
  readonly signAs: (
    pool: Store.SelectedPool,
    address: string,
    hash: Uint8Array
  ) => Effect.Effect<
    Option.Option<{ readonly signature: Klaytn.SignatureValues; readonly publicKey: Uint8Array }>,
    Refusal.Refusal | SqlError.SqlError
  >
  /** The global fee payer of a chain (made when the ledger starts). */
  readonly globalFeePayer: (chainId: number) => Address.Address
  /** The time between two blocks. */
  readonly blockInterval: Duration.Duration
}

/**
 * The ledger of an emulator.
 *
 * @since 0.2.0
 * @category tags
 */
export class Ledger extends Context.Tag("effect-kas-wallet-emulator/Ledger")<Ledger, Service>() {}

/**
 * The fee payer's part of a fee: ⌊fee × ratio / 100⌋ with a ratio 1..99, all of it with 0 (the
 * whole fee delegated). The sender pays `fee - part`, so the parts always sum to the fee.
 *
 * @since 0.2.0
 * @category fees
 */
export const feePayerPart = (fee: bigint, feeRatio: number): bigint => (feeRatio === 0 ? fee : (fee * BigInt(feeRatio)) / 100n)

/**
 * Where a transaction goes: the next block to be made at `now`, never before the last block that
 * holds transactions (the clock may go backwards), and its position in that block.
 *
 * @since 0.2.0
 * @category blocks
 */
export const placement = (
  now: number,
  genesisMs: number,
  intervalMs: number,
  tip: Option.Option<LedgerStore.Tip>
): { readonly blockNumber: number; readonly blockTimeMs: number; readonly transactionIndex: number } => {
  const next = Math.max(1, Math.floor((now - genesisMs) / intervalMs) + 1)
  const last = Option.getOrUndefined(tip)
  const blockNumber = last !== undefined ? Math.max(next, last.blockNumber) : next
  return {
    blockNumber,
    blockTimeMs: genesisMs + blockNumber * intervalMs,
    transactionIndex: last !== undefined && last.blockNumber === blockNumber ? last.count : 0
  }
}

/**
 * The hash of a block: keccak256 of the chain, the number and the time of the block. The emulator
 * makes no block bodies; the hash only needs to be stable and distinct per block.
 *
 * @since 0.2.0
 * @category blocks
 */
export const blockHash = (chainId: number, blockNumber: number, blockTimeMs: number): string =>
  `0x${Buffer.from(keccak256(new TextEncoder().encode(`effect-kas-wallet emulator block ${chainId}:${blockNumber}:${blockTimeMs}`))).toString("hex")}`

/**
 * The most blocks one `mine` makes.
 *
 * @since 0.5.0
 * @category constants
 */
export const MaxBlocksPerMine = 1000

/**
 * The `txError` of a transaction accepted into the pool whose run is refused when it is mined (its
 * recipient gained or lost code meanwhile): Klaytn's default error code. The nonce moves on and the
 * intrinsic gas is charged, so that the sender's later pending transactions stay in order.
 *
 * @since 0.5.0
 * @category constants
 */
export const RefusedAtMining = 0x02

const SENDER_FUNDS = "insufficient funds of the sender for value "
// go-ethereum's word for a transaction the pool holds already, which the client's reliable send recognises.
const ALREADY_KNOWN = "already known"
// Klaytn's ErrAlreadyNonceExistInPool: only a replacement (a cancel) may take a pending nonce.
const NONCE_IN_POOL = "there is another tx which has the same nonce in the tx pool"
// The EVM's refusal of an execution of an address without code (Evm.ts), checked at acceptance in manual mode.
const NOT_A_PROGRAM_ACCOUNT = "not a program account (e.g., an account having code and storage)"
const FEE_PAYER_FUNDS = "insufficient funds of the fee payer for gas * price"

const globalContext = (chainId: number) => `global-fee-payer:${chainId}`

const internalFailure = (what: string) => Effect.die(new Error(`ledger: ${what}`))

// How many times a transaction is read, run and written again when another process changed what
// it read in between. Each conflict means another writer made progress.
const MaxAttempts = 50

/**
 * The latest block made at `now` (0 before the chain's first transaction) and its time: the state
 * a contract call reads.
 *
 * @since 0.4.0
 * @category blocks
 */
export const latestBlock = (
  now: number,
  genesisMs: number | undefined,
  intervalMs: number
): { readonly blockNumber: number; readonly blockTimeMs: number } => {
  if (genesisMs === undefined) return { blockNumber: 0, blockTimeMs: now }
  const blockNumber = Math.max(0, Math.floor((now - genesisMs) / intervalMs))
  return { blockNumber, blockTimeMs: genesisMs + blockNumber * intervalMs }
}

/**
 * The latest block of a chain at `now`: in manual mining the last block `mine` made (its context,
 * for a run, at the clock's time); by interval, the last block the clock has made (`latestBlock`).
 * What a read-only run and a node's `blockNumber` see.
 *
 * @since 0.5.0
 * @category blocks
 */
export const head = (
  chain: Pick<LedgerStore.ChainRow, "genesisMs" | "minedBlock">,
  now: number,
  mining: Mining,
  intervalMs: number
): { readonly blockNumber: number; readonly blockTimeMs: number } =>
  mining === "manual" ? { blockNumber: chain.minedBlock, blockTimeMs: now } : latestBlock(now, chain.genesisMs, intervalMs)

/**
 * Whether a transaction written in a block at `blockTimeMs` is in a block at `now`: by interval,
 * once its block's time has come (until then it is pending); in manual mining, as soon as it is
 * written (`mine` made its block).
 *
 * @since 0.5.0
 * @category blocks
 */
export const inBlock = (mining: Mining, blockTimeMs: number, now: number): boolean => mining === "manual" || now >= blockTimeMs

const NOT_FOR_PROGRAM_ACCOUNT = "this type transaction cannot be sent to contract addresses"
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"

// The input of a transaction: a memo's UTF-8 bytes (an empty memo is none), or the contract's,
// the anchored data, a legacy transaction's data.
const inputOf = (action: Action): Uint8Array | undefined => {
  switch (action.kind) {
    case "value":
      return action.memo !== undefined && action.memo !== "" ? new TextEncoder().encode(action.memo) : undefined
    case "contract/deploy":
    case "contract/execute":
    case "anchor":
    case "legacy":
      return action.input
    case "rlp":
      return action.tx.input
    case "cancel":
    case "account":
      return undefined
  }
}

// The recipient of a transaction, by kind.
const recipientOf = (action: Action): Address.Address | undefined =>
  action.kind === "value" || action.kind === "contract/execute" || action.kind === "legacy" ? action.to : action.kind === "rlp" ? action.tx.to : undefined

// The value a transaction moves, by kind.
const valueOf = (action: Action): bigint =>
  action.kind === "value" || action.kind === "contract/deploy" || action.kind === "contract/execute" || action.kind === "legacy"
    ? action.value
    : action.kind === "rlp"
    ? action.tx.value
    : 0n

/**
 * The state a wallet account takes after an account update to this key, by the key that signs its
 * transactions (a role-based key's transaction role): a weighted multisig key makes it a multisig
 * account (`enabled`: its transactions wait for its signers); the key KAS holds for it (`enabled`,
 * `kasSigns`); a fail key signs for nothing (`disabled`, as the service does); any other key is
 * not KAS's (`corrupted`: KAS can no longer sign for it).
 *
 * @since 0.5.0
 * @category keys
 */
export const statusAfterUpdate = (
  address: string,
  key: Klaytn.AccountKey,
  held?: Uint8Array | undefined
): "enabled" | "disabled" | "corrupted" => {
  // What signs its transactions decides (a role-based key's transaction role). KAS's key of an
  // account is the one it holds: for an account KAS made, the one its address comes from.
  const signing = key._tag === "RoleBased" ? key.roles[Klaytn.Role.Transaction]! : key
  if (key._tag === "WeightedMultiSig") return "enabled"
  if (signing._tag === "Fail") return "disabled"
  return kasSigns(address, key, held) ? "enabled" : "corrupted"
}

/**
 * Whether the key KAS holds for an account signs its transactions under this account key (a
 * role-based key's transaction role): a legacy key or a public key of its own address for an
 * account KAS made; the public key of its key for an account registered under a key of the key
 * service (`held`: that key's public key, uncompressed, whose address is then not the account's).
 *
 * @since 0.8.0
 * @category keys
 */
export const kasSigns = (address: string, key: Klaytn.AccountKey, held?: Uint8Array | undefined): boolean => {
  const signing = key._tag === "RoleBased" ? key.roles[Klaytn.Role.Transaction]! : key
  const kas = held !== undefined ? AccountKeys.addressOf(held).toLowerCase() : address.toLowerCase()
  const signer = signing._tag === "Legacy"
    ? address.toLowerCase()
    : signing._tag === "Public"
    ? Either.getOrUndefined(Klaytn.addressOfPublicKey(signing.publicKey))?.toLowerCase()
    : undefined
  return signer === kas
}

// A stored public key (`0x04` + 128 hex digits) as bytes.
const bytesOfPublicKey = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.slice(2), "hex"))

const hexOf = (bytes: Uint8Array): string => `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`

/**
 * A public key (compressed, as account keys hold it) in the form accounts show it: uncompressed,
 * `0x04` + 128 lower-case hex digits.
 *
 * @since 0.8.0
 * @category keys
 */
export const uncompressedHex = (publicKey: Uint8Array): string => hexOf(secp256k1.Point.fromBytes(publicKey).toBytes(false))

/**
 * What a wallet account's JSON shows of a weighted multisig key: `{"multiSigKeys":[{"publicKey",
 * "weight"}],"threshold"}` (keys uncompressed, in the key's order); nothing for another key.
 *
 * @since 0.8.0
 * @category keys
 */
export const multisigJson = (key: Klaytn.AccountKey): string | undefined =>
  key._tag === "WeightedMultiSig"
    ? JSON.stringify({
      multiSigKeys: key.keys.map((k) => ({ publicKey: uncompressedHex(k.publicKey), weight: k.weight })),
      threshold: key.threshold
    })
    : undefined

// A call argument as ox encodes it: integers (JSON numbers, decimal or 0x strings: the wire
// schema checked them) as bigint, element by element in arrays; everything else as given.
const abiValue = (type: string, value: unknown): unknown => {
  const array = /^(.*)\[\d*\]$/.exec(type)
  if (array !== null) return (value as ReadonlyArray<unknown>).map((v) => abiValue(array[1]!, v))
  return /^u?int\d*$/.test(type) ? BigInt(value as string | number) : value
}

// ox's ABI coder, loaded on the first call: an emulator that never calls a contract never loads it.
// The promise is kept: an `import()` per call would resolve the module again each time.
let abiFunction: Promise<typeof import("ox/AbiFunction")> | undefined
const loadAbiFunction = Effect.promise(() => (abiFunction ??= import("ox/AbiFunction")))

/**
 * The calldata of a method and its typed arguments: the selector of `methodName(type,...)` and the
 * ABI encoding of the values (ox). `undefined` when ox refuses a value the wire schema let by.
 *
 * @since 0.4.0
 * @category calls
 */
export const callData = (methodName: string, args: ReadonlyArray<Wire.CallArgument>): Effect.Effect<string | undefined> =>
  Effect.map(loadAbiFunction, (AbiFunction) => {
    try {
      const fn = AbiFunction.from({
        type: "function",
        name: methodName,
        inputs: args.map((a) => ({ type: a.type })),
        outputs: [],
        stateMutability: "view"
      })
      const values = args.map((a) => abiValue(a.type, a.value))
      return (values.length === 0 ? AbiFunction.encodeData(fn) : AbiFunction.encodeData(fn, values as never)).toLowerCase()
    } catch {
      return undefined
    }
  })

/**
 * What a transaction did once the node accepted it: the gas it used, Klaytn's error code when its
 * contract failed, its logs, the balances and nonces it moves (fees and the sender's nonce aside),
 * what the run read and the code and storage it writes.
 */
interface Effects {
  readonly gasUsed: number
  readonly txError: number | undefined
  /** The `Error(string)` message of a revert: kept with the transaction, not shown (Klaytn's receipts have none). */
  readonly revertReason: string | undefined
  /** `undefined` for a transfer, which has no logs to keep. */
  readonly logs: ReadonlyArray<Evm.Log> | undefined
  readonly changes: Pick<Evm.Outcome, "balanceChanges" | "nonces">
  readonly reads: LedgerStore.Reads
  readonly contracts: LedgerStore.Contracts | undefined
}

const NoContracts: LedgerStore.Contracts = { code: [], storage: [], destroyed: [] }

/**
 * A transaction accepted (checked and signed): what its run and write need, at once in interval
 * mode, at mining from the pool's row in manual mode.
 */
interface Accepted {
  readonly chainId: number
  readonly memberId: number
  readonly signed: Klaytn.SignedTx
  readonly payerKind: LedgerStore.PayerKind
  /** The member's fee-payer account paying (lower case), for `payerKind` `user`. */
  readonly userPayer: string | undefined
  readonly acceptedMs: number
}

/** Where a transaction goes: its block, index, and the block-wide index of its first log. */
interface Place {
  readonly blockNumber: number
  readonly blockTimeMs: number
  readonly transactionIndex: number
  readonly logIndex: number
}

/** A party that signs here, its address known: the fee payer of a transaction. */
interface Party {
  readonly address: Address.Address
  readonly key: Uint8Array
}

/**
 * A transaction with its sender's signatures, signed by its fee payer (for a fee-delegated type),
 * sealed with its raw form and hashes. Not `Klaytn.signTransaction` / `signAsFeePayer`: they derive
 * each signer's address from its key again, a scalar multiplication as costly as a signature,
 * where the ledger knows both (the vault opens a key only under its own address, its associated
 * data; the global fee payer's was checked at start). Signed the same way, the same bytes.
 *
 * @since 0.9.0
 * @category signing
 */
export const signKnown = (
  tx: Klaytn.Tx,
  chainId: number,
  signatures: ReadonlyArray<Klaytn.SignatureValues>,
  feePayer: Party | undefined
): Either.Either<Klaytn.SignedTx, Klaytn.KlaytnError> => {
  // Only a fee-delegated type has a fee payer to sign: signAsFeePayer refuses the mismatch.
  if (feePayer === undefined || !Wire.isFeeDelegatedType(tx.type)) return Klaytn.signAsFeePayer(tx, signatures, { chainId, feePayer: feePayer?.key })
  return Either.map(Klaytn.sign(Klaytn.feePayerSigningHash(tx, feePayer.address, chainId), feePayer.key, chainId), (payerSignature) => {
    const parts: Klaytn.SignedParts = { tx, signatures, feePayer: { address: feePayer.address, signatures: [payerSignature] } }
    const raw = Klaytn.encodeRaw(parts)
    return { ...parts, chainId, raw, transactionHash: Klaytn.transactionHash(raw), senderTxHash: Klaytn.senderTxHash(parts) }
  })
}

/**
 * Builds the ledger: makes each chain's global fee payer on first start (a fresh key, sealed in the
 * database; the first emulator to start on a database makes it, the others use it).
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (options: {
  readonly blockInterval?: Duration.DurationInput | undefined
  readonly mining?: Mining | undefined
}): Effect.Effect<Service, EmulatorError, LedgerStore.LedgerStore | MultisigStore.MultisigStore | KeyVault.KeyVault> =>
  Effect.gen(function*() {
    const store = yield* LedgerStore.LedgerStore
    const multisigs = yield* MultisigStore.MultisigStore
    const vault = yield* KeyVault.KeyVault
    const interval = Duration.decode(options.blockInterval ?? DefaultBlockInterval)
    const intervalMs = Duration.toMillis(interval)
    if (!Number.isFinite(intervalMs) || intervalMs < 1) {
      return yield* new EmulatorError({ reason: "Config", message: `blockInterval must be at least 1 millisecond, got ${Duration.format(interval)}` })
    }
    const mining = options.mining ?? "interval"
    if (mining !== "interval" && mining !== "manual") {
      return yield* new EmulatorError({ reason: "Config", message: `mining must be interval or manual, got ${String(mining)}` })
    }
    const manual = mining === "manual"

    const globalPayers = new Map<number, { readonly address: Address.Address; readonly key: Redacted.Redacted<Uint8Array> }>()
    for (const chainId of Chains) {
      const made = AccountKeys.generate()
      const stored = yield* store.setGlobalFeePayer(
        chainId,
        made.address.toLowerCase(),
        vault.seal(made.privateKey, globalContext(chainId))
      ).pipe(
        Effect.mapError((cause) => new EmulatorError({ reason: "Database", message: "cannot store the global fee payer", cause }))
      )
      const key = vault.open(stored.sealedKey, globalContext(chainId))
      // The key just made (a new database) opens to the same bytes: its address is known, a second
      // derivation would cost a multiplication (~0.7 ms per chain at every start of an emulator).
      const address = Option.flatMap(key, (k) =>
        Buffer.from(Redacted.value(k)).equals(Redacted.value(made.privateKey))
          ? Option.some(made.address)
          : Option.fromNullable(Either.getOrUndefined(Klaytn.addressOfKey(Redacted.value(k)))))
      if (Option.isNone(key) || Option.isNone(address) || address.value.toLowerCase() !== stored.address) {
        return yield* new EmulatorError({ reason: "MasterKey", message: `the global fee payer of chain ${chainId} does not open with this master key` })
      }
      globalPayers.set(chainId, { address: address.value, key: key.value })
    }

    // An address's account key on a chain: the one its last account update set, else its own
    // (legacy). A stored key is one the ledger wrote after decoding it: one that does not decode
    // is a broken row.
    const storedKey = (address: string, stored: Option.Option<Uint8Array>) =>
      Option.match(stored, {
        onNone: () => Effect.succeed<Klaytn.AccountKey>({ _tag: "Legacy" }),
        onSome: (bytes) =>
          Either.match(Klaytn.decodeAccountKey(bytes), {
            onLeft: (e) => internalFailure(`the stored key of ${address}: ${e.reason}`),
            onRight: Effect.succeed
          })
      })
    const keyOf = (chainId: number, address: string) =>
      Effect.flatMap(store.accountKey(chainId, address.toLowerCase()), (stored) => storedKey(address, stored))

    // A chain's gas price never changes, nor its genesis once set (by the first transaction): from
    // then on, in interval mode, the chain's row is read here rather than from the database. (In
    // manual mode each `mine` and each pool change move it: read every time.)
    const settled = new Map<number, LedgerStore.ChainRow>()
    const chainRow = (chainId: number) => {
      const known = settled.get(chainId)
      return known !== undefined ? Effect.succeed(known) : Effect.tap(store.chain(chainId), (row) => {
        if (row.genesisMs !== undefined && !manual) settled.set(chainId, row)
      })
    }

    // A stored address (checksummed when written) as the codec takes it.
    const rowAddress = (row: LedgerStore.KeyRow) =>
      Option.match(Address.checksum(row.address), {
        onNone: () => internalFailure(`the stored address ${row.address}`),
        onSome: Effect.succeed
      })

    const openKey = (row: LedgerStore.KeyRow) =>
      Option.match(vault.open(row.sealedKey, row.address.toLowerCase()), {
        // The vault checked the master key at start: a key that does not open is a broken row.
        onNone: () => internalFailure(`the key of ${row.address} does not open`),
        onSome: (key) => Effect.succeed(Redacted.value(key))
      })

    // What a value transfer does: `value` from the sender to the recipient, which must hold no
    // code (Klaytn refuses a transfer to a contract; the write checks it still holds none).
    // `codeHashes`: what acceptance read of the parties' code, when it did.
    const transferEffects = (
      chainId: number,
      from: string,
      to: string,
      value: bigint,
      gasUsed: number,
      codeHashes: ReadonlyMap<string, string | undefined> | undefined
    ) =>
      Effect.gen(function*() {
        const hasCode = codeHashes?.has(to) ? codeHashes.get(to) !== undefined : Option.isSome(yield* store.code(chainId, to))
        if (hasCode) return yield* new Refusal.NodeRefused({ reason: NOT_FOR_PROGRAM_ACCOUNT, during: "send" })
        const balanceChanges = new Map<string, bigint>([[from, -value]])
        balanceChanges.set(to, (balanceChanges.get(to) ?? 0n) + value)
        return {
          gasUsed,
          txError: undefined,
          revertReason: undefined,
          logs: undefined,
          changes: { balanceChanges, nonces: new Map() },
          reads: { accounts: [], code: [{ address: to, codeHash: undefined }], storage: [] },
          contracts: undefined
        } satisfies Effects
      })

    // What a contract transaction does: the EVM's run with the gas the intrinsic gas leaves. Klaytn
    // refusing it before it runs (an execution of an address without code) is the node's 1065001.
    const contractEffects = (message: Evm.Message, intrinsic: number, gas: number, contractAt: string | undefined) =>
      Effect.gen(function*() {
        const outcome = yield* Evm.run(message, Evm.storeReader(store, message.chainId)).pipe(
          Effect.catchTag("EvmError", (e) => new Refusal.NodeRefused({ reason: e.reason === "InsufficientFunds" ? SENDER_FUNDS : e.message, during: "send" }))
        )
        const ok = outcome.status === "success"
        const gasUsed = Number(Evm.totalGas(BigInt(intrinsic), outcome))
        if (gasUsed > gas) return yield* internalFailure(`the run used ${gasUsed} gas of ${gas}`)
        // Klaytn's address of the contract (the receipt's, rebuilt from the transaction) is the EVM's.
        if (message.kind === "deploy" && ok && outcome.createdAddress !== contractAt) {
          return yield* internalFailure(`the EVM created ${outcome.createdAddress}, not ${contractAt}`)
        }
        return {
          gasUsed,
          txError: ok ? undefined : outcome.txError,
          revertReason: outcome.revertReason,
          logs: outcome.logs,
          changes: ok ? outcome : { balanceChanges: new Map(), nonces: new Map() },
          // Whatever the status, the outcome depends on what the run read.
          reads: outcome.reads,
          contracts: ok ? outcome.contracts : NoContracts
        } satisfies Effects
      })

    // The reserve checks: what an address must hold for a transaction to be accepted is what the
    // transaction may cost it plus what its pending transactions may still cost it.
    const share = (fee: bigint, payerKind: LedgerStore.PayerKind, feeRatio: number | undefined) =>
      payerKind === "sender" ? 0n : feePayerPart(fee, feeRatio ?? 0)

    // The execution of an accepted transaction: runs its kind on the ledger, charges the fee and
    // writes everything (state, receipt, bill, and what `extra` adds: the start of the block clock,
    // the pool change and block of mining) in one atomic write. `false`: another writer changed
    // what was read. `mining`: the transaction was accepted earlier, so a refusal of its run (its
    // recipient became a contract, say) is no longer an answer to give: it is committed failed.
    // `codeHashes`: the code of the parties, read with their balances at acceptance.
    const execute = (
      accepted: Accepted,
      read: Map<string, LedgerStore.Balance>,
      gasPrice: bigint,
      place: Place,
      extra: Pick<LedgerStore.Write, "genesisMs" | "pool" | "minedBlock">,
      mining: boolean,
      codeHashes?: ReadonlyMap<string, string | undefined>
    ): Effect.Effect<boolean, Refusal.Refusal | SqlError.SqlError> =>
      Effect.gen(function*() {
        const { chainId, signed } = accepted
        const tx = signed.tx
        const kind = Klaytn.kindOf(tx.type)
        const from = tx.from.toLowerCase()
        const to = tx.to?.toLowerCase()
        const input = tx.input
        // Its key was decoded when it was accepted: one that does not decode now is a broken row.
        const intrinsic = yield* Either.match(Klaytn.intrinsicGasOf(tx), { onLeft: (e) => internalFailure(e.reason), onRight: Effect.succeed })
        const deploys = kind === "contract/deploy" || (kind === "legacy" && to === undefined)
        // Where Klaytn puts a deployment's contract: the receipt's, and where the EVM must create it.
        const created = deploys ? Klaytn.contractAddress(tx.from, tx.nonce).toLowerCase() : undefined
        const inEvm = (target: "deploy" | "execute") =>
          contractEffects(
            {
              ...(target === "deploy" ? { kind: "deploy" as const } : { kind: "execute" as const, to: to! }),
              from,
              value: tx.value,
              input: input ?? new Uint8Array(0),
              gasLimit: BigInt(tx.gas - intrinsic),
              blockNumber: place.blockNumber,
              timestamp: Math.floor(place.blockTimeMs / 1000),
              chainId,
              gasPrice
            },
            intrinsic,
            tx.gas,
            created
          )
        const run: Effect.Effect<Effects, Refusal.Refusal | SqlError.SqlError> = (() => {
          switch (kind) {
            case "value":
              return transferEffects(chainId, from, to!, tx.value, intrinsic, codeHashes)
            case "contract/deploy":
              return inEvm("deploy")
            case "contract/execute":
              return inEvm("execute")
            case "legacy":
              // Ethereum's one type: a deployment without a recipient, a call of a contract, a
              // transfer to anything else.
              return to === undefined
                ? inEvm("deploy")
                : Effect.flatMap(store.code(chainId, to), (code): Effect.Effect<Effects, Refusal.Refusal | SqlError.SqlError> =>
                  Option.isSome(code) ? inEvm("execute") : transferEffects(chainId, from, to, tx.value, intrinsic, codeHashes))
            case "cancel":
            case "anchor":
            case "account":
              // Nothing runs: the fee and the nonce are all they change (and an update, the key).
              return Effect.succeed<Effects>({
                gasUsed: intrinsic,
                txError: undefined,
                revertReason: undefined,
                logs: undefined,
                changes: { balanceChanges: new Map(), nonces: new Map() },
                reads: { accounts: [], code: [], storage: [] },
                contracts: undefined
              })
          }
        })()
        // Refused when its turn came: committed failed, its nonce moving on and its intrinsic gas
        // charged, nothing else changing. Nothing to check: in this process ledger work is
        // serialized, and between processes the pool's compare-and-set orders this mining.
        const refused: Effects = {
          gasUsed: intrinsic,
          txError: RefusedAtMining,
          revertReason: undefined,
          logs: undefined,
          changes: { balanceChanges: new Map(), nonces: new Map() },
          reads: { accounts: [], code: [], storage: [] },
          contracts: undefined
        }
        let effects: Effects = mining ? yield* Effect.catchTag(run, "NodeRefused", () => Effect.succeed(refused)) : yield* run

        // The balances after the transaction: what it moves, then the fees.
        const settle = (effects: Effects) =>
          Effect.gen(function*() {
            const fee = BigInt(effects.gasUsed) * gasPrice
            const payerFee = share(fee, accepted.payerKind, tx.feeRatio)
            // Every address the transaction moves, read with the others (the run may reach any).
            const unread = Evm.changedAccounts(effects.changes).filter((address) => !read.has(address))
            if (unread.length > 0) for (const [address, state] of yield* store.balances(chainId, unread)) read.set(address, state)
            const after = Evm.applyChanges(read, effects.changes)
            const charge = (address: string, fee: bigint, nonceStep: number) => {
              const b = after.get(address)!
              after.set(address, { balance: b.balance - fee, nonce: b.nonce + nonceStep })
            }
            charge(from, fee - payerFee, 1)
            if (accepted.userPayer !== undefined) charge(accepted.userPayer, payerFee, 0)
            return { after, payerFee, senderFee: fee - payerFee }
          })
        let settled = yield* settle(effects)
        // A balance past 2^256 - 1 (value sent to an address that holds nearly that much): refused
        // at acceptance; at mining, the transaction is committed failed rather than holding up the block.
        if ([...settled.after.values()].some((b) => b.balance > Amount.MaxPeb)) {
          if (!mining) return yield* new Refusal.OutOfRange({ field: "value" })
          effects = refused
          settled = yield* settle(effects)
        }
        const { after, payerFee, senderFee } = settled
        for (const [address, b] of after) {
          // The funds check bounds value plus fees, and the EVM moves only what an account holds.
          if (b.balance < 0n) return yield* internalFailure(`${address} would hold ${b.balance} peb`)
        }

        const bill = accepted.payerKind === "global" ? yield* store.bill(accepted.memberId, chainId) : undefined
        // An account update's key takes effect with it (a refused one changes nothing but the fee).
        const newKey = kind === "account" && effects.txError === undefined && tx.key !== undefined
          ? Either.getOrUndefined(Klaytn.decodeAccountKey(tx.key))
          : undefined
        // The key KAS holds for the account at that address, when it holds one (registered accounts').
        const held = newKey !== undefined ? Option.getOrUndefined(yield* store.heldPublicKey(from)) : undefined
        return yield* store.write({
          chainId,
          ...extra,
          accountKey: newKey !== undefined
            ? {
              address: from,
              key: tx.key!,
              status: statusAfterUpdate(from, newKey, held),
              multisig: multisigJson(newKey),
              updatedAt: Math.floor(accepted.acceptedMs / 1000)
            }
            : undefined,
          balances: [...after].map(([address, write]) => ({ address, read: read.get(address) ?? LedgerStore.Empty, write })),
          bill: bill !== undefined
            ? {
              memberId: accepted.memberId,
              read: bill,
              write: { fees: bill.fees + payerFee, transactions: bill.transactions + 1 }
            }
            : undefined,
          reads: effects.reads,
          contracts: effects.contracts,
          transaction: {
            chainId,
            hash: signed.transactionHash,
            sender: from,
            nonce: tx.nonce,
            memberId: accepted.memberId,
            raw: signed.raw,
            blockNumber: place.blockNumber,
            blockTimeMs: place.blockTimeMs,
            transactionIndex: place.transactionIndex,
            gasUsed: effects.gasUsed,
            feePayer: signed.feePayer?.address.toLowerCase(),
            payerKind: accepted.payerKind,
            senderFee,
            feePayerFee: payerFee,
            acceptedMs: accepted.acceptedMs,
            txError: effects.txError,
            revertReason: effects.revertReason,
            contractAddress: created,
            logs: effects.logs,
            // Log indexes count across the block: this transaction's follow the block's earlier logs.
            logIndex: effects.logs === undefined ? undefined : place.logIndex
          }
        })
      })

    // Ledger work that reads, then writes with compare-and-set: tried again (up to MaxAttempts)
    // while another process changes what it read in between (`None`).
    const retrying = <A, E>(attempt: Effect.Effect<Option.Option<A>, E>): Effect.Effect<A, E> => {
      const loop = (n: number): Effect.Effect<A, E> =>
        Effect.flatMap(attempt, Option.match({
          onSome: Effect.succeed,
          onNone: () => (n + 1 < MaxAttempts ? loop(n + 1) : internalFailure("other writers keep changing the ledger"))
        }))
      return loop(0)
    }

    // A multisig sender's transaction, made but unsigned, stored to wait for its signers: the
    // weighted keys of the account now (each named by the member's account holding it, else by
    // its own address), the fee payer to sign once they have. Its id is random: the same request
    // twice is two transactions, as two requests of any other sender are.
    const pend = (p: {
      readonly tx: Klaytn.Tx
      readonly key: Extract<Klaytn.AccountKey, { readonly _tag: "WeightedMultiSig" }>
      readonly pool: Store.SelectedPool
      readonly payerKind: LedgerStore.PayerKind
      readonly feePayer: string | undefined
      readonly feePayerPool: Store.SelectedPool | undefined
      readonly nowMs: number
    }) =>
      Effect.gen(function*() {
        const { chainId, memberId } = p.pool
        const intrinsic = yield* Either.match(Klaytn.intrinsicGasOf(p.tx), { onLeft: (e) => internalFailure(e.reason), onRight: Effect.succeed })
        if (p.tx.gas < intrinsic) return yield* new Refusal.NodeRefused({ reason: "intrinsic gas too low", during: "send" })
        const sigRlp = yield* Either.match(Klaytn.encodeSigRlp(p.tx, chainId), { onLeft: (e) => internalFailure(e.reason), onRight: Effect.succeed })
        const keys = p.key.keys.map((k) => ({ compressed: Buffer.from(k.publicKey).toString("hex"), uncompressed: uncompressedHex(k.publicKey), weight: k.weight }))
        const holders = yield* multisigs.accountsOfKeys(memberId, chainId, keys.map((k) => k.uncompressed))
        const signers = keys.map((k): MultisigStore.Signer => ({
          publicKey: k.compressed,
          address: holders.get(k.uncompressed) ?? AccountKeys.addressOf(bytesOfPublicKey(k.uncompressed)).toLowerCase(),
          weight: k.weight
        }))
        const id = `0x${randomBytes(32).toString("hex")}`
        const seconds = Math.floor(p.nowMs / 1000)
        yield* multisigs.insert({
          id,
          memberId,
          chainId,
          poolKrn: p.pool.krn.toString(),
          sender: p.tx.from.toLowerCase(),
          nonce: p.tx.nonce,
          tx: sigRlp,
          payerKind: p.payerKind,
          feePayer: p.payerKind === "user" ? p.feePayer : undefined,
          feePayerPoolKrn: p.feePayerPool?.krn.toString(),
          signers,
          threshold: p.key.threshold,
          createdAt: seconds,
          updatedAt: seconds
        })
        const feePayer = p.feePayer === undefined ? undefined : yield* Either.match(Address.Address.pipe(Schema.decodeUnknownEither)(p.feePayer), {
          onLeft: () => internalFailure(`fee payer ${p.feePayer}`),
          onRight: Effect.succeed
        })
        return { ...Klaytn.toPendingTxData(p.tx, feePayer), status: "Pending" as const, transactionId: id as Transaction.TransactionId }
      })

    // A transaction signed whole elsewhere, its sender's signatures already checked: a type with a
    // fee payer needs its signatures, checked against the fee payer's key on the chain (its
    // fee-payer role), as a node does.
    const signedWhole = (chainId: number, parts: Klaytn.SignedParts, senderKey: Klaytn.AccountKey) =>
      Effect.gen(function*() {
        if (Wire.isFeeDelegatedType(parts.tx.type)) {
          if (parts.feePayer === undefined) return yield* new Refusal.NodeRefused({ reason: "invalid fee payer", during: "send" })
          const payerKey = yield* keyOf(chainId, parts.feePayer.address)
          if (Either.isLeft(Klaytn.validateSignatures(parts, chainId, { sender: senderKey, feePayer: payerKey }))) {
            return yield* new Refusal.NodeRefused({ reason: "invalid fee payer", during: "send" })
          }
        }
        return Klaytn.fromRaw(Klaytn.encodeRaw(parts), chainId)
      })

    // Acceptance, one pipeline for every kind: the request's parties and keys, the nonce, the
    // signed transaction, then the node's checks against the state plus the pool; then, by mining
    // mode, the run and write at once (interval) or the entry into the pool (manual).
    const send: Service["send"] = (request) =>
      Effect.gen(function*() {
        const chainId = request.pool.chainId
        const input = inputOf(request)
        const raw = request.kind === "rlp" ? request : undefined
        const feeRatio = request.payer._tag === "Sender" ? undefined : request.payer.feeRatio
        const gas = raw !== undefined ? raw.tx.gas : request.gas === undefined || request.gas === 0 ? DefaultGas[request.kind as Wire.TypedKind] : request.gas
        if (!Number.isSafeInteger(gas)) return yield* new Refusal.OutOfRange({ field: "gas" })
        if (request.nonce !== undefined && !Number.isSafeInteger(request.nonce)) return yield* new Refusal.OutOfRange({ field: "nonce" })
        const from = request.from.toLowerCase()
        const recipient = recipientOf(request)
        const to = recipient?.toLowerCase()
        // A raw transaction its sender signed may come from anywhere on the fee-delegated routes: its
        // signatures are checked against the sender's key on the chain, no pool account is needed.
        const signedElsewhere = raw?.signatures !== undefined && request.payer._tag !== "Sender"
        // A transaction signed whole pays as a user fee payer would: from the fee payer's balance.
        const payerKind: LedgerStore.PayerKind = request.payer._tag === "Sender" || (request.payer._tag === "Signed" && raw?.feePayer === undefined)
          ? "sender"
          : request.payer._tag === "Global"
          ? "global"
          : "user"

        // One attempt: read, check, sign, then run and write (or pool). `None` when another process
        // wrote in between.
        const attempt = Effect.gen(function*() {
          // With its account key on the chain when that is needed below (one query).
          const sender = signedElsewhere ? Option.none() : yield* store.account(request.pool.id, from, raw?.signatures === undefined ? chainId : undefined)
          let senderKey: Uint8Array | undefined
          if (!signedElsewhere) {
            // A raw transaction names an account the member does not hold: the service's 1065100.
            if (Option.isNone(sender)) return yield* (raw !== undefined ? new Refusal.NotMemberAccount({ address: request.from }) : new Refusal.NotFound({ detail: "from" }))
            if (sender.value.status === "corrupted") return yield* new Refusal.AccountCorrupted({ address: sender.value.address, use: "sign" })
            if (sender.value.status !== "enabled") {
              // The raw routes: the service's live tests (INT-123) get 1065100 for a disabled
              // sender's SigRLP; the other routes' answer is not known (1061512, its error table's
              // "account is invalid to sign the transaction").
              return yield* (raw !== undefined ? new Refusal.NotMemberAccount({ address: sender.value.address }) : new Refusal.CannotSign({ address: sender.value.address }))
            }
            senderKey = yield* openKey(sender.value)
          }
          // An account registered under a key of the key service: KAS's key is not its address's own.
          const registered = Option.isSome(sender) && sender.value.publicKey !== undefined &&
            AccountKeys.addressOf(bytesOfPublicKey(sender.value.publicKey)).toLowerCase() !== from

          const payer = request.payer
          let payerKey: Party | undefined
          let userPayer: string | undefined
          if (payer._tag === "User") {
            const row = yield* store.feePayer(request.pool.memberId, chainId, payer.address.toLowerCase(), payer.pool?.id)
            // The service's "Wrong fee payer address" (the spec's fd-user example).
            if (Option.isNone(row)) return yield* new Refusal.FeePayerNotFound()
            payerKey = { address: yield* rowAddress(row.value), key: yield* openKey(row.value) }
            userPayer = row.value.address.toLowerCase()
          } else if (payer._tag === "Global") {
            const global = globalPayers.get(chainId)!
            payerKey = { address: global.address, key: Redacted.value(global.key) }
          } else if (payer._tag === "Signed" && raw?.feePayer !== undefined) {
            userPayer = raw.feePayer.address.toLowerCase()
          }

          // A multisig sender (a weighted multisig key on the chain) does not sign alone: its
          // transaction waits for its signers. A legacy transaction or a raw one it cannot make.
          // (Read once: what KAS signs is checked against the same key below.)
          const chainKey = raw?.signatures === undefined
            ? yield* (Option.isSome(sender) && sender.value.chainKey !== undefined ? storedKey(from, sender.value.chainKey) : keyOf(chainId, from))
            : undefined
          const multisigKey = raw === undefined && request.kind !== "legacy" && chainKey?._tag === "WeightedMultiSig" ? chainKey : undefined

          const now = yield* Clock.currentTimeMillis
          const chain = yield* chainRow(chainId)
          const parties = yield* store.parties(chainId, [from, ...(to !== undefined ? [to] : []), ...(userPayer !== undefined ? [userPayer] : [])])
          const read = new Map(parties.balances)
          const senderState = read.get(from)!
          // The sender's pending transactions (manual mining only: in interval mode the pool stays
          // empty), nonces senderState.nonce, +1, ... in order; a multisig sender's next nonce also
          // follows its transactions waiting for signers.
          const queued = manual ? yield* store.pending(chainId, from) : []
          const waiting = multisigKey !== undefined ? yield* multisigs.waiting(chainId, from) : []
          const next = Math.max(senderState.nonce + queued.length, ...waiting.map((w) => w.nonce + 1))
          // A raw transaction has its own nonce; a replacement names its nonce, 0 included;
          // otherwise absent or 0 is the next one.
          const nonce = raw !== undefined
            ? raw.tx.nonce
            : request.replace === true
            ? request.nonce ?? next
            : request.nonce === undefined || request.nonce === 0
            ? next
            : request.nonce

          const made = request.kind === "rlp"
            ? Either.right(request.tx)
            : Klaytn.makeTransaction({
              kind: request.kind,
              from: request.from,
              to: recipient,
              value: valueOf(request),
              nonce,
              gas,
              gasPrice: chain.gasPrice,
              input,
              key: request.kind === "account" ? request.key : undefined,
              feeDelegated: feeRatio !== undefined,
              feeRatio
            })
          if (Either.isLeft(made)) return yield* internalFailure(made.left.reason)
          const tx = made.right
          // Klaytn's typed transactions pay the chain's unit price, no other.
          if (tx.gasPrice !== chain.gasPrice) return yield* new Refusal.NodeRefused({ reason: "invalid unit price", during: "send" })
          if (multisigKey !== undefined) {
            const pendingResult = yield* pend({
              tx,
              key: multisigKey,
              pool: request.pool,
              payerKind,
              feePayer: payer._tag === "Global" ? globalPayers.get(chainId)!.address : userPayer,
              feePayerPool: payer._tag === "User" ? payer.pool : undefined,
              nowMs: now
            })
            return Option.some<Transaction.TransactionResult>(pendingResult)
          }
          const signed = raw?.signatures !== undefined
            ? yield* Effect.flatMap(keyOf(chainId, from), (key) => {
              // The sender's signatures as they came, checked against its key on the chain (absent:
              // the legacy key, its own address); the fee payer signs here.
              const valid = Klaytn.validateSignatures({ tx, signatures: raw.signatures! }, chainId, { sender: key })
              if (Either.isLeft(valid)) return new Refusal.NodeRefused({ reason: "invalid sender", during: "send" })
              return request.payer._tag === "Signed"
                ? signedWhole(chainId, { tx, signatures: raw.signatures!, ...(raw.feePayer !== undefined ? { feePayer: raw.feePayer } : {}) }, key)
                : Effect.succeed(signKnown(tx, chainId, raw.signatures!, payerKey))
            })
            : Either.flatMap(Klaytn.sign(Klaytn.senderSigningHash(tx, chainId), senderKey!, chainId), (signature) =>
              signKnown(tx, chainId, [signature], payerKey))
          if (Either.isLeft(signed)) return yield* internalFailure(signed.left.reason)
          // Signed here with the key KAS holds: valid as long as the account's key on the chain is
          // still the legacy one (no row) or KAS's own public key; anything else (a legacy
          // transaction of an account whose key is no longer legacy, say) a node refuses. The key
          // of a registered account is not its address's: its legacy key is its old owner's.
          if (chainKey !== undefined) {
            const key = chainKey
            if ((key._tag !== "Legacy" || registered) && Either.isLeft(Klaytn.validateSignatures(signed.right, chainId, { sender: key }))) {
              return yield* new Refusal.NodeRefused({ reason: "invalid sender", during: "send" })
            }
          }
          const layout = Klaytn.kindOf(tx.type)
          // makeTransaction and decodeRaw checked the key: one that does not decode is a defect here.
          const intrinsic = yield* Either.match(Klaytn.intrinsicGasOf(tx), { onLeft: (e) => internalFailure(e.reason), onRight: Effect.succeed })
          const result: Transaction.TransactionResult = Klaytn.toResult(signed.right, request.submit ? "Submitted" : "Pending")
          if (!request.submit) return Option.some(result)
          const hash = signed.right.transactionHash.toLowerCase()

          // The node's checks, in the order of Klaytn's transaction pool: the transaction known
          // already (signing is deterministic: the same request signs the same bytes), the nonce,
          // the funds for the most the transaction may cost (its gas limit at the gas price) with
          // what the pool already reserves, the intrinsic gas, then the recipient.
          if (manual) {
            if (Option.isSome(yield* store.pendingTransaction(chainId, hash))) return yield* new Refusal.NodeRefused({ reason: ALREADY_KNOWN, during: "send" })
            if (Option.isSome(yield* store.transaction(chainId, hash))) return yield* new Refusal.NodeRefused({ reason: "nonce too low", during: "send" })
          }
          if (nonce < senderState.nonce) return yield* new Refusal.NodeRefused({ reason: "nonce too low", during: "send" })
          const replaced = request.replace === true ? queued.find((p) => p.nonce === nonce) : undefined
          if (replaced === undefined && nonce < next) return yield* new Refusal.NodeRefused({ reason: NONCE_IN_POOL, during: "send" })
          if (nonce > next) return yield* new Refusal.NodeRefused({ reason: "nonce too high", during: "send" })
          const reserved = manual ? yield* store.reserved(chainId, [from, ...(userPayer !== undefined ? [userPayer] : [])]) : new Map<string, bigint>()
          const reservedBy = (address: string) =>
            (reserved.get(address) ?? 0n) -
            (replaced === undefined ? 0n : (replaced.sender === address ? replaced.senderReserve : 0n) +
              (replaced.payerKind === "user" && replaced.feePayer === address ? replaced.feePayerReserve : 0n))
          const maxFee = BigInt(gas) * chain.gasPrice
          const payerReserve = share(maxFee, payerKind, feeRatio)
          const senderReserve = tx.value + maxFee - payerReserve
          if (senderState.balance < senderReserve + reservedBy(from)) return yield* new Refusal.NodeRefused({ reason: SENDER_FUNDS, during: "send" })
          if (userPayer !== undefined && read.get(userPayer)!.balance < payerReserve + reservedBy(userPayer)) {
            return yield* new Refusal.NodeRefused({ reason: FEE_PAYER_FUNDS, during: "send" })
          }
          if (gas < intrinsic) return yield* new Refusal.NodeRefused({ reason: "intrinsic gas too low", during: "send" })
          if (gas > MaxGas && (layout === "contract/deploy" || layout === "contract/execute" || layout === "legacy")) {
            return yield* new Refusal.NodeRefused({ reason: "exceeds block gas limit", during: "send" })
          }

          const accepted: Accepted = { chainId, memberId: request.pool.memberId, signed: signed.right, payerKind, userPayer, acceptedMs: now }
          if (manual) {
            // Into the pool: the recipient is checked now as Klaytn's pool does (the run comes at
            // mining); nothing else changes until then.
            if (to !== undefined) {
              const hasCode = parties.codeHashes.get(to) !== undefined
              if (layout === "value" && hasCode) return yield* new Refusal.NodeRefused({ reason: NOT_FOR_PROGRAM_ACCOUNT, during: "send" })
              if (layout === "contract/execute" && !hasCode) return yield* new Refusal.NodeRefused({ reason: NOT_A_PROGRAM_ACCOUNT, during: "send" })
            }
            const pooled = yield* store.write({
              chainId,
              balances: [],
              pool: {
                version: chain.poolVersion,
                remove: replaced !== undefined ? [replaced.hash] : undefined,
                add: {
                  // A replacement takes the place of the transaction it replaces in the block.
                  seq: replaced?.seq,
                  chainId,
                  hash,
                  sender: from,
                  nonce,
                  memberId: request.pool.memberId,
                  raw: signed.right.raw,
                  payerKind,
                  feePayer: signed.right.feePayer?.address.toLowerCase(),
                  senderReserve,
                  feePayerReserve: userPayer !== undefined ? payerReserve : 0n,
                  acceptedMs: now
                }
              }
            })
            return pooled ? Option.some(result) : Option.none()
          }

          const genesisMs = chain.genesisMs ?? now
          const tip = yield* store.tip(chainId)
          const place = placement(now, genesisMs, intervalMs, tip)
          const last = Option.getOrUndefined(tip)
          const applied = yield* execute(
            accepted,
            read,
            chain.gasPrice,
            { ...place, logIndex: last !== undefined && last.blockNumber === place.blockNumber ? last.logs : 0 },
            { genesisMs: chain.genesisMs === undefined ? now : undefined },
            false,
            parties.codeHashes
          )
          return applied ? Option.some(result) : Option.none()
        })

        return yield* store.serialize(retrying(attempt))
      })

    // One block of manual mining: every pending transaction in acceptance order, each run and
    // applied, leaving the pool in the batch that writes it (a SIGKILL between two leaves the
    // block with those before it and the rest pending: they go into the next block).
    const mineBlock = (chainId: number): Effect.Effect<MinedBlock, SqlError.SqlError | Refusal.Refusal> =>
      Effect.gen(function*() {
        const start = yield* store.chain(chainId)
        const blockNumber = start.minedBlock + 1
        // A block's time never goes before the previous block's, also when the clock goes back.
        const last = Option.getOrUndefined(yield* store.tip(chainId))
        const blockTimeMs = Math.max(yield* Clock.currentTimeMillis, last?.blockTimeMs ?? 0)
        const included: Array<string> = []
        for (const pending of yield* store.pending(chainId)) {
          const decoded = Klaytn.fromRaw(pending.raw, chainId)
          if (Either.isLeft(decoded)) return yield* internalFailure(`pending transaction ${pending.hash}: ${decoded.left.reason}`)
          const tx = decoded.right.tx
          const accepted: Accepted = {
            chainId,
            memberId: pending.memberId,
            signed: decoded.right,
            payerKind: pending.payerKind,
            userPayer: pending.payerKind === "user" ? pending.feePayer : undefined,
            acceptedMs: pending.acceptedMs
          }
          const mined = yield* retrying(Effect.gen(function*() {
            const chain = yield* store.chain(chainId)
            // Another process made this block (or a later one), or took this transaction.
            if (chain.minedBlock !== blockNumber - 1 && chain.minedBlock !== blockNumber) return Option.some(false)
            if (Option.isNone(yield* store.pendingTransaction(chainId, pending.hash))) return Option.some(false)
            const from = tx.from.toLowerCase()
            const parties = [from, ...(tx.to !== undefined ? [tx.to.toLowerCase()] : []), ...(accepted.userPayer !== undefined ? [accepted.userPayer] : [])]
            const read = new Map(yield* store.balances(chainId, parties))
            const pool = { version: chain.poolVersion, remove: [pending.hash] }
            const minedBlock = { read: chain.minedBlock, write: blockNumber }
            // Accepted against the pool, a transaction is affordable and next in nonce when its
            // turn comes. Only an emulator in interval mode on the same database breaks that (it
            // ignores the pool): such a transaction is dropped, as a node drops what turned invalid.
            const state = read.get(from)!
            const payerState = accepted.userPayer !== undefined ? read.get(accepted.userPayer)! : undefined
            // Signed with a key the account no longer has (an account update mined before it in
            // this block, or since it was accepted): a node refuses it, and so does the block.
            const key = yield* keyOf(chainId, from)
            const stillSigned = Either.isRight(Klaytn.validateSignatures({ tx, signatures: decoded.right.signatures }, chainId, { sender: key }))
            if (!stillSigned || state.nonce !== tx.nonce || state.balance < pending.senderReserve || (payerState !== undefined && payerState.balance < pending.feePayerReserve)) {
              return (yield* store.write({ chainId, balances: [], pool, minedBlock })) ? Option.some(false) : Option.none()
            }
            const tip = Option.getOrUndefined(yield* store.tip(chainId))
            const inBlock = tip !== undefined && tip.blockNumber === blockNumber
            const applied = yield* execute(
              accepted,
              read,
              chain.gasPrice,
              { blockNumber, blockTimeMs, transactionIndex: inBlock ? tip.count : 0, logIndex: inBlock ? tip.logs : 0 },
              { pool, minedBlock },
              true
            )
            return applied ? Option.some(true) : Option.none()
          }))
          if (mined) included.push(pending.hash)
        }
        if (included.length === 0) {
          // An empty block: only the block count moves.
          yield* retrying(Effect.gen(function*() {
            const chain = yield* store.chain(chainId)
            if (chain.minedBlock >= blockNumber) return Option.some(true)
            return (yield* store.write({ chainId, balances: [], minedBlock: { read: chain.minedBlock, write: blockNumber } }))
              ? Option.some(true)
              : Option.none()
          }))
        }
        return { chainId, blockNumber, blockHash: blockHash(chainId, blockNumber, blockTimeMs), blockTimeMs, transactions: included }
      })

    const mine: Service["mine"] = (chainId, blocks) =>
      Effect.gen(function*() {
        if (!manual) {
          return yield* new Refusal.IntervalMining({ interval: Duration.format(interval) })
        }
        if (!Number.isSafeInteger(blocks) || blocks < 1 || blocks > MaxBlocksPerMine) return yield* new Refusal.OutOfRange({ field: "blocks" })
        const made: Array<MinedBlock> = []
        for (let i = 0; i < blocks; i++) made.push(yield* store.serialize(mineBlock(chainId)))
        return made
      })

    const simulate: Service["simulate"] = (request) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        return yield* store.serialize(Effect.gen(function*() {
          const chain = yield* chainRow(request.chainId)
          const latest = head(chain, now, mining, intervalMs)
          const fields = {
            from: request.from,
            value: request.value,
            input: request.input,
            gasLimit: request.gasLimit,
            blockNumber: latest.blockNumber,
            timestamp: Math.floor(latest.blockTimeMs / 1000),
            chainId: request.chainId,
            gasPrice: chain.gasPrice
          }
          return yield* Evm.run(
            request.to === undefined ? { kind: "deploy", ...fields } : { kind: "call", to: request.to, ...fields },
            Evm.storeReader(store, request.chainId)
          )
        }))
      })

    const call: Service["call"] = (request) =>
      Effect.gen(function*() {
        const data = yield* callData(request.methodName, request.arguments)
        if (data === undefined) return yield* new Refusal.OutOfRange({ field: "data.arguments" })
        const input = Buffer.from(data.slice(2), "hex")
        const gas = request.gas === undefined || request.gas === 0 ? DefaultCallGas : Math.min(request.gas, MaxGas)
        // As Klaytn's call: the gas must cover the intrinsic gas of an execution with this calldata.
        const intrinsic = Klaytn.intrinsicGas(Wire.TxType.SmartContractExecution, input.length)
        if (gas < intrinsic) return yield* new Refusal.NodeRefused({ reason: "intrinsic gas too low", during: "call" })
        const outcome = yield* simulate({
          chainId: request.chainId,
          from: (request.from ?? ZERO_ADDRESS).toLowerCase(),
          to: request.to.toLowerCase(),
          value: request.value ?? 0n,
          input: new Uint8Array(input),
          gasLimit: BigInt(gas - intrinsic)
        }).pipe(Effect.catchTag("EvmError", () => new Refusal.NodeRefused({ reason: "insufficient balance for transfer", during: "call" })))
        switch (outcome.status) {
          case "success":
            return { data, result: hexOf(outcome.returnData) } as Transaction.ContractCallResult
          case "reverted":
            return yield* new Refusal.NodeRefused({ reason: outcome.revertReason !== undefined ? `execution reverted: ${outcome.revertReason}` : "execution reverted", during: "call" })
          case "failed":
            return yield* new Refusal.NodeRefused({ reason: outcome.error ?? "VM error occurs while running smart contract", during: "call" })
        }
      })

    // The receipt of a transaction not yet in a block: the transaction as the pool holds it, with
    // no block fields nor outcome.
    const pendingReceipt = (signed: Klaytn.SignedTx) => {
      const {
        blockHash: _hash,
        blockNumber: _number,
        contractAddress: _contract,
        gasUsed: _gas,
        logs: _logs,
        logsBloom: _bloom,
        transactionIndex: _index,
        txError: _error,
        ...pending
      } = Klaytn.toReceipt(signed, { blockHash: "0x", blockNumber: 0, transactionIndex: 0, gasUsed: 0, status: "Committed" })
      return { ...pending, status: "Pending" } satisfies Transaction.TransactionReceipt
    }

    const decode = (raw: Uint8Array, chainId: number, hash: string) =>
      Either.match(Klaytn.fromRaw(raw, chainId), {
        onLeft: (e) => internalFailure(`stored transaction ${hash}: ${e.reason}`),
        onRight: Effect.succeed
      })

    const receipt: Service["receipt"] = (chainId, hash) =>
      Effect.gen(function*() {
        const row = yield* store.transaction(chainId, hash)
        if (Option.isNone(row)) {
          const pending = yield* store.pendingTransaction(chainId, hash)
          if (Option.isNone(pending)) return yield* new Refusal.TransactionNotFound()
          return pendingReceipt(yield* decode(pending.value.raw, chainId, hash))
        }
        const t = row.value
        const signed = yield* decode(t.raw, chainId, hash)
        if (!inBlock(mining, t.blockTimeMs, yield* Clock.currentTimeMillis)) return pendingReceipt(signed)
        return Klaytn.toReceipt(signed, {
            blockHash: blockHash(chainId, t.blockNumber, t.blockTimeMs),
            blockNumber: t.blockNumber,
            transactionIndex: t.transactionIndex,
            gasUsed: t.gasUsed,
            status: t.txError === undefined ? "Committed" : "CommitError",
            txError: t.txError,
            logs: t.logs,
            logIndex: t.logIndex,
            logsBloom: Evm.logsBloom(t.logs ?? [])
          })
      })

    const lookup: Service["lookup"] = (chainId, hash) =>
      Effect.gen(function*() {
        const key = hash.toLowerCase()
        const row = yield* store.transaction(chainId, key)
        if (Option.isSome(row)) {
          const t = row.value
          return Option.some<Known>({ status: "committed", hash: key, sender: t.sender, nonce: t.nonce, memberId: t.memberId, raw: t.raw })
        }
        return Option.map(yield* store.pendingTransaction(chainId, key), (p): Known => ({
          status: "pending",
          hash: key,
          sender: p.sender,
          nonce: p.nonce,
          memberId: p.memberId,
          raw: p.raw
        }))
      })

    const pendingBySender: Service["pendingBySender"] = (chainId, sender) =>
      Effect.map(store.pending(chainId, sender.toLowerCase()), (rows) =>
        rows.map((p): Known => ({ status: "pending", hash: p.hash, sender: p.sender, nonce: p.nonce, memberId: p.memberId, raw: p.raw })))

    return {
      send,
      call,
      simulate,
      receipt,
      lookup,
      pendingBySender,
      mine,
      feeRecords: (query) =>
        Effect.flatMap(
          manual ? Effect.succeed(undefined) : Clock.currentTimeMillis,
          (visibleAtMs) => store.feeHistory({ ...query, visibleAtMs })
        ),
      accountKey: (chainId, address) => keyOf(chainId, address),
      signAs: (pool, address, hash) =>
        Effect.gen(function*() {
          const row = yield* store.account(pool.id, address.toLowerCase())
          if (Option.isNone(row)) return Option.none()
          if (row.value.status === "corrupted") return yield* new Refusal.AccountCorrupted({ address: row.value.address, use: "sign" })
          if (row.value.status !== "enabled") return yield* new Refusal.CannotSign({ address: row.value.address })
          const key = yield* openKey(row.value)
          const signature = yield* Either.match(Klaytn.sign(hash, key, pool.chainId), { onLeft: (e) => internalFailure(e.reason), onRight: Effect.succeed })
          return Option.some({ signature, publicKey: secp256k1.getPublicKey(key, true) })
        }),
      globalFeePayer: (chainId) => globalPayers.get(chainId)!.address,
      blockInterval: interval,
      mining
    }
  })

/**
 * The ledger over the store and key vault of the context.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (options: {
  readonly blockInterval?: Duration.DurationInput | undefined
  readonly mining?: Mining | undefined
}): Layer.Layer<Ledger, EmulatorError, LedgerStore.LedgerStore | MultisigStore.MultisigStore | KeyVault.KeyVault> => Layer.effect(Ledger, make(options))
