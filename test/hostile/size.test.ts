/**
 * Response size: huge bodies (declared or not), bodies at the limit, and a gzip bomb, on every
 * transport: a typed `ResponseTooLarge` (never a crash), memory bounded well under the body's
 * size, and the connection dropped rather than left to the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import type * as http from "node:http"
import * as zlib from "node:zlib"
import { readFileSync } from "node:fs"
import * as WalletApi from "../../src/api/WalletApi.js"
import { WalletClient, WalletConfig, type WalletError } from "../../src/index.js"
import { accountJson } from "../support/fakeWallet.js"
import * as S from "./server.js"

const address = accountJson(0).address
const MB = 1_000_000
const KiB = 1024
const MiB = 1024 * 1024

let server: S.Server
beforeAll(async () => {
  server = await S.start()
})
afterAll(() => server.close())

/** The client's largest extra resident memory during `effect`, sampled every few milliseconds. */
const peakGrowth = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const base = process.memoryUsage().rss
    let peak = base
    const sample = () => {
      peak = Math.max(peak, process.memoryUsage().rss)
    }
    const timer = setInterval(sample, 2)
    const exit = yield* Effect.exit(effect).pipe(Effect.ensuring(Effect.sync(() => clearInterval(timer))))
    sample()
    return { exit, growth: peak - base }
  })

const getAccount = (transport: S.Transport, extra: Partial<WalletConfig.Options> = {}) =>
  Effect.provide(
    WalletClient.getAccount(address),
    WalletClient.layer(S.options(server.url, extra)).pipe(Layer.provide(transport), Layer.orDie)
  )

