/**
 * An in-memory fake of the wallet API's listing (no network), served through a recording client:
 * N accounts newest first, the service's size rules, opaque offset cursors, inclusive time bounds.
 */
import { Option } from "effect"
import * as Address from "../../src/Address.js"
import { json, type Recorded } from "./recordingClient.js"

export const poolKrn = "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default"

const hex = (seed: number, bytes: number): string => {
  let out = ""
  let x = seed * 2654435761 + 1
  for (let i = 0; i < bytes; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    out += ((x >>> 16) & 0xff).toString(16).padStart(2, "0")
  }
  return out
}

export interface AccountJson {
  readonly address: string
  readonly chainId: number
  readonly createdAt: number
  readonly updatedAt: number
  readonly keyId: string
  readonly krn: string
  readonly publicKey: string
}

/** Account `i` of a deterministic series; `createdAt` decreases with `i` (ties every 3). */
export const accountJson = (i: number, krn = poolKrn, chainId = 1001): AccountJson => {
  const createdAt = 1_700_000_000 - Math.floor(i / 3)
  return {
    address: Option.getOrThrow(Address.checksum(`0x${hex(i, 20)}`)),
    chainId,
    createdAt,
    updatedAt: createdAt,
    keyId: `${krn}:0x${hex(i + 7_777_777, 32)}`,
    krn,
    publicKey: `0x04${hex(i + 3_333_333, 64)}`
  }
}

const series: Array<AccountJson> = []
/** The first `n` accounts of the series, newest first. */
export const accountsJson = (n: number): ReadonlyArray<AccountJson> => {
  while (series.length < n) series.push(accountJson(series.length))
  return series.slice(0, n)
}

const encodeCursor = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString("base64")
const decodeCursor = (cursor: string): number | undefined => {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, "base64").toString()) as { offset: unknown }
    return typeof offset === "number" ? offset : undefined
  } catch {
    return undefined
  }
}

/** Answers GET /v2/account over `accounts` (newest first) the way the service does. */
export const listHandler = (accounts: ReadonlyArray<AccountJson>) => (request: Recorded): Response => {
  const q = request.url.searchParams
  const rawSize = q.get("size")
  const size = rawSize === null || rawSize === "0" ? 100 : Math.min(1000, Number(rawSize))
  if (!Number.isInteger(size) || size < 0) return json(400, { code: 1061615, message: "its value is out of range; size" })
  const from = Number(q.get("from-timestamp") ?? 0)
  const to = Number(q.get("to-timestamp") ?? 0)
  const cursor = q.get("cursor") ?? ""
  const offset = cursor === "" ? 0 : decodeCursor(cursor)
  if (offset === undefined) return json(400, { code: 1061010, message: "data don't exist" })
  const filtered = accounts.filter((a) => (from === 0 || a.createdAt >= from) && (to === 0 || a.createdAt <= to))
  const items = filtered.slice(offset, offset + size)
  const next = offset + size < filtered.length ? encodeCursor(offset + size) : ""
  return json(200, { items, cursor: next })
}
