/**
 * The schema shapes several of the service's answers share: a page of a listing, and what a
 * delete returns.
 *
 * @internal
 */
import { Schema } from "effect"
import * as Pagination from "../Pagination.js"

/**
 * A page of a listing: `{ items, cursor }`, the cursor of the next page (`""` on the last).
 *
 * @internal
 */
export const page = <Item extends Schema.Schema.Any>(item: Item, identifier: string) =>
  Schema.Struct({ items: Schema.Array(item), cursor: Pagination.Cursor }).annotations({ identifier })

/**
 * A page whose `items` the service may leave out: a body without them decodes as an empty page.
 *
 * @internal
 */
export const pageOrEmpty = <Item extends Schema.Schema.Any>(item: Item, identifier: string) =>
  Schema.Struct({
    // `exact`: without it the encoded side is `Array | undefined`, and a failing item made the
    // message also print "Expected undefined, actual <the whole items array>" (~500 KB for a full page).
    items: Schema.optionalWith(Schema.Array(item), { default: () => [], exact: true }),
    cursor: Pagination.Cursor
  }).annotations({ identifier })

/**
 * What deleting a resource returns: `{ status: "deleted" }`.
 *
 * @internal
 */
export const deleted = (identifier: string) => Schema.Struct({ status: Schema.Literal("deleted") }).annotations({ identifier })
