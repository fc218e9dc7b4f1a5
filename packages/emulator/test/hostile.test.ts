/**
 * Hostile input: random methods, paths, headers, query values and cursors, each request carrying at
 * least one element that must be refused. Every answer is a 4xx with a KAS error body, never a 5xx,
 * and no stored data changes.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Cause, Clock, Context, Effect, Exit, FastCheck as fc, Fiber, Layer, Logger, Option, Redacted, Scope } from "effect"
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as Database from "../src/store/Database.js"
import * as Emulator from "../src/Emulator.js"
import { type Api, basic, clientLayer, expectKasErrorBody, newMemberApi, sendEither } from "./_support.js"

interface FixtureShape {
  readonly own: Api
  readonly victim: Api
  readonly ownAddresses: ReadonlyArray<string>
  readonly victimAddresses: ReadonlyArray<string>
  readonly ownCursor: string
  readonly ownMainnetCursor: string
  readonly victimCursor: string
  readonly accessKeyId: string
}
class Fixture extends Context.Tag("test/HostileFixture")<Fixture, FixtureShape>() {}

const FixtureLayer = Layer.effect(
  Fixture,
  Effect.gen(function*() {
    const e = yield* Emulator.Emulator
    const own = yield* newMemberApi
    const victim = yield* newMemberApi
    yield* Effect.orDie(e.createPool({ accountId: own.accountId, chainId: 1001 as any, name: "p1" }))
    const created = yield* Effect.forEach(
      [1, 2, 3],
      () => Effect.all([own.create(1001), own.create(8217), own.create(1001, own.krn(1001, "p1")), victim.create(1001), victim.create(8217)])
    )
    const keys = yield* Effect.orDie(e.listKeys(own.accountId))
    return {
      own,
      victim,
      ownAddresses: created.flatMap(([a, b, c]) => [a.body.address, b.body.address, c.body.address]),
      victimAddresses: created.flatMap(([, , , d, f]) => [d.body.address, f.body.address]),
      ownCursor: (yield* own.list(1001, { size: 1 })).body.cursor,
      ownMainnetCursor: (yield* own.list(8217, { size: 1 })).body.cursor,
      victimCursor: (yield* victim.list(1001, { size: 1 })).body.cursor,
      accessKeyId: keys[0]!.accessKeyId
    }
  })
)

const visible = fc.stringMatching(/^[\x21-\x7e]{1,40}$/)
const junk = fc.oneof(visible, fc.constantFrom("%00", "%zz", "\\", "null", "undefined", "[]", "{}", "0x", "krn:", "::::", "é"))

type Route = "create" | "list" | "get" | "other"
type Element = "auth" | "chain" | "krn" | "size" | "from" | "to" | "cursor" | "address"

const relevant: Record<Route, ReadonlyArray<Element>> = {
  create: ["auth", "chain", "krn"],
  list: ["auth", "chain", "krn", "size", "from", "to", "cursor"],
  get: ["auth", "chain", "krn", "address"],
  other: ["auth"]
}

interface Choice {
  readonly valid: boolean
  readonly pick: (f: FixtureShape, chain: string) => string | undefined
}
const ok = (pick: Choice["pick"]): Choice => ({ valid: true, pick })
const bad = (pick: Choice["pick"]): Choice => ({ valid: false, pick })

const elements: Record<Element, fc.Arbitrary<Choice>> = {
  auth: fc.oneof(
    fc.constant(ok((f) => f.own.authorization)),
    fc.constant(bad(() => undefined)),
    junk.map((s) => bad(() => s)),
    junk.map((s) => bad(() => `Basic ${s}`)),
    junk.map((s) => bad(() => basic(s.replaceAll(":", "")))),
    junk.map((s) => bad((f) => basic(`${f.accessKeyId}:${s}`))),
    junk.map((s) => bad(() => basic(`KASKUNKNOWN:${s}`)))
  ),
  chain: fc.oneof(
    fc.constantFrom("1001", "8217").map((c) => ok(() => c)),
    fc.constant(bad(() => undefined)),
    junk.filter((s) => s !== "1001" && s !== "8217").map((s) => bad(() => s))
  ),
  krn: fc.oneof(
    fc.constant(ok(() => undefined)),
    fc.constant(ok((f, chain) => f.own.krn(Number(chain)))),
    junk.map((s) => bad(() => s)),
    fc.constant(bad((f, chain) => f.victim.krn(Number(chain)))),
    fc.constant(bad((f, chain) => f.own.krn(chain === "1001" ? 8217 : 1001))),
    fc.constant(bad((f, chain) => f.own.krn(Number(chain), "nosuchpool"))),
    fc.constant(bad((f, chain) => `krn:${chain}:wallet:${f.own.accountId}:feepayer-pool:default`))
  ),
  size: fc.oneof(
    fc.constant(ok(() => undefined)),
    fc.integer({ min: 0, max: 2000 }).map((n) => ok(() => String(n))),
    fc.constantFrom("9".repeat(400), "18446744073709551616", "-0", "0000").map((v) => ok(() => v)),
    fc.integer({ max: -1 }).map((n) => bad(() => String(n))),
    junk.filter((s) => !/^-?[0-9]+$/.test(s)).map((s) => bad(() => s))
  ),
  from: fc.oneof(
    fc.constant(ok(() => undefined)),
    fc.nat().map((n) => ok(() => String(n))),
    fc.constantFrom("", "0", "9".repeat(400), "18446744073709551616").map((v) => ok(() => v)),
    fc.integer({ max: -1 }).map((n) => bad(() => String(n))),
    junk.filter((s) => !/^-?[0-9]+$/.test(s)).map((s) => bad(() => s))
  ),
  to: fc.oneof(
    fc.constant(ok(() => undefined)),
    fc.nat().map((n) => ok(() => String(n))),
    fc.constantFrom("", "0", "9".repeat(400), "18446744073709551616").map((v) => ok(() => v)),
    fc.integer({ max: -1 }).map((n) => bad(() => String(n))),
    junk.filter((s) => !/^-?[0-9]+$/.test(s)).map((s) => bad(() => s))
  ),
  cursor: fc.oneof(
    fc.constant(ok(() => undefined)),
    junk.map((s) => bad(() => s)),
    fc.constant(bad((f) => f.victimCursor)),
    fc.constant(bad((f, chain) => (chain === "1001" ? f.ownMainnetCursor : f.ownCursor))),
    fc.tuple(fc.nat(), fc.constantFrom("A", "b", "-", "_", ".", "0")).map(([i, c]) =>
      bad((f) => {
        const at = i % f.ownCursor.length
        const mutated = f.ownCursor.slice(0, at) + c + f.ownCursor.slice(at + 1)
        return mutated === f.ownCursor ? `${mutated}${c}` : mutated
      })
    )
  ),
  address: fc.oneof(
    fc.nat().map((i) => ok((f) => f.ownAddresses[i % f.ownAddresses.length]!)),
    fc.nat().map((i) => bad((f) => f.victimAddresses[i % f.victimAddresses.length]!)),
    fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => bad(() => `0x${Buffer.from(b).toString("hex")}`)),
    junk.map((s) => bad(() => encodeURIComponent(s)))
  )
}

const KNOWN =
  /^\/(health|openapi\.json|v2\/(account|feepayer)(\/[^/]+(\/(disable|enable))?)?|v2\/pubkey\/[^/]+\/account|v2\/stat\/count(\/krn)?|v2\/tx\/([^/]+|fd\/value|fd-user\/value))$/
const junkPath = fc.tuple(
  fc.constantFrom("/", "/v1/", "/v2/", "/v2/accounts", "/v2/account/", "/V2/ACCOUNT", "//", "/v2/account/0x1/", "/health/", "/api/"),
  fc.stringMatching(/^[A-Za-z0-9._~%!$&'()*+,;=:@/-]{0,30}$/)
).map(([prefix, rest]) => prefix + rest)
  .filter((p) => !/%(?![0-9A-Fa-f]{2})/.test(p))

const request = fc.record({
  route: fc.constantFrom<Route>("create", "list", "get", "other"),
  otherMethod: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
  badMethod: fc.boolean(),
  path: junkPath,
  attack: fc.nat(),
  auth: elements.auth,
  chain: elements.chain,
  krn: elements.krn,
  size: elements.size,
  from: elements.from,
  to: elements.to,
  cursor: elements.cursor,
  address: elements.address,
  forced: fc.record({
    auth: elements.auth.filter((c) => !c.valid),
    chain: elements.chain.filter((c) => !c.valid),
    krn: elements.krn.filter((c) => !c.valid),
    size: elements.size.filter((c) => !c.valid),
    from: elements.from.filter((c) => !c.valid),
    to: elements.to.filter((c) => !c.valid),
    cursor: elements.cursor.filter((c) => !c.valid),
    address: elements.address.filter((c) => !c.valid)
  }),
  extraHeaders: fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,12}$/), visible, { maxKeys: 2 })
})

const build = (r: typeof request extends fc.Arbitrary<infer A> ? A : never, f: FixtureShape) => {
  // One element relevant to the route is forced to a value that must be refused.
  const forcedElement = relevant[r.route][r.attack % relevant[r.route].length]!
  const choose = (e: Element) => (e === forcedElement ? r.forced[e] : r[e])
  const chain = choose("chain").pick(f, "1001") ?? ""
  const chainForValues = chain === "8217" ? "8217" : "1001"
  const headers: Record<string, string> = { ...r.extraHeaders }
  const set = (name: string, e: Element) => {
    const value = choose(e).pick(f, chainForValues)
    if (value !== undefined) headers[name] = value
  }
  set("authorization", "auth")
  if (choose("chain").pick(f, "1001") !== undefined) headers["x-chain-id"] = chain
  set("x-krn", "krn")
  const query = new URLSearchParams()
  for (const [name, e] of [["size", "size"], ["from-timestamp", "from"], ["to-timestamp", "to"], ["cursor", "cursor"]] as const) {
    const value = choose(e).pick(f, chainForValues)
    if (value !== undefined) query.append(name, value)
  }
  const qs = query.toString() === "" ? "" : `?${query.toString()}`
  switch (r.route) {
    case "create":
      return { method: "POST", path: "/v2/account", headers }
    case "list":
      return { method: "GET", path: `/v2/account${qs}`, headers }
    case "get":
      // PATCH: DELETE is a route of its own, and could change the stored data.
      return { method: r.badMethod ? "PATCH" : "GET", path: `/v2/account/${choose("address").pick(f, chainForValues)}`, headers }
    case "other":
      return { method: r.otherMethod, path: r.path + qs, headers }
  }
}

const snapshot = (f: FixtureShape) =>
  Effect.gen(function*() {
    const e = yield* Emulator.Emulator
    const lists = yield* Effect.all([
      f.own.listAll(1001),
      f.own.listAll(8217),
      f.own.listAll(1001, {}, f.own.krn(1001, "p1")),
      f.victim.listAll(1001),
      f.victim.listAll(8217)
    ])
    const pools = yield* Effect.orDie(Effect.all([e.listPools(f.own.accountId), e.listPools(f.victim.accountId)]))
    const keys = yield* Effect.orDie(Effect.all([e.listKeys(f.own.accountId), e.listKeys(f.victim.accountId)]))
    const members = yield* Effect.orDie(e.listMembers)
    return JSON.stringify({ lists: lists.map((l) => l.items), pools, keys, members: members.length })
  })

layer(Layer.merge(Emulator.layer(), clientLayer))("emulator hostile input", (it) => {
  it.layer(FixtureLayer)((it) => {
    describe("random hostile requests", () => {
      let before = ""
      let stats = { requests: 0, byStatus: {} as Record<number, number> }

      it.effect("record the stored data", () =>
        Effect.gen(function*() {
          before = yield* snapshot(yield* Fixture)
          expect(before.length).toBeGreaterThan(100)
        }))

      it.effect.prop("always a 4xx with a KAS error body, never a 5xx", [request], ([r]) =>
        Effect.gen(function*() {
          const f = yield* Fixture
          const e = yield* Emulator.Emulator
          const req = build(r, f)
          // A path the URL parser maps onto a real route is not hostile by itself: skip it.
          const url = new URL(`${e.url}${req.path}`)
          if (r.route === "other" && KNOWN.test(url.pathname)) return
          const reply = yield* Effect.orDie(sendEither(req.method as any, url.href, req.headers))
          stats.requests++
          stats.byStatus[reply.status] = (stats.byStatus[reply.status] ?? 0) + 1
          expect(reply.status, `${req.method} ${req.path} ${JSON.stringify(req.headers)} -> ${reply.text}`).toBeGreaterThanOrEqual(400)
          expect(reply.status).toBeLessThan(500)
          if (req.method !== "HEAD") expectKasErrorBody(reply)
          expect(reply.headers["x-request-id"]).toBeDefined()
        }), { fastCheck: { numRuns: 500 } })

      it.effect("stored data did not change, and every kind of refusal was exercised", () =>
        Effect.gen(function*() {
          expect(yield* snapshot(yield* Fixture)).toBe(before)
          expect(stats.requests).toBeGreaterThan(300)
          for (const status of [400, 401, 404, 405]) expect(stats.byStatus[status] ?? 0, JSON.stringify(stats)).toBeGreaterThan(0)
        }))
    })
  })
})

describe("emulator shutdown with requests in flight", () => {
  const errorLogger = (logged: Array<string>) =>
    Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ cause, logLevel, message }) => {
        if (logLevel._tag === "Error" || logLevel._tag === "Fatal") logged.push(`${String(message)} ${Cause.pretty(cause)}`)
      })
    )

  /**
   * The emulator's clock in these tests: its sleeps (an injected latency, the one sleep of a
   * request) are `sleep`, which holds them as the test chooses; its time stands at a fixed instant,
   * so that nothing here reads the wall clock.
   */
  const clockWith = (sleep: Effect.Effect<void>): Clock.Clock => {
    const millis = Date.UTC(2026, 0, 1)
    return {
      [Clock.ClockTypeId]: Clock.ClockTypeId,
      unsafeCurrentTimeMillis: () => millis,
      currentTimeMillis: Effect.succeed(millis),
      unsafeCurrentTimeNanos: () => BigInt(millis) * 1_000_000n,
      currentTimeNanos: Effect.succeed(BigInt(millis) * 1_000_000n),
      sleep: () => sleep
    }
  }

  /** Whether a new connection to `port` is refused: the emulator's shutdown has begun. */
  const refused = (port: number) =>
    Effect.async<boolean>((resume) => {
      const socket = net.connect(port, "127.0.0.1")
      socket.once("connect", () => {
        socket.destroy()
        resume(Effect.succeed(false))
      })
      socket.once("error", () => resume(Effect.succeed(true)))
    })

  type Outcome = "answered" | "answered closing" | "closed" | string

  // One request outside Effect (it must outlive the emulator's scope): "answered" when a 200 came
  // whole ("answered closing" when it also closed its connection, as the answers given during the
  // shutdown do), "closed" when the connection was refused or closed before an answer began;
  // anything else (another status, a truncated body) is described.
  const request = (agent: http.Agent, url: string, method: string, headers: Record<string, string>, abort: boolean) =>
    new Promise<Outcome>((resolve) => {
      const req = http.request(url, { method, headers, agent }, (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (chunk: Buffer) => chunks.push(chunk))
        res.on("error", () => resolve(`truncated ${res.statusCode}`))
        res.on("end", () => {
          const body = Buffer.concat(chunks)
          const whole = res.complete && body.length === Number(res.headers["content-length"])
          resolve(
            res.statusCode === 200 && whole
              ? res.headers.connection === "close" ? "answered closing" : "answered"
              : `${res.statusCode} ${whole ? "" : "truncated "}${body.toString("utf8").slice(0, 200)}`
          )
        })
      })
      req.on("error", (e: NodeJS.ErrnoException) =>
        resolve(e.code === "ECONNREFUSED" || e.code === "ECONNRESET" || abort ? "closed" : `error ${e.code} ${e.message}`))
      // A client giving up: the emulator is left handling a request nobody waits for.
      if (abort) req.on("finish", () => setImmediate(() => req.destroy()))
      req.end()
    })

  it.live("closing the scope answers each request or closes its connection, before the database closes, and logs no error", () =>
    Effect.gen(function*() {
      const logged: Array<string> = []
      const scope = yield* Scope.make()
      // Every request sleeps first (an injected latency) on the test's clock: at once until 16
      // answers came, then held at a gate, so that requests are surely in flight when the scope
      // closes, also those whose clients gave up.
      const gate = yield* Effect.makeLatch(false)
      let holding = false
      let held = 0
      let onHeld = () => {}
      const clock = clockWith(Effect.suspend(() =>
        holding
          ? Effect.zipRight(
            Effect.sync(() => {
              held++
              onHeld()
            }),
            gate.await
          )
          : Effect.void
      ))
      const emulator = yield* Emulator.make({ port: 0, faults: { rate: 1, kinds: ["latency"] } }).pipe(
        Scope.extend(scope),
        Effect.withClock(clock),
        Effect.provide(errorLogger(logged))
      )
      const headers = { authorization: Redacted.value(emulator.member.authorization), "x-chain-id": "1001" }
      const agent = new http.Agent({ keepAlive: true, maxSockets: 16 })
      let answered = 0
      let underWay = () => {}
      const sixteen = new Promise<void>((resolve) => (underWay = resolve))
      const outcomes = Array.from({ length: 240 }, (_, i) =>
        request(agent, `${emulator.url}/v2/account${i % 3 === 0 ? "?size=50" : ""}`, i % 3 === 0 ? "GET" : "POST", headers, i % 4 === 1)
          .then((outcome) => {
            if (outcome === "answered" && ++answered === 16) {
              holding = true
              underWay()
            }
            return outcome
          }))
      // Close once the traffic is under way: some answers came, 16 requests are held in flight, most
      // requests are still to come.
      yield* Effect.promise(() => sixteen)
      yield* Effect.async<void>((resume) => {
        onHeld = () => {
          if (held < 16) return
          onHeld = () => {}
          resume(Effect.void)
        }
        onHeld()
      })
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      // The requests held go on once the shutdown has begun (new connections are refused).
      yield* Effect.repeat(refused(emulator.port), { until: (refusing) => refusing })
      yield* gate.open
      // Bounded, so that a shutdown that never ends fails here rather than at the test's timeout.
      const closed = yield* Fiber.join(closing).pipe(Effect.disconnect, Effect.timeoutOption("15 seconds"))
      expect(closed._tag, "the shutdown ends").toBe("Some")
      const results = yield* Effect.promise(() => Promise.all(outcomes)).pipe(Effect.timeout("15 seconds"))
      agent.destroy()
      const counts: Record<string, number> = {}
      for (const outcome of results) counts[outcome] = (counts[outcome] ?? 0) + 1
      expect(Object.keys(counts).filter((k) => k !== "answered" && k !== "answered closing" && k !== "closed"), JSON.stringify(counts))
        .toEqual([])
      expect((counts.answered ?? 0) + (counts["answered closing"] ?? 0)).toBeGreaterThanOrEqual(16)
      expect(counts["answered closing"] ?? 0, "requests in flight answered during the shutdown, their answers closing the connection").toBeGreaterThan(0)
      expect(logged).toEqual([])
    }))

  it.live("the database closes only after the requests in flight are done, also those whose clients gave up", () =>
    Effect.gen(function*() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kas-emu-drain-"))
      const database = path.join(dir, "e.db")
      const logged: Array<string> = []
      // Each request sleeps first (an injected latency) on this clock, which holds every sleeper
      // until the gate opens: the test knows when the requests are in flight, and keeps them there.
      // It also keeps each sleeping request's server-side connection, to wait for its close.
      const gate = yield* Effect.makeLatch(false)
      const connections: Array<net.Socket> = []
      let onSleep = () => {}
      const gated = clockWith(
        Effect.zipRight(
          Effect.flatMap(Effect.serviceOption(HttpServerRequest.HttpServerRequest), (request) =>
            Effect.sync(() => {
              if (Option.isSome(request)) connections.push(NodeHttpServerRequest.toIncomingMessage(request.value).socket)
              onSleep()
            })),
          gate.await
        )
      )
      const scope = yield* Scope.make()
      const emulator = yield* Emulator.make({ port: 0, database, faults: { rate: 1, kinds: ["latency"] } }).pipe(
        Scope.extend(scope),
        Effect.withClock(gated),
        Effect.provide(errorLogger(logged))
      )
      const abandoned = 8
      for (let i = 0; i < abandoned; i++) {
        const req = http.request(`${emulator.url}/v2/account`, {
          method: "POST",
          agent: false,
          headers: { authorization: Redacted.value(emulator.member.authorization), "x-chain-id": "1001" }
        })
        req.on("error", () => {})
        req.on("finish", () => setImmediate(() => req.destroy()))
        req.end()
      }
      yield* Effect.async<void>((resume) => {
        onSleep = () => connections.length === abandoned && resume(Effect.void)
        onSleep()
      })
      // The clients gave up: wait until the emulator has seen each of their connections close, so
      // that only the requests themselves are left in flight.
      yield* Effect.async<void>((resume) => {
        let open = abandoned
        const closed = () => --open === 0 && resume(Effect.void)
        for (const socket of connections) {
          if (socket.closed) closed()
          else socket.once("close", closed)
        }
      })
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      // Nothing is left for the shutdown to wait for but those requests: were it to close the
      // database without them, it would do so within a few turns of the event loop (it waits on
      // no timer: without the wait it is gone in one). Give it many more turns, counted, not timed.
      let turns = 0
      while (turns < 100 && Option.isNone(yield* Fiber.poll(closing))) {
        yield* Effect.async<void>((resume) => void setImmediate(() => resume(Effect.void)))
        turns++
      }
      expect(turns, "the shutdown waits for the requests in flight").toBe(100)
      yield* gate.open
      const closed = yield* Fiber.join(closing).pipe(Effect.disconnect, Effect.timeoutOption("15 seconds"))
      expect(closed._tag, "the shutdown ends").toBe("Some")
      const stored = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly n: number }>`SELECT count(*) AS n FROM accounts`).pipe(
        Effect.provide(Database.layer({ database })),
        Effect.orDie
      )
      fs.rmSync(dir, { recursive: true, force: true })
      expect(stored[0]?.n).toBe(abandoned)
      expect(logged).toEqual([])
    }))
})
