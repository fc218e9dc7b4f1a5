/**
 * A transaction's request, checked and built before anything is sent: the kind's fields and the
 * options decoded by the kind's body schema (the one the emulator decodes the same body with), the
 * operation of its kind and payer route, and what its result must show. A raw transaction is
 * completed from its RLP, decoded here (its sender, type and fee fields against the options).
 *
 * @internal
 */
import { Effect, Either, type ParseResult, Schema } from "effect"
import * as AccountKey from "../AccountKey.js"
import type * as Address from "../Address.js"
import * as Amount from "../Amount.js"
import * as WalletApi from "../api/WalletApi.js"
import type * as FeeDelegation from "../FeeDelegation.js"
import { bytesOfHex } from "../internal/hex.js"
import * as Options from "../internal/options.js"
import * as Verify from "../internal/verifyResult.js"
import * as TransactionKind from "../TransactionKind.js"
import type * as WalletConfig from "../WalletConfig.js"
import type * as WalletError from "../WalletError.js"
import * as Wire from "../Wire.js"
import { validFeePayer, validFeeRatio, validFrom, validValue } from "./Arguments.js"
import type { CallOptions } from "./CallOptions.js"

/**
 * What `send` reads of its options, whatever the kind (JavaScript callers may pass anything).
 *
 * @internal
 */
export interface AnyOptions extends CallOptions {
  readonly from?: unknown
  readonly nonce?: unknown
  readonly gas?: unknown
  readonly submit?: unknown
  readonly feePayer?: unknown
  readonly feeRatio?: unknown
  readonly feePayerPool?: WalletConfig.FeePayerPoolSelection | undefined
}

/**
 * A request checked and encoded: its body, its operation, its fee payer, and what its result must
 * show.
 *
 * @internal
 */
export interface Prepared {
  readonly body: unknown
  readonly wireKind: Wire.Kind
  readonly route: Wire.PayerRoute
  readonly feePayer: FeeDelegation.FeePayer | undefined
  readonly endpoint: WalletApi.TransactionEndpoint
  readonly expected: (chainId: number) => Verify.Expected
}

/**
 * A body decoded by its schema (every field checked, and named when it fails), then encoded by it.
 *
 * @internal
 */
export const roundTrip = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema)
  const encode = Schema.encodeEither(schema)
  return (input: unknown): Either.Either<I, ParseResult.ParseError> => Either.flatMap(decode(input), encode)
}

const bodyOf: { readonly [K in Wire.Kind]: (input: unknown) => Either.Either<unknown, ParseResult.ParseError> } = {
  value: roundTrip(Wire.Bodies.value.any),
  "contract/deploy": roundTrip(Wire.Bodies["contract/deploy"].any),
  "contract/execute": roundTrip(Wire.Bodies["contract/execute"].any),
  rlp: roundTrip(Wire.Bodies.rlp.any),
  cancel: roundTrip(Wire.Bodies.cancel.any),
  anchor: roundTrip(Wire.Bodies.anchor.any),
  account: roundTrip(Wire.Bodies.account.any),
  legacy: roundTrip(Wire.Bodies.legacy.any)
}

/**
 * `{ [name]: value }` when the value is given, else nothing.
 *
 * @internal
 */
export const optional = <A>(name: string, value: A | undefined) => (value !== undefined ? { [name]: value } : {})

/** The types a result of a typed kind may have, whoever pays and with which ratio. */
const expectedTypes = (kind: Wire.TypedKind, route: Wire.PayerRoute, feeRatio: number | undefined, memo: boolean | undefined) =>
  Wire.kindTypes[kind]
    // Without a memo either transfer type will do (its input must then be empty).
    .filter((base) => memo !== true || base === Wire.TxType.ValueTransferMemo)
    .map((base) => base + (route === "tx" ? 0 : feeRatio !== undefined ? 2 : 1))

const lowerHex = (s: unknown) => (typeof s === "string" ? s.toLowerCase() : undefined)
const nonZero = (n: unknown) => (typeof n === "number" && n !== 0 ? n : undefined)

