/**
 * `kas-wallet tx send | receipt`: value transfers from the accounts of a pool and their receipts,
 * over the WalletClient (`transferValue`, `getTransactionReceipt`, `awaitReceipt`).
 *
 * The connection flags and their environment variables are those of `kas-wallet accounts`.
 *
 * @since 0.2.0
 */
import { Effect, Either, Option, Schedule, Schema } from "effect"
import { Address, Amount, FeeDelegation, Transaction, WalletClient } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import type * as Argv from "../input/Argv.js"
import * as Client from "./ClientCommand.js"
import * as ExitCode from "../output/ExitCode.js"
import * as Flags from "../input/Flags.js"
import * as Output from "../output/Output.js"
import * as Spec from "../input/Spec.js"
import * as Value from "../input/Value.js"

const T = Spec.tx

const encodeResult = Schema.encodeSync(Transaction.TransactionResult)
const encodeReceipt = Schema.encodeSync(Transaction.TransactionReceipt)

const parseAddress: Flags.Parser<Address.Address> = (raw) =>
  Either.map(Client.parseAddress(raw), (checked) => Option.getOrThrow(Address.checksum(checked)))

const parseFeeRatio = Flags.integerOf(FeeDelegation.FeeRatio, FeeDelegation.MinFeeRatio, FeeDelegation.MaxFeeRatio)

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
    ...(Transaction.isSigned(r)
      ? [
        ["transaction", r.transactionHash],
        ["status", r.status === "Submitted" ? "Submitted (sent; committed in the next block)" : "Pending (signed, not sent)"]
      ]
      : [["transaction id", r.transactionId], ["status", "Pending (waits for the signers of the multisig sender)"]]),
    ["type", `${Wire.typeName(r.typeInt)} (${r.typeInt})`],
    ["from", r.from],
    ...(r.to !== undefined ? [["to", r.to]] : []),
    ["value", amount(r.value ?? 0n)],
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

const send = (run: Argv.Run): Effect.Effect<void, ExitCode.Failure> =>
  Effect.gen(function*() {
    const read = <A>(flag: Spec.Flag, parse: Flags.Parser<A>) => Flags.read(flag, Flags.given(run, flag), parse)
    const from = yield* required(T.from, yield* read(T.from, parseAddress))
    const to = yield* required(T.to, yield* read(T.to, parseAddress))
    const value = yield* required(T.value, yield* read(T.value, Value.parseAmount))
    const memo = Option.getOrUndefined(yield* read(T.memo, Flags.nonEmpty))
    const feePayer = Option.getOrUndefined(yield* read(T.feePayer, parseFeePayer))
    const feeRatio = Option.getOrUndefined(yield* read(T.feeRatio, parseFeeRatio))
    const nonce = Option.getOrUndefined(yield* read(T.nonce, Flags.integer(0, Number.MAX_SAFE_INTEGER)))
    const gas = Option.getOrUndefined(yield* read(T.gas, Flags.integer(0, Number.MAX_SAFE_INTEGER)))
    const noSubmit = Flags.isSet(run, T.noSubmit)
    const wait = Flags.isSet(run, T.wait)
    if (feeRatio !== undefined && feePayer === undefined) {
      return yield* ExitCode.invalid(`--${T.feeRatio.name} needs --${T.feePayer.name} (global or your fee-payer account): the sender pays all of its fee`)
    }
    if (Option.isSome(Flags.given(run, T.feePayerPool)) && feePayer?._tag !== "UserFeePayer") {
      // Only the flag: KAS_FEEPAYER_POOL is a default for the commands that use one.
      return yield* ExitCode.invalid(`--${T.feePayerPool.name} selects the pool of --${T.feePayer.name} ADDRESS, and there is none`)
    }
    if (noSubmit && wait) return yield* ExitCode.invalid(`--${T.wait.name} waits for a sent transaction: leave out --${T.noSubmit.name} or --${T.wait.name}`)
    const userFeePayer = feePayer?._tag === "UserFeePayer" ? feePayer.address : undefined
    return yield* Client.withClient(run, { pool: true, feePayerPool: true }, { operation: "send", address: from, feePayer: userFeePayer }, (print, s) =>
      Effect.gen(function*() {
        const fields = { from, to, value, memo, nonce, gas, submit: !noSubmit }
        const params: WalletClient.TransferParams = feePayer === undefined ? fields : {
          ...fields,
          feePayer,
          feeRatio,
          // The layer's fee-payer pool (--fee-payer-pool / KAS_FEEPAYER_POOL) serves a user fee payer only.
          feePayerPool: userFeePayer !== undefined ? s.feePayerPool : undefined
        }
        const result = yield* WalletClient.transferValue(params)
        yield* print(s.json ? JSON.stringify(encodeResult(result)) : resultDetails(result))
        if (!wait || !Transaction.isSigned(result)) return
        const receipt = yield* WalletClient.awaitReceipt(result.transactionHash, { schedule: polling })
        yield* print(s.json ? JSON.stringify(encodeReceipt(receipt)) : `\n${receiptDetails(receipt)}`)
      }))
  })

const receipt = (run: Argv.Run): Effect.Effect<void, ExitCode.Failure> =>
  Either.match(parseHash(Flags.positional(run, "hash")), {
    onLeft: (problem) => Effect.fail(ExitCode.invalid(`<hash> ${problem}`)),
    onRight: (hash) =>
      Client.withClient(run, { pool: true, feePayerPool: false }, { operation: "receipt", hash }, (print, s) =>
        Effect.flatMap(
          Flags.isSet(run, T.wait) ? WalletClient.awaitReceipt(hash, { schedule: polling }) : WalletClient.getTransactionReceipt(hash),
          (r) => print(s.json ? JSON.stringify(encodeReceipt(r)) : receiptDetails(r))
        ))
  })

/**
 * The `tx` commands, by name.
 *
 * @since 0.2.0
 * @category commands
 */
export const commands: Readonly<Record<string, (run: Argv.Run) => Effect.Effect<void, ExitCode.Failure>>> = { send, receipt }
