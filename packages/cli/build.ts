/**
 * Builds the `kas-wallet` executable: one ESM bundle (dist/kas-wallet.js) with lazily loaded chunks,
 * so that a command loads only what it runs. `--help` and `--version` load the command table
 * alone; a client command loads effect, the platform's HTTP client and the client; the emulator and
 * its database code load only for an emulator command or the tour (a test checks this with the
 * metafile). @libsql/client and libsql (the emulator's embedded database, store/Embedded.ts) stay
 * dependencies: their native binary cannot be bundled. The emulator's EVM worker thread has an
 * entry of its own, `chunks/EvmWorker.js`.
 *
 * docs/benchmarks.md ("CLI start") compares this with running the modules unbundled.
 */
import { build, type BuildResult } from "esbuild"
import { fileURLToPath } from "node:url"

const here = fileURLToPath(new URL(".", import.meta.url))

/** The packages left out of the bundle, installed as dependencies of effect-kas-wallet-cli. */
export const external = ["@libsql/client", "libsql"]

/** The start of an ES-module bundle whose bundled CommonJS modules call `require` for Node built-ins. */
export const requireBanner = "import { createRequire as __kasCreateRequire } from \"node:module\"; const require = __kasCreateRequire(import.meta.url);"

/** Builds the bundle into `outdir` (default dist/); the metafile says which module went where. */
export const bundle = (outdir = `${here}dist`): Promise<BuildResult<{ metafile: true }>> =>
  build({
    // The emulator's EVM worker: an entry of its own, beside the chunks (the emulator's code looks
    // for it next to itself).
    entryPoints: { "kas-wallet": `${here}src/bin.ts`, "chunks/EvmWorker": `${here}../emulator/src/chain/evm/EvmWorker.ts` },
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    format: "esm",
    platform: "node",
    target: "node20",
    // tsconfig.json's `paths` resolve the client and the emulator to their sources.
    tsconfig: `${here}tsconfig.json`,
    external,
    minify: true,
    sourcemap: false,
    metafile: true,
    logLevel: "silent",
    legalComments: "eof",
    banner: { js: requireBanner }
  })

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await bundle()
  const outputs = Object.entries(result.metafile.outputs)
  console.log(`built ${outputs.length} files, ${Math.round(outputs.reduce((n, [, o]) => n + o.bytes, 0) / 1024)} KB`)
}
