/**
 * Model-based property test: random sequences of console and wallet operations, on both chains and
 * random pools, checked step by step against a pure in-memory model of the specification.
 *
 * Each run works as a fresh member of one shared emulator (members are isolated, which the
 * isolation tests prove), so runs are independent without restarting the server. Time is the
 * TestClock, moved by `Tick` commands, so createdAt values and time ranges are exact.
 */
import { expect, layer } from "@effect/vitest"
import { Clock, Effect, FastCheck as fc, Layer, Runtime, TestClock } from "effect"
import type * as ChainId from "../../src/ChainId.js"
import * as Emulator from "../../src/emulator/Emulator.js"
import { type Api, clientLayer, expectError, newMemberApi, type Reply } from "./_support.js"

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

type Chain = 8217 | 1001
const CHAINS: ReadonlyArray<Chain> = [8217, 1001]
const POOL_NAMES = ["default", "alpha", "beta"] as const
type PoolName = (typeof POOL_NAMES)[number]

interface ModelAccount {
  readonly chain: Chain
  readonly pool: PoolName
  /** The JSON the create answered; every later read must answer exactly this. */
  readonly json: any
  readonly createdAt: number
  /** Creation order: the tie-break within one second. */
  readonly order: number
}

interface Model {
  now: number
  readonly pools: Record<Chain, Set<PoolName>>
  readonly accounts: Array<ModelAccount>
}

const poolExists = (m: Model, chain: Chain, pool: PoolName) => m.pools[chain].has(pool)

/** The specification of a listing: the pool's accounts in range, newest first, ties newest first. */
const expectedListing = (m: Model, chain: Chain, pool: PoolName, from: number | undefined, to: number | undefined) =>
  m.accounts
    .filter((a) => a.chain === chain && a.pool === pool)
    .filter((a) => (from === undefined || from === 0 || a.createdAt >= from) && (to === undefined || to === 0 || a.createdAt <= to))
    .sort((x, y) => y.createdAt - x.createdAt || y.order - x.order)
    .map((a) => a.json)

/** The page size the service applies to a `size` value. */
const effectiveSize = (size: number | undefined) => (size === undefined || size === 0 ? 100 : Math.min(size, 1000))

// ---------------------------------------------------------------------------------------------
// The real system
// ---------------------------------------------------------------------------------------------

interface Real {
  readonly api: Api
  readonly run: <A>(effect: Effect.Effect<A, unknown, any>) => Promise<A>
  readonly emulator: Emulator.Service
}

type Command = fc.AsyncCommand<Model, Real, false>

// `x-krn` for a pool: absent for the default pool half of the time, its KRN otherwise.
const krnFor = (r: Real, chain: Chain, pool: PoolName, explicit: boolean) =>
  pool === "default" && !explicit ? undefined : r.api.krn(chain, pool)

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
  constructor(readonly chain: Chain, readonly name: PoolName) {}
  check = () => true
  async run(m: Model, r: Real) {
    const outcome = await r.run(
      Effect.either(r.emulator.createPool({ accountId: r.api.accountId, chainId: this.chain as ChainId.ChainId, name: this.name }))
    )
    if (poolExists(m, this.chain, this.name)) {
      expect(outcome._tag).toBe("Left")
      if (outcome._tag === "Left") expect(outcome.left).toMatchObject({ _tag: "ConsoleError", reason: "PoolExists" })
    } else {
      expect(outcome._tag).toBe("Right")
      if (outcome._tag === "Right") expect(outcome.right.krn.toString()).toBe(r.api.krn(this.chain, this.name))
      m.pools[this.chain].add(this.name)
    }
  }
  toString = () => `CreatePool(${this.chain}, ${this.name})`
}

class Create implements Command {
  constructor(readonly chain: Chain, readonly pool: PoolName, readonly explicit: boolean) {}
  check = () => true
  async run(m: Model, r: Real) {
    const reply = await r.run(r.api.create(this.chain, krnFor(r, this.chain, this.pool, this.explicit)))
    if (!poolExists(m, this.chain, this.pool)) return expectError(reply, 400, 1061010)
    expect(reply.status, reply.text).toBe(200)
    const json = reply.body
    expect(json.chainId).toBe(this.chain)
    expect(json.krn).toBe(r.api.krn(this.chain, this.pool))
    expect(json.createdAt).toBe(m.now)
    expect(json.updatedAt).toBe(m.now)
    expect(m.accounts.some((a) => a.json.address === json.address)).toBe(false)
    m.accounts.push({ chain: this.chain, pool: this.pool, json, createdAt: m.now, order: m.accounts.length })
  }
  toString = () => `Create(${this.chain}, ${this.pool}${this.explicit ? ", explicit" : ""})`
}