const failure = <A>(exit: Exit.Exit<A, WalletError.WalletError>): WalletError.WalletError => {
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value)}`)
  const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  if (error === undefined) throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return error
}

/**
 * Streams `total` spaces, with or without a content-length. Resolves when the response closes:
 * `true` when it closed before the server could write it all, so the client dropped the connection
 * rather than reading the body to its end. A client that stops reading and leaves the connection
 * open never resolves it: the test then fails at its timeout, whatever the machine's load.
 */
const huge = (total: number, declared: boolean) =>
  new Promise<boolean>((resolve) =>
    server.handle((_req, res) => {
      res.on("close", () => resolve(!res.writableFinished))
      res.writeHead(200, { "content-type": "application/json", ...(declared ? { "content-length": String(total) } : {}) })
      S.pump(res, Buffer.alloc(64 * KiB, 0x20), total)
    })
  )

/** The account's JSON padded with trailing spaces (valid JSON) to exactly `n` bytes. */
const accountOfSize = (n: number): Buffer => {
  const text = JSON.stringify(accountJson(0))
  return Buffer.from(text + " ".repeat(n - Buffer.byteLength(text)))
}

// A gzip bomb: 1024 concatenated gzip members of 1 MiB of zeros each (a valid multi-member
// stream, which every gunzip decodes whole): about 1 MiB on the wire, 1 GiB inflated. Built from
// one small compression, never held inflated.
const member = zlib.gzipSync(Buffer.alloc(MiB), { level: 9 })
const bomb = Buffer.concat(Array.from({ length: 1024 }, () => member))

const gzipped = (body: Buffer): http.RequestListener => (_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(body.length) })
  res.end(body)
}

describe.each(S.transports)("response size over %s", (name, transport) => {
  for (const total of [100 * MB, 600 * MB]) {
    for (const declared of [true, false]) {
      it.live(`a ${total / MB} MB body ${declared ? "with" : "without"} content-length: ResponseTooLarge, bounded memory, connection dropped`, () =>
        Effect.gen(function*() {
          const closed = huge(total, declared)
          const { exit, growth } = yield* peakGrowth(getAccount(transport))
          const error = failure(exit)
          expect(error._tag).toBe("ResponseTooLarge")
          expect((error as WalletError.ResponseTooLarge).limit).toBe(WalletConfig.DefaultMaxResponseBytes)
          expect(error.message).toContain(`response body larger than ${WalletConfig.DefaultMaxResponseBytes} bytes`)
          expect(growth, `${name}: resident memory grew by ${(growth / MB).toFixed(0)} MB`).toBeLessThan(100 * MB)
          expect(yield* Effect.promise(() => closed), `${name}: the client read the whole body`).toBe(true)
        }))
    }
  }

  it.live("64 KiB limit: a body of exactly the limit is read, one byte more is not (declared or not)", () =>
    Effect.gen(function*() {
      const limit = 64 * KiB
      for (const declared of [true, false]) {
        for (const size of [limit, limit + 1]) {
          const body = accountOfSize(size)
          server.handle((_req, res) => {
            res.writeHead(200, { "content-type": "application/json", ...(declared ? { "content-length": String(size) } : {}) })
            // Chunked in two writes: the limit is counted across chunks.
            res.write(body.subarray(0, 1000))
            res.end(body.subarray(1000))
          })
          const exit = yield* Effect.exit(getAccount(transport, { maxResponseBytes: limit }))
          const label = `${size} bytes, ${declared ? "declared" : "chunked"}`
          if (size === limit) {
            expect(Exit.isSuccess(exit), label).toBe(true)
          } else {
            const error = failure(exit)
            expect(error._tag, label).toBe("ResponseTooLarge")
            expect((error as WalletError.ResponseTooLarge).limit).toBe(limit)
          }
        }
      }
    }))

  it.live("a gzip bomb (1 MiB → 1 GiB): never inflated past the limit, bounded memory", () =>
    Effect.gen(function*() {
      server.handle(gzipped(bomb))
      const { exit, growth } = yield* peakGrowth(getAccount(transport))
      const error = failure(exit)
      // fetch inflates (and counts the inflated bytes); the Node transports never inflate, and the
      // compressed megabyte they read is not JSON.
      expect(error._tag).toBe(name === "fetch" ? "ResponseTooLarge" : "ResponseDecodeError")
      expect(growth, `${name}: resident memory grew by ${(growth / MB).toFixed(0)} MB`).toBeLessThan(100 * MB)
      // Under a limit smaller than the compressed bomb, every transport stops at the limit.
      const small = yield* Effect.exit(getAccount(transport, { maxResponseBytes: 64 * KiB }))
      expect(failure(small)._tag).toBe("ResponseTooLarge")
    }))

  it.live("a receipt over the default limit (its logs) is read: the receipt's own limit, 64 MiB; an explicit maxResponseBytes holds for receipts too", () =>
    Effect.gen(function*() {
      // A receipt with logs, padded to 24 MB (the size of a 30M-gas transaction's 74,316 logs).
      const receipt = readFileSync(new URL("../fixtures/tx/tx-receipt-200-contract-execution-receipt-which-has-logs.json", import.meta.url), "utf8")
      const body = Buffer.from(receipt.trimEnd() + " ".repeat(24 * MB - Buffer.byteLength(receipt.trimEnd())))
      server.handle((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) })
        res.end(body)
      })
      const hash = JSON.parse(receipt).transactionHash as string
      const read = (extra: Partial<WalletConfig.Options>) =>
        Effect.exit(Effect.provide(
          WalletClient.getTransactionReceipt(hash),
          WalletClient.layer(S.options(server.url, extra)).pipe(Layer.provide(transport), Layer.orDie)
        ))
      // The default limit; a timeout no loaded machine reaches while 24 MB are read and decoded.
      const slow = { timeout: "5 minutes" } as const
      const exit = yield* read(slow)
      expect(Exit.isSuccess(exit) && exit.value.transactionHash, name).toBe(hash)
      expect(WalletApi.ReceiptMaxBytes).toBeGreaterThan(24 * MB)
      // The same size is too large for an operation without a limit of its own.
      expect(failure(yield* Effect.exit(getAccount(transport, slow)))._tag).toBe("ResponseTooLarge")
      // The option, when given, is every operation's limit.
      const limited = failure(yield* read({ ...slow, maxResponseBytes: 16 * MiB }))
      expect([limited._tag, (limited as WalletError.ResponseTooLarge).limit]).toEqual(["ResponseTooLarge", 16 * MiB])
      expect(limited.message).toContain("maxResponseBytes")
    }), 120_000)

  it.live("the limit counts inflated bytes: 1 KB compressed, just over 64 KiB inflated", () =>
    Effect.gen(function*() {
      const limit = 64 * KiB
      for (const size of [limit, limit + 1]) {
        const compressed = zlib.gzipSync(accountOfSize(size))
        expect(compressed.length).toBeLessThan(2 * KiB)
        server.handle(gzipped(compressed))
        const exit = yield* Effect.exit(getAccount(transport, { maxResponseBytes: limit }))
        if (name === "fetch") {
          if (size === limit) expect(Exit.isSuccess(exit)).toBe(true)
          else expect(failure(exit)._tag).toBe("ResponseTooLarge")
        } else {
          // Not inflated: the compressed bytes are what the client reads, and they are not JSON.
          expect(failure(exit)._tag).toBe("ResponseDecodeError")
        }
      }
    }))
})

describe("maxResponseBytes", () => {
  it.effect("accepts 1 KiB to 256 MiB, whole numbers only; no request is sent otherwise", () =>
    Effect.gen(function*() {
      server.handle((_req, res) => res.writeHead(500).end())
      for (const bad of [1023, 256 * MiB + 1, WalletConfig.MaxResponseBytesLimit + 1, 2 ** 30, 1.5, Number.NaN]) {
        const error = yield* Effect.flip(
          Effect.provide(WalletClient.make(S.options(server.url, { maxResponseBytes: bad })), S.transports[0]![1])
        )
        expect(error._tag).toBe("InvalidArgument")
        expect((error as WalletError.InvalidArgument).argument).toBe("maxResponseBytes")
      }
      expect(server.seen).toHaveLength(0)
      for (const good of [1024, 256 * MiB, WalletConfig.MaxResponseBytesLimit]) {
        yield* Effect.provide(WalletClient.make(S.options(server.url, { maxResponseBytes: good })), S.transports[0]![1])
      }
    }))
})
