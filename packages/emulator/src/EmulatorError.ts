/**
 * Why an emulator could not start or a console operation could not reach its database.
 *
 * @since 0.1.0
 */
import { Data } from "effect"

/**
 * A failure of the emulator itself, with a closed set of reasons:
 *
 * - `Config`: an option is invalid (bad database location, bad fault rate, ...).
 * - `Database`: the database cannot be opened, migrated or queried.
 * - `MasterKey`: the master key cannot be read or created, or it does not match the database.
 * - `Member`: the member key to register conflicts with the database.
 * - `Listen`: the HTTP server cannot listen on the host and port.
 *
 * @since 0.1.0
 * @category errors
 */
export class EmulatorError extends Data.TaggedError("EmulatorError")<{
  readonly reason: "Config" | "Database" | "MasterKey" | "Member" | "Listen"
  readonly message: string
  readonly cause?: unknown
}> {}
