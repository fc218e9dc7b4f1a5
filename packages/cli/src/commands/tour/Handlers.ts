/**
 * `kas-wallet tour` (`npm start`): a walk through the library against an emulator started
 * in-process on a temporary database, with the real client over loopback HTTP. No credentials, no
 * network, and no secret is printed.
 *
 * @since 0.1.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { Chunk, Config, Console, Duration, Effect, Layer, Option, Schedule, Stream } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Address, Amount, ChainId, FeeDelegation, Multisig, Transaction, TransactionKind, WalletClient, WalletConfig } from "effect-kas-wallet"
import * as Abi from "effect-kas-wallet/Abi"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import * as Wire from "effect-kas-wallet/Wire"
import { Emulator } from "effect-kas-wallet-emulator"
import * as ExitCode from "../../output/ExitCode.js"
import * as Output from "../../output/Output.js"
import * as KasToken from "../../tour/KasToken.js"
import type { Handlers } from "../Handler.js"
import * as Table from "../Spec.js"

// The tour fits 80 columns: a step's routes go on lines of their own, split between routes.
const step = (n: number, title: string, wire?: string) =>
  Console.log(`\n${n}. ${title}${wire !== undefined ? `\n${routes(wire)}` : ""}`)
const routes = (wire: string) =>
  wire.split(", ").reduce<Array<string>>((lines, part, i) => {
    const last = lines.length - 1
    const joined = i === 0 ? `   (${part}` : `${lines[last]}, ${part}`
    if (i === 0) lines.push(joined)
    else if ([...joined].length + 1 <= Output.Width) lines[last] = joined
    else {
      lines[last] = `${lines[last]},`
      lines.push(`    ${part}`)
    }
    return lines
  }, []).join("\n") + ")"
// Lines wider than 80 columns (a KRN with its member id) shortened as every table is.
const say = (text: string) => Console.log(Output.lines(text.split("\n").map((line) => `   ${line}`).join("\n")))
// A submitted transaction: its hash, then its Klaytn type on a line of its own.
const submitted = (hash: string, what: string, typeInt: number, more = "") =>
  `submitted ${Output.short(hash, 10, 6)}${what}\n  a signed Klaytn ${Wire.typeName(typeInt)} (type ${typeInt})${more}`
const klay = (peb: bigint) => `${Amount.formatKlay(peb as Amount.Peb)} KLAY`
// KAST has 18 decimals, as KLAY has: the same formatting, another unit.
const kast = (units: bigint) => `${Amount.formatKlay(units as Amount.Peb)} KAST`
const signed = <E, R>(result: Effect.Effect<Transaction.TransactionResult, E, R>) =>
  Effect.filterOrDieMessage(result, Transaction.isSigned, "the tour's accounts but its treasury are not multisig: a transaction is signed at once")
// The tour's emulator makes a block every quarter second (KAS_EMULATOR_BLOCK_INTERVAL, the
// emulator's variable, changes it), and the tour asks for receipts as often.
const BlockInterval = Config.duration("KAS_EMULATOR_BLOCK_INTERVAL").pipe(Config.withDefault(Duration.millis(250)))
const rows = (accounts: ReadonlyArray<Parameters<typeof Output.accountRow>[0]>) =>
  say(Output.table(Output.accountHeader, accounts.map((a) => Output.accountRow(a, true))))

/**
 * The tour itself, given an emulator and a client pointed at it.
 *
 * @since 0.1.0
 * @category programs
 */
