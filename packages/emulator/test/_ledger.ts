/**
 * Helpers of the ledger tests: JSON requests to the transaction routes, and an independent check of
 * a signed transaction (RLP decoded by @ethereumjs/rlp, signers recovered by @noble/curves, hashes
 * by @noble/hashes: nothing of the emulator's own encoder).
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { expect } from "@effect/vitest"
import { RLP } from "@ethereumjs/rlp"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Effect, Redacted } from "effect"
import type * as Emulator from "../src/Emulator.js"
import { bytesOf, hex, listOf, minimal, type Nested, recover, unhex } from "./support/klaytn.js"
import type { Reply } from "./_support.js"

export { hex, unhex }

const wire = (n: bigint | number) => `0x${BigInt(n).toString(16)}`

/**
 * Checks a transaction result (or a receipt) of the emulator against its own `rlp`, decoded
 * independently: every field, the sender's and the fee payer's signatures (recovered), the hash
 * (keccak256 of the bytes) and, for receipts, the sender's hash. `raw` is the result's `rlp`, or a
 * receipt's known raw bytes.
 */
export const verifySigned = (result: any, raw: Uint8Array, chainId: number) => {
  const type = raw[0]!
  expect(type).toBe(result.typeInt)
  const memo = type >= 0x10
  const ratio = type === 0x0a || type === 0x12
  const delegated = type !== 0x08 && type !== 0x10
  const fields = listOf(RLP.decode(raw.subarray(1)) as Nested)
  const signed: Array<Uint8Array> = [
    minimal(BigInt(result.nonce)),
    minimal(BigInt(result.gasPrice)),
    minimal(BigInt(result.gas)),
    unhex(result.to),
    minimal(BigInt(result.value)),
    unhex(result.from),
    ...(memo ? [unhex(result.input)] : []),
    ...(ratio ? [minimal(BigInt(result.feeRatio))] : [])
  ]
  expect(fields.length).toBe(signed.length + 1 + (delegated ? 2 : 0))
  for (let i = 0; i < signed.length; i++) expect(hex(bytesOf(fields[i])), `field ${i}`).toBe(hex(signed[i]!))
  if (!memo) expect(result.input === undefined || result.input === "0x").toBe(true)
  if (!ratio) expect(result.feeRatio === undefined || result.feeRatio === 0).toBe(true)

  // The sender signs keccak256(rlp([rlp([type, ...fields]), chainId, 0, 0])).
  const typed = RLP.encode([minimal(type), ...signed])
  const senderHash = keccak_256(RLP.encode([typed, minimal(chainId), new Uint8Array(), new Uint8Array()]))
  const senderSigs = listOf(fields[signed.length])
  expect(senderSigs.length).toBe(1)
  const sender = recover(senderHash, senderSigs[0]!, chainId)
  expect(sender.address).toBe(result.from)
  expect(result.signatures).toEqual([{ V: wire(sender.v), R: wire(sender.r), S: wire(sender.s) }])

  if (delegated) {
    const payer = hex(bytesOf(fields[signed.length + 1]))
    expect(payer).toBe(result.feePayer)
    const payerHash = keccak_256(RLP.encode([typed, unhex(payer), minimal(chainId), new Uint8Array(), new Uint8Array()]))
    const payerSigs = listOf(fields[signed.length + 2])
    expect(payerSigs.length).toBe(1)
    expect(recover(payerHash, payerSigs[0]!, chainId).address).toBe(payer)
  } else {
    expect(result.feePayer).toBeUndefined()
  }
  expect(result.transactionHash).toBe(hex(keccak_256(raw)))
  const senderRaw = Uint8Array.from([type, ...RLP.encode(fields.slice(0, signed.length + 1) as Array<Uint8Array>)])
  return { senderTxHash: hex(keccak_256(senderRaw)) }
}

