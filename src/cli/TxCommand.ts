/**
 * `kas-wallet tx send | receipt`: value transfers from the accounts of a pool and their receipts,
 * over the WalletClient (`transferValue`, `getTransactionReceipt`, `awaitReceipt`).
 *
 * The connection flags and their environment variables are those of `kas-wallet accounts`.
 *
 * @since 0.2.0
 */
import { Args, Command } from "@effect/cli"
import { FetchHttpClient, type FileSystem } from "@effect/platform"
import { Console, Effect, Either, Layer, Option, Redacted, Schedule, Schema } from "effect"
import * as Address from "../Address.js"
import * as ErrorBody from "../ErrorBody.js"
import * as FeeDelegation from "../FeeDelegation.js"
import * as Krn from "../Krn.js"
import * as Transaction from "../Transaction.js"
import * as WalletClient from "../WalletClient.js"
import * as WalletError from "../WalletError.js"
import * as Accounts from "./AccountsCommand.js"
import * as ExitCode from "./ExitCode.js"
import * as Flags from "./Flags.js"
import * as Messages from "./Messages.js"
import * as Output from "./Output.js"
import * as Spec from "./Spec.js"
import * as Verbose from "./Verbose.js"

const S = Spec.accounts
const T = Spec.tx

const connection = {
  url: Flags.text(S.url),
  chain: Flags.text(S.chain),
  pool: Flags.text(S.pool),
  accessKeyId: Flags.text(S.accessKeyId),
  secretAccessKey: Flags.text(S.secretAccessKey),
  secretAccessKeyFile: Flags.text(S.secretAccessKeyFile),
  json: Flags.toggle(T.json),
  verbose: Flags.toggle(S.verbose)
}

type Connection = Command.Command.ParseConfig<typeof connection>

const encodeResult = Schema.encodeSync(Transaction.TransactionResult)
const encodeReceipt = Schema.encodeSync(Transaction.TransactionReceipt)
const encodeError = Schema.encodeSync(WalletError.WalletError)

/** What the command was doing, for its messages. */
type Doing =
  | { readonly _tag: "Send"; readonly from: string; readonly feePayer: string | undefined }
  | { readonly _tag: "Receipt"; readonly hash: string }

const where = (s: Accounts.Settings) => `${s.pool === undefined ? "the default pool" : `pool ${s.pool}`} on chain ${s.chainId}`

const serviceText = (e: WalletError.ServiceError) =>
  `HTTP ${e.status}${e.code !== undefined ? `, code ${e.code}` : ""}: ${e.serviceMessage.trim()}` +
  (e.requestId !== undefined ? ` [request ${e.requestId}]` : "")

/** The line and exit code of a client error, in the terms of the transfer. */
const failureOf = (error: WalletError.WalletError, doing: Doing, s: Accounts.Settings): ExitCode.Failure => {
  if (error._tag === "AccountNotFound") {
    const message = doing._tag === "Send"
      ? `no account ${doing.from} in ${where(s)}${doing.feePayer !== undefined ? `, or ${doing.feePayer} is not one of the member's fee-payer accounts` : ""} (${serviceText(error)}); check --from, --pool, --chain${doing.feePayer !== undefined ? " and --fee-payer" : ""}`
      : `the service refused the receipt's pools (${serviceText(error)}); check --pool and --chain`
    return new ExitCode.Failure({ message, code: ExitCode.ExitCode.NotFound })
  }
  if (error._tag === "InvalidRequest" && error.code === ErrorBody.Code.TransactionNotFound && doing._tag === "Receipt") {
    return new ExitCode.Failure({
      message: `no transaction ${doing.hash} on chain ${s.chainId} (${serviceText(error)}); check --chain, or wait with --wait`,
      code: ExitCode.ExitCode.NotFound
    })
  }
  if (error._tag === "InvalidRequest" && error.code === ErrorBody.Code.SendFailed) {
    return new ExitCode.Failure({ message: `the chain refused the transfer (${serviceText(error)})`, code: ExitCode.ExitCode.InvalidArgument })
  }
  const context: Messages.Context = { operation: "create", chainId: s.chainId, pool: s.pool, url: s.url }
  return new ExitCode.Failure({ message: Messages.walletError(error, context), code: ExitCode.ofWalletError(error) })
}

/**
 * Runs a program with the client: every printed line scrubbed of the key, `--verbose` observed,
 * every failure one line and an exit code.
 */
