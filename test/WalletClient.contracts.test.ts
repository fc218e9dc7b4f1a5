/**
 * Transactions as data on the wire: every kind with every fee payer goes to its route with its
 * body; arguments are checked before anything is sent; contract calls; the results and receipts
 * of contracts (the public spec's examples decode, tampered copies do not); the ABI layer.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, Schema } from "effect"
import { readFileSync } from "node:fs"
import * as Abi from "../src/Abi.js"
import { Address, FeeDelegation, Transaction, TransactionKind, WalletClient, type WalletError } from "../src/index.js"
import { testClient, withClient } from "./support/client.js"
import { poolKrn } from "./support/fakeWallet.js"
import { json } from "./support/recordingClient.js"

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/tx/${name}`, import.meta.url), "utf8"))
const deployResult = fixture("fd-contract-deploy-200-with-fee-ratio.json")
const executeResult = fixture("fd-user-contract-execute-200-success.json")
const logsReceipt = fixture("tx-receipt-200-contract-execution-receipt-which-has-logs.json")
const deployReceipt = fixture("tx-receipt-200-deploy-contract-receipt.json")
const multisigPending = fixture("tx-value-200-multisig-account-pending.json")

const from = "0x60d0902c428d0e197f97a756011fd4893c1e57b0"
const contract = "0x0e8a2e471b40ff8916d8524a52989b65908f5671"
const feePayer = "0x0e916319466895015cbcb453a1ff8c4134feb902"
const bytecode = deployResult.input as string
const checksummed = (a: string) => Option.getOrThrow(Address.checksum(a))

/**
 * A client answering every request with `body`, recording the requests and their JSON bodies.
 * The answer is one reference example whatever was asked, so results are not verified here
 * (verification: WalletClient.verify.test).
 */
const recording = (body: unknown) => {
  const bodies: Array<unknown> = []
  const test = testClient(() => json(200, body), {
    verifyResults: false,
    pool: poolKrn,
    transformClient: HttpClient.tapRequest((request) =>
      Effect.sync(() => {
        if (request.body._tag === "Uint8Array") bodies.push(JSON.parse(new TextDecoder().decode(request.body.body)))
      })
    )
  })
  return { test, bodies }
}

const kinds = [
  ["value", TransactionKind.ValueTransfer({ to: contract, value: 5n, memo: "hi" }), { to: checksummed(contract), value: "0x5", memo: "hi" }],
  ["contract/deploy", TransactionKind.ContractDeploy({ input: bytecode }), { input: bytecode }],
  ["contract/execute", TransactionKind.ContractExecution({ to: contract, input: "0xa9059cbb", value: 16n }), { to: checksummed(contract), input: "0xa9059cbb", value: "0x10" }]
] as const

const payers = [
  ["/v2/tx", {}, {}],
  ["/v2/tx/fd", { feePayer: FeeDelegation.global, feeRatio: 20 }, { feeRatio: 20 }],
  ["/v2/tx/fd-user", { feePayer: FeeDelegation.user(feePayer) }, { feePayer: "0x0E916319466895015cbcB453a1ff8c4134FEB902" }]
] as const

describe("send: every kind with every fee payer", () => {
  for (const [kind, tx, fields] of kinds) {
    for (const [prefix, options, payerFields] of payers) {
      it.effect(`${tx._tag} at ${prefix}/${kind}: the route, x-krn and the body`, () =>
        Effect.gen(function*() {
          const { bodies, test } = recording(executeResult)
          const result = yield* withClient(test, WalletClient.send(tx, { from, nonce: 3, ...options }))
          expect(Transaction.isSigned(result) && result.typeInt).toBe(49)
          const [request] = test.requests
          expect(request!.method).toBe("POST")
          expect(request!.url.pathname).toBe(`${prefix}/${kind}`)
          // A user fee payer's transaction names both pools; the others the account pool.
          expect(request!.headers["x-krn"]?.split(",")[0]).toBe(poolKrn)
          expect(request!.headers["x-krn"]?.split(",")).toHaveLength(prefix === "/v2/tx/fd-user" ? 2 : 1)
          expect(bodies).toEqual([{ from: "0x60d0902c428D0E197F97a756011Fd4893C1E57B0", nonce: 3, ...fields, ...payerFields }])
        }))
    }
  }

  it.effect("transferValue is send of a ValueTransfer: the same request", () =>
    Effect.gen(function*() {
      const a = recording(executeResult)
      const b = recording(executeResult)
      yield* withClient(a.test, WalletClient.transferValue({ from, to: contract, value: 7n, feePayer: FeeDelegation.global }))
      yield* withClient(b.test, WalletClient.send(TransactionKind.ValueTransfer({ to: contract, value: 7n }), { from, feePayer: FeeDelegation.global }))
      expect(a.bodies).toEqual(b.bodies)
      expect(a.test.requests.map((r) => r.url.pathname)).toEqual(b.test.requests.map((r) => r.url.pathname))
    }))
})

