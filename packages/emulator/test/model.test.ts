/**
 * Model-based property test: random sequences of console and wallet operations, on both chains and
 * random pools of both kinds (account pools and fee-payer pools), checked step by step against a
 * pure in-memory model of the specification: creates, gets, listings by state, disable ⇄ enable,
 * deletes, counts, lookups by public key, and the fee-payer accounts.
 *
 * Each run works as a fresh member of one shared emulator (members are isolated, which the
 * isolation tests prove), so runs are independent without restarting the server. Time is the
 * TestClock, moved by `Tick` commands, so createdAt and updatedAt values and time ranges are exact.
 */
import { expect, layer } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Clock, Effect, FastCheck as fc, Layer, Runtime, TestClock } from "effect"
import type { ChainId } from "effect-kas-wallet"
import * as Emulator from "../src/Emulator.js"
import { type Api, clientLayer, expectError, newMemberApi, type Query, type Reply } from "./_support.js"

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

type Chain = 8217 | 1001
const CHAINS: ReadonlyArray<Chain> = [8217, 1001]
const POOL_NAMES = ["default", "alpha", "beta"] as const
type PoolName = (typeof POOL_NAMES)[number]
type Kind = "account" | "feePayer"
type State = "enabled" | "disabled" | "deleted"
type StatusFilter = "enabled" | "disabled" | "corrupted" | "all"

interface ModelAccount {
  readonly kind: Kind
  readonly chain: Chain
  readonly pool: PoolName
  /** The JSON the create answered, with the updatedAt of the last change: every read answers this. */
  json: any
  state: State
  readonly createdAt: number
  /** Creation order: the tie-break within one second. */
  readonly order: number
}

interface Model {
  now: number
  readonly pools: Record<Kind, Record<Chain, Set<PoolName>>>
  readonly accounts: Array<ModelAccount>
}

const poolExists = (m: Model, kind: Kind, chain: Chain, pool: PoolName) => m.pools[kind][chain].has(pool)

const listed = (filter: StatusFilter) => (a: ModelAccount) =>
  filter === "all" ? a.state !== "deleted" : a.state === filter

/** The specification of a listing: the pool's accounts of the state in range, newest first, ties newest first. */
const expectedListing = (
  m: Model,
  kind: Kind,
  chain: Chain,
  pool: PoolName,
  from: number | undefined,
  to: number | undefined,
  status: StatusFilter
) =>
  m.accounts
    .filter((a) => a.kind === kind && a.chain === chain && a.pool === pool && listed(status)(a))
    .filter((a) => (from === undefined || from === 0 || a.createdAt >= from) && (to === undefined || to === 0 || a.createdAt <= to))
    .sort((x, y) => y.createdAt - x.createdAt || y.order - x.order)
    .map((a) => a.json)

/** The page size the service applies to a `size` value. */
const effectiveSize = (size: number | undefined) => (size === undefined || size === 0 ? 100 : Math.min(size, 1000))

/** What `pick` designates: an account of either kind and any state (deleted ones too), or none. */
const pickOf = (m: Model, pick: number, unknown: boolean) =>
  m.accounts.length === 0 || unknown ? undefined : m.accounts[pick % m.accounts.length]!

const unknownAddress = (pick: number) => `0x${pick.toString(16).padStart(40, "0")}`

// ---------------------------------------------------------------------------------------------
// The real system
// ---------------------------------------------------------------------------------------------

interface Real {
  readonly api: Api
  readonly run: <A>(effect: Effect.Effect<A, unknown, any>) => Promise<A>
  readonly emulator: Emulator.Service
}

type Command = fc.AsyncCommand<Model, Real, false>

/** The routes of one kind of account. */
const routes = (r: Real, kind: Kind) =>
  kind === "account"
    ? { create: (c: number, k?: string) => r.api.create(c, k), get: r.api.get, list: r.api.list, remove: r.api.remove, krn: r.api.krn }
    : {
      create: (c: number, k?: string) => r.api.feePayers.create(c, k),
      get: r.api.feePayers.get,
      list: r.api.feePayers.list,
      remove: r.api.feePayers.remove,
      krn: r.api.feePayerKrn
    }

// `x-krn` for a pool: absent for the default pool half of the time, its KRN otherwise.
const krnFor = (r: Real, kind: Kind, chain: Chain, pool: PoolName, explicit: boolean) =>
  pool === "default" && !explicit ? undefined : routes(r, kind).krn(chain, pool)

