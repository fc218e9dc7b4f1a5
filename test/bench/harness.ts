/**
 * A small side-by-side benchmark harness: candidates run interleaved, round after round, in one
 * process, so that machine noise hits them alike; results are medians and ratios, never absolute
 * targets.
 */

export interface Candidate {
  readonly name: string
  /** One unit of work; may be async. */
  readonly run: () => unknown
}

export interface Result {
  readonly name: string
  readonly medianMs: number
  readonly p90Ms: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

/** Runs every candidate `rounds` times, interleaved, after `warmup` untimed rounds. */
export const compare = async (
  candidates: ReadonlyArray<Candidate>,
  options: { readonly rounds: number; readonly warmup: number }
): Promise<ReadonlyArray<Result>> => {
  const samples = candidates.map(() => [] as Array<number>)
  for (let round = 0; round < options.warmup + options.rounds; round++) {
    for (let c = 0; c < candidates.length; c++) {
      // Alternate the order so that neither candidate always runs right after a collection.
      const index = round % 2 === 0 ? c : candidates.length - 1 - c
      const start = performance.now()
      const out = candidates[index]!.run()
      if (out instanceof Promise) await out
      const elapsed = performance.now() - start
      if (round >= options.warmup) samples[index]!.push(elapsed)
    }
  }
  return candidates.map((candidate, i) => {
    const sorted = samples[i]!.sort((a, b) => a - b)
    return { name: candidate.name, medianMs: percentile(sorted, 0.5), p90Ms: percentile(sorted, 0.9) }
  })
}

/** The process's CPU time (user + system) in milliseconds. */
export const cpuMs = (): number => {
  const { system, user } = process.cpuUsage()
  return (user + system) / 1000
}

export const fmt = (ms: number): string => (ms < 1 ? ms.toFixed(3) : ms.toFixed(2))

/** The median of a list of numbers. */
export const median = (xs: ReadonlyArray<number>): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** A ratio's median and spread over runs: `1.12x (1.05–1.20x, 5 runs)`. */
export const spread = (ratios: ReadonlyArray<number>, digits = 2): string => {
  const sorted = [...ratios].sort((a, b) => a - b)
  return `${median(sorted).toFixed(digits)}x (${sorted[0]!.toFixed(digits)}–${sorted[sorted.length - 1]!.toFixed(digits)}x, ${sorted.length} runs)`
}

/** "met" or "not met", for a target line. */
export const verdict = (ok: boolean): string => (ok ? "**met**" : "**not met**")
