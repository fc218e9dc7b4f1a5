/**
 * An `HttpApi` of the same operations as the operation table (`src/api/WalletApi.ts`), derived
 * from it programmatically, for the benchmark that measures Effect's `HttpApi` side by side with
 * the project's own table-driven client and emulator router (httpApi.ts).
 *
 * Each `Endpoint` becomes an `HttpApiEndpoint` with its method and path, its path and query
 * schemas (`setPath`, `setUrlParams`), its body (`setPayload`), the headers its access takes
 * (`setHeaders`: `x-chain-id`, and `x-krn` where the operation reads a pool) and its result
 * (`addSuccess`), in the table's groups; the KAS error body is the API's error schema for every
 * status the service answers with one. Nothing else is written by hand.
 *
 * What the derivation has to bend:
 * - path parameters are `:name` where `name` is a word (httpApiPaths.ts): `{public-key}` becomes
 *   `:publicKey`, and the path schema's fields are renamed alike;
 * - an optional body (`createFeePayer`, `createKeys`) is declared as the body's schema: the
 *   server reads a POST body as JSON with `Effect.orDie(request.json)`, so an absent (or
 *   malformed) body is a defect there, not a decoding failure;
 * - the API's type is erased (`any` groups): a typed derivation needs a mapped type over the
 *   table, which is mechanical but not written for a benchmark.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Schema } from "effect"
import type * as Endpoint from "../../src/api/Endpoint.js"
import * as WalletApi from "../../src/api/WalletApi.js"
import * as ErrorBody from "../../src/ErrorBody.js"
import { httpApiPath, paramName } from "./httpApiPaths.js"

/** The statuses the service answers with its `{code, message, requestId}` body. */
export const KasStatuses = [400, 401, 403, 404, 405, 429, 500, 503] as const

const ChainHeader = Schema.Struct({ "x-chain-id": Schema.String })
const PoolHeaders = Schema.Struct({ "x-chain-id": Schema.String, "x-krn": Schema.optionalWith(Schema.String, { exact: true }) })

/** The table's groups, in its order; the transaction sends join the `transactions` group. */
export const groups: ReadonlyArray<readonly [string, ReadonlyArray<Endpoint.Any>]> = [
  ["accounts", Object.values(WalletApi.accounts)],
  ["feePayers", Object.values(WalletApi.feePayers)],
  [
    "transactions",
    [
      ...Object.values(WalletApi.transactionRoutes).flatMap((routes) => Object.values(routes) as Array<Endpoint.Any>),
      ...Object.values(WalletApi.transactions)
    ]
  ],
  ["keys", Object.values(WalletApi.keys)],
  ["multisig", Object.values(WalletApi.multisig)],
  ["registration", Object.values(WalletApi.registration)],
  ["history", Object.values(WalletApi.history)]
]

/** One operation of the table as an `HttpApiEndpoint`. */
export const toHttpApiEndpoint = (e: Endpoint.Any): HttpApiEndpoint.HttpApiEndpoint.AnyWithProps => {
  let endpoint: any = HttpApiEndpoint.make(e.method)(e.name, httpApiPath(e.path))
  const pathFields = Object.entries(e.pathSchema.fields as Schema.Struct.Fields)
  if (pathFields.length > 0) endpoint = endpoint.setPath(Schema.Struct(Object.fromEntries(pathFields.map(([name, schema]) => [paramName(name), schema]))))
  if (Object.keys(e.urlParamsSchema.fields).length > 0) endpoint = endpoint.setUrlParams(e.urlParamsSchema)
  if (e.payload !== undefined) endpoint = endpoint.setPayload(e.payload.schema)
  endpoint = endpoint.setHeaders(e.access === "member" ? ChainHeader : PoolHeaders)
  return endpoint.addSuccess(e.successSchema)
}

const derive = () => {
  let api: any = HttpApi.make("kasWallet")
  for (const [name, endpoints] of groups) {
    let group: any = HttpApiGroup.make(name)
    for (const e of endpoints) group = group.add(toHttpApiEndpoint(e))
    api = api.add(group)
  }
  for (const status of KasStatuses) api = api.addError(ErrorBody.ErrorBody, { status })
  return api as HttpApi.HttpApi<"kasWallet", HttpApiGroup.HttpApiGroup.AnyWithProps, unknown, never>
}

/** The `HttpApi` of every operation of the table. */
export const api = derive()
