/**
 * `kas-wallet tx deploy | execute | call` and `tx receipt --event`, run in process: the tour's
 * token deployed, transferred and read through the command line against an emulator on a file
 * database (`--wait` driven by the TestClock), with decoded outputs and logs and the JSON shapes;
 * bad input is one line and exit code 2 with nothing sent (a server that records every request it
 * gets sees none).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as OxAddress from "ox/Address"
import * as ContractAddress from "ox/ContractAddress"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as Token from "../src/tour/KasToken.js"
import { withClockMoving } from "../../../test/support/clock.js"
import { cli, cliEmulator } from "./_run.js"

/** A server that records the requests it gets and answers each "data don't exist". */
const recorder = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly requests: Array<string>; readonly server: http.Server }>((resume) => {
    const requests: Array<string> = []
    const server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`)
      req.resume()
      res.writeHead(400, { "content-type": "application/json" })
      res.end(JSON.stringify({ code: 1061010, message: "data don't exist" }))
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server })))
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

const from = "0xa809284C83b901eD106Aba4Ccda14628Af128e14"
const to = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"

describe("kas-wallet tx deploy | execute | call: bad input", () => {
  it.scoped("is one line naming the flag, exit code 2, and nothing is sent", () =>
    Effect.gen(function*() {
      const server = yield* recorder
      const env = { KAS_WALLET_URL: server.url, KAS_ACCESS_KEY_ID: "KASKTEST", KAS_SECRET_ACCESS_KEY: "secret" }
      const dir = yield* Effect.acquireRelease(
        Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "kas-cli-contracts-"))),
        (d) => Effect.sync(() => fs.rmSync(d, { recursive: true, force: true }))
      )
      const odd = path.join(dir, "odd.bin")
      fs.writeFileSync(odd, "0x608")
      const bin = path.join(dir, "token.bin")
      fs.writeFileSync(bin, `${Token.bytecode.slice(2)}\n`)
      const deploy = ["tx", "deploy", "--from", from]
      const execute = ["tx", "execute", "--from", from, "--to", to]
      const call = ["tx", "call", "--to", to]
      const transfer = ["--method", "transfer(address,uint256)"]
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string | RegExp]> = [
        // deploy
        [deploy, "kas-wallet: --bytecode-file FILE or --bytecode HEX is required: the contract's creation bytecode"],
        [["tx", "deploy", "--bytecode", "0x00"], /^kas-wallet: --from is required, e\.g\. --from 0x/],
        [[...deploy, "--bytecode", "0x00", "--bytecode-file", bin], "kas-wallet: give the bytecode once: --bytecode-file FILE or --bytecode HEX"],
        [[...deploy, "--bytecode", "0x608"], "kas-wallet: --bytecode must be 0x followed by a non-empty, even number of hex digits (got 0x608)"],
        [[...deploy, "--bytecode", "60806040"], "kas-wallet: --bytecode must be 0x followed by a non-empty, even number of hex digits (got 60806040)"],
        [[...deploy, "--bytecode", "0xzz"], "kas-wallet: --bytecode must be 0x followed by a non-empty, even number of hex digits (got 0xzz)"],
        [[...deploy, "--bytecode-file", odd], `kas-wallet: --bytecode-file ${odd} must hold the bytecode as an even number of hex digits, 0x optional`],
        [[...deploy, "--bytecode-file", path.join(dir, "nope.bin")], `kas-wallet: --bytecode-file cannot be read: ENOENT (${path.join(dir, "nope.bin")})`],
        [[...deploy, "--bytecode-file", bin, "--args", "1"], "kas-wallet: --args needs --constructor \"constructor(type,...)\" to encode them"],
        [[...deploy, "--bytecode-file", bin, "--constructor", "constructor(uint257)", "--args", "1"], /^kas-wallet: --constructor is not a constructor's signature \(Unknown type; got constructor\(uint257\)\)/],
        [[...deploy, "--bytecode-file", bin, "--constructor", "constructor(uint256 initialSupply)"], "kas-wallet: --args: constructor(uint256) takes 1 argument (uint256 initialSupply), got 0"],
        [[...deploy, "--bytecode-file", bin, "--constructor", "(uint256)", "--args", "-1"], "kas-wallet: --args: argument 1 (uint256) must be an integer from 0 to 2^256-1 (got -1)"],
        [[...deploy, "--bytecode-file", bin, "--value", "1"], "kas-wallet: --value has no unit: write it with its unit, such as 1.5KLAY, 25ston or 1000peb (got 1)"],
        [[...deploy, "--bytecode-file", bin, "--fee-ratio", "30"], /^kas-wallet: --fee-ratio needs --fee-payer/],
        [[...deploy, "--bytecode-file", bin, "--wait", "--no-submit"], /^kas-wallet: --wait waits for a sent transaction/],
        [[...deploy, "--bytecode-file", bin, "--event", "Transfer(address,address,uint256)"], "kas-wallet: --event decodes the logs of the receipt: add --wait, or use kas-wallet tx receipt <hash> --event ..."],
        // execute
        [["tx", "execute", "--from", from, ...transfer, "--args", to, "1"], /^kas-wallet: --to is required, e\.g\. --to 0x/],
        [["tx", "execute", "--from", from, "--to", "0x12", "--input", "0x"], "kas-wallet: --to must be 0x followed by 40 hex digits (got 0x12)"],
        [execute, "kas-wallet: --method SIGNATURE (with --args) or --input HEX is required: what to run, e.g. --method \"transfer(address,uint256)\""],
        [[...execute, ...transfer, "--input", "0x"], "kas-wallet: give the calldata once: --method (with --args) or --input HEX"],
        [[...execute, "--input", "0xa9059cbb", "--args", "1"], "kas-wallet: --args go with --method: --input is the whole calldata already"],
        [[...execute, "--input", "0xa9059cb"], "kas-wallet: --input must be 0x followed by an even number of hex digits (got 0xa9059cb)"],
        [[...execute, "--method", "transfer(adress,uint256)", "--args", to, "1"], /^kas-wallet: --method is not a function's signature \(Unknown type; got transfer\(adress,uint256\)\): write it as name\(type,\.\.\.\)/],
        [[...execute, "--method", "transfer", "--args", to, "1"], /^kas-wallet: --method is not a function's signature \(no parameter list; got transfer\)/],
        [[...execute, ...transfer, "--args", to], "kas-wallet: --args: transfer(address,uint256) takes 2 arguments (address, uint256), got 1"],
        [[...execute, ...transfer], "kas-wallet: --args: transfer(address,uint256) takes 2 arguments (address, uint256), got 0"],
        [[...execute, ...transfer, "--args", to, "1", "2"], "kas-wallet: --args: transfer(address,uint256) takes 2 arguments (address, uint256), got 3"],
        [[...execute, ...transfer, "--args", "1", to], "kas-wallet: --args: argument 1 (address) must be an address, 0x and 40 hex digits (got 1)"],
        [[...execute, ...transfer, "--args", to, "ten"], "kas-wallet: --args: argument 2 (uint256) must be an integer, decimal or 0x (got ten)"],
        [[...execute, ...transfer, "--args", "0x5053E2f0dde795c423a2b7f551c873f6ef6f4daa", "1"], /^kas-wallet: --args: argument 1 \(address\) has a wrong EIP-55 checksum/],
        [[...execute, ...transfer, "--args", to, "1", "--fee-payer", "someone"], /^kas-wallet: --fee-payer must be global or a fee-payer account's address/],
        // call
        [["tx", "call", "--method", "totalSupply() returns (uint256)"], /^kas-wallet: --to is required, e\.g\. --to 0x/],
        [call, "kas-wallet: --method is required, e.g. --method \"balanceOf(address) returns (uint256)\""],
        [[...call, "--method", "balanceOf(address) returns (uint256"], /^kas-wallet: --method is not a function's signature/],
        [[...call, "--method", "balanceOf(address) returns (uint256)", "--args", "true"], "kas-wallet: --args: argument 1 (address) must be an address, 0x and 40 hex digits (got true)"],
        [[...call, "--method", "f(bool)", "--args", "yes"], "kas-wallet: --args: argument 1 (bool) must be true or false (got yes)"],
        [[...call, "--method", "f(uint8[2])", "--args", "[1,2,3]"], "kas-wallet: --args: argument 1 (uint8[2]) must have 2 elements (got 3)"],
        [[...call, "--method", "f(uint256[])", "--args", "[1,"], "kas-wallet: --args: argument 1 (uint256[]) must be a JSON array, e.g. [1,2] (got [1,)"],
        [[...call, "--method", "f(int8)", "--args", "-129"], "kas-wallet: --args: argument 1 (int8) must be an integer from -2^7 to 2^7-1 (got -129)"],
        [[...call, "--method", "f(bytes32)", "--args", "0x12"], "kas-wallet: --args: argument 1 (bytes32) must be 0x and 64 hex digits (got 0x12)"],
        [[...call, "--method", "totalSupply()", "--from", "0x12"], "kas-wallet: --from must be 0x followed by 40 hex digits (got 0x12)"],
        [[...call, "--method", "totalSupply()", "--gas", "-1"], "kas-wallet: --gas must be an integer from 0 to 9007199254740991 (got -1)"],
        // receipt
        [["tx", "receipt", `0x${"ab".repeat(32)}`, "--event", "Transfer(address indexed from"], /^kas-wallet: --event is not an event's signature \(/]
      ]
      for (const [args, message] of cases) {
        const ran = yield* cli(args, env)
        expect({ args, code: ran.code, out: ran.out }).toEqual({ args, code: 2, out: "" })
        expect(ran.err.split("\n"), args.join(" ")).toHaveLength(1)
        if (typeof message === "string") expect(ran.err).toBe(message)
        else expect(ran.err).toMatch(message)
      }
      expect(server.requests).toEqual([])

      // The recorder does see what is sent: a well-formed command line reaches it.
      const sent = yield* cli([...execute, ...transfer, "--args", to, "1"], env)
      expect(sent.code, sent.err).toBe(4)
      expect(server.requests).toEqual(["POST /v2/tx/contract/execute"])
    }))
})

const TRANSFER = "Transfer(address indexed from,address indexed to,uint256 value)"
const TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
const word = (hex: string) => `0x${hex.replace(/^0x/, "").toLowerCase().padStart(64, "0")}`
const SUPPLY = 10n ** 24n
const SENT = 250n * 10n ** 18n

describe("kas-wallet tx deploy, execute, call and receipt against the emulator", () => {
  it.scoped("deploy the token, transfer it with global fee delegation, read balances: decoded outputs and logs, JSON shapes", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.acquireRelease(
        Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "kas-cli-contracts-"))),
        (d) => Effect.sync(() => fs.rmSync(d, { recursive: true, force: true }))
      )
      const db = path.join(dir, "emulator.db")
      const { emulator: e, env, secret } = yield* Effect.orDie(cliEmulator({ database: db }))
      const run = (args: ReadonlyArray<string>) =>
        Effect.map(cli(args, env), (ran) => {
          expect(`${ran.out}\n${ran.err}`).not.toContain(secret)
          return ran
        })
      const account = Effect.map(run(["accounts", "create", "--json"]), (r) => JSON.parse(r.out).address as string)
      const owner = yield* account
      const other = yield* account
      expect((yield* run(["emulator", "fund", owner, "10KLAY", "--db", db])).code).toBe(0)
      const bin = path.join(dir, "KasToken.bin")
      fs.writeFileSync(bin, `${Token.bytecode.slice(2)}\n`)
      const global = e.globalFeePayer(1001)

      // Deploy, waited for: the receipt has the contract's address (Klaytn's, from the sender and
      // its nonce) and the Transfer log of the mint, decoded by --event.
      const deployed = yield* withClockMoving(run([
        "tx", "deploy", "--from", owner, "--bytecode-file", bin,
        "--constructor", "constructor(uint256 initialSupply)", "--args", String(SUPPLY),
        "--fee-payer", "global", "--wait", "--event", TRANSFER
      ]))
      expect(deployed.code, deployed.err).toBe(0)
      const token = OxAddress.checksum(ContractAddress.fromCreate({ from: owner as `0x${string}`, nonce: 0n }))
      expect(deployed.out).toMatch(/^type +TxTypeFeeDelegatedSmartContractDeploy \(41\)$/m)
      expect(deployed.out).toMatch(/^input +0x60806040[0-9a-f]{8}\.\.\. \(1601 bytes\)$/m)
      expect(deployed.out).toMatch(/^status +Committed$/m)
      expect(deployed.out).toContain(`\ncontract     ${token}\n`)
      // At 80 columns: each payer on its line, the fee payer's address shortened as the tour has it.
      expect(deployed.out).toMatch(new RegExp(`^paid by +fee payer ${global.slice(0, 6)}…${global.slice(-4)}: [0-9.]+ KLAY \\(\\d+ peb\\)\n +sender: 0 KLAY \\(0 peb\\)$`, "m"))
      expect(deployed.out).toMatch(/^block +\d+ \(0x[0-9a-f]{8}…[0-9a-f]{6}\), index 0$/m)
      // All but a decoded event's line, whose values print whole, however long.
      for (const line of deployed.out.split("\n").filter((l) => !l.startsWith("  event"))) expect([...line].length, line).toBeLessThanOrEqual(80)
      expect(deployed.out).toMatch(/^logs +1$/m)
      expect(deployed.out).toContain(`\nlog 0        ${token}\n  topic 0    ${TOPIC}\n  topic 1    ${word("")}\n  topic 2    ${word(owner)}\n  data       ${word(SUPPLY.toString(16))}\n`)
      expect(deployed.out).toContain(`\n  event      Transfer(from: 0x0000…0000, to: ${owner.slice(0, 6)}…${owner.slice(-4)}, value: ${SUPPLY})`)

      // Execute transfer(address,uint256), waited for, as JSON: the result, then the receipt with its events.
      const executed = yield* withClockMoving(run([
        "tx", "execute", "--from", owner, "--to", token.toLowerCase(), "--method", "transfer(address,uint256)",
        "--args", other, String(SENT), "--fee-payer", "global", "--wait", "--json", "--event", TRANSFER
      ]))
      expect(executed.code, executed.err).toBe(0)
      const [result, receipt, ...more] = executed.out.split("\n").map((line) => JSON.parse(line))
      expect(more).toEqual([])
      const calldata = `0xa9059cbb${word(other).slice(2)}${word(SENT.toString(16)).slice(2)}`
      // Addresses checksummed, as in every --json of the CLI; the input, topics and data as they are.
      expect(result).toMatchObject({ typeInt: 49, status: "Submitted", to: token, input: calldata, feePayer: global, nonce: 1 })
      expect(receipt).toMatchObject({ status: "Committed", typeInt: 49, transactionHash: result.transactionHash })
      expect(receipt.logs).toHaveLength(1)
      expect(receipt.logs[0]).toMatchObject({ address: token, topics: [TOPIC, word(owner), word(other)], data: word(SENT.toString(16)) })
      expect(receipt.events).toEqual([{
        index: 0,
        address: token,
        event: "Transfer",
        signature: "Transfer(address indexed,address indexed,uint256)",
        args: { from: owner, to: other, value: String(SENT) }
      }])

      // Read back through contract/call: data, raw result and the decoded output.
      const call = (args: ReadonlyArray<string>) => run(["tx", "call", "--to", token, ...args])
      const mine = yield* call(["--method", "balanceOf(address owner) view returns (uint256 balance)", "--args", owner, "--wide"])
      expect(mine.code, mine.err).toBe(0)
      expect(mine.out.split("\n")).toEqual([
        "FIELD    VALUE",
        `data     0x70a08231${word(owner).slice(2)}`,
        `result   ${word((SUPPLY - SENT).toString(16))}`,
        `balance  ${SUPPLY - SENT} (uint256)`
      ])
      // At 80 columns the calldata's line (36 bytes) gives its head and size, as long data is shortened.
      const narrow = yield* call(["--method", "balanceOf(address owner) view returns (uint256 balance)", "--args", owner])
      expect(narrow.out.split("\n")[1]).toBe("data     0x70a0823100000000... (36 bytes)")
      const theirs = yield* call(["--method", "balanceOf(address) returns (uint256)", "--args", other.toLowerCase(), "--json"])
      expect(JSON.parse(theirs.out)).toEqual({ data: `0x70a08231${word(other).slice(2)}`, result: word(SENT.toString(16)), outputs: [String(SENT)] })
      const symbol = yield* call(["--method", "symbol() returns (string)", "--json"])
      expect(JSON.parse(symbol.out).outputs).toEqual(["KAST"])
      // Without returns (...): the raw result only.
      const raw = yield* call(["--method", "decimals()", "--json"])
      expect(JSON.parse(raw.out)).toEqual({ data: "0x313ce567", result: word("12") })

      // The receipt read again, by hash: the same logs, decoded.
      const again = yield* run(["tx", "receipt", result.transactionHash, "--wide", "--event", TRANSFER, "Approval(address indexed owner,address indexed spender,uint256 value)"])
      expect(again.code, again.err).toBe(0)
      expect(again.out).toContain(`\n  event      Transfer(from: ${owner}, to: ${other}, value: ${SENT})`)
      // An event whose indexed arguments are not the log's: the receipt, then what went wrong.
      const unindexed = yield* run(["tx", "receipt", result.transactionHash, "--event", "Transfer(address from,address to,uint256 value)"])
      expect(unindexed.code).toBe(2)
      expect(unindexed.out).toMatch(/^logs +1$/m)
      expect(unindexed.err).toMatch(/^kas-wallet: --event: log 0 has the topic of Transfer but does not decode as Transfer\(address,address,uint256\): .*; check which arguments are indexed$/)
      const plain = yield* run(["tx", "receipt", result.transactionHash])
      expect(plain.out).not.toContain("event")
      expect(plain.out).toMatch(/^logs +1$/m)

      // The calldata as --input, signed only: Pending, nothing sent.
      const unsent = yield* run(["tx", "execute", "--from", owner, "--to", token, "--input", calldata, "--no-submit", "--json"])
      expect(unsent.code, unsent.err).toBe(0)
      expect(JSON.parse(unsent.out)).toMatchObject({ status: "Pending", typeInt: 48, input: calldata, nonce: 2 })

      // The global fee payer paid both fees: the owner still holds its 10 KLAY.
      expect(JSON.parse((yield* run(["emulator", "balance", owner, "--db", db, "--json"])).out)).toMatchObject({ balance: "10000000000000000000", nonce: 2 })
    }), { timeout: 60_000 })

  it.scoped("a reverted execution: CommitError with its txError, exit 2 after the receipt; a call of a non-contract", () =>
    Effect.gen(function*() {
      const { emulator: e, env } = yield* Effect.orDie(cliEmulator())
      const run = (args: ReadonlyArray<string>) => cli(args, env)
      const owner = JSON.parse((yield* run(["accounts", "create", "--json"])).out).address as string
      yield* e.fund(1001, owner, 10n ** 19n)
      const deployed = yield* withClockMoving(run([
        "tx", "deploy", "--from", owner, "--bytecode", Token.bytecode, "--constructor", "(uint256)", "--args", "1000", "--wait", "--json"
      ]))
      expect(deployed.code, deployed.err).toBe(0)
      const token = JSON.parse(deployed.out.split("\n")[1]!).contractAddress as string
      expect(token).toBe(OxAddress.checksum(ContractAddress.fromCreate({ from: owner as `0x${string}`, nonce: 0n })))

      // More than the owner holds: the token reverts ("insufficient balance").
      const reverted = yield* withClockMoving(run([
        "tx", "execute", "--from", owner, "--to", token, "--method", "transfer(address,uint256)", "--args", owner, "1001", "--wait"
      ]))
      expect(reverted.code).toBe(2)
      expect(reverted.out).toMatch(/^status +CommitError$/m)
      expect(reverted.out).toMatch(/^error +txError 0x09: execution reverted$/m)
      expect(reverted.err).toMatch(/^kas-wallet: the execution failed in block \d+ \(txError 0x09: execution reverted\); its fee was paid$/)

      // An address without code: the chain refuses to execute it, and a call of it returns nothing.
      const notContract = yield* run(["tx", "execute", "--from", owner, "--to", owner, "--input", "0x"])
      expect(notContract.code).toBe(8)
      expect(notContract.err).toMatch(/^kas-wallet: the chain refused the execution \(HTTP 400, code 1065001: .*not a program account.*; check --to: it is not a contract$/)
      const empty = yield* run(["tx", "call", "--to", owner, "--method", "balanceOf(address) returns (uint256)", "--args", owner])
      expect({ code: empty.code, err: empty.err }).toEqual({
        code: 2,
        err: "kas-wallet: the result 0x does not decode as (uint256), the returns of --method (Cannot decode zero data (\"0x\") with ABI parameters): is --to a contract with balanceOf(address)?"
      })
      // What came back is printed before.
      expect(empty.out).toMatch(/^result +0x$/m)
    }), { timeout: 60_000 })
})
