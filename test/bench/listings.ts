/**
 * The paged listings the streaming benchmarks measure, as parameters: the read-ahead benchmark
 * (readahead.ts) and the memory benchmark (memory.ts) run each entry against the fixed-body server
 * (server.ts), whose pages hold the entry's items (`fixtures.listingItems`). Adding a listing (the
 * multisig pending transactions, when the client has it) is one entry here and one item in
 * `fixtures.listingItems`.
 */
import { type Either, Schema, type Stream } from "effect"
import { Key, type WalletClient, type WalletError } from "../../src/index.js"
import * as DecodeAccounts from "../../src/internal/decodeAccounts.js"
import * as DecodeHistory from "../../src/internal/decodeHistory.js"
import * as DecodePending from "../../src/internal/decodePending.js"
import { keyPoolKrn, multisigAddress, multisigPath } from "./fixtures.js"

export interface Listing {
  /** The name a benchmark is given on its command line (`--measure <name> <items>`). */
  readonly name: string
  /** What its rows say: `accounts`, `fee-delegation records`, `keys`, `pending multisig transactions`. */
  readonly noun: string
  /** The client operation streamed. */
  readonly operation: string
  /** The wire path the server pages. */
  readonly path: string
  /** Every page, as the consumer pulls (the client's `...Pages` stream). */
  readonly pages: (client: WalletClient.Service, pageSize: number) => Stream.Stream<{ readonly items: ReadonlyArray<unknown> }, WalletError.WalletError>
  /** The client's decoder of one page of it (what `WalletClient` applies to each answer). */
  readonly decodePage: (json: unknown) => Either.Either<unknown, unknown>
  /** Every item (the client's item stream). */
  readonly items: (client: WalletClient.Service, pageSize: number) => Stream.Stream<unknown, WalletError.WalletError>
}

export const listings: ReadonlyArray<Listing> = [
  {
    name: "accounts",
    noun: "accounts",
    operation: "accounts / accountPages",
    path: "/v2/account",
    decodePage: DecodeAccounts.decodePage,
    pages: (client, pageSize) => client.accountPages({ pageSize }),
    items: (client, pageSize) => client.accounts({ pageSize })
  },
  {
    name: "history",
    noun: "fee-delegation records",
    operation: "feeDelegationHistory / feeDelegationHistoryPages",
    path: "/v2/history/fd/tx",
    decodePage: DecodeHistory.decodePage,
    pages: (client, pageSize) => client.feeDelegationHistoryPages({ pageSize }),
    items: (client, pageSize) => client.feeDelegationHistory({ pageSize })
  },
  {
    name: "keys",
    noun: "keys",
    operation: "keys / keyPages",
    path: "/v2/key",
    decodePage: Schema.decodeUnknownEither(Key.KeyPage),
    pages: (client, pageSize) => client.keyPages({ krn: keyPoolKrn, pageSize }),
    items: (client, pageSize) => client.keys({ krn: keyPoolKrn, pageSize })
  },
  {
    name: "multisig",
    noun: "pending multisig transactions",
    operation: "multisigTransactions / multisigTransactionPages",
    path: multisigPath,
    decodePage: DecodePending.decodePage,
    pages: (client, pageSize) => client.multisigTransactionPages(multisigAddress, { pageSize }),
    items: (client, pageSize) => client.multisigTransactions(multisigAddress, { pageSize })
  }
]

export const byName = (name: string): Listing => {
  const listing = listings.find((l) => l.name === name)
  if (listing === undefined) throw new Error(`no listing ${name}: ${listings.map((l) => l.name).join(", ")}`)
  return listing
}
