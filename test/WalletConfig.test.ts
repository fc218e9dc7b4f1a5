/**
 * Configuration mistakes, in `layer` and `layerConfig`: each is one `InvalidArgument` naming the
 * setting and what it must hold, never a defect; and the scope overrides, data-first and
 * data-last, on Effects and Streams.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, ConfigProvider, Duration, Effect, Exit, Fiber, Layer, Option, Redacted, Stream, TestClock } from "effect"
import { ChainId, WalletClient, WalletConfig } from "../src/index.js"
import { accessKeyId, basic, secret, testClient } from "./support/client.js"
import { json, makeRecordingClient } from "./support/recordingClient.js"

const echo = () => json(200, {})
const pool = "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:payroll"
const feePayerPool = "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:feepayer-pool:fees"

/** What building a client from `layer` ends with: the InvalidArgument's argument and text, or a defect's. */
const outcome = (layer: Layer.Layer<WalletClient.WalletClient, unknown>) =>
  Effect.map(Effect.exit(Effect.provide(WalletClient.WalletClient, layer)), (exit) => {
    if (Exit.isSuccess(exit)) return "built"
    const failure = Cause.failureOption(exit.cause)
    if (Option.isNone(failure)) return `defect: ${Cause.pretty(exit.cause).split("\n")[0]}`
    const e = failure.value as { _tag: string; argument?: string; message: string }
    return e._tag === "InvalidArgument" ? `${e.argument}: ${e.message}` : e._tag
  })

const recording = makeRecordingClient(echo)
const fromOptions = (options: unknown) => WalletClient.layer(options as WalletConfig.Options).pipe(Layer.provide(recording.layer))
const fromEnv = (env: Record<string, string>) =>
  WalletClient.layerConfig().pipe(Layer.provide(recording.layer), Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))

const goodEnv = { KAS_ACCESS_KEY_ID: accessKeyId, KAS_SECRET_ACCESS_KEY: secret, KAS_CHAIN_ID: "1001" }