const withClient = (
  o: Connection,
  doing: Doing,
  program: (print: (line: string) => Effect.Effect<void>, s: Accounts.Settings) => Effect.Effect<void, WalletError.WalletError, WalletClient.WalletClient>
): Effect.Effect<void, ExitCode.Failure, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const s = yield* Accounts.settings(o)
    const secret = Redacted.value(s.secretAccessKey)
    const scrub = Output.scrub([Buffer.from(`${s.accessKeyId}:${secret}`, "utf8").toString("base64"), secret])
    const print = (line: string) => Console.log(scrub(line))
    const verbose = s.verbose ? Verbose.make({ baseUrl: s.url, log: (line) => Console.error(line), scrub }) : undefined
    const layer = WalletClient.layer({
      credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
      chainId: s.chainId,
      baseUrl: s.url,
      pool: s.pool,
      transformClient: verbose?.transformClient
    }).pipe(Layer.provide(FetchHttpClient.layer))
    const run = Effect.provide(program(print, s), layer)
    yield* (verbose !== undefined ? verbose.observe(run) : run).pipe(
      Effect.catchAll((error) =>
        Effect.zipRight(
          s.verbose ? Console.error(scrub(JSON.stringify(encodeError(error)))) : Effect.void,
          Effect.fail(new ExitCode.Failure({ ...failureOf(error, doing, s), message: scrub(failureOf(error, doing, s).message) }))
        )
      )
    )
  })

const parseAddress: Flags.Parser<Address.Address> = (raw) =>
  Option.isNone(Address.checksum(raw))
    ? Either.left(`must be 0x followed by 40 hex digits (got ${Flags.show(raw)})`)
    : Address.isValid(raw)
    ? Either.right(Option.getOrThrow(Address.checksum(raw)))
    : Either.left(`${raw} has a wrong EIP-55 checksum: give it all in lower case, or with its checksum`)

const parseValue: Flags.Parser<Transaction.Peb> = (raw) =>
  Either.mapLeft(Transaction.parseAmount(raw), (e) => `${e.reason} (got ${Flags.show(raw)})`)

const parseFeePayer: Flags.Parser<FeeDelegation.FeePayer> = (raw) =>
  raw === "global"
    ? Either.right(FeeDelegation.global)
    : Either.mapBoth(parseAddress(raw), {
      onLeft: (problem) => `must be global or a fee-payer account's address: ${problem}`,
      onRight: FeeDelegation.user
    })

const parseFeePayerPool: Flags.Parser<string> = (raw) =>
  Either.isRight(Schema.decodeUnknownEither(Krn.FeePayerPoolKrn)(raw))
    ? Either.right(raw)
    : Either.left(`must be a fee-payer pool KRN, krn:<chain>:wallet:<account-id>:feepayer-pool:<name> (got ${Flags.show(raw)})`)

const parseHash: Flags.Parser<Transaction.TxHash> = (raw) =>
  Either.mapLeft(Schema.decodeUnknownEither(Transaction.TxHash)(raw), () => `must be 0x followed by 64 hex digits (got ${Flags.show(raw)})`)

const required = <A>(flag: Spec.Flag, value: Option.Option<A>) =>
  Option.match(value, {
    onNone: () => Effect.fail(ExitCode.invalid(`--${flag.name} is required, e.g. ${flag.example}`)),
    onSome: Effect.succeed
  })

// How often --wait asks: about twice per block of the emulator's default clock.
const polling = Schedule.spaced("500 millis")

const amount = (peb: bigint) => `${Transaction.formatKlay(peb as Transaction.Peb)} KLAY (${peb} peb)`

/**
 * A transfer's result as `field  value` lines.
 *
 * @since 0.2.0
 * @category formatting
 */
export const resultDetails = (r: Transaction.TransactionResult): string =>
  Output.table(["FIELD", "VALUE"], [
    ["transaction", r.transactionHash],
    ["status", r.status === "Submitted" ? "Submitted (sent; committed in the next block)" : "Pending (signed, not sent)"],
    ["type", `${Transaction.typeName(r.typeInt)} (${r.typeInt})`],
    ["from", r.from],
    ["to", r.to],
    ["value", amount(r.value)],
    ["nonce", String(r.nonce)],
    ["gas", `limit ${r.gas} at ${Transaction.formatKlay(r.gasPrice)} KLAY (${r.gasPrice / Transaction.PebPerSton} ston)`],
    ...(Transaction.isFeeDelegatedResult(r)
      ? [["fee payer", `${r.feePayer}${r.feeRatio !== undefined && r.feeRatio > 0 ? ` (${r.feeRatio}% of the fee)` : " (all of the fee)"}`]]
      : [["fee payer", "the sender"]]),
    ...(r.input !== undefined ? [["input", r.input]] : [])
  ])

/**
 * A receipt as `field  value` lines: the block, the gas used and the fee, and who paid it.
 *
 * @since 0.2.0
 * @category formatting
 */
export const receiptDetails = (r: Transaction.TransactionReceipt): string => {
  const rows: Array<[string, string]> = [
    ["transaction", r.transactionHash],
    ["status", r.status],
    ["type", `${r.type ?? Transaction.typeName(r.typeInt as Transaction.TxType)} (${r.typeInt})`],
    ["from", r.from],
    ...(r.to !== undefined && r.to !== null ? [["to", r.to] as [string, string]] : []),
    ...(r.value !== undefined ? [["value", amount(r.value)] as [string, string]] : []),
    ["nonce", String(r.nonce)]
  ]
  if (Transaction.isFinal(r)) {
    const fee = BigInt(r.gasUsed) * r.gasPrice
    const ratio = r.feeRatio ?? 0
    const payerPart = r.feePayer === undefined ? 0n : ratio === 0 ? fee : (fee * BigInt(ratio)) / 100n
    rows.push(
      ["block", `${r.blockNumber} (${r.blockHash}), index ${r.transactionIndex}`],
      ["gas used", `${r.gasUsed} of ${r.gas}`],
      ["fee", amount(fee)],
      [
        "paid by",
        r.feePayer === undefined
          ? "the sender"
          : `fee payer ${r.feePayer}: ${amount(payerPart)}; sender: ${amount(fee - payerPart)}`
      ]
    )
  } else {
    rows.push(["block", "none yet: committed in the next block"])
  }
  return Output.table(["FIELD", "VALUE"], rows)
}

