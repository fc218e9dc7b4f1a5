/**
 * List cursors: opaque, tamper-evident continuation tokens.
 *
 * A cursor is `base64url(payload) "." base64url(mac)`. The payload holds the position of the last
 * account of the page (its `createdAt` and storage sequence number) and the snapshot bound of the
 * listing (the last sequence number when its first page was served). The MAC is HMAC-SHA256,
 * truncated to 16 bytes, under a server secret kept in the database, over the payload AND the
 * member, chain and pool (account pool or fee-payer pool) of the listing: a cursor altered in any
 * bit, forged without the secret, or replayed by another member or on another chain or pool does
 * not verify.
 *
 * The `Cursors` service signs them with the database's cursor key, for every listing of the
 * services (accounts, keys, multisig transactions, the fee-delegation history).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { EmulatorError } from "../EmulatorError.js"
import * as Refusal from "../Refusal.js"
import * as Store from "../store/Store.js"

/**
 * What a cursor is valid for.
 *
 * @since 0.1.0
 * @category models
 */
export interface Binding {
  readonly memberId: number
  readonly chainId: number
  readonly poolId: number
  /**
   * Account pools, fee-payer pools and key pools number their ids apart: the kind is part of the
   * binding.
   */
  readonly kind: Store.Kind | "key" | "feeHistory" | "multisig"
  /**
   * What else the listing is of (the multisig listing's address), when anything.
   *
   * @since 0.8.0
   */
  readonly scope?: string | undefined
}

/**
 * What a cursor carries: where the next page starts and the snapshot bound of the listing.
 *
 * @since 0.1.0
 * @category models
 */
export interface State {
  readonly after: Store.Position
  readonly snapshot: number
}

const MAC_BYTES = 16
const MAX_LENGTH = 512
const B64URL = /^[A-Za-z0-9_-]+$/

const Payload = Schema.parseJson(Schema.Struct({
  v: Schema.Literal(1),
  t: Schema.NonNegativeInt,
  s: Schema.NonNegativeInt,
  h: Schema.NonNegativeInt
}))
const decodePayload = Schema.decodeUnknownOption(Payload)

// Account listings keep the text of the first version, so that their cursors survive the upgrade.
const domain = {
  account: "kas-emulator-cursor/v1",
  feePayer: "kas-emulator-feepayer-cursor/v1",
  key: "kas-emulator-key-cursor/v1",
  feeHistory: "kas-emulator-fd-history-cursor/v1",
  multisig: "kas-emulator-multisig-cursor/v1"
} as const

const mac = (secret: Redacted.Redacted<Uint8Array>, binding: Binding, payload: string): Buffer =>
  createHmac("sha256", Redacted.value(secret))
    .update(`${domain[binding.kind]}|${binding.memberId}|${binding.chainId}|${binding.poolId}|${binding.scope === undefined ? "" : `${binding.scope}|`}${payload}`)
    .digest()
    .subarray(0, MAC_BYTES)

/**
 * The cursor of a state, for a binding.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = (secret: Redacted.Redacted<Uint8Array>, binding: Binding, state: State): string => {
  const payload = Buffer.from(
    JSON.stringify({ v: 1, t: state.after.createdAt, s: state.after.seq, h: state.snapshot }),
    "utf8"
  ).toString("base64url")
  return `${payload}.${mac(secret, binding, payload).toString("base64url")}`
}

/**
 * The state of a cursor; `None` unless it was made by `encode` with this secret and binding.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = (
  secret: Redacted.Redacted<Uint8Array>,
  binding: Binding,
  cursor: string
): Option.Option<State> => {
  if (cursor.length > MAX_LENGTH) return Option.none()
  const dot = cursor.indexOf(".")
  if (dot < 0) return Option.none()
  const payload = cursor.slice(0, dot)
  const tag = cursor.slice(dot + 1)
  if (!B64URL.test(payload) || !B64URL.test(tag)) return Option.none()
  const given = Buffer.from(tag, "base64url")
  // Re-encoding must give the same text: base64url has several spellings of some byte strings.
  if (given.length !== MAC_BYTES || given.toString("base64url") !== tag) return Option.none()
  if (!timingSafeEqual(given, mac(secret, binding, payload))) return Option.none()
  return Option.flatMap(
    decodePayload(Buffer.from(payload, "base64url").toString("utf8")),
    ({ h, s, t }) => (s <= h ? Option.some({ after: { createdAt: t, seq: s }, snapshot: h }) : Option.none())
  )
}

/**
 * The listing cursors of a database, signed with its cursor key.
 *
 * @since 0.10.0
 * @category models
 */
export interface Service {
  readonly encode: (binding: Binding, state: State) => string
  readonly decode: (binding: Binding, cursor: string) => Option.Option<State>
  /**
   * Where a listing resumes: `None` for the first page (`cursor` empty), the cursor's state when it
   * verifies for this binding, else `OutOfRange` naming `cursor`.
   */
  readonly resume: (binding: Binding, cursor: string) => Effect.Effect<Option.Option<State>, Refusal.OutOfRange>
}

/**
 * The listing cursors of an emulator.
 *
 * @since 0.10.0
 * @category tags
 */
export class Cursors extends Context.Tag("effect-kas-wallet-emulator/Cursors")<Cursors, Service>() {}

/**
 * The cursors of the database of the context. Its cursor key is created in the database on first
 * use, so that every emulator sharing the database accepts the cursors of the others.
 *
 * @since 0.10.0
 * @category constructors
 */
export const make: Effect.Effect<Service, EmulatorError, Store.Store> = Effect.gen(function*() {
  const store = yield* Store.Store
  const secret = Redacted.make(
    yield* Effect.mapError(
      store.setting("cursor_secret", new Uint8Array(randomBytes(32))),
      (cause) => new EmulatorError({ reason: "Database", message: "cannot read the cursor key of the database", cause })
    )
  )
  return {
    encode: (binding, state) => encode(secret, binding, state),
    decode: (binding, cursor) => decode(secret, binding, cursor),
    resume: (binding, cursor) => {
      if (cursor === "") return Effect.succeed(Option.none())
      const state = decode(secret, binding, cursor)
      return Option.isNone(state) ? Effect.fail(new Refusal.OutOfRange({ field: "cursor" })) : Effect.succeed(state)
    }
  }
})

/**
 * The cursors of the database of the context.
 *
 * @since 0.10.0
 * @category layers
 */
export const layer: Layer.Layer<Cursors, EmulatorError, Store.Store> = Layer.effect(Cursors, make)
