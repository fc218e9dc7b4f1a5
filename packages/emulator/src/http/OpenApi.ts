/**
 * The OpenAPI 3.1 document of the emulated API, served at `/openapi.json`.
 *
 * Its JSON schemas are derived from the domain schemas (`Account.Account`, `Account.AccountPage`,
 * the fee-payer, summary, status, count and public-key records of `Account`, `ErrorBody.ErrorBody`,
 * `Krn.AccountPoolKrn`, `Krn.FeePayerPoolKrn`, `ChainId.FromHeader`, `Address.Address`,
 * `PublicKey.PublicKey`) with `JSONSchema.fromAST`: the document cannot drift from the contract
 * the client decodes.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import { JSONSchema, type Schema } from "effect"
import { Account, Address, ChainId, ErrorBody, Krn, Pagination, PublicKey, Transaction } from "effect-kas-wallet"
import * as Wire from "effect-kas-wallet/Wire"
import { version } from "../version.js"
import * as ApiError from "./ApiError.js"

/**
 * An OpenAPI document, as plain JSON.
 *
 * @since 0.1.0
 * @category models
 */
export type Document = Record<string, unknown>

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

const error = (description: string) => ({
  description,
  headers: { "x-request-id": { $ref: "#/components/headers/RequestId" } },
  content: { "application/json": { schema: ref("ErrorBody") } }
})

const commonErrors = {
  "401": error(
    `Authentication failed: ${ApiError.Code.InvalidAuthorization} (Authorization missing or not Basic), ${ApiError.Code.CredentialMismatch} (unknown key or wrong secret).`
  ),
  "429": error(`Injected fault only (${ApiError.Code.EmulatorFaultTooManyRequests}), with Retry-After.`),
  "500": error(`Injected fault (${ApiError.Code.EmulatorFaultInternal}) or emulator failure (${ApiError.Code.EmulatorInternal}).`),
  "503": error(`Injected fault only (${ApiError.Code.EmulatorFaultUnavailable}).`)
}

const chainHeader = {
  name: "x-chain-id",
  in: "header",
  required: true,
  description: `Chain of the call. Missing: 400 ${ApiError.Code.EmptyOrZero}; another value: 400 ${ApiError.Code.OutOfRange}.`,
  schema: ref("ChainIdFromHeader")
}

const headerParameters = [
  chainHeader,
  {
    name: "x-krn",
    in: "header",
    required: false,
    description:
      `Account pool of the caller on the request's chain; the default pool when absent or empty. Any other value (malformed, another member's, another chain's, a fee-payer pool, unknown): 400 ${ApiError.Code.DataNotExist}.`,
    schema: ref("AccountPoolKrn")
  }
]

const memberWideHeaders = [
  chainHeader,
  {
    name: "x-krn",
    in: "header",
    required: false,
    description:
      `Not used by this member-wide operation, but checked as on every account route: when present it must be an account pool of the caller on the request's chain, else 400 ${ApiError.Code.DataNotExist}.`,
    schema: ref("AccountPoolKrn")
  }
]

const feePayerHeaders = [
  chainHeader,
  {
    name: "x-krn",
    in: "header",
    required: false,
    description:
      `Fee-payer pool of the caller on the request's chain; the default fee-payer pool when absent or empty. Any other value (an account pool, malformed, another member's, another chain's, unknown): 400 ${ApiError.Code.DataNotExist}.`,
    schema: ref("FeePayerPoolKrn")
  }
]

const addressParameter = {
  name: "address",
  in: "path",
  required: true,
  description: `The address, in any case. Malformed: 400 ${ApiError.Code.NotKlaytnAddress}.`,
  schema: ref("Address")
}

const listParameters = [
  {
    name: "size",
    in: "query",
    required: false,
    description:
      `Items per page: absent or 0 means ${Pagination.DefaultPageSize}, above ${Pagination.MaxPageSize} means ${Pagination.MaxPageSize}; negative or not an integer: 400 ${ApiError.Code.OutOfRange}.`,
    schema: { type: "integer" }
  },
  {
    name: "cursor",
    in: "query",
    required: false,
    description:
      `The cursor of the previous page; absent or empty for the first page. A cursor not issued for this member, chain and pool: 400 ${ApiError.Code.OutOfRange}.`,
    schema: { type: "string" }
  },
  {
    name: "from-timestamp",
    in: "query",
    required: false,
    description: "Only accounts created at or after this Unix second; 0 or empty: unbounded.",
    schema: { type: "integer", minimum: 0 }
  },
  {
    name: "to-timestamp",
    in: "query",
    required: false,
    description: "Only accounts created at or before this Unix second; 0 or empty: unbounded.",
    schema: { type: "integer", minimum: 0 }
  }
]

