import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import * as ErrorBody from "../src/ErrorBody.js"

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"))
const decodeBody = Schema.decodeUnknownEither(ErrorBody.ErrorBody)

describe("ErrorBody", () => {
  it("decodes the not-found fixture (no requestId)", () => {
    const result = decodeBody(fixture("error-account-get-400-not-your-own-account.json"))
    expect(result).toStrictEqual(Either.right({ code: ErrorBody.Code.DataNotExist, message: "data don't exist" }))
    if (Either.isRight(result)) expect(result.right).not.toHaveProperty("requestId")
  })

  it("decodes the out-of-range fixture", () => {
    const body = fixture("error-accounts-list-400-out-of-range.json") as Record<string, unknown>
    const result = decodeBody(body)
    expect(Either.isRight(result)).toBe(true)
    if (Either.isRight(result)) {
      expect(result.right.code).toBe(ErrorBody.Code.OutOfRange)
      expect(result.right.message).toBe(body.message)
      expect("requestId" in result.right).toBe("requestId" in body)
    }
  })

  it("keeps a requestId when present", () => {
    const body = { code: 1010009, message: "credential does not match", requestId: "f1a5c3b0-0000-4000-8000-000000000000" }
    expect(decodeBody(body)).toStrictEqual(Either.right(body))
    expect(Schema.encodeSync(ErrorBody.ErrorBody)(body)).toStrictEqual(body)
  })

  it.each([
    ["a fractional code", { code: 1.5, message: "x" }, "[\"code\"]"],
    ["a string code", { code: "1061010", message: "x" }, "[\"code\"]"],
    ["a missing code", { message: "x" }, "[\"code\"]"],
    ["a missing message", { code: 1 }, "[\"message\"]"],
    ["a non-string requestId", { code: 1, message: "x", requestId: 5 }, "[\"requestId\"]"],
    ["a null requestId", { code: 1, message: "x", requestId: null }, "[\"requestId\"]"]
  ])("rejects %s, naming the field", (_, body, field) => {
    const result = decodeBody(body)
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toContain(field)
  })

  it.prop("code must be an integer", [fc.oneof(fc.integer(), fc.double())], ([code]) => {
    expect(Either.isRight(decodeBody({ code, message: "m" }))).toBe(Number.isSafeInteger(code))
  })

  it.prop("round trip on generated bodies", [ErrorBody.ErrorBody], ([body]) => {
    expect(Schema.decodeUnknownSync(ErrorBody.ErrorBody)(JSON.parse(JSON.stringify(Schema.encodeSync(ErrorBody.ErrorBody)(body))))).toStrictEqual(body)
  })

  it("codes", () => {
    expect(ErrorBody.Code).toMatchObject({
      InvalidPathOrMethod: 1010007,
      InvalidAuthorization: 1010008,
      CredentialMismatch: 1010009,
      DataNotExist: 1061010,
      NotHex: 1061607,
      EmptyOrZero: 1061608,
      NotKlaytnAddress: 1061609,
      OutOfRange: 1061615,
      FeeRatioOutOfRange: 1061616
    })
  })
})
