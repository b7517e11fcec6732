import { type Row, rowsWhere, str } from "../../reconcile/platform";
import { perSession, type Session } from "../../reconcile/session";

/** How long a listing vouches for later checks: the checks of one engine run follow each other within seconds. */
export const CHECK_LISTING_FRESH_MS = 60_000;

interface Listing {
  readAt: number;
  rows: Promise<Row[]>;
}

const listings = perSession(() => new Map<string, Listing>());

/**
 * The engine calls `check` one resource at a time and waits for each answer,
 * so look-ups made in `check` cannot be batched by waiting for more: a batching
 * window makes every check sit it out alone (200 VMs: 200 GETs and 54 s spent
 * in checks). Instead the first check that needs a table reads the few columns
 * the checks use of ALL its rows, once, and the following checks answer from
 * that listing for a minute. A listing only ever vouches (a name is free, a key
 * exists): what it does not vouch for is looked up afresh before anything is
 * refused, so a stale listing never refuses wrongly.
 *
 * Resolves to undefined when the listing cannot be had (the read failed): the
 * caller looks up afresh.
 */
export async function checkListing(api: Session, table: string, fields: string, now = Date.now()): Promise<Row[] | undefined> {
  const id = JSON.stringify([table, fields]);
  const known = listings(api);
  let listing = known.get(id);
  if (!listing || now - listing.readAt > CHECK_LISTING_FRESH_MS) {
    listing = { readAt: now, rows: api.list(table, { fields }) };
    known.set(id, listing);
  }
  const taken = listing;
  return taken.rows.catch(() => {
    if (known.get(id) === taken) known.delete(id); // the next check reads again
    return undefined;
  });
}

/** The VM columns the name and machine-key checks use: one listing serves both. */
export const VM_CHECK_FIELDS = "$key,name,machine,is_snapshot";

/**
 * Whether a row of `table` has `column` = `value`: vouched for by the run's
 * listing of the table (`listedFields`, which hold `column`), else looked up afresh.
 */
export async function rowExists(api: Session, table: string, column: string, value: string, listedFields = column): Promise<boolean> {
  const listing = await checkListing(api, table, listedFields);
  if (listing?.some((row) => str(row[column]) === value)) return true;
  return (await rowsWhere(api, table, column, value, "$key")).length > 0;
}