const notFoundOr = (what: string) =>
  error(
    `${what}: ${ApiError.Code.DataNotExist} "data don't exist"; bad header or address: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.NotKlaytnAddress}.`
  )

// The transaction routes take `x-krn` as an account pool KRN, optionally followed (fd-user) by a
// fee-payer pool KRN, comma-separated.
const transactionHeaders = (feePayerPool: boolean) => [
  headerParameters[0],
  {
    name: "x-krn",
    in: "header",
    required: false,
    description: feePayerPool
      ? `Account pool of the sender, optionally followed by a comma and the fee-payer pool the fee payer must be in (the member's default pools when absent). Anything else: 400 ${ApiError.Code.DataNotExist}.`
      : `Account pool of the sender; the default pool when absent or empty. Anything else: 400 ${ApiError.Code.DataNotExist}.`,
    schema: { type: "string" }
  }
]

const transferErrors = (feeDelegated: boolean) =>
  error(
    [
      `${ApiError.Code.EmptyOrZero} (from, to, value${feeDelegated ? ", feePayer" : ""} missing; to zero), ${ApiError.Code.NotKlaytnAddress} (not an address), ${ApiError.Code.NotHex} (value not hex), ${ApiError.Code.OutOfRange} (other fields, unknown fields, body not JSON)`,
      ...(feeDelegated ? [`${ApiError.Code.FeeRatioOutOfRange} (feeRatio not 0..99)`] : []),
      `${ApiError.Code.DataNotExist} (the sender is not in the selected pool${feeDelegated ? "; the fee payer is not the member's, or not in the selected fee-payer pool" : ""})`,
      `${ApiError.Code.AccountCannotSign} (the sender is disabled)`,
      `${ApiError.Code.SendFailed} (insufficient funds of the sender${feeDelegated ? " or of the fee payer" : ""}, nonce too low or too high, intrinsic gas too low; nothing changes)`
    ].join("; ") + "."
  )

const transfer = (operationId: string, summary: string, body: string, feeDelegated: boolean, feePayerPool: boolean) => ({
  post: {
    operationId,
    summary,
    parameters: transactionHeaders(feePayerPool),
    requestBody: { required: true, content: { "application/json": { schema: ref(body) } } },
    responses: {
      "200": success(
        "TransactionResult",
        "The signed transaction: status Submitted (sent: committed in the next block), or Pending with submit: false (signed only, nothing changes)."
      ),
      "400": transferErrors(feeDelegated),
      ...commonErrors
    }
  }
})

const success = (schema: string, description: string) => ({
  description,
  headers: { "x-request-id": { $ref: "#/components/headers/RequestId" } },
  content: { "application/json": { schema: ref(schema) } }
})

