/**
 * The operations of the KAS wallet API, each one's method and path in the service's template form
 * (`/v2/account/{address}`): what the command line's help names. The one place of the command line
 * that writes the wire's paths; `Route` renders them for help.
 *
 * Generated from the client's table of the wire (src/api/WalletApi.ts) by scripts/operations.ts
 * (`npm run generate -w effect-kas-wallet-cli`): do not edit. Plain data with no import, so that
 * `--help` stays free of effect.
 *
 * @since 0.9.0
 */

/**
 * The operations, by name.
 *
 * @since 0.9.0
 * @category operations
 */
export const operations = {
  createAccount: { method: "POST", path: "/v2/account" },
  listAccounts: { method: "GET", path: "/v2/account" },
  getAccount: { method: "GET", path: "/v2/account/{address}" },
  deleteAccount: { method: "DELETE", path: "/v2/account/{address}" },
  disableAccount: { method: "PUT", path: "/v2/account/{address}/disable" },
  enableAccount: { method: "PUT", path: "/v2/account/{address}/enable" },
  accountsByPublicKey: { method: "GET", path: "/v2/pubkey/{public-key}/account" },
  accountCount: { method: "GET", path: "/v2/stat/count" },
  accountCountByPool: { method: "GET", path: "/v2/stat/count/krn" },
  createFeePayer: { method: "POST", path: "/v2/feepayer" },
  listFeePayers: { method: "GET", path: "/v2/feepayer" },
  getFeePayer: { method: "GET", path: "/v2/feepayer/{address}" },
  deleteFeePayer: { method: "DELETE", path: "/v2/feepayer/{address}" },
  valueTransfer: { method: "POST", path: "/v2/tx/value" },
  feeDelegatedValueTransfer: { method: "POST", path: "/v2/tx/fd/value" },
  userFeeDelegatedValueTransfer: { method: "POST", path: "/v2/tx/fd-user/value" },
  contractDeploy: { method: "POST", path: "/v2/tx/contract/deploy" },
  feeDelegatedContractDeploy: { method: "POST", path: "/v2/tx/fd/contract/deploy" },
  userFeeDelegatedContractDeploy: { method: "POST", path: "/v2/tx/fd-user/contract/deploy" },
  contractExecution: { method: "POST", path: "/v2/tx/contract/execute" },
  feeDelegatedContractExecution: { method: "POST", path: "/v2/tx/fd/contract/execute" },
  userFeeDelegatedContractExecution: { method: "POST", path: "/v2/tx/fd-user/contract/execute" },
  processRlp: { method: "POST", path: "/v2/tx/rlp" },
  feeDelegatedProcessRlp: { method: "POST", path: "/v2/tx/fd/rlp" },
  userFeeDelegatedProcessRlp: { method: "POST", path: "/v2/tx/fd-user/rlp" },
  cancelTransaction: { method: "DELETE", path: "/v2/tx" },
  feeDelegatedCancelTransaction: { method: "DELETE", path: "/v2/tx/fd" },
  userFeeDelegatedCancelTransaction: { method: "DELETE", path: "/v2/tx/fd-user" },
  anchorTransaction: { method: "POST", path: "/v2/tx/anchor" },
  feeDelegatedAnchorTransaction: { method: "POST", path: "/v2/tx/fd/anchor" },
  userFeeDelegatedAnchorTransaction: { method: "POST", path: "/v2/tx/fd-user/anchor" },
  accountUpdate: { method: "PUT", path: "/v2/tx/account" },
  feeDelegatedAccountUpdate: { method: "PUT", path: "/v2/tx/fd/account" },
  userFeeDelegatedAccountUpdate: { method: "PUT", path: "/v2/tx/fd-user/account" },
  legacyTransaction: { method: "POST", path: "/v2/tx/legacy" },
  callContract: { method: "POST", path: "/v2/tx/contract/call" },
  getTransactionReceipt: { method: "GET", path: "/v2/tx/{transaction-hash}" },
  createKeys: { method: "POST", path: "/v2/key" },
  listKeys: { method: "GET", path: "/v2/key" },
  getKey: { method: "GET", path: "/v2/key/{key-id}" },
  deleteKey: { method: "DELETE", path: "/v2/key/{key-id}" },
  signWithKey: { method: "POST", path: "/v2/key/{key-id}/sign" },
  updateToMultisig: { method: "PUT", path: "/v2/account/{address}/multisig" },
  listMultisigTransactions: { method: "GET", path: "/v2/multisig/account/{address}/tx" },
  signMultisigTransaction: { method: "POST", path: "/v2/multisig/account/{address}/tx/{transaction-id}/sign" },
  appendSignatures: { method: "POST", path: "/v2/multisig/tx/{transaction-id}/sign" },
  signTransactionById: { method: "POST", path: "/v2/account/{address}/tx/{transaction-id}/sign" },
  registerAccounts: { method: "POST", path: "/v2/registration/account" },
  listFeeDelegationHistory: { method: "GET", path: "/v2/history/fd/tx" },
  getFeeDelegationRecord: { method: "GET", path: "/v2/history/fd/tx/{transaction-hash}" }
} as const
