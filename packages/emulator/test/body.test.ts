/**
 * The request body limit, 64 KiB, on every route that reads a body (`POST /v2/feepayer`, the
 * transfers): a body of exactly 65536 bytes is read, one of 65537 is 400 1061615 `…; body`,
 * whether its length is declared (`Content-Length`) or not (chunked), and a refused transfer
 * changes nothing.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as http from "node:http"
import * as Emulator from "../src/Emulator.js"
import * as RequestBody from "../src/http/RequestBody.js"
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
    const sender = yield* Effect.orDie(e.balance(1001, from))
    return { feePayer, transfer, sender }
  })

const expectTooLarge = (reply: Reply) => {
  expectError(reply, 400, 1061615)
  expect(reply.body.message).toBe("its value is out of range; body")
}

layer(Layer.merge(Emulator.layer(), clientLayer))("request bodies: the 64 KiB limit", (it) => {
  it.effect("the limit is 65536 bytes", () =>
    Effect.sync(() => {
      expect(RequestBody.MaxBytes).toBe(65536)
    }))

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

  it.effect("64 KiB + 1 byte chunked is 400 1061615 `body`, closing the connection, and the transfer changes nothing", () =>
    Effect.gen(function*() {
      const { feePayer, sender, transfer } = yield* bothRoutes(65537, "chunked")
      expectTooLarge(feePayer)
      expectTooLarge(transfer)
      // The rest of the body is still on the connection: it cannot carry another request.
      expect(feePayer.headers.connection).toBe("close")
      expect(transfer.headers.connection).toBe("close")
      expect(sender.nonce).toBe(0)
      expect(sender.balance).toBe(KLAY)
    }))
})