class Tick implements Command {
  constructor(readonly seconds: number) {}
  check = () => true
  async run(m: Model, r: Real) {
    await r.run(TestClock.adjust(`${this.seconds} seconds`))
    m.now += this.seconds
  }
  toString = () => `Tick(${this.seconds})`
}

class CreatePool implements Command {
  constructor(readonly kind: Kind, readonly chain: Chain, readonly name: PoolName) {}
  check = () => true
  async run(m: Model, r: Real) {
    const pool = { accountId: r.api.accountId, chainId: this.chain as ChainId.ChainId, name: this.name }
    const outcome = await r.run(
      Effect.either(
        this.kind === "account"
          ? Effect.map(r.emulator.createPool(pool), (p) => p.krn.toString())
          : Effect.map(r.emulator.createFeePayerPool(pool), (p) => p.krn.toString())
      )
    )
    if (poolExists(m, this.kind, this.chain, this.name)) {
      expect(outcome._tag).toBe("Left")
      if (outcome._tag === "Left") expect(outcome.left).toMatchObject({ _tag: "ConsoleError", reason: "PoolExists" })
    } else {
      expect(outcome._tag).toBe("Right")
      if (outcome._tag === "Right") expect(outcome.right).toBe(routes(r, this.kind).krn(this.chain, this.name))
      m.pools[this.kind][this.chain].add(this.name)
    }
  }
  toString = () => `CreatePool(${this.kind}, ${this.chain}, ${this.name})`
}

class Create implements Command {
  constructor(readonly kind: Kind, readonly chain: Chain, readonly pool: PoolName, readonly explicit: boolean) {}
  check = () => true
  async run(m: Model, r: Real) {
    const reply = await r.run(routes(r, this.kind).create(this.chain, krnFor(r, this.kind, this.chain, this.pool, this.explicit)))
    if (!poolExists(m, this.kind, this.chain, this.pool)) return expectError(reply, 400, 1061010)
    expect(reply.status, reply.text).toBe(200)
    const json = reply.body
    expect(json.chainId).toBe(this.chain)
    expect(json.krn).toBe(routes(r, this.kind).krn(this.chain, this.pool))
    expect(json.createdAt).toBe(m.now)
    expect(json.updatedAt).toBe(m.now)
    expect(m.accounts.some((a) => a.json.address === json.address)).toBe(false)
    m.accounts.push({
      kind: this.kind,
      chain: this.chain,
      pool: this.pool,
      json,
      state: "enabled",
      createdAt: m.now,
      order: m.accounts.length
    })
  }
  toString = () => `Create(${this.kind}, ${this.chain}, ${this.pool}${this.explicit ? ", explicit" : ""})`
}

/** Whether an account is the one a request on this kind, chain and pool reaches. */
const reaches = (a: ModelAccount | undefined, kind: Kind, chain: Chain, pool: PoolName): a is ModelAccount =>
  a !== undefined && a.kind === kind && a.chain === chain && a.pool === pool

class Get implements Command {
  constructor(
    readonly kind: Kind,
    readonly chain: Chain,
    readonly pool: PoolName,
    readonly explicit: boolean,
    readonly pick: number,
    readonly form: "checksum" | "lower" | "upper" | "unknown",
    /** Sent to the kind, chain and pool of the picked account (so that it reaches it, state aside). */
    readonly aimed: boolean
  ) {}
  check = () => true
  async run(m: Model, r: Real): Promise<void> {
    const target = pickOf(m, this.pick, this.form === "unknown")
    if (this.aimed && target !== undefined) {
      return new Get(target.kind, target.chain, target.pool, this.explicit, this.pick, this.form, false).run(m, r)
    }
    const address: string = target === undefined
      ? unknownAddress(this.pick)
      : this.form === "lower"
      ? target.json.address.toLowerCase()
      : this.form === "upper"
      ? `0x${target.json.address.slice(2).toUpperCase()}`
      : target.json.address
    const reply = await r.run(routes(r, this.kind).get(this.chain, address, krnFor(r, this.kind, this.chain, this.pool, this.explicit)))
    if (!poolExists(m, this.kind, this.chain, this.pool)) return expectError(reply, 400, 1061010)
    if (reaches(target, this.kind, this.chain, this.pool) && target.state !== "deleted") {
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body).toEqual(target.json)
    } else {
      expectError(reply, 400, 1061010)
      expect(reply.body.message).toBe("data don't exist")
    }
  }
  toString = () => `Get(${this.kind}, ${this.chain}, ${this.pool}, #${this.pick}, ${this.form}${this.aimed ? ", aimed" : ""})`
}

