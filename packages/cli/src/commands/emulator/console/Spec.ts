/**
 * The command table of `kas-wallet emulator env | member | key | pool`: the emulator's shell
 * settings, and its members, keys and pools managed directly in its database; with the flags that
 * locate the database (`--data-dir`, `--db`), which the other emulator commands share. The
 * handlers are in `Handlers`.
 *
 * Plain data with no runtime import but the table's own (help stays free of effect).
 *
 * @since 0.9.0
 */
import * as Spec from "../../../input/Spec.js"
import * as Shared from "../../shared/Spec.js"

/**
 * The flags of the console commands, and the database's location, by key.
 *
 * @since 0.9.0
 * @category flags
 */
export const flags = {
  dataDir: {
    name: "data-dir",
    value: "DIR",
    env: "KAS_EMULATOR_DATA_DIR",
    default: "~/.kas-wallet/emulator, or under $XDG_DATA_HOME",
    description: "keeps the database and keys",
    example: "--data-dir ./.emulator",
    files: true
  },
  consoleDb: {
    name: "db",
    value: "PATH|URL",
    env: "KAS_EMULATOR_DB",
    default: "<data dir>/emulator.db",
    description: "database of the emulator",
    example: "--db ./emulator.db",
    files: true
  },
  accountId: {
    name: "account-id",
    value: "ID",
    env: "KAS_ACCOUNT_ID",
    description: "account id of the member (emulator env exports the started one's)",
    example: "--account-id 6c5f6a1e-0d3b-4f5e-9a0c-2f1e4d3c2b1a"
  },
  newAccountId: {
    name: "account-id",
    value: "ID",
    default: "a fresh UUID",
    description: "account id to give the member",
    example: "--account-id team-a"
  },
  withKey: {
    name: "with-key",
    description: "also create an API key for it (its secret is printed once)",
    example: "--with-key"
  },
  keyId: {
    name: "access-key-id",
    value: "ID",
    description: "AccessKey ID of the key",
    example: "--access-key-id KASK..."
  },
  poolChain: Shared.chainFlag({ name: "chain", env: "KAS_CHAIN_ID", description: "chain: 8217 (mainnet) or 1001 (testnet)", example: "--chain 1001" }),
  chainId: Shared.chainFlag({ name: "chain-id", description: "the same as --chain (an older spelling)", example: "--chain-id 1001" }),
  optionalPoolChain: Shared.chainFlag({
    name: "chain",
    default: "both",
    description: "only the pools of this chain: 8217 or 1001",
    example: "--chain 8217"
  }),
  optionalChainId: Shared.chainFlag({ name: "chain-id", description: "the same as --chain (an older spelling)", example: "--chain-id 8217" }),
  name: {
    name: "name",
    value: "NAME",
    description: "name of the pool",
    example: "--name payroll"
  },
  feePayer: {
    name: "fee-payer",
    description: "fee-payer pools (feepayer-pool) rather than account pools",
    example: "--fee-payer"
  },
  json: {
    name: "json",
    description: "JSON output: one document",
    example: "--json | jq ."
  }
} as const satisfies Record<string, Spec.Flag>

/**
 * Where a command finds the emulator's database: `--data-dir`, `--db`.
 *
 * @since 0.9.0
 * @category flags
 */
export const database: ReadonlyArray<Spec.Flag> = [flags.dataDir, flags.consoleDb]

const command = <const P extends ReadonlyArray<string>>(path: P, summary: string, own: ReadonlyArray<Spec.Flag>, example: string) =>
  Spec.command({
    path,
    summary,
    description: [`${Spec.sentence(summary)}, directly in the emulator's database.`],
    groups: [{ title: "Options", flags: [...own, ...database] }],
    examples: [example]
  })

const group = <const V extends string, const S extends ReadonlyArray<Spec.Command>>(name: V, summary: string, subcommands: S) =>
  Spec.parent({
    path: ["emulator", name],
    summary,
    description: [`${Spec.sentence(summary)}, directly in the emulator's database (running or not).`],
    subcommands,
    examples: subcommands.flatMap((c) => c.examples.slice(0, 1))
  })

/**
 * `kas-wallet emulator env | member | key | pool`.
 *
 * @since 0.9.0
 * @category commands
 */
export const commands = [
  Spec.command({
    path: ["emulator", "env"],
    summary: "print the KAS_* shell settings of its stored member",
    description: [
      "Print export lines for KAS_WALLET_URL, KAS_NODE_URL, KAS_CHAIN_ID, KAS_ACCOUNT_ID, KAS_ACCESS_KEY_ID,",
      "KAS_EMULATOR_DATA_DIR and KAS_SECRET_ACCESS_KEY (read from its file, never printed; absolute paths), so",
      "that kas-wallet accounts, the emulator's member, key and pool commands, and your programs use the emulator."
    ],
    groups: [{ title: "Options", flags: [flags.dataDir] }],
    examples: ["eval \"$(kas-wallet emulator env)\""]
  }),
  group("member", "create and list members (service accounts)", [
    command(["emulator", "member", "create"], "create a member, with a default pool on each chain", [
      flags.newAccountId,
      flags.withKey,
      flags.json
    ], "kas-wallet emulator member create --with-key"),
    command(["emulator", "member", "list"], "list the members", [flags.json], "kas-wallet emulator member list --json")
  ]),
  group("key", "create, list and delete API keys of members", [
    command(
      ["emulator", "key", "create"],
      "create an API key (at most 2 per member); prints its secret once",
      [flags.accountId, flags.json],
      "kas-wallet emulator key create --account-id <id>"
    ),
    command(
      ["emulator", "key", "list"],
      "list the API keys of a member, never their secrets",
      [flags.accountId, flags.json],
      "kas-wallet emulator key list --account-id <id>"
    ),
    command(
      ["emulator", "key", "delete"],
      "delete an API key of a member",
      [flags.accountId, flags.keyId, flags.json],
      "kas-wallet emulator key delete --account-id <id> --access-key-id KASK..."
    )
  ]),
  group("pool", "create and list account and fee-payer pools", [
    command(
      ["emulator", "pool", "create"],
      "create a named account pool (or fee-payer pool) on a chain; prints its KRN",
      [flags.name, flags.accountId, flags.poolChain, flags.chainId, flags.feePayer, flags.json],
      "kas-wallet emulator pool create --name payroll"
    ),
    command(
      ["emulator", "pool", "list"],
      "list the account pools (or fee-payer pools) of a member",
      [flags.accountId, flags.optionalPoolChain, flags.optionalChainId, flags.feePayer, flags.json, Shared.flags.wide],
      "kas-wallet emulator pool list"
    )
  ])
] as const
