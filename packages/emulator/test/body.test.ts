/**
 * The request body limit, 64 KiB, on every route that reads a body (`POST /v2/feepayer`, the
 * transfers): a body of exactly 65536 bytes is read, one of 65537 is 400 1061615 `…; body`,
 * whether its length is declared (`Content-Length`) or not (chunked), and a refused transfer
 * changes nothing. Both framings are refused alike: the rest of the body is read and dropped and
 * the connection carries the next request.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import * as http from "node:http"
import * as net from "node:net"
import * as Emulator from "../src/Emulator.js"
import { memberTx } from "./_ledger.js"
import { clientLayer, expectError, type Reply } from "./_support.js"

const KLAY = 10n ** 18n
const OUTSIDER = "0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"

type Framing = "declared" | "chunked"

/**
 * POSTs a body with its length declared, or chunked in two pieces (no Content-Length): what
 * fetch does not let a test choose.
 */
const post = (url: string, headers: Readonly<Record<string, string>>, body: string, framing: Framing) =>
  Effect.async<Reply>((resume) => {
    const bytes = Buffer.from(body, "utf8")
    const framingHeaders = framing === "declared"
      ? { "content-length": String(bytes.length) }
      : { "transfer-encoding": "chunked" }
    let done = false
    const finish = (reply: Reply) => {
      if (!done) resume(Effect.succeed(reply))
      done = true
    }
    const req = http.request(url, {
      method: "POST",
      agent: false,
      headers: { ...headers, "content-type": "application/json", ...framingHeaders }
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let parsed: unknown
        try {
          parsed = JSON.parse(text)
        } catch {
          parsed = undefined
        }
        const replyHeaders: Record<string, string> = {}
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") replyHeaders[k] = v
        finish({ status: res.statusCode ?? 0, headers: replyHeaders, text, body: parsed })
      })
    })
    // A connection closed without an answer is status 0: the test then fails on the status.
    req.on("error", (e) => finish({ status: 0, headers: {}, text: String(e), body: undefined }))
    if (framing === "declared") {
      req.end(bytes)
    } else {
      req.write(bytes.subarray(0, 1000))
      req.end(bytes.subarray(1000))
    }
  })

/**
 * One connection, as a client that keeps sending after an early answer: a POST of `total` body
 * bytes (declared or one chunk at a time) of which `first` go out, the rest once the answer has
 * come, then `GET /health`. The answers that came, in order; a reset or a close before the second
 * one leaves it out.
 */
