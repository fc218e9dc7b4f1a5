/**
 * The command table of `kas-wallet tx send | deploy | execute | relay | cancel | anchor |
 * update-key | call | receipt | sign`: transactions from the accounts of a pool, read-only calls
 * and receipts. The handlers are in `Handlers`.
 *
 * Plain data with no runtime import but the table's own (help stays free of effect).
 *
 * @since 0.9.0
 */
import * as Route from "../../input/Route.js"
import * as Spec from "../../input/Spec.js"
import * as Multisig from "../accounts/multisig/Spec.js"
import * as Shared from "../shared/Spec.js"

/**
 * The flags of the `tx` commands, by key (the connection flags are `Shared`'s).
 *
 * @since 0.2.0
 * @category flags
 */
export const flags = {
  from: {
    name: "from",
    value: "ADDRESS",
    description: "the sender: an account of the pool (--pool)",
    example: "--from 0xa809284C83b901eD106Aba4Ccda14628Af128e14"
  },
  to: {
    name: "to",
    value: "ADDRESS",
    description: "the recipient: any address but the zero address",
    example: "--to 0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"
  },
  value: {
    name: "value",
    value: "AMOUNT",
    description: "amount with its unit: 1.5KLAY, 25ston or 1000peb",
    example: "--value 1.5KLAY"
  },
  memo: {
    name: "memo",
    value: "TEXT",
    description: "free text recorded in the transaction (a memo type)",
    example: "--memo \"invoice 42\""
  },
  feePayer: {
    name: "fee-payer",
    value: "global|ADDRESS",
    default: "the sender",
    description: "who pays the fee: global or your fee-payer account",
    example: "--fee-payer global"
  },
  feeRatio: {
    name: "fee-ratio",
    value: "N",
    default: "all",
    description: "fee payer's share: 1 to 99 percent",
    example: "--fee-ratio 30"
  },
  feePayerPool: {
    name: "fee-payer-pool",
    value: "KRN",
    env: "KAS_FEEPAYER_POOL",
    default: "the member's default fee-payer pool",
    description: "fee-payer pool of --fee-payer ADDRESS (x-krn's second KRN)",
    example: "--fee-payer-pool krn:1001:wallet:<member>:feepayer-pool:ops"
  },
  nonce: {
    name: "nonce",
    value: "N",
    default: "the sender's next",
    description: "the sender's nonce; another than the next is refused",
    example: "--nonce 7"
  },
  gas: {
    name: "gas",
    value: "N",
    default: "the service's (1000000)",
    description: "gas limit; it must cover the transfer's intrinsic gas",
    example: "--gas 50000"
  },
  noSubmit: {
    name: "no-submit",
    description: "sign only: print the signed transaction, send nothing",
    example: "--no-submit --json | jq -r .rlp"
  },
  wait: {
    name: "wait",
    description: "wait for the receipt (committed) and print it",
    example: "--wait"
  },
  json: {
    name: "json",
    description: "JSON: the result, then with --wait the receipt",
    example: "--json | jq -r .transactionHash"
  },
  bytecodeFile: {
    name: "bytecode-file",
    value: "FILE",
    description: "file of the bytecode: hex, or a JSON artifact",
    example: "--bytecode-file build/Token.bin",
    files: true
  },
  bytecode: {
    name: "bytecode",
    value: "HEX",
    description: "the creation bytecode itself: 0x and hex digits",
    example: "--bytecode 0x6080604052348015600e575f80fd5b50"
  },
  constructor: {
    name: "constructor",
    value: "SIGNATURE",
    description: "the constructor's signature, to encode --args",
    example: "--constructor \"constructor(uint256 supply)\""
  },
  args: {
    name: "args",
    value: "VALUE...",
    many: true,
    description: "integers, addresses, true|false, text, JSON arrays",
    example: "--args 0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa 1000"
  },
  contract: {
    name: "to",
    value: "CONTRACT",
    description: "the contract's address",
    example: "--to 0x5053e2f0dde795c423a2b7f551c873f6ef6f4daa"
  },
  method: {
    name: "method",
    value: "SIGNATURE",
    description: "the function, as name(types), to encode --args",
    example: "--method \"transfer(address,uint256)\""
  },
  callMethod: {
    name: "method",
    value: "SIGNATURE",
    description: "name(types), and returns (types) to decode the result",
    example: "--method \"balanceOf(address) returns (uint256)\""
  },
  input: {
    name: "input",
    value: "HEX",
    description: "the calldata itself, 0x and hex digits",
    example: "--input 0xa9059cbb"
  },
  payable: {
    name: "value",
    value: "AMOUNT",
    default: "none",
    description: "KLAY for a payable contract, with its unit: 1KLAY, 25ston",
    example: "--value 1KLAY"
  },
  contractGas: {
    name: "gas",
    value: "N",
    default: "the service's",
    description: "gas limit",
    example: "--gas 1000000"
  },
  caller: {
    name: "from",
    value: "ADDRESS",
    default: "the zero address",
    description: "the caller, msg.sender",
    example: "--from 0xa809284C83b901eD106Aba4Ccda14628Af128e14"
  },
  event: {
    name: "event",
    value: "SIGNATURE...",
    many: true,
    description: "decode the logs of these events",
    example: "--event \"Transfer(address indexed from,address indexed to,uint256 value)\""
  },
  callJson: {
    name: "json",
    description: "JSON: {data, result, outputs}",
    example: "--json | jq -r .outputs[0]"
  },
  legacy: {
    name: "legacy",
    description: "an Ethereum-style (legacy) transaction: the sender pays",
    example: "--legacy"
  },
  reliable: {
    name: "reliable",
    description: "sign, then submit until the outcome is known",
    example: "--reliable"
  },
  relayFrom: {
    name: "from",
    value: "ADDRESS",
    description: "checked against the RLP's sender, if given",
    example: "--from 0xa809284C83b901eD106Aba4Ccda14628Af128e14"
  },
  cancelNonce: {
    name: "nonce",
    value: "N",
    description: "the nonce of the pending transaction to cancel",
    example: "--nonce 7"
  },
  cancelHash: {
    name: "hash",
    value: "HASH",
    description: "the hash of the pending transaction to cancel",
    example: "--hash 0x0f6aafdb65534b8548decb372ebd7d9fec2251e75ad41cee317ed9924656c2c5"
  },
  data: {
    name: "data",
    value: "HEX",
    description: "the data to record: 0x and an even number of hex digits",
    example: "--data 0x5d3c4cbd2f6f1f10e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934c"
  },
  key: {
    name: "key",
    value: "JSON|FILE",
    description: "the new key: JSON {keyType, key}, or its file",
    example: "--key new-key.json",
    files: true
  },
  legacyKey: {
    name: "legacy",
    description: "the key the address was made from (keyType 1)",
    example: "--legacy"
  },
  failKey: {
    name: "fail",
    description: "the fail key: the account never sends again",
    example: "--fail"
  }
} as const satisfies Record<string, Spec.Flag>

