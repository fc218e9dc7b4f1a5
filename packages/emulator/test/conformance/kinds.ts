/**
 * The conformance checks of every other transaction kind: raw RLP (a pool account signs a SigRLP;
 * an outside wallet's sender-signed fee-delegated transaction relayed with the global or a user fee
 * payer), cancel (of a pending transaction, by nonce or by hash, with each fee payer), chain-data
 * anchoring, account updates (legacy, public and fail keys, and what follows: a corrupted account,
 * a disabled one) and legacy transactions, each through the official client's method, unmodified.
 *
 * The emulator runs in manual mining mode: a transaction stays pending until `mine`, so a cancel
 * meets its pending transaction every time.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Either, Option } from "effect"
import { Address } from "effect-kas-wallet"
import * as Klaytn from "effect-kas-wallet/Klaytn"
import assert from "node:assert/strict"

/** What these checks need of the emulator besides its HTTP interface. */
export interface KindsBackstage {
  /** Credits test value (peb) to any address on chain 1001. */
  readonly fund: (address: string, peb: bigint) => Promise<void>
  /** The balance (peb) and nonce of an address on chain 1001. */
  readonly account: (address: string) => Promise<{ readonly balance: bigint; readonly nonce: number }>
  /** Makes a block of every pending transaction of chain 1001. */
  readonly mine: () => Promise<void>
  /** The global fee payer of chain 1001, lower case. */
  readonly globalFeePayer: string
}

interface Check {
  readonly method: string
  readonly run: () => Promise<void>
}

