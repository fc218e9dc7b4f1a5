/**
 * What verified results and reliable sends cost, and what a reliable send survives:
 * - result verification: the client's CPU per fee-delegated transfer with `verifyResults` on and
 *   off, interleaved, against a fixed-body server in a child process answering a real signed
 *   transfer (so the client's CPU is the client's own);
 * - one signer's check (its recovery, the address compared): libsecp256k1 in WebAssembly against
 *   @noble/curves' recovery, side by side, with one signer and with 1000 in turn;
 * - one signature (`Klaytn.sign`'s work) and one public key: libsecp256k1 in WebAssembly against
 *   @noble/curves, side by side (the same bytes: test/internal/secp256k1.test.ts);
 * - the reliable send's round trips on the happy path, counted at the emulator;
 * - fault × outcome: `send` and `sendReliably` of a transfer through a proxy in front of the
 *   emulator that loses the answer after the emulator accepted the transaction (connection
 *   dropped, a 503 in its place, no answer until the client's timeout): what the user gets, how
 *   many times the emulator was asked to submit, and whether the value moved exactly once.
 *
 * Run alone: `node --expose-gc --import tsx test/bench/run.ts --one transactions`.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Duration, Effect, Exit, Layer, ManagedRuntime, Redacted, Schedule, Scope } from "effect"
import * as http from "node:http"
import * as Emulator from "../../packages/emulator/src/Emulator.js"
import { ChainId, FeeDelegation, Transaction, TransactionKind, WalletClient } from "../../src/index.js"
import { recoverer, signer } from "../../src/internal/secp256k1Wasm.js"
import * as Signatures from "../../src/klaytn/Signatures.js"
import { transferResult } from "./fixtures.js"
import { compare, cpuMs, median, spread, verdict } from "./harness.js"
import { start } from "./server.js"

const RUNS = 5
const PER_RUN = 300

const clientRuntime = (url: string, options: { readonly verifyResults?: boolean | "fields"; readonly timeout?: Duration.DurationInput } = {}) =>
  ManagedRuntime.make(
    WalletClient.layer({
      credentials: { accessKeyId: "bench", secretAccessKey: Redacted.make("secret") },
      chainId: ChainId.Testnet,
      baseUrl: url,
      ...options
    }).pipe(Layer.provideMerge(FetchHttpClient.layer), Layer.orDie)
  )

// ---- Verification: client CPU per transfer, on / off

const verificationCost = async (): Promise<Array<string>> => {
  const server = await start({ pages: 1 })
  const levels = [
    ["verification on (default)", clientRuntime(server.url)],
    ["`verifyResults: \"fields\"`", clientRuntime(server.url, { verifyResults: "fields" })],
    ["verification off", clientRuntime(server.url, { verifyResults: false })]
  ] as const
  const transfer = WalletClient.transferValue({ from: transferResult.from, to: transferResult.to, value: transferResult.value, feePayer: FeeDelegation.global })
  const cpuPer = (runtime: (typeof levels)[number][1], n: number) =>
    runtime.runPromise(Effect.suspend(() => {
      const start = cpuMs()
      return Effect.map(Effect.repeatN(transfer, n - 1), () => (cpuMs() - start) / n)
    }))
  // Warm every level (the codec's first load, JIT).
  for (const [, runtime] of levels) await cpuPer(runtime, 50)
  const perRun: Array<Array<number>> = levels.map(() => [])
  for (let run = 0; run < RUNS; run++) {
    // Interleaved in slices, the order rotating.
    const slices: Array<Array<number>> = levels.map(() => [])
    for (let slice = 0; slice < 6; slice++) {
      for (let k = 0; k < levels.length; k++) {
        const i = (k + slice) % levels.length
        slices[i]!.push(await cpuPer(levels[i]![1], PER_RUN / 6))
      }
    }
    slices.forEach((xs, i) => perRun[i]!.push(median(xs)))
  }
  for (const [, runtime] of levels) await runtime.dispose()
  server.stop()
  const off = perRun[2]!
  const ratio = (i: number) => perRun[i]!.map((ms, run) => ms / off[run]!)
  const overhead = (i: number) => median(ratio(i)) - 1
  return [
    "| client CPU per fee-delegated transfer (fixed-body server in a child process) | median ms | against off |",
    "| --- | --- | --- |",
    ...levels.map(([name], i) => `| ${name} | ${median(perRun[i]!).toFixed(3)} | ${i === 2 ? "1" : spread(ratio(i), 3)} |`),
    "",
    `Target: verification costs at most 5% of a transfer's client-side time: on, ${(overhead(0) * 100).toFixed(0)}% — ${verdict(overhead(0) <= 0.05)}; ` +
    `\`"fields"\` (all but the signers' recovery), ${(overhead(1) * 100).toFixed(0)}% — ${verdict(overhead(1) <= 0.05)}.`
  ]
}

// ---- One signer's check: libsecp256k1 in WebAssembly against @noble/curves, 1 and 1000 signers

const signerCheck = async (): Promise<Array<string>> => {
  const recover = recoverer()
  if (recover === undefined) return ["WebAssembly is unavailable here: the signers' recovery was not measured."]
  const CHAIN = 1001
  const make = (signers: number) => {
    const keys = Array.from({ length: signers }, (_, i) => Uint8Array.from({ length: 32 }, (_, j) => (i * 31 + j * 7 + 1) % 251 + 1))
    const addresses = keys.map((k) => Signatures.addressOfKeyUnsafe(k))
    // 64 signatures, each by the next signer round the list (with 1000 signers, each seen once).
    return Array.from({ length: 64 }, (_, i) => {
      const hash = keccak_256(new Uint8Array([i, signers & 255, signers >> 8]))
      return { hash, address: addresses[i % signers]!, signature: Signatures.signUnsafe(hash, keys[i % signers]!, CHAIN) }
    })
  }
  const rows: Array<string> = []
  for (const signers of [1, 1000]) {
    const signed = make(signers)
    const ratios: Array<number> = []
    let last: ReadonlyArray<{ readonly medianMs: number }> = []
    for (let run = 0; run < RUNS; run++) {
      last = await compare([
        // What the client runs: the checks of V, R and S, the recovery, the address compared.
        { name: "wasm", run: () => signed.forEach(({ address, hash, signature }) => Signatures.checkSignerUnsafe(hash, signature, CHAIN, address, () => "")) },
        // What it runs where WebAssembly cannot be compiled (the recovery only).
        { name: "noble", run: () => signed.forEach(({ hash, signature }) => new secp256k1.Signature(signature.r, signature.s, signature.v - (2 * CHAIN + 35)).recoverPublicKey(hash)) }
      ], { rounds: 10, warmup: 2 })
      ratios.push(last[1]!.medianMs / last[0]!.medianMs)
    }
    const per = (i: number) => `${(last[i]!.medianMs / signed.length * 1000).toFixed(0)} µs`
    rows.push(`| ${signers === 1 ? "one signer, again and again" : "1000 signers in turn"} | ${per(0)} | ${per(1)} | ${spread(ratios)} |`)
  }
  return [
    "| one signer's check (recovery, the address compared) | libsecp256k1 in WebAssembly, per signature (last run) | @noble/curves' recovery | @noble/curves / WebAssembly |",
    "| --- | --- | --- | --- |",
    ...rows
  ]
}

// ---- One signature and one public key: libsecp256k1 in WebAssembly against @noble/curves

const signing = async (): Promise<Array<string>> => {
  const wasm = signer()
  if (wasm === undefined) return ["WebAssembly is unavailable here: signing was not measured."]
  const keys = Array.from({ length: 64 }, (_, i) => keccak_256(new Uint8Array([i, 1])))
  const hashes = keys.map((k) => keccak_256(k))
  const cases = [
    {
      name: "one signature (RFC 6979, low s, recovery id)",
      wasm: () => keys.forEach((k, i) => wasm.sign(hashes[i]!, k)),
      noble: () => keys.forEach((k, i) => secp256k1.Signature.fromBytes(secp256k1.sign(hashes[i]!, k, { prehash: false, format: "recovered" }), "recovered"))
    },
    {
      name: "one public key (65 bytes)",
      wasm: () => keys.forEach((k) => wasm.publicKey(k, false)),
      noble: () => keys.forEach((k) => secp256k1.getPublicKey(k, false))
    }
  ]
  const rows: Array<string> = []
  for (const c of cases) {
    const ratios: Array<number> = []
    let last: ReadonlyArray<{ readonly medianMs: number }> = []
    for (let run = 0; run < RUNS; run++) {
      last = await compare([{ name: "wasm", run: c.wasm }, { name: "noble", run: c.noble }], { rounds: 10, warmup: 2 })
      ratios.push(last[1]!.medianMs / last[0]!.medianMs)
    }
    const per = (i: number) => `${(last[i]!.medianMs / keys.length * 1000).toFixed(0)} µs`
    rows.push(`| ${c.name} | ${per(0)} | ${per(1)} | ${spread(ratios)} |`)
  }
  return [
    "| signing | libsecp256k1 in WebAssembly (last run) | @noble/curves (last run) | @noble/curves / WebAssembly |",
    "| --- | --- | --- | --- |",
    ...rows
  ]
}

// ---- Reliable sends through a faulty proxy in front of the emulator

type Fault = "none" | "drop" | "503" | "timeout"

/**
 * A proxy that forwards everything; for the first submission it sees (a POST to .../rlp, or the
 * transfer itself for a plain send), it lets the emulator answer and then loses the answer as
 * `fault` says.
 */
