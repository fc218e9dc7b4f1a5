/**
 * `kas-wallet tx send | deploy | execute | relay | cancel | anchor | update-key | call | receipt | sign`:
 * transactions from the accounts of a pool (value transfers, contract deployments and
 * executions, raw RLP transactions, cancellations, anchorings, account-key updates, each with any
 * fee payer, and legacy ones with `--legacy`), read-only contract calls and receipts, over the
 * WalletClient (`send`, `sendReliably`, `callContract`, `getTransactionReceipt`, `awaitReceipt`);
 * their table is `Spec`.
 *
 * The commands that send differ only in the transaction's kind (`TransactionKind`): one path
 * (`transact`) reads the sender, the fee payer, nonce, gas and submission into the options of
 * `WalletClient.send` (or, with `--reliable`, `sendReliably`), sends, prints the result and, with
 * `--wait`, the receipt. The ABI (signatures, arguments, decoded results and logs) is in
 * `Contract`, loaded only by the commands that use it; documents read from files or stdin (an
 * RLP, an account key) are in `Payload`.
 *
 * The connection flags and their environment variables are `Shared`'s, as for `kas-wallet accounts`.
 *
 * @since 0.2.0
 */
import { Effect, Either, Option, Schema } from "effect"
import { AccountKey, Address, Amount, FeeDelegation, Transaction, TransactionKind, WalletClient, type WalletError } from "effect-kas-wallet"
import type * as Abi from "effect-kas-wallet/Abi"
import * as Wire from "effect-kas-wallet/Wire"
import type * as Argv from "../../input/Argv.js"
import * as Flags from "../../input/Flags.js"
import * as Payload from "../../input/Payload.js"
import type * as Spec from "../../input/Spec.js"
import * as Value from "../../input/Value.js"
import * as ExitCode from "../../output/ExitCode.js"
import * as Json from "../../output/Json.js"
import * as Output from "../../output/Output.js"
import * as Multisig from "../accounts/multisig/Handlers.js"
import type { Handler, Handlers } from "../Handler.js"
import * as Client from "../shared/Client.js"
import * as Table from "../Spec.js"
import type * as Contract from "./Contract.js"

const T = Table.Tx.flags

const encodeResult = Schema.encodeSync(Transaction.TransactionResult)
const encodeReceipt = Schema.encodeSync(Transaction.TransactionReceipt)

// The ABI layer, loaded by the commands that use it.
type ContractModule = typeof Contract
const loadContract: Effect.Effect<ContractModule> = Effect.promise(() => import("./Contract.js"))

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

const parseGas = Flags.integer(0, Number.MAX_SAFE_INTEGER)

const required = <A>(flag: Spec.Flag, value: Option.Option<A>) =>
  Option.match(value, {
    onNone: () => Effect.fail(ExitCode.invalid(`--${flag.name} is required, e.g. ${flag.example}`)),
    onSome: Effect.succeed
  })

/** A refusal of the ABI layer (a whole line), as exit code 2. */
const refused = <A>(checked: Either.Either<A, string>): Effect.Effect<A, ExitCode.Failure> =>
  Either.match(checked, { onLeft: (line) => Effect.fail(ExitCode.invalid(line)), onRight: Effect.succeed })

/** Reads a flag of the command line, else its variable, checked by `parse`. */
type Reader = <A>(flag: Spec.Flag, parse: Flags.Parser<A>) => Effect.Effect<Option.Option<A>, ExitCode.Failure>

const reader = (run: Argv.Run): Reader => (flag, parse) => Flags.read(flag, Flags.given(run, flag), parse)

// How often --wait asks: about twice per block of the emulator's default clock.

const amount = (peb: bigint) => `${Amount.formatKlay(peb as Amount.Peb)} KLAY (${peb} peb)`

const checksummed = (address: string) => Option.getOrElse(Address.checksum(address), () => address)

/**
 * A transaction's result as `field  value` lines (a long input cut; `--json` has it whole).
 *
 * @since 0.2.0
 * @category formatting
 */
