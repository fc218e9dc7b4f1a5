/**
 * The emulator's console over HTTP: fund an address, read a balance, mine blocks (manual mining),
 * read the global fee payer's bills, take a snapshot of the whole emulator and revert to it, set
 * the next block's time, on a running emulator. These are the emulator's own routes, not the KAS wallet API (which
 * has no faucet): they live under `ConsolePrefix`, authenticate with a member's API key like every
 * route of the API, choose the chain with `x-chain-id`, and are never faulted, so that a test that
 * injects faults can still set up its ledger. `kas-wallet emulator fund --url` uses them.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.3.0
 * @internal
 */
import { Effect, Either } from "effect"
import * as ApiError from "../ApiError.js"
import * as Blocks from "../../chain/Blocks.js"
import type * as EmulatorConsole from "../../console/EmulatorConsole.js"
import * as Description from "../Description.js"
import * as PathValues from "../PathValues.js"
import * as Route from "../Route.js"

const balanceSchema = Description.json({
  type: "object",
  required: ["chainId", "address", "balance", "nonce"],
  properties: {
    chainId: { type: "integer", enum: [8217, 1001] },
    address: { type: "string", description: "EIP-55 checksummed" },
    balance: { type: "string", description: "peb, decimal digits" },
    nonce: { type: "integer", description: "the next nonce" }
  }
})

const balanceBody = (b: EmulatorConsole.LedgerBalance) =>
  JSON.stringify({ chainId: b.chainId, address: b.address, balance: b.balance.toString(), nonce: b.nonce })

// The console's bodies, read as JSON: text that is not JSON is the caller's error, never a 5xx.
const parseJson = (text: string): Either.Either<unknown, ApiError.ApiError> => {
  try {
    return Either.right(JSON.parse(text))
  } catch {
    return Either.left(ApiError.outOfRange("body"))
  }
}

// A JSON object whose fields are `name`'s alone (the first other field is the caller's error).
const fieldsOnly = (text: string, name: string): Either.Either<unknown, ApiError.ApiError> =>
  Either.flatMap(parseJson(text), (body) => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return Either.left(ApiError.outOfRange("body"))
    const { [name]: value, ...rest } = body as Record<string, unknown>
    const unknown = Object.keys(rest)[0]
    return unknown !== undefined ? Either.left(ApiError.outOfRange(unknown)) : Either.right(value)
  })

const FundBody = "a JSON object: address (0x and 40 hex digits) and amount (peb, as decimal digits in a string)"

const parseFundBody = (text: string): Either.Either<{ readonly address: string; readonly amount: bigint }, ApiError.ApiError> =>
  Either.flatMap(parseJson(text), (body) => {
    if (typeof body !== "object" || body === null) return Either.left(ApiError.outOfRange("body"))
    const { address, amount } = body as Record<string, unknown>
    if (address === undefined || address === "") return Either.left(ApiError.missing("address"))
    if (amount === undefined || amount === "") return Either.left(ApiError.missing("amount"))
    if (typeof address !== "string") return Either.left(ApiError.notAddress("address"))
    if (typeof amount !== "string" || !/^\d{1,78}$/.test(amount)) return Either.left(ApiError.outOfRange("amount"))
    return Either.map(PathValues.parseAddress(address), () => ({ address, amount: BigInt(amount) }))
  })

const MineBody = "optional: a JSON object with blocks, the number of blocks to make (1 to 1000, default 1)"

// The body of `mine`: empty (one block) or `{ "blocks": n }`. Anything else is the caller's error, never a 5xx.
const parseMineBody = (text: string): Either.Either<number, ApiError.ApiError> =>
  text.trim() === "" ? Either.right(1) : Either.flatMap(fieldsOnly(text, "blocks"), (blocks) => {
    if (blocks === undefined) return Either.right(1)
    if (typeof blocks !== "number" || !Number.isSafeInteger(blocks) || blocks < 1 || blocks > Blocks.MaxBlocksPerMine) {
      return Either.left(ApiError.outOfRange("blocks"))
    }
    return Either.right(blocks)
  })

