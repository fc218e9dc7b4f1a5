/**
 * The conformance checks of account registration and migration: the official client's
 * `registerAccounts` (with an account update built and signed by caver-js itself) and
 * `migrateAccounts` (which creates the keys, builds, signs and registers on its own, reading the
 * gas price from its node), unmodified, against the emulator mining by hand; then their real
 * effects: the account is in the pool under its new key, the chain's key (as caver-js reads it
 * from the emulator's node) is AccountKeyPublic of that key, a transaction its old key signs is
 * refused, and a transfer from it through the wallet API goes through, signed by the key KAS holds.
 */
import assert from "node:assert/strict"
import type { KindsBackstage } from "./kinds.js"

interface Check {
  readonly method: string
  readonly run: () => Promise<void>
}

const KLAY = 10n ** 18n
const GasPrice = 25_000_000_000
const codeOf = (e: any): number | undefined => e?._code ?? e?.response?.body?.code ?? e?.body?.code ?? e?.code

/**
 * The effects of a registration on an account that a wallet outside KAS held with `keyring`: in
 * the pool with the key's public key; its old key no longer signs for it (the chain's key
 * changed); a transfer from it through the wallet API is committed and moves its value.
 */
const registered = async (caver: any, backstage: KindsBackstage, keyring: any, publicKey: string) => {
  const wallet = caver.kas.wallet
  await backstage.mine()
  const account = await wallet.getAccount(keyring.address)
  assert.equal(account.address.toLowerCase(), keyring.address.toLowerCase())
  assert.equal(account.publicKey, publicKey)
  // The chain's key, as caver-js reads it from the node: AccountKeyPublic of the key.
  const onChain = await caver.rpc.klay.getAccountKey(keyring.address)
  assert.equal(onChain.keyType, 2)
  assert.deepEqual([BigInt(onChain.key.x), BigInt(onChain.key.y)], [BigInt(`0x${publicKey.slice(4, 68)}`), BigInt(`0x${publicKey.slice(68)}`)])
  await backstage.fund(keyring.address, KLAY)
  const to = (await wallet.createAccount()).address
  // Signed by the old key, relayed with the global fee payer: the chain refuses it.
  const old = caver.transaction.feeDelegatedValueTransfer.create({
    from: keyring.address,
    to,
    value: 1,
    gas: 50_000,
    gasPrice: GasPrice,
    nonce: (await backstage.account(keyring.address)).nonce,
    chainId: 1001
  })
  await old.sign(keyring)
  await assert.rejects(
    wallet.requestFDRawTransactionPaidByGlobalFeePayer({ rlp: old.getRLPEncoding(), submit: true }),
    (e) => codeOf(e) === 1065001
  )
  // Through the wallet API, KAS signs with the key it holds.
  const sent = await wallet.requestValueTransfer({ from: keyring.address, to, value: "0x2a", submit: true })
  await backstage.mine()
  const receipt = await wallet.getTransaction(sent.transactionHash)
  assert.equal(receipt.status, "Committed")
  assert.equal((await backstage.account(to)).balance, 42n)
}

/**
 * The checks, in order, on the client whose node is the emulator's (or a stub of it): `caver` is
 * the `CaverExtKAS` instance, its wallet API and node API both initialised.
 */
export const registrationChecks = (caver: any, backstage: KindsBackstage): ReadonlyArray<Check> => {
  const wallet = caver.kas.wallet
  return [
    {
      method: "registerAccounts",
      run: async () => {
        const [key, other] = (await wallet.createKeys(2)).items
        // A wallet's own account, its update to the key built and signed by caver-js.
        const keyring = caver.wallet.keyring.generate()
        const update = caver.transaction.feeDelegatedAccountUpdate.create({
          from: keyring.address,
          account: caver.account.createWithAccountKeyPublic(keyring.address, key.publicKey),
          gas: 1_000_000,
          gasPrice: GasPrice,
          nonce: 0,
          chainId: 1001
        })
        await update.sign(keyring)
        // Partial fee delegation is refused, as the specification's example shows, changing nothing.
        const partial = caver.wallet.keyring.generate()
        const withRatio = caver.transaction.feeDelegatedAccountUpdateWithRatio.create({
          from: partial.address,
          account: caver.account.createWithAccountKeyPublic(partial.address, other.publicKey),
          feeRatio: 30,
          gas: 1_000_000,
          gasPrice: GasPrice,
          nonce: 0,
          chainId: 1001
        })
        await withRatio.sign(partial)
        const result = await wallet.registerAccounts([
          { keyId: key.keyId, address: keyring.address, rlp: update.getRLPEncoding() },
          { keyId: other.keyId, address: partial.address, rlp: withRatio.getRLPEncoding() }
        ])
        assert.equal(result.status, "partially failed")
        assert.deepEqual(Object.values(result.failures), ["partialFeeDelegation transaction do not supported. use feeDelegation transaction"])
        assert.equal(Object.keys(result.failures)[0]!.toLowerCase(), partial.address.toLowerCase())
        assert.equal((await backstage.account(partial.address)).nonce, 0)
        await assert.rejects(wallet.getAccount(partial.address), (e) => codeOf(e) === 1061010)
        await registered(caver, backstage, keyring, key.publicKey)
        // An unknown key id refuses the whole request: the specification's 1061010.
        await assert.rejects(
          wallet.registerAccounts([{ keyId: `${key.keyId.slice(0, -4)}0000`, address: caver.wallet.keyring.generate().address }]),
          (e) => codeOf(e) === 1061010
        )
      }
    },
    {
      method: "migrateAccounts",
      run: async () => {
        const keyrings = [caver.wallet.keyring.generate(), caver.wallet.keyring.generate()]
        // One with its nonce, one without (read from the node); the gas price from the node.
        const result = await wallet.migrateAccounts([
          { address: keyrings[0].address, key: keyrings[0].key.privateKey, nonce: 0 },
          { address: keyrings[1].address, key: keyrings[1].key.privateKey }
        ])
        assert.equal(result.status, "ok")
        for (const keyring of keyrings) {
          const keys = await wallet.getAccount(keyring.address).then((a: any) => a.publicKey, () => undefined)
          assert.ok(keys !== undefined, `${keyring.address} is not in the pool`)
          await registered(caver, backstage, keyring, keys)
        }
      }
    }
  ]
}