export const program = Effect.gen(function*() {
  const emulator = yield* Emulator.Emulator
  const polling = { schedule: Schedule.spaced(emulator.blockInterval) }
  const started = Math.floor(Date.now() / 1000)
  yield* Console.log("effect-kas-wallet tour: the typed Effect client against a local wallet emulator")
  yield* step(1, "Start the emulator in-process, on a temporary database")
  yield* say([
    `listening on ${emulator.url}`,
    `member ${emulator.member.accountId}, key ${emulator.member.accessKeyId} (its secret stays in memory)`,
    "below: the real WalletClient, over loopback HTTP, with HTTP Basic auth"
  ].join("\n"))

  yield* step(2, "Create three accounts in the default pool", `${Table.Route.route("createAccount")}, no x-krn`)
  const created = yield* Effect.forEach([1, 2, 3], () => WalletClient.createAccount())
  yield* rows(created)

  yield* step(3, "Create a named pool in the console, and two accounts in it", `${Table.Route.route("createAccount")}, x-krn: <pool KRN>`)
  const payroll = yield* emulator.createPool({ accountId: emulator.member.accountId, chainId: ChainId.Testnet, name: "payroll" })
  yield* say(`pool ${payroll.krn.toString()}`)
  const inPool = yield* Effect.forEach([1, 2], () => WalletClient.createAccount()).pipe(WalletConfig.withPool(payroll.krn))
  yield* rows(inPool)

  yield* step(4, "Get one account back by address (any case; decoded to its EIP-55 form)", Table.Route.route("getAccount"))
  const one = yield* WalletClient.getAccount(created[0]!.address.toLowerCase())
  yield* say(Output.accountDetails(one))

  yield* step(5, "Page through the default pool by hand: size 2, then follow the cursor", `${Table.Route.route("listAccounts")}?size=2&cursor=…`)
  let cursor = ""
  let page = 0
  do {
    const result = yield* WalletClient.listAccounts({ pageSize: 2, cursor })
    page++
    yield* say(`page ${page}: ${result.items.map((a) => Output.short(a.address)).join(", ")}  →  cursor ${result.cursor === "" ? "\"\" (last page)" : Output.short(result.cursor, 12, 6)}`)
    cursor = result.cursor
  } while (cursor !== "")

  yield* step(6, "Stream every account of both pools with the Stream API, in a time range", "pages of 2, each pool in turn")
  const range = { from: started - 60, to: started + 3600 }
  const streamed = yield* Stream.concat(
    WalletClient.accounts({ pageSize: 2, ...range }),
    WalletClient.accounts({ pageSize: 2, ...range, pool: payroll.krn })
  ).pipe(Stream.runCollect)
  yield* say(`${Chunk.size(streamed)} accounts streamed from ${Output.time(range.from)} to ${Output.time(range.to)} UTC:`)
  yield* rows(Chunk.toReadonlyArray(streamed))

  yield* step(7, "Catch a typed error: an address that is not in the pool", "400 {code: 1061010} → AccountNotFound")
  const stranger = Option.getOrThrow(Address.checksum(`0x${"00".repeat(19)}42`))
  const caught = yield* WalletClient.getAccount(stranger).pipe(
    Effect.as("not expected: the account exists"),
    Effect.catchTag("AccountNotFound", (e) => Effect.succeed(`caught AccountNotFound: HTTP ${e.status}, code ${e.code}, "${e.serviceMessage}"`))
  )
  yield* say(caught)

  yield* step(8, "Fund an account, send 1.5 KLAY with global fee delegation, await the receipt", Table.Route.route("feeDelegatedValueTransfer"))
  const sender = created[0]!
  const receiver = created[1]!
  const funded = yield* emulator.fund(ChainId.Testnet, sender.address, 10n * Amount.PebPerKlay)
  yield* say(`the console credits ${klay(funded.balance)} to ${Output.short(sender.address)} (the wire API has no faucet)`)
  const sent = yield* WalletClient.transferValue({
    from: sender.address,
    to: receiver.address,
    value: Amount.PebPerKlay * 3n / 2n,
    feePayer: FeeDelegation.global,
    feeRatio: 30
  }).pipe(signed)
  yield* say(submitted(sent.transactionHash, `, nonce ${sent.nonce}`, sent.typeInt))
  const receipt = yield* WalletClient.awaitReceipt(sent.transactionHash, polling)
  const fee = BigInt(receipt.gasUsed) * sent.gasPrice
  const globalShare = fee * 30n / 100n
  const bill = (yield* emulator.feeBills({ accountId: emulator.member.accountId, chainId: ChainId.Testnet }))[0]
  const [after, received] = yield* Effect.all([
    emulator.balance(ChainId.Testnet, sender.address),
    emulator.balance(ChainId.Testnet, receiver.address)
  ])
  yield* say([
    `${receipt.status} in block ${receipt.blockNumber}: ${receipt.gasUsed} gas at ${sent.gasPrice / Amount.PebPerSton} ston, a fee of ${klay(fee)}`,
    `the global fee payer paid 30%, ${klay(globalShare)}; the member's bill: ${klay(bill?.fees ?? 0n)}`,
    `the sender paid 1.5 KLAY and the other 70%: ${klay(funded.balance)} → ${klay(after.balance)}`,
    `the recipient holds ${klay(received.balance)}`
  ].join("\n"))

  yield* step(
    9,
    "Deploy a token, transfer some, read balances; the global fee payer pays",
    `${Table.Route.route("feeDelegatedContractDeploy")}, ${Table.Route.path("feeDelegatedContractExecution")}, ${Table.Route.path("callContract")}`
  )
  const supply = 1_000_000n * 10n ** 18n
  const input = yield* Abi.deployInput(KasToken.bytecode, "constructor(uint256 initialSupply)", [supply])
  const deploying = yield* WalletClient.send(TransactionKind.ContractDeploy({ input }), { from: sender.address, feePayer: FeeDelegation.global }).pipe(signed)
  yield* say(
    submitted(deploying.transactionHash, `: KasToken's code, initialSupply ${kast(supply)}`, deploying.typeInt, `, ${(input.length - 2) / 2} bytes`)
  )
  const deployed = yield* WalletClient.awaitReceipt(deploying.transactionHash, polling)
  const token = deployed.contractAddress
  if (deployed.status !== "Committed" || token === undefined || token === null || token === "") {
    return yield* Effect.dieMessage(`the token's deployment failed: ${deployed.status}${deployed.txError !== undefined ? `, txError ${deployed.txError}` : ""}`)
  }
  yield* say(`${deployed.status} in block ${deployed.blockNumber}, ${deployed.gasUsed} gas\ntoken ${token} (receipt.contractAddress)`)

  const transfer = yield* Abi.fn("transfer(address to, uint256 value) returns (bool)")
  const amount = 250n * 10n ** 18n
  const calldata = yield* Abi.encodeCall(transfer, [receiver.address, amount])
  const executing = yield* WalletClient.send(TransactionKind.ContractExecution({ to: token, input: calldata }), {
    from: sender.address,
    feePayer: FeeDelegation.global
  }).pipe(signed)
  yield* say(submitted(executing.transactionHash, `: transfer(${Output.short(receiver.address)}, ${kast(amount)})`, executing.typeInt))
  const executed = yield* WalletClient.awaitReceipt(executing.transactionHash, polling)
  const Transfer = yield* Abi.event("Transfer(address indexed from, address indexed to, uint256 value)")
  const logs = yield* Abi.decodeLogs(Transfer, executed.logs ?? [])
  yield* say([
    `${executed.status} in block ${executed.blockNumber}, ${executed.gasUsed} gas; its Transfer log, decoded:`,
    ...logs.map((log) => {
      const { from, to, value } = log.args as { readonly from: string; readonly to: string; readonly value: bigint }
      return `  from ${Output.short(from)} to ${Output.short(to)}, value ${value} (${kast(value)})`
    })
  ].join("\n"))

  const balanceOf = yield* Abi.fn("balanceOf(address owner) view returns (uint256)")
  const balances = yield* Effect.forEach([sender, receiver], (account) =>
    Effect.gen(function*() {
      const { result } = yield* WalletClient.callContract({ to: token, ...(yield* Abi.callArguments(balanceOf, [account.address])) })
      const [balance] = yield* Abi.decodeResult(balanceOf, result)
      return `${Output.short(account.address)} holds ${kast(balance as bigint)}`
    }))
  const [spent, billed] = yield* Effect.all([
    emulator.balance(ChainId.Testnet, sender.address),
    emulator.feeBills({ accountId: emulator.member.accountId, chainId: ChainId.Testnet })
  ])
  yield* say([
    "balanceOf through callContract (read only, nothing signed):",
    `  ${balances.join(", ")}`,
    `the sender paid no fee: it still holds ${klay(spent.balance)}`,
    `the member's bill: ${klay(billed[0]?.fees ?? 0n)} for ${billed[0]?.transactions ?? 0} transactions`
  ].join("\n"))

  yield* step(
    10,
    "Relay a user's own signed transaction, reliably; the global fee payer pays",
    Table.Route.route("feeDelegatedProcessRlp")
  )
  // The user's wallet: a key that never reaches the service, and an address outside every pool.
  const userKey = Klaytn.randomPrivateKey()
  const user = yield* Klaytn.addressOfKey(userKey)
  yield* emulator.fund(ChainId.Testnet, user, Amount.PebPerKlay)
  const userTx = yield* Klaytn.makeTransaction({
    kind: "value",
    from: user,
    to: receiver.address,
    value: Amount.PebPerKlay / 4n,
    nonce: 0,
    gas: 100_000,
    gasPrice: 25_000_000_000n,
    feeDelegated: true
  })
  const rlp = `0x${Buffer.from(yield* Klaytn.signAsSender(userTx, { chainId: ChainId.Testnet, sender: userKey })).toString("hex")}`
  yield* say([
    `the user ${Output.short(user)} signs a TxTypeFeeDelegatedValueTransfer of 0.25 KLAY`,
    `  ${(rlp.length - 2) / 2} bytes of RLP, signed with a key the service never sees`
  ].join("\n"))
  // Signed first (its hash known before it is sent), then submitted: a lost answer cannot hide it.
  const relayed = yield* WalletClient.sendReliably(TransactionKind.RawTransaction({ rlp }), { feePayer: FeeDelegation.global }).pipe(signed)
  const settled = yield* WalletClient.awaitReceipt(relayed.transactionHash, polling)
  const userAfter = yield* emulator.balance(ChainId.Testnet, user)
  yield* say([
    `submitted ${Output.short(relayed.transactionHash, 10, 6)}, verified: the user's own transaction`,
    `  with the global fee payer's signature added${"feePayer" in relayed ? ` (${Output.short(relayed.feePayer)})` : ""}`,
    `${settled.status} in block ${settled.blockNumber}: the user paid no fee, 1 KLAY → ${klay(userAfter.balance)}`
  ].join("\n"))

  yield* step(
    11,
    "A multisig treasury: two of three signers send from it",
    `${Table.Route.route("updateToMultisig")}, ${Table.Route.route("signMultisigTransaction", { address: "signer", "transaction-id": "id" })}`
  )
  const treasury = created[2]!
  const signers = [receiver, ...(yield* Effect.forEach([1, 2], () => WalletClient.createAccount()))]
  yield* emulator.fund(ChainId.Testnet, treasury.address, Amount.PebPerKlay)
  const updated = yield* WalletClient.updateToMultisig(treasury.address, {
    threshold: 2,
    weightedKeys: signers.map((s) => ({ publicKey: s.publicKey, weight: 1 }))
  })
  yield* WalletClient.awaitReceipt(updated.transactionHash, polling)
  yield* say([
    `${Output.short(treasury.address)} now needs 2 of the keys of ${signers.map((s) => Output.short(s.address)).join(", ")}`,
    `  (an account update it paid for, ${Output.short(updated.transactionHash, 10, 6)})`
  ].join("\n"))
  const waiting = yield* WalletClient.transferValue({ from: treasury.address, to: sender.address, value: Amount.PebPerKlay / 10n }).pipe(
    Effect.filterOrDieMessage(Transaction.isMultisigPending, "a multisig account's transaction waits for its signers")
  )
  yield* say(`a transfer of 0.1 KLAY from it waits: status ${waiting.status}, no signature yet\n  transaction id ${Output.short(waiting.transactionId, 10, 6)}`)
  const first = yield* WalletClient.signMultisigTransaction(signers[0]!.address, waiting.transactionId)
  yield* say([
    `${Output.short(signers[0]!.address)} signs: ${first.status}, weight ${first.signedWeight} of ${first.threshold}`,
    `  still to sign: ${(first.reminders ?? []).map((a) => Output.short(a)).join(", ")}`
  ].join("\n"))
  const second = yield* WalletClient.signMultisigTransaction(signers[1]!.address, waiting.transactionId).pipe(
    Effect.filterOrDieMessage(Multisig.isSubmitted, "the second of two signatures reaches the threshold")
  )
  const paid = yield* WalletClient.awaitReceipt(second.transactionHash, polling)
  yield* say([
    `${Output.short(signers[1]!.address)} signs: ${second.status} ${Output.short(second.transactionHash, 10, 6)}, weight ${second.signedWeight} of ${second.threshold}`,
    `${paid.status} in block ${paid.blockNumber} with ${paid.signatures.length} sender signatures; the treasury paid the fee`
  ].join("\n"))

  yield* Console.log([
    "",
    "Done. Next:",
    "   README.md, docs/client.md        the library: contracts, every kind, multisig",
    "   packages/cli/docs/cli.md         every command of kas-wallet, contracts too",
    "   packages/cli/src/tour/README.md  the token's source, and how to rebuild it",
    "   kas-wallet --help"
  ].join("\n"))
})

