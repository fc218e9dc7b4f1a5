/**
 * What a key sign costs the emulator, side by side with a `getAccount`: the process CPU of
 * `POST /v2/key/{key-id}/sign` (a fresh 32-byte hash each time) against `GET /v2/account/{address}`,
 * in interleaved rounds over HTTP (a bare `node:http` keep-alive client that does not decode
 * bodies, as emulator.ts and contracts.ts measure, so the process CPU is almost all the
 * emulator's). The target: a key sign at most 2x the CPU of a `getAccount`.
 *
 * Run alone: `node --import tsx packages/emulator/test/bench/keys.ts`.
 */
import { Effect, Exit, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Emulator from "../../src/Emulator.js"
import { closeConnections, cpuOf, median, request, spread } from "./processCpu.js"

const ROUNDS = 9
const PER_ROUND = 60
const WARM = 100

const costs = async () => {
  const scope = Effect.runSync(Scope.make())
  const emulator = await Effect.runPromise(Scope.extend(Emulator.make({ port: 0, database: ":memory:" }), scope))
  try {
    const headers = { authorization: Redacted.value(emulator.member.authorization), "x-chain-id": "1001" }
    const ok = async (method: string, route: string, body?: unknown) => {
      const reply = await request(method, `${emulator.url}${route}`, headers, body)
      if (reply.status !== 200) throw new Error(`${route} answered ${reply.status}: ${reply.text}`)
      return JSON.parse(reply.text)
    }
    // A pool of a few accounts and a few keys, as a member that uses both would have.
    const accounts: Array<string> = []
    for (let i = 0; i < 20; i++) accounts.push((await ok("POST", "/v2/account")).address)
    const keys: Array<string> = (await ok("POST", "/v2/key", { size: 20 })).items.map((k: { keyId: string }) => k.keyId)
    let n = 0
    const sign = () =>
      ok("POST", `/v2/key/${encodeURIComponent(keys[n++ % keys.length]!)}/sign`, { data: `0x${randomBytes(32).toString("hex")}` }).then(() => undefined)
    const getAccount = () => ok("GET", `/v2/account/${accounts[n++ % accounts.length]!}`).then(() => undefined)
    for (let i = 0; i < WARM; i++) {
      await sign()
      await getAccount()
    }
    const rounds: Array<{ readonly sign: number; readonly getAccount: number }> = []
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first: neither always runs right after the other's garbage.
      if (round % 2 === 0) {
        const s = await cpuOf(PER_ROUND, sign)
        rounds.push({ sign: s, getAccount: await cpuOf(PER_ROUND, getAccount) })
      } else {
        const g = await cpuOf(PER_ROUND, getAccount)
        rounds.push({ sign: await cpuOf(PER_ROUND, sign), getAccount: g })
      }
    }
    return rounds
  } finally {
    closeConnections()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/**
 * Runs the key-sign benchmark; returns a markdown section.
 */
export const run = async (): Promise<Array<string>> => {
  const rounds = await costs()
  const ratios = rounds.map((r) => r.sign / r.getAccount)
  const r = median(ratios)
  return [
    "## Key sign in the emulator",
    "",
    "Process CPU per request, emulator in process on `:memory:`, one request at a time over keep-alive",
    `HTTP; ${ROUNDS} interleaved rounds of ${PER_ROUND} requests of each kind (after ${WARM} untimed of each), median per`,
    "round, the ratio within each round (median and spread over the rounds). A sign is `POST",
    "/v2/key/{key-id}/sign` of a fresh random 32-byte hash with one of 20 keys; a `getAccount` is `GET",
    "/v2/account/{address}` of one of 20 accounts.",
    "",
    "| measure | median CPU ms | ratio (spread) | target |",
    "| --- | ---: | ---: | --- |",
    `| \`getAccount\` | ${median(rounds.map((x) => x.getAccount)).toFixed(3)} | 1.00x | |`,
    `| key sign (\`/v2/key/{key-id}/sign\`) | ${median(rounds.map((x) => x.sign)).toFixed(3)} | ${r.toFixed(2)}x (${spread(ratios)}) of a \`getAccount\` | ≤ 2x: ${r <= 2 ? "**met**" : "**not met**"} (${r.toFixed(2)}x) |`
  ]
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log((await run()).join("\n"))
}
