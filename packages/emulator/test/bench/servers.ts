/**
 * Servers of the emulator's side-by-side benchmarks as child processes: anvil (its binary found
 * by anvil.ts), the built `kas-wallet emulator`, and a Node process running the emulator in
 * process. Each is timed from its spawn to its first answer, and its CPU time is read from /proc.
 */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { call } from "./anvil.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..")

/**
 * The built `kas-wallet` (packages/cli/dist, built first when missing), or `KAS_BENCH_BIN`.
 * `KAS_BENCH_BASELINE_BIN` (and `KAS_BENCH_BASELINE_MODULE` for the package) names another build
 * measured beside it, in the same rounds: a before/after comparison.
 */
export const cliBin = (): string => {
  const bin = process.env.KAS_BENCH_BIN ?? path.join(root, "packages/cli/dist/kas-wallet.js")
  if (!existsSync(bin)) execFileSync("npx", ["tsx", "build.ts"], { cwd: path.join(root, "packages/cli"), stdio: "ignore" })
  return bin
}

/**
 * The emulator package's built entry (packages/emulator/dist/index.js, built with the client's
 * dist first when missing), or `KAS_BENCH_EMULATOR_MODULE`: what a user's test imports.
 */
export const emulatorModule = (): string => {
  const given = process.env.KAS_BENCH_EMULATOR_MODULE
  if (given !== undefined) return path.resolve(given)
  const entry = path.join(root, "packages/emulator/dist/index.js")
  if (!existsSync(entry)) {
    execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "src"], { cwd: root, stdio: "ignore" })
    execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "src"], { cwd: path.join(root, "packages/emulator"), stdio: "ignore" })
  }
  return entry
}

/** A server of the benchmark in a child process. */
export interface Server {
  /** Where its JSON-RPC is answered. */
  readonly rpcUrl: string
  /** Its base URL. */
  readonly url: string
  /** Headers its requests need (the emulator's credentials and chain). */
  readonly headers: Readonly<Record<string, string>>
  /** Milliseconds from the spawn to the first answer. */
  readonly startMs: number
  /** The process's CPU time (ms) until its first answer. */
  readonly startCpuMs: number
  /** The process's CPU time so far (user + system, ms), from /proc. */
  readonly cpuMs: () => number
  /** SIGTERM, then waits for the exit. */
  readonly stop: () => Promise<void>
}

const procCpuMs = (pid: number) => {
  // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 a second).
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/**
 * Spawns `command args`, waits for the line `ready` matches on its output, then for the answer to
 * one `eth_blockNumber`: the start time is spawn to that answer.
 */
const spawnServer = (
  command: string,
  args: ReadonlyArray<string>,
  ready: (out: string) => { readonly url: string; readonly rpcUrl: string; readonly headers: Record<string, string> } | undefined
): Promise<Server> =>
  new Promise((resolve, reject) => {
    const begin = performance.now()
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } })
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    let out = ""
    let found = false
    child.once("error", reject)
    child.stderr.on("data", (d: Buffer) => (out += String(d)))
    child.once("exit", (code) => {
      if (!found) reject(new Error(`${path.basename(command)} exited (${code}) before answering:\n${out}`))
    })
    child.stdout.on("data", (d: Buffer) => {
      if (found) return
      out += String(d)
      const at = ready(out)
      if (at === undefined) return
      found = true
      call(at.rpcUrl, at.headers)("eth_blockNumber").then(() =>
        resolve({
          ...at,
          startMs: performance.now() - begin,
          startCpuMs: procCpuMs(child.pid!),
          cpuMs: () => procCpuMs(child.pid!),
          stop: () => {
            child.kill("SIGTERM")
            return exited
          }
        }), reject)
    })
  })

/**
 * anvil on a free port, automine (its default), its log on (as a user starts it): timed as the
 * emulator is, to the answer after its "Listening on" line (anvil.ts's `start` polls instead).
 */
export const startAnvil = (bin: string): Promise<Server> =>
  spawnServer(bin, ["--port", "0"], (out) => {
    const at = /^Listening on (\S+)$/m.exec(out)?.[1]
    return at === undefined ? undefined : { url: `http://${at}`, rpcUrl: `http://${at}`, headers: {} }
  })

/**
 * The built `kas-wallet emulator` on a free port, with `args` (`--ephemeral`, `--data-dir D`, …),
 * as a user starts it; its settings from its output.
 */
export const startEmulatorProcess = (args: ReadonlyArray<string>, node: ReadonlyArray<string> = [], bin = cliBin()): Promise<Server> =>
  spawnServer(process.execPath, [...node, bin, "emulator", ...args, "--port", "0"], (out) => {
    const url = /^listening on (\S+)$/m.exec(out)?.[1]
    const authorization = /^authorization: (Basic \S+)$/m.exec(out)?.[1] ??
      (() => {
        const id = /^export KAS_ACCESS_KEY_ID=(\S+)$/m.exec(out)?.[1]
        const secret = /^export KAS_SECRET_ACCESS_KEY='?([^'\s]+)'?$/m.exec(out)?.[1]
        return id === undefined || secret === undefined ? undefined : `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`
      })()
    if (url === undefined || authorization === undefined) return undefined
    return { url, rpcUrl: `${url}/v1/klaytn`, headers: { authorization, "x-chain-id": "1001" } }
  })

