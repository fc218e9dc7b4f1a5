/**
 * The operation table of the KAS wallet API: every operation of the service, declared once, in
 * groups (accounts, fee-payer accounts, transactions, keys, multisig, registration, fee-delegation
 * history). Each says its method, path and parameters, the pool it takes, its request body and its
 * result, whether it may be retried, and the KAS codes the service documents for it
 * (`Endpoint.Endpoint`). The paths of the wire are written here and nowhere else: the client builds
 * its requests from these entries, the emulator its router and OpenAPI document, the CLI its wire
 * references (a generated copy it can read without loading effect), and tests compare the docs'
 * route tables and the service's public OpenAPI document with it.
 *
 * docs/design.md ("One table of the wire") shows how an operation is added.
 *
 * @example
 * ```ts
 * import * as WalletApi from "effect-kas-wallet/WalletApi"
 *
 * const { method, path } = WalletApi.operations.getAccount // "GET", "/v2/account/{address}"
 * ```
 *
 * @since 0.10.0
 */
import { Schema } from "effect"
import * as Account from "../Account.js"
import * as ErrorBody from "../ErrorBody.js"
import * as FeeHistory from "../FeeHistory.js"
import * as Key from "../Key.js"
import * as Multisig from "../Multisig.js"
import * as Registration from "../Registration.js"
import * as Transaction from "../Transaction.js"
import type * as TxType from "../TxType.js"
import * as Bodies from "./TransactionBodies.js"
import * as Endpoint from "./Endpoint.js"
import * as Params from "./Params.js"

// Named once: the minifier shortens these names, not the object's properties.
const {
  AccountCannotSign,
  AlreadyDisabled,
  AlreadyEnabled,
  AlreadySubmitted,
  BasicTypeOnFeeDelegatedRoute,
  CannotSignForAccount,
  CorruptedAccount,
  DataNotExist,
  EmptyOrZero,
  FeeFieldsDifferFromRlp,
  FeePayerNotFound,
  FeeRatioOnFullDelegation,
  FeeRatioOutOfRange,
  InvalidAccountKey,
  LegacyKeyInRoleBased,
  NotBasicType,
  NotHex,
  NotKlaytnAddress,
  NotLegacyAccount,
  OutOfRange,
  PartialFeeDelegationWithoutRatio,
  SendFailed,
  TransactionNotFound
} = ErrorBody.Code
const accountPool = "accountPool"
const feePayerPool = "feePayerPool"
const memberWide = "memberWide"
const member = "member"
const address = { address: Params.Address }
const accountListing = { ...Params.Paging, ...Params.TimeRange, status: Schema.optionalWith(Params.Status, { exact: true }) }
const listing = { ...Params.Paging, ...Params.TimeRange }

/**
 * The account operations: accounts of an account pool, their lifecycle, look-ups and counts.
 *
 * @since 0.10.0
 * @category groups
 */
export const accounts = Endpoint.group([
  Endpoint.post("createAccount", "/v2/account", { id: "CreateAccount", access: accountPool, success: Account.Account }),
  Endpoint.get("listAccounts", "/v2/account", {
    id: "RetrieveAccounts",
    access: accountPool,
    query: accountListing,
    success: Account.AccountPage,
    errors: [DataNotExist, OutOfRange]
  }),
  Endpoint.get("getAccount", "/v2/account/{address}", {
    id: "RetrieveAccount",
    access: accountPool,
    path: address,
    success: Account.Account,
    errors: [DataNotExist, CorruptedAccount]
  }),
  Endpoint.del("deleteAccount", "/v2/account/{address}", {
    id: "DeleteAccount",
    access: accountPool,
    path: address,
    success: Account.AccountStatus,
    errors: [DataNotExist]
  }),
  Endpoint.put("disableAccount", "/v2/account/{address}/disable", {
    id: "DeactivateAccount",
    access: accountPool,
    path: address,
    success: Account.AccountSummary,
    errors: [AlreadyDisabled]
  }),
  Endpoint.put("enableAccount", "/v2/account/{address}/enable", {
    id: "ActivateAccount",
    access: accountPool,
    path: address,
    success: Account.AccountSummary,
    errors: [AlreadyEnabled]
  }),
  Endpoint.get("accountsByPublicKey", "/v2/pubkey/{public-key}/account", {
    id: "RetrieveAccountsByPubkey",
    access: memberWide,
    path: { "public-key": Params.PublicKeySegment },
    success: Account.PublicKeyAccounts
  }),
  Endpoint.get("accountCount", "/v2/stat/count", { id: "GetAccountCountByAccountID", access: memberWide, success: Account.AccountCount }),
  Endpoint.get("accountCountByPool", "/v2/stat/count/krn", { id: "GetAccountCountByKRN", access: accountPool, success: Account.PoolAccountCount })
])