class List implements Command {
  constructor(
    readonly kind: Kind,
    readonly chain: Chain,
    readonly pool: PoolName,
    readonly explicit: boolean,
    readonly size: number | undefined,
    readonly from: number | undefined,
    readonly to: number | undefined,
    readonly status: StatusFilter | undefined,
    /** When set, lists the kind, chain and pool of the account it picks (one with accounts in it). */
    readonly aim: number | undefined
  ) {}
  check = () => true
  async run(m: Model, r: Real): Promise<void> {
    const aimed = this.aim === undefined ? undefined : pickOf(m, this.aim, false)
    if (aimed !== undefined) {
      const { explicit, from, size, status, to } = this
      return new List(aimed.kind, aimed.chain, aimed.pool, explicit, size, from, to, status, undefined).run(m, r)
    }
    const krn = krnFor(r, this.kind, this.chain, this.pool, this.explicit)
    // from/to are offsets back from now; 0 stays 0 (unbounded)
    const from = this.from === undefined || this.from === 0 ? this.from : Math.max(1, m.now - this.from)
    const to = this.to === undefined || this.to === 0 ? this.to : Math.max(1, m.now - this.to)
    // Fee-payer accounts have no state to list by: the listing ignores `status`.
    const query: Query = { size: this.size, "from-timestamp": from, "to-timestamp": to, status: this.status }
    const list = routes(r, this.kind).list
    if (!poolExists(m, this.kind, this.chain, this.pool)) {
      return expectError(await r.run(list(this.chain, query, krn)), 400, 1061010)
    }
    const status = this.kind === "feePayer" ? "all" : this.status ?? "enabled"
    const expected = expectedListing(m, this.kind, this.chain, this.pool, from, to, status)
    const s = effectiveSize(this.size)
    const pages: Array<Reply> = []
    let cursor = ""
    do {
      const reply = await r.run(list(this.chain, { ...query, ...(cursor !== "" ? { cursor } : {}) }, krn))
      expect(reply.status, reply.text).toBe(200)
      pages.push(reply)
      cursor = reply.body.cursor
      expect(pages.length).toBeLessThanOrEqual(Math.max(1, Math.ceil(expected.length / s)))
    } while (cursor !== "")
    expect(pages.length).toBe(Math.max(1, Math.ceil(expected.length / s)))
    for (const [i, page] of pages.entries()) {
      if (i < pages.length - 1) expect(page.body.items.length).toBe(s)
    }
    expect(pages.flatMap((p) => p.body.items)).toEqual(expected)
  }
  toString = () =>
    `List(${this.kind}, ${this.chain}, ${this.pool}, size=${this.size}, from=-${this.from}, to=-${this.to}, status=${this.status}${
      this.aim !== undefined ? `, aimed #${this.aim}` : ""
    })`
}

/** Disable, enable (account routes) or delete (either kind's route) the picked account. */
class Change implements Command {
  constructor(
    readonly change: "disable" | "enable" | "delete",
    readonly kind: Kind,
    readonly chain: Chain,
    readonly pool: PoolName,
    readonly explicit: boolean,
    readonly pick: number,
    readonly unknown: boolean
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const target = pickOf(m, this.pick, this.unknown)
    const address = target?.json.address.toLowerCase() ?? unknownAddress(this.pick)
    const krn = krnFor(r, this.kind, this.chain, this.pool, this.explicit)
    const reply = await r.run(
      this.change === "delete"
        ? routes(r, this.kind).remove(this.chain, address, krn)
        : this.change === "disable"
        ? r.api.disable(this.chain, address, krn)
        : r.api.enable(this.chain, address, krn)
    )
    if (!poolExists(m, this.kind, this.chain, this.pool)) return expectError(reply, 400, 1061010)
    // The service: a disable or enable that changes nothing is "already deleted or disabled /
    // enabled", also for an address it does not hold; a delete of one is "data don't exist".
    const nothing = this.change === "disable" ? 1061510 : this.change === "enable" ? 1061511 : 1061010
    if (!reaches(target, this.kind, this.chain, this.pool)) return expectError(reply, 400, nothing)
    // The state machine: enabled ⇄ disabled, either → deleted; deleted is gone.
    const from = target.state
    if (this.change === "delete") {
      if (from === "deleted") return expectError(reply, 400, 1061010)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body).toEqual({ status: "deleted" })
      target.state = "deleted"
      return
    }
    if (this.change === "disable" && from !== "enabled") return expectError(reply, 400, 1061510)
    if (this.change === "enable" && from !== "disabled") return expectError(reply, 400, 1061511)
    expect(reply.status, reply.text).toBe(200)
    const updatedAt = Math.max(target.json.updatedAt, m.now)
    expect(reply.body).toEqual({ address: target.json.address, krn: target.json.krn, updatedAt })
    target.json = { ...target.json, updatedAt }
    target.state = this.change === "disable" ? "disabled" : "enabled"
  }
  toString = () =>
    `Change(${this.change}, ${this.kind}, ${this.chain}, ${this.pool}, #${this.pick}${this.unknown ? ", unknown" : ""})`
}

