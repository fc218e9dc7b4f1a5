/**
 * An emulator on 127.0.0.1:0 with a private in-memory database, and a WalletClient holding its key,
 * over undici (the test kit's transport; a request costs half the CPU it does over fetch). The
 * client over fetch meets the emulator in the documentation's examples (docs.test.ts, the root's
 * docs.blocks.test.ts) and client-emulator.test.ts's refused key; every transport meets hostile
 * servers in the root's test/hostile.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Effect, Layer } from "effect"
import { ChainId, WalletClient, type WalletConfig } from "effect-kas-wallet"
import * as Emulator from "../../src/Emulator.js"
import type * as EmulatorConfig from "../../src/EmulatorConfig.js"

export const clientOf = (extra: Partial<WalletConfig.Options> = {}) =>
  Layer.unwrapEffect(Effect.map(Emulator.Emulator, (emulator) =>
    WalletClient.layer({
      credentials: { accessKeyId: emulator.member.accessKeyId, secretAccessKey: emulator.member.secretAccessKey },
      chainId: ChainId.Testnet,
      baseUrl: emulator.url,
      ...extra
    })
  )).pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.orDie)

/** Emulator and client, both in the context. */
export const wallet = (options: EmulatorConfig.Options = {}, extra: Partial<WalletConfig.Options> = {}) =>
  clientOf(extra).pipe(Layer.provideMerge(Emulator.layer({ port: 0, ...options })), Layer.orDie)