const proxy = (target: string, fault: Fault, faulty: (method: string, path: string) => boolean) => {
  const seen = { submissions: 0, requests: 0, faulted: false }
  const server = http.createServer((req, res) => {
    seen.requests++
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const path = req.url ?? "/"
      const isSubmission = faulty(req.method ?? "GET", path)
      if (isSubmission) seen.submissions++
      const forward = http.request(`${target}${path}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (upstream) => {
        const body: Array<Buffer> = []
        upstream.on("data", (c: Buffer) => body.push(c))
        upstream.on("end", () => {
          if (isSubmission && !seen.faulted && fault !== "none") {
            seen.faulted = true
            // The emulator accepted the transaction; the client never learns it.
            if (fault === "drop") return req.socket.destroy()
            if (fault === "503") {
              res.writeHead(503, { "content-type": "application/json" })
              return res.end(JSON.stringify({ code: 1099503, message: "service unavailable" }))
            }
            return // timeout: no answer at all
          }
          res.writeHead(upstream.statusCode ?? 500, upstream.headers)
          res.end(Buffer.concat(body))
        })
      })
      forward.end(Buffer.concat(chunks))
    })
  })
  return new Promise<{ readonly url: string; readonly seen: typeof seen; readonly close: () => void }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        seen,
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      }))
  )
}

const faultCase = async (emulator: Emulator.Service, fault: Fault, reliable: boolean) => {
  const viaProxy = await proxy(emulator.url, fault, (method, path) =>
    method === "POST" && (reliable ? path.endsWith("/rlp") : path === "/v2/tx/fd/value"))
  const runtime = ManagedRuntime.make(
    WalletClient.layer({
      credentials: { accessKeyId: emulator.member.accessKeyId, secretAccessKey: emulator.member.secretAccessKey },
      chainId: ChainId.Testnet,
      baseUrl: viaProxy.url,
      timeout: "1 second"
    }).pipe(Layer.provideMerge(FetchHttpClient.layer), Layer.orDie)
  )
  const outcome = await runtime.runPromise(Effect.gen(function*() {
    const from = (yield* WalletClient.createAccount()).address
    const to = (yield* WalletClient.createAccount()).address
    yield* Effect.orDie(emulator.fund(1001, from, 10n ** 18n))
    const kind = TransactionKind.ValueTransfer({ to, value: 77n })
    const sent = yield* Effect.exit(
      reliable
        ? WalletClient.sendReliably(kind, { from, feePayer: FeeDelegation.global, resubmit: Schedule.spaced("200 millis").pipe(Schedule.compose(Schedule.recurs(4))) })
        : WalletClient.send(kind, { from, feePayer: FeeDelegation.global })
    )
    // Whatever the client was told, what the chain did: let every block be made, then read.
    yield* Effect.sleep("2500 millis")
    const moved = (yield* Effect.orDie(emulator.balance(1001, to))).balance
    const told = Exit.match(sent, {
      onSuccess: (r) => (Transaction.isSigned(r) ? `the transaction (${r.status})` : "a pending result"),
      onFailure: (cause) => {
        const error = cause._tag === "Fail" ? cause.error : undefined
        const hash = error !== undefined && "hash" in error && typeof error.hash === "string" ? ", with its hash" : ", no hash"
        return `${error?._tag ?? "a defect"}${hash}`
      }
    })
    return { told, moved }
  }))
  await runtime.dispose()
  viaProxy.close()
  return { told: outcome.told, moved: outcome.moved, submissions: viaProxy.seen.submissions, requests: viaProxy.seen.requests }
}

const faultTable = async (): Promise<Array<string>> => {
  const scope = Effect.runSync(Scope.make())
  const emulator = await Effect.runPromise(Scope.extend(Emulator.make({ port: 0, database: ":memory:", blockInterval: "200 millis" }), scope))
  const rows: Array<string> = [
    "| fault after the emulator accepted | `send`: the user gets | value moved | `sendReliably`: the user gets | submissions | value moved |",
    "| --- | --- | --- | --- | --- | --- |"
  ]
  const names: Record<Fault, string> = {
    none: "none (happy path)",
    drop: "connection dropped",
    "503": "503 instead of the answer",
    timeout: "no answer (client timeout, 1 s)"
  }
  let exactlyOnce = true
  let happyRequests = 0
  for (const fault of ["none", "drop", "503", "timeout"] as const) {
    const plain = await faultCase(emulator, fault, false)
    const reliable = await faultCase(emulator, fault, true)
    if (reliable.moved !== 77n) exactlyOnce = false
    // Account set-up (2 creates) aside: the requests of the send itself.
    if (fault === "none") happyRequests = reliable.requests - 2
    rows.push(`| ${names[fault]} | ${plain.told} | ${plain.moved === 77n ? "once" : plain.moved === 0n ? "no" : `${plain.moved} peb`} | ${reliable.told} | ${reliable.submissions} | ${reliable.moved === 77n ? "**once**" : `**${reliable.moved} peb**`} |`)
  }
  await Effect.runPromise(Scope.close(scope, Exit.void))
  return [
    ...rows,
    "",
    `Round trips of \`sendReliably\` on the happy path: ${happyRequests} (sign with \`submit: false\`, submit the signed bytes), against 1 for \`send\` — one extra, ${verdict(happyRequests <= 2)}.`,
    `The value moves exactly once in every fault case — ${verdict(exactlyOnce)}. \`send\` leaves the user blind in the same cases (an error without a hash, while the value moved).`
  ]
}

export const run = async (): Promise<ReadonlyArray<string>> => {
  const lines: Array<string> = ["### Verified results and reliable sends", ""]
  lines.push(...await verificationCost(), "")
  lines.push(...await signerCheck(), "")
  lines.push(...await signing(), "")
  lines.push(...await faultTable())
  return lines
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await run()).join("\n"))
