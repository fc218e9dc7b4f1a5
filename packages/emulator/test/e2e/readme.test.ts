/**
 * The README's "emulator in your own tests" example, verbatim: the package names resolve to the
 * sources (tsconfig.json `paths`, vitest.config.ts `alias`), so no build is needed.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ChainId, Transaction, WalletClient } from "effect-kas-wallet"
import { Emulator, EmulatorTest } from "effect-kas-wallet-emulator"

layer(EmulatorTest.layer())("payments", (it) => {
  it.effect("pays and awaits the receipt", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.Emulator
      const alice = yield* WalletClient.createAccount()
      const bob = yield* WalletClient.createAccount()
      yield* emulator.fund(ChainId.Testnet, alice.address, 10n ** 18n) // 1 KLAY, in peb
      const sent = yield* WalletClient.transferValue({ from: alice.address, to: bob.address, value: 1000n })
      if (!Transaction.isSigned(sent)) return yield* Effect.dieMessage("a multisig sender waits for its signers")
      const receipt = yield* WalletClient.awaitReceipt(sent.transactionHash) // committed already
      expect(receipt.status).toBe("Committed")
    }))
})
