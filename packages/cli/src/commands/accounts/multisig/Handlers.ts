/**
 * `kas-wallet accounts multisig update | pending | sign | append` and `kas-wallet tx sign`: multisig
 * accounts from the command line, over the WalletClient (their table is `Spec`). Every argument is checked before anything
 * is sent: addresses, transaction ids (`Transaction.TransactionId`), signers and their weights, the
 * threshold, signatures (`Transaction.Signature`); the client checks the key's rules again.
 *
 * @since 0.8.0
 */
import { Effect, Either, Option, Schema } from "effect"
import { Multisig, PublicKey, Transaction, WalletClient } from "effect-kas-wallet"
import type * as Argv from "../../../input/Argv.js"
import * as Flags from "../../../input/Flags.js"
import * as Payload from "../../../input/Payload.js"
import * as ExitCode from "../../../output/ExitCode.js"
import * as Json from "../../../output/Json.js"
import * as Output from "../../../output/Output.js"
import type { Handler, Handlers } from "../../Handler.js"
import * as Client from "../../shared/Client.js"
import * as Table from "../../Spec.js"

const M = Table.Multisig.flags
const uses = { pool: true, feePayerPool: false }

const encodeStatus = Schema.encodeSync(Multisig.SignatureStatus)
const encodeReceipt = Schema.encodeSync(Transaction.TransactionReceipt)
const decodePublicKey = Schema.decodeUnknownEither(PublicKey.PublicKey)
const decodeSignatures = Schema.decodeUnknownEither(Schema.Union(Transaction.Signature, Schema.Array(Transaction.Signature)))

/**
 * Checks a transaction id argument: `0x` and 64 hex digits (`Transaction.TransactionId`).
 *
 * @since 0.8.0
 * @category parsing
 */
export const parseTransactionId: Flags.Parser<Transaction.TransactionId> = Flags.decoded(
  Transaction.TransactionId,
  "must be a pending transaction's id, 0x followed by 64 hex digits"
)

/**
 * A signer of `--keys`: a public key, or the address of an account of the pool whose public key
 * is looked up; with its weight.
 *
 * @since 0.8.0
 * @category models
 */
export type SignerSpec =
  | { readonly _tag: "PublicKey"; readonly publicKey: PublicKey.PublicKey; readonly weight: number }
  | { readonly _tag: "Address"; readonly address: string; readonly weight: number }

const parseWeight = Flags.integer(1, Number.MAX_SAFE_INTEGER)

/**
 * Checks one value of `--keys`: `KEY[:WEIGHT]`, KEY a public key (any of its forms) or an address,
 * WEIGHT a positive integer (default 1).
 *
 * @since 0.8.0
 * @category parsing
 */
export const parseSigner: Flags.Parser<SignerSpec> = (raw) => {
  const colon = raw.lastIndexOf(":")
  const key = colon < 0 ? raw : raw.slice(0, colon)
  const weight = colon < 0 ? Either.right(1) : Either.mapLeft(parseWeight(raw.slice(colon + 1)), (why) => `the weight of ${Flags.show(key)} ${why}`)
  return Either.flatMap(weight, (w): Either.Either<SignerSpec, string> => {
    const publicKey = decodePublicKey(key)
    if (Either.isRight(publicKey)) return Either.right({ _tag: "PublicKey", publicKey: publicKey.right, weight: w })
    return Either.match(Client.parseAddress(key), {
      onLeft: () => Either.left(`must be KEY[:WEIGHT], KEY a public key (0x04 + 128 hex digits, 0x02/0x03 + 64) or an address of the pool (got ${Flags.show(raw)})`),
      onRight: (address) => Either.right({ _tag: "Address", address, weight: w })
    })
  })
}

// Signers a line holds at 80 columns, their addresses shortened (`0xa809…8e14, `: 13 columns).
const SIGNERS_A_LINE = 4

/**
 * The lines naming who is still to sign: at 80 columns `SIGNERS_A_LINE` addresses a line, the
 * next lines aligned under the first; with `--wide` one line.
 *
 * @since 0.13.0
 * @category output
 */
