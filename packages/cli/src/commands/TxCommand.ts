/**
 * `kas-wallet tx send | receipt`: value transfers from the accounts of a pool and their receipts,
 * over the WalletClient (`transferValue`, `getTransactionReceipt`, `awaitReceipt`).
 *
 * The connection flags and their environment variables are those of `kas-wallet accounts`.
 *
 * @since 0.2.0
 */
import { Args, Command } from "@effect/cli"
import { Effect, Either, Option, Schedule, Schema } from "effect"
import { Address, Amount, FeeDelegation, Transaction, WalletClient } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import * as Client from "./ClientCommand.js"
import * as ExitCode from "../output/ExitCode.js"
import * as Flags from "../input/Flags.js"
import * as Output from "../output/Output.js"
import * as Spec from "../input/Spec.js"

const T = Spec.tx

// The connection of `accounts` (the sender's pool in --pool) and the fee-payer pool of
// `fee-payers` (the second KRN of x-krn for --fee-payer ADDRESS).
const connection = { ...Client.accountOptions, feePayerPool: Client.feePayerOptions.feePayerPool, json: Flags.toggle(T.json) }

const encodeResult = Schema.encodeSync(Transaction.TransactionResult)
const encodeReceipt = Schema.encodeSync(Transaction.TransactionReceipt)

const parseAddress: Flags.Parser<Address.Address> = (raw) =>
  Either.map(Client.parseAddress(raw), (checked) => Option.getOrThrow(Address.checksum(checked)))

const parseValue: Flags.Parser<Amount.Peb> = (raw) =>
  Either.mapLeft(Amount.parseAmount(raw), (e) => `${e.reason} (got ${Flags.show(raw)})`)

const parseFeePayer: Flags.Parser<FeeDelegation.FeePayer> = (raw) =>
  raw === "global"
    ? Either.right(FeeDelegation.global)
    : Either.mapBoth(parseAddress(raw), {
      onLeft: (problem) => `must be global or a fee-payer account's address: ${problem}`,
      onRight: FeeDelegation.user
    })

const parseHash: Flags.Parser<Transaction.TxHash> = (raw) =>
  Either.mapLeft(Schema.decodeUnknownEither(Transaction.TxHash)(raw), () => `must be 0x followed by 64 hex digits (got ${Flags.show(raw)})`)

const required = <A>(flag: Spec.Flag, value: Option.Option<A>) =>
  Option.match(value, {
    onNone: () => Effect.fail(ExitCode.invalid(`--${flag.name} is required, e.g. ${flag.example}`)),
    onSome: Effect.succeed
  })

// How often --wait asks: about twice per block of the emulator's default clock.
const polling = Schedule.spaced("500 millis")

const amount = (peb: bigint) => `${Amount.formatKlay(peb as Amount.Peb)} KLAY (${peb} peb)`

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
    ["type", `${Wire.typeName(r.typeInt)} (${r.typeInt})`],
    ["from", r.from],
    ["to", r.to],
    ["value", amount(r.value)],
    ["nonce", String(r.nonce)],
    ["gas", `limit ${r.gas} at ${Amount.formatKlay(r.gasPrice)} KLAY (${r.gasPrice / Amount.PebPerSton} ston)`],
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
    ["type", `${r.type ?? Wire.typeName(r.typeInt as Wire.TxType)} (${r.typeInt})`],
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
    const nonce = Option.getOrUndefined(yield* Flags.read(T.nonce, o.nonce, Flags.integer(0, Number.MAX_SAFE_INTEGER)))
    const gas = Option.getOrUndefined(yield* Flags.read(T.gas, o.gas, Flags.integer(0, Number.MAX_SAFE_INTEGER)))
    if (feeRatio !== undefined && feePayer === undefined) {
      return yield* ExitCode.invalid(`--${T.feeRatio.name} needs --${T.feePayer.name} (global or your fee-payer account): the sender pays all of its fee`)
    }
    if (Option.isSome(o.feePayerPool) && feePayer?._tag !== "UserFeePayer") {
      // Only the flag: KAS_FEEPAYER_POOL is a default for the commands that use one.
      return yield* ExitCode.invalid(`--${T.feePayerPool.name} selects the pool of --${T.feePayer.name} ADDRESS, and there is none`)
    }
    if (o.noSubmit && o.wait) return yield* ExitCode.invalid(`--${T.wait.name} waits for a sent transaction: leave out --${T.noSubmit.name} or --${T.wait.name}`)
    const userFeePayer = feePayer?._tag === "UserFeePayer" ? feePayer.address : undefined
    return yield* Client.withClient(o, { operation: "send", address: from, feePayer: userFeePayer }, (print, s) =>
      Effect.gen(function*() {
        const fields = { from, to, value, memo, nonce, gas, submit: !o.noSubmit }
        const result = yield* WalletClient.transferValue(
          feePayer === undefined ? fields : {
            ...fields,
            feePayer,
            feeRatio,
            // The layer's fee-payer pool (--fee-payer-pool / KAS_FEEPAYER_POOL) serves a user fee payer only.
            feePayerPool: userFeePayer !== undefined ? s.feePayerPool : undefined
          }
        )
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
      Client.withClient(o, { operation: "receipt", hash }, (print, s) =>
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
