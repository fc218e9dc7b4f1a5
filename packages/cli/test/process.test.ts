/**
 * The emulator as a process (`node packages/cli/dist/kas-wallet.js emulator`): its data directory keeps every
 * acknowledged account and transfer across SIGKILL, sent right after a transfer is answered while
 * concurrent writers run (none half applied); secrets are shown once and never stored in clear; private
 * keys are sealed; a key from the environment is registered at start; SIGTERM answers the request
 * in flight, then exits 0. One scenario with two starts, since each start loads the whole program.
 * And a client command (`accounts get`, `migrate`) against a service that never answers: it ends
 * at its `--timeout`, with the transport's exit code and a line saying what timed out.
 * (The restart with the stored key, the settings to eval and the refusal of another master key are
 * tested in process: test/cli/emulator.test.ts.)
 *
 * Every wait is for something the process says or does (a line, an exit, a `100 Continue`), never
 * for a length of time.
 */
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import * as SqlClient from "@effect/sql/SqlClient"
import { Deferred, Effect, Either, Fiber, Layer, Option, Redacted, Ref } from "effect"
import * as fs from "node:fs/promises"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as Database from "../../emulator/src/store/Database.js"
import * as KeyVault from "../../emulator/src/store/KeyVault.js"
import * as LedgerStore from "../../emulator/src/store/LedgerStore.js"
import * as Store from "../../emulator/src/store/Store.js"
import { txApi } from "../../emulator/test/_ledger.js"
import { runCli, start } from "./_process.js"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import { keccak_256 } from "@noble/hashes/sha3.js"
import * as KasToken from "../src/tour/KasToken.js"
import { api, clientLayer, sendEither } from "../../emulator/test/_support.js"

const tempDir = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-emu-proc-"))),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
)

/**
 * Every byte the database keeps on disk (main file, WAL, shared memory), without the key file. A
 * WAL or shared-memory file that SQLite removes between the listing and the read (the last
 * connection closing, a process exiting) no longer holds anything: it reads as empty.
 */
const databaseBytes = (dir: string) =>
  Effect.promise(async () => {
    const names = (await fs.readdir(dir)).filter((n) => n.startsWith("emulator.db") && !n.endsWith(".key"))
    const read = (n: string) =>
      fs.readFile(path.join(dir, n)).catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT" && n !== "emulator.db") return Buffer.alloc(0)
        throw e
      })
    return Buffer.concat(await Promise.all(names.map(read)))
  })

const mode = (file: string) => Effect.promise(() => fs.stat(file)).pipe(Effect.map((s) => s.mode & 0o777))

/**
 * Sends a request with `Expect: 100-continue` on a raw connection: the server answers `100 Continue`
 * as it takes the request, so `taken` completes once the request is in flight; `reply` is the final
 * response's first line.
 */
const inFlightRequest = (url: string, head: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const taken = yield* Deferred.make<void>()
    const reply = yield* Deferred.make<string, Error>()
    const { hostname, port } = new URL(url)
    const socket = net.connect(Number(port), hostname)
    let received = ""
    socket.on("data", (chunk) => {
      received += chunk
      if (received.startsWith("HTTP/1.1 100")) Deferred.unsafeDone(taken, Effect.void)
      const final = /HTTP\/1\.1 [2-5]\d\d[^\r]*/.exec(received)
      if (final !== null) Deferred.unsafeDone(reply, Effect.succeed(final[0]))
    })
    socket.on("error", (e) => Deferred.unsafeDone(reply, Effect.fail(e)))
    socket.on("close", () => Deferred.unsafeDone(reply, Effect.fail(new Error(`closed after ${JSON.stringify(received)}`))))
    socket.write([...head, "expect: 100-continue", "content-length: 0", "", ""].join("\r\n"))
    yield* Effect.addFinalizer(() => Effect.sync(() => socket.destroy()))
    return { taken: Deferred.await(taken), reply: Deferred.await(reply) }
  })

