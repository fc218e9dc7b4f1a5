/**
 * The command table of `kas-wallet accounts multisig update | pending | sign | append`: multisig
 * accounts and what waits for their signers. Their handlers are in `Handlers`.
 *
 * Plain data with no runtime import but the table's own (help stays free of effect).
 *
 * @since 0.9.0
 */
import * as Route from "../../../input/Route.js"
import * as Spec from "../../../input/Spec.js"
import * as Shared from "../../shared/Spec.js"

/**
 * The flags of the `accounts multisig` commands, by key.
 *
 * @since 0.8.0
 * @category flags
 */
export const flags = {
  threshold: {
    name: "threshold",
    value: "N",
    description: "the weight the signatures of a transaction must reach, 1 to the sum of the weights",
    example: "--threshold 2"
  },
  keys: {
    name: "keys",
    value: "KEY[:WEIGHT]...",
    many: true,
    description:
      "the signers, 1 to 10: each a public key, or the address of an account of the pool (its key is looked up), with its weight (default 1)",
    example: "--keys 0x04cdcc…37:2 0xa809284C83b901eD106Aba4Ccda14628Af128e14"
  },
  wait: {
    name: "wait",
    description: "once the signatures reach the threshold, wait for the receipt (committed) and print it",
    example: "--wait"
  }
} as const satisfies Record<string, Spec.Flag>

/**
 * The `<transaction-id>` argument: a pending transaction's id.
 *
 * @since 0.9.0
 * @category arguments
 */
export const transactionId: Spec.Positional = {
  name: "transaction-id",
  description: "a pending transaction's id, 0x followed by 64 hex digits"
}

const verb = Spec.verbsUnder(["accounts", "multisig"], [Shared.output, Shared.connection])
const waiting: Spec.Group = { title: "Output", flags: [flags.wait] }

/**
 * `kas-wallet accounts multisig` and its commands.
 *
 * @since 0.9.0
 * @category commands
 */
export const spec = Spec.parent({
  path: ["accounts", "multisig"],
  summary: "make an account multisig; list, sign and add signatures to what waits for its signers",
  description: [
    "A multisig account's key is a weighted set of the member's keys: its transactions wait (Pending)",
    "until the weights of the signers who signed reach the threshold, then the service sends them."
  ],
  subcommands: [
    verb("update", "make an account multisig: its signers and threshold", [
      `Update an account of the pool to a weighted multisig key (${Route.route("updateToMultisig")}):`,
      "an account update it signs and pays for. Each signer is a public key of one of the member's",
      "accounts, or the address of an account of the pool. Never retried once sent."
    ], [Shared.address], [{ title: "Multisig", flags: [flags.keys, flags.threshold] }], [
      'kas-wallet accounts multisig update "$SAFE" --threshold 2 --keys "$A" "$B"',
      'kas-wallet accounts multisig update "$SAFE" --threshold 3 --keys "$PK":2 "$B"'
    ]),
    verb("pending", "list the transactions waiting for signers, of an account or a signer", [
      "List the member's transactions waiting for signers whose sender, or one of whose signers, is",
      `<address>, newest first (${Route.route("listMultisigTransactions")}): one page, or all with --all.`
    ], [Shared.address], [{ title: "Listing", flags: Shared.paging }], [
      'kas-wallet accounts multisig pending "$SAFE"',
      'kas-wallet accounts multisig pending "$A" --all --json | jq -r .transactionId'
    ]),
    verb("sign", "a signer of the pool signs a pending transaction", [
      "Sign a pending transaction as <signer>, an account of the pool holding one of its keys",
      `(${Route.route("signMultisigTransaction", { address: "signer" })}). Signed until the weights reach the`,
      "threshold, then Submitted with its hash. Never retried once sent."
    ], [{ name: "signer", description: "the signer's address, 0x followed by 40 hex digits" }, transactionId], [waiting], [
      'kas-wallet accounts multisig sign "$A" "$TX_ID"',
      'kas-wallet accounts multisig sign "$B" "$TX_ID" --wait'
    ]),
    verb("append", "add signatures made elsewhere to a pending transaction", [
      `Add signatures to a pending transaction (${Route.route("appendSignatures")}): JSON`,
      "{\"V\",\"R\",\"S\"} or an array of them, as tx sign --json prints it, or a file of it; - reads stdin."
    ], [transactionId, { name: "json", description: "the signatures: JSON {V, R, S} or [{V, R, S}, …], a file of it, or - for stdin" }], [waiting], [
      'kas-wallet tx sign "$C" "$TX_ID" --json > sig.json',
      'kas-wallet accounts multisig append "$TX_ID" sig.json --wait'
    ])
  ],
  examples: [
    'kas-wallet accounts multisig update "$SAFE" --threshold 2 --keys "$A" "$B"',
    'kas-wallet tx send --from "$SAFE" --to "$TO" --value 1KLAY   # Pending: its id',
    'kas-wallet accounts multisig sign "$A" "$TX_ID"',
    'kas-wallet accounts multisig sign "$B" "$TX_ID" --wait'
  ]
})
