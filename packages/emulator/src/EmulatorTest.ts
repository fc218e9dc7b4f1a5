/**
 * The test kit: one layer gives a test a `WalletClient` on a private in-process emulator, together
 * with the `Emulator` service (fund, mine, snapshot, revert, time), in the way Effect's own
 * `NodeHttpServer.layerTest` gives a server and a client pointed at it.
 *
 * ```ts
 * import { layer } from "@effect/vitest"
 * import { Effect } from "effect"
 * import { WalletClient } from "effect-kas-wallet"
 * import { EmulatorTest } from "effect-kas-wallet-emulator"
 *
 * layer(EmulatorTest.layer())("payments", (it) => {
 *   it.effect("creates an account", () => Effect.flatMap(WalletClient.WalletClient, (client) => client.createAccount()))
 * })
 * ```
 *
 * It works the same under `it.effect` (Effect's `TestClock`) and `it.live`: the kit's emulator
 * and every operation of the kit's client and `Emulator` service run on the live clock, so that
 * nothing they do waits for a `TestClock.adjust` that no test makes (a receipt awaited, a retry's
 * backoff, a block's time). The test's own sleeps stay on its clock.
 *
 * It lives in the emulator's package, not the client's: it starts an emulator, whose dependencies
 * (libSQL, the EVM) an application that only calls the API never installs.
 *
 * @since 0.12.0
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type * as SqlError from "@effect/sql/SqlError"
import { Clock, Context, Effect, Either, Layer, Option, type Scope, Stream } from "effect"
import { ChainId, WalletClient, type WalletConfig, type WalletError } from "effect-kas-wallet"
import * as Emulator from "./Emulator.js"
import type * as EmulatorConfig from "./EmulatorConfig.js"
import type { EmulatorError } from "./EmulatorError.js"

/**
 * The kit's options: the emulator's (`EmulatorConfig.Options`, with `mining` defaulting to
 * `"instant"`), the chain the client calls (`chainId`, default testnet) and the client's other
 * options (`client`: pools, timeouts, retries, ...; its key and base URL are the emulator's).
 *
 * @since 0.12.0
 * @category models
 */
export interface Options extends EmulatorConfig.Options {
  /** The chain of the client's requests (`x-chain-id`). Default `ChainId.Testnet` (1001). */
  readonly chainId?: ChainId.ChainId | undefined
  /** The client's options but its key, chain and base URL, which are the emulator's. */
  readonly client?: Omit<WalletConfig.Options, "credentials" | "chainId" | "baseUrl"> | undefined
}

/**
 * What the kit holds: the emulator and a client of its member on the kit's chain.
 *
 * @since 0.12.0
 * @category models
 */
export interface Kit {
  readonly emulator: Emulator.Service
  readonly client: WalletClient.Service
  /** The chain the client calls. */
  readonly chainId: ChainId.ChainId
}

// One instance of the runtime's own clock: `Clock.make()` is what a live runtime provides, and the
// client's timeouts recognise it as the live clock.
const live = Clock.make()

// Options and Eithers are Effects too (yieldable), but values: they stay as they are.
const onLive = (value: unknown): unknown =>
  typeof value !== "object" || value === null || Option.isOption(value) || Either.isEither(value)
    ? value
    : Stream.StreamTypeId in value
    ? streamOnLive(value as Stream.Stream<unknown, unknown>)
    : Effect.isEffect(value)
    ? Effect.withClock(value, live)
    : value

// A stream's own work (its pulls and the fibers they fork: a listing's pages, their retries) on
// the live clock; whatever the consumer does between two pulls stays on the consumer's clock.
const streamOnLive = <A, E>(stream: Stream.Stream<A, E>): Stream.Stream<A, E> =>
  Stream.unwrapScoped(
    Effect.map(Effect.withClock(Stream.toPull(stream), live), (pull) => Stream.repeatEffectChunkOption(Effect.withClock(pull, live)))
  )

/**
 * `service` with every operation on the live clock: each Effect runs, and each Stream is pulled,
 * with `Clock.make()` as its clock whatever the caller's (a `TestClock`); so does each Effect or
 * Stream a member answers. Plain values (Options and Eithers included) stay as they are.
 *
 * @since 0.12.0
 * @category combinators
 */
export const onLiveClock = <S extends object>(service: S): S =>
  Object.fromEntries(
    Object.entries(service).map(([name, member]) => [
      name,
      typeof member === "function"
        ? (...args: ReadonlyArray<unknown>) => onLive((member as (...args: ReadonlyArray<unknown>) => unknown)(...args))
        : onLive(member)
    ])
  ) as S

/**
 * Starts the kit in the current scope: an emulator (`Emulator.make`, instant mining unless
 * `options.mining` says otherwise, on the live clock) and a `WalletClient` with its member's key,
 * over `NodeHttpClient.layerUndici` (the transport the client recommends in Node). Closing the
 * scope stops both.
 *
 * @since 0.12.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<Kit, EmulatorError | WalletError.InvalidArgument, Scope.Scope> =>
  Effect.gen(function*() {
    const { chainId = ChainId.Testnet, client: clientOptions, ...emulatorOptions } = options
    const emulator = yield* Effect.withClock(Emulator.make({ mining: "instant", ...emulatorOptions }), live)
    // The transport the client recommends in Node; its dispatcher lives as long as the kit.
    const http = yield* Layer.build(NodeHttpClient.layerUndici)
    const client = yield* WalletClient.make({
      ...clientOptions,
      credentials: { accessKeyId: emulator.member.accessKeyId, secretAccessKey: emulator.member.secretAccessKey },
      chainId,
      baseUrl: emulator.url
    }).pipe(Effect.provide(http))
    return { emulator: onLiveClock(emulator), client: onLiveClock(client), chainId }
  })

/**
 * The kit as a layer: the `Emulator` and a `WalletClient` of its member, for `it.effect`,
 * `it.live` or a file's `layer(...)`. Built when the layer is, stopped with its scope.
 *
 * @since 0.12.0
 * @category layers
 */
export const layer = (
  options: Options = {}
): Layer.Layer<Emulator.Emulator | WalletClient.WalletClient, EmulatorError | WalletError.InvalidArgument> =>
  Layer.scopedContext(
    Effect.map(make(options), (kit) =>
      Context.make(Emulator.Emulator, kit.emulator).pipe(Context.add(WalletClient.WalletClient, kit.client)))
  )

/**
 * Runs `self` and then brings the emulator back to where it was before (`snapshot`, then `revert`
 * whatever `self`'s outcome): tests sharing one kit across a file with `layer(...)` each start from
 * the state the file set up, without a new emulator each.
 *
 * @since 0.12.0
 * @category combinators
 */
export const isolated = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError.SqlError, R | Emulator.Emulator> =>
  Effect.flatMap(Emulator.Emulator, (emulator) =>
    Effect.acquireUseRelease(
      emulator.snapshot,
      () => self,
      // The snapshot was just taken by this very effect: a revert that fails is a defect.
      (id) => Effect.orDie(emulator.revert(id))
    ))
