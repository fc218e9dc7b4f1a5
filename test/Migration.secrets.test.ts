/**
 * The private keys handed to `migrateAccounts` never leave the process and never show: not in a
 * request (URL, headers, body), a result, an error (of every kind the migration makes), a span
 * attribute or a log line — in any of the forms a key can be written (hex in either case, with or
 * without 0x, base64, its integer, its bytes as a list), checked as the Secret AccessKey is
 * (test/WalletClient.secrets.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Cause, Effect, Either, Logger, Redacted, Tracer } from "effect"
import * as util from "node:util"
import { WalletClient, type WalletError } from "../src/index.js"
import * as Klaytn from "../src/Klaytn.js"
import { testClient, withClient } from "./support/client.js"
import { json, type Recorded } from "./support/recordingClient.js"

const KEY_POOL = "krn:1001:wallet:676de94a-9ca9-45e2-a67b-ed72178cdbcc:key-pool:default"

const keys = Array.from({ length: 4 }, () => secp256k1.utils.randomSecretKey())
const hexOf = (key: Uint8Array) => Buffer.from(key).toString("hex")

// Every way a key could be written out.
const forbidden = keys.flatMap((key) => [
  hexOf(key),
  hexOf(key).toUpperCase(),
  Buffer.from(key).toString("base64"),
  BigInt(`0x${hexOf(key)}`).toString(),
  [...key].join(","),
  // util.inspect of a Uint8Array: "12, 34, ..." (a prefix is enough to recognise it).
  [...key.subarray(0, 6)].join(", ")
])

const assertClean = (label: string, text: string) => {
  const flat = text.replace(/\s+/g, " ")
  for (const s of forbidden) {
    if (text.includes(s) || flat.includes(s) || flat.replace(/ /g, "").includes(s.replace(/ /g, ""))) {
      throw new Error(`${label} shows a private key: ${text.slice(0, 300)}`)
    }
  }
}

const renderings = (value: unknown): Array<[string, string]> => [
  ["String", String(value)],
  ["util.inspect", util.inspect(value, { depth: 10, showHidden: true })],
  ["JSON.stringify", JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v)) ?? ""],
  ["Cause.pretty", Cause.pretty(Cause.fail(value))]
]

/** A node, key service and registration; the registration echoes what it received in its failure (a hostile one). */
const handler = (r: Recorded) => {
  if (r.url.host === "node.test") {
    const { id, method } = r.body as { id: number; method: string }
    const result = method === "klay_chainID" ? "0x3e9" : method === "klay_gasPrice" ? "0x5d21dba00" : method === "klay_getTransactionCount" ? "0x0" : null
    return json(200, { jsonrpc: "2.0", id, result })
  }
  if (r.url.pathname === "/v2/key") {
    const size = (r.body as { size: number }).size
    return json(200, {
      items: Array.from({ length: size }, (_, i) => ({
        blob: "0x00",
        keyId: `${KEY_POOL}:0x${String(i).padStart(64, "0")}`,
        krn: KEY_POOL,
        publicKey: `0x${Buffer.from(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false)).toString("hex")}`
      }))
    })
  }
  const items = r.body as ReadonlyArray<{ readonly address: string }>
  return items.length > 1
    ? json(200, { status: "partially failed", failures: { [items[1]!.address]: `refused: ${JSON.stringify(r.body)}` } })
    : json(503, { code: 1099503, message: `unavailable: ${JSON.stringify(r.body)}` })
}

const spans: Array<{ readonly name: string; readonly attributes: Map<string, unknown> }> = []
const tracer = Tracer.make({
  span: (name, parent, context, links, startTime, kind) => {
    const attributes = new Map<string, unknown>()
    spans.push({ name, attributes })
    return {
      _tag: "Span",
      name,
      spanId: `span-${spans.length}`,
      traceId: "trace",
      parent,
      context,
      status: { _tag: "Started", startTime },
      attributes,
      links,
      sampled: true,
      kind,
      end: () => {},
      attribute: (key, value) => void attributes.set(key, value),
      event: () => {},
      addLinks: () => {}
    } satisfies Tracer.Span
  },
  context: (f) => f()
})