/**
 * The fee-payer account operations: accounts of a fee-payer pool.
 *
 * @since 0.10.0
 * @category groups
 */
export const feePayers = Endpoint.group([
  Endpoint.post("createFeePayer", "/v2/feepayer", {
    id: "CreatFeePayerAccount",
    access: feePayerPool,
    payload: Account.FeePayerCreateRequest,
    payloadOptional: true,
    success: Account.FeePayerAccount
  }),
  Endpoint.get("listFeePayers", "/v2/feepayer", {
    id: "RetrieveFeePayerAccounts",
    access: feePayerPool,
    query: listing,
    success: Account.FeePayerAccountPage
  }),
  Endpoint.get("getFeePayer", "/v2/feepayer/{address}", {
    id: "RetrieveFeePayerAccount",
    access: feePayerPool,
    path: address,
    success: Account.FeePayerAccount
  }),
  Endpoint.del("deleteFeePayer", "/v2/feepayer/{address}", {
    id: "DeleteFeePayerAccount",
    access: feePayerPool,
    path: address,
    success: Account.AccountStatus
  })
])

/**
 * The kinds of transaction by the name of their operations.
 *
 * @since 0.10.0
 * @category transactions
 */
export const KindNames = {
  value: "ValueTransfer",
  "contract/deploy": "ContractDeploy",
  "contract/execute": "ContractExecution",
  rlp: "ProcessRlp",
  cancel: "CancelTransaction",
  anchor: "AnchorTransaction",
  account: "AccountUpdate",
  legacy: "LegacyTransaction"
} as const

/**
 * The prefix of the name of a transaction operation on each payer route.
 *
 * @since 0.10.0
 * @category transactions
 */
export const RoutePrefix = { tx: "", fd: "feeDelegated", "fd-user": "userFeeDelegated" } as const

/**
 * The name of a transaction operation: `valueTransfer`, `feeDelegatedContractDeploy`,
 * `userFeeDelegatedProcessRlp`, ...
 *
 * @since 0.10.0
 * @category transactions
 */
export type TransactionName = {
  [K in TxType.Kind]: {
    [R in Bodies.PayerRoute]: R extends "tx" ? Uncapitalize<typeof KindNames[K]> : `${typeof RoutePrefix[R]}${typeof KindNames[K]}`
  }[Bodies.PayerRoute]
}[TxType.Kind]

