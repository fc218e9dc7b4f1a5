/**
 * The emulator's EVM (chain/Evm.ts) over an in-memory ledger: deployments, executions and calls of
 * the fixture contracts (fixtures/contracts), what each run reads and changes, and the logs bloom.
 * Addresses and blooms are checked against independent computations (@ethereumjs/rlp,
 * @noble/hashes), calldata is made by ox.
 */
import { describe, expect, it } from "@effect/vitest"
import { RLP } from "@ethereumjs/rlp"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Data, Effect, Either, Option } from "effect"
import * as fs from "node:fs"
import * as AbiConstructor from "ox/AbiConstructor"
import * as AbiEvent from "ox/AbiEvent"
import * as AbiFunction from "ox/AbiFunction"
import * as AbiParameters from "ox/AbiParameters"
import * as Evm from "../src/chain/Evm.js"
import * as ChainState from "../src/store/ChainState.js"

interface Artifact {
  readonly abi: ReadonlyArray<unknown>
  readonly bytecode: `0x${string}`
  readonly deployedBytecode: `0x${string}`
}
const artifacts: Record<string, Artifact> = JSON.parse(
  fs.readFileSync(new URL("./fixtures/contracts/artifacts.json", import.meta.url), "utf8")
).contracts

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}` as `0x${string}`
const unhex = (h: string) => new Uint8Array(Buffer.from(h.slice(2), "hex"))
const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`

/** keccak256(rlp([sender, nonce]))[12:], computed apart from the EVM. */
const createdAddress = (sender: string, nonce: number) => hex(keccak_256(RLP.encode([unhex(sender), nonce])).subarray(12))

const alice = "0x1111111111111111111111111111111111111111"
const bob = "0x2222222222222222222222222222222222222222"
const KLAY = 10n ** 18n

/**
 * An in-memory ledger that applies outcomes as the emulator's ledger does: the sender's nonce bump
 * is its own (even when the run fails), the rest comes from the outcome. Fees are left out.
 */
class World {
  readonly accounts = new Map<string, ChainState.Balance>()
  readonly code = new Map<string, Uint8Array>()
  readonly storage = new Map<string, string>()
  readonly reader: Evm.StateReader<never> = {
    account: (address) =>
      Effect.sync(() => ({ ...(this.accounts.get(address) ?? ChainState.Empty), code: Option.fromNullable(this.code.get(address)) })),
    storage: (address, slot) => Effect.sync(() => this.storage.get(`${address}:${slot}`) ?? ChainState.ZeroWord)
  }
  fund(address: string, balance: bigint, nonce = 0) {
    this.accounts.set(address, { balance, nonce })
    return this
  }
  balance(address: string) {
    return (this.accounts.get(address) ?? ChainState.Empty).balance
  }
  apply(message: Evm.Message, outcome: Evm.Outcome) {
    const after = Evm.applyChanges(this.accounts, outcome)
    const sender = after.get(message.from) ?? ChainState.Empty
    if (message.kind !== "call") after.set(message.from, { ...sender, nonce: sender.nonce + 1 })
    for (const [a, state] of after) this.accounts.set(a, state)
    for (const a of outcome.contracts.destroyed) {
      this.code.delete(a)
      for (const key of [...this.storage.keys()]) if (key.startsWith(`${a}:`)) this.storage.delete(key)
    }
    for (const { address, code } of outcome.contracts.code) this.code.set(address, code)
    for (const s of outcome.contracts.storage) {
      if (s.value === ChainState.ZeroWord) this.storage.delete(`${s.address}:${s.slot}`)
      else this.storage.set(`${s.address}:${s.slot}`, s.value)
    }
  }
  /** Runs and applies. */
  send(message: Evm.Message) {
    return Effect.tap(Evm.run(message, this.reader), (outcome) => Effect.sync(() => this.apply(message, outcome)))
  }
}