const KLAY = 10n ** 18n
const GasPrice = 25_000_000_000n
const fee = (gas: number) => BigInt(gas) * GasPrice
const codeOf = (e: any): number | undefined => e?._code ?? e?.response?.body?.code ?? e?.body?.code ?? e?.code
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`
const right = <A>(e: Either.Either<A, Klaytn.KlaytnError>): A => {
  if (Either.isLeft(e)) throw new Error(e.left.reason)
  return e.right
}

/** Klaytn's intrinsic gas of the kinds here, from its parameters (not the emulator's code). */
const intrinsic = (base: number, delegated: "no" | "full" | "ratio", dataBytes = 0) =>
  base + (delegated === "full" ? 10_000 : delegated === "ratio" ? 15_000 : 0) + 100 * dataBytes

/** An account outside KAS: a key held here, its address funded through the console. */
const outsider = async (backstage: KindsBackstage) => {
  const key = secp256k1.utils.randomSecretKey()
  const address = right(Klaytn.addressOfKey(key))
  await backstage.fund(address, KLAY)
  return { key, address }
}

/** The receipt once mined: committed, through the official client. */
const minedReceipt = async (wallet: any, backstage: KindsBackstage, hash: string) => {
  await backstage.mine()
  const receipt = await wallet.getTransaction(hash)
  assert.equal(receipt.status, "Committed", `${hash}: ${receipt.status}`)
  return receipt
}

/**
 * The checks, in order. `parties` creates two accounts of the pool, the first holding 1 KLAY;
 * `feePayer` is a funded fee-payer account of the member.
 */
export const kindChecks = (
  wallet: any,
  backstage: KindsBackstage,
  parties: () => Promise<{ from: string; to: string }>,
  feePayer: () => string | undefined
): ReadonlyArray<Check> => {
  const payer = () => {
    const p = feePayer()
    assert.ok(p !== undefined, "no fee-payer account (createFeePayer failed)")
    return p
  }

  // A pending transfer from a fresh account, and the cancel that replaces it.
  const cancel = async (
    method: string,
    by: "nonce" | "hash",
    extra: Record<string, unknown>,
    expected: { typeInt: number; feePayer?: string; feeRatio?: number }
  ) => {
    const { from, to } = await parties()
    const pending = await wallet.requestValueTransfer({ from, to, value: "0x1", submit: true })
    const before = await backstage.account(from)
    const target = by === "nonce" ? { nonce: pending.nonce } : { transactionHash: pending.transactionHash }
    const result = await wallet[method]({ from, ...target, submit: true, ...extra })
    assert.equal(result.typeInt, expected.typeInt)
    assert.equal(result.from, from.toLowerCase())
    assert.equal(result.nonce, pending.nonce)
    assert.equal(result.feePayer, expected.feePayer)
    assert.equal(result.feeRatio, expected.feeRatio)
    const receipt = await minedReceipt(wallet, backstage, result.transactionHash)
    const cancelled = result
    // The transfer was replaced: it never reaches a block, and no value moved.
    await assert.rejects(wallet.getTransaction(pending.transactionHash), (e) => codeOf(e) === 1065000)
    assert.equal((await backstage.account(to)).balance, 0n)
    assert.equal((await backstage.account(from)).nonce, pending.nonce + 1)
    // A cancel of a committed transaction (by its hash: nonce 0 means "the next to be mined"): the
    // node's "nonce too low".
    await assert.rejects(wallet[method]({ from, transactionHash: cancelled.transactionHash, submit: true, ...extra }), (e) => codeOf(e) === 1065001)
    return { before, receipt, from }
  }

  return [
    {
      method: "requestRawTransaction",
      run: async () => {
        // A SigRLP built outside KAS for a pool account: the service signs it as the sender.
        const { from, to } = await parties()
        const { nonce } = await backstage.account(from)
        const tx = right(Klaytn.makeTransaction({ kind: "value", from: from as Address.Address, to: to as Address.Address, value: 7n, nonce, gas: 100_000, gasPrice: GasPrice }))
        const result = await wallet.requestRawTransaction({ rlp: hex(right(Klaytn.encodeSigRlp(tx, 1001))), submit: true })
        assert.equal(result.typeInt, 0x08)
        assert.equal(result.from, from.toLowerCase())
        assert.equal(result.to, to.toLowerCase())
        const parts = right(Klaytn.decodeRaw(Buffer.from(result.rlp.slice(2), "hex")))
        assert.equal(right(Klaytn.verifySigners(parts, 1001)).sender, Address.checksum(from).pipe(Option.getOrThrow))
        const receipt = await minedReceipt(wallet, backstage, result.transactionHash)
        assert.equal(Number(receipt.gasUsed), intrinsic(21_000, "no"))
        assert.equal((await backstage.account(to)).balance, 7n)
      }
    },
    {
      method: "requestFDRawTransactionPaidByGlobalFeePayer",
      run: async () => {
        // A wallet outside KAS signs a fee-delegated transfer; the global fee payer pays its fee.
        const wallet1 = await outsider(backstage)
        const { to } = await parties()
        const tx = right(Klaytn.makeTransaction({ kind: "value", from: wallet1.address, to: to as Address.Address, value: 5n, nonce: 0, gas: 100_000, gasPrice: GasPrice, feeDelegated: true }))
        const rlp = hex(right(Klaytn.signAsSender(tx, { chainId: 1001, sender: wallet1.key })))
        const result = await wallet.requestFDRawTransactionPaidByGlobalFeePayer({ rlp, submit: true })
        assert.equal(result.typeInt, 0x09)
        assert.equal(result.feePayer, backstage.globalFeePayer)
        await minedReceipt(wallet, backstage, result.transactionHash)
        assert.deepEqual(await backstage.account(wallet1.address), { balance: KLAY - 5n, nonce: 1 })
        // A basic type on the fee-delegated route: 1061918.
        const basic = right(Klaytn.makeTransaction({ kind: "value", from: wallet1.address, to: to as Address.Address, value: 5n, nonce: 1, gas: 100_000, gasPrice: GasPrice }))
        await assert.rejects(
          wallet.requestFDRawTransactionPaidByGlobalFeePayer({ rlp: hex(right(Klaytn.signAsSender(basic, { chainId: 1001, sender: wallet1.key }))), submit: true }),
          (e) => codeOf(e) === 1061918
        )
      }
    },
    {
      method: "requestFDRawTransactionPaidByUser",
      run: async () => {
        const p = payer()
        const wallet2 = await outsider(backstage)
        const { to } = await parties()
        const payerBefore = await backstage.account(p)
        const tx = right(Klaytn.makeTransaction({ kind: "value", from: wallet2.address, to: to as Address.Address, value: 5n, nonce: 0, gas: 100_000, gasPrice: GasPrice, feeDelegated: true, feeRatio: 30 }))
        const rlp = hex(right(Klaytn.signAsSender(tx, { chainId: 1001, sender: wallet2.key })))
        // The ratio in the body must be the RLP's: 1061912 otherwise.
        await assert.rejects(wallet.requestFDRawTransactionPaidByUser({ rlp, submit: true, feePayer: p, feeRatio: 40 }), (e) => codeOf(e) === 1061912)
        const result = await wallet.requestFDRawTransactionPaidByUser({ rlp, submit: true, feePayer: p, feeRatio: 30 })
        assert.equal(result.typeInt, 0x0a)
        assert.equal(result.feePayer, p.toLowerCase())
        assert.equal(result.feeRatio, 30)
        const receipt = await minedReceipt(wallet, backstage, result.transactionHash)
        const total = fee(Number(receipt.gasUsed))
        assert.equal((await backstage.account(p)).balance, payerBefore.balance - (total * 30n) / 100n)
        assert.equal((await backstage.account(wallet2.address)).balance, KLAY - 5n - (total - (total * 30n) / 100n))
      }
    },
    {
      method: "requestCancel",
      run: async () => {
        const { before, receipt, from } = await cancel("requestCancel", "nonce", {}, { typeInt: 0x38 })
        assert.equal(Number(receipt.gasUsed), intrinsic(21_000, "no"))
        assert.equal((await backstage.account(from)).balance, before.balance - fee(Number(receipt.gasUsed)))
      }
    },
    {
      method: "requestFDCancelPaidByGlobalFeePayer",
      run: async () => {
        const { before, from } = await cancel("requestFDCancelPaidByGlobalFeePayer", "hash", {}, { typeInt: 0x39, feePayer: backstage.globalFeePayer })
        assert.equal((await backstage.account(from)).balance, before.balance)
      }
    },
    {
      method: "requestFDCancelPaidByUser",
      run: async () => {
        const p = payer()
        await cancel("requestFDCancelPaidByUser", "nonce", { feePayer: p, feeRatio: 30 }, { typeInt: 0x3a, feePayer: p.toLowerCase(), feeRatio: 30 })
      }
    },
    ...([
      ["requestChainDataAnchoring", {}, { typeInt: 0x48 }, "no"],
      ["requestFDChainDataAnchoringPaidByGlobalFeePayer", {}, { typeInt: 0x49 }, "full"],
      ["requestFDChainDataAnchoringPaidByUser", { feeRatio: 20 }, { typeInt: 0x4a, feeRatio: 20 }, "ratio"]
    ] as const).map(([method, extra, expected, delegated]): Check => ({
      method,
      run: async () => {
        const { from } = await parties()
        const input = "0x6b617320656d756c61746f7220616e63686f72"
        const feePayerField = method.endsWith("User") ? { feePayer: payer() } : {}
        const result = await wallet[method]({ from, input, submit: true, ...extra, ...feePayerField })
        assert.equal(result.typeInt, expected.typeInt)
        assert.equal(result.input, input)
        assert.equal(result.to, undefined)
        const receipt = await minedReceipt(wallet, backstage, result.transactionHash)
        assert.equal(Number(receipt.gasUsed), intrinsic(21_000, delegated, (input.length - 2) / 2))
      }
    })),
    {
      method: "requestAccountUpdate",
      run: async () => {
        // To a legacy key: the account stays usable.
        const { from, to } = await parties()
        const result = await wallet.requestAccountUpdate({ from, accountKey: { keyType: 1 }, submit: true })
        assert.equal(result.typeInt, 0x20)
        assert.equal(result.accountKey, "0x01c0")
        await minedReceipt(wallet, backstage, result.transactionHash)
        const next = await wallet.requestValueTransfer({ from, to, value: "0x1", submit: true })
        await minedReceipt(wallet, backstage, next.transactionHash)
      }
    },
    {
      method: "requestFDAccountUpdatePaidByGlobalFeePayer",
      run: async () => {
        // To a public key held elsewhere: KAS's key can no longer sign, the account is corrupted.
        const { from, to } = await parties()
        const publicKey = hex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false))
        const result = await wallet.requestFDAccountUpdatePaidByGlobalFeePayer({ from, accountKey: { keyType: 2, key: publicKey }, submit: true })
        assert.equal(result.typeInt, 0x21)
        assert.equal(result.feePayer, backstage.globalFeePayer)
        const receipt = await minedReceipt(wallet, backstage, result.transactionHash)
        assert.equal(Number(receipt.gasUsed), intrinsic(21_000, "full") + 20_000)
        await assert.rejects(wallet.getAccount(from), (e) => codeOf(e) === 1065102)
        await assert.rejects(wallet.requestValueTransfer({ from, to, value: "0x1", submit: true }), (e) => codeOf(e) === 1065100)
      }
    },
    {
      method: "requestFDAccountUpdatePaidByUser",
      run: async () => {
        // To a fail key: nothing can sign for it any more, and the account is disabled.
        const p = payer()
        const { from, to } = await parties()
        const result = await wallet.requestFDAccountUpdatePaidByUser({ from, accountKey: { keyType: 3 }, feePayer: p, feeRatio: 50, submit: true })
        assert.equal(result.typeInt, 0x22)
        assert.equal(result.feeRatio, 50)
        await minedReceipt(wallet, backstage, result.transactionHash)
        await assert.rejects(wallet.requestValueTransfer({ from, to, value: "0x1", submit: true }), (e) => codeOf(e) !== undefined)
        // Legacy inside role-based: 1061917, nothing sent.
        const other = await parties()
        await assert.rejects(
          wallet.requestAccountUpdate({ from: other.from, accountKey: { keyType: 5, key: [{ keyType: 1 }, { keyType: 1 }, { keyType: 1 }] }, submit: true }),
          (e) => codeOf(e) === 1061917
        )
      }
    },
    {
      method: "requestLegacyTransaction",
      run: async () => {
        const { from, to } = await parties()
        const before = await backstage.account(from)
        const result = await wallet.requestLegacyTransaction({ from, to, value: "0x9", submit: true })
        assert.equal(result.typeInt, 0)
        assert.equal(result.to, to.toLowerCase())
        const receipt = await minedReceipt(wallet, backstage, result.transactionHash)
        assert.equal(Number(receipt.gasUsed), 21_000)
        assert.equal((await backstage.account(from)).balance, before.balance - 9n - fee(21_000))
        assert.equal((await backstage.account(to)).balance, 9n)
      }
    }
  ]
}

/**
 * The official client's `caver.wallet` (KASWallet) flows, which sign through the raw-RLP routes:
 * `sign` (a pool account signs a transaction built with caver; a legacy one too), then
 * `signAsGlobalFeePayer` and `signAsFeePayer` on fee-delegated transactions the sender signed; the
 * signed transactions are then submitted and mined. KASWallet asks a Klaytn node for the chain id,
 * the gas price, the nonce and the account key: the caller answers those locally.
 */
export const kasWalletChecks = (
  caver: any,
  backstage: KindsBackstage,
  parties: () => Promise<{ from: string; to: string }>,
  feePayer: () => string | undefined
): ReadonlyArray<Check> => {
  const wallet = caver.kas.wallet
  const signer = (rlp: string) => {
    const parts = right(Klaytn.decodeRaw(Buffer.from(rlp.slice(2), "hex")))
    return { parts, signers: right(Klaytn.verifySigners(parts, 1001)) }
  }
  return [
    {
      method: "caver.wallet.sign",
      run: async () => {
        const { from, to } = await parties()
        const tx = caver.transaction.valueTransfer.create({ from, to, value: 3, gas: 25_000 })
        await caver.wallet.sign(from, tx)
        assert.equal(signer(tx.getRLPEncoding()).signers.sender.toLowerCase(), from.toLowerCase())
        const legacy = caver.transaction.legacyTransaction.create({ from, to, value: 4, gas: 25_000, nonce: Number(tx.nonce) + 1 })
        await caver.wallet.sign(from, legacy)
        assert.equal(signer(legacy.getRLPEncoding()).signers.sender.toLowerCase(), from.toLowerCase())
        for (const rlp of [tx.getRLPEncoding(), legacy.getRLPEncoding()]) {
          const sent = await wallet.requestRawTransaction({ rlp, submit: true })
          await minedReceipt(wallet, backstage, sent.transactionHash)
        }
        assert.equal((await backstage.account(to)).balance, 7n)
      }
    },
    {
      // The service's live tests kasWalletIntTest INT-123 to INT-126, as they are written.
      method: "caver.wallet.disableAccount, enableAccount",
      run: async () => {
        const { from } = await parties()
        const disabled = await caver.wallet.disableAccount(from)
        assert.equal(disabled.address, from)
        const tx = caver.transaction.valueTransfer.create({ from, to: from, value: 1, gas: 750_000 })
        await assert.rejects(caver.wallet.sign(from, tx), (e: any) => e._code === 1065100)
        const stranger = caver.keyringContainer.keyring.generate().address
        await assert.rejects(caver.wallet.disableAccount(stranger), (e: any) => e.message.includes("account has been already deleted or disabled"))
        const enabled = await caver.wallet.enableAccount(from)
        assert.equal(enabled.address, from)
        const signed = await caver.wallet.sign(from, tx)
        assert.equal(signed.signatures.length, 1)
        await assert.rejects(caver.wallet.enableAccount(stranger), (e: any) => e.message.includes("account has been already deleted or enabled"))
      }
    },
    {
      method: "caver.wallet.signAsGlobalFeePayer",
      run: async () => {
        const { from, to } = await parties()
        const tx = caver.transaction.feeDelegatedValueTransfer.create({ from, to, value: 5, gas: 50_000 })
        await caver.wallet.sign(from, tx)
        await caver.wallet.signAsGlobalFeePayer(tx)
        assert.equal(tx.feePayer.toLowerCase(), backstage.globalFeePayer)
        const { signers } = signer(tx.getRLPEncoding())
        assert.equal(signers.feePayer?.toLowerCase(), backstage.globalFeePayer)
        const sent = await wallet.requestFDRawTransactionPaidByGlobalFeePayer({ rlp: tx.getRLPEncoding(), submit: true })
        await minedReceipt(wallet, backstage, sent.transactionHash)
        // The global fee payer paid the fee: the sender only the value.
        assert.equal((await backstage.account(from)).balance, KLAY - 5n)
      }
    },
    {
      method: "caver.wallet.signAsFeePayer",
      run: async () => {
        const p = feePayer()
        assert.ok(p !== undefined, "no fee-payer account")
        const { from, to } = await parties()
        const tx = caver.transaction.feeDelegatedValueTransferWithRatio.create({ from, to, value: 6, gas: 50_000, feeRatio: 30 })
        await caver.wallet.sign(from, tx)
        await caver.wallet.signAsFeePayer(p, tx)
        assert.equal(signer(tx.getRLPEncoding()).signers.feePayer?.toLowerCase(), p.toLowerCase())
        const before = await backstage.account(p)
        const sent = await wallet.requestFDRawTransactionPaidByUser({ rlp: tx.getRLPEncoding(), feePayer: p, feeRatio: 30, submit: true })
        const receipt = await minedReceipt(wallet, backstage, sent.transactionHash)
        const total = fee(Number(receipt.gasUsed))
        assert.equal((await backstage.account(p)).balance, before.balance - (total * 30n) / 100n)
      }
    }
  ]
}