export const resultDetails = (r: Transaction.TransactionResult, layout?: Output.Layout): string =>
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
    // A cancellation, an anchoring and an account update carry no value.
    ...(r.value !== undefined ? [["value", amount(r.value)]] : []),
    ["nonce", String(r.nonce)],
    ["gas", `limit ${r.gas} at ${Amount.formatKlay(r.gasPrice)} KLAY (${r.gasPrice / Amount.PebPerSton} ston)`],
    ...(Transaction.isFeeDelegatedResult(r)
      ? [["fee payer", `${r.feePayer}${r.feeRatio !== undefined && r.feeRatio > 0 ? ` (${r.feeRatio}% of the fee)` : " (all of the fee)"}`]]
      : [["fee payer", "the sender"]]),
    ...(r.input !== undefined ? [["input", Output.hex(r.input)]] : []),
    // An account update's new key, RLP-encoded as Klaytn has it.
    ...(r.accountKey !== undefined ? [["account key", Output.hex(r.accountKey)]] : [])
  ], "", layout)

/**
 * Klaytn's receipt error codes (`txError` of a `CommitError` receipt), in words.
 *
 * @since 0.4.0
 * @category formatting
 */
export const txErrors: Readonly<Record<number, string>> = {
  0x02: "VM error while running the contract",
  0x03: "maximum call depth exceeded",
  0x04: "contract address collision",
  0x05: "out of gas storing the contract's code",
  0x06: "contract code larger than the maximum",
  0x07: "out of gas",
  0x08: "write protection (a state change in a static call)",
  0x09: "execution reverted",
  0x0a: "opcode computation cost limit reached",
  0x0b: "account already exists",
  0x0c: "not a program account (no contract at the address)",
  0x0e: "fee ratio out of range"
}

const txError = (code: number) =>
  `txError 0x${code.toString(16).padStart(2, "0")}: ${txErrors[code] ?? "see Klaytn's transaction error codes"}`

/**
 * What the receipt's logs decode to, with `--event`.
 *
 * @since 0.4.0
 * @category models
 */
export interface DecodedLogs {
  readonly events: ReadonlyArray<Abi.Event>
  readonly decoded: ReadonlyArray<Contract.Decoded>
  readonly show: (d: Contract.Decoded) => string
}

/**
 * A receipt as `field  value` lines: the status (and a failure's error), a deployed contract's
 * address, the block, the gas used and the fee, who paid it, and the logs (decoded with
 * `--event`).
 *
 * @since 0.2.0
 * @category formatting
 */
export const receiptDetails = (r: Transaction.TransactionReceipt, logs?: DecodedLogs, layout?: Output.Layout): string => {
  const rows: Array<readonly [string, string]> = [
    ["transaction", r.transactionHash],
    ["status", r.status],
    ...(r.status === "CommitError"
      ? [["error", r.txError !== undefined ? txError(r.txError) : "no txError given"] as const]
      : []),
    ["type", `${r.type ?? Wire.typeName(r.typeInt as Wire.TxType)} (${r.typeInt})`],
    ["from", r.from],
    ...(r.to !== undefined && r.to !== null ? [["to", r.to] as const] : []),
    ...(Transaction.isFinal(r) && r.contractAddress !== undefined && r.contractAddress !== null && r.contractAddress !== ""
      ? [["contract", checksummed(r.contractAddress)] as const]
      : []),
    ...(r.value !== undefined ? [["value", amount(r.value)] as const] : []),
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
      // Each payer on its own line: the two on one line pass 80 columns.
      ...(r.feePayer === undefined
        ? [["paid by", "the sender"] as const]
        : [["paid by", `fee payer ${r.feePayer}: ${amount(payerPart)}`] as const, ["", `sender: ${amount(fee - payerPart)}`] as const])
    )
    const all = r.logs ?? []
    if (all.length > 0 || logs !== undefined) rows.push(["logs", String(all.length)])
    all.forEach((log, i) => {
      rows.push([`log ${i}`, checksummed(log.address)])
      log.topics.forEach((topic, t) => rows.push([`  topic ${t}`, topic]))
      rows.push(["  data", Output.hex(log.data)])
      for (const d of logs?.decoded.filter((d) => d.index === i) ?? []) rows.push(["  event", logs!.show(d)])
    })
    if (logs !== undefined && logs.decoded.length === 0) {
      rows.push(["events", `none of the logs is ${logs.events.map((e) => e.name).join(" or ")}`])
    }
  } else {
    rows.push(["block", "none yet: committed in the next block"])
  }
  return Output.table(["FIELD", "VALUE"], rows, "", layout)
}

