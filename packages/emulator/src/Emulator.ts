/**
 * The local KAS wallet emulator: a stateful, persistent HTTP server of the wallet interface's wire
 * contract, with the console's members, keys and pools, and fault injection.
 *
 * @example
 * ```ts
 * import { Emulator } from "effect-kas-wallet-emulator"
 * import { Effect, Redacted } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const emulator = yield* Emulator.Emulator
 *   // emulator.url: "http://127.0.0.1:<port>"
 *   // emulator.member: { accountId, accessKeyId, secretAccessKey: Redacted, ... }
 *   const pool = yield* emulator.createPool({ accountId: emulator.member.accountId, chainId: 1001, name: "payroll" })
 * })
 *
 * Effect.runPromise(Effect.scoped(program.pipe(Effect.provide(Emulator.layer()))))
 * ```
 *
 * @since 0.1.0
 */
import type * as SqlError from "@effect/sql/SqlError"
import { Context, Duration, Effect, Layer, type Redacted, type Scope } from "effect"
import type { ConfigError } from "effect/ConfigError"
import { type Address, Credentials } from "effect-kas-wallet"
import * as App from "./http/App.js"
import * as Blocks from "./chain/Blocks.js"
import * as ChainControl from "./console/ChainControl.js"
import * as EmulatorConsole from "./console/EmulatorConsole.js"
import * as Database from "./store/Database.js"
import * as EmulatorConfig from "./EmulatorConfig.js"
import { EmulatorError } from "./EmulatorError.js"
import * as Faults from "./http/Faults.js"
import * as KeyVault from "./store/KeyVault.js"
import * as Ledger from "./chain/Ledger.js"
import * as LedgerStore from "./store/LedgerStore.js"
import * as MultisigStore from "./store/MultisigStore.js"
import * as Refusal from "./Refusal.js"
import * as Listener from "./http/Listener.js"
import * as Node from "./chain/Node.js"
import * as OpenApi from "./http/OpenApi.js"
import * as Routes from "./http/Routes.js"
import * as Accounts from "./services/Accounts.js"
import * as Cursors from "./services/Cursors.js"
import * as History from "./services/History.js"
import * as Keys from "./services/Keys.js"
import * as Multisig from "./services/Multisig.js"
import * as Registration from "./services/Registration.js"
import * as Snapshots from "./store/Snapshots.js"
import * as Store from "./store/Store.js"

/**
 * The ready member of an emulator: a key registered or created at start.
 *
 * @since 0.1.0
 * @category models
 */
export interface Member {
  readonly accountId: string
  readonly accessKeyId: string
  readonly secretAccessKey: Redacted.Redacted<string>
  /** `Basic base64(accessKeyId:secretAccessKey)`. */
  readonly authorization: Redacted.Redacted<string>
  /** Whether the emulator created this member and key at start (rather than registering a given key). */
  readonly generated: boolean
}

/**
 * A running emulator: where it listens, its ready member, and the console operations.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service extends EmulatorConsole.Service {
  /** Base URL, for example `http://127.0.0.1:41234`. */
  readonly url: string
  readonly host: string
  /** The port listened on (the chosen one when the option was 0). */
  readonly port: number
  /** The database, described without credentials. */
  readonly database: string
  /** Where the master key comes from: configured, a key file (with its path), or ephemeral. */
  readonly masterKey:
    | { readonly source: "configured" }
    | { readonly source: "file"; readonly path: string }
    | { readonly source: "ephemeral" }
  readonly member: Member
  /** The fault injection options in force. */
  readonly faults: Faults.Resolved
  /** The OpenAPI document served at `/openapi.json`, frozen (its parts are shared by the emulators of the process). */
  readonly openApi: OpenApiDocument
  /** The time between two blocks: a transaction is committed in the next block. */
  readonly blockInterval: Duration.Duration
  /** The global fee payer of a chain: it signs and pays `/v2/tx/fd/value` transfers and bills the member. */
  readonly globalFeePayer: (chainId: 8217 | 1001) => Address.Address
  /**
   * How blocks are made: `instant` (a block per transaction), `interval` (by the clock) or
   * `manual` (by `mine`).
   *
   * @since 0.5.0
   */
  readonly mining: EmulatorConfig.Mining
  /**
   * The bounds of the EVM's runs in force: the gas cap of calls, the time a run may take, the
   * worker threads that run them.
   *
   * @since 0.11.0
   */
  readonly evm: { readonly gasCap: number; readonly timeout: Duration.Duration; readonly workers: number }
  /**
   * Manual mining: makes `blocks` blocks (default 1, at most 1000) on a chain (both when absent),
   * the first holding every pending transaction of the chain in acceptance order, run and applied
   * then; their receipts are `Committed` (or `CommitError`) as soon as this answers. Fails with
   * `ConsoleError` `InvalidInput`, changing nothing, in instant mode (every transaction has its
   * block already), in interval mode (the clock makes the blocks) or for a bad chain or count.
   *
   * @since 0.5.0
   */
  readonly mine: (
    chainId?: 8217 | 1001 | undefined,
    blocks?: number | undefined
  ) => Effect.Effect<ReadonlyArray<MinedBlock>, EmulatorConsole.ConsoleError | SqlError.SqlError>
  /**
   * Takes a snapshot of the whole emulator — every member's accounts, keys, pools, balances,
   * nonces, contracts and their storage, pending pool, multisig transactions, bills and history —
   * and answers its id (`0x1`, `0x2`, ... as anvil's `evm_snapshot`).
   *
   * @since 0.12.0
   */
  readonly snapshot: Effect.Effect<string, SqlError.SqlError>
  /**
   * Brings the whole emulator back to a snapshot, and drops it and every snapshot taken after it
   * (anvil's rule: a snapshot is reverted to once). Fails with `ConsoleError` `InvalidInput`,
   * changing nothing, for an id that is unknown or reverted already.
   *
   * @since 0.12.0
   */
  readonly revert: (id: string) => Effect.Effect<void, EmulatorConsole.ConsoleError | SqlError.SqlError>
  /**
   * Sets the time (Unix seconds) of the next block, from which the chain's time then runs (anvil's
   * `evm_setNextBlockTimestamp`): in instant and manual mining the next block gets exactly it; by
   * interval the block clock jumps there and the next block is the first one due after it. Fails
   * with `ConsoleError` `InvalidInput`, changing nothing, for a time before the latest block of
   * either chain or one that is not a whole number of seconds.
   *
   * @since 0.12.0
   */
  readonly setNextBlockTime: (unixSeconds: number) => Effect.Effect<void, EmulatorConsole.ConsoleError | SqlError.SqlError>
}