describe("emulator process", () => {
  it.live("the data directory keeps every account, transfer (fee-delegated too) and contract execution answered 200 across SIGKILL under concurrent writers, none half applied; secrets stay out of it; SIGTERM answers the request in flight", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const first = yield* start(["--port", "0", "--data-dir", dir])
      const out = first.stdout()
      const secret = /^secret access key: (\S+)$/m.exec(out)?.[1]
      const accountId = /^created member (\S+) with access key id (\S+)$/m.exec(out)?.[1]
      const authorization = /^authorization: (Basic \S+)$/m.exec(out)?.[1]
      expect(secret).toMatch(/^[A-Za-z0-9]{40}$/)
      expect(out.split(secret!).length - 1).toBe(1)
      expect(out).toContain(`stored for reuse in ${path.join(dir, "secret-access-key")}, mode 0600`)
      expect(out).toContain(`export KAS_SECRET_ACCESS_KEY="$(cat ${path.join(dir, "secret-access-key")})"`)

      const a = api(first.url, accountId!, authorization!)
      const tx = txApi(first.url, accountId!, authorization!)
      const from = yield* tx.account()
      const to = yield* tx.account()
      // The console command writes to the database the running emulator serves.
      const funded = yield* runCli(["emulator", "fund", from, "100KLAY", "--data-dir", dir, "--json"])
      expect(funded.code, funded.stderr).toBe(0)
      expect(JSON.parse(funded.stdout).balance).toBe("100000000000000000000")

      // Writers that repeat a request without pause and keep what was answered 200. A group that
      // has `count` answers waits for every group to have theirs (`go`), then all go on together:
      // the kill finds every kind in flight, and the fast kinds do not run far ahead of the slow
      // ones meanwhile (the contract executions take longest: without the wait, 113-185 creates,
      // 40-52 transfers and 17-21 delegated ones were sent before their 6th answer, ~2 s of CPU
      // across both processes for nothing checked). `next` waits for the next answer after it is
      // asked (to kill the process right after one).
      const go = yield* Deferred.make<void>()
      const writers = <A, R>(n: number, count: number, send: Effect.Effect<Either.Either<A, unknown>, never, R>) =>
        Effect.gen(function*() {
          const acknowledged = yield* Ref.make<ReadonlyArray<A>>([])
          const enough = yield* Deferred.make<void>()
          const waiting = yield* Ref.make(Option.none<Deferred.Deferred<void>>())
          const fiber = yield* Effect.fork(Effect.forEach(Array.from({ length: n }), () =>
            Effect.forever(Effect.flatMap(send, (reply) =>
              Either.isRight(reply)
                ? Ref.updateAndGet(acknowledged, (xs) => [...xs, reply.right]).pipe(
                  Effect.tap((xs) => (xs.length >= count ? Deferred.succeed(enough, undefined) : Effect.void)),
                  Effect.tap(() => Effect.flatMap(Ref.getAndSet(waiting, Option.none()), Option.match({
                    onNone: () => Effect.void,
                    onSome: (d) => Deferred.succeed(d, undefined)
                  }))),
                  Effect.flatMap((xs) => (xs.length >= count ? Deferred.await(go) : Effect.void))
                )
                : Effect.void)), { concurrency: n, discard: true }))
          const next = Effect.flatMap(Deferred.make<void>(), (d) => Effect.zipRight(Ref.set(waiting, Option.some(d)), Deferred.await(d)))
          return { enough: Deferred.await(enough), next, fiber, acknowledged: Ref.get(acknowledged) }
        })
      // A token deployed by an account with no KLAY: the global fee payer pays its fees.
      const supply = 10n ** 24n
      const word = (hex: string) => hex.replace(/^0x/, "").toLowerCase().padStart(64, "0")
      const cfrom = yield* tx.account()
      const deployed = yield* tx.post("/v2/tx/fd/contract/deploy", { from: cfrom, input: `${KasToken.bytecode}${word(supply.toString(16))}` })
      expect(deployed.status, deployed.text).toBe(200)
      // Klaytn's contract address: keccak256(rlp([sender, 0]))[12:] (rlp: 0xd6 0x94 <20 bytes> 0x80).
      const token = `0x${Buffer.from(keccak_256(Buffer.from(`d694${cfrom.slice(2).toLowerCase()}80`, "hex"))).subarray(12).toString("hex")}`
      const transferOne = `0xa9059cbb${word(to)}${word("1")}`

      // A second sender, whose transfers the global fee payer pays (funded through the console route).
      const dfrom = yield* tx.account()
      expect((yield* tx.post("/_emulator/fund", { address: dfrom, amount: "100" })).status).toBe(200)

      // 8 writers create accounts, 4 send transfers from one account, 2 fee-delegated ones from
      // another and 2 execute the token's transfer(to, 1) from a third, all at once; the process is
      // killed while they are in flight, right after a transfer is answered.
      const creates = yield* writers(8, 30, Effect.map(Effect.either(sendEither("POST", `${first.url}/v2/account`, a.headers(1001))), (r) =>
        Either.isRight(r) && r.right.status === 200 ? Either.right(r.right.body) : Either.left(r)))
      const sentBy = (kind: "value" | "fd", sender: string) =>
        Effect.map(Effect.either(tx.transfer(kind, { from: sender, to, value: "0x1" })), (r) =>
          Either.isRight(r) && r.right.status === 200
            ? Either.right({ hash: r.right.body.transactionHash as string, nonce: r.right.body.nonce as number })
            : Either.left(r))
      const transfers = yield* writers(4, 12, sentBy("value", from))
      const delegated = yield* writers(2, 6, sentBy("fd", dfrom))
      const executions = yield* writers(2, 6, Effect.map(Effect.either(tx.post("/v2/tx/fd/contract/execute", { from: cfrom, to: token, input: transferOne })), (r) =>
        Either.isRight(r) && r.right.status === 200
          ? Either.right({ hash: r.right.body.transactionHash as string, nonce: r.right.body.nonce as number })
          : Either.left(r)))
      yield* creates.enough
      yield* transfers.enough
      yield* delegated.enough
      yield* executions.enough
      yield* Deferred.succeed(go, undefined)
      yield* transfers.next
      first.child.kill("SIGKILL")
      expect(yield* first.exited).toBe("SIGKILL")
      yield* Fiber.interrupt(creates.fiber)
      yield* Fiber.interrupt(transfers.fiber)
      yield* Fiber.interrupt(delegated.fiber)
      yield* Fiber.interrupt(executions.fiber)
      const acked = yield* creates.acknowledged
      const sentAcked = yield* transfers.acknowledged
      const delegatedAcked = yield* delegated.acknowledged
      const executedAcked = yield* executions.acknowledged

      // The secret and the Authorization value are nowhere in the database; the files are private.
      const bytes = yield* databaseBytes(dir)
      expect(bytes.length).toBeGreaterThan(0)
      expect(bytes.includes(Buffer.from(secret!))).toBe(false)
      expect(bytes.includes(Buffer.from(authorization!.slice(6)))).toBe(false)
      expect(yield* mode(dir)).toBe(0o700)
      for (const file of ["secret-access-key", "member.json", "env", "emulator.db.key"]) {
        expect(yield* mode(path.join(dir, file)), file).toBe(0o600)
      }
      expect(yield* Effect.promise(() => fs.readFile(path.join(dir, "secret-access-key"), "utf8"))).toBe(`${secret}\n`)

      // The restart registers a key given in the environment for the same member (the restart with
      // the stored key is tested in process: test/cli/emulator.test.ts) and prints no secret. Each
      // request now waits 400 ms, so that the one below is still in flight at SIGTERM, sent as soon
      // as it is taken.
      const envKey = { KAS_ACCESS_KEY_ID: "KASKFROMENVIRONMENT00001", KAS_SECRET_ACCESS_KEY: "env-secret", KAS_ACCOUNT_ID: accountId! }
      const second = yield* start(
        ["--port", "0", "--data-dir", dir, "--fault-rate", "1", "--fault-kinds", "latency", "--fault-latency", "400 millis"],
        envKey
      )
      expect(second.stdout()).toContain(`member ${accountId}, access key id KASKFROMENVIRONMENT00001\n`)
      expect(second.stdout()).not.toContain(secret!)
      expect(second.stdout()).not.toContain("env-secret")
      const envAuthorization = `Basic ${Buffer.from("KASKFROMENVIRONMENT00001:env-secret").toString("base64")}`
      const b = api(second.url, accountId!, envAuthorization)
      const stored = new Map((yield* b.listAll(1001, { size: 1000 })).items.map((i: any) => [i.address, i]))
      for (const account of acked) expect(stored.get(account.address)).toEqual(account)

      // SIGTERM stops gracefully: the request in flight is answered, then the process exits 0.
      const request = yield* inFlightRequest(second.url, [
        "POST /v2/account HTTP/1.1",
        `host: ${new URL(second.url).host}`,
        `authorization: ${envAuthorization}`,
        "x-chain-id: 1001"
      ])
      yield* request.taken
      second.child.kill("SIGTERM")
      expect(yield* request.reply).toBe("HTTP/1.1 200 OK")
      expect(yield* second.exited).toBe(0)
      expect(second.stderr()).toBe("")
      expect(Either.isLeft(yield* Effect.either(sendEither("GET", `${second.url}/health`)))).toBe(true)

      // The private keys are sealed with the master key in the data directory: opened, they are the
      // accounts' keys, and they are not on disk in clear.
      const sample = acked.slice(0, 10)
      const opened = yield* Effect.gen(function*() {
        const vault = yield* KeyVault.KeyVault
        const store = yield* Store.Store
        return yield* Effect.forEach(sample, (account) =>
          Effect.map(store.sealedPrivateKey(account.address.toLowerCase()), (sealed) => ({
            account,
            privateKey: Option.flatMap(sealed, (s) => vault.open(s, account.address.toLowerCase()))
          })))
      }).pipe(
        Effect.provide(
          KeyVault.layer({}).pipe(Layer.provideMerge(Store.layer), Layer.provideMerge(Database.layer({ database: path.join(dir, "emulator.db") })))
        )
      )
      const after = yield* databaseBytes(dir)
      for (const { account, privateKey } of opened) {
        const key = Redacted.value(Option.getOrThrow(privateKey))
        expect(`0x${Buffer.from(secp256k1.getPublicKey(key, false)).toString("hex")}`).toBe(account.publicKey)
        expect(after.includes(Buffer.from(key))).toBe(false)
        expect(after.includes(Buffer.from(Buffer.from(key).toString("hex")))).toBe(false)
      }
      const columns = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql`SELECT * FROM accounts LIMIT 1`
      }).pipe(Effect.provide(Database.layer({ database: path.join(dir, "emulator.db") })))
      expect(Object.keys(columns[0]!).sort()).toEqual(
        ["address", "address_lc", "created_at", "key_hex", "multisig", "pool_id", "private_key", "public_key", "seq", "status", "updated_at"]
      )

      // Every acknowledged transfer is stored; the ledger agrees with the stored transfers exactly
      // (also those sent but not yet answered when the process died): none is half applied.
      // The token's balanceOf is its mapping at slot 1 (totalSupply is slot 0; constants take none).
      const balanceSlot = (owner: string) => `0x${Buffer.from(keccak_256(Buffer.from(`${word(owner)}${word("1")}`, "hex"))).toString("hex")}`
      const { bill, contract, delegator, receiver, sender, storedDelegated, storedExecutions, storedTxs } = yield* Effect.gen(function*() {
        const store = yield* LedgerStore.LedgerStore
        const storedTxs = yield* Effect.forEach(sentAcked, (t) => store.transaction(1001, t.hash))
        const storedDelegated = yield* Effect.forEach(delegatedAcked, (t) => store.transaction(1001, t.hash))
        const storedExecutions = yield* Effect.forEach(executedAcked, (t) => store.transaction(1001, t.hash))
        const balances = yield* store.balances(1001, [from.toLowerCase(), to.toLowerCase(), cfrom.toLowerCase(), dfrom.toLowerCase()])
        const bill = (yield* store.bills({ chainId: 1001 })).find((b) => b.accountId === accountId)!
        const contract = {
          nonce: balances.get(cfrom.toLowerCase())!.nonce,
          toBalance: BigInt(yield* store.storage(1001, token, balanceSlot(to))),
          fromBalance: BigInt(yield* store.storage(1001, token, balanceSlot(cfrom)))
        }
        return {
          bill,
          contract,
          storedTxs,
          storedDelegated,
          storedExecutions,
          sender: balances.get(from.toLowerCase())!,
          delegator: balances.get(dfrom.toLowerCase())!,
          receiver: balances.get(to.toLowerCase())!
        }
      }).pipe(Effect.provide(LedgerStore.layer.pipe(Layer.provide(Database.layer({ database: path.join(dir, "emulator.db") })))))
      storedTxs.forEach((t, i) => expect(Option.map(t, (row) => row.nonce), sentAcked[i]!.hash).toEqual(Option.some(sentAcked[i]!.nonce)))
      storedDelegated.forEach((t, i) => expect(Option.map(t, (row) => row.nonce), delegatedAcked[i]!.hash).toEqual(Option.some(delegatedAcked[i]!.nonce)))
      const sent = sender.nonce
      const sentDelegated = delegator.nonce
      expect(sent).toBeGreaterThanOrEqual(sentAcked.length)
      expect(sentDelegated).toBeGreaterThanOrEqual(delegatedAcked.length)
      expect(new Set(sentAcked.map((t) => t.nonce)).size).toBe(sentAcked.length)
      expect(new Set(delegatedAcked.map((t) => t.nonce)).size).toBe(delegatedAcked.length)
      expect(receiver.balance).toBe(BigInt(sent + sentDelegated))
      expect(sender.balance).toBe(100n * 10n ** 18n - BigInt(sent) * (1n + 21_000n * 25_000_000_000n))
      // The global fee payer's transactions (the deployment, the executions, the delegated
      // transfers) are each on the bill exactly once.
      expect(delegator.balance).toBe(100n - BigInt(sentDelegated))
      expect(bill.transactions).toBe(contract.nonce + sentDelegated)
      // Every acknowledged execution is stored, and the token's storage holds exactly the
      // executions the ledger holds (the deployment is nonce 0): none half applied.
      storedExecutions.forEach((t, i) => expect(Option.map(t, (row) => row.nonce), executedAcked[i]!.hash).toEqual(Option.some(executedAcked[i]!.nonce)))
      const executed = BigInt(contract.nonce - 1)
      expect(executed).toBeGreaterThanOrEqual(BigInt(executedAcked.length))
      expect(contract.toBalance).toBe(executed)
      expect(contract.fromBalance).toBe(supply - executed)
    }).pipe(Effect.scoped, Effect.provide(clientLayer)), { timeout: 120_000 })
})