/** The `--event` signatures, read before anything is sent; none: `undefined` (nothing loaded). */
const readEvents = (run: Argv.Run): Effect.Effect<{ readonly contract: ContractModule; readonly events: ReadonlyArray<Abi.Event> } | undefined, ExitCode.Failure> =>
  Option.match(Flags.givenList(run, T.event), {
    onNone: () => Effect.succeed(undefined),
    onSome: (raws) =>
      Effect.flatMap(loadContract, (contract) =>
        Effect.map(
          Effect.forEach(raws, (raw) => refused(contract.parseEvent(`--${T.event.name}`, raw))),
          (events) => ({ contract, events })
        ))
  })

/**
 * Prints a receipt, its logs decoded by the `--event`s if any; gives what is wrong with a log that
 * does not decode, for the command to fail with after the receipt.
 */
const printReceipt = (
  print: Client.Print,
  s: Client.Settings,
  r: Transaction.TransactionReceipt,
  events: Effect.Effect.Success<ReturnType<typeof readEvents>>,
  blankBefore: boolean
): Effect.Effect<string | undefined> =>
  Effect.gen(function*() {
    const decoded = events === undefined
      ? undefined
      : events.contract.decodeLogs(events.events, Transaction.isFinal(r) ? r.logs ?? [] : [])
    const logs = decoded !== undefined && Either.isRight(decoded) && events !== undefined
      ? { events: events.events, decoded: decoded.right, show: events.contract.showLog }
      : undefined
    yield* print(
      s.json
        ? Json.stringify({ ...encodeReceipt(r), ...(logs !== undefined ? { events: logs.decoded.map(events!.contract.logJson) } : {}) })
        : `${blankBefore ? "\n" : ""}${receiptDetails(r, logs, s)}`
    )
    return decoded !== undefined && Either.isLeft(decoded) ? `--${T.event.name}: ${decoded.left}` : undefined
  })

/** Fails with a problem found after the output (a log or a result that does not decode). */
const failWith = (problem: string | undefined): Effect.Effect<void, ExitCode.Failure> =>
  problem === undefined ? Effect.void : Effect.fail(ExitCode.invalid(problem))

/**
 * The commands that send a transaction, by name: what their messages call it.
 */
const nouns = {
  send: "transfer",
  deploy: "deployment",
  execute: "execution",
  relay: "transaction",
  cancel: "cancellation",
  anchor: "anchoring",
  "update-key": "account update"
} as const

type Operation = keyof typeof nouns

/**
 * Prints what a failed `--reliable` send signed, for the user to look it up or submit it again
 * (`tx relay`): the hash and the signed RLP, whole (the message after it says what to do). A
 * signed transaction holds no secret of the member.
 */
const printUnsubmitted = (print: Client.Print, json: boolean, e: WalletError.SubmissionFailed) =>
  print(
    json
      ? JSON.stringify({ status: "SubmissionFailed", transactionHash: e.transactionHash, rlp: e.rlp, submissions: e.submissions })
      : Output.table(["FIELD", "VALUE"], [
        ["transaction", e.transactionHash],
        ["status", `signed, not confirmed after ${e.submissions} submission(s)`],
        ["rlp", e.rlp]
      ])
  )

