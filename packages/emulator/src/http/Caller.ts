/**
 * Who calls a route, on which chain and in which pools: what a route reads from the headers before
 * its own parameters, in the gateway's order — `Authorization`, then `x-chain-id`, then `x-krn`.
 *
 * A route declares one `Access`; the same declaration selects the pools when the route runs and
 * describes the headers in the OpenAPI document, so the two cannot disagree.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import type * as SqlError from "@effect/sql/SqlError"
import { Effect, Either, Option, Redacted, Schema } from "effect"
import { ChainId, Krn } from "effect-kas-wallet"
import type * as Endpoint from "effect-kas-wallet/Endpoint"
import * as ApiError from "./ApiError.js"
import * as Description from "./Description.js"
import type * as Refusal from "../Refusal.js"
import type * as Store from "../store/Store.js"
import type * as Accounts from "../services/Accounts.js"
import type * as Keys from "../services/Keys.js"

/**
 * What a route reads from the headers:
 *
 * - `anonymous`: nothing (the emulator's own `/health` and `/openapi.json`); faults are never
 *   injected on these, so a test injecting faults can still reach them.
 * - `accountPool`: an account pool KRN in `x-krn`, the member's default pool when absent.
 * - `memberWide`: the same, checked as on every account route though the operation spans the
 *   member's pools (counts, lookups by public key).
 * - `feePayerPool`: a fee-payer pool KRN, the default fee-payer pool when absent.
 * - `sender`: the sender's account pool (`/v2/tx/value`, `/v2/tx/fd/value`).
 * - `senderAndFeePayer`: the sender's account pool and a fee-payer pool, comma-separated in either
 *   order; the fee payer's pool is the default one when not named (`/v2/tx/fd-user/value`).
 * - `senderAndNamedFeePayer`: the same, the fee-payer pool checked only when named (receipts).
 * - `member`: the member and chain only (`/v2/key/...`, `/v2/history/fd/tx`): the spec gives these
 *   operations no `x-krn` (a key listing names its key pool in the `krn` query parameter, a key id
 *   names its own; the history spans the member's pools), so it is not read.
 * - `keyPool`: the same: the keys' creation, whose key pool the client may name in `x-krn`, which
 *   the emulator does not read (it has one key pool per member and chain).
 * - `node`: the member and chain only, as the KAS Node API reads them (`/v1/klaytn`: the official
 *   client sends `Authorization` and `x-chain-id`, no `x-krn`, which is not read); the member's
 *   default account pool of the chain is what the node records a transaction sent through it
 *   under.
 *
 * Every kind but `anonymous` authenticates and reads `x-chain-id` first. The wallet's kinds are
 * the operation table's (`Endpoint.Access`); `anonymous` and `node` are the emulator's own routes'.
 *
 * @since 0.3.0
 * @category models
 */
export type Access = "anonymous" | Endpoint.Access | "node"

/**
 * The pools of a transaction route: the sender's account pool, and the fee-payer pool when the
 * route selected one.
 *
 * @since 0.3.0
 * @category models
 */
export interface TransactionPools {
  readonly pool: Accounts.SelectedPool
  readonly feePayers: Accounts.SelectedPool | undefined
}

/**
 * What each kind of access gives its route.
 *
 * @since 0.3.0
 * @category models
 */
export interface Selections {
  readonly anonymous: undefined
  readonly accountPool: Accounts.SelectedPool
  readonly memberWide: Accounts.SelectedPool
  readonly feePayerPool: Accounts.SelectedPool
  readonly sender: TransactionPools
  readonly senderAndFeePayer: TransactionPools
  readonly senderAndNamedFeePayer: TransactionPools
  readonly member: Keys.KeyCaller
  readonly keyPool: Keys.KeyCaller
  readonly node: Accounts.SelectedPool
}

/**
 * Credentials read from an `Authorization` header.
 *
 * @since 0.1.0
 * @category models
 */
