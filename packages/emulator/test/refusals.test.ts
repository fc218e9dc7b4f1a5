/**
 * The domain fails with its refusals (src/Refusal.ts); the HTTP edge answers each as one function
 * says (http/Refusals.ts). Each answer must be the one the public `ApiError` constructors give for
 * the same failure: status, code, message, headers and the node's words, so that what the wire
 * carries does not depend on where the failure was raised.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration } from "effect"
import * as EmulatorConsole from "../src/console/EmulatorConsole.js"
import * as ApiError from "../src/http/ApiError.js"
import * as Refusals from "../src/http/Refusals.js"
import * as Refusal from "../src/Refusal.js"

const address = "0x5053e2F0DDE795C423a2b7F551c873f6ef6F4dAA"
const hash = `0x${"ab".repeat(32)}`

const answer = (e: ApiError.ApiError) => ({ status: e.status, code: e.code, message: e.message, headers: e.headers, reason: e.reason })

// Each refusal, and the answer the emulator gave for it before the domain had refusals of its own.
const cases: ReadonlyArray<readonly [Refusal.Refusal, ApiError.ApiError]> = [
  [new Refusal.Missing({ field: "size" }), ApiError.missing("size")],
  [new Refusal.OutOfRange({ field: "cursor" }), ApiError.outOfRange("cursor")],
  [new Refusal.NotFound({}), ApiError.dataNotExist()],
  [new Refusal.NotFound({ detail: "x-krn" }), ApiError.dataNotExist("x-krn")],
  [new Refusal.FeePayerNotFound(), ApiError.feePayerNotFound()],
  [new Refusal.AlreadyDisabled(), ApiError.alreadyDisabled()],
  [new Refusal.AlreadyEnabled(), ApiError.alreadyEnabled()],
  [new Refusal.NotMemberAccount({ address }), ApiError.notMemberAccount(address)],
  [new Refusal.AccountCorrupted({ address, use: "sign" }), ApiError.corruptedAccount(address)],
  [new Refusal.AccountCorrupted({ address, use: "read" }), ApiError.corruptedAccountGet(address)],
  [new Refusal.CannotSign({ address }), ApiError.cannotSign(address)],
  [new Refusal.NodeRefused({ reason: "nonce too low", during: "send" }), ApiError.sendFailed("nonce too low")],
  [new Refusal.NodeRefused({ reason: "execution reverted: no", during: "call" }), ApiError.callFailed("execution reverted: no")],
  [new Refusal.TransactionNotFound(), ApiError.transactionNotFound()],
  [
    new Refusal.AlreadySubmitted({ transactionHash: hash }),
    ApiError.refused(ApiError.Code.AlreadySubmitted, `already submitted transaction. Confirm transaction hash; ${hash}`)
  ],
  [
    new Refusal.NotLegacyAccount(),
    ApiError.refused(
      ApiError.Code.NotLegacyAccount,
      "the requested account must be a legacy account; if the account is multisig account, use `PUT /v2/tx/{fd|fd-user}/account` API for multisig transaction and /v2/multisig/**/** APIs"
    )
  ],
  [
    new Refusal.IntervalMining({ interval: Duration.format(Duration.seconds(1)) }),
    ApiError.refused(ApiError.Code.OutOfRange, "blocks are made every 1s by the clock (interval mining): mine needs manual mining (--mining manual)")
  ],
  [
    new Refusal.InstantMining(),
    ApiError.refused(
      ApiError.Code.OutOfRange,
      "a block is made for each transaction as it is accepted (instant mining): mine needs manual mining (--mining manual)"
    )
  ],
  [
    new Refusal.TimeBeforeBlock({ timeMs: 1_000_000_000_000, blockMs: 1_000_000_001_000 }),
    ApiError.refused(
      ApiError.Code.OutOfRange,
      "the next block's time 2001-09-09T01:46:40.000Z (1000000000) is before the latest block's, 2001-09-09T01:46:41.000Z (1000000001): a chain's time never goes back"
    )
  ],
  // Within the same second (a block made 300 ms into it): the seconds show what differs.
  [
    new Refusal.TimeBeforeBlock({ timeMs: 1_893_456_000_000, blockMs: 1_893_456_000_300 }),
    ApiError.refused(
      ApiError.Code.OutOfRange,
      "the next block's time 2030-01-01T00:00:00.000Z (1893456000) is before the latest block's, 2030-01-01T00:00:00.300Z (1893456000.300): a chain's time never goes back"
    )
  ]
]

describe("the one mapping of the domain's refusals", () => {
  it("answers each refusal as the ApiError constructors do", () => {
    for (const [refusal, expected] of cases) {
      expect(answer(Refusals.toApiError(refusal)), refusal._tag).toEqual(answer(expected))
      expect(Refusal.isRefusal(refusal)).toBe(true)
    }
  })

  it("covers every refusal, and nothing else passes for one", () => {
    expect(new Set(cases.map(([r]) => r._tag))).toEqual(new Set(Object.keys(Refusals.codes)))
    for (const other of [ApiError.internal(), new EmulatorConsole.ConsoleError({ reason: "KeyLimit", message: "m" }), { _tag: "SqlError" }, null, "NotFound"]) {
      expect(Refusal.isRefusal(other)).toBe(false)
    }
  })

  it("answers the console's refusals with its message: an unknown member 1061010, anything else 1061615", () => {
    const member = new EmulatorConsole.ConsoleError({ reason: "MemberNotFound", message: "no member has the account id x" })
    const input = new EmulatorConsole.ConsoleError({ reason: "InvalidInput", message: "the chain is 8217 or 1001, got 1" })
    expect(answer(Refusals.toApiError(member))).toEqual(answer(ApiError.refused(ApiError.Code.DataNotExist, member.message)))
    expect(answer(Refusals.toApiError(input))).toEqual(answer(ApiError.refused(ApiError.Code.OutOfRange, input.message)))
  })
})
