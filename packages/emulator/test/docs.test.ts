/**
 * The example of docs/emulator.md, "Using it in your tests", verbatim but for the import paths.
 */
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Redacted, TestClock } from "effect"
import { ChainId } from "effect-kas-wallet"
import { Emulator } from "../src/index.js"

layer(Layer.merge(Emulator.layer(), FetchHttpClient.layer))("my service", (it) => {
  it.effect("creates an account in a named pool", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const { accountId, authorization } = emulator.member
      const pool = yield* emulator.createPool({ accountId, chainId: ChainId.Testnet, name: "payroll" })

      yield* TestClock.setTime(1_700_000_000_000) // the emulator's clock is Effect's Clock
      const response = yield* HttpClient.execute(
        HttpClientRequest.post(`${emulator.url}/v2/account`).pipe(
          HttpClientRequest.setHeaders({
            authorization: Redacted.value(authorization),
            "x-chain-id": "1001",
            "x-krn": pool.krn.toString()
          })
        )
      )
      const account: any = yield* response.json
      expect(account.krn).toBe(pool.krn.toString())
      expect(account.createdAt).toBe(1_700_000_000)
    }))
})