export interface BasicCredentials {
  readonly accessKeyId: string
  readonly secretAccessKey: Redacted.Redacted<string>
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/
const utf8 = new TextDecoder("utf-8", { fatal: true })

/**
 * Reads `Basic base64(id:secret)`. The scheme is case-insensitive; the credentials split on the
 * FIRST colon (RFC 7617 §2: the user id cannot contain one, the password can). `None` when the
 * header is not of that form or the id is empty.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseBasic = (header: string): Option.Option<BasicCredentials> => {
  const match = /^basic[ ]+([^ ]+)[ ]*$/i.exec(header.trim())
  if (match === null) return Option.none()
  const encoded = match[1]!
  if (!BASE64.test(encoded)) return Option.none()
  let decoded: string
  try {
    decoded = utf8.decode(Buffer.from(encoded, "base64"))
  } catch {
    return Option.none()
  }
  const colon = decoded.indexOf(":")
  if (colon <= 0) return Option.none()
  return Option.some({
    accessKeyId: decoded.slice(0, colon),
    secretAccessKey: Redacted.make(decoded.slice(colon + 1))
  })
}

const decodeChainId = Schema.decodeUnknownEither(ChainId.FromHeader)
const decodeKrn: Record<Store.Kind, (u: unknown) => Either.Either<Krn.PoolKrn, unknown>> = {
  account: Schema.decodeUnknownEither(Krn.AccountPoolKrn),
  feePayer: Schema.decodeUnknownEither(Krn.FeePayerPoolKrn)
}
const notAPool: Record<Store.Kind, string> = {
  account: "x-krn is not an account pool KRN",
  feePayer: "x-krn is not a fee-payer pool KRN"
}

const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined => {
  const value: unknown = request.headers[name]
  return typeof value === "string" ? value : undefined
}

const authenticate = (accounts: Accounts.Service, request: HttpServerRequest.HttpServerRequest) => {
  const value = header(request, "authorization")
  // Node keeps the first of repeated Authorization lines: two credentials are ambiguous, and
  // must never be served as the first one's member.
  const repeated = (NodeHttpServerRequest.toIncomingMessage(request).headersDistinct.authorization?.length ?? 0) > 1
  const credentials = value === undefined || repeated ? Option.none() : parseBasic(value)
  if (Option.isNone(credentials)) return Effect.fail(ApiError.invalidAuthorization())
  const { accessKeyId, secretAccessKey } = credentials.value
  return Effect.flatMap(
    accounts.authenticate(accessKeyId, secretAccessKey),
    Option.match({ onNone: () => Effect.fail(ApiError.credentialMismatch()), onSome: Effect.succeed })
  )
}

const chainOf = (request: HttpServerRequest.HttpServerRequest) => {
  const value = header(request, "x-chain-id")
  if (value === undefined || value === "") return Either.left(ApiError.missing("x-chain-id"))
  return Either.mapLeft(decodeChainId(value), () => ApiError.outOfRange("x-chain-id"))
}

const krnOf = (request: HttpServerRequest.HttpServerRequest, kind: Store.Kind) => {
  const value = header(request, "x-krn")?.trim()
  if (value === undefined || value === "") return Either.right(Option.none<Krn.PoolKrn>())
  return Either.match(decodeKrn[kind](value), {
    onLeft: () => Either.left(ApiError.dataNotExist(notAPool[kind])),
    onRight: (krn) => Either.right(Option.some(krn))
  })
}

const selectPool = (accounts: Accounts.Service, request: HttpServerRequest.HttpServerRequest, kind: Store.Kind) =>
  Effect.gen(function*() {
    const caller = yield* authenticate(accounts, request)
    const chainId = yield* chainOf(request)
    const krn = yield* krnOf(request, kind)
    return yield* accounts.selectPool(caller, chainId, krn, kind)
  })

// `x-krn` of the transaction routes: an account pool KRN, and where a fee-payer pool is taken a
// fee-payer pool KRN too, comma-separated in either order, each at most once.
const transactionKrns = (request: HttpServerRequest.HttpServerRequest, feePayerPool: boolean) => {
  const value = header(request, "x-krn")?.trim()
  let account = Option.none<Krn.PoolKrn>()
  let feePayer = Option.none<Krn.PoolKrn>()
  if (value === undefined || value === "") return Either.right({ account, feePayer })
  for (const part of value.split(",").map((p) => p.trim())) {
    const asAccount = decodeKrn.account(part)
    if (Either.isRight(asAccount) && Option.isNone(account)) {
      account = Option.some(asAccount.right)
      continue
    }
    const asFeePayer = feePayerPool ? decodeKrn.feePayer(part) : Either.left(undefined)
    if (Either.isRight(asFeePayer) && Option.isNone(feePayer)) {
      feePayer = Option.some(asFeePayer.right)
      continue
    }
    return Either.left(ApiError.dataNotExist(
      feePayerPool ? "x-krn is not an account pool KRN and a fee-payer pool KRN" : notAPool.account
    ))
  }
  return Either.right({ account, feePayer })
}

const transactionPools = (
  accounts: Accounts.Service,
  request: HttpServerRequest.HttpServerRequest,
  feePayerPool: "none" | "always" | "whenNamed"
) =>
  Effect.gen(function*() {
    const caller = yield* authenticate(accounts, request)
    const chainId = yield* chainOf(request)
    const krns = yield* transactionKrns(request, feePayerPool !== "none")
    const pool = yield* accounts.selectPool(caller, chainId, krns.account, "account")
    // A user fee payer must be in the selected fee-payer pool: the default one when none is named.
    const feePayers = feePayerPool === "always" || Option.isSome(krns.feePayer)
      ? yield* accounts.selectPool(caller, chainId, krns.feePayer, "feePayer")
      : undefined
    return { pool, feePayers } satisfies TransactionPools
  })

// The member and chain, no pool: the key service's routes and the history's.
const memberOf = (accounts: Accounts.Service, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const caller = yield* authenticate(accounts, request)
    const chainId = yield* chainOf(request)
    return { ...caller, chainId } satisfies Keys.KeyCaller
  })

type Selector<A extends Access> = (
  accounts: Accounts.Service,
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<Selections[A], ApiError.ApiError | Refusal.Refusal | SqlError.SqlError>

const selectors: { readonly [A in Access]: Selector<A> } = {
  anonymous: () => Effect.succeed(undefined),
  accountPool: (accounts, request) => selectPool(accounts, request, "account"),
  memberWide: (accounts, request) => selectPool(accounts, request, "account"),
  feePayerPool: (accounts, request) => selectPool(accounts, request, "feePayer"),
  sender: (accounts, request) => transactionPools(accounts, request, "none"),
  senderAndFeePayer: (accounts, request) => transactionPools(accounts, request, "always"),
  senderAndNamedFeePayer: (accounts, request) => transactionPools(accounts, request, "whenNamed"),
  member: (accounts, request) => memberOf(accounts, request),
  keyPool: (accounts, request) => memberOf(accounts, request),
  node: (accounts, request) =>
    Effect.gen(function*() {
      const caller = yield* authenticate(accounts, request)
      const chainId = yield* chainOf(request)
      return yield* accounts.selectPool(caller, chainId, Option.none(), "account")
    })
}

/**
 * Reads the headers a route's access declares, in the gateway's order, and selects its pools:
 * 401 for missing or wrong credentials, 400 for a bad `x-chain-id` or `x-krn`.
 *
 * @since 0.3.0
 * @category selecting
 */
export const select = <A extends Access>(
  access: A,
  accounts: Accounts.Service,
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<Selections[A], ApiError.ApiError | Refusal.Refusal | SqlError.SqlError> => selectors[access](accounts, request)

const chainHeader: Description.Header = {
  name: "x-chain-id",
  required: true,
  description: `Chain of the call. Missing: 400 ${ApiError.Code.EmptyOrZero}; another value: 400 ${ApiError.Code.OutOfRange}.`,
  schema: Description.domain("ChainIdFromHeader", ChainId.FromHeader)
}

const accountPoolKrn = Description.domain("AccountPoolKrn", Krn.AccountPoolKrn)

const senderAndFeePayerKrn: Description.Header = {
  name: "x-krn",
  required: false,
  description:
    `Account pool of the sender, optionally followed by a comma and the fee-payer pool the fee payer must be in (the member's default pools when absent). Anything else: 400 ${ApiError.Code.DataNotExist}.`,
  schema: Description.json({ type: "string" })
}

const krnHeader: { readonly [A in Exclude<Access, "anonymous" | "member" | "keyPool" | "node">]: Description.Header } = {
  accountPool: {
    name: "x-krn",
    required: false,
    description:
      `Account pool of the caller on the request's chain; the default pool when absent or empty. Any other value (malformed, another member's, another chain's, a fee-payer pool, unknown): 400 ${ApiError.Code.DataNotExist}.`,
    schema: accountPoolKrn
  },
  memberWide: {
    name: "x-krn",
    required: false,
    description:
      `Not used by this member-wide operation, but checked as on every account route: when present it must be an account pool of the caller on the request's chain, else 400 ${ApiError.Code.DataNotExist}.`,
    schema: accountPoolKrn
  },
  feePayerPool: {
    name: "x-krn",
    required: false,
    description:
      `Fee-payer pool of the caller on the request's chain; the default fee-payer pool when absent or empty. Any other value (an account pool, malformed, another member's, another chain's, unknown): 400 ${ApiError.Code.DataNotExist}.`,
    schema: Description.domain("FeePayerPoolKrn", Krn.FeePayerPoolKrn)
  },
  sender: {
    name: "x-krn",
    required: false,
    description: `Account pool of the sender; the default pool when absent or empty. Anything else: 400 ${ApiError.Code.DataNotExist}.`,
    schema: Description.json({ type: "string" })
  },
  senderAndFeePayer: senderAndFeePayerKrn,
  senderAndNamedFeePayer: senderAndFeePayerKrn
}

/**
 * The headers an access reads, as the document describes them (`Authorization` is the
 * document's security scheme, not a parameter).
 *
 * @since 0.3.0
 * @category documentation
 */
export const headers = (access: Access): ReadonlyArray<Description.Header> =>
  access === "anonymous" ? [] : access === "member" || access === "keyPool" || access === "node" ? [chainHeader] : [chainHeader, krnHeader[access]]