/** What the in-process start measured, inside its process (ms). */
export interface InProcessStart {
  /** `import("effect-kas-wallet-emulator")`. */
  readonly importMs: number
  /** `Emulator.make` to its listening. */
  readonly makeMs: number
  /** The first answer (`eth_blockNumber`). */
  readonly firstMs: number
  /** From the import to the first answer. */
  readonly totalMs: number
  /** The process's CPU time (ms) until the first answer, its own start included. */
  readonly cpuMs: number
}

/**
 * A new Node process that imports the built emulator package as a user's test does, starts an
 * emulator (`Emulator.make`, in-memory database) and asks it one `eth_blockNumber`; the times
 * measured inside it.
 */
export const inProcessStart = (module = emulatorModule()): InProcessStart => {
  const entry = pathToFileURL(module).href
  const script = `
const t0 = performance.now()
const { Emulator } = await import(${JSON.stringify(entry)})
const { Effect, Exit, Redacted, Scope } = await import("effect")
const t1 = performance.now()
const scope = Effect.runSync(Scope.make())
const emulator = await Effect.runPromise(Scope.extend(Emulator.make({ port: 0 }), scope))
const t2 = performance.now()
const response = await fetch(emulator.url + "/v1/klaytn", {
  method: "POST",
  headers: { authorization: Redacted.value(emulator.member.authorization), "x-chain-id": "1001", "content-type": "application/json" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] })
})
if ((await response.json()).result === undefined) throw new Error("no answer")
const t3 = performance.now()
const cpu = process.cpuUsage()
console.log(JSON.stringify({ importMs: t1 - t0, makeMs: t2 - t1, firstMs: t3 - t2, totalMs: t3 - t0, cpuMs: (cpu.user + cpu.system) / 1000 }))
await Effect.runPromise(Scope.close(scope, Exit.void))
`
  // Run from the emulator's folder, so that "effect" resolves as in the package.
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: path.join(root, "packages/emulator"), encoding: "utf8" })
  return JSON.parse(out.trim().split("\n").pop()!) as InProcessStart
}

let floorBundle: string | undefined

/**
 * The floor of the process's start (floor/effectServer.ts: an Effect 3 HTTP server answering one
 * JSON-RPC route, nothing of the emulator), bundled as the CLI is (esbuild, ES modules, for Node)
 * once per process, spawned on a free port: what any start of the emulator pays at least.
 */
export const startEffectServerFloor = async (): Promise<Server> => {
  if (floorBundle === undefined) {
    const { build } = await import("esbuild")
    const { requireBanner } = await import("../../../cli/build.js")
    const dir = await mkdtemp(path.join(tmpdir(), "kas-bench-floor-"))
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }))
    floorBundle = path.join(dir, "effectServer.mjs")
    await build({
      entryPoints: [fileURLToPath(new URL("./floor/effectServer.ts", import.meta.url))],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      minify: true,
      outfile: floorBundle,
      // As the CLI's bundle, for the CommonJS packages it takes in.
      banner: { js: requireBanner },
      logLevel: "error"
    })
  }
  return spawnServer(process.execPath, [floorBundle], (out) => {
    const url = /^listening on (\S+)$/m.exec(out)?.[1]
    return url === undefined ? undefined : { url, rpcUrl: url, headers: {} }
  })
}

/** What the in-process floor measured inside its process (ms). */
export interface ImportFloor {
  /** `import("effect")` and `import("@effect/platform-node/NodeHttpServer")`. */
  readonly importMs: number
  /** The process's CPU time (ms) until then, its own start included. */
  readonly cpuMs: number
}

/**
 * The floor of the in-process start: a new Node process that imports `effect` and
 * `@effect/platform-node/NodeHttpServer` (by its module path, as the emulator does: the package's
 * index loads every module of it), what a program must load before it serves HTTP with Effect 3,
 * from the emulator's folder as a user's test would; the time measured inside it.
 */
export const importFloor = (): ImportFloor => {
  const script = `
const t0 = performance.now()
await import("effect")
await import("@effect/platform-node/NodeHttpServer")
const cpu = process.cpuUsage()
console.log(JSON.stringify({ importMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 }))
`
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: path.join(root, "packages/emulator"), encoding: "utf8" })
  return JSON.parse(out.trim().split("\n").pop()!) as ImportFloor
}

/** Node's own start: `node -e 0` from spawn to exit, wall and CPU ms (its child's rusage). */
export const nodeStart = (): { readonly ms: number; readonly cpuMs: number } => {
  const before = childrenCpuMs()
  const begin = performance.now()
  execFileSync(process.execPath, ["-e", "0"])
  return { ms: performance.now() - begin, cpuMs: childrenCpuMs() - before }
}

// Fields 16 and 17 of /proc/self/stat: the user and system time of the children waited for.
const childrenCpuMs = () => {
  const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /, "").split(" ")
  return (Number(fields[13]) + Number(fields[14])) * 10
}
