import { keccak_256 } from "@noble/hashes/sha3.js"
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { afterEach, vi } from "vitest"
import { BadChecksum, BadShape, engine, type HexEngine, makeNobleEngine, makeWasmEngine } from "../../src/internal/hexEngine.js"
import { assemble, load } from "../../src/internal/keccakWasm.js"
import { binaryString } from "../support/binaryString.js"

const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

// Reference EIP-55 over @noble/hashes.
const referenceChecksum = (lower: string): string => {
  const hash = keccak_256(new TextEncoder().encode(lower))
  let out = "0x"
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!
  }
  return out
}

// What normalizeAddress must return, by definition.
const referenceNormalize = (s: string): string | typeof BadShape | typeof BadChecksum => {
  if (!/^0x[0-9a-fA-F]{40}$/.test(s)) return BadShape
  const digits = s.slice(2)
  const expected = referenceChecksum(digits.toLowerCase())
  const mixed = /[a-f]/.test(digits) && /[A-F]/.test(digits)
  return mixed && s !== expected ? BadChecksum : expected
}

// What hexClass must return, by definition, with regular expressions.
const referenceHexClass = (s: string, start: number, end: number): number => {
  if (end <= start || end > s.length) return -1
  const part = s.slice(start, end)
  if (!/^[0-9a-fA-F]+$/.test(part)) return -1
  return (/[a-f]/.test(part) ? 1 : 0) | (/[A-F]/.test(part) ? 2 : 0)
}

const wasm = load()
const engines: ReadonlyArray<HexEngine> = [makeNobleEngine(), makeWasmEngine(wasm!)]

const lowerAddress = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${toHex(b)}`)
const addressInput = fc.oneof(
  { weight: 3, arbitrary: lowerAddress },
  { weight: 3, arbitrary: lowerAddress.map((a) => referenceChecksum(a.slice(2))) },
  { weight: 2, arbitrary: lowerAddress.map((a) => `0x${a.slice(2).toUpperCase()}`) },
  {
    weight: 4,
    arbitrary: fc.tuple(lowerAddress, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 })).map(([a, up]) =>
      "0x" + Array.from(a.slice(2), (c, i) => (up[i] ? c.toUpperCase() : c)).join("")
    )
  },
  // one-digit changes of a checksum: flipped case, non-hex or non-ASCII characters
  {
    weight: 3,
    arbitrary: fc
      .tuple(lowerAddress, fc.integer({ min: 0, max: 41 }), fc.constantFrom("flip", "g", "G", "X", "x", ":", "é", "０", "\u{1F600}", "\u0130"))
      .map(([a, i, c]) => {
        const good = referenceChecksum(a.slice(2))
        const replacement = c === "flip"
          ? (good[i] === good[i]!.toUpperCase() ? good[i]!.toLowerCase() : good[i]!.toUpperCase())
          : c
        return good.slice(0, i) + replacement + good.slice(i + 1)
      })
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 40, maxLength: 40 }).map((s) => `0x${s}`) }
)

describe("engine choice", () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })
  // A fresh instance of the module alone (a query makes another module id): resetting the whole
  // module registry would hand later test files a second copy of effect.
  let instance = 0
  const freshEngine = (): Promise<typeof import("../../src/internal/hexEngine.js")> =>
    import(/* @vite-ignore */ `../../src/internal/hexEngine.js?fresh=${++instance}`)

  it("nothing is compiled at import; the first address check compiles the WebAssembly engine once", async () => {
    const Original = WebAssembly.Module
    const compile = vi.spyOn(WebAssembly, "Module").mockImplementation(function(bytes: BufferSource) {
      return new Original(bytes)
    } as never)
    const fresh = await freshEngine()
    expect(compile).not.toHaveBeenCalled()
    expect(fresh.normalizeAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")).toBe("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
    fresh.normalizeAddress("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")
    expect(compile).toHaveBeenCalledTimes(1)
    expect(fresh.engine().engine).toBe("wasm")
  })

  it("where compiling is forbidden (as on Cloudflare Workers), @noble/hashes takes over", async () => {
    vi.spyOn(WebAssembly, "Module").mockImplementation(() => {
      throw new WebAssembly.CompileError("WebAssembly.Module(): Wasm code generation disallowed by embedder")
    })
    const fresh = await freshEngine()
    expect(fresh.normalizeAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")).toBe("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
    expect(fresh.normalizeAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")).toBe(BadChecksum)
    expect(fresh.engine().engine).toBe("noble")
  })
})

describe("address engines", () => {
  it("WebAssembly loads in Node and is the engine in use", () => {
    expect(wasm).toBeDefined()
    expect(engine().engine).toBe("wasm")
    expect(engines.map((e) => e.engine)).toStrictEqual(["noble", "wasm"])
  })

  it("the assembled wasm module is under 4096 bytes", () => {
    const bytes = assemble()
    expect(bytes.length).toBeGreaterThan(8)
    expect(bytes.length).toBeLessThan(4096)
    expect(WebAssembly.validate(bytes)).toBe(true)
  })

  it.prop(
    "both engines agree with the reference normalizeAddress",
    [addressInput],
    ([s]) => {
      const expected = referenceNormalize(s)
      for (const e of engines) expect(e.normalizeAddress(s), e.engine).toBe(expected)
    },
    { fastCheck: { numRuns: 1000 } }
  )

  it("EIP-55 vectors on both engines", () => {
    for (const v of [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"
    ]) {
      for (const e of engines) {
        expect(e.normalizeAddress(v)).toBe(v)
        expect(e.normalizeAddress(v.toLowerCase())).toBe(v)
        expect(e.normalizeAddress(`0x${v.slice(2).toUpperCase()}`)).toBe(v)
      }
    }
  })

  const hexish = fc.oneof(
    fc.stringMatching(/^[0-9a-fA-F]{0,30}$/),
    fc.stringMatching(/^[0-9a-f]{0,30}$/),
    fc.stringMatching(/^[0-9A-F]{0,30}$/),
    fc.stringMatching(/^[0-9a-gA-Gx: ]{0,30}$/),
    fc.string({ maxLength: 30 }),
    binaryString({ maxLength: 30 })
  )

  it.prop(
    "hexClass agrees with a regex reference on random strings and ranges",
    [hexish, fc.nat({ max: 34 }), fc.nat({ max: 34 })],
    ([s, a, b]) => {
      const expected = referenceHexClass(s, a, b)
      for (const e of engines) expect(e.hexClass(s, a, b), e.engine).toBe(expected)
    },
    { fastCheck: { numRuns: 1000 } }
  )

  it.prop(
    "hexClass over the whole string",
    [hexish],
    ([s]) => {
      for (const e of engines) expect(e.hexClass(s, 0, s.length)).toBe(referenceHexClass(s, 0, s.length))
    },
    { fastCheck: { numRuns: 500 } }
  )
})
