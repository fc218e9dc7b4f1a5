/**
 * fast-check generators of the vocabulary, for the schemas' `arbitrary` annotations. They take
 * fast-check as an argument, as annotations receive it from `Arbitrary.make`: no module of the
 * client imports fast-check or effect's `Arbitrary`, so an application's bundle leaves them out
 * (docs/benchmarks.md, "Browser bundle"), while `Arbitrary.make(Account.Account)` in a property
 * test still derives every schema's generator. One generator per concept: the leaf schemas and the
 * records built from them share these.
 *
 * @internal
 */
import type { FastCheck } from "effect"
import * as ChainId from "../ChainId.js"
import * as Krn from "../Krn.js"
import { hexOfBytes } from "./hex.js"
import { normalizeAddress } from "./hexEngine.js"
import { SEGMENT } from "./segment.js"
import { make as makeKeyId } from "./keyId.js"

/** fast-check, as an annotation receives it. @internal */
export type Fc = typeof FastCheck

/** `0x` and `min` to `max` random bytes in lower-case hex. @internal */
export const hexBytes = (fc: Fc, min: number, max: number): FastCheck.Arbitrary<string> =>
  fc.uint8Array({ minLength: min, maxLength: max }).map(hexOfBytes)

/** A checksummed address of 20 random bytes. @internal */
export const address = (fc: Fc): FastCheck.Arbitrary<string> =>
  hexBytes(fc, 20, 20).map((hex) => normalizeAddress(hex) as string)

/** A public key: mostly uncompressed (as the service returns them), sometimes compressed or raw. @internal */
export const publicKey = (fc: Fc): FastCheck.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: hexBytes(fc, 64, 64).map((h) => `0x04${h.slice(2)}`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom("02", "03"), hexBytes(fc, 32, 32)).map(([p, h]) => `0x${p}${h.slice(2)}`) },
    { weight: 1, arbitrary: hexBytes(fc, 64, 64) }
  )

/** A key identifier as the service makes them: `0x` and 64 hex digits. @internal */
export const keyHex = (fc: Fc): FastCheck.Arbitrary<string> => hexBytes(fc, 32, 32)

/** A `0x` hex integer of 1 to `maxDigits` digits, without leading zeros. @internal */
export const hexInteger = (fc: Fc, maxDigits: number): FastCheck.Arbitrary<string> =>
  fc.bigInt({ min: 1n, max: (1n << BigInt(4 * maxDigits)) - 1n }).map((n) => `0x${n.toString(16)}`)

/** A signature as the service writes it. @internal */
export const signature = (fc: Fc) => fc.record({ V: hexInteger(fc, 16), R: hexInteger(fc, 64), S: hexInteger(fc, 64) })

/** An amount of peb: small ones, any up to 2^256 - 1, and the edges. @internal */
export const peb = (fc: Fc): FastCheck.Arbitrary<bigint> =>
  fc.oneof(
    fc.bigInt({ min: 0n, max: 10n ** 24n }),
    fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
    fc.constantFrom(0n, 1n, 10n ** 18n, (1n << 256n) - 1n)
  )

/** Unix seconds up to 2100. @internal */
export const timestamp = (fc: Fc): FastCheck.Arbitrary<number> => fc.integer({ min: 0, max: 4102444800 })


/** A pool KRN of the wallet service with one of `resourceTypes`, on either chain. @internal */
export const poolKrn = <A>(fc: Fc, resourceTypes: ReadonlyArray<string>): FastCheck.Arbitrary<A> =>
  fc.record({
    chainId: fc.constantFrom(ChainId.Mainnet, ChainId.Testnet),
    accountId: fc.oneof(fc.uuid(), fc.stringMatching(SEGMENT)),
    resourceType: fc.constantFrom(...resourceTypes),
    resourceId: fc.oneof(fc.constant(Krn.DefaultPoolName), fc.stringMatching(SEGMENT))
  }).map((fields) => new Krn.KrnFromSelf({ ...fields, service: "wallet" }, true) as unknown as A)

/** A key id in a pool of `resourceTypes`. @internal */
export const keyId = (fc: Fc, resourceTypes: ReadonlyArray<string>) =>
  fc.tuple(poolKrn<Krn.PoolKrn>(fc, resourceTypes), keyHex(fc)).map(([pool, hex]) => makeKeyId(pool, hex))
