/**
 * Everything a program lets out, collected for the credential checks: its exit rendered every way
 * a user may print it, the attributes, events and exits of every span (a test Tracer), and every
 * log line (a test Logger, all levels), with a finder of the credentials in any of their forms.
 */
import { Cause, Effect, Exit, Logger, LogLevel, Tracer } from "effect"
import * as util from "node:util"
import { base64, secret } from "./server.js"

/** One text that left the program, and where it came from. */
export interface Output {
  readonly where: string
  readonly text: string
}

const inspect = (u: unknown) => util.inspect(u, { depth: 12, showHidden: true, breakLength: Infinity })

/** The renderings of an exit a user may print or log. */
export const renderExit = (exit: Exit.Exit<unknown, unknown>): Array<Output> => {
  if (Exit.isSuccess(exit)) {
    return [
      { where: "value via util.inspect", text: inspect(exit.value) },
      { where: "value via JSON.stringify", text: JSON.stringify(exit.value) ?? "" }
    ]
  }
  const out: Array<Output> = [{ where: "Cause.pretty", text: Cause.pretty(exit.cause) }]
  for (const error of Cause.failures(exit.cause)) {
    const e = error as { readonly message?: unknown }
    out.push(
      { where: "String(error)", text: String(error) },
      { where: "error.message", text: String(e.message) },
      { where: "JSON.stringify(error)", text: JSON.stringify(error) ?? "" },
      { where: "util.inspect(error)", text: inspect(error) }
    )
  }
  for (const defect of Cause.defects(exit.cause)) out.push({ where: "defect", text: inspect(defect) })
  return out
}

/** A span as the test tracer saw it. */
interface SeenSpan {
  readonly name: string
  readonly attributes: Map<string, unknown>
  readonly events: Array<string>
  exit?: Exit.Exit<unknown, unknown>
}

const makeTracer = (spans: Array<SeenSpan>) =>
  Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) => {
      const seen: SeenSpan = { name, attributes: new Map(), events: [] }
      for (const [k, v] of Object.entries(options?.attributes ?? {})) seen.attributes.set(k, v)
      spans.push(seen)
      let status: Tracer.SpanStatus = { _tag: "Started", startTime }
      return {
        _tag: "Span",
        name,
        spanId: `span-${spans.length}`,
        traceId: "trace",
        parent,
        context,
        get status() {
          return status
        },
        attributes: seen.attributes,
        links,
        sampled: true,
        kind,
        end: (endTime, exit) => {
          status = { _tag: "Ended", startTime, endTime, exit }
          seen.exit = exit
        },
        attribute: (key, value) => void seen.attributes.set(key, value),
        event: (eventName, _time, attributes) => void seen.events.push(`${eventName} ${inspect(attributes)}`),
        addLinks: () => {}
      }
    },
    context: (f) => f()
  })

/** What a program let out: its exit, span contents and log lines (the exit logged too). */
export interface Observed<A, E> {
  readonly exit: Exit.Exit<A, E>
  readonly spanNames: ReadonlyArray<string>
  readonly outputs: ReadonlyArray<Output>
}

/** Runs `effect` under a test tracer and a test logger, then logs its failure as a user would. */
export const observe = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<Observed<A, E>, never, R> => {
  const spans: Array<SeenSpan> = []
  const logs: Array<string> = []
  const logger = Logger.make((options) => {
    logs.push(Logger.logfmtLogger.log(options), inspect(options.message), Cause.pretty(options.cause))
  })
  return Effect.gen(function*() {
    const exit = yield* Effect.exit(effect)
    if (Exit.isFailure(exit)) {
      yield* Effect.logError("operation failed", Cause.squash(exit.cause))
      yield* Effect.logError(exit.cause)
      yield* Effect.logWarning(...Cause.failures(exit.cause))
    }
    const outputs: Array<Output> = renderExit(exit)
    for (const span of spans) {
      for (const [key, value] of span.attributes) outputs.push({ where: `span ${span.name} attribute ${key}`, text: inspect(value) })
      for (const event of span.events) outputs.push({ where: `span ${span.name} event`, text: event })
      // The exit as a tracer keeps it, whatever it holds (an `http.client` span ends on the response).
      if (span.exit !== undefined) outputs.push({ where: `span ${span.name} exit via util.inspect`, text: inspect(span.exit) })
      if (span.exit !== undefined && Exit.isFailure(span.exit)) {
        outputs.push({ where: `span ${span.name} exit`, text: Cause.pretty(span.exit.cause) })
      }
    }
    for (const line of logs) outputs.push({ where: "log line", text: line })
    return { exit, spanNames: spans.map((s) => s.name), outputs }
  }).pipe(
    Effect.withTracer(makeTracer(spans)),
    Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
    Logger.withMinimumLogLevel(LogLevel.All)
  )
}

/** Undoes the spellings a secret may hide in: JSON escapes, percent-encoding (either case). */
const normalize = (text: string): string => {
  let out = text
  for (let round = 0; round < 3; round++) {
    out = out
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\+\//g, "/")
      .replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
        try {
          return decodeURIComponent(run)
        } catch {
          return run
        }
      })
  }
  return out
}

// Any 12 consecutive characters of the secret or of base64(id:secret): a truncated excerpt keeps a
// part of a secret that a full-string check would miss.
const WINDOW = 12
const windows = [secret, base64].flatMap((s) => Array.from({ length: s.length - WINDOW + 1 }, (_, i) => s.slice(i, i + WINDOW)))

/** The first piece of the credentials found in `text` (in any spelling), if any. */
export const findSecret = (text: string): string | undefined => {
  for (const candidate of [text, normalize(text)]) {
    for (const w of windows) if (candidate.includes(w)) return w
  }
  return undefined
}

/** Fails the test with where the credentials leaked, if they did. */
export const assertNoSecret = (outputs: ReadonlyArray<Output>, label: string): void => {
  for (const { text, where } of outputs) {
    const found = findSecret(text)
    if (found !== undefined) {
      const at = text.indexOf(found)
      throw new Error(`${label}: ${where} leaks ${JSON.stringify(found)}: …${text.slice(Math.max(0, at - 80), at + 80)}…`)
    }
  }
}