const sendOnAfterAnswer = (
  url: string,
  path: string,
  headers: Readonly<Record<string, string>>,
  framing: Framing,
  first: number,
  total: number
) =>
  Effect.async<ReadonlyArray<Reply>>((resume) => {
    const { hostname, port } = new URL(url)
    const socket = net.connect({ host: hostname, port: Number(port) })
    const replies: Array<Reply> = []
    let buffer = Buffer.alloc(0)
    let done = false
    const finish = () => {
      if (!done) resume(Effect.succeed(replies))
      done = true
      socket.destroy()
    }
    const piece = (n: number) => {
      const bytes = Buffer.alloc(n, 0x20)
      return framing === "declared" ? bytes : Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), bytes, Buffer.from("\r\n")])
    }
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      // Every answer here declares its length.
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n")
        if (end < 0) return
        const head = buffer.subarray(0, end).toString("latin1").split("\r\n")
        const fields: Record<string, string> = {}
        for (const line of head.slice(1)) {
          const colon = line.indexOf(":")
          fields[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
        }
        const length = Number(fields["content-length"] ?? 0)
        if (buffer.length < end + 4 + length) return
        const text = buffer.subarray(end + 4, end + 4 + length).toString("utf8")
        buffer = buffer.subarray(end + 4 + length)
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          body = undefined
        }
        replies.push({ status: Number(head[0]!.split(" ")[1]), headers: fields, text, body })
        if (replies.length === 1) {
          socket.write(piece(total - first))
          if (framing === "chunked") socket.write("0\r\n\r\n")
          socket.write("GET /health HTTP/1.1\r\nhost: emulator\r\n\r\n")
        } else return finish()
      }
    })
    socket.on("error", finish)
    socket.on("close", finish)
    const head = Object.entries({
      ...headers,
      host: "emulator",
      "content-type": "application/json",
      ...(framing === "declared" ? { "content-length": String(total) } : { "transfer-encoding": "chunked" })
    }).map(([k, v]) => `${k}: ${v}\r\n`).join("")
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`)
    socket.write(piece(first))
    return Effect.sync(finish)
  })

/** JSON text padded with trailing white space (still valid JSON) to exactly `size` bytes. */
const padded = (value: unknown, size: number) => {
  const text = JSON.stringify(value)
  const padding = size - Buffer.byteLength(text, "utf8")
  expect(padding).toBeGreaterThan(0)
  return text + " ".repeat(padding)
}

/** Sends a fee-payer create and a transfer with bodies of `size` bytes. */
const bothRoutes = (size: number, framing: Framing) =>
  Effect.gen(function*() {
    const e = yield* Emulator.Emulator
    const tx = memberTx(e)
    const from = yield* tx.account()
    yield* Effect.orDie(e.fund(1001, from, KLAY))
    const headers = { authorization: tx.authorization, "x-chain-id": "1001" }
    const feePayer = yield* post(`${e.url}/v2/feepayer`, headers, padded({ withoutAccountUpdate: true }, size), framing)
    const transfer = yield* post(`${e.url}/v2/tx/value`, headers, padded({ from, to: OUTSIDER, value: "0x1" }, size), framing)
    // Interval mining: a transfer accepted is applied when its block is made.
    yield* TestClock.adjust("1 second")
    const sender = yield* Effect.orDie(e.balance(1001, from))
    return { feePayer, transfer, sender }
  })

const expectTooLarge = (reply: Reply) => {
  expectError(reply, 400, 1061615)
  expect(reply.body.message).toBe("its value is out of range; body")
}

layer(Layer.merge(Emulator.layer(), clientLayer))("request bodies: the 64 KiB limit", (it) => {
  it.effect("exactly 64 KiB with a declared Content-Length is read", () =>
    Effect.gen(function*() {
      const { feePayer, sender, transfer } = yield* bothRoutes(65536, "declared")
      expect(feePayer.status, feePayer.text).toBe(200)
      expect(transfer.status, transfer.text).toBe(200)
      expect(transfer.body.status).toBe("Submitted")
      expect(sender.nonce).toBe(1)
    }))

  it.effect("64 KiB + 1 byte with a declared Content-Length is 400 1061615 `body`, and the transfer changes nothing", () =>
    Effect.gen(function*() {
      const { feePayer, sender, transfer } = yield* bothRoutes(65537, "declared")
      expectTooLarge(feePayer)
      expectTooLarge(transfer)
      expect(sender.nonce).toBe(0)
      expect(sender.balance).toBe(KLAY)
    }))

  it.effect("exactly 64 KiB chunked (no Content-Length) is read", () =>
    Effect.gen(function*() {
      const { feePayer, sender, transfer } = yield* bothRoutes(65536, "chunked")
      expect(feePayer.status, feePayer.text).toBe(200)
      expect(transfer.status, transfer.text).toBe(200)
      expect(transfer.body.status).toBe("Submitted")
      expect(sender.nonce).toBe(1)
    }))

  it.effect("64 KiB + 1 byte chunked is 400 1061615 `body`, and the transfer changes nothing", () =>
    Effect.gen(function*() {
      const { feePayer, sender, transfer } = yield* bothRoutes(65537, "chunked")
      expectTooLarge(feePayer)
      expectTooLarge(transfer)
      expect(sender.nonce).toBe(0)
      expect(sender.balance).toBe(KLAY)
    }))

  it.effect("a body over the limit is answered alike, declared or chunked: 400 at once, the rest read and dropped, the connection kept for the next request", () =>
    Effect.gen(function*() {
      const e = yield* Emulator.Emulator
      const headers = { authorization: memberTx(e).authorization, "x-chain-id": "1001" }
      for (const framing of ["declared", "chunked"] as const) {
        // 80 KB before the answer, 100 KB more after it: a client that closed on the answer
        // would have its connection reset under its writes.
        const [refused, next] = yield* sendOnAfterAnswer(e.url, "/v2/tx/value", headers, framing, 80_000, 180_000)
        expect(refused, framing).toBeDefined()
        expectTooLarge(refused!)
        expect(refused!.headers.connection, framing).not.toBe("close")
        expect(next?.status, framing).toBe(200)
        expect(next?.body, framing).toEqual({ status: "ok" })
      }
    }))
})