class Count implements Command {
  constructor(readonly chain: Chain, readonly pool: PoolName | undefined, readonly explicit: boolean) {}
  check = () => true
  async run(m: Model, r: Real) {
    const live = (a: ModelAccount) => a.kind === "account" && a.chain === this.chain && a.state !== "deleted"
    if (this.pool === undefined) {
      const reply = await r.run(r.api.count(this.chain))
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body).toEqual({ accountId: r.api.accountId, count: m.accounts.filter(live).length })
      return
    }
    const reply = await r.run(r.api.countPool(this.chain, krnFor(r, "account", this.chain, this.pool, this.explicit)))
    if (!poolExists(m, "account", this.chain, this.pool)) return expectError(reply, 400, 1061010)
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body).toEqual({
      accountId: r.api.accountId,
      count: m.accounts.filter((a) => live(a) && a.pool === this.pool).length,
      krn: r.api.krn(this.chain, this.pool)
    })
  }
  toString = () => `Count(${this.chain}, ${this.pool ?? "every pool"})`
}

class ByPublicKey implements Command {
  constructor(readonly chain: Chain, readonly pick: number, readonly form: "uncompressed" | "compressed" | "raw") {}
  // A lookup takes the key of an account.
  check = (m: Readonly<Model>) => m.accounts.length > 0
  async run(m: Model, r: Real) {
    const target = pickOf(m, this.pick, false)!
    const key: string = target.json.publicKey
    const form = this.form === "uncompressed"
      ? key
      : this.form === "raw"
      ? `0x${key.slice(4)}`
      : `0x${secp256k1.Point.fromHex(key.slice(2)).toHex(true)}`
    const reply = await r.run(r.api.byPublicKey(this.chain, form))
    expect(reply.status, reply.text).toBe(200)
    const found = target.kind === "account" && target.chain === this.chain && target.state !== "deleted"
    expect(reply.body).toEqual({ items: found ? [{ address: target.json.address, chainId: this.chain }] : [] })
  }
  toString = () => `ByPublicKey(${this.chain}, #${this.pick}, ${this.form})`
}

class BadSize implements Command {
  constructor(readonly chain: Chain, readonly size: string) {}
  check = () => true
  async run(m: Model, r: Real) {
    const reply = await r.run(r.api.list(this.chain, { size: this.size }))
    // Authentication, chain and pool come first; the default pool always exists.
    expect(m.pools.account[this.chain].has("default")).toBe(true)
    expectError(reply, 400, 1061615)
    expect(reply.body.message).toBe("its value is out of range; size")
  }
  toString = () => `BadSize(${this.chain}, ${JSON.stringify(this.size)})`
}

const kind = fc.constantFrom<Kind>("account", "feePayer")
const chain = fc.constantFrom(...CHAINS)
const pool = fc.constantFrom(...POOL_NAMES)
const offset = fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12 })), { nil: undefined })
// Half of the listings send no status: the default is where a wrong state would show.
const status = fc.option(fc.constantFrom<StatusFilter>("enabled", "disabled", "corrupted", "all"), { nil: undefined, freq: 2 })
const pick = fc.nat({ max: 1000 })
const create = fc.tuple(kind, chain, pool, fc.boolean()).map(([k, c, p, e]) => new Create(k, c, p, e))
// Changes mostly aim at the pool of the picked account, so that they mostly succeed.
const change = (what: "disable" | "enable" | "delete", kinds: fc.Arbitrary<Kind>) =>
  fc.tuple(kinds, chain, pool, fc.boolean(), pick, fc.nat({ max: 9 }), fc.nat({ max: 9 })).map(([k, c, p, e, n, u, aim]) =>
    aim < 7 ? new Aimed(what, k, e, n, u === 0) : new Change(what, k, c, p, e, n, u === 0)
  )

