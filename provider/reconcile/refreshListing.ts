import { ANY_MARKER_FILTER } from "./createMarker";
import { type PlatformApi, type Row, str } from "./platform";

/** How long a listing serves the reads of one run: a refresh hands its reads over within seconds of each other. */
export const REFRESH_LISTING_FRESH_MS = 60_000;

interface Listing {
  takenAt: number;
  /** The session's mutation count when the listing was asked for: any change since makes it stale. */
  generation: number;
  rows: Promise<Map<string, Row> | undefined>;
  /** Keys already served: a second read of a row wants the platform's word, not the run's listing. */
  served: Set<string>;
}

/**
 * The run's listings of tables for reads (a refresh): the engine hands reads
 * over at most `--parallel` at a time, so a batching window sees only a few
 * (40 vnets at parallelism 2: 20 GETs). Instead the first read of a table
 * reads the rows of it that carry a create marker (this and other stacks'
 * rows, not the whole platform's), with the fields reads ask for, and the
 * run's following reads of that table are answered from it.
 *
 * A listing is served only while nothing has been sent to change the platform
 * since it was asked for, for a minute, and once per row; a row it does not
 * hold (adopted rows carry no marker, a deleted row) is read as before, so a
 * gone row is still reported gone. A listing never serves a create decision:
 * only the `read` operations ask for it, of the table their resource
 * declares (`refreshListing`: the kinds a lab holds many of).
 */
export class RefreshListings {
  readonly #listings = new Map<string, Listing>();

  constructor(
    private readonly api: PlatformApi,
    private readonly generation: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The row `key` of `table` from the run's listing, or undefined when the listing does not hold it (read it afresh). */
  async serve(table: string, key: string, fields: string): Promise<Row | undefined> {
    const id = JSON.stringify([table, fields]);
    let listing = this.#listings.get(id);
    if (!listing || !this.#fresh(listing)) {
      listing = this.#take(table, fields);
      this.#listings.set(id, listing);
    }
    const rows = await listing.rows;
    if (!rows || !this.#fresh(listing) || listing.served.has(key)) return undefined;
    const row = rows.get(key);
    if (row) listing.served.add(key);
    return row;
  }

  #fresh(listing: Listing): boolean {
    return listing.generation === this.generation() && this.now() - listing.takenAt <= REFRESH_LISTING_FRESH_MS;
  }

  #take(table: string, fields: string): Listing {
    const withKey = fields.split(",").includes("$key") ? fields : `$key,${fields}`;
    const asked = { takenAt: this.now(), generation: this.generation(), served: new Set<string>() };
    const rows = this.api
      .list(table, { filter: ANY_MARKER_FILTER, fields: withKey })
      .then((found) => new Map(found.map((row) => [str(row.$key), row])))
      .catch(() => undefined); // the reads go one by one, as without a listing
    return { ...asked, rows };
  }
}