/**
 * The one path of every command that sends a transaction: the sender, the kind (read by
 * `kindOf`), the fee payer, nonce, gas and submission as the options of `WalletClient.send`, every
 * check before anything is sent; then `send` (or, with `--reliable`, `sendReliably`), the result,
 * and with `--wait` the receipt.
 *
 * What differs by kind is the client's: a raw transaction's sender, nonce and gas are the RLP's
 * (`--from` only checks it), a cancellation's nonce is the pending transaction's (`--nonce` is in
 * the kind), and a legacy transaction's sender always pays (no fee-payer flag).
 */
const transact = (
  operation: Operation,
  kindOf: (run: Argv.Run, read: Reader) => Effect.Effect<TransactionKind.TransactionKind, ExitCode.Failure>
): Handler => (run) =>
  Effect.gen(function*() {
    const read = reader(run)
    const givenFrom = yield* read(T.from, parseAddress)
    const from = operation === "relay" ? Option.getOrUndefined(givenFrom) : yield* required(T.from, givenFrom)
    const kind = yield* kindOf(run, read)
    const feePayer = Option.getOrUndefined(yield* read(T.feePayer, parseFeePayer))
    const feeRatio = Option.getOrUndefined(yield* read(T.feeRatio, parseFeeRatio))
    // A cancellation's --nonce is its target's (read into the kind); a raw transaction has the RLP's.
    const ownNonce = kind._tag !== "Cancel" && kind._tag !== "RawTransaction"
    const nonce = ownNonce ? Option.getOrUndefined(yield* read(T.nonce, Flags.integer(0, Number.MAX_SAFE_INTEGER))) : undefined
    const gas = Option.getOrUndefined(yield* read(T.gas, parseGas))
    const noSubmit = Flags.isSet(run, T.noSubmit)
    const wait = Flags.isSet(run, T.wait)
    const reliable = Flags.isSet(run, T.reliable)
    const poolFlag = Option.isSome(Flags.given(run, T.feePayerPool))
    if (kind._tag === "Legacy" && (feePayer !== undefined || feeRatio !== undefined || poolFlag)) {
      return yield* ExitCode.invalid(
        `--${T.legacy.name}: a legacy transaction's sender pays its fee; leave out --${T.feePayer.name}, --${T.feeRatio.name} and --${T.feePayerPool.name}`
      )
    }
    if (feeRatio !== undefined && feePayer === undefined) {
      return yield* ExitCode.invalid(`--${T.feeRatio.name} needs --${T.feePayer.name} (global or your fee-payer account): the sender pays all of its fee`)
    }
    if (poolFlag && feePayer?._tag !== "UserFeePayer") {
      // Only the flag: KAS_FEEPAYER_POOL is a default for the commands that use one.
      return yield* ExitCode.invalid(`--${T.feePayerPool.name} selects the pool of --${T.feePayer.name} ADDRESS, and there is none`)
    }
    if (noSubmit && wait) return yield* ExitCode.invalid(`--${T.wait.name} waits for a sent transaction: leave out --${T.noSubmit.name} or --${T.wait.name}`)
    if (noSubmit && reliable) {
      return yield* ExitCode.invalid(`--${T.reliable.name} signs, then submits: leave out --${T.noSubmit.name} or --${T.reliable.name}`)
    }
    const events = yield* readEvents(run)
    if (events !== undefined && !wait) {
      return yield* ExitCode.invalid(`--${T.event.name} decodes the logs of the receipt: add --${T.wait.name}, or use kas-wallet tx receipt <hash> --event ...`)
    }
    const userFeePayer = feePayer?._tag === "UserFeePayer" ? feePayer.address : undefined
    const waited = yield* Client.withClient(run, { pool: true, feePayerPool: true }, { operation, address: from, feePayer: userFeePayer }, (print, s) =>
      Effect.gen(function*() {
        const fields = { from, nonce, gas }
        // Checked above for the kind: no nonce for a cancellation or a raw transaction (nor gas,
        // which its command does not take), a sender but for a raw one, no fee payer for a legacy
        // one; the client checks them again.
        const options = (feePayer === undefined ? fields : {
          ...fields,
          feePayer,
          feeRatio,
          // The layer's fee-payer pool (--fee-payer-pool / KAS_FEEPAYER_POOL) serves a user fee payer only.
          feePayerPool: userFeePayer !== undefined ? s.feePayerPool : undefined
        }) as WalletClient.ReliableSendOptions<TransactionKind.TransactionKind>
        const result = yield* reliable
          ? WalletClient.sendReliably(kind, options).pipe(
            Effect.tapError((e) => e._tag === "SubmissionFailed" ? printUnsubmitted(print, s.json, e) : Effect.void)
          )
          : WalletClient.send(kind, { ...options, submit: !noSubmit } as WalletClient.SendOptionsFor<TransactionKind.TransactionKind>)
        yield* print(s.json ? Json.stringify(encodeResult(result)) : resultDetails(result, s))
        if (!wait || !Transaction.isSigned(result)) return undefined
        const receipt = yield* WalletClient.awaitReceipt(result.transactionHash)
        return { receipt, problem: yield* printReceipt(print, s, receipt, events, true) }
      }))
    yield* failWith(waited?.problem)
    const receipt = waited?.receipt
    // Waited for, a transaction that failed in its block fails the command (after its receipt).
    if (receipt?.status === "CommitError") {
      return yield* ExitCode.invalid(
        `the ${nouns[operation]} failed in block ${receipt.blockNumber} (${
          receipt.txError !== undefined ? `${txError(receipt.txError)}` : "no txError given"
        }); its fee was paid`
      )
    }
  })