const fields = (from: string, input: Uint8Array | `0x${string}`, options: Partial<Evm.MessageFields> = {}): Evm.MessageFields => ({
  from,
  value: 0n,
  input: typeof input === "string" ? unhex(input) : input,
  gasLimit: 1_000_000n,
  blockNumber: 7,
  timestamp: 1_700_000_000,
  chainId: 1001,
  gasPrice: 25_000_000_000n,
  ...options
})
const deploy = (from: string, input: `0x${string}`, options?: Partial<Evm.MessageFields>): Evm.Message => ({
  kind: "deploy",
  ...fields(from, input, options)
})
const execute = (from: string, to: string, input: `0x${string}`, options?: Partial<Evm.MessageFields>): Evm.Message => ({
  kind: "execute",
  to,
  ...fields(from, input, options)
})
const call = (from: string, to: string, input: `0x${string}`, options?: Partial<Evm.MessageFields>): Evm.Message => ({
  kind: "call",
  to,
  ...fields(from, input, options)
})

const creation = (name: string, args: ReadonlyArray<unknown> = []) => {
  const a = artifacts[name]!
  const ctor = (a.abi as Array<{ type: string }>).find((x) => x.type === "constructor")
  return ctor === undefined || args.length === 0
    ? a.bytecode
    : AbiConstructor.encode(AbiConstructor.from(ctor as never), { bytecode: a.bytecode, args: args as never })
}
const fn = (signature: string) => AbiFunction.from(signature) as AbiFunction.AbiFunction
const data = (signature: string, args: ReadonlyArray<unknown> = []) => AbiFunction.encodeData(fn(signature), args as never)

const noChanges = {
  balanceChanges: new Map(),
  nonces: new Map(),
  contracts: { code: [], storage: [], destroyed: [] }
}