const output = Shared.outputOf(flags.json)
const verb = Spec.verbsUnder(["tx"], [Shared.connection])
const rarely = (...more: ReadonlyArray<Spec.Flag>): Spec.Group => ({ title: "Rarely", flags: more, more: true })
// The flags every new kind shares after its own: who pays, waiting, and how it is sent.
const kindRarely = rarely(flags.feePayerPool, flags.nonce, flags.contractGas, flags.noSubmit)

// A sending command's help is the longest: its --wide goes with the rarely given flags, on their lines.
const sendingOutput: Spec.Group = { title: "Output", flags: [flags.json, Shared.flags.verbose] }

/** A command that sends a transaction: its own flags, the rarely given ones, then the output's. */
const sending = <const V extends string>(
  name: V,
  summary: string,
  description: ReadonlyArray<string>,
  own: Spec.Group,
  rare: Spec.Group,
  examples: ReadonlyArray<string>,
  positionals: ReadonlyArray<Spec.Positional> = []
) => verb(name, summary, description, positionals, [own, { ...rare, flags: [...rare.flags, Shared.flags.wide] }, sendingOutput], examples)

const send = sending("send", "transfer KLAY from an account of a pool", [
  `Send value from an account of the pool (${Route.route("valueTransfer")}, ${Route.path("feeDelegatedValueTransfer")} or`,
  `${Route.path("userFeeDelegatedValueTransfer")}); never retried once sent.`
], { title: "Transfer", flags: [flags.from, flags.to, flags.value, flags.memo, flags.feePayer, flags.feeRatio, flags.wait] }, rarely(
  flags.feePayerPool,
  flags.nonce,
  flags.gas,
  flags.noSubmit,
  flags.legacy,
  flags.reliable
), [
  "kas-wallet tx send --from \"$FROM\" --to \"$TO\" --value 1.5KLAY --wait",
  "kas-wallet tx send --from \"$FROM\" --to \"$TO\" --value 1KLAY --fee-payer global"
])