/** Whether `--legacy` asks for an Ethereum-style transaction instead of the Klaytn type. */
const legacy = (run: Argv.Run) => Flags.isSet(run, T.legacy)

/** The optional `--value` of a contract: KLAY for a payable constructor or function. */
const payable = (run: Argv.Run) => Effect.map(reader(run)(T.payable, Value.parseAmount), Option.getOrUndefined)

const send = transact("send", (run, read) =>
  Effect.gen(function*() {
    const to = yield* required(T.to, yield* read(T.to, parseAddress))
    const value = yield* required(T.value, yield* read(T.value, Value.parseAmount))
    const memo = Option.getOrUndefined(yield* read(T.memo, Flags.nonEmpty))
    if (!legacy(run)) return TransactionKind.ValueTransfer({ to, value, memo })
    if (memo !== undefined) return yield* ExitCode.invalid(`--${T.memo.name}: a legacy transfer has no memo; leave out --${T.memo.name} or --${T.legacy.name}`)
    return TransactionKind.Legacy({ to, value })
  }))

const deploy = transact("deploy", (run, read) =>
  Effect.gen(function*() {
    const file = Flags.given(run, T.bytecodeFile)
    const hex = Flags.given(run, T.bytecode)
    if (Option.isSome(file) && Option.isSome(hex)) {
      return yield* ExitCode.invalid(`give the bytecode once: --${T.bytecodeFile.name} FILE or --${T.bytecode.name} HEX`)
    }
    if (Option.isNone(file) && Option.isNone(hex)) {
      return yield* ExitCode.invalid(`--${T.bytecodeFile.name} FILE or --${T.bytecode.name} HEX is required: the contract's creation bytecode`)
    }
    const contract = yield* loadContract
    const bytecode = Option.isSome(file)
      ? yield* refused(contract.readBytecodeFile(`--${T.bytecodeFile.name}`, file.value))
      : Option.getOrThrow(yield* read(T.bytecode, contract.parseHex(false)))
    const constructor = yield* Option.match(Flags.given(run, T.constructor), {
      onNone: () => Effect.succeed(undefined),
      onSome: (raw) => refused(contract.parseConstructor(`--${T.constructor.name}`, raw))
    })
    const words = Flags.givenList(run, T.args)
    if (Option.isSome(words) && constructor === undefined) {
      return yield* ExitCode.invalid(`--${T.args.name} needs --${T.constructor.name} "constructor(type,...)" to encode them`)
    }
    const args = constructor === undefined
      ? []
      : yield* refused(contract.values(`--${T.args.name}`, contract.signatureOf("constructor", constructor.inputs), constructor.inputs, Option.getOrElse(words, () => [])))
    const input = yield* refused(contract.deployInput(bytecode, constructor, args))
    const value = yield* payable(run)
    // A legacy transaction without a recipient deploys its input.
    return legacy(run) ? TransactionKind.Legacy({ input, value }) : TransactionKind.ContractDeploy({ input, value })
  }))