describe("send: bad arguments are refused before anything is sent", () => {
  const refused = [
    ["an odd number of hex digits", TransactionKind.ContractExecution({ to: contract, input: "0x123" }), "input"],
    ["calldata that is not hex", TransactionKind.ContractExecution({ to: contract, input: "a9059cbb" }), "input"],
    ["an empty bytecode", TransactionKind.ContractDeploy({ input: "0x" }), "input"],
    ["a contract at the zero address", TransactionKind.ContractExecution({ to: `0x${"0".repeat(40)}`, input: "0x" }), "to"],
    ["a malformed contract address", TransactionKind.ContractExecution({ to: "0x1234", input: "0x" }), "to"],
    ["a negative value", TransactionKind.ContractDeploy({ input: bytecode, value: -1n }), "value"]
  ] as const
  for (const [what, tx, argument] of refused) {
    it.effect(`${what}: InvalidArgument naming ${argument}`, () =>
      Effect.gen(function*() {
        const { test } = recording(executeResult)
        const error = yield* withClient(test, Effect.flip(WalletClient.send(tx, { from })))
        expect(error._tag).toBe("InvalidArgument")
        expect((error as WalletError.InvalidArgument).argument).toBe(argument)
        expect(test.requests).toHaveLength(0)
      }))
  }

  it.effect("a fee ratio without a fee payer (a type error) is refused at run time too", () =>
    Effect.gen(function*() {
      const { test } = recording(executeResult)
      const options = { from, feeRatio: 30 } as unknown as WalletClient.SendOptions
      const error = yield* withClient(test, Effect.flip(WalletClient.send(TransactionKind.ContractDeploy({ input: bytecode }), options)))
      expect((error as WalletError.InvalidArgument).argument).toBe("feeRatio")
      expect(test.requests).toHaveLength(0)
    }))
})

describe("callContract", () => {
  const callResult = { data: "0x70a0823100000000000000000000000085b98485444c89880cd9c48807cef727c296f2da", result: `0x${"0".repeat(40)}3635c9adc5dea00000` }

  it.effect("POST /v2/tx/contract/call with the method and typed arguments (bigints as decimal strings); the result decoded", () =>
    Effect.gen(function*() {
      const { bodies, test } = recording(callResult)
      const result = yield* withClient(test, WalletClient.callContract({
        to: contract,
        method: "balanceOf",
        arguments: [{ type: "address", value: feePayer }, { type: "uint256[]", value: [1n, 2] }]
      }))
      expect(result).toEqual(callResult)
      expect(test.requests[0]!.url.pathname).toBe("/v2/tx/contract/call")
      expect(test.requests[0]!.headers["x-krn"]).toBeUndefined()
      expect(bodies).toEqual([{
        to: checksummed(contract),
        data: { methodName: "balanceOf", arguments: [{ type: "address", value: feePayer }, { type: "uint256[]", value: ["1", 2] }] }
      }])
    }))

  const refused = [
    ["an unknown ABI type", { type: "uint7", value: 1 }],
    ["a value out of its type's range", { type: "uint8", value: 256 }],
    ["an address that is not one", { type: "address", value: "0x12" }],
    ["a fixed array of the wrong length", { type: "bool[2]", value: [true] }],
    ["bytes32 of the wrong size", { type: "bytes32", value: "0x00" }],
    ["a type nested 20,000 arrays deep", { type: `uint8${"[]".repeat(20_000)}`, value: [] }]
  ] as const
  for (const [what, argument] of refused) {
    it.effect(`${what}: InvalidArgument, nothing sent`, () =>
      Effect.gen(function*() {
        const { test } = recording(callResult)
        const error = yield* withClient(test, Effect.flip(WalletClient.callContract({ to: contract, method: "f", arguments: [argument] })))
        expect(error._tag).toBe("InvalidArgument")
        expect(test.requests).toHaveLength(0)
      }))
  }

  it.effect("a method name that is not an identifier is refused", () =>
    Effect.gen(function*() {
      const { test } = recording(callResult)
      const error = yield* withClient(test, Effect.flip(WalletClient.callContract({ to: contract, method: "balanceOf(address)" })))
      expect(error._tag).toBe("InvalidArgument")
      expect(test.requests).toHaveLength(0)
    }))

  it.effect("a result that is not hex bytes is a decoding failure", () =>
    Effect.gen(function*() {
      const { test } = recording({ data: "0x", result: "0x123" })
      const error = yield* withClient(test, Effect.flip(WalletClient.callContract({ to: contract, method: "f" })))
      expect(error._tag).toBe("ResponseDecodeError")
    }))
})

