/**
 * The public surface of `effect-kas-wallet-emulator`: what a user's tests need, nothing of the
 * emulator's machinery.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Public from "../src/index.js"

describe("effect-kas-wallet-emulator", () => {
  it("exports exactly the service, its config, errors, faults and console", () => {
    expect(Object.keys(Public).sort()).toEqual(["ApiError", "Emulator", "EmulatorConfig", "EmulatorConsole", "EmulatorError", "Faults"])
  })
})
