#!/usr/bin/env node
/**
 * The `kas-wallet` executable. SIGINT and SIGTERM interrupt the program: scopes close, so a running
 * emulator stops accepting connections, finishes in-flight requests and closes its database.
 *
 * Usage errors (unknown options, invalid values) are printed by @effect/cli and exit with code 2.
 *
 * @since 0.1.0
 */
import { ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { ExitCode } from "./ExitCode.js"
import { run } from "./main.js"

run(process.argv).pipe(
  Effect.catchIf(ValidationError.isValidationError, () =>
    Effect.sync(() => {
      process.exitCode = ExitCode.InvalidArgument
    })),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain
)