const deploy = sending("deploy", "deploy a contract from an account of a pool", [
  "Deploy a contract from an account of the pool; --wait shows its address:",
  `${Route.route("contractDeploy")} (fd/, fd-user/: fee payers). Never retried.`
], {
  title: "Deployment",
  flags: [flags.from, flags.bytecodeFile, flags.bytecode, flags.constructor, flags.args, flags.feePayer, flags.feeRatio, flags.contractGas, flags.wait]
}, rarely(flags.payable, flags.event, flags.feePayerPool, flags.nonce, flags.noSubmit, flags.legacy, flags.reliable), [
  "kas-wallet tx deploy --from \"$FROM\" --bytecode-file Token.bin --wait \\",
  "  --constructor \"constructor(uint256 supply)\" --args 1000 --fee-payer global"
])

const execute = sending("execute", "execute a contract's function from an account of a pool", [
  "Run a contract's function from a pool's account, by --method and --args or by",
  `--input: ${Route.route("contractExecution")} (fd/, fd-user/: fee payer). Never retried.`
], {
  title: "Execution",
  flags: [flags.from, flags.contract, flags.method, flags.args, flags.input, flags.feePayer, flags.feeRatio, flags.wait, flags.event]
}, rarely(flags.payable, flags.feePayerPool, flags.nonce, flags.contractGas, flags.noSubmit, flags.legacy, flags.reliable), [
  "kas-wallet tx execute --from \"$FROM\" --to \"$TOKEN\" --fee-payer global \\",
  "  --method \"transfer(address,uint256)\" --args \"$TO\" 1000 --wait"
])

const relay = sending("relay", "send a transaction given as RLP (a pool account's, or signed)", [
  "Send an RLP-encoded transaction (0x hex, at most 64 KiB) from <file> or stdin: a pool",
  "account's, which the service signs, or a signed one (the rlp of a failed --reliable):",
  `${Route.route("processRlp")} (fd/, fd-user/: fee payers).`
], { title: "Transaction", flags: [flags.relayFrom, flags.feePayer, flags.feeRatio, flags.wait, flags.reliable] }, rarely(
  flags.feePayerPool,
  flags.noSubmit
), [
  "kas-wallet tx relay signed.rlp --wait",
  "jq -r .rlp failed.json | kas-wallet tx relay - --fee-payer global"
], [{ name: "file", description: "file of the RLP; - or none: stdin", optional: true }])

const cancel = sending("cancel", "cancel a pending transaction of an account of a pool", [
  "Replace the sender's pending transaction, given by --nonce or by --hash (exactly one),",
  `with a cancel transaction: ${Route.route("cancelTransaction")} (${Route.path("feeDelegatedCancelTransaction")},`,
  `${Route.path("userFeeDelegatedCancelTransaction")}: fee payers).`
], {
  title: "Cancellation",
  flags: [flags.from, flags.cancelNonce, flags.cancelHash, flags.feePayer, flags.feeRatio, flags.wait, flags.reliable]
}, rarely(flags.feePayerPool, flags.contractGas, flags.noSubmit), [
  "kas-wallet tx cancel --from \"$FROM\" --nonce 7 --wait",
  "kas-wallet tx cancel --from \"$FROM\" --hash \"$HASH\" --fee-payer global"
])