export const stillToSign = (reminders: ReadonlyArray<string>, layout: Output.Layout): ReadonlyArray<string> => {
  if (reminders.length === 0) return ["still to sign: (none: it waits for an earlier transaction of the account)"]
  // A multisig key has up to 10 keys: at 80 columns the list goes on, aligned, on further lines.
  const size = layout.wide ? reminders.length : SIGNERS_A_LINE
  const groups = Array.from({ length: Math.ceil(reminders.length / size) }, (_, i) => reminders.slice(i * size, i * size + size).join(", "))
  return groups.map((group, i) => `${i === 0 ? "still to sign: " : " ".repeat(15)}${group}${i < groups.length - 1 ? "," : ""}`)
}

const statusText = (status: Multisig.SignatureStatus, layout: Output.Layout) =>
  [
    `${status.status}: weight ${status.signedWeight} of ${status.threshold} (this signature ${status.weight})`,
    ...(Multisig.isSubmitted(status) ? [`sent: ${status.transactionHash}`] : stillToSign(status.reminders ?? [], layout))
  ].join("\n")

// A status printed, then with --wait the receipt of what it sent.
const printStatus = (run: Argv.Run, print: Client.Print, s: Client.Settings, status: Multisig.SignatureStatus) =>
  Effect.gen(function*() {
    if (!Flags.isSet(run, M.wait) || !Multisig.isSubmitted(status)) {
      return yield* print(s.json ? Json.stringify(encodeStatus(status)) : Output.lines(statusText(status, s), s))
    }
    const receipt = yield* WalletClient.awaitReceipt(status.transactionHash)
    yield* print(
      s.json
        ? Json.stringify({ ...encodeStatus(status), receipt: encodeReceipt(receipt) })
        : `${Output.lines(statusText(status, s), s)}\n${receipt.status} in block ${receipt.blockNumber}, ${receipt.gasUsed} gas, ${receipt.signatures.length} sender signatures`
    )
  })

/**
 * Column titles of `pendingRow` (NEEDS: the weight its signatures must reach, its threshold).
 *
 * @since 0.8.0
 * @category formatting
 */
export const pendingHeader = ["TRANSACTION ID", "FROM", "TYPE", "NONCE", "SIGNERS", "NEEDS", "CREATED"] as const

/**
 * One pending transaction as table cells: its whole id (to give to `sign` and `append`) and each
 * signer with its weight; at 80 columns (not `--wide`) the id shortened and the signers' weights
 * only (`2+1+1`), in the order of `--wide`'s.
 *
 * @since 0.8.0
 * @category formatting
 */
export const pendingRow = (p: Multisig.PendingTransaction, layout: Output.Layout = { wide: true }): ReadonlyArray<string> => [
  layout.wide ? p.transactionId : Output.short(p.transactionId),
  Output.short(p.address),
  String(p.txData.typeInt),
  String(p.txData.nonce),
  layout.wide ? p.multiSigKeys.map((k) => `${Output.short(k.address)}×${k.weight}`).join(" ") : p.multiSigKeys.map((k) => k.weight).join("+"),
  String(p.threshold),
  Output.time(p.createdAt)
]

const printMultisig = Client.printer(Multisig.MultisigAccount, (result, layout) =>
  [
    Output.lines(`${result.address} is multisig: weight ${result.threshold} of its keys signs (account update ${result.transactionHash})`, layout),
    Output.table(["PUBLIC KEY", "WEIGHT"], result.multiSigKeys.map((k) => [Output.short(k.publicKey, 12, 6), String(k.weight)]), "", layout)
  ].join("\n"))

const printSignature = Client.printer(
  Transaction.Signature,
  (signature) => Output.table(["FIELD", "VALUE"], [["V", signature.V], ["R", signature.R], ["S", signature.S]])
)