describe("configuration mistakes are InvalidArgument, never a defect", () => {
  it.effect("layer: a missing, empty or malformed key", () =>
    Effect.gen(function*() {
      const key = (credentials: unknown) => outcome(fromOptions({ credentials, chainId: ChainId.Testnet }))
      // The README's program with its variable unset: `Redacted.make(process.env.SECRET!)`.
      expect(yield* key({ accessKeyId, secretAccessKey: Redacted.make(undefined) })).toMatch(/^credentials\.secretAccessKey: .*is missing: set it to Redacted\.make\(<Secret AccessKey>\)/)
      expect(yield* key({ accessKeyId, secretAccessKey: Redacted.make(null) })).toMatch(/^credentials\.secretAccessKey: .*is missing/)
      expect(yield* key({ accessKeyId, secretAccessKey: Redacted.make(42) })).toMatch(/^credentials\.secretAccessKey: .*must be a Redacted string/)
      expect(yield* key({ accessKeyId, secretAccessKey: Redacted.make("") })).toMatch(/^credentials\.secretAccessKey: .*is empty/)
      expect(yield* key({ accessKeyId })).toMatch(/^credentials\.secretAccessKey: .*is missing/)
      expect(yield* key({ accessKeyId, secretAccessKey: secret })).toMatch(/^credentials\.secretAccessKey: .*must be a Redacted string/)
      expect(yield* key({ accessKeyId: undefined, secretAccessKey: Redacted.make(secret) })).toMatch(/^credentials\.accessKeyId: .*is missing/)
      expect(yield* key({ accessKeyId: "", secretAccessKey: Redacted.make(secret) })).toMatch(/^credentials\.accessKeyId: .*is empty/)
      expect(yield* key({ accessKeyId: "KASK:X", secretAccessKey: Redacted.make(secret) })).toMatch(/^credentials\.accessKeyId: .*':'/)
      expect(yield* key(undefined)).toMatch(/^credentials: .*missing/)
      expect(yield* key({ authorization: "Basic eDp5" })).toMatch(/^credentials\.authorization: .*Redacted/)
      expect(yield* key({ accessKeyId, secretAccessKey: Redacted.make(secret) })).toBe("built")
    }))

  it.effect("layer: verifyResults is true, false or \"fields\"", () =>
    Effect.gen(function*() {
      const credentials = { accessKeyId, secretAccessKey: Redacted.make(secret) }
      const verify = (verifyResults: unknown) => outcome(fromOptions({ credentials, chainId: ChainId.Testnet, verifyResults }))
      for (const ok of [true, false, "fields", undefined]) expect(yield* verify(ok)).toBe("built")
      expect(yield* verify("yes")).toBe(`verifyResults: invalid verifyResults: must be true, false or "fields", got "yes"`)
    }))

  it.effect("layer: timeout, firstAttemptTimeout and deadline are positive durations", () =>
    Effect.gen(function*() {
      const credentials = { accessKeyId, secretAccessKey: Redacted.make(secret) }
      for (const name of ["timeout", "firstAttemptTimeout", "deadline"]) {
        const limit = (value: unknown) => outcome(fromOptions({ credentials, chainId: ChainId.Testnet, [name]: value }))
        for (const ok of ["10 seconds", 500, Duration.seconds(3), Duration.infinity]) expect(yield* limit(ok)).toBe("built")
        for (const bad of ["soon", "5s", 0, -1, "0 seconds", Number.NaN, null]) {
          expect(yield* limit(bad)).toMatch(new RegExp(`^${name}: invalid ${name}: must be a positive duration such as "10 seconds"`))
        }
      }
    }))

  it.effect("layerConfig: KAS_TIMEOUT is the deadline, a duration with its unit", () =>
    Effect.gen(function*() {
      for (const ok of ["5s", "500ms", "1.5 s", "2m", "1h", "2 minutes", "750 millis", ""]) {
        expect(yield* outcome(fromEnv({ ...goodEnv, KAS_TIMEOUT: ok })), ok).toBe("built")
      }
      for (const bad of ["5", "0s", "-1s", "soon", "5 parsecs"]) {
        expect(yield* outcome(fromEnv({ ...goodEnv, KAS_TIMEOUT: bad })), bad).toBe(
          `KAS_TIMEOUT: invalid KAS_TIMEOUT: is invalid: expected a positive duration with its unit, such as 5s, 500ms or 2m, got ${
            JSON.stringify(bad)
          }: set it to the deadline of each request, retries included, such as 5s, 500ms or 2m (unset: 30s)`
        )
      }
      // Read, and applied: a silent service fails the call at 2 s.
      const silent = makeRecordingClient(() => Effect.never)
      const layer = WalletClient.layerConfig().pipe(
        Layer.provide(silent.layer),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries({ ...goodEnv, KAS_TIMEOUT: "2s" })))))
      )
      const fiber = yield* Effect.fork(Effect.flip(Effect.provide(WalletClient.getAccount("0xa809284c83b901ed106aba4ccda14628af128e14"), layer)))
      yield* TestClock.adjust(1_999)
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      yield* TestClock.adjust(1)
      expect(String(yield* Fiber.join(fiber))).toMatch(/getAccount: no complete response within 2s, the deadline of the whole call/)
    }))

  it.effect("layerConfig: each variable missing, empty or wrong is named, with what it must hold", () =>
    Effect.gen(function*() {
      const without = (name: keyof typeof goodEnv) => {
        const { [name]: _, ...rest } = goodEnv
        return rest
      }
      expect(yield* outcome(fromEnv(without("KAS_SECRET_ACCESS_KEY")))).toBe(
        "KAS_SECRET_ACCESS_KEY: invalid KAS_SECRET_ACCESS_KEY: is not set (or empty): set it to the Secret AccessKey of your KAS key"
      )
      expect(yield* outcome(fromEnv({ ...goodEnv, KAS_SECRET_ACCESS_KEY: "" }))).toMatch(/^KAS_SECRET_ACCESS_KEY: .*is not set \(or empty\)/)
      expect(yield* outcome(fromEnv(without("KAS_ACCESS_KEY_ID")))).toMatch(/^KAS_ACCESS_KEY_ID: .*is not set \(or empty\): set it to the AccessKey ID/)
      expect(yield* outcome(fromEnv({ ...goodEnv, KAS_ACCESS_KEY_ID: "" }))).toMatch(/^KAS_ACCESS_KEY_ID: .*is not set \(or empty\)/)
      expect(yield* outcome(fromEnv({ ...goodEnv, KAS_CHAIN_ID: "5" }))).toMatch(/^KAS_CHAIN_ID: .*is invalid: .*"8217".*"1001".*got "5"/)
      expect(yield* outcome(fromEnv(without("KAS_CHAIN_ID")))).toMatch(/^KAS_CHAIN_ID: .*8217 \(mainnet\) or 1001 \(testnet\)/)
      expect(yield* outcome(fromEnv({ ...goodEnv, KAS_ACCOUNT_POOL: "default" }))).toMatch(/^KAS_ACCOUNT_POOL: .*is invalid/)
      expect(yield* outcome(fromEnv({ ...goodEnv, KAS_WALLET_URL: "not a url" }))).toMatch(/^KAS_WALLET_URL: .*is invalid/)
      // A pool of the other chain: the layer's own check, naming the option.
      expect(yield* outcome(fromEnv({ ...goodEnv, KAS_CHAIN_ID: "8217", KAS_ACCOUNT_POOL: pool }))).toMatch(/^pool: .*chain 1001.*8217/)
      // An empty optional variable is unset.
      expect(yield* outcome(fromEnv({ ...goodEnv, KAS_ACCOUNT_POOL: "", KAS_FEEPAYER_POOL: "", KAS_WALLET_URL: "" }))).toBe("built")
      // Several mistakes: the first named, every one said.
      const both = yield* outcome(fromEnv({ KAS_CHAIN_ID: "1001" }))
      expect(both).toMatch(/^KAS_ACCESS_KEY_ID: .*KAS_SECRET_ACCESS_KEY is not set/)
    }))

  it.effect("layerConfig reads every variable", () =>
    Effect.gen(function*() {
      const test = makeRecordingClient(echo)
      const layer = WalletClient.layerConfig().pipe(
        Layer.provide(test.layer),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries({
          ...goodEnv,
          KAS_WALLET_URL: "http://127.0.0.1:1234",
          KAS_FEEPAYER_POOL: feePayerPool
        })))))
      )
      yield* Effect.ignore(Effect.provide(WalletClient.createFeePayer(), layer))
      expect(test.requests[0]!.headers["authorization"]).toBe(basic)
      expect(test.requests[0]!.headers["x-krn"]).toBe(feePayerPool)
      expect(test.requests[0]!.url.toString()).toBe("http://127.0.0.1:1234/v2/feepayer")
    }))
})

