import { RefreshListings, REFRESH_LISTING_FRESH_MS } from "./refreshListing";
import { ANY_MARKER_FILTER } from "./createMarker";
import type { PlatformApi, Row } from "./platform";
import { Session } from "./session";

/** A platform whose list answers `rows` (or throws `fail`), counting the reads. */
function platform(rows: Row[], fail?: Error) {
  const never = async (): Promise<never> => {
    throw new Error("no such request expected");
  };
  const reads: string[] = [];
  const api: PlatformApi = {
    async list(table, query) {
      reads.push(`${table}?fields=${query?.fields}&filter=${query?.filter}`);
      if (fail) throw fail;
      return rows;
    },
    get: never,
    create: never,
    update: never,
    remove: never,
    action: never,
  };
  return { api, reads };
}

const tagged = [
  { $key: 1, name: "a" },
  { $key: 2, name: "b" },
];

describe("RefreshListings: the reads of a run are answered from one read of the table's marked rows", () => {
  test("reads of several rows cost one GET of the rows that carry a create marker, with the asked fields and $key", async () => {
    const { api, reads } = platform(tagged);
    const listings = new RefreshListings(
      api,
      () => 0,
      () => 0,
    );
    expect(await Promise.all([listings.serve("vnets", "1", "name"), listings.serve("vnets", "2", "name")])).toEqual(tagged);
    expect(reads).toEqual([`vnets?fields=$key,name&filter=${ANY_MARKER_FILTER}`]);
  });

  test("a row the listing does not hold (gone, or adopted without a marker) is not vouched for: the caller reads it", async () => {
    const listings = new RefreshListings(
      platform(tagged).api,
      () => 0,
      () => 0,
    );
    expect(await listings.serve("vnets", "9", "name")).toBeUndefined();
  });

  test("a row is served once: a second read of it wants the platform's word", async () => {
    const listings = new RefreshListings(
      platform(tagged).api,
      () => 0,
      () => 0,
    );
    expect(await listings.serve("vnets", "1", "name")).toEqual(tagged[0]);
    expect(await listings.serve("vnets", "1", "name")).toBeUndefined();
  });

  test("a change sent since the listing was asked for makes it stale: the next read takes a new listing", async () => {
    const { api, reads } = platform(tagged);
    let mutations = 0;
    const listings = new RefreshListings(
      api,
      () => mutations,
      () => 0,
    );
    await listings.serve("vnets", "1", "name");
    mutations++;
    expect(await listings.serve("vnets", "2", "name")).toEqual(tagged[1]);
    expect(reads).toHaveLength(2);
  });

  test("a change sent while the listing was being read makes the listing serve nothing", async () => {
    let mutations = 0;
    const { api } = platform(tagged);
    const listings = new RefreshListings(
      { ...api, list: async (t, q) => ((mutations += 2), api.list(t, q)) },
      () => mutations,
      () => 0,
    );
    expect(await listings.serve("vnets", "1", "name")).toBeUndefined();
  });

  test("a listing older than its freshness is read again", async () => {
    const { api, reads } = platform(tagged);
    let now = 0;
    const listings = new RefreshListings(
      api,
      () => 0,
      () => now,
    );
    await listings.serve("vnets", "1", "name");
    now = REFRESH_LISTING_FRESH_MS + 1;
    await listings.serve("vnets", "2", "name");
    expect(reads).toHaveLength(2);
  });

  test("a failed listing leaves the reads to the caller", async () => {
    const failing = new RefreshListings(
      platform([], new Error("503")).api,
      () => 0,
      () => 0,
    );
    expect(await failing.serve("vnets", "1", "name")).toBeUndefined();
  });
});

describe("a session answers from a listing only the reads of the table a read operation lists", () => {
  /** A session over `platform(tagged)` that records its GETs. */
  function session() {
    const { api, reads } = platform(tagged);
    const gets: string[] = [];
    const get = async (table: string, key: string) => (gets.push(`${table}/${key}`), { $key: Number(key) });
    return { session: new Session({ ...api, get }), reads, gets };
  }

  test("a read operation's rows of its listed table come from one listing", async () => {
    const { session: s, reads, gets } = session();
    expect(await s.reading("vnets", () => Promise.all([s.get("vnets", "1", "name"), s.get("vnets", "2", "name")]))).toEqual(tagged);
    expect([reads.length, gets]).toEqual([1, []]);
  });

  test("another table (a device's rows carry no marker in their description), a read listing none, and reads outside a read operation go to the platform", async () => {
    const { session: s, reads, gets } = session();
    await s.reading("vnets", () => s.get("machine_devices", "1", "name"));
    await s.reading(undefined, () => s.get("vnets", "1", "name"));
    await s.get("vnets", "2", "name");
    expect([reads, gets]).toEqual([[], ["machine_devices/1", "vnets/1", "vnets/2"]]);
  });
});