describe("results and receipts of contracts", () => {
  const decodeResult = Schema.decodeUnknownEither(Transaction.TransactionResult)
  const decodeReceipt = Schema.decodeUnknownEither(Transaction.TransactionReceipt)

  it("the spec's deploy (42) and execution (49) results decode; a deploy has no recipient", () => {
    const deploy = Either.getOrThrow(decodeResult(deployResult))
    expect(deploy.typeInt).toBe(42)
    expect(deploy.to).toBeUndefined()
    expect(Transaction.isFeeDelegatedResult(deploy) && deploy.feeRatio).toBe(20)
    const execute = Either.getOrThrow(decodeResult(executeResult))
    expect(execute.typeInt).toBe(49)
  })

  it("only a deployment's result may leave out the recipient", () => {
    const { to: _to, ...withoutTo } = executeResult
    expect(Either.isLeft(decodeResult(withoutTo))).toBe(true)
    const { to: _valueTo, ...valueWithoutTo } = fixture("tx-value-200-success.json")
    expect(Either.isLeft(decodeResult(valueWithoutTo))).toBe(true)
    const { to: _pendingTo, ...pendingWithoutTo } = multisigPending
    expect(Either.isLeft(decodeResult(pendingWithoutTo))).toBe(true)
    expect(Either.isRight(decodeResult(deployResult))).toBe(true)
  })

  it("a multisig sender's result is pending, with a transaction id and no hash", () => {
    const pending = Either.getOrThrow(decodeResult(multisigPending))
    expect(Transaction.isMultisigPending(pending)).toBe(true)
    expect(Transaction.isSigned(pending)).toBe(false)
    expect(Transaction.isMultisigPending(pending) && pending.transactionId).toBe(multisigPending.transactionId)
  })

  it("the receipts of a deployment (contract address) and an execution (logs, bloom) decode", () => {
    const deployed = Either.getOrThrow(decodeReceipt(deployReceipt))
    expect(deployed.status === "Committed" && deployed.contractAddress).toBe(checksummed(deployReceipt.contractAddress))
    const executed = Either.getOrThrow(decodeReceipt(logsReceipt))
    expect(executed.status === "Committed" && executed.logs?.length).toBe(2)
    const log = executed.status === "Committed" ? executed.logs![1]! : undefined
    expect(log?.topics).toEqual(logsReceipt.logs[1].topics)
    expect(log?.logIndex).toBe(1)
  })

  const tampered: ReadonlyArray<readonly [string, (r: any) => unknown]> = [
    ["a topic of 31 bytes", (r) => ({ ...r, logs: [{ ...r.logs[0], topics: [r.logs[0].topics[0].slice(0, -2)] }] })],
    ["five topics", (r) => ({ ...r, logs: [{ ...r.logs[0], topics: Array(5).fill(r.logs[0].topics[0]) }] })],
    ["log data of an odd length", (r) => ({ ...r, logs: [{ ...r.logs[0], data: `${r.logs[0].data}0` }] })],
    ["a log without an address", (r) => ({ ...r, logs: [{ ...r.logs[0], address: undefined }] })],
    ["a bloom of 255 bytes", (r) => ({ ...r, logsBloom: r.logsBloom.slice(0, -2) })],
    ["a contract address that is not one", (r) => ({ ...r, contractAddress: "0x1234" })]
  ]
  for (const [what, tamper] of tampered) {
    it(`a receipt with ${what} does not decode`, () => {
      expect(Either.isLeft(decodeReceipt(tamper(logsReceipt)))).toBe(true)
    })
  }
})

