/**
 * A small WebAssembly assembler: the encodings and opcodes the client's hand-written module uses
 * (keccak, in `keccakWasm`). The module is emitted from TypeScript rather than shipped as an opaque
 * blob, so that every instruction is reviewable in the code that emits it.
 *
 * @internal
 */

/** Unsigned LEB128. @internal */
export const uleb = (n: number): Array<number> => {
  const out: Array<number> = []
  do {
    let byte = n & 0x7f
    n >>>= 7
    if (n !== 0) byte |= 0x80
    out.push(byte)
  } while (n !== 0)
  return out
}

/** Signed LEB128. @internal */
export const sleb = (value: bigint): Array<number> => {
  const out: Array<number> = []
  for (;;) {
    const byte = Number(value & 0x7fn)
    value >>= 7n
    const done = (value === 0n && (byte & 0x40) === 0) || (value === -1n && (byte & 0x40) !== 0)
    out.push(done ? byte : byte | 0x80)
    if (done) return out
  }
}

const section = (id: number, body: Array<number>): Array<number> => [id, ...uleb(body.length), ...body]
const vec = (items: Array<Array<number>>): Array<number> => [...uleb(items.length), ...items.flat()]
const name = (s: string): Array<number> => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))]

/** Value types. @internal */
export const I32 = 0x7f
/** @internal */
export const I64 = 0x7e

// The instructions the modules use, one export each so that a bundle keeps only those its modules
// emit (memory instructions take a byte offset; alignment is natural).
/** @internal */
export const get = (i: number) => [0x20, ...uleb(i)]
/** @internal */
export const set = (i: number) => [0x21, ...uleb(i)]
/** @internal */
export const i32 = (n: number) => [0x41, ...sleb(BigInt(n))]
/** @internal */
export const i64 = (n: bigint) => [0x42, ...sleb(n)]
/** @internal */
export const i32Add = [0x6a]
/** @internal */
export const i32Ne = [0x47]
/** @internal */
export const i64Load = (offset: number) => [0x29, 0x03, ...uleb(offset)]
/** @internal */
export const i64Store = (offset: number) => [0x37, 0x03, ...uleb(offset)]
/** @internal */
export const and = [0x83]
/** @internal */
export const or = [0x84]
/** @internal */
export const xor = [0x85]
/** @internal */
export const rotl = [0x89]
/** @internal */
export const loop = [0x03, 0x40]
/** @internal */
export const brIf = (depth: number) => [0x0d, ...uleb(depth)]
/** @internal */
export const end = [0x0b]

/** An exported function: its i32 parameters, its locals by type, its code (without the final `end`). @internal */
export interface Func {
  readonly name: string
  readonly params: number
  readonly locals: ReadonlyArray<readonly [count: number, type: number]>
  readonly code: ReadonlyArray<number>
}

/**
 * The bytes of a module exporting `functions` and its memory (`pages` of 64 KiB, exported as
 * `memory`), with `data` written at `dataOffset`.
 *
 * @internal
 */
export const assemble = (
  functions: ReadonlyArray<Func>,
  options: { readonly pages: number; readonly dataOffset?: number; readonly data?: ReadonlyArray<number> }
): Uint8Array<ArrayBuffer> =>
  new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(functions.map((f) => [0x60, ...vec(Array.from({ length: f.params }, () => [I32])), 0x00]))),
    ...section(3, vec(functions.map((_, i) => uleb(i)))),
    ...section(5, vec([[0x00, ...uleb(options.pages)]])),
    ...section(7, vec([...functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]), [...name("memory"), 0x02, 0x00]])),
    ...section(10, vec(functions.map((f) => {
      const body = [...vec(f.locals.map(([count, type]) => [...uleb(count), type])), ...f.code, ...end]
      return [...uleb(body.length), ...body]
    }))),
    ...(options.data === undefined ? [] : section(11, vec([[0x00, ...i32(options.dataOffset ?? 0), ...end, ...uleb(options.data.length), ...options.data]])))
  ])
