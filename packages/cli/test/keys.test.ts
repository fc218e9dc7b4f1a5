/**
 * `kas-wallet keys create | list | get | delete | sign` and `kas-wallet history list | get`, run
 * in process against an emulator: output (tables and JSON, NDJSON with `--all`), the key pool from
 * its flag and variable, signatures checked by recovering the key's public key with @noble/curves
 * (not the emulator's code), the fee-delegation history of real fee-delegated transfers; bad input
 * is one line and exit code 2 with nothing sent (a server that records every request sees none).
 */
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
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

type Ran = { readonly code: number; readonly out: string; readonly err: string }

const ok = (ran: Ran, secret: string) => {
  expect(ran.code, ran.err).toBe(0)
  expect(ran.out + ran.err).not.toContain(secret)
  return ran.out
}

const failsWith = (ran: Ran, code: number, message: string | RegExp, secret: string) => {
  expect(ran.code, ran.err).toBe(code)
  expect(ran.err.split("\n")).toHaveLength(1)
  if (typeof message === "string") expect(ran.err).toBe(message)
  else expect(ran.err).toMatch(message)
  expect(ran.out + ran.err).not.toContain(secret)
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`

/** The public key (uncompressed, 0x04...) that signed `hash`, recovered from the key service's r ‖ s ‖ v. */
const recover = (signedData: string, hash: string): string => {
  const bytes = Buffer.from(signedData.slice(2), "hex")
  const digest = Buffer.from(hash.slice(2), "hex")
  const signature = secp256k1.Signature.fromBytes(bytes.subarray(0, 64), "compact").addRecoveryBit(bytes[64]!)
  expect(secp256k1.verify(bytes.subarray(0, 64), digest, signature.recoverPublicKey(digest).toBytes(), { prehash: false })).toBe(true)
  return hex(signature.recoverPublicKey(digest).toBytes(false))
}

const HASH = `0x${"5d3c4cbd2f6f1f10e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934c"}`

describe("kas-wallet keys", () => {
  it.live("create, list (one page, every page), get, sign and delete; the key pool from --key-pool or KAS_KEY_POOL", () =>
    Effect.gen(function*() {
      const { emulator: e, env, secret } = yield* cliEmulator()
      const pool = `krn:1001:wallet:${e.member.accountId}:key-pool:default`
      const created = JSON.parse(ok(yield* cli(["keys", "create", "--size", "2", "--json"], env), secret)).items
      expect(created).toHaveLength(2)
      for (const key of created) {
        expect(key.krn).toBe(pool)
        expect(key.keyId).toMatch(new RegExp(`^${pool}:0x[0-9a-f]{64}$`))
        expect(Object.keys(key).sort()).toEqual(["blob", "keyId", "krn", "publicKey"])
      }
      // --wide: the whole key id, to give to keys get | sign | delete.
      const table = ok(yield* cli(["keys", "create", "--wide"], env), secret).split("\n")
      expect(table[0]).toMatch(/^KEY ID +PUBLIC KEY$/)
      expect(table).toHaveLength(2)
      const third = table[1]!.split(/ +/)[0]!
      expect(third).toMatch(new RegExp(`^${pool}:0x[0-9a-f]{64}$`))
      // Without: 80 columns, the key id's member id and key shortened as the tour prints them.
      const narrow = ok(yield* cli(["keys", "list", "--page-size", "1", "--key-pool", pool], env), secret).split("\n")
      const member = pool.split(":")[3]!
      expect(narrow[1]).toMatch(
        new RegExp(`^krn:1001:wallet:${member.slice(0, 4)}…${member.slice(-4)}:key-pool:default:0x[0-9a-f]{4}…[0-9a-f]{4}  0x04[0-9a-f]{8}…[0-9a-f]{6}$`)
      )
      expect([...narrow[1]!].length).toBeLessThanOrEqual(80)

      // No pool selected: the member's default key pool, whose KRN the count's account id gives.
      const verbose = yield* cli(["keys", "list", "--json", "--verbose"], env)
      const page = JSON.parse(ok(verbose, secret))
      expect(page.items.map((k: { keyId: string }) => k.keyId)).toEqual([third, created[1].keyId, created[0].keyId])
      expect(page.cursor).toBe("")
      expect(verbose.err.split("\n").filter((l) => l.startsWith("> ")).map((l) => l.split(" (")[0])).toEqual([
        `> GET ${e.url}/v2/stat/count`,
        `> GET ${e.url}/v2/key?krn=${encodeURIComponent(pool)}`
      ])
      // A selected key pool, from the flag or the variable, is listed as it is: no count first.
      for (const [args, environment] of [[["--key-pool", pool], env], [[], { ...env, KAS_KEY_POOL: pool }]] as const) {
        const selected = yield* cli(["keys", "list", "--page-size", "1", "--verbose", "--wide", ...args], environment)
        const out = ok(selected, secret).split("\n")
        expect(out[0]).toMatch(/^KEY ID +PUBLIC KEY$/)
        expect(out[1]).toMatch(new RegExp(`^${third} +0x04[0-9a-f]{8}…[0-9a-f]{6}$`))
        expect(out[2]).toMatch(/^next page: --cursor \S+$/)
        expect(selected.err).not.toContain("/v2/stat/count")
      }
      const second = ok(yield* cli(["keys", "list", "--wide", "--krn", pool, "--page-size", "1", "--cursor", ok(yield* cli(["keys", "list", "--page-size", "1"], env), secret).split("--cursor ")[1]!], env), secret)
      expect(second).toContain(created[1].keyId)

      // Every page, one key per line, with its progress line when the rows go to a pipe.
      const progress: Array<string> = []
      const all = ok(yield* cli(["keys", "list", "--all", "--page-size", "2", "--json"], env, { stderrIsTerminal: true, progress }), secret)
      expect(all.split("\n").map((l) => JSON.parse(l).keyId)).toEqual([third, created[1].keyId, created[0].keyId])
      expect(progress).toEqual(["\r2 keys, 1 page…", "\r3 keys, 2 pages…", "\r3 keys, 2 pages.\n"])

      const got = JSON.parse(ok(yield* cli(["keys", "get", created[0].keyId, "--json"], env), secret))
      expect(got).toEqual(created[0])
      const details = ok(yield* cli(["keys", "get", created[0].keyId, "--wide"], env), secret)
      expect(details).toMatch(new RegExp(`^keyId +${created[0].keyId}$`, "m"))
      expect(details).toMatch(new RegExp(`^publicKey +${created[0].publicKey}$`, "m"))

      // The signature is the key's: its public key recovers from it (noble, not the emulator).
      const signed = JSON.parse(ok(yield* cli(["keys", "sign", created[0].keyId, HASH, "--json"], env), secret))
      expect(Object.keys(signed)).toEqual(["signedData"])
      expect(recover(signed.signedData, HASH)).toBe(created[0].publicKey)
      expect(recover(signed.signedData, HASH)).not.toBe(created[1].publicKey)
      const human = ok(yield* cli(["keys", "sign", created[1].keyId, HASH.toUpperCase().replace("0X", "0x"), "--wide"], env), secret)
      const signedData = /^signedData +(0x[0-9a-f]{130})$/m.exec(human)![1]!
      // At 80 columns the signature's line gives its head and size, as long data is shortened.
      const narrowSign = ok(yield* cli(["keys", "sign", created[1].keyId, HASH], env), secret)
      expect(narrowSign).toMatch(new RegExp(`^signedData +${signedData.slice(0, 18)}\\.\\.\\. \\(65 bytes\\)$`, "m"))
      expect(narrowSign.split("\n").every((line) => [...line].length <= 80)).toBe(true)
      expect(recover(signedData, HASH)).toBe(created[1].publicKey)
      expect(human).toMatch(new RegExp(`^r +${signedData.slice(0, 66)}$`, "m"))
      expect(human).toMatch(/^v +[01]$/m)

      expect(ok(yield* cli(["keys", "delete", created[0].keyId], env), secret)).toBe(`deleted ${created[0].keyId}`)
      expect(ok(yield* cli(["keys", "delete", created[1].keyId, "--json"], env), secret)).toBe("{\"status\":\"deleted\"}")
      const gone = `^kas-wallet: no key ${created[0].keyId} of the member on chain 1001 \\(HTTP 400, code 1061010: .*\\); check <key-id> \\(kas-wallet keys list\\) and --chain$`
      failsWith(yield* cli(["keys", "get", created[0].keyId], env), 4, new RegExp(gone), secret)
      failsWith(yield* cli(["keys", "sign", created[0].keyId, HASH], env), 4, /^kas-wallet: no key /, secret)
      failsWith(yield* cli(["keys", "delete", created[0].keyId], env), 4, /^kas-wallet: no key /, secret)
      expect(JSON.parse(ok(yield* cli(["keys", "list", "--json"], env), secret)).items.map((k: { keyId: string }) => k.keyId)).toEqual([third])
      // Another member's pool, or one that does not exist: not found.
      failsWith(
        yield* cli(["keys", "list", "--krn", "krn:1001:wallet:someone-else:key-pool:default"], env),
        4,
        /^kas-wallet: no such key pool krn:1001:wallet:someone-else:key-pool:default on chain 1001 \(HTTP 400, code 1061010: .*\); check --krn, --key-pool and --chain$/,
        secret
      )

      // A stale KAS_KEY_POOL is read by the keys commands only.
      const stale = { ...env, KAS_KEY_POOL: "payroll" }
      ok(yield* cli(["accounts", "list"], stale), secret)
      failsWith(yield* cli(["keys", "list"], stale), 2, /^kas-wallet: KAS_KEY_POOL is invalid: KRN must have the form .*: set it to a key pool KRN, krn:<chain-id>:wallet:<account-id>:key-pool:<pool-name> \(unset: the default key pool\)$/, secret)
    }).pipe(Effect.scoped), 60_000)

  it.scoped("bad input (key id, hash, size, pool, address, page size) is one line, exit code 2, and nothing is sent", () =>
    Effect.gen(function*() {
      const server = yield* recorder
      const env = { KAS_WALLET_URL: server.url, KAS_ACCESS_KEY_ID: "KASKTEST", KAS_SECRET_ACCESS_KEY: "secret-value" }
      const keyId = `krn:1001:wallet:member:key-pool:default:0x${"ab".repeat(32)}`
      const mainnetKey = `krn:8217:wallet:member:key-pool:default:0x${"ab".repeat(32)}`
      const keyForm = "must be a key id, krn:<chain-id>:wallet:<account-id>:key-pool:<pool-name>:0x and 64 hex digits"
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string | RegExp]> = [
        [["keys", "get", "0x1234"], `kas-wallet: <key-id> ${keyForm} (got 0x1234)`],
        [["keys", "get", "krn:1001:wallet:member:key-pool:default"], `kas-wallet: <key-id> ${keyForm} (got krn:1001:wallet:member:key-pool:default)`],
        [["keys", "delete", `krn:1001:wallet:member:key-pool:default:0x${"zz".repeat(32)}`], /^kas-wallet: <key-id> must be a key id, /],
        [["keys", "sign", "not-a-key", HASH], /^kas-wallet: <key-id> must be a key id, .*\(got not-a-key\)$/],
        [["keys", "get", mainnetKey], `kas-wallet: invalid <key-id>: key ${mainnetKey} is on chain 8217, the request on chain 1001`],
        [["keys", "sign", keyId, "0x12"], "kas-wallet: <hash> must be 32 bytes, 0x followed by 64 hex digits: a hash of what to sign (got 0x12)"],
        [["keys", "sign", keyId, HASH.slice(2)], /^kas-wallet: <hash> must be 32 bytes, /],
        [["keys", "sign", keyId, `${HASH}00`], /^kas-wallet: <hash> must be 32 bytes, /],
        [["keys", "sign", keyId, `0x${"g".repeat(64)}`], /^kas-wallet: <hash> must be 32 bytes, /],
        [["keys", "sign", keyId, "hello world"], "kas-wallet: <hash> must be 32 bytes, 0x followed by 64 hex digits: a hash of what to sign (got \"hello world\")"],
        [["keys", "create", "--size", "0"], "kas-wallet: --size must be an integer from 1 to 100 (got 0)"],
        [["keys", "create", "--size", "101"], "kas-wallet: --size must be an integer from 1 to 100 (got 101)"],
        [["keys", "create", "--size", "two"], "kas-wallet: --size must be an integer from 1 to 100 (got two)"],
        [["keys", "create", "--key-pool", "payroll"], /^kas-wallet: --key-pool is invalid: KRN must have the form .*: set it to a key pool KRN, /],
        [["keys", "create", "--key-pool", "krn:1001:wallet:member:account-pool:default"], /^kas-wallet: --key-pool is invalid: .*key-pool/],
        [["keys", "create", "--key-pool", "krn:8217:wallet:member:key-pool:default"], /^kas-wallet: --key-pool: key pool krn:8217:\S+ is on chain 8217, the client on chain 1001/],
        [["keys", "list", "--krn", "payroll"], "kas-wallet: --krn must be a key pool KRN, krn:<chain-id>:wallet:<account-id>:key-pool:<pool-name> (got payroll)"],
        [["keys", "list", "--krn", "krn:8217:wallet:member:key-pool:default"], "kas-wallet: invalid --krn: pool krn:8217:wallet:member:key-pool:default is on chain 8217, the request on chain 1001"],
        [["keys", "list", "--page-size", "0"], "kas-wallet: --page-size must be an integer from 1 to 1000 (got 0)"],
        [["keys", "list", "--cursor", ""], "kas-wallet: --cursor must not be empty"],
        [["history", "get", "0x12"], "kas-wallet: <hash> must be 0x followed by 64 hex digits (got 0x12)"],
        [["history", "get", HASH.slice(2)], /^kas-wallet: <hash> must be 0x followed by 64 hex digits/],
        [["history", "list", "--from", "0x12"], "kas-wallet: --from must be 0x followed by 40 hex digits (got 0x12)"],
        [["history", "list", "--from", "2024-05-01"], "kas-wallet: --from must be 0x followed by 40 hex digits (got 2024-05-01)"],
        [["history", "list", "--from", "0xA809284c83b901eD106Aba4Ccda14628Af128e14"], /^kas-wallet: --from 0xA809\S+ has a wrong EIP-55 checksum/],
        [["history", "list", "--page-size", "1001"], "kas-wallet: --page-size must be an integer from 1 to 1000 (got 1001)"]
      ]
      for (const [args, message] of cases) {
        const ran = yield* cli(args, env)
        expect({ args, code: ran.code, out: ran.out }).toEqual({ args, code: 2, out: "" })
        expect(ran.err.split("\n"), args.join(" ")).toHaveLength(1)
        if (typeof message === "string") expect(ran.err).toBe(message)
        else expect(ran.err).toMatch(message)
      }
      expect(server.requests).toEqual([])

      // The recorder does see what is sent: well-formed command lines reach it.
      expect((yield* cli(["keys", "sign", keyId, HASH], env)).code).toBe(4)
      expect((yield* cli(["history", "get", HASH], env)).code).toBe(4)
      expect(server.requests).toEqual([`POST /v2/key/${encodeURIComponent(keyId)}/sign`, `GET /v2/history/fd/tx/${HASH}`])
    }))
})

describe("kas-wallet history", () => {
  it.live("lists and gets what the global fee payer paid: newest first, by sender, every page; a transaction it did not pay is not found", () =>
    Effect.gen(function*() {
      const { emulator: e, env, secret } = yield* cliEmulator({ mining: "manual" })
      const account = Effect.map(cli(["accounts", "create", "--json"], env), (r) => JSON.parse(ok(r, secret)).address as string)
      const [from, other, to] = [yield* account, yield* account, yield* account]
      yield* e.fund(1001, from, 10n ** 19n)
      yield* e.fund(1001, other, 10n ** 19n)
      expect(ok(yield* cli(["history", "list"], env), secret)).toBe("(no fee-delegated transactions)\n(last page)")
      expect(JSON.parse(ok(yield* cli(["history", "list", "--json"], env), secret))).toEqual({ items: [], cursor: "" })

      const send = (sender: string, ...fee: Array<string>) =>
        Effect.map(cli(["tx", "send", "--from", sender, "--to", to, "--value", "1KLAY", ...fee, "--json"], env), (r) =>
          JSON.parse(ok(r, secret)).transactionHash as string)
      const whole = yield* send(from, "--fee-payer", "global")
      const share = yield* send(from, "--fee-payer", "global", "--fee-ratio", "30")
      const others = yield* send(other, "--fee-payer", "global")
      const own = yield* send(from)
      // In no block yet: not in the history.
      failsWith(yield* cli(["history", "get", whole], env), 4, /^kas-wallet: no fee-delegation record of /, secret)
      yield* e.mine(1001)

      const page = JSON.parse(ok(yield* cli(["history", "list", "--from", from.toLowerCase(), "--json"], env), secret))
      expect(page.items.map((r: { transactionHash: string }) => r.transactionHash)).toEqual([share, whole])
      expect(page.items.every((r: { from: string; feePayer: string }) => r.from === from && r.feePayer === e.globalFeePayer(1001))).toBe(true)

      const progress: Array<string> = []
      const all = ok(yield* cli(["history", "list", "--all", "--page-size", "1", "--json"], env, { stderrIsTerminal: true, progress }), secret)
      expect(all.split("\n").map((l) => JSON.parse(l).transactionHash)).toEqual([others, share, whole])
      expect(progress[progress.length - 1]).toBe("\r3 records, 3 pages.\n")

      const rows = ok(yield* cli(["history", "list", "--from", from, "--wide"], env), secret).split("\n")
      expect(rows[0]).toMatch(/^TRANSACTION +TIME \(UTC\) +FROM +CHARGED +STATUS$/)
      expect(rows[1]).toMatch(new RegExp(`^${share} +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4} +[0-9.]+ KLAY +ok$`))
      expect(rows[3]).toBe("(last page)")

      // The record's fee: the receipt's, the fee payer's 30% of it.
      const receipt = JSON.parse(ok(yield* cli(["tx", "receipt", share, "--json"], env), secret))
      const fee = BigInt(receipt.gasUsed) * BigInt(receipt.gasPrice)
      const record = JSON.parse(ok(yield* cli(["history", "get", share, "--json"], env), secret))
      expect(record).toMatchObject({ transactionHash: share, chargedByPeb: String((fee * 30n) / 100n), typeInt: 10, status: "0x1", chainId: 1001 })
      const wholeReceipt = JSON.parse(ok(yield* cli(["tx", "receipt", whole, "--json"], env), secret))
      const wholeFee = BigInt(wholeReceipt.gasUsed) * BigInt(wholeReceipt.gasPrice)
      const details = ok(yield* cli(["history", "get", whole], env), secret)
      expect(details).toMatch(new RegExp(`^charged +[0-9.]+ KLAY \\(${wholeFee} peb\\)$`, "m"))
      expect(details).toMatch(/^type +TxTypeFeeDelegatedValueTransfer \(9\)$/m)
      expect(details).toMatch(/^status +ok \(0x1\)$/m)

      // Paid by its sender: the history has no record of it.
      failsWith(
        yield* cli(["history", "get", own], env),
        4,
        new RegExp(`^kas-wallet: no fee-delegation record of ${own} on chain 1001 \\(HTTP 400, code 1061010: .*\\); the global fee payer paid no fee of it \\(or it is in no block yet\\); check --chain$`),
        secret
      )
      expect(ok(yield* cli(["history", "list", "--from", to], env), secret)).toBe(`(no fee-delegated transactions of ${to})\n(last page)`)
    }).pipe(Effect.scoped), 60_000)
})