const anchor = sending("anchor", "record data on the chain (chain data anchoring)", [
  "Record data (a document's hash, say) on the chain from an account of the pool:",
  `${Route.route("anchorTransaction")} (fd/, fd-user/: fee payers).`
], { title: "Anchoring", flags: [flags.from, flags.data, flags.feePayer, flags.feeRatio, flags.wait, flags.reliable] }, kindRarely, [
  "kas-wallet tx anchor --from \"$FROM\" --wait \\",
  "  --data \"0x$(sha256sum < doc.pdf | cut -c1-64)\""
])

const updateKey = sending("update-key", "set the account key of an account of a pool", [
  `Set the key of a pool's account (one of --key, --legacy, --fail): ${Route.route("accountUpdate")}`,
  "(fd/, fd-user/: fee payers). WARNING: a key KAS does not hold makes the account",
  "unusable through KAS; --fail disables it for good."
], {
  title: "Account update",
  flags: [flags.from, flags.key, flags.legacyKey, flags.failKey, flags.feePayer, flags.feeRatio, flags.wait, flags.reliable]
}, kindRarely, [
  "kas-wallet tx update-key --from \"$FROM\" --key multisig.json --wait",
  "kas-wallet tx update-key --from \"$FROM\" --legacy --fee-payer global"
])

const call = verb("call", "call a contract's function, read only", [
  `Call a function of a contract against the latest state (${Route.route("callContract")}): nothing is`,
  "signed or sent. Prints the calldata, the raw result and, with returns (...), the decoded outputs."
], [], [
  { title: "Call", flags: [flags.contract, flags.callMethod, flags.args, flags.caller] },
  rarely(flags.payable, flags.contractGas),
  Shared.outputOf(flags.callJson)
], [
  "kas-wallet tx call --to \"$TOKEN\" --method \"symbol() returns (string)\" --json",
  "kas-wallet tx call --to \"$TOKEN\" --args \"$FROM\" \\",
  "  --method \"balanceOf(address owner) view returns (uint256 balance)\""
])

const receipt = verb("receipt", "show the receipt of a transaction", [
  `Show the receipt of a transaction (${Route.route("getTransactionReceipt", { "transaction-hash": "hash" })}):`,
  "Pending until its block, then Committed (or CommitError) with the block, the gas, the fee, a",
  "contract's address and the logs. With --wait, poll until it is in a block."
], [{ name: "hash", description: "0x followed by 64 hex digits" }], [Shared.outputOf(flags.wait, flags.event, flags.json)], [
  "kas-wallet tx receipt \"$HASH\"",
  "kas-wallet tx receipt \"$HASH\" --wait --json | jq -r .status",
  "kas-wallet tx receipt \"$HASH\" \\",
  "  --event \"Transfer(address indexed from,address indexed to,uint256 value)\""
])

const sign = verb("sign", "an account's signature of a pending multisig transaction (not kept)", [
  `Sign a pending multisig transaction with an account of the pool (${Route.route("signTransactionById")}):`,
  "prints the signature {V, R, S}, which the service does not keep; kas-wallet accounts multisig",
  "append adds it."
], [Shared.address, Multisig.transactionId], [output], [
  'kas-wallet tx sign "$C" "$TX_ID"',
  'kas-wallet tx sign "$C" "$TX_ID" --json > signature.json'
])

/**
 * `kas-wallet tx` and its commands.
 *
 * @since 0.9.0
 * @category commands
 */
export const spec = Spec.parent({
  path: ["tx"],
  summary: "send value, deploy, execute and call contracts, read receipts",
  description: [
    "Value transfers, contract deployments and executions, raw (RLP) transactions, cancellations,",
    "anchorings and account-key updates from the accounts of a pool, their fee paid by the sender,",
    "the service (global fee payer) or your fee-payer account; read-only calls; receipts.",
    "Connection flags as for accounts."
  ],
  subcommands: [send, deploy, execute, relay, cancel, anchor, updateKey, call, receipt, sign],
  examples: [
    "kas-wallet emulator fund 0xa809284C83b901eD106Aba4Ccda14628Af128e14 10KLAY",
    "kas-wallet tx send --from \"$FROM\" --to \"$TO\" --value 1KLAY --fee-payer global",
    "kas-wallet tx deploy --from \"$FROM\" --bytecode-file Token.bin --wait"
  ]
})
