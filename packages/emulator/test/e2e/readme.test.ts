/**
 * The README's "emulator in your own tests" example, verbatim: the package name resolves to the
 * sources (tsconfig.json `paths`, vitest.config.ts `alias`), so no build is needed.
 */
import { FetchHttpClient } from "@effect/platform"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { ChainId, WalletClient } from "effect-kas-wallet"
import { Emulator } from "effect-kas-wallet-emulator"

// An emulator on 127.0.0.1, a free port, a private in-memory database, and a client with its key.
const TestWallet = Layer.unwrapEffect(
  Effect.map(Emulator.Emulator, (emulator) =>
    WalletClient.layer({
      credentials: { accessKeyId: emulator.member.accessKeyId, secretAccessKey: emulator.member.secretAccessKey },
      chainId: ChainId.Testnet,
      baseUrl: emulator.url
    })
  )
).pipe(Layer.provideMerge(Emulator.layer({ port: 0 })), Layer.provide(FetchHttpClient.layer))

it.effect("creates and finds an account", () =>
  Effect.gen(function*() {
    const created = yield* WalletClient.createAccount()
    const found = yield* WalletClient.getAccount(created.address)
    expect(found.address).toBe(created.address)
  }).pipe(Effect.provide(TestWallet)))
