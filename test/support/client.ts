/**
 * A WalletClient over a recording client, with known test credentials.
 */
import { Effect, Layer, Redacted } from "effect"
import { ChainId, WalletClient, type WalletConfig } from "../../src/index.js"
import { type Handler, makeRecordingClient, type RecordingClient } from "./recordingClient.js"

export const accessKeyId = "KASKTESTACCESSKEYID0001"
export const secret = "s3cr3t:with-colon/and+plus=="
export const basic = `Basic ${Buffer.from(`${accessKeyId}:${secret}`).toString("base64")}`
export const base64Credentials = Buffer.from(`${accessKeyId}:${secret}`).toString("base64")

export const options = (extra: Partial<WalletConfig.Options> = {}): WalletConfig.Options => ({
  credentials: { accessKeyId, secretAccessKey: Redacted.make(secret) },
  chainId: ChainId.Testnet,
  ...extra
})

export interface TestClient extends RecordingClient {
  readonly client: Layer.Layer<WalletClient.WalletClient>
}

/** A WalletClient layer over a recording client answering with `handler`. */
export const testClient = (handler: Handler, extra: Partial<WalletConfig.Options> = {}): TestClient => {
  const recording = makeRecordingClient(handler)
  return {
    ...recording,
    client: WalletClient.layer(options(extra)).pipe(Layer.provide(recording.layer), Layer.orDie)
  }
}

/** Runs `f` with the client of `test`. */
export const withClient = <A, E>(test: TestClient, effect: Effect.Effect<A, E, WalletClient.WalletClient>) =>
  Effect.provide(effect, test.client)
