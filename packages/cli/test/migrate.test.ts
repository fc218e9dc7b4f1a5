/**
 * `kas-wallet migrate <file|->` and `kas-wallet accounts register <file|->` against an emulator:
 * the private keys read from a file (or stdin, through the built CLI), never from a flag, never
 * printed — not in the table, `--json`, `--verbose`, nor any refusal of a malformed file —; each
 * account's outcome; the exit codes of a partial migration and of refusals.
 */
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Either, Redacted } from "effect"
import { WalletConfig } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as Shared from "../src/commands/shared/Spec.js"
import { bin, childEnv } from "./_process.js"
import { cli, cliEmulator } from "./_run.js"

const wallet = () => {
  const key = secp256k1.utils.randomSecretKey()
  const hex = Buffer.from(key).toString("hex")
  return { key, hex, address: Either.getOrThrow(Klaytn.addressOfKey(key)) }
}

/** Every way a private key could show. */
const forms = (w: { readonly key: Uint8Array; readonly hex: string }) => [w.hex, w.hex.toUpperCase(), Buffer.from(w.key).toString("base64"), BigInt(`0x${w.hex}`).toString()]

const clean = (text: string, wallets: ReadonlyArray<{ readonly key: Uint8Array; readonly hex: string }>) => {
  for (const w of wallets) for (const form of forms(w)) expect(text.includes(form), "a private key shows").toBe(false)
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kas-cli-migrate-"))
const file = (name: string, content: unknown) => {
  const at = path.join(dir, name)
  fs.writeFileSync(at, typeof content === "string" ? content : JSON.stringify(content), { mode: 0o600 })
  return at
}

/** The built CLI with `input` on its stdin. */
const withStdin = (args: ReadonlyArray<string>, env: Record<string, string>, input: string) =>
  Effect.async<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resume) => {
    const child = spawn(process.execPath, [bin, ...args], { env: childEnv(env), stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    child.stdin.end(input)
  })

describe("kas-wallet migrate", () => {
  it.scopedLive("migrates from a file: a table or JSON of outcomes; a partial migration exits 2; the migrated accounts are the pool's; no key is ever printed", () =>
    Effect.gen(function*() {
      const { emulator: e, env } = yield* cliEmulator()
      const [a, b, late] = [wallet(), wallet(), wallet()]
      const accounts = file("accounts.json", [
        { address: a.address, privateKey: `0x${a.hex}`, nonce: 0 },
        // The official client's field: a list of keys.
        { address: b.address, key: [b.hex], nonce: 0, gasPrice: "25ston" },
        { address: late.address, privateKeys: [`0x${late.hex}`], nonce: 4 }
      ])
      // No node is read: every nonce is given, the gas price by the file or the flag.
      const ran = yield* cli(["migrate", accounts, "--gas-price", "25ston", "--verbose", "--wide"], env)
      expect(ran.code, ran.err).toBe(2)
      const lines = ran.out.split("\n")
      expect(lines[0]).toMatch(/^ADDRESS\s+OUTCOME\s+KEY ID\s+DETAIL$/)
      expect(lines[1]).toContain(a.address)
      expect(lines[1]).toMatch(/migrated\s+krn:1001:wallet:.*:key-pool:default:0x[0-9a-f]{64}\s+nonce 0$/)
      expect(lines[2]).toMatch(/migrated/)
      expect(lines[3]).toMatch(/failed .*nonce too high$/)
      expect(lines[4]).toBe(`2 of 3 migrated into the default pool on chain 1001`)
      expect(ran.err.split("\n").at(-1)).toBe("kas-wallet: 1 of 3 accounts not migrated")
      clean(ran.out + ran.err, [a, b, late])

      // The accounts are the pool's: `accounts get` finds them under their new keys.
      const got = yield* cli(["accounts", "get", a.address, "--json"], env)
      expect(got.code, got.err).toBe(0)
      expect(JSON.parse(got.out).address).toBe(a.address)
      // Migrated once: a second migration of them fails, each with the service's reason.
      const again = yield* cli(["migrate", file("again.json", [{ address: a.address, privateKey: a.hex, nonce: 1, gasPrice: "25ston" }]), "--json"], env)
      expect(again.code).toBe(2)
      const outcome = JSON.parse(again.out)
      expect(outcome.status).toBe("all failed")
      expect(outcome.accounts[0]).toMatchObject({ address: a.address, outcome: "failed", reason: expect.stringContaining("already registered") })
      clean(again.out + again.err, [a])

      // --json of a full migration, its nonce and gas price read from the emulator's node: exit 0.
      const c = wallet()
      const ok = yield* cli(["migrate", file("c.json", { accounts: [{ address: c.address, privateKey: c.hex }] }), "--json"], { ...env, KAS_NODE_URL: `${e.url}/v1/klaytn` })
      expect(ok.code, ok.err).toBe(0)
      const json = JSON.parse(ok.out)
      expect(json.status).toBe("ok")
      expect(json.accounts[0]).toMatchObject({ address: c.address, outcome: "migrated", nonce: 0, senderTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
      const key = JSON.parse((yield* cli(["accounts", "get", c.address, "--json"], env)).out)
      expect(key.publicKey).toBe(json.accounts[0].publicKey)
      clean(ok.out + ok.err, [c])
      // A node that is not there: one line naming it, the transport's exit code, nothing created.
      const d = wallet()
      const port = yield* Effect.async<number>((resume) => {
        const server = net.createServer().listen(0, "127.0.0.1", () => {
          const { port } = server.address() as net.AddressInfo
          server.close(() => resume(Effect.succeed(port)))
        })
      })
      const down = yield* cli(["migrate", file("d.json", [{ address: d.address, privateKey: d.hex }]), "--node-url", `http://127.0.0.1:${port}/v1/klaytn`], env)
      expect(down.code).toBe(7)
      expect(down.err).toMatch(new RegExp(`^kas-wallet: cannot connect to http://127\\.0\\.0\\.1:${port}/v1/klaytn .*check --node-url / KAS_NODE_URL$`))
      clean(down.out + down.err, [d])
    }), 60_000)

  it.effect("a malformed file is refused by entry and field, never by value; keys are never a flag", () =>
    Effect.gen(function*() {
      const w = wallet()
      const env = { KAS_WALLET_URL: "http://127.0.0.1:9", KAS_ACCESS_KEY_ID: "KASKTEST", KAS_SECRET_ACCESS_KEY: "secret" }
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [`[{"address": "${w.address}", "privateKey": 0x${w.hex}}]`, "is not JSON"],
        [{ address: w.address, privateKey: w.hex }, "must hold a JSON array of accounts"],
        [[], "holds no account"],
        [[`0x${w.hex}`], "accounts[0] must be an object"],
        [[{ address: w.address, [`0x${w.hex}`]: true }], "accounts[0] has a field other than address, privateKey, privateKeys, key, nonce, gasPrice"],
        [[{ address: w.hex, privateKey: w.hex }], "invalid accounts[0].address: expected 0x and 40 hex digits"],
        [[{ address: w.address }], "accounts[0] must have exactly one of privateKey, privateKeys and key"],
        [[{ address: w.address, privateKey: w.hex, key: w.hex }], "accounts[0] must have exactly one of privateKey, privateKeys and key"],
        [[{ address: w.address, privateKey: [w.hex] }], "accounts[0].privateKey must be a private key as a string"],
        [[{ address: w.address, privateKeys: [] }], "accounts[0].privateKeys must be a non-empty list of private keys"],
        [[{ address: w.address, key: [[w.hex], [], []] }], "accounts[0].key[1] (the account-update role) must be a non-empty list"],
        [[{ address: w.address, privateKey: `0x${w.hex}00` }], "invalid accounts[0].privateKey: not a private key"],
        [[{ address: wallet().address, privateKey: w.hex }], "is not the key of"],
        [[{ address: w.address, privateKey: w.hex, nonce: -1 }], "accounts[0].nonce must be an integer from 0"],
        [[{ address: w.address, privateKey: w.hex, gasPrice: w.hex }], "accounts[0].gasPrice must be an amount with its unit"]
      ]
      for (const [content, message] of cases) {
        const at = file("bad.json", content)
        const ran = yield* cli(["migrate", at], env)
        expect({ content, code: ran.code, out: ran.out }).toEqual({ content, code: 2, out: "" })
        expect(ran.err).toContain(message)
        clean(ran.err, [w])
      }
      // A key on the command line is no flag of migrate: refused, and not shown.
      const flag = yield* cli(["migrate", "--private-key", w.hex, file("ok.json", [])], env)
      expect(flag.code).toBe(2)
      clean(flag.out + flag.err, [w])
      // The help's default is the client's.
      expect(Shared.flags.nodeUrl.default).toBe(WalletConfig.DefaultNodeUrl)
      const missing = yield* cli(["migrate", path.join(dir, "none.json")], env)
      expect([missing.code, missing.err]).toEqual([2, `kas-wallet: <file> ${path.join(dir, "none.json")} cannot be read: ENOENT`])
    }))

  it.scoped("reads the accounts from stdin (-) through the built CLI", () =>
    Effect.gen(function*() {
      const { env } = yield* cliEmulator()
      const w = wallet()
      const ran = yield* withStdin(["migrate", "-", "--json", "--gas-price", "25ston"], env, JSON.stringify([{ address: w.address, privateKey: w.hex, nonce: 0 }]))
      expect(ran.code, ran.stderr).toBe(0)
      expect(JSON.parse(ran.stdout).accounts[0]).toMatchObject({ address: w.address, outcome: "migrated" })
      clean(ran.stdout + ran.stderr, [w])
    }), 60_000)
})

describe("kas-wallet accounts register", () => {
  it.scoped("registers accounts whose key already is a key of the key service; the failed ones by address; exit 2 when not all", () =>
    Effect.gen(function*() {
      const { emulator: e, env } = yield* cliEmulator()
      // A key of the key service, and an account updated to it on its own (a relayed update).
      const keys = yield* Effect.promise(() =>
        fetch(`${e.url}/v2/key`, {
          method: "POST",
          headers: { authorization: Redacted.value(e.member.authorization), "x-chain-id": "1001", "content-type": "application/json" },
          body: JSON.stringify({ size: 1 })
        }).then((r) => r.json() as Promise<{ items: Array<{ keyId: string; publicKey: string }> }>)
      )
      const key = keys.items[0]!
      const w = wallet()
      const update = Either.getOrThrow(Klaytn.makeTransaction({
        kind: "account",
        from: w.address,
        value: 0n,
        nonce: 0,
        gas: 100_000,
        gasPrice: 25_000_000_000n,
        feeDelegated: true,
        key: Either.getOrThrow(Klaytn.encodeAccountKey({ _tag: "Public", publicKey: secp256k1.Point.fromHex(key.publicKey.slice(2)).toBytes(true) }))
      }))
      const rlp = `0x${Buffer.from(Either.getOrThrow(Klaytn.signAsSender(update, { chainId: 1001, sender: w.key }))).toString("hex")}`
      const other = wallet()
      const ran = yield* cli(["accounts", "register", file("register.json", [{ keyId: key.keyId, address: w.address, rlp }, { keyId: key.keyId, address: other.address }]), "--wide"], env)
      expect(ran.code).toBe(2)
      const lines = ran.out.split("\n")
      expect(lines[1]).toMatch(new RegExp(`^${w.address}\\s+registered\\s+${key.keyId}\\s+updated$`))
      expect(lines[2]).toMatch(/failed .*not AccountKeyPublic of the key's public key/)
      expect(lines[3]).toBe("1 of 2 registered into the default pool on chain 1001")
      expect(ran.err).toBe("kas-wallet: 1 of 2 accounts not registered")
      const refused = yield* cli(["accounts", "register", file("bad-register.json", [{ keyId: key.keyId, address: w.hex }])], env)
      expect([refused.code, refused.err]).toEqual([2, expect.stringContaining("items[0].address must be 0x and 40 hex digits")])
      clean(refused.err, [w])
      const unknown = yield* cli(["accounts", "register", file("unknown.json", [{ keyId: `${key.keyId.slice(0, -4)}abcd`, address: other.address }]), "--json"], env)
      expect([unknown.code, unknown.err]).toEqual([4, expect.stringContaining("a key id is not one of the member's keys on chain 1001")])
    }), 60_000)
})
