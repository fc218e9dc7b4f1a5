/**
 * The node's refusals as typed reasons: the service's real texts (the reference's fixtures), the
 * node's words the emulator documents (Klaytn's), go-ethereum's for the same refusals, and any
 * other text kept whole as `Other`; the client's mapping of a 1065001 answer to `NodeRefusal` and
 * of "data don't exist" about `x-krn` to `PoolNotFound`, the KAS code kept on both.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, FastCheck, Match, Schema } from "effect"
import { readFileSync } from "node:fs"
import { RefusalReason, WalletClient, WalletError } from "../src/index.js"
import { secret, testClient, withClient } from "./support/client.js"
import { json } from "./support/recordingClient.js"

const fixture = (name: string): { readonly code: number; readonly message: string } =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"))

const wrap = (words: string) => `failed to send a raw transaction to klaytn node; -32000::${words}`

// The node's words of packages/emulator/docs/emulator.md (the JSON-RPC error table, "the node's
// refusals, in Klaytn's words") and go-ethereum's for the same refusals, with their reason.
const words: ReadonlyArray<readonly [string, RefusalReason.RefusalReason["_tag"]]> = [
  ["insufficient funds of the sender for value ", "InsufficientSenderFunds"],
  ["insufficient funds for gas * price + value", "InsufficientSenderFunds"],
  ["insufficient funds of the fee payer for gas * price", "InsufficientFeePayerFunds"],
  ["nonce too low", "NonceTooLow"],
  ["already known", "AlreadyKnown"],
  ["known transaction: 9e4f…", "AlreadyKnown"],
  ["replacement transaction underpriced", "Underpriced"],
  ["transaction underpriced", "Underpriced"],
  ["nonce too high", "Other"],
  ["there is another tx which has the same nonce in the tx pool", "Other"],
  ["intrinsic gas too low", "Other"],
  ["invalid unit price", "Other"],
  ["exceeds block gas limit", "Other"],
  ["this type transaction cannot be sent to contract addresses", "Other"],
  ["not a program account (e.g., an account having code and storage)", "Other"],
  ["execution reverted: not enough tokens", "Other"]
]

describe("RefusalReason.fromMessage", () => {
  it("reads the reference's refusals of the service", () => {
    const reasons = [
      "tx/error-tx-value-400-insufficient-funds-of-the-sender.json",
      "tx/error-fd-user-cancel-400-already-committed-transaction.json",
      "tx/error-fd-contract-execute-400-to-address-is-not-contract-address.json"
    ].map((name) => RefusalReason.fromMessage(fixture(name).message))
    expect(reasons).toEqual([
      { _tag: "InsufficientSenderFunds" },
      { _tag: "NonceTooLow" },
      { _tag: "Other", text: "not a program account (e.g., an account having code and storage)" }
    ])
  })

  it("reads the node's words, wrapped by the service or as a node answers them", () => {
    for (const [text, tag] of words) {
      expect(RefusalReason.fromMessage(wrap(text))._tag, text).toBe(tag)
      expect(RefusalReason.fromMessage(text)._tag, text).toBe(tag)
      expect(RefusalReason.fromMessage(wrap(text.toUpperCase()))._tag, text).toBe(tag)
    }
    expect(RefusalReason.fromMessage("failed to call a contract on klaytn node; -32000::execution reverted: no"))
      .toEqual({ _tag: "Other", text: "execution reverted: no" })
  })

  it("keeps any other text whole as Other, the node's words only", () => {
    const known = /^\s*(insufficient funds|nonce too low|already known|known transaction|(replacement )?transaction underpriced)/i
    FastCheck.assert(FastCheck.property(FastCheck.string(), (text) => {
      FastCheck.pre(!known.test(text) && !/-?\d+::/.test(text))
      expect(RefusalReason.fromMessage(wrap(text))).toEqual({ _tag: "Other", text: text.trim() })
      expect(RefusalReason.fromMessage(text)).toEqual({ _tag: "Other", text: text.trim() })
    }))
  })

  it("every reason encodes and decodes with the error that carries it", () => {
    const encode = Schema.encodeSync(WalletError.WalletError)
    const decode = Schema.decodeUnknownSync(WalletError.WalletError)
    FastCheck.assert(FastCheck.property(Arbitrary.make(RefusalReason.RefusalReason), (reason) => {
      const error = new WalletError.NodeRefusal({ method: "POST", path: "/v2/tx/value", status: 400, code: 1065001, serviceMessage: "m", reason })
      const back = decode(JSON.parse(JSON.stringify(encode(error))))
      expect(back).toBeInstanceOf(WalletError.NodeRefusal)
      expect((back as WalletError.NodeRefusal).reason).toEqual(reason)
      expect(RefusalReason.describe(reason).length).toBeGreaterThan(reason._tag === "Other" ? -1 : 0)
    }))
  })

  it("only a duplicate says a resubmission may have got through", () => {
    expect(words.filter(([text]) => RefusalReason.isDuplicate(RefusalReason.fromMessage(text))).map(([text]) => text))
      .toEqual(["nonce too low", "already known", "known transaction: 9e4f…"])
  })
})

const failWith = (body: unknown) =>
  Effect.flip(withClient(testClient(() => json(400, body), { retry: false }), WalletClient.createAccount()))

describe("the client's errors of a refusal", () => {
  it.effect("1065001 → NodeRefusal with its reason, its code and the service's message (the reference's fixtures)", () =>
    Effect.gen(function*() {
      const body = fixture("tx/error-tx-value-400-insufficient-funds-of-the-sender.json")
      const error = yield* failWith(body)
      expect(error._tag).toBe("NodeRefusal")
      const refusal = error as WalletError.NodeRefusal
      expect([refusal.status, refusal.code, refusal.serviceMessage, refusal.reason])
        .toEqual([400, 1065001, body.message, { _tag: "InsufficientSenderFunds" }])
      // What a program writes instead of parsing the message.
      const handled = yield* Effect.catchTag(
        Effect.fail(refusal),
        "NodeRefusal",
        (e) =>
          Effect.succeed(
            Match.value(e.reason).pipe(
              Match.tag("InsufficientSenderFunds", () => "fund the sender"),
              Match.tag("NonceTooLow", "AlreadyKnown", () => "sent already"),
              Match.orElse(() => "other")
            )
          )
      )
      expect(handled).toBe("fund the sender")
      const nonce = yield* failWith(fixture("tx/error-fd-user-cancel-400-already-committed-transaction.json"))
      expect(nonce._tag === "NodeRefusal" && nonce.reason).toEqual({ _tag: "NonceTooLow" })
    }))

  it.effect("1061010 about x-krn → PoolNotFound; about anything else AccountNotFound", () =>
    Effect.gen(function*() {
      for (
        const message of [
          "data don't exist; x-krn",
          "data don't exist; x-krn is not an account pool KRN",
          "data don't exist; x-krn is not a fee-payer pool KRN",
          "data don't exist; x-krn is not an account pool KRN and a fee-payer pool KRN"
        ]
      ) {
        const error = yield* failWith({ code: 1061010, message })
        expect([error._tag, "code" in error && error.code], message).toEqual(["PoolNotFound", 1061010])
      }
      for (const message of ["data don't exist", "data don't exist; from", "data don't exist; x-krnish"]) {
        const error = yield* failWith({ code: 1061010, message })
        expect(error._tag, message).toBe("AccountNotFound")
      }
    }))

  it.effect("a secret the service echoes in its words is scrubbed from the reason too", () =>
    Effect.gen(function*() {
      const test = testClient(() => json(400, { code: 1065001, message: wrap(`the secret is ${secret}`) }), { retry: false })
      const error = yield* Effect.flip(withClient(test, WalletClient.createAccount()))
      expect(error._tag).toBe("NodeRefusal")
      expect(JSON.stringify(error)).not.toContain(secret)
    }))
})
