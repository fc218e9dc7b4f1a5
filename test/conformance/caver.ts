/**
 * `npm run conformance`: the official JavaScript client (caver-js-ext-kas 1.12, installed on
 * demand into a cache folder) against the emulator, unmodified: each of its wallet methods that the
 * emulator serves is called and its result checked. Prints one line per method and exits 1 when
 * any fails (2 when the client cannot be installed).
 *
 * Not part of `npm test`: installing the official client takes minutes and the network.
 */
import { Effect, Redacted } from "effect"
import assert from "node:assert/strict"
import { Emulator } from "../../src/emulator/index.js"
import { loadCaver } from "../support/caver.js"

interface Check {
  readonly method: string
  readonly run: () => Promise<void>
}

const codeOf = (e: any): number | undefined => e?._code ?? e?.response?.body?.code ?? e?.body?.code ?? e?.code

/** The checks, in order: each may use what the previous ones made. */
const checks = (wallet: any, accountId: string): ReadonlyArray<Check> => {
  const state: { address?: string; publicKey?: string; feePayer?: string } = {}
  return [
    {
      method: "createAccount",
      run: async () => {
        const account = await wallet.createAccount()
        assert.match(account.address, /^0x[0-9a-fA-F]{40}$/)
        assert.equal(account.krn, `krn:1001:wallet:${accountId}:account-pool:default`)
        state.address = account.address
        state.publicKey = account.publicKey
      }
    },
    {
      method: "getAccount",
      run: async () => assert.equal((await wallet.getAccount(state.address)).address, state.address)
    },
    {
      method: "getAccountList",
      run: async () => {
        await wallet.createAccount()
        const page = await wallet.getAccountList({ size: 1 })
        assert.equal(page.items.length, 1)
        assert.notEqual(page.cursor, "")
        const rest = await wallet.getAccountList({ size: 1000, cursor: page.cursor })
        assert.ok(rest.items.some((a: any) => a.address === state.address))
      }
    },
    {
      method: "getAccountListByPublicKey",
      run: async () => {
        const found = await wallet.getAccountListByPublicKey(state.publicKey)
        assert.deepEqual(found.items.map((a: any) => a.address.toLowerCase()), [state.address!.toLowerCase()])
      }
    },
    {
      method: "disableAccount",
      run: async () => {
        const result = await wallet.disableAccount(state.address)
        assert.equal(result.address, state.address)
        const enabled = await wallet.getAccountList({ size: 1000 })
        assert.ok(!enabled.items.some((a: any) => a.address === state.address))
      }
    },
    {
      method: "enableAccount",
      run: async () => {
        const result = await wallet.enableAccount(state.address)
        assert.equal(result.address, state.address)
        const enabled = await wallet.getAccountList({ size: 1000 })
        assert.ok(enabled.items.some((a: any) => a.address === state.address))
      }
    },
    {
      method: "getAccountCount",
      run: async () => {
        const result = await wallet.getAccountCount()
        assert.equal(result.count, 2)
      }
    },
    {
      method: "getAccountCountByKRN",
      run: async () => {
        const result = await wallet.getAccountCountByKRN()
        assert.equal(result.count, 2)
      }
    },
    {
      method: "deleteAccount",
      run: async () => {
        const result = await wallet.deleteAccount(state.address)
        assert.equal(result.status, "deleted")
        await assert.rejects(wallet.getAccount(state.address), (e) => codeOf(e) === 1061010)
      }
    },
    {
      method: "createFeePayer",
      run: async () => {
        const payer = await wallet.createFeePayer()
        assert.match(payer.address, /^0x[0-9a-fA-F]{40}$/)
        assert.match(payer.krn, /:feepayer-pool:/)
        state.feePayer = payer.address
      }
    },
    {
      method: "getFeePayerList",
      run: async () => {
        const page = await wallet.getFeePayerList({ size: 10 })
        assert.ok(page.items.some((a: any) => a.address === state.feePayer))
      }
    },
    {
      method: "getFeePayer",
      run: async () => assert.equal((await wallet.getFeePayer(state.feePayer)).address, state.feePayer)
    },
    {
      method: "deleteFeePayer",
      run: async () => {
        const result = await wallet.deleteFeePayer(state.feePayer)
        assert.equal(result.status, "deleted")
        await assert.rejects(wallet.getFeePayer(state.feePayer), (e) => codeOf(e) === 1061010)
      }
    }
  ]
}

const main = Effect.scoped(Effect.gen(function*() {
  const loaded = loadCaver()
  if ("unavailable" in loaded) {
    process.stderr.write(`conformance: the official client could not be installed: ${loaded.unavailable}\n`)
    process.exitCode = 2
    return
  }
  const emulator = yield* Emulator.make({ port: 0 })
  const caver = new loaded.CaverExtKAS()
  caver.initWalletAPI(1001, emulator.member.accessKeyId, Redacted.value(emulator.member.secretAccessKey), emulator.url)
  let failed = 0
  for (const check of checks(caver.kas.wallet, emulator.member.accountId)) {
    const outcome = yield* Effect.promise(() => check.run().then(() => "ok", (e) => `FAILED: ${e instanceof Error ? e.message.split("\n")[0] : JSON.stringify(e)}`))
    if (outcome !== "ok") failed++
    process.stdout.write(`${check.method.padEnd(28)} ${outcome}\n`)
  }
  process.stdout.write(`\n${failed === 0 ? "all methods work" : `${failed} method(s) failed`} against the emulator (caver-js-ext-kas)\n`)
  if (failed > 0) process.exitCode = 1
}))

Effect.runPromise(main)
