/**
 * The OpenAPI 3.1 document of the emulated API, served at `/openapi.json`.
 *
 * Its JSON schemas are derived from the domain schemas (`Account.Account`, `Account.AccountPage`,
 * `ErrorBody.ErrorBody`, `Krn.AccountPoolKrn`, `ChainId.FromHeader`, `Address.Address`) with
 * `JSONSchema.fromAST`: the document cannot drift from the contract the client decodes.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet/emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import { JSONSchema, type Schema } from "effect"
import * as Account from "../Account.js"
import * as Address from "../Address.js"
import * as ChainId from "../ChainId.js"
import * as ErrorBody from "../ErrorBody.js"
import * as Krn from "../Krn.js"
import * as Pagination from "../Pagination.js"
import * as Transaction from "../Transaction.js"
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

const headerParameters = [
  {
    name: "x-chain-id",
    in: "header",
    required: true,
    description: `Chain of the call. Missing: 400 ${ApiError.Code.EmptyOrZero}; another value: 400 ${ApiError.Code.OutOfRange}.`,
    schema: ref("ChainIdFromHeader")
  },
  {
    name: "x-krn",
    in: "header",
    required: false,
    description:
      `Account pool of the caller on the request's chain; the default pool when absent or empty. Any other value (malformed, another member's, another chain's, unknown): 400 ${ApiError.Code.DataNotExist}.`,
    schema: ref("AccountPoolKrn")
  }
]

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
  add("ErrorBody", ErrorBody.ErrorBody)
  add("AccountPoolKrn", Krn.AccountPoolKrn)
  add("ChainIdFromHeader", ChainId.FromHeader)
  add("Address", Address.Address)
  add("ValueTransferBody", Transaction.ValueTransferBody)
  add("FeeDelegatedTransferBody", Transaction.FeeDelegatedTransferBody)
  add("UserFeeDelegatedTransferBody", Transaction.UserFeeDelegatedTransferBody)
  add("TransactionResult", Transaction.TransactionResult)
  add("TransactionReceipt", Transaction.TransactionReceipt)

  return {
    openapi: "3.1.0",
    info: {
      title: "KAS Wallet API v2 — local emulator (effect-kas-wallet)",
      version: "0.1.0",
      description:
        "The account and value-transfer operations of the KAS wallet interface as the effect-kas-wallet emulator serves them. Every error body is {code, message, requestId}; every response carries x-request-id. Unknown paths: 404, unknown methods: 405, both with code 1010007. See docs/emulator.md."
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
          summary: "Get an account of the selected pool",
          parameters: [
            ...headerParameters,
            {
              name: "address",
              in: "path",
              required: true,
              description: `The address, in any case. Malformed: 400 ${ApiError.Code.NotKlaytnAddress}.`,
              schema: ref("Address")
            }
          ],
          responses: {
            "200": success("Account", "The account."),
            "400": error(
              `Not in the selected pool (or not the caller's): ${ApiError.Code.DataNotExist} "data don't exist"; bad header or address: ${ApiError.Code.EmptyOrZero}, ${ApiError.Code.OutOfRange}, ${ApiError.Code.NotKlaytnAddress}.`
            ),
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