describe("Abi (effect-kas-wallet/Abi)", () => {
  const holder = "0x85b98485444c89880cd9c48807cef727c296f2da"

  it("calldata of a call: selector and arguments (the spec's balanceOf example)", () => {
    const balanceOf = Either.getOrThrow(Abi.fn("balanceOf(address) view returns (uint256)"))
    expect(balanceOf.signature).toBe("balanceOf(address)")
    expect(Either.getOrThrow(Abi.encodeCall(balanceOf, [holder]))).toBe("0x70a0823100000000000000000000000085b98485444c89880cd9c48807cef727c296f2da")
    const [balance] = Either.getOrThrow(Abi.decodeResult(balanceOf, `0x${"0".repeat(46)}3635c9adc5dea00000`))
    expect(balance).toBe(1000n * 10n ** 18n)
  })

  it("callArguments: the method and typed arguments callContract takes", () => {
    const transfer = Either.getOrThrow(Abi.fn("function transfer(address to, uint256 amount) returns (bool)"))
    // The canonical signature: types only, whatever the names.
    expect(transfer.signature).toBe("transfer(address,uint256)")
    expect(Either.getOrThrow(Abi.event("Transfer(address indexed from, address indexed to, uint256 value)")).signature).toBe("Transfer(address,address,uint256)")
    expect(Either.getOrThrow(Abi.callArguments(transfer, [holder, 10n ** 30n]))).toEqual({
      method: "transfer",
      arguments: [{ type: "address", value: holder }, { type: "uint256", value: (10n ** 30n).toString() }]
    })
  })

  it("Transfer logs decode by their event; other logs are skipped", () => {
    const transfer = Either.getOrThrow(Abi.event("Transfer(address indexed from, address indexed to, uint256 value)"))
    expect(transfer.topic).toBe("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
    const word = (hex: string) => `0x${hex.replace(/^0x/, "").padStart(64, "0")}`
    const logs = [
      { address: contract, topics: [logsReceipt.logs[0].topics[0]], data: "0x" },
      { address: contract, topics: [transfer.topic, word(from), word(holder)], data: word("2a") }
    ]
    const decoded = Either.getOrThrow(Abi.decodeLogs(transfer, logs as any))
    expect(decoded).toHaveLength(1)
    expect(decoded[0]!.index).toBe(1)
    expect(decoded[0]!.args).toEqual({ from: "0x60d0902c428D0E197F97a756011Fd4893C1E57B0", to: "0x85B98485444c89880cD9C48807CEF727C296F2da", value: 42n })
  })

  it("deployInput appends the encoded constructor arguments to the bytecode", () => {
    expect(Either.getOrThrow(Abi.deployInput("0x6080", "constructor(uint256 supply)", [1n]))).toBe(`0x6080${"0".repeat(63)}1`)
    expect(Either.getOrThrow(Abi.deployInput("0x6080"))).toBe("0x6080")
  })

  const refused: ReadonlyArray<readonly [string, () => Either.Either<unknown, WalletError.InvalidArgument>, string]> = [
    ["a signature that does not parse", () => Abi.fn("transfer(address,"), "signature"],
    ["too few arguments", () => Either.flatMap(Abi.fn("transfer(address,uint256)"), (f) => Abi.encodeCall(f, [holder])), "args"],
    ["an argument of the wrong type", () => Either.flatMap(Abi.fn("transfer(address,uint256)"), (f) => Abi.encodeCall(f, ["nope", 1n])), "args"],
    ["a result that does not decode", () => Either.flatMap(Abi.fn("f() returns (uint256)"), (f) => Abi.decodeResult(f, "0x01")), "data"],
    ["constructor arguments without a constructor", () => Abi.deployInput("0x6080", undefined, [1n]), "args"],
    ["a bytecode that is not hex", () => Abi.deployInput("6080"), "bytecode"]
  ]
  for (const [what, run, argument] of refused) {
    it(`${what}: InvalidArgument naming ${argument}, never a throw`, () => {
      const result = run()
      expect(Either.isLeft(result) && result.left._tag).toBe("InvalidArgument")
      expect(Either.isLeft(result) && result.left.argument).toBe(argument)
    })
  }
})
