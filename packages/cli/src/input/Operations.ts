/**
 * The operations of the KAS wallet API the command line names in its help: each one's method and
 * path, the path in the service's template form (`/v2/account/{address}`). The one place of the
 * command line that writes the wire's paths; `Route` renders them for help.
 *
 * Plain data with no import, so that `--help` stays free of effect: the client's table of the wire
 * (`WalletApi`) is built with effect's schemas. test/operations.test.ts holds the two equal (names,
 * methods, paths), so that this can be generated from that table or checked against it.
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
  updateToMultisig: { method: "PUT", path: "/v2/account/{address}/multisig" },
  listMultisigTransactions: { method: "GET", path: "/v2/multisig/account/{address}/tx" },
  signMultisigTransaction: { method: "POST", path: "/v2/multisig/account/{address}/tx/{transaction-id}/sign" },
  appendSignatures: { method: "POST", path: "/v2/multisig/tx/{transaction-id}/sign" },
  signTransactionById: { method: "POST", path: "/v2/account/{address}/tx/{transaction-id}/sign" },
  createKeys: { method: "POST", path: "/v2/key" },
  listKeys: { method: "GET", path: "/v2/key" },
  getKey: { method: "GET", path: "/v2/key/{key-id}" },
  deleteKey: { method: "DELETE", path: "/v2/key/{key-id}" },
  signWithKey: { method: "POST", path: "/v2/key/{key-id}/sign" },
  registerAccounts: { method: "POST", path: "/v2/registration/account" },
  listFeeDelegationHistory: { method: "GET", path: "/v2/history/fd/tx" },
  getFeeDelegationRecord: { method: "GET", path: "/v2/history/fd/tx/{transaction-hash}" },
  callContract: { method: "POST", path: "/v2/tx/contract/call" },
  getTransactionReceipt: { method: "GET", path: "/v2/tx/{transaction-hash}" },
  valueTransfer: { method: "POST", path: "/v2/tx/value" },
  contractDeploy: { method: "POST", path: "/v2/tx/contract/deploy" },
  contractExecution: { method: "POST", path: "/v2/tx/contract/execute" },
  processRlp: { method: "POST", path: "/v2/tx/rlp" },
  cancelTransaction: { method: "DELETE", path: "/v2/tx" },
  anchorTransaction: { method: "POST", path: "/v2/tx/anchor" },
  accountUpdate: { method: "PUT", path: "/v2/tx/account" },
  legacyTransaction: { method: "POST", path: "/v2/tx/legacy" },
  feeDelegatedValueTransfer: { method: "POST", path: "/v2/tx/fd/value" },
  feeDelegatedContractDeploy: { method: "POST", path: "/v2/tx/fd/contract/deploy" },
  feeDelegatedContractExecution: { method: "POST", path: "/v2/tx/fd/contract/execute" },
  feeDelegatedProcessRlp: { method: "POST", path: "/v2/tx/fd/rlp" },
  feeDelegatedCancelTransaction: { method: "DELETE", path: "/v2/tx/fd" },
  feeDelegatedAnchorTransaction: { method: "POST", path: "/v2/tx/fd/anchor" },
  feeDelegatedAccountUpdate: { method: "PUT", path: "/v2/tx/fd/account" },
  userFeeDelegatedValueTransfer: { method: "POST", path: "/v2/tx/fd-user/value" },
  userFeeDelegatedContractDeploy: { method: "POST", path: "/v2/tx/fd-user/contract/deploy" },
  userFeeDelegatedContractExecution: { method: "POST", path: "/v2/tx/fd-user/contract/execute" },
  userFeeDelegatedProcessRlp: { method: "POST", path: "/v2/tx/fd-user/rlp" },
  userFeeDelegatedCancelTransaction: { method: "DELETE", path: "/v2/tx/fd-user" },
  userFeeDelegatedAnchorTransaction: { method: "POST", path: "/v2/tx/fd-user/anchor" },
  userFeeDelegatedAccountUpdate: { method: "PUT", path: "/v2/tx/fd-user/account" }
} as const