const send = Command.make("send", {
  ...connection,
  from: Flags.text(T.from),
  to: Flags.text(T.to),
  value: Flags.text(T.value),
  memo: Flags.text(T.memo),
  feePayer: Flags.text(T.feePayer),
  feeRatio: Flags.text(T.feeRatio),
  feePayerPool: Flags.text(T.feePayerPool),
  nonce: Flags.text(T.nonce),
  gas: Flags.text(T.gas),
  noSubmit: Flags.toggle(T.noSubmit),
  wait: Flags.toggle(T.wait)
}, (o) =>
  Effect.gen(function*() {
    const from = yield* required(T.from, yield* Flags.read(T.from, o.from, parseAddress))
    const to = yield* required(T.to, yield* Flags.read(T.to, o.to, parseAddress))
    const value = yield* required(T.value, yield* Flags.read(T.value, o.value, parseValue))
    const memo = Option.getOrUndefined(yield* Flags.read(T.memo, o.memo, Flags.nonEmpty))
    const feePayer = Option.getOrUndefined(yield* Flags.read(T.feePayer, o.feePayer, parseFeePayer))
    const feeRatio = Option.getOrUndefined(yield* Flags.read(T.feeRatio, o.feeRatio, Flags.integer(1, 99)))
    const feePayerPool = Option.getOrUndefined(yield* Flags.read(T.feePayerPool, o.feePayerPool, parseFeePayerPool))
    const nonce = Option.getOrUndefined(yield* Flags.read(T.nonce, o.nonce, Flags.integer(0, Number.MAX_SAFE_INTEGER)))
    const gas = Option.getOrUndefined(yield* Flags.read(T.gas, o.gas, Flags.integer(0, Number.MAX_SAFE_INTEGER)))
    if (feeRatio !== undefined && feePayer === undefined) {
      return yield* ExitCode.invalid(`--${T.feeRatio.name} needs --${T.feePayer.name} (global or your fee-payer account): the sender pays all of its fee`)
    }
    if (o.noSubmit && o.wait) return yield* ExitCode.invalid(`--${T.wait.name} waits for a sent transaction: leave out --${T.noSubmit.name} or --${T.wait.name}`)
    const doing: Doing = { _tag: "Send", from, feePayer: feePayer?._tag === "UserFeePayer" ? feePayer.address : undefined }
    return yield* withClient(o, doing, (print, s) =>
      Effect.gen(function*() {
        if (feePayerPool !== undefined && !feePayerPool.startsWith(`krn:${s.chainId}:`)) {
          // A checked failure of the command line, before anything is sent.
          return yield* new WalletError.InvalidArgument({
            argument: `--${T.feePayerPool.name}`,
            description: `${feePayerPool} is on chain ${feePayerPool.split(":")[1]}, but the chain is ${s.chainId} (--chain / KAS_CHAIN_ID)`
          })
        }
        const result = yield* WalletClient.transferValue({
          from,
          to,
          value,
          memo,
          feePayer,
          feeRatio,
          nonce,
          gas,
          submit: !o.noSubmit,
          feePayerPool: feePayer?._tag === "UserFeePayer" ? feePayerPool : undefined
        })
        yield* print(s.json ? JSON.stringify(encodeResult(result)) : resultDetails(result))
        if (!o.wait) return
        const receipt = yield* WalletClient.awaitReceipt(result.transactionHash, { schedule: polling })
        yield* print(s.json ? JSON.stringify(encodeReceipt(receipt)) : `\n${receiptDetails(receipt)}`)
      }))
  }))

const receipt = Command.make("receipt", { ...connection, wait: Flags.toggle(T.wait), hash: Args.text({ name: "hash" }) }, (o) =>
  Either.match(parseHash(o.hash), {
    onLeft: (problem) => Effect.fail(ExitCode.invalid(`<hash> ${problem}`)),
    onRight: (hash) =>
      withClient(o, { _tag: "Receipt", hash }, (print, s) =>
        Effect.flatMap(
          o.wait ? WalletClient.awaitReceipt(hash, { schedule: polling }) : WalletClient.getTransactionReceipt(hash),
          (r) => print(s.json ? JSON.stringify(encodeReceipt(r)) : receiptDetails(r))
        ))
  }))

/**
 * `kas-wallet tx`.
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("tx").pipe(Command.withSubcommands([send, receipt]))
