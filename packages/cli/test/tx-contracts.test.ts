/**
 * `kas-wallet tx deploy | execute | call` and `tx receipt --event`, run in process: bad input is
 * one line and exit code 2 with nothing sent (a server that records every request it gets sees
 * none).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as Token from "../src/tour/KasToken.js"
import { cli } from "./_run.js"

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
