#!/usr/bin/env node
/**
 * The `kas-wallet` executable.
 *
 * Help, the version, completions and usage errors are answered from the command table alone;
 * effect and the client are loaded only to run a command, and the emulator only to run an
 * emulator command. `kas-wallet --help` thus starts in a fraction of the time the full program
 * takes to load.
 *
 * @since 0.1.0
 */
import { version } from "./version.js"
import * as Argv from "./input/Argv.js"
import * as Help from "./output/Help.js"
import * as Tree from "./commands/Spec.js"

// A reader that stops early (`kas-wallet accounts list --all | head`) closes the pipe: stop
// quietly, as a command killed by SIGPIPE does, rather than crash on the next write.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0)
    throw error
  })
}

const args = process.argv.slice(2)
// The emulator's options (a part of effect) are needed only for its own help and the completions.
const fields = Tree.needsEmulatorFields(args) ? (await import("effect-kas-wallet-emulator/EmulatorConfig")).fields : undefined
const root = Tree.tree(fields)
const request = Argv.read(root, args)
if (request._tag !== "Run") {
  const answered = Help.answer(root, request, version, Help.styleFor(process.stdout, process.env))!
  process.stdout.write(answered.stdout)
  process.stderr.write(answered.stderr)
  process.exitCode = answered.code
} else {
  const { main } = await import("./main.js")
  main(root, request)
}
