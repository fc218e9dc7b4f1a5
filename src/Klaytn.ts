/**
 * Real Klaytn transactions, as the emulator builds and signs them and the client checks them: value
 * transfers (with or without a memo), contract deployments and executions, account updates, cancels
 * and chain-data anchoring, each paid by its sender, by a fee payer, or by a fee payer with a ratio;
 * and Ethereum-style legacy transactions; with Klaytn's account keys (legacy, public, fail,
 * weighted multisig, role-based) and signatures checked against them.
 *
 * Encoding facts, each checked against the `rlp` of the service's example bodies
 * (test/klaytn.test.ts):
 *
 * - Raw transaction: `type ‖ rlp([…fields, signatures, feePayer?, feePayerSignatures?])`, each
 *   signature `[V, R, S]`; the fee payer's part exists in the fee-delegated types (type & 7 ≠ 0)
 *   only. The fields of each kind (`fieldsOf`), `feeRatio` in the with-ratio types (type & 7 = 2)
 *   only:
 *   - value transfer (0x08-0x0a; memo 0x10-0x12): `nonce, gasPrice, gas, to, value, from, input?
 *     (memo types), feeRatio?`
 *   - contract deployment (0x28-0x2a): `nonce, gasPrice, gas, to (empty), value, from, input,
 *     humanReadable (false: 0x80), feeRatio?, codeFormat (0: EVM)`
 *   - contract execution (0x30-0x32): `nonce, gasPrice, gas, to, value, from, input, feeRatio?`
 *   - account update (0x20-0x22): `nonce, gasPrice, gas, from, key (the RLP-encoded account key),
 *     feeRatio?`
 *   - cancel (0x38-0x3a): `nonce, gasPrice, gas, from, feeRatio?`
 *   - chain-data anchoring (0x48-0x4a): `nonce, gasPrice, gas, from, input (the anchored data),
 *     feeRatio?`
 * - Legacy (type 0): Ethereum's `rlp([nonce, gasPrice, gas, to, value, input, V, R, S])` with no
 *   type byte, signed over keccak256(`rlp([nonce, gasPrice, gas, to, value, input, chainId, 0, 0])`)
 *   (EIP-155); it names no sender: `from` is the signature's signer. Its hashes are both keccak256 of
 *   the bytes.
 * - Account keys (`encodeAccountKey`): legacy `0x01c0`, public `0x02 ‖ rlp(compressed key)`, fail
 *   `0x03c0`, weighted multisig `0x04 ‖ rlp([threshold, [[weight, compressed key], …]])`, role-based
 *   `0x05 ‖ rlp([encoded role key, …])` (transaction, account update, fee payer).
 * - The sender signs keccak256(`rlp([rlp([type, …fields]), chainId, 0, 0])`); the fee payer signs
 *   keccak256(`rlp([rlp([type, …fields]), feePayer, chainId, 0, 0])`). V = 2·chainId + 35 +
 *   recovery id.
 * - transactionHash = keccak256(raw); senderTxHash = keccak256(`type ‖ rlp([…, signatures])`),
 *   the raw transaction without the fee payer's part (equal to transactionHash otherwise).
 *
 * Nothing here throws: failures are `KlaytnError` values. Private keys are taken as arguments
 * only; they never appear in an error or a result.
 *
 * `effect-kas-wallet/Klaytn`: not exported from the package's main entry (applications use
 * `WalletClient`, which verifies every result with it); for emulators and tools.
 *
 * The codec lives in `src/klaytn/`, one module per concept: `Rlp` (and its reader), `TxFields`
 * (each type family's layout, building, the signing hashes), `RawTransactions` (raw bytes, hashes,
 * the SigRLP), `Signatures` (keys, signing, recovery), `AccountKeys` (their RLP form and rules,
 * whether signatures satisfy one), `Signing` (a transaction's parties signing and checked). This
 * entry re-exports their public names.
 *
 * @since 0.1.0
 */
export { type AccountKey, decodeAccountKey, encodeAccountKey, MaxMultiSigKeys, Role } from "./klaytn/AccountKeys.js"
export { KlaytnError } from "./klaytn/KlaytnError.js"
export {
  decodeRaw,
  decodeSigRlp,
  encodeRaw,
  encodeSigRlp,
  fromRaw,
  isUnsigned,
  senderTxHash,
  type SignedParts,
  type SignedTx,
  transactionHash
} from "./klaytn/RawTransactions.js"
export { decodeRlp, encodeRlp, type RlpItem } from "./klaytn/Rlp.js"
export {
  addressOfKey,
  addressOfPublicKey,
  fromWireSignature,
  publicKeyOfKey,
  randomPrivateKey,
  recover,
  recoverPublicKey,
  sign,
  type SignatureValues,
  toWireSignature
} from "./klaytn/Signatures.js"
export { signAsSender, signAsSenderWith, signTransaction, validateSignatures, verifySigners } from "./klaytn/Signing.js"
export {
  feePayerSigningHash,
  type Field,
  fieldsOf,
  hasField,
  kindOf,
  type Layout,
  makeTransaction,
  senderSigningHash,
  type Tx,
  type TxParams
} from "./klaytn/TxFields.js"