class Get implements Command {
  constructor(
    readonly chain: Chain,
    readonly pool: PoolName,
    readonly explicit: boolean,
    readonly pick: number,
    readonly form: "checksum" | "lower" | "upper" | "unknown"
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const target = m.accounts.length === 0 || this.form === "unknown" ? undefined : m.accounts[this.pick % m.accounts.length]!
    const address: string = target === undefined
      ? `0x${this.pick.toString(16).padStart(40, "0")}`
      : this.form === "lower"
      ? target.json.address.toLowerCase()
      : this.form === "upper"
      ? `0x${target.json.address.slice(2).toUpperCase()}`
      : target.json.address
    const reply = await r.run(r.api.get(this.chain, address, krnFor(r, this.chain, this.pool, this.explicit)))
    if (!poolExists(m, this.chain, this.pool)) return expectError(reply, 400, 1061010)
    if (target !== undefined && target.chain === this.chain && target.pool === this.pool) {
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body).toEqual(target.json)
    } else {
      expectError(reply, 400, 1061010)
      expect(reply.body.message).toBe("data don't exist")
    }
  }
  toString = () => `Get(${this.chain}, ${this.pool}, #${this.pick}, ${this.form})`
}

class List implements Command {
  constructor(
    readonly chain: Chain,
    readonly pool: PoolName,
    readonly explicit: boolean,
    readonly size: number | undefined,
    readonly from: number | undefined,
    readonly to: number | undefined
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const krn = krnFor(r, this.chain, this.pool, this.explicit)
    // from/to are offsets back from now; 0 stays 0 (unbounded)
    const from = this.from === undefined || this.from === 0 ? this.from : Math.max(1, m.now - this.from)
    const to = this.to === undefined || this.to === 0 ? this.to : Math.max(1, m.now - this.to)
    const query = { size: this.size, "from-timestamp": from, "to-timestamp": to }
    if (!poolExists(m, this.chain, this.pool)) {
      return expectError(await r.run(r.api.list(this.chain, query, krn)), 400, 1061010)
    }
    const expected = expectedListing(m, this.chain, this.pool, from, to)
    const s = effectiveSize(this.size)
    const pages: Array<Reply> = []
    let cursor = ""
    do {
      const reply = await r.run(r.api.list(this.chain, { ...query, ...(cursor !== "" ? { cursor } : {}) }, krn))
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
    `List(${this.chain}, ${this.pool}, size=${this.size}, from=-${this.from}, to=-${this.to})`
}

class BadSize implements Command {
  constructor(readonly chain: Chain, readonly size: string) {}
  check = () => true
  async run(m: Model, r: Real) {
    const reply = await r.run(r.api.list(this.chain, { size: this.size }))
    // Authentication, chain and pool come first; the default pool always exists.
    expect(m.pools[this.chain].has("default")).toBe(true)
    expectError(reply, 400, 1061615)
    expect(reply.body.message).toBe("its value is out of range; size")
  }
  toString = () => `BadSize(${this.chain}, ${JSON.stringify(this.size)})`
}

const chain = fc.constantFrom(...CHAINS)
const pool = fc.constantFrom(...POOL_NAMES)
const offset = fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12 })), { nil: undefined })
const commands = [
  fc.integer({ min: 0, max: 4 }).map((s) => new Tick(s)),
  fc.tuple(chain, fc.constantFrom<PoolName>("alpha", "beta")).map(([c, p]) => new CreatePool(c, p)),
  fc.tuple(chain, pool, fc.boolean()).map(([c, p, e]) => new Create(c, p, e)),
  fc.tuple(chain, pool, fc.boolean()).map(([c, p, e]) => new Create(c, p, e)),
  fc.tuple(chain, pool, fc.boolean()).map(([c, p, e]) => new Create(c, p, e)),
  fc.tuple(chain, pool, fc.boolean(), fc.nat({ max: 1000 }), fc.constantFrom<"checksum" | "lower" | "upper" | "unknown">("checksum", "lower", "upper", "unknown"))
    .map(([c, p, e, n, f]) => new Get(c, p, e, n, f)),
  fc.tuple(
    chain,
    pool,
    fc.boolean(),
    fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 6 }), fc.constantFrom(1000, 1001, 50_000)), { nil: undefined }),
    offset,
    offset
  ).map(([c, p, e, s, f, t]) => new List(c, p, e, s, f, t)),
  fc.tuple(chain, fc.constantFrom("-1", "-7", "2.5", "x", "1e1")).map(([c, s]) => new BadSize(c, s))
]

layer(Layer.merge(Emulator.layer(), clientLayer))("emulator model", (it) => {
  it.effect("random sequences of operations agree with the model of the specification", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const runtime = yield* Effect.runtime<any>()
      const stats = { runs: 0, commands: 0 }
      const run = <A>(effect: Effect.Effect<A, unknown, any>) => Runtime.runPromise(runtime)(effect)
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.commands(commands, { maxCommands: 80, size: "large" }), async (cmds) => {
            const api = await run(newMemberApi)
            const now = await run(Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000)))
            const setup = () => ({
              model: {
                now,
                pools: { 8217: new Set<PoolName>(["default"]), 1001: new Set<PoolName>(["default"]) },
                accounts: []
              } satisfies Model,
              real: { api, run, emulator } satisfies Real
            })
            await fc.asyncModelRun(setup, cmds); stats.runs++; stats.commands += [...cmds].length
          }),
          { numRuns: 40 }
        )
      )
      // Guard against a vacuous pass: the runs must have exercised long sequences.
      expect(stats.runs).toBeGreaterThanOrEqual(40)
      expect(stats.commands / stats.runs).toBeGreaterThan(10)
    }), { timeout: 120_000 })
})