/**
 * The tour with its emulator (temporary database, removed afterwards) and client.
 *
 * @since 0.1.0
 * @category programs
 */
export const run = Effect.gen(function*() {
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "kas-wallet-tour-"))),
    (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
  )
  const blockInterval = yield* Effect.mapError(BlockInterval, (e) => new Error(`KAS_EMULATOR_BLOCK_INTERVAL: ${String(e)}`))
  const emulator = Emulator.layer({ database: join(dir, "emulator.db"), port: 0, blockInterval })
  const client = Layer.unwrapEffect(Effect.map(Emulator.Emulator, (e) =>
    WalletClient.layer({
      credentials: { accessKeyId: e.member.accessKeyId, secretAccessKey: e.member.secretAccessKey },
      chainId: ChainId.Testnet,
      baseUrl: e.url
    })
  ))
  yield* program.pipe(Effect.provide(client.pipe(Layer.provideMerge(emulator), Layer.provide(FetchHttpClient.layer))))
}).pipe(Effect.scoped)

/**
 * `kas-wallet tour`, as a command: a failure of the tour is unexpected (exit code 1).
 *
 * @since 0.9.0
 * @category commands
 */
export const handlers = {
  "": () =>
    run.pipe(
      Effect.mapError((e) => new ExitCode.Failure({ message: `the tour failed: ${e.message}`, code: ExitCode.ExitCode.Unexpected }))
    )
} satisfies Handlers<typeof Table.Tour.spec>