/** A member's view of the transaction routes over raw HTTP. */
export interface TxApi {
  readonly url: string
  readonly accountId: string
  readonly authorization: string
  /** POST of a JSON body (or raw text) to a route. */
  readonly post: (path: string, body: unknown, options?: { readonly chainId?: number; readonly krn?: string }) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  /** PUT without a body (disable, enable). */
  readonly put: (path: string) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  /** Any method with a JSON body (a cancel is a DELETE, an account update a PUT). */
  readonly request: (
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    body: unknown,
    options?: { readonly chainId?: number; readonly krn?: string }
  ) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  readonly transfer: (
    kind: "value" | "fd" | "fd-user",
    body: unknown,
    options?: { readonly chainId?: number; readonly krn?: string }
  ) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  readonly receipt: (hash: string, options?: { readonly chainId?: number; readonly krn?: string }) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  /** A new account (or fee-payer account) of this member: its address. */
  readonly account: (options?: { readonly chainId?: number; readonly krn?: string }) => Effect.Effect<string, never, HttpClient.HttpClient>
  readonly feePayer: (options?: { readonly chainId?: number; readonly krn?: string }) => Effect.Effect<string, never, HttpClient.HttpClient>
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The transaction routes for a member with this `Authorization`. */
export const txApi = (url: string, accountId: string, authorization: string): TxApi => {
  const request = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body: unknown, options: { readonly chainId?: number; readonly krn?: string } = {}) =>
    Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient
      let req = HttpClientRequest.make(method)(`${url}${path}`).pipe(
        HttpClientRequest.setHeaders({
          authorization,
          "x-chain-id": String(options.chainId ?? 1001),
          ...(options.krn !== undefined ? { "x-krn": options.krn } : {})
        })
      )
      if (body !== undefined) {
        req = typeof body === "string"
          ? HttpClientRequest.bodyText(req, body, "application/json")
          : HttpClientRequest.bodyUnsafeJson(req, body)
      }
      const response = yield* client.execute(req)
      const text = yield* response.text
      return { status: response.status, headers: response.headers, text, body: parse(text) } satisfies Reply
    }).pipe(Effect.orDie)
  const post: TxApi["post"] = (path, body, options) => request("POST", path, body, options)
  const created = (path: string) => (options?: { readonly chainId?: number; readonly krn?: string }) =>
    Effect.map(request("POST", path, path === "/v2/feepayer" ? {} : undefined, options), (reply) => {
      expect(reply.status, reply.text).toBe(200)
      return (reply.body as { readonly address: string }).address
    })
  return {
    url,
    accountId,
    authorization,
    post,
    put: (path) => request("PUT", path, undefined),
    request,
    transfer: (kind, body, options) => post(kind === "value" ? "/v2/tx/value" : kind === "fd" ? "/v2/tx/fd/value" : "/v2/tx/fd-user/value", body, options),
    receipt: (hash, options) => request("GET", `/v2/tx/${hash}`, undefined, options),
    account: created("/v2/account"),
    feePayer: created("/v2/feepayer")
  }
}

/** The transaction routes of an emulator's ready member. */
export const memberTx = (e: Emulator.Service): TxApi => txApi(e.url, e.member.accountId, Redacted.value(e.member.authorization))

/** A new member's transaction routes, through the console. */
export const newMemberTx = (e: Emulator.Service) =>
  Effect.gen(function*() {
    const member = yield* e.createMember()
    const key = yield* e.createKey(member.accountId)
    return txApi(e.url, member.accountId, Redacted.value(key.authorization))
  }).pipe(Effect.orDie)

/** 25 ston in peb: the emulator's gas price on both chains. */
export const GasPrice = 25_000_000_000n

/** Klaytn's intrinsic gas of a value transfer, written from its parameters (not the emulator's code). */
export const intrinsic = (payer: "sender" | "global" | "user", ratio: number, memoBytes: number) =>
  21_000 + (payer === "sender" ? 0 : ratio > 0 ? 15_000 : 10_000) + 100 * memoBytes
