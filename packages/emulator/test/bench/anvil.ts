/**
 * Foundry's anvil for side-by-side figures: found where a bench machine keeps it, or installed on
 * demand outside the repository (`npm install --prefix ~/.cache/kas-bench-anvil
 * @foundry-rs/anvil@1.7.1`); never a dependency of the project. A bench that cannot get it says
 * so and goes on without it.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"

/** The anvil version the figures are measured against. */
export const Version = "1.7.1"
const Prefix = path.join(os.homedir(), ".cache", "kas-bench-anvil")

// The npm package's `bin` is a Node script that spawns the native binary of the platform's
// package (`@foundry-rs/anvil-linux-amd64`, ...): that binary is what Foundry's users run, starts
// without Node's own start, and is the process whose CPU time /proc gives.
const native = (prefix: string): string | undefined => {
  const scope = path.join(prefix, "node_modules", "@foundry-rs")
  return (existsSync(scope) ? readdirSync(scope) : [])
    .filter((name) => name.startsWith("anvil-"))
    .map((name) => path.join(scope, name, "bin", "anvil"))
    .find((file) => existsSync(file))
}

/**
 * The anvil binary: `KAS_BENCH_ANVIL`, else the native binary of an install under the cache prefix
 * (or /tmp/anvil), or of a new install there.
 */
export const find = (): string | undefined => {
  const given = process.env.KAS_BENCH_ANVIL
  if (given !== undefined && given !== "") return existsSync(given) ? given : undefined
  const found = native(Prefix) ?? native("/tmp/anvil")
  if (found !== undefined) return found
  try {
    execFileSync("npm", ["install", "--prefix", Prefix, "--no-audit", "--no-fund", `@foundry-rs/anvil@${Version}`], { stdio: "ignore" })
  } catch {
    return undefined
  }
  return native(Prefix)
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })

/** A running anvil: its JSON-RPC endpoint, a call, and a stop. */
export interface Anvil {
  readonly url: string
  readonly rpc: (method: string, params?: ReadonlyArray<unknown>) => Promise<any>
  readonly stop: () => Promise<void>
}

/** A JSON-RPC call to `url` (with `headers`, an emulator's credentials say): its result, or a failure. */
export const call = (url: string, headers: Readonly<Record<string, string>> = {}) => async (method: string, params: ReadonlyArray<unknown> = []) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

/** Starts anvil on 127.0.0.1 (automine, its defaults) and waits for its first answer. */
export const start = async (binary: string, args: ReadonlyArray<string> = []): Promise<Anvil> => {
  const port = await freePort()
  const child: ChildProcess = spawn(binary, ["--host", "127.0.0.1", "--port", String(port), "--silent", ...args], { stdio: "ignore" })
  const url = `http://127.0.0.1:${port}`
  const rpc = call(url)
  for (let waited = 0;; waited += 10) {
    try {
      await rpc("eth_chainId")
      break
    } catch (e) {
      if (waited > 20_000 || child.exitCode !== null) {
        child.kill()
        throw new Error(`anvil did not start: ${String(e)}`)
      }
      await new Promise((r) => setTimeout(r, 10))
    }
  }
  return {
    url,
    rpc,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once("exit", () => resolve())
        child.kill()
      })
  }
}