// Each kind's ids in the service's document on the three payer routes, which it names irregularly,
// and the codes it lists on each route (every route may also answer its body's codes).
const TX: { readonly [K in TxType.Kind]: readonly [ids: string, errors: { readonly [R in Bodies.PayerRoute]: ReadonlyArray<number> }] } = {
  value: ["ValueTransferTransaction FDValueTransferTransaction UFDValueTransferTransaction", {
    tx: [EmptyOrZero, SendFailed],
    fd: [NotKlaytnAddress, FeeRatioOutOfRange, SendFailed],
    "fd-user": [SendFailed]
  }],
  "contract/deploy": ["ContractDeployTransaction FDContractDeployTransaction UFDContractDeployTransaction", {
    tx: [SendFailed],
    fd: [SendFailed],
    "fd-user": [SendFailed]
  }],
  "contract/execute": ["ContractExecutionTransaction FDContractExecutionTransaction UFDContractExecutionTransaction", {
    tx: [NotKlaytnAddress, SendFailed],
    fd: [NotKlaytnAddress, SendFailed],
    "fd-user": [SendFailed]
  }],
  rlp: ["ProcessRLP FDProcessRLP UFDProcessRLP", {
    tx: [NotBasicType, SendFailed, CannotSignForAccount],
    fd: [FeeFieldsDifferFromRlp, BasicTypeOnFeeDelegatedRoute, PartialFeeDelegationWithoutRatio, FeeRatioOnFullDelegation, SendFailed, CannotSignForAccount],
    "fd-user": [FeeFieldsDifferFromRlp, BasicTypeOnFeeDelegatedRoute, PartialFeeDelegationWithoutRatio, FeeRatioOnFullDelegation, SendFailed, CannotSignForAccount]
  }],
  cancel: ["CancelTransaction FDCancelTransactionResponse UFDUserCancelTransaction", {
    tx: [TransactionNotFound, SendFailed],
    fd: [TransactionNotFound, SendFailed],
    "fd-user": [TransactionNotFound, SendFailed]
  }],
  anchor: ["AnchorTransaction FDAnchorTransaction UFDAnchorTransaction", {
    tx: [NotHex, SendFailed],
    fd: [NotHex, SendFailed],
    "fd-user": [NotHex, SendFailed]
  }],
  account: ["AccountUpdateTransaction FDAccountUpdateTransactionResponse UFDAccountUpdateTransaction", {
    tx: [InvalidAccountKey, LegacyKeyInRoleBased, SendFailed],
    fd: [InvalidAccountKey, LegacyKeyInRoleBased, SendFailed],
    "fd-user": [InvalidAccountKey, FeePayerNotFound, LegacyKeyInRoleBased, SendFailed]
  }],
  legacy: ["LegacyTransaction", { tx: [NotHex, SendFailed], fd: [], "fd-user": [] }]
}

const ROUTES: ReadonlyArray<Bodies.PayerRoute> = ["tx", "fd", "fd-user"]

/**
 * The path of a kind of transaction on a payer route: `/v2/tx/fd/contract/deploy`; a cancellation's
 * is the bare route (`/v2/tx`, `/v2/tx/fd`, `/v2/tx/fd-user`).
 *
 * @since 0.10.0
 * @category transactions
 */
export const txPath = (kind: TxType.Kind, route: Bodies.PayerRoute): `/v2/tx${string}` => {
  const base = route === "tx" ? "/v2/tx" : (`/v2/tx/${route}` as const)
  return kind === "cancel" ? base : `${base}/${kind}`
}

/**
 * A transaction operation: one kind on one payer route.
 *
 * @since 0.10.0
 * @category transactions
 */
export type TransactionEndpoint = Endpoint.Endpoint<
  TransactionName,
  `/v2/tx${string}`,
  {},
  {},
  Endpoint.Payload,
  typeof Transaction.TransactionResult,
  "sender" | "senderAndFeePayer"
>

const transactionEndpoint = (kind: TxType.Kind, route: Bodies.PayerRoute): TransactionEndpoint => {
  const name = KindNames[kind]
  const [ids, errors] = TX[kind]
  // A transaction sent twice may be applied twice: never retried once it may have left (no
  // transaction route is a GET).
  return Endpoint[Bodies.methodOf(kind) === "PUT" ? "put" : Bodies.methodOf(kind) === "DELETE" ? "del" : "post"](
    (route === "tx" ? `${name.charAt(0).toLowerCase()}${name.slice(1)}` : `${RoutePrefix[route]}${name}`) as TransactionName,
    txPath(kind, route),
    {
      id: ids.split(" ")[ROUTES.indexOf(route)]!,
      access: route === "fd-user" ? "senderAndFeePayer" : "sender",
      payload: Bodies.Bodies[kind][route] as Schema.Schema.Any,
      success: Transaction.TransactionResult,
      errors: errors[route]
    }
  )
}

const KINDS = Object.keys(KindNames) as ReadonlyArray<TxType.Kind>

/**
 * Every transaction operation, by kind and payer route (a legacy transaction has the sender's only).
 *
 * @since 0.10.0
 * @category transactions
 */
