/**
 * ABI call data of a contract call: the selector of a method and the encoding of its typed
 * arguments (ox).
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import { Effect } from "effect"
import type * as Wire from "effect-kas-wallet/Wire"

// A call argument as ox encodes it: integers (JSON numbers, decimal or 0x strings: the wire
// schema checked them) as bigint, element by element in arrays; everything else as given.
const abiValue = (type: string, value: unknown): unknown => {
  const array = /^(.*)\[\d*\]$/.exec(type)
  if (array !== null) return (value as ReadonlyArray<unknown>).map((v) => abiValue(array[1]!, v))
  return /^u?int\d*$/.test(type) ? BigInt(value as string | number) : value
}

// ox's ABI coder, loaded on the first call: an emulator that never calls a contract never loads it.
// The promise is kept: an `import()` per call would resolve the module again each time.
let abiFunction: Promise<typeof import("ox/AbiFunction")> | undefined
const loadAbiFunction = Effect.promise(() => (abiFunction ??= import("ox/AbiFunction")))

/**
 * The calldata of a method and its typed arguments: the selector of `methodName(type,...)` and the
 * ABI encoding of the values (ox). `undefined` when ox refuses a value the wire schema let by.
 *
 * @since 0.4.0
 * @category calls
 */
export const callData = (methodName: string, args: ReadonlyArray<Wire.CallArgument>): Effect.Effect<string | undefined> =>
  Effect.map(loadAbiFunction, (AbiFunction) => {
    try {
      const fn = AbiFunction.from({
        type: "function",
        name: methodName,
        inputs: args.map((a) => ({ type: a.type })),
        outputs: [],
        stateMutability: "view"
      })
      const values = args.map((a) => abiValue(a.type, a.value))
      return (values.length === 0 ? AbiFunction.encodeData(fn) : AbiFunction.encodeData(fn, values as never)).toLowerCase()
    } catch {
      return undefined
    }
  })