/** The wire fields of a kind, before the body's schema checks them; amounts are checked here. */
const kindFields = (kind: TransactionKind.TransactionKind) =>
  Either.gen(function*() {
    const amount = "value" in kind && kind.value !== undefined ? Amount.toHex(yield* validValue(kind.value)) : undefined
    return TransactionKind.$match(kind, {
      ValueTransfer: (k): Record<string, unknown> => ({ to: k.to, value: amount, ...optional("memo", k.memo) }),
      ContractDeploy: (k) => ({ input: k.input, ...optional("value", amount) }),
      ContractExecution: (k) => ({ to: k.to, input: k.input, ...optional("value", amount) }),
      RawTransaction: (k) => ({ rlp: k.rlp }),
      Cancel: (k) => ({ ...optional("nonce", k.nonce), ...optional("transactionHash", k.transactionHash) }),
      Anchor: (k) => ({ input: k.input }),
      AccountUpdate: (k) => ({ accountKey: AccountKey.toJson(k.accountKey) }),
      Legacy: (k) => ({ ...optional("to", k.to), ...optional("value", amount), ...optional("input", k.input) })
    })
  })

// The fields a kind takes from the options rather than from itself: a raw transaction's sender,
// nonce and gas are its RLP's; a cancellation's nonce is its target's.
const ownFields = (kind: TransactionKind.TransactionKind, options: AnyOptions) =>
  Either.gen(function*() {
    if (kind._tag === "RawTransaction") {
      for (const field of ["nonce", "gas"] as const) {
        if (options[field] !== undefined) {
          return yield* Either.left(Options.invalid(field, `a raw transaction's ${field} is its RLP's: the option is not taken`))
        }
      }
      return { ...optional("submit", options.submit) }
    }
    if (kind._tag === "Cancel") {
      if (options.nonce !== undefined) {
        return yield* Either.left(Options.invalid("nonce", "a cancellation's nonce is the pending transaction's: give it in TransactionKind.Cancel"))
      }
      if ((kind.nonce === undefined) === (kind.transactionHash === undefined)) {
        return yield* Either.left(Options.invalid(
          kind.nonce === undefined ? "nonce" : "transactionHash",
          "a cancellation names the pending transaction by nonce or by transactionHash, exactly one of them"
        ))
      }
    }
    return {
      from: options.from,
      ...optional("nonce", options.nonce),
      ...optional("gas", options.gas),
      ...optional("submit", options.submit)
    }
  })

/**
 * The transaction's body, on the wire: the kind's fields and the options, decoded with the kind's
 * body schema of `Wire`, so that every field is checked, and named when it fails, before anything
 * is sent; then encoded by the same schema.
 */
const requestBody = (kind: TransactionKind.TransactionKind, options: AnyOptions) =>
  Either.gen(function*() {
    const wireKind = TransactionKind.wireKind(kind)
    const fields = yield* kindFields(kind)
    const own = yield* ownFields(kind, options)
    const feePayer = options.feePayer === undefined ? undefined : yield* validFeePayer(options.feePayer)
    if (options.feeRatio !== undefined && feePayer === undefined) {
      // A type error in TypeScript; JavaScript callers reach this.
      return yield* Either.left(Options.invalid("feeRatio", "a fee ratio needs a fee payer (feePayer: FeeDelegation.global or FeeDelegation.user(address))"))
    }
    const route = Wire.payerRoute(feePayer)
    const endpoint = WalletApi.transaction(wireKind, route)
    if (endpoint === undefined) {
      return yield* Either.left(Options.invalid("feePayer", `a ${kind._tag} transaction has no fee-delegated form: its sender pays`))
    }
    // 1..99 here: the wire's 0 (the whole fee) is written as no ratio at all.
    const feeRatio = options.feeRatio === undefined ? undefined : yield* validFeeRatio(options.feeRatio)
    const body = (yield* Either.mapLeft(
      bodyOf[wireKind]({
        ...own,
        ...fields,
        ...(feePayer?._tag === "UserFeePayer" ? { feePayer: feePayer.address } : {}),
        ...optional("feeRatio", feeRatio)
      }),
      Options.fromParseError("params")
    )) as Record<string, unknown>
    const userFeePayer = typeof body.feePayer === "string" ? body.feePayer as Address.Address : undefined
    const from = typeof body.from === "string" ? body.from as Address.Address : undefined
    const typed = (kind: Wire.TypedKind, memo?: boolean): Pick<Verify.Expected, "route" | "types" | "from" | "nonce" | "gas" | "feePayer" | "feeRatio"> => ({
      route,
      types: expectedTypes(kind, route, feeRatio, memo),
      from,
      nonce: nonZero(body.nonce),
      gas: nonZero(body.gas),
      feePayer: userFeePayer,
      feeRatio
    })
    const shape = TransactionKind.$match(kind, {
      ValueTransfer: (k) => ({ ...typed("value", k.memo !== undefined), to: body.to as Address.Address, value: BigInt(body.value as string), input: k.memo !== undefined ? Wire.memoInput(k.memo) : "0x" }),
      ContractDeploy: () => ({ ...typed("contract/deploy"), value: BigInt((body.value as string | undefined) ?? 0), input: lowerHex(body.input) }),
      ContractExecution: () => ({ ...typed("contract/execute"), to: body.to as Address.Address, value: BigInt((body.value as string | undefined) ?? 0), input: lowerHex(body.input) }),
      // Completed once the RLP is decoded (`rawRequest`).
      RawTransaction: () => ({ route, types: [], feePayer: userFeePayer, feeRatio }),
      // The cancel transaction takes the nonce of the one it replaces.
      Cancel: (k) => ({ ...typed("cancel"), ...(k.nonce !== undefined ? { nonce: k.nonce } : {}) }),
      Anchor: () => ({ ...typed("anchor"), input: lowerHex(body.input) }),
      AccountUpdate: (k) => ({ ...typed("account"), accountKey: k.accountKey }),
      Legacy: () => ({
        ...typed("legacy"),
        ...(body.to !== undefined ? { to: body.to as Address.Address } : { noRecipient: true }),
        value: BigInt((body.value as string | undefined) ?? 0),
        input: lowerHex(body.input) ?? "0x"
      })
    }) as Omit<Verify.Expected, "chainId">
    const prepared: Prepared = {
      body,
      wireKind,
      route,
      feePayer,
      endpoint,
      expected: (chainId) => ({ ...shape, chainId })
    }
    return prepared
  })