// A JSON object with exactly one field `name` (any other field is the caller's error; a missing
// or empty one is missing). Never a 5xx.
const parseOne = (text: string, name: string): Either.Either<unknown, ApiError.ApiError> =>
  Either.flatMap(fieldsOnly(text, name), (value) => (value === undefined || value === "" ? Either.left(ApiError.missing(name)) : Either.right(value)))

const RevertBody = "a JSON object: id, a snapshot's id as `POST /_emulator/snapshot` answered it"

const parseRevertBody = (text: string): Either.Either<string, ApiError.ApiError> =>
  Either.flatMap(parseOne(text, "id"), (id) => (typeof id === "string" ? Either.right(id) : Either.left(ApiError.outOfRange("id"))))

const TimeBody = "a JSON object: timestamp, the next block's time in Unix seconds (an integer, not before the latest block's)"

const parseTimeBody = (text: string): Either.Either<number, ApiError.ApiError> =>
  Either.flatMap(parseOne(text, "timestamp"), (t) =>
    typeof t === "number" && Number.isSafeInteger(t) && t >= 0 ? Either.right(t) : Either.left(ApiError.outOfRange("timestamp")))

/**
 * The console routes, in the document's order.
 *
 * @since 0.3.0
 * @category routes
 */
export const routes: ReadonlyArray<Route.Route> = [
  Route.make({
    method: "POST",
    path: `${Route.ConsolePrefix}fund`,
    operationId: "emulatorFund",
    summary: "Emulator console: credit test value to an address on the chain of x-chain-id (not of the KAS API)",
    description: "The emulator's faucet: any address, an account of the wallet or not. Never faulted.",
    access: "memberWide",
    body: { required: true, description: FundBody, schema: Description.json({ type: "object", required: ["address", "amount"] }) },
    response: { description: "The address's new balance and next nonce.", schema: balanceSchema },
    errors: { 400: `Bad body (${ApiError.Code.EmptyOrZero}, ${ApiError.Code.NotKlaytnAddress}, ${ApiError.Code.OutOfRange}), or a balance above 2^256 - 1 peb (${ApiError.Code.OutOfRange}).` },
    handler: ({ body, caller, services }) =>
      Effect.flatMap(parseFundBody(body), ({ address, amount }) =>
        Effect.map(services.console.fund(caller.chainId, address, amount), balanceBody))
  }),
  Route.make({
    method: "GET",
    path: `${Route.ConsolePrefix}balance/{address}`,
    operationId: "emulatorBalance",
    summary: "Emulator console: the balance and next nonce of any address on the chain of x-chain-id (not of the KAS API)",
    access: "memberWide",
    pathParameters: { address: PathValues.address },
    response: { description: "The balance and next nonce (0 and 0 for an address never seen).", schema: balanceSchema },
    handler: ({ caller, params, services }) =>
      Effect.flatMap(PathValues.parseAddress(params.address), (address) =>
        Effect.map(services.console.balance(caller.chainId, address), balanceBody))
  }),
  Route.make({
    method: "POST",
    path: `${Route.ConsolePrefix}mine`,
    operationId: "emulatorMine",
    summary: "Emulator console: make blocks on the chain of x-chain-id, manual mining only (not of the KAS API)",
    description: "The first block holds every pending transaction of the chain, in acceptance order. Never faulted.",
    access: "memberWide",
    body: { required: false, description: MineBody, schema: Description.json({ type: "object", properties: { blocks: { type: "integer", minimum: 1, maximum: 1000 } } }) },
    response: {
      description: "The blocks made: chainId, blockNumber, blockHash, blockTimeMs, transactions (their hashes, in order).",
      schema: Description.json({ type: "array", items: { type: "object" } })
    },
    errors: { 400: `Bad body, or the emulator mines by interval or instantly (${ApiError.Code.OutOfRange}).` },
    handler: ({ body, caller, services }) =>
      Effect.flatMap(parseMineBody(body), (blocks) =>
        Effect.map(services.ledger.mine(caller.chainId, blocks), (made) => JSON.stringify(made)))
  }),
  Route.make({
    method: "GET",
    path: `${Route.ConsolePrefix}bills`,
    operationId: "emulatorBills",
    summary: "Emulator console: the global fee payer's bills on the chain of x-chain-id, per member (not of the KAS API)",
    access: "memberWide",
    query: [{ name: "accountId", description: "Only this member's bill. Unknown: 400 1061010.", schema: Description.json({ type: "string" }) }],
    response: {
      description: "The bills, oldest member first: accountId, chainId, feePayer, fees (peb, decimal digits), transactions.",
      schema: Description.json({ type: "array", items: { type: "object" } })
    },
    handler: ({ caller, query, services }) => {
      const accountId = new URLSearchParams(query).get("accountId") ?? undefined
      return Effect.map(
        services.console.feeBills({ accountId: accountId === "" ? undefined : accountId, chainId: caller.chainId }),
        (bills) => JSON.stringify(bills.map((b) => ({ ...b, fees: b.fees.toString() })))
      )
    }
  }),
  Route.make({
    method: "POST",
    path: `${Route.ConsolePrefix}snapshot`,
    operationId: "emulatorSnapshot",
    summary: "Emulator console: a snapshot of the whole emulator, every member and both chains (not of the KAS API)",
    description: "Accounts, keys, pools, balances, nonces, contracts, the pending pool, multisig transactions, bills and history; anvil's evm_snapshot. Never faulted.",
    access: "memberWide",
    response: { description: "The snapshot's id, for a revert.", schema: Description.json({ type: "object", required: ["id"], properties: { id: { type: "string", example: "0x1" } } }) },
    handler: ({ services }) => Effect.map(services.control.snapshot, (id) => JSON.stringify({ id }))
  }),
  Route.make({
    method: "POST",
    path: `${Route.ConsolePrefix}revert`,
    operationId: "emulatorRevert",
    summary: "Emulator console: bring the whole emulator back to a snapshot (not of the KAS API)",
    description: "Drops the snapshot and those taken after it (anvil's evm_revert): an id reverts once. Never faulted.",
    access: "memberWide",
    body: { required: true, description: RevertBody, schema: Description.json({ type: "object", required: ["id"], properties: { id: { type: "string" } } }) },
    response: { description: "Reverted.", schema: Description.json({ type: "object", properties: { reverted: { type: "boolean" } } }) },
    errors: { 400: `Bad body, or an id unknown or reverted to already (${ApiError.Code.OutOfRange}); nothing changed.` },
    handler: ({ body, services }) =>
      Effect.flatMap(parseRevertBody(body), (id) => Effect.as(services.control.revert(id), JSON.stringify({ reverted: true })))
  }),
  Route.make({
    method: "POST",
    path: `${Route.ConsolePrefix}time`,
    operationId: "emulatorTime",
    summary: "Emulator console: set the time of the next block, from which the chain's time runs (not of the KAS API)",
    description: "anvil's evm_setNextBlockTimestamp, for both chains. Never faulted.",
    access: "memberWide",
    body: { required: true, description: TimeBody, schema: Description.json({ type: "object", required: ["timestamp"], properties: { timestamp: { type: "integer" } } }) },
    response: { description: "The time set.", schema: Description.json({ type: "object", properties: { timestamp: { type: "integer" } } }) },
    errors: { 400: `Bad body, or a time before the latest block (${ApiError.Code.OutOfRange}); nothing changed.` },
    handler: ({ body, services }) =>
      Effect.flatMap(parseTimeBody(body), (timestamp) => Effect.as(services.control.setNextBlockTime(timestamp), JSON.stringify({ timestamp })))
  })
]
