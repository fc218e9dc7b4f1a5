/**
 * The emulator's own console routes (`/_emulator/fund`, `/_emulator/balance/{address}`,
 * `/_emulator/bills`): authenticated like every route, chain from `x-chain-id`, never faulted, and
 * writing to the ledger the running emulator serves.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Emulator from "../src/Emulator.js"
import { clientLayer, expectError, memberApi, send } from "./_support.js"

const address = "0xa809284c83b901ed106aba4ccda14628af128e14"

layer(Layer.merge(Emulator.layer({ faults: { rate: 1, kinds: ["503"] } }), clientLayer))("emulator console routes", (it) => {
  describe("/_emulator/...", () => {
    it.effect("fund credits the running emulator's ledger; balance and bills read it; never faulted", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* memberApi
        const funded = yield* send("POST", `${e.url}/_emulator/fund`, a.headers(8217), JSON.stringify({ address, amount: "1000" }))
        expect(funded.status, funded.text).toBe(200)
        expect(funded.body).toEqual({ chainId: 8217, address: "0xa809284C83b901eD106Aba4Ccda14628Af128e14", balance: "1000", nonce: 0 })
        expect((yield* e.balance(8217, address)).balance).toBe(1000n)
        const balance = yield* send("GET", `${e.url}/_emulator/balance/${address}`, a.headers(8217))
        expect(balance.body.balance).toBe("1000")
        expect((yield* send("GET", `${e.url}/_emulator/balance/${address}`, a.headers(1001))).body.balance).toBe("0")
        const bills = yield* send("GET", `${e.url}/_emulator/bills`, a.headers(1001))
        expect(bills.body).toEqual([])
        // The KAS API of this emulator is faulted; its console is not.
        expect((yield* a.list(1001)).status).toBe(503)
      }))

    it.effect("refuses a request without the member's key, and a bad body or address", () =>
      Effect.gen(function*() {
        const e = yield* Emulator.Emulator
        const a = yield* memberApi
        const anonymous = yield* send("POST", `${e.url}/_emulator/fund`, { "x-chain-id": "1001" }, JSON.stringify({ address, amount: "1" }))
        expect(anonymous.status).toBe(401)
        expectError(yield* send("POST", `${e.url}/_emulator/fund`, a.headers(1001), JSON.stringify({ address, amount: "1.5" })), 400, 1061615)
        expectError(yield* send("POST", `${e.url}/_emulator/fund`, a.headers(1001), JSON.stringify({ address: "0x12", amount: "1" })), 400, 1061609)
        expectError(yield* send("POST", `${e.url}/_emulator/fund`, a.headers(1001), JSON.stringify({ amount: "1" })), 400, 1061608)
        expectError(yield* send("GET", `${e.url}/_emulator/bills?accountId=nobody`, a.headers(1001)), 400, 1061010)
      }))
  })
})