describe("Evm", () => {
  it.effect("deploys a counter at the address derived from sender and nonce, executes it and reads it back", () =>
    Effect.gen(function*() {
      const world = new World().fund(alice, KLAY, 5)
      const deployed = yield* world.send(deploy(alice, creation("Counter", [7n])))
      const counter = createdAddress(alice, 5)
      expect(deployed.status).toBe("success")
      expect(deployed.createdAddress).toBe(counter)
      expect(deployed.contracts.code).toEqual([{ address: counter, code: unhex(artifacts.Counter!.deployedBytecode) }])
      expect(deployed.contracts.storage).toEqual([{ address: counter, slot: word(0n), value: word(7n) }])
      // The new contract's nonce (EIP-161); the sender's bump is the ledger's, never reported.
      expect(deployed.nonces).toEqual(new Map([[counter, 1]]))
      expect(deployed.balanceChanges).toEqual(new Map())
      expect(deployed.gasUsed).toBeGreaterThan(0n)
      expect(deployed.reads.accounts).toContainEqual({ address: alice, state: { balance: KLAY, nonce: 5 } })

      const executed = yield* world.send(execute(alice, counter, data("function increment()")))
      expect(executed.status).toBe("success")
      expect(executed.contracts).toEqual({ code: [], storage: [{ address: counter, slot: word(0n), value: word(8n) }], destroyed: [] })
      expect(executed.nonces).toEqual(new Map())
      // What it read, for the store's checks: the slot as it was, the contract's code.
      expect(executed.reads.storage).toEqual([{ address: counter, slot: word(0n), value: word(7n) }])
      expect(executed.reads.code).toContainEqual({ address: counter, codeHash: ChainState.codeHash(unhex(artifacts.Counter!.deployedBytecode)) })

      yield* world.send(execute(alice, counter, data("function add(uint256)", [5n])))
      // Writing a slot's own value writes nothing (the read is still checked).
      const same = yield* world.send(execute(alice, counter, data("function add(uint256)", [0n])))
      expect(same.contracts.storage).toEqual([])
      expect(same.reads.storage).toEqual([{ address: counter, slot: word(0n), value: word(13n) }])

      const read = yield* Evm.run(call(bob, counter, data("function count()")), world.reader)
      expect(read.status).toBe("success")
      expect(AbiFunction.decodeResult(fn("function count() returns (uint256)"), hex(read.returnData))).toBe(13n)
      expect(read).toMatchObject(noChanges)
      // Each run starts cold (EIP-2929), though the runs before read the same slot: it pays a
      // cold SLOAD (2100), and the same again the next time.
      expect(read.gasUsed).toBeGreaterThan(2_100n)
      expect((yield* Evm.run(call(bob, counter, data("function count()")), world.reader)).gasUsed).toBe(read.gasUsed)
      // A call that writes keeps nothing either.
      const written = yield* Evm.run(call(bob, counter, data("function increment()")), world.reader)
      expect(written).toMatchObject({ status: "success", ...noChanges })
      // Nothing of a call stays, not even the bump of its sender's nonce.
      expect(world.accounts.get(bob)).toBeUndefined()
    }))

  it.effect("a contract creating a contract: both nonces are reported, the address derives from the factory's nonce", () =>
    Effect.gen(function*() {
      const world = new World().fund(alice, KLAY)
      const factory = (yield* world.send(deploy(alice, creation("Factory")))).createdAddress!
      const made = yield* world.send(execute(alice, factory, data("function make(uint256)", [3n])))
      const counter = createdAddress(factory, 1)
      expect(made.status).toBe("success")
      expect(made.nonces).toEqual(new Map([[factory, 2], [counter, 1]]))
      expect(made.contracts.code.map((c) => c.address)).toEqual([counter])
      expect(made.logs).toEqual([{
        address: factory,
        topics: [AbiEvent.getSelector("event Made(address counter)")],
        data: AbiParameters.encode(AbiParameters.from("address"), [counter])
      }])
      const second = yield* world.send(execute(alice, factory, data("function make(uint256)", [3n])))
      expect(second.contracts.code.map((c) => c.address)).toEqual([createdAddress(factory, 2)])
    }))

  it.effect("logs: address, topics and data in lower-case hex, and their bloom", () =>
    Effect.gen(function*() {
      const world = new World().fund(alice, KLAY)
      const emitter = (yield* world.send(deploy(alice, creation("Emitter")))).createdAddress!
      const ran = yield* world.send(execute(alice, emitter, data("function ping(uint256, string)", [42n, "héllo"])))
      const event = AbiEvent.from("event Ping(address indexed from, uint256 indexed n, string note)")
      expect(ran.logs).toEqual([{
        address: emitter,
        topics: [AbiEvent.getSelector(event), word(BigInt(alice)), word(42n)],
        data: AbiParameters.encode(AbiParameters.from("string"), ["héllo"])
      }])
      // Each of the address and topics sets its three bits of the bloom.
      const bloom = BigInt(Evm.logsBloom(ran.logs))
      for (const item of [emitter, ...ran.logs[0]!.topics]) {
        const h = keccak_256(unhex(item))
        for (const i of [0, 2, 4]) expect((bloom >> BigInt(((h[i]! << 8) | h[i + 1]!) & 2047)) & 1n).toBe(1n)
      }
    }))

  it("the logs bloom of a real receipt is the receipt's, and no logs give an empty bloom", () => {
    const receipt = JSON.parse(
      fs.readFileSync("/work/shared/reference/examples/tx-receipt-200-contract-execution-receipt-which-has-logs.json", "utf8")
    )
    expect(Evm.logsBloom(receipt.logs)).toBe(receipt.logsBloom)
    expect(Evm.logsBloom([])).toBe(`0x${"0".repeat(512)}`)
  })

  it.effect("a revert: status reverted, its reason decoded, Klaytn's txError 0x09, and no state effects or logs", () =>
    Effect.gen(function*() {
      const world = new World().fund(alice, KLAY)
      const reverter = (yield* world.send(deploy(alice, creation("Reverter")))).createdAddress!
      const ran = yield* Evm.run(execute(alice, reverter, data("function fail(uint256)", [5n])), world.reader)
      expect(ran).toMatchObject({ status: "reverted", revertReason: "Reverter: value must be zero", txError: 0x09, logs: [], ...noChanges })
      // The rest of the gas returns.
      expect(ran.gasUsed).toBeLessThan(100_000n)
      expect(ran.gasRefund).toBe(0n)
      // What it read still counts: the outcome depends on it.
      expect(ran.reads.storage).toEqual([{ address: reverter, slot: word(0n), value: ChainState.ZeroWord }])
      // Data other than Error(string) has no reason: Panic(0x12), division by zero.
      const panic = yield* Evm.run(call(alice, reverter, data("function divide(uint256, uint256)", [1n, 0n])), world.reader)
      expect(panic.status).toBe("reverted")
      expect(panic.revertReason).toBeUndefined()
      expect(hex(panic.returnData)).toBe(AbiFunction.encodeData(fn("function Panic(uint256)"), [0x12n]))
      // An inner call that reverts inside a transaction that succeeds: its write and log are
      // undone, the caller's write stays.
      const caught = yield* Evm.run(execute(alice, reverter, data("function failInside(uint256)", [5n])), world.reader)
      expect(caught).toMatchObject({ status: "success", logs: [] })
      expect(caught.contracts.storage).toEqual([{ address: reverter, slot: word(1n), value: word(1n) }])
      // Value sent along a reverting inner call comes back: the sending contract keeps it.
      const other = (yield* world.send(deploy(alice, creation("Reverter")))).createdAddress!
      const sent = yield* Evm.run(execute(alice, reverter, data("function sendAndCatch(address)", [other]), { value: 77n }), world.reader)
      expect(sent.status).toBe("success")
      expect(sent.balanceChanges).toEqual(new Map([[alice, -77n], [reverter, 77n]]))
    }))

  it.effect("out of gas: status failed, all the gas used, txError 0x07, nothing kept", () =>
    Effect.gen(function*() {
      const world = new World().fund(alice, KLAY)
      const burner = (yield* world.send(deploy(alice, creation("Burner")))).createdAddress!
      const ran = yield* Evm.run(execute(alice, burner, data("function burn()"), { gasLimit: 100_000n }), world.reader)
      expect(ran).toMatchObject({ status: "failed", gasUsed: 100_000n, gasRefund: 0n, txError: 0x07, error: "out of gas", logs: [], ...noChanges })
      // A deployment out of gas fails likewise, at the address it would have had.
      const short = yield* Evm.run(deploy(alice, creation("Counter", [1n]), { gasLimit: 30_000n }), world.reader)
      expect(short).toMatchObject({ status: "failed", gasUsed: 30_000n, createdAddress: createdAddress(alice, 1), ...noChanges })
    }))

  it.effect("value: a payable constructor and deposit credit the contract, a withdrawal pays back, SELFDESTRUCT removes the contract", () =>
    Effect.gen(function*() {
      const world = new World().fund(alice, 10_000n).fund(bob, 1_000n)
      const created = yield* world.send(deploy(alice, creation("Vault"), { value: 1_000n }))
      const vault = created.createdAddress!
      expect(created.balanceChanges).toEqual(new Map([[alice, -1_000n], [vault, 1_000n]]))
      const deposited = yield* world.send(execute(bob, vault, data("function deposit()"), { value: 600n }))
      expect(deposited.balanceChanges).toEqual(new Map([[bob, -600n], [vault, 600n]]))
      const withdrawn = yield* world.send(execute(bob, vault, data("function withdraw(uint256)", [250n])))
      expect(withdrawn.status).toBe("success")
      expect(withdrawn.balanceChanges).toEqual(new Map([[vault, -250n], [bob, 250n]]))
      expect([world.balance(alice), world.balance(bob), world.balance(vault)]).toEqual([9_000n, 650n, 1_350n])
      // A call to a non-payable function with value reverts; the value stays with the sender.
      const refused = yield* Evm.run(execute(bob, vault, data("function withdraw(uint256)", [0n]), { value: 1n }), world.reader)
      expect(refused).toMatchObject({ status: "reverted", ...noChanges })

      // More than the sender holds: refused before running, as Klaytn's pool refuses it.
      const broke = yield* Effect.either(Evm.run(execute(bob, vault, data("function deposit()"), { value: 651n }), world.reader))
      expect(Either.getLeft(broke).pipe(Option.map((e) => (e._tag === "EvmError" ? e.reason : e._tag)))).toEqual(Option.some("InsufficientFunds"))

      // Shanghai: the contract goes, with its code and storage; its balance goes to the beneficiary.
      const closed = yield* world.send(execute(alice, vault, data("function close()")))
      expect(closed.status).toBe("success")
      expect(closed.contracts).toEqual({ code: [], storage: [], destroyed: [vault] })
      expect(closed.balanceChanges).toEqual(new Map([[vault, -1_350n], [alice, 1_350n]]))
      expect(closed.nonces).toEqual(new Map([[vault, 0]]))
      expect(world.code.has(vault)).toBe(false)
      expect([...world.storage.keys()].filter((k) => k.startsWith(vault))).toEqual([])
    }))

  it.effect("an execution to an account without code is refused; a call to one answers nothing", () =>
    Effect.gen(function*() {
      const world = new World().fund(alice, KLAY)
      const refused = yield* Effect.flip(Evm.run(execute(alice, bob, "0x"), world.reader))
      expect(refused).toMatchObject({ _tag: "EvmError", reason: "NotAProgramAccount" })
      const called = yield* Evm.run(call(alice, bob, "0x12345678"), world.reader)
      expect(called).toMatchObject({ status: "success", returnData: new Uint8Array(0) })
    }))

  it.effect("a failing reader fails the run with its own error", () =>
    Effect.gen(function*() {
      class Broken extends Data.TaggedError("Broken")<{}> {}
      const world = new World().fund(alice, KLAY)
      const counter = (yield* world.send(deploy(alice, creation("Counter", [1n])))).createdAddress!
      const reader: Evm.StateReader<Broken> = { ...world.reader, storage: () => Effect.fail(new Broken()) }
      const failed = yield* Effect.flip(Evm.run(execute(alice, counter, data("function increment()")), reader))
      expect(failed).toBeInstanceOf(Broken)
      // The engine still runs afterwards.
      expect((yield* Evm.run(execute(alice, counter, data("function increment()")), world.reader)).status).toBe("success")
    }))

  it.effect("overlapping runs each have an engine of their own and the same result as one alone", () =>
    Effect.gen(function*() {
      const world = new World().fund(alice, KLAY)
      const counter = (yield* world.send(deploy(alice, creation("Counter", [1n])))).createdAddress!
      const alone = yield* Evm.run(execute(alice, counter, data("function add(uint256)", [2n])), world.reader)
      // A reader that yields between reads, so that the runs interleave.
      const slow: Evm.StateReader<never> = {
        account: (a) => Effect.zipRight(Effect.yieldNow(), world.reader.account(a)),
        storage: (a, slot) => Effect.zipRight(Effect.yieldNow(), world.reader.storage(a, slot))
      }
      const overlapping = yield* Effect.all(
        Array.from({ length: 6 }, (_, i) => Evm.run(execute(alice, counter, data("function add(uint256)", [BigInt(i % 2) + 2n])), slow)),
        { concurrency: "unbounded" }
      )
      for (const [i, o] of overlapping.entries()) {
        expect(o.contracts.storage).toEqual([{ address: counter, slot: word(0n), value: word(BigInt(i % 2) + 3n) }])
        expect(o.gasUsed).toBe(alone.gasUsed)
      }
    }))

  it("revert reasons: Error(string) only, and nothing from malformed data", () => {
    const encoded = AbiFunction.encodeData(fn("function Error(string)"), ["out of range: ü"])
    expect(Evm.revertReason(unhex(encoded))).toBe("out of range: ü")
    expect(Evm.revertReason(unhex(encoded.slice(0, -64)))).toBeUndefined() // cut short
    expect(Evm.revertReason(unhex(`0x08c379a0${word(1n << 64n).slice(2)}${word(0n).slice(2)}`))).toBeUndefined() // offset far out
    expect(Evm.revertReason(unhex(`0x08c379a0${word(32n).slice(2)}${word(1000n).slice(2)}`))).toBeUndefined() // length past the end
    expect(Evm.revertReason(unhex(AbiFunction.encodeData(fn("function Panic(uint256)"), [1n])))).toBeUndefined()
    expect(Evm.revertReason(new Uint8Array(0))).toBeUndefined()
    expect([Evm.txError("revert"), Evm.txError("out of gas"), Evm.txError("invalid opcode"), Evm.txError("constructor")]).toEqual([9, 7, 2, 2])
  })

  it("total gas: intrinsic plus the EVM's, less a refund of at most a fifth", () => {
    expect(Evm.totalGas(21_000n, { gasUsed: 9_000n, gasRefund: 1_000n })).toBe(29_000n)
    expect(Evm.totalGas(21_000n, { gasUsed: 9_000n, gasRefund: 50_000n })).toBe(24_000n)
  })
})
