/**
 * Browser bundles of the client, as an application's bundler would make them (esbuild, minified,
 * browser platform), beside two baselines in the same run: `effect` + `@effect/platform` with one
 * Schema decode (what every Effect application pays), and that plus the `Stream`, `Schedule` and
 * `Config` modules the client's API returns or takes (what any client with Stream listings pays).
 * Shared by the bench (figures) and the package test (the gate).
 */
import { build, type Metafile, type Plugin } from "esbuild"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

const root = fileURLToPath(new URL("../..", import.meta.url))

const baseline = `
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { Schema } from "effect"
console.log(FetchHttpClient.layer, HttpClient.HttpClient, Schema.decodeUnknownSync(Schema.Struct({ a: Schema.String }))({ a: "x" }))
`

/** The entries measured, by name. */
export const entries = {
  baseline,
  streams: baseline + `
import { Chunk, Config, Effect, Option, Schedule, Stream } from "effect"
console.log(Stream.bufferChunks(Stream.paginateChunkEffect(0, (n) => Effect.succeed([Chunk.of(n), Option.none()] as const)), { capacity: 1 }))
console.log(Effect.retry(Effect.succeed(1), { schedule: Schedule.spaced("1 second"), while: () => true }))
console.log(Config.all({ a: Config.string("A"), b: Config.redacted("B") }))
`,
  client: `
import { ChainId, WalletClient } from ${JSON.stringify(`${root}src/index.ts`)}
console.log(WalletClient.layer, ChainId.Testnet)
`,
  // An application of contracts: the client and the opt-in ABI entry (ox's coders).
  abi: `
import { ChainId, WalletClient } from ${JSON.stringify(`${root}src/index.ts`)}
import * as Abi from ${JSON.stringify(`${root}src/Abi.ts`)}
console.log(WalletClient.layer, ChainId.Testnet, Abi.fn, Abi.encodeCall, Abi.callArguments, Abi.decodeResult, Abi.event, Abi.decodeLogs, Abi.deployInput)
`
} as const

/**
 * Modules imported with `import()` are left out, as the chunks of their own an application's
 * bundler makes of them (loaded on first use: the Klaytn codec the client verifies results with):
 * what is measured is what an application loads up front. A static import of the same module
 * would be counted.
 */
export const lazyChunksApart: Plugin = {
  name: "lazy-chunks-apart",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => (args.kind === "dynamic-import" ? { path: args.path, external: true } : undefined))
  }
}

/** A bundle's size: raw and gzipped bytes, and the bytes that come from fast-check. */
export interface Size {
  readonly raw: number
  readonly gzip: number
  readonly fastCheck: number
  /** The modules the bundle holds. */
  readonly inputs: ReadonlyArray<string>
}

const bytesFrom = (output: Metafile["outputs"][string], match: (path: string) => boolean): number =>
  Object.entries(output.inputs).reduce((m, [path, input]) => (match(path) ? m + input.bytesInOutput : m), 0)

/** What a `measureWith` run made of one of its other files: its bundle's text, and the modules in it. */
export interface Apart {
  readonly text: string
  readonly inputs: ReadonlyArray<string>
}

/**
 * Bundles the entries named, as one application each: one esbuild run with the entries as its
 * entry points and no code splitting, so that each output is its entry's bundle alone (byte for
 * byte what a run for that entry alone writes), and the modules they share are read and parsed
 * once instead of once per entry. `others` are more entry files bundled in the same run, with
 * `plugins` besides the one keeping lazy chunks apart (the package test's browser check of the root
 * entry: effect is parsed once for both tests).
 */
export const measureWith = async <N extends keyof typeof entries>(
  names: ReadonlyArray<N>,
  others: ReadonlyArray<string> = [],
  plugins: ReadonlyArray<Plugin> = []
): Promise<{ readonly sizes: Record<N, Size>; readonly others: ReadonlyArray<Apart> }> => {
  const dir = mkdtempSync(join(tmpdir(), "kas-bundle-size-"))
  try {
    for (const name of names) writeFileSync(join(dir, `${name}.ts`), entries[name])
    const result = await build({
      entryPoints: [
        ...names.map((name) => ({ in: join(dir, `${name}.ts`), out: name })),
        ...others.map((file, i) => ({ in: file, out: `other-${i}` }))
      ],
      outdir: join(dir, "out"),
      bundle: true,
      platform: "browser",
      format: "esm",
      minify: true,
      write: false,
      metafile: true,
      logLevel: "silent",
      // effect and the platform resolve from this repository's node_modules.
      nodePaths: [join(root, "node_modules")],
      plugins: [lazyChunksApart, ...plugins]
    })
    const output = (name: string) => {
      const text = result.outputFiles.find((file) => basename(file.path) === `${name}.js`)!.contents
      const meta = Object.entries(result.metafile.outputs).find(([path]) => basename(path) === `${name}.js`)![1]
      return { text, meta }
    }
    const sizes: Partial<Record<N, Size>> = {}
    for (const name of names) {
      const { meta, text } = output(name)
      sizes[name] = {
        raw: text.byteLength,
        gzip: gzipSync(text, { level: 9 }).byteLength,
        fastCheck: bytesFrom(meta, (p) => p.includes("node_modules/fast-check/") || p.includes("node_modules/pure-rand/")),
        inputs: Object.keys(meta.inputs)
      }
    }
    return {
      sizes: sizes as Record<N, Size>,
      others: others.map((_, i) => {
        const { meta, text } = output(`other-${i}`)
        return { text: new TextDecoder().decode(text), inputs: Object.keys(meta.inputs) }
      })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The sizes of the entries named (default: all), each bundled as one application (see `measureWith`). */
export const measure = async <N extends keyof typeof entries = keyof typeof entries>(
  names: ReadonlyArray<N> = Object.keys(entries) as Array<N>
): Promise<Record<N, Size>> => (await measureWith(names)).sizes
