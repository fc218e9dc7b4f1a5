/**
 * Realistic bodies for benchmarks: one pool, distinct random addresses (EIP-55 checksummed, as the
 * service returns them), public keys and key ids, newest first.
 */
import { Option } from "effect"
import { randomBytes } from "node:crypto"
import * as Address from "../../src/Address.js"

const hex = (bytes: number): string => randomBytes(bytes).toString("hex")

export const poolKrn = "krn:1001:wallet:68ec0e4b-0f61-4e6f-ae35-be865ab23187:account-pool:default"

export const accountJson = (createdAt: number) => ({
  address: Option.getOrThrow(Address.checksum(`0x${hex(20)}`)),
  chainId: 1001,
  createdAt,
  keyId: `${poolKrn}:0x${hex(32)}`,
  krn: poolKrn,
  publicKey: `0x04${hex(64)}`,
  updatedAt: createdAt
})

/** The JSON text of a list page of `size` accounts. */
export const pageText = (size: number, cursor = "eyJjcmVhdGVkQXQiOjE1OTkxODcyOTN9"): string =>
  JSON.stringify({ cursor, items: Array.from({ length: size }, (_, i) => accountJson(1_700_000_000 - i)) })