describe("private keys given to the migration never show", () => {
  it.effect("in requests, results, errors of every kind, spans and logs; the caller's key bytes are left as they were", () =>
    Effect.gen(function*() {
      const [k0, k1, k2, k3] = keys as [Uint8Array, Uint8Array, Uint8Array, Uint8Array]
      const address = (k: Uint8Array) => Either.getOrThrow(Klaytn.addressOfKey(k))
      const callerBytes = Uint8Array.from(k1)
      const test = testClient(handler, { nodeUrl: "https://node.test/v1/klaytn", retry: false, httpSpans: true })
      const migrate = (accounts: unknown) => withClient(test, Effect.flatMap(WalletClient.WalletClient, (c) => c.migrateAccounts(accounts as never)))

      const values: Array<unknown> = []
      // A migration that partly fails (the registration refuses the second account), with every key form.
      const partly = yield* migrate([
        { address: address(k0), privateKey: Redacted.make(`0x${hexOf(k0)}`) },
        { address: address(k1), privateKey: Redacted.make(callerBytes) },
        { address: address(k2), privateKeys: [Redacted.make(hexOf(k2).toUpperCase())] }
      ])
      expect(partly.accounts.map((o) => o._tag)).toEqual(["Migrated", "Failed", "Migrated"])
      values.push(partly, ...partly.accounts)
      // A registration request that fails: each outcome carries the error (which echoes the body).
      const down = yield* migrate([{ address: address(k3), privateKey: Redacted.make(hexOf(k3)) }])
      expect(down.accounts[0]!._tag).toBe("Failed")
      values.push(down)
      // Every refusal of the arguments, with the keys in them.
      const refusals: Array<WalletError.WalletError> = []
      for (
        const accounts of [
          [{ address: address(k1), privateKey: hexOf(k0) }], // not Redacted
          [{ address: address(k1), privateKey: Redacted.make(`0x${hexOf(k0)}zz`) }], // not a key
          [{ address: address(k1), privateKey: Redacted.make(hexOf(k0)) }], // another address's key
          [{ address: "0xnope", privateKey: Redacted.make(hexOf(k0)) }],
          [{ address: address(k0), privateKeys: [Redacted.make(hexOf(k0)), Redacted.make(hexOf(k0))] }],
          [{ address: address(k0), privateKey: Redacted.make(hexOf(k0)), privateKeys: [Redacted.make(hexOf(k1))] }],
          [{ address: address(k0), privateKey: Redacted.make(hexOf(k0)), extra: hexOf(k0) }]
        ]
      ) {
        const error = yield* Effect.flip(migrate(accounts))
        expect(error._tag).toBe("InvalidArgument")
        refusals.push(error)
      }
      values.push(...refusals)
      expect(test.requests.length).toBeGreaterThan(0)

      for (const value of values) {
        for (const [how, text] of renderings(value)) assertClean(`${(value as { _tag?: string })._tag ?? "result"} via ${how}`, text)
      }
      for (const r of test.requests) assertClean(`request ${r.method} ${r.url}`, `${r.url} ${JSON.stringify(r.headers)} ${JSON.stringify(r.body)}`)
      for (const span of spans) {
        for (const [key, value] of span.attributes) assertClean(`span ${span.name} attribute ${key}`, String(value))
      }
      expect(spans.map((s) => s.name)).toContain("WalletClient.migrateAccounts")
      const lines: Array<string> = []
      const logger = Logger.map(Logger.logfmtLogger, (line) => lines.push(line))
      for (const value of values) {
        yield* Effect.logError("migration", value).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
      }
      expect(lines).toHaveLength(values.length)
      for (const line of lines) assertClean("Effect.log", line)
      // The keys were copied, used and wiped: the caller's own bytes are untouched.
      expect([...callerBytes]).toEqual([...k1])
      // The check itself recognises a key when one shows.
      expect(() => assertClean("probe", `… ${util.inspect(k0)} …`)).toThrow()
    }).pipe(Effect.withTracer(tracer)))
})