/**
 * A block made by `mine`: its chain, number, hash and time (Unix milliseconds), and the hashes of
 * its transactions in order.
 *
 * @since 0.5.0
 * @category models
 */
export type MinedBlock = Blocks.MinedBlock

/**
 * The OpenAPI 3.1 document of the emulated API, as plain JSON.
 *
 * @since 0.1.0
 * @category models
 */
export type OpenApiDocument = OpenApi.Document

/**
 * The running emulator.
 *
 * @since 0.1.0
 * @category tags
 */
export class Emulator extends Context.Tag("effect-kas-wallet-emulator/Emulator")<Emulator, Service>() {}

const configError = (message: string) => new EmulatorError({ reason: "Config", message })

const urlHost = (host: string) => (host.includes(":") ? `[${host}]` : host)

/**
 * Starts an emulator in the current scope: opens and migrates the database, makes sure of the
 * member key, and listens. Closing the scope stops accepting connections, lets the requests in
 * flight finish (answers to requests arriving meanwhile on open connections close them), and only
 * then closes the database.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: EmulatorConfig.Options = {}): Effect.Effect<Service, EmulatorError, Scope.Scope> =>
  Effect.gen(function*() {
    const host = options.host ?? EmulatorConfig.DefaultHost
    const port = options.port ?? EmulatorConfig.DefaultPort
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      return yield* configError(`port must be an integer from 0 to 65535, got ${port}`)
    }
    const faults = yield* Faults.resolve(options.faults)
    const database = options.database ?? EmulatorConfig.DefaultDatabase

    const services = yield* Layer.build(
      Layer.mergeAll(Multisig.layer, Registration.layer, History.layer, ChainControl.layer).pipe(
        Layer.provideMerge(
          Layer.mergeAll(
            EmulatorConsole.layer,
            Accounts.layer,
            Keys.layer,
            Node.layer.pipe(Layer.provideMerge(Ledger.layer({ blockInterval: options.blockInterval, mining: options.mining, evm: options.evm })))
          )
        )
      ).pipe(
        Layer.provideMerge(Cursors.layer),
        Layer.provideMerge(KeyVault.layer(options)),
        Layer.provideMerge(Layer.mergeAll(Store.layer, LedgerStore.layer, MultisigStore.layer, Snapshots.layer)),
        Layer.provideMerge(Database.layer({ database, authToken: options.authToken }))
      )
    )
    const console = Context.get(services, EmulatorConsole.Console)
    const accounts = Context.get(services, Accounts.Accounts)
    const keys = Context.get(services, Keys.Keys)
    const history = Context.get(services, History.History)
    const registration = Context.get(services, Registration.RegistrationService)
    const ledger = Context.get(services, Ledger.Ledger)
    const multisig = Context.get(services, Multisig.MultisigService)
    const node = Context.get(services, Node.Node)
    const vault = Context.get(services, KeyVault.KeyVault)
    const db = Context.get(services, Database.Database)
    const control = Context.get(services, ChainControl.ChainControl)

    const member = yield* startMember(console, options.member).pipe(
      Effect.catchTags({
        ConsoleError: (e) => Effect.fail(new EmulatorError({ reason: "Member", message: e.message, cause: e })),
        SqlError: (e) =>
          Effect.fail(new EmulatorError({ reason: "Database", message: "cannot register the member key", cause: e }))
      })
    )

    const listener = yield* Listener.listen({ host, port })
    const url = `http://${urlHost(host)}:${listener.port}`
    const { document: openApi, json: openApiJson } = OpenApi.served(Routes.table, url)
    yield* listener.serve(App.make({
      table: Routes.table,
      accounts,
      keys,
      history,
      ledger,
      multisig,
      registration,
      node,
      console,
      control,
      faults: Faults.makeInjector(faults),
      openApi: openApiJson
    }))

    // The ledger's refusals (a mode without mine, a bad count, a time backwards) are the caller's input.
    const asInput = <A, E>(self: Effect.Effect<A, E | Refusal.Refusal>): Effect.Effect<A, Exclude<E, Refusal.Refusal> | EmulatorConsole.ConsoleError> =>
      Effect.catchIf(
        self,
        (e): e is Refusal.Refusal => Refusal.isRefusal(e),
        (e) => Effect.fail(new EmulatorConsole.ConsoleError({ reason: "InvalidInput", message: e.message }))
      )
    const service: Service = {
      ...console,
      // The console's readers first make the blocks whose time has come (interval mining).
      fund: (chainId, address, amount) => Effect.zipRight(ledger.settle, console.fund(chainId, address, amount)),
      balance: (chainId, address) => Effect.zipRight(ledger.settle, console.balance(chainId, address)),
      feeBills: (filter) => Effect.zipRight(ledger.settle, console.feeBills(filter)),
      url,
      host,
      port: listener.port,
      database: Database.describe(db.location),
      masterKey: vault.source._tag === "Configured"
        ? { source: "configured" }
        : vault.source._tag === "File"
        ? { source: "file", path: vault.source.path }
        : { source: "ephemeral" },
      member,
      faults,
      openApi,
      blockInterval: ledger.blockInterval,
      globalFeePayer: ledger.globalFeePayer,
      mining: ledger.mining,
      evm: { gasCap: ledger.limits.gasCap, timeout: Duration.millis(ledger.limits.timeoutMs), workers: ledger.limits.workers },
      mine: (chainId, blocks) =>
        Effect.gen(function*() {
          if (chainId !== undefined && !Blocks.Chains.includes(chainId)) {
            return yield* new EmulatorConsole.ConsoleError({ reason: "InvalidInput", message: `chain ${chainId} is neither 8217 nor 1001` })
          }
          const made = yield* Effect.forEach(chainId !== undefined ? [chainId] : Blocks.Chains, (id) => ledger.mine(id, blocks ?? 1))
          return made.flat()
        }).pipe(asInput),
      snapshot: control.snapshot,
      revert: control.revert,
      setNextBlockTime: control.setNextBlockTime
    }
    return service
  })

const startMember = (console: EmulatorConsole.Service, given: EmulatorConfig.MemberKey | undefined) =>
  given !== undefined
    ? Effect.map(console.ensureKey(given), (key): Member => ({
      accountId: key.accountId,
      accessKeyId: key.accessKeyId,
      secretAccessKey: given.secretAccessKey,
      authorization: Credentials.authorization(key.accessKeyId, given.secretAccessKey),
      generated: false
    }))
    : Effect.gen(function*() {
      const created = yield* console.createMember()
      const key = yield* console.createKey(created.accountId)
      return {
        accountId: created.accountId,
        accessKeyId: key.accessKeyId,
        secretAccessKey: key.secretAccessKey,
        authorization: key.authorization,
        generated: true
      } satisfies Member
    })

/**
 * An emulator as a scoped layer: started when the layer is built, stopped when its scope closes.
 * Defaults: `127.0.0.1`, a free port, a private in-memory database, a new member and key, no
 * faults.
 *
 * Time comes from Effect's `Clock`: under `@effect/vitest`'s `it.effect` or `layer(...)` it is the
 * `TestClock` (starting at 0, moved with `TestClock.adjust`); use `it.live` or
 * `layer(..., { excludeTestServices: true })` for wall-clock time.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: EmulatorConfig.Options = {}): Layer.Layer<Emulator, EmulatorError> =>
  Layer.scoped(Emulator, make(options))

/**
 * An emulator configured from the environment (`EmulatorConfig.config`: `KAS_ACCESS_KEY_ID`,
 * `KAS_SECRET_ACCESS_KEY`, `KAS_EMULATOR_*`), with `overrides` winning over it.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  overrides: EmulatorConfig.Options = {}
): Layer.Layer<Emulator, EmulatorError | ConfigError> =>
  Layer.unwrapEffect(Effect.map(EmulatorConfig.config, (base) => layer(EmulatorConfig.merge(base, overrides))))