export const transactionRoutes: { readonly [K in TxType.Kind]: { readonly [R in Bodies.PayerRoute]?: TransactionEndpoint } } = Object.fromEntries(
  KINDS.map((kind) => [kind, Object.fromEntries(Bodies.payerRoutes[kind].map((route) => [route, transactionEndpoint(kind, route)]))])
) as never

/**
 * The operation of a kind on a payer route, when the kind has that route.
 *
 * @since 0.10.0
 * @category transactions
 */
export const transaction = (kind: TxType.Kind, route: Bodies.PayerRoute): TransactionEndpoint | undefined => transactionRoutes[kind][route]

/**
 * The largest receipt the client reads by default: 64 MiB. A receipt holds every log of its
 * transaction, about 330 bytes each as JSON: a transaction of 30M gas emitting 74,316 logs has a
 * 24.6 MB receipt, one at a node's usual gas cap of 50M about 41 MB.
 *
 * @since 0.10.0
 * @category transactions
 */
export const ReceiptMaxBytes = 64 * 1024 * 1024

/**
 * The operations of transactions besides the sends: the read-only contract call and the receipt.
 *
 * @since 0.10.0
 * @category groups
 */
export const transactions = Endpoint.group([
  Endpoint.post("callContract", "/v2/tx/contract/call", {
    id: "ContractCall",
    access: "senderAndNamedFeePayer",
    payload: Bodies.ContractCallBody,
    success: Transaction.ContractCallResult,
    // Read-only: nothing is signed or sent, so asking again cannot do anything twice.
    idempotent: true
  }),
  Endpoint.get("getTransactionReceipt", "/v2/tx/{transaction-hash}", {
    id: "TransactionReceipt",
    access: "senderAndNamedFeePayer",
    path: { "transaction-hash": Params.ReceiptHash },
    success: Transaction.TransactionReceipt,
    errors: [TransactionNotFound],
    maxResponseBytes: ReceiptMaxBytes
  })
])

const keyId = { "key-id": Params.KeyIdSegment }

/**
 * The key service's operations: keys in key pools, and signing with them.
 *
 * @since 0.10.0
 * @category groups
 */
export const keys = Endpoint.group([
  Endpoint.post("createKeys", "/v2/key", {
    id: "KeyCreation",
    access: "keyPool",
    payload: Key.CreateRequest,
    payloadOptional: true,
    success: Key.CreatedKeys
  }),
  Endpoint.get("listKeys", "/v2/key", {
    id: "RetrieveKeys",
    access: member,
    query: { ...Params.Paging, krn: Params.ListedPool },
    success: Key.KeyPage
  }),
  Endpoint.get("getKey", "/v2/key/{key-id}", { id: "GetKey", access: member, path: keyId, success: Key.Key }),
  Endpoint.del("deleteKey", "/v2/key/{key-id}", { id: "KeyDeletion", access: member, path: keyId, success: Key.KeyStatus }),
  Endpoint.post("signWithKey", "/v2/key/{key-id}/sign", {
    id: "KeySignData",
    access: member,
    path: keyId,
    payload: Key.SignRequest,
    success: Key.KeySignature
  })
])

const pending = { address: Params.Address, "transaction-id": Params.TransactionId }

/**
 * The multisig operations: the update to a weighted multisig key, and the transactions that wait
 * for their signers.
 *
 * @since 0.10.0
 * @category groups
 */
