/**
 * The command table of `kas-wallet keys create | list | get | delete | sign`: the key service.
 * The handlers are in `Handlers`.
 *
 * Plain data with no runtime import but the table's own (help stays free of effect).
 *
 * @since 0.9.0
 */
import * as Route from "../../input/Route.js"
import * as Spec from "../../input/Spec.js"
import * as Shared from "../shared/Spec.js"

/**
 * The flags of the `keys` commands of their own (the key service), by key; the key pool is a
 * connection flag (`Shared.flags.keyPool`).
 *
 * @since 0.8.0
 * @category flags
 */
export const flags = {
  size: {
    name: "size",
    value: "N",
    default: "1",
    description: "how many keys to create, 1 to 100",
    example: "--size 10"
  },
  krn: {
    name: "krn",
    value: "KRN",
    default: "--key-pool, else the default key pool",
    description: "the pool to list: a key pool KRN",
    example: "--krn krn:1001:wallet:<member>:key-pool:default"
  },
  pageSize: {
    name: "page-size",
    value: "N",
    default: "100",
    description: "keys per request, 1 to 1000, not a total",
    example: "--page-size 50"
  },
  json: {
    name: "json",
    description: "JSON output: one document (with list --all, one key per line)",
    example: "--json | jq -r '.items[].keyId'"
  }
} as const satisfies Record<string, Spec.Flag>

const keyId: Spec.Positional = {
  name: "key-id",
  description: "krn:<chain>:wallet:<member>:key-pool:<name>:0x + 64 hex digits"
}

const verb = Spec.verbsUnder(["keys"], [Shared.outputOf(flags.json), Shared.connectionOf(Shared.flags.keyPool)])

/**
 * `kas-wallet keys` and its commands.
 *
 * @since 0.9.0
 * @category commands
 */
export const spec = Spec.parent({
  path: ["keys"],
  summary: "create, list, get, delete keys of the key service and sign with them",
  description: [
    `Keys held by the key service (${Route.path("createKeys")}) in key pools: created in batches, listed by pool, and`,
    "signing 32-byte hashes. The pool: --key-pool or KAS_KEY_POOL, else the member's default one."
  ],
  subcommands: [
    verb("create", "create keys in a key pool", [
      `Create --size keys in the selected key pool (${Route.route("createKeys")}; x-krn: --key-pool) and print their`,
      "key ids and public keys. Never retried once sent: creating is not idempotent."
    ], [], [{ title: "Keys", flags: [flags.size] }], [
      "kas-wallet keys create",
      "kas-wallet keys create --size 10 --json | jq -r '.items[].keyId'"
    ]),
    verb("list", "list a key pool's keys, newest first: one page, or all with --all", [
      `List the keys of a pool, newest first (${Route.route("listKeys")}?krn=): --krn, else --key-pool, else the`,
      "member's default key pool. One page and the cursor of the next, or every page with --all."
    ], [], [{ title: "Listing", flags: [flags.krn, flags.pageSize, Shared.flags.cursor, Shared.flags.all] }], [
      "kas-wallet keys list",
      "kas-wallet keys list --all --json > keys.ndjson"
    ]),
    verb("get", "show one key by key id", [
      `Show one key (${Route.route("getKey")}): its id, pool and public key, and the blob the service`,
      "keeps of it (encrypted; never the private key). The key id must be on the chain (--chain)."
    ], [keyId], [], [
      "kas-wallet keys get \"$KEY_ID\"",
      "kas-wallet keys get \"$KEY_ID\" --json | jq -r .publicKey"
    ]),
    verb("delete", "delete a key", [
      `Delete a key (${Route.route("deleteKey")}): it is gone from every read and cannot sign. Never`,
      "retried once sent."
    ], [keyId], [], [
      "kas-wallet keys delete \"$KEY_ID\""
    ]),
    verb("sign", "sign a 32-byte hash with a key", [
      `Sign a 32-byte hash with a key (${Route.route("signWithKey")}, no prefix added): prints the`,
      "65-byte signature (r, s, v). Hash the message yourself first (keccak-256, sha-256)."
    ], [keyId, { name: "hash", description: "0x followed by 64 hex digits (32 bytes)" }], [], [
      "kas-wallet keys sign \"$KEY_ID\" \"$HASH\"",
      "kas-wallet keys sign \"$KEY_ID\" \"0x$(sha256sum < doc.pdf | cut -c1-64)\" --json"
    ])
  ],
  examples: [
    "kas-wallet keys create --size 2",
    "kas-wallet keys list --json"
  ]
})