const execute = transact("execute", (run, read) =>
  Effect.gen(function*() {
    const to = yield* required(T.contract, yield* read(T.contract, parseAddress))
    const method = Flags.given(run, T.method)
    const input = Flags.given(run, T.input)
    const words = Flags.givenList(run, T.args)
    if (Option.isSome(method) && Option.isSome(input)) {
      return yield* ExitCode.invalid(`give the calldata once: --${T.method.name} (with --${T.args.name}) or --${T.input.name} HEX`)
    }
    if (Option.isNone(method) && Option.isNone(input)) {
      return yield* ExitCode.invalid(`--${T.method.name} SIGNATURE (with --${T.args.name}) or --${T.input.name} HEX is required: what to run, e.g. ${T.method.example}`)
    }
    if (Option.isSome(input) && Option.isSome(words)) {
      return yield* ExitCode.invalid(`--${T.args.name} go with --${T.method.name}: --${T.input.name} is the whole calldata already`)
    }
    const contract = yield* loadContract
    const calldata = Option.isSome(method)
      ? yield* Effect.gen(function*() {
        const f = yield* refused(contract.parseFunction(`--${T.method.name}`, method.value))
        const inputs = f.item.inputs as ReadonlyArray<Contract.Parameter>
        const args = yield* refused(contract.values(`--${T.args.name}`, f.signature, inputs, Option.getOrElse(words, () => [])))
        return yield* refused(contract.calldata(f, args))
      })
      : Option.getOrThrow(yield* read(T.input, contract.parseHex(true)))
    const value = yield* payable(run)
    return legacy(run) ? TransactionKind.Legacy({ to, input: calldata, value }) : TransactionKind.ContractExecution({ to, input: calldata, value })
  }))

const relay = transact("relay", (run) =>
  Effect.gen(function*() {
    const document = yield* Payload.readDocument(Flags.positional(run, "file"), { file: "<file>", what: "the RLP" })
    return TransactionKind.RawTransaction({ rlp: yield* refused(Payload.parseRlp(document)) })
  }))

const cancel = transact("cancel", (_, read) =>
  Effect.gen(function*() {
    const nonce = yield* read(T.cancelNonce, Flags.integer(0, Number.MAX_SAFE_INTEGER))
    const hash = yield* read(T.cancelHash, Client.parseTxHash)
    const which = `--${T.cancelNonce.name} N or --${T.cancelHash.name} HASH`
    if (Option.isSome(nonce) && Option.isSome(hash)) return yield* ExitCode.invalid(`give the pending transaction once: ${which}, not both`)
    if (Option.isSome(nonce)) return TransactionKind.Cancel({ nonce: nonce.value })
    if (Option.isSome(hash)) return TransactionKind.Cancel({ transactionHash: hash.value })
    return yield* ExitCode.invalid(`${which} is required: the pending transaction to cancel`)
  }))

const anchor = transact("anchor", (_, read) =>
  Effect.map(
    Effect.flatMap(read(T.data, Payload.parseHexData), (data) => required(T.data, data)),
    (input) => TransactionKind.Anchor({ input })
  ))