export const multisig = Endpoint.group([
  Endpoint.put("updateToMultisig", "/v2/account/{address}/multisig", {
    id: "MultisigAccountUpdate",
    access: accountPool,
    path: address,
    payload: Multisig.UpdateRequest,
    success: Multisig.MultisigAccount,
    errors: [DataNotExist, NotLegacyAccount, SendFailed, CannotSignForAccount]
  }),
  Endpoint.get("listMultisigTransactions", "/v2/multisig/account/{address}/tx", {
    id: "RetrieveMultisigTransactions",
    access: memberWide,
    path: address,
    query: listing,
    success: Multisig.PendingTransactionPage,
    errors: [DataNotExist, OutOfRange]
  }),
  Endpoint.post("signMultisigTransaction", "/v2/multisig/account/{address}/tx/{transaction-id}/sign", {
    id: "SignPendingTransaction",
    access: accountPool,
    path: pending,
    success: Multisig.SignatureStatus,
    errors: [DataNotExist, AccountCannotSign, NotHex, AlreadySubmitted, CannotSignForAccount]
  }),
  Endpoint.post("appendSignatures", "/v2/multisig/tx/{transaction-id}/sign", {
    id: "SignPendingTransactionBySig",
    access: member,
    path: { "transaction-id": Params.TransactionId },
    payload: Multisig.AppendRequest,
    success: Multisig.SignatureStatus,
    errors: [AccountCannotSign, AlreadySubmitted]
  }),
  Endpoint.post("signTransactionById", "/v2/account/{address}/tx/{transaction-id}/sign", {
    id: "SignTransactionIDResponse",
    access: accountPool,
    path: pending,
    success: Transaction.Signature,
    // The service keeps nothing: asking again signs the same hash with the same key.
    idempotent: true,
    errors: [DataNotExist]
  })
])

/**
 * The registration of existing accounts under keys of the key service.
 *
 * @since 0.10.0
 * @category groups
 */
export const registration = Endpoint.group([
  // A registration sent twice sends its transactions twice: not retried.
  Endpoint.post("registerAccounts", "/v2/registration/account", {
    id: "RegisterAccount",
    access: accountPool,
    payload: Registration.RegistrationRequest,
    success: Registration.RegistrationResult,
    errors: [DataNotExist, EmptyOrZero]
  })
])

/**
 * The fee-delegation history: what the global fee payer paid, per transaction.
 *
 * @since 0.10.0
 * @category groups
 */
export const history = Endpoint.group([
  Endpoint.get("listFeeDelegationHistory", "/v2/history/fd/tx", {
    id: "get-v2-history-fd-tx",
    access: member,
    // `size` and `cursor` are not in the service's document, which pages the history by cursor
    // all the same: docs/emulator.md ("Fee-delegation history").
    query: { ...Params.Paging, from: Schema.optionalWith(Schema.Union(Schema.Literal(""), Params.AnyCaseAddress), { exact: true }) },
    success: FeeHistory.FeeDelegationHistoryPage,
    errors: [DataNotExist]
  }),
  Endpoint.get("getFeeDelegationRecord", "/v2/history/fd/tx/{transaction-hash}", {
    id: "get-v2-history-fd-tx-transaction-hash",
    access: member,
    path: { "transaction-hash": Params.RecordHash },
    success: FeeHistory.FeeDelegationRecord,
    errors: [DataNotExist]
  })
])

// ---------------------------------------------------------------------------------------------
// The whole table
// ---------------------------------------------------------------------------------------------

/**
 * Every operation but the transaction sends, by name.
 *
 * @since 0.10.0
 * @category table
 */
export const operations = {
  ...accounts,
  ...feePayers,
  ...transactions,
  ...keys,
  ...multisig,
  ...registration,
  ...history
} as const

/**
 * The name of an operation of `operations`.
 *
 * @since 0.10.0
 * @category table
 */
export type OperationName = keyof typeof operations

/**
 * Every operation of the service, in the order of its document's groups: accounts, fee-payer
 * accounts, transactions (each kind on each payer route, the contract call, the receipt), keys,
 * multisig, registration, history.
 *
 * @since 0.10.0
 * @category table
 */
export const all: ReadonlyArray<Endpoint.Any> = [
  ...Object.values(accounts),
  ...Object.values(feePayers),
  ...KINDS.flatMap((kind) => Bodies.payerRoutes[kind].map((route) => transactionRoutes[kind][route]!)),
  ...Object.values(transactions),
  ...Object.values(keys),
  ...Object.values(multisig),
  ...Object.values(registration),
  ...Object.values(history)
]

/**
 * An operation by name, the transaction sends included.
 *
 * @since 0.10.0
 * @category table
 */
export const byName: ReadonlyMap<string, Endpoint.Any> = new Map(all.map((e) => [e.name, e]))
