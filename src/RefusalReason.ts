/**
 * Why the node refused a transaction, as a tagged value a program can match on instead of parsing
 * the service's message.
 *
 * The wallet API relays a Klaytn node's refusal as code 1065001 with the node's words in its
 * message (`failed to send a raw transaction to klaytn node; -32000::nonce too low`). `fromMessage`
 * reads those words once, for every error that carries them (`WalletError.NodeRefusal`,
 * `WalletError.SubmissionFailed`) and for `sendReliably`, which decides from the reason whether a
 * resubmission may have reached the chain. Words it does not know stay `Other`, with the node's
 * text: nothing is lost when a node words a refusal differently.
 *
 * @since 0.11.0
 */
import { Schema } from "effect"

/**
 * The sender cannot pay the value and its part of the most the fee may be (Klaytn's
 * `insufficient funds of the sender for value `; go-ethereum's `insufficient funds for gas * price
 * + value`, whose payer is the sender).
 *
 * @since 0.11.0
 * @category schemas
 */
export const InsufficientSenderFunds = Schema.TaggedStruct("InsufficientSenderFunds", {})

/**
 * A fee payer (a user fee payer, or the global one) cannot pay its part of the fee (Klaytn's
 * `insufficient funds of the fee payer for gas * price`).
 *
 * @since 0.11.0
 * @category schemas
 */
export const InsufficientFeePayerFunds = Schema.TaggedStruct("InsufficientFeePayerFunds", {})

/**
 * The nonce was used already: by a committed transaction (cancelling one, sending one twice), or
 * by a transaction of the same sender sent meanwhile (`nonce too low`).
 *
 * @since 0.11.0
 * @category schemas
 */
export const NonceTooLow = Schema.TaggedStruct("NonceTooLow", {})

/**
 * The node holds this very transaction already, not yet in a block (`already known`, older nodes'
 * `known transaction`).
 *
 * @since 0.11.0
 * @category schemas
 */
export const AlreadyKnown = Schema.TaggedStruct("AlreadyKnown", {})

/**
 * A transaction whose gas price the pool refuses: below its minimum (`transaction underpriced`),
 * or a replacement of a pending transaction that does not raise the price enough (`replacement
 * transaction underpriced`).
 *
 * @since 0.11.0
 * @category schemas
 */
export const Underpriced = Schema.TaggedStruct("Underpriced", {})

/**
 * Any other refusal: `text` is the node's words (`nonce too high`, `intrinsic gas too low`,
 * `execution reverted: …`, `not a program account (…)`), or the whole message when it holds no
 * node's words.
 *
 * @since 0.11.0
 * @category schemas
 */
export const Other = Schema.TaggedStruct("Other", { text: Schema.String })

/**
 * Every reason, as one schema (it encodes with the error that carries it).
 *
 * @since 0.11.0
 * @category schemas
 */
export const RefusalReason = Schema.Union(
  InsufficientSenderFunds,
  InsufficientFeePayerFunds,
  NonceTooLow,
  AlreadyKnown,
  Underpriced,
  Other
).annotations({ identifier: "RefusalReason" })

/**
 * @since 0.11.0
 * @category models
 */
export type RefusalReason = typeof RefusalReason.Type

// The node's error code and its words, as the wallet API joins them: `…; -32000::<words>`.
const NODE_WORDS = /-?\d+::([\s\S]*)$/

/**
 * The node's words in a message of the service: what follows `<code>::` (`-32000::nonce too low`),
 * or the whole message when it has no such part (a node answering directly).
 *
 * @since 0.11.0
 * @category classifying
 */
export const nodeWords = (message: string): string => {
  const match = NODE_WORDS.exec(message)
  return (match === null ? message : match[1]!).trim()
}

// The node's words, lower-cased, by the start that tells them apart. Klaytn's and go-ethereum's
// texts both, as each names the same refusal.
const known: ReadonlyArray<readonly [prefix: string, reason: RefusalReason]> = [
  ["insufficient funds of the sender", InsufficientSenderFunds.make({})],
  ["insufficient funds of the fee payer", InsufficientFeePayerFunds.make({})],
  ["insufficient funds of the feepayer", InsufficientFeePayerFunds.make({})],
  ["insufficient funds for gas * price + value", InsufficientSenderFunds.make({})],
  ["nonce too low", NonceTooLow.make({})],
  ["already known", AlreadyKnown.make({})],
  ["known transaction", AlreadyKnown.make({})],
  ["replacement transaction underpriced", Underpriced.make({})],
  ["transaction underpriced", Underpriced.make({})]
]

/**
 * The reason of a refusal, from the service's message (or a node's own words).
 *
 * @since 0.11.0
 * @category classifying
 */
export const fromMessage = (message: string): RefusalReason => {
  const words = nodeWords(message)
  const lower = words.toLowerCase()
  for (const [prefix, reason] of known) if (lower.startsWith(prefix)) return reason
  return Other.make({ text: words })
}

/**
 * Whether a refusal says the transaction, or another of the same nonce, already reached the node:
 * `nonce too low` or `already known`. To a resubmission of the same signed bytes, either means the
 * first submission may have got through.
 *
 * @since 0.11.0
 * @category guards
 */
export const isDuplicate = (reason: RefusalReason): boolean =>
  reason._tag === "NonceTooLow" || reason._tag === "AlreadyKnown"

/**
 * A short description of a reason, for a message.
 *
 * @since 0.11.0
 * @category rendering
 */
export const describe = (reason: RefusalReason): string => {
  switch (reason._tag) {
    case "InsufficientSenderFunds":
      return "insufficient funds of the sender"
    case "InsufficientFeePayerFunds":
      return "insufficient funds of the fee payer"
    case "NonceTooLow":
      return "nonce too low"
    case "AlreadyKnown":
      return "already known"
    case "Underpriced":
      return "underpriced"
    case "Other":
      return reason.text
  }
}
