/**
 * Raw HTTP helpers for the emulator tests: requests through @effect/platform's HttpClient (the
 * client library is not used here on purpose: these tests pin the wire contract itself).
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import * as SqlClient from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import type { ChainId } from "effect-kas-wallet"
import * as fs from "node:fs/promises"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as Emulator from "../src/Emulator.js"
import * as Database from "../src/store/Database.js"
import * as KeyVault from "../src/store/KeyVault.js"
import * as Store from "../src/store/Store.js"
import * as Accounts from "../src/services/Accounts.js"
import * as Cursors from "../src/services/Cursors.js"

/** A response, read whole. */
export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** The parsed JSON body, or `undefined` when the body is not JSON. */
  readonly body: any
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The HTTP client layer of the tests. */
export const clientLayer = NodeHttpClient.layerUndici

/** Sends one request; transport failures (a dropped connection) are failures of the effect. */
export const sendEither = (
  method: HttpMethod,
  url: string,
  headers: Readonly<Record<string, string>> = {},
  body?: string
) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const request = HttpClientRequest.make(method)(url).pipe(HttpClientRequest.setHeaders(headers))
    const response = yield* client.execute(
      body === undefined ? request : HttpClientRequest.bodyText(request, body, "application/json")
    )
    const text = yield* response.text
    const reply: Reply = { status: response.status, headers: response.headers, text, body: parse(text) }
    return reply
  })

/** Sends one request; a transport failure is a defect (the test fails). */
export const send = (method: HttpMethod, url: string, headers: Readonly<Record<string, string>> = {}, body?: string) =>
  Effect.orDie(sendEither(method, url, headers, body))

/** Whether a reply is an error of the service's shape with this status and code. */
export const expectError = (reply: Reply, status: number, code: number) => {
  if (reply.status !== status || reply.body?.code !== code) {
    expect({ status: reply.status, code: reply.body?.code }, reply.text).toEqual({ status, code })
  }
  expectKasErrorBody(reply)
}

// Whether `expectKasErrorBody` holds, without vitest's `expect`: the property tests check
// thousands of replies, and each `expect` costs vitest its bookkeeping (a tenth of a property
// test's CPU). Only a reply that fails is put through the `expect`s, for their messages.
const isKasErrorBody = (reply: Reply): boolean => {
  const body = reply.body
  if (typeof body !== "object" || body === null) return false
  const keys = Object.keys(body).sort()
  return keys.length === 3 && keys[0] === "code" && keys[1] === "message" && keys[2] === "requestId" &&
    Number.isInteger(body.code) && typeof body.message === "string" && typeof body.requestId === "string" &&
    reply.headers["x-request-id"] === body.requestId
}

/** The body is `{code, message, requestId}` and the request id is the header's. */
export const expectKasErrorBody = (reply: Reply) => {
  if (isKasErrorBody(reply)) return
  expect(reply.body, reply.text).toBeTypeOf("object")
  expect(Object.keys(reply.body).sort()).toEqual(["code", "message", "requestId"])
  expect(Number.isInteger(reply.body.code)).toBe(true)
  expect(reply.body.message).toBeTypeOf("string")
  expect(reply.body.requestId).toBeTypeOf("string")
  expect(reply.headers["x-request-id"]).toBe(reply.body.requestId)
}

/** Query parameters of a list request. */
export type Query = Readonly<Record<string, string | number | undefined>>

const queryString = (query: Query) => {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.append(k, String(v))
  const s = params.toString()
  return s === "" ? "" : `?${s}`
}