/** A change sent to the chain and pool of an account of its kind (so that it reaches it). */
class Aimed implements Command {
  constructor(
    readonly change: "disable" | "enable" | "delete",
    readonly kind: Kind,
    readonly explicit: boolean,
    readonly pick: number,
    readonly unknown: boolean
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const ofKind = m.accounts.flatMap((a, i) => (a.kind === this.kind ? [i] : []))
    const index = ofKind.length === 0 ? this.pick : ofKind[this.pick % ofKind.length]!
    const target = pickOf(m, index, false)
    const inner = new Change(this.change, this.kind, target?.chain ?? 1001, target?.pool ?? "default", this.explicit, index, this.unknown)
    await inner.run(m, r)
  }
  toString = () => `Aimed(${this.change}, ${this.kind}, #${this.pick}${this.unknown ? ", unknown" : ""})`
}

const commands = [
  fc.integer({ min: 0, max: 4 }).map((s) => new Tick(s)),
  fc.tuple(kind, chain, fc.constantFrom<PoolName>("alpha", "beta")).map(([k, c, p]) => new CreatePool(k, c, p)),
  create,
  create,
  create,
  fc.tuple(
    kind,
    chain,
    pool,
    fc.boolean(),
    pick,
    fc.constantFrom<"checksum" | "lower" | "upper" | "unknown">("checksum", "lower", "upper", "unknown"),
    fc.nat({ max: 9 })
  ).map(([k, c, p, e, n, f, aim]) => new Get(k, c, p, e, n, f, aim < 6)),
  fc.tuple(
    kind,
    chain,
    pool,
    fc.boolean(),
    fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 6 }), fc.constantFrom(1000, 1001, 50_000)), { nil: undefined }),
    offset,
    offset,
    status,
    fc.option(pick, { nil: undefined, freq: 3 })
  ).map(([k, c, p, e, s, f, t, st, aim]) => new List(k, c, p, e, s, f, t, st, aim)),
  change("disable", fc.constant<Kind>("account")),
  change("disable", fc.constant<Kind>("account")),
  change("enable", fc.constant<Kind>("account")),
  change("enable", fc.constant<Kind>("account")),
  change("delete", kind),
  fc.tuple(chain, fc.option(pool, { nil: undefined }), fc.boolean()).map(([c, p, e]) => new Count(c, p, e)),
  fc.tuple(chain, pick, fc.constantFrom<"uncompressed" | "compressed" | "raw">("uncompressed", "compressed", "raw"))
    .map(([c, n, f]) => new ByPublicKey(c, n, f)),
  fc.tuple(chain, fc.constantFrom("-1", "-7", "2.5", "x", "1e1")).map(([c, s]) => new BadSize(c, s))
]

layer(Layer.merge(Emulator.layer(), clientLayer))("emulator model", (it) => {
  it.effect("random sequences of operations agree with the model of the specification", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const runtime = yield* Effect.runtime<any>()
      const stats = { runs: 0, commands: 0, byCommand: new Map<string, number>() }
      const run = <A>(effect: Effect.Effect<A, unknown, any>) => Runtime.runPromise(runtime)(effect)
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.commands(commands, { maxCommands: 50, size: "large" }), async (cmds) => {
            const api = await run(newMemberApi)
            const now = await run(Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000)))
            const setup = () => ({
              model: {
                now,
                pools: {
                  account: { 8217: new Set<PoolName>(["default"]), 1001: new Set<PoolName>(["default"]) },
                  feePayer: { 8217: new Set<PoolName>(["default"]), 1001: new Set<PoolName>(["default"]) }
                },
                accounts: []
              } satisfies Model,
              real: { api, run, emulator } satisfies Real
            })
            await fc.asyncModelRun(setup, cmds)
            stats.runs++
            for (const c of cmds) {
              stats.commands++
              const name = String(c).split("(")[0]!
              stats.byCommand.set(name, (stats.byCommand.get(name) ?? 0) + 1)
            }
          }),
          { numRuns: 30 }
        )
      )
      // Guard against a vacuous pass: the runs must have exercised long sequences of every command.
      expect(stats.runs).toBeGreaterThanOrEqual(30)
      expect(stats.commands / stats.runs).toBeGreaterThan(10)
      for (const name of ["Create", "Get", "List", "Change", "Aimed", "Count", "ByPublicKey", "CreatePool"]) {
        expect(stats.byCommand.get(name) ?? 0, name).toBeGreaterThan(20)
      }
    }), { timeout: 120_000 })
})
