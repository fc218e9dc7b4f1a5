/**
 * The JSON of the domain's answers: each value through the client's schema of it, the one the
 * client decodes the answer with. A value that does not encode is a defect (500), never a wrong
 * answer.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.10.0
 * @internal
 */
import { Effect, Schema } from "effect"

/**
 * The JSON text of a value, encoded by its schema.
 *
 * @since 0.10.0
 * @category rendering
 */
export const json = <A, I>(schema: Schema.Schema<A, I>) => (value: A): Effect.Effect<string> =>
  Effect.orDie(Effect.map(Schema.encode(schema)(value), (encoded) => JSON.stringify(encoded)))
