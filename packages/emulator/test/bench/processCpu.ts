/**
 * What the emulator benchmarks share for measuring the emulator's own CPU per request: a bare
 * `node:http` keep-alive client that does not decode bodies (so that nearly all of the process's
 * CPU is the emulator's), the process CPU clock, and the median CPU of sequential requests.
 */
import * as http from "node:http"
import { cpuMs } from "../../../../test/bench/harness.js"

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

/** One request over the shared keep-alive connection: its status and body text. */
export const request = (method: string, url: string, headers: Readonly<Record<string, string>>, body?: unknown) =>
  new Promise<{ readonly status: number; readonly text: string }>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = http.request(url, {
      method,
      headers: payload === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      agent
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(payload)
  })

/** Closes the keep-alive connection (at the end of a benchmark: the process can then exit). */
export const closeConnections = () => agent.destroy()

export { cpuMs }

/** The median of some figures. */
export const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** The range of some ratios, as `low–highx`. */
export const spread = (xs: ReadonlyArray<number>) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return `${sorted[0]!.toFixed(2)}–${sorted[sorted.length - 1]!.toFixed(2)}x`
}

/** Median process CPU (ms) of `count` sequential requests. */
export const cpuOf = async (count: number, send: () => Promise<void>) => {
  const each: Array<number> = []
  for (let i = 0; i < count; i++) {
    const before = cpuMs()
    await send()
    each.push(cpuMs() - before)
  }
  return median(each)
}
