import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, FastCheck as fc, Stream } from "effect"
import { Address, WalletClient, WalletConfig, type WalletError } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { accountJson } from "./support/fakeWallet.js"
import { json } from "./support/recordingClient.js"

const anything = () => json(200, { items: [], cursor: "" })

/** Runs `effect`, expects InvalidArgument naming `argument`, and zero requests. */
const rejects = <A>(
  effect: (client: WalletClient.Service) => Effect.Effect<A, WalletError.WalletError>,
  argument: string
) =>
  Effect.gen(function*() {
    const test = testClient(anything)
    const error = yield* Effect.flip(withClient(test, Effect.flatMap(WalletClient.WalletClient, effect)))
    expect(error._tag).toBe("InvalidArgument")
    expect((error as WalletError.InvalidArgument).argument).toBe(argument)
    expect(test.requests).toHaveLength(0)
    return error as WalletError.InvalidArgument
  })

const drain = <A, E>(stream: Stream.Stream<A, E>) => Stream.runDrain(stream)

describe("WalletClient argument validation (no request is sent)", () => {
  it.effect("page size 0, 1001, 1.5, NaN, -1, Infinity", () =>
    Effect.gen(function*() {
      for (const size of [0, 1001, 1.5, Number.NaN, -1, Number.POSITIVE_INFINITY]) {
        const error = yield* rejects((c) => c.listAccounts({ pageSize: size }), "pageSize")
        expect(error.description).toMatch(/page size must be an integer from 1 to 1000/)
        yield* rejects((c) => c.listAccounts({ size }), "size")
        yield* rejects((c) => drain(c.accounts({ pageSize: size })), "pageSize")
        yield* rejects((c) => drain(c.accountPages({ pageSize: size })), "pageSize")
      }
    }))

  // One client for every run, its layer built once (a layer a run was most of the run's time):
  // each run counts only the requests it sent.
  const shared = testClient(anything)
  layer(shared.client)((it) => {
    it.effect.prop("pageSize is accepted exactly when it is an integer in 1..1000", [fc.oneof(fc.integer({ min: -5, max: 1005 }), fc.double())], ([size]) =>
      Effect.gen(function*() {
        shared.requests.splice(0)
        const result = yield* Effect.either(WalletClient.listAccounts({ pageSize: size }))
        const valid = Number.isInteger(size) && size >= 1 && size <= 1000
        expect(result._tag === "Right").toBe(valid)
        expect(shared.requests).toHaveLength(valid ? 1 : 0)
      }))
  })

  it.effect("malformed or badly checksummed addresses", () =>
    Effect.gen(function*() {
      const good = accountJson(0).address
      const flipped = good.replace(/[a-fA-F]/, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
      for (const address of ["", "0x", "0x123", good.slice(2), `${good}00`, good.replace("0x", "0X"), `0x${"g".repeat(40)}`, flipped]) {
        const error = yield* rejects((c) => c.getAccount(address), "address")
        expect(error.description.length).toBeGreaterThan(0)
      }
      expect((yield* rejects((c) => c.getAccount(flipped), "address")).description).toContain("invalid EIP-55 checksum")
      expect(Address.isValid(good.toLowerCase())).toBe(true)
    }))

  it.effect("a KRN that is not an account pool, is malformed, or is on another chain", () =>
    Effect.gen(function*() {
      const pools = [
        "krn:1001:wallet:acc:feepayer-pool:default",
        "krn:1001:node:acc:account-pool:default",
        "krn:1001:wallet:acc:account-pool",
        "not a krn",
        "krn:1001:wallet:acc:account-pool:default,krn:1001:wallet:acc:account-pool:other"
      ]
      for (const pool of pools) {
        yield* rejects((c) => c.createAccount({ pool }), "pool")
        yield* rejects((c) => c.listAccounts({ pool }), "pool")
        yield* rejects((c) => WalletConfig.withPool(c.getAccount(accountJson(0).address), pool), "pool")
        yield* rejects((c) => drain(WalletConfig.withPool(c.accounts(), pool)), "pool")
      }
      const mainnet = "krn:8217:wallet:acc:account-pool:default"
      const error = yield* rejects((c) => c.createAccount({ pool: mainnet }), "pool")
      expect(error.description).toContain("on chain 8217, the request on chain 1001")
      yield* rejects((c) => c.createAccount({ pool: "krn:1001:wallet:acc:account-pool:x", chainId: 8217 }), "pool")
      yield* rejects((c) => c.createAccount({ pool: { not: "a krn" } as never }), "pool")
    }))

  it.effect("chain ids other than 8217 and 1001", () =>
    Effect.gen(function*() {
      for (const chainId of [0, 1, 1002, 8217.5, Number.NaN]) {
        yield* rejects((c) => c.createAccount({ chainId }), "chainId")
        yield* rejects((c) => WalletConfig.withChain(c.listAccounts(), chainId), "chainId")
      }
    }))

  it.effect("time ranges: from after to, negative, non-integer, milliseconds, invalid Date", () =>
    Effect.gen(function*() {
      const error = yield* rejects((c) => c.listAccounts({ from: 1_700_000_100, to: 1_700_000_000 }), "from")
      expect(error.description).toContain("must not be after")
      yield* rejects((c) => drain(c.accounts({ from: new Date(2_000_000_000_000), to: new Date(1_000_000_000_000) })), "from")
      yield* rejects((c) => c.listAccounts({ from: -1 }), "from")
      yield* rejects((c) => c.listAccounts({ to: 1.5 }), "to")
      const ms = yield* rejects((c) => c.listAccounts({ from: Date.now() }), "from")
      expect(ms.description).toContain("milliseconds")
      yield* rejects((c) => c.listAccounts({ to: new Date("nope") }), "to")
      yield* rejects((c) => c.listAccounts({ cursor: 5 as never }), "cursor")
    }))

  it.effect("pageSize and its alias size must agree", () =>
    Effect.gen(function*() {
      yield* rejects((c) => c.listAccounts({ pageSize: 5, size: 6 }), "pageSize")
    }))
})