/**
 * The document, listing `serverUrl` as the server when given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const document = (serverUrl?: string): Document => {
  const schemas: Record<string, JSONSchema.JsonSchema7> = {}
  const add = (name: string, schema: Schema.Schema.All) => {
    const json = JSONSchema.fromAST(schema.ast, {
      definitions: schemas,
      definitionPath: "#/components/schemas/",
      target: "openApi3.1"
    })
    // Schemas with an identifier land in `schemas` by themselves; the others are added by name.
    if (!("$ref" in json)) schemas[name] = json
  }
  add("Account", Account.Account)
  add("AccountPage", Account.AccountPage)
  add("FeePayerAccount", Account.FeePayerAccount)
  add("FeePayerAccountPage", Account.FeePayerAccountPage)
  add("AccountSummary", Account.AccountSummary)
  add("AccountStatus", Account.AccountStatus)
  add("StatusFilter", Account.StatusFilter)
  add("PublicKeyAccounts", Account.PublicKeyAccounts)
  add("AccountCount", Account.AccountCount)
  add("PoolAccountCount", Account.PoolAccountCount)
  add("ErrorBody", ErrorBody.ErrorBody)
  add("AccountPoolKrn", Krn.AccountPoolKrn)
  add("FeePayerPoolKrn", Krn.FeePayerPoolKrn)
  add("ChainIdFromHeader", ChainId.FromHeader)
  add("Address", Address.Address)
  add("PublicKey", PublicKey.PublicKey)
  add("ValueTransferBody", Wire.ValueTransferBody)
  add("FeeDelegatedTransferBody", Wire.FeeDelegatedTransferBody)
  add("UserFeeDelegatedTransferBody", Wire.UserFeeDelegatedTransferBody)
  add("TransactionResult", Transaction.TransactionResult)
  add("TransactionReceipt", Transaction.TransactionReceipt)

  return {
    openapi: "3.1.0",
    info: {
      title: "KAS Wallet API v2 — local emulator (effect-kas-wallet)",
      version,
      description:
        "The account, fee-payer account and value-transfer operations of the KAS wallet interface as the effect-kas-wallet emulator serves them. Every error body is {code, message, requestId}; every response carries x-request-id. Unknown paths: 404, unknown methods: 405, both with code 1010007. See docs/emulator.md."
    },
    ...(serverUrl !== undefined ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ basic: [] }],
    paths: {
      "/v2/account": {
        post: {
          operationId: "createAccount",
          summary: "Create an account in the selected pool",
          parameters: headerParameters,
          responses: {
            "200": success("Account", "The new account (fresh secp256k1 key; createdAt = updatedAt = now)."),
            "400": error(`Bad header: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.`),
            ...commonErrors
          }
        },
        get: {
          operationId: "listAccounts",
          summary: "List the accounts of the selected pool, newest first",
          parameters: [
            ...headerParameters,
            ...listParameters,
            {
              name: "status",
              in: "query",
              required: false,
              description:
                `Which accounts, by state: enabled (absent or empty), disabled, corrupted (never any in the emulator) or all (every state but deleted). Another value: 400 ${ApiError.Code.OutOfRange}.`,
              schema: ref("StatusFilter")
            }
          ],
          responses: {
            "200": success("AccountPage", "A page; cursor is \"\" exactly when no account remains after it."),
            "400": error(`Bad header or query value: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.`),
            ...commonErrors
          }
        }
      },
      "/v2/account/{address}": {
        get: {
          operationId: "getAccount",
          summary: "Get an account of the selected pool (enabled or disabled)",
          parameters: [...headerParameters, addressParameter],
          responses: {
            "200": success("Account", "The account."),
            "400": notFoundOr("Not in the selected pool, not the caller's, or deleted"),
            ...commonErrors
          }
        },
        delete: {
          operationId: "deleteAccount",
          summary: "Delete an account of the selected pool (enabled or disabled): it is gone from every read",
          parameters: [...headerParameters, addressParameter],
          responses: {
            "200": success("AccountStatus", "{\"status\":\"deleted\"}."),
            "400": notFoundOr("Not in the selected pool, not the caller's, or already deleted"),
            ...commonErrors
          }
        }
      },
      "/v2/account/{address}/disable": {
        put: {
          operationId: "disableAccount",
          summary: "Disable an enabled account: it still answers GET, is listed only with status disabled or all",
          parameters: [...headerParameters, addressParameter],
          responses: {
            "200": success("AccountSummary", "The account, its pool and its new updatedAt."),
            "400": notFoundOr(
              `Not enabled (already disabled, or deleted): ${ApiError.Code.AlreadyDisabled}; not in the selected pool or not the caller's`
            ),
            ...commonErrors
          }
        }
      },
      "/v2/account/{address}/enable": {
        put: {
          operationId: "enableAccount",
          summary: "Enable a disabled account",
          parameters: [...headerParameters, addressParameter],
          responses: {
            "200": success("AccountSummary", "The account, its pool and its new updatedAt."),
            "400": notFoundOr(
              `Already enabled: ${ApiError.Code.AlreadyEnabled}; not in the selected pool, not the caller's, or deleted`
            ),
            ...commonErrors
          }
        }
      },
      "/v2/pubkey/{public-key}/account": {
        get: {
          operationId: "getAccountsByPublicKey",
          summary: "The caller's accounts of a public key on the request's chain, in every account pool (enabled or disabled)",
          parameters: [
            ...memberWideHeaders,
            {
              name: "public-key",
              in: "path",
              required: true,
              description:
                `Uncompressed (0x04 + 128 hex digits), compressed (0x02/0x03 + 64) or raw (0x + 128), any case. Not 0x and hex: 400 ${ApiError.Code.NotHex}; another length: 400 ${ApiError.Code.OutOfRange}.`,
              schema: ref("PublicKey")
            }
          ],
          responses: {
            "200": success("PublicKeyAccounts", "The accounts, oldest first; empty items when none."),
            "400": error(`Bad header or public key: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.NotHex}, ${ApiError.Code.DataNotExist}.`),
            ...commonErrors
          }
        }
      },
      "/v2/stat/count": {
        get: {
          operationId: "getAccountCount",
          summary: "How many accounts the caller holds on the request's chain, in every account pool (enabled and disabled; not deleted, not fee-payer accounts)",
          parameters: memberWideHeaders,
          responses: {
            "200": success("AccountCount", "The caller's account id and the count."),
            "400": error(`Bad header: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.`),
            ...commonErrors
          }
        }
      },
      "/v2/stat/count/krn": {
        get: {
          operationId: "getAccountCountByKRN",
          summary: "How many accounts the selected pool holds (enabled and disabled; not deleted)",
          parameters: headerParameters,
          responses: {
            "200": success("PoolAccountCount", "The caller's account id, the count and the pool."),
            "400": error(`Bad header: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.`),
            ...commonErrors
          }
        }
      },
      "/v2/feepayer": {
        post: {
          operationId: "createFeePayer",
          summary: "Create a fee-payer account in the selected fee-payer pool",
          parameters: feePayerHeaders,
          requestBody: {
            required: false,
            description:
              `Optional; empty or a JSON object. withoutAccountUpdate (boolean, default false) is recorded: the emulator has no chain to update the account on. Not a JSON object, or withoutAccountUpdate not a boolean: 400 ${ApiError.Code.OutOfRange}.`,
            content: {
              "application/json": {
                schema: { type: "object", properties: { withoutAccountUpdate: { type: "boolean" } } }
              }
            }
          },
          responses: {
            "200": success("FeePayerAccount", "The new fee-payer account (fresh secp256k1 key; createdAt = updatedAt = now)."),
            "400": error(`Bad header or body: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.`),
            ...commonErrors
          }
        },
        get: {
          operationId: "listFeePayers",
          summary: "List the fee-payer accounts of the selected fee-payer pool, newest first",
          parameters: [...feePayerHeaders, ...listParameters],
          responses: {
            "200": success("FeePayerAccountPage", "A page; cursor is \"\" exactly when no account remains after it."),
            "400": error(`Bad header or query value: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.`),
            ...commonErrors
          }
        }
      },
      "/v2/feepayer/{address}": {
        get: {
          operationId: "getFeePayer",
          summary: "Get a fee-payer account of the selected fee-payer pool",
          parameters: [...feePayerHeaders, addressParameter],
          responses: {
            "200": success("FeePayerAccount", "The fee-payer account."),
            "400": notFoundOr("Not in the selected fee-payer pool, not the caller's, or deleted"),
            ...commonErrors
          }
        },
        delete: {
          operationId: "deleteFeePayer",
          summary: "Delete a fee-payer account of the selected fee-payer pool",
          parameters: [...feePayerHeaders, addressParameter],
          responses: {
            "200": success("AccountStatus", "{\"status\":\"deleted\"}."),
            "400": notFoundOr("Not in the selected fee-payer pool, not the caller's, or already deleted"),
            ...commonErrors
          }
        }
      },
      "/v2/tx/value": transfer(
        "valueTransfer",
        "Transfer value from an account of the selected pool; the sender pays the fee",
        "ValueTransferBody",
        false,
        false
      ),
      "/v2/tx/fd/value": transfer(
        "feeDelegatedValueTransfer",
        "Transfer value; the global fee payer pays the fee (or its feeRatio share) and bills the member",
        "FeeDelegatedTransferBody",
        true,
        false
      ),
      "/v2/tx/fd-user/value": transfer(
        "userFeeDelegatedValueTransfer",
        "Transfer value; the member's fee-payer account feePayer pays the fee (or its feeRatio share)",
        "UserFeeDelegatedTransferBody",
        true,
        true
      ),
      "/v2/tx/{transaction-hash}": {
        get: {
          operationId: "transactionReceipt",
          summary: "The receipt of a transaction: Pending until its block, then Committed",
          parameters: [
            ...transactionHeaders(true),
            {
              name: "transaction-hash",
              in: "path",
              required: true,
              description: `0x and 64 hex digits, any case. Not hex: 400 ${ApiError.Code.NotHex}.`,
              schema: { type: "string" }
            }
          ],
          responses: {
            "200": success("TransactionReceipt", "The receipt; the block fields appear once the transaction is committed."),
            "400": error(`No such transaction on the chain: ${ApiError.Code.TransactionNotFound}; bad header: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.DataNotExist}.`),
            ...commonErrors
          }
        }
      },
      "/health": {
        get: {
          operationId: "health",
          summary: "Liveness (no authentication, never faulted)",
          security: [],
          responses: { "200": { description: "{\"status\":\"ok\"}" } }
        }
      },
      "/openapi.json": {
        get: {
          operationId: "openApi",
          summary: "This document (no authentication, never faulted)",
          security: [],
          responses: { "200": { description: "The OpenAPI document." } }
        }
      }
    },
    components: {
      schemas,
      securitySchemes: {
        basic: { type: "http", scheme: "basic", description: "AccessKey ID as user, Secret AccessKey as password." }
      },
      headers: {
        RequestId: { description: "Id of the request, also in error bodies.", schema: { type: "string" } }
      }
    }
  }
}