/**
 * A raw transaction's request, completed from its RLP: decoded (a mistake names `rlp`), its sender
 * compared with a `from` given, its type and ratio with the route (the refusals of the service,
 * codes 1061918, 1061920 and 1061912, made before sending).
 */
const rawRequest = (prepared: Prepared, rlp: string, options: AnyOptions) =>
  Effect.flatMap(
    Effect.mapError(Verify.loadCodec, (m) => Options.invalid("rlp", `${m.expected}: ${m.actual}`)),
    (klaytn) =>
      Either.gen(function*() {
        const sent = yield* Either.mapLeft(klaytn.decodeRaw(bytesOfHex(rlp)), (e) => Options.invalid("rlp", e.reason))
        const t = sent.tx
        if (options.from !== undefined) {
          const from = yield* validFrom(options.from)
          if (from.toLowerCase() !== t.from.toLowerCase()) {
            return yield* Either.left(Options.invalid("from", `the RLP's sender is ${t.from}, not ${from}`))
          }
        }
        const delegated = Wire.isFeeDelegatedType(t.type)
        if (prepared.route !== "tx" && !delegated) {
          return yield* Either.left(Options.invalid(
            "rlp",
            `type ${Wire.typeName(t.type)} is not fee-delegated: a fee payer takes fee-delegated types only (the service refuses it with 1061918)`
          ))
        }
        const ratio = prepared.expected(0).feeRatio
        if (ratio !== undefined && delegated && !Wire.hasFeeRatio(t.type)) {
          return yield* Either.left(Options.invalid("feeRatio", `type ${Wire.typeName(t.type)} delegates the whole fee: it takes no ratio (1061920)`))
        }
        if (ratio !== undefined && t.feeRatio !== undefined && ratio !== t.feeRatio) {
          return yield* Either.left(Options.invalid("feeRatio", `the RLP's fee ratio is ${t.feeRatio}, not ${ratio} (1061912)`))
        }
        const asked = prepared.expected(0).feePayer
        // An empty or zero fee payer (not signed yet) decodes as none.
        const inRlp = sent.feePayer?.address
        if (asked !== undefined && inRlp !== undefined && inRlp.toLowerCase() !== asked.toLowerCase()) {
          return yield* Either.left(Options.invalid("feePayer", `the RLP's fee payer is ${inRlp}, not ${asked} (1061912)`))
        }
        const completed: Prepared = {
          ...prepared,
          expected: (chainId) => ({
            ...prepared.expected(chainId),
            types: [t.type],
            from: t.from,
            feeRatio: t.feeRatio,
            sent
          })
        }
        return completed
      })
  )

/**
 * A request checked, encoded and, for a raw transaction, completed from its RLP.
 *
 * @internal
 */
export const prepare = (kind: TransactionKind.TransactionKind, options: AnyOptions): Effect.Effect<Prepared, WalletError.InvalidArgument> =>
  Effect.flatMap(requestBody(kind, options), (prepared) =>
    kind._tag === "RawTransaction" ? rawRequest(prepared, kind.rlp, options) : Effect.succeed(prepared))