const update: Handler = (run) =>
  Effect.gen(function*() {
    const address = yield* Flags.argument(run, "address", Client.parseAddress)
    const threshold = yield* Flags.read(M.threshold, Flags.given(run, M.threshold), Flags.integer(1, Number.MAX_SAFE_INTEGER))
    if (Option.isNone(threshold)) return yield* ExitCode.invalid(`--${M.threshold.name} N is required: the weight the signatures must reach`)
    const raws = Option.getOrElse(Flags.givenList(run, M.keys), () => [])
    if (raws.length === 0) return yield* ExitCode.invalid(`--${M.keys.name} KEY[:WEIGHT]... is required: the signers`)
    const signers = yield* Effect.forEach(raws, (raw) =>
      Either.match(parseSigner(raw), { onLeft: (why) => Effect.fail(ExitCode.invalid(`--${M.keys.name} ${why}`)), onRight: Effect.succeed }))
    yield* Client.withClient(run, uses, { operation: "update-key", address }, (print, s) =>
      Effect.gen(function*() {
        // An address names an account of the pool: its public key is the signer's key.
        const weightedKeys = yield* Effect.forEach(signers, (signer) =>
          signer._tag === "PublicKey"
            ? Effect.succeed({ publicKey: signer.publicKey as string, weight: signer.weight })
            : Effect.map(WalletClient.getAccount(signer.address), (a) => ({ publicKey: a.publicKey as string, weight: signer.weight })))
        const result = yield* WalletClient.updateToMultisig(address, { threshold: threshold.value, weightedKeys })
        yield* printMultisig(print, s)(result)
      }))
  })

const pending: Handler = (run) =>
  Effect.gen(function*() {
    const address = yield* Flags.argument(run, "address", Client.parseAddress)
    const paging = yield* Client.paging(run)
    yield* Client.list(run, uses, {
      kind: "account",
      one: () => WalletClient.listMultisigTransactions(address, paging),
      pages: () => WalletClient.multisigTransactionPages(address, paging),
      item: Multisig.PendingTransaction,
      page: Multisig.PendingTransactionPage,
      header: pendingHeader,
      row: pendingRow,
      empty: "(nothing waits for signers)",
      noun: "pending transaction"
    })
  })

const sign: Handler = (run) =>
  Effect.gen(function*() {
    const signer = yield* Flags.argument(run, "signer", Client.parseAddress)
    const id = yield* Flags.argument(run, "transaction-id", parseTransactionId)
    yield* Client.withClient(run, uses, { operation: "sign", address: signer }, (print, s) =>
      Effect.flatMap(WalletClient.signMultisigTransaction(signer, id), (status) => printStatus(run, print, s, status)))
  })

const append: Handler = (run) =>
  Effect.gen(function*() {
    const id = yield* Flags.argument(run, "transaction-id", parseTransactionId)
    const raw = Flags.positional(run, "json")
    // Not a JSON document: a file or stdin holding one.
    const text = raw === "-" || !/^\s*[[{]/.test(raw)
      ? (yield* Payload.readDocument(raw, { file: "<json>", what: "the signatures" })).text
      : raw
    const parsed = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => ExitCode.invalid("<json> must be JSON: {\"V\",\"R\",\"S\"} or an array of them") })
    const decoded = yield* Either.match(decodeSignatures(parsed), {
      onLeft: () => Effect.fail(ExitCode.invalid("<json> must be {\"V\",\"R\",\"S\"} or an array of them, each 0x hex (as kas-wallet tx sign --json prints it)")),
      onRight: (s) => Effect.succeed(Array.isArray(s) ? s as ReadonlyArray<Transaction.Signature> : [s as Transaction.Signature])
    })
    yield* Client.withClient(run, uses, { operation: "sign" }, (print, s) =>
      Effect.flatMap(WalletClient.appendSignatures(id, decoded), (status) => printStatus(run, print, s, status)))
  })

/**
 * `kas-wallet tx sign <address> <transaction-id>`: an account's signature of a pending transaction.
 *
 * @since 0.8.0
 * @category commands
 */
export const signById: Handler = (run) =>
  Effect.gen(function*() {
    const address = yield* Flags.argument(run, "address", Client.parseAddress)
    const id = yield* Flags.argument(run, "transaction-id", parseTransactionId)
    yield* Client.withClient(run, uses, { operation: "sign", address }, (print, s) =>
      Effect.flatMap(WalletClient.signTransactionById(address, id), printSignature(print, s)))
  })

/**
 * The `accounts multisig` commands, by their words after `accounts`.
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = {
  "multisig update": update,
  "multisig pending": pending,
  "multisig sign": sign,
  "multisig append": append
} satisfies Handlers<typeof Table.Multisig.spec>
