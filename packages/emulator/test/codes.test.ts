/**
 * docs/errors.md's table of codes is the emulator's and the client's: it lists every code the
 * emulator can answer (`ApiError.Code`), each under its name, with the status the emulator
 * answers it with, and the tag the client makes of that answer (the client's own mapping, run on
 * the answer as the emulator renders it).
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { ChainId, WalletClient } from "effect-kas-wallet"
import { readFileSync } from "node:fs"
import * as ApiError from "../src/http/ApiError.js"

interface Row {
  readonly code: number
  readonly statuses: ReadonlyArray<number>
  readonly name: string
  readonly tag: string
}

const doc = readFileSync(new URL("../../../docs/errors.md", import.meta.url), "utf8")
const section = doc.slice(doc.indexOf("## Every code, and the tag it becomes"))
const rows: ReadonlyArray<Row> = [...section.matchAll(/^\| (\d{7}) \| ([\d, ]+) \| `(\w+)`[^|]* \| `(\w+)` \| .+ \|$/gm)].map((m) => ({
  code: Number(m[1]),
  statuses: m[2]!.split(",").map((s) => Number(s.trim())),
  name: m[3]!,
  tag: m[4]!
}))

// The statuses of the codes the emulator does not answer with 400: its constructors, and the
// faults (App), whose codes end in their status.
const statusesOf = (name: string): ReadonlyArray<number> => {
  switch (name) {
    case "InvalidPathOrMethod":
      return [ApiError.notFound().status, ApiError.methodNotAllowed("GET").status]
    case "InvalidAuthorization":
      return [ApiError.invalidAuthorization().status]
    case "CredentialMismatch":
      return [ApiError.credentialMismatch().status]
    case "EmulatorInternal":
      return [ApiError.internal().status]
    case "EmulatorFaultTooManyRequests":
      return [429]
    case "EmulatorFaultInternal":
      return [500]
    case "EmulatorFaultUnavailable":
      return [503]
    default:
      return [400]
  }
}

/** The client, given one answer of the emulator's shape for every request. */
const answering = (error: ApiError.ApiError) =>
  WalletClient.layer({
    credentials: { accessKeyId: "id", secretAccessKey: Redacted.make("secret") },
    chainId: ChainId.Testnet,
    baseUrl: "http://127.0.0.1:1",
    retry: false
  }).pipe(
    Layer.provide(Layer.succeed(
      HttpClient.HttpClient,
      HttpClient.make((request) =>
        Effect.succeed(HttpClientResponse.fromWeb(
          request,
          new Response(JSON.stringify(ApiError.toBody(error, "request-id")), {
            status: error.status,
            headers: { "content-type": "application/json", "x-request-id": "request-id", ...error.headers }
          })
        ))
      )
    )),
    Layer.orDie
  )

describe("docs/errors.md: every code", () => {
  it("lists every code the emulator answers, once, under its name", () => {
    expect(rows.map((r) => r.code)).toEqual([...new Set(rows.map((r) => r.code))].sort())
    expect(rows.map((r) => r.code).sort()).toEqual(Object.values(ApiError.Code).sort())
    for (const row of rows) expect(ApiError.Code[row.name as keyof typeof ApiError.Code], row.name).toBe(row.code)
  })

  it("with the status the emulator answers it with", () => {
    for (const row of rows) expect(row.statuses, String(row.code)).toEqual(statusesOf(row.name))
  })

  it.effect("and the tag the client makes of that answer", () =>
    Effect.gen(function*() {
      expect(rows.length).toBeGreaterThan(25)
      for (const row of rows) {
        for (const status of row.statuses) {
          const answer = new ApiError.ApiError({
            status,
            code: row.code,
            message: "as the emulator answers",
            headers: status === 405 ? { allow: "GET" } : status === 429 ? { "retry-after": "1" } : {}
          })
          const error = yield* Effect.flip(Effect.provide(WalletClient.createAccount(), answering(answer)))
          expect({ code: row.code, status, tag: error._tag }).toEqual({ code: row.code, status, tag: row.tag })
          expect("code" in error ? error.code : undefined).toBe(row.code)
        }
      }
    }))
})
