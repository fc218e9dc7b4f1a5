/**
 * A recording HttpClient (no network): every request is recorded (method, URL, headers, a JSON body) and
 * answered by a handler, so tests can assert what goes on the wire.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Effect, Layer } from "effect"

export interface Recorded {
  readonly method: string
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  /** The request's JSON body, parsed; absent without one. */
  readonly body?: unknown
}

/** What a handler may answer: a Response, or a transport failure with an error `code`. */
export type Answer = Response | { readonly fail: string }

export type Handler = (request: Recorded) => Answer | Effect.Effect<Answer>

export interface RecordingClient {
  readonly requests: Array<Recorded>
  readonly layer: Layer.Layer<HttpClient.HttpClient>
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

export const makeRecordingClient = (handler: Handler): RecordingClient => {
  const requests: Array<Recorded> = []
  const client = HttpClient.make((request, url) =>
    Effect.suspend(() => {
      const recorded: Recorded = {
        method: request.method,
        url,
        headers: { ...request.headers },
        ...(request.body._tag === "Uint8Array" ? { body: JSON.parse(new TextDecoder().decode(request.body.body)) } : {})
      }
      requests.push(recorded)
      const answer = handler(recorded)
      return Effect.flatMap(Effect.isEffect(answer) ? answer : Effect.succeed(answer), (a) =>
        a instanceof Response
          ? Effect.succeed(HttpClientResponse.fromWeb(request, a))
          : Effect.fail(
            new HttpClientError.RequestError({
              request,
              reason: "Transport",
              cause: Object.assign(new Error(`connect ${a.fail} 127.0.0.1:1`), { code: a.fail })
            })
          ))
    })
  )
  return { requests, layer: Layer.succeed(HttpClient.HttpClient, client) }
}
