import { listingItems } from "./bench/fixtures.js"
import { parse } from "../src/internal/jsonBytes.js"
// @ts-ignore
import { parseBytes } from "../.scratch/split/split.mjs"
for (const [p, item] of Object.entries(listingItems)) {
  const b = new Uint8Array(Buffer.from(JSON.stringify({ items: Array.from({ length: 1000 }, (_, i) => (item as any)(i)), cursor: "abc" })))
  const td = new TextDecoder()
  const runs = (f: () => unknown) => { const s: number[] = []; for (let r = 0; r < 15; r++) { const t = performance.now(); for (let i = 0; i < 10; i++) f(); s.push((performance.now() - t) / 10) } return s.sort((a, b) => a - b)[7]! }
  const r: number[] = []
  for (let k = 0; k < 3; k++) { r.push(runs(() => JSON.parse(td.decode(b))), runs(() => parse(b, () => false)), runs(() => parseBytes(b))) }
  console.log(p.slice(0, 20), "whole", r.filter((_, i) => i % 3 === 0).map((x) => x.toFixed(2)).join(","), "new", r.filter((_, i) => i % 3 === 1).map((x) => x.toFixed(2)).join(","), "proto", r.filter((_, i) => i % 3 === 2).map((x) => x.toFixed(2)).join(","))
}