describe("scope overrides", () => {
  it.effect("withPool, withFeePayerPool and withChain: data-first and data-last, on Effects and Streams", () =>
    Effect.gen(function*() {
      const test = testClient((request) =>
        request.url.pathname === "/v2/account" && request.method === "GET"
          ? json(200, { items: [], cursor: "" })
          : json(200, {}))
      const run = <A, E>(effect: Effect.Effect<A, E, WalletClient.WalletClient>) => Effect.ignore(Effect.provide(effect, test.client))
      yield* run(WalletClient.createAccount().pipe(WalletConfig.withPool(pool)))
      yield* run(WalletConfig.withPool(WalletClient.createAccount(), pool))
      yield* run(WalletClient.createFeePayer().pipe(WalletConfig.withFeePayerPool(feePayerPool)))
      yield* run(WalletConfig.withFeePayerPool(WalletClient.createFeePayer(), feePayerPool))
      yield* run(Stream.runDrain(WalletClient.accounts().pipe(WalletConfig.withPool(pool))))
      yield* run(Stream.runDrain(WalletConfig.withChain(WalletClient.accounts(), 8217)).pipe(WalletConfig.withPool(null)))
      expect(test.requests.map((r) => r.headers["x-krn"])).toEqual([pool, pool, feePayerPool, feePayerPool, pool, undefined])
      expect(test.requests.map((r) => r.headers["x-chain-id"])).toEqual(["1001", "1001", "1001", "1001", "1001", "8217"])
      // The call's own selection wins over the scope's.
      yield* run(WalletClient.createFeePayer({ feePayerPool: null }).pipe(WalletConfig.withFeePayerPool(feePayerPool)))
      expect(test.requests[6]!.headers["x-krn"]).toBeUndefined()
    }))
})
