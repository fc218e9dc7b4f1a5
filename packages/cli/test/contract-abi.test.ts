/**
 * The ABI side of `kas-wallet tx deploy | execute | call | receipt --event` without a server:
 * argument words read as their ABI types, signatures, bytecode files, decoded outputs and logs, and
 * how results and receipts of contracts print (the service's own examples of receipts).
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { Transaction } from "effect-kas-wallet"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Contract from "../src/commands/tx/Contract.js"
import * as TxCommand from "../src/commands/tx/Handlers.js"
import * as Token from "../src/tour/KasToken.js"

const fixture = (name: string) =>
  Schema.decodeUnknownSync(Transaction.TransactionReceipt)(
    JSON.parse(fs.readFileSync(new URL(`../../../test/fixtures/tx/${name}.json`, import.meta.url), "utf8"))
  )

const fn = (signature: string) => Either.getOrThrow(Contract.parseFunction("--method", signature))
const args = (signature: string, words: ReadonlyArray<string>) => {
  const f = fn(signature)
  return Contract.values("--args", Contract.signatureOf(f.name, f.item.inputs), f.item.inputs, words)
}
const refusal = <A>(e: Either.Either<A, string>) => Either.isLeft(e) ? e.left : `accepted: ${String(e.right)}`

describe("--args, read by the ABI types of the signature", () => {
  it("integers (decimal or 0x, exact bigints), addresses, bools, text, bytes, arrays and tuples as JSON", () => {
    const big = "115792089237316195423570985008687907853269984665640564039457584007913129639935"
    expect(args("f(uint256,uint256,int8,int256)", [big, "0xff", "-128", "-0x10"])).toEqual(Either.right([2n ** 256n - 1n, 255n, -128n, -16n]))
    // An address in lower case comes out with its checksum; a checksummed one stays.
    expect(args("f(address,address)", ["0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa", "0xa809284C83b901eD106Aba4Ccda14628Af128e14"])).toEqual(
      Either.right(["0x5053e2f0dDe795c423A2b7f551C873f6Ef6F4Daa", "0xa809284C83b901eD106Aba4Ccda14628Af128e14"])
    )
    expect(args("f(bool,bool,string,string)", ["true", "false", "two words", ""])).toEqual(Either.right([true, false, "two words", ""]))
    expect(args("f(bytes,bytes,bytes2)", ["0x", "0xABcd", "0x0102"])).toEqual(Either.right(["0x", "0xabcd", "0x0102"]))
    expect(args("f(uint256[],uint8[2][],address[])", ["[1,\"0x10\",\"" + big + "\"]", "[[1,2],[3,4]]", "[]"])).toEqual(
      Either.right([[1n, 16n, 2n ** 256n - 1n], [[1n, 2n], [3n, 4n]], []])
    )
    expect(args("f((uint256 a,bool b),(uint256 a,bool b)[])", ["[7,true]", "[{\"a\":\"8\",\"b\":false}]"])).toEqual(
      Either.right([[7n, true], [[8n, false]]])
    )
    expect(args("f()", [])).toEqual(Either.right([]))
  })

  it("refuses each word that is not of its type, naming the argument, its type and the rule", () => {
    expect(refusal(args("transfer(address to,uint256 value)", ["0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"]))).toBe(
      "--args: transfer(address,uint256) takes 2 arguments (address to, uint256 value), got 1"
    )
    expect(refusal(args("totalSupply()", ["1"]))).toBe("--args: totalSupply() takes no arguments (got 1)")
    expect(refusal(args("f(uint256)", ["1.5"]))).toBe("--args: argument 1 (uint256) must be an integer, decimal or 0x (got 1.5)")
    expect(refusal(args("f(uint256)", ["1e18"]))).toBe("--args: argument 1 (uint256) must be an integer, decimal or 0x (got 1e18)")
    expect(refusal(args("f(uint256)", ["-1"]))).toBe("--args: argument 1 (uint256) must be an integer from 0 to 2^256-1 (got -1)")
    expect(refusal(args("f(uint256)", [`0x1${"0".repeat(64)}`]))).toMatch(/^--args: argument 1 \(uint256\) must be an integer from 0 to 2\^256-1 \(got 0x10{64}\)$/)
    expect(refusal(args("f(int8 x)", ["128"]))).toBe("--args: argument 1 (int8 x) must be an integer from -2^7 to 2^7-1 (got 128)")
    expect(refusal(args("f(uint8)", ["256"]))).toBe("--args: argument 1 (uint8) must be an integer from 0 to 2^8-1 (got 256)")
    expect(refusal(args("f(address,address)", ["0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa", "0x12"]))).toBe(
      "--args: argument 2 (address) must be an address, 0x and 40 hex digits (got 0x12)"
    )
    expect(refusal(args("f(address)", ["0xa809284c83b901eD106Aba4Ccda14628Af128e14"]))).toMatch(/^--args: argument 1 \(address\) has a wrong EIP-55 checksum/)
    expect(refusal(args("f(bool)", ["yes"]))).toBe("--args: argument 1 (bool) must be true or false (got yes)")
    expect(refusal(args("f(bytes)", ["0x123"]))).toBe("--args: argument 1 (bytes) must be 0x and an even number of hex digits (got 0x123)")
    expect(refusal(args("f(bytes32)", ["0x12"]))).toBe("--args: argument 1 (bytes32) must be 0x and 64 hex digits (got 0x12)")
    expect(refusal(args("f(uint256[])", ["[1,"]))).toBe("--args: argument 1 (uint256[]) must be a JSON array, e.g. [1,2] (got [1,)")
    expect(refusal(args("f(uint256[])", ["5"]))).toBe("--args: argument 1 (uint256[]) must be a JSON array (got 5)")
    expect(refusal(args("f(uint8[2])", ["[1,2,3]"]))).toBe("--args: argument 1 (uint8[2]) must have 2 elements (got 3)")
    expect(refusal(args("f(uint256[])", ["[1,12345678901234567890]"]))).toBe(
      "--args: argument 1 (uint256[]) [1] is a JSON number beyond 2^53, which JSON cannot hold exactly: write large integers as strings (\"123...\")"
    )
    expect(refusal(args("f(uint256[][])", ["[[1],[true]]"]))).toBe("--args: argument 1 (uint256[][]) [1] [0] must be an integer, decimal or 0x (got true)")
    expect(refusal(args("f((uint256 a,bool b))", ["[1]"]))).toBe("--args: argument 1 ((uint256,bool)) must have 2 elements (got 1)")
  })
})

describe("signatures", () => {
  it("functions with or without names, returns and the keyword; constructors and events", () => {
    expect(fn("transfer(address,uint256)").item.inputs.map((p) => p.type)).toEqual(["address", "uint256"])
    expect(fn("function balanceOf(address owner) view returns (uint256 balance)").item.outputs).toEqual([{ type: "uint256", name: "balance" }])
    expect(Either.getOrThrow(Contract.parseConstructor("--constructor", "constructor(uint256 supply)")).inputs).toEqual([{ type: "uint256", name: "supply" }])
    expect(Either.getOrThrow(Contract.parseConstructor("--constructor", "(uint256,address)")).inputs.map((p) => p.type)).toEqual(["uint256", "address"])
    expect(Either.getOrThrow(Contract.parseEvent("--event", "Transfer(address indexed from,address indexed to,uint256 value)")).topic).toBe(
      "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
    )
  })

  it("a signature that does not parse is one line saying how to write it", () => {
    expect(refusal(Contract.parseFunction("--method", "transfer(adress,uint256)"))).toBe(
      "--method is not a function's signature (Unknown type; got transfer(adress,uint256)): write it as name(type,...), e.g. \"transfer(address,uint256)\" or \"balanceOf(address) returns (uint256)\""
    )
    expect(refusal(Contract.parseFunction("--method", "transfer"))).toMatch(/^--method is not a function's signature \(no parameter list; got transfer\): write it as/)
    expect(refusal(Contract.parseFunction("--method", "balanceOf(address) returns (uint256"))).toMatch(/^--method is not a function's signature \(/)
    expect(refusal(Contract.parseConstructor("--constructor", "constructor(uint257)"))).toMatch(
      /^--constructor is not a constructor's signature \(Unknown type; got constructor\(uint257\)\): write it as "constructor\(type,\.\.\.\)"/
    )
    expect(refusal(Contract.parseEvent("--event", "Transfer(address indexed from"))).toMatch(/^--event is not an event's signature \(/)
  })
})

describe("bytecode", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kas-cli-bytecode-"))
  const file = (name: string, text: string) => {
    const p = path.join(dir, name)
    fs.writeFileSync(p, text)
    return p
  }
  const code = Token.bytecode.toLowerCase()

  it("a file of hex (0x optional, line breaks ignored) or a JSON artifact (Hardhat, Foundry, solc)", () => {
    expect(Contract.readBytecodeFile("--bytecode-file", file("a.bin", `${code.slice(2, 100)}\n${code.slice(100)}\n`))).toEqual(Either.right(code))
    expect(Contract.readBytecodeFile("--bytecode-file", file("b.bin", Token.bytecode))).toEqual(Either.right(code))
    expect(Contract.readBytecodeFile("--bytecode-file", file("hardhat.json", JSON.stringify({ abi: [], bytecode: Token.bytecode })))).toEqual(Either.right(code))
    expect(Contract.readBytecodeFile("--bytecode-file", file("forge.json", JSON.stringify({ bytecode: { object: Token.bytecode } })))).toEqual(Either.right(code))
    expect(Contract.readBytecodeFile("--bytecode-file", file("solc.json", JSON.stringify({ evm: { bytecode: { object: code.slice(2) } } })))).toEqual(Either.right(code))
  })

  it("refuses what is not bytecode, in one line", () => {
    expect(refusal(Contract.readBytecodeFile("--bytecode-file", path.join(dir, "missing.bin")))).toBe(`--bytecode-file cannot be read: ENOENT (${path.join(dir, "missing.bin")})`)
    const odd = file("odd.bin", "0x608")
    expect(refusal(Contract.readBytecodeFile("--bytecode-file", odd))).toBe(`--bytecode-file ${odd} must hold the bytecode as an even number of hex digits, 0x optional`)
    const empty = file("empty.bin", "\n")
    expect(refusal(Contract.readBytecodeFile("--bytecode-file", empty))).toBe(`--bytecode-file ${empty} must hold the bytecode as an even number of hex digits, 0x optional`)
    const abi = file("abi.json", JSON.stringify({ abi: [] }))
    expect(refusal(Contract.readBytecodeFile("--bytecode-file", abi))).toBe(`--bytecode-file ${abi} has no bytecode (a JSON artifact has bytecode, bytecode.object or evm.bytecode.object)`)
    const linked = file("linked.bin", `6080${"__$0123456789abcdef0123456789abcdef01$__"}00`)
    expect(refusal(Contract.readBytecodeFile("--bytecode-file", linked))).toBe(`--bytecode-file ${linked} has unlinked library placeholders (__$...$__): link the libraries first`)
    expect(Contract.parseHex(false)("0x")).toEqual(Either.left("must be 0x followed by a non-empty, even number of hex digits (got 0x)"))
    expect(Contract.parseHex(true)("0x")).toEqual(Either.right("0x"))
    expect(Contract.parseHex(true)("0xabc")).toEqual(Either.left("must be 0x followed by an even number of hex digits (got 0xabc)"))
  })

  it("a deployment's input is the bytecode and the constructor's encoded arguments", () => {
    const constructor = Either.getOrThrow(Contract.parseConstructor("--constructor", "constructor(uint256)"))
    expect(Contract.deployInput(code, constructor, [10n ** 24n])).toEqual(Either.right(`${code}${(10n ** 24n).toString(16).padStart(64, "0")}`))
    expect(Contract.deployInput(code, undefined, [])).toEqual(Either.right(code))
    expect(Contract.calldata(fn("transfer(address,uint256)"), ["0x5053e2f0dDe795c423A2b7f551C873f6Ef6F4Daa", 5n])).toEqual(
      Either.right(`0xa9059cbb${"5053e2f0dde795c423a2b7f551c873f6ef6f4daa".padStart(64, "0")}${"5".padStart(64, "0")}`)
    )
  })
})

describe("call results", () => {
  it("decoded by returns (...): rows by name, JSON with exact integers", () => {
    const f = fn("f() returns (uint256 balance, string, bool, address[])")
    const result = `0x${[
      (10n ** 24n).toString(16).padStart(64, "0"),
      (128).toString(16).padStart(64, "0"),
      "1".padStart(64, "0"),
      (192).toString(16).padStart(64, "0"),
      "2".padStart(64, "0"),
      Buffer.from("hi").toString("hex").padEnd(64, "0"),
      "1".padStart(64, "0"),
      "5053e2f0dde795c423a2b7f551c873f6ef6f4daa".padStart(64, "0")
    ].join("")}`
    const outputs = Either.getOrThrow(Contract.decodeOutputs(f, result))
    expect(Contract.outputRows(outputs)).toEqual([
      ["balance", "1000000000000000000000000 (uint256)"],
      ["output 2", "hi (string)"],
      ["output 3", "true (bool)"],
      ["output 4", "[\"0x5053e2f0dDe795c423A2b7f551C873f6Ef6F4Daa\"] (address[])"]
    ])
    expect(outputs.map((o) => Contract.toJson(o.value))).toEqual(["1000000000000000000000000", "hi", true, ["0x5053e2f0dDe795c423A2b7f551C873f6Ef6F4Daa"]])
    expect(Contract.outputRows(Either.getOrThrow(Contract.decodeOutputs(fn("f() returns (uint8)"), `0x${"7".padStart(64, "0")}`)))).toEqual([["output", "7 (uint8)"]])
  })

  it("a result that does not fit the outputs says so", () => {
    expect(Contract.decodeOutputs(fn("balanceOf(address) returns (uint256)"), "0x")).toEqual(
      Either.left("the result 0x does not decode as (uint256), the returns of --method (Cannot decode zero data (\"0x\") with ABI parameters): is --to a contract with balanceOf(address)?")
    )
  })
})

describe("receipts and results of contracts", () => {
  const transfer = Either.getOrThrow(Contract.parseEvent("--event", "Transfer(address indexed from,address indexed to,uint256 value)"))
  const lines = (text: string) => text.split("\n")

  it("a deployment's receipt has the contract's address, checksummed", () => {
    const text = TxCommand.receiptDetails(fixture("tx-receipt-200-deploy-contract-receipt"))
    expect(lines(text)).toContain("contract     0x0a868E321C0c689c2093001FDF7ECDb9d3eD79e1")
    expect(text).toMatch(/^type +TxTypeFeeDelegatedSmartContractDeploy \(41\)$/m)
    expect(text).not.toMatch(/^logs/m)
  })

  it("logs: address, topics and data; decoded by --event where their topic is the event's", () => {
    const receipt = fixture("tx-receipt-200-contract-execution-receipt-which-has-logs")
    const plain = TxCommand.receiptDetails(receipt, undefined, { wide: true })
    expect(plain).toMatch(/^logs +2$/m)
    expect(plain).toMatch(/^log 0 +0x270F21FbF544E5f87B4988c521315a87Ce24AcF2$/m)
    expect(plain).toMatch(/^ {2}topic 0 +0x834d96fe4fae8c45fce8c6cb6116dd1a578f5abefcf3c339a16106d8e038c17f$/m)
    expect(plain).toMatch(/^ {2}data +0x0100000000000000000000000000000000000000000000000000000000000000\.\.\. \(192 bytes\)$/m)
    expect(plain).not.toMatch(/event/)
    // None of these logs is a Transfer.
    const none = Either.getOrThrow(Contract.decodeLogs([transfer], receipt.status === "Pending" ? [] : receipt.logs ?? []))
    expect(none).toEqual([])
    expect(TxCommand.receiptDetails(receipt, { events: [transfer], decoded: none, show: Contract.showLog })).toMatch(/^events +none of the logs is Transfer$/m)

    // A Transfer log, decoded.
    const from = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"
    const token = { address: "0x270f21fbf544e5f87b4988c521315a87ce24acf2", topics: [transfer.topic, `0x${from.slice(2).padStart(64, "0")}`, `0x${"00".repeat(32)}`], data: `0x${(1000n).toString(16).padStart(64, "0")}` }
    const withTransfer = { ...receipt, logs: [...(receipt.status === "Pending" ? [] : receipt.logs ?? []), token] } as unknown as Transaction.TransactionReceipt
    const decoded = Either.getOrThrow(Contract.decodeLogs([transfer], [token, token].map((l, i) => (i === 0 ? { ...l, topics: [`0x${"11".repeat(32)}`] } : l)) as never))
    expect(decoded.map((d) => d.index)).toEqual([1])
    const all = Either.getOrThrow(Contract.decodeLogs([transfer], (withTransfer as Transaction.CommittedReceipt).logs!))
    expect(all.map((d) => Contract.showLog(d))).toEqual([
      "Transfer(from: 0x5053e2f0dDe795c423A2b7f551C873f6Ef6F4Daa, to: 0x0000000000000000000000000000000000000000, value: 1000)"
    ])
    expect(all.map(Contract.logJson)).toEqual([{
      index: 2,
      address: token.address,
      event: "Transfer",
      signature: "Transfer(address indexed,address indexed,uint256)",
      args: { from: "0x5053e2f0dDe795c423A2b7f551C873f6Ef6F4Daa", to: "0x0000000000000000000000000000000000000000", value: "1000" }
    }])
    const text = TxCommand.receiptDetails(withTransfer, { events: [transfer], decoded: all, show: Contract.showLog }, { wide: true })
    expect(text).toMatch(/^logs +3$/m)
    expect(text).toMatch(/^ {2}event +Transfer\(from: 0x5053e2f0dDe795c423A2b7f551C873f6Ef6F4Daa, to: 0x0{40}, value: 1000\)$/m)
    // At 80 columns (without --wide): the event's line, too wide, has its addresses shortened.
    const narrow = TxCommand.receiptDetails(withTransfer, { events: [transfer], decoded: all, show: Contract.showLog })
    expect(narrow).toMatch(/^ {2}event +Transfer\(from: 0x5053…4Daa, to: 0x0000…0000, value: 1000\)$/m)
    for (const line of narrow.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80)
    // The event row follows its own log's rows.
    expect(text.indexOf("  event")).toBeGreaterThan(text.indexOf("log 2"))

    // A log with the event's topic that does not decode by it: wrong indexed arguments.
    const unindexed = Either.getOrThrow(Contract.parseEvent("--event", "Transfer(address from,address to,uint256 value)"))
    expect(Contract.decodeLogs([unindexed], [token] as never)).toEqual(Either.left(expect.stringMatching(/^log 0 has the topic of Transfer but does not decode as Transfer\(address,address,uint256\): .*; check which arguments are indexed$/)))
  })

  it("a failed transaction: CommitError and Klaytn's error code in words", () => {
    const receipt = fixture("tx-receipt-200-contract-execution-receipt-which-has-logs")
    const failed = { ...receipt, status: "CommitError", txError: 9, logs: [] } as unknown as Transaction.TransactionReceipt
    const text = TxCommand.receiptDetails(failed)
    expect(text).toMatch(/^status +CommitError$/m)
    expect(text).toMatch(/^error +txError 0x09: execution reverted$/m)
    expect(TxCommand.receiptDetails({ ...failed, txError: 0x1d } as never)).toMatch(/^error +txError 0x1d: see Klaytn's transaction error codes$/m)
  })

  it("a deployment's result shows the head of its long input, and its size", () => {
    const result = Schema.decodeUnknownSync(Transaction.TransactionResult)(
      JSON.parse(fs.readFileSync(new URL("../../../test/fixtures/tx/fd-contract-deploy-200-with-fee-ratio.json", import.meta.url), "utf8"))
    )
    const text = TxCommand.resultDetails(result, { wide: true })
    expect(text).toMatch(/^input +0x[0-9a-f]{64}\.\.\. \(\d+ bytes\)$/m)
    expect(text).not.toMatch(/^to /m)
    // At 80 columns: the head of 16 digits.
    const narrow = TxCommand.resultDetails(result)
    expect(narrow).toMatch(/^input +0x[0-9a-f]{16}\.\.\. \(\d+ bytes\)$/m)
    for (const line of narrow.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80)
  })
})

describe("values a contract returns, shown on a terminal", () => {
  it("a string with control characters (a terminal escape sequence) is quoted and escaped; a plain one is shown as is", () => {
    expect(Contract.show("Kas Token")).toBe("Kas Token")
    expect(Contract.show("\u001b]0;pwned\u0007\u001b[2J")).toBe(JSON.stringify("\u001b]0;pwned\u0007\u001b[2J"))
    expect(Contract.show("a\u009bb")).not.toContain("\u009b")
    expect(Contract.show(["x\ny"])).toBe('["x\\ny"]')
    expect(Contract.show(["a\u009bb"])).toBe('["a\\u009bb"]')
  })
})
