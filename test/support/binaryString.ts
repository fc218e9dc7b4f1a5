/**
 * `fc.string({ unit: "binary" })` without its one-time cost: building that arbitrary makes
 * fast-check check its "dangerous strings" (`__proto__`, ...) against the unit with a reverse map of
 * every code point, 1.1 million entries, about 1.1 s in each worker that builds it. This unit
 * generates the same characters from the same random draws (every code point but the surrogates,
 * in the same order: fast-check's `fullAlphabetRanges`), and answers which strings it can produce
 * by looking at the string instead. Shrinking a value it did not generate still goes through
 * fast-check's map (on a failure only).
 */
import { FastCheck as fc } from "effect"

const codePoints = fc.mapToConstant(
  { num: 0xd800, build: (i) => String.fromCodePoint(i) },
  { num: 0x110000 - 0xe000, build: (i) => String.fromCodePoint(0xe000 + i) }
)

class BinaryUnit extends fc.Arbitrary<string> {
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    return codePoints.generate(mrng, biasFactor)
  }
  canShrinkWithoutContext(value: unknown): value is string {
    if (typeof value !== "string" || value.length === 0) return false
    const code = value.codePointAt(0)!
    return String.fromCodePoint(code) === value && (code < 0xd800 || code > 0xdfff)
  }
  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    return codePoints.shrink(value, context)
  }
}

const unit = new BinaryUnit()

/** `fc.string({ unit: "binary", ...constraints })`, the same values from the same seed. */
export const binaryString = (constraints: Omit<fc.StringConstraints, "unit"> = {}): fc.Arbitrary<string> =>
  fc.string({ ...constraints, unit })