/** A member's view of an emulator over raw HTTP. */
export interface Api {
  readonly url: string
  readonly accountId: string
  readonly authorization: string
  readonly headers: (chainId: number, krn?: string) => Record<string, string>
  readonly create: (chainId: number, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  readonly get: (chainId: number, address: string, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  readonly list: (chainId: number, query?: Query, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  /** Follows cursors to the end; every page must be 200. */
  readonly listAll: (
    chainId: number,
    query?: Query,
    krn?: string
  ) => Effect.Effect<{ readonly items: ReadonlyArray<any>; readonly pages: ReadonlyArray<any> }, never, HttpClient.HttpClient>
  /** The KRN of one of this member's pools. */
  readonly krn: (chainId: number, pool?: string) => string
  /** The KRN of one of this member's fee-payer pools. */
  readonly feePayerKrn: (chainId: number, pool?: string) => string
  readonly remove: (chainId: number, address: string, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  readonly disable: (chainId: number, address: string, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  readonly enable: (chainId: number, address: string, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  readonly byPublicKey: (chainId: number, publicKey: string, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  readonly count: (chainId: number, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  readonly countPool: (chainId: number, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  /** The fee-payer routes; `create` sends `body` when given. */
  readonly feePayers: {
    readonly create: (chainId: number, krn?: string, body?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
    readonly get: (chainId: number, address: string, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
    readonly remove: (chainId: number, address: string, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
    readonly list: (chainId: number, query?: Query, krn?: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
    readonly listAll: (
      chainId: number,
      query?: Query,
      krn?: string
    ) => Effect.Effect<{ readonly items: ReadonlyArray<any>; readonly pages: ReadonlyArray<any> }, never, HttpClient.HttpClient>
  }
}

/** Follows cursors to the end; every page must be 200. */
const following = (list: (query: Query) => Effect.Effect<Reply, never, HttpClient.HttpClient>, query: Query) =>
  Effect.gen(function*() {
    const pages: Array<any> = []
    let cursor = ""
    do {
      const reply = yield* list({ ...query, cursor: cursor === "" ? undefined : cursor })
      expect(reply.status, reply.text).toBe(200)
      pages.push(reply.body)
      cursor = reply.body.cursor
      if (pages.length > 10_000) throw new Error("listing does not end")
    } while (cursor !== "")
    return { items: pages.flatMap((p) => p.items), pages }
  })

/** The raw API of a member with the given credentials. */
export const api = (url: string, accountId: string, authorization: string): Api => {
  const headers = (chainId: number, krn?: string) => ({
    authorization,
    "x-chain-id": String(chainId),
    ...(krn !== undefined ? { "x-krn": krn } : {})
  })
  const list = (chainId: number, query: Query = {}, krn?: string) =>
    send("GET", `${url}/v2/account${queryString(query)}`, headers(chainId, krn))
  const feePayerList = (chainId: number, query: Query = {}, krn?: string) =>
    send("GET", `${url}/v2/feepayer${queryString(query)}`, headers(chainId, krn))
  return {
    url,
    accountId,
    authorization,
    headers,
    create: (chainId, krn) => send("POST", `${url}/v2/account`, headers(chainId, krn)),
    get: (chainId, address, krn) => send("GET", `${url}/v2/account/${address}`, headers(chainId, krn)),
    list,
    listAll: (chainId, query = {}, krn) => following((q) => list(chainId, q, krn), query),
    krn: (chainId, pool = "default") => `krn:${chainId}:wallet:${accountId}:account-pool:${pool}`,
    feePayerKrn: (chainId, pool = "default") => `krn:${chainId}:wallet:${accountId}:feepayer-pool:${pool}`,
    remove: (chainId, address, krn) => send("DELETE", `${url}/v2/account/${address}`, headers(chainId, krn)),
    disable: (chainId, address, krn) => send("PUT", `${url}/v2/account/${address}/disable`, headers(chainId, krn)),
    enable: (chainId, address, krn) => send("PUT", `${url}/v2/account/${address}/enable`, headers(chainId, krn)),
    byPublicKey: (chainId, publicKey, krn) => send("GET", `${url}/v2/pubkey/${publicKey}/account`, headers(chainId, krn)),
    count: (chainId, krn) => send("GET", `${url}/v2/stat/count`, headers(chainId, krn)),
    countPool: (chainId, krn) => send("GET", `${url}/v2/stat/count/krn`, headers(chainId, krn)),
    feePayers: {
      create: (chainId, krn, body) => send("POST", `${url}/v2/feepayer`, headers(chainId, krn), body),
      get: (chainId, address, krn) => send("GET", `${url}/v2/feepayer/${address}`, headers(chainId, krn)),
      remove: (chainId, address, krn) => send("DELETE", `${url}/v2/feepayer/${address}`, headers(chainId, krn)),
      list: feePayerList,
      listAll: (chainId, query = {}, krn) => following((q) => feePayerList(chainId, q, krn), query)
    }
  }
}

/** The raw API of the emulator's ready member. */
export const memberApi = Effect.map(Emulator.Emulator, (e) =>
  api(e.url, e.member.accountId, Redacted.value(e.member.authorization)))

/** A new member with a key, through the console operations, and its raw API. */
export const newMemberApi = Effect.gen(function*() {
  const e = yield* Emulator.Emulator
  const member = yield* e.createMember()
  const key = yield* e.createKey(member.accountId)
  return api(e.url, member.accountId, Redacted.value(key.authorization))
}).pipe(Effect.orDie)

/** An emulator over a database file in a fresh directory (removed with the scope), and its file. */
export const fileEmulator = Effect.gen(function*() {
  const dir = yield* Effect.acquireRelease(
    Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-emu-file-"))),
    (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
  )
  const database = path.join(dir, "emulator.db")
  const emulator = yield* Emulator.make({ port: 0, database })
  return { emulator, database }
}).pipe(Effect.orDie)

/**
 * Adds `n` accounts to a member's default pool on a chain, as `POST /v2/account` makes them
 * (`Accounts.createAccount`: fresh keys, sealed with the database's master key, created now), but
 * straight into the database file of an emulator (`fileEmulator`), through a connection of its
 * own and in one transaction: for the tests that need many accounts to list, not to create (each
 * create over HTTP costs a few milliseconds).
 */
export const addAccounts = (database: string, accountId: string, chainId: ChainId.ChainId, n: number) =>
  Effect.gen(function*() {
    const store = yield* Store.Store
    const wallet = yield* Accounts.Accounts
    const sql = yield* SqlClient.SqlClient
    const member = Option.getOrThrow(yield* store.findMember(accountId))
    const pool = yield* wallet.selectPool({ memberId: member.id, accountId }, chainId, Option.none(), "account")
    yield* sql.withTransaction(Effect.forEach(Array.from({ length: n }), () => wallet.createAccount(pool), { discard: true }))
  }).pipe(
    Effect.provide(
      Accounts.layer.pipe(
        Layer.provideMerge(Cursors.layer),
        Layer.provideMerge(KeyVault.layer({})),
        Layer.provideMerge(Store.layer),
        Layer.provideMerge(Database.layer({ database }))
      )
    ),
    Effect.orDie
  )

/** `Basic base64(text)`. */
export const basic = (text: string) => `Basic ${Buffer.from(text, "utf8").toString("base64")}`

/**
 * Writes raw request bytes on a fresh connection and reads until the server closes it: for what an
 * HTTP client library will not send (repeated credentials, CONNECT). `status` is 0 when the
 * connection closed without an answer.
 */
export const rawExchange = (url: string, request: string) =>
  Effect.async<Reply>((resume) => {
    const { hostname, port } = new URL(url)
    const socket = net.connect({ host: hostname, port: Number(port) })
    const chunks: Array<Buffer> = []
    socket.on("data", (chunk) => chunks.push(chunk))
    socket.on("error", () => socket.destroy())
    socket.on("close", () => resume(Effect.succeed(parseRawReply(Buffer.concat(chunks).toString("utf8")))))
    socket.write(request)
  })

const parseRawReply = (raw: string): Reply => {
  const end = raw.indexOf("\r\n\r\n")
  if (end < 0) return { status: 0, headers: {}, text: raw, body: undefined }
  const [statusLine = "", ...lines] = raw.slice(0, end).split("\r\n")
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(":")
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const text = raw.slice(end + 4)
  return { status: Number(statusLine.split(" ")[1]), headers, text, body: parse(text) }
}
