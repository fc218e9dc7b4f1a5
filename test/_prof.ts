import * as Account from "../src/Account.js"
import * as Address from "../src/Address.js"
import { randomBytes } from "node:crypto"
const hex = (n: number) => randomBytes(n).toString("hex")
const krn = "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default"
const items = Array.from({ length: 1000 }, (_, i) => ({
  address: (Address.checksum("0x" + hex(20)) as any).value, chainId: 1001, createdAt: 1599187293 - i,
  keyId: `${krn}:0x${hex(32)}`, krn, publicKey: "0x04" + hex(64), updatedAt: 1599187293 - i
}))
const text = JSON.stringify({ cursor: "eyJ4IjoxfQ==", items })
const parsed = Array.from({length: 20}, () => JSON.parse(text))
let t = performance.now()
for (let k = 0; k < 2000; k++) Account.decodePage(parsed[k % 20])
console.log("per page ms", (performance.now() - t) / 2000)