/** The new key of `update-key`: `--key` (JSON, or a file of it), `--legacy` or `--fail`, exactly one. */
const accountKey = (run: Argv.Run): Effect.Effect<AccountKey.AccountKey, ExitCode.Failure> =>
  Effect.gen(function*() {
    const key = Flags.given(run, T.key)
    const given = [Option.isSome(key), Flags.isSet(run, T.legacyKey), Flags.isSet(run, T.failKey)].filter(Boolean).length
    const which = `--${T.key.name} JSON|FILE, --${T.legacyKey.name} or --${T.failKey.name}`
    if (given > 1) return yield* ExitCode.invalid(`give the new key once: ${which}`)
    if (Flags.isSet(run, T.legacyKey)) return AccountKey.Legacy
    if (Flags.isSet(run, T.failKey)) return AccountKey.Fail
    if (Option.isNone(key)) return yield* ExitCode.invalid(`${which} is required: the new account key, e.g. ${T.key.example}`)
    const raw = key.value.trim()
    if (raw === "") return yield* ExitCode.invalid(`--${T.key.name} must not be empty: the key's JSON, or its file`)
    // JSON is an object; anything else names a file (or - for stdin).
    const document = raw.startsWith("{")
      ? { text: raw, source: `--${T.key.name}` }
      : yield* Payload.readDocument(raw, { file: `--${T.key.name}`, what: `--${T.key.name}` })
    return yield* refused(Payload.parseAccountKey(document.text, document.source))
  })

const updateKey = transact("update-key", (run) => Effect.map(accountKey(run), (accountKey) => TransactionKind.AccountUpdate({ accountKey })))

const call = (run: Argv.Run): Effect.Effect<void, ExitCode.Failure> =>
  Effect.gen(function*() {
    const read = reader(run)
    const to = yield* required(T.contract, yield* read(T.contract, parseAddress))
    const raw = yield* required(T.callMethod, Flags.given(run, T.callMethod))
    const contract = yield* loadContract
    const f = yield* refused(contract.parseFunction(`--${T.callMethod.name}`, raw))
    const inputs = f.item.inputs as ReadonlyArray<Contract.Parameter>
    const args = yield* refused(
      contract.values(`--${T.args.name}`, f.signature, inputs, Option.getOrElse(Flags.givenList(run, T.args), () => []))
    )
    const { arguments: typed, method } = yield* refused(contract.callArguments(f, args))
    const from = Option.getOrUndefined(yield* read(T.caller, parseAddress))
    const value = yield* payable(run)
    const gas = Option.getOrUndefined(yield* read(T.contractGas, parseGas))
    const problem = yield* Client.withClient(run, { pool: true, feePayerPool: false }, { operation: "call", address: to }, (print, s) =>
      Effect.gen(function*() {
        const called = yield* WalletClient.callContract({ to, method, arguments: typed, from, value, gas })
        const outputs = f.outputs.length === 0 ? undefined : contract.decodeOutputs(f, called.result)
        const decoded = outputs !== undefined && Either.isRight(outputs) ? outputs.right : undefined
        yield* print(
          s.json
            ? JSON.stringify({ data: called.data, result: called.result, ...(decoded !== undefined ? { outputs: decoded.map((o) => contract.toJson(o.value)) } : {}) })
            : Output.table(["FIELD", "VALUE"], [
              ["data", Output.hex(called.data)],
              ["result", Output.hex(called.result)],
              ...(decoded !== undefined ? contract.outputRows(decoded) : [])
            ], "", s)
        )
        return outputs !== undefined && Either.isLeft(outputs) ? outputs.left : undefined
      }))
    yield* failWith(problem)
  })

const receipt = (run: Argv.Run): Effect.Effect<void, ExitCode.Failure> =>
  Effect.flatMap(Flags.argument(run, "hash", Client.parseTxHash), (hash) =>
    Effect.flatMap(readEvents(run), (events) =>
      Client.withClient(run, { pool: true, feePayerPool: false }, { operation: "receipt", hash }, (print, s) =>
        Effect.flatMap(
          Flags.isSet(run, T.wait) ? WalletClient.awaitReceipt(hash) : WalletClient.getTransactionReceipt(hash),
          (r) => printReceipt(print, s, r, events, false)
        )).pipe(Effect.flatMap(failWith))))

/**
 * The `tx` commands, by their words after `tx`.
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = {
  send,
  deploy,
  execute,
  relay,
  cancel,
  anchor,
  "update-key": updateKey,
  call,
  receipt,
  sign: Multisig.signById
} satisfies Handlers<typeof Table.Tx.spec>