describe("a client command against a service that never answers", () => {
  /** A server that takes connections and never writes a byte: its URL. */
  const silentServer = Effect.acquireRelease(
    Effect.async<{ readonly server: net.Server; readonly sockets: Set<net.Socket> }>((resume) => {
      const sockets = new Set<net.Socket>()
      const server = net.createServer((socket) => void sockets.add(socket))
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, sockets })))
    }),
    ({ server, sockets }) =>
      Effect.async<void>((resume) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ server }) => `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`))

  // Only a bound against a hang, far above any deadline below: the command's end is what is awaited.
  const ended = <A, E>(effect: Effect.Effect<A, E>) =>
    Effect.timeoutFail(effect, { duration: "90 seconds", onTimeout: () => new Error("the command did not end") })

  it.scopedLive("--timeout 1s, before the command or after it: accounts get and migrate end with exit 7 and a line naming the operation, the attempt and the deadline", () =>
    Effect.gen(function*() {
      const url = yield* silentServer
      const env = {
        KAS_WALLET_URL: url,
        KAS_NODE_URL: `${url}/v1/klaytn`,
        KAS_ACCESS_KEY_ID: "KASKSILENTSERVICE0001",
        KAS_SECRET_ACCESS_KEY: "silent-service-secret",
        KAS_CHAIN_ID: "1001"
      }
      const key = secp256k1.utils.randomSecretKey()
      const address = Either.getOrThrow(Klaytn.addressOfKey(key))
      const dir = yield* tempDir
      const accounts = path.join(dir, "accounts.json")
      yield* Effect.promise(() => fs.writeFile(accounts, JSON.stringify([{ address, privateKey: Buffer.from(key).toString("hex") }]), { mode: 0o600 }))
      // Both commands at once: each waits out its deadline, and neither needs the other's.
      const began = Date.now()
      const [get, migrate] = yield* Effect.all([
        ended(runCli(["--timeout", "1s", "accounts", "get", address], env)).pipe(Effect.map((r) => ({ ...r, took: Date.now() - began }))),
        ended(runCli(["migrate", accounts, "--timeout", "1s"], env))
      ], { concurrency: 2 })
      expect(get.code).toBe(7)
      expect(get.stderr.trim()).toBe(
        `kas-wallet: ${url} did not answer in time: GET /v2/account/${address}: getAccount: no complete response within 1s, the deadline of the whole call ` +
          "(attempts and the waits between them); attempt 1 of 3 was stopped after 1s; --timeout (KAS_TIMEOUT) sets how long a request may take, retries included"
      )
      // Its own deadline ended it, not the default one (30 s): the margin is for a loaded machine.
      expect(get.took).toBeLessThan(25_000)

      expect(migrate.code).toBe(7)
      expect(migrate.stderr).toMatch(
        new RegExp(`^kas-wallet: ${url}/v1/klaytn did not answer in time: POST /v1/klaytn: node\\.klay_\\w+: no complete response within 1s, the deadline of the whole call`)
      )
      expect(migrate.stdout + migrate.stderr).not.toContain(Buffer.from(key).toString("hex"))
    }), 180_000)
})
